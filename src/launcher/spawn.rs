//! The launcher's forks: a run's program, entering its sandbox between fork and exec, and,
//! where the run gets a PID namespace, the keeper that is its init (see
//! [`crate::sandbox::pids`]). Everything is prepared before the fork; the launcher is
//! single-threaded, so its children may allocate, but they keep to system calls where they can.

use std::ffi::{CString, OsString};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;

/// What one request asks for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Request {
    pub program: OsString,
    pub args: Vec<OsString>,
    pub env: Vec<(OsString, OsString)>,
    /// RLIMIT_CPU for the program, in seconds.
    pub cpu_backstop_s: u64,
    /// Run it in the sandbox (see [`crate::sandbox`]), with this scratch folder as its
    /// working folder and `TMPDIR`; `None`: as the user, where the judge runs.
    pub scratch: Option<OsString>,
    /// The run's memory limit. In a run with a PID namespace, the scratch folder is a tmpfs
    /// of this size: what a run writes there is memory, and it can write no more. A run in a
    /// cgroup has its memory capped at the watchdog's guard above it.
    pub memory_kib: u64,
    /// Tasks the run may have alive at once (its cgroup's `pids.max`, where it has one).
    pub processes: u64,
    /// RLIMIT_FSIZE: the largest file the program may write (0: no limit). Set for a run that
    /// writes files outside its scratch folder (an interactor's log), which nothing else caps.
    pub file_bytes: u64,
    /// Files outside the scratch folder the sandboxed program may also write (an
    /// interactor's log, which the judge reads after the run).
    pub writable: Vec<OsString>,
    /// Folders the sandboxed program may never read (the cases being judged), whatever
    /// folder around them it is granted.
    pub hidden: Vec<OsString>,
    /// Folders the sandboxed program may also read, whole but for `hidden` (a compiler's
    /// toolchain home, which its command does not name).
    pub readable: Vec<OsString>,
    /// A build: the folders its command names are shown minus answer-like names, as a
    /// compiler reads any header beside its source; a run's, by kind (see
    /// [`crate::sandbox::kinds`]).
    pub build: bool,
}

/// A run as started: the process the launcher waits for, and, when the run has a PID
/// namespace, the pipe its keeper reports on.
pub(super) struct Started {
    pub(super) pid: i32,
    pub(super) keeper: Option<OwnedFd>,
    /// When the program's process was forked ([`monotonic_ns`]): its CPU time is all spent
    /// after this, so a wall time measured from here is never below it.
    pub(super) forked_ns: u64,
}

/// CLOCK_MONOTONIC in nanoseconds: one clock for the whole machine, which the judge's
/// `Instant` reads too.
pub fn monotonic_ns() -> u64 {
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime fills in our struct.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut now) };
    now.tv_sec as u64 * 1_000_000_000 + now.tv_nsec as u64
}

/// How a sandboxed run gets its own namespaces, if it does (see [`crate::sandbox::pids`]).
#[derive(Clone, Copy)]
pub(super) enum Namespaces<'a> {
    None,
    /// The launcher may make PID namespaces: this is its own, to return to after each fork;
    /// and the empty network namespace its runs join, if it made one.
    Root(&'a OwnedFd, Option<&'a OwnedFd>),
    /// Through a user namespace, with these ID maps.
    User(&'a crate::sandbox::pids::IdMaps),
}

