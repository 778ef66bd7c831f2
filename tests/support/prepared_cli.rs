//! A root prepared once and entered by every run of a launcher (as go-judge reuses its
//! containers), whoever runs the judge: nothing one run writes reaches the next, and a
//! program replaced at the same path between two runs is the new one, never the file an old
//! root had bound.

use super::policy_cli::reports;
use std::path::Path;

#[test]
fn nothing_one_run_leaves_in_its_root_reaches_the_next() {
    // Each run looks for what an earlier one could have left, then leaves all it can: files
    // in its working folder, /dev/shm and /tmp, a write into the system's folders.
    let dir = super::folder(&[
        ("cases/a/input.txt", ""),
        ("cases/a/expected.txt", "clean\n"),
        ("cases/b/input.txt", ""),
        ("cases/b/expected.txt", "clean\n"),
        ("cases/c/input.txt", ""),
        ("cases/c/expected.txt", "clean\n"),
    ]);
    super::sandbox_cli::executable(
        &dir.path().join("leave.sh"),
        "up=$(dirname \"$HOME\")\n\
         found=$(find \"$HOME\" /dev/shm -mindepth 1 2>/dev/null\n\
         for f in /etc/left /usr/left /left \"$up/left\"; do [ -e \"$f\" ] && echo \"$f\"; done)\n\
         [ -z \"$found\" ] && echo clean || echo \"found: $found\"\n\
         touch \"$HOME/left\" /dev/shm/left /etc/left /usr/left /left \"$up/left\" 2>/dev/null\n\
         exit 0\n",
    );
    // One worker: every case on the same launcher, so the same prepared root.
    for (who, report) in reports(dir.path(), &["-j", "1", "--", "./leave.sh"], &[]) {
        for case in report["cases"].as_array().unwrap() {
            assert_eq!(case["verdict"], "AC", "{who}: {report}");
        }
    }
}

/// Who runs the judge: the tests' user and, when that is root, `nobody` too, each with
/// `dir` (made theirs to read and write).
fn whoever(dir: &Path) -> &'static [&'static str] {
    // SAFETY: a plain query.
    if unsafe { libc::geteuid() } != 0 {
        return &["user"];
    }
    use std::os::unix::fs::PermissionsExt;
    for entry in walkdir::WalkDir::new(dir).into_iter().flatten().filter(|e| !e.path_is_symlink()) {
        std::fs::set_permissions(entry.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    }
    &["root", "nobody"]
}

/// `judge` in `dir` as `who`.
fn judge_as(who: &str, dir: &Path) -> std::process::Command {
    use std::os::unix::process::CommandExt;
    let mut command = std::process::Command::new(assert_cmd::cargo::cargo_bin!("judge"));
    command.current_dir(dir).env("NO_COLOR", "1");
    if who == "nobody" {
        command.uid(65534).gid(65534).env("HOME", dir);
    }
    command
}

/// Whether `judge` is where `nobody` may run it (a build under a home it cannot reach is not).
fn nobody_reaches_the_judge() -> bool {
    let mut probe = judge_as("nobody", Path::new("/"));
    probe.arg("--version").output().is_ok_and(|out| out.status.success())
}

#[test]
fn every_run_of_a_launcher_enters_one_prepared_root_whoever_runs_the_judge() {
    // A root's top folder last changed when it was made: runs in a root prepared once see
    // one time, runs that each make their own see one a run (as a user's judge's did).
    let dir = super::folder(&[
        ("cases/a/input.txt", ""),
        ("cases/a/expected.txt", "-\n"),
        ("cases/b/input.txt", ""),
        ("cases/b/expected.txt", "-\n"),
        ("cases/c/input.txt", ""),
        ("cases/c/expected.txt", "-\n"),
    ]);
    super::sandbox_cli::executable(&dir.path().join("made.sh"), "stat -c made=%y /\n");
    for who in whoever(dir.path()) {
        if *who == "nobody" && !nobody_reaches_the_judge() {
            continue;
        }
        // One worker: every case on the same launcher. Each is WA, its output in the diff.
        let out = judge_as(who, dir.path()).args(["cases", "-j", "1", "--", "./made.sh"]).output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let made: Vec<&str> = stdout.lines().filter_map(|l| l.find("made=").map(|at| &l[at..])).collect();
        assert_eq!(made.len(), 3, "{who}: {stdout}");
        assert!(made.iter().all(|m| *m == made[0]), "{who}: a root made per run: {stdout}");
    }
}

/// Processes whose command line is `argv`, seen in `/proc`.
fn running(argv: &[&str]) -> Vec<i32> {
    let wanted: Vec<u8> = argv.iter().flat_map(|a| a.bytes().chain([0])).collect();
    let entries = std::fs::read_dir("/proc").unwrap().flatten();
    let pids = entries.filter_map(|e| e.file_name().to_str().and_then(|n| n.parse::<i32>().ok()));
    pids.filter(|pid| std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|c| c == wanted)).collect()
}

#[test]
fn a_program_replaced_at_its_path_between_two_runs_runs_as_replaced() {
    // The root prepared for case a binds the script's file. Saved again while a runs, as
    // editors and compilers do (a new file renamed over the old), the path holds another
    // file, which case b, on the same launcher, must run: the old root's bind still showed
    // the first.
    let dir = super::folder(&[
        ("root/cases/a/input.txt", ""),
        ("nobody/cases/a/input.txt", ""),
        ("user/cases/a/input.txt", ""),
    ]);
    for who in whoever(dir.path()) {
        if *who == "nobody" && !nobody_reaches_the_judge() {
            continue;
        }
        replaced(who, &dir.path().join(who));
    }
}

fn replaced(who: &str, dir: &Path) {
    for (path, text) in
        [("cases/a/expected.txt", "two\n"), ("cases/b/input.txt", ""), ("cases/b/expected.txt", "two\n")]
    {
        std::fs::create_dir_all(dir.join(path).parent().unwrap()).unwrap();
        std::fs::write(dir.join(path), text).unwrap();
    }
    whoever(dir);
    let seconds = format!("300.{}", std::process::id());
    let marker = ["sleep", seconds.as_str()];
    let script = dir.join("say.sh");
    super::sandbox_cli::executable(&script, &format!("sleep {seconds}\necho one\n"));
    let json = dir.join("report.json");
    let mut child = judge_as(who, dir)
        .args(["cases", "-j", "1", "--time-limit", "60s", "--json"])
        .arg(&json)
        .args(["--", "./say.sh"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    assert!(super::eventually(|| !running(&marker).is_empty()), "{who}: case a never started");
    let fresh = dir.join("say.sh.new");
    super::sandbox_cli::executable(&fresh, "echo two\n");
    std::fs::rename(&fresh, &script).unwrap();
    // Case a ends; a stale root would run the old script in b too: each of its sleeps ends.
    let ended = super::eventually(|| {
        for pid in running(&marker) {
            // SAFETY: a signal to a process of this test's own run.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        child.try_wait().unwrap().is_some()
    });
    if !ended {
        let _ = child.kill();
    }
    let _ = child.wait();
    let report: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(report["cases"][1]["verdict"], "AC", "{who}: {report}");
}
