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
//! place) is prepared again. Only a root judge prepares roots: a user's runs each live in a
//! user namespace of their own, which may not enter a namespace another one owns.

use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

/// How many prepared roots a launcher keeps (a judge runs one program, a checker and a few
/// builds on each thread); past it the least recently used goes.
const KEEP: usize = 8;

/// A launcher's prepared roots, least recently used first.
#[derive(Default)]
pub(super) struct Roots {
    made: Vec<(Vec<u8>, OwnedFd)>,
}

impl Roots {
    /// The namespace of `plan`'s prepared root, made now if it was not; `None` where the
    /// kernel refuses (the keeper then makes the root itself, as a user's does).
    pub(super) fn get(&mut self, plan: &crate::sandbox::root::Plan) -> Option<RawFd> {
        let key = crate::sandbox::root::identity(plan)?;
        let at = match self.made.iter().position(|(k, _)| *k == key) {
            Some(at) => at,
            None => {
                let fd = make(plan)?;
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
                && crate::sandbox::root::prepare(plan).is_ok();
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
