//! A received problem on disk: its folder name (safe on every file system, never a path),
//! its samples as oj-style `sample-N.in` / `sample-N.out` pairs, and a `case.toml` with its
//! limits, tags and whether it is interactive.
//!
//! The folder is written under a hidden name first and renamed into place, so a judge run
//! never sees half a problem; an existing folder's samples are only replaced when asked
//! (`--force`), and its other files (a solution) never.

use super::task::Task;
use std::path::{Path, PathBuf};

/// Longest folder name written: short enough for every file system and a terminal.
const MAX_NAME: usize = 60;

/// Why a problem was not written; each maps to an HTTP status.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The request itself is wrong (400).
    Bad(String),
    /// The folder is there already (409).
    Exists(PathBuf),
    /// The disk said no (500).
    Io(String),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Bad(why) => f.write_str(why),
            Refusal::Exists(p) => write!(f, "{} exists already: not overwritten (--force replaces it)", p.display()),
            Refusal::Io(why) => f.write_str(why),
        }
    }
}

/// Names that look like paths are refused rather than guessed at: they are not what a judge
/// site sends, and whatever we made of them could surprise.
fn path_like(name: &str) -> bool {
    let trimmed = name.trim();
    trimmed.starts_with(['/', '\\', '~'])
        || trimmed.split(['/', '\\']).any(|part| part.trim() == "..")
        || trimmed.as_bytes().get(1) == Some(&b':')
            && trimmed.as_bytes().get(2).is_some_and(|b| *b == b'\\' || *b == b'/')
        || name.chars().any(char::is_control)
}

/// Names Windows gives to devices, which no folder may take.
const RESERVED: [&str; 22] = [
    "con", "prn", "aux", "nul", "com1", "com2", "com3", "com4", "com5", "com6", "com7", "com8", "com9", "lpt1", "lpt2",
    "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9",
];

/// ASCII letters and digits kept, every other run of characters one `-`: "G. Castle Defense"
/// is `G-Castle-Defense`.
fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let mut out = out.trim_end_matches('-').to_string();
    if out.len() > MAX_NAME {
        out.truncate(MAX_NAME);
        out = out.trim_end_matches('-').to_string();
    }
    if RESERVED.contains(&out.to_ascii_lowercase().as_str()) {
        out.push('_');
    }
    out
}

/// The folder name for `task`: from its name, else (a name of no ASCII letters, as in many
/// Luogu or Yandex problems) the Java class name or the URL's last part, else `problem`.
pub fn folder_name(task: &Task) -> Result<String, Refusal> {
    if path_like(&task.name) {
        return Err(Refusal::Bad(format!("the problem name {:?} looks like a path: refused", task.name)));
    }
    let from_url = task.url.trim_end_matches('/').rsplit('/').next().unwrap_or_default().to_string();
    let name = [task.name.as_str(), task.task_class.as_deref().unwrap_or_default(), from_url.as_str()]
        .iter()
        .map(|t| slug(t))
        .find(|s| !s.is_empty())
        .unwrap_or_else(|| "problem".to_string());
    Ok(name)
}

/// A TOML string, quoted and escaped.
fn quoted(text: &str) -> String {
    toml::Value::String(text.to_string()).to_string()
}

/// A comment line holding `text` (a newline in it would end the comment).
fn comment(text: &str) -> String {
    text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect()
}

/// The tags of a problem: its site (from the URL's host, `codeforces`, `atcoder`), and
/// `interactive` or `multitest` when it is.
pub fn tags(task: &Task) -> Vec<String> {
    let host = task.url.split("://").nth(1).unwrap_or_default().split(['/', ':']).next().unwrap_or_default();
    let parts: Vec<&str> = host.split('.').filter(|p| !p.is_empty() && *p != "www").collect();
    let site = if parts.len() >= 2 { parts[parts.len() - 2] } else { parts.first().copied().unwrap_or_default() };
    let mut tags: Vec<String> = Some(slug(site).to_ascii_lowercase()).filter(|s| !s.is_empty()).into_iter().collect();
    if task.interactive {
        tags.push("interactive".into());
    }
    if task.multi_test {
        tags.push("multitest".into());
    }
    tags
}

