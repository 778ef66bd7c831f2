//! The `judge` command line: clap definitions turned, once, into typed engine options.

pub mod contest;
pub mod defaults;
pub mod gen;
pub mod here;
pub mod listen;
pub mod live;
pub mod round;
pub mod stress;
pub mod submit;
pub mod watch;

use crate::check::{Checker, CheckerKind};
use crate::engine::{self, cores, Options};
use crate::exec::{Program, Runner};
use crate::limits::{parse_memory, parse_size, parse_time};
use clap::Parser;
use std::path::PathBuf;

const AFTER_HELP: &str = "\
Commands (each with its own --help):
  judge [PATH]...  judge a program on folders of cases (this help)
  judge gen        generate Sudoku puzzles with a given property
  judge stress     run a solver on generated inputs until one fails, and shrink that input
  judge submit     write the bundled solver cut to one problem's judge, small enough to paste
  judge listen     receive problems from the Competitive Companion browser extension

Verdicts: AC accepted, WA wrong answer, PE presentation error, PC partial points, TLE time,
MLE memory, OLE output, RE runtime error (exit code or signal), CE compile error (the solver's
source did not build, or is over the judge's source limit), IE internal error (bad case or
checker), OK ran cleanly with nothing to compare, SK skipped.
Precedence: IE > CE > MLE > TLE > OLE > RE > PE/WA/PC > AC.

Exit status: 0 every case passed (AC or OK, or the verdict its case.toml expects); 1 some case
failed; 2 bad usage or configuration (unknown flag, bad limit, missing path or solver, no
cases, a language's compiler or runtime not installed, a bad [language.EXT] table); 3 internal
error (a report could not be written).

Built-in programs: @sudoku (the bundled solver, the default in this repository), @gen (the
puzzle generator), @fixture (a misbehaving solver for testing the harness) and @interactor (the
interactor of cases/interactive).";

/// The commands besides judging, each with its own flags (listed in the help's own words
/// after it, so hidden from clap's list).
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    #[command(hide = true)]
    Gen(gen::GenCli),
    #[command(hide = true)]
    Stress(Box<stress::StressCli>),
    #[command(hide = true)]
    Submit(submit::SubmitCli),
    #[command(hide = true)]
    Listen(listen::ListenCli),
}

/// Judges a program on folders of test cases, under a judge's time, memory and source limits.
#[derive(Debug, Parser)]
#[command(
    name = "judge",
    version,
    after_help = AFTER_HELP,
    args_conflicts_with_subcommands = true,
    disable_help_subcommand = true
)]
pub struct Cli {
    /// `judge gen`, `judge stress`, `judge submit` or `judge listen`.
    #[command(subcommand)]
    pub subcommand: Option<Command>,

    /// Case folders or files to judge [default: the first of cases/, test/ (oj download)
    /// and tests/ in the working folder].
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    /// A folder to judge, as oj's `-d DIR` (the same as giving it as a PATH; repeatable).
    #[arg(short = 'd', long = "directory", value_name = "DIR")]
    pub directories: Vec<PathBuf>,

    /// The solver command, split like a shell would (no shell is run) [default: in this
    /// repository @sudoku, the bundled solver; elsewhere ./a.out, else the one main.* or other
    /// source file in the working folder].
    #[arg(short, long, value_name = "CMD")]
    pub solver: Option<String>,

    /// A trusted solution: its output on each case replaces the expected output, and its
    /// CPU time is shown beside the solver's.
    #[arg(long = "ref", value_name = "CMD")]
    pub reference: Option<String>,

    /// Judge interactively: CMD (a testlib-style interactor, or a source built first) runs as
    /// `CMD input output [answer]`, its stdout the solver's stdin and the solver's stdout its
    /// stdin; its exit code is the verdict as a checker's is. Beats case.toml's `interactor`.
    #[arg(long, value_name = "CMD")]
    pub interactor: Option<String>,

    /// The solver command as separate words, after `--`; beats --solver.
    #[arg(last = true, value_name = "CMD")]
    pub command: Vec<String>,

    #[command(flatten)]
    pub judging: JudgingArgs,

    /// Write every case with its facts, and a summary, as JSON to FILE (`-`: to stdout, and
    /// the table to stderr).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,

    /// Cases run at once. Above 1, timings are noisier: cases compete for the CPU.
    #[arg(short, long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub jobs: u16,

