//! A run's root, made rather than filtered, as isolate's box and nsjail's mount config are:
//! in the run's own mount namespace its keeper mounts a fresh tmpfs, binds into it, read-only,
//! exactly what [`TABLE`] lists and what [`super::view`] grants the program (its runtime's
//! install, its PATH's installs, its modules by kind, a compiler's toolchain), binds its
//! scratch folder (a tmpfs) and what a build writes read-write, and makes it the root
//! (`pivot_root`); the machine's tree is then detached. Nothing else exists in it: no `/run`,
//! no home, no host `/tmp`, no socket of the user's, no judge executable (but for a run of one
//! of its own built-in programs, `@fixture`, `@sudoku`), no build cache. Landlock and seccomp stay as a
//! second wall.
//!
//! The run's scratch folder keeps its path inside (it is also `HOME`, `TMPDIR` and the
//! working folder), so the files a judge put in the host folder before the run are copied
//! into it, and, when there were any, the files left at its top are copied back after.

use std::ffi::{CString, OsStr};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// The user and group a root judge's runs are, never uid 0 (isolate's first box's): runs are
/// kept apart by their namespaces, and one ID keeps Go's build cache writable from build to
/// build. A judge that is not root runs programs as its own user.
pub const RUN_ID: u32 = 60_000;

/// How an entry of [`TABLE`] gets into the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Bound read-only where it is, or made the same link where the system has one
    /// (`/bin` -> `usr/bin`); an entry ending in `*` is every entry of its folder so named.
    System,
    /// Written by the judge, naming the run's user and no one else's.
    Written,
    /// A device file, bound read-write.
    Device,
    /// A link to this target.
    Link(&'static str),
    /// The run's own, mounted by its keeper: its `/proc`, a private tmpfs.
    Own,
}

/// One thing the root holds, and why.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub path: &'static str,
    pub kind: Kind,
    pub why: &'static str,
}

const fn entry(path: &'static str, kind: Kind, why: &'static str) -> Entry {
    Entry { path, kind, why }
}

/// Everything a run's root holds besides what its command is granted: the one list of the
/// policy. Never `/etc/shadow`, `/etc/gshadow`, `/etc/ssl/private`, `/run`, `/home`, `/root`,
/// `/tmp`, `/var`, `/opt` (a runtime there is granted as an install), `/sys` but the CPUs.
pub const TABLE: [Entry; 31] = [
    entry("/usr", Kind::System, "the system's programs, libraries and runtimes"),
    entry("/bin", Kind::System, "a link to usr/bin, or the system's programs"),
    entry("/sbin", Kind::System, "a link to usr/sbin, or the system's programs"),
    entry("/lib", Kind::System, "a link to usr/lib, or the system's libraries"),
    entry("/lib32", Kind::System, "the 32-bit libraries, where installed"),
    entry("/lib64", Kind::System, "the dynamic linker's path"),
    entry("/libx32", Kind::System, "the x32 libraries, where installed"),
    entry("/etc/ld.so.cache", Kind::System, "the dynamic linker's list of libraries"),
    entry("/etc/ld.so.conf", Kind::System, "the dynamic linker's folders"),
    entry("/etc/ld.so.conf.d", Kind::System, "the dynamic linker's folders"),
    entry("/etc/nsswitch.conf", Kind::System, "how the C library looks users up"),
    entry("/etc/passwd", Kind::Written, "root, nobody and the run's own user: no one else's name or home"),
    entry("/etc/group", Kind::Written, "root, nogroup and the run's own group"),
    entry("/etc/localtime", Kind::System, "the time zone"),
    entry("/etc/timezone", Kind::System, "the time zone's name"),
    entry("/etc/alternatives", Kind::System, "Debian's links for java, python, c++..."),
    entry("/etc/java-*", Kind::System, "a JDK's conf folder is a link to it"),
    entry("/etc/python3*", Kind::System, "Debian's Python reads its sitecustomize there"),
    entry("/etc/ssl/certs", Kind::System, "public certificates (a JDK links its cacerts there), never ssl/private"),
    entry("/sys/devices/system/cpu", Kind::System, "how many CPUs (sysconf, the JVM, Go)"),
    entry("/dev/null", Kind::Device, "a device any program may use"),
    entry("/dev/zero", Kind::Device, "a device any program may use"),
    entry("/dev/full", Kind::Device, "a device any program may use"),
    entry("/dev/random", Kind::Device, "randomness"),
    entry("/dev/urandom", Kind::Device, "randomness"),
    entry("/dev/fd", Kind::Link("/proc/self/fd"), "a shell's process substitution"),
    entry("/dev/stdin", Kind::Link("/proc/self/fd/0"), "a script's /dev/stdin"),
    entry("/dev/stdout", Kind::Link("/proc/self/fd/1"), "a script's /dev/stdout"),
    entry("/dev/stderr", Kind::Link("/proc/self/fd/2"), "a script's /dev/stderr"),
    entry("/proc", Kind::Own, "its own, showing its PID namespace alone"),
    entry("/dev/shm", Kind::Own, "a private tmpfs, counted as its memory (POSIX shared memory, multiprocessing)"),
];

