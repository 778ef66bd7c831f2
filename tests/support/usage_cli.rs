//! Usage mistakes get a usage error that names the cause and the fix, before any case runs.

use super::{folder, judge};
use predicates::prelude::*;

#[test]
fn help_names_every_problem_and_the_ce_verdict() {
    let out = judge().arg("--help").assert().success().get_output().stdout.clone();
    let help = String::from_utf8(out).unwrap();
    for p in &sudoku_judge::problems::PROBLEMS {
        assert!(help.contains(p.name), "{} missing from --help", p.name);
    }
    assert!(help.contains("CE compile error"), "{help}");
}

#[test]
fn help_lists_every_command_and_each_command_says_first_what_it_does() {
    let out = judge().arg("--help").assert().success().get_output().stdout.clone();
    let help = String::from_utf8(out).unwrap();
    assert!(help.starts_with("Judges a program on folders of test cases"), "{help}");
    for command in ["judge gen ", "judge stress ", "judge submit ", "judge listen "] {
        assert!(help.contains(command), "{command} missing from judge --help:\n{help}");
    }
    for (command, first) in [
        ("gen", "Generates Sudoku puzzles"),
        ("stress", "Runs a solver on generated inputs"),
        ("submit", "Writes a solver file tailored"),
        ("listen", "Receives problems from the Competitive Companion"),
    ] {
        let out = judge().args([command, "--help"]).assert().success().get_output().stdout.clone();
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with(first), "judge {command} --help starts: {}", text.lines().next().unwrap_or(""));
    }
}

#[test]
fn problem_alone_lists_the_problems_with_their_limits() {
    let out = judge().arg("--problem").assert().success().get_output().stdout.clone();
    let list = String::from_utf8(out).unwrap();
    for p in &sudoku_judge::problems::PROBLEMS {
        let line = list.lines().find(|l| l.split_whitespace().next() == Some(p.name));
        let line = line.unwrap_or_else(|| panic!("{} not listed:\n{list}", p.name));
        assert!(line.contains(&format!("{} ms", p.time_limit.as_millis())), "{line}");
    }
    // After the other flags too, and whatever folder it is run from.
    let elsewhere = folder(&[("notes.md", "nothing")]);
    judge().current_dir(elsewhere.path()).args(["--filter", "x", "--problem"]).assert().success().stdout(list);
}

#[test]
fn ojs_directory_flag_names_a_folder_to_judge() {
    let dir = folder(&[("test/sample-1.in", "print 1\n"), ("test/sample-1.out", "1\n")]);
    for flag in ["-d", "--directory"] {
        judge()
            .current_dir(dir.path())
            .args([flag, "test", "--solver", "@fixture"])
            .assert()
            .success()
            .stdout(predicate::str::contains("sample-1").and(predicate::str::ends_with("1 passed, 0 failed\n")));
    }
}

#[test]
fn a_solver_that_is_not_a_program_is_a_usage_error_naming_the_cause() {
    let dir = folder(&[("main.pas", "begin end.\n"), ("a.out", "#!/bin/sh\necho 1\n"), ("cases/a/input.txt", "1\n")]);
    judge()
        .current_dir(dir.path())
        .args(["--solver", "./main.pas"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a program").and(predicate::str::contains("--run-cmd")));
    judge()
        .current_dir(dir.path())
        .args(["--solver", "./a.out"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("chmod +x ./a.out"));
}

#[test]
fn the_json_report_is_checked_before_the_run_and_dash_means_stdout() {
    judge()
        .args(["cases/harness", "--json", "/nonexistent-dir/r.json"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("cannot write the --json report"));
    let dir = folder(&[("cases/a/input.txt", ""), ("cases/a/expected.txt", "hi\n")]);
    let out = judge()
        .current_dir(dir.path())
        .args(["cases", "--json", "-", "--", "@fixture", "print hi"])
        .assert()
        .success()
        .stderr(predicate::str::contains("1 passed, 0 failed"));
    let report: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(report["cases"][0]["verdict"], "AC", "{report}");
    assert!(!dir.path().join("-").exists(), "no file named -");
}

#[test]
fn oj_habits_get_what_to_write_instead() {
    judge().args(["cases/harness", "-e", "1e-6"]).assert().code(2).stderr(predicate::str::contains("--checker float"));
    judge()
        .args(["cases/harness", "-c", "./a.out"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--solver './a.out'"));
    judge().args(["cases/harness", "-t", "2"]).assert().code(2).stderr(predicate::str::contains("2s for seconds"));
}

#[test]
fn judge_flags_after_the_command_are_warned_about() {
    let dir = folder(&[("cases/a/input.txt", ""), ("cases/a/expected.txt", "hi\n")]);
    judge()
        .current_dir(dir.path())
        .args(["cases", "--", "@fixture", "print hi", "--filter", "x"])
        .assert()
        .stderr(predicate::str::contains("--filter comes after --, so the solver gets it"));
}

#[test]
fn a_command_too_long_to_start_is_a_usage_error_not_ie() {
    let long = format!("print {}", "x".repeat(70_000));
    judge()
        .args(["cases/harness", "--", "@fixture", &long])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("put long arguments in a file"));
}

#[test]
fn gen_refuses_more_clues_than_cells_and_more_puzzles_than_fit_in_memory() {
    let gen = || assert_cmd::Command::new(assert_cmd::cargo::cargo_bin!("judge"));
    gen().args(["gen", "--clues", "90"]).assert().code(2).stderr(predicate::str::contains("81 cells"));
    gen().args(["gen", "-n", "1000000000000"]).assert().code(2).stderr(predicate::str::contains("at most 1000000"));
    // One figure, not "81 to 81".
    gen()
        .args(["gen", "--clues", "80", "--seed", "3"])
        .assert()
        .success()
        .stderr(predicate::str::contains(" to ").not());
}

#[test]
fn stress_help_gives_its_own_checker_default() {
    let out =
        assert_cmd::Command::new(assert_cmd::cargo::cargo_bin!("judge")).args(["stress", "--help"]).output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    assert!(help.contains("[default: sudoku for @gen, lines otherwise]"), "{help}");
}

#[test]
fn a_build_command_without_out_is_a_usage_error() {
    judge()
        .args(["cases/harness", "--compiler-cmd", "g++ -O2 {src}"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("must name {src} and {out}"));
}

#[test]
fn a_judge_killed_outright_leaves_its_folder_to_the_next_one() {
    // A folder as a judge killed by SIGKILL leaves it: its PID runs no judge now.
    let stale = std::env::temp_dir().join("judge-999999999");
    std::fs::create_dir_all(stale.join("judge-run-x")).unwrap();
    std::fs::write(stale.join("judge-output-y"), "left").unwrap();
    judge().args(["cases/harness", "--filter", "ok"]).assert().code(predicate::in_iter([0, 1]));
    assert!(!stale.exists(), "{} was left", stale.display());
}
