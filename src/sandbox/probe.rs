//! How the sandbox learns whether the kernel grants a protection: by trying it in a
//! throwaway child ([`in_child`]), so a refusal costs the judge nothing.

/// Tries something in a throwaway child: `child` runs there and its result is the child's
/// exit code, which is returned (`None` if the child could not be made, or did not exit).
/// `child` may make raw system calls only: the judge may have threads, whose locks a forked
/// child could find held.
pub(crate) fn in_child(child: impl FnOnce() -> i32) -> Option<i32> {
    // SAFETY: the child runs `child` and exits; the parent waits for it.
    let pid = unsafe { libc::fork() };
    if pid == 0 {
        let code = child();
        unsafe { libc::_exit(code) };
    }
    if pid < 0 {
        return None;
    }
    let mut status = 0;
    // SAFETY: waiting for our own child.
    while unsafe { libc::waitpid(pid, &mut status, 0) } < 0 {
        if std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            return None;
        }
    }
    libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status))
}
