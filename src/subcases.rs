//! Sub-case verdicts: which test inside a multi-test file (an input whose first line is the
//! count T) a wrong answer came from, with that test's input and its answer alone.
//!
//! How a file is cut (`subcases` in `case.toml`):
//! - `"auto"` (the default): the input's first line is a single count T, and the expected
//!   output's lines split evenly into T: each test's answer is its share of the lines. The
//!   input's other lines, when they too split evenly, give each test's input.
//! - `"off"`: never cut.
//! - a table: `separator = "LINE"` (tests, in the input after the count and in the answers,
//!   are separated by that line; `""` a blank one), `input_lines = N`, `answer_lines = N`
//!   (every test takes N lines), `points = "per-test"` (each test earns an equal share of the
//!   case's points: some tests right is PC, not WA).
//!
//! A file that cannot be cut so keeps its one verdict; only the note says why. Each test's
//! answer is judged by the case's built-in checker on its own, so a test is named only when
//! its answer alone is wrong. Used only on a failed case: a passing run pays nothing.

use crate::check::{compare, CheckerKind};
use crate::engine::DiffWindow;
use crate::verdict::CheckOutcome;

/// How a multi-test file is cut into tests.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Split {
    #[default]
    Auto,
    Off,
    Custom {
        separator: Option<String>,
        input_lines: Option<usize>,
        answer_lines: Option<usize>,
        /// Each test is worth an equal share of the case's points: a file with some tests
        /// right is PC, not WA.
        points: bool,
    },
}

/// The largest file cut: past it, the case keeps its one verdict.
const MAX_BYTES: usize = 16 << 20;
/// The most tests a count may claim.
const MAX_TESTS: usize = 1_000_000;
/// Lines of a test's input, and of each side of its diff, kept for the report.
const SHOWN_LINES: usize = 40;
const SHOWN_LINE_BYTES: usize = 400;

impl Split {
    /// Whether each test earns its share of the case's points.
    pub fn per_test_points(&self) -> bool {
        matches!(self, Split::Custom { points: true, .. })
    }

    /// Reads case.toml's `subcases`: `"auto"`, `"off"` or a table.
    pub fn parse(value: &toml::Value) -> Result<Split, String> {
        match value {
            toml::Value::String(s) if s == "auto" => Ok(Split::Auto),
            toml::Value::String(s) if s == "off" => Ok(Split::Off),
            toml::Value::Table(t) => {
                let lines = |key: &str| -> Result<Option<usize>, String> {
                    match t.get(key) {
                        None => Ok(None),
                        Some(toml::Value::Integer(n)) if *n >= 1 => Ok(Some(*n as usize)),
                        Some(_) => Err(format!("{key} must be a number of lines, 1 or more")),
                    }
                };
                let separator = match t.get("separator") {
                    None => None,
                    Some(toml::Value::String(s)) if !s.contains('\n') => Some(s.trim().to_string()),
                    Some(_) => return Err("separator must be one line of text (\"\" for a blank line)".into()),
                };
                let known = ["separator", "input_lines", "answer_lines", "points"];
                if let Some(key) = t.keys().find(|k| !known.contains(&k.as_str())) {
                    return Err(format!("unknown key {key}: use separator, input_lines, answer_lines or points"));
                }
                let points = match t.get("points") {
                    None => false,
                    Some(toml::Value::String(s)) if s == "per-test" => true,
                    Some(_) => return Err("points = \"per-test\" is the one choice (each test an equal share)".into()),
                };
                Ok(Split::Custom {
                    separator,
                    input_lines: lines("input_lines")?,
                    answer_lines: lines("answer_lines")?,
                    points,
                })
            }
            _ => Err("use \"auto\", \"off\" or a table such as { separator = \"\" }".into()),
        }
    }
}

/// Which tests of a file failed, and the first one's input, verdict and diff.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Subcases {
    /// T, the tests in the file.
    pub total: usize,
    /// The tests (1-based) whose answer alone is wrong.
    pub failed: Vec<usize>,
    /// The first of them.
    pub first: usize,
    /// Its verdict (WA or PE) and what differs, within its answer.
    pub verdict: crate::verdict::Verdict,
    pub detail: String,
    /// Its input (bounded), when the input could be cut too.
    #[serde(serialize_with = "lossy")]
    pub input: Option<Vec<u8>>,
    /// Its answer's diff, with the line numbers of the whole expected output.
    #[serde(skip)]
    pub diff: Option<DiffWindow>,
}

