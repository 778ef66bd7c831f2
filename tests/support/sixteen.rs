//! 16x16 Sudoku (POJ 3076, SPOJ SUDOKU, AcWing 169) from the outside: the solver's formats,
//! counts and errors, the Sudoku checker on 16x16 answers, and `judge gen --shape 16x16`.

use super::{judge, sudoku};
use predicates::prelude::*;
use sudoku_judge::sudoku_check;
use sudoku_judge::verdict::CheckOutcome;

/// The POJ 3076 sample, as the bundled case holds it (one copy of it in the repository).
fn poj3076() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("cases/poj3076/sample/input.txt");
    std::fs::read_to_string(path).expect("the bundled POJ 3076 sample")
}

fn empty() -> String {
    "----------------\n".repeat(16)
}

/// The checker's verdict on `output` for `input`, with no expected output to lean on.
fn checked(input: &str, output: &[u8]) -> CheckOutcome {
    sudoku_check::check(input.as_bytes(), &mut &output[..], None)
}

fn solved(input: &str) -> Vec<u8> {
    let out = sudoku().write_stdin(input).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

#[test]
fn poj3076_grids_are_answered_in_letters_a_blank_line_apart() {
    let input = format!("{}\n{}", poj3076(), empty().replace('-', "."));
    let out = solved(&input);
    assert_eq!(checked(&input, &out), CheckOutcome::Accepted);
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 33, "{text}");
    assert_eq!(lines[16], "", "answers are separated by one blank line");
    assert!(lines.iter().filter(|l| !l.is_empty()).all(|l| l.len() == 16 && l.bytes().all(|b| b.is_ascii_uppercase())));
    assert!(text.ends_with("\n") && !text.ends_with("\n\n"));
}

#[test]
fn spoj_files_start_with_a_count() {
    let input = format!("2\n{}\n{}", poj3076(), poj3076().replace('-', "0"));
    let out = solved(&input);
    assert_eq!(checked(&input, &out), CheckOutcome::Accepted);
    let half = out.len() / 2;
    assert_eq!(out[..half], out[half + 1..], "the same puzzle twice, the same answer twice");
}

#[test]
fn counting_is_exact_on_16x16_grids() {
    let counted = |input: String, cap: u32| {
        let out = sudoku().arg(format!("--count={cap}")).write_stdin(input).output().unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(counted(poj3076(), 5), "1\n");
    assert_eq!(counted(empty(), 7), "7\n");
    // A solved grid with a rectangle of four cells blanked, a and b on one diagonal and b
    // and a on the other, its two rows in one band of boxes: the letters can swap, so there
    // are exactly two solutions.
    let answer = String::from_utf8(solved(&poj3076())).unwrap();
    let mut rows: Vec<Vec<u8>> = answer.lines().map(|l| l.as_bytes().to_vec()).collect();
    let rectangle = (0..16).flat_map(|r1| (r1 + 1..r1 / 4 * 4 + 4).map(move |r2| (r1, r2))).find_map(|(r1, r2)| {
        let (top, bottom) = (&rows[r1], &rows[r2]);
        (0..16)
            .flat_map(|c1| (c1 + 1..16).map(move |c2| (c1, c2)))
            .find(|&(c1, c2)| top[c1] == bottom[c2] && top[c2] == bottom[c1])
            .map(|(c1, c2)| (r1, r2, c1, c2))
    });
    let (r1, r2, c1, c2) = rectangle.expect("the sample's answer has such a rectangle");
    for (r, c) in [(r1, c1), (r1, c2), (r2, c1), (r2, c2)] {
        rows[r][c] = b'-';
    }
    let puzzle: String = rows.iter().map(|r| String::from_utf8(r.clone()).unwrap() + "\n").collect();
    assert_eq!(counted(puzzle, 10), "2\n");
}

#[test]
fn clashing_letters_have_no_solution_and_say_where() {
    let input = poj3076().replacen("--A", "A-A", 1);
    sudoku()
        .write_stdin(input)
        .assert()
        .success()
        .stdout("no solution\n")
        .stderr(predicate::str::contains("A at line 1, column 1 and A at line 1, column 3 share a row"));
}

#[test]
fn malformed_16x16_input_is_located_after_the_good_cases_are_answered() {
    let cases = [
        (
            poj3076().replacen("-J--", "-J-Q", 1),
            "line 19, column 4: expected a letter A-P, or '-', '.' or '0' for a blank",
        ),
        (
            poj3076().replacen("-J--A-B-P-CGF-H-", "-J--A-B-P-CGF-H", 1),
            "line 19, column 16: expected a row of the 16x16",
        ),
        (
            poj3076().replacen("-J--A-B-P-CGF-H-", "-J--A-B-P-CGF-H-A", 1),
            "line 19, column 17: expected a row of the 16x16",
        ),
        (
            poj3076().lines().take(10).map(|l| format!("{l}\n")).collect(),
            "line 28, column 1: expected row 11 of the 16x16",
        ),
        (format!("{}\n", "103000509\n".repeat(9)), "line 18, column 1: expected a 16x16 case like the one at line 1"),
    ];
    for (second, message) in cases {
        let input = format!("{}\n{second}", poj3076());
        let out = sudoku().write_stdin(input.clone()).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{second}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(&format!("case 2, {message}")), "{stderr}");
        assert_eq!(checked(&poj3076(), &out.stdout), CheckOutcome::Accepted, "the first case is answered");
    }
    // And the other way round: a 16x16 grid after a 9x9 one.
    let input = format!("{}\n{}", "103000509\n".repeat(9), poj3076());
    sudoku().write_stdin(input).assert().code(1).stderr(predicate::str::contains(
        "case 2, line 11, column 1: expected a 9x9 case like the one at line 1, found a row of a 16x16 grid",
    ));
}

