//! Running one process under limits and collecting the raw facts of the run.
//!
//! Every run goes through its thread's launcher, held by a [`Runner`] (see
//! [`crate::launcher`]): a small child subreaper that forks the program, so no figure
//! carries the judge's own memory, and no process the program starts can outlive the run or
//! hide its CPU time: when the program ends, the launcher kills and reaps every descendant
//! and adds up their figures. A runner is dropped inside the thread that used it, so its
//! launcher (and a keeper, reaped off the judge's path) is gone before the thread is joined,
//! its CPU time counted in `time judge`.
//!
//! stdout and stderr are pipes drained by two threads here (so neither can fill up and
//! block the program); stdout goes on to a temporary file (see [`crate::spool`]), or, for
//! the two programs of an interactive case, on to the other one ([`Stdout::Relay`]), and only
//! the head of stderr is kept, so the judge's memory does not grow with what a program
//! prints. A watchdog samples the whole process tree: it kills the tree at the
//! wall-clock limit, when its CPU time passes the limit, or when its summed resident memory
//! runs far past the limit. RLIMIT_CPU is a backstop. Peak memory is the larger of the
//! largest peak of any one process (exact, from `wait4`) and the largest sum the watchdog
//! saw across processes alive together (sampled every few milliseconds). The launcher
//! measures what a forked child inherits (a few hundred KiB); a figure at or below that
//! floor is an upper bound and flagged as such.
//!
//! A sandboxed run may have a keeper (init of its own PID namespace, see
//! [`crate::sandbox::pids`]): the watchdog then samples the keeper's descendants, and adds
//! what the run holds in its scratch tmpfs. In a cgroup ([`crate::sandbox::cgroup`]) the
//! figures are the cgroup's, exact, and the watchdog also reads the cgroup's CPU, which
//! keeps the CPU of processes already gone.

use crate::launcher::{Launcher, Request};
use crate::limits::Limits;
use crate::spool::{Spool, SpoolWriter};
use std::ffi::OsString;
use std::io::Read;
use std::os::fd::{FromRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
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
    /// How CPU and memory were measured: "cgroup" (the run's own: CPU of every process that
    /// ran, memory the peak it held, or the largest process's peak RSS if more) or "wait4"
    /// (the reaped processes' figures, with the watchdog's samples as floors).
    pub measured_by: &'static str,
    /// Bytes the child wrote to stdout (up to the output limit).
    pub stdout_bytes: u64,
    /// Killed by the watchdog: wall-clock limit reached, or CPU time past the limit.
    pub watchdog_killed: bool,
    /// Why the watchdog ended the run: "cpu" (past the time limit), "wall" (not using the CPU
    /// while the wall clock ran out), "busy" (starved of CPU by the machine far past the wall
    /// limit), "memory" or "output"; none when the program ended.
    pub ended_by: Option<&'static str>,
    /// Time the run's processes spent runnable but waiting for a CPU (a busy machine), as far
    /// as the watchdog saw it; not counted against the wall-clock limit.
    pub waited_ms: f64,
    pub memory_killed: bool,
    pub output_overflow: bool,
    /// Processes of the run other than the program still there when it ended (running ones
    /// killed, finished ones reaped, by the launcher).
    pub leftover_processes: u32,
    pub spawn_error: Option<String>,
    /// The run went fine but its stdout could not be kept (a full disk): the judge's fault.
    pub capture_error: Option<String>,
    #[serde(skip)]
    pub stdout: Spool,
    #[serde(skip)]
    pub stderr: Vec<u8>,
}

/// Most of a child's stderr we keep; the rest is drained and dropped.
const STDERR_KEEP: usize = 1 << 20;
/// How often the watchdog looks at the clock and the process tree.
const WATCH_EVERY: Duration = Duration::from_millis(5);
/// However much of a run is spent waiting for a CPU, it ends at this many times its
/// wall-clock limit of real time: a machine that starves a run this much cannot judge it,
/// and the verdict says so (IE) rather than blaming the program.
const WALL_CAP: u32 = 8;
/// A run that has used no CPU for this long has stopped using it (CPU time is counted in
/// 10 ms ticks, and a starved program still gets several of them in this time).
const STALL: Duration = Duration::from_millis(250);

