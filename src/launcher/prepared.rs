//! The roots a launcher prepares once and its runs reuse, as go-judge makes a container once:
//! for each distinct plan (the same program with the same grants, in the same scratch
//! folder) a mount namespace whose root is already made ([`crate::sandbox::root::prepare`]),
//! held open by a descriptor; each run's keeper enters a copy of it and adds only what is its
//! own: a `/proc`, a scratch tmpfs, a `/dev/shm` ([`crate::sandbox::root::enter`]). Making the
//! root per run took some 90 mounts and a copy and detach of the machine's mount table.
//!
//! A prepared root holds nothing a run can change (its tmpfs is read-only, what a run writes
//! is in its own mounts), so nothing of one run reaches the next. Its binds hold the files
//! they were made of: a plan whose sources are no longer those files (a program rebuilt in
//! place) is prepared again.
//!
//! A judge that is not root prepares them too, in one user namespace of the launcher's own
//! (its IDs mapped to themselves), made with its first root and held open: the roots are that
//! namespace's, so a run's first process, which enters it (the launcher's user owns it, which
//! gives it every capability there), may enter a copy of one; its keeper mounts what is the
//! run's own, then makes a user namespace nested in it for the run alone, where RLIMIT_NPROC
//! counts the run's tasks and nothing else (see [`super::spawn`]).

use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

/// How many prepared roots a launcher keeps (a judge runs one program, a checker and a few
/// builds on each thread); past it the least recently used goes.
const KEEP: usize = 8;

/// A launcher's prepared roots, least recently used first.
#[derive(Default)]
pub(super) struct Roots {
    made: Vec<(Vec<u8>, OwnedFd)>,
    /// A user's judge's: the user namespace that owns its roots, made with the first.
    owner: Option<OwnedFd>,
    /// A user's judge's: the empty network namespace its runs join, made with `owner`
    /// where the kernel allows (see [`crate::sandbox::network::user_support`]).
    net: Option<OwnedFd>,
    /// A user's judge's kernel refused a prepared root once: its runs make theirs, as they
    /// would, without two forks a run that would fail again first.
    refused: bool,
}

impl Roots {
    /// The namespace of `plan`'s prepared root, made now if it was not, by a root judge
    /// (`user` none) or in the user namespace of a user's (`user` its ID maps); `None` where
    /// the kernel refuses (the keeper then makes the root itself).
    pub(super) fn get(
        &mut self,
        plan: &crate::sandbox::root::Plan,
        user: Option<&crate::sandbox::pids::IdMaps>,
    ) -> Option<RawFd> {
        let key = crate::sandbox::root::identity(plan)?;
        let at = match self.made.iter().position(|(k, _)| *k == key) {
            Some(at) => at,
            None => {
                let fd = match user {
                    None => make(plan)?,
                    Some(_) if self.refused => return None,
                    Some(maps) => {
                        let made = make_owned(plan, maps, self.owner.as_ref().map(AsRawFd::as_raw_fd));
                        self.refused = made.is_none();
                        let (fd, owner, net) = made?;
                        if self.owner.is_none() {
                            self.owner = Some(owner);
                            self.net = net;
                        }
                        fd
                    }
                };
                if self.made.len() >= KEEP {
                    self.made.remove(0);
                }
                self.made.push((key, fd));
                self.made.len() - 1
            }
        };
        let entry = self.made.remove(at);
        let fd = entry.1.as_raw_fd();
        self.made.push(entry);
        Some(fd)
    }

    /// The user namespace that owns a user's judge's roots, once one is made.
    pub(super) fn owner(&self) -> Option<RawFd> {
        self.owner.as_ref().map(AsRawFd::as_raw_fd)
    }

    /// The network namespace made with [`Roots::owner`], if one was.
    pub(super) fn net(&self) -> Option<RawFd> {
        self.net.as_ref().map(AsRawFd::as_raw_fd)
    }
}

