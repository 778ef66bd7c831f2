//! What a stress run takes ([`StressOptions`]) and gives ([`StressReport`]: each test run, and
//! how it ended), apart from the loop that runs it, so that saving and reporting a failure
//! read them without importing the loop.

use super::shrink;
use crate::engine;
use crate::exec::Program;
use crate::verdict::Verdict;
use std::path::PathBuf;
use std::time::Duration;

/// Everything a stress run needs, already checked.
#[derive(Clone, Debug)]
pub struct StressOptions {
    /// The generator; each test appends its seed as the last argument.
    pub generator: Program,
    /// The generator as the user wrote it, for reports and the saved case.
    pub generator_text: String,
    /// The solver as the user wrote it, for the replay command.
    pub solver_text: String,
    /// The solver, the reference, limits, checker and jobs, as for judging.
    pub judge: engine::Options,
    /// Stop after this many tests...
    pub tests: u64,
    /// ...or when this much time has passed, whichever comes first.
    pub duration: Option<Duration>,
    pub seed: u64,
    /// Where the shrunk failing input is saved as `stress-<seed>/`.
    pub save: Option<PathBuf>,
    /// Solver runs the shrinker may spend.
    pub shrink_tries: usize,
    /// A testlib-style validator (exit 0: the input on its stdin is valid), checked on every
    /// generated input and on every input the shrinker tries.
    pub validator: Option<Program>,
}

/// One test: its number, seed and what the solver earned.
#[derive(Clone, Debug, serde::Serialize)]
pub struct TestRun {
    pub number: u64,
    pub seed: u64,
    pub verdict: Verdict,
    pub detail: String,
    pub cpu_ms: f64,
    pub reference_cpu_ms: Option<f64>,
    pub input_bytes: usize,
    /// The head of the solver's stderr (a traceback says more than a verdict).
    pub stderr: String,
}

/// The first failing test, its input, what shrinking made of it, and where it was saved.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Failure {
    pub test: TestRun,
    #[serde(skip)]
    pub input: Vec<u8>,
    pub shrunk: shrink::Shrunk,
    pub saved: Option<PathBuf>,
    /// Why the case folder could not be written, when it could not.
    pub save_error: Option<String>,
    /// Why the input was not shrunk, when it was not (the failure did not come back).
    pub not_shrunk: Option<String>,
}

/// How a stress run ended.
#[derive(Clone, Debug, serde::Serialize)]
#[serde(rename_all = "snake_case", tag = "ending", content = "what")]
pub enum Ending {
    Passed,
    Failed(Box<Failure>),
    /// The generator or the reference failed, or the work folder could not be used: a
    /// problem of the set-up, not of the solver (exit 2).
    Broken(String),
}

#[derive(Clone, Debug, serde::Serialize)]
pub struct StressReport {
    /// Every test run, in order of number.
    pub tests: Vec<TestRun>,
    #[serde(flatten)]
    pub ending: Ending,
}

/// The live figures, after each test.
#[derive(Clone, Copy, Debug, Default)]
pub struct Progress {
    pub tests: u64,
    pub failures: u64,
    pub slowest_ms: f64,
    pub slowest_reference_ms: Option<f64>,
    /// While shrinking: solver runs so far, and the size of the smallest failing input.
    pub shrinking: Option<(usize, usize)>,
}