/// How long the readers may go on draining the pipes after every process of the run is
/// gone (only a process outside the run could hold them open longer).
const DRAIN_GRACE: Duration = Duration::from_millis(500);

/// What every run of one judging round is given: its sandbox, the languages its builds know
/// and the program that serves as launcher (`PROGRAM --builtin launcher`: the `judge`
/// executable). Made once, shared by the round's threads, never a global.
#[derive(Clone, Debug)]
pub struct Setup {
    pub sandbox: crate::sandbox::Sandbox,
    pub languages: crate::languages::Languages,
    pub launcher: PathBuf,
}

impl Setup {
    /// `auto`, nothing passed or hidden, no language of the user's, `launcher` as launcher.
    pub fn new(launcher: &Path) -> Setup {
        Setup {
            sandbox: crate::sandbox::Sandbox::default(),
            languages: crate::languages::Languages::default(),
            launcher: launcher.to_path_buf(),
        }
    }
}

/// One thread's way of running programs: the round's [`Setup`] and this thread's launcher,
/// started on its first run and ended (with everything it ran) when the runner is dropped.
/// A thread that runs programs owns one and hands it down; another thread makes its own
/// ([`Runner::another`]).
pub struct Runner {
    setup: Arc<Setup>,
    launcher: std::cell::RefCell<Option<Launcher>>,
}

impl Runner {
    pub fn new(setup: Arc<Setup>) -> Runner {
        Runner { setup, launcher: std::cell::RefCell::new(None) }
    }

    /// A runner for another thread: the same setup, a launcher of its own.
    pub fn another(&self) -> Runner {
        Runner::new(Arc::clone(&self.setup))
    }

    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// The shared setup, for a runner of another thread.
    pub fn shared(&self) -> Arc<Setup> {
        Arc::clone(&self.setup)
    }

    fn sandboxed(&self) -> bool {
        self.setup.sandbox.on()
    }
}

/// A pipe, both ends close-on-exec: (read end, write end).
pub fn pipe() -> std::io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: pipe2 writes two new fds.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: both are new and ours.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// Runs `program` with `stdin` as its standard input under `limits`, in the sandbox
/// (see [`crate::sandbox`]) that `runner`'s setup says.
pub fn run(runner: &Runner, program: &Program, stdin: &Path, limits: &Limits) -> Facts {
    run_sending_stdout(runner, program, stdin, limits, Stdout::Keep)
}

/// As [`run`], with `folder` (a fresh folder of the judge's, see [`crate::fileio`]) also
/// writable by a sandboxed run.
pub fn run_in_folder(runner: &Runner, program: &Program, stdin: &Path, limits: &Limits, folder: &Path) -> Facts {
    let extra = Extra { writable: vec![folder.as_os_str().to_owned()], ..Extra::default() };
    run_as(runner, program, Stdin::File(stdin), limits, Stdout::Keep, &extra, runner.sandboxed())
}

/// As [`run`], outside any sandbox.
pub fn run_trusted(runner: &Runner, program: &Program, stdin: &Path, limits: &Limits) -> Facts {
    run_as(runner, program, Stdin::File(stdin), limits, Stdout::Keep, &Extra::default(), false)
}

