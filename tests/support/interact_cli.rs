//! Interactive cases from the outside: the bundled problem passes with its solver, and the
//! fixture's misbehaviours, as a solver or as the interactor, get the verdicts testlib judges
//! give (WA, TLE when idle, RE, IE), with the transcript of the last exchange in the report.

use super::{folder, judge};
use predicates::prelude::*;

/// A folder `cases/a` holding the bundled case with three solutions (budget 2), judged by
/// `@interactor`, with no solver of its own.
fn oracle_case() -> tempfile::TempDir {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("cases/interactive/three-solutions");
    let read = |name: &str| std::fs::read_to_string(root.join(name)).unwrap();
    let (input, expected) = (read("input.txt"), read("expected.txt"));
    folder(&[
        ("cases/a/input.txt", &input),
        ("cases/a/expected.txt", &expected),
        ("cases/a/case.toml", "interactor = \"@interactor\"\n"),
    ])
}

/// The verdict in case `a`'s row of a report.
fn verdict_of(report: &str) -> String {
    let row = report.lines().find(|l| l.starts_with("a ")).unwrap_or_default();
    row.split_whitespace().nth(1).unwrap_or_default().to_string()
}

#[test]
fn the_bundled_interactive_problem_passes_with_its_solver() {
    let cache = tempfile::tempdir().unwrap();
    judge()
        .env("XDG_CACHE_HOME", cache.path())
        .arg("cases/interactive")
        .assert()
        .success()
        .stdout(predicate::str::ends_with("4 passed, 0 failed\n"));
}

#[test]
fn each_misbehaviour_gets_the_verdict_testlib_judges_give() {
    let wrong_grid = "print !; ".to_string() + &["print 123456789"; 9].join("; ");
    let cases: [(&[&str], &str, &str); 6] = [
        (&["--", "@fixture", &wrong_grid], "WA", "row 1 column 2 is 2, the hidden solution has 4"),
        (&["--", "@fixture", "print ? 1 1; print ? 1 2; print ? 1 3"], "WA", "over the budget of 2 queries"),
        // Waits for a reply to a question it never asked: ended at the wall limit.
        (&["--wall-limit", "1s", "--", "@fixture", "drain"], "TLE", "not using the CPU"),
        (&["--", "@fixture", "print ? 1 2; segv"], "RE", "SIGSEGV"),
        // The interactor's WA comes first; the crash after it (on a closed stdin) changes nothing.
        (&["--", "@fixture", &format!("{wrong_grid}; drain; segv")], "WA", "the interactor says WA"),
        (&["--interactor", "@fixture abort", "--", "@fixture", "print ? 1 2"], "IE", "the interactor died of SIGABRT"),
    ];
    let dir = oracle_case();
    for (args, verdict, says) in cases {
        let out = judge().current_dir(dir.path()).arg("cases").args(args).assert().code(1);
        let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
        assert_eq!(verdict_of(&text), verdict, "{args:?}: {text}");
        assert!(text.contains(says), "{args:?}: {text}");
        assert!(text.contains("transcript (last lines; > solver to interactor"), "{args:?}: {text}");
        // The puzzle `@interactor` sent is in the transcript's last lines.
        assert!(verdict == "IE" || text.contains("  < 804000107\n"), "{args:?}: {text}");
    }
}

#[test]
fn an_interactor_named_in_case_toml_is_taken_from_its_folder_and_may_write_its_output_file() {
    // Reads the solver's greeting, answers it, and logs to OUTPUT: exit 3 (IE) if it cannot.
    let script = "#!/bin/sh\nread hello\n[ \"$hello\" = hello ] || exit 1\necho welcome\nread bye\n\
                  echo \"said $bye\" > \"$2\" || exit 3\n[ \"$(cat \"$2\")\" = 'said bye' ] || exit 3\n";
    let dir = folder(&[
        ("cases/case.toml", "interactor = \"./talk.sh\"\n"),
        ("cases/talk.sh", script),
        ("cases/a/input.txt", "1\n"),
    ]);
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir.path().join("cases/talk.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    judge()
        .current_dir(dir.path())
        .args(["cases", "--", "@fixture", "print hello; print bye"])
        .assert()
        .success()
        .stdout(predicate::str::contains("a     AC"));
    judge()
        .current_dir(dir.path())
        .args(["cases", "--", "@fixture", "print goodbye"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("the interactor says WA").and(predicate::str::contains("> goodbye")));
}

#[test]
fn the_json_report_holds_the_transcript_of_a_failed_interactive_case() {
    let dir = oracle_case();
    let json = dir.path().join("r.json");
    judge()
        .current_dir(dir.path())
        .args(["cases", "--json"])
        .arg(&json)
        .args(["--", "@fixture", "print ? 1 1; print ? 1 2; print ? 1 3"])
        .assert()
        .code(1);
    let report: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let transcript = &report["cases"][0]["transcript"];
    let lines = transcript["lines"].as_array().unwrap_or_else(|| panic!("{report}"));
    assert!(lines.iter().any(|l| l["from"] == "solver" && l["text"] == "? 1 3"), "{transcript}");
    assert!(lines.iter().any(|l| l["from"] == "interactor" && l["text"] == "804000107"), "{transcript}");
}

#[test]
fn an_interactor_s_log_is_capped_like_any_output() {
    // An interactor that writes 100 MB into its OUTPUT log: the log is a file of the
    // judge's, which nothing else capped (2 GiB of it was AC). It accepts (exit 0) only when
    // the write was stopped short at the 64 MiB cap; a log written whole is WA (exit 1).
    let dir = folder(&[("cases/a/input.txt", "1\n"), ("cases/a/case.toml", "interactor = \"./hog.sh\"\n")]);
    let hog = dir.path().join("cases/a/hog.sh");
    super::sandbox_cli::executable(
        &hog,
        "head -c 100000000 /dev/zero > \"$2\" 2>/dev/null\n[ \"$(wc -c < \"$2\")\" -le 67108864 ] && exit 0\nexit 1\n",
    );
    judge().current_dir(dir.path()).args(["cases", "--", "@fixture", "drain"]).assert().success();
}
