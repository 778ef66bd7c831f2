//! Solver benchmark. First table: whole process, CPU µs a puzzle, our solver compiled alone
//! as a judge compiles it against the two fastest solvers known (the `sudoku` crate and
//! tdoku, built by g++ and by clang where each is installed: see support/peers.rs), in one
//! run, with the ratio to the fastest peer build; the target is 0.80 or less on every row. Second table: µs per puzzle and puzzles per second, whole
//! process and in-process, on every public set in ../shared/data and the Samurai cases,
//! against a plain MRV baseline in the same run. Figures are medians of several runs; compare them as ratios within one run
//! (these machines are shared and noisy). `cargo bench --bench solver` (add `-- --quick` for
//! one run per figure and smaller baseline samples, `-- --peers` for the first table only).
//!
//! Whole process = the built `sudoku` binary reading the set from stdin and writing every
//! answer, timed by CPU time (user + system) and peak RSS from the harness's own wait4-based
//! runner. Each output is validated by the `sudoku` checker before its figure counts.

#[path = "support/baseline.rs"]
mod baseline;
#[path = "support/peers.rs"]
mod peers;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use sudoku_judge::exec::{self, Facts, Program};
use sudoku_judge::limits::Limits;
use sudoku_judge::solver::{Puzzle, Reader, Solver};
use sudoku_judge::sudoku_check;
use sudoku_judge::verdict::CheckOutcome;

thread_local! {
    /// The bench runs every program from its main thread, through this one runner (its
    /// launcher the judge executable, the sandbox at `auto`).
    static RUNNER: exec::Runner = exec::Runner::new(std::sync::Arc::new(exec::Setup::new(Path::new(env!("CARGO_BIN_EXE_judge")))));
}

/// `program` run on `file` under `limits`.
fn run(program: &Program, file: &Path, limits: &Limits) -> Facts {
    RUNNER.with(|runner| exec::run(runner, program, file, limits))
}

/// (file, short name, target whole-process µs a puzzle from the issue, if any)
const SETS: [(&str, &str, Option<f64>); 5] = [
    ("puzzles2_17_clue", "17-clue", Some(1.8)),
    ("puzzles3_magictour_top1465", "top1465", None),
    ("puzzles5_forum_hardest_1905_11+", "forum hardest 11+", Some(25.0)),
    ("puzzles6_forum_hardest_1106", "forum hardest 1106", None),
    ("puzzles7_serg_benchmark", "serg (multi-solution)", None),
];

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn puzzles(input: &[u8]) -> Vec<Puzzle> {
    let mut reader = Reader::new(input);
    std::iter::from_fn(|| reader.next_case()).map(|p| p.expect("benchmark sets are well-formed")).collect()
}

/// Whole process: (median CPU ms, peak RSS KiB, whether the RSS figure is exact).
fn whole_process(sudoku: &Path, file: &Path, runs: usize) -> (f64, u64, bool) {
    let program = Program { program: sudoku.into(), args: Vec::new(), env: Vec::new() };
    let limits =
        Limits { time: Duration::from_secs(600), memory_kib: 1 << 30, output_bytes: 1 << 30, ..Limits::default() };
    let mut cpu = Vec::new();
    // Each run's figure is the true peak or an upper bound on it (see exec): the smallest is
    // the tightest, and exact if any run's was.
    let mut peak = (u64::MAX, false);
    for _ in 0..runs {
        let facts = run(&program, file, &limits);
        assert_eq!(facts.exit_code, Some(0), "sudoku failed on {}", file.display());
        // Read the input only now, and drop it and the output before the next run.
        let input = std::fs::read(file).expect("readable set");
        // A case folder's expected output vouches for its 'no solution' answers.
        let expected = std::fs::read(file.with_file_name("expected.txt")).ok();
        let mut output = facts.stdout.reader().expect("the spooled output is readable");
        let mut expected = expected.as_deref();
        let expected = expected.as_mut().map(|e| e as &mut dyn std::io::BufRead);
        assert_eq!(
            sudoku_check::check(&input, &mut output, expected),
            CheckOutcome::Accepted,
            "wrong answers on {}",
            file.display()
        );
        cpu.push(facts.cpu_ms);
        if (facts.peak_rss_kib, !facts.peak_rss_exact) < (peak.0, !peak.1) {
            peak = (facts.peak_rss_kib, facts.peak_rss_exact);
        }
    }
    (median(cpu), peak.0, peak.1)
}

