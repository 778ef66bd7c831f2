//! 16x16 bench (issue 13): µs per puzzle on minimal 16x16 puzzles that `judge gen` makes and
//! proves unique, in process and whole process, against the usual accepted solution (dancing
//! links, tests/fixtures/dlx16.rs) in the same run; and the worst bundled 16x16 puzzle (every
//! solvable grid under cases/poj3076, cases/spoj-sudoku and cases/sixteen); and random
//! grids (20 to 180 givens placed wherever they break no rule, most without a solution), each
//! answer checked, to show that no grid stalls the search.
//!
//! Targets: median minimal puzzle under 200 µs in process, worst bundled under 5 ms, and at
//! least 10x the dancing links' speed. Figures are medians; compare as ratios within one run.
//! `cargo bench --bench sixteen` (`-- --quick`: fewer puzzles and runs).

#[path = "../tests/fixtures/dlx16.rs"]
#[allow(dead_code)]
mod dlx16;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use sudoku_judge::exec::{self, Program};
use sudoku_judge::gen::rng::Rng;
use sudoku_judge::gen::{self, Format, GenOptions, Shape, Solutions};
use sudoku_judge::limits::Limits;
use sudoku_judge::solver::{Puzzle, Reader, Solver};
use sudoku_judge::sudoku_check;
use sudoku_judge::verdict::CheckOutcome;

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len() as f64
}

fn worst(xs: &[f64]) -> f64 {
    xs.iter().copied().fold(0.0, f64::max)
}

fn puzzles(input: &[u8]) -> Vec<Puzzle> {
    let mut reader = Reader::new(input);
    std::iter::from_fn(|| reader.next_case()).map(|p| p.expect("16x16 files are well-formed")).collect()
}

/// µs to solve each puzzle: the median of `runs` solves of it.
fn each_us(all: &[Puzzle], runs: usize, solve: &mut dyn FnMut(&Puzzle)) -> Vec<f64> {
    all.iter()
        .map(|p| {
            median(
                (0..runs)
                    .map(|_| {
                        let start = Instant::now();
                        solve(p);
                        start.elapsed().as_secs_f64() * 1e6
                    })
                    .collect(),
            )
        })
        .collect()
}

thread_local! {
    /// The bench runs every program from its main thread, through this one runner (its
    /// launcher the judge executable, the sandbox at `auto`).
    static RUNNER: exec::Runner = exec::Runner::new(std::sync::Arc::new(exec::Setup::new(Path::new(env!("CARGO_BIN_EXE_judge")))));
}

/// Whole process: median CPU µs a puzzle, the output checked by the sudoku checker.
fn whole_process(program: &Program, file: &Path, n: usize, runs: usize) -> f64 {
    let limits =
        Limits { time: Duration::from_secs(600), memory_kib: 1 << 30, output_bytes: 1 << 30, ..Limits::default() };
    let input = std::fs::read(file).expect("the set was written");
    median(
        (0..runs)
            .map(|_| {
                let facts = RUNNER.with(|runner| exec::run(runner, program, file, &limits));
                assert_eq!(facts.exit_code, Some(0), "{} failed", program.program.to_string_lossy());
                let mut output = facts.stdout.reader().expect("the spooled output is readable");
                assert_eq!(sudoku_check::check(&input, &mut output, None), CheckOutcome::Accepted);
                facts.cpu_ms * 1000.0 / n as f64
            })
            .collect(),
    )
}

fn bundled(root: &Path) -> Vec<Puzzle> {
    let mut files = Vec::new();
    for suite in ["poj3076", "spoj-sudoku", "sixteen"] {
        for entry in std::fs::read_dir(root.join("cases").join(suite)).expect("16x16 cases").flatten() {
            let expected = std::fs::read_to_string(entry.path().join("expected.txt")).unwrap_or_default();
            if !expected.contains("no solution") {
                files.push(entry.path().join("input.txt"));
            }
        }
    }
    files.sort();
    files.iter().flat_map(|f| puzzles(&std::fs::read(f).expect("readable case"))).collect()
}

/// A 16x16 grid of `givens` random letters that break no rule, as POJ 3076 writes it.
fn random_grid(givens: usize, rng: &mut Rng) -> String {
    let mut grid = [0u8; 256];
    let clashes = |grid: &[u8; 256], cell: usize, v: u8| {
        let (r, c) = (cell / 16, cell % 16);
        (0..16).any(|k| {
            let (br, bc) = (r / 4 * 4 + k / 4, c / 4 * 4 + k % 4);
            grid[16 * r + k] == v || grid[16 * k + c] == v || grid[16 * br + bc] == v
        })
    };
    let (mut placed, mut tries) = (0, 0);
    while placed < givens && tries < givens * 50 {
        tries += 1;
        let (cell, v) = (rng.below(256), 1 + rng.below(16) as u8);
        if grid[cell] == 0 && !clashes(&grid, cell, v) {
            grid[cell] = v;
            placed += 1;
        }
    }
    let mut text = String::new();
    for row in grid.chunks(16) {
        text.extend(row.iter().map(|&v| if v == 0 { '-' } else { (b'A' + v - 1) as char }));
        text.push('\n');
    }
    text
}

