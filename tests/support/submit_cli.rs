//! `judge submit` from the outside: every problem's tailored file fits its judge's limit,
//! compiles alone with no warning, and answers byte for byte what the full solver answers
//! on every case of the problem's suite and on inputs of its style the judge does not promise; `--problem` refuses a source over the judge's
//! limit as CE, and passes the tailored file.

use super::judge;
use predicates::prelude::*;
use std::path::{Path, PathBuf};
use sudoku_judge::problems::PROBLEMS;

/// Stdout and exit status of `program` on the file `input`.
fn answer(program: &Path, input: &Path) -> (Vec<u8>, Option<i32>) {
    let out = std::process::Command::new(program)
        .stdin(std::fs::File::open(input).unwrap())
        .stderr(std::process::Stdio::null())
        .output()
        .unwrap();
    (out.stdout, out.status.code())
}

/// The inputs of the cases tagged `name`, the problem's suite.
fn suite(name: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("cases");
    let cases = sudoku_judge::cases::discover(&[root]).unwrap();
    cases.into_iter().filter(|c| c.config.tags.iter().any(|t| t == name)).filter_map(|c| c.input).collect()
}

/// Inputs a judge does not promise but may send, in the file's input style (issue 34): a
/// tailored file runs the full file's engines, so it stalls where the full file does not
/// nowhere, and prints the same first solution of a grid with several, and the same answers
/// before a malformed case.
fn families(parts: &[&str]) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("cases");
    let names: &[&str] = if parts.contains(&"nine") {
        &[
            "sixteen/dead-end-several-solutions",
            "sixteen/several-solutions",
            "sixteen/several-solutions-thinned",
            "sixteen/empty-grid",
            "sixteen/no-solution",
        ]
    } else if parts.contains(&"canvas") {
        &[
            "poj2676/pigeonhole-no-solution-t6",
            "poj2676/multi-solution",
            "bad-input/stacked-t-nine-then-three-rows",
            "bad-input/stacked-t-end-inside-grid",
            "bad-input/stacked-nine-then-three-rows",
        ]
    } else {
        &["samurai/seed"]
    };
    names.iter().map(|name| root.join(name).join("input.txt")).collect()
}

#[test]
fn every_tailored_file_fits_compiles_alone_and_answers_as_the_full_solver() {
    let dir = tempfile::tempdir().unwrap();
    let full = assert_cmd::cargo::cargo_bin!("sudoku");
    let mut built: Vec<(Vec<&str>, PathBuf)> = Vec::new();
    // Problems with the same program share inputs (AcWing's suites are POJ's cases, and the
    // inputs judges do not promise go with the program): each pair is run once.
    let mut compared = std::collections::BTreeSet::new();
    for p in &PROBLEMS {
        let source = dir.path().join(format!("{}.rs", p.name));
        judge().arg("submit").arg(p.name).arg("-o").arg(&source).assert().success().stderr(
            predicate::str::contains(format!("{}: ", p.name)).and(predicate::str::contains(" bytes (left out: ")),
        );
        let size = std::fs::metadata(&source).unwrap().len();
        // Within its judge's limit where one is captured (SPOJ's 50,000 bytes), and every file
        // within Codeforces' 64 KB.
        let limit = p.submission.source_limit.map_or(64 * 1024, |(limit, _)| limit);
        assert!(size <= limit, "{}: {size} bytes, over {limit}", p.name);
        // Problems that leave out the same parts get the same code: the first one's file is
        // built, once (see `compiled::tailored`), from what `judge submit` prints, which must be
        // what it wrote.
        let program = super::compiled::tailored(p);
        let parts = sudoku_judge::submit::left_out(p);
        if !built.iter().any(|(w, _)| *w == parts) {
            let written = std::fs::read_to_string(&source).unwrap();
            assert!(written == super::compiled::submitted(p.name), "{}: -o wrote another file than stdout", p.name);
            built.push((parts.clone(), program.clone()));
        }
        let inputs = suite(p.name);
        assert!(inputs.len() >= 5, "{}: a suite of {} cases", p.name, inputs.len());
        for input in inputs.into_iter().chain(families(&parts)) {
            if compared.insert((program.clone(), input.clone())) {
                assert_eq!(answer(&program, &input), answer(full, &input), "{}: {}", p.name, input.display());
            }
        }
    }
    assert_eq!(built.len(), 3, "9x9, canvas and 16x16 files");
}