    /// Allow --jobs above the number of cores (runs then wait for the CPU; the wall-clock
    /// limit is stretched by the same factor).
    #[arg(long)]
    pub oversubscribe: bool,

    /// Runs per case; min, median and max are reported and the verdict is the median run's.
    #[arg(short, long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1000))]
    pub repeat: u16,

    /// Only cases whose name contains TEXT.
    #[arg(short, long, value_name = "TEXT")]
    pub filter: Option<String>,

    /// Only cases tagged T in their case.toml (repeat for any of several).
    #[arg(long = "tag", value_name = "T")]
    pub tags: Vec<String>,

    /// Leave out cases tagged T (repeatable).
    #[arg(long = "skip-tag", value_name = "T")]
    pub skip_tags: Vec<String>,

    /// Judge as that problem's judge does: its suite (cases tagged NAME), its time and memory
    /// limits, its source limit and its checker, unless flags say otherwise. NAME: poj2676,
    /// poj3074, acwing166, luogu1784, samurai, poj3076, acwing169 or spoj-sudoku. Cases tagged
    /// `hard` need a fast solver (--skip-tag hard). The suite is the working folder's, else the
    /// copy built into judge. Without NAME: lists them.
    #[arg(long, value_name = "NAME", num_args = 0..=1, value_parser = crate::problems::find)]
    pub problem: Option<Option<crate::problems::Problem>>,

    /// Stop at the first failing case; the rest are SK.
    #[arg(long)]
    pub fail_fast: bool,

    /// Colour: auto (on a terminal, unless NO_COLOR is set), always or never.
    #[arg(long, value_name = "WHEN", default_value = "auto", value_parser = ["auto", "always", "never"])]
    pub color: String,

    /// Diffs of failing cases: side (expected | received), unified (- and + lines), or auto:
    /// side by side when the lines fit half the terminal's width.
    #[arg(long, value_name = "VIEW", default_value = "auto", value_parser = ["auto", "side", "unified"])]
    pub diff: String,

    /// Bytes of a failing case's stderr to show.
    #[arg(long, value_name = "BYTES", default_value_t = 4096)]
    pub stderr_limit: usize,

    /// Judge, then again on every save of the solver's source, a case file or a case.toml
    /// (the cases that changed first), until Ctrl-C; --json is rewritten each round.
    #[arg(long)]
    pub watch: bool,
}

/// The limits and checker flags, shared by judging and `judge stress`.
#[derive(Debug, clap::Args)]
pub struct JudgingArgs {
    /// CPU time limit per case, like 2s or 1500ms [default: 2000ms, or case.toml's].
    #[arg(short, long, value_name = "TIME", value_parser = parse_time)]
    pub time_limit: Option<std::time::Duration>,

    /// Wall-clock time after which a run that is not using the CPU (sleeping, blocked) is ended
    /// as TLE; time spent waiting for a busy CPU does not count [default: max(2 x TL, TL + 1s)].
    #[arg(long, value_name = "TIME", value_parser = parse_time)]
    pub wall_limit: Option<std::time::Duration>,

    /// Peak memory limit per case, like 64MiB or 65536KiB [default: 65536KiB, or case.toml's].
    #[arg(short, long, value_name = "SIZE", value_parser = parse_memory)]
    pub memory_limit: Option<u64>,

    /// Stdout beyond this size is OLE [default: 64MiB, or case.toml's].
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub output_limit: Option<u64>,

    /// Tasks (processes and threads) a sandboxed run may have alive at once; past it, fork and
    /// thread creation fail inside the run [default: 256, or case.toml's process_limit].
    #[arg(long, value_name = "N", value_parser = crate::limits::parse_processes)]
    pub process_limit: Option<u64>,

    /// Pass an environment variable to every sandboxed run: NAME (the judge's value) or
    /// NAME=VALUE. Runs get only PATH, HOME and TMPDIR (their scratch folder), LANG=C.UTF-8,
    /// ONLINE_JUDGE=1 and these.
    #[arg(long = "env", value_name = "NAME[=VALUE]", value_parser = crate::cases::model::parse_env)]
    pub env: Vec<(std::ffi::OsString, Option<std::ffi::OsString>)>,

    /// Built-in checker for every case: lines, exact, tokens, sudoku, float (numbers within 1e-6) or floatN
    /// (within 1e-N) [default: case.toml's, or lines].
    #[arg(short, long, value_name = "NAME", value_parser = CheckerKind::parse)]
    pub checker: Option<CheckerKind>,