/// Peak RSS of one whole-process run whose output is discarded (through `sh -c 'exec ...'`,
/// which replaces itself with the solver), so that this process stays as small as it was
/// and the figure is exact whenever the solver needs more than this process holds.
fn peak_memory(sudoku: &Path, file: &Path) -> (u64, bool) {
    let program = Program {
        program: "sh".into(),
        args: vec!["-c".into(), "exec \"$0\" > /dev/null".into(), sudoku.into()],
        env: Vec::new(),
    };
    let limits =
        Limits { time: Duration::from_secs(600), memory_kib: 1 << 30, output_bytes: 1 << 20, ..Limits::default() };
    let facts = run(&program, file, &limits);
    assert_eq!(facts.exit_code, Some(0), "sudoku failed on {}", file.display());
    (facts.peak_rss_kib, facts.peak_rss_exact)
}

/// In-process: median µs a puzzle over `runs` runs of solving every puzzle.
fn in_process(all: &[Puzzle], runs: usize) -> f64 {
    let mut solver = Solver::new();
    let times = (0..runs)
        .map(|_| {
            let start = Instant::now();
            for p in all {
                std::hint::black_box(solver.solve(std::hint::black_box(p)));
            }
            start.elapsed().as_secs_f64() * 1e6 / all.len() as f64
        })
        .collect();
    median(times)
}

/// The baseline on the same puzzles: median µs a puzzle.
fn baseline_us(all: &[Puzzle], runs: usize) -> f64 {
    let times = (0..runs)
        .map(|_| {
            let start = Instant::now();
            for p in all {
                let mut grid = [0u8; 81];
                grid.copy_from_slice(&p.givens);
                assert!(baseline::solve(&mut grid), "the baseline found no solution");
            }
            start.elapsed().as_secs_f64() * 1e6 / all.len() as f64
        })
        .collect();
    median(times)
}

/// A solver for the peer table: its name and how to run it with a solution limit.
struct Contender {
    name: &'static str,
    program: Box<dyn Fn(usize) -> Program>,
}

/// The peer table's rows: (set file, name, solution limit: 1 solves, 2 proves uniqueness).
const PEER_ROWS: [(&str, &str, usize); 7] = [
    ("puzzles2_17_clue", "17-clue", 1),
    ("puzzles3_magictour_top1465", "top1465", 1),
    ("puzzles5_forum_hardest_1905_11+", "forum hardest 11+", 1),
    ("puzzles6_forum_hardest_1106", "forum hardest 1106", 1),
    ("puzzles7_serg_benchmark", "serg (multi-solution)", 1),
    ("puzzles2_17_clue", "17-clue, uniqueness (count to 2)", 2),
    ("puzzles5_forum_hardest_1905_11+", "forum hardest 11+, uniqueness", 2),
];

/// Whole process, runs interleaved: median CPU µs a puzzle for each contender. Every first
/// solution is validated by the sudoku checker; every count must agree across contenders.
fn peer_row(contenders: &[Contender], file: &Path, limit: usize, runs: usize) -> Vec<f64> {
    let input = std::fs::read(file).expect("readable set");
    let puzzles = input.split(|&b| b == b'\n').filter(|l| l.len() >= 81 && l[0] != b'#').count();
    let limits =
        Limits { time: Duration::from_secs(600), memory_kib: 1 << 30, output_bytes: 1 << 30, ..Limits::default() };
    let mut times = vec![Vec::new(); contenders.len()];
    let mut counts: Option<Vec<u8>> = None;
    for _ in 0..runs {
        for (c, contender) in contenders.iter().enumerate() {
            let facts = run(&(contender.program)(limit), file, &limits);
            assert_eq!(facts.exit_code, Some(0), "{} failed on {}", contender.name, file.display());
            if limit == 1 {
                let mut output = facts.stdout.reader().expect("the spooled output is readable");
                let outcome = sudoku_check::check(&input, &mut output, None);
                assert_eq!(outcome, CheckOutcome::Accepted, "{} on {}", contender.name, file.display());
            } else {
                let output = facts.stdout.read_all().expect("the spooled output is readable");
                assert_eq!(
                    output.iter().filter(|&&b| b == b'\n').count(),
                    puzzles,
                    "{}: one count a puzzle",
                    contender.name
                );
                match &counts {
                    Some(first) => {
                        assert!(first == &output, "{} counts differently on {}", contender.name, file.display())
                    }
                    None => counts = Some(output),
                }
            }
            times[c].push(facts.cpu_ms * 1000.0 / puzzles as f64);
        }
    }
    times.into_iter().map(median).collect()
}