fn lossy<S: serde::Serializer>(bytes: &Option<Vec<u8>>, s: S) -> Result<S::Ok, S::Error> {
    match bytes {
        Some(b) => s.serialize_some(&String::from_utf8_lossy(b)),
        None => s.serialize_none(),
    }
}

impl Subcases {
    /// "WA on test 3 of 10" (and how many others failed).
    pub fn headline(&self) -> String {
        let others = self.failed.len() - 1;
        let more = match others {
            0 => String::new(),
            n => format!(" ({n} more failed: {})", list(&self.failed[1..])),
        };
        format!("{} on test {} of {}{more}", self.verdict, self.first, self.total)
    }
}

fn list(tests: &[usize]) -> String {
    let shown: Vec<String> = tests.iter().take(10).map(usize::to_string).collect();
    if tests.len() > 10 {
        format!("{}, ...", shown.join(", "))
    } else {
        shown.join(", ")
    }
}

/// Lines of `text`, `\r` and trailing blank lines dropped.
fn lines(text: &[u8]) -> Vec<&[u8]> {
    let mut lines: Vec<&[u8]> = text.split(|&b| b == b'\n').map(|l| l.strip_suffix(b"\r").unwrap_or(l)).collect();
    while lines.last().is_some_and(|l| l.iter().all(u8::is_ascii_whitespace)) {
        lines.pop();
    }
    lines
}

/// T, when the first non-blank line of `input` is a lone count.
pub fn count(input: &[u8]) -> Option<usize> {
    let first = lines(input).into_iter().find(|l| !l.iter().all(u8::is_ascii_whitespace))?;
    let text = std::str::from_utf8(first).ok()?.trim().trim_start_matches('\u{feff}');
    text.parse::<usize>().ok().filter(|&t| (1..=MAX_TESTS).contains(&t))
}

/// `lines` cut into `t` parts: every `size` lines, or at each `separator` line, or evenly.
fn cut<'a>(lines: &[&'a [u8]], t: usize, size: Option<usize>, separator: Option<&str>) -> Option<Vec<Vec<&'a [u8]>>> {
    let parts: Vec<Vec<&[u8]>> = match (separator, size) {
        (Some(sep), _) => lines.split(|l| String::from_utf8_lossy(l).trim() == sep).map(<[&[u8]]>::to_vec).collect(),
        (None, Some(k)) => lines.chunks(k).map(<[&[u8]]>::to_vec).collect(),
        (None, None) if !lines.is_empty() && lines.len() % t == 0 => {
            lines.chunks(lines.len() / t).map(<[&[u8]]>::to_vec).collect()
        }
        (None, None) => return None,
    };
    (parts.len() == t).then_some(parts)
}

/// The tests of a multi-test input (the count line left out), each as its lines; `None` when
/// it has no count or its lines do not split so.
pub fn input_tests<'a>(input: &'a [u8], split: &Split) -> Option<(usize, Vec<Vec<&'a [u8]>>)> {
    let t = count(input)?;
    let all = lines(input);
    let start = all.iter().position(|l| !l.iter().all(u8::is_ascii_whitespace))? + 1;
    let body = &all[start..];
    let parts = match split {
        Split::Off => None,
        Split::Auto => cut(body, t, None, None),
        Split::Custom { separator, input_lines, .. } => cut(body, t, *input_lines, separator.as_deref()),
    }?;
    Some((t, parts))
}

fn joined(lines: &[&[u8]]) -> Vec<u8> {
    lines.iter().flat_map(|l| l.iter().copied().chain(std::iter::once(b'\n'))).collect()
}

/// The first lines of `lines`, each cut to a length, for a report; whether any were cut.
fn shown(lines: &[&[u8]]) -> (Vec<u8>, bool) {
    let mut cut = lines.len() > SHOWN_LINES;
    let mut out = Vec::new();
    for line in lines.iter().take(SHOWN_LINES) {
        cut |= line.len() > SHOWN_LINE_BYTES;
        out.extend_from_slice(&line[..line.len().min(SHOWN_LINE_BYTES)]);
        out.push(b'\n');
    }
    (out, cut)
}

