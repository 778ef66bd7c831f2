//! Making one puzzle: a random solved grid (or canvas), then givens taken away at random
//! while the solver's exact counter still finds one solution; or a puzzle with none.

use super::rng::Rng;
use crate::solver::{Puzzle, Solver};

/// Random puzzles of one shape, from one random stream.
pub struct Maker {
    solver: Solver,
    /// The puzzle being worked on: the shape, with `givens` changed in place.
    work: Puzzle,
    /// The cells sharing a unit with each cell.
    peers: Vec<Vec<u16>>,
    pub rng: Rng,
}

impl Maker {
    pub fn new(blank: Puzzle, seed: u64) -> Maker {
        let mut peers: Vec<Vec<u16>> = vec![Vec::new(); blank.givens.len()];
        for unit in blank.units() {
            for &a in &unit {
                peers[a as usize].extend(unit.iter().filter(|&&b| b != a));
            }
        }
        for list in &mut peers {
            list.sort_unstable();
            list.dedup();
        }
        Maker { solver: Solver::new(), work: blank, peers, rng: Rng::new(seed) }
    }

    pub fn cells(&self) -> usize {
        self.work.givens.len()
    }

    /// Solutions of `givens`, counted no further than `cap`.
    pub fn count(&mut self, givens: &[u8], cap: u64) -> u64 {
        self.work.givens.clear();
        self.work.givens.extend_from_slice(givens);
        self.solver.count(&self.work, cap)
    }

    fn clashes(&self, givens: &[u8], cell: usize, digit: u8) -> bool {
        self.peers[cell].iter().any(|&p| givens[p as usize] == digit)
    }

    /// A random solved grid: random givens placed one at a time, each kept only if the
    /// puzzle stays solvable, then the last solution found with its digits relabelled at
    /// random (a relabelled solution is still a solution, on any canvas). Checking each
    /// given matters on canvases: a flower's grids overlap so much that a handful of
    /// givens placed blindly almost never leave a solution.
    pub fn solution(&mut self) -> Vec<u8> {
        let cells = self.cells();
        // About one given in nine: enough to leave the solver's choices little say in the
        // solution; each costs one solve.
        let seeds = cells / 9 + 2;
        let mut givens = vec![0u8; cells];
        self.work.givens.clone_from(&givens);
        let mut solved = self.solver.solve(&self.work).unwrap_or_default();
        let mut placed = 0;
        for _ in 0..seeds * 4 {
            if placed == seeds {
                break;
            }
            let cell = self.rng.below(cells);
            let digit = 1 + self.rng.below(self.work.side()) as u8;
            if givens[cell] != 0 || self.clashes(&givens, cell, digit) {
                continue;
            }
            givens[cell] = digit;
            self.work.givens.clone_from(&givens);
            match self.solver.solve(&self.work) {
                Some(s) => {
                    solved = s;
                    placed += 1;
                }
                None => givens[cell] = 0,
            }
        }
        let mut relabel: Vec<u8> = (1..=self.work.side() as u8).collect();
        self.rng.shuffle(&mut relabel);
        solved.iter().map(|&v| relabel[usize::from(v) - 1]).collect()
    }

    /// Takes givens of `solution` away in random order, down to `target` givens at most.
    /// With `unique`, a given stays whenever taking it away would allow a second solution;
    /// a full pass (`target` 0) so leaves a minimal puzzle: taking away any given then
    /// allows a second solution (fewer givens never have fewer solutions).
    pub fn carve(&mut self, solution: &[u8], target: usize, unique: bool) -> Vec<u8> {
        let mut givens = solution.to_vec();
        let mut order: Vec<usize> = (0..givens.len()).collect();
        self.rng.shuffle(&mut order);
        let mut left = givens.len();
        for cell in order {
            if left <= target {
                break;
            }
            givens[cell] = 0;
            if unique && self.count(&givens, 2) != 1 {
                givens[cell] = solution[cell];
            } else {
                left -= 1;
            }
        }
        givens
    }

    /// `givens` (whose only solution is `solution`) made unsolvable by one more given: at
    /// random either one that repeats a digit of its row, column or box (a visible clash),
    /// or one that breaks no rule but differs from the solution there (no completion exists:
    /// the only one had another digit in that cell). Proved by counting.
    pub fn unsolvable(&mut self, givens: &[u8], solution: &[u8]) -> Vec<u8> {
        let mut blanks: Vec<usize> = (0..givens.len()).filter(|&c| givens[c] == 0).collect();
        self.rng.shuffle(&mut blanks);
        let clash_first = self.rng.below(2) == 0;
        for clash in [clash_first, !clash_first] {
            for &cell in &blanks {
                let digits: Vec<u8> = (1..=self.work.side() as u8)
                    .filter(|&d| {
                        let repeats = self.clashes(givens, cell, d);
                        if clash {
                            repeats
                        } else {
                            !repeats && d != solution[cell]
                        }
                    })
                    .collect();
                if digits.is_empty() {
                    continue;
                }
                let mut broken = givens.to_vec();
                broken[cell] = digits[self.rng.below(digits.len())];
                if self.count(&broken, 1) == 0 {
                    return broken;
                }
            }
        }
        // Unreachable for a unique puzzle with a blank; a full grid gets a visible clash.
        let mut broken = givens.to_vec();
        if let Some(&p) = self.peers[0].first() {
            broken[0] = solution[p as usize];
        }
        broken
    }
}
