//! Both binaries from the outside: flags, exit codes 0/1/2/3, messages, and the harness
//! behaviours that need real processes (watchdog, orphans, external checkers, JSON).

use assert_cmd::Command;
use predicates::prelude::*;
use std::path::Path;

fn sudoku() -> Command {
    Command::new(assert_cmd::cargo::cargo_bin!("sudoku"))
}

fn judge() -> Command {
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin!("judge"));
    cmd.current_dir(env!("CARGO_MANIFEST_DIR")).env("NO_COLOR", "1");
    cmd
}

/// Polls `probe` until it holds or a deadline far past any normal wait passes (a loaded
/// machine's waits are long, never wrong); whether it held.
fn eventually(mut probe: impl FnMut() -> bool) -> bool {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::time::Instant::now() < deadline {
        if probe() {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    probe()
}

/// Writes `files` (path, contents) under a fresh temporary folder.
fn folder(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let full = dir.path().join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, text).unwrap();
    }
    dir
}

const SAMPLE: &str =
    "1\n103000509\n002109400\n000704000\n300502006\n060000050\n700803004\n000401000\n009205800\n804000107\n";
const SAMPLE_ANSWER: &str =
    "143628579\n572139468\n986754231\n391542786\n468917352\n725863914\n237481695\n619275843\n854396127\n";

// ----- sudoku -----

#[test]
fn sudoku_help_and_version() {
    sudoku().arg("--help").assert().success().stdout(predicate::str::contains("Usage: sudoku [--count[=N]]"));
    sudoku().arg("-V").assert().success().stdout(predicate::str::starts_with("sudoku 0."));
}

#[test]
fn sudoku_help_into_a_full_stdout_is_an_io_error() {
    for flag in ["--help", "--version"] {
        let out = std::process::Command::new(assert_cmd::cargo::cargo_bin!("sudoku"))
            .arg(flag)
            .stdout(std::fs::File::create("/dev/full").unwrap())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(3), "{flag}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(String::from_utf8_lossy(&out.stderr).contains("cannot write output"));
    }
}

#[test]
fn sudoku_bad_flags_exit_2() {
    sudoku().arg("--fast").assert().code(2).stderr("sudoku: unknown argument '--fast'\nTry 'sudoku --help'.\n");
    sudoku().arg("--count=0").assert().code(2).stderr(predicate::str::contains("needs a whole number N >= 1"));
    sudoku().arg("--count=x").assert().code(2);
}

#[test]
fn sudoku_solves_the_poj_sample() {
    sudoku().write_stdin(SAMPLE).assert().success().stdout(SAMPLE_ANSWER).stderr("");
}

