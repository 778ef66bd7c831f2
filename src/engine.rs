//! The engine: run every case (repeats, jobs, fail-fast) and judge it. It sees typed options
//! only, never the command line, and prints nothing: results go back as values.

pub mod interactive;
pub mod results;

use crate::cases::Case;
use crate::check::{self, Checker, CheckerKind};
use crate::diff::DiffWindow;
use crate::exec::{self, Facts, Program};
use crate::limits::Limits;
use crate::spool::{self, Spool};
use crate::verdict::{self, CheckOutcome, Judgement, Verdict};

use results::{head_of, passes, spread};
pub use results::{input_head, CaseResult, InputHead, ReferenceRun, Spread, HEAD_LINES, HEAD_LINE_BYTES};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Everything the engine needs, already checked.
#[derive(Clone, Debug)]
pub struct Options {
    /// The solver for cases whose `case.toml` names none.
    pub solver: Program,
    /// The program that `@sudoku` and `@fixture` run (the `judge` executable).
    pub builtin_exe: PathBuf,
    /// What every run is given: the sandbox, the user's languages, the launcher. Each worker
    /// thread runs through a [`exec::Runner`] of its own over it.
    pub setup: Arc<exec::Setup>,
    /// Limits from the command line; they beat `case.toml`, which beats the defaults.
    pub time_limit: Option<Duration>,
    /// `--wall-limit`: when a run not using the CPU is ended, instead of the default.
    pub wall_limit: Option<Duration>,
    pub memory_kib: Option<u64>,
    pub output_bytes: Option<u64>,
    /// `--process-limit`: tasks a run may have at once.
    pub processes: Option<u64>,
    /// A checker from the command line beats the one in `case.toml`.
    pub checker: Option<Checker>,
    /// An interactor from the command line (`--interactor`): it beats `case.toml`'s, and makes
    /// every case interactive (see [`crate::interact`]).
    pub interactor: Option<Program>,
    pub jobs: usize,
    pub repeat: usize,
    pub filter: Option<String>,
    /// Only cases with any of these tags (all cases when empty)...
    pub tags: Vec<String>,
    /// ...and none of these...
    pub skip_tags: Vec<String>,
    /// ...and, with `--problem`, this one (the problem's suite).
    pub suite: Option<String>,
    pub fail_fast: bool,
    /// Keep each case's stdout in its result (for snapshots); off, only a diff is kept.
    pub keep_output: bool,
    /// A trusted solution whose output, on each case's input, replaces the expected output.
    pub reference: Option<Program>,
    /// The build command for solvers given as source files (`--compiler-cmd`); beats
    /// case.toml's `compiler_cmd` and the language's default.
    pub compiler_cmd: Option<String>,
    /// Why the solver could not be built, when it could not: its cases are CE.
    pub solver_error: Option<String>,
    /// The solver's source and its size, when it was given as one.
    pub solver_source: Option<(PathBuf, u64)>,
    /// The largest source the judge accepts (`--source-limit`, or the problem's): beats
    /// case.toml's `source_limit`.
    pub source_limit: Option<u64>,
    /// `--input-file` and `--output-file`: a file-I/O problem's files; each beats case.toml's.
    pub files: crate::fileio::Files,
}

impl Options {
    /// `base` (a case's limits) with the command line's limits put over it.
    pub fn limits(&self, base: Limits) -> Limits {
        Limits {
            time: self.time_limit.unwrap_or(base.time),
            memory_kib: self.memory_kib.unwrap_or(base.memory_kib),
            output_bytes: self.output_bytes.unwrap_or(base.output_bytes),
            processes: self.processes.unwrap_or(base.processes),
            wall: self.wall_limit.or(base.wall),
            ..base
        }
    }

    /// Options with the defaults of the command line: one job, one run, no filter, limits
    /// and checker from each case's `case.toml`, the sandbox at `auto`.
    pub fn new(solver: Program, builtin_exe: PathBuf) -> Options {
        Options {
            solver,
            setup: Arc::new(exec::Setup::new(&builtin_exe)),
            builtin_exe,
            time_limit: None,
            wall_limit: None,
            memory_kib: None,
            output_bytes: None,
            processes: None,
            checker: None,
            interactor: None,
            jobs: 1,
            repeat: 1,
            filter: None,
            tags: Vec::new(),
            skip_tags: Vec::new(),
            fail_fast: false,
            keep_output: false,
            reference: None,
            compiler_cmd: None,
            solver_error: None,
            solver_source: None,
            source_limit: None,
            suite: None,
            files: crate::fileio::Files::default(),
        }
    }
}

