//! The layouts in which judges and tools ship an input beside its answer, other than a
//! folder per case: oj / Codeforces pairs, Polygon packages and AtCoder's `in/` + `out/`.
//!
//! - oj / Codeforces: `NAME.in` with `NAME.out` or `NAME.ans` in one folder;
//! - Polygon: `01` (a name of digits only) with `01.a`;
//! - AtCoder: `in/NAME` with `out/NAME` (usually `NAME.txt`), the two folders side by side;
//!   the case is named after the folder holding them: `abc100_a/sample_01`;
//! - cf-tool: `inN.txt` with `ansN.txt` in the problem's folder, the case named `N`;
//! - cph: the tests of each `.cph/*.prob` file (see [`super::cph`]).
//!
//! An answer without its input is a case with a problem (IE), never silently dropped.

use crate::cases::model::{relative_name, shown_path, Case, Settings};
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

/// The pairs found so far, with an index by name: a folder of 100,000 pairs is paired in
/// one pass, not by a search per file.
#[derive(Default)]
struct Pairs {
    list: Vec<Pair>,
    index: std::collections::HashMap<OsString, usize>,
}

/// One name's input and answer, as found.
struct Pair {
    /// The name both files share, as bytes (names that are not UTF-8 are never merged).
    key: OsString,
    input: Option<PathBuf>,
    expected: Option<PathBuf>,
}

/// The pairs of every layout found directly in `dir`, each with `settings`.
pub(crate) fn pairs_in_folder(root: &Path, dir: &Path, settings: &Settings) -> Vec<Case> {
    let name = dir.file_name().unwrap_or_default();
    let sibling = |other: &str| dir.parent().map(|p| p.join(other)).filter(|p| p.is_dir());
    if name == "out" && sibling("in").is_some() {
        return Vec::new(); // the answers of an AtCoder layout: paired from `in/`
    }
    if let (true, Some(out)) = (name == "in", sibling("out")) {
        let mut pairs = Pairs::default();
        for (folder, is_input) in [(dir, true), (out.as_path(), false)] {
            for path in regular_files(folder) {
                let key = path.file_name().unwrap_or_default().to_os_string();
                add(&mut pairs, key, path, is_input);
            }
        }
        let owner = dir.parent().unwrap_or(dir);
        return cases_of(root, owner, pairs.list, settings, |key| format!("in/{key}"), strip_txt);
    }
    let mut pairs = Pairs::default();
    let mut cf_tool = Pairs::default();
    for path in regular_files(dir) {
        let file_name = path.file_name().unwrap_or_default().to_os_string();
        if let Some((number, is_input)) = cf_tool_test(&file_name) {
            add(&mut cf_tool, number, path, is_input);
            continue;
        }
        let (Some(stem), ext) = (path.file_stem(), path.extension()) else { continue };
        let stem = stem.to_os_string();
        match ext.map(OsStr::to_string_lossy).as_deref() {
            Some("in") => add(&mut pairs, stem, path, true),
            // A program beside the samples (`a.out`, as g++ names it) is no answer.
            Some("out") if is_program(&path) => {}
            Some("out" | "ans") => add(&mut pairs, stem, path, false),
            Some("a") if all_digits(&stem) => add(&mut pairs, stem, path, false),
            None if all_digits(&file_name) => add(&mut pairs, file_name, path, true),
            _ => {}
        }
    }
    let input_name = |key: &str| if all_digits(OsStr::new(key)) { key.to_string() } else { format!("{key}.in") };
    let mut cases = cases_of(root, dir, pairs.list, settings, input_name, str::to_string);
    cases.extend(cases_of(root, dir, cf_tool.list, settings, |n| format!("in{n}.txt"), str::to_string));
    cases.extend(super::cph::cases(root, dir, settings));
    cases
}

/// cf-tool's test files: `in1.txt` (an input) and `ans1.txt` (its answer), by number.
fn cf_tool_test(name: &OsStr) -> Option<(OsString, bool)> {
    let text = name.to_str()?.strip_suffix(".txt")?;
    let (number, is_input) = match (text.strip_prefix("in"), text.strip_prefix("ans")) {
        (Some(n), _) => (n, true),
        (_, Some(n)) => (n, false),
        _ => return None,
    };
    all_digits(OsStr::new(number)).then(|| (OsString::from(number), is_input))
}

/// The regular files directly in `dir`, hidden and backup files left out.
fn regular_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.is_file() && !crate::cases::model::is_skipped(&p.file_name().unwrap_or_default().to_string_lossy())
        })
        .collect()
}

/// Whether `path` is a program: executable, and an ELF file or a script. An answer copied
/// with its execute bits set (from a zip, a FAT stick) is still an answer.
fn is_program(path: &Path) -> bool {
    use std::io::Read;
    use std::os::unix::fs::PermissionsExt;
    let executable = std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0);
    let mut head = [0u8; 4];
    let read = executable && std::fs::File::open(path).and_then(|mut f| f.read(&mut head)).is_ok();
    read && (head == *b"\x7fELF" || head.starts_with(b"#!"))
}