    /// External testlib-style checker, run as `CMD input output answer`. Its exit code: 0 AC, 1 WA, 2 or 4 PE,
    /// 3 checker failure (IE), 7 partial (`points X` on stderr, X from 0 to 1 of the case's points),
    /// 16+k partial (testlib `_pc(k)`: k% of the points); its stderr is shown as feedback.
    #[arg(long, value_name = "CMD", conflicts_with = "checker")]
    pub checker_cmd: Option<String>,

    /// How to build a solver, reference or checker given as a source file, with {src} and
    /// {out} for the source and the program built, e.g. "g++-9 -O2 -std=c++14 -o {out} {src}"
    /// [default: by language, see docs/judge.md: .c .cpp .rs .py .java .kt .go .js].
    #[arg(long, value_name = "CMD", alias = "compile-cmd", value_parser = crate::languages::check_build)]
    pub compiler_cmd: Option<String>,

    /// How to run the solver given as a source file, with {out} the program --compiler-cmd
    /// built, {src} the source and {memory_mib} the memory limit, e.g. "ruby {src}" (any
    /// language: no build needed) [default: by language, see docs/judge.md].
    #[arg(long, value_name = "CMD", value_parser = crate::languages::check_run)]
    pub run_cmd: Option<String>,

    /// Build and run the solver's source as this language does: c, cpp, rust, python, pypy,
    /// java, kotlin, go or javascript [default: by its extension; .py is python].
    #[arg(long, value_name = "NAME", value_parser = crate::languages::Language::parse)]
    pub lang: Option<crate::languages::Language>,

    /// How runs are isolated: auto (every protection this kernel offers: files, network,
    /// signals, a scratch folder; the default), strict (all of them, or no run), or off (as
    /// the user, in this folder).
    #[arg(long, value_name = "LEVEL", default_value = "auto", value_parser = crate::sandbox::Level::parse)]
    pub sandbox: crate::sandbox::Level,

    /// A solver given as a source larger than this is CE, as on a judge with that limit
    /// (SPOJ: 50000B, Codeforces: 64KiB) [default: the problem's, or case.toml's].
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub source_limit: Option<u64>,

    /// A file-I/O problem: the file its solution reads (input.txt, castle.in), put in the run's
    /// working folder; stdin carries the input too [default: case.toml's input_file].
    #[arg(long, value_name = "NAME", value_parser = crate::fileio::parse_name)]
    pub input_file: Option<String>,

    /// A file-I/O problem: the file its solution writes its answer to (output.txt, castle.out),
    /// read instead of stdout [default: case.toml's output_file].
    #[arg(long, value_name = "NAME", value_parser = crate::fileio::parse_name)]
    pub output_file: Option<String>,
}

impl JudgingArgs {
    /// Records `--lang` and `--run-cmd` in `languages` for the extension of the solver's
    /// source (given as text or as words after `--`), over what `case.toml` said; an error
    /// when the solver is not a source file.
    pub fn languages(
        &self,
        languages: &mut crate::languages::Languages,
        solver_text: &str,
        words: &[String],
    ) -> Result<(), String> {
        if self.run_cmd.is_none() && self.lang.is_none() {
            return Ok(());
        }
        let first = match words.first() {
            Some(w) => Some(w.clone()),
            None => shlex::split(solver_text).and_then(|w| w.into_iter().next()),
        };
        let ext = first.as_deref().map(std::path::Path::new).and_then(|p| p.extension()).and_then(|e| e.to_str());
        let Some(ext) = ext else {
            return Err(format!(
                "--run-cmd and --lang say how to run a solver given as a source file (main.rb, main.py); '{}' is not one",
                first.unwrap_or_default()
            ));
        };
        let custom = crate::languages::Custom { preset: self.lang, build: None, run: self.run_cmd.clone() };
        languages.set(ext, custom);
        Ok(())
    }

    /// The checker asked for, if any; a source is built through `runner`.
    pub fn checker(&self, runner: &Runner) -> Result<Option<Checker>, String> {
        Ok(match (&self.checker, &self.checker_cmd) {
            (Some(kind), _) => Some(Checker::Builtin(*kind)),
            (None, Some(cmd)) => {
                Some(Checker::External(resolve(cmd, runner, "--checker-cmd", self.compiler_cmd.as_deref())?))
            }
            (None, None) => None,
        })
    }

