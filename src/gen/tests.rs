//! The generator's promises, each checked with the solver's exact counter: unique means one
//! solution, minimal means every given is needed, none means none, and every format reads
//! back to the same givens.

use super::*;
use crate::solver::{Reader, Solver};

fn options(shape: Shape, format: Format) -> GenOptions {
    GenOptions {
        shape,
        format,
        count: 3,
        clues: None,
        minimal: false,
        solutions: Solutions::Unique,
        seed: 11,
        blank: b'0',
    }
}

/// The file read back by the solver's reader: every puzzle, in order.
fn read_back(bytes: &[u8]) -> Vec<crate::solver::Puzzle> {
    let mut reader = Reader::new(bytes);
    let mut puzzles = Vec::new();
    while let Some(case) = reader.next_case() {
        puzzles.push(case.expect("the solver reads what the generator writes"));
    }
    puzzles
}

#[test]
fn the_same_seed_gives_the_same_bytes_and_another_seed_others() {
    let o = options(Shape::Classic, Format::Poj);
    let a = generate(&o).expect("generates");
    assert_eq!(a, generate(&o).expect("generates"));
    let b = generate(&GenOptions { seed: 12, ..o }).expect("generates");
    assert_ne!(a.bytes, b.bytes);
}

#[test]
fn every_shape_is_unique_and_minimal_and_reads_back_in_its_formats() {
    let mut solver = Solver::new();
    for (name, shape) in shapes::SHAPES {
        let count = if shape == Shape::Classic { 3 } else { 1 };
        for (format_name, format) in shapes::FORMATS.iter().filter(|(_, f)| f.fits(shape)) {
            let o = GenOptions { count, ..options(shape, *format) };
            let g = generate(&o).expect("generates");
            let read = read_back(&g.bytes);
            assert_eq!(read.len(), count, "{name} as {format_name}");
            for (puzzle, givens) in read.iter().zip(&g.puzzles) {
                assert_eq!(&puzzle.givens, givens, "{name} as {format_name} reads back");
                assert_eq!(solver.count(puzzle, 2), 1, "{name} as {format_name} is unique");
            }
        }
        // Minimal: taking away any one given lets a second solution in.
        let g = generate(&GenOptions { count: 1, ..options(shape, Format::Poj) }).expect("generates");
        let mut puzzle = read_back(&g.bytes).remove(0);
        for cell in 0..puzzle.givens.len() {
            let keep = puzzle.givens[cell];
            if keep != 0 {
                puzzle.givens[cell] = 0;
                assert_eq!(solver.count(&puzzle, 2), 2, "{name}: given {cell} is needed");
                puzzle.givens[cell] = keep;
            }
        }
    }
}

#[test]
fn clue_targets_are_met_or_reported() {
    let o = GenOptions { clues: Some(32), count: 5, ..options(Shape::Classic, Format::Lines) };
    let g = generate(&o).expect("generates");
    assert!(g.puzzles.iter().all(|p| givens(p) == 32));
    assert!(g.notes.is_empty());
    let mut solver = Solver::new();
    assert!(read_back(&g.bytes).iter().all(|p| solver.count(p, 2) == 1));

    let g = generate(&GenOptions { clues: Some(17), ..o }).expect("generates");
    assert!(g.puzzles.iter().all(|p| givens(p) > 17));
    assert!(g.notes[0].starts_with("asked for 17 givens: 5 of 5 puzzles have"), "{:?}", g.notes);
}

#[test]
fn several_solutions_and_no_solution_are_what_they_say() {
    let mut solver = Solver::new();
    let shapes = [(Shape::Classic, Format::Lines), (Shape::Samurai, Format::Poj), (Shape::Flower, Format::Canvas)];
    for (shape, format) in shapes {
        let o = GenOptions { count: 4, ..options(shape, format) };
        let none = generate(&GenOptions { solutions: Solutions::None, ..o.clone() }).expect("generates");
        for puzzle in read_back(&none.bytes) {
            assert_eq!(solver.count(&puzzle, 1), 0, "{shape:?} has no solution");
        }
        let any = generate(&GenOptions { solutions: Solutions::Any, clues: Some(20), ..o }).expect("generates");
        for puzzle in read_back(&any.bytes) {
            assert_eq!(givens(&puzzle.givens), 20);
            assert!(solver.count(&puzzle, 1) >= 1, "{shape:?} has a solution");
        }
    }
    // Both kinds of unsolvable puzzle come up: a visible clash and a quiet dead end.
    let o = GenOptions { count: 12, solutions: Solutions::None, ..options(Shape::Classic, Format::Lines) };
    let kinds: Vec<bool> =
        read_back(&generate(&o).expect("generates").bytes).iter().map(|p| p.first_conflict().is_some()).collect();
    assert!(kinds.contains(&true) && kinds.contains(&false), "{kinds:?}");
}

#[test]
fn blanks_formats_and_shapes_that_do_not_fit_are_refused_or_honoured() {
    let dots = generate(&GenOptions { blank: b'.', ..options(Shape::Classic, Format::LinesEnd) }).expect("generates");
    assert!(dots.bytes.ends_with(b"end\n") && dots.bytes.contains(&b'.') && !dots.bytes.contains(&b'0'));
    assert!(generate(&options(Shape::Samurai, Format::Lines)).unwrap_err().contains("poj or canvas"));
    assert!(generate(&options(Shape::Classic, Format::Canvas)).unwrap_err().contains("gattai"));
}
