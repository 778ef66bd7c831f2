//! The end of a run, on the launcher's side: waiting for it (or for the judge to go),
//! then killing and reaping whatever is left, and adding up the figures.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

/// How a run ended, as the launcher saw it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ended {
    /// The wait status of the program itself.
    pub status: i32,
    /// User + system CPU of the program and every descendant, in microseconds.
    pub cpu_us: u64,
    /// The largest peak RSS of any process of the run.
    pub maxrss_kib: u64,
    /// Processes of the run still alive when the program ended, killed by the launcher.
    pub leftovers: u32,
    /// The peak RSS a forked child inherits from the launcher: the floor under `maxrss_kib`.
    pub floor_kib: u64,
    /// The figures come from the run's cgroup: CPU exact, memory the peak the cgroup held
    /// (or the largest process's peak RSS, if more).
    pub cgroup: bool,
}

/// Waits until `pid` has ended (true) or the judge has closed the socket (false).
pub(super) fn wait_or_hang_up(pid: i32, sock: RawFd) -> bool {
    // SAFETY: pidfd_open takes a pid and flags.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    if fd < 0 {
        return true; // already gone, or no pidfds: collect() waits as before
    }
    // SAFETY: the fd was just returned to us.
    let pidfd = unsafe { OwnedFd::from_raw_fd(fd as RawFd) };
    ready_or_hang_up(pidfd.as_raw_fd(), sock)
}

/// Waits until `fd` is readable or has hung up (true: a pidfd whose process has ended, a
/// keeper's pipe with its figures) or the judge has closed the socket (false).
pub(super) fn ready_or_hang_up(fd: RawFd, sock: RawFd) -> bool {
    loop {
        let mut fds = [
            libc::pollfd { fd, events: libc::POLLIN, revents: 0 },
            libc::pollfd { fd: sock, events: libc::POLLIN | libc::POLLRDHUP, revents: 0 },
        ];
        // SAFETY: two pollfds we own.
        let r = unsafe { libc::poll(fds.as_mut_ptr(), 2, -1) };
        if r < 0 && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
            continue;
        }
        if fds[0].revents != 0 || r < 0 {
            return true;
        }
        // The judge sends nothing while a run goes: anything on the socket is its end.
        if fds[1].revents != 0 {
            return false;
        }
    }
}

/// Waits for `pid` to end, then kills and reaps every process of the run.
pub(super) fn collect(pid: i32) -> Ended {
    loop {
        // SAFETY: `info` is a plain C struct waitid fills in. WNOWAIT leaves the zombie, so
        // its process group cannot be reused while we clear the tree.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        let r = unsafe { libc::waitid(libc::P_PID, pid as libc::id_t, &mut info, libc::WEXITED | libc::WNOWAIT) };
        if r == 0 || io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            break;
        }
    }
    let me = std::process::id() as i32;
    let leftovers = crate::proctree::descendants(me).iter().filter(|&&p| p != pid).count() as u32;
    let mut ended = sweep(Some(pid));
    ended.leftovers = leftovers;
    ended
}

/// The figures the keeper of a run sent, once it has sent them or died: the run is over
/// then, every process of it reaped. A keeper killed before sending them (the watchdog's
/// kill, which the kernel carries to the whole namespace) is waited for and read as the
/// run's end: its own status and usage stand for the run's. `None` in `Ended`'s stead means
/// the keeper is still leaving (its namespaces going): [`reap_keeper`] it once the judge has
/// the figures.
pub(super) fn collect_keeper(keeper: i32, figures: &OwnedFd) -> (Ended, bool) {
    let mut bytes = [0u8; crate::sandbox::pids::REPORT_BYTES];
    // SAFETY: reading into our own buffer; the pipe is readable (figures, or the keeper gone).
    let n = unsafe { libc::read(figures.as_raw_fd(), bytes.as_mut_ptr().cast(), bytes.len()) };
    if n == bytes.len() as isize {
        let field = |i: usize| u64::from_le_bytes(bytes[8 * i..8 * i + 8].try_into().unwrap_or([0; 8]));
        let ended = Ended {
            status: field(0) as u32 as i32,
            cpu_us: field(1),
            maxrss_kib: field(2),
            leftovers: field(3).min(u64::from(u32::MAX)) as u32,
            ..Ended::default()
        };
        return (ended, false);
    }
    let (status, usage) = reap_keeper(keeper);
    let ended = Ended {
        status,
        cpu_us: crate::proctree::cpu_us(&usage),
        maxrss_kib: usage.ru_maxrss.max(0) as u64,
        ..Ended::default()
    };
    (ended, true)
}

/// Waits for a keeper to end (the namespaces it leaves take the kernel a moment to tear
/// down) and reaps it: its status and usage.
pub(super) fn reap_keeper(keeper: i32) -> (i32, libc::rusage) {
    let mut status = 0;
    // SAFETY: plain C structs that wait4 fills in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    while unsafe { libc::wait4(keeper, &mut status, libc::__WALL, &mut usage) } < 0 {
        if io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            break;
        }
    }
    // Nothing of the run is outside the namespace; this only makes sure.
    sweep(None);
    (status, usage)
}

/// Kills every descendant and reaps them all, adding up their figures. The status is that
/// of `main`, when it is among them.
pub(super) fn sweep(main: Option<i32>) -> Ended {
    let me = std::process::id() as i32;
    let mut ended = Ended::default();
    // One walk kills the whole tree; then every process that has died is reaped, and only
    // when some still live (or were forked meanwhile) is the tree walked again. Walking once
    // per reaped process made thousands of children cost minutes.
    // One wait4: Some(true) a process was reaped, Some(false) none has died yet (WNOHANG),
    // None nothing is left.
    let mut reap = |flags: i32| loop {
        let mut status = 0;
        // SAFETY: plain C structs that wait4 fills in.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let r = unsafe { libc::wait4(-1, &mut status, flags, &mut usage) };
        if r < 0 && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
            continue;
        }
        if r <= 0 {
            return (r == 0).then_some(false); // 0: alive and unreaped; ECHILD: none left
        }
        ended.cpu_us += crate::proctree::cpu_us(&usage);
        ended.maxrss_kib = ended.maxrss_kib.max(usage.ru_maxrss.max(0) as u64);
        if Some(r) == main {
            ended.status = status;
        }
        return Some(true);
    };
    loop {
        crate::proctree::kill_descendants(me);
        loop {
            match reap(libc::WNOHANG) {
                Some(true) => {}
                Some(false) => break,
                None => return ended,
            }
        }
        // Some are still dying: wait for one, then walk and kill again.
        if reap(0).is_none() {
            return ended;
        }
    }
}