#[test]
fn the_checker_holds_16x16_answers_to_every_rule() {
    let good = solved(&poj3076());
    assert_eq!(checked(&poj3076(), &good), CheckOutcome::Accepted);
    let text = String::from_utf8(good).unwrap();
    // The sample's first given is the 'A' at row 1, column 3.
    let changed = text.replacen(&text[2..3], if &text[2..3] == "B" { "C" } else { "B" }, 1);
    let CheckOutcome::Wrong(why) = checked(&poj3076(), changed.as_bytes()) else { panic!("{changed}") };
    assert!(why.contains("row 1, column 3: the given A was changed to") || why.contains("appears twice"), "{why}");
    let swapped: String = text.lines().map(|l| format!("{}{}{}\n", &l[1..2], &l[0..1], &l[2..])).collect();
    let CheckOutcome::Wrong(why) = checked(&poj3076(), swapped.as_bytes()) else { panic!() };
    assert!(why.contains("given") || why.contains("appears twice in its"), "{why}");
    let digits = text.replacen('F', "6", 1);
    let CheckOutcome::Presentation(why) = checked(&poj3076(), digits.as_bytes()) else { panic!() };
    assert!(why.contains("expected a letter A-P, found '6'"), "{why}");
    let short = text.replacen('\n', "", 1);
    assert!(matches!(checked(&poj3076(), short.as_bytes()), CheckOutcome::Presentation(_)));
}

#[test]
fn gen_draws_16x16_puzzles_in_both_judges_formats() {
    let gen = |args: &[&str]| {
        let out = judge().args(["gen", "--shape", "16x16"]).args(args).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let poj = gen(&["-n", "2"]);
    assert!(poj.lines().next().unwrap().contains('-'), "POJ 3076 grids with '-' blanks by default");
    let count = |input: &str| String::from_utf8(sudoku().arg("--count=2").write_stdin(input).output().unwrap().stdout);
    assert_eq!(count(&poj).unwrap(), "1\n1\n", "unique, proved by counting");
    let spoj = gen(&["-n", "2", "--format", "poj", "--blank", "."]);
    assert!(spoj.starts_with("2\n") && !spoj.contains('-'), "{spoj}");
    assert_eq!(count(&spoj).unwrap(), "1\n1\n");
    assert_eq!(count(&gen(&["-n", "2", "--no-solution"])).unwrap(), "0\n0\n");
    judge()
        .args(["gen", "--shape", "16x16", "--format", "lines"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("grids"));
    judge().args(["gen", "--blank", "-"]).assert().code(2).stderr(predicate::str::contains("16x16"));
}

#[test]
fn the_vector_and_portable_candidate_counts_agree() {
    // The 16x16 engine counts candidates with SSE2 on x86-64 and in plain integers elsewhere;
    // both must give the same cells with one, two and three candidates.
    use sudoku_judge::solver::{count_candidates, count_candidates_portable};
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || super::xorshift(&mut state);
    for round in 0..2000 {
        let mut cand = [0u64; 64];
        for m in &mut cand {
            // Sparse and dense masks alike, as a search sees them.
            *m = next() & next() & if round % 2 == 0 { next() } else { !0 };
        }
        let expected = count_candidates_portable(&cand);
        assert_eq!(count_candidates(&cand), expected, "round {round}");
        // And the portable count is what it says: per cell, at least k digits.
        for b in 0..4 {
            for i in 0..64 {
                let n = (0..16).filter(|&d| cand[4 * d + b] >> i & 1 != 0).count();
                for (k, counted) in expected.iter().enumerate() {
                    assert_eq!(counted[b] >> i & 1 != 0, n > k, "round {round}, band {b}, cell {i}");
                }
            }
        }
    }
}