/// The system's folders and files of [`TABLE`] that exist here, as the view grants them
/// (`/etc/passwd` and `/etc/group` too: a run without its own root reads the machine's).
pub fn system() -> Vec<PathBuf> {
    let mut found = Vec::new();
    for e in TABLE.iter().filter(|e| matches!(e.kind, Kind::System | Kind::Written)) {
        match e.path.strip_suffix('*') {
            Some(prefix) => {
                let prefix = Path::new(prefix);
                let (Some(dir), Some(start)) = (prefix.parent(), prefix.file_name()) else { continue };
                for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
                    if entry.file_name().as_bytes().starts_with(start.as_bytes()) {
                        found.push(entry.path());
                    }
                }
            }
            None => found.extend(Some(PathBuf::from(e.path)).filter(|p| p.symlink_metadata().is_ok())),
        }
    }
    found
}

/// One step of making a root, prepared in the launcher; targets are relative to the new root.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Step {
    /// `source` bound at `target`; read-only unless `write`, keeping the source's `flags`
    /// (nosuid, nodev, noexec: a user namespace may not drop them).
    Bind {
        source: CString,
        target: PathBuf,
        dir: bool,
        write: bool,
        flags: libc::c_ulong,
    },
    Link {
        target: PathBuf,
        text: PathBuf,
    },
    Write {
        target: PathBuf,
        text: Vec<u8>,
    },
}

/// How one run's root is made: prepared in the launcher, carried out by the keeper.
#[derive(Debug)]
pub struct Plan {
    steps: Vec<Step>,
    /// The run's scratch folder (absolute; the root tmpfs is mounted over it at first).
    scratch: CString,
    /// Its path in the new root.
    inside: PathBuf,
    /// Paths in the new root the run may read beside its binds (the written files), for
    /// its Landlock rules.
    pub written: Vec<PathBuf>,
    /// Who the run is, for a root judge.
    pub run_as: Option<(u32, u32)>,
}

fn relative(path: &Path) -> PathBuf {
    path.strip_prefix("/").unwrap_or(path).to_path_buf()
}

/// The flags a bind of `source` must keep.
fn locked_flags(source: &CString) -> libc::c_ulong {
    // SAFETY: a plain C struct statvfs fills in.
    let mut fs: libc::statvfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statvfs(source.as_ptr(), &mut fs) } != 0 {
        return 0;
    }
    let pairs = [
        (libc::ST_NOSUID, libc::MS_NOSUID),
        (libc::ST_NODEV, libc::MS_NODEV),
        (libc::ST_NOEXEC, libc::MS_NOEXEC),
        (libc::ST_NOATIME, libc::MS_NOATIME),
        (libc::ST_NODIRATIME, libc::MS_NODIRATIME),
        (libc::ST_RELATIME, libc::MS_RELATIME),
    ];
    pairs.iter().filter(|(st, _)| fs.f_flag & st != 0).fold(0, |all, (_, ms)| all | ms)
}

