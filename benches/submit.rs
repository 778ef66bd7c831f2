//! Tailored files against the full solver: for each problem, the file `judge submit` writes
//! and `src/bin/sudoku.rs`, both compiled alone with `rustc --edition 2021 -O` as a judge
//! does, run whole process on that problem's input (its suite, and for the 9x9 problems a
//! public set in ../shared/data written the way the judge sends it, and inputs of its format
//! the judge does not promise: see `families`), interleaved, round after
//! round. Each row is the median over rounds of the total CPU time, and the ratio tailored /
//! full: the target is within 3% (0.97 to 1.03). Every output is compared with the full
//! file's. `cargo bench --bench submit` (add `-- --quick` for fewer rounds).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;
use sudoku_judge::exec::{self, Program};
use sudoku_judge::limits::Limits;
use sudoku_judge::problems::{Problem, PROBLEMS};

fn compile(source: &Path, out: &Path) {
    let status = Command::new(std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into()))
        .args(["--edition", "2021", "-O", "-o"])
        .arg(out)
        .arg(source)
        .status()
        .expect("rustc runs");
    assert!(status.success(), "{} does not compile", source.display());
}

/// The inputs of the cases tagged `name`.
fn suite(root: &Path, name: &str) -> Vec<PathBuf> {
    let cases = sudoku_judge::cases::discover(&[root.join("cases")]).expect("cases/ is readable");
    cases.into_iter().filter(|c| c.config.tags.iter().any(|t| t == name)).filter_map(|c| c.input).collect()
}

/// A public set (81-cell lines) written as `problem`'s judge sends puzzles, when the set is
/// there and the problem takes 9x9 grids.
fn public_set(root: &Path, problem: &Problem, dir: &Path) -> Option<PathBuf> {
    let text = std::fs::read_to_string(root.join("../shared/data/puzzles3_magictour_top1465")).ok()?;
    let lines: Vec<&str> = text.lines().filter(|l| l.len() == 81).collect();
    let grid = |l: &str, spaced: bool| -> String {
        let digits: Vec<char> = l.chars().map(|c| if c == '.' { '0' } else { c }).collect();
        digits
            .chunks(9)
            .map(|row| {
                let row: Vec<String> = row.iter().map(char::to_string).collect();
                row.join(if spaced { " " } else { "" }) + "\n"
            })
            .collect()
    };
    let body: String = match problem.name {
        "poj2676" => format!("{}\n{}", lines.len(), lines.iter().map(|l| grid(l, false)).collect::<String>()),
        "poj3074" | "acwing166" => {
            lines.iter().map(|l| format!("{}\n", l.replace('0', "."))).collect::<String>() + "end\n"
        }
        // Luogu sends one grid; a file of many, a blank line apart, times the same reading.
        "luogu1784" => lines.iter().map(|l| grid(l, true)).collect::<Vec<_>>().join("\n"),
        _ => return None,
    };
    let path = dir.join(format!("{}-top1465.txt", problem.name));
    std::fs::write(&path, body).expect("temporary file");
    Some(path)
}

/// Inputs in `problem`'s format that its judge does not promise (issue 34: no solution,
/// several solutions), where a file without the SAT engine stalled.
fn families(root: &Path, problem: &Problem) -> Vec<PathBuf> {
    let names: &[&str] = match problem.name {
        "poj2676" => &["poj2676/pigeonhole-no-solution-t6"],
        "poj3076" | "acwing169" => &["sixteen/dead-end-several-solutions", "sixteen/several-solutions-thinned"],
        _ => &[],
    };
    names.iter().map(|name| root.join("cases").join(name).join("input.txt")).collect()
}

thread_local! {
    /// The bench runs every program from its main thread, through this one runner (its
    /// launcher the judge executable, the sandbox at `auto`).
    static RUNNER: exec::Runner = exec::Runner::new(std::sync::Arc::new(exec::Setup::new(Path::new(env!("CARGO_BIN_EXE_judge")))));
}

/// CPU ms of one whole-process run of `program` on `input`, and its output.
fn run(program: &Path, input: &Path) -> (f64, Vec<u8>) {
    let program = Program { program: program.into(), args: Vec::new(), env: Vec::new() };
    let limits =
        Limits { time: Duration::from_secs(600), memory_kib: 1 << 30, output_bytes: 1 << 30, ..Limits::default() };
    let facts = RUNNER.with(|runner| exec::run(runner, &program, input, &limits));
    assert_eq!(facts.exit_code, Some(0), "{} failed on {}", program.program.to_string_lossy(), input.display());
    let mut out = Vec::new();
    std::io::Read::read_to_end(&mut facts.stdout.reader().expect("spooled output"), &mut out).expect("output");
    (facts.cpu_ms, out)
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let rounds = if quick { 3 } else { 11 };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().expect("temporary folder");
    let full = dir.path().join("full");
    compile(&root.join("src/bin/sudoku.rs"), &full);
    println!("| problem | file bytes | inputs | full, CPU ms | tailored, CPU ms | tailored / full |");
    println!("|---|---:|---:|---:|---:|---:|");
    for problem in &PROBLEMS {
        let text = sudoku_judge::submit::for_problem(problem).expect("the solver file tailors");
        let source = dir.path().join(format!("{}.rs", problem.name));
        std::fs::write(&source, &text).expect("temporary file");
        let tailored = dir.path().join(problem.name);
        compile(&source, &tailored);
        let mut inputs = suite(root, problem.name);
        inputs.extend(public_set(root, problem, dir.path()));
        inputs.extend(families(root, problem));
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for round in 0..rounds {
            let (mut full_ms, mut tailored_ms) = (0.0, 0.0);
            for input in &inputs {
                // Alternate which goes first, so neither always meets a warm cache.
                let order = if round % 2 == 0 { [&full, &tailored] } else { [&tailored, &full] };
                let outs: Vec<(f64, Vec<u8>)> = order.iter().map(|p| run(p, input)).collect();
                assert_eq!(outs[0].1, outs[1].1, "{}: outputs differ on {}", problem.name, input.display());
                let (f, t) = if round % 2 == 0 { (outs[0].0, outs[1].0) } else { (outs[1].0, outs[0].0) };
                full_ms += f;
                tailored_ms += t;
            }
            a.push(full_ms);
            b.push(tailored_ms);
        }
        let (f, t) = (median(a), median(b));
        println!("| {} | {} | {} | {f:.1} | {t:.1} | {:.3} |", problem.name, text.len(), inputs.len(), t / f);
    }
}
