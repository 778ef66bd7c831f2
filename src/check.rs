//! Checkers: compare a solver's output with the expected one, or validate it on its own.
//!
//! - `lines` (default): CRLF, trailing spaces and trailing blank lines do not matter.
//! - `exact`: bytes. `tokens`: whitespace-separated words.
//! - `float`: words, where two numbers match within 1e-6, absolute or relative (testlib's
//!   rcmp6); `floatN` within 1e-N for N from 1 to 15 (`float9` is rcmp9).
//! - `sudoku`: the special judge POJ 2676 needs; see [`crate::sudoku_check`].
//! - external: a testlib-style program run as `CHECKER input output answer`.
//!
//! All comparisons are on bytes, never on UTF-8 strings, so invalid UTF-8 cannot crash them,
//! and on streams (see [`crate::streams`]), so no output or expected file is held whole.

pub use crate::cases::checker::CheckerKind;
use crate::exec::{self, Program};
use crate::limits::Limits;
use crate::spool::Spool;
use crate::streams::{first_mismatch, next_word, same, Mismatch, NormalLines, Raw, Tokens};
use crate::verdict::CheckOutcome;
use std::io::{self, BufRead, BufReader, Cursor, Seek};
use std::path::Path;
use std::time::Duration;

/// The largest input the `sudoku` checker reads.
pub const SUDOKU_INPUT_MAX: u64 = 128 << 20;

/// A checker ready to run: built in, or an external program.
#[derive(Clone, Debug)]
pub enum Checker {
    Builtin(CheckerKind),
    External(Program),
}

/// How much CPU time an external checker may take (its wall-clock limit is twice that).
pub const CHECKER_TIME: Duration = Duration::from_secs(10);

/// A stream that can be read again from an earlier place.
pub trait Source: BufRead + Seek {}
impl<T: BufRead + Seek> Source for T {}

/// Opens a fresh stream over one side of a comparison; called once per view compared.
pub type Opener<'a> = &'a dyn Fn() -> io::Result<Box<dyn Source + 'a>>;

/// Judges the output in `output` for a case whose input is at `input` and expected output
/// (if any) at `expected`. Outputs and expected files are read as streams, never whole.
/// An external checker runs through `runner`.
pub fn check(
    runner: &exec::Runner,
    checker: &Checker,
    input: &Path,
    expected: Option<&Path>,
    output: &Spool,
) -> CheckOutcome {
    let open_answer = |path: &Path| crate::regular::open(path).map(|f| BufReader::with_capacity(1 << 16, f));
    if let Some(path) = expected {
        if let Err(e) = open_answer(path) {
            return CheckOutcome::Failed(format!("cannot read the expected output: {e}"));
        }
    }
    match checker {
        Checker::Builtin(CheckerKind::Sudoku) => {
            // The input is read whole: the checker needs every puzzle's givens, and the
            // solver had to read all of it too. Past a size no Sudoku input reaches (a million
            // puzzle lines is 82 MB) it is not read at all: the judge's memory stays small.
            if let Ok(meta) = std::fs::metadata(input) {
                if meta.len() > SUDOKU_INPUT_MAX {
                    return CheckOutcome::Failed(format!(
                        "the input is {} bytes; the sudoku checker reads inputs of at most {SUDOKU_INPUT_MAX}",
                        meta.len()
                    ));
                }
            }
            let input = match crate::regular::read(input) {
                Ok(i) => i,
                Err(e) => return CheckOutcome::Failed(format!("cannot read the input: {e}")),
            };
            let opened = (output.reader(), expected.map(open_answer).transpose());
            match opened {
                (Ok(mut out), Ok(mut answer)) => {
                    crate::sudoku_check::check(&input, &mut out, answer.as_mut().map(|a| a as &mut dyn BufRead))
                }
                (Err(e), _) | (_, Err(e)) => CheckOutcome::Failed(format!("cannot read the output: {e}")),
            }
        }
        Checker::Builtin(kind) => match expected {
            None => CheckOutcome::NothingToCompare,
            Some(path) => compare_streams(*kind, &|| Ok(Box::new(output.reader()?) as Box<dyn Source>), &|| {
                Ok(Box::new(open_answer(path)?) as Box<dyn Source>)
            }),
        },
        Checker::External(program) => external(runner, program, input, expected, output),
    }
}

