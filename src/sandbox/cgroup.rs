//! Exact figures from a cgroup of the run's own, where the machine lets the judge make one:
//! the CPU of every process that ran in it, reaped by us or by the kernel (a parent that
//! ignores SIGCHLD hands its children's CPU to nobody), and the peak of the memory it held:
//! shared pages once, tmpfs, memfd and pipe pages and the kernel's memory for its processes
//! included. The cgroup's memory limit is set to the watchdog's guard, so the kernel, not a
//! sample every few milliseconds, stops a run that races past it.
//!
//! Two layouts are used: cgroup v1 with the `memory` and `cpuacct` controllers mounted and
//! writable (a judge run as root on a v1 or hybrid machine), and cgroup v2 where the judge's
//! own cgroup already delegates `memory` to its children. Elsewhere [`support`] says why not,
//! and runs are measured by `wait4` and sampling, as before.
//!
//! The program joins its cgroup itself, between fork and exec, by writing `0` to the files
//! the launcher opened for it ([`Group::join_files`]): whatever it forks is born inside.

use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Where runs' cgroups are made.
#[derive(Clone, Debug)]
pub enum Hierarchy {
    /// `pids`: where the `pids` controller is mounted too, which caps a run's tasks.
    V1 { memory: PathBuf, cpuacct: PathBuf, pids: Option<PathBuf> },
    /// `pids`: whether the base delegates the `pids` controller as well.
    V2 { base: PathBuf, pids: bool },
}

impl Hierarchy {
    /// For `--json`.
    pub fn name(&self) -> &'static str {
        match self {
            Hierarchy::V1 { .. } => "cgroup v1",
            Hierarchy::V2 { .. } => "cgroup v2",
        }
    }

    /// Whether its cgroups cap the number of tasks (`Err`: why not).
    pub fn caps_tasks(&self) -> Result<(), String> {
        match self {
            Hierarchy::V1 { pids: Some(_), .. } | Hierarchy::V2 { pids: true, .. } => Ok(()),
            Hierarchy::V1 { .. } => Err("cgroup v1 has no writable pids controller here".into()),
            Hierarchy::V2 { .. } => Err("the judge's cgroup v2 does not delegate the pids controller".into()),
        }
    }
}

/// Whether runs can be measured by a cgroup here (`Err`: why not). Probed once, by making
/// and removing a cgroup.
pub fn support() -> Result<&'static Hierarchy, String> {
    static FOUND: OnceLock<Result<Hierarchy, String>> = OnceLock::new();
    FOUND.get_or_init(find).as_ref().map_err(Clone::clone)
}

/// The mount point of each cgroup hierarchy, by its controllers (`""` for v2).
fn mounts() -> Vec<(String, PathBuf)> {
    let text = std::fs::read_to_string("/proc/self/mountinfo").unwrap_or_default();
    let mut found = Vec::new();
    for line in text.lines() {
        // Fields: ... mount-point options ... - fstype source super-options.
        let Some((left, right)) = line.split_once(" - ") else { continue };
        let (Some(point), Some(fstype)) = (left.split(' ').nth(4), right.split(' ').next()) else { continue };
        let options = right.split(' ').nth(2).unwrap_or("");
        match fstype {
            "cgroup2" => found.push((String::new(), PathBuf::from(point))),
            "cgroup" => {
                for controller in ["memory", "cpuacct", "pids"] {
                    if options.split(',').any(|o| o == controller) {
                        found.push((controller.to_string(), PathBuf::from(point)));
                    }
                }
            }
            _ => {}
        }
    }
    found
}

/// The judge's own cgroup in the hierarchy of `controller` (`""` for v2).
fn own_path(controller: &str) -> Option<String> {
    let text = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    text.lines().find_map(|line| {
        let mut parts = line.splitn(3, ':');
        let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        let hit = if controller.is_empty() {
            controllers.is_empty()
        } else {
            controllers.split(',').any(|c| c == controller)
        };
        hit.then(|| path.trim_start_matches('/').to_string())
    })
}

