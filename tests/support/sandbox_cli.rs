//! Hostile solvers in the sandbox: each gets the verdict its behaviour deserves, and changes
//! nothing outside its scratch folder. Where this kernel has no Landlock, the judge must say
//! which protections are off instead.

use super::{folder, judge};
use predicates::prelude::*;
use std::path::Path;

pub(super) fn executable(path: &Path, body: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn landlock() -> bool {
    sudoku_judge::sandbox::files::support().files
}

/// Whether a protection is missing here (`lacking`); if so, the judge must say so with `note`,
/// and the test that needs the protection stops there.
fn missing_and_said(lacking: bool, note: &str) -> bool {
    if lacking {
        judge().args(["cases/harness"]).assert().stderr(predicate::str::contains(note));
    }
    lacking
}

/// A case expecting `3` for `1 2`, and a solver script with `body`.
fn setup(body: &str) -> tempfile::TempDir {
    let dir = folder(&[("cases/a/input.txt", "1 2\n"), ("cases/a/expected.txt", "3\n")]);
    executable(&dir.path().join("solver.sh"), body);
    dir
}

#[test]
fn a_solver_cannot_read_or_overwrite_the_answer_or_write_into_the_user_s_folder() {
    if missing_and_said(!landlock(), "file access is not limited") {
        return;
    }
    // Also: swapping the case's files for FIFOs, which would block the judge's next read of
    // them (hence two runs of the case).
    let dir = setup(
        "folder=$(dirname \"$(readlink /proc/self/fd/0)\")\n\
         cat \"$folder/expected.txt\" 2>/dev/null || cat cases/a/expected.txt 2>/dev/null\n\
         echo 4 > \"$folder/expected.txt\" 2>/dev/null\n\
         echo 4 > \"$PWD_OF_JUDGE/cases/a/expected.txt\" 2>/dev/null\n\
         for f in expected input; do rm -f \"$PWD_OF_JUDGE/cases/a/$f.txt\"; mkfifo \"$PWD_OF_JUDGE/cases/a/$f.txt\"; done 2>/dev/null\n\
         echo junk > output.txt\n\
         exit 0\n",
    );
    let home = dir.path().to_str().unwrap().to_string();
    judge()
        .current_dir(dir.path())
        .env("PWD_OF_JUDGE", &home)
        .args(["cases", "--repeat", "2", "--env", "PWD_OF_JUDGE", "--", "./solver.sh"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(" WA "));
    assert_eq!(std::fs::read_to_string(dir.path().join("cases/a/expected.txt")).unwrap(), "3\n");
    assert_eq!(std::fs::read_to_string(dir.path().join("cases/a/input.txt")).unwrap(), "1 2\n");
    assert!(!dir.path().join("output.txt").exists(), "a run wrote into the working folder");
}

#[test]
fn a_solver_cannot_stop_or_kill_its_parent_or_connect() {
    if missing_and_said(!landlock() || !sudoku_judge::sandbox::files::support().signals, "not blocked") {
        return;
    }
    // SIGSTOP, then SIGKILL, to the launcher (its parent): neither is inside its run, so the
    // judge goes on, and the solver's own answer is judged. (Not `kill -1`: where the sandbox
    // failed, that would kill every process of the user.)
    let dir = setup("kill -STOP $PPID 2>/dev/null\nkill -KILL $PPID 2>/dev/null\necho 3\n");
    judge().current_dir(dir.path()).args(["cases", "--", "./solver.sh"]).assert().success();
    if !sudoku_judge::sandbox::files::support().network {
        return;
    }
    // No TCP: a connection to a listening port here is refused by the sandbox, and made
    // without it.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    closed_here_open_without(&format!("connect {}", listener.local_addr().unwrap().port()), "refused", "connected");
}

/// `@fixture command` prints `closed` in the sandbox, and `open` without it.
fn closed_here_open_without(command: &str, closed: &str, open: &str) {
    let dir = folder(&[("cases/a/input.txt", ""), ("cases/a/expected.txt", &format!("{closed}\n"))]);
    judge().current_dir(dir.path()).args(["cases", "--", "@fixture", command]).assert().success();
    judge()
        .current_dir(dir.path())
        .args(["cases", "--sandbox", "off", "--diff", "unified", "--", "@fixture", command])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(format!("+{open}")));
}

#[test]
fn a_solver_cannot_rewrite_a_cached_build() {
    if !landlock() {
        return;
    }
    let dir = folder(&[("cases/a/input.txt", "1 2\n"), ("cases/a/expected.txt", "3\n")]);
    let cache = tempfile::tempdir().unwrap();
    // A Rust solver that tries to overwrite every program in the build cache, then answers.
    let source = format!(
        "fn main() {{ for e in std::fs::read_dir(\"{}/sudoku-judge/build\").into_iter().flatten().flatten() {{ \
         let _ = std::fs::write(e.path(), b\"#!/bin/sh\\necho 4\\n\"); }} println!(\"3\"); }}\n",
        cache.path().display()
    );
    std::fs::write(dir.path().join("evil.rs"), source).unwrap();
    std::fs::write(dir.path().join("good.rs"), "fn main() { println!(\"3\"); }\n").unwrap();
    let run = |solver: &str| {
        judge().current_dir(dir.path()).env("XDG_CACHE_HOME", cache.path()).args(["cases", "--", solver]).assert()
    };
    run("good.rs").success();
    run("evil.rs").success();
    // The cached good program is the one built: it still answers 3.
    run("good.rs").success();
}

#[test]
fn json_says_which_protections_the_runs_had_and_off_turns_them_off() {
    let dir = setup("echo 3\n");
    let json = dir.path().join("r.json");
    judge().current_dir(dir.path()).args(["cases", "--json"]).arg(&json).args(["--", "./solver.sh"]).assert().success();
    let report: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(report["sandbox"]["scratch"], true, "{report}");
    assert_eq!(report["sandbox"]["files"], landlock(), "{report}");
    assert_eq!(report["sandbox"]["processes"], own_processes(), "{report}");
    judge()
        .current_dir(dir.path())
        .args(["cases", "--sandbox", "off", "--json"])
        .arg(&json)
        .args(["--", "./solver.sh"])
        .assert()
        .success();
    let report: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(report["sandbox"]["files"], false, "{report}");
    assert!(report["sandbox"]["missing"][0].as_str().unwrap().contains("--sandbox off"));
}

/// Waits (with a deadline) until `done` holds.
fn eventually(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !done() {
        assert!(std::time::Instant::now() < deadline, "{what}");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// The fixture processes of the judge `pid`'s runs, once there are some. A run has started
/// when a process of the judge's tree runs the fixture: its arguments, not "@fixture" (a
/// child the judge forked keeps the judge's own arguments, "@fixture" among them, until it
/// runs the launcher, before any run has begun).
fn started_runs(pid: i32) -> Vec<i32> {
    let fixture = b"--builtin\0fixture\0";
    let runs = || -> Vec<i32> {
        sudoku_judge::proctree::descendants(pid)
            .into_iter()
            .filter(|p| {
                std::fs::read(format!("/proc/{p}/cmdline"))
                    .is_ok_and(|c| c.windows(fixture.len()).any(|w| w == fixture))
            })
            .collect()
    };
    eventually("the run never started", || !runs().is_empty());
    runs()
}

#[test]
fn ctrl_c_leaves_nothing_running_and_nothing_behind() {
    for command in ["spin 60000", "sleep 60000"] {
        let dir = folder(&[("cases/a/input.txt", ""), ("cases/a/expected.txt", "x\n")]);
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("judge"))
            .current_dir(dir.path())
            .args(["cases", "--time-limit", "60s", "--wall-limit", "120s", "--", "@fixture", command])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let pid = child.id() as i32;
        let solvers = started_runs(pid);
        let temp = std::env::temp_dir().join(format!("judge-{pid}"));
        assert!(temp.exists(), "the judge keeps its temporary files in {}", temp.display());
        // SAFETY: a signal to our own child.
        unsafe { libc::kill(pid, libc::SIGINT) };
        let status = child.wait().unwrap();
        assert_eq!(std::os::unix::process::ExitStatusExt::signal(&status).or(status.code()), Some(130), "{status:?}");
        for p in solvers {
            eventually("a solver outlived the judge", || {
                std::fs::read_to_string(format!("/proc/{p}/stat")).map_or(true, |s| s.contains(") Z"))
            });
        }
        assert!(!temp.exists(), "{} is left behind", temp.display());
    }
}

#[test]
fn escape_codes_from_a_solver_or_a_case_name_never_reach_the_report_raw() {
    let name = "evil\u{1b}[2J";
    let dir = folder(&[(&format!("cases/{name}/input.txt"), ""), (&format!("cases/{name}/expected.txt"), "x\n")]);
    let out = judge()
        .current_dir(dir.path())
        .args(["cases", "--", "@fixture", "stderr \u{1b}[2J\u{1b}[32mall passed; print \u{1b}[1Ay"])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    assert!(!out.contains(&0x1b), "{}", String::from_utf8_lossy(&out));
    let text = String::from_utf8_lossy(&out);
    assert!(text.contains("evil\\x1B[2J") && text.contains("\\x1B[32mall passed"), "{text}");
}

#[test]
fn thousands_of_children_are_cleaned_up_and_their_shared_memory_counted_once() {
    let dir = folder(&[("cases/a/input.txt", ""), ("cases/a/expected.txt", "x\n")]);
    // 2000 idle children left behind took minutes to clean up (one walk of the tree per
    // reaped process); a chain of 1000 as well. 300 forked children counted each other's
    // shared pages: MLE at 105 MiB under 64 MiB. (A process costs the kernel some 120 KiB,
    // which a cgroup counts: 2000 of them really hold some 300 MiB.)
    for (command, memory) in [
        ("idle 2000 60000; print x", "1GiB"),
        ("chain 1000 60000; print x", "1GiB"),
        ("idle 300 60000; print x", "64MiB"),
    ] {
        judge()
            .current_dir(dir.path())
            .args(["cases", "--time-limit", "20s", "--wall-limit", "60s", "--memory-limit", memory])
            .args(["--", "@fixture", command])
            .assert()
            .success()
            .stdout(predicate::str::ends_with("1 passed, 0 failed\n"));
    }
}

#[test]
fn a_cached_build_changed_outside_the_sandbox_is_built_again_not_run() {
    let dir = folder(&[("cases/a/input.txt", "1 2\n"), ("cases/a/expected.txt", "3\n")]);
    let cache = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("good.rs"), "fn main() { println!(\"3\"); }\n").unwrap();
    let run = || {
        judge().current_dir(dir.path()).env("XDG_CACHE_HOME", cache.path()).args(["cases", "--", "good.rs"]).assert()
    };
    run().success();
    // Tamper with the cached program as a run without the sandbox could.
    let built = cache.path().join("sudoku-judge/build");
    let program = std::fs::read_dir(&built)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().map_or(true, |e| e != "sum"))
        .expect("the cached program");
    assert!(program.with_file_name(format!("{}.sum", program.file_name().unwrap().to_string_lossy())).exists());
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::write(&program, "#!/bin/sh\necho 4\n").unwrap();
    run().success().stderr(predicate::str::contains("had changed since it was built"));
}

