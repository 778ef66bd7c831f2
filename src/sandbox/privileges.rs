//! A run holds no privilege: between fork and exec, every capability leaves every set
//! (bounding, ambient, inheritable, permitted, effective) and the securebits are locked so
//! that `exec` gives none back, not even to a program run by root (whose files the kernel
//! otherwise treats as carrying every capability). With `no_new_privs` (set by the seccomp
//! filter and Landlock), a set-user-ID program gains nothing either.
//!
//! What this stops: a solver run by a root judge reconfiguring the machine's network through
//! netlink, mounting with the new mount API, taking real-time scheduling or locking memory,
//! reading files whatever their mode. A judge that is not root runs programs in a user
//! namespace (see [`super::pids`]), where they would hold every capability of that namespace:
//! those go too.

/// `_LINUX_CAPABILITY_VERSION_3`: two 32-bit words per set.
const CAPABILITY_V3: u32 = 0x2008_0522;

#[repr(C)]
struct Header {
    version: u32,
    pid: libc::c_int,
}

#[repr(C)]
#[derive(Clone, Copy, Default)]
struct Sets {
    effective: u32,
    permitted: u32,
    inheritable: u32,
}

/// SECBIT_NOROOT, SECBIT_NO_SETUID_FIXUP and SECBIT_KEEP_CAPS' lock, each with its lock: root
/// gains nothing by `exec`, and no one may change that.
const SECUREBITS: libc::c_ulong = 0b10_1111;

/// In the forked child, before exec: drops every capability. Raw system calls only. Whether
/// the effective and permitted sets are now empty (the bounding set can only be emptied by
/// a process holding `CAP_SETPCAP`; one without it could never regain a capability anyway,
/// under `no_new_privs`).
pub fn drop_all() -> bool {
    // SAFETY: prctl and capset with integers and pointers to our own structs.
    unsafe {
        for cap in 0..64 {
            // EINVAL past the kernel's last capability; EPERM without CAP_SETPCAP.
            libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0);
        }
        libc::prctl(libc::PR_CAP_AMBIENT, libc::PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
        libc::prctl(libc::PR_SET_SECUREBITS, SECUREBITS, 0, 0, 0);
        let header = Header { version: CAPABILITY_V3, pid: 0 };
        let none = [Sets::default(); 2];
        libc::syscall(libc::SYS_capset, &header as *const Header, none.as_ptr());
        let mut now = [Sets { effective: 1, permitted: 1, inheritable: 1 }; 2];
        libc::syscall(libc::SYS_capget, &header as *const Header, now.as_mut_ptr()) == 0
            && now.iter().all(|s| s.effective == 0 && s.permitted == 0 && s.inheritable == 0)
    }
}

/// In the forked child of a root judge, before [`drop_all`]: becomes `uid` and `gid` with no
/// other group, keeping the capabilities only until `drop_all` empties every set (the
/// securebits say a change of user clears nothing, and lock that). Raw system calls only.
/// Whether the process is now that user and group alone.
pub fn become_user(uid: u32, gid: u32) -> bool {
    // SAFETY: prctl and the set*id calls with integers and a pointer to our own array.
    unsafe {
        for cap in 0..64 {
            libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0);
        }
        libc::prctl(libc::PR_CAP_AMBIENT, libc::PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
        libc::prctl(libc::PR_SET_SECUREBITS, SECUREBITS, 0, 0, 0);
        let groups = [gid];
        libc::setgroups(1, groups.as_ptr()) == 0
            && libc::setresgid(gid, gid, gid) == 0
            && libc::setresuid(uid, uid, uid) == 0
            && libc::getuid() == uid
            && libc::getgid() == gid
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_child_that_drops_them_holds_no_capability_even_as_root() {
        let code = crate::sandbox::probe::in_child(|| {
            if !super::drop_all() {
                return 1;
            }
            // SAFETY: raw calls in a child that then exits. As root, a capability would let
            // it change its bounding set back or set a real-time policy.
            unsafe {
                let param = libc::sched_param { sched_priority: 1 };
                let fifo = libc::sched_setscheduler(0, libc::SCHED_FIFO, &param);
                let bounding = libc::prctl(libc::PR_CAPBSET_READ, 21 /* CAP_SYS_ADMIN */, 0, 0, 0);
                let owner = libc::geteuid() == 0;
                if fifo == 0 || (owner && bounding != 0) {
                    return 3;
                }
            }
            0
        });
        assert_eq!(code, Some(0));
    }
}
