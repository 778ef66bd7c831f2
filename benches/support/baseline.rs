//! The typical judge solution the product is measured against: DFS on the empty cell with
//! the fewest candidates (MRV), candidates from row/column/box masks, a popcount table and
//! a log2 table, and nothing else (no propagation).

// The popcount and log2 tables are the solver file's own: one definition in the crate.
use sudoku_judge::solver::{LOG2, ONES};

struct Grid {
    cells: [u8; 81],
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
}

fn box_of(i: usize) -> usize {
    i / 27 * 3 + i % 9 / 3
}

impl Grid {
    fn flip(&mut self, i: usize, bit: u16) {
        self.rows[i / 9] ^= bit;
        self.cols[i % 9] ^= bit;
        self.boxes[box_of(i)] ^= bit;
    }

    fn dfs(&mut self) -> bool {
        let (mut best, mut best_count, mut best_options) = (usize::MAX, 10, 0u16);
        for i in 0..81 {
            if self.cells[i] != 0 {
                continue;
            }
            let options = !(self.rows[i / 9] | self.cols[i % 9] | self.boxes[box_of(i)]) & 0x1FF;
            let n = ONES[options as usize];
            if n < best_count {
                (best, best_count, best_options) = (i, n, options);
                if n <= 1 {
                    break;
                }
            }
        }
        if best == usize::MAX {
            return true;
        }
        let mut options = best_options;
        while options != 0 {
            let bit = options & options.wrapping_neg();
            options ^= bit;
            self.cells[best] = LOG2[bit as usize] + 1;
            self.flip(best, bit);
            if self.dfs() {
                return true;
            }
            self.flip(best, bit);
        }
        self.cells[best] = 0;
        false
    }
}

/// Solves `givens` (81 values, 0 blank) in place; false when there is no solution.
pub fn solve(givens: &mut [u8; 81]) -> bool {
    let mut g = Grid { cells: *givens, rows: [0; 9], cols: [0; 9], boxes: [0; 9] };
    for i in 0..81 {
        if g.cells[i] != 0 {
            let bit = 1 << (g.cells[i] - 1);
            if (g.rows[i / 9] | g.cols[i % 9] | g.boxes[box_of(i)]) & bit != 0 {
                return false;
            }
            g.flip(i, bit);
        }
    }
    let solved = g.dfs();
    *givens = g.cells;
    solved
}