    /// The sandbox at `--sandbox`'s level passing `--env`'s variables; an error naming what
    /// is missing when the level is `strict` and this kernel or user lacks some. Every
    /// command that judges (`judge`, `--watch`, each problem of a contest, `judge stress`,
    /// `judge submit`'s suite) makes its sandbox here, before anything is built or run.
    pub fn sandbox(&self) -> Result<crate::sandbox::Sandbox, String> {
        crate::sandbox::Sandbox::new(self.sandbox, self.env.clone()).map_err(|missing| missing.to_string())
    }

    /// `options` with these limits and this checker.
    pub fn apply(&self, options: Options, runner: &Runner) -> Result<Options, String> {
        Ok(Options {
            time_limit: self.time_limit,
            wall_limit: self.wall_limit,
            memory_kib: self.memory_limit.map(|b| b / 1024),
            output_bytes: self.output_limit,
            processes: self.process_limit,
            checker: self.checker(runner)?,
            compiler_cmd: self.compiler_cmd.clone(),
            source_limit: self.source_limit,
            files: crate::fileio::Files { input: self.input_file.clone(), output: self.output_file.clone() },
            ..options
        })
    }
}

/// A command from the command line, built first when it is a source file (with `compiler`
/// or the language's default), and checked to exist (a built-in always does); `flag` names
/// it in the error. A build that fails is an error here: only the solver's is a verdict.
pub(crate) fn resolve(text: &str, runner: &Runner, flag: &str, compiler: Option<&str>) -> Result<Program, String> {
    let builtin_exe = &runner.setup().launcher;
    let program = engine::parse_command(text, builtin_exe).map_err(|e| format!("{flag}: {e}"))?;
    let program = crate::build::prepare(runner, program, compiler).map_err(|e| match e.missing_tool {
        true => format!("{flag}: {e}"),
        false => format!("{flag}: CE: {e}"),
    })?;
    // A JVM checker or reference gets a heap of its own (a solver's follows each case's limit).
    let program = crate::build::for_memory(&program, TOOL_HEAP_KIB);
    checked(program).map_err(|e| format!("{flag}: {e}"))
}

/// The heap of a JVM reference, checker or interactor.
const TOOL_HEAP_KIB: u64 = 256 << 10;

/// The solver, from `--solver TEXT` or the words after `--` (which win), ready to run; or,
/// beside it, why its source did not build (its cases are then CE).
pub(crate) fn build_solver(
    text: &str,
    words: &[String],
    runner: &Runner,
    compiler: Option<&str>,
) -> Result<(Program, Option<String>), String> {
    let builtin_exe = &runner.setup().launcher;
    let program = if words.is_empty() {
        engine::parse_command(text, builtin_exe)
    } else {
        engine::from_words(words, builtin_exe)
    }
    .map_err(|e| format!("--solver: {e}"))?;
    match crate::build::prepare(runner, program.clone(), compiler) {
        Ok(built) => Ok((checked(built)?, None)),
        // Not the source's fault: the user must install something first.
        Err(e) if e.missing_tool => Err(e.to_string()),
        Err(e) => Ok((program, Some(e.to_string()))),
    }
}

/// The longest command (program, arguments and environment) a run can be given: it travels
/// to the launcher in one 64 KiB message.
const MAX_COMMAND_BYTES: usize = 60 << 10;

/// `program`, unless it is not built in and cannot be found, or is too long to start.
pub(crate) fn checked(program: Program) -> Result<Program, String> {
    let bytes = program.program.len()
        + program.args.iter().map(|a| a.len() + 1).sum::<usize>()
        + program.env.iter().map(|(k, v)| k.len() + v.len() + 2).sum::<usize>();
    if bytes > MAX_COMMAND_BYTES {
        return Err(format!(
            "the command is {bytes} bytes long; judge starts commands of at most {MAX_COMMAND_BYTES} bytes \
             (put long arguments in a file)"
        ));
    }
    if !program.args.first().is_some_and(|a| a == "--builtin") {
        check_program_exists(&program.program)?;
    }
    Ok(program)
}

impl Cli {
    /// The problem `--problem NAME` names (`None` also for `--problem` alone, which lists).
    pub fn problem(&self) -> Option<crate::problems::Problem> {
        self.problem.flatten()
    }

    /// Whether `--problem` was given without a name: list the problems.
    pub fn lists_problems(&self) -> bool {
        self.problem == Some(None)
    }

    /// The paths given, as PATH or `-d DIR`, in that order.
    pub fn given_paths(&self) -> Vec<PathBuf> {
        self.paths.iter().chain(&self.directories).cloned().collect()
    }