/// The binds and links of a root: the table's, `granted` read-only, `writable` read-write.
/// Worked out once per launcher for the same grants: a judge runs one program on every case.
fn mounts(granted: &[PathBuf], writable: &[PathBuf]) -> Vec<Step> {
    type Key = (Vec<PathBuf>, Vec<PathBuf>);
    thread_local! {
        static MADE: std::cell::RefCell<std::collections::HashMap<Key, Vec<Step>>> = Default::default();
    }
    let key = (granted.to_vec(), writable.to_vec());
    MADE.with(|made| made.borrow_mut().entry(key).or_insert_with(|| work_out(granted, writable)).clone())
}

fn work_out(granted: &[PathBuf], writable: &[PathBuf]) -> Vec<Step> {
    let mut binds: Vec<(PathBuf, bool)> = Vec::new();
    let mut links: Vec<(PathBuf, PathBuf)> = Vec::new();
    let mut add = |path: &Path, write: bool, links: &mut Vec<(PathBuf, PathBuf)>| {
        let Ok(canonical) = std::fs::canonicalize(path) else { return };
        // Every link on the way, as the program will follow it (`/bin` -> `usr/bin`, a
        // venv's `python` -> `/usr/bin/python3.12`).
        let mut walked = PathBuf::from("/");
        for part in path.components().skip(1) {
            let here = std::fs::canonicalize(&walked).unwrap_or_else(|_| walked.clone()).join(part);
            if let Ok(text) = std::fs::read_link(&here) {
                links.push((here.clone(), text));
            }
            walked = here;
        }
        binds.push((canonical, write));
    };
    let written: Vec<&Entry> = TABLE.iter().filter(|e| e.kind == Kind::Written).collect();
    for path in granted {
        if !written.iter().any(|e| Path::new(e.path) == path) {
            add(path, false, &mut links);
        }
    }
    for path in writable {
        add(path, true, &mut links);
    }
    for e in TABLE.iter().filter(|e| e.kind == Kind::Device) {
        add(Path::new(e.path), true, &mut links);
    }
    // Parents first; a path granted both ways is bound writable once (an interactor's log,
    // which its command names too); a bind inside another as writable adds nothing.
    binds.sort();
    binds.dedup();
    let writes: Vec<PathBuf> = binds.iter().filter(|(_, w)| *w).map(|(p, _)| p.clone()).collect();
    binds.retain(|(p, w)| *w || !writes.contains(p));
    let mut kept: Vec<(PathBuf, bool)> = Vec::new();
    for (path, write) in binds {
        let covered = kept.iter().any(|(k, w)| path.starts_with(k) && k.is_dir() && (*w || !write));
        if !covered {
            kept.push((path, write));
        }
    }
    let covered = |at: &Path| kept.iter().any(|(k, _)| at.starts_with(k));
    let mut steps = Vec::new();
    for (path, write) in &kept {
        let Ok(source) = CString::new(path.as_os_str().as_bytes()) else { continue };
        let flags = locked_flags(&source);
        steps.push(Step::Bind { source, target: relative(path), dir: path.is_dir(), write: *write, flags });
    }
    links.sort();
    links.dedup();
    for (at, text) in links.into_iter().filter(|(at, _)| !covered(at)) {
        steps.push(Step::Link { target: relative(&at), text });
    }
    for e in TABLE {
        if let Kind::Link(text) = e.kind {
            steps.push(Step::Link { target: relative(Path::new(e.path)), text: PathBuf::from(text) });
        }
    }
    steps
}

/// The plan of a run's root: the table's entries, `granted` (the view's paths) read-only,
/// `writable` read-write, `scratch` its own; its user `run_as` (a root judge's), else the
/// judge's.
pub fn plan(granted: &[PathBuf], writable: &[PathBuf], scratch: &Path, run_as: Option<(u32, u32)>) -> Plan {
    let mut steps = mounts(granted, writable);
    let (uid, gid) = run_as.unwrap_or_else(|| {
        // SAFETY: plain queries.
        unsafe { (libc::geteuid(), libc::getegid()) }
    });
    let home = scratch.display();
    let passwd = format!(
        "root:x:0:0:root:/root:/usr/sbin/nologin\nrunner:x:{uid}:{gid}:runner:{home}:/bin/sh\n\
         nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n"
    );
    let group = format!("root:x:0:\nrunner:x:{gid}:\nnogroup:x:65534:\n");
    steps.push(Step::Write { target: relative(Path::new("/etc/passwd")), text: passwd.into_bytes() });
    steps.push(Step::Write { target: relative(Path::new("/etc/group")), text: group.into_bytes() });
    Plan {
        steps,
        scratch: CString::new(scratch.as_os_str().as_bytes()).unwrap_or_default(),
        inside: relative(scratch),
        written: vec![PathBuf::from("/etc/passwd"), PathBuf::from("/etc/group")],
        run_as,
    }
}

