//! Sub-case verdicts: which test inside a multi-test file (an input whose first line is the
//! count T) a wrong answer came from, with that test's input and its answer alone.
//!
//! A file is cut only where the cut is certain (see [`shape`]): after the count, one rule
//! accounts for every line of every test of this file and of every other input of the problem
//! (a header whose numbers give the lines or tokens after it), and each test's answer is one
//! line, or as many lines as its input says. A file declared multi-test (the listener's
//! `multitest` tag, or `subcases` set in `case.toml`) may also be cut into tests of a fixed
//! size. `case.toml`'s `subcases`:
//! - `"auto"` (the default): as above.
//! - `"on"`: the file is a count then T tests (as the `multitest` tag says).
//! - `"off"`: never cut.
//! - a table (declares the file multi-test too): `separator = "LINE"` (tests, in the input
//!   after the count and in the answers, are separated by that line; `""` a blank one),
//!   `input_lines = N`, `answer_lines = N` (every test takes N lines), `points = "per-test"`
//!   (each test earns an equal share of the case's points: some tests right is PC, not WA).
//!
//! A file that cannot be cut so keeps its one verdict and its first differing line; when its
//! first line is a count, the note says the tests could not be told apart and how to declare
//! them. Each test's answer is judged by the case's built-in checker on its own, so a test is
//! named only when its answer alone is wrong. Used only on a failed case: a passing run pays
//! nothing.

mod shape;

use crate::cases::split::Split;
use crate::check::{compare, CheckerKind};
use crate::diff::DiffWindow;
use crate::verdict::CheckOutcome;

/// The largest file cut: past it, the case keeps its one verdict.
const MAX_BYTES: usize = 16 << 20;
/// Lines of a test's input, and of each side of its diff, kept for the report.
const SHOWN_LINES: usize = 40;
const SHOWN_LINE_BYTES: usize = 400;

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
    /// The output's lines stopped lining up with the tests after the first failure: the
    /// tests after it are not judged.
    pub later_unknown: bool,
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
            0 if self.later_unknown && self.first < self.total => {
                " (its output has other lines than its answer: the tests after it are not judged)".to_string()
            }
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
    text.parse::<usize>().ok().filter(|&t| (1..=shape::MAX_TESTS).contains(&t))
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

