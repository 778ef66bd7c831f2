//! Property test of the solver's reader: damaged inputs of every style it reads.
//!
//! Each input starts from a valid file (a T file, bare rows, spaced rows, puzzle lines with
//! comments and `end`, a Samurai, a butterfly, 16x16 grids as POJ 3076 and SPOJ send them)
//! and gets one to three random edits. Whatever
//! the reader does must be one of two things: an error whose line and column point inside the
//! input, or an answer for every cell the input holds (no line silently dropped or misread as
//! something else). No panic, ever.

use sudoku_judge::solver::{solve_all, Failure, Mode, Reader};

/// The tests' xorshift64, with a bound.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        super::xorshift(&mut self.0)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Bytes worth inserting: mostly what the formats are made of, sometimes anything.
const SUDOKUISH: &[u8] = b"0123456789.. \n\n\r\t#-+eAPQ--";

fn random_byte(rng: &mut Rng) -> u8 {
    if rng.below(4) == 0 {
        rng.next() as u8
    } else {
        SUDOKUISH[rng.below(SUDOKUISH.len())]
    }
}

/// One random edit: a byte inserted, deleted or replaced; a line deleted, duplicated or
/// swapped with the next; the file cut short.
fn damage(input: &mut Vec<u8>, rng: &mut Rng) {
    let at = rng.below(input.len() + 1);
    match rng.below(7) {
        0 => input.insert(at, random_byte(rng)),
        1 if at < input.len() => {
            input.remove(at);
        }
        2 if at < input.len() => input[at] = random_byte(rng),
        3..=5 => {
            let mut lines: Vec<Vec<u8>> = input.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
            let i = rng.below(lines.len());
            match rng.below(3) {
                0 => {
                    lines.remove(i);
                }
                1 => {
                    let copy = lines[i].clone();
                    lines.insert(i, copy);
                }
                _ if i + 1 < lines.len() => lines.swap(i, i + 1),
                _ => {}
            }
            *input = lines.join(&b'\n');
        }
        _ => input.truncate(at),
    }
}

/// The input's lines as the reader sees them: BOM gone, trailing blanks trimmed.
fn lines(input: &[u8]) -> Vec<&[u8]> {
    let input = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input);
    let mut lines: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
    if input.ends_with(b"\n") {
        lines.pop();
    }
    lines
        .into_iter()
        .map(|mut l| {
            while let [head @ .., b'\r' | b' ' | b'\t'] = l {
                l = head;
            }
            l
        })
        .collect()
}

/// The specification of a count line, written independently of the reader: an optional
/// sign, then 1 to 11 digits without a leading zero (or a lone 0); 9 digits alone are a
/// grid row, 12 or more a canvas row or a malformed line.
fn is_plain_count(line: &[u8]) -> bool {
    let digits = line.strip_prefix(b"+").or_else(|| line.strip_prefix(b"-")).unwrap_or(line);
    line.len() != 9
        && (1..=11).contains(&digits.len())
        && digits.iter().all(u8::is_ascii_digit)
        && (digits.len() == 1 || digits[0] != b'0')
}

/// Cells the input holds: `0`-`9` and `.` (for 16x16 grids, `A`-`P`, `-`, `.` and `0`) on
/// every line that is not blank, a comment, the count line, or after an `end` line of a file
/// without a count.
fn cells_in(input: &[u8], sixteen: bool) -> usize {
    let lines = lines(input);
    let mut content = lines.iter().filter(|l| !l.is_empty() && l[0] != b'#').peekable();
    let counted = content.peek().is_some_and(|l| is_plain_count(l));
    if counted {
        content.next();
    }
    let mut cells = 0;
    for line in content {
        if !counted && *line == b"end" {
            break;
        }
        let is_cell = |b: u8| {
            if sixteen {
                matches!(b, b'A'..=b'P' | b'-' | b'.' | b'0')
            } else {
                b.is_ascii_digit() || b == b'.'
            }
        };
        cells += line.iter().filter(|&&b| is_cell(b)).count();
    }
    cells
}

fn seeds() -> Vec<Vec<u8>> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("cases");
    let read = |p: &str| std::fs::read(root.join(p).join("input.txt")).unwrap();
    let sample = read("poj2676/sample");
    let grid: Vec<u8> = sample.splitn(2, |&b| b == b'\n').nth(1).unwrap().to_vec();
    let spaced: Vec<u8> = grid
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .flat_map(|l| {
            let mut row: Vec<u8> = l.iter().flat_map(|&b| [b, b' ']).collect();
            row.pop();
            row.push(b'\n');
            row
        })
        .collect();
    let flat: Vec<u8> = grid.iter().copied().filter(u8::is_ascii_digit).collect();
    let mut lines = b"# two puzzles\n".to_vec();
    lines.extend_from_slice(&flat);
    lines.extend_from_slice(b"\n");
    lines.extend(flat.iter().map(|&b| if b == b'0' { b'.' } else { b }));
    lines.extend_from_slice(b"\nend\n");
    let poj3076 = read("poj3076/sample");
    let mut two = poj3076.clone();
    two.push(b'\n');
    two.extend(poj3076.iter().map(|&b| if b == b'-' { b'.' } else { b }));
    let mut spoj = b"2\n".to_vec();
    spoj.extend_from_slice(&poj3076);
    spoj.push(b'\n');
    spoj.extend(poj3076.iter().map(|&b| if b == b'-' { b'0' } else { b }));
    vec![sample, grid, spaced, lines, read("samurai/seed"), read("gattai/butterfly-21"), two, spoj]
}

/// Whether seed `k` of [`seeds`] is a 16x16 file.
fn is_sixteen(k: usize) -> bool {
    k >= 6
}

/// Runs `rounds` damaged inputs; returns how many were answered and how many were errors.
pub fn check(rounds: u64, seed: u64) -> (u64, u64) {
    let seeds = seeds();
    let mut rng = Rng(seed);
    let (mut answered, mut errors) = (0, 0);
    for round in 0..rounds {
        let k = (round % seeds.len() as u64) as usize;
        let mut input = seeds[k].clone();
        for _ in 0..=rng.below(3) {
            damage(&mut input, &mut rng);
        }
        let (mut out, mut notes) = (Vec::new(), Vec::new());
        let shown = String::from_utf8_lossy(&input).into_owned();
        match solve_all(&input, Mode::Count(2), &mut out, &mut notes) {
            Ok(()) => {
                answered += 1;
                let mut reader = Reader::new(&input);
                let mut read = 0;
                while let Some(case) = reader.next_case() {
                    read += case.expect("a file answered in full reads in full").givens.len();
                }
                assert_eq!(
                    read,
                    cells_in(&input, is_sixteen(k)),
                    "round {round}: cells dropped or invented, input:\n{shown}"
                );
            }
            Err(Failure::Input(e)) => {
                errors += 1;
                let lines = lines(&input);
                assert!(e.line >= 1 && e.line <= lines.len() + 1, "round {round}: {e}\ninput:\n{shown}");
                let width = lines.get(e.line - 1).map_or(0, |l| l.len());
                assert!(e.column >= 1 && e.column <= width + 1, "round {round}: column outside the line: {e}\n{shown}");
                assert!(e.message.starts_with("expected") || e.message.contains("expected"), "round {round}: {e}");
            }
            Err(Failure::Io(e) | Failure::Reading(e)) => panic!("no I/O on a Vec or a slice can fail: {e}"),
        }
    }
    (answered, errors)
}
