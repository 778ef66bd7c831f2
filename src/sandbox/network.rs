//! A network namespace of the runs' own, empty (its loopback down): made once per launcher
//! and joined by each run's keeper, as go-judge pre-forks its containers, since making one a
//! run cost some 0.7 ms and its teardown more. A root judge's launcher makes it here; a
//! user's launcher makes it with the user namespace that owns its prepared roots
//! (`launcher::prepared`), where its runs' first process may join it, or, where no root is
//! prepared, each run makes its own. The seccomp filter closes the network too (no socket but
//! a Unix one, no io_uring): the namespace is the wall behind it.

use std::os::fd::{AsRawFd, OwnedFd};

fn open_own() -> Option<OwnedFd> {
    std::fs::File::open("/proc/self/ns/net").ok().map(OwnedFd::from)
}

/// In the launcher, at its start: a new, empty network namespace, held by the fd returned;
/// the launcher itself stays in its own. `None` where it may not make one (not root).
pub fn prepare() -> Option<OwnedFd> {
    let own = open_own()?;
    // SAFETY: flag-only unshare, then setns back on a namespace fd we hold.
    unsafe {
        if libc::unshare(libc::CLONE_NEWNET) != 0 {
            return None;
        }
        let empty = open_own();
        if libc::setns(own.as_raw_fd(), libc::CLONE_NEWNET) != 0 {
            // The launcher cannot get back: it would lose nothing it needs (it makes no
            // sockets but Unix ones), but say nothing was made.
            return None;
        }
        empty
    }
}

/// In a run's keeper, before it forks the program: joins the prepared namespace. Whether it
/// did.
pub fn join(prepared: &OwnedFd) -> bool {
    // SAFETY: setns on a namespace fd the launcher holds open.
    unsafe { libc::setns(prepared.as_raw_fd(), libc::CLONE_NEWNET) == 0 }
}

/// Whether a user's runs get the namespace: one made in a user namespace of the user's own
/// (probed in a throwaway child).
pub fn user_support() -> bool {
    static PROBED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *PROBED.get_or_init(|| {
        let maps = super::pids::IdMaps::own();
        // SAFETY: raw system calls only, in the throwaway child.
        let made = || unsafe { super::pids::own_user_namespace(&maps) && libc::unshare(libc::CLONE_NEWNET) == 0 };
        super::probe::in_child(|| i32::from(!made())) == Some(0)
    })
}

/// Whether runs here get the namespace: a judge run as root (probed in a throwaway child).
pub fn support() -> bool {
    static PROBED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *PROBED.get_or_init(|| super::probe::in_child(|| i32::from(prepare().is_none())) == Some(0))
}
