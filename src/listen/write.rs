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

/// Letters and digits in `text`, lower case: what two spellings of one name share.
fn letters(text: &str) -> String {
    text.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect()
}

/// The folder name for `task`: its name, when all of it is ASCII. A name with other letters
/// ("A. Арбуз", "数独") would lose them, and two problems would share what is left ("A",
/// nothing): then the extension's own Latin spelling of it (`languages.java.taskClass`,
/// "AArbuz"), when that keeps more than the name's ASCII does, else the name's ASCII before
/// the URL's last part ("A-P1784"), else `problem`. Two problems that still share a name
/// are told apart by [`write`].
pub fn folder_name(task: &Task) -> Result<String, Refusal> {
    if path_like(&task.name) {
        return Err(Refusal::Bad(format!("the problem name {:?} looks like a path: refused", task.name)));
    }
    let named = slug(&task.name);
    let lossy = task.name.chars().any(|c| c.is_alphanumeric() && !c.is_ascii());
    if !lossy && !named.is_empty() {
        return Ok(named);
    }
    let class = slug(task.task_class.as_deref().unwrap_or_default());
    // "Task" is the extension's class name for a name with no Latin letters at all.
    if !class.is_empty() && class != "Task" && letters(&class) != letters(&named) {
        return Ok(class);
    }
    let from_url = slug(task.url.trim_end_matches('/').rsplit('/').next().unwrap_or_default());
    let name = match (named.is_empty(), from_url.is_empty()) {
        (false, true) => named,
        (true, true) => "problem".to_string(),
        (true, false) => from_url,
        (false, false) if letters(&from_url) == letters(&named) => named,
        (false, false) => slug(&format!("{named}-{from_url}")),
    };
    Ok(name)
}

/// Whether `folder` holds `task` already: its `case.toml`, as written here, names the same
/// URL (the same name, for a problem sent without one).
fn holds(folder: &Path, task: &Task) -> bool {
    let Ok(text) = std::fs::read_to_string(folder.join("case.toml")) else { return false };
    let mut heading = text.lines().take_while(|l| l.starts_with('#'));
    let (name, url) = (heading.next(), heading.next());
    if task.url.trim().is_empty() {
        name == Some(format!("# {}", comment(&task.name)).as_str())
    } else {
        url == Some(format!("# {}", comment(&task.url)).as_str())
    }
}

/// Most folders tried for one name (`NAME`, `NAME-2`...) before giving up.
const MAX_SAME_NAME: usize = 100;

/// Where `task` goes under `dir`, and whether that folder is there already (the same problem):
/// the first of `NAME`, `NAME-2`, `NAME-3`... that is free or holds this very problem.
fn place(task: &Task, dir: &Path) -> Result<(PathBuf, bool), Refusal> {
    let name = folder_name(task)?;
    for k in 1..=MAX_SAME_NAME {
        let target = if k == 1 { dir.join(&name) } else { dir.join(format!("{name}-{k}")) };
        match std::fs::symlink_metadata(&target) {
            Err(_) => return Ok((target, false)),
            Ok(meta) if meta.is_dir() && holds(&target, task) => return Ok((target, true)),
            Ok(_) => {}
        }
    }
    Err(Refusal::Io(format!("{MAX_SAME_NAME} folders named {name} are there already: judge listen DIR elsewhere")))
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

/// Writes `task` into `dir/NAME` (`NAME-2`... when another problem has `NAME`); returns the
/// folder. Nothing is written outside `dir`, and the folder of the same problem (the same URL)
/// is left alone unless `force`.
pub fn write(task: &Task, dir: &Path, force: bool) -> Result<PathBuf, Refusal> {
    let (target, existing) = place(task, dir)?;
    if existing && !force {
        return Err(Refusal::Exists(target));
    }
    let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
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
    let moved = if existing { replace_samples(&partial, &target) } else { std::fs::rename(&partial, &target) };
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
    fn names_in_other_scripts_keep_problems_apart() {
        let named = |name: &str, class: &str, url: &str| {
            let mut t = task(name);
            t.task_class = Some(class.into());
            t.url = url.into();
            folder_name(&t).unwrap()
        };
        // The extension's Latin spelling of a Cyrillic name.
        assert_eq!(named("A. Задача о сумме", "AZadachaOSumme", "https://e.ru/c/1/A"), "AZadachaOSumme");
        assert_eq!(named("A. Арбуз", "AArbuz", "https://e.ru/c/2/A"), "AArbuz");
        // No Latin spelling ("Task"), or one that keeps no more than the name's ASCII: the URL.
        assert_eq!(named("数独", "Task", "https://www.luogu.com.cn/problem/P1784"), "P1784");
        assert_eq!(named("八皇后", "Task", "https://www.luogu.com.cn/problem/P1219"), "P1219");
        assert_eq!(named("A. 数独", "A", "https://www.luogu.com.cn/problem/P1784"), "A-P1784");
        // An ASCII name is the name, whatever the class says.
        assert_eq!(named("G. Castle Defense", "GCastleDefense", "https://codeforces.com/x/G"), "G-Castle-Defense");
    }

    #[test]
    fn only_the_same_url_is_there_already() {
        let dir = tempfile::tempdir().unwrap();
        let first = task("A. Sum");
        let mut other = first.clone();
        other.url = "https://codeforces.com/contest/2/problem/A".into();
        let at = write(&first, dir.path(), false).unwrap();
        // Another problem of the same name: a folder of its own, its samples kept.
        let beside = write(&other, dir.path(), false).unwrap();
        assert_eq!((at.file_name().unwrap(), beside.file_name().unwrap()), ("A-Sum".as_ref(), "A-Sum-2".as_ref()));
        assert_eq!(write(&first, dir.path(), false), Err(Refusal::Exists(at)));
        assert_eq!(write(&other, dir.path(), false), Err(Refusal::Exists(beside)));
        // A folder the user made, with no case.toml of ours, is not the problem either.
        std::fs::create_dir(dir.path().join("B")).unwrap();
        assert!(write(&task("B"), dir.path(), false).unwrap().ends_with("B-2"));
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
