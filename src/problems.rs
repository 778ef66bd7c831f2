//! The Sudoku problems of real judges, each with its judge's limits and checker and the exact
//! input format that judge sends: `judge --problem poj2676` runs that problem's suite (the
//! cases tagged with its name) the way its judge would.
//!
//! The format check ([`Problem::obeys`]) is what keeps a suite honest: the case-corpus test
//! requires every case tagged with a problem to obey that problem's format, so a suite never
//! holds an input its judge could not send (a BOM, dots in POJ 2676, a missing `end`).

use crate::cases::checker::CheckerKind;
use std::time::Duration;

/// A problem of a real judge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The tag of its suite and the name `--problem` takes.
    pub name: &'static str,
    /// Where it is and what it sends, for `--help` and error messages.
    pub title: &'static str,
    pub time_limit: Duration,
    pub memory_kib: u64,
    pub checker: CheckerKind,
    /// Whether its judge promises a unique solution (else any valid solution is right).
    pub unique: bool,
    format: Format,
    /// What a submission to its judge meets.
    pub submission: Submission,
}

/// What a judge asks of a submitted source, as far as its pages were captured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Submission {
    /// The judge that hosts the problem, for messages; empty when none does.
    pub judge: &'static str,
    /// The largest source it accepts, in bytes, and where that figure comes from; `None`:
    /// not captured (or no judge).
    pub source_limit: Option<(u64, &'static str)>,
    /// Whether it takes Rust: `Some(false)` for judges that take none (POJ), `None` when
    /// not captured.
    pub takes_rust: Option<bool>,
    /// The languages it takes, for people.
    pub languages: &'static str,
    /// How it builds a Rust or a C++ source (`{src}`, `{out}`), where known.
    pub rust_build: Option<&'static str>,
    pub cpp_build: Option<&'static str>,
    /// What it wants printed for a case without solution, where it says.
    pub unsolvable: Option<&'static str>,
}

const POJ_SUBMISSION: Submission = Submission {
    judge: "POJ",
    source_limit: None,
    takes_rust: Some(false),
    languages: "C, C++, Java, Pascal, Fortran",
    rust_build: None,
    cpp_build: Some("g++ -O2 -DONLINE_JUDGE -o {out} {src}"),
    unsolvable: None,
};

/// SPOJ's guide: "Source code length is restricted to 50 000 bytes in a one file".
const SPOJ_LIMIT: (u64, &str) = (50_000, "SPOJ's guide: at most 50 000 bytes in one file");

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    /// `T`, then T grids of 9 lines of 9 digits, `0` blank.
    CountThenGrids,
    /// Lines of 81 cells, `.` blank, then a line `end`.
    LinesThenEnd,
    /// One grid of 9 lines of 9 digits separated by single spaces, `0` blank.
    SpacedGrid,
    /// One Samurai canvas: 21 lines, the four corner grids and the centre one drawn.
    SamuraiCanvas,
    /// 16x16 grids of 16 lines of `A`-`P` and `-`, a blank line between two grids; with
    /// `counted`, a first line K (1 to 10) and then K grids.
    Letters { counted: bool },
}

const MIB: u64 = 1024;

const POJ3074: Problem = Problem {
    name: "poj3074",
    title: "POJ 3074 Sudoku: 81-cell lines with '.' blanks, then 'end'",
    time_limit: Duration::from_millis(1000),
    memory_kib: 64 * MIB,
    checker: CheckerKind::Sudoku,
    unique: true,
    format: Format::LinesThenEnd,
    submission: POJ_SUBMISSION,
};

const POJ3076: Problem = Problem {
    name: "poj3076",
    title: "POJ 3076 Sudoku 16x16: grids of 16 letter lines, '-' blanks, a blank line apart \
            (limits as commonly cited, not verified)",
    time_limit: Duration::from_millis(10_000),
    memory_kib: 64 * MIB,
    checker: CheckerKind::Sudoku,
    unique: true,
    format: Format::Letters { counted: false },
    submission: POJ_SUBMISSION,
};

