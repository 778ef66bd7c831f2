//! What the generator can draw: puzzle shapes (9x9, 16x16 and the gattai canvases the
//! solver reads) and the input formats of the judges that send them.

use crate::solver::{Puzzle, Reader, Shape as Drawn};

/// A puzzle shape. Canvases are the solver's own: 9x9 grids whose corners sit on multiples
/// of 3, sharing boxes where they overlap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Classic,
    /// 16x16 with letters A-P (POJ 3076, SPOJ SUDOKU, AcWing 169).
    Sixteen,
    Samurai,
    Twodoku,
    Butterfly,
    Flower,
    Sohei,
}

pub const SHAPES: [(&str, Shape); 7] = [
    ("9x9", Shape::Classic),
    ("16x16", Shape::Sixteen),
    ("samurai", Shape::Samurai),
    ("twodoku", Shape::Twodoku),
    ("butterfly", Shape::Butterfly),
    ("flower", Shape::Flower),
    ("sohei", Shape::Sohei),
];

impl Shape {
    pub fn parse(text: &str) -> Result<Shape, String> {
        lookup(&SHAPES, text, "shape")
    }

    pub fn name(self) -> &'static str {
        SHAPES.iter().find(|(_, s)| *s == self).map_or("?", |(n, _)| n)
    }

    /// Top-left corners (row, column) of the 9x9 grids.
    pub fn corners(self) -> &'static [(usize, usize)] {
        match self {
            Shape::Classic | Shape::Sixteen => &[(0, 0)],
            Shape::Samurai => &[(0, 0), (0, 12), (12, 0), (12, 12), (6, 6)],
            Shape::Twodoku => &[(0, 0), (6, 6)],
            Shape::Butterfly => &[(0, 0), (0, 3), (3, 0), (3, 3)],
            Shape::Flower => &[(0, 3), (3, 0), (3, 3), (3, 6), (6, 3)],
            Shape::Sohei => &[(0, 6), (6, 0), (6, 12), (12, 6)],
        }
    }

    /// The shape with every cell blank, read back through the solver's own reader so that
    /// the generator and the solver can never disagree on a canvas.
    pub fn blank(self) -> Puzzle {
        if self == Shape::Sixteen {
            let text = "----------------\n".repeat(16);
            return match Reader::new(text.as_bytes()).next_case() {
                Some(Ok(puzzle)) => puzzle,
                other => unreachable!("the solver cannot read a blank 16x16 grid: {other:?}"),
            };
        }
        let corners = self.corners();
        let side = corners.iter().map(|&(r, c)| r.max(c) + 9).max().unwrap_or(9);
        let inside = |r: usize, c: usize| corners.iter().any(|&(t, l)| r >= t && r < t + 9 && c >= l && c < l + 9);
        let mut text = String::new();
        for r in 0..side {
            let row: String = (0..side).map(|c| if inside(r, c) { '0' } else { ' ' }).collect();
            text.push_str(row.trim_end());
            text.push('\n');
        }
        match Reader::new(text.as_bytes()).next_case() {
            Some(Ok(puzzle)) => puzzle,
            other => unreachable!("the solver cannot read the blank {self:?} canvas: {other:?}"),
        }
    }
}

/// The value named `text` in `table`, or a message listing the names there are.
fn lookup<T: Copy>(table: &[(&str, T)], text: &str, what: &str) -> Result<T, String> {
    table.iter().find(|(name, _)| *name == text).map(|&(_, v)| v).ok_or_else(|| {
        let names: Vec<&str> = table.iter().map(|(n, _)| *n).collect();
        format!("unknown {what} '{text}': use one of {}", names.join(", "))
    })
}

/// How a file of puzzles is laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// POJ 2676 (and SPOJ SUDOKU for 16x16): T, then the puzzles (canvases and 16x16 grids
    /// end with a blank line).
    Poj,
    /// 9 lines of 9 cells (16 of 16 for 16x16, POJ 3076) per puzzle, puzzles separated by a
    /// blank line.
    Grids,
    /// 9 lines of 9 space-separated cells (Luogu P1784), puzzles separated by a blank line.
    Spaced,
    /// One 81-cell line per puzzle (POJ 3074, AcWing 166, benchmark sets).
    Lines,
    /// Lines, then a line `end` (POJ 3074 and AcWing 166 end their input so).
    LinesEnd,
    /// Canvases as drawn, separated by a blank line.
    Canvas,
}

pub const FORMATS: [(&str, Format); 6] = [
    ("poj", Format::Poj),
    ("grids", Format::Grids),
    ("spaced", Format::Spaced),
    ("lines", Format::Lines),
    ("lines-end", Format::LinesEnd),
    ("canvas", Format::Canvas),
];

impl Format {
    pub fn parse(text: &str) -> Result<Format, String> {
        lookup(&FORMATS, text, "format")
    }

    /// Whether puzzles of `shape` can be written in this format.
    pub fn fits(self, shape: Shape) -> bool {
        match self {
            Format::Poj => true,
            Format::Grids => matches!(shape, Shape::Classic | Shape::Sixteen),
            Format::Canvas => !matches!(shape, Shape::Classic | Shape::Sixteen),
            _ => shape == Shape::Classic,
        }
    }
}

/// Writes `puzzles` (givens, 0 for a blank, in the solver's cell order) as one input file.
/// `blank` is the byte written for an empty cell (`0` or `.`; also `-` on a 16x16 grid).
pub fn render(blank_puzzle: &Puzzle, puzzles: &[Vec<u8>], format: Format, blank: u8) -> Vec<u8> {
    let mut out = Vec::new();
    if format == Format::Poj {
        out.extend_from_slice(format!("{}\n", puzzles.len()).as_bytes());
    }
    let drawn = match format {
        Format::Spaced => Drawn::Spaced,
        Format::Lines | Format::LinesEnd => Drawn::Line,
        _ => blank_puzzle.shape.clone(),
    };
    let canvas = matches!(drawn, Drawn::Canvas(_));
    let sixteen = drawn == Drawn::Rows16;
    // What `write_answer` draws for a blank cell.
    let drawn_blank = if sixteen { b'-' } else { b'0' };
    let shaped = Puzzle { shape: drawn, ..blank_puzzle.clone() };
    for (k, givens) in puzzles.iter().enumerate() {
        // 16x16 grids are a blank line apart in both formats (POJ 3076 and SPOJ).
        let separated = matches!(format, Format::Grids | Format::Spaced | Format::Canvas) || sixteen;
        if k > 0 && separated {
            out.push(b'\n');
        }
        let start = out.len();
        // Writing to a Vec cannot fail.
        let _ = shaped.write_answer(givens, &mut out);
        if blank != drawn_blank {
            for b in &mut out[start..] {
                if *b == drawn_blank {
                    *b = blank;
                }
            }
        }
        // In T mode a canvas ends at a blank line.
        if format == Format::Poj && canvas {
            out.push(b'\n');
        }
    }
    if format == Format::LinesEnd {
        out.extend_from_slice(b"end\n");
    }
    out
}
