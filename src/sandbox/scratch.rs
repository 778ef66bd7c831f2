//! A run's scratch folder: its working folder and `TMPDIR`, private (mode 0700), and
//! removed with everything in it when the run ends, so a `freopen("output.txt")` never
//! writes into the user's folder and nothing a run leaves outlives it. In a run with its own
//! namespaces ([`super::pids`]) the folder is a tmpfs the size of the memory limit, mounted
//! by the keeper: what the run writes is held in memory, counted as its memory
//! ([`held_kib`]), capped, and gone with the namespace.

use std::path::{Path, PathBuf};

/// A scratch folder, emptied on drop and kept for the thread's next run.
///
/// Making and removing a folder on the disk each run cost more than the mounts of a run's
/// root (ext4 scans for recently deleted inodes on every `mkdir`), and one path per thread
/// lets its launcher reuse the root it prepared (see [`crate::launcher`]): a thread's runs
/// take turns in the same folder, emptied between them. The judge removes them all with its
/// temporary folder.
#[derive(Debug)]
pub struct Scratch {
    dir: Option<tempfile::TempDir>,
}

thread_local! {
    /// This thread's emptied scratch folders, ready for its next runs.
    static FREE: std::cell::RefCell<Vec<tempfile::TempDir>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl Scratch {
    pub fn new() -> std::io::Result<Scratch> {
        if let Some(dir) = FREE.with(|free| free.borrow_mut().pop()) {
            return Ok(Scratch { dir: Some(dir) });
        }
        let dir = tempfile::Builder::new().prefix("judge-run-").tempdir_in(crate::interrupt::temp_root())?;
        Ok(Scratch { dir: Some(dir) })
    }

    pub fn path(&self) -> &Path {
        self.dir.as_ref().map_or(Path::new("/nonexistent"), |d| d.path())
    }

    pub fn path_buf(&self) -> PathBuf {
        self.path().to_path_buf()
    }
}

/// Empties `dir` (never through a link) and gives it back its mode; whether it is empty now.
fn empty(dir: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    // Whatever the run made read-only must not stop it.
    crate::interrupt::unlock(dir);
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        let _ = match entry.file_type() {
            Ok(t) if t.is_dir() => std::fs::remove_dir_all(&path),
            _ => std::fs::remove_file(&path),
        };
    }
    let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700));
    std::fs::read_dir(dir).is_ok_and(|mut entries| entries.next().is_none())
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let Some(dir) = self.dir.take() else { return };
        if empty(dir.path()) {
            // A thread being torn down drops its folders: the TempDir removes each.
            let _ = FREE.try_with(|free| free.borrow_mut().push(dir));
        } else {
            crate::interrupt::unlock(dir.path());
        }
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

/// What a run holds in its scratch folder right now, in KiB: with a keeper, its scratch
/// folder's and its `/dev/shm`'s tmpfs, seen through its root (each is mounted in the
/// keeper's namespace only); without one (no namespaces), the files it wrote on the disk,
/// each capped by RLIMIT_FSIZE but not their total, which only this count bounds.
pub fn held_kib(keeper: Option<i32>, dir: &Path) -> u64 {
    // For a judge that is not root, `keeper` is the process that made the run's user
    // namespace, which shares the machine's mounts; the keeper is its one child.
    let inside = keeper.and_then(|k| [Some(k), first_child(k)].into_iter().flatten().find(|p| is_tmpfs(*p, dir)));
    match inside {
        Some(k) => in_tmpfs_kib(k, dir) + in_tmpfs_kib(k, Path::new(SHM)),
        None => on_disk_kib(dir),
    }
}

/// What the files under `dir` take on the disk, in KiB (never through a link; a file a
/// run removes as it is read is simply not counted).
fn on_disk_kib(dir: &Path) -> u64 {
    use std::os::unix::fs::MetadataExt;
    let entries = walkdir::WalkDir::new(dir).follow_links(false).into_iter().flatten();
    entries.filter_map(|e| e.metadata().ok()).filter(|m| !m.is_dir()).map(|m| m.blocks() / 2).sum()
}

fn first_child(pid: i32) -> Option<i32> {
    let children = std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")).ok()?;
    children.split_whitespace().next()?.parse().ok()
}

fn is_tmpfs(keeper: i32, dir: &Path) -> bool {
    statfs_inside(keeper, dir).is_some()
}