fn c_path(path: &Path) -> Option<CString> {
    CString::new(path.as_os_str().as_bytes()).ok()
}

/// mount(2) with what it takes; whether it worked.
fn mount(source: Option<&CString>, target: &CString, fstype: Option<&[u8]>, flags: libc::c_ulong, data: &[u8]) -> bool {
    let none = std::ptr::null::<libc::c_char>();
    // SAFETY: NUL-terminated strings (the constants end in NUL) or null pointers.
    unsafe {
        libc::mount(
            source.map_or(none, |s| s.as_ptr()),
            target.as_ptr(),
            fstype.map_or(none, |t| t.as_ptr().cast()),
            flags,
            if data.is_empty() { std::ptr::null() } else { data.as_ptr().cast() },
        ) == 0
    }
}

/// In the keeper, in its own mount namespace with its own `/proc` mounted: makes the root
/// `plan` says, with the scratch folder a tmpfs mounted with `tmpfs` options and a private
/// `/dev/shm` too, then makes it the keeper's root (so the program forked next has it too).
/// `Err`: the step the kernel refused. May allocate: the keeper is single-threaded.
pub fn build(plan: &Plan, tmpfs: &std::ffi::CStr) -> Result<(), String> {
    lay_out(plan)?;
    let at = |p: &str| CString::new(p).unwrap_or_default();
    own_tmpfs(tmpfs, &c_path(&plan.inside).ok_or("a NUL in a path")?, &at("dev/shm"))?;
    if !mount(Some(&at("/proc")), &at("proc"), None, libc::MS_BIND | libc::MS_REC, b"") {
        return Err(failed("the run's /proc"));
    }
    seal()
}

/// In a child of the launcher, in a mount namespace of its own whose mounts are private:
/// makes the part of the root `plan` says that every run of it shares (its binds, links and
/// written files, read-only, with empty folders where each run mounts its own `/proc`,
/// `/dev/shm` and scratch folder) and makes it the namespace's root. Each run then enters a
/// copy of that namespace ([`enter`]) instead of making its root again, as go-judge reuses
/// its containers. `Err`: the step the kernel refused.
///
/// With `proc`, for a user's judge (the namespace owned by a user namespace of the
/// launcher's), a `/proc` too, of the preparing process's PID namespace, which must be a new
/// one that dies with it: the kernel lets a user namespace mount a `/proc` only where one is
/// already wholly visible, and a prepared root keeps none of the machine's. Each run mounts
/// its own over it.
pub fn prepare(plan: &Plan, proc: bool) -> Result<(), String> {
    lay_out(plan)?;
    let at = |p: &str| CString::new(p).unwrap_or_default();
    let flags = libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC;
    if proc && !mount(Some(&at("proc")), &at("proc"), Some(b"proc\0"), flags, b"") {
        return Err(failed("a /proc to mount the runs' over"));
    }
    seal()
}