/// Everything the forked child needs, prepared before the fork: the child only makes
/// system calls on it (and, in a keeper, may allocate: it is single-threaded).
struct Prepared {
    path: CString,
    /// Kept for the pointers in `argv_ptrs`, which point into it.
    argv: Vec<CString>,
    argv_ptrs: Vec<*const libc::c_char>,
    env: Vec<(CString, CString)>,
    /// A sandboxed run's whole environment (`env`, then `TMPDIR` and `HOME` its scratch
    /// folder) as `NAME=VALUE` strings, with the pointers `execve` takes.
    envp: Option<(Vec<CString>, Vec<*const libc::c_char>)>,
    scratch: Option<CString>,
    /// The mount options of the scratch folder's tmpfs, for a keeper to mount.
    tmpfs: CString,
    ruleset: Option<landlock::RulesetCreated>,
    /// The run's own root, where the kernel lets the keeper make one.
    root: Option<crate::sandbox::root::Plan>,
    /// The mount namespace of that root prepared by the launcher, which the keeper enters a
    /// copy of rather than making it (see [`super::prepared`]).
    prepared: Option<RawFd>,
    /// For a user's judge, the user namespace that owns that root, which the run's first
    /// process enters, and the ID maps of the run's own, which its keeper makes once in
    /// the root.
    owner: Option<(RawFd, crate::sandbox::pids::IdMaps)>,
    /// For a user's judge, the run's network namespace: `Some` the one made with `owner`,
    /// joined; `None` with `new_net`, one of its own, made (no root was prepared).
    net: Option<RawFd>,
    new_net: bool,
    /// The user and group a root judge's run becomes.
    run_as: Option<(u32, u32)>,
    filter: Option<crate::sandbox::syscalls::Filter>,
    limit: libc::rlimit,
    /// RLIMIT_NPROC in a run's own user namespace, where the kernel counts the tasks of the
    /// user in that namespace alone: the run's cap on tasks without a cgroup.
    tasks: Option<libc::rlimit>,
    /// RLIMIT_FSIZE, where the request sets one.
    files: Option<libc::rlimit>,
    fds: [RawFd; 3],
    /// The `cgroup.procs` files of the run's cgroup, which the program joins first.
    joins: Vec<RawFd>,
    /// The write end of the close-on-exec pipe that says why exec failed.
    report: RawFd,
}

