//! Interactive cases, as testlib runs an interactor: `INTERACTOR INPUT OUTPUT [ANSWER]`
//! talks with the solver, the interactor's stdout being the solver's stdin and the solver's
//! stdout the interactor's stdin, and the interactor's exit code is the verdict as a
//! checker's is (see [`crate::check::testlib_outcome`]).
//!
//! Both programs run at once, each through [`crate::exec::run_relayed`] on a thread of its
//! own (so each has its own launcher, sandbox, watchdog and limits); the judge relays each
//! stream to the other program and keeps its last lines ([`transcript`]) and which program
//! hung up first. That order settles what each program's end means:
//!
//! - the interactor gave WA or PE and hung up first: its verdict, whatever the solver did
//!   after (a crash, a broken pipe, blocking on a reply that never comes), as testlib judges do;
//! - otherwise the solver's own verdict stands (TLE, MLE, OLE, RE: it failed while the
//!   interactor was still waiting on it), and after a clean exit the interactor's word is the
//!   verdict;
//! - an interactor that does not start, dies, fails (exit 3) or exceeds its own limits is IE.

pub mod sudoku;
pub mod transcript;

pub use transcript::{Side, Transcript};

use crate::check::{testlib_outcome, CHECKER_TIME};
use crate::exec::{self, Facts, Program, Stdout};
use crate::limits::Limits;
use crate::verdict::{self, CheckOutcome, Judgement, Verdict};
use std::path::Path;
use std::sync::{Arc, Mutex};

/// The limits an interactor runs under: a checker's, and a wall limit past the solver's
/// (it spends most of its time waiting on the solver, which is not its fault).
pub fn interactor_limits(solver: &Limits) -> Limits {
    Limits {
        time: CHECKER_TIME,
        memory_kib: 1 << 20,
        output_bytes: 64 << 20,
        wall: Some(solver.wall_limit() + CHECKER_TIME * 2),
        ..Limits::default()
    }
}

/// What one exchange between a solver and an interactor left.
#[derive(Debug)]
pub struct Exchange {
    pub solver: Facts,
    pub interactor: Facts,
    pub transcript: Transcript,
}

fn failed(why: String) -> Exchange {
    Exchange {
        solver: Facts::default(),
        interactor: Facts { spawn_error: Some(why), ..Facts::default() },
        transcript: Transcript::default(),
    }
}

/// Runs `solver` under `limits` against `interactor`, given `input`, a fresh empty OUTPUT
/// file it may write, and `answer` when there is one.
pub fn exchange(
    runner: &exec::Runner,
    solver: &Program,
    interactor: &Program,
    input: &Path,
    answer: Option<&Path>,
    limits: &Limits,
) -> Exchange {
    let dir = match tempfile::tempdir_in(crate::interrupt::temp_root()) {
        Ok(d) => d,
        Err(e) => return failed(format!("cannot make a folder for the interactor: {e}")),
    };
    let log = dir.path().join("output.txt");
    if let Err(e) = std::fs::write(&log, b"") {
        return failed(format!("cannot make the interactor's output file: {e}"));
    }
    let ((to_solver, from_interactor), (to_interactor, from_solver)) = match (exec::pipe(), exec::pipe()) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => return failed(format!("cannot make pipes: {e}")),
    };
    let mut full = interactor.clone();
    full.args.extend([input.into(), log.clone().into()]);
    full.args.extend(answer.map(Into::into));
    let shared = Arc::new(Mutex::new(Transcript::default()));
    let tap = |from: Side| Box::new(transcript::Direction { from, transcript: Arc::clone(&shared) });
    let own_limits = interactor_limits(limits);
    // The interactor's thread runs through a runner of its own, ended with the thread.
    let own_runner = runner.another();
    let (solver_facts, interactor_facts) = std::thread::scope(|s| {
        let interactor_run = s.spawn(move || {
            let out = Stdout::Relay { to: from_interactor, tap: tap(Side::Interactor) };
            exec::run_relayed(&own_runner, &full, to_interactor, out, std::slice::from_ref(&log), &own_limits)
        });
        let out = Stdout::Relay { to: from_solver, tap: tap(Side::Solver) };
        let solver_facts = exec::run_relayed(runner, solver, to_solver, out, &[], limits);
        let interactor_facts = interactor_run.join().unwrap_or_else(|_| Facts {
            spawn_error: Some("the interactor's thread failed".into()),
            ..Facts::default()
        });
        (solver_facts, interactor_facts)
    });
    let transcript = shared.lock().unwrap_or_else(|p| p.into_inner()).clone();
    Exchange { solver: solver_facts, interactor: interactor_facts, transcript }
}

