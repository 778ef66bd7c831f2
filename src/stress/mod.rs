//! `judge stress`: generate inputs until a solution fails on one, shrink that input while it
//! fails the same way, and save it as a case folder that `judge` replays.
//!
//! Nothing here runs a process itself: the generator goes through [`exec::run`] and each input
//! is judged by [`engine::run_case`] (with `--ref`, the engine runs the reference first and
//! judges against its output), so limits, containment and verdicts are the judge's own.
//! [`shrink`] owns the shrinking, [`save`] the case folder.

pub mod model;
pub mod report;
pub mod save;
pub mod shrink;

pub use model::{Ending, Failure, Progress, StressOptions, StressReport, TestRun};

use crate::cases::{Case, CaseConfig};
use crate::engine::{self, CaseResult};
use crate::exec;
use crate::gen::rng::test_seed;
use crate::limits::Limits;
use crate::verdict::{self, CheckOutcome, Verdict};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Limits for the generator: generous, since it is trusted, but never unbounded.
fn generator_limits() -> Limits {
    Limits { time: Duration::from_secs(10), memory_kib: 1 << 20, ..Limits::default() }
}

/// Runs the stress loop, calling `on_test` after each test.
pub fn run(options: &StressOptions, on_test: &(dyn Fn(&Progress) + Sync)) -> StressReport {
    let broken = |why: String| StressReport { tests: Vec::new(), ending: Ending::Broken(why) };
    let work = match tempfile::Builder::new().prefix("judge-stress").tempdir_in(crate::interrupt::temp_root()) {
        Ok(w) => w,
        Err(e) => return broken(format!("cannot make a work folder: {e}")),
    };
    let nothing = work.path().join("empty-stdin");
    if let Err(e) = std::fs::write(&nothing, b"") {
        return broken(format!("cannot write in the work folder: {e}"));
    }
    let started = Instant::now();
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let runs: Mutex<Vec<TestRun>> = Mutex::new(Vec::new());
    let failures: Mutex<Vec<(TestRun, Vec<u8>)>> = Mutex::new(Vec::new());
    let problem: Mutex<Option<(u64, String)>> = Mutex::new(None);
    let progress = Mutex::new(Progress::default());
    let worker = |runner: &exec::Runner| loop {
        let number = next.fetch_add(1, Ordering::SeqCst);
        let out_of_time = options.duration.is_some_and(|d| started.elapsed() >= d);
        if number >= options.tests || out_of_time || stop.load(Ordering::SeqCst) {
            return;
        }
        match one_test(runner, options, number, work.path(), &nothing) {
            Err(why) => {
                let mut p = problem.lock().unwrap_or_else(|p| p.into_inner());
                if p.as_ref().map_or(true, |(n, _)| number < *n) {
                    *p = Some((number, why));
                }
                stop.store(true, Ordering::SeqCst);
            }
            Ok((run, input)) => {
                let failed = !run.verdict.is_pass();
                {
                    let mut p = progress.lock().unwrap_or_else(|p| p.into_inner());
                    p.tests += 1;
                    p.failures += u64::from(failed);
                    p.slowest_ms = p.slowest_ms.max(run.cpu_ms);
                    if let Some(r) = run.reference_cpu_ms {
                        p.slowest_reference_ms = Some(p.slowest_reference_ms.unwrap_or(0.0).max(r));
                    }
                    on_test(&p);
                }
                if failed {
                    stop.store(true, Ordering::SeqCst);
                    failures.lock().unwrap_or_else(|p| p.into_inner()).push((run.clone(), input));
                }
                runs.lock().unwrap_or_else(|p| p.into_inner()).push(run);
            }
        }
    };
    std::thread::scope(|s| {
        for _ in 0..options.judge.jobs.max(1) {
            // Each worker owns its runner: its launcher, and everything it ran, ends with it.
            s.spawn(|| worker(&exec::Runner::new(options.judge.setup.clone())));
        }
    });
    let mut tests = runs.into_inner().unwrap_or_else(|p| p.into_inner());
    tests.sort_by_key(|t| t.number);
    let mut failures = failures.into_inner().unwrap_or_else(|p| p.into_inner());
    failures.sort_by_key(|(t, _)| t.number);
    let problem = problem.into_inner().unwrap_or_else(|p| p.into_inner());
    // Tests running alongside may fail after the first: the lowest number is the one
    // reported, so that a run is the same with any --jobs.
    let ending = match (failures.into_iter().next(), problem) {
        (Some((test, input)), p) if p.as_ref().map_or(true, |(n, _)| test.number < *n) => {
            let p = *progress.lock().unwrap_or_else(|p| p.into_inner());
            let runner = exec::Runner::new(options.judge.setup.clone());
            Ending::Failed(Box::new(shrink_and_save(&runner, options, test, input, work.path(), &|tries, bytes| {
                on_test(&Progress { shrinking: Some((tries, bytes)), ..p })
            })))
        }
        (_, Some((_, why))) => Ending::Broken(why),
        _ => Ending::Passed,
    };
    StressReport { tests, ending }
}

