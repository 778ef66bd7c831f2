//! A process's descendants on Linux: finding them, measuring them, and killing them.
//!
//! Descendants are found by walking `/proc/PID/task/TID/children` down from a root, so only
//! the root's own subtree is read, never all of `/proc`. A process that escapes its parent
//! (double fork, `setsid`, a new process group) stays in the subtree as long as the root is
//! a child subreaper: orphans are re-parented to it, not to init.
//!
//! Kills go through pidfds: each process is opened, confirmed to still be a descendant,
//! then signalled through its pidfd, so a PID reused by an unrelated process between the
//! walk and the kill can never be hit.

use std::os::fd::{FromRawFd, OwnedFd};

/// Every descendant of `root` (not `root` itself), parents before children.
pub fn descendants(root: i32) -> Vec<i32> {
    let mut found = Vec::new();
    let mut next = 0;
    let mut parent = root;
    loop {
        found.extend(children(parent));
        match found.get(next) {
            Some(&p) => {
                parent = p;
                next += 1;
            }
            None => return found,
        }
    }
}

/// The children of `pid`, over all of its threads (a child belongs to the thread that
/// forked it).
fn children(pid: i32) -> Vec<i32> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else { return Vec::new() };
    let mut kids = Vec::new();
    for task in tasks.flatten() {
        let Ok(text) = std::fs::read_to_string(task.path().join("children")) else { continue };
        kids.extend(text.split_whitespace().filter_map(|w| w.parse::<i32>().ok()));
    }
    kids
}

/// The parent of `pid`, from /proc (`None` once it is gone).
fn parent_of(pid: i32) -> Option<i32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may hold spaces and parentheses: count fields after the last ')'.
    stat.get(stat.rfind(')')? + 2..)?.split_whitespace().nth(1)?.parse().ok()
}

/// Whether `pid` descends from `root` right now.
fn descends_from(pid: i32, root: i32) -> bool {
    let mut at = pid;
    for _ in 0..4096 {
        match parent_of(at) {
            Some(p) if p == root => return true,
            Some(p) if p > 1 => at = p,
            _ => return false,
        }
    }
    false
}

/// Sends SIGKILL to every descendant of `root`, through pidfds. Returns how many were
/// signalled. Processes forked while this runs are caught by the next call.
pub fn kill_descendants(root: i32) -> usize {
    let mut killed = 0;
    // Leaves first: a parent killed first would hand its children to a reaper outside the
    // tree (unless `root` is a subreaper), and they could no longer be confirmed as ours.
    for pid in descendants(root).into_iter().rev() {
        // SAFETY: pidfd_open takes a pid and flags and returns a new fd or -1.
        let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
        if fd < 0 {
            continue;
        }
        // SAFETY: the fd was just returned to us and is owned by nothing else.
        let pidfd = unsafe { OwnedFd::from_raw_fd(fd as i32) };
        // Confirmed after opening: the pidfd now pins this very process, whatever happens
        // to the number.
        if descends_from(pid, root) {
            use std::os::fd::AsRawFd;
            // SAFETY: plain syscall on a pidfd we own; null siginfo means a plain kill.
            let r = unsafe {
                libc::syscall(libc::SYS_pidfd_send_signal, pidfd.as_raw_fd(), libc::SIGKILL, std::ptr::null::<u8>(), 0)
            };
            killed += usize::from(r == 0);
        }
    }
    killed
}

/// The user + system CPU an rusage holds, in microseconds.
pub fn cpu_us(usage: &libc::rusage) -> u64 {
    let us = |t: libc::timeval| t.tv_sec as u64 * 1_000_000 + t.tv_usec as u64;
    us(usage.ru_utime) + us(usage.ru_stime)
}

/// What the live processes of a tree use right now.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// User + system CPU of the live processes and of the children they have reaped.
    pub cpu_ms: u64,
    /// Memory of the live processes, summed: their resident sets when one process runs; when
    /// several do, their proportional sets (PSS), which count a page shared by k processes
    /// (a fork's untouched memory) once in all rather than k times; plus what their memfds
    /// hold beyond their mappings.
    pub rss_kib: u64,
    /// Processes of the tree that have not ended (zombies left out).
    pub live: usize,
    /// Processes running, waiting for a CPU, or in uninterruptible I/O (state R or D): not
    /// sleeping of their own accord.
    pub runnable: usize,
}

