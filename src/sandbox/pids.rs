//! A run's own process tree: a PID namespace whose first process, the *keeper*, is a small
//! init of ours, with a `/proc` that shows that namespace alone.
//!
//! What it stops: a program seeing, signalling or tracing any process outside its run
//! (the judge, the launcher, other runs, the user's), and processes outliving the run. When
//! the program ends the keeper kills everything left in the namespace with one `kill(-1)`
//! and reaps it, so cleanup is linear in the processes left and never walks `/proc`; if the
//! keeper itself dies (the watchdog's kill, the launcher gone: it has `PR_SET_PDEATHSIG`),
//! the kernel kills the whole namespace at once.
//!
//! Why a keeper rather than the program as init: the kernel drops every signal that a
//! namespace's init has no handler for when it comes from inside the namespace, so a program
//! that was PID 1 could not `abort()` itself or be killed by its own `kill(getpid())`, and
//! its verdict would change. The program is the keeper's child, PID 2.
//!
//! As root the launcher makes the namespaces itself; as a user, through a user namespace
//! that maps the user's own IDs to themselves (one more process, between the launcher and the
//! keeper). Where the kernel refuses both (user namespaces turned off, as some distributions
//! and container runtimes do), [`support`] says why and runs go on as before: the launcher, a
//! child subreaper, walks and kills the tree.

use std::sync::OnceLock;

/// How runs get their namespaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The judge may make PID and mount namespaces itself (CAP_SYS_ADMIN: root).
    Root,
    /// Through a user namespace of the user's own, where the kernel lets users make one.
    User,
}

/// Whether runs can get their own PID namespace and `/proc` here, and how (`Err`: why not).
/// Probed once per process by entering them in a throwaway child, as root first, then through
/// a user namespace.
pub fn support() -> Result<Mode, String> {
    static PROBED: OnceLock<Result<Mode, String>> = OnceLock::new();
    PROBED
        .get_or_init(|| {
            probe(None).map(|()| Mode::Root).or_else(|root| match probe(Some(&IdMaps::own())) {
                Ok(()) => Ok(Mode::User),
                Err(user) => Err(format!("{root}; as a user: {user}")),
            })
        })
        .clone()
}

/// The user's own IDs, mapped to themselves in a user namespace: files keep their owners,
/// and the run is no one more powerful than the user.
#[derive(Clone, Debug)]
pub struct IdMaps {
    uid: Vec<u8>,
    gid: Vec<u8>,
}

impl IdMaps {
    pub fn own() -> IdMaps {
        // SAFETY: plain queries of the process's IDs.
        let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
        IdMaps { uid: format!("{uid} {uid} 1\n").into_bytes(), gid: format!("{gid} {gid} 1\n").into_bytes() }
    }
}

/// Writes `data` to the NUL-terminated `path` with raw system calls; whether all of it went.
fn write_file(path: &[u8], data: &[u8]) -> bool {
    // SAFETY: a NUL-terminated path and a buffer of ours.
    unsafe {
        let fd = libc::open(path.as_ptr().cast(), libc::O_WRONLY | libc::O_CLOEXEC);
        if fd < 0 {
            return false;
        }
        let written = libc::write(fd, data.as_ptr().cast(), data.len());
        libc::close(fd);
        written == data.len() as isize
    }
}

/// In a child of the launcher (or of the probe): a user namespace with `maps`, whose
/// children are born in a new PID namespace. Raw system calls only. Whether it worked.
pub fn enter_user_namespace(maps: &IdMaps) -> bool {
    // SAFETY: a flag-only system call.
    (unsafe { libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWPID) } == 0) && map_own(maps)
}

/// A user namespace with `maps` and nothing else new: the one that owns a user's judge's
/// prepared roots, or, nested in it, a run's own, where RLIMIT_NPROC counts the run's tasks
/// alone. Raw system calls only (`/proc/self` must be the caller's). Whether it worked.
pub fn own_user_namespace(maps: &IdMaps) -> bool {
    // SAFETY: a flag-only system call.
    (unsafe { libc::unshare(libc::CLONE_NEWUSER) } == 0) && map_own(maps)
}

/// Maps the IDs of the user namespace just entered.
fn map_own(maps: &IdMaps) -> bool {
    // The kernel takes a user's gid map only once setgroups is denied.
    write_file(b"/proc/self/setgroups\0", b"deny")
        && write_file(b"/proc/self/uid_map\0", &maps.uid)
        && write_file(b"/proc/self/gid_map\0", &maps.gid)
}

/// Enters the namespaces as root (`maps` none) or through a user namespace, in a throwaway
/// child, and forks a keeper that makes its own `/proc`.
fn probe(maps: Option<&IdMaps>) -> Result<(), String> {
    // SAFETY: raw system calls only, on memory prepared before the fork (see `in_child`).
    let status = super::probe::in_child(|| unsafe {
        let entered = match maps {
            None => libc::unshare(libc::CLONE_NEWPID) == 0,
            Some(maps) => enter_user_namespace(maps),
        };
        if !entered {
            return 10 + (*libc::__errno_location()).min(100);
        }
        let keeper = libc::fork();
        if keeper == 0 {
            libc::_exit(if private_views() { 0 } else { 200 });
        }
        let mut status = 0;
        if keeper < 0 || libc::waitpid(keeper, &mut status, 0) != keeper || !libc::WIFEXITED(status) {
            return 9;
        }
        libc::WEXITSTATUS(status)
    });
    let what = if maps.is_some() { "a user namespace" } else { "a PID namespace (it needs CAP_SYS_ADMIN: root)" };
    match status {
        Some(0) => Ok(()),
        Some(200) => Err("the kernel refused a private /proc (a mount namespace)".into()),
        Some(code @ 10..=110) => {
            Err(format!("the kernel refused {what} ({})", std::io::Error::from_raw_os_error(code - 10)))
        }
        _ => Err("the namespace probe failed".into()),
    }
}

