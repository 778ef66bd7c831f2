//! A run's view of the files, the network and other processes, through Landlock (the second
//! wall behind a root of its own, [`super::root`]; the only one where namespaces are refused):
//! read and execute the system's part of [`super::root::TABLE`] and `/proc`, and what
//! [`super::view`] grants the program (its runtime, its source's folder and
//! class path, minus every case and answer), list the folders granted piece by piece, write
//! only its scratch folder, `/dev/shm` and `/dev/null`; no TCP bind or connect; no signal to a
//! process outside the run. Built in the launcher before `fork` ([`ruleset`]) and applied in
//! the child just before `exec` ([`apply`]).

use landlock::{
    Access, AccessFs, AccessNet, PathBeneath, PathFd, Ruleset, RulesetAttr, RulesetCreated, RulesetCreatedAttr, Scope,
    ABI,
};
use std::path::{Path, PathBuf};

/// The Landlock ABI whose rights a run asks for: 6 adds the signal scope. An older kernel
/// gets what it has (the crate's best effort), and [`support`] says what that is.
const WANTED: ABI = ABI::V6;

/// Device files a program may write (and read).
const DEVICES: [&str; 5] = ["/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"];

/// What this kernel's Landlock can enforce.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Support {
    pub files: bool,
    pub network: bool,
    pub signals: bool,
    /// Why a piece is missing, for the note.
    pub why: String,
}

/// The kernel's Landlock ABI, asked directly (0: none).
fn kernel_abi() -> (i64, String) {
    // SAFETY: the version query takes a null attribute, size 0 and one flag.
    let v = unsafe {
        libc::syscall(libc::SYS_landlock_create_ruleset, std::ptr::null::<u8>(), 0usize, 1u32 /* VERSION */)
    };
    if v > 0 {
        (v, String::new())
    } else {
        let e = std::io::Error::last_os_error();
        (0, format!("this kernel has no Landlock ({e})"))
    }
}

/// What runs can be given here.
pub fn support() -> Support {
    let (abi, why) = kernel_abi();
    let why = if abi == 0 {
        why
    } else if abi < 6 {
        format!("this kernel's Landlock is ABI {abi}; TCP rules need 4 and signal scoping 6")
    } else {
        String::new()
    };
    Support { files: abi >= 1, network: abi >= 4, signals: abi >= 6, why }
}

/// The program's path as the launcher will run it (found on PATH when it has no `/`).
fn resolved(program: &std::ffi::OsStr) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    if program.as_bytes().contains(&b'/') {
        return Some(PathBuf::from(program));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(program)).find(|p| p.is_file())
}

/// The view of a program with these arguments, worked out once per launcher: a folder's walk
/// is the costly part, and a judge runs the same program on every case.
pub fn view(program: &std::ffi::OsStr, args: &[std::ffi::OsString], ask: &super::view::Ask) -> super::view::View {
    type Key = (PathBuf, Vec<std::ffi::OsString>, super::view::Ask);
    thread_local! {
        static VIEWS: std::cell::RefCell<std::collections::HashMap<Key, super::view::View>> = Default::default();
    }
    use std::os::unix::ffi::OsStrExt;
    let on_path = !program.as_bytes().contains(&b'/');
    let Some(program) = resolved(program) else {
        return super::view::View { paths: super::root::system(), ..Default::default() };
    };
    let key = (program.clone(), args.to_vec(), ask.clone());
    VIEWS.with(|views| {
        views.borrow_mut().entry(key).or_insert_with(|| super::view::of(&program, on_path, args, ask)).clone()
    })
}