/// Start-up: our solver built alone on a one-puzzle input against `/bin/true` (where it is),
/// whole process, runs interleaved: medians of each and of the paired differences, in µs.
fn startup_row(alone: &Path, input: &Path, runs: usize) {
    let floor = Path::new("/bin/true");
    if !floor.is_file() {
        println!("start-up is not measured: /bin/true is missing\n");
        return;
    }
    let limits =
        Limits { time: Duration::from_secs(60), memory_kib: 1 << 30, output_bytes: 1 << 20, ..Limits::default() };
    let cpu_us = |program: &Path| {
        let facts = run(&Program { program: program.into(), args: Vec::new(), env: Vec::new() }, input, &limits);
        assert_eq!(facts.exit_code, Some(0), "{} failed on {}", program.display(), input.display());
        facts.cpu_ms * 1000.0
    };
    let (mut ours, mut floors, mut diffs) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..runs {
        let (o, f) = (cpu_us(alone), cpu_us(floor));
        ours.push(o);
        floors.push(f);
        diffs.push(o - f);
    }
    println!(
        "Start-up, whole process, one POJ puzzle (cases/poj2676/sample), median of {runs} interleaved runs: \
         ours (rustc -O) {:.0} µs CPU, /bin/true {:.0} µs, paired difference {:.0} µs (target ≤ 150)\n",
        median(ours),
        median(floors),
        median(diffs)
    );
}

/// Ours over the fastest peer (every build of every peer), whole process: issue 26's bound.
const TARGET: f64 = 0.80;

fn peer_table(root: &Path, data: &Path, runs: usize) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("peers");
    std::fs::create_dir_all(&dir).expect("a scratch folder for the peers");
    let alone = peers::build_alone(root, &dir);
    startup_row(&alone, &root.join("cases/poj2676/sample/input.txt"), if runs > 1 { 400 } else { 40 });
    let me = std::env::current_exe().expect("the bench binary's own path");
    let mut contenders = vec![
        Contender {
            name: "ours (rustc -O)",
            program: Box::new(move |limit| Program {
                program: alone.clone().into(),
                args: if limit > 1 { vec![format!("--count={limit}").into()] } else { Vec::new() },
                env: Vec::new(),
            }),
        },
        Contender {
            name: "sudoku crate",
            program: Box::new(move |limit| Program {
                program: me.clone().into(),
                args: Vec::new(),
                env: vec![(peers::CRATE_DRIVER.into(), limit.to_string().into())],
            }),
        },
    ];
    let mut found = Vec::new();
    for build in &peers::TDOKU_BUILDS {
        match peers::build_tdoku(root, &dir, build) {
            Ok(tdoku) => {
                found.push(build.name);
                contenders.push(Contender {
                    name: build.name,
                    program: Box::new(move |limit| Program {
                        program: tdoku.clone().into(),
                        args: vec![limit.to_string().into()],
                        env: Vec::new(),
                    }),
                })
            }
            Err(why) => println!("{} is left out of this run: {why}", build.name),
        }
    }
    println!("tdoku builds found: {}\n", if found.is_empty() { "none".to_string() } else { found.join(", ") });
    println!("Whole process, CPU µs a puzzle (median of {runs} interleaved runs); target: ours / best ≤ {TARGET:.2}\n");
    let names: Vec<&str> = contenders.iter().map(|c| c.name).collect();
    println!("| set | {} | ours / best | best peer | target |", names.join(" | "));
    println!("|---|{}---:|---|---|", "---:|".repeat(names.len()));
    for (file, name, limit) in PEER_ROWS {
        let us = peer_row(&contenders, &data.join(file), limit, runs);
        let (best, best_name) =
            us[1..].iter().zip(&names[1..]).fold((f64::INFINITY, ""), |b, (&u, &n)| if u < b.0 { (u, n) } else { b });
        let ratio = us[0] / best;
        let cells: Vec<String> = us.iter().map(|u| format!("{u:.2}")).collect();
        let verdict = if ratio <= TARGET {
            "met".to_string()
        } else {
            format!("not met ({:.1}% over)", (ratio / TARGET - 1.0) * 100.0)
        };
        println!("| {name} | {} | {ratio:.2} | {best_name} | {verdict} |", cells.join(" | "));
    }
    println!();
}

