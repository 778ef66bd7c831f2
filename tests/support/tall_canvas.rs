//! Issue 27's reader rules: a block of lines with no blank line between is one canvas,
//! whatever its height; grids stacked as POJ 2676 sends them stay separate cases; the 21-line
//! cut of a Samurai holds only where T says another case follows.

use super::sudoku;
use predicates::prelude::*;
use sudoku_judge::solver::{Puzzle, Reader, Shape};
use sudoku_judge::sudoku_check;
use sudoku_judge::verdict::CheckOutcome;

fn case_file(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("cases/gattai").join(name).join("input.txt");
    std::fs::read_to_string(path).unwrap()
}

/// Every case of `input`, or the first error's text.
fn read_all(input: &str) -> Result<Vec<Puzzle>, String> {
    let mut reader = Reader::new(input.as_bytes());
    let mut cases = Vec::new();
    while let Some(case) = reader.next_case() {
        cases.push(case.map_err(|e| e.to_string())?);
    }
    Ok(cases)
}

fn corners(puzzle: &Puzzle) -> Vec<(usize, usize)> {
    match &puzzle.shape {
        Shape::Canvas(c) => c.grids.clone(),
        other => panic!("expected a canvas, found {other:?}"),
    }
}

/// Solves `input` with the binary and checks the answer with the `sudoku` checker.
fn solved_and_checked(input: &str) {
    let out = sudoku().write_stdin(input.to_string()).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let verdict = sudoku_check::check(input.as_bytes(), &mut out.stdout.as_slice(), None);
    assert_eq!(verdict, CheckOutcome::Accepted, "{}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn a_vertical_twodoku_is_one_canvas_with_or_without_t() {
    let twodoku = case_file("vertical-twodoku");
    assert_eq!(twodoku.lines().count(), 15);
    for input in [twodoku.clone(), format!("1\n{twodoku}"), format!("2\n{twodoku}\n{twodoku}")] {
        let cases = read_all(&input).unwrap();
        assert!(!cases.is_empty());
        for case in &cases {
            // Like a horizontal one (9 lines of 15 cells), every window of it is a grid.
            assert_eq!(corners(case), [(0, 0), (3, 0), (6, 0)]);
        }
        solved_and_checked(&input);
    }
}

#[test]
fn stacked_grids_without_blank_lines_stay_separate_cases() {
    let grid = "103000509\n002109400\n000704000\n300502006\n060000050\n700803004\n000401000\n009205800\n804000107\n";
    for input in [format!("3\n{grid}{grid}{grid}"), format!("{grid}{grid}"), grid.repeat(8)] {
        let cases = read_all(&input).unwrap();
        assert!(cases.len() >= 2, "{input}");
        assert!(cases.iter().all(|c| c.shape == Shape::Rows));
    }
    // A POJ file is one block of thousands of grids: each case is still a grid.
    let big = format!("2000\n{}", grid.repeat(2000));
    assert_eq!(read_all(&big).unwrap().len(), 2000);
}

#[test]
fn a_samurai_with_a_sixth_grid_below_is_not_cut_at_21_lines() {
    let six = case_file("samurai-sixth-grid");
    assert_eq!(six.lines().count(), 27);
    for input in [six.clone(), format!("1\n{six}"), format!("2\n{six}\n{six}")] {
        for case in read_all(&input).unwrap() {
            assert_eq!(corners(&case), [(0, 0), (0, 12), (6, 6), (12, 0), (12, 12), (18, 6)]);
        }
        solved_and_checked(&input);
    }
}

#[test]
fn samurai_cases_back_to_back_still_end_at_21_lines_where_t_needs_it() {
    let seed =
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("cases/samurai/seed/input.txt"))
            .unwrap();
    let seed = seed.trim_end().to_string() + "\n";
    let grid = "103000509\n002109400\n000704000\n300502006\n060000050\n700803004\n000401000\n009205800\n804000107\n";
    let input = format!("3\n{seed}{seed}{grid}");
    let cases = read_all(&input).unwrap();
    assert_eq!(cases.len(), 3);
    assert_eq!(corners(&cases[1]).len(), 5);
    assert_eq!(cases[2].shape, Shape::Rows);
    solved_and_checked(&input);
}