/// The ruleset of one run: `scratch` read-write; what `view` grants readable; the files in `writable` (made by the judge for the
/// run, like an interactor's log) read-write.
pub fn ruleset(
    view: &super::view::View,
    writable: &[std::ffi::OsString],
    scratch: &Path,
) -> Result<RulesetCreated, String> {
    let read = AccessFs::from_read(WANTED);
    let e = |e: landlock::RulesetError| e.to_string();
    let mut ruleset = Ruleset::default()
        .handle_access(AccessFs::from_all(WANTED))
        .and_then(|r| r.handle_access(AccessNet::BindTcp | AccessNet::ConnectTcp))
        .and_then(|r| r.scope(Scope::Signal | Scope::AbstractUnixSocket))
        .and_then(|r| r.create())
        .map_err(e)?;
    for folder in &view.listed {
        if let Ok(fd) = PathFd::new(folder) {
            ruleset = ruleset.add_rule(PathBeneath::new(fd, AccessFs::ReadDir)).map_err(e)?;
        }
    }
    for path in &view.paths {
        // A folder that is not there on this system is simply not granted.
        if let Ok(fd) = PathFd::new(path) {
            let rights = if path.is_dir() { read } else { read & AccessFs::from_file(WANTED) };
            ruleset = ruleset.add_rule(PathBeneath::new(fd, rights)).map_err(e)?;
        }
    }
    for device in DEVICES {
        if let Ok(fd) = PathFd::new(device) {
            let rights = AccessFs::from_file(WANTED) & !AccessFs::Execute;
            ruleset = ruleset.add_rule(PathBeneath::new(fd, rights)).map_err(e)?;
        }
    }
    for file in writable {
        let fd = PathFd::new(file).map_err(|e| e.to_string())?;
        // A folder (a build's output) is the run's to fill; a file (a log), to write.
        let rights = if Path::new(file).is_dir() {
            AccessFs::from_all(WANTED)
        } else {
            AccessFs::from_file(WANTED) & !AccessFs::Execute
        };
        ruleset = ruleset.add_rule(PathBeneath::new(fd, rights)).map_err(e)?;
    }
    let scratch = PathFd::new(scratch).map_err(|e| e.to_string())?;
    ruleset.add_rule(PathBeneath::new(scratch, AccessFs::from_all(WANTED))).map_err(e)
}

/// In a run's keeper, once it has mounted the namespace's own `/proc` over the machine's
/// (and, if `scratch`, a tmpfs over the scratch folder): the rules granted the folders
/// underneath, which the program can no longer reach.
pub fn grant_mounts(
    ruleset: RulesetCreated,
    scratch: Option<&Path>,
    shm: Option<&Path>,
    root: Option<&super::root::Plan>,
) -> Result<RulesetCreated, String> {
    let fd = PathFd::new("/proc").map_err(|e| e.to_string())?;
    let mut ruleset = ruleset.add_rule(PathBeneath::new(fd, AccessFs::from_read(WANTED))).map_err(|e| e.to_string())?;
    // In a root of its own, every folder holds what was granted alone: each may be listed;
    // the files the keeper wrote (`/etc/passwd`) may be read.
    if let Some(plan) = root {
        let fd = PathFd::new("/").map_err(|e| e.to_string())?;
        ruleset = ruleset.add_rule(PathBeneath::new(fd, AccessFs::ReadDir)).map_err(|e| e.to_string())?;
        for file in &plan.written {
            let fd = PathFd::new(file).map_err(|e| e.to_string())?;
            let rights = AccessFs::from_read(WANTED) & AccessFs::from_file(WANTED);
            ruleset = ruleset.add_rule(PathBeneath::new(fd, rights)).map_err(|e| e.to_string())?;
        }
    }
    if let Some(dir) = shm {
        let fd = PathFd::new(dir).map_err(|e| e.to_string())?;
        let rights = AccessFs::from_all(WANTED) & !AccessFs::Execute;
        ruleset = ruleset.add_rule(PathBeneath::new(fd, rights)).map_err(|e| e.to_string())?;
    }
    if let Some(dir) = scratch {
        let fd = PathFd::new(dir).map_err(|e| e.to_string())?;
        ruleset = ruleset.add_rule(PathBeneath::new(fd, AccessFs::from_all(WANTED))).map_err(|e| e.to_string())?;
    }
    Ok(ruleset)
}

/// In the forked child, just before `exec`: the ruleset takes hold for good. Whether it did.
pub fn apply(ruleset: RulesetCreated) -> bool {
    ruleset.restrict_self().is_ok()
}