/// Every problem `--problem` knows, with the limits its judge states.
pub const PROBLEMS: [Problem; 8] = [
    Problem {
        name: "poj2676",
        title: "POJ 2676 Sudoku: T, then T grids of 9 digit lines; special judge",
        time_limit: Duration::from_millis(2000),
        memory_kib: 64 * MIB,
        checker: CheckerKind::Sudoku,
        unique: false,
        format: Format::CountThenGrids,
        submission: POJ_SUBMISSION,
    },
    POJ3074,
    // AcWing 166 is POJ 3074 again: the same input, limits and promise.
    Problem { name: "acwing166", title: "AcWing 166 Sudoku: as POJ 3074", submission: ACWING_SUBMISSION, ..POJ3074 },
    Problem {
        name: "luogu1784",
        title: "Luogu P1784 Sudoku: one grid of 9 lines of 9 spaced digits",
        time_limit: Duration::from_millis(1000),
        memory_kib: 128 * MIB,
        checker: CheckerKind::Sudoku,
        unique: true,
        format: Format::SpacedGrid,
        submission: Submission {
            judge: "Luogu",
            source_limit: None,
            takes_rust: Some(true),
            languages: "C, C++, Python, Java, Rust and more; build flags not captured",
            rust_build: None,
            cpp_build: Some("g++ -O2 -std=gnu++17 -DONLINE_JUDGE -o {out} {src}"),
            unsolvable: None,
        },
    },
    Problem {
        name: "samurai",
        title: "Samurai: one 21x21 canvas of five grids (this project's format)",
        time_limit: Duration::from_millis(2000),
        memory_kib: 64 * MIB,
        checker: CheckerKind::Sudoku,
        unique: true,
        format: Format::SamuraiCanvas,
        submission: Submission {
            judge: "",
            source_limit: None,
            takes_rust: None,
            languages: "any",
            rust_build: None,
            cpp_build: None,
            unsolvable: None,
        },
    },
    POJ3076,
    // AcWing 169 is POJ 3076 again.
    Problem { name: "acwing169", title: "AcWing 169 Sudoku 2: as POJ 3076", submission: ACWING_SUBMISSION, ..POJ3076 },
    // SPOJ's page was not captured: the limits are POJ 3076's until someone checks them.
    Problem {
        name: "spoj-sudoku",
        title: "SPOJ SUDOKU: K (at most 10), then K 16x16 grids a blank line apart (limits not verified)",
        format: Format::Letters { counted: true },
        submission: Submission {
            judge: "SPOJ",
            source_limit: Some(SPOJ_LIMIT),
            takes_rust: Some(true),
            languages: "some 40 languages, Rust among them; build flags not captured",
            rust_build: None,
            cpp_build: None,
            unsolvable: None,
        },
        ..POJ3076
    },
];

/// AcWing mirrors POJ's problems, and takes Rust.
const ACWING_SUBMISSION: Submission = Submission {
    judge: "AcWing",
    source_limit: None,
    takes_rust: Some(true),
    languages: "C++, C, Java, Python, Go, JavaScript, Rust and more; build flags not captured",
    rust_build: None,
    cpp_build: None,
    unsolvable: None,
};

/// The problem named `name`; the error lists the ones there are.
pub fn find(name: &str) -> Result<Problem, String> {
    PROBLEMS.iter().copied().find(|p| p.name == name).ok_or_else(|| {
        let names: Vec<&str> = PROBLEMS.iter().map(|p| p.name).collect();
        format!("unknown problem '{name}': use one of {}", names.join(", "))
    })
}

/// What `judge --problem` alone prints: one line per problem, its name, limits and what its
/// judge sends.
pub fn listing() -> String {
    let mut out = String::from("Problems (judge --problem NAME -- YOUR_PROGRAM):\n");
    for p in PROBLEMS {
        let time = p.time_limit.as_millis();
        out += &format!("  {:<12} {time:>5} ms {:>4} MiB  {}\n", p.name, p.memory_kib / MIB, p.title);
    }
    out
}