#[test]
fn sudoku_answers_each_style_in_its_own_shape() {
    let spaced: String =
        SAMPLE.lines().skip(1).map(|l| l.chars().map(String::from).collect::<Vec<_>>().join(" ") + "\n").collect();
    let out = sudoku().write_stdin(spaced).assert().success().get_output().stdout.clone();
    insta::assert_snapshot!(String::from_utf8(out).unwrap(), @r"
    1 4 3 6 2 8 5 7 9
    5 7 2 1 3 9 4 6 8
    9 8 6 7 5 4 2 3 1
    3 9 1 5 4 2 7 8 6
    4 6 8 9 1 7 3 5 2
    7 2 5 8 6 3 9 1 4
    2 3 7 4 8 1 6 9 5
    6 1 9 2 7 5 8 4 3
    8 5 4 3 9 6 1 2 7
    ");
    let line: String = SAMPLE.lines().skip(1).collect::<String>().replace('0', ".");
    sudoku()
        .write_stdin(format!("# a comment\n{line}\n\n{line}\nend\nignored after end\n"))
        .assert()
        .success()
        .stdout(format!("{0}\n{0}\n", SAMPLE_ANSWER.replace('\n', "")));
}

/// A plain backtracking counter, independent of the solver, to check `--count` against.
fn naive_count(grid: &mut [u8; 81], cap: u64) -> u64 {
    let Some(cell) = grid.iter().position(|&v| v == 0) else { return 1 };
    let (r, c) = (cell / 9, cell % 9);
    let mut total = 0;
    for d in 1..=9u8 {
        let clash = (0..9).any(|k| {
            grid[r * 9 + k] == d || grid[k * 9 + c] == d || grid[(r / 3 * 3 + k / 3) * 9 + c / 3 * 3 + k % 3] == d
        });
        if !clash {
            grid[cell] = d;
            total += naive_count(grid, cap - total);
            grid[cell] = 0;
            if total >= cap {
                break;
            }
        }
    }
    total
}

/// A plain backtracking counter over any set of cells and their peers (the cell with the
/// fewest candidates first), independent of both engines of the solver.
fn naive_canvas_count(values: &mut [u8], peers: &[Vec<usize>], cap: u64) -> u64 {
    let allowed = |values: &[u8], cell: usize| -> Vec<u8> {
        (1..=9u8).filter(|&d| peers[cell].iter().all(|&p| values[p] != d)).collect()
    };
    let open = (0..values.len()).filter(|&c| values[c] == 0);
    let Some(cell) = open.min_by_key(|&c| allowed(values, c).len()) else { return 1 };
    let mut total = 0;
    for d in allowed(values, cell) {
        values[cell] = d;
        total += naive_canvas_count(values, peers, cap - total);
        values[cell] = 0;
        if total >= cap {
            break;
        }
    }
    total
}

#[test]
fn canvas_counts_match_a_plain_backtracking_count() {
    use sudoku_judge::solver::{Reader, Solver};
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("cases");
    let mut seed = 0xc0ffee_u64;
    let mut solver = Solver::new();
    let mut counts = Vec::new();
    for case in ["samurai/seed", "gattai/twodoku-21", "gattai/butterfly-21", "gattai/flower-21", "gattai/sohei-21"] {
        let answer = std::fs::read(root.join(case).join("expected.txt")).unwrap();
        let solved = Reader::new(&answer).next_case().unwrap().unwrap();
        let units = solved.units();
        let mut peers = vec![Vec::new(); solved.givens.len()];
        for unit in &units {
            for &a in unit {
                peers[a as usize].extend(unit.iter().map(|&b| b as usize).filter(|&b| b != a as usize));
            }
        }
        for round in 0..8 {
            // Blank 45% to 65% of the solution's cells: from unique to many solutions.
            let keep = 35 + (round * 4) as u64;
            let mut puzzle = solved.clone();
            for v in puzzle.givens.iter_mut() {
                if random_bytes(&mut seed, 1, &(0..100).collect::<Vec<u8>>())[0] as u64 >= keep {
                    *v = 0;
                }
            }
            let truth = naive_canvas_count(&mut puzzle.givens.clone(), &peers, 50);
            assert_eq!(solver.count(&puzzle, 50), truth, "{case}, round {round}");
            // Caps of 1 and 2 (solving, and the generator's uniqueness test) go to the
            // coupled boards first, larger ones to the SAT engine: both must agree.
            assert_eq!(solver.count(&puzzle, 2), truth.min(2), "{case}, round {round}, cap 2");
            assert_eq!(solver.count(&puzzle, 1), truth.min(1), "{case}, round {round}, cap 1");
            counts.push(truth);
        }
    }
    // The rounds must reach both unique and multi-solution puzzles, or they check little.
    assert!(counts.contains(&1) && counts.iter().any(|&c| c > 1), "{counts:?}");
}

#[test]
fn a_canvas_of_49_overlapping_grids_is_solved_and_counted() {
    use sudoku_judge::solver::{Reader, Solver};
    // A 27x27 canvas drawn whole holds a grid at every third row and column: 49 grids, more
    // than a machine word has bits (the coupled boards once kept one bit per board). The
    // pattern is a valid filling of every one of them; three cells in four are blanked.
    let mut seed = 0x0049_u64;
    let mut text = String::new();
    for r in 0..27 {
        for c in 0..27 {
            let blank = random_bytes(&mut seed, 1, &(0..4).collect::<Vec<u8>>())[0] != 0;
            text.push(if blank { '0' } else { char::from(b'1' + ((r * 3 + r / 3 + c) % 9) as u8) });
        }
        text.push('\n');
    }
    let puzzle = Reader::new(text.as_bytes()).next_case().unwrap().unwrap();
    let mut solver = Solver::new();
    let values = solver.solve(&puzzle).expect("the pattern is a solution");
    for (given, value) in puzzle.givens.iter().zip(&values) {
        assert!(*given == 0 || given == value, "a given was changed");
    }
    for unit in puzzle.units() {
        let mut seen: Vec<u8> = unit.iter().map(|&c| values[c as usize]).collect();
        seen.sort_unstable();
        assert_eq!(seen, (1..=9).collect::<Vec<u8>>(), "a unit is not a permutation of 1-9");
    }
    // The coupled boards (caps 1 and 2) and the SAT engine (larger caps) must agree.
    let many = solver.count(&puzzle, 20);
    assert!(many >= 1);
    assert_eq!(solver.count(&puzzle, 2), many.min(2));
    assert_eq!(solver.count(&puzzle, 1), 1);
}

#[test]
fn count_is_exact_on_a_samurai_corner_grid() {
    let canvas =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("cases/samurai/seed/input.txt")).unwrap();
    let corner: String = canvas.lines().take(9).map(|l| format!("{}\n", &l[..9])).collect();
    let mut grid = [0u8; 81];
    for (i, b) in corner.bytes().filter(u8::is_ascii_digit).enumerate() {
        grid[i] = b - b'0';
    }
    let truth = naive_count(&mut grid, u64::MAX);
    assert!(truth > 100, "a corner grid alone should have hundreds of solutions, found {truth}");
    sudoku().arg("--count").write_stdin(format!("1\n{corner}")).assert().success().stdout(format!("{truth}\n"));
    sudoku().arg("--count=100").write_stdin(format!("1\n{corner}")).assert().success().stdout("100\n");
    // The whole Samurai has exactly one.
    sudoku().arg("--count").write_stdin(canvas).assert().success().stdout("1\n");
}

#[test]
fn a_bare_count_stops_at_its_default_cap_and_says_so() {
    // An empty grid has 6.67e21 solutions: an unbounded count would never end.
    let empty = "0".repeat(81) + "\n";
    sudoku()
        .arg("--count")
        .write_stdin(empty.clone())
        .assert()
        .success()
        .stdout("1000000\n")
        .stderr(predicate::str::contains("case 1: at least 1000000 solutions; counting stopped there"));
    // An explicit cap is the user's choice: reaching it is not worth a note.
    sudoku().arg("--count=5").write_stdin(empty).assert().success().stdout("5\n").stderr("");
}

#[test]
fn no_solution_is_an_answer_and_rule_breaks_are_explained() {
    let clash = SAMPLE.replacen("103000509", "113000509", 1);
    sudoku()
        .write_stdin(clash)
        .assert()
        .success()
        .stdout("no solution\n")
        .stderr(predicate::str::contains("1 at line 2, column 1 and 1 at line 2, column 2 share a row"));
}

