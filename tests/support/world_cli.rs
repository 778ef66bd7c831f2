//! A run's world is built, not filtered: its root holds what it is granted and nothing else
//! of the machine's, beside a script only the modules it loads, the runtimes its PATH finds,
//! never uid 0, and System V objects that die with it. Each test runs the judge as its user
//! and, where that is root, as `nobody` too (see [`super::policy_cli::reports`]); each failed
//! on the sandbox that filtered the machine's files through Landlock's rules alone.

use super::policy_cli::reports;
use std::path::Path;

fn verdict(report: &serde_json::Value) -> &str {
    report["cases"][0]["verdict"].as_str().unwrap_or("none")
}

/// Whether runs get a root of their own here; if not, the judge must say so.
fn own_root(report: &serde_json::Value) -> bool {
    let own = report["sandbox"]["own_root"] == true;
    if !own {
        assert!(report["sandbox"]["missing"].to_string().contains("root of their own"), "{report}");
    }
    own
}

/// The system's Python, which `nobody` can run too (a pyenv under `/root` it cannot).
fn system_python() -> Option<&'static str> {
    let python = "/usr/bin/python3";
    let ok = std::process::Command::new(python).arg("-c").arg("").status().is_ok_and(|s| s.success());
    if !ok {
        eprintln!("skipped: {python} is not installed here");
    }
    ok.then_some(python)
}

#[test]
fn a_run_s_root_holds_what_it_is_granted_and_nothing_else_of_the_machine_s() {
    // A Unix socket of the user's (ssh-agent, D-Bus, Docker), the host's /tmp, /run, homes,
    // shadow files and the judge itself (it carries every bundled answer) all existed for a
    // run; Landlock governs neither `stat` nor `connect`.
    let sockets = tempfile::tempdir().unwrap();
    let socket = sockets.path().join("agent.sock");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    let marker = tempfile::NamedTempFile::new().unwrap();
    let exe = std::fs::canonicalize(assert_cmd::cargo::cargo_bin!("judge")).unwrap();
    let dir = super::folder(&[("cases/a/input.txt", ""), ("cases/a/expected.txt", "sealed\n")]);
    let mut probe = String::new();
    for path in [
        socket.as_path(),
        marker.path(),
        exe.as_path(),
        Path::new("/run"),
        Path::new("/home"),
        Path::new("/var"),
        Path::new("/etc/shadow"),
        Path::new("/etc/gshadow"),
        Path::new("/etc/ssl/private"),
    ] {
        probe.push_str(&format!("[ -e '{0}' ] && echo '{0} is there'\n", path.display()));
    }
    // Through the keeper, whose executable is the judge's.
    probe.push_str("head -c 1 /proc/1/exe >/dev/null 2>&1 && echo 'the judge is readable'\necho sealed\n");
    super::sandbox_cli::executable(&dir.path().join("probe.sh"), &probe);
    for (who, report) in reports(dir.path(), &["--", "./probe.sh"], &[]) {
        if own_root(&report) {
            assert_eq!(verdict(&report), "AC", "{who}: {report}");
        }
    }
}

#[test]
fn beside_a_script_its_modules_show_and_nothing_else_whatever_its_name() {
    let Some(python) = system_python() else { return };
    let sol = "import os, sys, helper, pkg\n\
               a, b = map(int, sys.stdin.read().split())\n\
               print(helper.add(a, b) + pkg.ZERO)\n\
               here = os.path.dirname(os.path.abspath(__file__))\n\
               for name in ['.env', '.git/config', 'output.txt', '1.expected', 'tests/01.a', '1.sol', 'notes.md']:\n\
               \x20   try:\n\
               \x20       open(os.path.join(here, name)).read()\n\
               \x20       print(name, 'read')\n\
               \x20   except OSError:\n\
               \x20       pass\n";
    let dir = super::folder(&[
        ("cases/a/input.txt", "1 2\n"),
        ("cases/a/expected.txt", "3\n"),
        ("work/sol.py", sol),
        ("work/helper.py", "def add(a, b):\n    return a + b\n"),
        ("work/pkg/__init__.py", "ZERO = 0\n"),
        ("work/.env", "TOKEN=hunter2\n"),
        ("work/.git/config", "[remote \"origin\"]\n\turl = https://user:token@example.com/x.git\n"),
        ("work/output.txt", "3\n"),
        ("work/1.expected", "3\n"),
        ("work/tests/01.a", "3\n"),
        ("work/1.sol", "3\n"),
        ("work/notes.md", "the answer is 3\n"),
    ]);
    // Not the folder the judge runs in, which is `nobody`'s home below (never granted whole).
    let work = dir.path().join("work");
    let sol = work.join("sol.py");
    let script = format!("cd '{}' && exec {python} '{}'\n", work.display(), sol.display());
    super::sandbox_cli::executable(&work.join("run.sh"), &script);
    for (who, report) in reports(dir.path(), &["--", python, sol.to_str().unwrap()], &[]) {
        // Landlock alone hid answer-like names (tests/01.a) and let the rest be read.
        if own_root(&report) {
            assert_eq!(verdict(&report), "AC", "{who}: {report}");
        }
    }
    // The same from a wrapper in that folder, which the script's modules need no more than
    // its name.
    for (who, report) in reports(dir.path(), &["--", "work/run.sh"], &[]) {
        if own_root(&report) {
            assert_eq!(verdict(&report), "AC", "{who}: {report}");
        }
    }
}

