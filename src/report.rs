//! Reports: pure functions from results to text or bytes. Where the bytes go is the CLI's
//! business.

use crate::engine::{tally, CaseResult};
use crate::limits::show_kib;
use crate::verdict::Verdict;
use std::fmt::Write;

/// How to draw text reports.
#[derive(Clone, Copy, Debug, Default)]
pub struct Style {
    /// ANSI colours (only ever on a terminal).
    pub color: bool,
    /// At most this many bytes of a failing case's stderr are shown.
    pub stderr_limit: usize,
}

fn paint(style: Style, verdict: Verdict, text: &str) -> String {
    if !style.color {
        return text.to_string();
    }
    let code = match verdict {
        Verdict::Ac | Verdict::Ok => "32",
        Verdict::Sk => "2",
        Verdict::Tle | Verdict::Mle | Verdict::Ole => "33",
        _ => "31",
    };
    format!("\x1b[{code}m{text}\x1b[0m")
}

/// Text from a solver, a checker or a file name made harmless for a terminal: every control
/// character but newline and tab is shown as `\xNN` (escape codes could clear the screen and
/// print a fake "all passed"; a stray newline could forge a table row).
pub fn tame(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' | '\t' => out.push(c),
            c if c.is_control() => {
                let _ = write!(out, "\\x{:02X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// One line of text made harmless, newlines and tabs included.
fn tame_line(text: &str) -> String {
    tame(text).replace('\n', "\\n").replace('\t', "\\t")
}

/// Whether scores are in play: some case has points in its case.toml, or a checker gave
/// partial points. Only then do reports show them.
pub fn scored(results: &[CaseResult]) -> bool {
    results.iter().any(|r| r.scored || r.verdict == Verdict::Pc)
}

/// Points earned and points possible, over all `results`.
pub fn score(results: &[CaseResult]) -> (f64, f64) {
    results.iter().fold((0.0, 0.0), |(got, max), r| (got + r.points, max + r.max_points))
}

/// A number of points without noise: `2`, `0.5`, `0.333`.
fn points(value: f64) -> String {
    let text = format!("{value:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// One line per case: name, verdict, CPU and wall time, peak memory, and a note.
pub fn table(results: &[CaseResult], style: Style) -> String {
    let width = results.iter().map(|r| tame_line(&r.name).len()).max().unwrap_or(4).max(4);
    // A reference's CPU time gets its own column, only in runs that have one; so do points.
    let with_ref = results.iter().any(|r| r.reference.is_some());
    let ref_header = if with_ref { format!("  {:>8}", "ref ms") } else { String::new() };
    let with_points = scored(results);
    let points_header = if with_points { format!("  {:>9}", "points") } else { String::new() };
    let mut s = format!(
        "{:<width$}  verdict  {:>8}  {:>8}  {:>10}{ref_header}{points_header}  note\n",
        "case", "cpu ms", "wall ms", "memory"
    );
    for r in results {
        let mut note = r.detail.lines().next().unwrap_or("").to_string();
        if let Some(expected) = r.expected_verdict {
            let mark = if r.passed { "as expected" } else { "expected" };
            note = format!("{mark} {expected}{}{note}", if note.is_empty() { "" } else { "; " });
        }
        if let Some(w) = &r.warning {
            note = format!("warning: {w}");
        }
        if r.runs > 1 {
            let spread = format!("cpu {:.1}-{:.1} ms over {} runs", r.cpu_ms.min, r.cpu_ms.max, r.runs);
            note = if note.is_empty() { spread } else { format!("{spread}; {note}") };
        }
        let ran = r.runs > 0;
        let num = |v: f64| if ran { format!("{v:.1}") } else { "-".into() };
        let bound = if r.facts.peak_rss_exact { "" } else { "≤" };
        let mem = if ran { format!("{bound}{}", show_kib(r.facts.peak_rss_kib)) } else { "-".into() };
        let verdict = paint(style, r.verdict, &format!("{:<7}", r.verdict.code()));
        let reference = match (with_ref, r.reference) {
            (false, _) => String::new(),
            (true, Some(run)) => format!("  {:>8.1}", run.cpu_ms),
            (true, None) => format!("  {:>8}", "-"),
        };
        let earned = if with_points {
            format!("  {:>9}", format!("{}/{}", points(r.points), points(r.max_points)))
        } else {
            String::new()
        };
        let _ = writeln!(
            s,
            "{:<width$}  {verdict}  {:>8}  {:>8}  {:>10}{reference}{earned}  {}",
            tame_line(&r.name),
            num(r.cpu_ms.median),
            num(r.wall_ms.median),
            mem,
            tame_line(note.trim_end())
        );
    }
    s
}

/// Spaces, tabs and carriage returns made visible, so a diff shows them.
fn visible(line: &str) -> String {
    line.replace(' ', "·").replace('\t', "→").replace('\r', "␍")
}

/// A unified line diff of `expected` against `output`, at most `max_lines` lines long; only
/// its first hunk when `first_only`.
pub fn diff(output: &[u8], expected: &[u8], max_lines: usize, first_only: bool) -> String {
    let (out, exp) = (String::from_utf8_lossy(output), String::from_utf8_lossy(expected));
    let d = similar::TextDiff::from_lines(exp.as_ref(), out.as_ref());
    let mut lines = Vec::new();
    for group in d.grouped_ops(2).into_iter().take(if first_only { 1 } else { usize::MAX }) {
        lines.push("@@".to_string());
        for op in group {
            for change in d.iter_changes(&op) {
                let sign = match change.tag() {
                    similar::ChangeTag::Delete => '-',
                    similar::ChangeTag::Insert => '+',
                    similar::ChangeTag::Equal => ' ',
                };
                let text = change.value();
                let ending = if text.ends_with('\n') { "" } else { "  (no newline at end)" };
                lines.push(format!("{sign}{}{ending}", tame_line(&visible(text.strip_suffix('\n').unwrap_or(text)))));
            }
        }
    }
    let total = lines.len();
    lines.truncate(max_lines);
    let mut s = lines.join("\n");
    if total > max_lines {
        let _ = write!(s, "\n... {} more diff lines", total - max_lines);
    }
    s
}

/// What went wrong in each failing case: detail, diff and the head of stderr.
pub fn failures(results: &[CaseResult], style: Style) -> String {
    let mut s = String::new();
    for r in results.iter().filter(|r| !r.passed && r.verdict != Verdict::Sk) {
        let expected = r.expected_verdict.unwrap_or(Verdict::Ac);
        let name = tame_line(&r.name);
        let _ = writeln!(s, "\n--- {name}: {} (expected {expected})", paint(style, r.verdict, r.verdict.code()));
        if !r.detail.is_empty() {
            let _ = writeln!(s, "{}", tame(&r.detail));
        }
        if let Some(head) = &r.input_head {
            let _ = writeln!(s, "input (head):");
            for line in &head.lines {
                let _ = writeln!(s, "  {}", tame_line(String::from_utf8_lossy(line).trim_end_matches('\r')));
            }
            if head.more {
                let _ = writeln!(s, "  ...");
            }
        }
        if let Some(t) = &r.transcript {
            s.push_str(&t.show());
        }
        if let Some(w) = &r.diff {
            let from = if w.from_line > 1 { format!(" from line {}", w.from_line) } else { String::new() };
            let legend = "- expected, + output; · space, → tab, ␍ CR";
            let _ = writeln!(s, "diff{from} ({legend}):\n{}", diff(&w.output, &w.expected, 40, w.cut));
        }
        let err = &r.facts.stderr;
        if !err.is_empty() && style.stderr_limit > 0 {
            let shown = &err[..err.len().min(style.stderr_limit)];
            let _ = writeln!(s, "stderr:\n{}", tame(String::from_utf8_lossy(shown).trim_end()));
            if err.len() > shown.len() {
                let _ = writeln!(s, "... {} more bytes of stderr (--stderr-limit)", err.len() - shown.len());
            }
        }
    }
    s
}

/// The closing line: `N passed, N failed`, then `, N skipped` when any were.
pub fn summary(results: &[CaseResult]) -> String {
    let (passed, failed, skipped) = tally(results);
    let mut s = format!("{passed} passed, {failed} failed");
    if skipped > 0 {
        let _ = write!(s, ", {skipped} skipped");
    }
    if scored(results) {
        let (got, max) = score(results);
        let _ = write!(s, "; score {} / {}", points(got), points(max));
    }
    s
}

/// Every case with its facts, a summary, and the sandbox the runs had, as JSON with stable
/// field names.
pub fn json(results: &[CaseResult], sandbox: &crate::sandbox::Protections) -> Vec<u8> {
    let (passed, failed, skipped) = tally(results);
    let (points, max_points) = score(results);
    let doc = serde_json::json!({
        "format": "sudoku-judge/1",
        "summary": {
            "total": results.len(), "passed": passed, "failed": failed, "skipped": skipped,
            "points": points, "max_points": max_points,
        },
        "sandbox": sandbox,
        "cases": results,
    });
    let mut bytes = serde_json::to_vec_pretty(&doc).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_are_short() {
        assert_eq!(
            (points(2.0), points(0.5), points(1.0 / 3.0), points(0.0)),
            ("2".into(), "0.5".into(), "0.333".into(), "0".into())
        );
    }

    #[test]
    fn control_characters_never_reach_the_terminal() {
        assert_eq!(tame("\x1b[2Jall passed\r\n"), "\\x1B[2Jall passed\\x0D\n");
        assert_eq!(tame_line("a\nb\tc\x07"), "a\\nb\\tc\\x07");
        let d = diff(b"\x1b[31mred\n", b"x\n", 40, false);
        assert!(!d.contains('\x1b') && d.contains("\\x1B[31mred"), "{d}");
    }

    #[test]
    fn diff_makes_whitespace_visible() {
        let d = diff(b"1 2 \n3\n", b"1 2\n3\n", 40, false);
        assert_eq!(d, "@@\n-1·2\n+1·2·\n 3");
    }

    #[test]
    fn long_diffs_are_cut_and_say_so() {
        let out: String = (0..100).map(|i| format!("{i}\n")).collect();
        let d = diff(out.as_bytes(), b"", 10, false);
        assert!(d.ends_with("... 91 more diff lines"), "{d}");
    }
}
