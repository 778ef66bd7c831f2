//! The sandbox's policy, one property a test, each run as the test's user and, where that is
//! root, as `nobody` too: no privilege, no network by any call, a cap on tasks, a clean
//! environment. Each fails on the sandbox before these properties (the probes print what
//! they got, and the old sandbox let them get it).

use super::{folder, judge};
use predicates::prelude::*;
use std::path::Path;

/// Runs `judge cases --json ... ARGS` in `dir` (with `env` set) as this user and, when this
/// is root, as `nobody`; the report of each run that could be made, with who ran it.
pub(super) fn reports(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Vec<(&'static str, serde_json::Value)> {
    use std::os::unix::fs::PermissionsExt;
    let mut found = Vec::new();
    // SAFETY: a plain query.
    let root = unsafe { libc::geteuid() } == 0;
    if root {
        // Never through a link: a venv's python is the system's.
        for entry in walkdir::WalkDir::new(dir).into_iter().flatten().filter(|e| !e.path_is_symlink()) {
            std::fs::set_permissions(entry.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
        }
    }
    for who in if root { &["root", "nobody"][..] } else { &["user"][..] } {
        let json = dir.join(format!("{who}.json"));
        let mut command = judge_as(who, dir);
        command.args(["cases", "--json"]).arg(&json).args(args);
        for (k, v) in env {
            command.env(k, v);
        }
        let out = command.output().unwrap();
        // As nobody, a judge built where that user cannot reach is not tried.
        if !json.exists() && *who == "nobody" {
            continue;
        }
        assert!(matches!(out.status.code(), Some(0 | 1)), "{who}: {}", String::from_utf8_lossy(&out.stderr));
        found.push((*who, serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap()));
    }
    found
}

/// `judge` in `dir` as `who` ("nobody", or the tests' own user).
pub(super) fn judge_as(who: &str, dir: &Path) -> std::process::Command {
    use std::os::unix::process::CommandExt;
    let mut command = std::process::Command::new(assert_cmd::cargo::cargo_bin!("judge"));
    command.current_dir(dir).env("NO_COLOR", "1");
    if who == "nobody" {
        command.uid(65534).gid(65534).env("HOME", dir).env("XDG_CACHE_HOME", dir.join(".cache"));
    }
    command
}

fn verdict(report: &serde_json::Value) -> &str {
    report["cases"][0]["verdict"].as_str().unwrap_or("none")
}

/// A case with no input expecting `expected`.
fn expecting(expected: &str) -> tempfile::TempDir {
    folder(&[("cases/a/input.txt", ""), ("cases/a/expected.txt", expected)])
}

#[test]
fn a_run_holds_no_capability_whoever_runs_the_judge() {
    let dir = expecting("caps none\n");
    for (who, report) in reports(dir.path(), &["--", "@fixture", "caps"], &[]) {
        assert_eq!(verdict(&report), "AC", "{who}: {report}");
    }
    // Without the sandbox a program keeps the judge's bounding set (and, as root, every
    // capability).
    judge().current_dir(dir.path()).args(["cases", "--sandbox", "off", "--", "@fixture", "caps"]).assert().code(1);
}

#[test]
fn no_socket_but_a_unix_one_by_any_call() {
    // io_uring makes sockets and sends without the calls a filter sees; netlink, as root,
    // reconfigures the machine's network.
    let dir = expecting("uring refused\nnetlink refused\n");
    for (who, report) in reports(dir.path(), &["--", "@fixture", "uring; netlink"], &[]) {
        assert_eq!(verdict(&report), "AC", "{who}: {report}");
    }
    let open = judge()
        .current_dir(dir.path())
        .args(["cases", "--sandbox", "off", "--diff", "unified", "--", "@fixture", "uring; netlink"])
        .assert()
        .code(1);
    // Where the kernel itself has io_uring off, only netlink is open without the sandbox.
    open.stdout(predicate::str::contains("netlink").and(predicate::str::contains("made")));
}

#[test]
fn a_run_s_tasks_are_capped_and_an_honest_one_never_meets_the_cap() {
    let capped = expecting("threads capped\n");
    let cap = ["--process-limit", "32", "--", "@fixture", "threads 200"];
    for (who, report) in reports(capped.path(), &cap, &[]) {
        if report["sandbox"]["process_limit"] == true {
            assert_eq!(verdict(&report), "AC", "{who}: {report}");
        } else {
            // No cgroup with a pids controller for this user (nobody cannot make one): said.
            assert!(report["sandbox"]["missing"].to_string().contains("processes are not capped"), "{who}: {report}");
        }
    }
    // 100 threads, a JVM's worth, under the default cap.
    let honest = expecting("threads 100\n");
    judge().current_dir(honest.path()).args(["cases", "--", "@fixture", "threads 100"]).assert().success();
    // A cap that is no number of tasks is a usage error, or the case's IE.
    judge()
        .current_dir(honest.path())
        .args(["cases", "--process-limit", "0", "--", "@fixture", "threads 1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("process limit"));
    std::fs::write(honest.path().join("cases/a/case.toml"), "process_limit = 0\n").unwrap();
    judge()
        .current_dir(honest.path())
        .args(["cases", "--", "@fixture", "threads 1"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("process_limit"));
}

#[test]
fn a_run_gets_a_judge_s_environment_and_none_of_the_user_s() {
    let dir = expecting("SECRET_TOKEN unset\nONLINE_JUDGE=1\nLANG=C.UTF-8\n");
    let probe = ["--", "@fixture", "getenv SECRET_TOKEN; getenv ONLINE_JUDGE; getenv LANG"];
    for (who, report) in reports(dir.path(), &probe, &[("SECRET_TOKEN", "hunter2")]) {
        assert_eq!(verdict(&report), "AC", "{who}: {report}");
    }
    // Asked for by name (the judge's value) or with a value.
    std::fs::write(dir.path().join("cases/a/expected.txt"), "SECRET_TOKEN=hunter2\nEXTRA=x=y\n").unwrap();
    judge()
        .current_dir(dir.path())
        .env("SECRET_TOKEN", "hunter2")
        .args([
            "cases",
            "--env",
            "SECRET_TOKEN",
            "--env",
            "EXTRA=x=y",
            "--",
            "@fixture",
            "getenv SECRET_TOKEN; getenv EXTRA",
        ])
        .assert()
        .success();
    // HOME and TMPDIR are its scratch folder, where it starts.
    std::fs::write(dir.path().join("cases/a/expected.txt"), "scratch\n").unwrap();
    let script = dir.path().join("home.sh");
    super::sandbox_cli::executable(
        &script,
        "[ \"$HOME\" = \"$TMPDIR\" ] && [ \"$HOME\" = \"$(pwd)\" ] && echo scratch\n",
    );
    judge().current_dir(dir.path()).args(["cases", "--", "./home.sh"]).assert().success();
    judge()
        .current_dir(dir.path())
        .args(["cases", "--env", "1BAD", "--", "./home.sh"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("NAME=VALUE"));
}

#[test]
fn the_input_is_read_only_and_freeing_it_is_never_the_run_s_cost() {
    use std::io::Write;
    // Written into, stdin would be memory the run holds that no figure showed (400 MiB
    // counted 2.5 MiB); the copy is sealed, and the run's handle read-only.
    let dir = expecting("refused\n");
    let script = dir.path().join("write.sh");
    super::sandbox_cli::executable(&script, "if (printf x >&0) 2>/dev/null; then echo wrote; else echo refused; fi\n");
    std::fs::write(dir.path().join("cases/a/input.txt"), "1 2\n").unwrap();
    judge().current_dir(dir.path()).args(["cases", "--", "./write.sh"]).assert().success();
    // A 256 MiB input and a program that reads none of it: the judge frees its copy after
    // the run, so the program's exit does not (some 40 ms of the kernel's time on its CPU).
    let big = expecting("");
    let mut file = std::fs::File::create(big.path().join("cases/a/input.txt")).unwrap();
    let block = vec![b'1'; 1 << 20];
    for _ in 0..256 {
        file.write_all(&block).unwrap();
    }
    drop(file);
    judge()
        .current_dir(big.path())
        .args(["cases", "--time-limit", "15ms", "--wall-limit", "30s", "--", "/bin/true"])
        .assert()
        .success();
}

#[test]
fn files_a_run_writes_count_as_its_memory_whoever_runs_the_judge() {
    // 60 MB into the scratch folder under a 40 MiB limit: as root and as a user alike, the
    // scratch tmpfs fills at the limit and what it holds is the run's memory (as nobody the
    // watchdog looked for the tmpfs in the wrong process's mounts, and counted 0).
    let dir = expecting("x\n");
    let script = dir.path().join("fill.sh");
    super::sandbox_cli::executable(&script, "head -c 60000000 /dev/zero > big 2>/dev/null\necho x\n");
    for (who, report) in reports(dir.path(), &["--memory-limit", "40MiB", "--", "./fill.sh"], &[]) {
        if report["sandbox"]["scratch_in_memory"] == true {
            assert_eq!(verdict(&report), "MLE", "{who}: {report}");
        }
    }
}

#[test]
fn every_judge_s_runs_share_an_empty_network_namespace_or_say_why_not() {
    // Runs join a network namespace their launcher made once: its loopback alone, down. A
    // user's runs had none (the seccomp filter alone closed the network), and said nothing.
    let dir = expecting("interfaces lo\n");
    for (who, report) in reports(dir.path(), &["--", "@fixture", "interfaces"], &[]) {
        if report["sandbox"]["network_namespace"] == true {
            assert_eq!(verdict(&report), "AC", "{who}: {report}");
        } else {
            assert!(report["sandbox"]["missing"].to_string().contains("network namespace"), "{who}: {report}");
        }
    }
    // The same on the second and later runs of a launcher, whose root and namespace are kept.
    let many = folder(&[
        ("cases/a/input.txt", ""),
        ("cases/a/expected.txt", "interfaces lo\n"),
        ("cases/b/input.txt", ""),
        ("cases/b/expected.txt", "interfaces lo\n"),
        ("cases/c/input.txt", ""),
        ("cases/c/expected.txt", "interfaces lo\n"),
    ]);
    for (who, report) in reports(many.path(), &["-j", "1", "--", "@fixture", "interfaces"], &[]) {
        if report["sandbox"]["network_namespace"] == true {
            for case in report["cases"].as_array().unwrap() {
                assert_eq!(case["verdict"], "AC", "{who}: {report}");
            }
        }
    }
}

#[test]
fn a_run_starts_with_no_signal_blocked_or_ignored() {
    // The judge blocks SIGINT, SIGTERM and SIGHUP for its own handler, the launcher ignores
    // SIGINT, SIGHUP and SIGQUIT, Rust ignores SIGPIPE: all of it passed through exec, and a
    // Python multiprocessing Pool, whose workers never saw its SIGTERM, hung.
    let dir = expecting("SigBlk:\t0000000000000000\nSigIgn:\t0000000000000000\n");
    let script = dir.path().join("signals.sh");
    super::sandbox_cli::executable(&script, "grep -E '^Sig(Blk|Ign)' /proc/self/status\n");
    for level in ["auto", "off"] {
        judge().current_dir(dir.path()).args(["cases", "--sandbox", level, "--", "./signals.sh"]).assert().success();
    }
}

#[test]
fn a_build_reads_its_source_s_folder_but_no_secret_and_no_answer() {
    // A source that embeds a file at build time (`include_str!`) would carry it out in its
    // program; a checker's or interactor's source in a case pack was built with the user's
    // rights. Builds run in the sandbox: a module beside the source is read, a secret outside
    // its folder and a case's answer below it are not (CE).
    let secret = tempfile::tempdir().unwrap();
    std::fs::write(secret.path().join("key"), "hunter2").unwrap();
    let dir = super::folder(&[
        ("test/s1.in", "1 2\n"),
        ("test/s1.out", "3\n"),
        ("three.rs", "pub const THREE: u32 = 3;\n"),
        ("honest.rs", "mod three;\nfn main() { println!(\"{}\", three::THREE); }\n"),
        ("answer.rs", "fn main() { print!(\"{}\", include_str!(\"test/s1.out\")); }\n"),
    ]);
    let key = secret.path().join("key");
    let leak = format!("fn main() {{ let _ = include_str!({key:?}); println!(\"3\"); }}\n");
    std::fs::write(dir.path().join("secret.rs"), leak).unwrap();
    let cache = tempfile::tempdir().unwrap();
    let run = |source: &str| {
        judge()
            .current_dir(dir.path())
            .env("XDG_CACHE_HOME", cache.path())
            .args(["test", "--", source])
            .output()
            .unwrap()
    };
    assert!(run("honest.rs").status.success());
    for hostile in ["secret.rs", "answer.rs"] {
        let out = run(hostile);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains(" CE "), "{hostile}: {text}");
        // Refused by Landlock, or absent from the build's own root.
        let why = String::from_utf8_lossy(&out.stderr);
        assert!(why.contains("Permission denied") || why.contains("No such file"), "{hostile}: {why}");
    }
}

#[test]
fn pipe_and_socket_buffers_are_memory_a_run_holds_whoever_runs_the_judge() {
    // 50 MiB in pipes nobody reads, then in Unix socket queues nobody reads, held for a
    // second under a 32 MiB limit: memory of the run's, in no process's RSS. A cgroup counts
    // them; without one (a judge that is not root) the watchdog now reads them as it samples
    // the run (1.5 MiB was counted of 400).
    for hoard in ["pipes 50; sleep 1000; print x", "sockets 50; sleep 1000; print x"] {
        let dir = expecting("x\n");
        for (who, report) in reports(dir.path(), &["--memory-limit", "32MiB", "--", "@fixture", hoard], &[]) {
            assert_eq!(verdict(&report), "MLE", "{hoard}, {who}: {report}");
        }
    }
}

#[test]
fn case_toml_passes_variables_to_the_solver_and_a_bad_one_is_the_case_s_ie() {
    let dir = expecting("FROM_TOML=yes\nNEARER=case\n");
    std::fs::write(dir.path().join("cases/case.toml"), "env = { FROM_TOML = \"yes\", NEARER = \"suite\" }\n").unwrap();
    std::fs::write(dir.path().join("cases/a/case.toml"), "env = { NEARER = \"case\" }\n").unwrap();
    let probe = ["cases", "--", "@fixture", "getenv FROM_TOML; getenv NEARER"];
    judge().current_dir(dir.path()).args(probe).assert().success();
    std::fs::write(dir.path().join("cases/a/case.toml"), "env = { \"1X\" = \"a\" }\n").unwrap();
    judge()
        .current_dir(dir.path())
        .args(probe)
        .assert()
        .code(1)
        .stdout(predicate::str::contains(" IE ").and(predicate::str::contains("env")));
}

#[test]
fn without_a_cgroup_the_cpu_of_children_the_kernel_reaps_is_named_a_floor_and_strict_refuses() {
    // A child whose parent ignores SIGCHLD takes its CPU time with it; only a cgroup counts
    // it. Where there is none (a user's judge, as a rule), the note and strict say so.
    let floor = "CPU of children the kernel reaps is a floor";
    let dir = expecting("x\n");
    let program = ["--", "@fixture", "nochld; burn 2 20; waitall; print x"];
    for (who, report) in reports(dir.path(), &program, &[]) {
        assert_eq!(verdict(&report), "AC", "{who}: {report}");
        let auto = judge_as(who, dir.path()).arg("cases").args(program).output().unwrap();
        let note = String::from_utf8_lossy(&auto.stderr);
        let strict = judge_as(who, dir.path()).args(["cases", "--sandbox", "strict"]).args(program).output().unwrap();
        let refusal = String::from_utf8_lossy(&strict.stderr);
        if report["sandbox"]["figures"] == "wait4" {
            assert!(note.contains("judge: note:") && note.contains(floor), "{who}: {note}");
            assert_eq!(strict.status.code(), Some(2), "{who}: {refusal}");
            assert!(refusal.contains(floor), "{who}: {refusal}");
        } else {
            // A cgroup's count is exact: nothing to say about it.
            assert!(!note.contains(floor) && !refusal.contains(floor), "{who}: {note}{refusal}");
        }
    }
}