/// As [`run`], for a compiler: in the sandbox at the judge's level, reading its toolchain
/// ([`crate::sandbox::toolchains`]) and what its command names (of the source's folder, the
/// sources, headers and modules a compiler reads, by kind: [`crate::sandbox::kinds`]), writing only `output` (a fresh folder of the judge's) and its
/// scratch folder. stdin is empty.
pub fn run_build(runner: &Runner, program: &Program, limits: &Limits, output: &Path) -> Facts {
    if !runner.sandboxed() {
        return run_trusted(runner, program, Path::new("/dev/null"), limits);
    }
    let tools = crate::sandbox::toolchains::for_builds();
    let mut env = tools.env.clone();
    env.extend(program.env.iter().cloned());
    let program = Program { env, ..program.clone() };
    let mut writable = vec![output.as_os_str().to_owned()];
    // Only a Go build writes Go's cache: no other build can poison what the next Go build reads.
    if Path::new(&program.program).file_name() == Some(std::ffi::OsStr::new("go")) {
        writable.extend(tools.writable.iter().map(|w| w.clone().into_os_string()));
    }
    let extra = Extra { writable, readable: tools.readable, hidden: tools.hidden, build: true };
    run_as(runner, &program, Stdin::File(Path::new("/dev/null")), limits, Stdout::Keep, &extra, true)
}

/// What a sandboxed run may reach beyond its command and scratch folder, and what it may not.
#[derive(Debug, Default)]
struct Extra {
    /// Files (an interactor's log) and folders (a build's output) it may write.
    writable: Vec<OsString>,
    /// Folders it may read (a compiler's toolchain).
    readable: Vec<PathBuf>,
    /// Folders it may never read, beside the cases being judged.
    hidden: Vec<PathBuf>,
    /// A compiler: the folders its command names show their sources and modules by kind.
    build: bool,
}

/// Where a run's standard input comes from.
#[derive(Debug)]
enum Stdin<'a> {
    /// A file; in the sandbox, a private copy of it.
    File(&'a Path),
    /// The read end of a pipe that another program of the judge's feeds.
    Pipe(OwnedFd),
}

/// Where a run's standard output goes.
pub enum Stdout {
    /// Kept in [`Facts::stdout`], up to the output limit (past it: OLE).
    Keep,
    /// Thrown away as it is written (a checker's: only its exit code and stderr count, so
    /// however much it prints changes nothing).
    Discard,
    /// Passed on as it comes to `to`, the write end of a pipe another run reads (the two
    /// programs of an interactive case), up to the output limit (past it: OLE); `tap` sees it
    /// go by. The judge stands in the middle, rather than joining the two programs by one
    /// pipe, so that it sees what passes and which side hung up first.
    Relay { to: OwnedFd, tap: Box<dyn Tap> },
}

/// Watches a relayed stream (see [`Stdout::Relay`]).
pub trait Tap: Send {
    /// `chunk` was written by the program, and is being passed on.
    fn passed(&mut self, chunk: &[u8]);
    /// The stream is over: nothing more is passed either way.
    fn ended(&mut self, how: StreamEnd);
}

/// Why a relayed stream ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StreamEnd {
    /// The program closed its stdout: it ended (or was killed), or closed it on purpose.
    Closed,
    /// The reader closed its end first (it ended): the program's next write breaks its pipe,
    /// as it would with the two joined directly.
    Refused,
    /// Past the output limit: the run is being killed (OLE).
    Overflow,
}

/// As [`run`], with stdout sent where `stdout` says.
pub fn run_sending_stdout(runner: &Runner, program: &Program, stdin: &Path, limits: &Limits, stdout: Stdout) -> Facts {
    run_as(runner, program, Stdin::File(stdin), limits, stdout, &Extra::default(), runner.sandboxed())
}

/// As [`run`], for one program of an interactive case: stdin is `stdin` (a pipe's read end),
/// stdout is relayed as [`Stdout::Relay`] says, and in the sandbox the files in `writable`
/// (made beforehand by the judge) may be written as well as the scratch folder. Both
/// programs of a case run at once, each through this call on its own thread (so through its
/// own runner and launcher), each under its own limits and watchdog.
pub fn run_relayed(
    runner: &Runner,
    program: &Program,
    stdin: OwnedFd,
    stdout: Stdout,
    writable: &[PathBuf],
    limits: &Limits,
) -> Facts {
    let writable = writable.iter().map(|p| p.clone().into_os_string()).collect();
    let extra = Extra { writable, ..Extra::default() };
    run_as(runner, program, Stdin::Pipe(stdin), limits, stdout, &extra, runner.sandboxed())
}