#[test]
fn a_wrapper_script_gets_the_runtime_its_path_finds() {
    // A runtime installed outside the system's folders (pyenv, a venv, a JDK in /opt) and
    // found through PATH by a wrapper script: its install was never granted, and Python ran
    // without its venv (or, from pyenv, without its standard library: "No module named
    // 'encodings'").
    let Some(python) = system_python() else { return };
    let dir = super::folder(&[("cases/a/input.txt", ""), ("cases/a/expected.txt", "venv\n")]);
    let made = std::process::Command::new(python)
        .args(["-m", "venv", "--without-pip", "env"])
        .current_dir(dir.path())
        .status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipped: {python} cannot make a venv here");
        return;
    }
    let which = "import sys\nprint('venv' if sys.prefix != sys.base_prefix else 'system')\n";
    std::fs::create_dir(dir.path().join("work")).unwrap();
    std::fs::write(dir.path().join("work/which.py"), which).unwrap();
    super::sandbox_cli::executable(&dir.path().join("work/run.sh"), "python3 \"$(dirname \"$0\")/which.py\"\n");
    let path = format!("{}:{}", dir.path().join("env/bin").display(), std::env::var("PATH").unwrap_or_default());
    for (who, report) in reports(dir.path(), &["--", "work/run.sh"], &[("PATH", &path)]) {
        if own_root(&report) {
            assert_eq!(verdict(&report), "AC", "{who}: {report}");
        }
    }
    // Where PATH's python3 is the judge's user's own (pyenv's shim here), the same.
    let found = std::process::Command::new("sh").args(["-c", "command -v python3"]).output().unwrap();
    let home = std::env::var("HOME").unwrap_or_default();
    if !home.is_empty() && String::from_utf8_lossy(&found.stdout).starts_with(&home) {
        let honest = super::folder(&[("cases/a/input.txt", ""), ("cases/a/expected.txt", "encodings\n")]);
        super::sandbox_cli::executable(
            &honest.path().join("run.sh"),
            "python3 -c 'import encodings; print(encodings.__name__)'\n",
        );
        super::judge().current_dir(honest.path()).args(["cases", "--", "./run.sh"]).assert().success();
    }
}

#[test]
fn a_root_judge_s_runs_are_never_uid_0() {
    // As root, a run without capabilities still owned root's files: /etc/shadow, TLS keys.
    let dir = super::folder(&[("cases/a/input.txt", ""), ("cases/a/expected.txt", "unprivileged\nwrote\n")]);
    super::sandbox_cli::executable(
        &dir.path().join("who.sh"),
        "[ \"$(id -u)\" != 0 ] && [ \"$(id -g)\" != 0 ] && echo unprivileged\n\
         echo x > mine && echo wrote\n",
    );
    for (who, report) in reports(dir.path(), &["--", "./who.sh"], &[]) {
        if report["sandbox"]["own_user"] == true {
            assert_eq!(verdict(&report), "AC", "{who}: {report}");
        } else {
            assert!(report["sandbox"]["missing"].to_string().contains("uid 0"), "{who}: {report}");
        }
    }
}