/// The tests of a multi-test input (the count line left out), each as its lines: cut by a
/// proven rule, else (a guess a caller must verify, as the stress shrinker does by running)
/// evenly; `None` when it has no count.
pub fn input_tests<'a>(input: &'a [u8], split: &Split) -> Option<(usize, Vec<Vec<&'a [u8]>>)> {
    let t = count(input)?;
    let all = lines(input);
    if let Some(body) = shape::Body::read(&all) {
        if let Ok(found) = shape::infer(&body, &[], true) {
            return Some((t, body.spans(&found.cut).iter().map(|&(a, b)| all[a..=b].to_vec()).collect()));
        }
    }
    let start = all.iter().position(|l| !l.iter().all(u8::is_ascii_whitespace))? + 1;
    let body = &all[start..];
    let parts = match split {
        Split::Off => None,
        Split::Auto | Split::On => cut(body, t, None, None),
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

/// Why a failed file was not cut into tests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotCut {
    pub why: String,
    /// The file looks like a multi-test one (its first line is a count of 2 or more): the
    /// report says its tests could not be told apart, and how to declare them.
    pub looks_multi: bool,
    /// The file was declared multi-test: the note need not say how to declare it.
    pub declared: bool,
}

impl NotCut {
    fn quiet(why: impl Into<String>) -> NotCut {
        NotCut { why: why.into(), looks_multi: false, declared: false }
    }

    fn unproven(why: impl Into<String>) -> NotCut {
        NotCut { why: why.into(), looks_multi: true, declared: false }
    }

    /// The note a report adds to the case's one verdict: a few words for its row, then why
    /// and how to declare the tests, for its details.
    pub fn note(&self) -> (String, String) {
        if self.declared {
            return (format!("not cut into tests: {}", self.why), String::new());
        }
        (
            "the tests inside could not be told apart".into(),
            format!(
                "Not cut into tests: {}. To have the failing test named, declare the file multi-test: \
                 tags = [\"multitest\"] or subcases = \"on\" (or {{ input_lines = N, answer_lines = N }}) in case.toml.",
                self.why
            ),
        )
    }
}

/// What a cut may lean on beside the file itself.
#[derive(Clone, Debug, Default)]
pub struct Problem {
    /// The file is declared multi-test (the listener's `multitest` tag).
    pub declared: bool,
    /// The problem's other inputs, which the rule must fit too, each with its answer when it
    /// has one (which the answer's rule must fit).
    pub others: Vec<(Vec<u8>, Option<Vec<u8>>)>,
}

/// The problem's other inputs beside `input` on disk, whichever way the case was reached
/// (`judge .`, `judge FILE.in` or `judge FOLDER`): files with its extension in its folder,
/// or, for a case folder's `input.txt`, the `input.txt` of the folders beside it; each with
/// its answer (`NAME.out` or `NAME.ans`, `expected.txt`) when there is one. Bounded in number
/// and size.
pub fn other_inputs(input: &std::path::Path) -> Vec<(Vec<u8>, Option<Vec<u8>>)> {
    const MOST: usize = 32;
    let Some(folder) = input.parent() else { return Vec::new() };
    let name = input.file_name().unwrap_or_default();
    let candidates: Vec<std::path::PathBuf> = if name == "input.txt" {
        let Some(up) = folder.parent() else { return Vec::new() };
        let Ok(entries) = std::fs::read_dir(up) else { return Vec::new() };
        entries.flatten().map(|e| e.path().join("input.txt")).collect()
    } else {
        let Ok(entries) = std::fs::read_dir(folder) else { return Vec::new() };
        let ext = input.extension();
        entries.flatten().map(|e| e.path()).filter(|p| p.extension() == ext && ext.is_some()).collect()
    };
    let mut candidates: Vec<_> = candidates
        .into_iter()
        .filter(|p| p != input && !crate::cases::is_skipped(&p.file_name().unwrap_or_default().to_string_lossy()))
        .collect();
    candidates.sort();
    let read = |p: &std::path::Path| -> Option<Vec<u8>> {
        use std::io::Read;
        if !std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.len() <= (1 << 20)) {
            return None;
        }
        let mut text = Vec::new();
        crate::regular::open(p).ok()?.take(1 << 20).read_to_end(&mut text).ok()?;
        Some(text)
    };
    let answer_of = |p: &std::path::Path| -> Option<Vec<u8>> {
        if p.file_name() == Some(std::ffi::OsStr::new("input.txt")) {
            return read(&p.with_file_name("expected.txt"));
        }
        ["out", "ans"].iter().find_map(|ext| read(&p.with_extension(ext)))
    };
    candidates.iter().filter_map(|p| Some((read(p)?, answer_of(p)))).take(MOST).collect()
}

/// As [`judge`], for a case's files: the input and the expected output on disk, the output
/// spooled. Files over the size cut are not read; the input is opened as [`crate::regular`]
/// does, so a FIFO put in its place never holds the judge.
pub fn judge_files(
    kind: CheckerKind,
    split: &Split,
    problem: &Problem,
    input: &std::path::Path,
    output: &crate::spool::Spool,
    answer: &std::path::Path,
) -> Result<Subcases, NotCut> {
    let size = |p: &std::path::Path| std::fs::metadata(p).map(|m| m.len()).unwrap_or(u64::MAX);
    if size(input) > MAX_BYTES as u64 || size(answer) > MAX_BYTES as u64 || output.len() > MAX_BYTES as u64 {
        return Err(NotCut::quiet(format!("a file is over {} MiB", MAX_BYTES >> 20)));
    }
    let read = |p: &std::path::Path| -> Result<Vec<u8>, NotCut> {
        use std::io::Read;
        let mut text = Vec::new();
        crate::regular::open(p)
            .and_then(|f| f.take(MAX_BYTES as u64 + 1).read_to_end(&mut text))
            .map_err(|e| NotCut::quiet(format!("cannot read {}: {e}", p.display())))?;
        Ok(text)
    };
    let got = output.read_all().map_err(|e| NotCut::quiet(format!("cannot read the output: {e}")))?;
    judge(kind, split, problem, &read(input)?, &got, &read(answer)?)
}

