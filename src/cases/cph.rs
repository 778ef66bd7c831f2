//! The tests that cph (Competitive Programming Helper, the VS Code extension) keeps beside a
//! source: `.cph/.main.cpp_<hash>.prob`, one JSON file per source, holding the problem's
//! `tests` (`input`, `output`) and, from Competitive Companion, its `timeLimit` (ms) and
//! `memoryLimit` (MB). Each test is a case named `main.cpp/1`, `main.cpp/2`..., under those
//! limits unless a `case.toml` or a flag says otherwise.
//!
//! The tests are text inside the JSON, and a case is judged from files: each is written under
//! the judge's temporary folder, removed when it exits.

use crate::cases::model::{relative_name, shown_path, Case, Settings};
use std::path::{Path, PathBuf};

/// What the judge reads of a `.prob` file; cph writes more (name, url, group, srcPath...).
#[derive(serde::Deserialize)]
struct Prob {
    #[serde(rename = "timeLimit")]
    time_limit: Option<f64>,
    #[serde(rename = "memoryLimit")]
    memory_limit: Option<f64>,
    tests: Vec<Test>,
}

#[derive(serde::Deserialize)]
struct Test {
    input: String,
    output: String,
}

/// The largest `.prob` file read: a problem's samples are a few KiB.
const MAX_PROB: u64 = 64 << 20;

/// The cases of the cph files kept for the sources in `dir` (`dir/.cph/*.prob`), or in `dir`
/// itself when it is a `.cph` folder.
pub(crate) fn cases(root: &Path, dir: &Path, settings: &Settings) -> Vec<Case> {
    let (folder, owner) = if dir.file_name().is_some_and(|n| n == ".cph") {
        (dir.to_path_buf(), dir.parent().unwrap_or(dir).to_path_buf())
    } else {
        (dir.join(".cph"), dir.to_path_buf())
    };
    let Ok(entries) = std::fs::read_dir(&folder) else { return Vec::new() };
    let mut probs: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "prob"))
        .collect();
    probs.sort();
    let prefix = if owner == root || dir == root { String::new() } else { format!("{}/", relative_name(root, &owner)) };
    probs.iter().flat_map(|prob| cases_of(prob, &format!("{prefix}{}", source_name(prob)), settings)).collect()
}

/// The source a `.prob` file belongs to, from its name `.main.cpp_<md5 of its path>.prob`.
fn source_name(prob: &Path) -> String {
    let name = prob.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let name = name.strip_prefix('.').unwrap_or(&name);
    let name = name.strip_suffix(".prob").unwrap_or(name);
    match name.rsplit_once('_') {
        Some((source, hash)) if hash.len() == 32 && hash.bytes().all(|b| b.is_ascii_hexdigit()) => source.to_string(),
        _ => name.to_string(),
    }
}

fn cases_of(prob: &Path, name: &str, settings: &Settings) -> Vec<Case> {
    let broken = |why: String| {
        let problem = Some(format!("{}: {why}", shown_path(prob)));
        vec![Case { name: name.to_string(), input: None, expected: None, config: settings.config.clone(), problem }]
    };
    let text = match std::fs::metadata(prob) {
        Ok(m) if m.len() > MAX_PROB => return broken(format!("it is {} bytes; at most {MAX_PROB} are read", m.len())),
        _ => match std::fs::read(prob) {
            Ok(t) => t,
            Err(e) => return broken(e.to_string()),
        },
    };
    let parsed: Prob = match serde_json::from_slice(&text) {
        Ok(p) => p,
        Err(e) => return broken(format!("not a cph problem file (JSON with `tests`): {e}")),
    };
    let mut config = settings.config.clone();
    if let Some(ms) = parsed.time_limit.filter(|t| t.is_finite() && *t > 0.0) {
        config.time_limit = config.time_limit.or(Some(std::time::Duration::from_millis(ms as u64)));
    }
    if let Some(mb) = parsed.memory_limit.filter(|m| m.is_finite() && *m > 0.0) {
        config.memory_kib = config.memory_kib.or(Some((mb * 1024.0) as u64));
    }
    let dir = match scratch() {
        Ok(d) => d,
        Err(e) => return broken(format!("cannot write its tests to a temporary folder: {e}")),
    };
    let mut cases = Vec::new();
    for (i, test) in parsed.tests.iter().enumerate() {
        let case_dir = dir.join((i + 1).to_string());
        let (input, expected) = (case_dir.join("input.txt"), case_dir.join("expected.txt"));
        let written = std::fs::create_dir_all(&case_dir)
            .and_then(|_| std::fs::write(&input, &test.input))
            .and_then(|_| std::fs::write(&expected, &test.output));
        let problem = written.err().map(|e| format!("cannot write test {} of {}: {e}", i + 1, shown_path(prob)));
        let problem = problem.or_else(|| settings.problem.clone());
        let (input, expected) = (Some(input), Some(expected));
        cases.push(Case { name: format!("{name}/{}", i + 1), input, expected, config: config.clone(), problem });
    }
    cases
}

/// A fresh folder for one `.prob` file's tests.
fn scratch() -> std::io::Result<PathBuf> {
    static N: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let dir = crate::interrupt::temp_root().join(format!("cph-{n}"));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use crate::cases::discover;

    const PROB: &str = r#"{"name":"A. Sum","group":"Codeforces","url":"https://codeforces.com/x","interactive":false,
        "memoryLimit":256,"timeLimit":1500,"tests":[{"input":"1 2\n","output":"3\n","id":1},
        {"input":"2 2\n","output":"4\n","id":2}],"srcPath":"/home/u/a/main.cpp","local":false}"#;

    #[test]
    fn each_test_of_a_prob_file_is_a_case_under_its_limits() {
        let dir = tempfile::tempdir().unwrap();
        let cph = dir.path().join("a/.cph");
        std::fs::create_dir_all(&cph).unwrap();
        std::fs::write(cph.join(".main.cpp_0123456789abcdef0123456789abcdef.prob"), PROB).unwrap();
        std::fs::write(cph.join(".b.py_0123456789abcdef0123456789abcdef.prob"), "{not json").unwrap();
        let cases = discover(&[dir.path().to_path_buf()]).unwrap();
        let names: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["a/b.py", "a/main.cpp/1", "a/main.cpp/2"]);
        assert!(cases[0].problem.as_deref().unwrap_or("").contains("not a cph problem file"), "{:?}", cases[0]);
        let second = &cases[2];
        assert_eq!(std::fs::read_to_string(second.input.as_ref().unwrap()).unwrap(), "2 2\n");
        assert_eq!(std::fs::read_to_string(second.expected.as_ref().unwrap()).unwrap(), "4\n");
        assert_eq!(second.config.time_limit, Some(std::time::Duration::from_millis(1500)));
        assert_eq!(second.config.memory_kib, Some(256 * 1024));
        // The .cph folder given itself.
        let cases = discover(&[cph]).unwrap();
        assert_eq!(cases.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["b.py", "main.cpp/1", "main.cpp/2"]);
    }
}
