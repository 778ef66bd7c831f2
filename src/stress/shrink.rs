//! Shrinking a failing input while it still fails the same way.
//!
//! Sudoku inputs shrink by meaning, each step kept only while the failure persists:
//! 1. fewer cases in the file;
//! 2. a canvas replaced by one of its 9x9 grids;
//! 3. fewer givens.
//!
//! A multi-test text input (a count T, then T tests whose lines split evenly: see
//! [`crate::subcases`]) first loses whole tests, the count kept right, down to the one test
//! that fails; then that test shrinks as text, the count line kept.
//!
//! Anything else the solver's reader cannot read shrinks as text: lines, then whitespace-separated
//! tokens. Both use delta debugging (ddmin): take away chunks, halving the chunk size when no
//! chunk can go.

use crate::solver::{Puzzle, Reader, Shape};

/// What shrinking did.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Shrunk {
    #[serde(skip)]
    pub bytes: Vec<u8>,
    /// Runs of the solver spent.
    pub tries: usize,
    /// The sizes before and after, for people: "2310 bytes, 10 cases, 241 givens".
    pub before: String,
    pub after: String,
}

/// Counts runs against a cap.
struct Budget {
    left: usize,
    spent: usize,
}

impl Budget {
    fn spend(&mut self) -> bool {
        if self.left == 0 {
            return false;
        }
        self.left -= 1;
        self.spent += 1;
        true
    }
}

/// Shrinks `input`, for which `fails` holds, spending at most `tries` calls of `fails`.
pub fn shrink(input: &[u8], tries: usize, fails: &mut dyn FnMut(&[u8]) -> bool) -> Shrunk {
    let mut budget = Budget { left: tries, spent: 0 };
    let bytes = match SudokuFile::read(input) {
        Some(file) if budget.spend() && fails(&file.render(&file.puzzles)) => file.shrink(&mut budget, fails),
        _ => match shrink_tests(input, &mut budget, fails) {
            Some(bytes) => bytes,
            None => shrink_text(input, &mut budget, fails),
        },
    };
    Shrunk { before: describe(input), after: describe(&bytes), tries: budget.spent, bytes }
}

/// The size of an input for people: bytes, and cases and givens when the solver reads it.
pub fn describe(input: &[u8]) -> String {
    let bytes = format!("{} byte{}", input.len(), if input.len() == 1 { "" } else { "s" });
    match SudokuFile::read(input) {
        Some(file) => {
            let givens: usize = file.puzzles.iter().map(|p| p.givens.iter().filter(|&&v| v != 0).count()).sum();
            let cases = file.puzzles.len();
            let plural = |n: usize| if n == 1 { "" } else { "s" };
            format!("{bytes}, {cases} case{}, {givens} given{}", plural(cases), plural(givens))
        }
        None => bytes,
    }
}

/// Takes away chunks of `items` while `test` holds of what is left.
fn ddmin<T: Clone>(mut items: Vec<T>, budget: &mut Budget, test: &mut dyn FnMut(&[T]) -> bool) -> Vec<T> {
    let mut parts = 2;
    while !items.is_empty() {
        let chunk = (items.len() + parts - 1) / parts;
        let mut reduced = false;
        for start in (0..items.len()).step_by(chunk) {
            if !budget.spend() {
                return items;
            }
            let rest: Vec<T> =
                items[..start].iter().chain(&items[(start + chunk).min(items.len())..]).cloned().collect();
            if test(&rest) {
                items = rest;
                parts = (parts - 1).max(2);
                reduced = true;
                break;
            }
        }
        if !reduced {
            if chunk == 1 {
                break;
            }
            parts = (parts * 2).min(items.len());
        }
    }
    items
}

/// A multi-test input cut down to the tests that still fail (one, usually), the count
/// rewritten; then the one test left shrinks as text under its `1`. `None` when the input is
/// not a multi-test one of two tests or more.
fn shrink_tests(input: &[u8], budget: &mut Budget, fails: &mut dyn FnMut(&[u8]) -> bool) -> Option<Vec<u8>> {
    let (count, tests) = crate::subcases::input_tests(input, &crate::cases::split::Split::Auto)?;
    if count < 2 {
        return None;
    }
    let render = |tests: &[Vec<&[u8]>]| -> Vec<u8> {
        let mut out = format!("{}\n", tests.len()).into_bytes();
        for line in tests.iter().flatten() {
            out.extend_from_slice(line);
            out.push(b'\n');
        }
        out
    };
    let kept = ddmin(tests, budget, &mut |ts| !ts.is_empty() && fails(&render(ts)));
    if kept.len() != 1 {
        return Some(render(&kept));
    }
    let body = render(&kept).split_off(2);
    let shrunk = shrink_text(&body, budget, &mut |b| fails(&[&b"1\n"[..], b].concat()));
    Some([&b"1\n"[..], &shrunk].concat())
}