#[test]
fn a_root_judge_says_which_file_of_the_program_its_runs_may_not_read() {
    // A `umask 077` home makes every file 0600: a root judge's runs (uid 60000) could not
    // read the solver, and every case was RE "Permission denied" with nothing saying why.
    use std::os::unix::fs::PermissionsExt;
    let Some(python) = system_python() else { return };
    let dir = super::folder(&[
        ("cases/a/input.txt", "3\n"),
        ("cases/a/expected.txt", "6\n"),
        ("sol.py", "print(int(input()) * 2)\n"),
        ("sol.c", "#include <stdio.h>\nint main(void) { int n; scanf(\"%d\", &n); printf(\"%d\\n\", 2 * n); }\n"),
    ]);
    let run = |args: &[&str]| super::judge().current_dir(dir.path()).arg("cases").args(args).output().unwrap();
    // Readable to others, the program is judged; the report says whether runs are a user
    // of their own here.
    let json = dir.path().join("first.json");
    let out = run(&["--json", json.to_str().unwrap(), "--", python, "sol.py"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    // SAFETY: a plain query.
    let refused = unsafe { libc::geteuid() } == 0 && report["sandbox"]["own_user"] == true;
    for name in ["sol.py", "sol.c"] {
        std::fs::set_permissions(dir.path().join(name), std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    for args in [&["--", python, "sol.py"][..], &["--", "sol.c"][..]] {
        let out = run(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        if refused {
            assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
            assert!(stderr.contains("is mode 0600") && stderr.contains("chmod o+r"), "{args:?}: {stderr}");
        } else {
            // A user's judge runs programs as that user, who may read its own 0600 files.
            assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        }
    }
    if !refused {
        return;
    }
    // As nobody, its own 0600 files are judged: the refusal is a root judge's alone.
    use std::os::unix::process::CommandExt;
    for entry in walkdir::WalkDir::new(dir.path()).into_iter().flatten() {
        std::os::unix::fs::lchown(entry.path(), Some(65534), Some(65534)).unwrap();
    }
    for args in [&["--", python, "sol.py"][..], &["--", "sol.c"][..]] {
        let mut command = std::process::Command::new(assert_cmd::cargo::cargo_bin!("judge"));
        command.current_dir(dir.path()).env("NO_COLOR", "1").env("HOME", dir.path());
        command.env("XDG_CACHE_HOME", dir.path().join(".cache")).uid(65534).gid(65534);
        let Ok(out) = command.arg("cases").args(args).output() else {
            eprintln!("skipped as nobody: the judge is built where nobody cannot reach");
            return;
        };
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "nobody, {args:?}: {stderr}");
    }
}

/// The System V semaphore set a probe makes, if one is left on the machine: removed, and said.
fn set_left(key: i32) -> bool {
    // SAFETY: plain System V calls on a key of this test's.
    unsafe {
        let id = libc::semget(key, 0, 0);
        if id >= 0 {
            libc::semctl(id, 0, libc::IPC_RMID);
        }
        id >= 0
    }
}

#[test]
fn system_v_objects_die_with_the_run_and_hold_no_memory_unseen() {
    // Objects outlived the run and the judge (400 MiB of segments left on the machine after
    // one run), and the next run found them; as a user, the segments a run held were in no
    // figure (AC at 17 MiB holding 400 MiB under a 64 MiB limit).
    let Some(python) = system_python() else { return };
    let key = 0x4a55_0000 | (std::process::id() as i32 & 0xffff);
    let probe = format!(
        "import ctypes\n\
         libc = ctypes.CDLL(None)\n\
         print('left' if libc.semget({key}, 0, 0) >= 0 else 'none')\n\
         libc.semget({key}, 1, 0o1600)\n\
         print('segment made' if libc.shmget(0, 64 << 20, 0o1600) >= 0 else 'segment refused')\n"
    );
    let dir = super::folder(&[
        ("cases/a/input.txt", ""),
        ("cases/a/expected.txt", "none\nsegment refused\n"),
        ("cases/b/input.txt", ""),
        ("cases/b/expected.txt", "none\nsegment refused\n"),
        ("shm.py", &probe),
    ]);
    let shm = dir.path().join("shm.py");
    for (who, report) in reports(dir.path(), &["-j", "1", "--", python, shm.to_str().unwrap()], &[]) {
        let left = set_left(key);
        if report["sandbox"]["ipc"] == true {
            for case in report["cases"].as_array().unwrap() {
                assert_eq!(case["verdict"], "AC", "{who}: {report}");
            }
            assert!(!left, "{who}: a semaphore set outlived its run");
        }
    }
}

#[test]
fn memory_held_in_descriptors_in_flight_is_counted_or_named_and_strict_refuses() {
    // A memfd sent over a Unix socket to itself and closed is in no process's table: as a
    // user without a cgroup, 200 MiB so held under a 64 MiB limit was AC with no word said.
    // A cgroup counts it (MLE); without one, `auto`'s note names it and `strict` refuses.
    // Refusing `sendmsg` instead broke Python's forkserver (runtimes_cli), so it is not.
    let Some(python) = system_python() else { return };
    let probe = "import os, socket\n\
                 a, b = socket.socketpair()\n\
                 for i in range(40):\n\
                 \x20   fd = os.memfd_create('piece')\n\
                 \x20   os.posix_fallocate(fd, 0, 5 << 20)\n\
                 \x20   socket.send_fds(a, [b'x'], [fd])\n\
                 \x20   os.close(fd)\n\
                 print('held 200 MiB')\n";
    let dir =
        super::folder(&[("cases/a/input.txt", ""), ("cases/a/expected.txt", "held 200 MiB\n"), ("hold.py", probe)]);
    let hold = dir.path().join("hold.py");
    let named = "memory held in descriptors in flight";
    let program = ["--memory-limit", "64MiB", "--", python, hold.to_str().unwrap()];
    for (who, report) in reports(dir.path(), &program, &[]) {
        let missing = report["sandbox"]["missing"].to_string();
        if report["sandbox"]["figures"] == "wait4" {
            assert!(missing.contains(named), "{who}: {report}");
            let strict = super::policy_cli::judge_as(who, dir.path())
                .args(["cases", "--sandbox", "strict"])
                .args(program)
                .output()
                .unwrap();
            let refusal = String::from_utf8_lossy(&strict.stderr);
            assert_eq!(strict.status.code(), Some(2), "{who}: {refusal}");
            assert!(refusal.contains(named), "{who}: {refusal}");
        } else {
            assert_eq!(verdict(&report), "MLE", "{who}: {report}");
            assert!(!missing.contains(named), "{who}: {report}");
        }
    }
}

#[test]
fn a_build_sees_its_sources_and_headers_by_kind_and_nothing_else_beside_them() {
    // A build's folder was shown whole but for answer-like names: `.env`, `.git/config`,
    // notes and an `output.txt` beside the source were there for `#include` or `include_str!`
    // to carry out in the program. Now a compiler sees the sources and headers it reads.
    let gcc = "/usr/bin/gcc";
    if !Path::new(gcc).exists() {
        eprintln!("skipped: {gcc} is not installed here");
        return;
    }
    let mut sol =
        String::from("#include <stdio.h>\n#include \"helper.h\"\n#include \"lib/more.h\"\nint main(void) {\n");
    for name in [".env", ".git/config", "notes.txt", "output.txt", "1.out", "tests/01.a", "1.sol"] {
        sol.push_str(&format!("#if __has_include(\"{name}\")\n    puts(\"{name} is there\");\n#endif\n"));
    }
    sol.push_str("    puts(word());\n    return more();\n}\n");
    // A build cached by an earlier judge (the key is the source's bytes) would not be built here.
    let nonce = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    sol.push_str(&format!("/* {} {} */\n", std::process::id(), nonce.as_nanos()));
    let dir = super::folder(&[
        ("cases/a/input.txt", ""),
        ("cases/a/expected.txt", "sealed\n"),
        ("work/sol.c", &sol),
        ("work/helper.h", "static const char *word(void) { return \"sealed\"; }\n"),
        ("work/lib/more.h", "static int more(void) { return 0; }\n"),
        ("work/.env", "TOKEN=hunter2\n"),
        ("work/.git/config", "[remote \"origin\"]\n\turl = https://user:token@example.com/x.git\n"),
        ("work/notes.txt", "the answer is 3\n"),
        ("work/output.txt", "3\n"),
        ("work/1.out", "3\n"),
        ("work/tests/01.a", "3\n"),
        ("work/1.sol", "3\n"),
    ]);
    // In a folder of its own: the judge's (nobody's home below) is never shown whole.
    let sol = dir.path().join("work/sol.c");
    for (who, report) in reports(dir.path(), &["--", sol.to_str().unwrap()], &[]) {
        if own_root(&report) {
            assert_eq!(verdict(&report), "AC", "{who}: {report}");
        }
    }
}
