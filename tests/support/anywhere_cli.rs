//! `judge` away from this repository, as an installed copy is used: the suites built into it,
//! the program it picks when none is given, and the first line naming what it judges.

use super::{folder, judge};
use predicates::prelude::*;

/// A copy of `judge` outside the repository, as `cargo install --root DIR` leaves it, run in
/// `dir`.
fn installed(bin: &tempfile::TempDir, dir: &std::path::Path) -> assert_cmd::Command {
    let exe = bin.path().join("judge");
    if !exe.exists() {
        // Copied by cp, not by this process: a copy written here keeps a writable descriptor
        // that another test's fork holds until its exec, and running the copy meanwhile fails
        // with ETXTBSY ("Text file busy", seen once under load).
        let copied = std::process::Command::new("cp").arg(assert_cmd::cargo::cargo_bin!("judge")).arg(&exe).status();
        assert!(copied.unwrap().success(), "cannot copy judge into {}", bin.path().display());
    }
    let mut cmd = assert_cmd::Command::new(exe);
    cmd.current_dir(dir).env("NO_COLOR", "1");
    cmd
}

#[test]
fn a_problem_suite_travels_with_the_installed_judge() {
    let bin = tempfile::tempdir().unwrap();
    // The input, echoed: not a solution, and the Sudoku checker says why.
    let dir = folder(&[("sol.py", "import sys\nsys.stdout.write(''.join(sys.stdin.readlines()[1:]))\n")]);
    installed(&bin, dir.path())
        .args(["--problem", "poj2676", "--skip-tag", "hard", "--solver", "@sudoku"])
        .assert()
        .success()
        .stdout(
            predicate::str::starts_with("solver: @sudoku\n").and(predicate::str::ends_with("27 passed, 0 failed\n")),
        )
        .stderr(predicate::str::contains(
            "--problem poj2676: judging the suite built into judge (34 cases; poj2676/big-10000 only in the repository",
        ));
    let out = installed(&bin, dir.path())
        .args(["--problem", "poj2676", "--filter", "sample", "--json", "-", "--", "./sol.py"])
        .assert()
        .code(1)
        .stderr(
            predicate::str::starts_with("judge: note: --problem poj2676")
                .and(predicate::str::contains("solver: ./sol.py")),
        )
        .get_output()
        .stdout
        .clone();
    let report: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let case = &report["cases"][0];
    assert_eq!((case["name"].as_str(), case["verdict"].as_str()), (Some("poj2676/sample"), Some("WA")), "{case}");
    assert_eq!((case["limits"]["time"].as_u64(), case["limits"]["memory_kib"].as_u64()), (Some(2000), Some(65536)));
    assert!(case["detail"].as_str().unwrap_or("").contains("blank"), "the Sudoku checker's word: {case}");
}

#[test]
fn an_oj_folder_judges_a_out_and_names_it_first() {
    let bin = tempfile::tempdir().unwrap();
    let dir = folder(&[("test/sample-1.in", "3 4\n"), ("test/sample-1.out", "3 4\n"), ("a.out", "#!/bin/sh\ncat\n")]);
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir.path().join("a.out"), std::fs::Permissions::from_mode(0o755)).unwrap();
    installed(&bin, dir.path())
        .assert()
        .success()
        .stdout(predicate::str::starts_with("solver: ./a.out (./a.out here, as oj picks it)\n"))
        .stdout(predicate::str::contains("sample-1").and(predicate::str::ends_with("1 passed, 0 failed\n")));
    // No program here: what to give.
    std::fs::remove_file(dir.path().join("a.out")).unwrap();
    installed(&bin, dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("which program? no ./a.out and no source file here"));
}

#[test]
fn with_cases_here_the_problem_says_which_suite_it_judges() {
    judge()
        .args(["--problem", "luogu1784", "--skip-tag", "hard"])
        .assert()
        .success()
        .stderr(predicate::str::contains("--problem luogu1784: the 21 cases tagged luogu1784 in cases"));
    // An oj folder's cases are not the problem's suite: the built-in one is judged, and said.
    let dir = folder(&[("test/sample-1.in", "1\n"), ("test/sample-1.out", "1\n")]);
    judge()
        .current_dir(dir.path())
        .args(["--problem", "samurai", "--filter", "seed", "--solver", "@sudoku"])
        .assert()
        .success()
        .stderr(predicate::str::contains("no case in test is tagged samurai, so judging the suite built into judge"));
    // Given as a path, they are judged with the problem's limits and checker.
    judge()
        .current_dir(dir.path())
        .args(["test", "--problem", "samurai", "--solver", "@fixture"])
        .assert()
        .stderr(predicate::str::contains("no case in test is tagged samurai: judging all 1 with samurai's limits"));
}
