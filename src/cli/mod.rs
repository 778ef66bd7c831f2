//! The `judge` command line: clap definitions turned, once, into typed engine options.

pub mod contest;
pub mod defaults;
pub mod gen;
pub mod here;
pub mod judging;
pub mod listen;
pub mod live;
pub mod round;
pub mod stress;
pub mod submit;
pub mod watch;

use crate::check::Checker;
use crate::engine::{self, cores, Options};
use crate::exec::Runner;
use clap::Parser;
pub use judging::JudgingArgs;
use judging::{build_solver, resolve};
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
