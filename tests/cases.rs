//! Replays every case folder under `cases/` as its own named test (`poj2676::sample`), and
//! validates every expected output with the `sudoku` checker (`expected::poj2676::sample`).
//!
//! Each replay runs the built solver (or the fixture, for harness cases) through the same
//! engine the `judge` binary uses, asserts the verdict the case expects, and snapshots its
//! exit status, stdout and stderr with insta (timings left out). Accept a reviewed change
//! with `cargo insta review`, or `INSTA_UPDATE=always cargo test --test cases`.

use libtest_mimic::{Arguments, Failed, Trial};
use std::path::Path;
use sudoku_judge::cases::{discover, Case};
use sudoku_judge::check::CheckerKind;
use sudoku_judge::engine::{self, Options};
use sudoku_judge::problems;
use sudoku_judge::solver::{Reader, Solver};
use sudoku_judge::sudoku_check;
use sudoku_judge::verdict::{CheckOutcome, Verdict};

/// Lines of stdout kept in a snapshot; longer outputs are summarised by size and hash.
const SNAPSHOT_LINES: usize = 40;

fn options() -> Options {
    let judge = assert_cmd::cargo::cargo_bin!("judge");
    let sudoku = assert_cmd::cargo::cargo_bin!("sudoku");
    Options {
        keep_output: true,
        ..Options::new(
            engine::from_words(&[sudoku.display().to_string()], judge).expect("solver path"),
            judge.to_path_buf(),
        )
    }
}

/// FNV-1a: a stable fingerprint for outputs too long to keep whole in a snapshot.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

fn shown(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() <= SNAPSHOT_LINES && bytes.len() <= 8192 {
        return text.into_owned();
    }
    let head: Vec<&str> = lines.iter().take(SNAPSHOT_LINES).map(|l| &l[..l.len().min(200)]).collect();
    format!(
        "{}\n... {} lines, {} bytes in all, fnv1a {:016x}\n",
        head.join("\n"),
        lines.len(),
        bytes.len(),
        fnv1a(bytes)
    )
}

fn replay(case: &Case) -> Result<(), Failed> {
    let options = options();
    // The replay's programs run through a launcher of its own, ended with it.
    let runner = sudoku_judge::exec::Runner::new(options.setup.clone());
    let result = engine::run_case(&runner, case, &options);
    let expected = case.config.expect.unwrap_or(Verdict::Ac);
    if !result.passed {
        return Err(format!(
            "{}: got {} ({}), expected {}; stderr: {}",
            case.name,
            result.verdict,
            result.detail,
            expected,
            String::from_utf8_lossy(&result.facts.stderr)
        )
        .into());
    }
    let f = &result.facts;
    let status = match (f.exit_code, f.signal) {
        (Some(code), _) => format!("exit code {code}"),
        (None, Some(sig)) => format!("signal {}", sudoku_judge::exec::signal_name(sig)),
        (None, None) => "did not run".to_string(),
    };
    let snapshot = format!(
        "verdict: {}\nstatus: {status}\n--- stdout\n{}--- stderr\n{}",
        result.verdict,
        shown(&f.stdout.read_all()?),
        shown(&f.stderr)
    );
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("snapshots/cases");
    settings.set_prepend_module_to_snapshot(false);
    settings.set_description(format!("cases/{}", case.name));
    settings.set_omit_expression(true);
    let name = case.name.replace('/', "__");
    settings.bind(|| insta::assert_snapshot!(name, snapshot));
    Ok(())
}