/// In a run's keeper, PID 1 of its namespace: a copy of the prepared namespace `prepared`
/// ([`prepare`]) of its own, with its own IPC and UTS namespaces, a fresh `/proc` of its
/// PID namespace, and tmpfs mounts (`tmpfs` their options) for its scratch folder and
/// `/dev/shm`: what one run holds, gone with it, never seen by the next. Some six system
/// calls where [`build`] makes ninety mounts.
pub fn enter(prepared: std::os::fd::RawFd, plan: &Plan, tmpfs: &std::ffi::CStr) -> Result<(), String> {
    // SAFETY: setns on a namespace file the launcher holds open; flag-only system calls.
    unsafe {
        if libc::setns(prepared, libc::CLONE_NEWNS) != 0 {
            return Err(failed("entering the prepared root"));
        }
        if libc::unshare(libc::CLONE_NEWNS | libc::CLONE_NEWIPC | libc::CLONE_NEWUTS) != 0 {
            return Err(failed("a copy of the prepared root"));
        }
        if libc::sethostname(b"judge".as_ptr().cast(), 5) != 0 {
            return Err(failed("the host name"));
        }
    }
    let at = |p: &str| CString::new(p).unwrap_or_default();
    if !mount(Some(&at("proc")), &at("/proc"), Some(b"proc\0"), libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC, b"")
    {
        return Err(failed("the run's /proc"));
    }
    own_tmpfs(tmpfs, &plan.scratch, &at("/dev/shm"))
}

fn failed(what: &str) -> String {
    format!("{what}: {}", std::io::Error::last_os_error())
}

/// The root's tmpfs over the scratch folder, the current folder; in it the table's and the
/// plan's binds, links and written files, and the empty folders of a run's own mounts.
fn lay_out(plan: &Plan) -> Result<(), String> {
    let fs = Some(&b"tmpfs\0"[..]);
    // The new root's tmpfs goes over the scratch folder, the one folder sure to be there and
    // to be no source of a bind; the scratch tmpfs then goes at its place inside.
    if !mount(None, &plan.scratch, fs, libc::MS_NOSUID | libc::MS_NODEV, b"size=8m,mode=0755\0") {
        return Err(failed("a tmpfs for the root"));
    }
    std::env::set_current_dir(Path::new(OsStr::from_bytes(plan.scratch.as_bytes())))
        .map_err(|e| format!("the new root: {e}"))?;
    for step in &plan.steps {
        match step {
            Step::Bind { source, target, dir, write, flags } => {
                if *dir {
                    std::fs::create_dir_all(target).map_err(|e| format!("{}: {e}", target.display()))?;
                } else {
                    if let Some(parent) = target.parent() {
                        std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
                    }
                    std::fs::OpenOptions::new()
                        .create(true)
                        .append(true)
                        .open(target)
                        .map_err(|e| format!("{}: {e}", target.display()))?;
                }
                // What a root judge's run writes (a build's folder, a log) must be its user's.
                if let Some((uid, gid)) = plan.run_as.filter(|_| *write && !source.as_bytes().starts_with(b"/dev/")) {
                    // SAFETY: a NUL-terminated path and two IDs.
                    unsafe { libc::lchown(source.as_ptr(), uid, gid) };
                }
                let at = c_path(target).ok_or("a NUL in a path")?;
                if !mount(Some(source), &at, None, libc::MS_BIND | libc::MS_REC, b"") {
                    return Err(failed(&format!("binding {}", target.display())));
                }
                let ro = if *write { 0 } else { libc::MS_RDONLY };
                let remount = libc::MS_BIND | libc::MS_REMOUNT | libc::MS_NOSUID | ro | flags;
                if !mount(None, &at, None, remount, b"") {
                    return Err(failed(&format!("making {} read-only", target.display())));
                }
            }
            Step::Link { target, text } => {
                if let Some(parent) = target.parent() {
                    std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
                }
                // Two grants may name the same link; the first made it.
                let _ = std::os::unix::fs::symlink(text, target);
            }
            Step::Write { target, text } => {
                if let Some(parent) = target.parent() {
                    std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
                }
                std::fs::write(target, text).map_err(|e| format!("{}: {e}", target.display()))?;
            }
        }
    }
    // Its own: the scratch folder, /dev/shm, /proc (the keeper's, of the run's namespace).
    for own in [plan.inside.as_path(), Path::new("dev/shm"), Path::new("proc")] {
        std::fs::create_dir_all(own).map_err(|e| format!("{}: {e}", own.display()))?;
    }
    Ok(())
}

