//! The `sudoku` checker: POJ 2676's special judge ("if the solution is not unique, print any").
//!
//! It reads the case input with the solver file's reader (for the shape and the givens) and
//! checks every answered grid on its own: same shape, every given kept, every row, column
//! and box of every grid a permutation of 1-9 (of A-P on a 16x16 grid). `no solution` is accepted only where the
//! expected output says so, or where the givens themselves break a rule. It never asks the
//! solver for an answer, so it can vouch for expected outputs too.

use crate::solver::{Puzzle, Reader, Shape};
use crate::streams::LineCursor;
use crate::verdict::CheckOutcome;
use std::io::BufRead;

const NO_SOLUTION: &[u8] = b"no solution";

/// Longest output line kept whole: an answer line is at most 63 cells (or 17 bytes spaced);
/// a longer one is wrong whatever the rest of it holds.
const MAX_LINE: usize = 4096;

/// Normalized output lines read as a stream. A read error ends the stream and is reported by
/// [`Lines::failure`], so the checking logic below reads like plain iteration.
struct Lines<R> {
    cursor: LineCursor<R>,
    error: Option<std::io::Error>,
}

impl<R: BufRead> Lines<R> {
    fn new(src: R) -> Self {
        Lines { cursor: LineCursor::new(src, MAX_LINE), error: None }
    }

    fn note<T>(&mut self, r: std::io::Result<Option<T>>) -> Option<T> {
        r.unwrap_or_else(|e| {
            self.error.get_or_insert(e);
            None
        })
    }

    fn skip_blank(&mut self) {
        if let Err(e) = self.cursor.skip_blank() {
            self.error.get_or_insert(e);
        }
    }

    fn peek_is(&mut self, text: &[u8]) -> Option<bool> {
        let peeked = self.cursor.peek().map(|l| l.map(|l| l == text));
        self.note(peeked)
    }

    fn next(&mut self) -> Option<(usize, Vec<u8>)> {
        let next = self.cursor.next_line();
        self.note(next)
    }

    fn failure(&mut self) -> Option<CheckOutcome> {
        self.error.take().map(|e| CheckOutcome::Failed(format!("cannot read the output: {e}")))
    }
}

/// How many lines the answer of `puzzle` takes.
fn answer_height(puzzle: &Puzzle) -> usize {
    match &puzzle.shape {
        Shape::Rows | Shape::Spaced => 9,
        Shape::Rows16 => 16,
        Shape::Line => 1,
        Shape::Canvas(c) => c.height,
    }
}

/// Row and column (0-based, in the drawing) of every cell.
fn cell_places(puzzle: &Puzzle) -> Vec<(usize, usize)> {
    match &puzzle.shape {
        Shape::Canvas(c) => {
            let mut places = vec![(0, 0); puzzle.givens.len()];
            for (at, &i) in c.index.iter().enumerate() {
                if i != u32::MAX {
                    places[i as usize] = (at / c.width, at % c.width);
                }
            }
            places
        }
        Shape::Rows16 => (0..256).map(|i| (i / 16, i % 16)).collect(),
        _ => (0..81).map(|i| (i / 9, i % 9)).collect(),
    }
}

/// Checks `output` against the cases of `input`; `answer` is the expected output, if any.
/// Both are read as streams, a line at a time.
pub fn check(input: &[u8], output: &mut dyn BufRead, answer: Option<&mut dyn BufRead>) -> CheckOutcome {
    let mut out = Lines::new(output);
    let mut expected = answer.map(Lines::new);
    let outcome = check_all(input, &mut out, expected.as_mut());
    let failure = out.failure().or_else(|| expected.as_mut().and_then(Lines::failure));
    failure.unwrap_or(outcome)
}

fn check_all<R: BufRead, A: BufRead>(
    input: &[u8],
    out: &mut Lines<R>,
    mut expected: Option<&mut Lines<A>>,
) -> CheckOutcome {
    let mut reader = Reader::new(input);
    while let Some(case) = reader.next_case() {
        let puzzle = match case {
            Ok(p) => p,
            Err(e) => return CheckOutcome::Failed(format!("cannot check: the input is malformed: {e}")),
        };
        let expects_none = match expected.as_mut() {
            Some(exp) => {
                exp.skip_blank();
                let none = exp.peek_is(NO_SOLUTION) == Some(true);
                let skip = if none { 1 } else { answer_height(&puzzle) };
                for _ in 0..skip {
                    exp.next();
                }
                none
            }
            None => false,
        };
        if let Some(outcome) = check_case(&puzzle, out, expects_none) {
            return outcome;
        }
    }
    out.skip_blank();
    match out.next() {
        Some((line, _)) => CheckOutcome::Wrong(format!("output line {line}: extra output after the last case")),
        None => CheckOutcome::Accepted,
    }
}

