//! sudoku-judge: a local judge for competitive programmers, built around Sudoku.
//!
//! # Design
//!
//! The pipeline mirrors hyperfine's: **discover cases -> execute -> judge (pure) ->
//! report (pure) -> the CLI prints**. The modules stand in stages, and a module imports only
//! from its own stage or the stages below it, never up (docs/judge.md, "Where each stage
//! lives", says how to check, and which imports still wait to be moved). From the ground up:
//!
//! **Ground**: helpers that know no stage.
//! - [`solver`]: the single-file solver `src/bin/sudoku.rs`, the very file users paste into
//!   online judges; the library reuses it (the Sudoku checker's reader and geometry, the
//!   generator's counting, the shrinker's reading, `@sudoku`), so its logic exists once.
//! - [`limits`]: time, memory and output limits and their written forms. [`languages`]: the
//!   languages a solver may be given in. [`interrupt`]: Ctrl-C, and the one temporary folder.
//! - [`regular`]: opening a case's files safely. [`spool`]: a run's stdout spooled to a file.
//!   [`streams`]: outputs read as streams in the checkers' views. [`diff`]: line diffs of
//!   bounded windows. [`tame`]: outside text made harmless for a terminal.
//! - [`proctree`] and [`buffers`]: a run's process tree, its descriptors and what its pipes
//!   and sockets hold. [`deps`]: the files a build read besides its source.
//! - [`gen`]: the deterministic puzzle generator; [`fixture`]: the `@fixture` test program;
//!   `testing`: what the unit tests of several stages share.
//!
//! **Cases**: what is judged.
//! - [`cases`]: walks folders, passes `case.toml` settings down, orders names naturally; a
//!   broken case is recorded on that case (IE), never fatal. The case model is
//!   [`cases::model`], with the words a case says for later stages: [`cases::checker`],
//!   [`cases::split`], [`cases::files`], [`cases::verdicts`] (the verdicts' names, which
//!   `expect` says). [`cases::layouts`] (oj, Polygon, AtCoder, cf-tool pairs) and
//!   [`cases::cph`] (cph's `.prob` files): the other layouts, built from the model.
//! - [`problems`]: the Sudoku problems of real judges behind `--problem`, whose suites
//!   [`bundled`] builds into `judge`.
//!
//! **Run**: one process under limits.
//! - [`exec`]: runs one process and returns [`exec::Facts`]: exit code or signal, CPU time
//!   and peak RSS of the whole tree, wall time, output, whether the watchdog or the output
//!   cap stopped it. A run is given an [`exec::Runner`]: a round's [`exec::Setup`] (its
//!   [`sandbox::Sandbox`], the user's [`languages::Languages`], the launcher), made once and
//!   never a global, and the thread's launcher. [`fileio`]: the same for a program that
//!   reads and writes named files.
//! - [`launcher`]: the small child subreaper that starts programs, no process outliving its
//!   case; [`sandbox`]: what it isolates them with (namespaces, cgroups, Landlock, seccomp).
//! - [`build`]: the compile step for sources, through [`exec`], cached; a failure is CE.
//!
//! **Judge**: pure verdicts from facts.
//! - [`verdict`]: the pure function from facts (and a checker, consulted only after a clean
//!   exit) to a verdict. A verdict is a value, never an `Err`.
//! - [`check`] and [`sudoku_check`]: the checkers (lines, exact, tokens, float, the Sudoku
//!   special judge, testlib-style programs). [`subcases`]: a failed multi-test file cut into
//!   its tests, so the report names the test that failed. [`interact`]: interactive cases,
//!   the solver and an interactor run at once, the judge relaying.
//! - [`engine`]: runs every case with repeats, jobs and fail-fast (each worker through a
//!   runner of its own); sees typed options only. [`engine::results`]: what judging a case
//!   gives; [`engine::interactive`]: an interactive case judged end to end.
//!
//! **Report**: [`report`]: table, failure details with diffs, the closing line, JSON: pure
//! functions returning text or bytes.
//!
//! **Commands** (the top): [`cli`]: clap definitions (one parser, `gen`, `stress`, `submit`
//! and `listen` its subcommands; [`cli::judging`] the flags every command that judges
//! shares) turned into a setup and engine options once; one judging round
//! ([`cli::round`]) for `judge`, each round of `judge --watch` and each problem of a contest
//! ([`cli::contest`]), and what `judge` alone judges ([`cli::here`]). Beside it: [`stress`]
//! (generate, run through [`engine::run_case`], shrink a failure and save it as a case),
//! [`listen`] (problems from the Competitive Companion extension written as case folders)
//! and [`submit`] (the solver file cut down to what one judge's input needs).
//!
//! # Exit codes of `judge`
//!
//! 0 every case passed; 1 some case failed; 2 usage or configuration error; 3 internal error.

pub mod buffers;
pub mod build;
pub mod bundled;
pub mod cases;
/// The other layouts' readers live with the case model; their old paths still name them.
pub use cases::{cph, layouts};
pub mod check;
pub mod cli;
pub mod deps;
pub mod diff;
pub mod engine;
pub mod exec;
pub mod fileio;
pub mod fixture;
pub mod gen;
pub mod interact;
pub mod interrupt;
pub mod languages;
pub mod launcher;
pub mod limits;
pub mod listen;
pub mod problems;
pub mod proctree;
pub mod regular;
pub mod report;
pub mod sandbox;
pub mod spool;
pub mod streams;
pub mod stress;
pub mod subcases;
pub mod submit;
pub mod sudoku_check;
pub mod tame;
#[cfg(test)]
mod testing;
pub mod verdict;

/// The single-file solver, the very file users submit. Judges run older Rust than the crate
/// needs (a public DMOJ instance runs rustc 1.68.2), so clippy holds this file to that floor.
#[path = "bin/sudoku.rs"]
#[clippy::msrv = "1.68"]
#[allow(dead_code)]
pub mod solver;

/// Runs a program built into `judge` (`@sudoku`, `@fixture`, `@interactor`); returns its exit status.
pub fn run_builtin(name: &str, args: &[String]) -> i32 {
    match name {
        "sudoku" => solver::run_main(args.iter().map(Into::into).collect()),
        "fixture" => fixture::main(args),
        "gen" => cli::gen::main(args),
        "interactor" => interact::sudoku::main(args),
        "launcher" => launcher::main(),
        _ => {
            eprintln!("judge: unknown built-in program '{name}'");
            2
        }
    }
}
