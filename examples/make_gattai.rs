//! Makes gattai puzzles with exactly one solution, for `cases/`.
//!
//! `cargo run --release --example make_gattai -- LAYOUT SEED > input.txt`, where LAYOUT is
//! samurai, twodoku, butterfly, flower or sohei. It fills the empty canvas from a few random
//! givens, then removes givens in random order as long as the count of solutions (capped at
//! 2) stays 1. Uniqueness is proven by counting; the expected output is checked separately by
//! the `sudoku` checker in the test suite.

use sudoku_judge::solver::{Reader, Solver};

/// Top-left corners of the 9x9 grids of each layout.
fn layout(name: &str) -> Option<&'static [(usize, usize)]> {
    Some(match name {
        "samurai" => &[(0, 0), (0, 12), (12, 0), (12, 12), (6, 6)],
        "twodoku" => &[(0, 0), (6, 6)],
        "butterfly" => &[(0, 0), (0, 3), (3, 0), (3, 3)],
        "flower" => &[(0, 3), (3, 0), (3, 3), (3, 6), (6, 3)],
        "sohei" => &[(0, 6), (6, 0), (6, 12), (12, 6)],
        _ => return None,
    })
}

/// xorshift64*: enough randomness for shuffling, reproducible from a seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// Draws `values` (one byte per drawn cell, `0` blank) on the canvas.
fn draw(grids: &[(usize, usize)], values: &[u8]) -> String {
    let side = grids.iter().map(|&(r, c)| r.max(c) + 9).max().unwrap_or(9);
    let mut drawn = vec![vec![false; side]; side];
    for &(top, left) in grids {
        for k in 0..81 {
            drawn[top + k / 9][left + k % 9] = true;
        }
    }
    let mut text = String::new();
    let mut i = 0;
    for row in &drawn {
        let end = row.iter().rposition(|&d| d).map_or(0, |p| p + 1);
        for &d in &row[..end] {
            if d {
                text.push(char::from(b'0' + values[i]));
                i += 1;
            } else {
                text.push(' ');
            }
        }
        text.push('\n');
    }
    text
}

fn count(text: &str, solver: &mut Solver) -> u64 {
    let puzzle = Reader::new(text.as_bytes()).next_case().and_then(Result::ok);
    puzzle.map_or(0, |p| solver.count(&p, 2))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(grids), Some(seed)) =
        (args.first().and_then(|n| layout(n)), args.get(1).and_then(|s| s.parse::<u64>().ok()))
    else {
        eprintln!("usage: make_gattai samurai|twodoku|butterfly|flower|sohei SEED");
        std::process::exit(2);
    };
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut solver = Solver::new();
    let cells = draw(grids, &vec![0; 81 * grids.len()]).bytes().filter(u8::is_ascii_digit).count();
    // A full solution: a few random givens, solved; retry until they are consistent.
    let solution = loop {
        let mut values = vec![0u8; cells];
        for _ in 0..12 {
            values[rng.below(cells)] = 1 + rng.below(9) as u8;
        }
        let text = draw(grids, &values);
        let puzzle = Reader::new(text.as_bytes()).next_case().and_then(Result::ok);
        if let Some(solved) = puzzle.and_then(|p| if p.first_conflict().is_none() { solver.solve(&p) } else { None }) {
            break solved;
        }
    };
    let mut givens = solution.clone();
    let mut order: Vec<usize> = (0..cells).collect();
    rng.shuffle(&mut order);
    for i in order {
        let kept = givens[i];
        givens[i] = 0;
        if count(&draw(grids, &givens), &mut solver) != 1 {
            givens[i] = kept;
        }
    }
    let text = draw(grids, &givens);
    assert_eq!(count(&text, &mut solver), 1, "the puzzle must have one solution");
    print!("{text}");
}
