//! `judge gen` (and the built-in `@gen`): its command line, turned into [`GenOptions`].

use crate::gen::{self, Format, GenOptions, Shape, Solutions};
use clap::Parser;
use std::io::Write;
use std::path::PathBuf;

const AFTER_HELP: &str = "\
Every unique puzzle is proved unique by the solver's exact counter. Without --clues, givens
are taken away until none can go: the puzzles are minimal. The same options and seed give the
same bytes on every machine.

Formats: poj (T, then the puzzles; the default for 9x9; SPOJ SUDOKU for 16x16), grids (9
lines of 9; 16 lines of 16 letters for 16x16, POJ 3076, the default there), spaced (Luogu
P1784), lines (81 cells a line; POJ 3074), lines-end (lines, then 'end'), canvas (gattai
drawn as the solver reads them; the default for canvases).

As a stress generator, `@gen ARGS` takes the seed as its last argument, like testlib's.";

/// Generates Sudoku puzzles with a given property, deterministically.
#[derive(Debug, Parser)]
#[command(name = "judge gen", after_help = AFTER_HELP)]
pub struct GenCli {
    /// 9x9, 16x16, samurai, twodoku, butterfly, flower or sohei.
    #[arg(long, value_name = "SHAPE", default_value = "9x9", value_parser = Shape::parse)]
    pub shape: Shape,

    /// poj, grids, spaced, lines, lines-end or canvas [default: poj; grids for 16x16; canvas
    /// for canvases].
    #[arg(short, long, value_name = "FORMAT", value_parser = Format::parse)]
    pub format: Option<Format>,

    /// Puzzles in the file (for poj, T).
    #[arg(short = 'n', long, value_name = "K", default_value_t = 1)]
    pub count: usize,

    /// Givens per puzzle, as near as can be reached (a note says when not).
    #[arg(long, value_name = "N")]
    pub clues: Option<usize>,

    /// With --clues: minimal puzzles (every given needed), as near N givens as found.
    #[arg(long, conflicts_with_all = ["any", "no_solution"])]
    pub minimal: bool,

    /// Exactly one solution each, proved by counting (the default).
    #[arg(long, conflicts_with_all = ["any", "no_solution"])]
    pub unique: bool,

    /// At least one solution; several allowed (for special judges).
    #[arg(long, conflicts_with = "no_solution")]
    pub any: bool,

    /// No solution: a given that clashes, or one that breaks no rule but leaves no completion.
    #[arg(long)]
    pub no_solution: bool,

    /// The byte for a blank cell: 0 or '.', or '-' for 16x16 [default: 0; '-' for 16x16].
    #[arg(long, value_name = "CHAR", value_parser = ["0", ".", "-"])]
    pub blank: Option<String>,

    /// Write to FILE instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// The random seed.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,

    /// The seed as a last word (testlib style); beats --seed.
    #[arg(value_name = "SEED")]
    pub seed_word: Option<u64>,
}

impl GenCli {
    pub fn options(&self) -> GenOptions {
        let default_format = match self.shape {
            Shape::Classic => Format::Poj,
            Shape::Sixteen => Format::Grids,
            _ => Format::Canvas,
        };
        let default_blank = if self.shape == Shape::Sixteen { "-" } else { "0" };
        GenOptions {
            shape: self.shape,
            format: self.format.unwrap_or(default_format),
            count: self.count,
            clues: self.clues,
            minimal: self.minimal,
            solutions: if self.no_solution {
                Solutions::None
            } else if self.any {
                Solutions::Any
            } else {
                Solutions::Unique
            },
            seed: self.seed_word.unwrap_or(self.seed),
            blank: self.blank.as_deref().unwrap_or(default_blank).as_bytes()[0],
        }
    }
}

/// `judge gen ARGS` (args without the program name); returns the exit status (0 done,
/// 2 usage, 3 the output could not be written).
/// `@gen ARGS`, the built-in generator a run starts: its words parsed here.
pub fn main(args: &[String]) -> i32 {
    match GenCli::try_parse_from(std::iter::once("judge gen".to_string()).chain(args.iter().cloned())) {
        Ok(cli) => run(cli),
        Err(e) => {
            let _ = e.print();
            if e.use_stderr() {
                2
            } else {
                0
            }
        }
    }
}

/// `judge gen`, its command line parsed; returns the exit status.
pub fn run(cli: GenCli) -> i32 {
    let generated = match gen::generate(&cli.options()) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("judge gen: {e}");
            return 2;
        }
    };
    for note in &generated.notes {
        eprintln!("judge gen: note: {note}");
    }
    let written = match &cli.output {
        Some(path) => {
            std::fs::write(path, &generated.bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
        }
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(&generated.bytes).and_then(|_| out.flush()).map_err(|e| format!("cannot write output: {e}"))
        }
    };
    match written {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("judge gen: {e}");
            3
        }
    }
}