/// A process's proportional set size, in KiB (`Pss:` of `/proc/PID/smaps_rollup`).
fn pss_kib(pid: i32) -> Option<u64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup")).ok()?;
    let line = text.lines().find(|l| l.starts_with("Pss:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Memory held in memfds that the processes `pids` have open, in KiB, less what their own
/// mappings of them already put in their resident sets; `input` is the inode of the run's
/// stdin (a memfd the judge made: the input is not the program's memory). A memfd costs
/// memory without being mapped, so RSS alone would let a run hide gigabytes in one.
fn memfd_kib(pids: &[i32], fds: &[crate::buffers::OpenFd], input: u64) -> u64 {
    use std::os::unix::fs::MetadataExt;
    let mut sizes: std::collections::HashMap<u64, u64> = std::collections::HashMap::new();
    for fd in fds.iter().filter(|fd| fd.target.starts_with(b"/memfd:")) {
        if let Ok(meta) = std::fs::metadata(&fd.path) {
            if meta.ino() != input {
                sizes.insert(meta.ino(), meta.blocks() * 512 / 1024);
            }
        }
    }
    if sizes.is_empty() {
        return 0;
    }
    // Pages of a memfd that a process maps and has touched are in its RSS already.
    for pid in pids {
        let Ok(text) = std::fs::read_to_string(format!("/proc/{pid}/smaps")) else { continue };
        let mut current: Option<u64> = None;
        for line in text.lines() {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                [_, _, _, _, inode, path, ..] if path.starts_with("/memfd:") => current = inode.parse().ok(),
                ["Rss:", kib, ..] => {
                    if let Some(size) = current.and_then(|i| sizes.get_mut(&i)) {
                        *size = size.saturating_sub(kib.parse().unwrap_or(0));
                    }
                    current = None;
                }
                _ => {}
            }
        }
    }
    sizes.values().sum()
}

/// The usage of every descendant of `root` (the memfds it holds included, but for the one
/// whose inode is `input`; with `buffers`, its pipe and socket buffers too, see
/// [`crate::buffers`]).
pub fn usage(root: i32, input: u64, buffers: bool) -> Usage {
    // SAFETY: sysconf only reads system constants.
    let (ticks, page_kib) = unsafe {
        (libc::sysconf(libc::_SC_CLK_TCK).max(1) as u64, (libc::sysconf(libc::_SC_PAGESIZE).max(1024) / 1024) as u64)
    };
    let mut total = Usage::default();
    let pids = descendants(root);
    let shared = pids.len() > 1;
    let fds = crate::buffers::open_fds(&pids);
    total.rss_kib += memfd_kib(&pids, &fds, input);
    if buffers {
        total.rss_kib += crate::buffers::held_kib(&fds);
    }
    for pid in pids {
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { continue };
        let Some(rest) = stat.rfind(')').and_then(|i| stat.get(i + 2..)) else { continue };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        // After the name: state is field 0; utime 11, stime 12, cutime 13, cstime 14; rss 21.
        let field = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok()).unwrap_or(0);
        total.live += usize::from(fields.first() != Some(&"Z"));
        total.runnable += usize::from(matches!(fields.first(), Some(&"R" | &"D")));
        total.cpu_ms += (field(11) + field(12) + field(13) + field(14)) * 1000 / ticks;
        let rss = field(21) * page_kib;
        total.rss_kib += if shared { pss_kib(pid).unwrap_or(rss) } else { rss };
    }
    total
}

/// The time each thread of the tree (`root`'s descendants) has spent runnable but waiting
/// for a CPU, in ns (`/proc/PID/task/TID/schedstat`'s run delay): (thread id, delay).
pub fn run_delays(root: i32) -> Vec<(i32, u64)> {
    let mut out = Vec::new();
    for pid in descendants(root) {
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else { continue };
        for task in tasks.flatten() {
            let Some(tid) = task.file_name().to_str().and_then(|t| t.parse::<i32>().ok()) else { continue };
            let Ok(text) = std::fs::read_to_string(task.path().join("schedstat")) else { continue };
            if let Some(delay) = text.split_whitespace().nth(1).and_then(|d| d.parse::<u64>().ok()) {
                out.push((tid, delay));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `pid` is running (a zombie, or a reused number with another parent chain,
    /// does not count: the caller checks only processes it saw start).
    fn running(pid: i32) -> bool {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| !s.contains(") Z"))
    }

    #[test]
    fn finds_grandchildren_and_kills_them() {
        // The root execs into a sleep so that it never wakes when its children die: a shell
        // root would return from `wait` and exit on its own, racing the kill. The root is
        // this child, never the test process, so tests running alongside are untouched.
        let mut root = std::process::Command::new("sh")
            .args(["-c", "sleep 30 & sleep 30 & exec sleep 30"])
            .spawn()
            .expect("sh runs");
        let pid = root.id() as i32;
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        let sleeps = loop {
            let kids = descendants(pid);
            if kids.len() == 2 {
                break kids;
            }
            assert!(std::time::Instant::now() < deadline, "sh never started its sleeps");
            std::thread::yield_now();
        };
        assert_eq!(kill_descendants(pid), 2);
        for &kid in &sleeps {
            while running(kid) {
                assert!(std::time::Instant::now() < deadline, "sleep {kid} survived");
                std::thread::yield_now();
            }
        }
        assert!(running(pid), "the root itself is not a descendant and must be spared");
        root.kill().expect("the root is killed");
        root.wait().expect("the root is reaped");
    }
}