/// Forks and executes the request with `fds` as stdin, stdout, stderr in a new process group.
/// A sandboxed run on a kernel that allows it gets a PID namespace of its own
/// ([`crate::sandbox::pids`]): the launcher forks the keeper, which forks the program.
pub(super) fn fork_exec(
    req: &Request,
    fds: &[OwnedFd],
    namespaces: Namespaces<'_>,
    joins: &[OwnedFd],
    roots: &mut super::prepared::Roots,
) -> io::Result<Started> {
    let cstr = |s: &std::ffi::OsStr| {
        CString::new(s.as_bytes()).map_err(|_| io::Error::new(io::ErrorKind::Other, "a NUL byte in the command"))
    };
    let program = cstr(&req.program)?;
    // Found on PATH here, and run with execv: execvp would hand a file that is not a program
    // (a script without `#!`) to /bin/sh, whose exit 2 a checker's caller reads as PE.
    let path = cstr(&find_program(&req.program, &req.env))?;
    // The sandbox's rules and root are worked out here, before the fork: that opens files
    // and allocates. The child only enters them.
    let own_root =
        req.scratch.is_some() && !matches!(namespaces, Namespaces::None) && crate::sandbox::root::support().is_ok();
    // A root judge's runs are a user of their own, never uid 0.
    let run_as = (own_root && matches!(namespaces, Namespaces::Root(..)))
        .then_some((crate::sandbox::root::RUN_ID, crate::sandbox::root::RUN_ID));
    let (scratch, ruleset, root) = match &req.scratch {
        Some(dir) => {
            let ask = crate::sandbox::view::Ask {
                hidden: req.hidden.iter().map(std::path::PathBuf::from).collect(),
                readable: req.readable.iter().map(std::path::PathBuf::from).collect(),
                path: req.env.iter().rev().find(|(k, _)| k == "PATH").map(|(_, v)| v.clone()),
                build: req.build,
            };
            let view = crate::sandbox::files::view(&req.program, &req.args, &ask);
            let dir_path = std::path::Path::new(dir);
            let rules = crate::sandbox::files::ruleset(&view, &req.writable, dir_path)
                .map_err(|e| io::Error::new(io::ErrorKind::Other, format!("cannot build the sandbox: {e}")))?;
            let root = own_root.then(|| {
                let writable: Vec<std::path::PathBuf> = req.writable.iter().map(std::path::PathBuf::from).collect();
                crate::sandbox::root::plan(&view.paths, &writable, dir_path, run_as)
            });
            (Some(cstr(dir)?), Some(rules), root)
        }
        None => (None, None, None),
    };
    // The keeper enters a copy of a root made once for the same plan.
    let prepared = match (namespaces, &root) {
        (Namespaces::Root(..), Some(plan)) => roots.get(plan, None),
        (Namespaces::User(maps), Some(plan)) => roots.get(plan, Some(maps)),
        _ => None,
    };
    let owner = match namespaces {
        Namespaces::User(maps) => prepared.and(roots.owner()).map(|fd| (fd, maps.clone())),
        _ => None,
    };
    let net = owner.as_ref().and_then(|_| roots.net());
    let new_net =
        matches!(namespaces, Namespaces::User(_)) && owner.is_none() && crate::sandbox::network::user_support();
    let filter = req.scratch.as_ref().and_then(|_| crate::sandbox::syscalls::filter());
    let mut argv: Vec<CString> = vec![program];
    for a in &req.args {
        argv.push(cstr(a)?);
    }
    let env: Vec<(CString, CString)> =
        req.env.iter().map(|(k, v)| Ok((cstr(k)?, cstr(v)?))).collect::<io::Result<_>>()?;
    let envp = match &req.scratch {
        Some(dir) => {
            let mut strings = Vec::new();
            let home = [("TMPDIR".as_ref(), dir.as_os_str()), ("HOME".as_ref(), dir.as_os_str())];
            for (k, v) in req.env.iter().map(|(k, v)| (k.as_os_str(), v.as_os_str())).chain(home) {
                let mut pair = k.as_bytes().to_vec();
                pair.push(b'=');
                pair.extend_from_slice(v.as_bytes());
                strings.push(cstr(std::ffi::OsStr::from_bytes(&pair))?);
            }
            let mut pointers: Vec<*const libc::c_char> = strings.iter().map(|s| s.as_ptr()).collect();
            pointers.push(std::ptr::null());
            Some((strings, pointers))
        }
        None => None,
    };
    // A close-on-exec pipe tells the parent whether exec failed, and why.
    let mut report = [0; 2];
    // SAFETY: pipe2 writes two new fds.
    if unsafe { libc::pipe2(report.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    let mut argv_ptrs: Vec<*const libc::c_char> = argv.iter().map(|a| a.as_ptr()).collect();
    argv_ptrs.push(std::ptr::null());
    let prepared = Prepared {
        path,
        argv,
        argv_ptrs,
        env,
        envp,
        scratch,
        // A MiB past the limit: a run that fills it holds more than its limit (MLE), even
        // with nothing else alive when it is counted.
        tmpfs: CString::new(format!(
            "size={}k,mode=0700{}",
            req.memory_kib.max(64) + 1024,
            run_as.map_or(String::new(), |(uid, gid)| format!(",uid={uid},gid={gid}"))
        ))
        .map_err(|_| io::Error::new(io::ErrorKind::Other, "tmpfs options"))?,
        root,
        prepared,
        owner,
        net,
        new_net,
        run_as,
        ruleset,
        filter,
        limit: libc::rlimit { rlim_cur: req.cpu_backstop_s, rlim_max: req.cpu_backstop_s + 1 },
        // One more than the run's own: the keeper, the namespace's first task.
        tasks: (req.scratch.is_some() && matches!(namespaces, Namespaces::User(_)))
            .then_some(libc::rlimit { rlim_cur: req.processes + 1, rlim_max: req.processes + 1 }),
        files: (req.file_bytes > 0).then_some(libc::rlimit { rlim_cur: req.file_bytes, rlim_max: req.file_bytes }),
        fds: [fds[0].as_raw_fd(), fds[1].as_raw_fd(), fds[2].as_raw_fd()],
        joins: joins.iter().map(AsRawFd::as_raw_fd).collect(),
        report: report[1],
    };
    // The keeper's own report of the run's figures, read once it has ended; made first, so
    // that no namespace is entered without a keeper to be its init.
    let namespaces = if req.scratch.is_some() { namespaces } else { Namespaces::None };
    let figures = match namespaces {
        Namespaces::None => None,
        _ => {
            let mut ends = [0; 2];
            // SAFETY: pipe2 writes two new fds.
            (unsafe { libc::pipe2(ends.as_mut_ptr(), libc::O_CLOEXEC) } == 0).then_some(ends)
        }
    };
    // As root the launcher's next child is the keeper, init of a new PID namespace; as a
    // user, the child enters a user namespace first and forks the keeper itself.
    let root_keeper = match (namespaces, figures) {
        (Namespaces::Root(own, _), Some(_)) => crate::sandbox::pids::next_fork_in_new_namespace().then_some(own),
        _ => None,
    };
    // SAFETY: the launcher is single-threaded, so the child may do anything until exec.
    let pid = unsafe { libc::fork() };
    if pid == 0 {
        // SAFETY: in the child, which never returns.
        unsafe {
            libc::close(report[0]);
            match (namespaces, figures) {
                (Namespaces::Root(_, net), Some([read, write])) if root_keeper.is_some() => {
                    libc::close(read);
                    if net.is_some_and(|net| !crate::sandbox::network::join(net)) {
                        fail(prepared.report, -5);
                    }
                    become_keeper(prepared, write)
                }
                (Namespaces::User(maps), Some([read, write])) => {
                    libc::close(read);
                    enter_user_namespace_then_keep(prepared, maps, write)
                }
                _ => become_program(prepared),
            }
        }
    }
    if let Some(own) = root_keeper {
        crate::sandbox::pids::restore(own);
    }
    let kept = root_keeper.is_some() || matches!(namespaces, Namespaces::User(_));
    let keeper = figures.and_then(|[read, write]| {
        // SAFETY: closing our copy of the keeper's write end; the read end is ours.
        unsafe { libc::close(write) };
        let read = unsafe { OwnedFd::from_raw_fd(read) };
        kept.then_some(read)
    });
    // SAFETY: closing our copy of the write end; reading the child's report.
    unsafe { libc::close(report[1]) };
    if pid < 0 {
        unsafe { libc::close(report[0]) };
        return Err(io::Error::last_os_error());
    }
    // The child writes when it was forked (8 bytes), then, if it cannot become the program,
    // why (4 bytes); exec closes the pipe.
    let mut got = [0u8; 12];
    let mut n = 0;
    while n < got.len() {
        let r = unsafe { libc::read(report[0], got[n..].as_mut_ptr().cast(), got.len() - n) };
        if r > 0 {
            n += r as usize;
        } else if r == 0 || io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            break;
        }
    }
    unsafe { libc::close(report[0]) };
    let forked_ns = if n >= 8 { u64::from_ne_bytes(got[..8].try_into().unwrap_or_default()) } else { monotonic_ns() };
    let failed = match n {
        4 => Some([got[0], got[1], got[2], got[3]]),
        12 => Some([got[8], got[9], got[10], got[11]]),
        _ => None,
    };
    if let Some(errno) = failed {
        super::reap::sweep(None);
        let name = req.program.to_string_lossy();
        return Err(io::Error::new(
            io::ErrorKind::Other,
            match i32::from_ne_bytes(errno) {
                -1 => format!("cannot start '{name}' in its sandbox: the kernel refused the Landlock rules"),
                -2 => format!("cannot start '{name}' in its own PID namespace: the keeper could not fork"),
                -3 => format!("cannot start '{name}' in its own namespaces: the kernel refused a user namespace"),
                -4 => format!("cannot start '{name}' without privileges: its capabilities could not be dropped"),
                -5 => format!("cannot start '{name}' in its sandbox: the kernel refused its network namespace"),
                -6 => format!("cannot start '{name}' in a root of its own: the kernel refused a mount"),
                -7 => format!("cannot start '{name}' as a user of its own: the kernel refused the change"),
                libc::ENOEXEC => format!("cannot start '{name}': it is not a program (a script needs a #! line)"),
                e => format!("cannot start '{name}': {}", io::Error::from_raw_os_error(e)),
            },
        ));
    }
    Ok(Started { pid, keeper, forked_ns })
}

/// `/dev/shm` as mount(2) takes it (a keeper may allocate: it is single-threaded).
fn c_shm() -> CString {
    CString::new(crate::sandbox::scratch::SHM).unwrap_or_default()
}

/// Tells the launcher why the child could not become the program, and exits.
///
/// # Safety
/// Only in the forked child.
unsafe fn fail(report: RawFd, errno: i32) -> ! {
    unsafe {
        libc::write(report, (&errno as *const i32).cast(), 4);
        libc::_exit(127)
    }
}

/// In the launcher's child, for a judge that is not root: a user namespace whose IDs are the
/// user's own, with a PID namespace for its children; then the keeper, forked, is PID 1 of it,
/// and this process only waits for it (the run is measured from here: the keeper and the
/// run are its descendants). With a prepared root, that user namespace is the one that owns
/// the root, entered (the keeper, once in its copy of the root, makes the run's own).
///
/// # Safety
/// Only in the launcher's forked child.
unsafe fn enter_user_namespace_then_keep(prepared: Prepared, maps: &crate::sandbox::pids::IdMaps, figures: RawFd) -> ! {
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
        let entered = match &prepared.owner {
            Some((owner, _)) => libc::setns(*owner, libc::CLONE_NEWUSER) == 0 && libc::unshare(libc::CLONE_NEWPID) == 0,
            None => crate::sandbox::pids::enter_user_namespace(maps),
        };
        if !entered {
            fail(prepared.report, -3);
        }
        // An empty network namespace: the launcher's, made with the user namespace entered,
        // or, with no root prepared, one of the run's own.
        let netted = match (prepared.net, prepared.new_net) {
            (Some(net), _) => libc::setns(net, libc::CLONE_NEWNET) == 0,
            (None, true) => libc::unshare(libc::CLONE_NEWNET) == 0,
            (None, false) => true,
        };
        if !netted {
            fail(prepared.report, -5);
        }
        let report = prepared.report;
        let [input, output, errors] = prepared.fds;
        let keeper = libc::fork();
        if keeper == 0 {
            become_keeper(prepared, figures);
        }
        if keeper < 0 {
            fail(report, -2);
        }
        // The keeper holds what the run needs; the launcher must see the pipes end with it.
        for fd in [report, input, output, errors, figures, 0] {
            libc::close(fd);
        }
        let mut status = 0;
        while libc::waitpid(keeper, &mut status, 0) < 0 && *libc::__errno_location() == libc::EINTR {}
        libc::_exit(0)
    }
}

