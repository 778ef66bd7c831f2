//! Ctrl-C, SIGTERM and SIGHUP end the judge cleanly: every temporary file and scratch folder
//! of this process lives under one folder ([`temp_root`]), which a watching thread removes
//! before exiting with status 130. The launchers see their sockets close and kill their runs
//! (see [`crate::launcher`]), so nothing is left running and nothing is left behind.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

static ROOT: OnceLock<Option<PathBuf>> = OnceLock::new();

/// In a launcher, the judge that started it.
static JUDGE: OnceLock<u32> = OnceLock::new();

/// The temporary folder of the judge whose process ID is `pid`.
fn folder_of(pid: u32) -> PathBuf {
    std::env::temp_dir().join(format!("judge-{pid}"))
}

/// This process's folder for temporary files (made on first use), or the system's when it
/// cannot be made.
pub fn temp_root() -> PathBuf {
    let root = ROOT.get_or_init(|| {
        remove_stale();
        let dir = folder_of(std::process::id());
        std::fs::create_dir_all(&dir).ok().map(|_| {
            use std::os::unix::fs::PermissionsExt;
            let _ = std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700));
            dir
        })
    });
    root.clone().unwrap_or_else(std::env::temp_dir)
}

/// Says, in a launcher, which judge started it (its parent, the process whose folder its
/// runs must never see).
pub fn launched_by(judge: u32) {
    let _ = JUDGE.set(judge);
}

/// The judge's temporary folder, never made by this call: in a launcher, its judge's (a
/// launcher makes none of its own: one it left when killed outright would be no judge's to
/// remove, and its runs must not see the judge's); in the judge, its own.
pub fn judges_folder() -> PathBuf {
    match JUDGE.get() {
        Some(judge) => folder_of(*judge),
        None => temp_root(),
    }
}

/// Removes the folders of judges that ended without cleaning up (killed with SIGKILL, which
/// no handler sees): `judge-PID` of a PID that no process runs as any more.
fn remove_stale() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|n| n.strip_prefix("judge-")).and_then(|p| p.parse::<u32>().ok()) else {
            continue;
        };
        // Only a folder whose process is gone: any process using this library (a test
        // binary too) keeps its folder here while it runs.
        let gone = !Path::new(&format!("/proc/{pid}")).exists();
        if gone && entry.file_type().is_ok_and(|t| t.is_dir()) {
            remove(&entry.path());
        }
    }
}

/// Removes this process's temporary folder, if it made one.
pub fn remove_temp_root() {
    if let Some(Some(dir)) = ROOT.get() {
        remove(dir);
    }
}

fn remove(dir: &Path) {
    unlock(dir);
    let _ = std::fs::remove_dir_all(dir);
}

/// Makes every folder under `dir` writable again, so that all of it can be removed (a run
/// may leave read-only folders behind).
pub(crate) fn unlock(dir: &Path) {
    for entry in walkdir::WalkDir::new(dir).into_iter().flatten() {
        if entry.file_type().is_dir() {
            use std::os::unix::fs::PermissionsExt;
            let _ = std::fs::set_permissions(entry.path(), std::fs::Permissions::from_mode(0o700));
        }
    }
}

/// Takes SIGINT, SIGTERM and SIGHUP away from every thread started after this call and
/// hands them to a thread that cleans up and exits 130. Call first thing in `main`.
pub fn install() {
    // SAFETY: plain signal-set calls on a local set.
    let set = unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            libc::sigaddset(&mut set, sig);
        }
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
        set
    };
    std::thread::spawn(move || {
        let mut sig = 0;
        // SAFETY: waits on the set blocked above.
        if unsafe { libc::sigwait(&set, &mut sig) } == 0 {
            remove_temp_root();
            std::process::exit(128 + sig);
        }
    });
}
