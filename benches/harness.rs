//! The harness's own cost per case: the same solver on the same case, spawned bare (std's
//! `Command::output`, stdin from the file), through `exec::run` (launcher, watchdog over
//! the process tree, capped capture), and through `engine::run_case` (all of that plus reading the case
//! and the `sudoku` checker), `exec::run` both with the sandbox (the default) and without
//! (`--sandbox off`). Runs are interleaved so drift hits them all alike; medians.
//! `cargo bench --bench harness` (add `-- --quick` for fewer runs).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;
use sudoku_judge::cases::discover;
use sudoku_judge::engine::{self, Options};
use sudoku_judge::exec::{self, Program};
use sudoku_judge::limits::Limits;

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let runs = if quick { 30 } else { 300 };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let sudoku = Path::new(env!("CARGO_BIN_EXE_sudoku"));
    let judge = Path::new(env!("CARGO_BIN_EXE_judge"));
    let case = discover(&[root.join("cases/poj2676/sample")]).expect("the sample case").remove(0);
    let input = case.input.clone().expect("input.txt");
    let program = Program { program: sudoku.into(), args: Vec::new(), env: Vec::new() };
    let options = Options { keep_output: false, ..Options::new(program.clone(), judge.to_path_buf()) };
    // Two runners, the sandbox at `auto` (the default) and off, each with its own launcher.
    let sandboxed = exec::Runner::new(options.setup.clone());
    let setup = exec::Setup { sandbox: sudoku_judge::sandbox::Sandbox::off(), ..exec::Setup::new(judge) };
    let unsandboxed = exec::Runner::new(std::sync::Arc::new(setup));
    let (mut bare, mut run, mut full, mut open) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for _ in 0..runs {
        let start = Instant::now();
        let out = Command::new(sudoku)
            .stdin(std::fs::File::open(&input).expect("input"))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .output()
            .expect("spawn");
        assert!(out.status.success());
        bare.push(start.elapsed().as_secs_f64() * 1e6);

        let start = Instant::now();
        let facts = exec::run(&sandboxed, &program, &input, &Limits::default());
        assert_eq!(facts.exit_code, Some(0));
        run.push(start.elapsed().as_secs_f64() * 1e6);

        let start = Instant::now();
        let facts = exec::run(&unsandboxed, &program, &input, &Limits::default());
        assert_eq!(facts.exit_code, Some(0));
        open.push(start.elapsed().as_secs_f64() * 1e6);

        let start = Instant::now();
        let result = engine::run_case(&sandboxed, &case, &options);
        assert!(result.passed, "{:?}", result.detail);
        full.push(start.elapsed().as_secs_f64() * 1e6);
    }
    let (bare, run, full, open) = (median(bare), median(run), median(full), median(open));
    println!("{runs} interleaved runs of the bundled solver on cases/poj2676/sample; medians\n");
    println!("| path | µs per case | over a bare spawn |");
    println!("|---|---:|---:|");
    println!("| bare spawn (`Command::output`) | {bare:.0} | - |");
    println!("| `exec::run --sandbox off` (launcher, tree watchdog, capture) | {open:.0} | {:+.0} µs |", open - bare);
    println!(
        "| `exec::run` (+ the sandbox: memfd stdin, scratch folder, Landlock) | {run:.0} | {:+.0} µs |",
        run - bare
    );
    println!("| `engine::run_case` (+ reading the case, sudoku checker) | {full:.0} | {:+.0} µs |", full - bare);
    println!("\ntarget: at most 1000 µs of overhead a case: {}", if full - bare <= 1000.0 { "met" } else { "not met" });
}
