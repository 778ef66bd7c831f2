//! A misbehaving solver on demand (std only), to drive every verdict of the harness in tests.
//!
//! Run as `judge --builtin fixture [COMMANDS]` or name `@fixture` as the solver. Commands come
//! from the arguments (separated by `;`) or, with no arguments, one per line of stdin:
//!
//! | command | effect |
//! |---|---|
//! | `print TEXT` | print TEXT and a newline on stdout |
//! | `stderr TEXT` | print TEXT and a newline on stderr |
//! | `sleep MS` | sleep MS milliseconds (wall time, no CPU) |
//! | `spin MS` | burn CPU for MS milliseconds of wall time |
//! | `cpu MS` | burn MS milliseconds of CPU time, however long that takes on a busy machine |
//! | `alloc MIB` | allocate MIB MiB and touch every page, keeping it |
//! | `flood MIB` | write MIB MiB of `y` lines to stdout |
//! | `spew MIB` | write MIB MiB of `x` lines to stderr |
//! | `garbage N` | write N bytes of invalid UTF-8 to stdout |
//! | `exit N` | exit with status N |
//! | `abort` | die by SIGABRT |
//! | `segv` | die by SIGSEGV |
//! | `orphan MS PIDFILE` | start a child that sleeps MS ms, write its PID to PIDFILE, go on |
//! | `escape MS PIDFILE` | the same, but the child starts its own session (`setsid`) |
//! | `burn N MS` | start N children in their own sessions that each burn MS ms of CPU, go on |
//! | `hog MIB` | start a child that allocates MIB MiB, and wait for it |
//! | `idle N MS` | fork N children that each sleep MS ms (cheap: no exec), go on |
//! | `chain N MS` | fork a chain of N processes, each the child of the last, the last sleeping MS ms, go on |
//! | `syscall NAME` | try a harmless call of NAME (`ptrace`: trace me; `unshare`: no flags; `keyctl`: read the session keyring's id) and print `NAME ok` or `NAME refused (errno)` |
//! | `memfd MIB` | write MIB MiB into a memfd and keep it open, never mapped |
//! | `memfdmap MIB` | map a MIB MiB memfd shared and touch every page, keeping it |
//! | `waitall` | wait until every child has ended |
//! | `churn N MS` | start N children one after another, each burning MS ms of CPU, waiting for each |
//! | `pipes N` | fill N pipes of 1 MiB that nobody reads, and keep them open |
//! | `nochld` | ignore SIGCHLD, so the kernel reaps this process's children and their CPU time reaches no parent |
//! | `connect PORT` | try a TCP connection to 127.0.0.1:PORT and print `connected` or `refused` |
//! | `udp PORT` | send a datagram to 127.0.0.1:PORT and print `sent` or `unreachable` |
//! | `shm MIB NAME` | write MIB MiB to /dev/shm/NAME and print `kept` or `refused` |
//! | `await PATH` | wait until PATH exists (so a test can hold a run open until it has seen something) |
//! | `drain` | read stdin to its end (as a solver waiting on a reply that never comes) |
//! | `planted D` | solve the Sudoku cases on stdin, but answer wrongly where the top-left box has a given D |
//!
//! Anything else exits 99 with a message, so a typo in a case cannot pass silently.

use std::io::Write;
use std::time::{Duration, Instant};

