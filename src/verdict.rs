//! Verdicts and the pure function that turns the facts of a run into one.
//!
//! Precedence: IE > CE > MLE > TLE > OLE > RE > PE/WA/PC > AC (a run past its memory limit is MLE
//! however it ended afterwards). The checker is consulted only after a
//! clean exit, so a wrong output can never hide a time-out or a crash.

use crate::exec::Facts;
use crate::limits::Limits;

pub use crate::cases::verdicts::{Verdict, ALL_VERDICTS};

/// What a checker said about an output.
#[derive(Clone, Debug, PartialEq)]
pub enum CheckOutcome {
    Accepted,
    /// Wrong answer, with what differs.
    Wrong(String),
    /// Presentation error, with what differs.
    Presentation(String),
    /// Partly right: `share` (0 to 1) of the case's points, with the checker's words.
    Partial {
        share: f64,
        why: String,
    },
    /// The checker itself failed (IE).
    Failed(String),
    /// No expected output and no checker that can judge alone: nothing compared.
    NothingToCompare,
}

/// A verdict with the sentence that explains it.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    pub verdict: Verdict,
    pub detail: String,
    /// The share of the case's points earned: 1 for AC, the checker's share for PC, else 0.
    pub share: f64,
}

/// Judges one run. `check` is called only when the run exited cleanly within every limit.
pub fn judge(facts: &Facts, limits: &Limits, check: impl FnOnce() -> CheckOutcome) -> Judgement {
    let j =
        |verdict, detail: String| Judgement { verdict, detail, share: if verdict == Verdict::Ac { 1.0 } else { 0.0 } };
    if let Some(e) = &facts.spawn_error {
        return j(Verdict::Ie, format!("could not run the solver: {e}"));
    }
    let tl = limits.time.as_secs_f64() * 1000.0;
    if facts.ended_by == Some("busy") && facts.cpu_ms <= tl {
        // The program was runnable nearly all along: the machine, not the program, ran out.
        return j(
            Verdict::Ie,
            format!(
                "the machine was too busy to judge this run: after {:.0} ms of wall time it had waited {:.0} ms \
                 for a CPU and used {:.0} ms of CPU time (limit {tl:.0} ms); rerun with fewer jobs (--jobs 1) or \
                 on a quieter machine",
                facts.wall_ms, facts.waited_ms, facts.cpu_ms
            ),
        );
    }
    // A run whose peak passed its memory limit is MLE however it ended afterwards (CPU, wall
    // clock, a signal): a judge with a hard memory cap would have stopped it there, so which
    // of the CPU limit and the memory guard came first must not decide the verdict.
    if facts.memory_killed || facts.peak_rss_kib > limits.memory_kib {
        let then = if facts.watchdog_killed || facts.cpu_ms > tl || facts.signal == Some(libc::SIGXCPU) {
            format!(
                "; it then ran to {:.0} ms of CPU time and {:.0} ms of wall time (TL {tl:.0} ms)",
                facts.cpu_ms, facts.wall_ms
            )
        } else {
            String::new()
        };
        return j(
            Verdict::Mle,
            format!("peak memory {} KiB; the limit is {} KiB{then}", facts.peak_rss_kib, limits.memory_kib),
        );
    }
    if facts.watchdog_killed || facts.cpu_ms > tl || facts.signal == Some(libc::SIGXCPU) {
        let how = if facts.watchdog_killed && facts.cpu_ms <= tl {
            format!(
                "killed after {:.0} ms of wall time ({:.0} ms of it waiting for a CPU) with {:.0} ms of CPU time, \
                 not using the CPU it could have (wall limit {:.0} ms)",
                facts.wall_ms,
                facts.waited_ms,
                facts.cpu_ms,
                limits.wall_limit().as_secs_f64() * 1000.0
            )
        } else {
            format!("{:.0} ms of CPU time", facts.cpu_ms)
        };
        return j(Verdict::Tle, format!("{how}; the limit is {tl:.0} ms"));
    }
    if facts.output_overflow {
        return j(Verdict::Ole, format!("more than {} bytes on stdout", limits.output_bytes));
    }
    if let Some(signal) = facts.signal {
        return j(Verdict::Re, format!("killed by {}", crate::exec::signal_name(signal)));
    }
    if let Some(code) = facts.exit_code.filter(|&c| c != 0) {
        return j(Verdict::Re, format!("exit code {code}"));
    }
    if let Some(e) = &facts.capture_error {
        return j(Verdict::Ie, format!("the judge could not check the output: {e}"));
    }
    match check() {
        CheckOutcome::Accepted => j(Verdict::Ac, String::new()),
        CheckOutcome::Wrong(why) => j(Verdict::Wa, why),
        CheckOutcome::Presentation(why) => j(Verdict::Pe, why),
        CheckOutcome::Partial { share, why } => Judgement { share, ..j(Verdict::Pc, why) },
        CheckOutcome::Failed(why) => j(Verdict::Ie, why),
        CheckOutcome::NothingToCompare => j(Verdict::Ok, "ran cleanly; no expected output to compare".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn clean() -> Facts {
        Facts { exit_code: Some(0), cpu_ms: 10.0, wall_ms: 12.0, peak_rss_kib: 2000, ..Facts::default() }
    }

    fn limits() -> Limits {
        Limits { time: Duration::from_millis(1000), memory_kib: 65536, output_bytes: 1 << 20, ..Limits::default() }
    }

    fn verdict(facts: &Facts, outcome: CheckOutcome) -> Verdict {
        judge(facts, &limits(), || outcome).verdict
    }

    #[test]
    fn a_wrong_output_never_hides_a_limit_or_a_crash() {
        let wrong = || CheckOutcome::Wrong("differs".into());
        let slow = Facts { cpu_ms: 1500.0, ..clean() };
        assert_eq!(verdict(&slow, wrong()), Verdict::Tle);
        let fat = Facts { peak_rss_kib: 70000, ..clean() };
        assert_eq!(verdict(&fat, wrong()), Verdict::Mle);
        let loud = Facts { output_overflow: true, ..clean() };
        assert_eq!(verdict(&loud, wrong()), Verdict::Ole);
        let crashed = Facts { exit_code: None, signal: Some(11), ..clean() };
        assert_eq!(verdict(&crashed, wrong()), Verdict::Re);
        assert_eq!(verdict(&clean(), wrong()), Verdict::Wa);
    }

    #[test]
    fn precedence_follows_the_documented_order() {
        let everything = Facts {
            cpu_ms: 5000.0,
            peak_rss_kib: 1 << 30,
            output_overflow: true,
            signal: Some(9),
            exit_code: None,
            ..clean()
        };
        assert_eq!(verdict(&everything, CheckOutcome::Accepted), Verdict::Mle);
        let no_mle = Facts { peak_rss_kib: 1, ..everything.clone() };
        assert_eq!(verdict(&no_mle, CheckOutcome::Accepted), Verdict::Tle);
        let spawn = Facts { spawn_error: Some("no such file".into()), ..everything };
        assert_eq!(verdict(&spawn, CheckOutcome::Accepted), Verdict::Ie);
        let mut ranks: Vec<u8> =
            ["IE", "MLE", "TLE", "OLE", "RE", "WA", "AC"].iter().map(|v| Verdict::parse(v).unwrap().rank()).collect();
        let sorted = {
            let mut s = ranks.clone();
            s.sort_unstable_by(|a, b| b.cmp(a));
            s
        };
        assert_eq!(ranks, sorted);
        ranks.dedup();
        assert_eq!(ranks.len(), 7);
    }

    #[test]
    fn a_run_past_its_memory_limit_then_ended_for_wall_time_is_mle_every_time() {
        let stuck = Facts { watchdog_killed: true, cpu_ms: 40.0, peak_rss_kib: 140_000, ..clean() };
        assert_eq!(verdict(&stuck, CheckOutcome::Accepted), Verdict::Mle);
        let memory_killed = Facts { memory_killed: true, ..stuck.clone() };
        assert_eq!(verdict(&memory_killed, CheckOutcome::Accepted), Verdict::Mle);
        // Past the CPU limit as well (killed for CPU, or by SIGXCPU): still MLE, both figures said.
        let slow = Facts { cpu_ms: 1500.0, ..stuck.clone() };
        let j = judge(&slow, &limits(), || CheckOutcome::Accepted);
        assert_eq!(j.verdict, Verdict::Mle);
        assert!(j.detail.contains("140000 KiB") && j.detail.contains("1500 ms of CPU time"), "{}", j.detail);
        let xcpu = Facts { signal: Some(libc::SIGXCPU), exit_code: None, watchdog_killed: false, ..slow.clone() };
        assert_eq!(verdict(&xcpu, CheckOutcome::Accepted), Verdict::Mle);
        // Asleep within its memory: TLE.
        let asleep = Facts { peak_rss_kib: 2000, ..stuck };
        assert_eq!(verdict(&asleep, CheckOutcome::Accepted), Verdict::Tle);
    }

    #[test]
    fn the_checker_runs_only_after_a_clean_exit() {
        let mut called = false;
        let crashed = Facts { exit_code: Some(3), ..clean() };
        let j = judge(&crashed, &limits(), || {
            called = true;
            CheckOutcome::Accepted
        });
        assert_eq!((j.verdict, j.detail.as_str(), called), (Verdict::Re, "exit code 3", false));
    }

    #[test]
    fn a_sleeper_killed_by_the_watchdog_is_tle() {
        let sleeper =
            Facts { watchdog_killed: true, cpu_ms: 1.0, wall_ms: 2000.0, signal: Some(9), exit_code: None, ..clean() };
        let j = judge(&sleeper, &limits(), || CheckOutcome::Accepted);
        assert_eq!(j.verdict, Verdict::Tle);
        assert!(j.detail.contains("wall time"), "{}", j.detail);
    }

    #[test]
    fn a_run_starved_by_the_machine_is_ie_not_tle() {
        let starved = Facts {
            watchdog_killed: true,
            ended_by: Some("busy"),
            cpu_ms: 130.0,
            wall_ms: 2400.0,
            waited_ms: 2200.0,
            signal: Some(9),
            exit_code: None,
            ..clean()
        };
        let j = judge(&starved, &limits(), || CheckOutcome::Accepted);
        assert_eq!(j.verdict, Verdict::Ie, "{}", j.detail);
        assert!(j.detail.contains("too busy") && j.detail.contains("waited 2200 ms"), "{}", j.detail);
        // Past its CPU limit the program is to blame, however busy the machine.
        let spent = Facts { cpu_ms: 5000.0, ..starved };
        assert_eq!(judge(&spent, &limits(), || CheckOutcome::Accepted).verdict, Verdict::Tle);
    }

    #[test]
    fn verdict_names_round_trip() {
        for v in ALL_VERDICTS {
            assert_eq!(Verdict::parse(v.code()), Ok(v));
        }
        assert!(Verdict::parse("ACCEPTED").unwrap_err().contains("AC, WA"));
    }
}