/// As [`judge`], for a case's files: the input and the expected output on disk, the output
/// spooled. Files over the size cut are not read.
pub fn judge_files(
    kind: CheckerKind,
    split: &Split,
    input: &std::path::Path,
    output: &crate::spool::Spool,
    answer: &std::path::Path,
) -> Result<Subcases, String> {
    let size = |p: &std::path::Path| std::fs::metadata(p).map(|m| m.len()).unwrap_or(u64::MAX);
    if size(input) > MAX_BYTES as u64 || size(answer) > MAX_BYTES as u64 || output.len() > MAX_BYTES as u64 {
        return Err(format!("a file is over {} MiB", MAX_BYTES >> 20));
    }
    let read = |p: &std::path::Path| std::fs::read(p).map_err(|e| format!("cannot read {}: {e}", p.display()));
    let got = output.read_all().map_err(|e| format!("cannot read the output: {e}"))?;
    judge(kind, split, &read(input)?, &got, &read(answer)?)
}

/// Judges each test of a failed multi-test case on its own with `kind`: which failed, or
/// why the file could not be cut.
pub fn judge(kind: CheckerKind, split: &Split, input: &[u8], output: &[u8], answer: &[u8]) -> Result<Subcases, String> {
    if kind == CheckerKind::Sudoku {
        return Err("the sudoku checker names the grids itself".into());
    }
    if *split == Split::Off {
        return Err("subcases = \"off\"".into());
    }
    if [input, output, answer].iter().any(|b| b.len() > MAX_BYTES) {
        return Err(format!("a file is over {} MiB", MAX_BYTES >> 20));
    }
    let t = count(input).ok_or("the input's first line is not a count of tests")?;
    if t < 2 {
        return Err("the input holds one test".into());
    }
    // A lone number over fewer lines than it counts is a size (`5`, then 5 numbers on one
    // line), not a count of tests.
    let body_lines = lines(input).iter().filter(|l| !l.iter().all(u8::is_ascii_whitespace)).count() - 1;
    if *split == Split::Auto && body_lines < t {
        return Err(format!(
            "the input's first line, {t}, is more than the {body_lines} lines after it: not a count of tests"
        ));
    }
    let (want, got) = (lines(answer), lines(output));
    let (size, separator) = match split {
        Split::Custom { separator, answer_lines, .. } => (*answer_lines, separator.as_deref()),
        _ => (None, None),
    };
    let answers = cut(&want, t, size, separator).ok_or_else(|| match (size, separator) {
        (None, None) => format!("the expected output's {} lines do not split evenly into {t} tests", want.len()),
        _ => format!("the expected output does not cut into {t} tests as case.toml's subcases says"),
    })?;
    // The output is cut as the answers are (at its own separators when it has them all),
    // else where the answers' lines end, the last test taking whatever is left over.
    let outputs = match separator.and_then(|sep| cut(&got, t, None, Some(sep))) {
        Some(parts) => parts,
        None => {
            let mut parts: Vec<Vec<&[u8]>> = Vec::with_capacity(t);
            let mut at = 0;
            for (k, a) in answers.iter().enumerate() {
                let take = if k + 1 == t { got.len().saturating_sub(at) } else { a.len() };
                let end = (at + take).min(got.len());
                parts.push(got[at.min(end)..end].to_vec());
                at = end + usize::from(separator.is_some());
            }
            parts
        }
    };
    let mut failed = Vec::new();
    let mut first: Option<(usize, CheckOutcome)> = None;
    for (k, (o, a)) in outputs.iter().zip(&answers).enumerate() {
        let outcome = compare(kind, &joined(o), &joined(a));
        if outcome != CheckOutcome::Accepted {
            failed.push(k + 1);
            first.get_or_insert((k, outcome));
        }
    }
    let (k, outcome) = first.ok_or("every test's answer is right on its own")?;
    let (verdict, detail) = match outcome {
        CheckOutcome::Presentation(d) => (crate::verdict::Verdict::Pe, d),
        CheckOutcome::Wrong(d) | CheckOutcome::Failed(d) => (crate::verdict::Verdict::Wa, d),
        _ => (crate::verdict::Verdict::Wa, String::new()),
    };
    let from_line = answers[..k].iter().map(|a| a.len() + usize::from(separator.is_some())).sum::<usize>() as u64 + 1;
    let (out_shown, out_cut) = shown(&outputs[k]);
    let (want_shown, want_cut) = shown(&answers[k]);
    let diff = DiffWindow { from_line, output: out_shown, expected: want_shown, cut: out_cut || want_cut };
    let input = input_tests(input, split).map(|(_, parts)| shown(&parts[k]).0);
    Ok(Subcases { total: t, failed, first: k + 1, verdict, detail, input, diff: Some(diff) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(text: &str) -> Split {
        Split::parse(&toml::from_str::<toml::Table>(&format!("v = {text}")).unwrap()["v"]).unwrap()
    }

    #[test]
    fn the_failing_test_is_named_with_its_input_and_answer() {
        let input = b"3\n1 2\n3 4\n5 6\n";
        let found = judge(CheckerKind::Lines, &Split::Auto, input, b"3\n8\n11\n", b"3\n7\n11\n").unwrap();
        assert_eq!((found.total, found.failed.clone(), found.first), (3, vec![2], 2));
        assert_eq!(found.headline(), "WA on test 2 of 3");
        assert_eq!(found.input.as_deref(), Some(&b"3 4\n"[..]));
        let diff = found.diff.unwrap();
        assert_eq!((diff.from_line, diff.output, diff.expected), (2, b"8\n".to_vec(), b"7\n".to_vec()));
    }

    #[test]
    fn answers_of_several_lines_split_evenly_and_others_are_counted() {
        let input = b"2\n2\n1 2\n3\n1 2 3\n";
        let answer = b"YES\n1\nNO\n2\n";
        let found = judge(CheckerKind::Tokens, &Split::Auto, input, b"YES\n2\nNO\n3\n", answer).unwrap();
        assert_eq!(
            (found.failed.clone(), found.headline()),
            (vec![1, 2], "WA on test 1 of 2 (1 more failed: 2)".into())
        );
        assert_eq!(found.input.as_deref(), Some(&b"2\n1 2\n"[..]));
        // Output missing its last answer: the last test fails.
        let found = judge(CheckerKind::Lines, &Split::Auto, input, b"YES\n1\n", answer).unwrap();
        assert_eq!(found.failed, [2]);
        // Spacing alone wrong is PE, as the whole file's checker says.
        let found = judge(CheckerKind::Lines, &Split::Auto, input, b"YES\n1\nNO\n 2 \n", answer).unwrap();
        assert_eq!(found.headline(), "PE on test 2 of 2");
    }

    #[test]
    fn what_cannot_be_cut_says_why() {
        let why =
            |input: &[u8], answer: &[u8], s: &Split| judge(CheckerKind::Lines, s, input, b"x\n", answer).unwrap_err();
        assert!(why(b"1 2\n", b"3\n", &Split::Auto).contains("not a count"));
        assert!(why(b"1\n1 2\n", b"3\n", &Split::Auto).contains("one test"));
        assert!(why(b"3\n1 2 3\n", b"1\n3\n6\n", &Split::Auto).contains("more than the 1 lines after it"));
        assert!(why(b"2\n1\n2\n", b"1\n2\n3\n", &Split::Auto).contains("3 lines do not split evenly into 2"));
        assert!(why(b"2\n1\n2\n", b"1\n2\n", &Split::Off).contains("off"));
        assert!(judge(CheckerKind::Sudoku, &Split::Auto, b"1\n", b"1\n", b"2\n").is_err());
    }

    #[test]
    fn a_separator_cuts_answers_of_any_length() {
        let s = split("{ separator = \"\" }");
        let input = b"2\na\nb\n\nc\n";
        let answer = b"1\n2\n3\n\n4\n";
        let found = judge(CheckerKind::Lines, &s, input, b"1\n2\n3\n\n5\n", answer).unwrap();
        assert_eq!((found.failed.clone(), found.input.as_deref()), (vec![2], Some(&b"c\n"[..])));
        assert_eq!(found.diff.unwrap().from_line, 5);
        assert!(!s.per_test_points() && split("{ points = \"per-test\" }").per_test_points());
        let fixed = split("{ input_lines = 1, answer_lines = 2 }");
        let found = judge(CheckerKind::Lines, &fixed, b"2\nx\ny\n", b"1\n2\n3\n5\n", b"1\n2\n3\n4\n").unwrap();
        assert_eq!((found.first, found.input.as_deref()), (2, Some(&b"y\n"[..])));
    }

    #[test]
    fn settings_are_read_and_mistakes_named() {
        assert_eq!(split("\"auto\""), Split::Auto);
        assert_eq!(split("\"off\""), Split::Off);
        let bad = |text: &str| Split::parse(&toml::from_str::<toml::Table>(&format!("v = {text}")).unwrap()["v"]);
        assert!(bad("\"sometimes\"").unwrap_err().contains("\"auto\", \"off\""));
        assert!(bad("{ input_lines = 0 }").unwrap_err().contains("input_lines"));
        assert!(bad("{ seperator = \"\" }").unwrap_err().contains("unknown key seperator"));
    }
}
