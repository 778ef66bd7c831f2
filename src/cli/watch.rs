//! `judge --watch`: judge, then wait for a save of the solver's source, a case file or a
//! `case.toml`, and judge again, the cases that changed first. Ctrl-C ends it (the judge's
//! interrupt handler removes every temporary file and stops every run).
//!
//! Changes are found by polling modification times and sizes (no inotify: nothing to
//! install, and it works on every file system). A round starts only once the files have
//! stood still for 300 ms (`SETTLE`), so an editor's half-written save is never judged.

use super::live::{Live, Sink};
use super::Cli;
use crate::{cases, engine, report};
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// How often files are looked at.
const POLL: Duration = Duration::from_millis(200);
/// How long files must stand still after a change before a round starts.
const SETTLE: Duration = Duration::from_millis(300);
/// The most files watched: past it, a folder is too large to poll (a whole home folder).
const MAX_FILES: usize = 100_000;

/// Whether the command line asks for `--watch` (before any `--`).
pub fn wanted(args: &[String]) -> bool {
    args.iter().take_while(|a| *a != "--").any(|a| a == "--watch")
}

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

/// Whether `case` depends on one of `changed`: its input, its answer, or a `case.toml` in a
/// folder above it.
fn touched(case: &cases::Case, changed: &[PathBuf]) -> bool {
    let files = [case.input.as_deref(), case.expected.as_deref()];
    changed.iter().any(|c| {
        files.contains(&Some(c.as_path()))
            || (c.file_name().is_some_and(|n| n == "case.toml")
                && c.parent().is_some_and(|dir| case.input.as_deref().is_some_and(|i| i.starts_with(dir))))
    })
}

/// `judge --watch ...`; returns only on an error before the first round (exit 2), as Ctrl-C
/// ends the process.
pub fn main() -> i32 {
    use clap::Parser;
    let cli = Cli::parse();
    let exe = match std::env::current_exe() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("judge: cannot find the judge executable: {e}");
            return 2;
        }
    };
    let Some(paths) = super::paths_or_default(&cli.given_paths()) else {
        eprintln!("judge: no path given and no cases/, test/ or tests/ folder here: name the folder to watch");
        return 2;
    };
    // The solver as `judge` picks it (given, or found in the working folder).
    let program = match cli.solver_text() {
        Ok(_) if !cli.command.is_empty() => engine::from_words(&cli.command, &exe),
        Ok((text, _)) => engine::parse_command(&text, &exe),
        Err(e) => Err(e),
    };
    // The solver's source, or the program itself and any file its arguments name (a script,
    // `python3 sol.py`).
    let mut sources: Vec<PathBuf> = Vec::new();
    if let Ok(p) = &program {
        sources.extend(crate::build::source_of(p).map(|(path, _)| path));
        let words = std::iter::once(&p.program).chain(&p.args);
        sources.extend(words.map(PathBuf::from).filter(|w| w.is_file() && *w != exe));
    }
    let json = cli.json.clone().filter(|p| p != Path::new("-"));
    let mut seen = snapshot(&paths, &sources, json.as_deref());
    let mut changed: Vec<PathBuf> = Vec::new();
    for round in 1.. {
        if let Err(code) = judge_round(&cli, &exe, &paths, &changed) {
            if round == 1 {
                return code;
            }
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

/// One round: build, judge (the cases that depend on `changed` first), print the table, the
/// failures and the summary, and rewrite the `--json` report. `Err` is an exit status for a
/// configuration error (no cases, a bad flag).
fn judge_round(cli: &Cli, exe: &Path, paths: &[PathBuf], changed: &[PathBuf]) -> Result<(), i32> {
    let usage = |message: String| {
        eprintln!("judge: {message}");
        2
    };
    let options = cli.options(exe.to_path_buf()).map_err(usage)?;
    if let Some(e) = &options.solver_error {
        eprintln!("judge: CE: {e}");
    }
    let (mut found, warnings) = cases::discover_with_warnings(paths).map_err(|e| usage(e.to_string()))?;
    for w in warnings {
        eprintln!("judge: warning: {w}");
    }
    // What changed runs first; the rest keep their order.
    let (mut first, rest): (Vec<_>, Vec<_>) = found.drain(..).partition(|c| touched(c, changed));
    first.extend(rest);
    let found = first;
    let chosen = engine::select(&found, &options);
    if chosen.is_empty() {
        return Err(usage(format!("no case to judge under {} (after filters)", paths[0].display())));
    }
    let stdout = std::io::stdout();
    let color = match cli.color.as_str() {
        "always" => true,
        "never" => false,
        _ => stdout.is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    };
    let diff = report::DiffView::parse(&cli.diff).unwrap_or_default();
    let width = if stdout.is_terminal() { terminal_width().unwrap_or(100) } else { 100 };
    let style = report::Style { color, stderr_limit: cli.stderr_limit, diff, width };
    let layout = report::Layout::before_run(
        chosen.iter().map(|c| c.name.as_str()),
        options.reference.is_some(),
        chosen.iter().any(|c| c.config.points.is_some()),
    );
    let json_to_stdout = cli.json.as_deref() == Some(Path::new("-"));
    let sink = if json_to_stdout { Sink::Stderr } else { Sink::Stdout };
    let live = Live::start(layout, style, sink, chosen.len(), std::io::stderr().is_terminal());
    let results = engine::run_all(&found, &options, &|event| live.event(event));
    let _ = live.finish();
    let text = format!("{}\n{}\n", report::failures(&results, style), report::summary(&results));
    let protections = crate::sandbox::protections(cli.judging.sandbox);
    if json_to_stdout {
        eprint!("{text}");
        let mut out = stdout.lock();
        let _ = out.write_all(&report::json(&results, &protections)).and_then(|_| out.flush());
    } else {
        let mut out = stdout.lock();
        let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
    }
    if let Some(path) = cli.json.as_ref().filter(|_| !json_to_stdout) {
        if let Err(e) = std::fs::write(path, report::json(&results, &protections)) {
            eprintln!("judge: cannot write {}: {e}", path.display());
        }
    }
    Ok(())
}

/// Columns of the terminal on stdout, when it is one and says.
fn terminal_width() -> Option<usize> {
    // SAFETY: TIOCGWINSZ fills the winsize it is given, on a descriptor we hold.
    let mut size: libc::winsize = unsafe { std::mem::zeroed() };
    let ok = unsafe { libc::ioctl(libc::STDOUT_FILENO, libc::TIOCGWINSZ, &mut size) } == 0;
    (ok && size.ws_col > 0).then_some(usize::from(size.ws_col))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn watch_is_asked_for_only_before_the_command() {
        let words = |w: &str| w.split(' ').map(String::from).collect::<Vec<_>>();
        assert!(wanted(&words("cases --watch -- ./a.out")));
        assert!(!wanted(&words("cases -- ./a.out --watch")));
    }

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
        assert!(touched(&case, &changed[1..]) && touched(&case, &changed[..1]));
        assert!(!touched(&case, &[dir.path().join("b/input.txt")]));
    }
}