fn find() -> Result<Hierarchy, String> {
    let mounts = mounts();
    let under = |controller: &str| -> Option<PathBuf> {
        let point = &mounts.iter().find(|(c, _)| c == controller)?.1;
        Some(point.join(own_path(controller)?))
    };
    let v1 = under("memory").zip(under("cpuacct")).map(|(memory, cpuacct)| Hierarchy::V1 {
        memory,
        cpuacct,
        pids: under("pids"),
    });
    let delegated = |base: &Path, controller: &str| {
        std::fs::read_to_string(base.join("cgroup.subtree_control"))
            .is_ok_and(|s| s.split_whitespace().any(|c| c == controller))
    };
    let v2 = under("").filter(|base| delegated(base, "memory"));
    let hierarchy = match (v1, v2) {
        (Some(v1), _) => v1,
        (None, Some(base)) => Hierarchy::V2 { pids: delegated(&base, "pids"), base },
        (None, None) => {
            return Err("no cgroup to measure runs with (cgroup v1's memory and cpuacct, or a v2 cgroup \
                        delegating memory)"
                .into())
        }
    };
    remove_stale(&hierarchy);
    let probe = Group::create(&hierarchy, &format!("judge-probe-{}", std::process::id()))
        .map_err(|e| format!("cannot make a cgroup for runs ({e}; it needs write access, e.g. root)"))?;
    probe.join_files().map_err(|e| format!("cannot join a cgroup: {e}"))?;
    // A pids controller that will not take a limit is as good as none.
    let hierarchy = match hierarchy {
        Hierarchy::V1 { memory, cpuacct, .. } if probe.set_tasks(64).is_err() => {
            Hierarchy::V1 { memory, cpuacct, pids: None }
        }
        Hierarchy::V2 { base, .. } if probe.set_tasks(64).is_err() => Hierarchy::V2 { base, pids: false },
        other => other,
    };
    Ok(hierarchy)
}

/// Removes the cgroups left by launchers that were killed outright (`judge-PID-N` whose PID
/// is gone): empty once their processes died, but never removed.
fn remove_stale(hierarchy: &Hierarchy) {
    let bases = match hierarchy {
        Hierarchy::V1 { memory, cpuacct, pids } => {
            [Some(memory), Some(cpuacct), pids.as_ref()].into_iter().flatten().collect()
        }
        Hierarchy::V2 { base, .. } => vec![base],
    };
    for base in bases {
        for entry in std::fs::read_dir(base).into_iter().flatten().flatten() {
            let name = entry.file_name();
            let Some(rest) = name.to_str().and_then(|n| n.strip_prefix("judge-")) else { continue };
            let pid = rest.trim_start_matches("probe-").split('-').next().unwrap_or("");
            if pid.parse::<u32>().is_ok() && !Path::new("/proc").join(pid).exists() {
                let _ = std::fs::remove_dir(entry.path());
            }
        }
    }
}

/// One run's cgroup (one folder per hierarchy), removed on drop.
#[derive(Debug)]
pub struct Group {
    /// memory (v1) or the one folder (v2), then cpuacct and pids (v1).
    dirs: Vec<PathBuf>,
    v2: bool,
    /// The folder whose `pids.max` caps the run's tasks, if any.
    pids: Option<PathBuf>,
}

fn write(path: &Path, text: &str) -> std::io::Result<()> {
    std::fs::write(path, text)
}