/// In the keeper, PID 1 of the run's namespace: a `/proc` of the namespace, the program as
/// its child, then [`crate::sandbox::pids::keep`].
///
/// # Safety
/// Only in the launcher's forked child.
unsafe fn become_keeper(mut prepared: Prepared, figures: RawFd) -> ! {
    unsafe {
        // The run must not outlive a launcher that dies without its sweep.
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
        // The run's tmpfs mounts, whose files the keeper counts once the run is over.
        let mut tmpfs = Vec::new();
        // The judge's files in the scratch folder, copied into the run's tmpfs and back.
        let mut back = None;
        let host =
            prepared.scratch.as_ref().map(|dir| std::path::PathBuf::from(std::ffi::OsStr::from_bytes(dir.as_bytes())));
        // Read while the machine's tree is still there: a prepared root has none of it.
        let seeded = host.as_deref().and_then(crate::sandbox::scratch::before_mount);
        if prepared.prepared.is_some() || crate::sandbox::pids::private_views() {
            // In a root of its own the scratch folder keeps its path; else the rules name the
            // old /proc and scratch folder, now hidden under new mounts.
            let made = match (&prepared.root, prepared.prepared) {
                (Some(plan), Some(ns)) => Some(crate::sandbox::root::enter(ns, plan, &prepared.tmpfs)),
                (Some(plan), None) => Some(crate::sandbox::root::build(plan, &prepared.tmpfs)),
                (None, _) => None,
            };
            let scratch = match made {
                Some(made) => match made {
                    Ok(()) => host.clone(),
                    Err(why) => {
                        let why = format!("judge: cannot make the run's root: {why}\n");
                        libc::write(prepared.fds[2], why.as_ptr().cast(), why.len());
                        fail(prepared.report, -6)
                    }
                },
                None => prepared
                    .scratch
                    .as_ref()
                    .filter(|dir| crate::sandbox::scratch::mount_tmpfs(dir, &prepared.tmpfs))
                    .and(host.clone()),
            };
            // A private /dev/shm (POSIX shared memory, semaphores: Python's multiprocessing),
            // in memory, counted and capped as the scratch folder is, gone with the run.
            let shm = std::path::Path::new(crate::sandbox::scratch::SHM);
            let shm = (scratch.is_some()
                && (prepared.root.is_some() || crate::sandbox::scratch::mount_tmpfs(&c_shm(), &prepared.tmpfs)))
            .then_some(shm);
            if let (Some((dir, names)), Some(to)) = (&seeded, &scratch) {
                crate::sandbox::scratch::seed(dir, names, to, prepared.run_as);
            }
            back = seeded.map(|(dir, _)| dir).zip(scratch.clone());
            tmpfs.extend(scratch.is_some().then(|| prepared.scratch.clone()).flatten());
            tmpfs.extend(shm.map(|_| c_shm()));
            prepared.ruleset = match prepared
                .ruleset
                .take()
                .map(|r| crate::sandbox::files::grant_mounts(r, scratch.as_deref(), shm, prepared.root.as_ref()))
            {
                Some(Ok(rules)) => Some(rules),
                Some(Err(_)) => fail(prepared.report, -1),
                None => None,
            };
        }
        // A user's run in a prepared root: its own user namespace, nested in the one that
        // owns the root, once every mount of its own is made (the new namespace holds no
        // capability over the mounts), so that its tasks, the keeper's and the program's, are
        // the only ones RLIMIT_NPROC counts.
        if let Some((_, maps)) = &prepared.owner {
            if !crate::sandbox::pids::own_user_namespace(maps) {
                fail(prepared.report, -3);
            }
        }
        let report = prepared.report;
        let [input, output, errors] = prepared.fds;
        let program = libc::fork();
        if program == 0 {
            libc::close(figures);
            become_program(prepared);
        }
        if program < 0 {
            fail(report, -2);
        }
        // What the program holds is its own: the launcher must see its pipes end with it.
        for fd in [report, input, output, errors, 0] {
            libc::close(fd);
        }
        crate::sandbox::pids::keep(program, figures, &tmpfs, back)
    }
}

