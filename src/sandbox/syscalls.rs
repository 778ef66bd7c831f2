//! A seccomp filter that refuses the system calls no solver or checker needs and that a
//! hostile program could harm the machine, escape or reach the network with: reboot, kernel
//! modules, kexec, the clock, swap, mounts (the old and the new mount API), namespaces (by
//! `unshare`, `setns` and `clone`'s namespace flags), tracing other processes, keyrings, BPF,
//! perf events, device nodes, file handles and io_uring (whose requests make sockets and
//! open files without the calls this filter checks, which is why isolate refuses it too).
//! Each is refused with EPERM, as a judge's seccomp policy does, rather than killing the
//! program: the verdict then comes from what the program makes of the error.
//!
//! Sockets: only Unix ones (`AF_UNIX`, which Python's multiprocessing pairs) may be made, by
//! `socket` or `socketpair`; every other family (the internet's, raw packets, netlink, which
//! reconfigures the machine's network as root) is refused with EACCES. `clone3` answers
//! ENOSYS: its flags sit in memory a filter cannot read, and the C library then falls back to
//! `clone`, whose flags it can.
//!
//! It is a deny list (a solver in C, Python, Java or Go may use any ordinary call), so it
//! also refuses every call of a foreign ABI, whose numbers it cannot check (32-bit calls on
//! x86-64, x32 calls).

use libc::{sock_filter, sock_fprog};

/// The calls refused, by the numbers of the architecture this judge was built for.
const REFUSED: &[libc::c_long] = &[
    libc::SYS_reboot,
    libc::SYS_kexec_load,
    libc::SYS_kexec_file_load,
    libc::SYS_init_module,
    libc::SYS_finit_module,
    libc::SYS_delete_module,
    libc::SYS_swapon,
    libc::SYS_swapoff,
    libc::SYS_settimeofday,
    libc::SYS_clock_settime,
    libc::SYS_clock_adjtime,
    libc::SYS_adjtimex,
    libc::SYS_sethostname,
    libc::SYS_setdomainname,
    libc::SYS_acct,
    libc::SYS_quotactl,
    libc::SYS_mount,
    libc::SYS_umount2,
    libc::SYS_pivot_root,
    libc::SYS_chroot,
    libc::SYS_open_tree,
    libc::SYS_move_mount,
    libc::SYS_fsopen,
    libc::SYS_fsconfig,
    libc::SYS_fsmount,
    libc::SYS_fspick,
    libc::SYS_mount_setattr,
    libc::SYS_unshare,
    libc::SYS_setns,
    libc::SYS_ptrace,
    libc::SYS_process_vm_readv,
    libc::SYS_process_vm_writev,
    libc::SYS_pidfd_getfd,
    libc::SYS_keyctl,
    libc::SYS_add_key,
    libc::SYS_request_key,
    libc::SYS_bpf,
    libc::SYS_perf_event_open,
    libc::SYS_userfaultfd,
    libc::SYS_open_by_handle_at,
    libc::SYS_name_to_handle_at,
    libc::SYS_mknodat,
    libc::SYS_fanotify_init,
    libc::SYS_syslog,
    libc::SYS_vhangup,
    libc::SYS_io_uring_setup,
    libc::SYS_io_uring_enter,
    libc::SYS_io_uring_register,
    // System V shared memory and message queues: memory no figure of a user's run sees
    // (POSIX shared memory, in the run's counted /dev/shm, is what runtimes use).
    libc::SYS_shmget,
    libc::SYS_msgget,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_mknod,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_iopl,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_ioperm,
];

/// `clone`'s flags that make new namespaces (`CLONE_NEWTIME` is 0x80, in the byte that
/// otherwise holds the exit signal, which never reaches it).
const NAMESPACE_FLAGS: u32 = (libc::CLONE_NEWNS
    | libc::CLONE_NEWCGROUP
    | libc::CLONE_NEWUTS
    | libc::CLONE_NEWIPC
    | libc::CLONE_NEWUSER
    | libc::CLONE_NEWPID
    | libc::CLONE_NEWNET) as u32
    | 0x80;

#[cfg(target_arch = "x86_64")]
const ARCH: u32 = 0xC000_003E; // AUDIT_ARCH_X86_64
#[cfg(target_arch = "aarch64")]
const ARCH: u32 = 0xC000_00B7; // AUDIT_ARCH_AARCH64

/// x32 calls are x86-64 calls with this bit set: the same numbers would slip past the list.
const X32_BIT: u32 = 0x4000_0000;

const RET_ALLOW: u32 = 0x7fff_0000;
const RET_ERRNO: u32 = 0x0005_0000;

/// A filter built ahead of the fork, so the child only installs it.
pub struct Filter(Vec<sock_filter>);

/// Where a jump goes: the next instruction, or one of the returns at the program's end.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum To {
    Next,
    /// Past this many of the ops that follow.
    Skip(u8),
    Allow,
    /// EPERM: a refused call.
    Deny,
    /// EACCES: a refused socket family, as Landlock answers a refused connect.
    NoSocket,
    /// ENOSYS: `clone3`, so that the C library falls back to `clone`.
    NoCall,
}

