//! `judge` with no arguments: the folder you are in, in every layout the judge reads, and a
//! contest's root with each problem judged by its own program; and the same configuration
//! from every entry point (`judge`, `--watch`, `judge stress`, a contest): the same program
//! chosen, the same `--sandbox strict` refusal.

use super::{folder, judge};
use predicates::prelude::*;
use std::io::Read;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// Writes an executable shell script at `path`.
fn script(path: &Path, body: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn judge_alone_judges_the_folder_it_is_in_whatever_its_layout() {
    let cph = r#"{"name":"A","timeLimit":2000,"memoryLimit":256,"tests":[{"input":"3 4\n","output":"3 4\n","id":1}]}"#;
    let layouts: [(&str, &[(&str, &str)]); 9] = [
        (
            "judge listen's",
            &[("sample-1.in", "3 4\n"), ("sample-1.out", "3 4\n"), ("case.toml", "time_limit = \"2000ms\"\n")],
        ),
        ("oj", &[("test/sample-1.in", "3 4\n"), ("test/sample-1.out", "3 4\n")]),
        ("cph", &[(".cph/.main.cpp_0123456789abcdef0123456789abcdef.prob", cph)]),
        ("cf-tool", &[("in1.txt", "3 4\n"), ("ans1.txt", "3 4\n")]),
        ("Polygon", &[("tests/01", "3 4\n"), ("tests/01.a", "3 4\n")]),
        ("AtCoder", &[("in/sample_01.txt", "3 4\n"), ("out/sample_01.txt", "3 4\n")]),
        ("Kattis", &[("data/sample/1.in", "3 4\n"), ("data/sample/1.ans", "3 4\n")]),
        ("CSES", &[("1.in", "3 4\n"), ("1.out", "3 4\n")]),
        ("plain", &[("a.in", "3 4\n"), ("a.ans", "3 4\n")]),
    ];
    for (layout, files) in layouts {
        let dir = folder(files);
        script(&dir.path().join("a.out"), "cat");
        let out = judge().current_dir(dir.path()).output().unwrap();
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(out.status.success(), "{layout}: {stdout}{stderr}");
        assert!(stdout.starts_with("solver: ./a.out (./a.out here, as oj picks it)\n"), "{layout}: {stdout}");
        assert!(stdout.ends_with("1 passed, 0 failed\n"), "{layout}: {stdout}");
        // A wrong program fails there too: the cases were judged, not skipped.
        script(&dir.path().join("a.out"), "echo 0");
        judge().current_dir(dir.path()).assert().code(1).stdout(predicate::str::contains("0 passed, 1 failed"));
    }
}

/// A contest as `judge listen` writes one: A (a sum), B (a product), C (not started).
fn contest() -> tempfile::TempDir {
    let dir = folder(&[
        ("A-Sum/sample-1.in", "1 2\n"),
        ("A-Sum/sample-1.out", "3\n"),
        ("A-Sum/sample-2.in", "5 5\n"),
        ("A-Sum/sample-2.out", "10\n"),
        ("A-Sum/case.toml", "time_limit = \"2000ms\"\n"),
        ("B-Product/sample-1.in", "2 3\n"),
        ("B-Product/sample-1.out", "6\n"),
        ("B-Product/case.toml", "time_limit = \"2000ms\"\n"),
        ("C-Later/sample-1.in", "1\n"),
        ("C-Later/sample-1.out", "1\n"),
    ]);
    script(&dir.path().join("A-Sum/a.out"), "read a b; echo $((a + b))");
    script(&dir.path().join("B-Product/a.out"), "read a b; echo $((a * b))");
    dir
}

#[test]
fn judge_at_a_contests_root_judges_each_problem_with_its_own_program() {
    let dir = contest();
    let out = judge().current_dir(dir.path()).output().unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    for line in [
        "problem A-Sum/\nsolver: A-Sum/a.out (./a.out here, as oj picks it)\n",
        "2 passed, 0 failed",
        "problem B-Product/\nsolver: B-Product/a.out",
        "1 passed, 0 failed",
        "problem C-Later/\n",
        "contest: 2 of 3 problems judged: A-Sum passed (2/2), B-Product passed (1/1), C-Later no program\n",
    ] {
        assert!(stdout.contains(line), "{line}: {stdout}");
    }
    assert!(
        stderr.contains("C-Later: not judged: which program? no ./a.out and no source file in C-Later/"),
        "{stderr}"
    );
    // A wrong program in one problem fails the contest.
    script(&dir.path().join("B-Product/a.out"), "read a b; echo $((a + b))");
    let out = judge().current_dir(dir.path()).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("A-Sum passed (2/2), B-Product failed (0/1), C-Later no program"), "{stdout}");
    // A program given is one program for every problem, as asked.
    let out = judge().current_dir(dir.path()).args(["--", "A-Sum/a.out"]).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("solver: A-Sum/a.out\n") && !stdout.contains("contest:"), "{stdout}");
    // A program here, samples in a subfolder: a problem's folder, not a contest's.
    let one = folder(&[("samples/1.in", "1 2\n"), ("samples/1.out", "3\n")]);
    script(&one.path().join("a.out"), "read a b; echo $((a + b))");
    let out = judge().current_dir(one.path()).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && stdout.starts_with("solver: ./a.out") && !stdout.contains("contest:"), "{stdout}");
    // No problem with a program: nothing to judge.
    let empty = folder(&[("A/sample-1.in", "1\n"), ("A/sample-1.out", "1\n")]);
    judge()
        .current_dir(empty.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no problem here has a program"));
}