/// Random grids timed one by one in process: (count, with a solution, median µs, worst µs).
fn random_grids(count: usize, solver: &mut Solver) -> (usize, usize, f64, f64) {
    let mut rng = Rng::new(2026);
    let (mut solvable, mut times) = (0, Vec::with_capacity(count));
    for _ in 0..count {
        let text = random_grid(20 + rng.below(161), &mut rng);
        let puzzle = puzzles(text.as_bytes()).remove(0);
        let start = Instant::now();
        let solution = solver.solve(&puzzle);
        times.push(start.elapsed().as_secs_f64() * 1e6);
        if let Some(values) = solution {
            solvable += 1;
            let mut answer = Vec::new();
            puzzle.write_answer(&values, &mut answer).expect("writes to memory");
            assert_eq!(sudoku_check::check(text.as_bytes(), &mut &answer[..], None), CheckOutcome::Accepted);
        }
    }
    (count, solvable, median(times.clone()), worst(&times))
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let (count, runs) = if quick { (20, 1) } else { (100, 5) };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));

    let options = GenOptions {
        shape: Shape::Sixteen,
        format: Format::Grids,
        count,
        clues: None,
        minimal: false,
        solutions: Solutions::Unique,
        seed: 2026,
        blank: b'-',
    };
    let made = gen::generate(&options).expect("generates");
    let set = puzzles(&made.bytes);
    let mut solver = Solver::new();
    for p in &set {
        assert_eq!(solver.count(p, 2), 1, "generated puzzles are unique");
        let ours = solver.solve(p).expect("solvable");
        let theirs = dlx16::solve(&p.givens).expect("dancing links solves it");
        assert_eq!(ours, theirs.to_vec(), "one solution, so both find the same");
    }
    let givens: Vec<f64> = set.iter().map(|p| p.givens.iter().filter(|&&v| v != 0).count() as f64).collect();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("sixteen");
    std::fs::create_dir_all(&dir).expect("scratch folder");
    let file = dir.join("minimal.txt");
    std::fs::write(&file, &made.bytes).expect("writes the set");

    let ours = each_us(&set, runs, &mut |p| {
        std::hint::black_box(solver.solve(std::hint::black_box(p)));
    });
    let theirs = each_us(&set, runs.min(3), &mut |p| {
        std::hint::black_box(dlx16::solve(std::hint::black_box(&p.givens)));
    });
    let ratios: Vec<f64> = theirs.iter().zip(&ours).map(|(t, o)| t / o).collect();
    let sudoku = Program { program: env!("CARGO_BIN_EXE_sudoku").into(), args: Vec::new(), env: Vec::new() };
    let dlx_bin = dir.join("dlx16");
    let built = std::process::Command::new("rustc")
        .args(["--edition", "2021", "-O", "-o"])
        .arg(&dlx_bin)
        .arg(root.join("tests/fixtures/dlx16.rs"))
        .status()
        .expect("rustc runs");
    assert!(built.success(), "dlx16.rs builds");
    let dlx = Program { program: dlx_bin.into(), args: Vec::new(), env: Vec::new() };
    let ours_whole = whole_process(&sudoku, &file, count, runs);
    let theirs_whole = whole_process(&dlx, &file, count, runs.min(3));

    println!(
        "{count} minimal unique 16x16 puzzles (judge gen, seed 2026; {:.0} givens on average), {runs} runs a figure\n",
        mean(&givens)
    );
    println!("| µs a puzzle | ours | dancing links | dancing links / ours | target |");
    println!("|---|---:|---:|---:|---|");
    let met = |ok: bool| if ok { "met" } else { "not met" };
    println!(
        "| in process, median puzzle | {:.1} | {:.1} | {:.0}x (median of per-puzzle ratios) | < 200 µs: {} |",
        median(ours.clone()),
        median(theirs.clone()),
        median(ratios.clone()),
        met(median(ours.clone()) < 200.0)
    );
    println!(
        "| in process, mean | {:.1} | {:.1} | {:.0}x | ≥ 10x: {} |",
        mean(&ours),
        mean(&theirs),
        mean(&theirs) / mean(&ours),
        met(mean(&theirs) / mean(&ours) >= 10.0)
    );
    println!("| in process, worst puzzle | {:.1} | {:.1} | - | - |", worst(&ours), worst(&theirs));
    println!("| whole process (CPU) | {ours_whole:.1} | {theirs_whole:.1} | {:.0}x | - |", theirs_whole / ours_whole);

    let bundled = bundled(root);
    let bundled_us = each_us(&bundled, runs, &mut |p| {
        std::hint::black_box(solver.solve(std::hint::black_box(p)));
    });
    println!(
        "| bundled 16x16 puzzles ({}), in process: median / worst | {:.1} / {:.1} | - | - | worst < 5000 µs: {} |",
        bundled.len(),
        median(bundled_us.clone()),
        worst(&bundled_us),
        met(worst(&bundled_us) < 5000.0)
    );
    let (n, solvable, median_us, worst_us) = random_grids(if quick { 200 } else { 1000 }, &mut solver);
    println!(
        "| random grids ({n}, 20-180 givens, {solvable} with a solution), in process: median / worst \
         | {median_us:.1} / {worst_us:.1} | - | - | none stalls: {} |",
        met(worst_us < 100_000.0)
    );
}