    /// The solver: the words after `--` (which win), `--solver`, or the program picked in the
    /// working folder.
    pub fn solver(&self) -> Result<defaults::Solver, String> {
        defaults::Solver::choose(&self.command, self.solver.as_deref(), std::path::Path::new("."))
    }

    /// The engine options for `solver`, whose programs are built through `runner` (its
    /// setup's launcher is the program behind `@sudoku` and `@fixture`, and becomes the
    /// options' setup). Without a solver, a stand-in: a run whose cases all name their own in
    /// case.toml needs none, and the judging round refuses the others before anything runs.
    pub fn options(&self, runner: &Runner, solver: Option<&defaults::Solver>) -> Result<Options, String> {
        let builtin_exe = runner.setup().launcher.clone();
        let stand_in = defaults::Solver { text: "@sudoku".into(), words: Vec::new(), why: None };
        let chosen = solver.unwrap_or(&stand_in);
        let text = chosen.text.clone();
        let source = solver_source(chosen, &builtin_exe, &runner.setup().languages);
        // A problem's judge builds with its own command, where it is known.
        let judge_build = self.problem().and_then(|p| {
            let language = crate::build::Language::of(&source.as_ref()?.0)?;
            match language {
                crate::build::Language::Rust => p.submission.rust_build,
                crate::build::Language::Cpp => p.submission.cpp_build,
                _ => None,
            }
        });
        let compiler = self.judging.compiler_cmd.as_deref().or(judge_build);
        let (solver, solver_error) = build_solver(&text, &chosen.words, runner, compiler)?;
        let reference = self.reference.as_deref().map(|r| resolve(r, runner, "--ref", compiler)).transpose()?;
        let interactor = self
            .interactor
            .as_deref()
            .map(|i| resolve(i, runner, "--interactor", self.judging.compiler_cmd.as_deref()))
            .transpose()?;
        let options = Options {
            jobs: if self.oversubscribe { usize::from(self.jobs) } else { usize::from(self.jobs).min(cores()) },
            repeat: usize::from(self.repeat),
            filter: self.filter.clone(),
            tags: self.tags.clone(),
            suite: self.problem().map(|p| p.name.to_string()),
            skip_tags: self.skip_tags.clone(),
            fail_fast: self.fail_fast,
            reference,
            interactor,
            setup: runner.shared(),
            ..Options::new(solver, builtin_exe.clone())
        };
        let options = self.judging.apply(options, runner)?;
        Ok(match self.problem() {
            // The problem's judge sets what the flags leave open; case.toml cannot loosen it.
            Some(p) => Options {
                solver_error,
                solver_source: source,
                source_limit: options.source_limit.or(p.submission.source_limit.map(|(bytes, _)| bytes)),
                time_limit: options.time_limit.or(Some(p.time_limit)),
                memory_kib: options.memory_kib.or(Some(p.memory_kib)),
                checker: options.checker.or(Some(Checker::Builtin(p.checker))),
                ..options
            },
            None => Options { solver_error, solver_source: source, ..options },
        })
    }

    /// What building the solver will look like, for a spinner: "a.cpp with g++"; `None`
    /// when the solver is not a source file.
    pub fn building(
        &self,
        builtin_exe: &std::path::Path,
        solver: &defaults::Solver,
        languages: &crate::languages::Languages,
    ) -> Option<String> {
        let (source, _) = solver_source(solver, builtin_exe, languages)?;
        let chain = crate::languages::toolchain(&source, self.judging.compiler_cmd.as_deref(), languages)?;
        let command = chain.build.unwrap_or(chain.run);
        let words = shlex::split(&command).unwrap_or_default();
        // `sh -c 'javac ...'`: the tool is the first word of the script.
        let compiler = match words.as_slice() {
            [sh, c, script, ..] if sh == "sh" && c == "-c" => {
                script.split_whitespace().next().unwrap_or("sh").to_string()
            }
            [first, ..] => first.clone(),
            [] => "the compiler".to_string(),
        };
        let name =
            source.file_name().map_or_else(|| source.display().to_string(), |n| n.to_string_lossy().into_owned());
        Some(format!("{} with {}", crate::tame::tame(&name).replace('\n', "\\n"), crate::tame::tame(&compiler)))
    }
}

