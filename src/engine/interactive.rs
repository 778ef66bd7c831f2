//! One interactive case judged end to end, for the engine: its exchanges (with repeats, each
//! [`crate::interact`]'s), the median run's verdict, and the transcript kept when it fails.

use super::results::{input_head, passes, spread, CaseResult};
use crate::cases::Case;
use crate::exec::Program;
use crate::interact::{exchange, judge, Exchange};
use crate::limits::Limits;
use crate::spool::Spool;
use crate::verdict::Judgement;
use std::path::Path;

/// Runs `solver` against `interactor` on `input`, `repeat` times, and judges the
/// median run (by the solver's CPU time); the solver runs through `runner`.
pub fn judge_case(
    runner: &crate::exec::Runner,
    case: &Case,
    repeat: usize,
    solver: &Program,
    interactor: &Program,
    input: &Path,
    limits: Limits,
) -> CaseResult {
    let answer = case.expected.as_deref();
    let mut runs: Vec<Exchange> =
        (0..repeat.max(1)).map(|_| exchange(runner, solver, interactor, input, answer, &limits)).collect();
    let cpu_ms = spread(runs.iter().map(|r| r.solver.cpu_ms).collect());
    let wall_ms = spread(runs.iter().map(|r| r.solver.wall_ms).collect());
    runs.sort_by(|a, b| a.solver.cpu_ms.total_cmp(&b.solver.cpu_ms));
    let run = runs.swap_remove(runs.len() / 2);
    let Judgement { verdict, detail, share } = judge(&run, &limits);
    let passed = passes(case, verdict);
    let tl = limits.time.as_secs_f64() * 1000.0;
    let warning = (verdict.is_pass() && run.solver.cpu_ms >= 0.9 * tl)
        .then(|| format!("{:.0} ms is within 10% of the {tl:.0} ms time limit", run.solver.cpu_ms));
    CaseResult {
        // What the solver wrote went to the interactor; the transcript keeps its tail.
        facts: crate::exec::Facts { stdout: Spool::default(), ..run.solver },
        runs: repeat.max(1),
        cpu_ms,
        wall_ms,
        warning,
        points: share * case.config.points.unwrap_or(1.0),
        input_head: if passed { None } else { input_head(input) },
        transcript: (!passed).then_some(run.transcript),
        ..CaseResult::without_run(case, limits, verdict, detail)
    }
}