/// Generates test `number`'s input and judges the solver on it.
fn one_test(
    runner: &exec::Runner,
    options: &StressOptions,
    number: u64,
    work: &Path,
    nothing: &Path,
) -> Result<(TestRun, Vec<u8>), String> {
    let seed = test_seed(options.seed, number);
    let mut generator = options.generator.clone();
    generator.args.push(seed.to_string().into());
    let limits = generator_limits();
    let facts = exec::run(runner, &generator, nothing, &limits);
    let judged = verdict::judge(&facts, &limits, || CheckOutcome::NothingToCompare);
    let said = |stderr: &[u8]| {
        let text = head(stderr);
        if text.is_empty() {
            String::new()
        } else {
            format!("; its stderr:\n{text}")
        }
    };
    if judged.verdict != Verdict::Ok {
        return Err(format!(
            "the generator failed on test {number} (`{} {seed}`): {} {}{}",
            options.generator_text,
            judged.verdict,
            judged.detail,
            said(&facts.stderr)
        ));
    }
    let input = facts.stdout.read_all().map_err(|e| format!("cannot read the generator's output: {e}"))?;
    if input.iter().all(u8::is_ascii_whitespace) {
        return Err(format!(
            "the generator printed nothing on test {number} (`{} {seed}`){}",
            options.generator_text,
            said(&facts.stderr)
        ));
    }
    if let Err(why) = validate(runner, options, &input, work, &format!("valid-{number}")) {
        return Err(format!(
            "the validator refuses the input of test {number} (`{} {seed}`): {why}",
            options.generator_text
        ));
    }
    let result = judge_input(runner, options, &input, work, &format!("test-{number}"))?;
    if let Some(reference) = result.reference.filter(|r| r.verdict != Verdict::Ok) {
        return Err(format!(
            "the reference failed on test {number} (`{} {seed}`): {} {}",
            options.generator_text, reference.verdict, result.detail
        ));
    }
    let run = TestRun {
        number,
        seed,
        verdict: result.verdict,
        detail: result.detail,
        cpu_ms: result.cpu_ms.median,
        reference_cpu_ms: result.reference.map(|r| r.cpu_ms),
        input_bytes: input.len(),
        stderr: head(&result.facts.stderr),
    };
    Ok((run, input))
}

/// The first lines of a program's stderr, for a report: at most 2 KiB.
fn head(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(&stderr[..stderr.len().min(2048)]).trim_end().to_string();
    if stderr.len() > 2048 {
        format!("{text}\n[... {} more bytes]", stderr.len() - 2048)
    } else {
        text
    }
}

/// Whether the validator (if any) accepts `input`; the error is what it said.
fn validate(
    runner: &exec::Runner,
    options: &StressOptions,
    input: &[u8],
    work: &Path,
    name: &str,
) -> Result<(), String> {
    let Some(validator) = &options.validator else { return Ok(()) };
    let path = work.join(format!("{name}.txt"));
    std::fs::write(&path, input).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let limits = generator_limits();
    let facts = exec::run(runner, validator, &path, &limits);
    let _ = std::fs::remove_file(&path);
    let judged = verdict::judge(&facts, &limits, || CheckOutcome::NothingToCompare);
    match judged.verdict {
        Verdict::Ok => Ok(()),
        _ if facts.spawn_error.is_some() => Err(judged.detail),
        _ => Err(format!("{} {}; {}", judged.verdict, judged.detail, head(&facts.stderr))),
    }
}

/// Judges the solver (against the reference, when there is one) on `input`.
fn judge_input(
    runner: &exec::Runner,
    options: &StressOptions,
    input: &[u8],
    work: &Path,
    name: &str,
) -> Result<CaseResult, String> {
    let path = work.join(format!("{name}.txt"));
    std::fs::write(&path, input).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let case = Case {
        name: name.into(),
        input: Some(path.clone()),
        expected: None,
        config: CaseConfig::default(),
        problem: None,
    };
    let result = engine::run_case(runner, &case, &options.judge);
    let _ = std::fs::remove_file(&path);
    Ok(result)
}

/// Wall time shrinking may take: a TLE failure costs a time limit per try, and a thousand
/// tries of a 2 s limit would hold the user for half an hour.
const SHRINK_TIME: Duration = Duration::from_secs(120);

fn shrink_and_save(
    runner: &exec::Runner,
    options: &StressOptions,
    test: TestRun,
    input: Vec<u8>,
    work: &Path,
    on_step: &dyn Fn(usize, usize),
) -> Failure {
    let started = Instant::now();
    let same_failure = |candidate: &[u8]| {
        judge_input(runner, options, candidate, work, "shrink").is_ok_and(|r| {
            r.verdict == test.verdict && r.reference.map_or(true, |reference| reference.verdict == Verdict::Ok)
        })
    };
    // A failure that does not come back on the same input cannot be shrunk: every smaller
    // input would pass or fail by chance.
    let not_shrunk = (options.shrink_tries > 0 && !same_failure(&input)).then(|| {
        format!(
            "the {} did not come back on a second run of the same input: the solver or the reference does not \
             answer the same way twice (a clock, a random seed, uninitialised memory?)",
            test.verdict
        )
    });
    let (mut tries, mut smallest) = (0usize, input.len());
    let mut fails = |candidate: &[u8]| {
        tries += 1;
        // Past the time, every candidate is turned down: shrinking ends with what it has.
        let failed = started.elapsed() < SHRINK_TIME
            && validate(runner, options, candidate, work, "shrink-valid").is_ok()
            && same_failure(candidate);
        if failed {
            smallest = smallest.min(candidate.len());
        }
        on_step(tries, smallest);
        failed
    };
    let budget = if not_shrunk.is_some() { 0 } else { options.shrink_tries };
    let shrunk = shrink::shrink(&input, budget, &mut fails);
    let (saved, save_error) = match options.save.as_ref().map(|dir| save::save(runner, dir, options, &test, &shrunk)) {
        Some(Ok(path)) => (Some(path), None),
        Some(Err(e)) => (None, Some(e)),
        None => (None, None),
    };
    Failure { test, input, shrunk, saved, save_error, not_shrunk }
}
