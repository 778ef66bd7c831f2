//! Issue 40 item 4: the solver answers a case before it reads the lines after it, so its peak
//! memory does not grow with the input (100 MB of puzzles, 256 MiB of blank lines) nor with a
//! count. Peak RSS is measured on the solver compiled alone, as judges build it, fed through
//! a pipe by a thread that makes the input as it goes (nothing that size is stored); and the
//! window it reads through answers as a reader of the whole input does, at any read size.

use std::io::{Read, Write};
use std::path::Path;
use sudoku_judge::solver::{solve_all, solve_stream, Failure, Mode, Reader};

const MIB: u64 = 1 << 20;

/// Bytes of blank lines around a grid.
const BLANK: usize = 256 << 20;

/// Runs `program` with `args`, its stdin written by `feed` from another thread; its stdout
/// goes to `check` as it comes. Returns its exit status, stderr and peak RSS in bytes (from
/// `wait4`, for this child alone).
// The child is reaped by `wait4`, which std's `wait` cannot replace: it gives no rusage.
#[allow(clippy::zombie_processes)]
fn peak(
    program: &Path,
    args: &[&str],
    feed: impl FnOnce(&mut dyn Write) + Send + 'static,
    check: impl FnOnce(&mut dyn Read) + Send + 'static,
) -> (i32, String, u64) {
    let mut child = std::process::Command::new(program)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let writer = std::thread::spawn(move || {
        let mut sink = std::io::BufWriter::with_capacity(1 << 16, &mut stdin);
        feed(&mut sink);
        let _ = sink.flush();
    });
    let reader = std::thread::spawn(move || check(&mut stdout));
    let errors = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value for wait4 to fill in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child, which nothing else reaps; both pointers are valid.
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as libc::pid_t);
    writer.join().unwrap();
    reader.join().unwrap();
    let stderr = errors.join().unwrap();
    let code = if libc::WIFEXITED(status) { libc::WEXITSTATUS(status) } else { -1 };
    (code, stderr, usage.ru_maxrss as u64 * 1024)
}

/// A solved grid, as an 81-cell line.
const SOLVED: &[u8; 81] = b"143628579572139468986754231391542786468917352725863914237481695619275843854396127";

/// Writes `n` puzzle lines of `SOLVED`, each with one blank per row (so each has one solution
/// and is answered quickly), the blanks moving from line to line.
fn puzzle_lines(out: &mut dyn Write, n: usize) {
    let mut line = [0u8; 82];
    line[81] = b'\n';
    for i in 0..n {
        line[..81].copy_from_slice(SOLVED);
        for r in 0..9 {
            line[9 * r + (i + 4 * r) % 9] = if i % 2 == 0 { b'.' } else { b'0' };
        }
        if out.write_all(&line).is_err() {
            return;
        }
    }
}

/// Reads all of `input`, checking that it is `n` copies of the solved line.
fn answers_are_solved(input: &mut dyn Read, n: usize) {
    let mut answer = SOLVED.to_vec();
    answer.push(b'\n');
    let mut buf = vec![0u8; 82 * 1000];
    let mut seen = 0usize;
    let mut partial: Vec<u8> = Vec::new();
    loop {
        let got = input.read(&mut buf).unwrap();
        if got == 0 {
            break;
        }
        partial.extend_from_slice(&buf[..got]);
        let whole = partial.len() / 82 * 82;
        for chunk in partial[..whole].chunks_exact(82) {
            assert_eq!(chunk, &answer[..], "answer {}", seen + 1);
            seen += 1;
        }
        partial.drain(..whole);
    }
    assert!(partial.is_empty());
    assert_eq!(seen, n);
}

/// Blank lines made of spaces, tabs and carriage returns, `bytes` in all (less the part of a
/// line that would not fit).
fn whitespace(out: &mut dyn Write, bytes: usize) {
    let mut block = Vec::with_capacity(1 << 16);
    let mut k = 0usize;
    while block.len() < (1 << 16) - 64 {
        block.extend(std::iter::repeat(b' ').take(k % 7));
        block.extend(std::iter::repeat(b'\t').take(k % 3));
        if k % 5 == 0 {
            block.push(b'\r');
        }
        block.push(b'\n');
        k += 1;
    }
    let mut left = bytes;
    while left > 0 {
        // Whole lines only, so that what follows starts a line of its own (a GiB happened to
        // end on a line end; 256 MiB ends inside a line).
        let n = match left.checked_sub(block.len()) {
            Some(_) => block.len(),
            None => block[..left].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1),
        };
        if n == 0 || out.write_all(&block[..n]).is_err() {
            return;
        }
        left -= n;
    }
}

