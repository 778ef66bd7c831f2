//! Two configurations in one process keep their own: what one judging round's runs are given
//! (its sandbox's level, the variables passed on, the cases hidden, the user's languages)
//! never reaches another round's, whether the library makes both or a contest judges two
//! problems one after the other.

use super::{folder, judge};
use std::os::unix::fs::PermissionsExt;
use std::sync::Arc;
use sudoku_judge::exec::{self, Program, Runner, Setup};
use sudoku_judge::limits::Limits;
use sudoku_judge::sandbox::{Level, Sandbox};

/// A runner over `sandbox`, the judge as its launcher.
fn runner(sandbox: Sandbox) -> Runner {
    Runner::new(Arc::new(Setup { sandbox, ..Setup::new(assert_cmd::cargo::cargo_bin!("judge")) }))
}

#[test]
fn two_sandboxes_made_in_one_process_each_keep_their_level_variables_and_hidden_cases() {
    let dir = folder(&[("case/input.txt", ""), ("case/lib.sh", "hidden\n"), ("stdin", "")]);
    // A root judge's runs are a user of their own: the folders must be theirs to enter.
    for sub in ["", "case"] {
        std::fs::set_permissions(dir.path().join(sub), std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let input = dir.path().join("case/input.txt");
    let mark = |v: &str| vec![("JUDGE_SETUP_MARK".into(), Some(v.into()))];
    // All three made before any of them runs, as a process judging several rounds makes them.
    let a = Sandbox::new(Level::Auto, mark("a")).unwrap().hiding([input.as_path()]);
    let hides = a.protections().files || a.protections().own_root;
    let (a, b, off) = (runner(a), runner(Sandbox::new(Level::Auto, mark("b")).unwrap()), runner(Sandbox::off()));
    // Builtins alone: a run outside the sandbox gets no PATH. A folder named in a command
    // shows it the modules in it (a script's), unless it holds a case.
    let script = "printf '%s,%s,' \"$JUDGE_SETUP_MARK\" \"$ONLINE_JUDGE\"; \
                  if read -r line < \"$1/lib.sh\"; then printf '%s' \"$line\"; else printf unread; fi";
    let program = Program {
        program: "/bin/sh".into(),
        args: vec!["-c".into(), script.into(), "sh".into(), dir.path().join("case").into()],
        env: Vec::new(),
    };
    let said = |runner: &Runner| {
        let facts = exec::run(runner, &program, &dir.path().join("stdin"), &Limits::default());
        assert_eq!(facts.exit_code, Some(0), "{facts:?}");
        String::from_utf8(facts.stdout.read_all().unwrap()).unwrap()
    };
    // Interleaved, so that whichever was made or ran last cannot decide for the others.
    assert_eq!(said(&b), "b,1,hidden");
    let from_a = said(&a);
    if hides {
        assert_eq!(from_a, "a,1,unread");
    } else {
        println!("this kernel gives no Landlock and no root of a run's own: the hidden case is not checked");
        assert!(from_a.starts_with("a,1,"), "{from_a}");
    }
    assert_eq!(said(&off), ",,hidden");
    assert_eq!(said(&b), "b,1,hidden");
}

#[test]
fn a_contest_s_problems_keep_their_own_languages() {
    if std::process::Command::new("python3").arg("-V").output().map_or(true, |o| !o.status.success()) {
        println!("no python3 on PATH: the contest's Python problems cannot be judged here");
        return;
    }
    // A says its .py files run as a command that prints 4; B says nothing of .py.
    let dir = folder(&[
        ("A/sample-1.in", "1\n"),
        ("A/sample-1.out", "4\n"),
        ("A/case.toml", "[language.py]\nrun = \"sh -c 'echo 4' {src}\"\n"),
        ("A/main.py", "print(0)\n"),
        ("B/sample-1.in", "1\n"),
        ("B/sample-1.out", "3\n"),
        ("B/main.py", "print(3)\n"),
    ]);
    let out = judge().current_dir(dir.path()).output().unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("contest: 2 of 2 problems judged: A passed (1/1), B passed (1/1)"), "{stdout}{stderr}");
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
}
