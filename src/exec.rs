//! Running one process under limits and collecting the raw facts of the run.
//!
//! The child gets its own process group, stdin from the case file, and piped stdout/stderr
//! drained by two threads (so neither pipe can fill up and deadlock the child). A watchdog
//! kills the whole group at the wall-clock limit or when resident memory runs far past the
//! limit; RLIMIT_CPU is a backstop. We wait for the child without reaping it (`waitid` with
//! `WNOWAIT`), kill what is left of its group while its PID is still ours, then reap it with
//! `wait4`, the only exact per-child source of CPU time and peak RSS.
//!
//! One trap: a child's `ru_maxrss` starts from the parent's memory: exec carries the old
//! address space's high-water mark into it (with posix_spawn that is our *peak* RSS, with
//! fork our current one). So before each spawn we hand freed heap back (`malloc_trim`) and
//! reset our own peak (`/proc/self/clear_refs`), and after it we read our peak again: that is
//! the floor. `wait4`'s figure is exact when above the floor; at or below it, it is an upper
//! bound on the child's true peak, flagged as such. Either way MLE is exact for any limit
//! above our own few MiB. (Sampling the child's VmHWM from /proc was tried and dropped: a
//! solver that runs for a millisecond ends between samples.)

use crate::limits::Limits;
use std::ffi::OsString;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// A program and its arguments, resolved and ready to spawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    pub program: OsString,
    pub args: Vec<OsString>,
    pub env: Vec<(OsString, OsString)>,
}

/// Everything measured about one run; the verdict is derived from this alone.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Facts {
    pub exit_code: Option<i32>,
    pub signal: Option<i32>,
    /// User + system CPU time of the child.
    pub cpu_ms: f64,
    pub wall_ms: f64,
    pub peak_rss_kib: u64,
    /// Whether `peak_rss_kib` is exact; otherwise it is an upper bound (see the module doc).
    pub peak_rss_exact: bool,
    /// Bytes the child wrote to stdout (up to the output limit).
    pub stdout_bytes: u64,
    /// Killed by the watchdog: wall-clock limit reached, or CPU time past the limit.
    pub watchdog_killed: bool,
    pub memory_killed: bool,
    pub output_overflow: bool,
    pub spawn_error: Option<String>,
    #[serde(skip)]
    pub stdout: Vec<u8>,
    #[serde(skip)]
    pub stderr: Vec<u8>,
}

/// Most of a child's stderr we keep; the rest is drained and dropped.
const STDERR_KEEP: usize = 1 << 20;
/// How often the watchdog looks at the clock and the child's memory.
const WATCH_EVERY: Duration = Duration::from_millis(5);

/// The child's process group, killable until the child is reaped (never after, so a reused
/// PID can never be hit).
struct Group {
    pid: i32,
    alive: Mutex<bool>,
}

impl Group {
    fn kill(&self) {
        let alive = self.alive.lock().unwrap_or_else(|p| p.into_inner());
        if *alive {
            // SAFETY: plain syscall; the group is ours while the leader is unreaped.
            unsafe { libc::kill(-self.pid, libc::SIGKILL) };
        }
    }
}

