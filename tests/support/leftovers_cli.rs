//! What a judge leaves on the machine: nothing. No folder in `TMPDIR` (the judge's own, or
//! one a launcher made), no process, whether the judge finishes or is ended mid-run.

use super::{folder, judge};
use std::path::Path;
use std::time::{Duration, Instant};

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

/// Processes whose command line is `argv`, seen in `/proc`.
fn running(argv: &[&str]) -> Vec<u32> {
    let wanted: Vec<u8> = argv.iter().flat_map(|a| a.bytes().chain([0])).collect();
    let entries = std::fs::read_dir("/proc").unwrap().flatten();
    let pids = entries.filter_map(|e| e.file_name().to_str().and_then(|n| n.parse::<u32>().ok()));
    pids.filter(|pid| std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|c| c == wanted)).collect()
}

/// Polls `done` until it holds or a deadline far past any normal wait passes; whether it held.
fn eventually(mut done: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    done()
}

#[test]
fn a_judge_leaves_no_folder_and_no_process_and_its_launchers_make_no_folder_of_their_own() {
    let dir = folder(&[("cases/a/input.txt", ""), ("cases/a/expected.txt", "x\n")]);
    let tmp = tempfile::tempdir().unwrap();
    judge()
        .current_dir(dir.path())
        .env("TMPDIR", tmp.path())
        .args(["cases", "--", "@fixture", "print x"])
        .assert()
        .success();
    assert_eq!(names(tmp.path()), Vec::<String>::new(), "a finished judge left these");
    // While a run goes, the one folder is the judge's: a launcher (there was one making
    // `judge-<its PID>`, which no judge removed if it was killed outright) makes none.
    let seconds = format!("300.{}", std::process::id());
    let marker = ["sleep", seconds.as_str()];
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("judge"))
        .current_dir(dir.path())
        .env("TMPDIR", tmp.path())
        .args(["cases", "--time-limit", "60s", "--"])
        .args(marker)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = eventually(|| !running(&marker).is_empty());
    let during = names(tmp.path());
    // SAFETY: a signal to our own child, Ctrl-C's cousin: the judge cleans up and exits 143.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let status = child.wait().unwrap();
    assert!(started, "the run never started");
    assert_eq!(during, vec![format!("judge-{}", child.id())], "while a run went");
    assert_eq!(status.code(), Some(143), "{status}");
    // The launchers kill the run once their judge is gone.
    assert!(eventually(|| running(&marker).is_empty() && names(tmp.path()).is_empty()), "{:?}", names(tmp.path()));
}