/// Runs the fixture; returns its exit status.
pub fn main(args: &[String]) -> i32 {
    let script = if args.is_empty() {
        let mut text = String::new();
        if std::io::Read::read_to_string(&mut std::io::stdin(), &mut text).is_err() {
            return 98;
        }
        text
    } else {
        args.join(" ").replace(';', "\n")
    };
    let mut keep: Vec<Vec<u8>> = Vec::new();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for line in script.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let (command, rest) = line.split_once(' ').unwrap_or((line, ""));
        let number = || rest.trim().parse::<u64>().unwrap_or(0);
        let result = match command {
            "print" => writeln!(out, "{rest}"),
            "stderr" => writeln!(std::io::stderr(), "{rest}"),
            "sleep" => {
                let _ = out.flush();
                std::thread::sleep(Duration::from_millis(number()));
                Ok(())
            }
            "spin" => {
                spin(Duration::from_millis(number()));
                Ok(())
            }
            "syscall" => {
                let name = rest.trim();
                // SAFETY: each call is harmless: trace-me by nobody, unshare nothing, read an id.
                let r = unsafe {
                    match name {
                        "ptrace" => libc::ptrace(libc::PTRACE_TRACEME, 0, 0, 0),
                        "unshare" => libc::c_long::from(libc::unshare(0)),
                        "keyctl" => {
                            libc::syscall(libc::SYS_keyctl, 0 /* GET_KEYRING_ID */, -3 /* session */, 0)
                        }
                        _ => -2,
                    }
                };
                match r {
                    -2 => writeln!(out, "{name}: unknown call"),
                    r if r < 0 => writeln!(out, "{name} refused ({})", std::io::Error::last_os_error()),
                    _ => writeln!(out, "{name} ok"),
                }
            }
            "memfd" | "memfdmap" => {
                // SAFETY: a static C string; the fd is then owned by a File.
                let fd = unsafe { libc::memfd_create(b"hoard\0".as_ptr().cast(), 0) };
                if fd < 0 {
                    return 97;
                }
                let file = unsafe { <std::fs::File as std::os::fd::FromRawFd>::from_raw_fd(fd) };
                let bytes = (number() as usize) << 20;
                if command == "memfd" {
                    let block = vec![b'm'; 1 << 20];
                    for _ in 0..number() {
                        let _ = (&file).write_all(&block);
                    }
                } else {
                    let _ = file.set_len(bytes as u64);
                    // SAFETY: a fresh shared mapping of our own memfd, touched within its length.
                    unsafe {
                        let at = libc::mmap(
                            std::ptr::null_mut(),
                            bytes,
                            libc::PROT_READ | libc::PROT_WRITE,
                            libc::MAP_SHARED,
                            fd,
                            0,
                        );
                        if at != libc::MAP_FAILED {
                            for page in (0..bytes).step_by(4096) {
                                *(at as *mut u8).add(page) = 1;
                            }
                        }
                    }
                }
                std::mem::forget(file);
                Ok(())
            }
            "nochld" => {
                // SAFETY: setting a signal's disposition to ignore.
                unsafe { libc::signal(libc::SIGCHLD, libc::SIG_IGN) };
                Ok(())
            }
            "connect" => {
                let to = std::net::SocketAddr::from(([127, 0, 0, 1], number() as u16));
                match std::net::TcpStream::connect_timeout(&to, Duration::from_secs(2)) {
                    Ok(_) => writeln!(out, "connected"),
                    Err(_) => writeln!(out, "refused"),
                }
            }
            "udp" => {
                let to = std::net::SocketAddr::from(([127, 0, 0, 1], number() as u16));
                let sent = std::net::UdpSocket::bind("127.0.0.1:0").and_then(|s| s.send_to(b"answer?", to));
                writeln!(out, "{}", if sent.is_ok() { "sent" } else { "unreachable" })
            }
            "shm" => {
                let mut words = rest.split_whitespace();
                let mib: usize = words.next().and_then(|w| w.parse().ok()).unwrap_or(1);
                let path = format!("/dev/shm/{}", words.next().unwrap_or("judge-fixture-hoard"));
                let block = vec![b's'; 1 << 20];
                let kept =
                    std::fs::File::create(&path).and_then(|mut f| (0..mib).try_for_each(|_| f.write_all(&block)));
                writeln!(out, "{}", if kept.is_ok() { "kept" } else { "refused" })
            }
            "await" => {
                let _ = out.flush();
                while !std::path::Path::new(rest.trim()).exists() {
                    std::thread::sleep(Duration::from_millis(10));
                }
                Ok(())
            }
            "cpu" => {
                burn_cpu(Duration::from_millis(number()));
                Ok(())
            }
            "alloc" => {
                let mut block = vec![0u8; (number() as usize) << 20];
                for page in block.chunks_mut(4096) {
                    page[0] = 1;
                }
                keep.push(std::hint::black_box(block));
                Ok(())
            }
            "flood" => {
                let line = [b'y', b'\n'].repeat(1 << 15);
                (0..number() * 16).try_for_each(|_| out.write_all(&line))
            }
            "spew" => {
                let line = [b'x', b'\n'].repeat(1 << 15);
                let mut err = std::io::stderr().lock();
                (0..number() * 16).try_for_each(|_| err.write_all(&line))
            }
            "garbage" => out.write_all(&[0xFF, 0xFE, 0xC3].repeat((number() as usize + 2) / 3)),
            "exit" => {
                let _ = out.flush();
                return number() as i32;
            }
            "abort" => {
                let _ = out.flush();
                std::process::abort()
            }
            "segv" => {
                let _ = out.flush();
                // SAFETY: deliberately not safe: this command exists to die by SIGSEGV.
                unsafe { std::ptr::null_mut::<u8>().write_volatile(1) };
                Ok(())
            }
            "orphan" => orphan(rest, false).map(drop),
            "escape" => orphan(rest, true).map(drop),
            "burn" => {
                let mut words = rest.split_whitespace();
                let n: usize = words.next().and_then(|w| w.parse().ok()).unwrap_or(1);
                let ms = words.next().unwrap_or("1000");
                (0..n).try_for_each(|_| child(&["cpu", ms], true).map(drop))
            }
            "churn" => {
                // One child after another, each burning MS ms of CPU and ending: with SIGCHLD
                // ignored no parent ever holds their CPU, and no sample sees more than one.
                let mut words = rest.split_whitespace();
                let n: usize = words.next().and_then(|w| w.parse().ok()).unwrap_or(1);
                let ms = words.next().unwrap_or("50");
                // With SIGCHLD ignored, wait returns (an error) once the child has ended.
                (0..n).try_for_each(|_| child(&["cpu", ms], false).map(|mut c| drop(c.wait())))
            }
            "waitall" => {
                // With SIGCHLD ignored, wait blocks until every child has ended, then fails.
                // SAFETY: a plain wait for any child.
                while unsafe { libc::wait(std::ptr::null_mut()) } >= 0
                    || std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted
                {}
                Ok(())
            }
            "pipes" => {
                // Pipes nobody reads, each grown to 1 MiB and filled: memory in the kernel's
                // pipe buffers, in no process's RSS. The fds are kept open for the run.
                let block = [b'p'; 1 << 16];
                for _ in 0..number() {
                    let mut ends = [0; 2];
                    // SAFETY: pipe2 writes two fds; the rest are plain calls on them.
                    unsafe {
                        if libc::pipe2(ends.as_mut_ptr(), libc::O_NONBLOCK) != 0 {
                            return 97;
                        }
                        libc::fcntl(ends[1], libc::F_SETPIPE_SZ, 1 << 20);
                        while libc::write(ends[1], block.as_ptr().cast(), block.len()) > 0 {}
                    }
                }
                Ok(())
            }
            "hog" => child(&["alloc", rest.trim()], false).and_then(|mut c| c.wait()).map(drop),
            "idle" | "chain" => {
                let mut words = rest.split_whitespace();
                let n: usize = words.next().and_then(|w| w.parse().ok()).unwrap_or(1);
                let ms: u64 = words.next().and_then(|w| w.parse().ok()).unwrap_or(1000);
                let _ = out.flush();
                forks(n, Duration::from_millis(ms), command == "chain");
                Ok(())
            }
            "planted" => planted(number() as u8, &mut out),
            "drain" => {
                let _ = out.flush();
                std::io::copy(&mut std::io::stdin(), &mut std::io::sink()).map(drop)
            }
            _ => {
                let _ = writeln!(std::io::stderr(), "fixture: unknown command '{line}'");
                return 99;
            }
        };
        if result.is_err() {
            return 97;
        }
    }
    if out.flush().is_err() {
        return 97;
    }
    0
}

