//! Reports: pure functions from results to text or bytes. Where the bytes go is the CLI's
//! business.

use crate::engine::{tally, CaseResult};
use crate::limits::show_kib;
use crate::tame::tame;
use crate::verdict::Verdict;
use std::fmt::Write;

/// How to draw text reports.
#[derive(Clone, Copy, Debug, Default)]
pub struct Style {
    /// ANSI colours (only ever on a terminal).
    pub color: bool,
    /// At most this many bytes of a failing case's stderr are shown.
    pub stderr_limit: usize,
    /// How diffs are drawn.
    pub diff: DiffView,
    /// Columns the report may use (0: 100, as off a terminal).
    pub width: usize,
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

/// The table's columns, fixed before the first row so rows can be printed as cases end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Width of the case-name column.
    pub name_width: usize,
    /// A column for the reference's CPU time (`--ref`).
    pub with_ref: bool,
    /// A column for points (some case.toml gives points).
    pub with_points: bool,
}

impl Layout {
    /// The columns for cases with these names, before any has run.
    pub fn before_run<'a>(names: impl Iterator<Item = &'a str>, with_ref: bool, with_points: bool) -> Layout {
        let name_width = names.map(|n| tame_line(n).chars().count()).max().unwrap_or(4).max(4);
        Layout { name_width, with_ref, with_points }
    }

    /// The columns that fit finished `results`.
    pub fn of(results: &[CaseResult]) -> Layout {
        let mut layout = Layout::before_run(results.iter().map(|r| r.name.as_str()), false, scored(results));
        layout.with_ref = results.iter().any(|r| r.reference.is_some());
        layout
    }
}

/// The table's header line.
pub fn header(layout: Layout) -> String {
    let width = layout.name_width;
    let ref_header = if layout.with_ref { format!("  {:>8}", "ref ms") } else { String::new() };
    let points_header = if layout.with_points { format!("  {:>9}", "points") } else { String::new() };
    format!(
        "{:<width$}  verdict  {:>8}  {:>8}  {:>10}{ref_header}{points_header}  note\n",
        "case", "cpu ms", "wall ms", "memory"
    )
}

/// One case's line: name, verdict, CPU and wall time, peak memory, and a note.
pub fn row(layout: Layout, r: &CaseResult, style: Style) -> String {
    let width = layout.name_width;
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
    let reference = match (layout.with_ref, r.reference) {
        (false, _) => String::new(),
        (true, Some(run)) => format!("  {:>8.1}", run.cpu_ms),
        (true, None) => format!("  {:>8}", "-"),
    };
    let earned = if layout.with_points {
        format!("  {:>9}", format!("{}/{}", points(r.points), points(r.max_points)))
    } else {
        String::new()
    };
    format!(
        "{:<width$}  {verdict}  {:>8}  {:>8}  {:>10}{reference}{earned}  {}\n",
        tame_line(&r.name),
        num(r.cpu_ms.median),
        num(r.wall_ms.median),
        mem,
        tame_line(note.trim_end())
    )
}

/// One line per case under a header, with columns fitted to `results`.
pub fn table(results: &[CaseResult], style: Style) -> String {
    let layout = Layout::of(results);
    let mut s = header(layout);
    for r in results {
        s.push_str(&row(layout, r, style));
    }
    s
}

/// Spaces, tabs and carriage returns made visible, so a diff shows them.
fn visible(line: &str) -> String {
    line.replace(' ', "·").replace('\t', "→").replace('\r', "␍")
}

/// How a failing case's diff is drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DiffView {
    /// Side by side when every line fits half the width, else unified.
    #[default]
    Auto,
    /// Expected on the left, received on the right (the layout cph and most IDE plugins use).
    Side,
    /// `-` expected and `+` received lines, one under the other.
    Unified,
}

impl DiffView {
    pub fn parse(text: &str) -> Result<DiffView, String> {
        match text {
            "auto" => Ok(DiffView::Auto),
            "side" => Ok(DiffView::Side),
            "unified" => Ok(DiffView::Unified),
            _ => Err(format!("unknown diff view '{text}': expected auto, side or unified")),
        }
    }
}

/// A diff line's text (with its newline, if it has one): whitespace visible, control
/// characters tamed, a missing final newline said.
fn shown(line: &str) -> String {
    match line.strip_suffix('\n') {
        Some(text) => tame_line(&visible(text)),
        None => format!("{}  (no newline at end)", tame_line(&visible(line))),
    }
}

