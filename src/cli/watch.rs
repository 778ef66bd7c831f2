//! `judge --watch`: judge, then wait for a save of the solver's source, a case file or a
//! `case.toml`, and judge again, the cases that changed first. Ctrl-C ends it (the judge's
//! interrupt handler removes every temporary file and stops every run).
//!
//! Changes are found by polling modification times and sizes (no inotify: nothing to
//! install, and it works on every file system). A round starts only once the files have
//! stood still for 300 ms (`SETTLE`), so an editor's half-written save is never judged.

use super::here::{self, Plan};
use super::round::{self, Stop};
use super::Cli;
use crate::{cases, engine};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// How often files are looked at.
const POLL: Duration = Duration::from_millis(200);
/// How long files must stand still after a change before a round starts.
const SETTLE: Duration = Duration::from_millis(300);
/// The most files watched: past it, a folder is too large to poll (a whole home folder).
const MAX_FILES: usize = 100_000;

/// Each watched file's modification time and size.
type Snapshot = BTreeMap<PathBuf, (Option<SystemTime>, u64)>;

/// The files a round depends on: everything under the case paths (hidden and backup files
/// aside), a `case.toml` beside each path, and the solver's source.
fn snapshot(paths: &[PathBuf], sources: &[PathBuf], skip: Option<&Path>) -> Snapshot {
    let mut files: Vec<PathBuf> = Vec::new();
    for path in paths {
        if let Some(parent) = path.parent() {
            files.push(parent.join("case.toml"));
        }
        let walker = walkdir::WalkDir::new(path)
            .follow_links(true)
            .into_iter()
            .filter_entry(|e| e.depth() == 0 || !cases::is_skipped(&e.file_name().to_string_lossy()));
        for entry in walker.flatten().take(MAX_FILES) {
            if entry.file_type().is_file() {
                files.push(entry.into_path());
            }
        }
    }
    files.extend(sources.iter().cloned());
    files
        .into_iter()
        .filter(|f| Some(f.as_path()) != skip)
        .filter_map(|f| {
            let meta = std::fs::metadata(&f).ok()?;
            Some((f, (meta.modified().ok(), meta.len())))
        })
        .collect()
}

/// The files that differ between two snapshots (new, gone or changed).
fn changes(before: &Snapshot, after: &Snapshot) -> Vec<PathBuf> {
    let mut changed: Vec<PathBuf> =
        after.iter().filter(|(path, facts)| before.get(*path) != Some(facts)).map(|(p, _)| p.clone()).collect();
    changed.extend(before.keys().filter(|p| !after.contains_key(*p)).cloned());
    changed
}

/// `judge --watch ...`; returns only on an error before the first round (exit 2 or 3), as
/// Ctrl-C ends the process. Each round is [`round::judge`]'s, as `judge` alone judges: the
/// same program chosen and named, the same refusals.
pub fn main(cli: &Cli, exe: &Path) -> i32 {
    let target = match here::plan(cli) {
        Plan::One(target) => target,
        Plan::Contest { root, .. } => {
            eprintln!(
                "judge: --watch judges one problem, and {} is a contest's folder of problems: name one of them",
                cases::shown_path(&root)
            );
            return 2;
        }
    };
    let paths = super::paths_or_default(&target.given).unwrap_or_default();
    // The solver's source, or the program itself and any file its arguments name (a script,
    // `python3 sol.py`).
    let mut sources: Vec<PathBuf> = Vec::new();
    if let Ok(solver) = &target.solver {
        let program = if solver.words.is_empty() {
            engine::parse_command(&solver.text, exe)
        } else {
            engine::from_words(&solver.words, exe)
        };
        // A source of a language the command line names (`--run-cmd 'ruby {src}'`) too.
        let mut languages = crate::languages::Languages::default();
        let _ = cli.judging.languages(&mut languages, &solver.text, &solver.words);
        if let Ok(p) = &program {
            sources.extend(crate::build::source_of(p, &languages).map(|(path, _)| path));
            let words = std::iter::once(&p.program).chain(&p.args);
            sources.extend(words.map(PathBuf::from).filter(|w| w.is_file() && *w != exe));
        }
    }
    let json = cli.json.clone().filter(|p| p != Path::new("-"));
    let mut seen = snapshot(&paths, &sources, json.as_deref());
    let mut changed: Vec<PathBuf> = Vec::new();
    for round in 1.. {
        let code = match round::judge(cli, exe, &target, &changed) {
            Ok(_) => 0,
            Err(Stop::Usage(message)) => {
                eprintln!("judge: {message}");
                2
            }
            Err(Stop::Io) => 3,
        };
        if round == 1 && code != 0 {
            return code;
        }
        eprintln!("judge --watch: round {round} done; watching {} files for a save (Ctrl-C ends)", seen.len());
        // Wait for a change, then for the files to stand still.
        let mut now = loop {
            std::thread::sleep(POLL);
            let now = snapshot(&paths, &sources, json.as_deref());
            if now != seen {
                break now;
            }
        };
        loop {
            std::thread::sleep(SETTLE);
            let later = snapshot(&paths, &sources, json.as_deref());
            if later == now {
                break;
            }
            now = later;
        }
        changed = changes(&seen, &now);
        seen = now;
        let shown: Vec<String> = changed.iter().take(3).map(|p| cases::shown_path(p)).collect();
        let more = if changed.len() > 3 { format!(" and {} more", changed.len() - 3) } else { String::new() };
        eprintln!("\njudge --watch: {}{more} changed: judging again", shown.join(", "));
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_file_is_a_change_and_a_case_toml_touches_the_cases_below() {
        let dir = tempfile::tempdir().unwrap();
        let case_dir = dir.path().join("a");
        std::fs::create_dir(&case_dir).unwrap();
        std::fs::write(case_dir.join("input.txt"), "1\n").unwrap();
        let before = snapshot(&[dir.path().to_path_buf()], &[], None);
        std::fs::write(case_dir.join("input.txt"), "12\n").unwrap();
        std::fs::write(dir.path().join("case.toml"), "").unwrap();
        let after = snapshot(&[dir.path().to_path_buf()], &[], None);
        let changed = changes(&before, &after);
        assert_eq!(changed.len(), 2, "{changed:?}");
        let case = cases::Case {
            name: "a".into(),
            input: Some(case_dir.join("input.txt")),
            expected: None,
            config: Default::default(),
            problem: None,
        };
        assert!(case.touched_by(&changed[1..]) && case.touched_by(&changed[..1]));
        assert!(!case.touched_by(&[dir.path().join("b/input.txt")]));
    }
}
