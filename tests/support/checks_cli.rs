//! Checkers and settings that used to give a verdict by chance or in silence: a checker that
//! floods stdout, a testlib checker giving all the points, a case.toml that is not a small
//! regular file, limits that round to zero.

use super::{folder, judge};
use predicates::prelude::*;

fn executable(path: &std::path::Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn a_checker_flooding_stdout_is_judged_by_its_exit_code_every_time() {
    let dir = folder(&[
        ("cases/a/input.txt", "1\n"),
        ("cases/a/expected.txt", "1\n"),
        // 16 MiB on stdout, far past any output limit, then "accepted".
        ("chk", "#!/bin/sh\nhead -c 16777216 /dev/zero\nexit 0\n"),
    ]);
    executable(&dir.path().join("chk"));
    for _ in 0..4 {
        judge()
            .current_dir(dir.path())
            .args(["cases", "--checker-cmd", "./chk", "--", "@fixture", "print 1"])
            .assert()
            .success()
            .stdout(predicate::str::ends_with("1 passed, 0 failed\n"));
    }
}

#[test]
fn all_the_points_from_a_testlib_checker_are_ac() {
    for script in ["#!/bin/sh\necho 'points 1' >&2\nexit 7\n", "#!/bin/sh\nexit 116\n"] {
        let dir = folder(&[("cases/a/input.txt", "1\n"), ("cases/a/expected.txt", "1\n"), ("chk", script)]);
        executable(&dir.path().join("chk"));
        judge()
            .current_dir(dir.path())
            .args(["cases", "--checker-cmd", "./chk", "--", "@fixture", "print 1"])
            .assert()
            .success()
            .stdout(predicate::str::contains(" AC "));
    }
}

#[test]
fn a_case_toml_that_is_not_a_small_regular_file_is_ie_never_ignored() {
    let dir = folder(&[
        ("cases/folder/input.txt", "1\n"),
        ("cases/folder/expected.txt", "2\n"),
        ("cases/fifo/input.txt", "1\n"),
        ("cases/fifo/expected.txt", "2\n"),
        ("cases/huge/input.txt", "1\n"),
        ("cases/huge/expected.txt", "2\n"),
    ]);
    std::fs::create_dir(dir.path().join("cases/folder/case.toml")).unwrap();
    let fifo = std::ffi::CString::new(dir.path().join("cases/fifo/case.toml").to_str().unwrap()).unwrap();
    // SAFETY: a path and a mode.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
    let huge = std::fs::File::create(dir.path().join("cases/huge/case.toml")).unwrap();
    huge.set_len(1 << 30).unwrap(); // sparse: takes no disk
    let out = judge().current_dir(dir.path()).args(["cases", "--", "@fixture", "print 1"]).assert().code(1);
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    for name in ["folder", "fifo", "huge"] {
        let row = text.lines().find(|l| l.starts_with(name)).unwrap_or_default();
        assert!(row.contains(" IE "), "{name}: {text}");
    }
    assert!(text.contains("not a regular file") && text.contains("holds at most"), "{text}");
}

#[test]
fn limits_that_round_to_zero_or_lack_a_unit_are_usage_errors() {
    for (flag, value, says) in [
        ("--time-limit", "0.1ms", "at least 1ms"),
        ("--time-limit", "2", "2s for seconds"),
        ("--memory-limit", "100B", "at least 1KiB"),
        ("--output-limit", "0.5B", "at least 1B"),
    ] {
        judge().args(["cases/harness", flag, value]).assert().code(2).stderr(predicate::str::contains(says));
    }
}

#[test]
fn a_huge_input_under_the_sudoku_checker_is_ie_without_reading_it() {
    let dir = folder(&[("cases/big/expected.txt", "1\n")]);
    let input = std::fs::File::create(dir.path().join("cases/big/input.txt")).unwrap();
    // Sparse: zero bytes that take no disk, one past the 128 MiB the checker reads. The run
    // still gets a copy of its input, so a larger file only costs time (a GiB took 8 s).
    input.set_len((128 << 20) + 1).unwrap();
    let json = dir.path().join("r.json");
    judge()
        .current_dir(dir.path())
        .args(["cases", "--checker", "sudoku", "--json"])
        .arg(&json)
        .args(["--", "@fixture", "print 1"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("IE").and(predicate::str::contains("reads inputs of at most")));
}