/// The returns, in the order they end the program.
const RETURNS: [To; 4] = [To::Allow, To::Deny, To::NoSocket, To::NoCall];

fn ret_value(to: To) -> u32 {
    match to {
        To::Allow | To::Next | To::Skip(_) => RET_ALLOW,
        To::Deny => RET_ERRNO | libc::EPERM as u32,
        To::NoSocket => RET_ERRNO | libc::EACCES as u32,
        To::NoCall => RET_ERRNO | libc::ENOSYS as u32,
    }
}

/// One instruction before the returns: a load of a word of `seccomp_data`, or a conditional
/// jump on the accumulator (`set`: a bit test rather than equality).
enum Op {
    Load(u32),
    Jump { ge: bool, set: bool, k: u32, yes: To, no: To },
}

fn is(k: u32, yes: To) -> Op {
    Op::Jump { ge: false, set: false, k, yes, no: To::Next }
}

/// Lays the ops out, then the returns, resolving each jump to a relative offset.
fn assemble(ops: &[Op]) -> Vec<sock_filter> {
    use libc::{BPF_ABS, BPF_JEQ, BPF_JGE, BPF_JMP, BPF_JSET, BPF_K, BPF_LD, BPF_RET, BPF_W};
    let end = ops.len();
    let offset = |at: usize, to: To| -> u8 {
        let target = match to {
            To::Next => at + 1,
            To::Skip(n) => at + 1 + usize::from(n),
            other => end + RETURNS.iter().position(|r| *r == other).expect("a return"),
        };
        u8::try_from(target - at - 1).expect("the filter is short enough for one-byte jumps")
    };
    let mut prog: Vec<sock_filter> = ops
        .iter()
        .enumerate()
        .map(|(at, op)| match *op {
            Op::Load(k) => sock_filter { code: (BPF_LD | BPF_W | BPF_ABS) as u16, jt: 0, jf: 0, k },
            Op::Jump { ge, set, k, yes, no } => {
                let cond = if set {
                    BPF_JSET
                } else if ge {
                    BPF_JGE
                } else {
                    BPF_JEQ
                };
                sock_filter { code: (BPF_JMP | cond | BPF_K) as u16, jt: offset(at, yes), jf: offset(at, no), k }
            }
        })
        .collect();
    prog.extend(RETURNS.iter().map(|&to| sock_filter {
        code: (BPF_RET | BPF_K) as u16,
        jt: 0,
        jf: 0,
        k: ret_value(to),
    }));
    prog
}

/// `seccomp_data`: the call's number at offset 0, the architecture at 4, the low word of the
/// first argument at 16 (these machines are little-endian).
const NR: u32 = 0;
const ARCH_AT: u32 = 4;
const ARG0: u32 = 16;

/// The filter's ops for this architecture.
fn ops() -> Vec<Op> {
    let mut ops =
        vec![Op::Load(ARCH_AT), Op::Jump { ge: false, set: false, k: ARCH, yes: To::Next, no: To::Deny }, Op::Load(NR)];
    if cfg!(target_arch = "x86_64") {
        ops.push(Op::Jump { ge: true, set: false, k: X32_BIT, yes: To::Deny, no: To::Next });
    }
    ops.push(is(libc::SYS_clone3 as u32, To::NoCall));
    ops.extend(REFUSED.iter().map(|&nr| is(nr as u32, To::Deny)));
    // The calls judged by their first argument, each: not this call, skip its two checks.
    let by_argument: [(libc::c_long, Op); 3] = [
        (
            libc::SYS_socket,
            Op::Jump { ge: false, set: false, k: libc::AF_UNIX as u32, yes: To::Allow, no: To::NoSocket },
        ),
        (
            libc::SYS_socketpair,
            Op::Jump { ge: false, set: false, k: libc::AF_UNIX as u32, yes: To::Allow, no: To::NoSocket },
        ),
        (libc::SYS_clone, Op::Jump { ge: false, set: true, k: NAMESPACE_FLAGS, yes: To::Deny, no: To::Allow }),
    ];
    for (nr, check) in by_argument {
        // Not this call: past its load and check, with the call's number still loaded (a
        // check always returns).
        ops.push(Op::Jump { ge: false, set: false, k: nr as u32, yes: To::Next, no: To::Skip(2) });
        ops.push(Op::Load(ARG0));
        ops.push(check);
    }
    // Falling off the end is the first return: allow.
    ops
}

/// The filter for this architecture; `None` on one it was not written for.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub fn filter() -> Option<Filter> {
    Some(Filter(assemble(&ops())))
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
pub fn filter() -> Option<Filter> {
    None
}

/// Installs `filter` on the calling thread (between fork and exec: no allocation); whether
/// the kernel took it.
pub fn apply(filter: &Filter) -> bool {
    let prog = sock_fprog { len: filter.0.len() as u16, filter: filter.0.as_ptr() as *mut sock_filter };
    // SAFETY: prctl with plain integers, then with a pointer to a program that outlives the
    // call (the kernel copies it).
    unsafe {
        libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0
            && libc::prctl(libc::PR_SET_SECCOMP, libc::SECCOMP_MODE_FILTER, &prog as *const sock_fprog) == 0
    }
}