#[test]
fn calls_that_could_harm_the_machine_are_refused_in_the_sandbox() {
    let dir = folder(&[("cases/a/input.txt", ""), ("cases/a/expected.txt", "x\n")]);
    let probe = "syscall ptrace; syscall unshare; syscall keyctl";
    let run = |sandbox: &str| {
        let out = judge()
            .current_dir(dir.path())
            .args(["cases", "--diff", "unified", "--sandbox", sandbox, "--", "@fixture", probe])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).replace('·', " ")
    };
    let inside = run("auto");
    for call in ["ptrace", "unshare", "keyctl"] {
        assert!(inside.contains(&format!("+{call} refused (Operation not permitted")), "{inside}");
    }
    // The same calls work outside the sandbox: the refusal is the filter's.
    let outside = run("off");
    assert!(outside.contains("+ptrace ok") && outside.contains("+unshare ok"), "{outside}");
}

#[test]
fn the_judge_itself_stays_small_whatever_its_runs_do() {
    // A flood of output, a wide tree of children, a big allocation and a large input: the
    // judge's own peak (VmHWM, read while it runs) stays under 64 MiB.
    let big_input = "print done\n".repeat(400_000); // 4.4 MB
    let dir = folder(&[
        ("cases/flood/input.txt", "flood 512\n"),
        ("cases/idle/input.txt", "idle 2000 200; print done\n"),
        ("cases/alloc/input.txt", "alloc 200; print done\n"),
        ("cases/big/input.txt", &big_input),
    ]);
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("judge"))
        .current_dir(dir.path())
        .args(["cases", "--memory-limit", "1GiB", "--solver", "@fixture"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let status = format!("/proc/{}/status", child.id());
    let mut peak_kib = 0u64;
    while child.try_wait().unwrap().is_none() {
        if let Ok(text) = std::fs::read_to_string(&status) {
            let hwm = text.lines().find_map(|l| l.strip_prefix("VmHWM:")).and_then(|v| v.trim().strip_suffix("kB"));
            if let Some(kib) = hwm.and_then(|v| v.trim().parse::<u64>().ok()) {
                peak_kib = peak_kib.max(kib);
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    eprintln!("the judge peaked at {peak_kib} KiB");
    assert!(peak_kib > 0, "never saw the judge's memory");
    assert!(peak_kib < 64 * 1024, "the judge itself peaked at {peak_kib} KiB");
}

#[test]
fn memory_hidden_in_a_memfd_counts_and_a_mapped_one_counts_once() {
    let dir = folder(&[
        ("cases/hidden/input.txt", "memfd 300\nsleep 60000\nprint done\n"),
        ("cases/hidden/expected.txt", "done\n"),
        ("cases/mapped/input.txt", "memfdmap 40\nsleep 300\nprint done\n"),
        ("cases/mapped/expected.txt", "done\n"),
    ]);
    let out = judge()
        .current_dir(dir.path())
        .args(["cases", "--memory-limit", "64MiB", "--solver", "@fixture"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let verdict = |case: &str| text.lines().find(|l| l.starts_with(case)).and_then(|l| l.split_whitespace().nth(1));
    // 300 MiB written into a memfd that is never mapped is in no process's RSS: the run is
    // held open until the watchdog ends it.
    assert_eq!(verdict("hidden"), Some("MLE"), "{text}");
    // 40 MiB mapped and touched: in RSS once, not again as the memfd's size.
    assert_eq!(verdict("mapped"), Some("AC"), "{text}");
}

#[test]
fn children_the_kernel_reaps_still_count_their_cpu() {
    // With SIGCHLD ignored the kernel reaps the children and their CPU reaches no parent: the
    // run was ended for CPU but reported 1.1 s of its 2 s "not using the CPU it could have".
    let dir = folder(&[("cases/a/input.txt", ""), ("cases/a/expected.txt", "x\n")]);
    judge()
        .current_dir(dir.path())
        .args(["cases", "--time-limit", "1s", "--wall-limit", "60s"])
        .args(["--", "@fixture", "nochld; burn 4 30000; sleep 60000; print x"])
        .assert()
        .code(1)
        .stdout(
            predicate::str::contains(" TLE ").and(predicate::str::contains("ms of CPU time; the limit is 1000 ms")),
        );
}

#[test]
fn dev_shm_is_the_run_s_own_in_memory_counted_and_gone_with_it() {
    if !landlock() || !std::path::Path::new("/dev/shm").is_dir() {
        return;
    }
    // A file in the machine's /dev/shm would be memory that no process's RSS shows and that
    // outlives the run. A run with its own namespaces gets a /dev/shm of its own (Python's
    // multiprocessing needs one): a small file is kept there, a hoard is its memory (MLE),
    // and neither reaches the machine's.
    let name = format!("judge-test-{}", std::process::id());
    let path = std::path::Path::new("/dev/shm").join(&name);
    let own = own_processes();
    let dir = folder(&[("cases/a/input.txt", ""), ("cases/a/expected.txt", if own { "kept\n" } else { "refused\n" })]);
    let small = format!("shm 1 {name}");
    judge().current_dir(dir.path()).args(["cases", "--", "@fixture", &small]).assert().success();
    assert!(!path.exists(), "{} was written from the sandbox", path.display());
    if own {
        let hoard = format!("shm 100 {name}");
        let out = judge()
            .current_dir(dir.path())
            .args(["cases", "--memory-limit", "32MiB", "--", "@fixture", &hoard])
            .output();
        let out = String::from_utf8_lossy(&out.unwrap().stdout).into_owned();
        assert!(out.contains(" MLE ") || out.contains(" WA "), "{out}");
        assert!(!path.exists(), "{} was written from the sandbox", path.display());
    }
    // Without the sandbox the same program keeps its file (1 MiB here, removed at once).
    let out = judge().current_dir(dir.path()).args(["cases", "--sandbox", "off", "--", "@fixture", &small]).output();
    let kept = path.exists();
    let _ = std::fs::remove_file(&path);
    assert!(kept && out.unwrap().status.code() == Some(if own { 0 } else { 1 }));
}

fn own_processes() -> bool {
    sudoku_judge::sandbox::pids::support().is_ok()
}

#[test]
fn a_run_sees_its_own_processes_only() {
    if missing_and_said(!own_processes(), "process tree") {
        return;
    }
    // In its own PID namespace the shell is PID 2 (the keeper is 1), and its /proc lists
    // those two: not the judge, the launcher, other runs or the user's programs.
    let dir = folder(&[("cases/a/input.txt", ""), ("cases/a/expected.txt", "2\n2\n")]);
    executable(&dir.path().join("solver.sh"), "echo $$\nset -- /proc/[0-9]*\necho $#\n");
    judge().current_dir(dir.path()).args(["cases", "--", "./solver.sh"]).assert().success();
}

#[test]
fn a_run_dies_with_a_judge_and_launcher_killed_outright() {
    if !own_processes() {
        return;
    }
    // SIGKILL to the judge's process group (its launchers are in it) leaves no launcher to
    // sweep the run: the keeper dies with its launcher, and the kernel ends its namespace.
    // Without the sandbox nothing is left to do that, and the solver lives on.
    for (level, survives) in [("auto", false), ("off", true)] {
        let dir = folder(&[("cases/a/input.txt", ""), ("cases/a/expected.txt", "x\n")]);
        use std::os::unix::process::CommandExt;
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("judge"))
            .current_dir(dir.path())
            .args(["cases", "--sandbox", level, "--time-limit", "60s", "--wall-limit", "120s"])
            .args(["--", "@fixture", "sleep 60000"])
            .process_group(0)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let pid = child.id() as i32;
        let solvers = started_runs(pid);
        // SAFETY: a signal to the process group of our own child.
        unsafe { libc::kill(-pid, libc::SIGKILL) };
        child.wait().unwrap();
        let gone = |p: i32| std::fs::read_to_string(format!("/proc/{p}/stat")).map_or(true, |s| s.contains(") Z"));
        for p in solvers {
            if survives {
                // Still running: the test's own clean-up.
                assert!(!gone(p), "without the sandbox the solver was expected to outlive its judge");
                // SAFETY: it was confirmed above to be the fixture this test started.
                unsafe { libc::kill(p, libc::SIGKILL) };
            } else {
                eventually("a solver outlived its judge and launcher", || gone(p));
            }
        }
        let _ = std::fs::remove_dir_all(std::env::temp_dir().join(format!("judge-{pid}")));
    }
}

#[test]
fn a_run_has_no_network_at_all() {
    if sudoku_judge::sandbox::syscalls::supported().is_err() {
        return;
    }
    // Landlock refuses TCP only; the seccomp filter refuses every internet socket, UDP
    // included. Without the sandbox the datagram goes out to a socket listening here.
    let listener = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    closed_here_open_without(&format!("udp {}", listener.local_addr().unwrap().port()), "unreachable", "sent");
}

#[test]
fn files_a_run_writes_are_memory_it_holds_and_capped_by_the_limit() {
    if !own_processes() {
        return;
    }
    // 100 MB into the scratch folder under a 32 MiB limit: the tmpfs is full at the limit
    // (the watchdog, when it samples the file, adds it to the run's memory: MLE). Without
    // the sandbox the whole file lands on the disk and the run goes on: WA.
    let dir = folder(&[("cases/a/input.txt", ""), ("cases/a/expected.txt", "full\n")]);
    executable(
        &dir.path().join("solver.sh"),
        "head -c 100000000 /dev/zero > big 2>/dev/null\n\
         [ \"$(wc -c < big)\" -lt 100000000 ] && echo full || echo roomy\n",
    );
    let run = |level: &str| {
        judge()
            .current_dir(dir.path())
            .args(["cases", "--memory-limit", "32MiB", "--sandbox", level, "--", "./solver.sh"])
            .assert()
    };
    let out = run("auto").get_output().stdout.clone();
    let out = String::from_utf8_lossy(&out);
    assert!(out.contains(" AC ") || out.contains(" MLE "), "{out}");
    run("off").code(1).stdout(predicate::str::contains(" WA "));
}

fn cgroup() -> bool {
    sudoku_judge::sandbox::cgroup::support().is_ok()
}

/// The facts of the one case a run with `--json` judged.
fn facts_of(dir: &Path, args: &[&str]) -> serde_json::Value {
    let json = dir.join("r.json");
    // The verdict is the caller's to check, from the facts; only a usage error is not.
    let code = judge().current_dir(dir).args(["cases", "--json"]).arg(&json).args(args).output().unwrap().status.code();
    assert!(matches!(code, Some(0 | 1)), "judge exited {code:?}");
    let report: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    report["cases"][0]["facts"].clone()
}

#[test]
fn a_cgroup_counts_the_cpu_of_children_the_kernel_reaps_while_the_run_goes_and_memory_in_pipes() {
    if missing_and_said(!cgroup(), "figures are not exact") {
        return;
    }
    let dir = folder(&[("cases/a/input.txt", ""), ("cases/a/expected.txt", "x\n")]);
    // Two children burn 300 ms each and end, reaped by the kernel (SIGCHLD ignored): their
    // CPU reaches no parent, and samples every few ms could only put a floor under it.
    let facts = facts_of(dir.path(), &["--", "@fixture", "nochld; burn 2 300; waitall; print x"]);
    assert_eq!(facts["measured_by"], "cgroup", "{facts}");
    assert!(facts["cpu_ms"].as_f64().unwrap() >= 600.0, "{facts}");
    // One child after another burning 50 ms and reaped by the kernel: no sample ever saw
    // more than 50 ms, so the run went on to its wall limit (5 s here), reported as 50 ms of
    // CPU. The watchdog reads the cgroup's CPU too, and ends it for CPU at its limit.
    let facts = facts_of(dir.path(), &["--time-limit", "1s", "--", "@fixture", "nochld; churn 60 50; print x"]);
    assert_eq!(facts["ended_by"], "cpu", "{facts}");
    assert!(facts["cpu_ms"].as_f64().unwrap() >= 1000.0, "{facts}");
    // 50 MiB in pipe buffers nobody reads: in no process's RSS, but held by the run. (Not
    // more: a run holds no capability, so the kernel gives a user's pipes 64 MiB in all.)
    let facts = facts_of(dir.path(), &["--memory-limit", "32MiB", "--", "@fixture", "pipes 50; print x"]);
    assert!(facts["peak_rss_kib"].as_u64().unwrap() > 50 * 1024, "{facts}");
}

#[test]
fn a_judge_that_is_not_root_gets_its_namespaces_through_a_user_namespace() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    // Only root can run the judge as another user here; most users are not root, and this
    // is the path their runs take.
    // SAFETY: a plain query.
    if unsafe { libc::geteuid() } != 0 {
        return;
    }
    let dir = folder(&[("cases/a/input.txt", ""), ("cases/a/expected.txt", "2\n2\n")]);
    executable(&dir.path().join("solver.sh"), "echo $$\nset -- /proc/[0-9]*\necho $#\n");
    for entry in walkdir::WalkDir::new(dir.path()).into_iter().flatten() {
        std::fs::set_permissions(entry.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    }
    let json = dir.path().join("r.json");
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin!("judge"))
        .current_dir(dir.path())
        .uid(65534)
        .gid(65534)
        .env("HOME", dir.path())
        .env("XDG_CACHE_HOME", dir.path().join(".cache"))
        .args(["cases", "--json"])
        .arg(&json)
        .args(["--", "./solver.sh"])
        .output();
    // A build folder that user cannot reach (a clone under a private home) cannot be tried.
    let Some(out) = out.ok().filter(|_| json.exists()) else { return };
    let report: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    if report["sandbox"]["processes"] != true {
        // User namespaces are off on this kernel: the judge says so and runs without them.
        assert!(report["sandbox"]["missing"].to_string().contains("as a user"), "{report}");
        return;
    }
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
    assert_eq!(report["cases"][0]["verdict"], "AC", "{report}");
}

#[test]
fn a_solver_cannot_reach_the_terminal_the_judge_runs_in() {
    // The judge runs on a terminal of its own here (its controlling terminal), as when a
    // user types `judge`; a solver that opens /dev/tty could read what the user types.
    let dir = folder(&[("cases/a/input.txt", ""), ("cases/a/expected.txt", "none\n")]);
    executable(&dir.path().join("solver.sh"), "if (exec 3</dev/tty) 2>/dev/null; then echo tty; else echo none; fi\n");
    let verdict = |level: &str| -> String {
        let (slave, mut master) = super::live_cli::pty();
        let json = dir.path().join(format!("{level}.json"));
        let mut command = std::process::Command::new(assert_cmd::cargo::cargo_bin!("judge"));
        command
            .current_dir(dir.path())
            .args(["cases", "--sandbox", level, "--json"])
            .arg(&json)
            .args(["--", "./solver.sh"]);
        super::live_cli::on_terminal(&mut command, slave);
        let mut child = command.spawn().unwrap();
        drop(command);
        let reader = std::thread::spawn(move || {
            let mut sink = Vec::new();
            let _ = std::io::Read::read_to_end(&mut master, &mut sink);
        });
        child.wait().unwrap();
        reader.join().unwrap();
        let report: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
        report["cases"][0]["verdict"].as_str().unwrap().to_string()
    };
    assert_eq!(verdict("auto"), "AC");
    // Without the sandbox the solver shares the judge's session, and its terminal.
    assert_eq!(verdict("off"), "WA");
}
