//! A seccomp filter that refuses the system calls no solver or checker needs and that a
//! program run as root could harm the machine or escape with: reboot, kernel modules,
//! kexec, the clock, swap, mounts, namespaces, tracing other processes, keyrings, BPF,
//! perf events, device nodes and file handles. Each is refused with EPERM, as a judge's
//! seccomp policy does, rather than killing the program: the verdict then comes from what
//! the program makes of the error.
//!
//! Landlock already refuses mounts and signals across its domain; this filter covers what it
//! does not, internet and raw sockets among them (Landlock refuses TCP only). It is a deny list (a solver in C, Python or Rust may use any ordinary call), so
//! it also refuses every call of a foreign ABI, whose numbers it cannot check (32-bit calls
//! on x86-64, x32 calls).

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
    libc::SYS_unshare,
    libc::SYS_setns,
    libc::SYS_ptrace,
    libc::SYS_process_vm_readv,
    libc::SYS_process_vm_writev,
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
    #[cfg(target_arch = "x86_64")]
    libc::SYS_mknod,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_iopl,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_ioperm,
];

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

fn stmt(code: u32, k: u32) -> sock_filter {
    sock_filter { code: code as u16, jt: 0, jf: 0, k }
}

fn jump(code: u32, k: u32, jt: u8, jf: u8) -> sock_filter {
    sock_filter { code: code as u16, jt, jf, k }
}

/// The filter for this architecture; `None` on one it was not written for.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub fn filter() -> Option<Filter> {
    use libc::{BPF_ABS, BPF_JEQ, BPF_JGE, BPF_JMP, BPF_K, BPF_LD, BPF_RET, BPF_W};
    let deny = RET_ERRNO | libc::EPERM as u32;
    // seccomp_data: nr at offset 0, arch at offset 4.
    let mut prog = vec![
        stmt(BPF_LD | BPF_W | BPF_ABS, 4),
        jump(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0),
        stmt(BPF_RET | BPF_K, deny),
        stmt(BPF_LD | BPF_W | BPF_ABS, 0),
    ];
    let sockets = sockets();
    if cfg!(target_arch = "x86_64") {
        // Past this one jump, the sockets' block and the list, then past the allow: the deny
        // at the end.
        prog.push(jump(BPF_JMP | BPF_JGE | BPF_K, X32_BIT, (sockets.len() + REFUSED.len() + 1) as u8, 0));
    }
    prog.extend(sockets);
    for (i, &nr) in REFUSED.iter().enumerate() {
        let to_deny = (REFUSED.len() - i) as u8; // past the rest of the list and the allow
        prog.push(jump(BPF_JMP | BPF_JEQ | BPF_K, nr as u32, to_deny, 0));
    }
    prog.push(stmt(BPF_RET | BPF_K, RET_ALLOW));
    prog.push(stmt(BPF_RET | BPF_K, deny));
    Some(Filter(prog))
}

/// Socket families a run may not create: the internet's (TCP, UDP, ICMP, both versions) and
/// raw packets. Landlock refuses TCP alone; a network namespace would close the rest, but
/// making and tearing one down cost each run milliseconds. A Unix socket stays allowed
/// (Python's multiprocessing pairs them), abstract ones scoped by Landlock.
const REFUSED_FAMILIES: [u32; 3] = [libc::AF_INET as u32, libc::AF_INET6 as u32, libc::AF_PACKET as u32];

/// The block that answers `socket(2)` by its family (its first argument, whose low word sits
/// at offset 16 of seccomp_data on these little-endian machines) and lets every other call
/// through to the list. EACCES, as Landlock answers a refused connect.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn sockets() -> Vec<sock_filter> {
    use libc::{BPF_ABS, BPF_JEQ, BPF_JMP, BPF_K, BPF_LD, BPF_RET, BPF_W};
    let n = REFUSED_FAMILIES.len() as u8;
    let mut block =
        vec![jump(BPF_JMP | BPF_JEQ | BPF_K, libc::SYS_socket as u32, 0, n + 3), stmt(BPF_LD | BPF_W | BPF_ABS, 16)];
    for (i, &family) in REFUSED_FAMILIES.iter().enumerate() {
        block.push(jump(BPF_JMP | BPF_JEQ | BPF_K, family, n - i as u8, 0));
    }
    block.push(stmt(BPF_RET | BPF_K, RET_ALLOW));
    block.push(stmt(BPF_RET | BPF_K, RET_ERRNO | libc::EACCES as u32));
    block
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
    match super::in_child(|| if apply(&filter) { 0 } else { 1 }) {
        Some(0) => Ok(()),
        Some(_) => Err("the kernel refused a seccomp filter".into()),
        None => Err(format!("cannot try seccomp in a child: {}", std::io::Error::last_os_error())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_jump_lands_on_a_return() {
        let Some(Filter(prog)) = filter() else { return };
        assert!(prog.len() < 256, "jump offsets are one byte");
        let sockets = sockets().len();
        let list = prog.len() - 2 - REFUSED.len();
        // The jump at 1 is the architecture check, into the rest of the program; the x32
        // check and the list jump to the deny on a match.
        for (at, op) in prog.iter().enumerate().skip(2) {
            if at >= list - sockets && at < list {
                continue; // the sockets' block, tried by the test below
            }
            if u32::from(op.code) & 0x07 == libc::BPF_JMP {
                for target in [at + 1 + op.jt as usize, at + 1 + op.jf as usize] {
                    assert!(target < prog.len(), "instruction {at} jumps out of the program");
                }
                let deny = &prog[at + 1 + op.jt as usize];
                assert_eq!(u32::from(deny.code), libc::BPF_RET | libc::BPF_K, "instruction {at}");
                assert_eq!(deny.k, RET_ERRNO | libc::EPERM as u32, "instruction {at} must jump to the deny");
            }
        }
        assert_eq!(prog[prog.len() - 2].k, RET_ALLOW);
    }

    #[test]
    fn internet_sockets_are_refused_and_unix_ones_allowed() {
        let Some(filter) = filter() else { return };
        if supported().is_err() {
            return;
        }
        // In a child, under the filter: exit 0 only if AF_INET and AF_INET6 sockets fail with
        // EACCES, a Unix one is made, and a plain call (getpid) still works.
        // SAFETY: the child makes raw system calls only, then exits.
        let pid = unsafe { libc::fork() };
        if pid == 0 {
            unsafe {
                if !apply(&filter) {
                    libc::_exit(2);
                }
                let refused =
                    |family| libc::socket(family, libc::SOCK_DGRAM, 0) < 0 && *libc::__errno_location() == libc::EACCES;
                let ok = refused(libc::AF_INET)
                    && refused(libc::AF_INET6)
                    && libc::socket(libc::AF_UNIX, libc::SOCK_STREAM, 0) >= 0
                    && libc::getpid() > 0;
                libc::_exit(if ok { 0 } else { 1 });
            }
        }
        let mut status = 0;
        // SAFETY: waiting for our own child.
        unsafe { libc::waitpid(pid, &mut status, 0) };
        assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0, "status {status}");
    }
}
