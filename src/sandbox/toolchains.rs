//! What a compiler run in the sandbox needs beyond its command: the homes of toolchains
//! installed per user, which its command does not name (`rustc` is rustup's proxy in
//! `~/.cargo/bin`, and the compiler it runs lives in `~/.rustup`), the variables that find
//! them again once `HOME` is the run's scratch folder, and Go's build cache, which `go build`
//! must write (a cache of the judge's own, so a hostile build can poison no one else's,
//! beside the judge's build cache, [`cache_dir`]).
//! Secrets in those homes (cargo's registry tokens) stay hidden.

use std::ffi::OsString;
use std::path::PathBuf;

/// A build's additions to its sandbox.
#[derive(Clone, Debug, Default)]
pub struct Toolchains {
    /// Folders to read and execute, whole but for `hidden`.
    pub readable: Vec<PathBuf>,
    /// Folders to write besides the build's own output folder.
    pub writable: Vec<PathBuf>,
    pub env: Vec<(OsString, OsString)>,
    pub hidden: Vec<PathBuf>,
}

fn home() -> Option<PathBuf> {
    std::env::var_os("HOME").filter(|h| !h.is_empty()).map(PathBuf::from)
}

/// A variable's folder, else `default` below the user's home, if it exists.
fn folder(variable: &str, default: &str) -> Option<PathBuf> {
    let dir = std::env::var_os(variable)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| Some(home()?.join(default)))?;
    dir.is_dir().then_some(dir)
}

/// What builds get here.
pub fn for_builds() -> Toolchains {
    let mut t = Toolchains::default();
    for (variable, default) in [("RUSTUP_HOME", ".rustup"), ("CARGO_HOME", ".cargo")] {
        if let Some(dir) = folder(variable, default) {
            t.env.push((variable.into(), dir.clone().into_os_string()));
            if variable == "CARGO_HOME" {
                t.hidden.push(dir.join("credentials.toml"));
                t.hidden.push(dir.join("credentials"));
            }
            t.readable.push(dir);
        }
    }
    for (variable, default) in [("SDKMAN_DIR", ".sdkman"), ("JAVA_HOME", ""), ("GOROOT", "")] {
        if let Some(dir) = folder(variable, default).filter(|d| Some(d) != home().as_ref()) {
            t.readable.push(dir);
        }
    }
    if let Ok(cache) = cache_dir() {
        let go = cache.with_file_name("go-build");
        if std::fs::create_dir_all(&go).is_ok() {
            run_user_owns(&go);
            t.env.push(("GOCACHE".into(), go.clone().into_os_string()));
            t.writable.push(go);
        }
    }
    // Go would fetch a newer toolchain named by a go.mod: never from a build.
    t.env.push(("GOTOOLCHAIN".into(), "local".into()));
    t
}

/// Where built programs are kept: `$XDG_CACHE_HOME/sudoku-judge/build`, else
/// `~/.cache/sudoku-judge/build`, else the temporary folder.
pub fn cache_dir() -> std::io::Result<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").filter(|v| !v.is_empty()).map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    let dir = base.join("sudoku-judge").join("build");
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

/// A root judge's builds are uid [`super::root::RUN_ID`]: a Go cache an older judge filled as
/// root is handed to that user once, or no Go build could write it.
fn run_user_owns(cache: &std::path::Path) {
    use std::os::unix::fs::MetadataExt;
    let id = super::root::RUN_ID;
    // SAFETY: a plain query.
    let root = unsafe { libc::geteuid() } == 0;
    if !root || std::fs::symlink_metadata(cache).map_or(true, |m| m.uid() == id) {
        return;
    }
    for entry in walkdir::WalkDir::new(cache).into_iter().flatten() {
        use std::os::unix::ffi::OsStrExt;
        if let Ok(path) = std::ffi::CString::new(entry.path().as_os_str().as_bytes()) {
            // SAFETY: a NUL-terminated path and two IDs.
            unsafe { libc::lchown(path.as_ptr(), id, id) };
        }
    }
}