/// Judges each test of a failed multi-test case on its own with `kind`: which failed, or
/// why the file could not be cut.
pub fn judge(
    kind: CheckerKind,
    split: &Split,
    problem: &Problem,
    input: &[u8],
    output: &[u8],
    answer: &[u8],
) -> Result<Subcases, NotCut> {
    let declared = problem.declared || !matches!(split, Split::Auto);
    judge_declared(kind, split, problem, input, output, answer).map_err(|e| NotCut { declared, ..e })
}

fn judge_declared(
    kind: CheckerKind,
    split: &Split,
    problem: &Problem,
    input: &[u8],
    output: &[u8],
    answer: &[u8],
) -> Result<Subcases, NotCut> {
    if kind == CheckerKind::Sudoku {
        return Err(NotCut::quiet("the sudoku checker names the grids itself"));
    }
    if *split == Split::Off {
        return Err(NotCut::quiet("subcases = \"off\""));
    }
    if [input, output, answer].iter().any(|b| b.len() > MAX_BYTES) {
        return Err(NotCut::quiet(format!("a file is over {} MiB", MAX_BYTES >> 20)));
    }
    let all = lines(input);
    let body =
        shape::Body::read(&all).ok_or_else(|| NotCut::quiet("the input's first line is not a count of tests"))?;
    let t = body.count;
    if t < 2 {
        return Err(NotCut::quiet("the input holds one test"));
    }
    let declared = problem.declared || !matches!(split, Split::Auto);
    let (want, got) = (lines(answer), lines(output));
    let (separator, input_lines, answer_lines) = match split {
        Split::Custom { separator, input_lines, answer_lines, .. } => {
            (separator.as_deref(), *input_lines, *answer_lines)
        }
        _ => (None, None, None),
    };
    // Each test's input lines, and its answer's number of lines where the input says it.
    let (inputs, sizes): (Vec<Vec<&[u8]>>, Option<Vec<usize>>) = if separator.is_some() || input_lines.is_some() {
        let start = all.iter().position(|l| !l.iter().all(u8::is_ascii_whitespace)).unwrap_or(0) + 1;
        let parts = cut(&all[start..], t, input_lines, separator).ok_or_else(|| {
            NotCut::unproven(format!("the input does not cut into {t} tests as case.toml's subcases says"))
        })?;
        (parts, None)
    } else {
        let other_lines: Vec<Vec<&[u8]>> = problem.others.iter().map(|(i, _)| lines(i)).collect();
        let others: Vec<shape::Body> = other_lines.iter().filter_map(|o| shape::Body::read(o)).collect();
        if others.len() < other_lines.len() {
            return Err(NotCut::unproven("another input of the problem does not start with a count of tests"));
        }
        let found = shape::infer(&body, &others, declared).map_err(NotCut::unproven)?;
        // The answers' rule must fit the other files' answers too.
        let answered: Vec<(&shape::Cut, usize)> = found
            .others
            .iter()
            .zip(&problem.others)
            .filter_map(|(cut, (_, answer))| Some((cut.as_ref()?, lines(answer.as_ref()?).len())))
            .collect();
        let found_cut = &found.cut;
        let parts = body.spans(found_cut).iter().map(|&(a, b)| all[a..=b].to_vec()).collect();
        let sizes = match (separator, answer_lines) {
            (None, None) => Some(shape::answer_sizes(found_cut, want.len(), &answered).map_err(NotCut::unproven)?),
            _ => None,
        };
        (parts, sizes)
    };
    let answers: Vec<Vec<&[u8]>> = match sizes {
        Some(sizes) => {
            let mut at = 0;
            sizes
                .iter()
                .map(|&n| {
                    at += n;
                    want[at - n..at].to_vec()
                })
                .collect()
        }
        None => cut(&want, t, answer_lines, separator).ok_or_else(|| {
            NotCut::unproven(format!("the expected output does not cut into {t} tests as case.toml's subcases says"))
        })?,
    };
    // The output is cut as the answers are (at its own separators when it has them all),
    // else where the answers' lines end, the last test taking whatever is left over.
    let (outputs, aligned) = match separator.and_then(|sep| cut(&got, t, None, Some(sep))) {
        Some(parts) => (parts, true),
        None => {
            let mut parts: Vec<Vec<&[u8]>> = Vec::with_capacity(t);
            let mut at = 0;
            for (k, a) in answers.iter().enumerate() {
                let take = if k + 1 == t { got.len().saturating_sub(at) } else { a.len() };
                let end = (at + take).min(got.len());
                parts.push(got[at.min(end)..end].to_vec());
                at = end + usize::from(separator.is_some());
            }
            (parts, got.len() == want.len())
        }
    };
    let mut failed = Vec::new();
    let mut first: Option<(usize, CheckOutcome)> = None;
    for (k, (o, a)) in outputs.iter().zip(&answers).enumerate() {
        let outcome = compare(kind, &joined(o), &joined(a));
        if outcome != CheckOutcome::Accepted {
            failed.push(k + 1);
            first.get_or_insert((k, outcome));
            // Past a test whose output has other lines than its answer, the output's lines
            // no longer line up with the tests: later ones are not named.
            if !aligned {
                break;
            }
        }
    }
    let (k, outcome) = first.ok_or_else(|| NotCut::quiet("every test's answer is right on its own"))?;
    let (verdict, detail) = match outcome {
        CheckOutcome::Presentation(d) => (crate::verdict::Verdict::Pe, d),
        CheckOutcome::Wrong(d) | CheckOutcome::Failed(d) => (crate::verdict::Verdict::Wa, d),
        _ => (crate::verdict::Verdict::Wa, String::new()),
    };
    let from_line = answers[..k].iter().map(|a| a.len() + usize::from(separator.is_some())).sum::<usize>() as u64 + 1;
    let (out_shown, out_cut) = shown(&outputs[k]);
    let (want_shown, want_cut) = shown(&answers[k]);
    let diff = DiffWindow { from_line, output: out_shown, expected: want_shown, cut: out_cut || want_cut };
    let input = Some(shown(&inputs[k]).0);
    Ok(Subcases { total: t, failed, first: k + 1, verdict, detail, input, diff: Some(diff), later_unknown: !aligned })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn none() -> Problem {
        Problem::default()
    }

    fn split(text: &str) -> Split {
        Split::parse(&toml::from_str::<toml::Table>(&format!("v = {text}")).unwrap()["v"]).unwrap()
    }

    #[test]
    fn the_failing_test_is_named_with_its_input_and_answer() {
        let input = b"3\n1 2\n3 4\n5 6\n";
        let found = judge(CheckerKind::Lines, &Split::On, &none(), input, b"3\n8\n11\n", b"3\n7\n11\n").unwrap();
        assert_eq!((found.total, found.failed.clone(), found.first), (3, vec![2], 2));
        assert_eq!(found.headline(), "WA on test 2 of 3");
        assert_eq!(found.input.as_deref(), Some(&b"3 4\n"[..]));
        let diff = found.diff.unwrap();
        assert_eq!((diff.from_line, diff.output, diff.expected), (2, b"8\n".to_vec(), b"7\n".to_vec()));
    }

    #[test]
    fn answers_as_long_as_the_input_says_and_others_are_counted() {
        // Each test: n, then n numbers; its answer: each number on a line of its own.
        let input = b"2\n2\n1 2\n3\n1 2 3\n";
        let answer = b"1\n2\n1\n2\n3\n";
        let found = judge(CheckerKind::Tokens, &Split::Auto, &none(), input, b"2\n2\n1\n2\n4\n", answer).unwrap();
        assert_eq!(
            (found.failed.clone(), found.headline()),
            (vec![1, 2], "WA on test 1 of 2 (1 more failed: 2)".into())
        );
        assert_eq!(found.input.as_deref(), Some(&b"2\n1 2\n"[..]));
        // Output missing its last answer: the last test fails.
        let found = judge(CheckerKind::Lines, &Split::Auto, &none(), input, b"1\n2\n", answer).unwrap();
        assert_eq!(found.failed, [2]);
        // Spacing alone wrong is PE, as the whole file's checker says.
        let found = judge(CheckerKind::Lines, &Split::Auto, &none(), input, b"1\n2\n1\n 2 \n3\n", answer).unwrap();
        assert_eq!(found.headline(), "PE on test 2 of 2");
        // A line too many in test 1: the tests after it are not named.
        let found = judge(CheckerKind::Lines, &Split::Auto, &none(), input, b"1\n9\n2\n1\n2\n3\n", answer).unwrap();
        assert_eq!(found.failed, [1]);
        assert!(found.headline().contains("the tests after it are not judged"), "{}", found.headline());
    }

    #[test]
    fn what_cannot_be_cut_says_why() {
        let why = |input: &[u8], answer: &[u8], s: &Split| {
            judge(CheckerKind::Lines, s, &none(), input, b"x\n", answer).unwrap_err()
        };
        assert!(why(b"1 2\n", b"3\n", &Split::Auto).why.contains("not a count"));
        assert!(why(b"1\n1 2\n", b"3\n", &Split::Auto).why.contains("one test"));
        let single = why(b"3\n1 2 3\n", b"1\n3\n6\n", &Split::Auto);
        assert!(single.looks_multi && single.why.contains("no header line"), "{single:?}");
        assert!(single.note().1.contains("tags = [\"multitest\"]"));
        // One test of n then n lines, n answers: no test is invented.
        assert!(why(b"6\n4\n8\n15\n16\n23\n42\n", b"1\n2\n3\n4\n5\n6\n", &Split::Auto).looks_multi);
        assert!(why(b"2\n1\n2\n", b"1\n2\n3\n4\n", &Split::On).why.contains("neither one line a test"));
        assert!(!why(b"2\n1\n2\n", b"1\n2\n", &Split::Off).looks_multi);
        assert!(judge(CheckerKind::Sudoku, &Split::Auto, &none(), b"1\n", b"1\n", b"2\n").is_err());
    }

    #[test]
    fn a_separator_cuts_answers_of_any_length() {
        let s = split("{ separator = \"\" }");
        let input = b"2\na\nb\n\nc\n";
        let answer = b"1\n2\n3\n\n4\n";
        let found = judge(CheckerKind::Lines, &s, &none(), input, b"1\n2\n3\n\n5\n", answer).unwrap();
        assert_eq!((found.failed.clone(), found.input.as_deref()), (vec![2], Some(&b"c\n"[..])));
        assert_eq!(found.diff.unwrap().from_line, 5);
        assert!(!s.per_test_points() && split("{ points = \"per-test\" }").per_test_points());
        let fixed = split("{ input_lines = 1, answer_lines = 2 }");
        let found = judge(CheckerKind::Lines, &fixed, &none(), b"2\nx\ny\n", b"1\n2\n3\n5\n", b"1\n2\n3\n4\n").unwrap();
        assert_eq!((found.first, found.input.as_deref()), (2, Some(&b"y\n"[..])));
    }

    #[test]
    fn settings_are_read_and_mistakes_named() {
        assert_eq!(split("\"auto\""), Split::Auto);
        assert_eq!(split("\"off\""), Split::Off);
        let bad = |text: &str| Split::parse(&toml::from_str::<toml::Table>(&format!("v = {text}")).unwrap()["v"]);
        assert!(bad("\"sometimes\"").unwrap_err().contains("\"auto\", \"on\", \"off\""));
        assert!(bad("{ input_lines = 0 }").unwrap_err().contains("input_lines"));
        assert!(bad("{ seperator = \"\" }").unwrap_err().contains("unknown key seperator"));
    }
}
