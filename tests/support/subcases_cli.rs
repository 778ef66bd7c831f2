//! Sub-case verdicts from the outside: a multi-test file with one wrong answer names that test
//! in the table, the details and `--json`, with its input and its answer's diff alone.

use std::path::Path;

/// A solver printing a + b for each line after the count, one too many on the test `wrong`.
fn adder(dir: &Path, wrong: usize) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join("add.sh");
    let body = format!("#!/bin/sh\nexec awk 'NR > 1 {{ s = $1 + $2; if (NR == {}) s++; print s }}'\n", wrong + 1);
    std::fs::write(&path, body).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.display().to_string()
}

#[test]
fn the_wrong_test_of_a_multi_test_file_is_named_with_its_input_and_diff() {
    let dir = super::folder(&[
        // One line a test, no header: as much one test of four pairs, until declared.
        ("cases/multi/case.toml", "tags = [\"multitest\"]\n"),
        ("cases/multi/input.txt", "4\n1 2\n3 4\n5 6\n7 8\n"),
        ("cases/multi/expected.txt", "3\n7\n11\n15\n"),
    ]);
    let solver = adder(dir.path(), 3);
    let json = dir.path().join("report.json");
    let out = super::judge()
        .current_dir(dir.path())
        .args(["cases", "--json", json.to_str().unwrap(), "--diff", "unified", "--", &solver])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    let row = text.lines().find(|l| l.starts_with("multi")).unwrap_or_default();
    assert!(row.contains("WA") && row.ends_with("WA on test 3 of 4: line 1, column 2 differs"), "{text}");
    assert!(text.contains("input of test 3 of 4 (the count line left out):\n  5 6\n"), "{text}");
    assert!(text.contains("diff of test 3's answer from line 3"), "{text}");
    assert!(text.contains("-11") && text.contains("+12") && !text.contains("+8"), "{text}");
    let report: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let sub = &report["cases"][0]["subcases"];
    assert_eq!((sub["total"].as_u64(), sub["first"].as_u64()), (Some(4), Some(3)), "{report}");
    assert_eq!((sub["failed"].clone(), sub["input"].as_str()), (serde_json::json!([3]), Some("5 6\n")), "{report}");
    assert_eq!(sub["verdict"], "WA");
}

#[test]
fn case_toml_cuts_other_layouts_or_says_why_it_could_not() {
    // Answers of varying length, separated by blank lines.
    let dir = super::folder(&[
        ("cases/sep/case.toml", "subcases = { separator = \"\" }\n"),
        ("cases/sep/input.txt", "2\n1 2\n\n3 4\n"),
        ("cases/sep/expected.txt", "3\n\n7\n"),
        ("cases/off/case.toml", "subcases = \"off\"\n"),
        ("cases/off/input.txt", "2\n1 2\n3 4\n"),
        ("cases/off/expected.txt", "3\n7\n"),
        ("cases/odd/case.toml", "subcases = { answer_lines = 2 }\n"),
        ("cases/odd/input.txt", "2\n1 2\n3 4\n"),
        ("cases/odd/expected.txt", "3\n7\n"),
    ]);
    use std::os::unix::fs::PermissionsExt;
    let solver = dir.path().join("sep.sh");
    std::fs::write(
        &solver,
        "#!/bin/sh\nexec awk 'NR > 1 && NF == 2 { if (n++) print \"\"; print $1 + $2 + (n == 2) }'\n",
    )
    .unwrap();
    std::fs::set_permissions(&solver, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = super::judge().current_dir(dir.path()).args(["cases", "--", solver.to_str().unwrap()]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let row = |name: &str| text.lines().find(|l| l.starts_with(name)).unwrap_or_default().to_string();
    assert!(row("sep").ends_with("WA on test 2 of 2: line 1, column 1 differs"), "{text}");
    assert!(text.contains("input of test 2 of 2 (the count line left out):\n  3 4\n"), "{text}");
    assert!(row("off").ends_with("line 2, column 1 differs"), "{text}");
    assert!(row("odd").contains("(not cut into tests: the expected output does not cut into 2 tests"), "{text}");
}

#[test]
fn stress_on_a_multi_test_generator_saves_a_one_test_input() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let script = |name: &str, body: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path.display().to_string()
    };
    // Five tests of two digits each, from the seed (testlib's convention: the last argument).
    let gen = script(
        "gen.sh",
        "exec awk -v seed=\"$1\" 'BEGIN { srand(substr(seed, length(seed) - 5) + 0); print 5;\n  \
         for (i = 0; i < 5; i++) print int(rand() * 10), int(rand() * 10) }'\n",
    );
    let good = script("good.sh", "exec awk 'NR > 1 { print $1 + $2 }'\n");
    // The bug: one too many when the first number is 7.
    let bad = script("bad.sh", "exec awk 'NR > 1 { print $1 + $2 + ($1 == 7) }'\n");
    let saved = dir.path().join("found");
    let out = super::judge()
        .args(["stress", "--gen", &gen, "--ref", &good, "--tests", "200", "--seed", "1", "--save"])
        .arg(&saved)
        .args(["--", &bad])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}{}", String::from_utf8_lossy(&out.stderr));
    let folder = std::fs::read_dir(&saved).unwrap().next().unwrap().unwrap().path();
    let input = std::fs::read_to_string(folder.join("input.txt")).unwrap();
    let lines: Vec<&str> = input.lines().collect();
    assert!(lines.len() == 2 && lines[0] == "1" && lines[1].starts_with('7'), "{input:?}\n{text}");
    // The saved case replays: WA for the bug, AC for the right solver.
    super::judge().arg(&folder).args(["--", &bad]).assert().code(1);
    super::judge().arg(&folder).args(["--", &good]).assert().success();
}

#[test]
fn per_test_points_make_a_partly_right_file_pc() {
    let dir = super::folder(&[
        ("cases/scored/case.toml", "points = 4\nsubcases = { points = \"per-test\" }\n"),
        ("cases/scored/input.txt", "4\n1 2\n3 4\n5 6\n7 8\n"),
        ("cases/scored/expected.txt", "3\n7\n11\n15\n"),
    ]);
    let solver = adder(dir.path(), 2);
    let out = super::judge().current_dir(dir.path()).args(["cases", "--", &solver]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let row = text.lines().find(|l| l.starts_with("scored")).unwrap_or_default();
    assert!(
        row.contains("PC") && row.contains("3/4") && row.contains("3 of 4 tests right; WA on test 2 of 4"),
        "{text}"
    );
    assert!(out.status.code() == Some(1) && text.contains("score 3 / 4"), "{text}");
}