/// The run's scratch tmpfs at `scratch`, its place in the root, and its `/dev/shm` at `shm`.
fn own_tmpfs(tmpfs: &std::ffi::CStr, scratch: &CString, shm: &CString) -> Result<(), String> {
    let fs = Some(&b"tmpfs\0"[..]);
    let data = tmpfs.to_bytes_with_nul();
    if !mount(None, scratch, fs, libc::MS_NOSUID | libc::MS_NODEV, data)
        || !mount(None, shm, fs, libc::MS_NOSUID | libc::MS_NODEV, data)
    {
        return Err(failed("the run's tmpfs"));
    }
    Ok(())
}

/// Makes the root laid out in the current folder read-only and the root of this mount
/// namespace, detaching the machine's tree.
fn seal() -> Result<(), String> {
    let at = |p: &str| CString::new(p).unwrap_or_default();
    let locked = libc::MS_REMOUNT | libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV;
    if !mount(None, &at("."), None, locked, b"") {
        return Err(failed("making the root read-only"));
    }
    // SAFETY: "." twice: the new root goes over the old, which is then detached below it.
    unsafe {
        let dot = at(".");
        if libc::syscall(libc::SYS_pivot_root, dot.as_ptr(), dot.as_ptr()) != 0 {
            return Err(failed("pivot_root"));
        }
        if libc::umount2(dot.as_ptr(), libc::MNT_DETACH) != 0 {
            return Err(failed("detaching the machine's tree"));
        }
    }
    std::env::set_current_dir("/").map_err(|e| format!("/: {e}"))
}

/// What tells one prepared root from another: the plan's steps, and the files its binds
/// reach now (a program rebuilt at the same path is a new file, which a root bound before
/// would not show). `None` where a source is gone.
pub fn identity(plan: &Plan) -> Option<Vec<u8>> {
    use std::os::unix::fs::MetadataExt;
    let mut key = format!("{:?}|{:?}|{:?}", plan.steps, plan.inside, plan.run_as).into_bytes();
    for step in &plan.steps {
        if let Step::Bind { source, .. } = step {
            let meta = std::fs::metadata(OsStr::from_bytes(source.as_bytes())).ok()?;
            key.extend_from_slice(&meta.dev().to_le_bytes());
            key.extend_from_slice(&meta.ino().to_le_bytes());
        }
    }
    Some(key)
}

/// Whether runs here can get a root of their own (`Err`: why not). Probed once per process in
/// a throwaway child that makes one over an empty folder, as root or through a user namespace.
pub fn support() -> Result<(), String> {
    static PROBED: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();
    PROBED
        .get_or_init(|| {
            let mode = super::pids::support()?;
            let dir = tempfile::tempdir().map_err(|e| format!("no folder to probe a root in: {e}"))?;
            let target = c_path(dir.path()).ok_or("a NUL in the temporary folder's path")?;
            let maps = super::pids::IdMaps::own();
            let none = std::ptr::null::<libc::c_char>();
            // SAFETY: raw system calls only, on memory prepared before the fork.
            let status = super::probe::in_child(|| unsafe {
                if mode == super::pids::Mode::User && !super::pids::enter_user_namespace(&maps) {
                    return 10;
                }
                let dot = b".\0".as_ptr().cast();
                let tmpfs = b"tmpfs\0".as_ptr().cast();
                if libc::unshare(libc::CLONE_NEWNS | libc::CLONE_NEWIPC | libc::CLONE_NEWUTS) != 0 {
                    11
                } else if libc::mount(none, b"/\0".as_ptr().cast(), none, libc::MS_REC | libc::MS_PRIVATE, none.cast())
                    != 0
                {
                    12
                } else if libc::mount(tmpfs, target.as_ptr(), tmpfs, 0, none.cast()) != 0 {
                    13
                } else if libc::chdir(target.as_ptr()) != 0 {
                    14
                } else if libc::syscall(libc::SYS_pivot_root, dot, dot) != 0 {
                    15
                } else if libc::umount2(dot, libc::MNT_DETACH) != 0 {
                    16
                } else {
                    0
                }
            });
            match status {
                Some(0) => Ok(()),
                Some(11) => Err("the kernel refused IPC and UTS namespaces".into()),
                Some(15 | 16) => Err("the kernel refused pivot_root".into()),
                _ => Err("the kernel refused the mounts a root of its own needs".into()),
            }
        })
        .clone()
}