impl Group {
    /// Makes the cgroup `name`.
    pub fn create(hierarchy: &Hierarchy, name: &str) -> std::io::Result<Group> {
        let (mut dirs, v2) = match hierarchy {
            Hierarchy::V1 { memory, cpuacct, .. } => (vec![memory.join(name), cpuacct.join(name)], false),
            Hierarchy::V2 { base, .. } => (vec![base.join(name)], true),
        };
        let pids = match hierarchy {
            Hierarchy::V1 { pids: Some(pids), .. } => {
                dirs.push(pids.join(name));
                Some(pids.join(name))
            }
            Hierarchy::V2 { base, pids: true } => Some(base.join(name)),
            _ => None,
        };
        let mut group = Group { dirs: Vec::new(), v2, pids };
        for dir in dirs {
            std::fs::create_dir(&dir)?;
            group.dirs.push(dir);
        }
        Ok(group)
    }

    /// Caps the tasks (processes and threads) alive in it at once: past it, `fork` and
    /// `clone` fail with EAGAIN inside the run, and the machine keeps its PIDs.
    pub fn set_tasks(&self, max: u64) -> std::io::Result<()> {
        match &self.pids {
            Some(dir) => write(&dir.join("pids.max"), &max.to_string()),
            None => Err(std::io::Error::new(std::io::ErrorKind::Unsupported, "no pids controller")),
        }
    }

    /// Caps the memory its processes may hold: past it the kernel reclaims, then kills.
    pub fn set_limit(&self, kib: u64) -> std::io::Result<()> {
        let file = if self.v2 { "memory.max" } else { "memory.limit_in_bytes" };
        write(&self.dirs[0].join(file), &(kib * 1024).to_string())
    }

    /// The files the program joins by writing `0` to each. On v1, `tasks`: it moves the
    /// writing thread alone (the program is one thread until exec), which the kernel does
    /// without the global lock that moving a whole process takes; that lock waits for an RCU
    /// grace period, up to 12 ms a run on a loaded machine (`cgroup.procs`: median 65 µs,
    /// worst 8.6 ms; `tasks`: worst 0.13 ms, 40 moves each).
    pub fn join_files(&self) -> std::io::Result<Vec<OwnedFd>> {
        let file = if self.v2 { "cgroup.procs" } else { "tasks" };
        self.dirs
            .iter()
            .map(|d| std::fs::OpenOptions::new().write(true).open(d.join(file)).map(OwnedFd::from))
            .collect()
    }

    /// The file that says how much CPU the cgroup has used so far ([`cpu_us`] reads it).
    pub fn cpu_file(&self) -> PathBuf {
        if self.v2 {
            self.dirs[0].join("cpu.stat")
        } else {
            self.dirs[1].join("cpuacct.usage")
        }
    }

    /// The CPU (µs) of everything that ran in it, and the peak memory it held (KiB).
    pub fn figures(&self) -> Option<(u64, u64)> {
        let read = |dir: &Path, file: &str| std::fs::read_to_string(dir.join(file)).ok();
        let peak: u64 = if self.v2 {
            read(&self.dirs[0], "memory.peak")?.trim().parse().ok()?
        } else {
            read(&self.dirs[0], "memory.max_usage_in_bytes")?.trim().parse().ok()?
        };
        Some((cpu_us(&self.cpu_file())?, peak / 1024))
    }
}

/// The CPU (µs) a cgroup has used so far, from its [`Group::cpu_file`]: the watchdog reads
/// it while the run goes, so CPU that no live process holds any more (children reaped by
/// the keeper or by the kernel) still counts towards the time limit.
pub fn cpu_us(file: &Path) -> Option<u64> {
    let text = std::fs::read_to_string(file).ok()?;
    if file.ends_with("cpu.stat") {
        text.lines().find_map(|l| l.strip_prefix("usage_usec "))?.trim().parse().ok()
    } else {
        text.trim().parse::<u64>().ok().map(|ns| ns / 1000)
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        for dir in &self.dirs {
            // Empty once every process of the run is reaped; a process the kernel is still
            // tearing down keeps it busy for a moment.
            for _ in 0..1000 {
                match std::fs::remove_dir(dir) {
                    Err(e) if e.raw_os_error() == Some(libc::EBUSY) => std::thread::yield_now(),
                    _ => break,
                }
            }
        }
    }
}
