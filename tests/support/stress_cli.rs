//! `judge stress` and `judge --ref` from the outside, driven by the fixture's planted bug.

use super::judge;
use predicates::prelude::*;

#[test]
fn a_planted_bug_is_found_shrunk_saved_and_replayed() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("stress.json");
    let out = judge()
        .args(["stress", "--gen", "@gen -n 4", "--tests", "50", "--seed", "9", "--save"])
        .arg(dir.path())
        .arg("--json")
        .arg(&json)
        .args(["--", "@fixture", "planted", "5"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("failed: WA"), "{text}");
    // The shrinker keeps one case and the givens the bug needs: markedly fewer than the
    // twenty-odd of each of four generated puzzles.
    let line = text.lines().find(|l| l.starts_with("shrunk in")).expect("a shrink line");
    let after: usize = line
        .split("-> ")
        .nth(1)
        .and_then(|a| a.split(", ").nth(2))
        .and_then(|g| g.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("givens after");
    assert!(line.contains(", 4 cases, ") && line.contains("1 case,") && after <= 3, "{line}");
    let report: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(report["ending"], "failed");
    let seed = report["what"]["test"]["seed"].as_u64().expect("the failing seed");
    let saved = dir.path().join(format!("stress-{seed}"));
    assert!(text.contains(&format!("saved as {}", saved.display())), "{text}");
    // The test's seed reproduces its input alone.
    let alone = judge().args(["gen", "-n", "4", &seed.to_string()]).output().unwrap().stdout;
    assert_eq!(report["what"]["test"]["input_bytes"].as_u64(), Some(alone.len() as u64));
    // The saved folder replays: the same verdict for the buggy solver, AC for ours.
    judge()
        .arg(&saved)
        .args(["--", "@fixture", "planted", "5"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("WA"));
    judge().arg(&saved).assert().success();
    let toml = std::fs::read_to_string(saved.join("case.toml")).unwrap();
    assert!(toml.contains("checker = \"sudoku\"") && toml.contains(&format!("`@gen -n 4 {seed}`")), "{toml}");
}

#[test]
fn a_correct_solver_passes_against_a_reference_run_alongside() {
    let run = || {
        judge()
            .args(["stress", "--gen", "@gen -n 2 --any --format lines", "--ref", "@sudoku", "--tests", "12"])
            .args(["--jobs", "2", "--checker", "sudoku", "--", "@sudoku"])
            .output()
            .unwrap()
    };
    let first = run();
    assert_eq!(first.status.code(), Some(0), "{}", String::from_utf8_lossy(&first.stderr));
    let text = String::from_utf8_lossy(&first.stdout).to_string();
    assert!(text.starts_with("12 tests passed (--seed 1); slowest CPU time: solver"), "{text}");
    assert!(text.contains("reference"), "{text}");
}

#[test]
fn other_inputs_shrink_by_lines_and_broken_set_ups_exit_2() {
    // A generator of four lines, a solver that crashes on any input: the input shrinks to
    // nothing, since the crash needs none of it.
    judge()
        .args(["stress", "--gen", "@fixture print a;print b;print c;print d", "--tests", "3"])
        .args(["--", "@fixture", "exit", "3"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("failed: RE exit code 3").and(predicate::str::contains("-> 0 bytes")));
    judge()
        .args(["stress", "--gen", "@fixture exit 4;stderr", "--tests", "3"])
        .assert()
        .code(2)
        .stdout(predicate::str::contains("the generator failed on test 0"));
    judge()
        .args(["stress", "--gen", "@gen", "--ref", "@fixture exit 5", "--tests", "3"])
        .assert()
        .code(2)
        .stdout(predicate::str::contains("the reference failed on test 0"));
    judge().args(["stress", "--gen", "./no-such-generator"]).assert().code(2).stderr(predicate::str::contains("--gen"));
    judge().args(["stress"]).assert().code(2).stderr(predicate::str::contains("--gen"));
}

#[test]
fn judging_against_a_reference_needs_no_expected_output() {
    let dir = super::folder(&[(
        "one/input.txt",
        "1\n000000000\n000000000\n000000000\n000000000\n000000000\n000000000\n000000000\n000000000\n000000000\n",
    )]);
    judge().arg(dir.path()).args(["--ref", "@sudoku", "--checker", "lines"]).assert().success().stdout(
        predicate::str::contains("ref ms")
            .and(predicate::function(|out: &str| out.lines().any(|l| l.split_whitespace().take(2).eq(["one", "AC"])))),
    );
    judge()
        .arg(dir.path())
        .args(["--ref", "@sudoku", "--checker", "lines", "--", "@fixture", "planted", "0"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("WA"));
    judge()
        .arg(dir.path())
        .args(["--ref", "@fixture segv"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("the reference solution failed: RE killed by SIGSEGV"));
}

#[test]
fn a_duration_alone_runs_until_the_time_is_up() {
    // No --tests: nothing but the clock ends this run, so it must end, with at least one
    // test run and passed. Nothing is asserted about the time it took.
    let out = judge().args(["stress", "--gen", "@gen --format lines", "--duration", "300ms"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    let ran: u64 = text.split(' ').next().and_then(|n| n.parse().ok()).expect("a test count");
    assert!(ran >= 1 && text.contains("tests passed"), "{text}");
}

/// A shell script as a program (the seed arrives as its first argument).
fn script(dir: &std::path::Path, name: &str, body: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.display().to_string()
}

#[test]
fn a_generator_that_fails_or_prints_nothing_is_reported_with_its_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let failing = script(dir.path(), "gen-fail", "echo \"invalid value 'hexagon'\" >&2\nexit 2\n");
    judge().args(["stress", "--gen", &failing, "--tests", "3", "--", "@fixture", "print 1"]).assert().code(2).stdout(
        predicate::str::contains("the generator failed").and(predicate::str::contains("invalid value 'hexagon'")),
    );
    let silent = script(dir.path(), "gen-silent", "exit 0\n");
    judge()
        .args(["stress", "--gen", &silent, "--tests", "3", "--", "@fixture", "print 1"])
        .assert()
        .code(2)
        .stdout(predicate::str::contains("the generator printed nothing on test 0"));
}

#[test]
fn the_failing_run_s_stderr_is_in_the_report_and_shrinking_says_how_it_goes() {
    let dir = tempfile::tempdir().unwrap();
    let gen = script(dir.path(), "gen", "echo 1 2 3 4 5 6 7 8\n");
    // Fails (exit 1, with a traceback-like line) whenever the input holds a 5.
    let solver =
        script(dir.path(), "solver", "if grep -q 5; then echo 'Traceback: five found' >&2; exit 1; fi\necho ok\n");
    judge()
        .args(["stress", "--gen", &gen, "--tests", "2", "--", &solver])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("Traceback: five found").and(predicate::str::contains("shrunk in")))
        .stderr(predicate::str::contains("judge stress: shrinking: 1 runs"));
}

#[test]
fn a_validator_refuses_bad_inputs_and_bounds_the_shrinking() {
    let dir = tempfile::tempdir().unwrap();
    let gen = script(dir.path(), "gen", "echo 3 1 2 5 4\n");
    // Valid: the input holds a 3 (so the shrinker may not drop it).
    let validator = script(dir.path(), "valid", "grep -q 3 || { echo 'no 3' >&2; exit 1; }\n");
    let solver = script(dir.path(), "solver", "if grep -q 5; then exit 1; fi\necho ok\n");
    let out = judge()
        .args(["stress", "--gen", &gen, "--validator", &validator, "--tests", "2", "--", &solver])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    let shrunk = text.split("--- shrunk input ---\n").nth(1).and_then(|t| t.split("\n---").next()).unwrap();
    assert!(shrunk.contains('3') && shrunk.contains('5'), "{text}");
    let bad_gen = script(dir.path(), "gen-bad", "echo 1 2\n");
    judge()
        .args(["stress", "--gen", &bad_gen, "--validator", &validator, "--tests", "2", "--", &solver])
        .assert()
        .code(2)
        .stdout(
            predicate::str::contains("the validator refuses the input of test 0").and(predicate::str::contains("no 3")),
        );
}

#[test]
fn a_failure_that_does_not_come_back_is_not_shrunk() {
    let dir = tempfile::tempdir().unwrap();
    let gen = script(dir.path(), "gen", "echo 1 2 3\n");
    // Fails only the first time it ever runs.
    let mark = dir.path().join("ran");
    let solver = script(
        dir.path(),
        "solver",
        &format!("if [ -e {0} ]; then echo ok; else touch {0}; exit 1; fi\n", mark.display()),
    );
    judge()
        .args(["stress", "--gen", &gen, "--tests", "1", "--sandbox", "off", "--", &solver])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("not shrunk: the RE did not come back"));
}