/// Compares with a built-in rule. A mismatch whose words all match is PE, not WA.
pub fn compare(kind: CheckerKind, output: &[u8], answer: &[u8]) -> CheckOutcome {
    compare_streams(kind, &|| Ok(Box::new(Cursor::new(output)) as Box<dyn Source>), &|| {
        Ok(Box::new(Cursor::new(answer)) as Box<dyn Source>)
    })
}

/// As [`compare`], over streams: up to three passes (bytes, lines, words), each in memory
/// independent of the sizes.
pub fn compare_streams(kind: CheckerKind, output: Opener<'_>, answer: Opener<'_>) -> CheckOutcome {
    match compare_views(kind, output, answer) {
        Ok(outcome) => outcome,
        Err(e) => CheckOutcome::Failed(format!("cannot read the output or the expected output: {e}")),
    }
}

fn compare_views(kind: CheckerKind, output: Opener<'_>, answer: Opener<'_>) -> io::Result<CheckOutcome> {
    let raw = || same(&mut Raw(output()?), &mut Raw(answer()?));
    let same_lines = || same(&mut NormalLines::new(output()?), &mut NormalLines::new(answer()?));
    let tokens = || same(&mut Tokens::new(output()?), &mut Tokens::new(answer()?));
    // Only a wrong answer pays for reading both files to the end to count their lines.
    let lines = || first_mismatch(&mut NormalLines::new(output()?), &mut NormalLines::new(answer()?), true);
    let wrong = |m: Option<Mismatch>| CheckOutcome::Wrong(describe(m));
    Ok(match kind {
        CheckerKind::Float(digits) => compare_numbers(&mut output()?, &mut answer()?, 10f64.powi(-i32::from(digits)))?,
        CheckerKind::Exact => {
            if raw()? {
                CheckOutcome::Accepted
            } else if same_lines()? {
                CheckOutcome::Presentation(
                    "the lines match, but line endings or trailing spaces differ (exact checker)".into(),
                )
            } else if tokens()? {
                CheckOutcome::Presentation("every word matches, but spacing or line breaks differ".into())
            } else {
                wrong(lines()?)
            }
        }
        CheckerKind::Lines | CheckerKind::Sudoku => {
            if same_lines()? {
                CheckOutcome::Accepted
            } else if tokens()? {
                CheckOutcome::Presentation("every word matches, but spacing or line breaks differ".into())
            } else {
                wrong(lines()?)
            }
        }
        CheckerKind::Tokens => {
            if tokens()? {
                CheckOutcome::Accepted
            } else {
                wrong(lines()?)
            }
        }
    })
}

/// Longest word kept whole: a number is far shorter; past this, a word is compared by its
/// first bytes, its length and a hash of the rest.
const MAX_WORD: usize = 4096;

/// Word by word: numbers within `eps` (absolute, or relative to the expected one), anything
/// else exactly.
fn compare_numbers(output: &mut dyn Source, answer: &mut dyn Source, eps: f64) -> io::Result<CheckOutcome> {
    let (mut got, mut want) = (Vec::new(), Vec::new());
    let mut words = 0u64;
    loop {
        let found = next_word(output, &mut got, MAX_WORD)?;
        let expected = next_word(answer, &mut want, MAX_WORD)?;
        let shown = |w: &[u8]| String::from_utf8_lossy(w).into_owned();
        match (found, expected) {
            (None, None) => return Ok(CheckOutcome::Accepted),
            (None, Some(_)) => {
                return Ok(CheckOutcome::Wrong(format!("the output ends after {words} words; more were expected")))
            }
            (Some(_), None) => {
                return Ok(CheckOutcome::Wrong(format!("the output goes on after the {words} words expected")))
            }
            (Some(got_whole), Some(want_whole)) => {
                words += 1;
                // A word cut at MAX_WORD is no number: the rest must match too (by length
                // and hash, since it was not kept).
                let cut = got_whole.0.max(want_whole.0) > MAX_WORD as u64;
                if (cut && got_whole != want_whole) || !close(&got, &want, eps) {
                    return Ok(CheckOutcome::Wrong(format!(
                        "word {words}: expected {}, found {}",
                        shown(&want),
                        shown(&got)
                    )));
                }
            }
        }
    }
}