fn run_as(
    runner: &Runner,
    program: &Program,
    stdin: Stdin<'_>,
    limits: &Limits,
    stdout: Stdout,
    extra: &Extra,
    sandboxed: bool,
) -> Facts {
    let mut slot = runner.launcher.borrow_mut();
    if slot.is_none() {
        let exe = &runner.setup.launcher;
        match Launcher::start(exe) {
            Ok(l) => *slot = Some(l),
            Err(e) => return spawn_error(format!("cannot start the launcher {}: {e}", exe.display())),
        }
    }
    let launcher = slot.as_ref().expect("started above");
    let sandbox = &runner.setup.sandbox;
    run_with(launcher, sandbox, program, stdin, limits, stdout, extra, sandboxed).unwrap_or_else(|e| {
        *slot = None; // a broken launcher is replaced on the next run
        spawn_error(format!("the launcher failed: {e}"))
    })
}

/// A root judge's runs are a user of their own ([`crate::sandbox::root::RUN_ID`]): the files
/// of the judge's a command names (a checker's copy of the output, made 0600 like the spool
/// it is copied from) are made readable to others. They sit in the judge's temporary
/// folder, mode 0700, which no one else can enter on the machine.
fn readable_to_runs(args: &[OsString]) {
    use std::os::unix::fs::PermissionsExt;
    // SAFETY: a plain query.
    if unsafe { libc::geteuid() } != 0 {
        return;
    }
    let ours = crate::interrupt::temp_root();
    for file in args.iter().map(Path::new).filter(|p| p.starts_with(&ours)) {
        if let Some(meta) = std::fs::symlink_metadata(file).ok().filter(|m| m.is_file()) {
            let mode = meta.permissions().mode();
            if mode & 0o044 != 0o044 {
                let _ = std::fs::set_permissions(file, std::fs::Permissions::from_mode(mode | 0o044));
            }
        }
    }
}

fn spawn_error(why: String) -> Facts {
    Facts { spawn_error: Some(why), ..Facts::default() }
}