/// In the keeper (PID 1 of a fresh namespace): mount, IPC and UTS namespaces of its own, with
/// a new `/proc` over the old one, so the run sees its own processes only. Whether it worked. (Not
/// a network namespace: making and tearing one down cost a run milliseconds, so the launcher
/// makes one its runs join, see [`super::network`].)
/// Raw system calls only: the probe runs it in a child of a threaded process.
pub fn private_views() -> bool {
    let none = std::ptr::null::<libc::c_char>();
    // SAFETY: constant NUL-terminated strings and null pointers, as mount(2) allows.
    unsafe {
        // Its own IPC namespace (System V objects die with the run) and host name.
        libc::unshare(libc::CLONE_NEWNS | libc::CLONE_NEWIPC | libc::CLONE_NEWUTS) == 0
            && libc::sethostname(b"judge".as_ptr().cast(), 5) == 0
            // Private first: the new /proc must not propagate back to the machine's tree.
            && libc::mount(none, b"/\0".as_ptr().cast(), none, libc::MS_REC | libc::MS_PRIVATE, std::ptr::null()) == 0
            && libc::mount(
                b"proc\0".as_ptr().cast(),
                b"/proc\0".as_ptr().cast(),
                b"proc\0".as_ptr().cast(),
                libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
                std::ptr::null(),
            ) == 0
    }
}

/// The launcher's side: makes the next `fork` the init of a new PID namespace. Call
/// [`restore`] right after forking, so later forks are ordinary again.
pub fn next_fork_in_new_namespace() -> bool {
    // SAFETY: a flag-only system call.
    unsafe { libc::unshare(libc::CLONE_NEWPID) == 0 }
}

/// Puts the launcher's later children back in its own PID namespace.
pub fn restore(own: &std::os::fd::OwnedFd) {
    use std::os::fd::AsRawFd;
    // SAFETY: setns on a namespace fd we hold open.
    unsafe { libc::setns(own.as_raw_fd(), libc::CLONE_NEWPID) };
}

/// The launcher's own PID namespace, held open so that [`restore`] can return to it.
pub fn own_namespace() -> Option<std::os::fd::OwnedFd> {
    std::fs::File::open("/proc/self/ns/pid").ok().map(std::os::fd::OwnedFd::from)
}

/// The figures the keeper sends back: the program's wait status, then the CPU (µs) and
/// largest peak RSS (KiB) of everything it reaped, then how many processes were left when
/// the program ended.
pub const REPORT_BYTES: usize = 32;

/// In the keeper, once `program` (its child) is running: reaps until the program ends, kills
/// and reaps what is left, writes the figures to `report` and exits. Never returns.
///
/// # Safety
/// Only in the keeper, a single-threaded child of the launcher.
pub unsafe fn keep(
    program: i32,
    report: i32,
    tmpfs: &[std::ffi::CString],
    back: Option<(std::fs::File, std::path::PathBuf)>,
) -> ! {
    let mut main_status = 0;
    loop {
        let mut status = 0;
        // SAFETY: a plain wait for any child; orphans of the run are re-parented to us.
        let r = unsafe { libc::waitpid(-1, &mut status, libc::__WALL) };
        if r == program {
            main_status = status;
            break;
        }
        if r < 0 && std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            break;
        }
    }
    // From PID 1, kill(-1) reaches every process of the namespace but the keeper, and none
    // outside it, and the kernel hands it to a child still being forked. One kill walks
    // every process of the machine, so it is repeated only every so many reaps, as a
    // backstop, not once a reap (quadratic in thousands of children).
    let mut leftovers = 0u64;
    loop {
        if leftovers % 256 == 0 {
            // SAFETY: a plain system call.
            unsafe { libc::kill(-1, libc::SIGKILL) };
        }
        let mut status = 0;
        // SAFETY: as above.
        let r = unsafe { libc::waitpid(-1, &mut status, libc::__WALL) };
        if r > 0 {
            leftovers += 1;
        } else if std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            break; // ECHILD: the namespace holds the keeper alone
        }
    }
    // The files the run left beside those the judge gave it, for the judge to read.
    if let Some((host, scratch)) = &back {
        super::scratch::bring_back(scratch, host);
    }
    // SAFETY: a plain C struct getrusage fills in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    let mut bytes = [0u8; REPORT_BYTES];
    // What the run's files hold once every process is gone (its tmpfs mounts are ours until
    // we exit): memory it held, whether or not a sample of the watchdog saw it.
    let files: u64 = tmpfs.iter().map(|dir| crate::sandbox::scratch::tmpfs_used_kib(dir)).sum();
    let peak = (usage.ru_maxrss.max(0) as u64).max(files);
    let figures = [main_status as u32 as u64, crate::proctree::cpu_us(&usage), peak, leftovers];
    for (slot, v) in bytes.chunks_mut(8).zip(figures) {
        slot.copy_from_slice(&v.to_le_bytes());
    }
    // SAFETY: writing our own buffer to a pipe the launcher reads after we exit.
    unsafe {
        libc::write(report, bytes.as_ptr().cast(), REPORT_BYTES);
        libc::_exit(0)
    }
}