fn main() {
    peers::act_as_crate_driver_if_asked();
    let quick = std::env::args().any(|a| a == "--quick");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let data = root.join("../shared/data");
    if !data.is_dir() {
        // Exit non-zero: a bench that measured nothing must not look like one that passed.
        eprintln!(
            "solver bench: the puzzle sets are missing: expected {} (the shared data folder \
             beside this repository, with puzzles2_17_clue and the other sets; see README)",
            data.display()
        );
        std::process::exit(2);
    }
    let sudoku = PathBuf::from(env!("CARGO_BIN_EXE_sudoku"));
    let runs = if quick { 1 } else { 5 };
    let sample = if quick { 20 } else { 200 };
    peer_table(root, &data, runs);
    if std::env::args().any(|a| a == "--peers") {
        return;
    }

    // Whole-process runs first, while this process is small (the launcher makes figures
    // independent of it now, but a small process costs nothing).
    let samurai_files: Vec<PathBuf> = {
        let mut v: Vec<PathBuf> = std::fs::read_dir(root.join("cases/samurai"))
            .expect("cases/samurai")
            .flatten()
            .map(|e| e.path().join("input.txt"))
            // The row times solvable Samurai; proofs of 'no solution' are the tests' business.
            .filter(|input| {
                !std::fs::read_to_string(input.with_file_name("expected.txt"))
                    .unwrap_or_default()
                    .contains("no solution")
            })
            .collect();
        v.sort();
        v
    };
    let memory: Vec<(u64, bool)> = SETS.iter().map(|(file, _, _)| peak_memory(&sudoku, &data.join(file))).collect();
    let startup = whole_process(&sudoku, &root.join("cases/poj2676/sample/input.txt"), runs);
    let samurai_whole: Vec<f64> = samurai_files.iter().map(|f| whole_process(&sudoku, f, runs).0 * 1000.0).collect();
    // Smallest sets first, for the same reason: each run leaves this process a little larger.
    let mut order: Vec<usize> = (0..SETS.len()).collect();
    order.sort_by_key(|&i| std::fs::metadata(data.join(SETS[i].0)).map_or(0, |m| m.len()));
    let mut whole = vec![(0.0, 0, false); SETS.len()];
    for i in order {
        whole[i] = whole_process(&sudoku, &data.join(SETS[i].0), runs);
    }

    println!("runs per figure: {runs} (median); baseline sample: every Nth puzzle, {sample} per set\n");
    println!("| set | puzzles | whole process µs/puzzle | puzzles/s | peak RSS | input + 4 MiB | in-process µs/puzzle | baseline µs/puzzle | ours on the same sample | speedup | target |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
    for (((file, name, target), (cpu_ms, _, _)), (rss, exact)) in SETS.iter().zip(whole).zip(memory) {
        let input = std::fs::read(data.join(file)).expect("readable set");
        let all = puzzles(&input);
        let n = all.len();
        let per_puzzle = cpu_ms * 1000.0 / n as f64;
        let inproc = in_process(&all, runs);
        let step = (n / sample).max(1);
        let subset: Vec<Puzzle> = all.iter().step_by(step).take(sample).cloned().collect();
        let base = baseline_us(&subset, runs.min(3));
        let ours = in_process(&subset, runs);
        let budget = input.len() as u64 / 1024 + 4096;
        let verdict = match target {
            Some(t) if per_puzzle <= *t => format!("≤ {t} µs: met"),
            Some(t) => format!("≤ {t} µs: not met ({:.1}x over)", per_puzzle / t),
            None => "-".into(),
        };
        println!(
            "| {name} | {n} | {per_puzzle:.2} | {:.0} | {}{:.1} MiB | {:.1} MiB | {inproc:.2} | {base:.1} | {ours:.2} | {:.0}x | {verdict} |",
            1e6 / per_puzzle,
            if exact { "" } else { "≤" },
            rss as f64 / 1024.0,
            budget as f64 / 1024.0,
            base / ours,
        );
    }
    println!(
        "| start-up: one POJ puzzle (cases/poj2676/sample), cargo-built (std's `main`) | 1 | {:.0} (whole process) | - | {}{:.1} MiB | - | - | - | - | - | - |",
        startup.0 * 1000.0,
        if startup.2 { "" } else { "≤" },
        startup.1 as f64 / 1024.0
    );
    let samurai: Vec<Puzzle> = samurai_files.iter().flat_map(|f| puzzles(&std::fs::read(f).unwrap())).collect();
    let samurai_in: Vec<f64> = samurai
        .iter()
        .map(|p| {
            let mut solver = Solver::new();
            let start = Instant::now();
            for _ in 0..runs {
                assert!(solver.solve(p).is_some());
            }
            start.elapsed().as_secs_f64() * 1e6 / runs as f64
        })
        .collect();
    let worst_in = samurai_in.iter().copied().fold(0.0, f64::max);
    println!(
        "| Samurai (cases/samurai) | {} | {:.0} (whole process, median puzzle; worst {:.0}) | - | - | - | {:.0} (median; worst {worst_in:.0}) | - | - | - | < 1000 µs: {} |",
        samurai.len(),
        median(samurai_whole.clone()),
        samurai_whole.iter().copied().fold(0.0, f64::max),
        median(samurai_in),
        if worst_in < 1000.0 { "met" } else { "not met" },
    );
}
