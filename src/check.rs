//! Checkers: compare a solver's output with the expected one, or validate it on its own.
//!
//! - `lines` (default): CRLF, trailing spaces and trailing blank lines do not matter.
//! - `exact`: bytes. `tokens`: whitespace-separated words.
//! - `sudoku`: the special judge POJ 2676 needs; see [`crate::sudoku_check`].
//! - external: a testlib-style program run as `CHECKER input output answer`.
//!
//! All comparisons are on bytes, never on UTF-8 strings, so invalid UTF-8 cannot crash them.

use crate::exec::{self, Program};
use crate::limits::Limits;
use crate::verdict::CheckOutcome;
use std::path::Path;
use std::time::Duration;

/// The built-in checkers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CheckerKind {
    Lines,
    Exact,
    Tokens,
    Sudoku,
}

impl CheckerKind {
    pub fn parse(text: &str) -> Result<CheckerKind, String> {
        match text {
            "lines" => Ok(CheckerKind::Lines),
            "exact" => Ok(CheckerKind::Exact),
            "tokens" => Ok(CheckerKind::Tokens),
            "sudoku" => Ok(CheckerKind::Sudoku),
            _ => Err(format!("unknown checker '{text}': use lines, exact, tokens or sudoku")),
        }
    }
}

/// A checker ready to run: built in, or an external program.
#[derive(Clone, Debug)]
pub enum Checker {
    Builtin(CheckerKind),
    External(Program),
}

/// How much CPU time an external checker may take (its wall-clock limit is twice that).
pub const CHECKER_TIME: Duration = Duration::from_secs(10);

/// Judges `output` for a case whose input is at `input` and expected output (if any) at
/// `expected`.
pub fn check(checker: &Checker, input: &Path, expected: Option<&Path>, output: &[u8]) -> CheckOutcome {
    let answer = match expected.map(std::fs::read).transpose() {
        Ok(a) => a,
        Err(e) => return CheckOutcome::Failed(format!("cannot read the expected output: {e}")),
    };
    match checker {
        Checker::Builtin(CheckerKind::Sudoku) => match std::fs::read(input) {
            Ok(i) => crate::sudoku_check::check(&i, output, answer.as_deref()),
            Err(e) => CheckOutcome::Failed(format!("cannot read the input: {e}")),
        },
        Checker::Builtin(kind) => match answer {
            None => CheckOutcome::NothingToCompare,
            Some(answer) => compare(*kind, output, &answer),
        },
        Checker::External(program) => external(program, input, expected, output),
    }
}

/// Lines of `text` with CR and trailing spaces and tabs removed, trailing blank lines dropped.
pub fn normal_lines(text: &[u8]) -> Vec<&[u8]> {
    let mut lines: Vec<&[u8]> = text
        .split(|&b| b == b'\n')
        .map(|mut l| {
            while let [head @ .., b'\r' | b' ' | b'\t'] = l {
                l = head;
            }
            l
        })
        .collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}

fn tokens(text: &[u8]) -> Vec<&[u8]> {
    text.split(|b| b.is_ascii_whitespace()).filter(|t| !t.is_empty()).collect()
}

/// Compares with a built-in rule. A mismatch whose words all match is PE, not WA.
pub fn compare(kind: CheckerKind, output: &[u8], answer: &[u8]) -> CheckOutcome {
    let same_tokens = tokens(output) == tokens(answer);
    let same_lines = normal_lines(output) == normal_lines(answer);
    match kind {
        CheckerKind::Exact if output == answer => CheckOutcome::Accepted,
        CheckerKind::Exact if same_lines => CheckOutcome::Presentation(
            "the lines match, but line endings or trailing spaces differ (exact checker)".into(),
        ),
        CheckerKind::Lines | CheckerKind::Sudoku if same_lines => CheckOutcome::Accepted,
        CheckerKind::Tokens if same_tokens => CheckOutcome::Accepted,
        CheckerKind::Exact | CheckerKind::Lines | CheckerKind::Sudoku if same_tokens => {
            CheckOutcome::Presentation("every word matches, but spacing or line breaks differ".into())
        }
        _ => CheckOutcome::Wrong(first_difference(output, answer)),
    }
}

/// Where the output first leaves the expected one, by line.
fn first_difference(output: &[u8], answer: &[u8]) -> String {
    let (o, a) = (normal_lines(output), normal_lines(answer));
    for (i, (x, y)) in o.iter().zip(a.iter()).enumerate() {
        if x != y {
            let col = x.iter().zip(y.iter()).take_while(|(p, q)| p == q).count() + 1;
            return format!("line {}, column {col} differs", i + 1);
        }
    }
    if o.len() < a.len() {
        format!("the output ends after {} lines; {} were expected", o.len(), a.len())
    } else {
        format!("the output has {} lines; {} were expected", o.len(), a.len())
    }
}

/// Runs a testlib-style checker: exit 0 AC, 1 WA, 2 and 4 PE, 3 checker failure (IE),
/// 7 partial points (`points X` on stderr). Its stderr is the feedback.
fn external(program: &Program, input: &Path, expected: Option<&Path>, output: &[u8]) -> CheckOutcome {
    let dir = match tempfile::tempdir() {
        Ok(d) => d,
        Err(e) => return CheckOutcome::Failed(format!("cannot make a folder for the checker: {e}")),
    };
    let out_path = dir.path().join("output.txt");
    let empty = dir.path().join("answer.txt");
    if let Err(e) = std::fs::write(&out_path, output).and_then(|_| std::fs::write(&empty, b"")) {
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
    let limits = Limits { time: CHECKER_TIME, memory_kib: 1 << 20, output_bytes: 1 << 20, wall_factor: 1 };
    let facts = exec::run(&full, input, &limits);
    let feedback = String::from_utf8_lossy(&facts.stderr).trim().to_string();
    let said = |what: &str| {
        if feedback.is_empty() {
            what.to_string()
        } else {
            format!("{what}: {feedback}")
        }
    };
    if let Some(e) = facts.spawn_error {
        return CheckOutcome::Failed(format!("the checker did not start: {e}"));
    }
    if facts.watchdog_killed || facts.cpu_ms > CHECKER_TIME.as_secs_f64() * 1000.0 {
        return CheckOutcome::Failed("the checker ran out of time".into());
    }
    match (facts.exit_code, facts.signal) {
        (Some(0), _) => CheckOutcome::Accepted,
        (Some(1), _) => CheckOutcome::Wrong(said("the checker says WA")),
        (Some(2 | 4), _) => CheckOutcome::Presentation(said("the checker says PE")),
        (Some(3), _) => CheckOutcome::Failed(said("the checker failed")),
        (Some(7), _) => CheckOutcome::Wrong(said("partial points")),
        (Some(code), _) => CheckOutcome::Failed(said(&format!("the checker exited with unknown code {code}"))),
        (None, Some(sig)) => CheckOutcome::Failed(format!("the checker died of {}", crate::verdict::signal_name(sig))),
        (None, None) => CheckOutcome::Failed("the checker ended without a status".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(check(&c, &input, None, b"y"), CheckOutcome::NothingToCompare);
    }
}
