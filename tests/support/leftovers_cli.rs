//! What a judge leaves on the machine: nothing. No folder in `TMPDIR` (the judge's own, or
//! one a launcher made), no process, whether the judge finishes or is ended mid-run.

use super::folder;
use std::path::Path;

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

#[test]
fn a_judge_leaves_no_folder_and_no_process_and_its_launchers_make_no_folder_of_their_own() {
    use std::os::unix::fs::PermissionsExt;
    // SAFETY: a plain query.
    let root = unsafe { libc::geteuid() } == 0;
    for who in if root { &["root", "nobody"][..] } else { &["user"][..] } {
        let dir = folder(&[("cases/a/input.txt", ""), ("cases/a/expected.txt", "x\n")]);
        let tmp = tempfile::tempdir().unwrap();
        if root {
            for path in [dir.path(), tmp.path()] {
                for entry in walkdir::WalkDir::new(path).into_iter().flatten() {
                    std::fs::set_permissions(entry.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
                }
            }
        }
        leaves_nothing(who, dir.path(), tmp.path());
    }
}

/// Runs the judge as `who` in `dir` with `tmp` as its `TMPDIR`: once to the end, once ended
/// mid-run by SIGTERM.
fn leaves_nothing(who: &str, dir: &Path, tmp: &Path) {
    use std::os::unix::process::CommandExt;
    let judge_as = || {
        let mut command = std::process::Command::new(assert_cmd::cargo::cargo_bin!("judge"));
        command.current_dir(dir).env("NO_COLOR", "1").env("TMPDIR", tmp);
        command.stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null());
        if who == "nobody" {
            command.uid(65534).gid(65534).env("HOME", dir).env("XDG_CACHE_HOME", dir.join(".cache"));
        }
        command
    };
    let status = judge_as().args(["cases", "--", "@fixture", "print x"]).status().unwrap();
    assert!(status.success(), "{who}: {status}");
    assert_eq!(names(tmp), Vec::<String>::new(), "{who}: a finished judge left these");
    // While a run goes, the one folder is the judge's: a launcher (there was one making
    // `judge-<its PID>`, which no judge removed if it was killed outright) makes none.
    let seconds = format!("300.{}", std::process::id());
    let marker = ["sleep", seconds.as_str()];
    let mut child = judge_as().args(["cases", "--time-limit", "60s", "--"]).args(marker).spawn().unwrap();
    let started = super::eventually(|| !running(&marker).is_empty());
    let during = names(tmp);
    // SAFETY: a signal to our own child, Ctrl-C's cousin: the judge cleans up and exits 143.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let status = child.wait().unwrap();
    assert!(started, "{who}: the run never started");
    assert_eq!(during, vec![format!("judge-{}", child.id())], "{who}: while a run went");
    assert_eq!(status.code(), Some(143), "{who}: {status}");
    // The launchers kill the run once their judge is gone.
    assert!(super::eventually(|| running(&marker).is_empty() && names(tmp).is_empty()), "{who}: {:?}", names(tmp));
}

#[test]
fn without_namespaces_the_files_a_run_writes_count_as_its_memory_in_all() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    // Without namespaces a run's scratch folder is on the disk, each file capped by
    // RLIMIT_FSIZE at the memory limit: four files of 35 MB under 40 MiB each passed (1.4 GiB
    // in all was AC). The kernel is told to refuse new user and PID namespaces, in a user
    // namespace of the test's own, which is where the judge runs.
    let dir = folder(&[("cases/a/input.txt", ""), ("cases/a/expected.txt", "x\n")]);
    super::sandbox_cli::executable(
        &dir.path().join("fill.sh"),
        "#!/bin/sh\nfor f in 1 2 3 4; do head -c 35000000 /dev/zero > $f; done\necho x\nexec sleep 60\n",
    );
    // SAFETY: a plain query.
    let root = unsafe { libc::geteuid() } == 0;
    if root {
        for entry in walkdir::WalkDir::new(dir.path()).into_iter().flatten() {
            std::fs::set_permissions(entry.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
        }
    }
    let no_namespaces = "echo 0 > /proc/sys/user/max_user_namespaces && echo 0 > /proc/sys/user/max_pid_namespaces \
                         && exec \"$0\" \"$@\"";
    for who in if root { &["root", "nobody"][..] } else { &["user"][..] } {
        let json = dir.path().join(format!("{who}.json"));
        let mut command = std::process::Command::new("unshare");
        command.current_dir(dir.path()).env("NO_COLOR", "1").args(["-U", "-r", "sh", "-c", no_namespaces]);
        command.arg(assert_cmd::cargo::cargo_bin!("judge")).args(["cases", "--memory-limit", "40MiB", "--json"]);
        command.arg(&json).args(["--", "./fill.sh"]);
        if *who == "nobody" {
            command.uid(65534).gid(65534).env("HOME", dir.path());
        }
        let out = command.output().unwrap();
        if !json.exists() {
            // No unshare(1), or no user namespace for this user: said, not passed.
            eprintln!("{who}: could not run the judge without namespaces: {}", String::from_utf8_lossy(&out.stderr));
            continue;
        }
        let report: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
        assert_eq!(report["sandbox"]["processes"], false, "{who}: {report}");
        assert_eq!(report["cases"][0]["verdict"], "MLE", "{who}: {report}");
    }
}