#[test]
fn peak_memory_does_not_grow_with_the_input() {
    let program = super::compiled::standalone();
    // 100 MB of puzzle lines.
    let n = 100_000_000 / 82;
    let (code, stderr, rss) =
        peak(&program, &[], move |out| puzzle_lines(out, n), move |answers| answers_are_solved(answers, n));
    assert_eq!(code, 0, "{stderr}");
    assert!(rss <= 32 * MIB, "100 MB of puzzles peaked at {} KiB", rss / 1024);
    // 256 MiB of blank lines after the one case T announces, then the same before it: eight
    // times the bound, where a reader that kept its input or its lines grows past it (300 MB
    // peaked at 288 MiB before issue 40, 256 MiB at 258 MiB; the test took 8 s of CPU with a
    // GiB each way, 2 s with this).
    let grid: String = SOLVED.chunks(9).map(|r| String::from_utf8_lossy(r).replacen('1', "0", 1) + "\n").collect();
    for before in [false, true] {
        let grid = grid.clone();
        let feed = move |out: &mut dyn Write| {
            let _ = out.write_all(b"1\n");
            if before {
                whitespace(out, BLANK);
            }
            let _ = out.write_all(grid.as_bytes());
            if !before {
                whitespace(out, BLANK);
            }
        };
        let check = |answers: &mut dyn Read| {
            let mut text = String::new();
            answers.read_to_string(&mut text).unwrap();
            let rows: String = SOLVED.chunks(9).map(|r| String::from_utf8_lossy(r) + "\n").collect();
            assert_eq!(text, rows);
        };
        let (code, stderr, rss) = peak(&program, &[], feed, check);
        assert_eq!(code, 0, "{stderr}");
        assert!(
            rss <= 32 * MIB,
            "{} MiB of blank lines (before the grid: {before}) peaked at {} KiB",
            BLANK >> 20,
            rss / 1024
        );
    }
}

/// A 16x16 grid with many solutions whose count goes through the SAT engine: each solution
/// found there was blocked by a clause of its 256 true variables, and nothing learnt was
/// forgotten after the first (44 MiB at 20,000). The clauses that block solutions still grow
/// with the count, some 60 literals each.
#[test]
fn a_count_does_not_keep_its_solutions() {
    let program = super::compiled::standalone();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("cases/sixteen/several-solutions-thinned/input.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let grid = text.split("\n\n").nth(GRID).unwrap().trim_end().to_string() + "\n";
    let feed = move |out: &mut dyn Write| {
        let _ = out.write_all(grid.as_bytes());
    };
    let check = |answers: &mut dyn Read| {
        let mut text = String::new();
        answers.read_to_string(&mut text).unwrap();
        assert_eq!(text, format!("{COUNT}\n"));
    };
    let (code, stderr, rss) = peak(&program, &[&format!("--count={COUNT}")], feed, check);
    assert_eq!(code, 0, "{stderr}");
    assert!(rss <= 16 * MIB, "--count={COUNT} peaked at {} KiB", rss / 1024);
}

const GRID: usize = 5;
const COUNT: u64 = 20_000;

/// Inputs longer than the window, with blank runs of every length, comments and CRLF between
/// their cases, and a fault at the end: at every read size the stream answers and fails as a
/// reader of the whole input does, at the same line.
#[test]
fn the_window_reads_as_the_whole_input_at_any_read_size() {
    let grid = "103000509\n002109400\n000704000\n300502006\n060000050\n700803004\n000401000\n009205800\n804000107\n";
    let line = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1\n";
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut inputs = Vec::new();
    for style in 0..3 {
        let mut body = String::new();
        let cases = 120;
        for k in 0..cases {
            let gap = match super::xorshift(&mut seed) % 6 {
                0 => 0,
                1 => 1,
                2 => 2,
                3 => 700,
                4 => (super::xorshift(&mut seed) % 40) as usize,
                _ => 300,
            };
            if k > 0 || style != 0 {
                for g in 0..gap {
                    body += match (g + k) % 4 {
                        0 => "\n",
                        1 => "  \t\r\n",
                        2 if style != 0 => "# a comment\n",
                        _ => "\r\n",
                    };
                }
            }
            body += if style == 1 { line } else { grid };
        }
        // The fault: a row of a grid cut short, after another blank run.
        body += &"\n".repeat(500);
        body += "12345\n";
        let input = match style {
            0 => format!("{}\n{body}", cases + 1),
            _ => body,
        };
        inputs.push(input);
    }
    for input in &inputs {
        // The whole input through one reader: the cases and the error.
        let mut reader = Reader::new(input.as_bytes());
        let mut cases = 0;
        let mut error = None;
        while let Some(case) = reader.next_case() {
            match case {
                Ok(_) => cases += 1,
                Err(e) => error = Some(e),
            }
        }
        let error = error.expect("the input ends in a fault");
        let (mut whole, mut notes) = (Vec::new(), Vec::new());
        let result = solve_all(input.as_bytes(), Mode::Solve, &mut whole, &mut notes);
        assert!(matches!(&result, Err(Failure::Input(e)) if *e == error), "{result:?} against {error}");
        assert_eq!(String::from_utf8_lossy(&whole).lines().count(), cases * if input.contains(line) { 1 } else { 9 });
        for chunk in [1, 7, 82, 4096] {
            let (mut out, mut notes) = (Vec::new(), Vec::new());
            let result = solve_stream(input.as_bytes(), chunk, Mode::Solve, &mut out, &mut notes);
            assert!(matches!(&result, Err(Failure::Input(e)) if *e == error), "chunk {chunk}: {result:?}");
            assert!(out == whole, "chunk {chunk}: the answers differ");
        }
    }
}