/// Equal words, or two finite numbers within `eps` of each other, absolutely or relative to
/// the expected one (`want`).
fn close(got: &[u8], want: &[u8], eps: f64) -> bool {
    if got == want {
        return true;
    }
    // As testlib reads them: `nan`, `inf` and numbers too large for a double are numbers; a
    // NaN matches only a NaN, an infinity only the same infinity.
    let number = |w: &[u8]| std::str::from_utf8(w).ok()?.parse::<f64>().ok();
    match (number(got), number(want)) {
        (Some(x), Some(y)) if x.is_nan() || y.is_nan() => x.is_nan() && y.is_nan(),
        (Some(x), Some(y)) if x.is_infinite() || y.is_infinite() => x == y,
        (Some(x), Some(y)) => {
            let diff = (x - y).abs();
            // The small slack absorbs the rounding of the decimal-to-binary conversion.
            diff <= eps * (1.0 + 1e-9) || diff <= eps * y.abs() * (1.0 + 1e-9)
        }
        _ => false,
    }
}

/// Where the output first leaves the expected one, by line.
fn describe(m: Option<Mismatch>) -> String {
    match m {
        None => "the output differs from the expected one".into(),
        Some(m) if !m.one_ends_first => format!("line {}, column {} differs", m.line, m.column),
        Some(Mismatch { lines: (o, a), .. }) if o < a => format!("the output ends after {o} lines; {a} were expected"),
        Some(Mismatch { lines: (o, a), .. }) => format!("the output has {o} lines; {a} were expected"),
    }
}

/// The first line (1-based) where the output and the expected file differ as lines, or as
/// bytes when their lines agree: where a diff for the report should start.
pub fn first_different_line(output: &Spool, expected: &Path) -> Option<u64> {
    let answer = || crate::regular::open(expected).map(BufReader::new);
    let lines =
        first_mismatch(&mut NormalLines::new(output.reader().ok()?), &mut NormalLines::new(answer().ok()?), false);
    match lines.ok()? {
        Some(m) => Some(m.line),
        None => first_mismatch(&mut Raw(output.reader().ok()?), &mut Raw(answer().ok()?), false).ok()?.map(|m| m.line),
    }
}

/// Runs a testlib-style checker: exit 0 AC, 1 WA, 2 and 4 PE, 3 checker failure (IE),
/// 7 partial points (`points X` on stderr, X the share of the case's points from 0 to 1, as
/// DMOJ, Luogu and UOJ read testlib's `quitp`), 16 + k partial (`_pc(k)`: k percent of the
/// case's points). Its stderr is the feedback.
fn external(
    runner: &exec::Runner,
    program: &Program,
    input: &Path,
    expected: Option<&Path>,
    output: &Spool,
) -> CheckOutcome {
    let dir = match tempfile::tempdir_in(crate::interrupt::temp_root()) {
        Ok(d) => d,
        Err(e) => return CheckOutcome::Failed(format!("cannot make a folder for the checker: {e}")),
    };
    let out_path = dir.path().join("output.txt");
    let empty = dir.path().join("answer.txt");
    // A copy, so a checker that writes to its output file cannot change what we judged.
    let copied = match output.path() {
        Some(spooled) => std::fs::copy(spooled, &out_path).map(drop),
        None => std::fs::write(&out_path, b""),
    };
    if let Err(e) = copied.and_then(|_| std::fs::write(&empty, b"")) {
        return CheckOutcome::Failed(format!("cannot write the output for the checker: {e}"));
    }
    let answer = expected.unwrap_or(&empty);
    let mut full = program.clone();
    full.args.extend([input.into(), out_path.clone().into(), answer.into()]);
    full.env.extend([
        ("INPUT".into(), input.into()),
        ("ACTUAL_OUTPUT".into(), out_path.into()),
        ("EXPECTED_OUTPUT".into(), answer.into()),
    ]);
    let limits = Limits { time: CHECKER_TIME, memory_kib: 1 << 20, output_bytes: 1 << 20, ..Limits::default() };
    let facts = exec::run_sending_stdout(runner, &full, input, &limits, exec::Stdout::Discard);
    testlib_outcome(&facts, "checker")
}

