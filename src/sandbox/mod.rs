//! Every solver, reference, checker and generator runs in a sandbox, one unit per concern:
//!
//! - [`files`]: its view of the files and the network (Landlock): it reads the system and
//!   what [`view`] grants (its runtime's install, its source's folder and class path, never
//!   a case or an answer), writes only its scratch folder and `/dev/shm`, opens no TCP
//!   connection and signals no process outside its run (so it cannot stop or kill the judge
//!   or the launcher);
//! - [`network`]: an empty network namespace a launcher's runs share;
//! - [`scratch`]: a private working folder (also `TMPDIR`), removed after the run; with
//!   [`pids`], a tmpfs the size of the memory limit, whose files count as the run's memory;
//! - [`root`]: a root of its own, made of read-only binds of the one list of what a run may
//!   see (the system's runtime folders, a few files of `/etc`, a minimal `/dev`) and of what
//!   [`view`] grants its command; a root judge's runs are uid 60000, never 0, and [`reach`]
//!   says before the first run which file of a command that user may not read;
//! - [`kinds`]: beside a script or in a class path, the files a runtime loads, by kind;
//! - [`pids`]: its own PID namespace and `/proc` (and IPC and UTS namespaces), whose init is
//!   a keeper of ours: it sees and signals no process outside its run, and what is left when
//!   the run ends is killed at once;
//! - [`cgroup`]: exact figures (CPU of every process of the run, the peak memory it held)
//!   and a kernel-enforced memory cap, from a cgroup of its own where the machine gives one;
//! - [`syscalls`]: a seccomp filter refusing the system calls that could harm the machine
//!   or reach the network (reboot, modules, the clock, mounts, namespaces, tracing,
//!   keyrings, BPF, io_uring, every socket family but Unix...);
//! - [`privileges`]: no capability in any set, even for a judge run as root;
//! - [`environment`]: a judge's few variables, never the judge's own environment;
//! - its stdin is a copy of the input in memory (a memfd), never a path back to the case
//!   folder, and it starts in a session of its own, with no controlling terminal (see
//!   [`crate::launcher`]).
//!
//! Where the kernel refuses a piece (no Landlock, or an old ABI), runs go on without it and
//! the judge says once which protections are off; `--sandbox strict` refuses to run then, and
//! `--sandbox off` runs programs as the user, as before. A compiler runs in the sandbox too,
//! with its toolchain ([`toolchains`]) and a folder of its own to write its program in.

pub mod cgroup;
pub mod environment;
pub mod files;
pub mod kinds;
pub mod network;
pub mod pids;
pub mod privileges;
pub mod probe;
pub mod reach;
pub mod root;
pub mod scratch;
pub mod syscalls;
pub mod toolchains;
pub mod view;

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// How much isolation runs get.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// No sandbox: programs run as the user, in the judge's working folder.
    Off,
    /// Every protection the kernel offers (the default).
    Auto,
    /// Every protection, or no run at all.
    Strict,
}

impl Level {
    pub fn parse(text: &str) -> Result<Level, String> {
        match text {
            "off" => Ok(Level::Off),
            "auto" => Ok(Level::Auto),
            "strict" => Ok(Level::Strict),
            _ => Err(format!("unknown sandbox level '{text}': use auto (the default), strict or off")),
        }
    }
}

/// The sandbox one judging round's runs get: its level, the variables passed on to them and
/// the folders of the cases hidden from them. A value made once from the command line and
/// `case.toml`, and handed down to every run: two rounds in one process each keep their own.
#[derive(Clone, Debug)]
pub struct Sandbox {
    level: Level,
    passed: Vec<(OsString, Option<OsString>)>,
    hidden: Vec<PathBuf>,
}

/// Why `--sandbox strict` refuses: the protections this kernel or user lacks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Missing(pub Vec<String>);

impl std::fmt::Display for Missing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "--sandbox strict: {}", self.0.join("; "))
    }
}