/// For a judge that is not root: prepares `plan`'s root in the user namespace `owner`, or in
/// a new one with `maps` when there is none yet, and returns the root's mount namespace and
/// that user namespace (and, with a new one, an empty network namespace it owns, where the
/// kernel allows one). The root is made by a grandchild, init of a PID namespace that ends
/// with it, so the `/proc` it leaves there under each run's own shows no process at all; it
/// sends both namespaces back over a socket, and both children are gone on return.
fn make_owned(
    plan: &crate::sandbox::root::Plan,
    maps: &crate::sandbox::pids::IdMaps,
    owner: Option<RawFd>,
) -> Option<(OwnedFd, OwnedFd, Option<OwnedFd>)> {
    let net = owner.is_none() && crate::sandbox::network::user_support();
    let (ours, theirs) = super::socket_pair().ok()?;
    // SAFETY: the launcher is single-threaded; the children allocate, mount and exit.
    let pid = unsafe { libc::fork() };
    if pid == 0 {
        // SAFETY: in the child, which never returns.
        unsafe {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
            drop(ours);
            let entered = match owner {
                Some(fd) => libc::setns(fd, libc::CLONE_NEWUSER) == 0,
                None => crate::sandbox::pids::own_user_namespace(maps),
            };
            if !entered || libc::unshare(libc::CLONE_NEWPID) != 0 {
                libc::_exit(1);
            }
            let init = libc::fork();
            if init == 0 {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
                let none = std::ptr::null::<libc::c_char>();
                let private = libc::MS_REC | libc::MS_PRIVATE;
                let flags = libc::CLONE_NEWNS | if net { libc::CLONE_NEWNET } else { 0 };
                if libc::unshare(flags) == 0
                    && libc::mount(none, b"/\0".as_ptr().cast(), none, private, std::ptr::null()) == 0
                {
                    let open = |path: &[u8]| libc::open(path.as_ptr().cast(), libc::O_RDONLY | libc::O_CLOEXEC);
                    let (mnt, user) = (open(b"/proc/self/ns/mnt\0"), open(b"/proc/self/ns/user\0"));
                    let mut fds = vec![mnt, user];
                    if net {
                        fds.push(open(b"/proc/self/ns/net\0"));
                    }
                    if fds.iter().all(|&fd| fd >= 0) && crate::sandbox::root::prepare(plan, true).is_ok() {
                        let _ = super::send(theirs.as_raw_fd(), b"1", &fds);
                    }
                }
                libc::_exit(0)
            }
            drop(theirs);
            let mut status = 0;
            while init > 0 && libc::waitpid(init, &mut status, 0) < 0 && *libc::__errno_location() == libc::EINTR {}
            libc::_exit(0)
        }
    }
    drop(theirs);
    let got = if pid > 0 { super::receive(ours.as_raw_fd()).ok().flatten() } else { None };
    if pid > 0 {
        let mut status = 0;
        // SAFETY: waiting for our own child.
        while unsafe { libc::waitpid(pid, &mut status, 0) } < 0
            && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted
        {}
    }
    let (data, mut fds) = got?;
    if data != b"1" || fds.len() != 2 + usize::from(net) {
        return None;
    }
    let net = if net { fds.pop() } else { None };
    let user = fds.pop()?;
    Some((fds.pop()?, user, net))
}

/// Prepares `plan`'s root in a child of its own mount namespace, and holds that namespace
/// open; the child then exits.
fn make(plan: &crate::sandbox::root::Plan) -> Option<OwnedFd> {
    let (mut ready, mut hold) = ([0; 2], [0; 2]);
    // SAFETY: pipe2 writes two new fds each.
    unsafe {
        if libc::pipe2(ready.as_mut_ptr(), libc::O_CLOEXEC) != 0 {
            return None;
        }
        if libc::pipe2(hold.as_mut_ptr(), libc::O_CLOEXEC) != 0 {
            libc::close(ready[0]);
            libc::close(ready[1]);
            return None;
        }
    }
    // SAFETY: the launcher is single-threaded; the child allocates, mounts and exits.
    let pid = unsafe { libc::fork() };
    if pid == 0 {
        // SAFETY: in the child, which never returns.
        unsafe {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
            libc::close(ready[0]);
            libc::close(hold[1]);
            let none = std::ptr::null::<libc::c_char>();
            let made = libc::unshare(libc::CLONE_NEWNS) == 0
                && libc::mount(none, b"/\0".as_ptr().cast(), none, libc::MS_REC | libc::MS_PRIVATE, std::ptr::null())
                    == 0
                && crate::sandbox::root::prepare(plan, false).is_ok();
            if made {
                libc::write(ready[1], b"1".as_ptr().cast(), 1);
                // Held until the launcher has opened the namespace.
                let mut byte = 0u8;
                libc::read(hold[0], (&mut byte as *mut u8).cast(), 1);
            }
            libc::_exit(0)
        }
    }
    // SAFETY: closing the child's ends; reading one byte; opening a file of /proc.
    unsafe {
        libc::close(ready[1]);
        libc::close(hold[0]);
        let mut byte = 0u8;
        let made = pid > 0 && libc::read(ready[0], (&mut byte as *mut u8).cast(), 1) == 1;
        let fd = if made {
            let path = std::ffi::CString::new(format!("/proc/{pid}/ns/mnt")).unwrap_or_default();
            libc::open(path.as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC)
        } else {
            -1
        };
        libc::close(ready[0]);
        libc::close(hold[1]);
        if pid > 0 {
            let mut status = 0;
            while libc::waitpid(pid, &mut status, 0) < 0 && *libc::__errno_location() == libc::EINTR {}
        }
        (fd >= 0).then(|| OwnedFd::from_raw_fd(fd))
    }
}