/// Lines shown before the first difference, lines in a window, and bytes kept of a line.
const DIFF_CONTEXT: u64 = 2;
const DIFF_LINES: usize = 40;
const DIFF_LINE_BYTES: usize = 400;

fn diff_window(output: &Spool, expected: &Path) -> Option<DiffWindow> {
    let first = check::first_different_line(output, expected)?;
    let from_line = first.saturating_sub(DIFF_CONTEXT).max(1);
    let window = |r: std::io::BufReader<std::fs::File>| spool::window(r, from_line, DIFF_LINES, DIFF_LINE_BYTES).ok();
    let (output_lines, output_cut) = window(output.reader().ok()?)?;
    let (expected_lines, expected_cut) = window(std::io::BufReader::new(crate::regular::open(expected).ok()?))?;
    Some(DiffWindow { from_line, output: output_lines, expected: expected_lines, cut: output_cut || expected_cut })
}

/// Turns a command line (`./a.out --fast`, `@sudoku`) into a program, split like a shell
/// would but without one. `@NAME` names a program built into `judge`.
pub fn parse_command(text: &str, builtin_exe: &std::path::Path) -> Result<Program, String> {
    let words = shlex::split(text).ok_or_else(|| format!("cannot split '{text}' into words: check its quotes"))?;
    from_words(&words, builtin_exe)
}

/// As [`parse_command`], for words already split.
pub fn from_words(words: &[String], builtin_exe: &std::path::Path) -> Result<Program, String> {
    let (first, rest) = words.split_first().ok_or("the solver command is empty")?;
    let mut args: Vec<std::ffi::OsString> = rest.iter().map(Into::into).collect();
    let program = match first.strip_prefix('@') {
        Some(name @ ("sudoku" | "fixture" | "gen" | "interactor")) => {
            args.splice(0..0, ["--builtin".into(), name.into()]);
            builtin_exe.as_os_str().to_owned()
        }
        Some(other) => {
            return Err(format!("unknown built-in program '@{other}': use @sudoku, @gen, @fixture or @interactor"))
        }
        None => first.into(),
    };
    Ok(Program { program, args, env: Vec::new() })
}

/// `program` with a relative path that has a folder in it (`./chk`, `bin/chk`) taken from
/// `folder`; a bare name (`python3`) is still looked up on PATH.
fn beside(mut program: Program, folder: &Path) -> Program {
    let path = Path::new(&program.program);
    if path.is_relative() && path.components().count() > 1 {
        program.program = folder.join(path).into_os_string();
    }
    program
}

/// The cases chosen by `options`, in order: the name contains the filter, the case is in the
/// suite (when one is asked for), some tag is among `tags` (when any are asked for), and no
/// tag is among `skip_tags`.
pub fn select<'a>(cases: &'a [Case], options: &Options) -> Vec<&'a Case> {
    let tagged = |c: &Case, wanted: &[String]| c.config.tags.iter().any(|t| wanted.contains(t));
    cases
        .iter()
        .filter(|c| options.filter.as_deref().map_or(true, |f| c.name.contains(f)))
        .filter(|c| options.suite.as_ref().map_or(true, |s| c.config.tags.contains(s)))
        .filter(|c| options.tags.is_empty() || tagged(c, &options.tags))
        .filter(|c| !tagged(c, &options.skip_tags))
        .collect()
}

/// Whether `case` is tagged interactive (the listener's tag) with no interactor to judge it.
fn lacks_interactor(case: &Case, options: &Options) -> bool {
    case.config.tags.iter().any(|t| t == "interactive")
        && options.interactor.is_none()
        && case.config.interactor.is_none()
}

/// Why the selected cases cannot be judged at all (a usage error, exit 2): an interactive case
/// with no interactor (its samples are a transcript, not an input), or no samples anywhere.
pub fn refusal(cases: &[Case], options: &Options) -> Option<String> {
    let chosen = select(cases, options);
    if let Some(case) = chosen.iter().find(|c| lacks_interactor(c, options)) {
        return Some(format!(
            "{} is interactive (tagged `interactive`): its samples show an exchange, not an input; judge it with \
             --interactor CMD (a testlib-style interactor), or interactor = \"CMD\" in its case.toml",
            case.name
        ));
    }
    if !chosen.is_empty() && chosen.iter().all(|c| crate::cases::no_samples(c)) {
        let names: Vec<&str> = chosen.iter().map(|c| c.name.as_str()).collect();
        return Some(format!(
            "no samples to judge: {} holds a case.toml but no input (add NAME.in with NAME.out, or input.txt with \
             expected.txt)",
            names.join(", ")
        ));
    }
    None
}