impl Sandbox {
    /// Runs at `level`, given the variables of `passed` (`--env`, `case.toml`'s: a name alone
    /// passes the judge's value on); refused when the level is `strict` and this kernel or
    /// user lacks some protection.
    pub fn new(level: Level, passed: Vec<(OsString, Option<OsString>)>) -> Result<Sandbox, Missing> {
        let protections = protections(level);
        if level == Level::Strict && !protections.missing.is_empty() {
            return Err(Missing(protections.missing));
        }
        Ok(Sandbox { level, passed, hidden: Vec::new() })
    }

    /// No sandbox: what programs of the judge's own run in (and `--sandbox off`).
    pub fn off() -> Sandbox {
        Sandbox { level: Level::Off, passed: Vec::new(), hidden: Vec::new() }
    }

    /// The same sandbox with the folders of `files` (the cases' inputs and answers) hidden
    /// from every run as well.
    pub fn hiding<'a>(mut self, files: impl IntoIterator<Item = &'a Path>) -> Sandbox {
        view::hide_cases(&mut self.hidden, files);
        self
    }

    pub fn level(&self) -> Level {
        self.level
    }

    /// Whether runs are sandboxed at all.
    pub fn on(&self) -> bool {
        self.level != Level::Off
    }

    /// The variables asked for besides the fixed ones.
    pub fn passed(&self) -> &[(OsString, Option<OsString>)] {
        &self.passed
    }

    /// The folders of the cases being judged, hidden from every run.
    pub fn hidden(&self) -> &[PathBuf] {
        &self.hidden
    }

    /// What runs hold at this level on this kernel.
    pub fn protections(&self) -> Protections {
        protections(self.level)
    }
}

impl Default for Sandbox {
    /// `auto`, with nothing passed and nothing hidden (`auto` never refuses).
    fn default() -> Sandbox {
        Sandbox { level: Level::Auto, passed: Vec::new(), hidden: Vec::new() }
    }
}

/// What the sandbox of a run holds, for `--json` and the one-line note.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Protections {
    /// Files: reads limited to the system and the program, writes to its scratch folder.
    pub files: bool,
    /// No TCP connections or listening sockets.
    pub network: bool,
    /// No signals to processes outside the run.
    pub signals: bool,
    /// A private working folder, removed after the run.
    pub scratch: bool,
    /// The working folder is a tmpfs the size of the memory limit: what the run writes
    /// there counts as its memory, and it cannot fill the disk.
    pub scratch_in_memory: bool,
    /// stdin is a copy in memory.
    pub private_stdin: bool,
    /// Its own session: no controlling terminal.
    pub own_session: bool,
    /// No capability in any set, whether the judge is root or not ([`privileges`]).
    pub no_privileges: bool,
    /// Only the environment a judge sets, never the judge's own ([`environment`]).
    pub clean_environment: bool,
    /// Its tasks (processes and threads) capped by its cgroup (`--process-limit`).
    pub process_limit: bool,
    /// An empty network namespace of its own (see [`network`]).
    pub network_namespace: bool,
    /// A seccomp filter refuses the system calls that could harm the machine.
    pub syscalls: bool,
    /// Its own PID namespace and `/proc`: it sees and signals no process outside its run,
    /// and everything left is killed at once when the run ends.
    pub processes: bool,
    /// A root of its own ([`root`]): a tmpfs holding what is granted alone, no other file of
    /// the machine's.
    pub own_root: bool,
    /// Never uid 0: a root judge's runs are a user of their own ([`root::RUN_ID`]), a user
    /// judge's are that user.
    pub own_user: bool,
    /// Its own IPC and UTS namespaces: System V objects die with the run.
    pub ipc: bool,
    /// How runs are measured: "cgroup v1" or "cgroup v2" (exact, see [`cgroup`]), or
    /// "wait4" (the reaped processes' figures and the watchdog's samples).
    pub figures: &'static str,
    /// What is off, and why (empty when all is on).
    pub missing: Vec<String>,
}