/// In the keeper, in its own mount namespace: what the tmpfs at `dir` holds, in KiB (0 where
/// it is none). One system call, no allocation.
pub fn tmpfs_used_kib(dir: &std::ffi::CStr) -> u64 {
    // SAFETY: a plain C struct statfs fills in, and a NUL-terminated path.
    let mut fs: libc::statfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statfs(dir.as_ptr(), &mut fs) } != 0 || fs.f_type != libc::TMPFS_MAGIC {
        return 0;
    }
    #[allow(clippy::unnecessary_cast)] // the fields are u64 on x86-64, not everywhere
    let used = (fs.f_blocks - fs.f_bfree) as u64;
    used * fs.f_bsize as u64 / 1024
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

/// Regular files at the top of `dir` (never through a link).
fn files_in(dir: &Path) -> Vec<std::ffi::OsString> {
    let entries = std::fs::read_dir(dir).into_iter().flatten().flatten();
    entries.filter(|e| e.file_type().is_ok_and(|t| t.is_file())).map(|e| e.file_name()).collect()
}

/// Opens `name` in the folder `dir` (a descriptor), never through a link.
fn open_in(dir: &std::fs::File, name: &std::ffi::OsStr, flags: i32) -> std::io::Result<std::fs::File> {
    use std::os::fd::{AsRawFd, FromRawFd};
    use std::os::unix::ffi::OsStrExt;
    let name = std::ffi::CString::new(name.as_bytes()).map_err(|_| std::io::ErrorKind::InvalidInput)?;
    // SAFETY: openat on a folder we hold with a NUL-terminated name; a new fd is ours.
    let fd = unsafe { libc::openat(dir.as_raw_fd(), name.as_ptr(), flags | libc::O_NOFOLLOW | libc::O_CLOEXEC, 0o644) };
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(unsafe { std::fs::File::from_raw_fd(fd) })
}

/// In a keeper about to mount a tmpfs over the scratch folder `host`: the folder as the judge
/// filled it, and the names of the files it holds, to copy into the tmpfs ([`seed`]); `None`
/// when it is empty (most runs: nothing to copy either way).
pub fn before_mount(host: &Path) -> Option<(std::fs::File, Vec<std::ffi::OsString>)> {
    let names = files_in(host);
    if names.is_empty() {
        return None;
    }
    std::fs::File::open(host).ok().map(|dir| (dir, names))
}

/// Copies the judge's files (`names` in the folder `from`) into the run's scratch tmpfs `to`,
/// owned by `owner` where given (a root judge's run user).
pub fn seed(from: &std::fs::File, names: &[std::ffi::OsString], to: &Path, owner: Option<(u32, u32)>) {
    for name in names {
        let Ok(mut source) = open_in(from, name, libc::O_RDONLY) else { continue };
        let Ok(mut copy) = std::fs::File::create(to.join(name)) else { continue };
        let _ = std::io::copy(&mut source, &mut copy);
        if let Some((uid, gid)) = owner {
            use std::os::fd::AsRawFd;
            // SAFETY: fchown on a file we hold.
            unsafe { libc::fchown(copy.as_raw_fd(), uid, gid) };
        }
    }
}

/// Once the run is over, in its keeper: the files left at the top of its scratch tmpfs
/// `from`, copied back to the judge's folder `to`, where the judge reads a named output file.
pub fn bring_back(from: &Path, to: &std::fs::File) {
    for name in files_in(from) {
        let Ok(mut source) = std::fs::File::open(from.join(&name)) else { continue };
        let Ok(mut copy) = open_in(to, &name, libc::O_WRONLY | libc::O_CREAT | libc::O_TRUNC) else { continue };
        let _ = std::io::copy(&mut source, &mut copy);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_judge_s_files_go_into_the_run_s_folder_and_what_it_left_comes_back() {
        let host = tempfile::tempdir().unwrap();
        let run = tempfile::tempdir().unwrap();
        assert!(before_mount(host.path()).is_none(), "an empty folder has nothing to copy");
        std::fs::write(host.path().join("input.txt"), "1 2\n").unwrap();
        let (dir, names) = before_mount(host.path()).unwrap();
        seed(&dir, &names, run.path(), None);
        assert_eq!(std::fs::read_to_string(run.path().join("input.txt")).unwrap(), "1 2\n");
        std::fs::write(run.path().join("output.txt"), "3\n").unwrap();
        // A link the run left must not make the judge write through it.
        std::os::unix::fs::symlink("/etc/passwd", run.path().join("link")).unwrap();
        bring_back(run.path(), &dir);
        assert_eq!(std::fs::read_to_string(host.path().join("output.txt")).unwrap(), "3\n");
        assert!(!host.path().join("link").exists());
    }
}
