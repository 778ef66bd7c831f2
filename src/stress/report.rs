//! What a stress run prints: pure functions from the report to text or bytes.

use super::model::{Ending, StressOptions, StressReport, TestRun};
use std::fmt::Write;

/// Shown of the shrunk input, at most.
const SHOW_BYTES: usize = 4096;

/// The closing text: a pass line, or the failing test, its shrunk input and where it went.
pub fn text(report: &StressReport, options: &StressOptions) -> String {
    let slowest = |pick: &dyn Fn(&TestRun) -> Option<f64>| {
        report.tests.iter().filter_map(pick).fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.max(x))))
    };
    let mut s = String::new();
    let times = match (slowest(&|t| Some(t.cpu_ms)), slowest(&|t| t.reference_cpu_ms)) {
        (Some(a), Some(b)) => format!("; slowest CPU time: solver {a:.1} ms, reference {b:.1} ms"),
        (Some(a), None) => format!("; slowest CPU time {a:.1} ms"),
        _ => String::new(),
    };
    match &report.ending {
        Ending::Passed => {
            let _ = writeln!(s, "{} tests passed (--seed {}){times}", report.tests.len(), options.seed);
        }
        Ending::Broken(why) => {
            let _ = writeln!(s, "stopped after {} tests: {}", report.tests.len(), crate::tame::tame(why));
        }
        Ending::Failed(f) => {
            let t = &f.test;
            let _ = writeln!(
                s,
                "test {} (seed {}) failed: {} {}",
                t.number,
                t.seed,
                t.verdict,
                crate::tame::tame(t.detail.trim_end())
            );
            let _ = writeln!(s, "{} tests run{times}", report.tests.len());
            if !t.stderr.is_empty() {
                let _ = writeln!(s, "--- solver's stderr ---\n{}\n---", crate::tame::tame(&t.stderr));
            }
            let _ = writeln!(s, "input: `{} {}`", options.generator_text, t.seed);
            match &f.not_shrunk {
                Some(why) => {
                    let _ = writeln!(s, "not shrunk: {why}");
                }
                None => {
                    let _ = writeln!(s, "shrunk in {} runs: {} -> {}", f.shrunk.tries, f.shrunk.before, f.shrunk.after);
                }
            }
            let shown = &f.shrunk.bytes[..f.shrunk.bytes.len().min(SHOW_BYTES)];
            let _ =
                writeln!(s, "--- shrunk input ---\n{}", crate::tame::tame(String::from_utf8_lossy(shown).trim_end()));
            if shown.len() < f.shrunk.bytes.len() {
                let _ = writeln!(s, "[... {} more bytes]", f.shrunk.bytes.len() - shown.len());
            }
            let _ = writeln!(s, "---");
            match (&f.saved, &f.save_error) {
                (Some(path), _) => {
                    let _ = writeln!(
                        s,
                        "saved as {}; replay it with: judge {} -- {}",
                        path.display(),
                        path.display(),
                        options.solver_text
                    );
                }
                (None, Some(e)) => {
                    let _ = writeln!(s, "not saved: {e}");
                }
                (None, None) => {
                    let _ = writeln!(s, "not saved (--save DIR keeps it as a case)");
                }
            }
        }
    }
    s
}

/// The whole report as JSON: every test run, and how the run ended.
pub fn json(report: &StressReport) -> Vec<u8> {
    serde_json::to_vec_pretty(report).unwrap_or_default()
}