/// The user the entry points run as: `nobody` when the tests run as root (it lacks what
/// only root has, such as a cgroup of its own), else the tests' own user.
fn as_tested(command: &mut std::process::Command, dir: &Path) {
    use std::os::unix::process::CommandExt;
    // SAFETY: a plain query.
    if unsafe { libc::geteuid() } == 0 {
        for entry in walkdir::WalkDir::new(dir).into_iter().flatten() {
            std::fs::set_permissions(entry.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
        }
        command.uid(65534).gid(65534).env("HOME", dir).env("XDG_CACHE_HOME", dir.join(".cache"));
    }
}

/// `judge ARGS` in `dir`, as [`as_tested`], with piped output.
fn command(dir: &Path, args: &[&str]) -> std::process::Command {
    let mut command = std::process::Command::new(assert_cmd::cargo::cargo_bin!("judge"));
    command.current_dir(dir).env("NO_COLOR", "1").args(args).stdout(Stdio::piped()).stderr(Stdio::piped());
    as_tested(&mut command, dir);
    command
}

/// [`command`], started.
fn start(dir: &Path, args: &[&str]) -> Child {
    command(dir, args).spawn().unwrap()
}

/// Waits for `child` to end, up to a deadline far past any normal run (killed then); its
/// exit status (`None`: it did not end) and its stdout and stderr.
fn finish(mut child: Child) -> (Option<i32>, String, String) {
    let deadline = Instant::now() + Duration::from_secs(60);
    let code = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status.code();
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let (mut out, mut err) = (String::new(), String::new());
    let _ = child.stdout.take().unwrap().read_to_string(&mut out);
    let _ = child.stderr.take().unwrap().read_to_string(&mut err);
    (code, out, err)
}

/// A `--watch` run stopped once its first round is done (or at the deadline); what it printed.
fn first_round(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    watched(start(dir, args))
}

/// [`first_round`] of a `--watch` run already started.
fn watched(mut child: Child) -> (Option<i32>, String, String) {
    let mut err = child.stderr.take().unwrap();
    let seen = std::thread::spawn(move || {
        let mut text = Vec::new();
        let mut buf = [0u8; 4096];
        while let Ok(n @ 1..) = err.read(&mut buf) {
            text.extend_from_slice(&buf[..n]);
            if String::from_utf8_lossy(&text).contains("round 1 done") {
                break;
            }
        }
        String::from_utf8_lossy(&text).into_owned()
    });
    let deadline = Instant::now() + Duration::from_secs(60);
    while !seen.is_finished() && Instant::now() < deadline && child.try_wait().unwrap().is_none() {
        std::thread::sleep(Duration::from_millis(20));
    }
    let code = child.try_wait().unwrap().and_then(|s| s.code());
    let _ = child.kill();
    let _ = child.wait();
    let err = seen.join().unwrap_or_default();
    let mut out = String::new();
    let _ = child.stdout.take().unwrap().read_to_string(&mut out);
    (code, out, err)
}

#[test]
fn every_entry_point_refuses_strict_alike_where_a_protection_is_missing() {
    let dir = folder(&[("cases/a/input.txt", "1\n"), ("cases/a/expected.txt", "1\n")]);
    script(&dir.path().join("a.out"), "cat");
    let strict = ["--sandbox", "strict"];
    let (code, out, err) = finish(start(dir.path(), &[&["cases"][..], &strict, &["--", "./a.out"]].concat()));
    let refusal = err.lines().find(|l| l.starts_with("judge: --sandbox strict: ")).map(str::to_string);
    match (code, refusal) {
        (Some(2), Some(refusal)) => {
            let said = refusal.trim_start_matches("judge: ");
            let stress = [&["stress", "--gen", "@gen -n 1", "--tests", "2"][..], &strict, &["--", "./a.out"]].concat();
            for (entry, (code, out, err)) in [
                (
                    "--watch",
                    first_round(dir.path(), &[&["--watch", "cases"][..], &strict, &["--", "./a.out"]].concat()),
                ),
                ("stress", finish(start(dir.path(), &stress))),
            ] {
                assert_eq!(code, Some(2), "{entry}: {out}{err}");
                assert!(err.contains(said) && !out.contains("passed"), "{entry}: {said}: {out}{err}");
            }
            // A contest's problems, each with its program: refused once, before any.
            let contest = contest();
            let (code, out, err) = finish(start(contest.path(), &strict));
            assert!(code == Some(2) && err.contains(said) && !out.contains("problem A-Sum"), "{out}{err}");
        }
        // Every protection there: every entry point judges.
        (Some(0), None) => {
            let (_, _, err) =
                first_round(dir.path(), &[&["--watch", "cases"][..], &strict, &["--", "./a.out"]].concat());
            assert!(err.contains("round 1 done"), "--watch: {err}");
        }
        other => panic!("judge --sandbox strict: {other:?}: {out}{err}"),
    }
}

#[test]
fn every_entry_point_picks_and_names_the_program_as_judge_does() {
    let dir = folder(&[("cases/a/input.txt", "1\n"), ("cases/a/expected.txt", "1\n")]);
    // No program here: each asks which, none falls back to the bundled solver.
    let which = "which program? no ./a.out and no source file here";
    for (entry, args) in [
        ("judge", &["cases"][..]),
        ("--watch", &["--watch", "cases"][..]),
        ("stress", &["stress", "--gen", "@gen -n 1", "--tests", "2"][..]),
    ] {
        let (code, out, err) =
            if entry == "--watch" { first_round(dir.path(), args) } else { finish(start(dir.path(), args)) };
        assert_eq!(code, Some(2), "{entry}: {out}{err}");
        assert!(err.contains(which) && !out.contains("RE"), "{entry}: {out}{err}");
    }
    // ./a.out here: each judges it, and names it first as judge does.
    script(&dir.path().join("a.out"), "cat");
    let (code, judged, err) = finish(start(dir.path(), &["cases"]));
    assert_eq!(code, Some(0), "{judged}{err}");
    let named = judged.lines().next().unwrap_or_default().to_string();
    assert_eq!(named, "solver: ./a.out (./a.out here, as oj picks it)");
    let (_, watched, err) = first_round(dir.path(), &["--watch", "cases"]);
    assert!(watched.starts_with(&format!("{named}\n")) && watched.contains("1 passed, 0 failed"), "{watched}{err}");
    let save = dir.path().join("found");
    let save = save.to_str().unwrap();
    let stress = ["stress", "--gen", "@gen -n 1", "--tests", "1", "--shrink-tries", "0", "--save", save];
    let (code, out, err) = finish(start(dir.path(), &stress));
    // cat echoes the puzzle: the sudoku checker says WA, and the replay names ./a.out.
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("-- ./a.out"), "{out}");
}