/// One run through `launcher`, in `sandbox` when `sandboxed`; `Err` only when the launcher
/// itself failed.
#[allow(clippy::too_many_arguments)]
fn run_with(
    launcher: &Launcher,
    sandbox: &crate::sandbox::Sandbox,
    program: &Program,
    stdin: Stdin<'_>,
    limits: &Limits,
    sink: Stdout,
    extra: &Extra,
    sandboxed: bool,
) -> std::io::Result<Facts> {
    let writable = &extra.writable;
    // In the sandbox, stdin is a copy in memory: no path leads from it back to the case
    // folder, and nothing the program does to the file changes the case.
    let mut judges_copy = None;
    let input = match stdin {
        Stdin::Pipe(fd) => fd,
        Stdin::File(path) => {
            match if sandboxed { private_copy(path) } else { crate::regular::open(path).map(|f| (f, None)) } {
                Ok((f, copy)) => {
                    judges_copy = copy;
                    OwnedFd::from(f)
                }
                Err(e) => return Ok(spawn_error(format!("cannot open {}: {e}", path.display()))),
            }
        }
    };
    let scratch = match sandboxed.then(crate::sandbox::scratch::Scratch::new).transpose() {
        Ok(s) => s,
        Err(e) => return Ok(spawn_error(format!("cannot make a scratch folder for the run: {e}"))),
    };
    let mut spool = match SpoolWriter::new() {
        Ok(s) => s,
        Err(e) => return Ok(spawn_error(format!("cannot make a temporary file for the output: {e}"))),
    };
    let ((out_r, out_w), (err_r, err_w)) = match (pipe(), pipe()) {
        (Ok(o), Ok(e)) => (o, e),
        (Err(e), _) | (_, Err(e)) => return Ok(spawn_error(format!("cannot make pipes: {e}"))),
    };
    let (out_r, out_w, relay_to) = match sink {
        Stdout::Keep => (Some(out_r), out_w, None),
        Stdout::Relay { to, tap } => (Some(out_r), out_w, Some((to, tap))),
        Stdout::Discard => match std::fs::OpenOptions::new().write(true).open("/dev/null") {
            Ok(null) => (None, OwnedFd::from(null), None),
            Err(e) => return Ok(spawn_error(format!("cannot open /dev/null: {e}"))),
        },
    };
    // A sandboxed program starts in its scratch folder: the files its command names relative
    // to the judge's folder (`./a.out`, `python3 add.py`) are given as absolute paths.
    let absolute = |word: &OsString| -> OsString {
        let path = Path::new(word);
        match std::env::current_dir() {
            Ok(here) if sandboxed && path.is_relative() && path.exists() => here.join(path).into_os_string(),
            _ => word.clone(),
        }
    };
    let program_path = if Path::new(&program.program).components().count() > 1 {
        absolute(&program.program)
    } else {
        program.program.clone()
    };
    let request = Request {
        program: program_path,
        args: program.args.iter().map(absolute).collect(),
        env: if sandboxed {
            crate::sandbox::environment::for_run(&program.env, sandbox.passed())
        } else {
            program.env.clone()
        },
        cpu_backstop_s: limits.wall_limit().as_secs() + 1,
        scratch: scratch.as_ref().map(|s| s.path_buf().into_os_string()),
        memory_kib: limits.memory_kib,
        processes: limits.processes,
        // An interactor's log is a file of the judge's: its size is capped as stdout is. A
        // build's output folder, and a run without a scratch tmpfs (it writes to the disk):
        // each file is capped at its memory.
        file_bytes: if writable.iter().any(|w| Path::new(w).is_dir()) {
            limits.memory_kib * 1024
        } else if !writable.is_empty() {
            limits.output_bytes
        } else if sandboxed && crate::sandbox::pids::support().is_err() {
            limits.memory_kib * 1024
        } else {
            0
        },
        hidden: sandbox.hidden().iter().chain(&extra.hidden).cloned().map(PathBuf::into_os_string).collect(),
        readable: extra.readable.iter().map(|r| r.clone().into_os_string()).collect(),
        writable: writable.to_vec(),
        build: extra.build,
    };
    if sandboxed {
        readable_to_runs(&request.args);
    }
    let started = launcher.start_run(&request, &input, &out_w, &err_w);
    // Until the launcher says when the program was forked (below).
    let mut start = Instant::now();
    // The stdin memfd is the judge's, not the program's memory; the judge holds it until the
    // run has ended, so that freeing it (a 2 GiB input: some 300 ms of the kernel's time) is
    // never done by the program's exit, on its CPU time.
    let input = std::fs::File::from(input);
    let input_inode = {
        use std::os::unix::fs::MetadataExt;
        input.metadata().map_or(0, |m| m.ino())
    };
    // Our copies of the write ends must go, or the readers would never see the end.
    drop((out_w, err_w));
    let (keeper, cgroup_cpu) = match started? {
        Ok(running) => {
            // The clock starts when the program's process was forked, before it spent any
            // CPU time (so wall time is never below CPU time), and after the launcher built
            // its sandbox, which a busy machine can stretch to seconds.
            let since = crate::launcher::monotonic_ns().saturating_sub(running.forked_ns);
            start = start.min(Instant::now().checked_sub(Duration::from_nanos(since)).unwrap_or(start));
            (running.keeper, running.cgroup_cpu)
        }
        Err(why) => return Ok(spawn_error(why)),
    };
    let root = launcher.tree();
    // The processes of the run: the keeper's descendants when it has one (the keeper, ours,
    // is left out of its figures), else the launcher's.
    let measured = keeper.unwrap_or(root.root);
    // Files in its scratch folder (a keeper's tmpfs, or on the disk) are memory the run holds.
    let held = scratch.as_ref().map(|s| (keeper, s.path_buf()));
    let overflow = Arc::new(AtomicBool::new(false));

    let (out_tx, out_rx) = mpsc::channel();
    match (out_r, relay_to) {
        (Some(out_r), Some((to, tap))) => {
            let overflow = Arc::clone(&overflow);
            let (cap, tree) = (limits.output_bytes, launcher.tree());
            std::thread::spawn(move || {
                let passed = relay(std::fs::File::from(out_r), std::fs::File::from(to), tap, cap, || {
                    overflow.store(true, Ordering::SeqCst);
                    tree.kill();
                });
                let _ = out_tx.send((Ok(Spool::default()), passed));
            });
        }
        (Some(out_r), None) => {
            let overflow = Arc::clone(&overflow);
            let cap = limits.output_bytes;
            let tree = launcher.tree();
            std::thread::spawn(move || {
                let mut pipe = std::fs::File::from(out_r);
                let mut chunk = vec![0u8; 1 << 16];
                loop {
                    match pipe.read(&mut chunk) {
                        Ok(0) => break,
                        Ok(n) => {
                            if spool.len() + n as u64 > cap {
                                overflow.store(true, Ordering::SeqCst);
                                tree.kill();
                                break;
                            }
                            spool.write(&chunk[..n]);
                        }
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                        Err(_) => break,
                    }
                }
                let _ = out_tx.send((spool.finish(), 0));
            });
        }
        (None, _) => {
            let _ = out_tx.send((spool.finish(), 0));
        }
    }
    let (err_tx, err_rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = err_tx.send(keep_head(std::fs::File::from(err_r)));
    });

    let (done, done_rx) = mpsc::channel::<()>();
    let watchdog = {
        let wall = limits.wall_limit();
        let memory_guard_kib = (limits.memory_kib * 2).max(limits.memory_kib + 64 * 1024);
        // Past this much CPU the verdict is TLE whatever happens next, so stop paying for it.
        let cpu_guard = (limits.time + Duration::from_millis(50)).as_millis() as u64;
        std::thread::spawn(move || {
            let (mut memory_killed, mut tree_peak_kib, mut tree_peak_cpu_ms) = (false, 0u64, 0u64);
            let mut ended_by = None;
            // Each thread's largest run delay seen, so threads that end still count.
            let mut delays: std::collections::HashMap<i32, u64> = std::collections::HashMap::new();
            // A sample of a large tree takes a while: the next one waits four times as long, so
            // the watchdog never takes more than a fifth of a core from the run.
            let mut pause = WATCH_EVERY;
            // (when, tree CPU ms) of recent samples, the oldest at least STALL ago.
            let mut cpu_history: std::collections::VecDeque<(Instant, u64)> = std::collections::VecDeque::new();
            while let Err(mpsc::RecvTimeoutError::Timeout) = done_rx.recv_timeout(pause) {
                let sampled = Instant::now();
                // A cgroup counts pipe and socket buffers itself.
                let mut usage = crate::proctree::usage(measured, input_inode, cgroup_cpu.is_none());
                if let Some((keeper, dir)) = &held {
                    usage.rss_kib += crate::sandbox::scratch::held_kib(*keeper, dir);
                }
                // The cgroup holds the CPU of processes already gone, which no sample sees.
                if let Some(us) = cgroup_cpu.as_deref().and_then(crate::sandbox::cgroup::cpu_us) {
                    usage.cpu_ms = usage.cpu_ms.max(us / 1000);
                }
                tree_peak_kib = tree_peak_kib.max(usage.rss_kib);
                // Children the kernel reaps (their parent ignores SIGCHLD) take their CPU time
                // with them: the most the tree was seen to have used is a floor under the figure.
                tree_peak_cpu_ms = tree_peak_cpu_ms.max(usage.cpu_ms);
                let elapsed = start.elapsed();
                // Waiting for a CPU is the machine's doing, not the program's: it is measured
                // from half the wall limit on, and only time not spent so counts.
                if elapsed > wall / 2 {
                    for (tid, ns) in crate::proctree::run_delays(measured) {
                        let seen = delays.entry(tid).or_insert(0);
                        *seen = (*seen).max(ns);
                    }
                }
                let waited = Duration::from_nanos(delays.values().sum());
                // Once every process has ended, the time until the launcher reports it (on a
                // busy machine, it waits for a CPU too) is not the program's.
                // A program ended for wall time is one that stopped using the CPU: none of its
                // processes runnable now, and no CPU used for a quarter second. (A thread
                // waiting in a run queue right now has not had that wait added to its run
                // delay yet: without this, a long wait on a loaded machine looked like sleep.)
                cpu_history.push_back((sampled, usage.cpu_ms));
                while cpu_history.len() > 1 && sampled.duration_since(cpu_history[1].0) >= STALL {
                    cpu_history.pop_front();
                }
                let stalled = usage.runnable == 0
                    && cpu_history
                        .front()
                        .is_some_and(|&(at, cpu)| sampled.duration_since(at) >= STALL && usage.cpu_ms <= cpu);
                if ended_by.is_none() && usage.live > 0 {
                    if usage.cpu_ms > cpu_guard {
                        ended_by = Some("cpu");
                    } else if elapsed.saturating_sub(waited) > wall && stalled {
                        ended_by = Some("wall");
                    } else if elapsed > wall * WALL_CAP {
                        // Mostly waiting for a CPU: the machine's doing; otherwise the program
                        // kept its CPU use too thin to stall and too slow to end.
                        ended_by = Some(if waited * 2 > elapsed { "busy" } else { "wall" });
                    }
                }
                if !memory_killed && usage.rss_kib > memory_guard_kib {
                    memory_killed = true;
                    ended_by.get_or_insert("memory");
                }
                if ended_by.is_some() {
                    root.kill();
                }
                pause = WATCH_EVERY.max(sampled.elapsed() * 4);
            }
            let waited_ms = delays.values().sum::<u64>() as f64 / 1e6;
            (ended_by, memory_killed, tree_peak_kib, waited_ms, tree_peak_cpu_ms)
        })
    };

    let ended = launcher.finish_run();
    let wall_ms = start.elapsed().as_secs_f64() * 1000.0;
    drop((input, judges_copy));
    let _ = done.send(());
    let (ended_by, memory_killed, tree_peak_kib, waited_ms, tree_peak_cpu_ms) =
        watchdog.join().unwrap_or((None, false, 0, 0.0, 0));
    let watchdog_killed = matches!(ended_by, Some("cpu" | "wall" | "busy"));
    let output_overflow = overflow.load(Ordering::SeqCst);
    let ended_by = ended_by.or(output_overflow.then_some("output"));
    let ended = ended?;
    let deadline = Instant::now() + DRAIN_GRACE;
    let (stdout, capture_error, relayed) = match out_rx.recv_timeout(deadline.saturating_duration_since(Instant::now()))
    {
        Ok((Ok(spool), relayed)) => (spool, None, relayed),
        Ok((Err(e), _)) => (Spool::default(), Some(format!("cannot keep the output: {e}")), 0),
        // Only a process outside the run can hold the pipe this long (or, relayed, a
        // reader that does not read); what it held back is not the run's output.
        Err(_) => (Spool::default(), None, 0),
    };
    let stderr = err_rx.recv_timeout(deadline.saturating_duration_since(Instant::now())).unwrap_or_default();

    let floor_kib = ended.floor_kib;
    // A cgroup's figures are exact; the samples only stand in where there is none.
    let (peak_rss_kib, cpu_ms) = if ended.cgroup {
        (ended.maxrss_kib, ended.cpu_us as f64 / 1000.0)
    } else {
        (ended.maxrss_kib.max(tree_peak_kib), (ended.cpu_us as f64 / 1000.0).max(tree_peak_cpu_ms as f64))
    };
    let status = ended.status;
    Ok(Facts {
        exit_code: libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)),
        signal: libc::WIFSIGNALED(status).then(|| libc::WTERMSIG(status)),
        cpu_ms,
        wall_ms,
        peak_rss_kib,
        peak_rss_exact: ended.cgroup || peak_rss_kib > floor_kib,
        measured_by: if ended.cgroup { "cgroup" } else { "wait4" },
        stdout_bytes: stdout.len().max(relayed),
        watchdog_killed,
        ended_by,
        waited_ms,
        memory_killed,
        output_overflow,
        leftover_processes: ended.leftovers,
        spawn_error: None,
        capture_error,
        stdout,
        stderr,
    })
}