#[test]
fn errors_in_a_tall_block_name_the_line_and_column_that_are_wrong() {
    let twodoku = case_file("vertical-twodoku");
    let mut lines: Vec<String> = twodoku.lines().map(String::from).collect();
    // A letter in the twelfth line: the grid reader meets it in the block's second part.
    lines[11].replace_range(4..5, "x");
    let bad = lines.join("\n") + "\n";
    sudoku().write_stdin(bad).assert().code(1).stderr(predicate::str::contains("line 12, column 5: expected a digit"));
    // A line too many after the one case T announces is still that, not a cell outside a grid.
    let grid = "103000509\n002109400\n000704000\n300502006\n060000050\n700803004\n000401000\n009205800\n804000107\n";
    sudoku().write_stdin(format!("1\n{grid}000000000\n")).assert().code(1).stderr(predicate::str::contains(
        "line 11, column 1: expected the end of the input after the 1 case that line 1 announces",
    ));
    // A cell that no grid of the whole block covers is blamed where it is.
    let mut lines: Vec<String> = case_file("samurai-sixth-grid").lines().map(String::from).collect();
    lines[21].replace_range(0..1, "5");
    let out = sudoku().write_stdin(lines.join("\n") + "\n").output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("line 22, column 1: expected a space: '5' is outside every 9x9 grid"), "{stderr}");
}

/// Issue 34: grids stacked as POJ 2676 sends them are never joined into a canvas, whatever
/// follows them. For k valid grids, then r rows of one more, then a fault (the end of the
/// input, a blank line, `end`, or a line that is no row), with T and without: the k grids are
/// answered as alone (the checker accepts the answer against the k grids' own input), and the
/// error names case k + 1 and the line and column of the fault itself. (One grid then 3 or 6
/// rows reads as a vertical canvas of 12 or 15 lines too; one without solution, as these are,
/// is the grid and a fault: see docs/solver.md.)
#[test]
fn a_fault_anywhere_in_a_stack_of_grids_leaves_every_grid_before_it_answered_alone() {
    use sudoku_judge::solver::{solve_all, Failure, Mode};
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("cases/poj2676/top1465-t10/input.txt"),
    )
    .unwrap();
    let rows: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(rows.len(), 90);
    // The fault line, and the column the error must name on it.
    let faults: [(Option<&str>, usize); 7] = [
        (None, 1),
        (Some(""), 1),
        (Some("end"), 1),
        (Some("12x456789"), 3),
        (Some("1 2 3 4 5"), 2),
        (Some("1234567890"), 10),
        (Some("12345678"), 9),
    ];
    for k in 1..=9 {
        for r in 1..=8 {
            for &(fault, column) in &faults {
                for counted in [false, true] {
                    let head = if counted { format!("{}\n", k + 1) } else { String::new() };
                    let mut input = head.clone() + &rows[..9 * k + r].join("\n") + "\n";
                    if let Some(line) = fault {
                        input += &format!("{line}\n");
                    }
                    let (mut out, mut notes) = (Vec::new(), Vec::new());
                    let result = solve_all(input.as_bytes(), Mode::Solve, &mut out, &mut notes);
                    let what = format!("{k} grids, {r} rows, then {fault:?}, T: {counted}");
                    let line = usize::from(counted) + 9 * k + r + 1;
                    match result {
                        Err(Failure::Input(e)) => {
                            assert_eq!((e.case, e.line, e.column), (k + 1, line, column), "{what}: {e}")
                        }
                        other => panic!("{what}: expected an input error, got {other:?}"),
                    }
                    let head = if counted { format!("{k}\n") } else { String::new() };
                    let alone = head + &rows[..9 * k].join("\n") + "\n";
                    let verdict = sudoku_check::check(alone.as_bytes(), &mut out.as_slice(), None);
                    assert_eq!(verdict, CheckOutcome::Accepted, "{what}: {}", String::from_utf8_lossy(&out));
                }
            }
        }
    }
}
