//! `@interactor`: the interactor of the bundled interactive problem, "Sudoku with an
//! oracle" (`cases/interactive/`), run as testlib runs one: `INPUT OUTPUT ANSWER`.
//!
//! INPUT is a query budget Q, then a 9x9 puzzle (81 cells, `0` or `.` blank) that may have
//! several solutions; ANSWER is the hidden solution, one of them. The solver is sent Q and the
//! puzzle (a line of Q, then nine lines of nine digits), may ask `? R C` (row and column from 1
//! to 9) for the hidden digit of a cell, answered by a line with that digit, at most Q times,
//! and ends with `!` followed by nine lines of nine digits: the hidden solution. Exit codes are
//! testlib's: 0 accepted, 1 wrong answer, 2 presentation error, 3 the interactor failed (a bad
//! case); the reason goes to stderr and, when accepted, the number of queries to OUTPUT.

use std::io::{BufRead, Write};

const AC: i32 = 0;
const WA: i32 = 1;
const PE: i32 = 2;
const FAIL: i32 = 3;

/// Runs the interactor; returns its exit status.
pub fn main(args: &[String]) -> i32 {
    let (code, message) = run(args);
    eprintln!("{message}");
    code
}

fn run(args: &[String]) -> (i32, String) {
    let [input, output, answer, ..] = args else {
        return (FAIL, "usage: @interactor INPUT OUTPUT ANSWER (the hidden solution)".into());
    };
    let (budget, puzzle) = match std::fs::read_to_string(input).map_err(|e| e.to_string()).and_then(|t| read_input(&t))
    {
        Ok(p) => p,
        Err(e) => return (FAIL, format!("bad input {input}: {e}")),
    };
    let hidden = match std::fs::read_to_string(answer).map_err(|e| e.to_string()).and_then(|t| cells(&t, false)) {
        Ok(h) if solves(&h, &puzzle) => h,
        Ok(_) => return (FAIL, format!("bad answer {answer}: not a solution of the puzzle")),
        Err(e) => return (FAIL, format!("bad answer {answer}: {e}")),
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut text = format!("{budget}\n");
    for row in puzzle.chunks(9) {
        text.extend(row.iter().map(|&d| char::from(b'0' + d)));
        text.push('\n');
    }
    // A solver gone already is found out by reading: its output ends.
    let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
    let mut words = Words(std::io::stdin().lock());
    let mut asked = 0u32;
    loop {
        match words.next().as_deref() {
            None => return (PE, format!("the solver's output ended before its answer (`!`), after {asked} queries")),
            Some("?") => {
                asked += 1;
                if asked > budget {
                    return (WA, format!("query {asked}: over the budget of {budget} queries"));
                }
                let (Some(r), Some(c)) = (words.number(), words.number()) else {
                    return (PE, format!("query {asked}: `? R C` needs two numbers"));
                };
                if !(1..=9).contains(&r) || !(1..=9).contains(&c) {
                    return (WA, format!("query {asked}: `? {r} {c}` is outside the grid (rows and columns 1 to 9)"));
                }
                let _ = writeln!(out, "{}", hidden[(r - 1) * 9 + c - 1]).and_then(|_| out.flush());
            }
            Some("!") => {
                let mut grid = Vec::with_capacity(81);
                for row in 1..=9 {
                    match words.next() {
                        Some(w) if w.len() == 9 && w.bytes().all(|b| b.is_ascii_digit()) => {
                            grid.extend(w.bytes().map(|b| b - b'0'));
                        }
                        Some(w) => return (PE, format!("answer row {row}: expected nine digits, found `{w}`")),
                        None => return (PE, format!("the answer ends after {} rows; 9 were expected", row - 1)),
                    }
                }
                if let Some(at) = (0..81).find(|&i| grid[i] != hidden[i]) {
                    let kind = if solves(&grid, &puzzle) { "a solution, but not the hidden one" } else { "wrong" };
                    return (
                        WA,
                        format!(
                            "{kind}: row {} column {} is {}, the hidden solution has {} ({asked} queries)",
                            at / 9 + 1,
                            at % 9 + 1,
                            grid[at],
                            hidden[at]
                        ),
                    );
                }
                if let Err(e) = std::fs::write(output, format!("queries {asked}\n")) {
                    return (FAIL, format!("cannot write {output}: {e}"));
                }
                return (AC, format!("ok: the hidden solution, after {asked} of {budget} queries"));
            }
            Some(other) => return (PE, format!("expected `? R C` or `!`, found `{other}`")),
        }
    }
}

/// The budget and the puzzle of an input.
fn read_input(text: &str) -> Result<(u32, Vec<u8>), String> {
    let text = text.trim_start();
    let end = text.find(char::is_whitespace).unwrap_or(text.len());
    let budget =
        text[..end].parse::<u32>().map_err(|_| format!("the query budget `{}` is not a number", &text[..end]))?;
    Ok((budget, cells(&text[end..], true)?))
}

/// 81 cells from `text`, whitespace ignored; `0` and `.` (blank) only where `blanks`.
fn cells(text: &str, blanks: bool) -> Result<Vec<u8>, String> {
    let mut cells = Vec::with_capacity(81);
    for c in text.chars().filter(|c| !c.is_whitespace()) {
        match c {
            '1'..='9' => cells.push(c as u8 - b'0'),
            '0' | '.' if blanks => cells.push(0),
            _ => return Err(format!("`{c}` is not a cell")),
        }
    }
    match cells.len() {
        81 => Ok(cells),
        n => Err(format!("{n} cells; a grid has 81")),
    }
}

/// Whether `grid` keeps the givens of `puzzle` and has every digit once in each row, column
/// and box.
fn solves(grid: &[u8], puzzle: &[u8]) -> bool {
    let kept = grid.iter().zip(puzzle).all(|(&g, &p)| p == 0 || g == p);
    let unit_ok = |cells: &mut dyn Iterator<Item = usize>| {
        let mut seen = 0u16;
        for i in cells {
            seen |= 1 << grid[i];
        }
        seen == 0b11_1111_1110
    };
    kept && (0..9).all(|k| {
        unit_ok(&mut (0..9).map(|j| k * 9 + j))
            && unit_ok(&mut (0..9).map(|j| j * 9 + k))
            && unit_ok(&mut (0..9).map(|j| (k / 3 * 3 + j / 3) * 9 + k % 3 * 3 + j % 3))
    })
}

/// Words from the solver, read as they come: a word is whole once whitespace follows it.
struct Words<R: BufRead>(R);

/// Longest word kept: a query or a row is far shorter.
const WORD_MAX: usize = 64;

impl<R: BufRead> Words<R> {
    fn next(&mut self) -> Option<String> {
        let mut word = Vec::new();
        loop {
            let buf = self.0.fill_buf().ok()?;
            if buf.is_empty() {
                break;
            }
            let mut used = 0;
            let mut done = false;
            for &b in buf {
                used += 1;
                if b.is_ascii_whitespace() {
                    if !word.is_empty() {
                        done = true;
                        break;
                    }
                } else if word.len() < WORD_MAX {
                    word.push(b);
                }
            }
            self.0.consume(used);
            if done {
                break;
            }
        }
        (!word.is_empty()).then(|| String::from_utf8_lossy(&word).into_owned())
    }

    fn number(&mut self) -> Option<usize> {
        self.next()?.parse().ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_are_read_with_their_budget() {
        let grid =
            "103000509\n002109400\n000704000\n300502006\n060000050\n700803004\n000401000\n009205800\n804000107\n";
        let (budget, cells) = read_input(&format!("3\n{grid}")).unwrap();
        assert_eq!((budget, cells.len(), cells[0], cells[1]), (3, 81, 1, 0));
        assert!(read_input("x\n").unwrap_err().contains("not a number"));
        assert!(read_input("1\n123").unwrap_err().contains("3 cells"));
    }

    #[test]
    fn words_end_at_whitespace_and_are_bounded() {
        let long = "y".repeat(100);
        let text = format!("? 1 2\n!\n{long} ");
        let mut words = Words(text.as_bytes());
        let got: Vec<String> = std::iter::from_fn(|| words.next()).collect();
        assert_eq!(got, vec!["?".to_string(), "1".into(), "2".into(), "!".into(), "y".repeat(WORD_MAX)]);
    }
}
