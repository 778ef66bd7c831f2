//! Generator bench (issue 11): how long `judge gen` takes to make what users ask for, in
//! process: 1,000 unique (minimal) 9x9 puzzles in one file, and one unique minimal puzzle
//! of each other shape (16x16 and the canvases) over several seeds (median and worst).
//! Every puzzle made is checked unique again with the solver's counter, outside the timing.
//!
//! `cargo bench --bench gen` (`-- --quick` for fewer seeds).

use std::time::Instant;
use sudoku_judge::gen::{self, shapes::SHAPES, Format, GenOptions, Shape, Solutions};
use sudoku_judge::solver::{Reader, Solver};

fn options(shape: Shape, count: usize, seed: u64) -> GenOptions {
    let format = match shape {
        Shape::Classic => Format::Lines,
        Shape::Sixteen => Format::Grids,
        _ => Format::Canvas,
    };
    GenOptions { shape, format, count, clues: None, minimal: false, solutions: Solutions::Unique, seed, blank: b'0' }
}

/// Generates, times, and proves every puzzle unique; returns milliseconds.
fn timed(o: &GenOptions, solver: &mut Solver) -> f64 {
    let start = Instant::now();
    let made = gen::generate(o).expect("generates");
    let ms = start.elapsed().as_secs_f64() * 1e3;
    let mut reader = Reader::new(&made.bytes);
    let mut n = 0;
    while let Some(case) = reader.next_case() {
        assert_eq!(solver.count(&case.expect("reads"), 2), 1, "{:?} seed {} is unique", o.shape, o.seed);
        n += 1;
    }
    assert_eq!(n, o.count);
    ms
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let seeds: u64 = if quick { 3 } else { 11 };
    let mut solver = Solver::new();
    println!("| what | runs | median ms | worst ms |");
    println!("|---|---:|---:|---:|");
    let mut runs: Vec<f64> =
        (0..seeds.min(5)).map(|s| timed(&options(Shape::Classic, 1000, s + 1), &mut solver)).collect();
    report("1,000 unique 9x9 puzzles", &mut runs);
    for (name, shape) in SHAPES.iter().skip(1) {
        let mut runs: Vec<f64> = (0..seeds).map(|s| timed(&options(*shape, 1, s + 1), &mut solver)).collect();
        report(&format!("one minimal {name}"), &mut runs);
    }
}

fn report(what: &str, runs: &mut [f64]) {
    runs.sort_by(f64::total_cmp);
    println!("| {what} | {} | {:.0} | {:.0} |", runs.len(), runs[runs.len() / 2], runs[runs.len() - 1]);
}