/// Checks one case's answer; `None` when it is right.
fn check_case<R: BufRead>(puzzle: &Puzzle, out: &mut Lines<R>, expects_none: bool) -> Option<CheckOutcome> {
    let case = puzzle.case;
    out.skip_blank();
    let start = out.cursor.next_number();
    let Some(no_solution) = out.peek_is(NO_SOLUTION) else {
        return Some(CheckOutcome::Wrong(format!("case {case}: the output ends before this case is answered")));
    };
    if no_solution {
        out.next();
        let proven = puzzle.first_conflict().is_some();
        return if expects_none || proven {
            None
        } else {
            Some(CheckOutcome::Wrong(format!(
                "case {case} (output line {start}): says 'no solution', but the expected output has one"
            )))
        };
    }
    let values = match read_values(puzzle, out) {
        Ok(v) => v,
        Err(outcome) => return Some(outcome),
    };
    if let Some(why) = faults(puzzle, &values) {
        return Some(CheckOutcome::Wrong(why));
    }
    if expects_none {
        return Some(CheckOutcome::Failed(format!(
            "case {case}: the expected output says 'no solution', but the answer at output line {start} is a valid solution"
        )));
    }
    None
}

/// Why an answer breaks the rules, or `None` when it keeps them: the first fault on the first
/// line (what the table shows), then every fault, and the received grid with each one marked.
fn faults(puzzle: &Puzzle, values: &[u8]) -> Option<String> {
    let case = puzzle.case;
    let places = cell_places(puzzle);
    let at = |i: usize| format!("row {}, column {}", places[i].0 + 1, places[i].1 + 1);
    // Per cell: ' ' fine, '?' blank, '!' a changed given, '*' a repeat in some unit.
    let mut mark = vec![' '; values.len()];
    let mut found: Vec<String> = Vec::new();
    for (i, (&given, &value)) in puzzle.givens.iter().zip(values).enumerate() {
        if value == 0 {
            mark[i] = '?';
            found.push(format!("{}: the cell is left blank", at(i)));
        } else if given != 0 && given != value {
            mark[i] = '!';
            let (given, value) = (puzzle.symbol(given), puzzle.symbol(value));
            found.push(format!("{}: the given {given} was changed to {value}", at(i)));
        }
    }
    for (k, unit) in puzzle.units().iter().enumerate() {
        let mut first = [usize::MAX; 17];
        for &cell in unit {
            let (cell, v) = (cell as usize, values[cell as usize] as usize);
            if v == 0 {
                continue;
            }
            if first[v] == usize::MAX {
                first[v] = cell;
                continue;
            }
            let kind = ["row", "column", "box"][k % 3];
            found.push(format!("{}: {} appears twice in its {kind}", at(cell), puzzle.symbol(v as u8)));
            for c in [first[v], cell] {
                if mark[c] == ' ' {
                    mark[c] = '*';
                }
            }
        }
    }
    let first = found.first()?;
    let mut why = format!("case {case}, {first}");
    const LISTED: usize = 12;
    if found.len() > 1 {
        why += &format!("\n{} faults in this answer:", found.len());
        for f in found.iter().take(LISTED) {
            why += &format!("\n  {f}");
        }
        if found.len() > LISTED {
            why += &format!("\n  ... and {} more", found.len() - LISTED);
        }
    }
    why += &drawing(puzzle, values, &mark, &places);
    Some(why)
}

/// The received grid, a cell per column with its mark after it, when it is small enough to
/// read (a 9x9 or 16x16 grid, a Samurai); empty for larger canvases.
fn drawing(puzzle: &Puzzle, values: &[u8], mark: &[char], places: &[(usize, usize)]) -> String {
    let height = places.iter().map(|p| p.0 + 1).max().unwrap_or(0);
    let width = places.iter().map(|p| p.1 + 1).max().unwrap_or(0);
    if height > 21 || width > 21 {
        return String::new();
    }
    let mut grid = vec![vec!["  ".to_string(); width]; height];
    for (i, &(r, c)) in places.iter().enumerate() {
        let shown = if values[i] == 0 { '.' } else { puzzle.symbol(values[i]) };
        grid[r][c] = format!("{shown}{}", mark[i]);
    }
    let mut s = "\nreceived (* repeated in a row, column or box; ! a changed given; ? blank):".to_string();
    for row in grid {
        s += "\n  ";
        s += row.join("").trim_end();
    }
    s
}

