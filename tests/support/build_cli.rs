//! The compile step from the outside: a solver given as a source is built once into the
//! cache, a failed build is CE for the run with the compiler's message, and `--compiler-cmd`
//! replaces the default command. Only rustc and sh are assumed (CI has nothing else).

use super::{folder, judge};
use predicates::prelude::*;

const ADD: &str = "use std::io::Read;\nfn main() {\n    let mut s = String::new();\n    std::io::stdin().read_to_string(&mut s).unwrap();\n    let n: i64 = s.split_whitespace().map(|w| w.parse::<i64>().unwrap()).sum();\n    println!(\"{n}\");\n}\n";

fn add_cases() -> tempfile::TempDir {
    folder(&[
        ("cases/a/input.txt", "1 2\n"),
        ("cases/a/expected.txt", "3\n"),
        ("cases/b/input.txt", "40 2\n"),
        ("cases/b/expected.txt", "42\n"),
    ])
}

#[test]
fn a_rust_source_is_built_and_judged_and_a_broken_one_is_ce() {
    let dir = add_cases();
    let cache = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("add.rs"), ADD).unwrap();
    std::fs::write(dir.path().join("broken.rs"), "fn main() { let x: u8 = \"no\"; }\n").unwrap();
    let run = |solver: &str| {
        let mut cmd = judge();
        cmd.current_dir(dir.path()).env("XDG_CACHE_HOME", cache.path()).args(["cases", "--solver", solver]);
        cmd.assert()
    };
    run("add.rs").success().stdout(predicate::str::ends_with("2 passed, 0 failed\n"));
    // One program in the cache, and the record of what it was when built.
    let built = std::fs::read_dir(cache.path().join("sudoku-judge/build")).unwrap().count();
    assert_eq!(built, 2, "one program and its .sum in the cache");
    run("broken.rs")
        .code(1)
        .stdout(
            predicate::function(|out: &str| {
                out.lines().filter(|l| l.split_whitespace().nth(1) == Some("CE")).count() == 2
            })
            .and(predicate::str::ends_with("0 passed, 2 failed\n")),
        )
        .stderr(
            predicate::str::contains("judge: CE: broken.rs did not compile")
                .and(predicate::str::contains("mismatched types")),
        );
}

#[test]
fn the_build_is_cached_by_source_and_command_and_the_command_can_be_replaced() {
    let dir = add_cases();
    let cache = tempfile::tempdir().unwrap();
    // A "C" source that is really a shell script, "compiled" by copying: no C compiler needed.
    std::fs::write(dir.path().join("add.c"), "#!/bin/sh\nread a b\necho $((a + b))\n").unwrap();
    let compiler = "sh -c 'cp \"$0\" \"$1\"; chmod +x \"$1\"' {src} {out}".to_string();
    let run = || {
        let mut cmd = judge();
        cmd.current_dir(dir.path()).env("XDG_CACHE_HOME", cache.path()).args([
            "cases",
            "--solver",
            "add.c",
            "--compiler-cmd",
            &compiler,
        ]);
        cmd.assert().success().stdout(predicate::str::ends_with("2 passed, 0 failed\n"));
    };
    // A build runs in the sandbox and writes nothing but its program: the programs in the
    // cache count the builds.
    let builds = || {
        let folder = cache.path().join("sudoku-judge/build");
        let names = std::fs::read_dir(folder).into_iter().flatten().flatten().map(|e| e.file_name());
        names.filter(|n| n.to_string_lossy().ends_with("-add")).count()
    };
    // Which file the cached program is: a build renames a new one into place.
    let program = || {
        use std::os::unix::fs::MetadataExt;
        let folder = cache.path().join("sudoku-judge/build");
        let names = std::fs::read_dir(folder).into_iter().flatten().flatten();
        names.filter(|e| e.file_name().to_string_lossy().ends_with("-add")).map(|e| e.metadata().unwrap().ino()).next()
    };
    run();
    let first = program();
    run();
    assert_eq!(builds(), 1);
    assert_eq!(program(), first, "the second run uses the cache");
    std::fs::write(dir.path().join("add.c"), "#!/bin/sh\nread a b\necho $((b + a))\n").unwrap();
    run();
    assert_eq!(builds(), 2, "a changed source is built again");
}