/// What a testlib program (a checker, or an interactor, named by `who`) said by its exit
/// code, with its stderr as feedback (see [`external`] for the codes). One that did not start
/// or ran out of time failed (IE).
pub fn testlib_outcome(facts: &crate::exec::Facts, who: &str) -> CheckOutcome {
    let feedback = String::from_utf8_lossy(&facts.stderr).trim().to_string();
    let said = |what: &str| {
        if feedback.is_empty() {
            what.to_string()
        } else {
            format!("{what}: {feedback}")
        }
    };
    if let Some(e) = &facts.spawn_error {
        return CheckOutcome::Failed(format!("the {who} did not start: {e}"));
    }
    if facts.watchdog_killed || facts.cpu_ms > CHECKER_TIME.as_secs_f64() * 1000.0 {
        return CheckOutcome::Failed(format!("the {who} ran out of time"));
    }
    match (facts.exit_code, facts.signal) {
        (Some(0), _) => CheckOutcome::Accepted,
        (Some(1), _) => CheckOutcome::Wrong(said(&format!("the {who} says WA"))),
        (Some(2 | 4), _) => CheckOutcome::Presentation(said(&format!("the {who} says PE"))),
        (Some(3), _) => CheckOutcome::Failed(said(&format!("the {who} failed"))),
        (Some(7), _) => match points_said(&feedback) {
            // All the points are an accepted answer, however the checker says so.
            Some(1.0) => CheckOutcome::Accepted,
            Some(share) if (0.0..=1.0).contains(&share) => CheckOutcome::Partial { share, why: said("partial points") },
            Some(x) => CheckOutcome::Failed(said(&format!(
                "the {who} gave points {x}, but points are a share of the case from 0 to 1"
            ))),
            None => {
                CheckOutcome::Failed(said(&format!("the {who} exited 7 (partial points) without `points X` on stderr")))
            }
        },
        (Some(116), _) => CheckOutcome::Accepted,
        (Some(code @ 16..=115), _) => {
            CheckOutcome::Partial { share: f64::from(code - 16) / 100.0, why: said(&format!("_pc({})", code - 16)) }
        }
        (Some(code), _) => CheckOutcome::Failed(said(&format!("the {who} exited with unknown code {code}"))),
        (None, Some(sig)) => CheckOutcome::Failed(format!("the {who} died of {}", crate::exec::signal_name(sig))),
        (None, None) => CheckOutcome::Failed(format!("the {who} ended without a status")),
    }
}

