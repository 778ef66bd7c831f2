//! `judge gen`: a deterministic Sudoku puzzle generator.
//!
//! The same options and seed give the same bytes on every machine ([`rng`] is SplitMix64).
//! Each puzzle starts from a random solved grid ([`carve::Maker::solution`]); givens are
//! then taken away in random order. For unique puzzles each removal is kept only when the
//! solver's own exact counter still finds exactly one solution, so uniqueness is proved,
//! never assumed; a full pass leaves a minimal puzzle. Puzzles without solution get one
//! more given that clashes, or that breaks no rule but admits no completion (proved by
//! counting too). [`shapes`] draws the result in the format of the judge asked for.

pub mod carve;
pub mod rng;
pub mod shapes;

pub use shapes::{Format, Shape};

/// What the puzzles must have in the way of solutions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solutions {
    /// Exactly one, proved by counting.
    Unique,
    /// At least one; several allowed (for special judges).
    Any,
    /// None: a clashing or unsatisfiable puzzle.
    None,
}

/// Everything `judge gen` can be asked.
#[derive(Clone, Debug)]
pub struct GenOptions {
    pub shape: Shape,
    pub format: Format,
    pub count: usize,
    /// Givens wanted per puzzle; `None`: as few as random removal reaches (unique), or a
    /// quarter of the cells (any).
    pub clues: Option<usize>,
    /// With `clues`: a minimal puzzle (every given needed), as near `clues` as found.
    pub minimal: bool,
    pub solutions: Solutions,
    pub seed: u64,
    /// The byte for a blank cell: `0` or `.`.
    pub blank: u8,
}

/// A generated file and what the user should know about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    pub bytes: Vec<u8>,
    /// Each puzzle's givens, 0 for a blank, in the solver's cell order.
    pub puzzles: Vec<Vec<u8>>,
    /// Say-so for the user (a clue target that could not be met), for stderr.
    pub notes: Vec<String>,
}

/// Fresh solved grids tried per puzzle when aiming at a clue count: enough to get within a
/// clue or two of what random removal can reach, few enough to stay fast on canvases.
fn attempts(shape: Shape) -> usize {
    if shape == Shape::Classic {
        24
    } else {
        3
    }
}

fn givens(puzzle: &[u8]) -> usize {
    puzzle.iter().filter(|&&v| v != 0).count()
}

/// The most puzzles one file holds: the file is built in memory.
const MAX_PUZZLES: usize = 1_000_000;

/// Generates the file `options` describe.
pub fn generate(options: &GenOptions) -> Result<Generated, String> {
    if !options.format.fits(options.shape) {
        return Err(match options.shape {
            Shape::Classic => {
                "the canvas format is for gattai shapes: use poj, grids, spaced, lines or lines-end".into()
            }
            Shape::Sixteen => "a 16x16 grid can be written as grids (POJ 3076) or poj (SPOJ, with T) only".into(),
            _ => format!("a {} canvas can be written as poj or canvas only", options.shape.name()),
        });
    }
    let dash = options.blank == b'-' && options.shape == Shape::Sixteen;
    if !(matches!(options.blank, b'0' | b'.') || dash) {
        return Err("a blank cell is written as 0 or . (or - on a 16x16 grid)".into());
    }
    if options.count > MAX_PUZZLES {
        return Err(format!("at most {MAX_PUZZLES} puzzles a file; run it again with other seeds for more"));
    }
    let blank = options.shape.blank();
    let mut maker = carve::Maker::new(blank.clone(), options.seed);
    let cells = maker.cells();
    if let Some(clues) = options.clues.filter(|&c| c > cells) {
        return Err(format!(
            "a {} puzzle has {cells} cells: --clues {clues} is more than it holds",
            options.shape.name()
        ));
    }
    let mut puzzles = Vec::with_capacity(options.count);
    let mut missed = Vec::new();
    for _ in 0..options.count {
        let puzzle = match options.solutions {
            Solutions::Any => {
                let solution = maker.solution();
                maker.carve(&solution, options.clues.unwrap_or(cells / 4), false)
            }
            Solutions::Unique | Solutions::None => {
                let (solution, puzzle) = unique(&mut maker, options);
                if let Some(target) = options.clues {
                    if givens(&puzzle) != target {
                        missed.push(givens(&puzzle));
                    }
                }
                if options.solutions == Solutions::None {
                    maker.unsolvable(&puzzle, &solution)
                } else {
                    puzzle
                }
            }
        };
        puzzles.push(puzzle);
    }
    let mut notes = Vec::new();
    if let (Some(target), false) = (options.clues, missed.is_empty()) {
        let (low, high) = (missed.iter().min().copied().unwrap_or(0), missed.iter().max().copied().unwrap_or(0));
        let why = if low > target {
            "random removal keeps more givens than that for a unique puzzle of this shape"
        } else {
            "a minimal puzzle seldom has exactly that many"
        };
        let range = if low == high { format!("{low}") } else { format!("{low} to {high}") };
        notes.push(format!(
            "asked for {target} givens: {} of {} puzzles have {range} instead ({why})",
            missed.len(),
            options.count
        ));
    }
    let bytes = shapes::render(&blank, &puzzles, options.format, options.blank);
    Ok(Generated { bytes, puzzles, notes })
}

/// A unique puzzle and its solution, as near the clue target as the attempts get.
fn unique(maker: &mut carve::Maker, options: &GenOptions) -> (Vec<u8>, Vec<u8>) {
    let target = options.clues.unwrap_or(0);
    let tries = if options.clues.is_some() { attempts(options.shape) } else { 1 };
    let mut best: Option<(usize, Vec<u8>, Vec<u8>)> = None;
    for _ in 0..tries {
        let solution = maker.solution();
        let puzzle = maker.carve(&solution, if options.minimal { 0 } else { target }, true);
        let miss = givens(&puzzle).abs_diff(target);
        if best.as_ref().map_or(true, |(m, _, _)| miss < *m) {
            best = Some((miss, solution, puzzle));
        }
        if miss == 0 {
            break;
        }
    }
    let (_, solution, puzzle) = best.unwrap_or_default();
    (solution, puzzle)
}

#[cfg(test)]
mod tests;