/// The verdict of one exchange (see the module's rules), for a solver under `limits`.
pub fn judge(exchange: &Exchange, limits: &Limits) -> Judgement {
    let ie = |detail: String| Judgement { verdict: Verdict::Ie, detail, share: 0.0 };
    let own = &exchange.interactor;
    if own.memory_killed {
        return ie("the interactor ran out of memory (it may use 1 GiB)".into());
    }
    if own.output_overflow {
        return ie("the interactor wrote more than 64 MiB".into());
    }
    let said = testlib_outcome(own, "interactor");
    let first = exchange.transcript.first_to_end;
    match said {
        // The solver's own failure is no excuse for a broken interactor.
        CheckOutcome::Failed(why) if exchange.solver.spawn_error.is_none() => ie(why),
        CheckOutcome::Wrong(why) if first == Some(Side::Interactor) => {
            Judgement { verdict: Verdict::Wa, detail: why, share: 0.0 }
        }
        CheckOutcome::Presentation(why) if first == Some(Side::Interactor) => {
            Judgement { verdict: Verdict::Pe, detail: why, share: 0.0 }
        }
        said => verdict::judge(&exchange.solver, limits, || said),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::StreamEnd;

    fn facts(exit: Option<i32>, signal: Option<i32>) -> Facts {
        Facts { exit_code: exit, signal, cpu_ms: 1.0, wall_ms: 1.0, peak_rss_kib: 1000, ..Facts::default() }
    }

    fn verdict(solver: Facts, interactor: Facts, first: Side) -> Verdict {
        let mut transcript = Transcript::default();
        transcript.ended(first, StreamEnd::Closed);
        judge(&Exchange { solver, interactor, transcript }, &Limits::default()).verdict
    }

    #[test]
    fn who_hung_up_first_settles_a_wa_against_a_crash() {
        let crashed = || facts(None, Some(libc::SIGSEGV));
        let wa = || facts(Some(1), None);
        assert_eq!(verdict(crashed(), wa(), Side::Interactor), Verdict::Wa);
        assert_eq!(verdict(crashed(), wa(), Side::Solver), Verdict::Re);
        assert_eq!(verdict(facts(Some(0), None), wa(), Side::Solver), Verdict::Wa);
        assert_eq!(verdict(facts(Some(0), None), facts(Some(2), None), Side::Solver), Verdict::Pe);
        assert_eq!(verdict(crashed(), facts(Some(0), None), Side::Interactor), Verdict::Re);
        assert_eq!(verdict(facts(Some(0), None), facts(Some(0), None), Side::Solver), Verdict::Ac);
    }

    #[test]
    fn a_broken_interactor_is_ie_whatever_the_solver_did() {
        let ok = || facts(Some(0), None);
        assert_eq!(verdict(ok(), facts(None, Some(libc::SIGABRT)), Side::Interactor), Verdict::Ie);
        assert_eq!(verdict(ok(), facts(Some(3), None), Side::Interactor), Verdict::Ie);
        assert_eq!(verdict(ok(), facts(Some(200), None), Side::Interactor), Verdict::Ie);
        let slow = Facts { watchdog_killed: true, ..facts(None, Some(libc::SIGKILL)) };
        assert_eq!(verdict(ok(), slow, Side::Solver), Verdict::Ie);
    }
}