impl Problem {
    /// The parts of the solver file a submission to this problem leaves out (see
    /// [`crate::submit`]): a judge passes no arguments and reads no stderr, and each input
    /// style needs only its engines. Every file keeps the SAT engine: without it a search
    /// that outruns its guess budget stalled for seconds where the full file answers at once,
    /// and printed another first solution (issue 34).
    pub fn without(&self) -> &'static [&'static str] {
        match self.format {
            Format::CountThenGrids | Format::LinesThenEnd | Format::SpacedGrid => {
                &["cli", "notes", "sixteen", "canvas"]
            }
            Format::SamuraiCanvas => &["cli", "notes", "sixteen", "chains"],
            Format::Letters { .. } => &["cli", "notes", "nine", "canvas"],
        }
    }

    /// Whether `input` is exactly what this problem's judge sends: every line ends in `\n`,
    /// no CR, no BOM, no blank or comment lines. The error says where it first differs.
    pub fn obeys(&self, input: &[u8]) -> Result<(), String> {
        let Some(body) = input.strip_suffix(b"\n") else {
            return Err("the input does not end with a newline".into());
        };
        let lines: Vec<&[u8]> = body.split(|&b| b == b'\n').collect();
        let line_is =
            |n: usize, ok: bool, what: &str| if ok { Ok(()) } else { Err(format!("line {}: expected {what}", n + 1)) };
        let digits = |l: &[u8], allowed: &dyn Fn(u8) -> bool| l.iter().all(|&b| allowed(b));
        match self.format {
            Format::CountThenGrids => {
                let t = std::str::from_utf8(lines[0])
                    .ok()
                    .filter(|t| !t.starts_with('0') && digits(lines[0], &|b| b.is_ascii_digit()));
                let t: usize =
                    t.and_then(|t| t.parse().ok()).ok_or("line 1: expected the number of cases, 1 or more")?;
                line_is(lines.len(), lines.len() == 1 + 9 * t, &format!("{} lines in all, for {t} cases", 1 + 9 * t))?;
                for (n, l) in lines.iter().enumerate().skip(1) {
                    line_is(n, l.len() == 9 && digits(l, &|b| b.is_ascii_digit()), "9 digits 0-9")?;
                }
            }
            Format::LinesThenEnd => {
                let (last, puzzles) = lines.split_last().unwrap_or((&lines[0], &[]));
                line_is(lines.len() - 1, *last == b"end" && !puzzles.is_empty(), "'end' after one puzzle or more")?;
                for (n, l) in puzzles.iter().enumerate() {
                    line_is(
                        n,
                        l.len() == 81 && digits(l, &|b| b == b'.' || (b'1'..=b'9').contains(&b)),
                        "81 cells of 1-9 or '.'",
                    )?;
                }
            }
            Format::SpacedGrid => {
                line_is(lines.len().min(9), lines.len() == 9, "9 lines in all")?;
                for (n, l) in lines.iter().enumerate() {
                    let spaced = l.len() == 17
                        && l.iter().enumerate().all(|(i, &b)| if i % 2 == 0 { b.is_ascii_digit() } else { b == b' ' });
                    line_is(n, spaced, "9 digits 0-9 separated by single spaces")?;
                }
            }
            Format::SamuraiCanvas => {
                line_is(lines.len().min(21), lines.len() == 21, "21 lines in all")?;
                for (n, l) in lines.iter().enumerate() {
                    let want: Vec<bool> = (0..21).map(|c| samurai_cell(n, c)).collect();
                    let width = want.iter().rposition(|&d| d).map_or(0, |i| i + 1);
                    let ok = l.len() == width
                        && l.iter().zip(&want).all(|(&b, &d)| if d { b.is_ascii_digit() } else { b == b' ' });
                    line_is(n, ok, "the Samurai's digits, spaces where no grid is, nothing after the last digit")?;
                }
            }
            Format::Letters { counted } => {
                let mut grids = lines.as_slice();
                let mut k = None;
                if counted {
                    let t = std::str::from_utf8(lines[0]).ok().and_then(|t| t.parse::<usize>().ok());
                    let t = t.filter(|&t| (1..=10).contains(&t) && lines[0].len() == t.to_string().len());
                    k = Some(t.ok_or("line 1: expected the number of grids, 1 to 10")?);
                    grids = &lines[1..];
                }
                let first = usize::from(counted);
                let n = (grids.len() + 1) / 17;
                line_is(
                    first + grids.len(),
                    n >= 1 && grids.len() == 17 * n - 1,
                    "whole 16-line grids, a blank line apart",
                )?;
                if let Some(k) = k {
                    line_is(first, k == n, &format!("{k} grids, as line 1 says"))?;
                }
                for (i, l) in grids.iter().enumerate() {
                    let (n, ok) = (
                        first + i,
                        if i % 17 == 16 {
                            l.is_empty()
                        } else {
                            l.len() == 16 && digits(l, &|b| b == b'-' || (b'A'..=b'P').contains(&b))
                        },
                    );
                    line_is(
                        n,
                        ok,
                        if i % 17 == 16 { "a blank line between two grids" } else { "16 cells of A-P or '-'" },
                    )?;
                }
            }
        }
        Ok(())
    }
}

/// Whether row `r`, column `c` of a 21x21 Samurai canvas belongs to one of its five grids.
fn samurai_cell(r: usize, c: usize) -> bool {
    let corner = |r: usize, c: usize| !(9..12).contains(&r) && !(9..12).contains(&c);
    let centre = (6..15).contains(&r) && (6..15).contains(&c);
    corner(r, c) || centre
}

#[cfg(test)]
mod tests {
    use super::*;

    const GRID: &str =
        "103000509\n002109400\n000704000\n300502006\n060000050\n700803004\n000401000\n009205800\n804000107\n";