/// In the forked child: enters the sandbox (when asked) and becomes the program.
///
/// # Safety
/// Only in a forked child of the single-threaded launcher.
unsafe fn become_program(prepared: Prepared) -> ! {
    let Prepared {
        path,
        argv: _argv,
        argv_ptrs,
        env,
        envp,
        scratch,
        tmpfs: _,
        ruleset,
        root: _,
        prepared: _,
        owner: _,
        net: _,
        new_net: _,
        run_as,
        filter,
        limit,
        tasks,
        files,
        fds,
        joins,
        report,
    } = prepared;
    unsafe {
        // The wall clock's start, before any CPU time of the program's is spent.
        let forked = monotonic_ns().to_ne_bytes();
        libc::write(report, forked.as_ptr().cast(), 8);
        // First, so that all it does and all it forks is counted.
        for fd in joins {
            libc::write(fd, b"0".as_ptr().cast(), 1);
        }
        // A blocked signal and an ignored one pass through exec: the judge blocks SIGINT,
        // SIGTERM and SIGHUP for its handler thread, the launcher ignores SIGINT, SIGHUP and
        // SIGQUIT, and Rust ignores SIGPIPE. The run gets what a shell gives: nothing blocked,
        // every disposition the default (a multiprocessing Pool whose workers never saw its
        // SIGTERM hung one run in ten).
        let mut none: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut none);
        libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut());
        // The kernel's own call, as the C library's refuses the two signals it keeps for
        // itself (32 and 33, which the judge's threads leave ignored): a zeroed action is
        // SIG_DFL with no flags and an empty mask.
        let default = [0u64; 4];
        for signal in 1..=64 {
            if signal != libc::SIGKILL && signal != libc::SIGSTOP {
                libc::syscall(libc::SYS_rt_sigaction, signal, default.as_ptr(), std::ptr::null_mut::<u64>(), 8);
            }
        }
        match &scratch {
            // Its own session: no controlling terminal to read or write.
            Some(_) => {
                libc::setsid();
            }
            None => {
                libc::setpgid(0, 0);
            }
        }
        libc::dup2(fds[0], 0);
        libc::dup2(fds[1], 1);
        libc::dup2(fds[2], 2);
        libc::setrlimit(libc::RLIMIT_CPU, &limit);
        if let Some(tasks) = &tasks {
            libc::setrlimit(libc::RLIMIT_NPROC, tasks);
        }
        if let Some(files) = &files {
            libc::setrlimit(libc::RLIMIT_FSIZE, files);
        }
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0);
        // A sandboxed run gets its own environment (`envp`), none of the judge's.
        if envp.is_none() {
            for (k, v) in &env {
                libc::setenv(k.as_ptr(), v.as_ptr(), 1);
            }
        }
        if let Some(dir) = &scratch {
            if libc::chdir(dir.as_ptr()) != 0 {
                fail(report, *libc::__errno_location());
            }
        }
        // Everything above that needed a privilege is done: a root judge's run becomes its
        // own user, then holds no capability.
        if let Some((uid, gid)) = run_as {
            if !crate::sandbox::privileges::become_user(uid, gid) {
                fail(report, -7);
            }
        }
        if scratch.is_some() && !crate::sandbox::privileges::drop_all() {
            fail(report, -4);
        }
        if let Some(rules) = ruleset {
            if !crate::sandbox::files::apply(rules) {
                // Not a real errno: the parent reads it as "could not enter the sandbox".
                fail(report, -1);
            }
        }
        // Last, once Landlock is in: where the kernel refuses the filter the run goes on
        // without it (`--sandbox strict` has refused to start on such a kernel).
        if let Some(filter) = &filter {
            crate::sandbox::syscalls::apply(filter);
        }
        match &envp {
            Some((_, pointers)) => libc::execve(path.as_ptr(), argv_ptrs.as_ptr(), pointers.as_ptr()),
            None => libc::execv(path.as_ptr(), argv_ptrs.as_ptr()),
        };
        fail(report, *libc::__errno_location())
    }
}

/// The file `program` names: itself when it has a `/`, else the first executable file of
/// that name in the directories of PATH (the request's, if it sets one), as a shell finds it.
fn find_program(program: &std::ffi::OsStr, env: &[(std::ffi::OsString, std::ffi::OsString)]) -> std::ffi::OsString {
    use std::os::unix::fs::PermissionsExt;
    if program.as_bytes().contains(&b'/') {
        return program.to_owned();
    }
    let path = env.iter().rev().find(|(k, _)| k == "PATH").map(|(_, v)| v.clone()).or_else(|| std::env::var_os("PATH"));
    let dirs = path.unwrap_or_else(|| "/usr/local/bin:/usr/bin:/bin".into());
    std::env::split_paths(&dirs)
        .map(|dir| dir.join(program))
        .find(|p| std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0))
        .map_or_else(|| program.to_owned(), std::path::PathBuf::into_os_string)
}