/// An expected output must satisfy the `sudoku` checker on its own: givens kept, every unit
/// a permutation. `no solution` must be proven by the givens or by an exhaustive count.
fn validate_expected(case: &Case) -> Result<(), Failed> {
    let (Some(input), Some(expected)) = (&case.input, &case.expected) else { return Ok(()) };
    let input = std::fs::read(input)?;
    let expected = std::fs::read(expected)?;
    let mut reader = Reader::new(&input);
    let mut solver = Solver::new();
    let claims_none = String::from_utf8_lossy(&expected).contains("no solution");
    let unique = case.config.tags.iter().any(|t| t == "unique");
    while let Some(Ok(puzzle)) = reader.next_case() {
        if unique {
            let n = solver.count(&puzzle, 2);
            if n != 1 {
                return Err(format!(
                    "case {} is tagged unique but has {n}{} solutions",
                    puzzle.case,
                    if n == 2 { "+" } else { "" }
                )
                .into());
            }
        }
    }
    // Where the expected output claims 'no solution', accept the claim only if no case of
    // the input has a solution that an exhaustive count can find.
    let answer = if claims_none {
        let mut reader = Reader::new(&input);
        while let Some(Ok(puzzle)) = reader.next_case() {
            if puzzle.first_conflict().is_none() && solver.count(&puzzle, 1) > 0 {
                return Err(format!("case {} has a solution, yet the expected output says none", puzzle.case).into());
            }
        }
        Some(expected.as_slice())
    } else {
        None
    };
    let mut answer = answer;
    match sudoku_check::check(&input, &mut expected.as_slice(), answer.as_mut().map(|a| a as &mut dyn std::io::BufRead))
    {
        CheckOutcome::Accepted => Ok(()),
        other => Err(format!("{}: the expected output fails the sudoku checker: {other:?}", case.name).into()),
    }
}

/// The problems whose suite `case` belongs in: its input is exactly what that judge sends,
/// it is an ordinary solver case with an expected output, and every puzzle in it has a
/// solution (exactly one where the judge promises that).
fn suites_of(case: &Case) -> Vec<&'static str> {
    let (Some(input), Some(expected)) = (&case.input, &case.expected) else { return Vec::new() };
    if case.config.solver.is_some() || case.config.expect.is_some() {
        return Vec::new();
    }
    let (Ok(input), Ok(expected)) = (std::fs::read(input), std::fs::read(expected)) else { return Vec::new() };
    if String::from_utf8_lossy(&expected).contains("no solution") {
        return Vec::new();
    }
    let mut solver = Solver::new();
    let mut counts = Vec::new();
    let mut reader = Reader::new(&input);
    while let Some(Ok(puzzle)) = reader.next_case() {
        counts.push(solver.count(&puzzle, 2));
    }
    problems::PROBLEMS
        .iter()
        .filter(|p| p.obeys(&input).is_ok())
        .filter(|p| counts.iter().all(|&n| if p.unique { n == 1 } else { n >= 1 }))
        .map(|p| p.name)
        .collect()
}

/// Every case is tagged with exactly the suites it belongs in, and each suite has 20 cases or
/// more. On a mismatch the message lists the tags each case should have.
fn suites_are_honest(cases: &[Case]) -> Result<(), Failed> {
    let mut wrong = Vec::new();
    let mut sizes = std::collections::BTreeMap::new();
    for case in cases {
        let want = suites_of(case);
        for name in &want {
            *sizes.entry(*name).or_insert(0) += 1;
        }
        let have: Vec<&str> = case
            .config
            .tags
            .iter()
            .map(String::as_str)
            .filter(|t| problems::PROBLEMS.iter().any(|p| p.name == *t))
            .collect();
        if have != want {
            wrong.push(format!("{}: tagged {have:?}, belongs in {want:?}", case.name));
        }
    }
    if !wrong.is_empty() {
        return Err(format!("suite tags disagree with the inputs:\n{}", wrong.join("\n")).into());
    }
    for p in problems::PROBLEMS {
        let n = sizes.get(p.name).copied().unwrap_or(0);
        if n < 20 {
            return Err(format!("the {} suite has {n} cases; it needs 20", p.name).into());
        }
    }
    Ok(())
}

fn main() {
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).expect("package root");
    let args = Arguments::from_args();
    let cases = discover(&[Path::new("cases").to_path_buf()]).expect("cases/ is readable");
    assert!(cases.len() >= 100, "the corpus shrank to {} cases", cases.len());
    let mut trials = Vec::new();
    let all = cases.clone();
    trials.push(Trial::test("suites::tags_match_the_inputs", move || suites_are_honest(&all)));
    for case in cases {
        let name = case.name.replace('/', "::");
        let is_sudoku = matches!(case.config.checker, Some(CheckerKind::Sudoku | CheckerKind::Lines))
            && case.config.solver.is_none();
        if is_sudoku && case.expected.is_some() {
            let c = case.clone();
            trials.push(Trial::test(format!("expected::{name}"), move || validate_expected(&c)));
        }
        let kind = case.name.split('/').next().unwrap_or("").to_string();
        trials.push(Trial::test(name, move || replay(&case)).with_kind(kind));
    }
    libtest_mimic::run(&args, trials).exit();
}
