//! `judge gen` from the outside: seeds, formats, usage errors, and files the solver reads.

use super::{judge, sudoku};
use predicates::prelude::*;

fn gen(args: &[&str]) -> Vec<u8> {
    let out = judge().arg("gen").args(args).output().expect("judge gen runs");
    assert!(out.status.success(), "judge gen {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

#[test]
fn gen_is_deterministic_and_takes_the_seed_as_a_last_word() {
    let a = gen(&["--count", "3", "--seed", "42"]);
    assert_eq!(a, gen(&["--count", "3", "42"]), "a trailing seed is --seed");
    assert_eq!(a, judge().args(["--builtin", "gen", "--count", "3", "42"]).output().unwrap().stdout, "@gen too");
    assert_ne!(a, gen(&["--count", "3", "43"]));
    assert!(a.starts_with(b"3\n"), "POJ 2676 is the default format");
}

#[test]
fn generated_files_are_what_they_claim_for_the_solver() {
    let counted = |input: Vec<u8>| {
        let out = sudoku().arg("--count=2").write_stdin(input).output().unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(counted(gen(&["-n", "20", "--format", "lines-end"])), "1\n".repeat(20));
    assert_eq!(counted(gen(&["--shape", "sohei", "-n", "2"])), "1\n1\n");
    assert_eq!(counted(gen(&["--shape", "twodoku", "-n", "2", "--format", "poj"])), "1\n1\n");
    assert_eq!(counted(gen(&["-n", "5", "--any", "--clues", "18", "--format", "spaced"])), "2\n".repeat(5));
    assert_eq!(counted(gen(&["-n", "6", "--no-solution", "--format", "grids"])), "0\n".repeat(6));
}

#[test]
fn gen_usage_errors_exit_2_and_notes_go_to_stderr() {
    judge()
        .args(["gen", "--shape", "samurai", "--format", "lines"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("poj or canvas"));
    judge().args(["gen", "--shape", "hexagon"]).assert().code(2).stderr(predicate::str::contains("samurai"));
    judge().args(["gen", "--any", "--no-solution"]).assert().code(2);
    judge()
        .args(["gen", "--clues", "12"])
        .assert()
        .success()
        .stderr(predicate::str::contains("asked for 12 givens: 1 of 1 puzzles have"));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.txt");
    judge().args(["gen", "-o"]).arg(&file).assert().success().stdout("");
    assert_eq!(std::fs::read(&file).unwrap(), gen(&[]));
}
