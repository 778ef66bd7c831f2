//! Discovery tests: natural order, case.toml fields and inheritance, bad entries.

use super::*;
use crate::cases::checker::CheckerKind;
use crate::verdict::Verdict;

#[test]
fn natural_order_puts_2_before_10() {
    let mut names = vec!["case-10", "case-2", "case-1", "b", "a/9", "a/10"];
    names.sort_by(|a, b| natural_cmp(a, b));
    assert_eq!(names, ["a/9", "a/10", "b", "case-1", "case-2", "case-10"]);
    assert_eq!(natural_cmp("x007", "x7"), Ordering::Greater);
}

#[test]
fn case_file_fields_are_checked() {
    let c = CaseConfig::parse("time_limit = \"500ms\"\nchecker = \"sudoku\"\nexpect = \"TLE\"").unwrap();
    assert_eq!(c.time_limit, Some(std::time::Duration::from_millis(500)));
    assert_eq!(c.checker, Some(CheckerKind::Sudoku));
    assert_eq!(c.expect, Some(Verdict::Tle));
    assert!(CaseConfig::parse("time_limit = \"5\"").unwrap_err().contains("time_limit"));
    assert!(CaseConfig::parse("checker = \"fuzzy\"").unwrap_err().contains("checker"));
    assert!(CaseConfig::parse("colour = 1").unwrap_err().contains("colour"));
}

#[test]
fn bad_entries_are_one_case_s_problem_or_a_warning() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("dir-expected/expected.txt")).unwrap();
    std::fs::write(root.join("dir-expected/input.txt"), "x").unwrap();
    std::fs::create_dir_all(root.join("ok")).unwrap();
    std::fs::write(root.join("ok/input.txt"), "x").unwrap();
    std::os::unix::fs::symlink(root.join("nowhere"), root.join("dangling")).unwrap();
    std::os::unix::fs::symlink(root, root.join("ok/loop")).unwrap();
    let name = |b: &[u8]| root.join(std::ffi::OsStr::from_bytes(b));
    std::fs::write(name(b"p\xff.in"), "x").unwrap();
    std::fs::write(name(b"p\xfe.out"), "x").unwrap();
    let (cases, warnings) = discover_with_warnings(&[root.to_path_buf()]).unwrap();
    let names: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["dir-expected", "ok", "p\\xFE", "p\\xFF"]);
    assert!(cases[0].problem.as_deref().unwrap().contains("not a regular file"));
    assert!(cases[2].problem.is_some() && cases[3].expected.is_none(), "{cases:?}");
    assert_eq!(warnings.len(), 2, "{warnings:?}");
}

#[test]
fn both_layouts_and_orphans() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("folder-case")).unwrap();
    std::fs::write(root.join("folder-case/input.txt"), "1\n").unwrap();
    std::fs::write(root.join("sample-10.in"), "x").unwrap();
    std::fs::write(root.join("sample-10.out"), "x").unwrap();
    std::fs::write(root.join("sample-2.in"), "x").unwrap();
    std::fs::write(root.join("sample-2.ans"), "x").unwrap();
    std::fs::write(root.join("lonely.out"), "x").unwrap();
    std::fs::write(root.join(".hidden.in"), "x").unwrap();
    std::fs::write(root.join("old.in~"), "x").unwrap();
    let cases = discover(&[root.to_path_buf()]).unwrap();
    let names: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["folder-case", "lonely", "sample-2", "sample-10"]);
    assert!(cases[1].problem.as_deref().unwrap().contains("no input lonely.in"));
    assert!(cases[2].expected.as_ref().unwrap().ends_with("sample-2.ans"));
}

#[test]
fn case_toml_settings_pass_down_and_nearer_ones_win() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let write = |p: &str, text: &str| {
        std::fs::create_dir_all(root.join(p).parent().unwrap()).unwrap();
        std::fs::write(root.join(p), text).unwrap();
    };
    write("case.toml", "time_limit = \"1s\"\ntags = [\"suite\"]\nchecker_cmd = \"./chk\"\n");
    write("a/input.txt", "x");
    write("b/case.toml", "time_limit = \"3s\"\ntags = [\"hard\"]\nchecker = \"sudoku\"\n");
    write("b/input.txt", "x");
    write("c/case.toml", "memory_limit = \"1MiB\"\n");
    write("c/d/x.in", "x");
    write("lone/case.toml", "");
    let cases = discover(&[root.to_path_buf()]).unwrap();
    let names: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["a", "b", "c/d/x", "lone"], "a folder of settings is no case; a lone case.toml is");
    let secs = |i: usize| cases[i].config.time_limit.unwrap().as_secs();
    assert_eq!((secs(0), secs(1), secs(2)), (1, 3, 1));
    assert_eq!(cases[0].config.checker_cmd.as_deref(), Some("./chk"));
    assert_eq!(cases[0].config.checker_dir.as_deref(), Some(root));
    assert_eq!(cases[1].config.checker_cmd, None, "a nearer built-in checker replaces the command");
    assert_eq!(cases[1].config.tags, ["suite", "hard"]);
    assert_eq!(cases[2].config.memory_kib, Some(1024));
    assert!(cases[3].problem.as_deref().unwrap().contains("no input.txt"));
}

#[test]
fn env_names_are_checked_and_values_kept_whole() {
    assert_eq!(model::parse_env("A_1=x=y").unwrap(), ("A_1".into(), Some("x=y".into())));
    assert_eq!(model::parse_env("HOME").unwrap(), ("HOME".into(), None));
    for bad in ["", "=x", "1A", "A B", "A-B=1"] {
        assert!(model::parse_env(bad).unwrap_err().contains("NAME=VALUE"), "{bad}");
    }
}