#[test]
fn every_entry_point_names_a_class_path_that_is_the_home_folder() {
    // `java -cp . Main` in the home folder: runs never see that folder whole, so each entry
    // point says so before its first run, as `judge` does, rather than RE on every case.
    let Some(dir) = super::languages_cli::java_cases(".") else { return };
    let note = "runs never see '.' as a whole";
    let java = ["--", "java", "-Xmx64m", "-cp", ".", "Main"];
    let stress = [&["stress", "--gen", "@gen -n 1", "--tests", "1", "--shrink-tries", "0"][..], &java].concat();
    // The folder is the home of the user the judge runs as.
    let home = |args: &[&str]| command(dir.path(), args).env("HOME", dir.path()).spawn().unwrap();
    for (entry, (_, out, err)) in [
        ("judge", finish(home(&[&["cases"][..], &java].concat()))),
        ("--watch", watched(home(&[&["--watch", "cases"][..], &java].concat()))),
        ("stress", finish(home(&stress))),
    ] {
        assert!(err.contains(note), "{entry}: {out}{err}");
    }
    // From outside the folder, the class path named by its full path.
    let full = dir.path().to_str().unwrap();
    let mut outside = std::process::Command::new(assert_cmd::cargo::cargo_bin!("judge"));
    outside.current_dir("/").env("NO_COLOR", "1").args([&format!("{full}/cases"), "--", "java", "-cp", full, "Main"]);
    as_tested(&mut outside, dir.path());
    outside.env("HOME", dir.path());
    let out = outside.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("runs never see '{full}' as a whole")), "{err}");
}