/// The `case.toml` of a problem.
pub fn case_toml(task: &Task) -> String {
    let mut text = format!("# {}\n# {}\n", comment(&task.name), comment(&task.url));
    if !task.group.is_empty() {
        text.push_str(&format!("# {}\n", comment(&task.group)));
    }
    text.push_str("# Written by `judge listen` from Competitive Companion.\n");
    if task.interactive {
        text.push_str(
            "# Interactive: the samples show one exchange. Judge with an interactor, given as\n\
             # --interactor CMD or as `interactor = \"CMD\"` here (run as CMD input output answer).\n",
        );
    }
    text.push_str(&file_io(task));
    text.push_str(&format!("time_limit = \"{}ms\"\n", task.time_ms.ceil() as u64));
    text.push_str(&format!("memory_limit = \"{}MiB\"\n", task.memory_mb.ceil() as u64));
    let tags: Vec<String> = tags(task).iter().map(|t| quoted(t)).collect();
    text.push_str(&format!("tags = [{}]\n", tags.join(", ")));
    text
}

/// A file-I/O problem's `input_file` and `output_file` (Competitive Companion's `input` and
/// `output` of type `file`); a name that is not a plain file name stays a comment.
fn file_io(task: &Task) -> String {
    let mut text = String::new();
    for (key, file) in [("input_file", &task.input_file), ("output_file", &task.output_file)] {
        match file.as_deref().map(|f| (f, crate::fileio::parse_name(f))) {
            Some((_, Ok(name))) => text.push_str(&format!("{key} = {}\n", quoted(&name))),
            Some((f, Err(_))) => {
                text.push_str(&format!("# {key}: the problem names {}, which is not a plain file name\n", comment(f)))
            }
            None => {}
        }
    }
    text
}

/// Into an existing problem folder: its old samples and case.toml go, the new ones come; any
/// other file (the user's solution) stays.
fn replace_samples(partial: &Path, target: &Path) -> std::io::Result<()> {
    for entry in std::fs::read_dir(target)? {
        let name = entry?.file_name();
        let text = name.to_string_lossy();
        let sample = text.starts_with("sample-") && (text.ends_with(".in") || text.ends_with(".out"));
        if sample || text == "case.toml" {
            std::fs::remove_file(target.join(&name))?;
        }
    }
    for entry in std::fs::read_dir(partial)? {
        let name = entry?.file_name();
        std::fs::rename(partial.join(&name), target.join(&name))?;
    }
    Ok(())
}