/// The X of the first `points X` in a checker's stderr (testlib writes `points 0.5 msg`).
fn points_said(feedback: &str) -> Option<f64> {
    let words: Vec<&str> = feedback.split_whitespace().collect();
    let at = words.iter().position(|w| w.eq_ignore_ascii_case("points"))?;
    words.get(at + 1)?.parse::<f64>().ok().filter(|x| x.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_are_read_from_testlib_feedback() {
        assert_eq!(points_said("points 0.5 half the grids"), Some(0.5));
        assert_eq!(points_said("ok\npoints 1"), Some(1.0));
        assert_eq!(points_said("points"), None);
        assert_eq!(points_said("points nan"), None);
        assert_eq!(points_said("wrong answer"), None);
    }

    #[test]
    fn lines_ignores_crlf_trailing_spaces_and_final_blank_lines() {
        let out = b"1 2\r\n3  \n\n\n";
        assert_eq!(compare(CheckerKind::Lines, out, b"1 2\n3\n"), CheckOutcome::Accepted);
        assert!(matches!(compare(CheckerKind::Exact, out, b"1 2\n3\n"), CheckOutcome::Presentation(_)));
        assert_eq!(compare(CheckerKind::Exact, b"1 2\n", b"1 2\n"), CheckOutcome::Accepted);
    }

    #[test]
    fn same_words_in_other_lines_are_pe_not_wa() {
        assert!(matches!(compare(CheckerKind::Lines, b"1\n2\n", b"1 2\n"), CheckOutcome::Presentation(_)));
        assert_eq!(compare(CheckerKind::Tokens, b"1\n2\n", b"1 2\n"), CheckOutcome::Accepted);
        assert_eq!(
            compare(CheckerKind::Lines, b"1 3\n", b"1 2\n"),
            CheckOutcome::Wrong("line 1, column 3 differs".into())
        );
        assert_eq!(
            compare(CheckerKind::Tokens, b"1\n", b"1\n2\n"),
            CheckOutcome::Wrong("the output ends after 1 lines; 2 were expected".into())
        );
    }

    #[test]
    fn float_matches_numbers_within_the_error_and_words_exactly() {
        let f = |out: &[u8], ans: &[u8]| compare(CheckerKind::Float(6), out, ans);
        assert_eq!(f(b"0.3333334 100000.05\n", b"0.333333 100000"), CheckOutcome::Accepted);
        assert_eq!(f(b"1e-7 yes\n", b"0 yes\n"), CheckOutcome::Accepted);
        assert_eq!(f(b"0.334\n", b"0.333\n"), CheckOutcome::Wrong("word 1: expected 0.333, found 0.334".into()));
        assert_eq!(f(b"1 Yes\n", b"1 yes\n"), CheckOutcome::Wrong("word 2: expected yes, found Yes".into()));
        assert_eq!(f(b"nan\n", b"1\n"), CheckOutcome::Wrong("word 1: expected 1, found nan".into()));
        // As testlib: NaN matches NaN, an infinity the same one, 1e309 is an infinity.
        assert_eq!(f(b"nan inf -inf 1e309\n", b"NaN inf -infinity inf\n"), CheckOutcome::Accepted);
        assert!(matches!(f(b"inf\n", b"-inf\n"), CheckOutcome::Wrong(_)));
        assert!(matches!(f(b"1e308\n", b"inf\n"), CheckOutcome::Wrong(_)));
        assert!(matches!(f(b"1\n", b"1 2\n"), CheckOutcome::Wrong(w) if w.contains("ends after 1 words")));
        assert!(matches!(f(b"1 2 3", b"1 2\n"), CheckOutcome::Wrong(w) if w.contains("goes on after the 2")));
        assert_eq!(
            compare(CheckerKind::Float(9), b"0.3333334", b"0.333333"),
            CheckOutcome::Wrong("word 1: expected 0.333333, found 0.3333334".into())
        );
        assert_eq!(compare(CheckerKind::Float(9), b"2.0000000001", b"2"), CheckOutcome::Accepted);
    }

    #[test]
    fn invalid_utf8_is_compared_as_bytes() {
        assert_eq!(compare(CheckerKind::Lines, b"\xff\xfe\n", b"\xff\xfe"), CheckOutcome::Accepted);
        assert!(matches!(compare(CheckerKind::Lines, b"\xff\n", b"\xfe\n"), CheckOutcome::Wrong(_)));
    }

    #[test]
    fn no_expected_output_means_nothing_to_compare() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in");
        std::fs::write(&input, "x").unwrap();
        let c = Checker::Builtin(CheckerKind::Lines);
        let output = Spool::from_bytes(b"y").unwrap();
        let runner = exec::Runner::new(std::sync::Arc::new(exec::Setup::new(Path::new("judge"))));
        assert_eq!(check(&runner, &c, &input, None, &output), CheckOutcome::NothingToCompare);
    }
}