/// The protections runs get at `level` on this kernel.
pub fn protections(level: Level) -> Protections {
    if level == Level::Off {
        return Protections {
            figures: "wait4",
            missing: vec!["the sandbox is off (--sandbox off)".into()],
            ..Protections::default()
        };
    }
    let landlock = files::support();
    let pids = pids::support();
    let mut missing = Vec::new();
    if !landlock.files {
        missing.push(format!("file access is not limited: {}", landlock.why));
    }
    let syscalls = syscalls::supported();
    // The seccomp filter refuses every internet socket; Landlock, TCP alone.
    let network = syscalls.is_ok() || landlock.network;
    if !network {
        missing.push(format!("the network is open: {}", landlock.why));
    }
    // Either closes these: Landlock's scope, or the namespace (nothing outside to name).
    let signals = landlock.signals || pids.is_ok();
    if !signals {
        missing.push(format!("signals to other processes are not blocked: {}", landlock.why));
    }
    let network_namespace = match pids {
        Ok(pids::Mode::Root) => network::support(),
        Ok(pids::Mode::User) => network::user_support(),
        Err(_) => false,
    };
    if pids.is_ok() && !network_namespace {
        missing.push("runs share the machine's network namespace: the kernel refused a new one".into());
    }
    if let Err(why) = &syscalls {
        missing.push(format!("dangerous system calls are not refused: {why}"));
    }
    if let Err(why) = &pids {
        missing.push(format!("runs share the machine's process tree: {why}"));
        missing.push(
            "files a run writes are on the disk, counted as its memory only as the watchdog samples them (each \
             file is capped at the memory limit), and it has no /dev/shm"
                .into(),
        );
    }
    let root = root::support();
    if let (Err(why), Ok(_)) = (&root, &pids) {
        missing.push(format!(
            "runs see the machine's files, as Landlock's rules filter them, not a root of their own: {why}"
        ));
    }
    // SAFETY: a plain query.
    let own_user = root.is_ok() || unsafe { libc::geteuid() } != 0;
    if !own_user {
        missing.push("runs are uid 0 (without capabilities): a user of their own needs a root of their own".into());
    }
    let cgroup = cgroup::support();
    if let Err(why) = &cgroup {
        // A child whose parent ignores SIGCHLD is reaped by the kernel, its CPU time added to
        // no one's; no call a user may make gets it back (seccomp cannot read the sigaction
        // that asks for it), so it is named, and strict refuses.
        missing.push(
            "CPU of children the kernel reaps is a floor: a child whose parent ignores SIGCHLD takes its CPU time \
             with it, and only the most the run was seen to use at once counts (a run of short such children can \
             pass its time limit unseen)"
                .into(),
        );
        // A descriptor in a socket's queue is in no process's table, all `/proc` shows a
        // user; refusing `sendmsg` would break Python's forkserver, so it is named instead.
        missing.push(
            "memory held in descriptors in flight is not counted: a memfd, pipe or socket sent over a Unix socket \
             and closed is in no process's table"
                .into(),
        );
        missing.push(format!("figures are not exact (wait4 and sampling): {why}"));
    }
    // A run in a user namespace of its own is capped by RLIMIT_NPROC, which the kernel
    // counts per user and namespace.
    let tasks = match pids {
        Ok(pids::Mode::User) => Ok(()),
        _ => cgroup.clone().and_then(cgroup::Hierarchy::caps_tasks),
    };
    if let Err(why) = &tasks {
        missing.push(format!("processes are not capped: {why}"));
    }
    Protections {
        syscalls: syscalls.is_ok(),
        processes: pids.is_ok(),
        own_root: root.is_ok(),
        own_user,
        ipc: pids.is_ok(),
        scratch_in_memory: pids.is_ok(),
        figures: cgroup.map_or("wait4", |h| h.name()),
        files: landlock.files,
        network,
        signals,
        scratch: true,
        private_stdin: true,
        own_session: true,
        no_privileges: true,
        clean_environment: true,
        process_limit: tasks.is_ok(),
        network_namespace,
        missing,
    }
}
