//! A path means what the user meant: a file that belongs to a case is judged as that case
//! (its answer, its case.toml and the suite's), a suite's case.toml applies however the suite
//! is reached, and a checker named in case.toml is built like a solver, or is IE.

use super::{folder, judge};
use predicates::prelude::*;

const ADD_PY: &str = "import sys\nprint(sum(map(int, sys.stdin.read().split())))\n";

/// A folder of cases in every layout, each expecting the wrong sum (so a judged answer
/// shows as WA), with a suite case.toml beside the Polygon `tests/`.
fn layouts() -> tempfile::TempDir {
    folder(&[
        ("add.py", ADD_PY),
        ("oj/test/s-2.in", "1 2\n"),
        ("oj/test/s-2.out", "4\n"),
        ("folders/cases/a/input.txt", "1 2\n"),
        ("folders/cases/a/expected.txt", "4\n"),
        ("folders/cases/a/case.toml", "points = 5\n"),
        ("poly/case.toml", "points = 3\n"),
        ("poly/tests/02", "1 2\n"),
        ("poly/tests/02.a", "4\n"),
        ("atc/in/x.txt", "1 2\n"),
        ("atc/out/x.txt", "4\n"),
        ("lone.txt", "1 2\n"),
    ])
}

#[test]
fn a_file_of_a_case_is_judged_with_its_answer_and_settings() {
    let dir = layouts();
    for (path, score) in [
        ("oj/test/s-2.in", None),
        ("folders/cases/a/input.txt", Some("score 0 / 5")),
        ("poly/tests/02", Some("score 0 / 3")),
        ("atc/in/x.txt", None),
    ] {
        let out = judge().current_dir(dir.path()).args([path, "--", "python3", "add.py"]).assert().code(1);
        let out = out.stdout(predicate::str::contains("WA").and(predicate::str::contains("0 passed, 1 failed")));
        if let Some(score) = score {
            out.stdout(predicate::str::contains(score));
        }
    }
    // A lone file has nothing to compare: OK, and a warning says so.
    judge()
        .current_dir(dir.path())
        .args(["lone.txt", "--", "python3", "add.py"])
        .assert()
        .success()
        .stderr(predicate::str::contains("lone.txt has no answer beside it"));
}

#[test]
fn a_suite_case_toml_beside_tests_applies_however_the_suite_is_reached() {
    let dir = layouts();
    let poly = dir.path().join("poly");
    for args in [&[][..], &["tests"][..], &["."][..]] {
        judge()
            .current_dir(&poly)
            .args(args)
            .args(["--", "python3", "../add.py"])
            .assert()
            .code(1)
            .stdout(predicate::str::contains("score 0 / 3"));
    }
}

#[test]
fn a_checker_source_in_case_toml_is_built_and_one_that_cannot_start_is_ie() {
    // Accepts anything: a Python checker without a #! line, built (checked) and run by python3.
    let dir = folder(&[
        ("add.py", ADD_PY),
        ("cases/py/input.txt", "1 2\n"),
        ("cases/py/expected.txt", "4\n"),
        ("cases/py/chk.py", "import sys\nsys.exit(0)\n"),
        ("cases/py/case.toml", "checker_cmd = \"./chk.py\"\n"),
        ("cases/sh/input.txt", "1 2\n"),
        ("cases/sh/expected.txt", "3\n"),
        ("cases/sh/chk", "exit 0\n"),
        ("cases/sh/case.toml", "checker_cmd = \"./chk\"\n"),
    ]);
    use std::os::unix::fs::PermissionsExt;
    let chk = dir.path().join("cases/sh/chk");
    std::fs::set_permissions(&chk, std::fs::Permissions::from_mode(0o755)).unwrap();
    let cache = tempfile::tempdir().unwrap();
    let out = judge()
        .current_dir(dir.path())
        .env("XDG_CACHE_HOME", cache.path())
        .args(["cases", "--", "python3", "add.py"])
        .assert()
        .code(1);
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let row = |name: &str| text.lines().find(|l| l.starts_with(name)).unwrap_or_default().to_string();
    assert!(row("py ").contains(" AC "), "{text}");
    // A script without #! is not a program: the checker never started, so IE, never PE.
    assert!(row("sh ").contains(" IE "), "{text}");
    assert!(text.contains("not a program"), "{text}");
}

#[test]
fn discovery_never_follows_a_link_out_of_the_tree() {
    let dir = folder(&[("cases/a/input.txt", ""), ("cases/a/expected.txt", "x\n")]);
    std::os::unix::fs::symlink("/", dir.path().join("cases/root")).unwrap();
    std::os::unix::fs::symlink(dir.path().join("cases/a"), dir.path().join("cases/b")).unwrap();
    judge()
        .current_dir(dir.path())
        .args(["cases", "--", "@fixture", "print x"])
        .assert()
        .success()
        .stdout(predicate::str::ends_with("2 passed, 0 failed\n"))
        .stderr(predicate::str::contains("a link to a folder outside"));
}

#[test]
fn cf_tool_and_cph_tests_are_read_like_the_other_layouts() {
    let prob = r#"{"name":"A","url":"","interactive":false,"memoryLimit":256,"timeLimit":1000,"group":"g",
        "tests":[{"input":"1 2\n","output":"3\n","id":7},{"input":"2 2\n","output":"5\n","id":8}],
        "srcPath":"/elsewhere/add.py","local":true}"#;
    let dir = folder(&[
        ("add.py", ADD_PY),
        ("cf/contest/1/a/in1.txt", "1 2\n"),
        ("cf/contest/1/a/ans1.txt", "3\n"),
        ("cf/contest/1/a/in2.txt", "2 2\n"),
        ("cf/contest/1/a/ans2.txt", "5\n"),
        ("cph/.cph/.add.py_5f2b51ca2fdc5baa31ec02e002f69aec.prob", prob),
    ]);
    let out = judge()
        .current_dir(dir.path())
        .args(["cf", "cph", "--json", "-", "--", "python3", "add.py"])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let report: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let verdicts: Vec<(String, String)> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["name"].as_str().unwrap().to_string(), c["verdict"].as_str().unwrap().to_string()))
        .collect();
    let want = [("contest/1/a/1", "AC"), ("contest/1/a/2", "WA"), ("add.py/1", "AC"), ("add.py/2", "WA")];
    assert_eq!(verdicts, want.map(|(n, v)| (n.to_string(), v.to_string())));
    // cph keeps the problem's limits (Competitive Companion's): they apply.
    let cph = &report["cases"][2]["limits"];
    assert_eq!((cph["time"].as_u64(), cph["memory_kib"].as_u64()), (Some(1000), Some(256 * 1024)), "{cph}");
}