fn all_digits(name: &OsStr) -> bool {
    let text = name.to_string_lossy();
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

fn strip_txt(key: &str) -> String {
    key.strip_suffix(".txt").unwrap_or(key).to_string()
}

fn add(pairs: &mut Pairs, key: OsString, path: PathBuf, is_input: bool) {
    let slot = match pairs.index.get(&key) {
        Some(&i) => i,
        None => {
            pairs.index.insert(key.clone(), pairs.list.len());
            pairs.list.push(Pair { key, input: None, expected: None });
            pairs.list.len() - 1
        }
    };
    let pair = &mut pairs.list[slot];
    if is_input {
        pair.input = Some(path);
    } else {
        pair.expected = Some(path);
    }
}

/// Cases named `owner/<case name>` (just the case name when `owner` is the root).
fn cases_of(
    root: &Path,
    owner: &Path,
    pairs: Vec<Pair>,
    settings: &Settings,
    input_name: impl Fn(&str) -> String,
    case_name: impl Fn(&str) -> String,
) -> Vec<Case> {
    let base = relative_name(root, owner);
    pairs
        .into_iter()
        .map(|Pair { key, input, expected }| {
            let key = shown_path(Path::new(&key));
            let problem = match input {
                None => Some(format!("{key} is an answer with no input {}", input_name(&key))),
                Some(_) => settings.problem.clone(),
            };
            let stem = case_name(&key);
            let name = if owner == root { stem } else { format!("{base}/{stem}") };
            Case { name, input, expected, config: settings.config.clone(), problem }
        })
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use crate::cases::discover;

    use crate::testing::tree;

    fn found(dir: &tempfile::TempDir) -> Vec<(String, bool, bool, bool)> {
        discover(&[dir.path().to_path_buf()])
            .unwrap()
            .into_iter()
            .map(|c| (c.name, c.input.is_some(), c.expected.is_some(), c.problem.is_some()))
            .collect()
    }

    #[test]
    fn polygon_tests_pair_numbers_with_dot_a() {
        let dir = tree(&["tests/01", "tests/01.a", "tests/02", "tests/10", "tests/10.a", "tests/3.a", "tests/x1"]);
        let cases = found(&dir);
        let names: Vec<&str> = cases.iter().map(|c| c.0.as_str()).collect();
        assert_eq!(names, ["tests/01", "tests/02", "tests/3", "tests/10"]);
        assert_eq!(cases[0], ("tests/01".into(), true, true, false));
        assert_eq!(cases[1], ("tests/02".into(), true, false, false));
        assert_eq!(cases[2], ("tests/3".into(), false, true, true), "an answer alone is a problem");
    }

    #[test]
    fn atcoder_in_and_out_folders_pair_by_file_name() {
        let dir = tree(&[
            "abc100_a/in/sample_01.txt",
            "abc100_a/out/sample_01.txt",
            "abc100_a/in/sample_02.txt",
            "abc100_a/out/lonely.txt",
        ]);
        let cases = found(&dir);
        assert_eq!(
            cases,
            [
                ("abc100_a/lonely".into(), false, true, true),
                ("abc100_a/sample_01".into(), true, true, false),
                ("abc100_a/sample_02".into(), true, false, false),
            ]
        );
        let cases = discover(&[dir.path().join("abc100_a")]).unwrap();
        assert_eq!(cases[1].name, "sample_01", "the folder given is the root: no prefix");
    }

    #[test]
    fn cf_tool_pairs_in_and_ans_by_number() {
        let dir = tree(&["1/in1.txt", "1/ans1.txt", "1/in2.txt", "1/ans3.txt", "1/input.txt", "1/inx.txt"]);
        let cases = found(&dir);
        assert_eq!(
            cases,
            [
                ("1".into(), true, false, false),
                ("1/1".into(), true, true, false),
                ("1/2".into(), true, false, false),
                ("1/3".into(), false, true, true),
            ],
            "the folder's own input.txt is a case too; ans3.txt alone is a problem"
        );
    }

    #[test]
    fn a_program_beside_the_samples_is_no_answer() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tree(&["p/sample-1.in", "p/sample-1.out", "p/a.out", "p/b.out", "p/c.out"]);
        std::fs::write(dir.path().join("p/a.out"), "\x7fELF...").unwrap();
        for name in ["p/a.out", "p/c.out"] {
            std::fs::set_permissions(dir.path().join(name), std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        // a.out is g++'s program; b.out, and c.out (executable, but text), are answers whose
        // input is missing.
        let cases = found(&dir);
        assert_eq!(cases[..2], [("p/b".into(), false, true, true), ("p/c".into(), false, true, true)]);
        assert_eq!(cases[2..], [("p/sample-1".into(), true, true, false)]);
    }

    #[test]
    fn a_folder_named_in_without_out_is_an_ordinary_folder() {
        let dir = tree(&["in/a.in", "in/a.out"]);
        assert_eq!(found(&dir), [("in/a".into(), true, true, false)]);
    }
}