fn shrink_text(input: &[u8], budget: &mut Budget, fails: &mut dyn FnMut(&[u8]) -> bool) -> Vec<u8> {
    let join = |lines: &[&[u8]]| -> Vec<u8> {
        lines.iter().flat_map(|l| l.iter().copied().chain(std::iter::once(b'\n'))).collect()
    };
    let body = input.strip_suffix(b"\n").unwrap_or(input);
    let lines: Vec<&[u8]> = if body.is_empty() { Vec::new() } else { body.split(|&b| b == b'\n').collect() };
    let lines = ddmin(lines, budget, &mut |ls| fails(&join(ls)));
    // Tokens, each remembering its line, so that what is left keeps its layout.
    let tokens: Vec<(usize, &[u8])> = lines
        .iter()
        .enumerate()
        .flat_map(|(i, l)| l.split(|b| b.is_ascii_whitespace()).filter(|t| !t.is_empty()).map(move |t| (i, t)))
        .collect();
    let layout = |tokens: &[(usize, &[u8])]| -> Vec<u8> {
        let mut out = Vec::new();
        if tokens.is_empty() {
            return out;
        }
        for (k, (line, token)) in tokens.iter().enumerate() {
            if k > 0 {
                out.push(if tokens[k - 1].0 == *line { b' ' } else { b'\n' });
            }
            out.extend_from_slice(token);
        }
        out.push(b'\n');
        out
    };
    let whole = layout(&tokens);
    if tokens.is_empty() || !budget.spend() || !fails(&whole) {
        return join(&lines);
    }
    layout(&ddmin(tokens, budget, &mut |ts| fails(&layout(ts))))
}

/// A Sudoku input the solver reads without error, and how its cases are laid out.
struct SudokuFile {
    /// The first line is T.
    counted: bool,
    /// A line `end` closes the input (POJ 3074).
    end_line: bool,
    puzzles: Vec<Puzzle>,
}

impl SudokuFile {
    fn read(input: &[u8]) -> Option<SudokuFile> {
        let mut reader = Reader::new(input);
        let mut puzzles = Vec::new();
        while let Some(case) = reader.next_case() {
            puzzles.push(case.ok()?);
        }
        let text = String::from_utf8_lossy(input);
        let mut lines = text.lines().map(|l| l.trim_start_matches('\u{feff}').trim());
        let first = lines.clone().find(|l| !l.is_empty())?;
        // A count has fewer digits than a grid row.
        let counted = first.len() < 9 && first.bytes().all(|b| b.is_ascii_digit());
        let end_line = lines.any(|l| l == "end");
        (!puzzles.is_empty()).then_some(SudokuFile { counted, end_line, puzzles })
    }

    fn render(&self, puzzles: &[Puzzle]) -> Vec<u8> {
        let mut out = Vec::new();
        if self.counted {
            out.extend_from_slice(format!("{}\n", puzzles.len()).as_bytes());
        }
        for (k, p) in puzzles.iter().enumerate() {
            let canvas = matches!(p.shape, Shape::Canvas(_));
            if k > 0 && !self.counted && p.shape != Shape::Line {
                out.push(b'\n');
            }
            // Writing to a Vec cannot fail.
            let _ = p.write_answer(&p.givens, &mut out);
            if self.counted && canvas {
                out.push(b'\n');
            }
        }
        if self.end_line {
            out.extend_from_slice(b"end\n");
        }
        out
    }

    fn shrink(mut self, budget: &mut Budget, fails: &mut dyn FnMut(&[u8]) -> bool) -> Vec<u8> {
        // 1. Fewer cases.
        let all = std::mem::take(&mut self.puzzles);
        self.puzzles = ddmin(all, budget, &mut |ps| !ps.is_empty() && fails(&self.render(ps)));
        // 2. A canvas replaced by one of its grids.
        for k in 0..self.puzzles.len() {
            for grid in grids_of(&self.puzzles[k]) {
                if !budget.spend() {
                    break;
                }
                let mut candidate = self.puzzles.clone();
                candidate[k] = grid;
                if fails(&self.render(&candidate)) {
                    self.puzzles = candidate;
                    break;
                }
            }
        }
        // 3. Fewer givens.
        let givens: Vec<(usize, usize)> = (0..self.puzzles.len())
            .flat_map(|k| (0..self.puzzles[k].givens.len()).map(move |c| (k, c)))
            .filter(|&(k, c)| self.puzzles[k].givens[c] != 0)
            .collect();
        let with = |kept: &[(usize, usize)]| {
            let mut puzzles = self.puzzles.clone();
            for p in &mut puzzles {
                p.givens.iter_mut().for_each(|v| *v = 0);
            }
            for &(k, c) in kept {
                puzzles[k].givens[c] = self.puzzles[k].givens[c];
            }
            puzzles
        };
        let kept = ddmin(givens, budget, &mut |kept| fails(&self.render(&with(kept))));
        self.render(&with(&kept))
    }
}