/// Runs `program` with `stdin` as its standard input under `limits`.
pub fn run(program: &Program, stdin: &Path, limits: &Limits) -> Facts {
    let input = match std::fs::File::open(stdin) {
        Ok(f) => f,
        Err(e) => {
            return Facts { spawn_error: Some(format!("cannot open {}: {e}", stdin.display())), ..Facts::default() }
        }
    };
    let mut command = std::process::Command::new(&program.program);
    command.args(&program.args).stdin(input).stdout(Stdio::piped()).stderr(Stdio::piped()).process_group(0);
    for (k, v) in &program.env {
        command.env(k, v);
    }
    let start = Instant::now();
    let (spawned, floor_kib) = spawn_measured(&mut command);
    let mut child = match spawned {
        Ok(c) => c,
        Err(e) => {
            let name = Path::new(&program.program).display();
            return Facts { spawn_error: Some(format!("cannot start '{name}': {e}")), ..Facts::default() };
        }
    };
    let pid = child.id() as i32;
    // The CPU backstop is set from here rather than in a pre_exec hook: a hook forces a full
    // fork, where without one std spawns with posix_spawn, about half a millisecond cheaper.
    let cpu_backstop = limits.wall_limit().as_secs() + 1;
    let limit = libc::rlimit { rlim_cur: cpu_backstop, rlim_max: cpu_backstop + 1 };
    // SAFETY: prlimit reads `limit` and writes nothing back (null old-limit pointer).
    unsafe { libc::prlimit(pid, libc::RLIMIT_CPU, &limit, std::ptr::null_mut()) };
    let group = Arc::new(Group { pid, alive: Mutex::new(true) });
    let overflow = Arc::new(AtomicBool::new(false));

    let stdout_pipe = child.stdout.take();
    let stdout_reader = {
        let (group, overflow) = (Arc::clone(&group), Arc::clone(&overflow));
        let cap = limits.output_bytes;
        std::thread::spawn(move || {
            let mut kept = Vec::new();
            if let Some(mut pipe) = stdout_pipe {
                let mut chunk = vec![0u8; 1 << 16];
                loop {
                    match pipe.read(&mut chunk) {
                        Ok(0) => break,
                        Ok(n) => {
                            if kept.len() as u64 + n as u64 > cap {
                                overflow.store(true, Ordering::SeqCst);
                                group.kill();
                                break;
                            }
                            kept.extend_from_slice(&chunk[..n]);
                        }
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                        Err(_) => break,
                    }
                }
            }
            kept
        })
    };
    let stderr_pipe = child.stderr.take();
    let stderr_reader = std::thread::spawn(move || stderr_pipe.map(keep_head).unwrap_or_default());

    let (done, done_rx) = mpsc::channel::<()>();
    let watchdog = {
        let group = Arc::clone(&group);
        let wall = limits.wall_limit();
        let memory_guard_kib = (limits.memory_kib * 2).max(limits.memory_kib + 64 * 1024);
        // Past this much CPU the verdict is TLE whatever happens next, so stop paying for it.
        let cpu_guard = limits.time + Duration::from_millis(50);
        std::thread::spawn(move || {
            let (mut watchdog_killed, mut memory_killed) = (false, false);
            while let Err(mpsc::RecvTimeoutError::Timeout) = done_rx.recv_timeout(WATCH_EVERY) {
                if !watchdog_killed && start.elapsed() > wall {
                    watchdog_killed = true;
                    group.kill();
                }
                if !watchdog_killed && cpu_time(pid).is_some_and(|t| t > cpu_guard) {
                    watchdog_killed = true;
                    group.kill();
                }
                if !memory_killed && status_kib(pid, "VmRSS:").is_some_and(|kib| kib > memory_guard_kib) {
                    memory_killed = true;
                    group.kill();
                }
            }
            (watchdog_killed, memory_killed)
        })
    };

    wait_without_reaping(pid);
    let wall_ms = start.elapsed().as_secs_f64() * 1000.0;
    // No process may outlive its case: take down whatever the solver left in its group.
    group.kill();
    let (status, usage) = reap(pid);
    *group.alive.lock().unwrap_or_else(|p| p.into_inner()) = false;
    let _ = done.send(());
    let (watchdog_killed, memory_killed) = watchdog.join().unwrap_or((false, false));
    let stdout = stdout_reader.join().unwrap_or_default();
    let stderr = stderr_reader.join().unwrap_or_default();

    let peak_rss_kib = usage.ru_maxrss.max(0) as u64;
    let peak_rss_exact = peak_rss_kib > floor_kib;
    let cpu = |t: libc::timeval| t.tv_sec as f64 * 1000.0 + t.tv_usec as f64 / 1000.0;
    Facts {
        exit_code: libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)),
        signal: libc::WIFSIGNALED(status).then(|| libc::WTERMSIG(status)),
        cpu_ms: cpu(usage.ru_utime) + cpu(usage.ru_stime),
        wall_ms,
        peak_rss_kib,
        peak_rss_exact,
        stdout_bytes: stdout.len() as u64,
        watchdog_killed,
        memory_killed,
        output_overflow: overflow.load(Ordering::SeqCst),
        spawn_error: None,
        stdout,
        stderr,
    }
}

/// Reads a pipe to its end, keeping the first `STDERR_KEEP` bytes, so the child never blocks
/// on a full pipe however much it writes.
fn keep_head(mut pipe: impl Read) -> Vec<u8> {
    let mut kept = Vec::new();
    let mut chunk = vec![0u8; 1 << 14];
    loop {
        match pipe.read(&mut chunk) {
            Ok(0) => return kept,
            Ok(n) => {
                let room = STDERR_KEEP.saturating_sub(kept.len()).min(n);
                kept.extend_from_slice(&chunk[..room]);
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return kept,
        }
    }
}

/// Blocks until `pid` has ended, leaving it a zombie so its PID and group stay ours.
fn wait_without_reaping(pid: i32) {
    loop {
        // SAFETY: `info` is a plain C struct that waitid fills in.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        let r = unsafe { libc::waitid(libc::P_PID, pid as libc::id_t, &mut info, libc::WEXITED | libc::WNOWAIT) };
        if r == 0 || std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            return;
        }
    }
}

/// Reaps `pid`, returning its wait status and resource usage.
fn reap(pid: i32) -> (i32, libc::rusage) {
    let mut status = 0;
    // SAFETY: `usage` is a plain C struct that wait4 fills in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if r == pid || std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            return (status, usage);
        }
    }
}

/// CPU time (user + system) used so far by `pid`, from /proc (Linux).
fn cpu_time(pid: i32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may hold spaces and parentheses: count fields after the last ')'.
    let mut fields = stat.get(stat.rfind(')')? + 2..)?.split_whitespace();
    let utime: u64 = fields.nth(11)?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    // SAFETY: sysconf only reads a system constant.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    Some(Duration::from_millis((utime + stime) * 1000 / ticks))
}

/// A `KEY: N kB` field of /proc/PID/status (Linux), in KiB.
fn status_kib(pid: i32, key: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with(key))?;
    line[key.len()..].trim().trim_end_matches("kB").trim().parse().ok()
}

/// Spawns `command` with our own memory footprint as small as we can make it, and returns
/// the floor its `ru_maxrss` inherited (see the module doc). Spawns are serialised so that
/// parallel jobs cannot reset our peak between another job's spawn and its reading.
fn spawn_measured(command: &mut std::process::Command) -> (std::io::Result<std::process::Child>, u64) {
    static SPAWN: Mutex<()> = Mutex::new(());
    let _one_at_a_time = SPAWN.lock().unwrap_or_else(|p| p.into_inner());
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free memory of this process's allocator.
    unsafe {
        libc::malloc_trim(0);
    }
    // "5" resets our peak RSS to the current RSS; if it fails, the floor below is just higher.
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    let child = command.spawn();
    // Our peak only grows until the next reset, so reading it now gives at least what the
    // child inherited.
    let floor = status_kib(std::process::id() as i32, "VmHWM:").unwrap_or(u64::MAX);
    (child, floor)
}
