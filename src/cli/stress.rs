//! `judge stress`: its command line, turned into [`StressOptions`], and where its report goes.

use super::judging::{build_solver, resolve, JudgingArgs};
use crate::check::{Checker, CheckerKind};
use crate::engine::{cores, Options};
use crate::limits::parse_time;
use crate::stress::{self, Ending, StressOptions};
use clap::Parser;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

const AFTER_HELP: &str = "\
Each test runs GEN with a seed derived from --seed and the test number as its last argument,
then judges SOLVER on its output: against REF's output when --ref is given, with the checker
(default: sudoku for @gen, lines otherwise). Any verdict but AC or OK is a failure: the input is
then shrunk while the same verdict persists (fewer cases, a canvas's failing grid, fewer givens;
other inputs by lines, then tokens) and, with --save DIR, kept as the case folder
DIR/stress-<seed>/ that `judge DIR` replays.

The sudoku checker accepts `no solution` only where an expected output says so: for
--no-solution puzzles, give a trusted --ref (e.g. --ref @sudoku).

Exit status: 0 no test failed; 1 a test failed (and was shrunk, and saved with --save); 2 bad
usage, or the generator or the reference failed; 3 a report could not be written.";

/// Runs a solver on generated inputs until one fails, then shrinks that input.
#[derive(Debug, Parser)]
#[command(name = "judge stress", after_help = AFTER_HELP)]
#[command(mut_arg("checker", |a| a.help(
    "Built-in checker: lines, exact, tokens, sudoku, float (1e-6) or floatN (1e-N) [default: sudoku for @gen, \
     lines otherwise]"
)))]
pub struct StressCli {
    /// The generator command; `@gen ARGS` is the built-in one.
    #[arg(short, long = "gen", value_name = "GEN")]
    pub generator: String,

    /// A trusted solution whose output is the expected one.
    #[arg(long = "ref", value_name = "REF")]
    pub reference: Option<String>,

    /// The solver command, split like a shell would [default: as judge picks it: in this
    /// repository @sudoku, the bundled solver; elsewhere ./a.out, else the one main.* or other
    /// source file in the working folder].
    #[arg(short, long, value_name = "CMD")]
    pub solver: Option<String>,

    /// The solver command as separate words, after `--`; beats --solver.
    #[arg(last = true, value_name = "CMD")]
    pub command: Vec<String>,

    /// Tests to run at most [default: 1000, or no limit with --duration].
    #[arg(short = 'n', long, value_name = "N")]
    pub tests: Option<u64>,

    /// Stop after this much time, like 60s (tests running then finish).
    #[arg(long, value_name = "TIME", value_parser = parse_time)]
    pub duration: Option<std::time::Duration>,

    /// The seed every test's seed derives from.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,

    /// Save the shrunk failing input as DIR/stress-SEED/.
    #[arg(long, value_name = "DIR")]
    pub save: Option<PathBuf>,

    /// Solver runs the shrinker may spend (0: no shrinking).
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub shrink_tries: usize,

    #[command(flatten)]
    pub judging: JudgingArgs,

    /// Tests run at once (capped at the cores available).
    #[arg(short, long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub jobs: u16,

    /// A testlib-style validator, run with each input on its stdin (exit 0: valid): every
    /// generated input must pass it, and the shrinker only keeps inputs that do.
    #[arg(long, value_name = "CMD")]
    pub validator: Option<String>,

    /// Write every test run and the ending as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
}

impl StressCli {
    pub fn options(&self, exe: PathBuf) -> Result<StressOptions, String> {
        // Refused before anything is built, as `judge` refuses it.
        let sandbox = self.judging.sandbox()?;
        let chosen = super::defaults::Solver::choose(&self.command, self.solver.as_deref(), std::path::Path::new("."))?;
        let compiler = self.judging.compiler_cmd.as_deref();
        let mut languages = crate::languages::Languages::default();
        self.judging.languages(&mut languages, &chosen.text, &chosen.words)?;
        let setup = crate::exec::Setup { sandbox, languages, launcher: exe.clone() };
        // The programs are built on this thread, through a runner ended once they are.
        let runner = crate::exec::Runner::new(std::sync::Arc::new(setup));
        let (solver, solver_error) = build_solver(&chosen.text, &chosen.words, &runner, compiler)?;
        let generator = resolve(&self.generator, &runner, "--gen", compiler)?;
        let reference = self.reference.as_deref().map(|r| resolve(r, &runner, "--ref", compiler)).transpose()?;
        let validator = self.validator.as_deref().map(|v| resolve(v, &runner, "--validator", compiler)).transpose()?;
        let ours = self.generator.trim_start().starts_with("@gen");
        let options =
            Options { jobs: usize::from(self.jobs).min(cores()), reference, ..Options::new(solver, exe.clone()) };
        let options = Options { setup: runner.shared(), ..options };
        let mut judge = Options { solver_error, ..self.judging.apply(options, &runner)? };
        if judge.checker.is_none() {
            let kind = if ours { CheckerKind::Sudoku } else { CheckerKind::Lines };
            judge.checker = Some(Checker::Builtin(kind));
        }
        Ok(StressOptions {
            generator,
            generator_text: self.generator.clone(),
            solver_text: chosen.text,
            judge,
            tests: self.tests.unwrap_or(if self.duration.is_some() { u64::MAX } else { 1000 }),
            duration: self.duration,
            seed: self.seed,
            save: self.save.clone(),
            shrink_tries: self.shrink_tries,
            validator,
        })
    }
}

/// `judge stress`, its command line parsed; returns the exit status.
pub fn run(cli: StressCli, exe: PathBuf) -> i32 {
    let options = match cli.options(exe) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("judge stress: {e}");
            return 2;
        }
    };
    if let Some(e) = &options.judge.solver_error {
        eprintln!("judge stress: CE: {e}");
        return 1;
    }
    let live = std::io::stderr().is_terminal();
    let report = stress::run(&options, &|p| {
        if let Some((tries, bytes)) = p.shrinking {
            // Shrinking takes seconds to minutes: say how it goes, live or as plain lines.
            if live {
                eprint!("\r\x1b[2Kshrinking: {tries} runs, smallest failing input {bytes} bytes");
            } else if tries == 1 || tries % 100 == 0 {
                eprintln!("judge stress: shrinking: {tries} runs, smallest failing input {bytes} bytes");
            }
            return;
        }
        if live {
            let reference = p.slowest_reference_ms.map(|r| format!(", reference {r:.1} ms")).unwrap_or_default();
            eprint!(
                "\r\x1b[2Ktests {}, failures {}, slowest solver {:.1} ms{reference}",
                p.tests, p.failures, p.slowest_ms
            );
        }
    });
    if live {
        eprint!("\r\x1b[2K");
    }
    let text = stress::report::text(&report, &options);
    let mut out = std::io::stdout().lock();
    if out.write_all(text.as_bytes()).and_then(|_| out.flush()).is_err() {
        return 3;
    }
    if let Some(path) = &cli.json {
        if let Err(e) = std::fs::write(path, stress::report::json(&report)) {
            eprintln!("judge stress: cannot write {}: {e}", path.display());
            return 3;
        }
    }
    match report.ending {
        Ending::Passed => 0,
        Ending::Failed(_) => 1,
        Ending::Broken(_) => 2,
    }
}