/// Each 9x9 grid of a canvas as a puzzle of its own (none for a plain grid).
fn grids_of(puzzle: &Puzzle) -> Vec<Puzzle> {
    let Shape::Canvas(canvas) = &puzzle.shape else { return Vec::new() };
    canvas
        .grids
        .iter()
        .map(|&(top, left)| {
            let givens = (0..81)
                .map(|i| {
                    let at = canvas.index[(top + i / 9) * canvas.width + left + i % 9];
                    puzzle.givens[at as usize]
                })
                .collect();
            Puzzle { shape: Shape::Rows, givens, ..puzzle.clone() }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in for a failing run: the input still holds `needle`.
    fn holds(needle: &'static [u8]) -> impl FnMut(&[u8]) -> bool {
        move |input| input.windows(needle.len()).any(|w| w == needle)
    }

    #[test]
    fn text_shrinks_to_the_line_then_the_token_that_matters() {
        let input = b"alpha beta\ngamma needle delta\nepsilon\n";
        let shrunk = shrink(input, 500, &mut holds(b"needle"));
        assert_eq!(shrunk.bytes, b"needle\n");
        assert!(shrunk.tries < 60, "{} tries", shrunk.tries);
    }

    #[test]
    fn sudoku_files_lose_cases_then_givens_and_keep_their_layout() {
        // The "bug": a 7 in the last cell of a case.
        let file = "3\n".to_string()
            + "100000000\n020000000\n003000000\n000400000\n000050000\n000006000\n000000700\n000000080\n000000009\n"
            + "100000000\n020000000\n003000000\n000400000\n000050000\n000006000\n000000700\n000000080\n000000007\n"
            + "900000000\n020000000\n003000000\n000400000\n000050000\n000006000\n000000700\n000000080\n000000001\n";
        let shrunk = shrink(file.as_bytes(), 500, &mut holds(b"000000007\n"));
        let expected = "1\n".to_string() + &"000000000\n".repeat(8) + "000000007\n";
        assert_eq!(String::from_utf8_lossy(&shrunk.bytes), expected);
        assert_eq!(shrunk.before, format!("{} bytes, 3 cases, 27 givens", file.len()));
        assert_eq!(shrunk.after, format!("{} bytes, 1 case, 1 given", expected.len()));
    }

    #[test]
    fn a_canvas_shrinks_to_the_grid_that_fails() {
        let samurai = std::fs::read("cases/samurai/seed/input.txt").expect("the bundled Samurai");
        // The "bug": the first row of the bottom-left grid, which only that grid holds.
        let needle = b"900030007";
        assert!(samurai.windows(9).any(|w| w == needle));
        let shrunk = shrink(&samurai, 2000, &mut holds(needle));
        let file = SudokuFile::read(&shrunk.bytes).expect("still a Sudoku input");
        assert_eq!(file.puzzles[0].shape, Shape::Rows, "{}", String::from_utf8_lossy(&shrunk.bytes));
        assert_eq!(shrunk.bytes, [&needle[..], b"\n", &b"000000000\n".repeat(8)].concat());
        assert!(shrunk.after.ends_with("1 case, 3 givens"), "{}", shrunk.after);
    }

    #[test]
    fn a_multi_test_input_shrinks_to_its_failing_test_with_a_count_of_one() {
        let input = b"4\n1 2\n3 4\n5 needle\n7 8\n";
        // The "bug" needs its count right, as a solver reading T tests would.
        let mut fails = |i: &[u8]| {
            let text = String::from_utf8_lossy(i);
            let t: usize = text.lines().next().and_then(|l| l.trim().parse().ok()).unwrap_or(0);
            t == text.lines().count() - 1 && text.contains("needle")
        };
        let shrunk = shrink(input, 500, &mut fails);
        assert_eq!(String::from_utf8_lossy(&shrunk.bytes), "1\nneedle\n");
    }

    #[test]
    fn the_budget_is_a_hard_cap() {
        let mut calls = 0;
        let shrunk = shrink(b"a\nb\nc\nd\ne\nf\n", 3, &mut |_| {
            calls += 1;
            true
        });
        assert_eq!((calls, shrunk.tries), (3, 3));
    }
}