/// Reads one answer in the shape of the puzzle: a value per cell (0 for a blank cell).
/// Anything that is not the right shape is a presentation error.
fn read_values<R: BufRead>(puzzle: &Puzzle, out: &mut Lines<R>) -> Result<Vec<u8>, CheckOutcome> {
    let case = puzzle.case;
    let pe = |line: usize, what: String| CheckOutcome::Presentation(format!("case {case}, output line {line}: {what}"));
    let mut values = vec![0u8; puzzle.givens.len()];
    let letters = puzzle.shape == Shape::Rows16;
    let digit = |b: u8| match b {
        b'0'..=b'9' if !letters => Some(b - b'0'),
        b'A'..=b'P' if letters => Some(b - b'A' + 1),
        b'-' | b'0' if letters => Some(0),
        b'.' => Some(0),
        _ => None,
    };
    let expected_cell = if letters { "a letter A-P" } else { "a digit" };
    for row in 0..answer_height(puzzle) {
        let Some((line_no, line)) = out.next() else {
            return Err(CheckOutcome::Wrong(format!("case {case}: the output ends inside this case's answer")));
        };
        let cells: Vec<(usize, u8)> = match &puzzle.shape {
            Shape::Rows => line.iter().copied().enumerate().map(|(i, b)| (row * 9 + i, b)).collect(),
            Shape::Rows16 => line.iter().copied().enumerate().map(|(i, b)| (row * 16 + i, b)).collect(),
            Shape::Line => line.iter().copied().enumerate().collect(),
            Shape::Spaced => {
                let bad = line.iter().enumerate().find(|&(i, &b)| (i % 2 == 1) != (b == b' '));
                if let Some((i, _)) = bad.filter(|_| line.len() == 17) {
                    return Err(pe(line_no, format!("column {}: expected digits separated by single spaces", i + 1)));
                }
                line.iter().copied().step_by(2).enumerate().map(|(i, b)| (row * 9 + i, b)).collect()
            }
            Shape::Canvas(c) => {
                let mut cells = Vec::new();
                for col in 0..c.width.max(line.len()) {
                    let index = if col < c.width { c.index[row * c.width + col] } else { u32::MAX };
                    let Some(b) = line.get(col).copied().or((index == u32::MAX).then_some(b' ')) else {
                        let what = format!("column {}: expected a digit, found the end of the line", col + 1);
                        return Err(pe(line_no, what));
                    };
                    if index == u32::MAX && b != b' ' {
                        return Err(pe(line_no, format!("column {}: expected a space outside the grids", col + 1)));
                    }
                    if index != u32::MAX {
                        cells.push((index as usize, b));
                    }
                }
                cells
            }
        };
        let wanted = match &puzzle.shape {
            Shape::Rows | Shape::Spaced => 9,
            Shape::Rows16 => 16,
            Shape::Line => 81,
            Shape::Canvas(_) => cells.len(),
        };
        let found = if puzzle.shape == Shape::Spaced { (line.len() + 1) / 2 } else { cells.len() };
        if found != wanted || (puzzle.shape == Shape::Spaced && line.len() != 17) {
            return Err(pe(line_no, format!("expected {wanted} cells, found {found}")));
        }
        for (col, &(index, b)) in cells.iter().enumerate() {
            match digit(b) {
                Some(v) => values[index] = v,
                None => {
                    let shown =
                        if b.is_ascii_graphic() { format!("'{}'", b as char) } else { format!("byte 0x{b:02X}") };
                    return Err(pe(line_no, format!("cell {}: expected {expected_cell}, found {shown}", col + 1)));
                }
            }
        }
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The checker over bytes in memory.
    fn check(input: &[u8], output: &[u8], answer: Option<&[u8]>) -> CheckOutcome {
        let mut answer = answer;
        super::check(input, &mut &output[..], answer.as_mut().map(|a| a as &mut dyn BufRead))
    }

    const PUZZLE: &[u8] =
        b"1\n103000509\n002109400\n000704000\n300502006\n060000050\n700803004\n000401000\n009205800\n804000107\n";
    const SOLVED: &str =
        "143628579\n572139468\n986754231\n391542786\n468917352\n725863914\n237481695\n619275843\n854396127\n";

    #[test]
    fn a_valid_grid_is_accepted_without_an_expected_output() {
        assert_eq!(check(PUZZLE, SOLVED.as_bytes(), None), CheckOutcome::Accepted);
        assert_eq!(check(PUZZLE, SOLVED.replace('\n', "\r\n").as_bytes(), None), CheckOutcome::Accepted);
    }

    #[test]
    fn every_rule_is_enforced_with_a_place() {
        let changed = SOLVED.replacen("143", "243", 1);
        let CheckOutcome::Wrong(why) = check(PUZZLE, changed.as_bytes(), None) else { panic!() };
        assert_eq!(why.lines().next(), Some("case 1, row 1, column 1: the given 1 was changed to 2"));
        // Swap two cells of row 1 that are not givens: row stays a permutation, columns break.
        let swapped = SOLVED.replacen("143628579", "143682579", 1);
        let CheckOutcome::Wrong(why) = check(PUZZLE, swapped.as_bytes(), None) else { panic!() };
        assert!(why.contains("appears twice in its column"), "{why}");
        let blank = SOLVED.replacen("143628579", "143028579", 1);
        assert!(matches!(check(PUZZLE, blank.as_bytes(), None), CheckOutcome::Wrong(w) if w.contains("left blank")));
    }

    #[test]
    fn every_fault_is_listed_and_marked_on_the_grid() {
        // Row 1's 2 and 8 swapped (columns 5 and 6 now repeat), and the given 3 in row 1
        // changed to 5 (a second 5 in the row and the box).
        let wrong = SOLVED.replacen("143628579", "145682579", 1);
        let CheckOutcome::Wrong(why) = check(PUZZLE, wrong.as_bytes(), None) else { panic!() };
        let lines: Vec<&str> = why.lines().collect();
        assert_eq!(lines[0], "case 1, row 1, column 3: the given 3 was changed to 5", "{why}");
        assert!(lines[1].ends_with("faults in this answer:"), "{why}");
        assert!(why.contains("  row 1, column 3: the given 3 was changed to 5"), "{why}");
        assert!(why.contains("appears twice in its row") && why.contains("appears twice in its column"), "{why}");
        let grid = lines.iter().position(|l| l.starts_with("received")).unwrap();
        assert_eq!(lines[grid + 1], "  1 4 5!6 8*2*5*7 9", "{why}");
        assert_eq!(lines.len(), grid + 10, "{why}");
    }

    #[test]
    fn shape_problems_are_presentation_errors() {
        let spaced = SOLVED.replacen("143628579", "1 4 3 6 2 8 5 7 9", 1);
        assert!(matches!(check(PUZZLE, spaced.as_bytes(), None), CheckOutcome::Presentation(_)));
        let extra = format!("{SOLVED}123\n");
        assert!(matches!(check(PUZZLE, extra.as_bytes(), None), CheckOutcome::Wrong(w) if w.contains("extra output")));
        assert!(matches!(check(PUZZLE, b"143628579\n", None), CheckOutcome::Wrong(w) if w.contains("ends inside")));
    }

    #[test]
    fn a_canvas_line_that_stops_short_says_so() {
        // A twodoku (the second grid 6 rows down and 6 columns right) whose seventh line, 15
        // wide, is answered with 9 cells: the line ends where cell 10 should be.
        let blank = |w: usize, pad: usize| format!("{}{}\n", " ".repeat(pad), "0".repeat(w));
        let mut input = String::new();
        for r in 0..15 {
            input += &match r {
                0..=5 => blank(9, 0),
                6..=8 => blank(15, 0),
                _ => blank(9, 6),
            };
        }
        let mut output: Vec<String> = input.lines().map(|l| l.replace('0', "1")).collect();
        output[6] = "900050007".to_string();
        let output = output.join("\n") + "\n";
        let CheckOutcome::Presentation(why) = check(input.as_bytes(), output.as_bytes(), None) else { panic!() };
        assert!(why.contains("output line 7: column 10: expected a digit, found the end of the line"), "{why}");
    }

    #[test]
    fn no_solution_needs_proof_or_agreement() {
        assert!(matches!(check(PUZZLE, b"no solution\n", None), CheckOutcome::Wrong(_)));
        assert_eq!(check(PUZZLE, b"no solution\n", Some(b"no solution\n")), CheckOutcome::Accepted);
        let clash =
            b"1\n113000509\n002109400\n000704000\n300502006\n060000050\n700803004\n000401000\n009205800\n804000107\n";
        assert_eq!(check(clash, b"no solution\n", None), CheckOutcome::Accepted);
        // An expected 'no solution' contradicted by a valid grid is the expected file's fault.
        assert!(matches!(check(PUZZLE, SOLVED.as_bytes(), Some(b"no solution\n")), CheckOutcome::Failed(_)));
    }
}