/// Whether this kernel takes the filter: tried in a child that exits at once.
pub fn supported() -> Result<(), String> {
    let Some(filter) = filter() else { return Err("no seccomp filter for this architecture".into()) };
    match super::probe::in_child(|| if apply(&filter) { 0 } else { 1 }) {
        Some(0) => Ok(()),
        Some(_) => Err("the kernel refused a seccomp filter".into()),
        None => Err(format!("cannot try seccomp in a child: {}", std::io::Error::last_os_error())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_jump_lands_inside_the_program_and_it_ends_in_its_returns() {
        let Some(Filter(prog)) = filter() else { return };
        assert!(prog.len() < 256, "jump offsets are one byte");
        let returns = prog.len() - RETURNS.len();
        for (at, op) in prog.iter().enumerate() {
            let class = u32::from(op.code) & 0x07;
            if class == libc::BPF_JMP {
                for target in [at + 1 + op.jt as usize, at + 1 + op.jf as usize] {
                    assert!(target < prog.len(), "instruction {at} jumps out of the program");
                }
            }
            assert_eq!(class == libc::BPF_RET, at >= returns, "instruction {at}");
        }
        assert_eq!(prog[returns].k, RET_ALLOW);
    }

    /// Runs `probe` in a child under the filter; whether it returned true.
    fn under_filter(probe: fn() -> bool) -> Option<bool> {
        let filter = filter()?;
        supported().ok()?;
        let code = crate::sandbox::probe::in_child(|| {
            if !apply(&filter) {
                return 2;
            }
            i32::from(!probe())
        });
        assert_ne!(code, Some(2), "the filter was not installed");
        Some(code == Some(0))
    }

    fn errno() -> i32 {
        // SAFETY: reading this thread's errno.
        unsafe { *libc::__errno_location() }
    }

    #[test]
    fn only_unix_sockets_are_made_by_either_call() {
        let ok = under_filter(|| {
            // SAFETY: raw calls in a child that then exits; fds left open die with it.
            unsafe {
                let refused = |family| libc::socket(family, libc::SOCK_DGRAM, 0) < 0 && errno() == libc::EACCES;
                let mut pair = [0; 2];
                refused(libc::AF_INET)
                    && refused(libc::AF_INET6)
                    && refused(libc::AF_NETLINK)
                    && refused(libc::AF_PACKET)
                    && libc::socketpair(libc::AF_INET, libc::SOCK_STREAM, 0, pair.as_mut_ptr()) < 0
                    && libc::socket(libc::AF_UNIX, libc::SOCK_STREAM, 0) >= 0
                    && libc::socketpair(libc::AF_UNIX, libc::SOCK_STREAM, 0, pair.as_mut_ptr()) == 0
                    && libc::getpid() > 0
            }
        });
        assert_ne!(ok, Some(false));
    }

    #[test]
    fn io_uring_and_the_new_mount_api_are_refused() {
        let ok = under_filter(|| {
            // SAFETY: each call is refused before it reads its arguments; were it not, setup
            // with zero entries and a null pointer fails with EINVAL or EFAULT, not EPERM.
            unsafe {
                let refused = |r: libc::c_long| r < 0 && errno() == libc::EPERM;
                refused(libc::syscall(libc::SYS_io_uring_setup, 0, std::ptr::null_mut::<u8>()))
                    && refused(libc::syscall(libc::SYS_io_uring_enter, 0, 0, 0, 0, std::ptr::null_mut::<u8>(), 0))
                    && refused(libc::syscall(libc::SYS_fsopen, b"tmpfs\0".as_ptr(), 0))
                    && refused(libc::syscall(libc::SYS_open_tree, libc::AT_FDCWD, b"/\0".as_ptr(), 0))
            }
        });
        assert_ne!(ok, Some(false));
    }

    #[test]
    fn threads_and_children_are_made_but_namespaces_are_not() {
        let ok = under_filter(|| {
            // clone3 answers ENOSYS (a C library then makes its threads with clone), a
            // child is forked, and a clone asking for a new network namespace is refused.
            // (No thread is made: the test binary has threads, whose locks a forked child
            // could find held.)
            // SAFETY: raw calls in a child; the grandchild exits at once.
            unsafe {
                let child = libc::fork();
                if child == 0 {
                    libc::_exit(0);
                }
                let clone3 =
                    libc::syscall(libc::SYS_clone3, std::ptr::null_mut::<u8>(), 0) < 0 && errno() == libc::ENOSYS;
                let forked = child > 0 && libc::waitpid(child, std::ptr::null_mut(), 0) == child;
                let flags = (libc::CLONE_NEWNET | libc::SIGCHLD) as libc::c_ulong;
                let ns = libc::syscall(libc::SYS_clone, flags, 0, 0, 0, 0);
                if ns == 0 {
                    libc::_exit(0);
                }
                clone3 && forked && ns < 0 && errno() == libc::EPERM
            }
        });
        assert_ne!(ok, Some(false));
    }
}