/// The cores this process may run on: runs beyond them wait for the CPU, so each case's
/// wall-clock limit stretches by how many runs share a core.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// Runs and judges one case, its programs through `runner`.
pub fn run_case(runner: &exec::Runner, case: &Case, options: &Options) -> CaseResult {
    let cores = cores();
    let limits = Limits {
        wall_factor: ((options.jobs + cores - 1) / cores).max(1) as u32,
        ..options.limits(case.config.limits(Limits::default()))
    };
    let ie = |why: String| CaseResult::without_run(case, limits, Verdict::Ie, why);
    if crate::cases::no_samples(case) {
        return CaseResult::without_run(case, limits, Verdict::Sk, case.problem.clone().unwrap_or_default());
    }
    if let Some(problem) = &case.problem {
        return ie(problem.clone());
    }
    if lacks_interactor(case, options) {
        return ie(refusal(std::slice::from_ref(case), options).unwrap_or_default());
    }
    let Some(input) = &case.input else {
        return ie("the case has no input".into());
    };
    // A relative path in case.toml (`./chk`) names a file beside the case, wherever the judge
    // runs from.
    let folder = input.parent().unwrap_or(Path::new("."));
    let source_limit = options.source_limit.or(case.config.source_bytes);
    let solver = match &case.config.solver {
        Some(text) => match parse_command(text, &options.builtin_exe) {
            Ok(p) => {
                let p = beside(p, case.config.solver_dir.as_deref().unwrap_or(folder));
                if let Some(why) =
                    crate::build::over_limit(&crate::build::source_of(&p, &runner.setup().languages), source_limit)
                {
                    return CaseResult::without_run(case, limits, Verdict::Ce, why);
                }
                let compiler = options.compiler_cmd.as_deref().or(case.config.compiler_cmd.as_deref());
                match crate::build::prepare(runner, p, compiler) {
                    Ok(p) => p,
                    Err(e) => return CaseResult::without_run(case, limits, Verdict::Ce, e.to_string()),
                }
            }
            Err(e) => return ie(format!("case.toml: solver: {e}")),
        },
        None => match &options.solver_error {
            _ if crate::build::over_limit(&options.solver_source, source_limit).is_some() => {
                let why = crate::build::over_limit(&options.solver_source, source_limit).unwrap_or_default();
                return CaseResult::without_run(case, limits, Verdict::Ce, why);
            }
            Some(why) => {
                let first = why.lines().next().unwrap_or_default();
                // Every case of the solver is CE for the same reason: each row says so in a few
                // words, and the report gives the message once (its first line, below the rows;
                // all of it on stderr).
                let detail = format!("the solver did not build (the compiler's message is on stderr)\n{first}");
                return CaseResult::without_run(case, limits, Verdict::Ce, detail);
            }
            None => options.solver.clone(),
        },
    };
    // A JVM's heap follows this case's memory limit, as judges set it.
    let solver = crate::build::for_memory(&solver, limits.memory_kib);
    // case.toml's `env`, after the solver's own (the last value of a name wins).
    let solver = Program { env: solver.env.iter().chain(&case.config.env).cloned().collect(), ..solver };
    // A program given as a source is built like the solver; one that does not build is IE.
    let tool = |field: &str, cmd: &str, dir: Option<&Path>| {
        let p = parse_command(cmd, &options.builtin_exe).map_err(|e| format!("case.toml: {field}: {e}"))?;
        let compiler = options.compiler_cmd.as_deref().or(case.config.compiler_cmd.as_deref());
        crate::build::prepare(runner, beside(p, dir.unwrap_or(folder)), compiler)
            .map(|p| crate::build::for_memory(&p, 256 << 10))
            .map_err(|e| format!("case.toml: {field}: {e}"))
    };
    let interactor = match (&options.interactor, &case.config.interactor) {
        (Some(p), _) => Some(p.clone()),
        (None, Some(cmd)) => match tool("interactor", cmd, case.config.interactor_dir.as_deref()) {
            Ok(p) => Some(p),
            Err(e) => return ie(e),
        },
        (None, None) => None,
    };
    if let Some(interactor) = interactor {
        if options.reference.is_some() {
            return ie("an interactive case is judged by its interactor: --ref has nothing to stand in for".into());
        }
        return interactive::judge_case(runner, case, options.repeat, &solver, &interactor, input, limits);
    }
    let checker = match (&options.checker, &case.config.checker_cmd, case.config.checker) {
        (Some(c), _, _) => c.clone(),
        (None, Some(cmd), _) => match tool("checker_cmd", cmd, case.config.checker_dir.as_deref()) {
            Ok(p) => Checker::External(p),
            Err(e) => return ie(e),
        },
        (None, None, kind) => Checker::Builtin(kind.unwrap_or(CheckerKind::Lines)),
    };
    // The reference runs first: when it fails, the solver is not worth running.
    // A file-I/O problem's files (the command line's over case.toml's), for the reference too.
    let files = options.files.over(&case.config.files);
    let reference = options.reference.as_ref().map(|program| {
        let (facts, missing) = crate::fileio::run(runner, program, input, &limits, &files);
        let facts = match missing {
            Some(m) => Facts { spawn_error: Some(m.why()), ..facts },
            None => facts,
        };
        let judged = verdict::judge(&facts, &limits, || CheckOutcome::NothingToCompare);
        (ReferenceRun { verdict: judged.verdict, cpu_ms: facts.cpu_ms }, judged.detail, facts.stdout)
    });
    if let Some((run, detail, _)) = &reference {
        if run.verdict != Verdict::Ok {
            let why = format!("the reference solution failed: {} {detail}", run.verdict);
            return CaseResult { reference: Some(*run), ..ie(why) };
        }
    }
    let expected: Option<&Path> = match &reference {
        Some((_, _, stdout)) => stdout.path(),
        None => case.expected.as_deref(),
    };
    let mut runs: Vec<(Facts, Option<crate::fileio::Missing>)> =
        (0..options.repeat.max(1)).map(|_| crate::fileio::run(runner, &solver, input, &limits, &files)).collect();
    let cpu_ms = spread(runs.iter().map(|(f, _)| f.cpu_ms).collect());
    let wall_ms = spread(runs.iter().map(|(f, _)| f.wall_ms).collect());
    runs.sort_by(|a, b| a.0.cpu_ms.total_cmp(&b.0.cpu_ms));
    let (facts, missing) = runs.swap_remove(runs.len() / 2);
    let mut outcome = None;
    let Judgement { mut verdict, mut detail, mut share } = verdict::judge(&facts, &limits, || {
        // No output file: nothing to compare, whatever the answer (an empty one included).
        let o = match &missing {
            Some(m) => CheckOutcome::Wrong(m.why()),
            None => check::check(runner, &checker, input, expected, &facts.stdout),
        };
        outcome = Some(o.clone());
        o
    });
    let wants_diff = matches!(outcome, Some(CheckOutcome::Wrong(_) | CheckOutcome::Presentation(_)))
        && missing.is_none()
        && !matches!(checker, Checker::Builtin(CheckerKind::Sudoku) | Checker::External(_));
    let mut diff = match (expected, wants_diff) {
        (Some(path), true) => diff_window(&facts.stdout, path),
        _ => None,
    };
    let mut head = if passes(case, verdict) { None } else { input_head(input) };
    // A wrong multi-test file: the test inside it that failed, its input and its diff alone.
    let subcases = match (&checker, expected, wants_diff) {
        (Checker::Builtin(kind), Some(path), true) => {
            let split = case.config.subcases.clone().unwrap_or_default();
            let problem = crate::subcases::Problem {
                declared: case.config.tags.iter().any(|t| t == "multitest"),
                others: crate::subcases::other_inputs(input),
            };
            match crate::subcases::judge_files(*kind, &split, &problem, input, &facts.stdout, path) {
                Ok(found) => {
                    detail = format!("{}: {}", found.headline(), found.detail);
                    let right = found.total - found.failed.len();
                    if split.per_test_points() && right > 0 && !found.later_unknown {
                        verdict = Verdict::Pc;
                        share = right as f64 / found.total as f64;
                        detail = format!("{right} of {} tests right; {detail}", found.total);
                    }
                    diff = found.diff.clone().or(diff);
                    if let Some(bytes) = &found.input {
                        head = Some(head_of(bytes));
                    }
                    Some(found)
                }
                Err(not_cut) => {
                    // A file that looks multi-test keeps its one verdict and says why no test
                    // is named; a single-test file, nothing.
                    if not_cut.looks_multi {
                        let (short, why) = not_cut.note();
                        detail = format!("{detail} ({short})");
                        // The row shows the first line; the details, why and what to do.
                        if !why.is_empty() {
                            detail = format!("{detail}\n{why}");
                        }
                    }
                    None
                }
            }
        }
        _ => None,
    };
    let tl = limits.time.as_secs_f64() * 1000.0;
    let warning = (verdict.is_pass() && facts.cpu_ms >= 0.9 * tl)
        .then(|| format!("{:.0} ms is within 10% of the {tl:.0} ms time limit", facts.cpu_ms));
    CaseResult {
        facts: if options.keep_output { facts } else { Facts { stdout: Spool::default(), ..facts } },
        runs: options.repeat.max(1),
        cpu_ms,
        wall_ms,
        warning,
        diff,
        reference: reference.map(|(run, _, _)| run),
        points: share * case.config.points.unwrap_or(1.0),
        input_head: head,
        subcases,
        ..CaseResult::without_run(case, limits, verdict, detail)
    }
}

