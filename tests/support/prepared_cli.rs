//! A root prepared once and entered by every run of a launcher (as go-judge reuses its
//! containers): nothing one run writes reaches the next, whoever runs the judge, and a
//! program replaced at the same path between two runs is the new one, never the file an old
//! root had bound.

use super::policy_cli::reports;

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
        ("cases/a/input.txt", ""),
        ("cases/a/expected.txt", "two\n"),
        ("cases/b/input.txt", ""),
        ("cases/b/expected.txt", "two\n"),
    ]);
    let seconds = format!("300.{}", std::process::id());
    let marker = ["sleep", seconds.as_str()];
    let script = dir.path().join("say.sh");
    super::sandbox_cli::executable(&script, &format!("sleep {seconds}\necho one\n"));
    let json = dir.path().join("report.json");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("judge"))
        .current_dir(dir.path())
        .args(["cases", "-j", "1", "--time-limit", "60s", "--json"])
        .arg(&json)
        .args(["--", "./say.sh"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    assert!(super::eventually(|| !running(&marker).is_empty()), "case a never started");
    let fresh = dir.path().join("say.sh.new");
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
    assert_eq!(report["cases"][1]["verdict"], "AC", "{report}");
}