    #[test]
    fn poj2676_takes_a_count_and_digit_grids_only() {
        let p = find("poj2676").unwrap();
        assert_eq!(p.obeys(format!("1\n{GRID}").as_bytes()), Ok(()));
        assert_eq!(p.obeys(format!("2\n{GRID}{GRID}").as_bytes()), Ok(()));
        assert!(p.obeys(format!("2\n{GRID}").as_bytes()).unwrap_err().contains("19 lines"));
        assert!(p.obeys(format!("1\n{}", GRID.replace('0', ".")).as_bytes()).unwrap_err().starts_with("line 2"));
        assert!(p.obeys(format!("\u{feff}1\n{GRID}").as_bytes()).is_err(), "a BOM");
        assert!(p.obeys(format!("1\r\n{GRID}").as_bytes()).is_err(), "a CR");
        assert!(p.obeys(format!("1\n{GRID}").trim_end().as_bytes()).is_err(), "no final newline");
        assert!(p.obeys(b"0\n").is_err(), "no cases");
    }

    #[test]
    fn poj3074_takes_dotted_lines_and_end() {
        let line = format!("{}\n", "1".repeat(9) + &".".repeat(72));
        let p = find("poj3074").unwrap();
        assert_eq!(p.obeys(format!("{line}{line}end\n").as_bytes()), Ok(()));
        assert!(p.obeys(line.as_bytes()).is_err(), "no end");
        assert!(p.obeys(b"end\n").is_err(), "no puzzle");
        assert!(p.obeys(format!("{}end\n", line.replace('.', "0")).as_bytes()).is_err(), "zeros");
        assert!(p.obeys(format!("#c\n{line}end\n").as_bytes()).is_err(), "a comment");
    }

    #[test]
    fn luogu1784_takes_one_spaced_grid() {
        let spaced: String =
            GRID.lines().map(|l| l.chars().map(String::from).collect::<Vec<_>>().join(" ") + "\n").collect();
        let p = find("luogu1784").unwrap();
        assert_eq!(p.obeys(spaced.as_bytes()), Ok(()));
        assert!(p.obeys(GRID.as_bytes()).is_err());
        assert!(p.obeys(spaced.replace(" 0", "  0").as_bytes()).is_err());
        assert!(p.obeys(format!("{spaced}{spaced}").as_bytes()).is_err(), "one grid only");
    }

    #[test]
    fn samurai_takes_the_bundled_canvas_shape() {
        let p = find("samurai").unwrap();
        let seed = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/cases/samurai/seed/input.txt")).unwrap();
        assert_eq!(p.obeys(&seed), Ok(()));
        let text = String::from_utf8(seed).unwrap();
        assert!(p.obeys(text.replacen("   ", "000", 1).as_bytes()).is_err(), "a digit in the void");
        assert!(p.obeys(text.replacen('\n', " \n", 1).as_bytes()).is_err(), "a trailing space");
        assert!(find("poj2676").unwrap().obeys(text.as_bytes()).is_err());
    }

    #[test]
    fn poj3076_and_spoj_take_letter_grids_a_blank_line_apart() {
        let grid = format!("{}{}", "ABCDEFGHIJKLMNOP\n".repeat(8), "----------------\n".repeat(8));
        let poj = find("poj3076").unwrap();
        assert_eq!(poj.obeys(grid.as_bytes()), Ok(()));
        assert_eq!(poj.obeys(format!("{grid}\n{grid}").as_bytes()), Ok(()));
        assert!(poj.obeys(format!("{grid}{grid}").as_bytes()).is_err(), "no blank line between");
        assert!(poj.obeys(format!("{grid}\n").as_bytes()).is_err(), "a trailing blank line");
        assert!(poj.obeys(grid.replacen('-', ".", 1).as_bytes()).unwrap_err().starts_with("line 9"));
        assert!(poj.obeys(format!("1\n{grid}").as_bytes()).is_err(), "a count");
        let spoj = find("spoj-sudoku").unwrap();
        assert_eq!(spoj.obeys(format!("2\n{grid}\n{grid}").as_bytes()), Ok(()));
        assert!(spoj.obeys(format!("3\n{grid}\n{grid}").as_bytes()).unwrap_err().contains("3 grids"));
        assert!(spoj.obeys(grid.as_bytes()).is_err(), "no count");
        assert!(spoj.obeys(format!("11\n{grid}").as_bytes()).is_err(), "at most 10");
    }

    #[test]
    fn unknown_problems_list_the_known_ones() {
        assert!(find("poj9999").unwrap_err().contains("poj2676, poj3074, acwing166, luogu1784, samurai, poj3076"));
    }
}