/// What `run_all` tells its caller as it goes; the number is the case's place among the
/// selected cases (see `select`).
#[derive(Clone, Copy, Debug)]
pub enum Event<'a> {
    Started(usize, &'a Case),
    Done(usize, &'a CaseResult),
}

/// Runs every case that passes the filter, `options.jobs` at a time, telling `on_event` as
/// each one starts and ends. Results come back in the order of `cases`.
pub fn run_all(cases: &[Case], options: &Options, on_event: &(dyn Fn(Event) + Sync)) -> Vec<CaseResult> {
    // No run reads a case's files but through its stdin, its checker's arguments.
    let sandbox = options.setup.sandbox.clone().hiding(cases.iter().flat_map(Case::data_files));
    let setup = Arc::new(exec::Setup { sandbox, ..(*options.setup).clone() });
    let chosen = select(cases, options);
    let results: Mutex<Vec<Option<CaseResult>>> = Mutex::new(vec![None; chosen.len()]);
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let worker = |runner: &exec::Runner| loop {
        let i = next.fetch_add(1, Ordering::SeqCst);
        let Some(case) = chosen.get(i) else { return };
        let result = if stop.load(Ordering::SeqCst) {
            let limits = case.config.limits(Limits::default());
            CaseResult::without_run(case, limits, Verdict::Sk, "skipped after a failure (--fail-fast)".into())
        } else {
            on_event(Event::Started(i, case));
            run_case(runner, case, options)
        };
        if options.fail_fast && !result.passed && result.verdict != Verdict::Sk {
            stop.store(true, Ordering::SeqCst);
        }
        on_event(Event::Done(i, &result));
        results.lock().unwrap_or_else(|p| p.into_inner())[i] = Some(result);
    };
    std::thread::scope(|s| {
        for _ in 0..options.jobs.clamp(1, chosen.len().max(1)) {
            // Each worker owns its runner: its launcher, and everything it ran, ends with it.
            s.spawn(|| worker(&exec::Runner::new(Arc::clone(&setup))));
        }
    });
    results.into_inner().unwrap_or_else(|p| p.into_inner()).into_iter().flatten().collect()
}

/// Counts for the closing line: (passed, failed, skipped).
pub fn tally(results: &[CaseResult]) -> (usize, usize, usize) {
    let skipped = results.iter().filter(|r| r.verdict == Verdict::Sk && !r.passed).count();
    let passed = results.iter().filter(|r| r.passed).count();
    (passed, results.len() - passed - skipped, skipped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_input_head_is_bounded_in_lines_and_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("input.txt");
        let long = "9".repeat(1000);
        let text: String =
            std::iter::once(long.clone()).chain((1..30).map(|i| i.to_string())).collect::<Vec<_>>().join("\n");
        std::fs::write(&path, text).unwrap();
        let head = input_head(&path).unwrap();
        assert_eq!(head.lines.len(), HEAD_LINES);
        assert_eq!(head.lines[0], format!("{}…", &long[..HEAD_LINE_BYTES]).into_bytes());
        assert_eq!(head.lines[1], b"1");
        assert!(head.more);
        std::fs::write(&path, "1\n2\n").unwrap();
        assert_eq!(input_head(&path), Some(InputHead { lines: vec![b"1".to_vec(), b"2".to_vec()], more: false }));
    }
}
