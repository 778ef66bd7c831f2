//! The live display, seen through a pseudo-terminal: rows appear while later cases still run.

use std::io::Read;
use std::os::fd::{FromRawFd, OwnedFd};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A pseudo-terminal of 120 columns: (the side the judge writes to, the side we read).
pub(super) fn pty() -> (OwnedFd, std::fs::File) {
    let (mut master, mut slave) = (0, 0);
    let size = libc::winsize { ws_row: 40, ws_col: 120, ws_xpixel: 0, ws_ypixel: 0 };
    // SAFETY: openpty fills two descriptors that we then own; the pointers are to locals.
    let rc = unsafe { libc::openpty(&mut master, &mut slave, std::ptr::null_mut(), std::ptr::null(), &size) };
    assert_eq!(rc, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors were just opened and are owned by nothing else.
    unsafe { (OwnedFd::from_raw_fd(slave), std::fs::File::from_raw_fd(master)) }
}

/// `command` on the terminal `slave` as a user runs it: its stdin, stdout and stderr, in a
/// session of its own whose controlling terminal it is (so ^C typed there reaches it).
pub(super) fn on_terminal(command: &mut std::process::Command, slave: OwnedFd) -> &mut std::process::Command {
    use std::os::unix::process::CommandExt;
    command.stdin(slave.try_clone().unwrap()).stdout(slave.try_clone().unwrap()).stderr(slave);
    // SAFETY: between fork and exec, system calls only.
    unsafe {
        command.pre_exec(|| {
            if libc::setsid() < 0 || libc::ioctl(0, libc::TIOCSCTTY, 0) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        })
    }
}

/// Waits until `seen` holds `what`, up to a deadline far past any normal run.
fn wait_for(seen: &Mutex<Vec<u8>>, what: &str) -> bool {
    let deadline = Instant::now() + Duration::from_secs(60);
    while Instant::now() < deadline {
        if String::from_utf8_lossy(&seen.lock().unwrap()).contains(what) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

#[test]
fn rows_appear_on_a_terminal_while_later_cases_still_run() {
    let dir = super::folder(&[
        ("cases/c0/input.txt", "print done\n"),
        ("cases/c0/expected.txt", "done\n"),
        ("cases/c1/expected.txt", "done\n"),
    ]);
    // The second case waits for a file the test writes only once it has seen the first row
    // (outside the sandbox: a sandboxed run's root holds no file of the test's to wait for).
    let go = dir.path().join("go");
    std::fs::write(dir.path().join("cases/c1/input.txt"), format!("await {}\nprint done\n", go.display())).unwrap();
    let (slave, mut master) = pty();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("judge"))
        .current_dir(dir.path())
        .args(["cases", "--jobs", "1", "--time-limit", "30s", "--sandbox", "off", "--solver", "@fixture"])
        .env("TERM", "xterm")
        .stdin(slave.try_clone().unwrap())
        .stdout(slave.try_clone().unwrap())
        .stderr(slave)
        .spawn()
        .unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let reader = {
        let seen = Arc::clone(&seen);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            // Reading ends with EIO once the judge, the last holder of the terminal, is gone.
            while let Ok(n @ 1..) = master.read(&mut buf) {
                seen.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        })
    };
    // The header and the first row (not only the status line, which names finished cases too).
    let first_row = wait_for(&seen, "case  verdict") && wait_for(&seen, "c0    \x1b[32mAC");
    let status = wait_for(&seen, "running c1");
    let still_running = child.try_wait().unwrap().is_none();
    std::fs::write(&go, "").unwrap();
    let exit = child.wait().unwrap();
    reader.join().unwrap();
    let text = String::from_utf8_lossy(&seen.lock().unwrap()).into_owned();
    assert!(first_row && status && still_running, "before c1 ended the terminal showed:\n{text}");
    assert!(exit.success() && text.contains("2 passed, 0 failed"), "{text}");
}

#[test]
fn off_a_terminal_rows_are_plain_lines() {
    let dir = super::folder(&[
        ("cases/a/input.txt", "print 1\n"),
        ("cases/a/expected.txt", "1\n"),
        ("cases/b/input.txt", "print 2\n"),
        ("cases/b/expected.txt", "3\n"),
    ]);
    let out = super::judge().current_dir(dir.path()).args(["--solver", "@fixture"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(!out.stdout.contains(&0x1b) && !out.stderr.contains(&0x1b), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    let rows: Vec<&str> = text.lines().skip(1).take(3).collect();
    assert!(text.starts_with("solver: @fixture\n"), "{text}");
    assert!(rows[0].starts_with("case") && rows[1].starts_with("a ") && rows[2].starts_with("b "), "{text}");
}
