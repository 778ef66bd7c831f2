//! The solver bench's yardsticks: our solver compiled alone the way a judge compiles it,
//! the `sudoku` crate (a JCZSolve port; AGPL, so a dev-dependency of the bench only, never
//! of the product) run whole-process through this bench binary itself, and tdoku built from
//! `../shared/peers/tdoku` by each compiler that is there (g++, clang).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Set on a re-run of the bench binary that should act as the crate's whole-process driver.
pub const CRATE_DRIVER: &str = "SUDOKU_BENCH_CRATE_DRIVER";

/// When this process was started as the crate's driver: reads 81-cell lines (`#` lines
/// skipped) on stdin and writes each first solution, or each count up to the limit given
/// in the variable, one line a puzzle; then exits.
pub fn act_as_crate_driver_if_asked() {
    let Some(limit) = std::env::var_os(CRATE_DRIVER) else { return };
    let limit: usize = limit.to_str().and_then(|l| l.parse().ok()).unwrap_or(1);
    let mut input = Vec::new();
    std::io::stdin().read_to_end(&mut input).expect("stdin");
    let mut out = Vec::with_capacity(input.len());
    for line in input.split(|&b| b == b'\n') {
        if line.len() < 81 || line[0] == b'#' {
            continue;
        }
        let text = std::str::from_utf8(&line[..81]).expect("ASCII puzzle line");
        let puzzle = sudoku::Sudoku::from_str_line(text).expect("a puzzle line the crate reads");
        if limit > 1 {
            writeln!(out, "{}", puzzle.solutions_count_up_to(limit)).unwrap();
        } else if let Some(solution) = puzzle.some_solution() {
            out.extend(solution.to_bytes().iter().map(|d| b'0' + d));
            out.push(b'\n');
        } else {
            out.extend_from_slice(b"no solution\n");
        }
    }
    std::io::stdout().write_all(&out).expect("stdout");
    std::process::exit(0);
}

/// `src/bin/sudoku.rs` compiled alone with `rustc --edition 2021 -O`, as judges do.
pub fn build_alone(root: &Path, dir: &Path) -> PathBuf {
    let out = dir.join("sudoku-alone");
    let status = Command::new(std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into()))
        .args(["--edition", "2021", "-O", "-o"])
        .arg(&out)
        .arg(root.join("src/bin/sudoku.rs"))
        .status()
        .expect("rustc runs");
    assert!(status.success(), "the solver does not compile alone");
    out
}

/// A build of tdoku: which compiler, and the script that builds it with that compiler.
pub struct TdokuBuild {
    /// The name the peer table shows.
    pub name: &'static str,
    script: &'static str,
    /// The binary's file name in the scratch folder.
    out: &'static str,
}

/// tdoku's builds, one a compiler: g++ (`build.sh`) and clang (`build-clang.sh`, which finds
/// clang++ or clang++-21..14 on PATH, or zig's clang). tdoku's own README measures with clang,
/// whose build takes some 15% less CPU than g++'s, so the ratio is to the faster of the two.
pub const TDOKU_BUILDS: [TdokuBuild; 2] = [
    TdokuBuild { name: "tdoku (g++ -O3 -march=native)", script: "build.sh", out: "tdoku-gcc" },
    TdokuBuild { name: "tdoku (clang -O3 -march=native)", script: "build-clang.sh", out: "tdoku-clang" },
];

/// tdoku built by the script of `build`, or why not (a missing compiler, or the build failed).
pub fn build_tdoku(root: &Path, dir: &Path, build: &TdokuBuild) -> Result<PathBuf, String> {
    let script = root.join("../shared/peers/tdoku").join(build.script);
    if !script.is_file() {
        return Err(format!("{} is missing", script.display()));
    }
    let out = dir.join(build.out);
    let built = Command::new("bash").arg(&script).arg(&out).output().map_err(|e| e.to_string())?;
    if !built.status.success() {
        let why = String::from_utf8_lossy(&built.stderr);
        let why = why.trim();
        return Err(if why.is_empty() { format!("{} failed", build.script) } else { why.to_string() });
    }
    Ok(out)
}