/// The solver's source file and its size, when the solver is given as one.
fn solver_source(
    solver: &defaults::Solver,
    builtin_exe: &std::path::Path,
    languages: &crate::languages::Languages,
) -> Option<(PathBuf, u64)> {
    let program = if solver.words.is_empty() {
        engine::parse_command(&solver.text, builtin_exe)
    } else {
        engine::from_words(&solver.words, builtin_exe)
    };
    crate::build::source_of(&program.ok()?, languages)
}

/// Words of a judge command line that oj users type and that mean something else here (or
/// nothing): the error says what to write instead.
pub fn oj_habit(args: &[String]) -> Option<String> {
    let before_command = args.iter().take_while(|a| *a != "--");
    for (k, arg) in before_command.enumerate() {
        if arg == "-e" || arg.starts_with("--error") {
            let eps = args.get(k + 1).map_or("1e-6", String::as_str);
            return Some(format!(
                "oj's {arg} (float tolerance) is a checker here: --checker float (1e-6) or floatN (1e-N) for {eps}"
            ));
        }
        if arg == "--tle" || arg == "--mle" {
            let what = if arg == "--tle" { "--time-limit 2s" } else { "--memory-limit 256MiB" };
            return Some(format!("oj's {arg} is written {what} here (with a unit)"));
        }
    }
    None
}

/// The judge's own long flags found among the solver's words after `--` (`judge -- a.cpp
/// --filter x` gives `--filter` to the solver, which is rarely what was meant).
pub fn flags_after_command(command: &[String]) -> Vec<String> {
    use clap::CommandFactory;
    let ours: Vec<String> =
        Cli::command().get_arguments().filter_map(|a| a.get_long()).map(|l| format!("--{l}")).collect();
    command
        .iter()
        .skip(1)
        .filter(|w| {
            let flag = w.split('=').next().unwrap_or(w);
            ours.iter().any(|o| o == flag)
        })
        .cloned()
        .collect()
}

/// The folders looked in, in order, when no path is given: ours, `oj download`'s, and the
/// usual other name.
pub const DEFAULT_FOLDERS: [&str; 3] = ["cases", "test", "tests"];

/// The paths to judge: those given, or the first default folder that exists here, or the
/// working folder itself when it holds cases in a layout judge reads (`None` when none of
/// these is).
pub fn paths_or_default(given: &[PathBuf]) -> Option<Vec<PathBuf>> {
    if !given.is_empty() {
        return Some(given.to_vec());
    }
    let default = DEFAULT_FOLDERS.iter().map(PathBuf::from).find(|p| p.is_dir());
    default.or_else(|| Some(PathBuf::from(".")).filter(|here| crate::cases::holds_cases(here))).map(|p| vec![p])
}

/// A solver that cannot be found is a usage error (exit 2), not 100 IE verdicts.
pub(crate) fn check_program_exists(program: &std::ffi::OsStr) -> Result<(), String> {
    let path = std::path::Path::new(program);
    let found = if path.components().count() > 1 {
        path.is_file()
    } else {
        std::env::var_os("PATH")
            .map(|paths| std::env::split_paths(&paths).any(|dir| dir.join(path).is_file()))
            .unwrap_or(false)
    };
    use std::os::unix::fs::PermissionsExt;
    let runnable = |p: &std::path::Path| std::fs::metadata(p).is_ok_and(|m| m.permissions().mode() & 0o111 != 0);
    if found && path.components().count() > 1 && !runnable(path) {
        let shown = path.display();
        let mut head = [0u8; 4];
        let program_like = std::fs::File::open(path)
            .and_then(|mut f| std::io::Read::read(&mut f, &mut head))
            .is_ok_and(|n| head[..n].starts_with(b"#!") || head[..n] == *b"\x7fELF");
        return Err(match path.extension().and_then(|e| e.to_str()).filter(|_| !program_like) {
            Some(ext) => format!(
                "solver '{shown}' is not a program: .{ext} is not a language the judge knows (.c, .cpp, .rs, .py, \
                 .java, .kt, .go, .js): say how to run it, like --run-cmd 'ruby {{src}}' (with --compiler-cmd \
                 '... {{src}} ... {{out}}' and --run-cmd '{{out}}' when it is compiled), or in a [language.{ext}] \
                 table in case.toml"
            ),
            None => format!("solver '{shown}' is not executable: chmod +x {shown}"),
        });
    }
    if found {
        Ok(())
    } else {
        Err(format!("solver '{}' not found: give a path (./a.out) or a program on PATH, or @sudoku", path.display()))
    }
}