#[test]
fn puzzle_lines_get_the_same_answers_and_notes_as_grids() {
    // Lines of exactly 81 cells take a faster path than grids: both must say the same.
    let sample: String = SAMPLE.lines().skip(1).collect();
    let open = format!("{}{}", "0".repeat(27), &sample[27..]); // many solutions
    let clash = sample.replacen("103", "113", 1);
    let dots = sample.replace('0', ".");
    let puzzles = [sample.clone(), open, clash, dots, "0".repeat(81)];
    let lines: String = puzzles.iter().map(|p| format!("{p}\n")).collect();
    let grids: String = format!("{}\n", puzzles.len())
        + &puzzles
            .iter()
            .map(|p| p.as_bytes().chunks(9).map(|r| format!("{}\n", String::from_utf8_lossy(r))).collect::<String>())
            .collect::<String>();
    for flag in [None, Some("--count=3")] {
        let run = |input: &str| {
            let mut cmd = sudoku();
            if let Some(flag) = flag {
                cmd.arg(flag);
            }
            let out = cmd.write_stdin(input.to_string()).output().unwrap();
            assert!(out.status.success(), "{flag:?}");
            (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
        };
        let (line_out, line_notes) = run(&lines);
        let (grid_out, grid_notes) = run(&grids);
        assert_eq!(line_out.replace('\n', ""), grid_out.replace('\n', ""), "{flag:?}");
        assert_eq!(line_out.lines().count(), puzzles.len(), "{flag:?}: one answer line a puzzle");
        // The notes name the same cases; only the line and column of a clash differ.
        let cases =
            |notes: &str| notes.lines().map(|l| l.split(':').take(2).collect::<Vec<_>>().join(":")).collect::<Vec<_>>();
        assert_eq!(cases(&line_notes), cases(&grid_notes), "{flag:?}");
        assert!(line_notes.contains("case 3: the givens break a rule"), "{line_notes}");
    }
}

#[test]
fn the_vector_line_reader_builds_the_grid_the_plain_one_does() {
    // Puzzle lines are read with 16-byte compares on x86-64 and cell by cell elsewhere (and
    // for grids): the starting candidates and open cells must be the same, clashes included.
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    for round in 0..3000 {
        // From near-empty to near-full, with either blank.
        let blanks = [&b"0"[..], b"00000", b"0000000000000", b"."][round % 4];
        let alphabet: Vec<u8> = blanks.iter().chain(b"123456789").copied().collect();
        let line = random_bytes(&mut seed, 81, &alphabet);
        let [vector, plain] = sudoku_judge::solver::line_reader_states(&line);
        assert_eq!(vector, plain, "{}", String::from_utf8_lossy(&line));
    }
}

#[test]
fn the_vector_solution_writer_writes_what_the_plain_one_does() {
    // Solutions are written with SSE2 on x86-64 and digit by digit elsewhere. Filled grids
    // from one pattern, relabelled and with rows and columns shuffled within their bands.
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    for round in 0..500 {
        let filled = filled_grid(&random_bytes(&mut seed, 40, b"012345678"));
        let [vector, plain] = sudoku_judge::solver::solution_writers(&filled);
        assert_eq!(vector, plain, "round {round}");
        assert_eq!(&plain[..], &filled[..], "round {round}: a filled grid is its own solution");
    }
}

#[test]
fn every_build_of_the_9x9_search_finds_what_the_portable_one_does() {
    // On x86-64 the search runs compiled for BMI1/BMI2 and popcount when the CPU has them, and
    // with `pext` where that is fast; other CPUs run the portable build. Each must make the same
    // guesses and find the same count and first solution: grids thinned from relabelled filled
    // ones (many solutions when thin), and random lines (clashes, dead ends).
    let mut seed = 0xD1B5_4A32_D192_ED03u64;
    let mut builds = 0;
    for round in 0..600 {
        let filled = filled_grid(&random_bytes(&mut seed, 40, b"012345678"));
        let keep = [18, 22, 26, 30][round % 4];
        let line: Vec<u8> = if round % 5 == 4 {
            random_bytes(&mut seed, 81, b"000000000000000000000000000000123456789")
        } else {
            filled.iter().map(|&digit| if xorshift(&mut seed) % 81 < keep { digit } else { b'.' }).collect()
        };
        let found = sudoku_judge::solver::search9_builds(&line, 64);
        builds = builds.max(found.len());
        for other in &found[1..] {
            assert_eq!(other, &found[0], "{}", String::from_utf8_lossy(&line));
        }
    }
    // Not every CPU has the instructions; where it has, all three builds were compared.
    assert!(builds == 1 || builds == 3, "{builds} builds");
}

#[test]
fn the_vector_and_portable_9x9_band_counts_agree() {
    // The 9x9 engine counts candidates per band with SSE2 on x86-64 and in plain integers
    // elsewhere; both must give the same cells with one, two and three candidates.
    use sudoku_judge::solver::{count_bands, count_bands_portable};
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = || xorshift(&mut state) as u32 & 0x7FF_FFFF;
    for round in 0..2000 {
        let mut cand = [0u32; 32];
        for m in &mut cand[..27] {
            *m = next() & next() & if round % 2 == 0 { next() } else { !0 };
        }
        let expected = count_bands_portable(&cand);
        assert_eq!(count_bands(&cand), expected, "round {round}");
        for b in 0..3 {
            for i in 0..27 {
                let n = (0..9).filter(|&d| cand[3 * d + b] >> i & 1 != 0).count();
                for (k, counted) in expected.iter().enumerate() {
                    assert_eq!(counted[b] >> i & 1 != 0, n > k, "round {round}, band {b}, cell {i}");
                }
            }
        }
    }
}

#[test]
fn the_vector_and_portable_9x9_column_scans_agree() {
    // The 9x9 engine looks for hidden singles in columns with SSE2 on x86-64 and in plain
    // integers elsewhere; both must agree, and with a count of each digit's places a column.
    use sudoku_judge::solver::{column_scan, column_scan_portable};
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || xorshift(&mut state) as u32 & 0x7FF_FFFF;
    for round in 0..2000 {
        let mut cand = [0u32; 32];
        for m in &mut cand[..27] {
            // Sparse masks, so that columns with one place and with none are common.
            *m = next() & next() & next() & if round % 2 == 0 { next() } else { !0 };
        }
        let open = [next() | next(), next() | next(), next() | next()];
        let expected = column_scan_portable(&cand, &open);
        assert_eq!(column_scan(&cand, &open), expected, "round {round}");
        let (columns, found, empty) = expected;
        for d in 0..9 {
            for c in 0..9 {
                let cells: Vec<(usize, usize)> =
                    (0..9).map(|r| (r / 3, 9 * (r % 3) + c)).filter(|&(b, i)| cand[3 * d + b] >> i & 1 != 0).collect();
                let single = cells.len() == 1 && open[cells[0].0] >> cells[0].1 & 1 != 0;
                assert_eq!(columns[d] >> c & 1 != 0, single, "round {round}, digit {d}, column {c}");
            }
            assert_eq!(found >> d & 1 != 0, columns[d] != 0, "round {round}, digit {d}");
            let some_empty = (0..9).any(|c| (0..3).all(|b| cand[3 * d + b] & (0x40201 << c) == 0));
            assert_eq!(empty >> d & 1 != 0, some_empty, "round {round}, digit {d}");
        }
    }
}

/// One step of xorshift64: the property tests are reproducible from a seed on every machine.
fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// `len` bytes drawn from `alphabet`.
/// A filled 9x9 grid (81 digits) from one pattern, relabelled by `order[..9]` and with rows
/// and columns rotated within their bands and stacks by `order[9..15]` (digits `0`-`8`).
fn filled_grid(order: &[u8]) -> Vec<u8> {
    let mut labels: Vec<u8> = (b'1'..=b'9').collect();
    for (k, &o) in order.iter().take(9).enumerate() {
        labels.swap(k, usize::from(o - b'0'));
    }
    let within = |k: usize, o: u8| 3 * (k / 3) + (k % 3 + usize::from(o - b'0')) % 3;
    (0..81)
        .map(|i| {
            // One rotation a band (and a stack) keeps rows (and columns) a permutation.
            let (r, c) = (within(i / 9, order[9 + i / 27]), within(i % 9, order[12 + i % 9 / 3]));
            labels[(3 * (r % 3) + r / 3 + c) % 9]
        })
        .collect()
}

fn random_bytes(seed: &mut u64, len: usize, alphabet: &[u8]) -> Vec<u8> {
    (0..len).map(|_| alphabet[(xorshift(seed) % alphabet.len() as u64) as usize]).collect()
}

#[path = "support/reader_fuzz.rs"]
mod reader_fuzz;

#[path = "support/gen_cli.rs"]
mod gen_cli;

#[path = "support/stress_cli.rs"]
mod stress_cli;

#[path = "support/build_cli.rs"]
mod build_cli;

#[path = "support/sixteen.rs"]
mod sixteen;

#[path = "support/submit_cli.rs"]
mod submit_cli;

#[path = "support/paths_cli.rs"]
mod paths_cli;

#[path = "support/busy_cli.rs"]
mod busy_cli;

#[path = "support/checks_cli.rs"]
mod checks_cli;

#[path = "support/usage_cli.rs"]
mod usage_cli;

#[path = "support/sandbox_cli.rs"]
mod sandbox_cli;

#[path = "support/policy_cli.rs"]
mod policy_cli;

#[path = "support/runtimes_cli.rs"]
mod runtimes_cli;

#[path = "support/world_cli.rs"]
mod world_cli;

#[path = "support/figures_cli.rs"]
mod figures_cli;

#[path = "support/leftovers_cli.rs"]
mod leftovers_cli;

#[path = "support/prepared_cli.rs"]
mod prepared_cli;

#[path = "support/installed_cli.rs"]
mod installed_cli;

#[path = "support/interact_cli.rs"]
mod interact_cli;

#[path = "support/tall_canvas.rs"]
mod tall_canvas;

#[path = "support/turns.rs"]
mod turns;

#[path = "support/stack_faults.rs"]
mod stack_faults;

#[path = "support/streaming.rs"]
mod streaming;

#[path = "support/compiled.rs"]
mod compiled;

#[test]
fn damaged_inputs_of_every_style_are_answered_in_full_or_located() {
    // 30,000 inputs a run (about 6 s in a test build; the seed's first 100,000 were clean when
    // the default was that); `FUZZ_ROUNDS` and `FUZZ_SEED` explore further.
    let env = |name: &str, default: u64| std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    let rounds = env("FUZZ_ROUNDS", 30_000);
    let (answered, errors) = reader_fuzz::check(rounds, env("FUZZ_SEED", 0x5eed_cafe));
    eprintln!("{answered} answered in full, {errors} errors located");
    // Both outcomes must be exercised, or the property checks nothing.
    assert!(answered > rounds / 50 && errors > rounds / 50, "answered {answered}, errors {errors}");
}

#[test]
fn random_input_never_panics_and_errors_say_where() {
    use sudoku_judge::solver::{solve_all, Failure, Mode};
    let all: Vec<u8> = (0..=255).collect();
    let sudokuish = b"0123456789.. \n\n\r#-end";
    let mut seed = 0x5eed_u64;
    for round in 0..3000 {
        let len = (round % 300) + 1;
        let mut input = random_bytes(&mut seed, len, if round % 2 == 0 { &all } else { sudokuish });
        if round % 3 == 0 {
            // Start from a valid file and damage it, to get past the first line.
            let mut valid = SAMPLE.as_bytes().to_vec();
            let at = (seed as usize) % valid.len();
            valid.splice(at..at, input.iter().copied().take(3));
            input = valid;
        }
        let (mut out, mut err) = (Vec::new(), Vec::new());
        match solve_all(&input, Mode::Count(1000), &mut out, &mut err) {
            Ok(()) => {}
            Err(Failure::Input(e)) => assert!(e.line >= 1 && !e.message.is_empty(), "{e}"),
            Err(Failure::Io(e) | Failure::Reading(e)) => panic!("no I/O can fail on a Vec: {e}"),
        }
    }
}

// ----- judge -----

#[test]
fn judge_help_documents_verdicts_and_exit_codes() {
    judge().arg("--help").assert().success().stdout(
        predicate::str::contains("Exit status: 0 every case passed").and(predicate::str::contains("--time-limit")),
    );
}

#[test]
fn judge_usage_errors_exit_2_and_say_what_is_accepted() {
    judge().args(["--time-limit", "2"]).assert().code(2).stderr(predicate::str::contains("2s for seconds, or 2ms"));
    judge().args(["--time-limit", "2h"]).assert().code(2).stderr(predicate::str::contains("like 2s, 1.5s or 1500ms"));
    judge().args(["--memory-limit", "64 parsecs"]).assert().code(2).stderr(predicate::str::contains("64MiB"));
    judge().args(["--jobs", "0"]).assert().code(2);
    judge().arg("no/such/folder").assert().code(2).stderr(predicate::str::contains("no such file or folder"));
    let empty = folder(&[("notes.md", "nothing here")]);
    judge().arg(empty.path()).assert().code(2).stderr(predicate::str::contains("no cases found"));
    judge().args(["--solver", "./no-such-solver"]).assert().code(2).stderr(predicate::str::contains("not found"));
    judge()
        .args(["--solver", "@nothing"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("use @sudoku, @gen, @fixture or @interactor"));
    // A filter that leaves nothing to run is a usage error, not "0 passed, 0 failed".
    judge()
        .args(["cases/harness", "--filter", "nomatch"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no case has a name containing 'nomatch'"));
}

#[test]
fn judge_passes_the_bundled_harness_cases() {
    judge().arg("cases/harness").assert().success().stdout(predicate::str::ends_with("15 passed, 0 failed\n"));
}

#[test]
fn judge_shows_a_whitespace_visible_diff_and_exits_1() {
    let dir = folder(&[("a/input.txt", "print 1  2\n"), ("a/expected.txt", "1 3\n")]);
    judge().arg(dir.path()).args(["--diff", "unified", "--solver", "@fixture"]).assert().code(1).stdout(
        predicate::str::contains("-1·3\n+1··2")
            .and(predicate::str::contains("input (head):\n  print 1  2\n"))
            .and(predicate::str::ends_with("0 passed, 1 failed\n")),
    );
    // Short lines are drawn side by side by default, expected on the left.
    let side = format!("{:<48} | received\n{:<48} | 1··2\n", "expected", "1·3");
    judge().arg(dir.path()).args(["--solver", "@fixture"]).assert().code(1).stdout(
        predicate::str::contains(side).and(predicate::str::contains("| changed, < only expected, > only received")),
    );
    // In colour the expected side is red and the received side green; never off a terminal
    // unless asked.
    judge()
        .arg(dir.path())
        .args(["--color", "always", "--diff", "unified", "--solver", "@fixture"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("\x1b[31m-1·3\x1b[0m\n\x1b[32m+1··2\x1b[0m"));
    let plain = judge().arg(dir.path()).args(["--solver", "@fixture"]).output().unwrap();
    assert!(!plain.stdout.contains(&0x1b) && !plain.stderr.contains(&0x1b));
}

#[test]
fn judge_orders_oj_pairs_naturally_and_skips_backups() {
    let dir = folder(&[
        ("sample-10.in", "print 10\n"),
        ("sample-10.out", "10\n"),
        ("sample-2.in", "print 2\n"),
        ("sample-2.ans", "2\n"),
        ("sample-1.in", "print 1\n"),
        ("sample-1.out", "1\n"),
        ("sample-3.in~", "exit 1\n"),
        (".hidden.in", "exit 1\n"),
    ]);
    let out = judge().arg(dir.path()).args(["--solver", "@fixture"]).assert().success().get_output().stdout.clone();
    let names: Vec<String> = String::from_utf8(out)
        .unwrap()
        .lines()
        .skip(2)
        .take_while(|l| !l.is_empty())
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect();
    assert_eq!(names, ["sample-1", "sample-2", "sample-10"]);
}

#[test]
fn a_case_toml_beside_oj_pairs_applies_to_each_pair() {
    // Once a fake IE case named after the folder, with none of its settings reaching the pairs.
    let dir = folder(&[
        ("p/a.in", "print 1\n"),
        ("p/a.out", "1\n"),
        ("p/b.in", "spin 5000\n"),
        ("p/case.toml", "solver = \"@fixture\"\ntime_limit = \"200ms\"\nexpect = \"TLE\"\n"),
    ]);
    let out = judge().arg(dir.path()).assert().failure().get_output().stdout.clone();
    let out = String::from_utf8(out).unwrap();
    // a is AC where TLE was expected (so it fails); b times out under the 200 ms limit.
    assert!(out.lines().any(|l| l.starts_with("p/a ") && l.contains(" AC ")), "{out}");
    assert!(out.lines().any(|l| l.starts_with("p/b ") && l.contains(" TLE ")), "{out}");
    assert!(!out.lines().any(|l| l.starts_with("p ")), "no case named after the folder: {out}");
    assert!(out.ends_with("1 passed, 1 failed\n"), "{out}");
}

#[test]
fn polygon_and_atcoder_packages_are_judged_with_the_settings_of_their_root() {
    let dir = folder(&[
        ("case.toml", "solver = \"@fixture\"\ntags = [\"pkg\"]\n"),
        ("polygon/tests/01", "print 1\n"),
        ("polygon/tests/01.a", "1\n"),
        ("polygon/tests/02", "print 2\n"),
        ("polygon/tests/02.a", "3\n"),
        ("atcoder/in/sample_01.txt", "print a\n"),
        ("atcoder/out/sample_01.txt", "a\n"),
    ]);
    let out = judge().arg(dir.path()).args(["--tag", "pkg"]).assert().code(1).get_output().stdout.clone();
    let out = String::from_utf8(out).unwrap();
    for (name, verdict) in [("atcoder/sample_01", "AC"), ("polygon/tests/01", "AC"), ("polygon/tests/02", "WA")] {
        assert!(out.lines().any(|l| l.starts_with(&format!("{name} ")) && l.contains(verdict)), "{name}: {out}");
    }
    assert!(out.ends_with("2 passed, 1 failed\n"), "{out}");
}

/// Fixture processes still running whose command line holds `marker` (zombies are gone).
fn survivors(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        if String::from_utf8_lossy(&cmdline).replace('\0', " ").contains(marker) && !stat.contains(") Z") {
            found.push(entry.file_name().to_string_lossy().into_owned());
        }
    }
    found
}

#[test]
fn no_process_outlives_its_case_however_it_escapes() {
    // Each child sleeps a number of milliseconds no other test uses, to be found by.
    let cases = folder(&[
        ("orphan/input.txt", "orphan 61001\nprint done\n"),
        ("orphan/expected.txt", "done\n"),
        ("setsid/input.txt", "escape 61002\nprint done\n"),
        ("setsid/expected.txt", "done\n"),
        ("tle/input.txt", "escape 61003\norphan 61004\nsleep 60000\n"),
        ("tle/case.toml", "time_limit = \"200ms\"\nexpect = \"TLE\"\n"),
    ]);
    // The escaped children hold the solver's stdout: the judge must not wait for them.
    judge().arg(cases.path()).args(["--solver", "@fixture"]).assert().success();
    // The judge answers only after every process of a run is reaped: nothing to wait for.
    for marker in ["sleep 61001", "sleep 61002", "sleep 61003", "sleep 61004"] {
        assert_eq!(survivors(marker), Vec::<String>::new(), "{marker} survived its case");
    }
}

#[test]
fn children_count_toward_cpu_and_memory() {
    let cases = folder(&[
        ("cpu/input.txt", "burn 2 3000\nsleep 10000\n"),
        ("cpu/case.toml", "time_limit = \"1s\"\nexpect = \"TLE\"\n"),
        ("memory/input.txt", "hog 300\nprint done\n"),
        ("memory/case.toml", "memory_limit = \"64MiB\"\nexpect = \"MLE\"\n"),
    ]);
    let json = cases.path().join("report.json");
    judge().arg(cases.path()).args(["--solver", "@fixture", "--json"]).arg(&json).assert().success();
    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert!(doc["cases"][0]["facts"]["cpu_ms"].as_f64().unwrap() > 1000.0, "{}", doc["cases"][0]);
}

#[test]
fn the_judges_own_memory_never_reaches_a_solver() {
    // Before the launcher, 60 cases of 2 MiB of stderr grew the judge past 64 MiB, and its
    // high-water mark was charged to every later run as MLE.
    let mut files = Vec::new();
    for i in 0..70 {
        files.push((format!("c{i}/input.txt"), "spew 2\nprint ok\n".to_string()));
        files.push((format!("c{i}/expected.txt"), "ok\n".to_string()));
    }
    let files: Vec<(&str, &str)> = files.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    let cases = folder(&files);
    judge()
        .arg(cases.path())
        .args(["--solver", "@fixture", "--memory-limit", "16MiB"])
        .assert()
        .success()
        .stdout(predicate::str::ends_with("70 passed, 0 failed\n").and(predicate::str::contains("≤").not()));
}

#[test]
fn the_judges_memory_does_not_grow_with_output_or_expected_sizes() {
    // A 20 MiB expected file of short lines used to take the judge to 744 MiB, and a 30 MB
    // output to 1 GiB: both are now read as streams. At these sizes (8 and 12 MiB) the old
    // judge passed 150 MiB.
    let dir = tempfile::tempdir().unwrap();
    let inner = dir.path().join("inner");
    for (name, script) in [("wa", "flood 12\n"), ("ac", "flood 12\n")] {
        std::fs::create_dir_all(inner.join(name)).unwrap();
        std::fs::write(inner.join(name).join("input.txt"), script).unwrap();
    }
    std::fs::write(inner.join("wa/expected.txt"), "x\n".repeat(4 << 20)).unwrap();
    std::fs::write(inner.join("ac/expected.txt"), "y\n".repeat(6 << 20)).unwrap();
    let out = judge().arg(&inner).args(["--solver", "@fixture"]).assert().code(1).get_output().stdout.clone();
    let out = String::from_utf8(out).unwrap();
    assert!(out.lines().any(|l| l.starts_with("ac ") && l.contains(" AC ")), "{out}");
    assert!(out.contains("line 1, column 1 differs"), "{out}");
    assert!(out.ends_with("1 passed, 1 failed\n"), "{out}");
    // The judge's own peak, measured by the judge: an outer case whose solver is that same
    // run. (A process forked from this test process would carry this process's memory in
    // its high-water mark, which is why the judge forks solvers from its small launcher.)
    let solver =
        format!("'{}' '{}' --solver @fixture", assert_cmd::cargo::cargo_bin!("judge").display(), inner.display());
    let outer = dir.path().join("outer");
    std::fs::create_dir_all(outer.join("c")).unwrap();
    std::fs::write(outer.join("c/input.txt"), "").unwrap();
    // The inner run exits 1 (one case fails), so RE is right; MLE would outrank it.
    let toml = format!("solver = {solver:?}\nmemory_limit = \"64MiB\"\ntime_limit = \"60s\"\nexpect = \"RE\"\n");
    std::fs::write(outer.join("c/case.toml"), toml).unwrap();
    let report = dir.path().join("report.json");
    judge().arg(&outer).arg("--json").arg(&report).assert().success();
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    let peak = json["cases"][0]["facts"]["peak_rss_kib"].as_u64().unwrap();
    assert!(peak > 0 && peak < 64 * 1024, "the judge and its runs peaked at {peak} KiB");
}

#[test]
fn a_relative_command_in_case_toml_is_found_beside_the_case() {
    let dir = folder(&[
        ("suite/d/input.txt", "print yes\n"),
        ("suite/d/chk", "#!/bin/sh\ngrep -q yes \"$2\"\n"),
        ("suite/d/case.toml", "solver = \"@fixture\"\nchecker_cmd = \"./chk\"\n"),
    ]);
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir.path().join("suite/d/chk"), std::fs::Permissions::from_mode(0o755)).unwrap();
    // Run from elsewhere: `./chk` must not be looked up in the working folder.
    let elsewhere = tempfile::tempdir().unwrap();
    judge()
        .current_dir(elsewhere.path())
        .arg(dir.path().join("suite"))
        .assert()
        .success()
        .stdout(predicate::str::ends_with("1 passed, 0 failed\n"));
}

#[test]
fn external_checkers_speak_testlib() {
    let dir = folder(&[
        ("check.sh", "#!/bin/sh\n[ -f \"$1\" ] && [ -f \"$2\" ] && [ -f \"$3\" ] || exit 3\ngrep -q yes \"$2\" && exit 0\ngrep -q half \"$2\" && { echo 'points 0.5' >&2; exit 7; }\ngrep -q pc30 \"$2\" && exit 46\ngrep -q much \"$2\" && { echo 'points 50' >&2; exit 7; }\necho \"wanted yes in $ACTUAL_OUTPUT\" >&2\nexit 1\n"),
        ("cases/ac/input.txt", "print yes\n"),
        ("cases/wa/input.txt", "print no\n"),
        ("cases/partial/input.txt", "print half\n"),
        ("cases/partial/case.toml", "points = 4\n"),
        ("cases/pc/input.txt", "print pc30\n"),
        ("cases/too-many/input.txt", "print much\n"),
    ]);
    let checker = format!("sh {}", dir.path().join("check.sh").display());
    let out = judge()
        .arg(dir.path().join("cases"))
        .args(["--solver", "@fixture", "--checker-cmd", &checker])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("the checker says WA: wanted yes in"), "{text}");
    // Partial points are their own verdict, with the points in a column and a total.
    let row = |name: &str| text.lines().find(|l| l.starts_with(&format!("{name} "))).unwrap_or("").to_string();
    assert!(row("partial").contains("PC") && row("partial").contains("2/4"), "{text}");
    assert!(row("partial").contains("partial points: points 0.5"), "{text}");
    assert!(row("pc").contains("PC") && row("pc").contains("0.3/1"), "_pc(30) is 46: {text}");
    assert!(row("too-many").contains("IE") && row("too-many").contains("from 0 to 1"), "{text}");
    assert!(row("ac").contains(" AC ") && row("ac").contains("1/1") && row("wa").contains("0/1"), "{text}");
    assert!(text.ends_with("1 passed, 4 failed; score 3.3 / 8\n"), "{text}");
}

#[test]
fn json_report_repeat_fail_fast_and_filter() {
    let dir = folder(&[
        ("1-bad/input.txt", "exit 4\n"),
        ("2-good/input.txt", "print 1\n"),
        ("2-good/expected.txt", "1\n"),
        ("3-good/input.txt", "print 1\n"),
        ("3-good/expected.txt", "1\n"),
    ]);
    let json = dir.path().join("report.json");
    judge()
        .arg(dir.path())
        .args(["--solver", "@fixture", "--repeat", "3", "--json"])
        .arg(&json)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("RE").and(predicate::str::ends_with("2 passed, 1 failed\n")));
    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(doc["summary"]["failed"], 1);
    assert_eq!(doc["cases"][0]["verdict"], "RE");
    assert_eq!(doc["cases"][0]["facts"]["exit_code"], 4);
    assert_eq!(doc["cases"][1]["runs"], 3);
    assert!(doc["cases"][1]["cpu_ms"]["median"].is_number());
    judge()
        .arg(dir.path())
        .args(["--solver", "@fixture", "--fail-fast"])
        .assert()
        .code(1)
        .stdout(predicate::str::ends_with("0 passed, 1 failed, 2 skipped\n"));
    judge().arg(dir.path()).args(["--solver", "@fixture", "--filter", "good"]).assert().success();
    // A report that cannot be written is a usage error, found before the run.
    judge().arg(dir.path()).args(["--solver", "@fixture", "--json", "/no/such/dir/r.json"]).assert().code(2);
}

#[test]
fn the_default_solver_judges_a_sudoku_case() {
    let dir = folder(&[
        ("s/input.txt", SAMPLE),
        ("s/expected.txt", SAMPLE_ANSWER),
        ("s/case.toml", "checker = \"sudoku\"\n"),
    ]);
    judge().arg(dir.path()).assert().success().stdout(predicate::str::contains("s     AC"));
    // `cat` echoes the input: its first line "1" is not a grid row, so the shape is wrong.
    judge()
        .arg(dir.path())
        .args(["--", "cat"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("output line 1: expected 9 cells, found 1"));
}

#[test]
fn the_fast_and_generic_engines_count_alike() {
    use sudoku_judge::solver::{Canvas, Puzzle, Reader, Shape, Solver};
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("cases/poj2676/top1465-t10/input.txt"))
            .unwrap();
    let mut reader = Reader::new(text.as_bytes());
    let mut solver = Solver::new();
    let mut seed = 7u64;
    let mut compared = 0;
    while let Some(Ok(puzzle)) = reader.next_case() {
        // Open up the puzzle a little at a time, so that it gets many solutions.
        let mut givens = puzzle.givens.clone();
        for round in 0..6 {
            let generic = Puzzle { shape: Shape::Canvas(Canvas::single()), givens: givens.clone(), ..puzzle.clone() };
            let plain = Puzzle { givens: givens.clone(), ..puzzle.clone() };
            assert_eq!(solver.count(&plain, 500), solver.count(&generic, 500), "case {} round {round}", puzzle.case);
            compared += 1;
            for _ in 0..3 {
                let gone = random_bytes(&mut seed, 1, &(0..81).collect::<Vec<u8>>())[0] as usize;
                givens[gone] = 0;
            }
        }
    }
    assert_eq!(compared, 60);
}

#[test]
fn checker_output_limit_color_stderr_limit_and_jobs_flags() {
    let dir = folder(&[
        ("a/input.txt", "print 1\nstderr 0123456789abcdef\nexit 0\n"),
        ("a/expected.txt", "1\r\n"),
        ("b/input.txt", "flood 1\n"),
    ]);
    // lines (the default) ignores the CR in the expected file; exact does not.
    judge().arg(dir.path()).args(["--solver", "@fixture", "--filter", "a"]).assert().success();
    judge()
        .arg(dir.path())
        .args(["--solver", "@fixture", "--filter", "a", "--checker", "exact", "--stderr-limit", "4"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("PE").and(predicate::str::contains("stderr:\n0123\n... 13 more bytes")));
    judge()
        .args(["--checker", "fuzzy"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("use lines, exact, tokens, sudoku, float (1e-6) or floatN"));
    judge()
        .arg(dir.path())
        .args(["--solver", "@fixture", "--filter", "b", "--output-limit", "64KiB"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("OLE"));
    judge()
        .arg(dir.path())
        .args(["--solver", "@fixture", "--filter", "a", "--color", "always"])
        .assert()
        .stdout(predicate::str::contains("\x1b[32mAC"));
    judge()
        .arg(dir.path())
        .args(["--solver", "@fixture", "--jobs", "2", "--repeat", "2"])
        .assert()
        .success()
        .stderr(predicate::str::contains("timings are noisier"))
        .stdout(predicate::str::contains("over 2 runs"));
}

/// Seven givens with a dead end that depth-first search wanders for millions of guesses (it
/// took 1.3 s; the `sudoku` crate takes 0.45 s), found by `judge gen`. The guess budget hands
/// it to the clause-learning engine; the answer must still be right, and counts exact.
#[test]
fn a_sparse_grid_that_outruns_depth_first_search_is_still_answered() {
    let puzzle = "050000000010000000000000000000000000000000000000080000000090000000070000200000060";
    let out = sudoku().write_stdin(format!("{puzzle}\n")).output().unwrap();
    assert!(out.status.success());
    let answer = String::from_utf8(out.stdout).unwrap();
    let cells: Vec<u8> = answer.trim_end().bytes().map(|b| b - b'0').collect();
    assert_eq!(cells.len(), 81, "{answer}");
    assert!(puzzle.bytes().zip(&cells).all(|(p, &a)| p == b'0' || p - b'0' == a), "givens kept: {answer}");
    let unit_ok = |f: &dyn Fn(usize) -> usize| (0..9).map(|k| 1u16 << cells[f(k)]).fold(0, |m, b| m | b) == 0x3FE;
    for u in 0..9 {
        assert!(unit_ok(&|k| 9 * u + k) && unit_ok(&|k| 9 * k + u), "row and column {u}: {answer}");
        assert!(unit_ok(&|k| 27 * (u / 3) + 3 * (u % 3) + 9 * (k / 3) + k % 3), "box {u}: {answer}");
    }
    // The same grid drawn as 9 rows goes through the general reader; counting stays exact.
    let rows: String = (0..9).map(|r| format!("{}\n", &puzzle[9 * r..9 * r + 9])).collect();
    sudoku().arg("--count=700").write_stdin(format!("1\n{rows}")).assert().success().stdout("700\n");
    sudoku().arg("--count=700").write_stdin(format!("{puzzle}\n")).assert().success().stdout("700\n");
}

#[test]
fn tags_choose_cases_and_a_choice_of_nothing_is_a_usage_error() {
    let dir = folder(&[
        ("a/input.txt", "print 1\n"),
        ("a/case.toml", "solver = \"@fixture\"\ntags = [\"poj2676\", \"hard\"]\n"),
        ("b/input.txt", "print 2\n"),
        ("b/case.toml", "solver = \"@fixture\"\ntags = [\"poj2676\"]\n"),
        ("c/input.txt", "print 3\n"),
        ("c/case.toml", "solver = \"@fixture\"\ntags = [\"samurai\"]\n"),
    ]);
    let names = |args: &[&str]| {
        let out = judge().arg(dir.path()).args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        text.lines().skip(2).take_while(|l| !l.is_empty()).map(|l| l[..1].to_string()).collect::<Vec<_>>().join("")
    };
    assert_eq!(names(&["--tag", "poj2676"]), "ab");
    assert_eq!(names(&["--tag", "poj2676", "--skip-tag", "hard"]), "b");
    assert_eq!(names(&["--tag", "samurai", "--tag", "hard"]), "ac");
    assert_eq!(names(&["--skip-tag", "poj2676"]), "c");
    judge()
        .arg(dir.path())
        .args(["--tag", "spoj"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no case has a tag among spoj (3 cases found)"));
}

#[test]
fn without_a_path_the_judge_looks_in_cases_then_test_then_tests() {
    // `oj download` makes test/ with NAME.in and NAME.out.
    let oj =
        folder(&[("test/sample-1.in", "print 1\n"), ("test/sample-1.out", "1\n"), ("tests/x/input.txt", "exit 3\n")]);
    judge()
        .current_dir(oj.path())
        .args(["--", "@fixture"])
        .assert()
        .success()
        .stdout(predicate::str::contains("sample-1  AC"))
        .stderr(predicate::str::contains("judging test/ (no cases/ here)"));
    let ours =
        folder(&[("cases/a/input.txt", "print 2\n"), ("cases/a/expected.txt", "2\n"), ("test/b.in", "exit 3\n")]);
    judge()
        .current_dir(ours.path())
        .args(["--", "@fixture"])
        .assert()
        .success()
        .stderr(predicate::str::contains("note").not());
    let empty = folder(&[("notes.md", "nothing")]);
    judge()
        .current_dir(empty.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no path given and no cases here"));
}

#[path = "support/live_cli.rs"]
mod live_cli;

#[path = "support/anywhere_cli.rs"]
mod anywhere_cli;

#[path = "support/languages_cli.rs"]
mod languages_cli;

#[path = "support/listen_cli.rs"]
mod listen_cli;

#[path = "support/subcases_cli.rs"]
mod subcases_cli;

#[path = "support/watch_cli.rs"]
mod watch_cli;

#[path = "support/truth_cli.rs"]
mod truth_cli;

#[path = "support/here_cli.rs"]
mod here_cli;

#[path = "support/setups_cli.rs"]
mod setups_cli;