#[test]
fn submit_without_a_problem_lists_them_and_an_unknown_one_is_usage() {
    judge()
        .arg("submit")
        .assert()
        .success()
        .stdout(predicate::str::contains("spoj-sudoku").and(predicate::str::contains("50000")));
    judge().args(["submit", "poj9999"]).assert().code(2).stderr(predicate::str::contains("poj2676"));
}

#[test]
fn the_tailored_file_goes_to_stdout_without_comments() {
    let out = judge().args(["submit", "poj2676"]).assert().success().get_output().stdout.clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with("// sudoku-judge "), "{}", &text[..80]);
    assert_eq!(text.matches("//").count(), 1, "only the header is a comment");
    assert!(!text.contains("doc"), "no doc comments");
    // The 16x16 reader's message is in the 16x16 file only.
    assert!(!text.contains("expected a letter A-P"), "no 16x16 reader in a 9x9 file");
    let sixteen = judge().args(["submit", "poj3076"]).assert().success().get_output().stdout.clone();
    assert!(String::from_utf8(sixteen).unwrap().contains("expected a letter A-P"));
}

#[test]
fn a_problem_refuses_a_source_over_its_judges_limit_and_passes_the_tailored_file() {
    judge()
        .args(["--problem", "spoj-sudoku", "--solver", "src/bin/sudoku.rs"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("CE").and(predicate::str::contains("this judge accepts at most 50000")));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("spoj.rs");
    judge().args(["submit", "spoj-sudoku", "-o"]).arg(&file).assert().success();
    judge()
        .args(["--problem", "spoj-sudoku", "--solver"])
        .arg(&file)
        .assert()
        .success()
        .stdout(predicate::str::ends_with(" passed, 0 failed\n"));
}

#[test]
fn source_limit_from_the_flag_or_case_toml_is_ce() {
    let dir = super::folder(&[
        ("cases/a/input.txt", "1 2\n"),
        ("cases/a/expected.txt", "3\n"),
        ("cases/b/input.txt", "1 2\n"),
        ("cases/b/expected.txt", "3\n"),
        ("cases/b/case.toml", "source_limit = \"10B\"\n"),
        ("add.rs", "use std::io::Read;\nfn main() { let mut s = String::new(); std::io::stdin().read_to_string(&mut s).unwrap(); let n: i64 = s.split_whitespace().map(|w| w.parse::<i64>().unwrap()).sum(); println!(\"{n}\"); }\n"),
    ]);
    let cache = tempfile::tempdir().unwrap();
    let run = |extra: &[&str]| {
        let mut cmd = judge();
        cmd.current_dir(dir.path()).env("XDG_CACHE_HOME", cache.path()).args(["cases", "--solver", "add.rs"]);
        cmd.args(extra).assert()
    };
    // case.toml's limit holds for its case only.
    run(&[]).code(1).stdout(
        predicate::str::contains("add.rs: source is ")
            .and(predicate::str::contains(" bytes; this judge accepts at most 10\n")),
    );
    run(&["--filter", "a"]).success();
    // The flag beats case.toml, both ways.
    run(&["--source-limit", "1KiB"]).success().stdout(predicate::str::ends_with("2 passed, 0 failed\n"));
    run(&["--source-limit", "100B"]).code(1).stdout(predicate::str::ends_with("0 passed, 2 failed\n"));
}

#[test]
fn c_and_cpp_builds_define_online_judge_as_judges_do() {
    use sudoku_judge::build::Language;
    for language in [Language::C, Language::Cpp] {
        assert!(language.default_command().contains("-DONLINE_JUDGE"), "{language:?}");
    }
    let poj = sudoku_judge::problems::find("poj2676").unwrap();
    assert!(poj.submission.cpp_build.unwrap().contains("-DONLINE_JUDGE"));
}