/// Burns CPU until this thread has used `how_long` of it, as the kernel counts it
/// (`/proc/thread-self/schedstat`, in ns).
fn burn_cpu(how_long: Duration) {
    let used = || {
        std::fs::read_to_string("/proc/thread-self/schedstat")
            .ok()
            .and_then(|s| s.split_whitespace().next().and_then(|n| n.parse::<u64>().ok()))
    };
    let Some(start) = used() else { return spin(how_long) };
    let mut x: u64 = 1;
    while used().map_or(true, |now| now - start < how_long.as_nanos() as u64) {
        for _ in 0..10_000 {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
    }
}

/// Forks `n` sleeping children (or, as a `chain`, one that forks the next, n deep), with no
/// exec, so thousands cost little.
fn forks(n: usize, sleep: Duration, chain: bool) {
    // SAFETY (every fork below): the fixture is single-threaded, and a child only forks on,
    // sleeps and exits.
    if !chain {
        for _ in 0..n {
            let pid = unsafe { libc::fork() };
            if pid == 0 {
                std::thread::sleep(sleep);
                unsafe { libc::_exit(0) };
            }
            if pid < 0 {
                return;
            }
        }
        return;
    }
    // The first link is our child; each link forks the next, then sleeps.
    if unsafe { libc::fork() } != 0 {
        return;
    }
    for _ in 1..n {
        if unsafe { libc::fork() } != 0 {
            break;
        }
    }
    std::thread::sleep(sleep);
    unsafe { libc::_exit(0) };
}

fn spin(how_long: Duration) {
    let start = Instant::now();
    let mut x: u64 = 1;
    while start.elapsed() < how_long {
        for _ in 0..10_000 {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
    }
}

/// Starts a copy of this program running one fixture command, sharing our stdout and
/// stderr (as a careless solver's children would); in its own session when `escape`.
fn child(command: &[&str], escape: bool) -> std::io::Result<std::process::Child> {
    use std::os::unix::process::CommandExt;
    let exe = std::env::current_exe()?;
    let mut cmd = std::process::Command::new(exe);
    cmd.args(["--builtin", "fixture"]).args(command);
    if escape {
        // SAFETY: setsid is async-signal-safe, as a pre_exec hook must be.
        unsafe {
            cmd.pre_exec(|| {
                libc::setsid();
                Ok(())
            });
        }
    }
    cmd.spawn()
}

/// Starts a sleeping child (`MS PIDFILE`) and writes its PID to PIDFILE.
fn orphan(rest: &str, escape: bool) -> std::io::Result<()> {
    let mut words = rest.split_whitespace();
    let ms = words.next().unwrap_or("60000");
    let child = child(&["sleep", ms], escape)?;
    if let Some(pidfile) = words.next() {
        // Written whole under another name, then renamed: a reader never sees half a PID.
        let part = format!("{pidfile}.part");
        std::fs::write(&part, child.id().to_string())?;
        std::fs::rename(part, pidfile)?;
    }
    Ok(())
}

/// A solver with a planted bug, for `judge stress` to find: it answers every case of stdin
/// (as `@sudoku` does) but swaps the first two cells of the answer whenever the top-left
/// box of the first grid holds a given `digit`.
fn planted(digit: u8, out: &mut impl Write) -> std::io::Result<()> {
    use crate::solver::{Reader, Solver};
    let mut input = Vec::new();
    std::io::Read::read_to_end(&mut std::io::stdin(), &mut input)?;
    let mut reader = Reader::new(&input);
    let mut solver = Solver::new();
    while let Some(Ok(puzzle)) = reader.next_case() {
        let Some(mut answer) = solver.solve(&puzzle) else {
            writeln!(out, "no solution")?;
            continue;
        };
        // Units come row, column, box for each row of the first grid: the third is its
        // top-left box.
        let top_left = &puzzle.units()[2];
        if top_left.iter().any(|&i| puzzle.givens[usize::from(i)] == digit) {
            answer.swap(0, 1);
        }
        puzzle.write_answer(&answer, out)?;
    }
    Ok(())
}