/// Writes `task` into `dir/NAME`; returns the folder. Nothing is written outside `dir`, and
/// an existing `NAME` is left alone unless `force`.
pub fn write(task: &Task, dir: &Path, force: bool) -> Result<PathBuf, Refusal> {
    let name = folder_name(task)?;
    let target = dir.join(&name);
    let existing = std::fs::symlink_metadata(&target).ok();
    if let Some(meta) = &existing {
        if !force || !meta.is_dir() {
            return Err(Refusal::Exists(target));
        }
    }
    let io = |what: &str, e: std::io::Error| Refusal::Io(format!("cannot {what}: {e}"));
    // Hidden (discovery skips dot-names) until whole.
    let partial = dir.join(format!(".{name}.partial-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&partial);
    std::fs::create_dir(&partial).map_err(|e| io(&format!("make {}", partial.display()), e))?;
    let filled = (|| {
        for (k, sample) in task.tests.iter().enumerate() {
            std::fs::write(partial.join(format!("sample-{}.in", k + 1)), &sample.input)?;
            std::fs::write(partial.join(format!("sample-{}.out", k + 1)), &sample.output)?;
        }
        std::fs::write(partial.join("case.toml"), case_toml(task))
    })();
    if let Err(e) = filled {
        let _ = std::fs::remove_dir_all(&partial);
        return Err(io(&format!("write {}", partial.display()), e));
    }
    let moved =
        if existing.is_some() { replace_samples(&partial, &target) } else { std::fs::rename(&partial, &target) };
    let _ = std::fs::remove_dir_all(&partial);
    moved.map_err(|e| io(&format!("move the problem into {}", target.display()), e))?;
    Ok(target)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::listen::task::{Batch, Sample};

    fn task(name: &str) -> Task {
        Task {
            name: name.into(),
            group: "AtCoder Beginner Contest 100".into(),
            url: "https://atcoder.jp/contests/abc100/tasks/abc100_a".into(),
            interactive: false,
            memory_mb: 1024.0,
            time_ms: 2000.0,
            tests: vec![Sample { input: "5 4\n".into(), output: "Yay!\n".into() }],
            multi_test: false,
            input_file: None,
            output_file: None,
            task_class: None,
            batch: Batch { id: String::new(), size: 1 },
        }
    }

    #[test]
    fn names_are_safe_everywhere() {
        let name = |n: &str| folder_name(&task(n));
        assert_eq!(name("G. Castle Defense"), Ok("G-Castle-Defense".into()));
        assert_eq!(name("A - Happy Birthday!"), Ok("A-Happy-Birthday".into()));
        assert_eq!(name("A/B Problem"), Ok("A-B-Problem".into()));
        assert_eq!(name("CON"), Ok("CON_".into()));
        // No ASCII letters: the URL's last part.
        assert_eq!(name("数独"), Ok("abc100_a".into()));
        assert_eq!(name(&"x".repeat(200)).unwrap().len(), MAX_NAME);
        for bad in ["../../x", "..", "/etc/passwd", "a/../../b", "C:\\x", "~/x", "a\nb", "..\\x"] {
            assert!(matches!(name(bad), Err(Refusal::Bad(_))), "{bad:?}");
        }
    }

    #[test]
    fn case_toml_is_read_back_by_the_judge() {
        let mut t = task("A - Happy Birthday!");
        t.interactive = true;
        t.name = "quote \" and\nnewline".into();
        let config = crate::cases::CaseConfig::parse(&case_toml(&t)).unwrap();
        assert_eq!(config.time_limit, Some(std::time::Duration::from_millis(2000)));
        assert_eq!(config.memory_kib, Some(1024 * 1024));
        assert_eq!(config.tags, ["atcoder", "interactive"]);
    }

    #[test]
    fn a_file_io_problem_names_its_files_in_case_toml() {
        let mut t = task("A. Sum");
        t.input_file = Some("input.txt".into());
        t.output_file = Some("output.txt".into());
        let config = crate::cases::CaseConfig::parse(&case_toml(&t)).unwrap();
        assert_eq!(config.files.input.as_deref(), Some("input.txt"));
        assert_eq!(config.files.output.as_deref(), Some("output.txt"));
        t.input_file = Some("../x".into());
        let config = crate::cases::CaseConfig::parse(&case_toml(&t)).unwrap();
        assert_eq!(config.files.input, None);
    }

    #[test]
    fn an_existing_folder_is_kept_unless_forced() {
        let dir = tempfile::tempdir().unwrap();
        let t = task("A - Happy Birthday!");
        let at = write(&t, dir.path(), false).unwrap();
        assert_eq!(std::fs::read_to_string(at.join("sample-1.out")).unwrap(), "Yay!\n");
        std::fs::write(at.join("mine.cpp"), "x").unwrap();
        assert_eq!(write(&t, dir.path(), false), Err(Refusal::Exists(at.clone())));
        assert!(at.join("mine.cpp").exists());
        let mut second = t.clone();
        second.tests.clear();
        write(&second, dir.path(), true).unwrap();
        // Forced: the samples are the new ones, and the user's own files stay.
        assert!(!at.join("sample-1.in").exists());
        assert!(at.join("mine.cpp").exists() && at.join("case.toml").exists());
        // Nothing half-written is left beside it.
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, ["A-Happy-Birthday"]);
    }
}