fn colour(style: Style, code: &str, text: &str) -> String {
    if style.color {
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

/// A diff of `expected` against `output`, at most `max_lines` lines long; only its first hunk
/// when `first_only`. Drawn side by side or unified as `style` says; in colour on a terminal
/// (expected red, received green). Returns the view drawn and the text.
pub fn diff_styled(
    output: &[u8],
    expected: &[u8],
    max_lines: usize,
    first_only: bool,
    style: Style,
) -> (DiffView, String) {
    let (out, exp) = (String::from_utf8_lossy(output), String::from_utf8_lossy(expected));
    // Lines keep their newlines, so a missing last one is a difference.
    let (a, b): (Vec<&str>, Vec<&str>) = (exp.split_inclusive('\n').collect(), out.split_inclusive('\n').collect());
    let ops = crate::diff::lines(&a, &b);
    let left = |i: usize| shown(a[i]);
    let right = |j: usize| shown(b[j]);
    let groups: Vec<&[crate::diff::Op]> =
        crate::diff::hunks(&ops, 2).into_iter().take(if first_only { 1 } else { usize::MAX }).collect();
    let width = if style.width == 0 { 100 } else { style.width };
    // Each side gets half the width, less the gutter: "NNN " and " | " in the middle.
    let half = width.saturating_sub(3) / 2;
    let fits = groups.iter().flat_map(|g| g.iter()).all(|op| {
        let (l, r) = match *op {
            crate::diff::Op::Same(i, j) => (left(i).chars().count(), right(j).chars().count()),
            crate::diff::Op::Lost(i) => (left(i).chars().count(), 0),
            crate::diff::Op::Added(j) => (0, right(j).chars().count()),
        };
        l.max(r) <= half.saturating_sub(2)
    });
    let view = match style.diff {
        DiffView::Auto if fits => DiffView::Side,
        DiffView::Auto => DiffView::Unified,
        chosen => chosen,
    };
    let mut lines = Vec::new();
    for group in groups {
        if view == DiffView::Unified {
            lines.push("@@".to_string());
            for op in group {
                lines.push(match *op {
                    crate::diff::Op::Same(i, _) => format!(" {}", left(i)),
                    crate::diff::Op::Lost(i) => colour(style, "31", &format!("-{}", left(i))),
                    crate::diff::Op::Added(j) => colour(style, "32", &format!("+{}", right(j))),
                });
            }
            continue;
        }
        lines.push(format!("{:<half$} | {}", "expected", "received"));
        // A run of lost lines and the added ones after it are drawn as one block, row by row.
        let mut k = 0;
        while k < group.len() {
            if let crate::diff::Op::Same(i, j) = group[k] {
                lines.push(format!("{}   {}", pad(&left(i), half), right(j)));
                k += 1;
                continue;
            }
            let lost: Vec<usize> = group[k..]
                .iter()
                .map_while(|op| if let crate::diff::Op::Lost(i) = *op { Some(i) } else { None })
                .collect();
            k += lost.len();
            let added: Vec<usize> = group[k..]
                .iter()
                .map_while(|op| if let crate::diff::Op::Added(j) = *op { Some(j) } else { None })
                .collect();
            k += added.len();
            for row in 0..lost.len().max(added.len()) {
                let l = lost.get(row).map(|&i| left(i)).unwrap_or_default();
                let r = added.get(row).map(|&j| right(j)).unwrap_or_default();
                let mark = match (lost.get(row), added.get(row)) {
                    (Some(_), Some(_)) => '|',
                    (Some(_), None) => '<',
                    _ => '>',
                };
                lines.push(format!("{} {mark} {}", colour(style, "31", &pad(&l, half)), colour(style, "32", &r)));
            }
        }
    }
    let total = lines.len();
    lines.truncate(max_lines);
    let mut s = lines.join("\n");
    if total > max_lines {
        let _ = write!(s, "\n... {} more diff lines", total - max_lines);
    }
    (view, s)
}

/// `text` padded with spaces to `width` characters.
fn pad(text: &str, width: usize) -> String {
    let n = text.chars().count();
    format!("{text}{}", " ".repeat(width.saturating_sub(n)))
}

/// What went wrong in each failing case: detail, diff and the head of stderr.
pub fn failures(results: &[CaseResult], style: Style) -> String {
    let mut s = String::new();
    // Cases that failed to build for one reason (the solver's CE) share one block.
    let mut told: Vec<&str> = Vec::new();
    for r in results.iter().filter(|r| !r.passed && r.verdict != Verdict::Sk) {
        if r.verdict == Verdict::Ce && r.runs == 0 {
            if told.contains(&r.detail.as_str()) {
                continue;
            }
            told.push(&r.detail);
            let same: Vec<String> = results
                .iter()
                .filter(|o| !o.passed && o.verdict == Verdict::Ce && o.detail == r.detail)
                .map(|o| tame_line(&o.name))
                .collect();
            if same.len() > 1 {
                let names = if same.len() > 6 { format!("{}, ...", same[..5].join(", ")) } else { same.join(", ") };
                let _ = writeln!(s, "\n--- {} cases: {} ({names})", same.len(), paint(style, r.verdict, "CE"));
                let _ = writeln!(s, "{}", tame(&r.detail));
                continue;
            }
        }
        let name = tame_line(&r.name);
        // Only a case that asks for a verdict (a harness case's `expect`) says which; in a
        // user's folder every case is meant to pass, and the heading says what failed.
        let expected = r.expected_verdict.map(|v| format!(" (expected {v})")).unwrap_or_default();
        let _ = writeln!(s, "\n--- {name}: {}{expected}", paint(style, r.verdict, r.verdict.code()));
        if !r.detail.is_empty() {
            let _ = writeln!(s, "{}", tame(&r.detail));
        }
        if let Some(head) = &r.input_head {
            match &r.subcases {
                Some(sub) if sub.input.is_some() => {
                    let _ = writeln!(s, "input of test {} of {} (the count line left out):", sub.first, sub.total);
                }
                _ => {
                    let _ = writeln!(s, "input (head):");
                }
            }
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
            let from = match &r.subcases {
                Some(sub) => format!(" of test {}'s answer{from}", sub.first),
                None => from,
            };
            let (view, drawn) = diff_styled(&w.output, &w.expected, 40, w.cut, style);
            let legend = match view {
                DiffView::Side => "| changed, < only expected, > only received",
                _ => "- expected, + received",
            };
            let _ = writeln!(s, "diff{from} ({legend}; · space, → tab, ␍ CR):\n{drawn}");
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
        let d = diff_styled(b"\x1b[31mred\n", b"x\n", 40, false, Style::default()).1;
        assert!(!d.contains('\x1b') && d.contains("\\x1B[31mred"), "{d}");
    }

    fn unified() -> Style {
        Style { diff: DiffView::Unified, ..Style::default() }
    }

    #[test]
    fn diff_makes_whitespace_visible() {
        let d = diff_styled(b"1 2 \n3\n", b"1 2\n3\n", 40, false, unified()).1;
        assert_eq!(d, "@@\n-1·2\n+1·2·\n 3");
        let d = diff_styled(b"1\n2", b"1\n2\n", 40, false, unified()).1;
        assert_eq!(d, "@@\n 1\n-2\n+2  (no newline at end)");
    }

    #[test]
    fn short_lines_are_drawn_side_by_side_long_ones_unified() {
        let style = Style { width: 40, ..Style::default() };
        let (view, d) = diff_styled(b"1 2 3\n4 5 6\nextra\n", b"1 2 3\n4 5 7\n", 40, false, style);
        assert_eq!(view, DiffView::Side, "{d}");
        let rows: Vec<&str> = d.lines().collect();
        assert_eq!(rows[0], format!("{:<18} | received", "expected"));
        assert_eq!(rows[1], format!("{:<18}   1·2·3", "1·2·3"));
        assert_eq!(rows[2], format!("{:<18} | 4·5·6", "4·5·7"));
        assert_eq!(rows[3], format!("{:<18} > extra", ""));
        let long = "9".repeat(30);
        let (view, _) = diff_styled(long.as_bytes(), b"1\n", 40, false, style);
        assert_eq!(view, DiffView::Unified);
        let forced = Style { diff: DiffView::Side, ..style };
        assert_eq!(diff_styled(long.as_bytes(), b"1\n", 40, false, forced).0, DiffView::Side);
    }

    #[test]
    fn colour_marks_expected_red_and_received_green() {
        let style = Style { color: true, diff: DiffView::Unified, ..Style::default() };
        let d = diff_styled(b"b\n", b"a\n", 40, false, style).1;
        assert_eq!(d, "@@\n\x1b[31m-a\x1b[0m\n\x1b[32m+b\x1b[0m");
        assert!(!diff_styled(b"b\n", b"a\n", 40, false, Style::default()).1.contains('\x1b'));
    }

    #[test]
    fn long_diffs_are_cut_and_say_so() {
        let out: String = (0..100).map(|i| format!("{i}\n")).collect();
        let d = diff_styled(out.as_bytes(), b"", 10, false, unified()).1;
        assert!(d.ends_with("... 91 more diff lines"), "{d}");
    }
}
