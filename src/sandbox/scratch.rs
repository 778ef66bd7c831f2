//! A run's scratch folder: its working folder and `TMPDIR`, private (mode 0700), and
//! removed with everything in it when the run ends, so a `freopen("output.txt")` never
//! writes into the user's folder and nothing a run leaves outlives it. In a run with its own
//! namespaces ([`super::pids`]) the folder is a tmpfs the size of the memory limit, mounted
//! by the keeper: what the run writes is held in memory, counted as its memory
//! ([`held_kib`]), capped, and gone with the namespace.

use std::path::{Path, PathBuf};

/// A scratch folder, removed on drop.
#[derive(Debug)]
pub struct Scratch {
    dir: tempfile::TempDir,
}

impl Scratch {
    pub fn new() -> std::io::Result<Scratch> {
        let dir = tempfile::Builder::new().prefix("judge-run-").tempdir_in(crate::interrupt::temp_root())?;
        Ok(Scratch { dir })
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn path_buf(&self) -> PathBuf {
        self.dir.path().to_path_buf()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        // The TempDir removes the folder next; whatever the run made read-only must not stop it.
        crate::interrupt::unlock(self.dir.path());
    }
}

/// In a run's keeper, in its own mount namespace: a tmpfs over the scratch folder, `options`
/// its mount options (`size=...`). Whether it worked.
pub fn mount_tmpfs(dir: &std::ffi::CStr, options: &std::ffi::CStr) -> bool {
    // SAFETY: NUL-terminated strings, as mount(2) takes them.
    unsafe {
        libc::mount(
            b"tmpfs\0".as_ptr().cast(),
            dir.as_ptr(),
            b"tmpfs\0".as_ptr().cast(),
            libc::MS_NOSUID | libc::MS_NODEV,
            options.as_ptr().cast(),
        ) == 0
    }
}

/// Where a run with its own namespaces has a private tmpfs for POSIX shared memory.
pub const SHM: &str = "/dev/shm";

/// What a run holds in its scratch folder's and its `/dev/shm`'s tmpfs right now, in KiB,
/// seen through its keeper's root (each is mounted in the keeper's namespace only).
pub fn held_kib(keeper: i32, dir: &Path) -> u64 {
    // For a judge that is not root, `keeper` is the process that made the run's user
    // namespace, which shares the machine's mounts; the keeper is its one child.
    let inside = if is_tmpfs(keeper, dir) { keeper } else { first_child(keeper).unwrap_or(keeper) };
    in_tmpfs_kib(inside, dir) + in_tmpfs_kib(inside, Path::new(SHM))
}

fn first_child(pid: i32) -> Option<i32> {
    let children = std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")).ok()?;
    children.split_whitespace().next()?.parse().ok()
}

fn is_tmpfs(keeper: i32, dir: &Path) -> bool {
    statfs_inside(keeper, dir).is_some()
}

/// What the tmpfs at `dir` in the keeper's namespace holds, in KiB; 0 where there is none.
fn in_tmpfs_kib(keeper: i32, dir: &Path) -> u64 {
    statfs_inside(keeper, dir).map_or(0, |fs| {
        #[allow(clippy::unnecessary_cast)] // the fields are u64 on x86-64, not everywhere
        let used = (fs.f_blocks - fs.f_bfree) as u64;
        used * fs.f_bsize as u64 / 1024
    })
}

/// The tmpfs at `dir` as the keeper sees it, if it is one.
fn statfs_inside(keeper: i32, dir: &Path) -> Option<libc::statfs> {
    use std::os::unix::ffi::OsStrExt;
    let mut inside = format!("/proc/{keeper}/root").into_bytes();
    inside.extend_from_slice(dir.as_os_str().as_bytes());
    let path = std::ffi::CString::new(inside).ok()?;
    // SAFETY: a plain C struct statfs fills in.
    let mut fs: libc::statfs = unsafe { std::mem::zeroed() };
    (unsafe { libc::statfs(path.as_ptr(), &mut fs) } == 0 && fs.f_type == libc::TMPFS_MAGIC).then_some(fs)
}
