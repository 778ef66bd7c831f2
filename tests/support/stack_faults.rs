//! Issue 40 item 3: a fault in case k of a stack of grids never changes the answers of the
//! cases before it, whatever lines follow the fault (the rest of the grid after a blank line
//! or a comment, more grids after a cut one), and the full file and every tailored file print
//! the same bytes and the same error on it.

use sudoku_judge::solver::{solve_all, Failure, Mode};
use sudoku_judge::sudoku_check;
use sudoku_judge::verdict::CheckOutcome;

/// The 90 rows of top1465-t10's ten grids.
fn rows() -> Vec<String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("cases/poj2676/top1465-t10/input.txt");
    std::fs::read_to_string(path).unwrap().lines().skip(1).map(String::from).collect()
}

/// One damaged stack: its input, the input of the grids before the fault alone, the fault's
/// case, line and column, and a name for messages.
struct Shape {
    input: String,
    alone: String,
    fault: (usize, usize, usize),
    name: String,
}

/// `k` valid grids stacked (the first `apart` of them a blank line above the rest, so the
/// block holding the fault starts at another case), then grid k + 1 broken after `r` rows by
/// `cut` (a blank line or a comment), then what follows the cut: the rest of grid k + 1, or
/// (with `rest` false) more whole grids. With T, T counts every grid the input starts.
fn shapes() -> Vec<Shape> {
    let rows = rows();
    let mut all = Vec::new();
    for k in 1..=3 {
        for apart in 0..k {
            for r in [3, 6] {
                for cut in ["", "#", "# a comment"] {
                    for rest in [true, false] {
                        for counted in [true, false] {
                            let grids = |from: usize, to: usize| rows[9 * from..9 * to].join("\n") + "\n";
                            let mut body = String::new();
                            if apart > 0 {
                                body += &grids(0, apart);
                                body += "\n";
                            }
                            body += &grids(apart, k);
                            body += &(rows[9 * k..9 * k + r].join("\n") + "\n");
                            let fault_line = body.lines().count() + 1 + usize::from(counted);
                            body += &format!("{cut}\n");
                            let mut t = k + 1;
                            if rest {
                                body += &(rows[9 * k + r..9 * k + 9].join("\n") + "\n");
                            } else {
                                body += &grids(k + 1, k + 3);
                                t += 2;
                            }
                            let head = if counted { format!("{t}\n") } else { String::new() };
                            let mut alone = if counted { format!("{k}\n") } else { String::new() };
                            alone += &grids(0, k);
                            all.push(Shape {
                                input: head + &body,
                                alone,
                                fault: (k + 1, fault_line, 1),
                                name: format!("{k} grids ({apart} apart), {r} rows, {cut:?}, rest {rest}, T {counted}"),
                            });
                        }
                    }
                }
            }
        }
    }
    all
}

#[test]
fn a_fault_in_a_stack_never_changes_the_answers_before_it() {
    for shape in shapes() {
        let (mut out, mut notes) = (Vec::new(), Vec::new());
        let result = solve_all(shape.input.as_bytes(), Mode::Solve, &mut out, &mut notes);
        match result {
            Err(Failure::Input(e)) => assert_eq!((e.case, e.line, e.column), shape.fault, "{}: {e}", shape.name),
            other => panic!("{}: expected an input error, got {other:?}", shape.name),
        }
        assert!(notes.is_empty(), "{}: {}", shape.name, String::from_utf8_lossy(&notes));
        let verdict = sudoku_check::check(shape.alone.as_bytes(), &mut out.as_slice(), None);
        assert_eq!(verdict, CheckOutcome::Accepted, "{}: {}", shape.name, String::from_utf8_lossy(&out));
    }
}

/// A vertical canvas of 9-cell rows that has a solution is still one canvas where grids are
/// due after it: the fallback to a grid is for a canvas without solution only.
#[test]
fn a_vertical_twodoku_with_a_solution_stays_a_canvas_before_more_cases() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("cases/gattai/vertical-twodoku/input.txt");
    let twodoku = std::fs::read_to_string(path).unwrap();
    let grid = rows()[..9].join("\n") + "\n";
    let input = format!("3\n{twodoku}\n{grid}{grid}");
    let (mut out, mut notes) = (Vec::new(), Vec::new());
    solve_all(input.as_bytes(), Mode::Solve, &mut out, &mut notes).unwrap();
    assert_eq!(String::from_utf8_lossy(&out).lines().count(), 15 + 9 + 9);
    assert_eq!(sudoku_check::check(input.as_bytes(), &mut out.as_slice(), None), CheckOutcome::Accepted);
}

/// Stdout, stderr and exit status of `program` on `input`.
fn run(program: &std::path::Path, input: &str) -> (String, String, Option<i32>) {
    use std::io::Write;
    let mut child = std::process::Command::new(program)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // A program that stops at the fault may close its stdin before reading all of it.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    let out = child.wait_with_output().unwrap();
    (String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into(), out.status.code())
}

#[test]
fn every_tailored_file_prints_the_full_files_bytes_and_error_on_a_broken_stack() {
    let full = assert_cmd::cargo::cargo_bin!("sudoku");
    // The 9x9 files (no canvas reader) and the Samurai file (with it), built as `judge submit`
    // writes them (the submit test checks the files it writes are these).
    let programs: Vec<_> = ["poj2676", "samurai"]
        .into_iter()
        .map(|problem| (problem, super::compiled::tailored(&sudoku_judge::problems::find(problem).unwrap())))
        .collect();
    for shape in shapes() {
        let (stdout, stderr, code) = run(full, &shape.input);
        assert_eq!(code, Some(1), "{}: {stderr}", shape.name);
        let (case, line, column) = shape.fault;
        let at = format!("sudoku: error: case {case}, line {line}, column {column}: expected ");
        assert!(stderr.starts_with(&at), "{}: {stderr}", shape.name);
        for (problem, program) in &programs {
            assert_eq!(run(program, &shape.input), (stdout.clone(), stderr.clone(), code), "{problem}: {}", shape.name);
        }
    }
}
