//! What judging one case gives ([`CaseResult`]): its verdict, the median run's facts, the
//! spread of its repeats, and what a report shows of a failure (the input's head, a diff, a
//! transcript, the tests that failed). The engine and the runner of interactive cases fill it
//! in; the report and the commands read it.

use crate::cases::Case;
use crate::diff::DiffWindow;
use crate::exec::Facts;
use crate::limits::Limits;
use crate::verdict::Verdict;
use std::path::Path;

/// Min, median and max over the repeats of one case.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct Spread {
    pub min: f64,
    pub median: f64,
    pub max: f64,
}

/// The outcome of one case.
#[derive(Clone, Debug, serde::Serialize)]
pub struct CaseResult {
    pub name: String,
    pub verdict: Verdict,
    /// The verdict `case.toml` asks for, when it asks for one.
    pub expected_verdict: Option<Verdict>,
    pub passed: bool,
    pub detail: String,
    pub limits: Limits,
    /// The facts of the median run (by CPU time).
    pub facts: Facts,
    pub runs: usize,
    pub cpu_ms: Spread,
    pub wall_ms: Spread,
    /// Set when an accepted run came within 10% of the time limit.
    pub warning: Option<String>,
    /// A line diff against the expected output, for WA and PE.
    #[serde(skip)]
    pub diff: Option<DiffWindow>,
    /// How the reference solution (`--ref`) ran on this case, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reference: Option<ReferenceRun>,
    /// Points earned, out of `max_points` (case.toml `points`, default 1): all of them for
    /// AC, the checker's share for PC, none otherwise.
    pub points: f64,
    pub max_points: f64,
    /// Whether case.toml gave this case points (so the report shows scores).
    #[serde(skip)]
    pub scored: bool,
    /// The first lines of the input of a failed case (see [`input_head`]), for the report.
    #[serde(skip)]
    pub input_head: Option<InputHead>,
    /// The last lines each way between the solver and the interactor of a failed
    /// interactive case, for the report (and `--json`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transcript: Option<crate::interact::transcript::Transcript>,
    /// Which tests inside a failed multi-test file failed (see [`crate::subcases`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subcases: Option<crate::subcases::Subcases>,
}

/// The head of a case's input as a report shows it: at most [`HEAD_LINES`] lines of at most
/// [`HEAD_LINE_BYTES`] bytes each, and whether there is more.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputHead {
    pub lines: Vec<Vec<u8>>,
    pub more: bool,
}

pub const HEAD_LINES: usize = 10;
pub const HEAD_LINE_BYTES: usize = 160;

/// Reads the head of `input` without reading it whole (an input may be gigabytes).
pub fn input_head(input: &Path) -> Option<InputHead> {
    use std::io::Read;
    let mut buf = Vec::new();
    let file = crate::regular::open(input).ok()?;
    file.take((HEAD_LINES * (HEAD_LINE_BYTES + 1024)) as u64).read_to_end(&mut buf).ok()?;
    let mut lines: Vec<Vec<u8>> = buf.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
    if lines.last().is_some_and(Vec::is_empty) {
        lines.pop();
    }
    let more = lines.len() > HEAD_LINES || std::fs::metadata(input).ok()?.len() > buf.len() as u64;
    lines.truncate(HEAD_LINES);
    for line in &mut lines {
        if line.len() > HEAD_LINE_BYTES {
            line.truncate(HEAD_LINE_BYTES);
            line.extend_from_slice("…".as_bytes());
        }
    }
    Some(InputHead { lines, more })
}

/// The head of a test's input already in memory, cut as [`input_head`] cuts a file's.
pub(crate) fn head_of(bytes: &[u8]) -> InputHead {
    let mut lines: Vec<Vec<u8>> = bytes.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
    if lines.last().is_some_and(Vec::is_empty) {
        lines.pop();
    }
    let more = lines.len() > HEAD_LINES;
    lines.truncate(HEAD_LINES);
    for line in &mut lines {
        if line.len() > HEAD_LINE_BYTES {
            line.truncate(HEAD_LINE_BYTES);
            line.extend_from_slice("…".as_bytes());
        }
    }
    InputHead { lines, more }
}

/// The reference solution's run on a case: it must end cleanly (`OK`) for its output to be
/// the expected one; otherwise the case is IE, never blamed on the solver.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct ReferenceRun {
    pub verdict: Verdict,
    pub cpu_ms: f64,
}

/// Whether `verdict` passes `case`: the verdict its `case.toml` expects, or else AC or OK.
pub(crate) fn passes(case: &Case, verdict: Verdict) -> bool {
    match case.config.expect {
        Some(expected) => verdict == expected,
        None => verdict.is_pass(),
    }
}

impl CaseResult {
    pub(crate) fn without_run(case: &Case, limits: Limits, verdict: Verdict, detail: String) -> CaseResult {
        let passed = passes(case, verdict);
        CaseResult {
            name: case.name.clone(),
            verdict,
            expected_verdict: case.config.expect,
            passed,
            detail,
            limits,
            facts: Facts::default(),
            runs: 0,
            cpu_ms: Spread::default(),
            wall_ms: Spread::default(),
            warning: None,
            diff: None,
            reference: None,
            points: 0.0,
            max_points: case.config.points.unwrap_or(1.0),
            scored: case.config.points.is_some(),
            input_head: None,
            transcript: None,
            subcases: None,
        }
    }
}

/// The median of `values` (the upper one of the middle two).
pub(crate) fn spread(mut values: Vec<f64>) -> Spread {
    values.sort_by(f64::total_cmp);
    match (values.first(), values.last()) {
        (Some(&min), Some(&max)) => Spread { min, median: values[values.len() / 2], max },
        _ => Spread::default(),
    }
}
