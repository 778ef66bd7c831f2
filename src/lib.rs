//! sudoku-judge: a local judge for competitive programmers, built around Sudoku.
//!
//! # Design
//!
//! The pipeline mirrors hyperfine's: **discover cases -> execute -> judge (pure) ->
//! report (pure) -> the CLI prints**. Each step is one module and knows nothing of the steps
//! after it:
//!
//! - [`cases`]: walks folders (a folder per case, or the pairs of oj, Polygon, AtCoder and
//!   cf-tool found by [`layouts`], and cph's `.prob` files read by [`cph`]), passes `case.toml` settings down, orders names naturally. A broken case is
//!   recorded on that case (IE), never fatal to the run.
//! - [`exec`]: runs one process under limits and returns [`exec::Facts`]: exit code or
//!   signal, CPU time and peak RSS of the whole process tree, wall time, output, and whether
//!   the watchdog or the output cap stopped it. It starts programs through [`launcher`], a
//!   small child subreaper, and watches their tree with [`proctree`]: no process outlives
//!   its case, and no figure carries the judge's own memory.
//! - [`verdict`]: the pure function from facts (and a checker, consulted only after a clean
//!   exit) to a verdict. A verdict is a value, never an `Err`.
//! - [`check`] and [`sudoku_check`]: the checkers (lines, exact, tokens, float, the Sudoku special
//!   judge, testlib-style external programs).
//! - [`interact`]: interactive cases: the solver and a testlib-style interactor run at once,
//!   each contained, the judge relaying (and keeping the tail of) what they say to each other.
//! - [`build`]: the compile step for solvers given as sources (`main.cpp`, `main.rs`...),
//!   through [`exec`] like any program, cached by content and command; a failure is CE.
//! - [`problems`]: the Sudoku problems of real judges (limits, checker, exact input format),
//!   behind `--problem`; the corpus test holds each suite to its judge's format.
//! - [`engine`]: runs every case with repeats, jobs and fail-fast; sees typed options only.
//! - [`report`]: table, failure details with diffs, the closing line, JSON: pure functions
//!   returning text or bytes.
//! - [`subcases`]: a failed multi-test file cut into its tests, each answer judged alone,
//!   so the report names the test that failed.
//! - [`cli`]: clap definitions (one parser, `gen`, `stress`, `submit` and `listen` its
//!   subcommands) turned into engine options once; one judging round ([`cli::round`]) for
//!   `judge`, each round of `judge --watch` and each problem of a contest ([`cli::contest`]),
//!   and what `judge` alone judges ([`cli::here`]).
//!
//! Three commands sit beside the same pipeline:
//!
//! - [`gen`]: a deterministic puzzle generator (`judge gen`, the built-in `@gen`) whose
//!   uniqueness claims are proved with the solver's own counter.
//! - [`listen`]: `judge listen`, which takes problems from the Competitive Companion browser
//!   extension over HTTP on 127.0.0.1 (on a port the extension sends to as installed) and
//!   writes each as a problem folder of cases.
//! - [`stress`]: generate, run (through [`engine::run_case`], so the same limits, containment
//!   and verdicts), and on a failure shrink the input and save it as a case folder. With a
//!   reference solution (`--ref`, also for plain judging) the engine judges against the
//!   reference's output instead of an expected file.
//!
//! The solver is `src/bin/sudoku.rs`, a single std-only file that users paste into online
//! judges. The library reuses that very file as [`solver`] (for the Sudoku checker's reader
//! and geometry, the generator's counting and the shrinker's reading, and for the `@sudoku`
//! built-in), so its logic exists once.
//!
//! # Exit codes of `judge`
//!
//! 0 every case passed; 1 some case failed; 2 usage or configuration error; 3 internal error.

pub mod buffers;
pub mod build;
pub mod bundled;
pub mod cases;
pub mod check;
pub mod cli;
pub mod cph;
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
pub mod layouts;
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