#[test]
fn a_reference_that_does_not_build_is_a_usage_error() {
    let dir = add_cases();
    let cache = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("broken.rs"), "fn main() {\n").unwrap();
    judge()
        .current_dir(dir.path())
        .env("XDG_CACHE_HOME", cache.path())
        .args(["cases", "--solver", "@fixture", "--ref", "broken.rs"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--ref: CE: broken.rs did not compile"));
}

// The bar for a suite: a plain depth-first solution, as judges accept, built from source and
// speaking the judge's own format, passes every case its judge could send. Three tests, one
// per solution, so that their searches (some 20 s of CPU in all) run side by side with the
// other tests rather than one after another. AcWing 166 and 169 judge the very cases of POJ
// 3074 and 3076, in the same format: their runs would repeat those below.

/// Judges `source` on each problem's suite but its hard cases, and checks that it passes all;
/// `told` gives it the problem's name as its argument (the 9x9 fixtures read several formats).
fn passes_each_suite_but_the_hard_cases(problems: &[&str], source: &str, told: bool) {
    let cache = tempfile::tempdir().unwrap();
    for problem in problems {
        let out = judge()
            .env("XDG_CACHE_HOME", cache.path())
            // The time limit is lifted so that a loaded machine cannot fail the test: what is
            // tested is the format, and `hard` is decided against the judge's limit elsewhere.
            .args(["--problem", problem, "--skip-tag", "hard", "--time-limit", "60s", "--jobs", "2"])
            .args(["--", source])
            .args(told.then_some(problem))
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{problem}: {text}{}", String::from_utf8_lossy(&out.stderr));
        let passed: usize = text.lines().last().and_then(|l| l.split(' ').next()).and_then(|n| n.parse().ok()).unwrap();
        assert!(passed >= 17, "{problem}: {text}");
    }
}

/// 9x9 problems: the plain backtracking in reading order that most accepted solutions are (the
/// yardstick of `hard`).
#[test]
fn a_plain_backtracking_solution_passes_each_9x9_suite_but_the_hard_cases() {
    passes_each_suite_but_the_hard_cases(&["poj2676", "poj3074", "luogu1784"], "tests/fixtures/plain.rs", true);
}

/// 9x9 problems: the usual fewest-candidates search.
#[test]
fn a_typical_accepted_solution_passes_each_9x9_suite_but_the_hard_cases() {
    passes_each_suite_but_the_hard_cases(&["poj2676", "poj3074", "luogu1784"], "tests/fixtures/typical.rs", true);
}

/// 16x16 problems: dancing links, the usual accepted solution there.
#[test]
fn dancing_links_pass_each_16x16_suite_but_the_hard_cases() {
    passes_each_suite_but_the_hard_cases(&["poj3076", "spoj-sudoku"], "tests/fixtures/dlx16.rs", false);
}

#[test]
fn a_problem_brings_its_judge_s_limits_and_checker_and_only_its_suite() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report.json");
    judge().args(["--problem", "luogu1784", "--json"]).arg(&report).assert().success();
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    let cases = json["cases"].as_array().unwrap();
    assert!(cases.len() >= 20, "{} cases", cases.len());
    for case in cases {
        assert_eq!(case["limits"]["time"], 1000, "{case}");
        assert_eq!(case["limits"]["memory_kib"], 128 * 1024, "{case}");
    }
    // --tag narrows the suite; it never widens it.
    judge()
        .args(["--problem", "poj2676", "--tag", "samurai"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("the tag poj2676 (--problem)"));
    judge().args(["--problem", "poj9999"]).assert().code(2).stderr(predicate::str::contains("use one of poj2676"));
}

#[test]
fn a_compiler_out_of_memory_is_ce_saying_so() {
    // A "compiler" that takes 2.1 GiB, past the 2 GiB a build may use, then fails: the CE
    // names memory, not only the exit or the signal.
    let dir = add_cases();
    let cache = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("add.rs"), ADD).unwrap();
    let judge_exe = assert_cmd::cargo::cargo_bin!("judge");
    let compiler = format!("{} --builtin fixture alloc 2100; exit 1; print {{src}} {{out}}", judge_exe.display());
    judge()
        .current_dir(dir.path())
        .env("XDG_CACHE_HOME", cache.path())
        .args(["cases", "--compiler-cmd", &compiler, "--solver", "add.rs"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("ran out of memory (over 2048 MiB)"));
}

#[test]
fn editing_a_module_the_source_uses_rebuilds_it() {
    let dir = folder(&[
        ("cases/a/input.txt", ""),
        ("cases/a/expected.txt", "1\n"),
        ("main.rs", "mod helper;\nfn main() {\n    println!(\"{}\", helper::answer());\n}\n"),
        ("helper.rs", "pub fn answer() -> i64 {\n    1\n}\n"),
    ]);
    let cache = tempfile::tempdir().unwrap();
    let run = || {
        let mut cmd = judge();
        cmd.current_dir(dir.path()).env("XDG_CACHE_HOME", cache.path()).args(["cases", "--solver", "main.rs"]);
        cmd.assert()
    };
    run().success();
    // main.rs is the same bytes, so only what the build read tells that the program is stale.
    std::fs::write(dir.path().join("helper.rs"), "pub fn answer() -> i64 {\n    2\n}\n").unwrap();
    run().code(1).stdout(predicate::str::contains("WA"));
    std::fs::write(dir.path().join("helper.rs"), "pub fn answer() -> i64 {\n    1\n}\n").unwrap();
    run().success();
}