/// Passes what `from` gives on to `to`, showing it to `tap`, until either side hangs up or
/// more than `cap` bytes come (then `over` is called); returns the bytes passed on.
fn relay(mut from: std::fs::File, mut to: std::fs::File, mut tap: Box<dyn Tap>, cap: u64, over: impl FnOnce()) -> u64 {
    use std::io::Write;
    let mut chunk = vec![0u8; 1 << 16];
    let mut passed = 0u64;
    let how = loop {
        match from.read(&mut chunk) {
            Ok(0) => break StreamEnd::Closed,
            Ok(n) => {
                if passed + n as u64 > cap {
                    over();
                    break StreamEnd::Overflow;
                }
                passed += n as u64;
                tap.passed(&chunk[..n]);
                match to.write_all(&chunk[..n]) {
                    Ok(()) => {}
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(_) => break StreamEnd::Refused,
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => break StreamEnd::Closed,
        }
    };
    // Told before either end closes: the other program learns of the end only after, so
    // the tap always hears of the first hang-up first.
    tap.ended(how);
    drop((from, to));
    passed
}

/// A copy of the file at `path` in an anonymous memory file (memfd), read from its start.
/// The program's stdin: a read-only handle on a sealed memfd holding the input, and the
/// judge's own writable handle, kept until the run ends.
fn private_copy(path: &Path) -> std::io::Result<(std::fs::File, Option<std::fs::File>)> {
    use std::io::Seek;
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::OpenOptionsExt;
    // Non-blocking: a FIFO put in the input's place must not hold the judge.
    let mut source = std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(path)?;
    // A build's stdin is /dev/null: an empty copy.
    if !source.metadata()?.is_file() && path != Path::new("/dev/null") {
        return Err(std::io::Error::new(std::io::ErrorKind::Other, "not a regular file"));
    }
    // SAFETY: a static C string and a flag.
    let fd =
        unsafe { libc::memfd_create(b"judge-input\0".as_ptr().cast(), libc::MFD_CLOEXEC | libc::MFD_ALLOW_SEALING) };
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: the fd was just made and is ours alone.
    let mut copy = unsafe { std::fs::File::from_raw_fd(fd) };
    std::io::copy(&mut source, &mut copy)?;
    copy.rewind()?;
    // Sealed: no one, through this handle or by reopening /proc/PID/fd/0, may write, grow
    // or shrink it (400 MiB written into it counted 2.5 MiB of a run's memory).
    let seals = libc::F_SEAL_WRITE | libc::F_SEAL_GROW | libc::F_SEAL_SHRINK | libc::F_SEAL_SEAL;
    // SAFETY: fcntl on our own fd.
    if unsafe { libc::fcntl(copy.as_raw_fd(), libc::F_ADD_SEALS, seals) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    // The program's handle is its own open file, read-only, at offset 0.
    let read_only = std::fs::File::open(format!("/proc/self/fd/{}", copy.as_raw_fd()))?;
    Ok((read_only, Some(copy)))
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

/// Names a signal the way people read it in a verdict: `SIGSEGV`.
pub fn signal_name(signal: i32) -> String {
    let name = match signal {
        1 => "SIGHUP",
        2 => "SIGINT",
        3 => "SIGQUIT",
        4 => "SIGILL",
        5 => "SIGTRAP",
        6 => "SIGABRT",
        7 => "SIGBUS",
        8 => "SIGFPE",
        9 => "SIGKILL",
        11 => "SIGSEGV",
        13 => "SIGPIPE",
        14 => "SIGALRM",
        15 => "SIGTERM",
        24 => "SIGXCPU",
        25 => "SIGXFSZ",
        _ => return format!("signal {signal}"),
    };
    name.to_string()
}
