//! The launcher: a small process that starts every solver and checker, so that no figure
//! carries the judge's memory and no descendant of a run escapes it.
//!
//! Each thread that runs cases starts one launcher (`judge --builtin launcher`) and keeps
//! it. A launcher is a child subreaper: whatever its runs fork, even through `setsid` or a
//! double fork, stays its descendant. For each request it forks the program (a forked
//! child's peak memory starts from the launcher's few MiB, where a spawn from the judge
//! starts from the judge's own peak), waits for it to end, kills every descendant left,
//! reaps them all, and answers with the exit status, the CPU time of everything it reaped
//! (a reaped process's figures include the children it reaped itself) and the largest peak
//! RSS among them.
//!
//! A sandboxed run on a kernel that allows it goes one level deeper: the launcher forks a
//! keeper, init of the run's own PID namespace, which forks the program, reaps the run and
//! reports its figures ([`crate::sandbox::pids`]); a run in a cgroup takes its figures from
//! there ([`crate::sandbox::cgroup`]). Forking is `spawn`'s, the end of a run `reap`'s.
//!
//! The judge and its launcher talk over a `SOCK_SEQPACKET` socket: a request is one message
//! carrying the program, arguments, extra environment, CPU backstop and memory limit, with
//! the stdin file and the two output pipes attached as file descriptors.

use std::ffi::OsString;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};

mod prepared;
mod reap;
mod spawn;
pub use reap::Ended;
pub use spawn::{monotonic_ns, Request};

use reap::{collect, collect_keeper, ready_or_hang_up, reap_keeper, sweep, wait_or_hang_up};
use spawn::{fork_exec, Started};

/// A run as started: where the judge can watch it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Running {
    /// The PID of its keeper, when it has a PID namespace of its own: the run is the
    /// keeper's descendants.
    pub keeper: Option<i32>,
    /// The file of its cgroup that says how much CPU it has used so far.
    pub cgroup_cpu: Option<std::path::PathBuf>,
    /// When the program was forked, on CLOCK_MONOTONIC ([`monotonic_ns`]).
    pub forked_ns: u64,
}

fn encode(req: &Request) -> Vec<u8> {
    let mut out = Vec::new();
    let mut put = |bytes: &[u8]| {
        out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
        out.extend_from_slice(bytes);
    };
    put(req.cpu_backstop_s.to_string().as_bytes());
    // A scratch folder means a sandboxed run; an empty field, none.
    put(req.scratch.as_ref().map_or(&[][..], |s| s.as_bytes()));
    put(req.memory_kib.to_string().as_bytes());
    put(req.processes.to_string().as_bytes());
    put(req.file_bytes.to_string().as_bytes());
    put(if req.build { b"1" } else { b"0" });
    put(req.readable.len().to_string().as_bytes());
    for r in &req.readable {
        put(r.as_bytes());
    }
    put(req.hidden.len().to_string().as_bytes());
    for h in &req.hidden {
        put(h.as_bytes());
    }
    put(req.writable.len().to_string().as_bytes());
    for w in &req.writable {
        put(w.as_bytes());
    }
    put(req.program.as_bytes());
    put((req.args.len()).to_string().as_bytes());
    for a in &req.args {
        put(a.as_bytes());
    }
    for (k, v) in &req.env {
        put(k.as_bytes());
        put(v.as_bytes());
    }
    out
}

fn decode(bytes: &[u8]) -> Option<Request> {
    let mut parts = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let len = u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?) as usize;
        parts.push(bytes.get(at + 4..at + 4 + len)?.to_vec());
        at += 4 + len;
    }
    let mut parts = parts.into_iter();
    let number = |p: Option<Vec<u8>>| String::from_utf8(p?).ok()?.parse::<u64>().ok();
    let cpu_backstop_s = number(parts.next())?;
    let scratch = Some(OsString::from_vec(parts.next()?)).filter(|s| !s.is_empty());
    let memory_kib = number(parts.next())?;
    let processes = number(parts.next())?;
    let file_bytes = number(parts.next())?;
    let build = number(parts.next())? == 1;
    let nreadable = number(parts.next())? as usize;
    let readable = (0..nreadable).map(|_| parts.next().map(OsString::from_vec)).collect::<Option<Vec<_>>>()?;
    let nhidden = number(parts.next())? as usize;
    let hidden = (0..nhidden).map(|_| parts.next().map(OsString::from_vec)).collect::<Option<Vec<_>>>()?;
    let nwritable = number(parts.next())? as usize;
    let writable = (0..nwritable).map(|_| parts.next().map(OsString::from_vec)).collect::<Option<Vec<_>>>()?;
    let program = OsString::from_vec(parts.next()?);
    let nargs = number(parts.next())? as usize;
    let args = (0..nargs).map(|_| parts.next().map(OsString::from_vec)).collect::<Option<Vec<_>>>()?;
    let rest: Vec<Vec<u8>> = parts.collect();
    let env = rest
        .chunks(2)
        .filter(|p| p.len() == 2)
        .map(|p| (OsString::from_vec(p[0].clone()), OsString::from_vec(p[1].clone())))
        .collect();
    Some(Request {
        program,
        args,
        env,
        cpu_backstop_s,
        scratch,
        memory_kib,
        processes,
        file_bytes,
        writable,
        hidden,
        readable,
        build,
    })
}

/// Sends `data` with `fds` attached.
fn send(sock: RawFd, data: &[u8], fds: &[RawFd]) -> io::Result<()> {
    let space = unsafe { libc::CMSG_SPACE(std::mem::size_of_val(fds) as u32) } as usize;
    let mut control = vec![0u8; space.max(1)];
    let mut iov = libc::iovec { iov_base: data.as_ptr() as *mut libc::c_void, iov_len: data.len() };
    // SAFETY: msghdr is a plain C struct; every pointer in it outlives the sendmsg call.
    let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    if !fds.is_empty() {
        msg.msg_control = control.as_mut_ptr().cast();
        msg.msg_controllen = space as _;
        // SAFETY: the control buffer is CMSG_SPACE bytes for exactly these fds.
        unsafe {
            let cmsg = libc::CMSG_FIRSTHDR(&msg);
            (*cmsg).cmsg_level = libc::SOL_SOCKET;
            (*cmsg).cmsg_type = libc::SCM_RIGHTS;
            (*cmsg).cmsg_len = libc::CMSG_LEN(std::mem::size_of_val(fds) as u32) as _;
            std::ptr::copy_nonoverlapping(fds.as_ptr(), libc::CMSG_DATA(cmsg).cast::<RawFd>(), fds.len());
        }
    }
    loop {
        // SAFETY: msg is fully set up above.
        let r = unsafe { libc::sendmsg(sock, &msg, libc::MSG_NOSIGNAL) };
        if r >= 0 {
            return Ok(());
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// Receives one message and the fds attached to it (close-on-exec). `None` at end of stream.
fn receive(sock: RawFd) -> io::Result<Option<(Vec<u8>, Vec<OwnedFd>)>> {
    let mut data = vec![0u8; 1 << 16];
    let space = unsafe { libc::CMSG_SPACE((4 * std::mem::size_of::<RawFd>()) as u32) } as usize;
    let mut control = vec![0u8; space];
    let mut iov = libc::iovec { iov_base: data.as_mut_ptr().cast(), iov_len: data.len() };
    // SAFETY: as in `send`; recvmsg fills the buffers it is given.
    let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.as_mut_ptr().cast();
    msg.msg_controllen = space as _;
    let n = loop {
        let r = unsafe { libc::recvmsg(sock, &mut msg, libc::MSG_CMSG_CLOEXEC) };
        if r >= 0 {
            break r as usize;
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    };
    let mut fds = Vec::new();
    // SAFETY: walking the control messages recvmsg just wrote.
    unsafe {
        let mut cmsg = libc::CMSG_FIRSTHDR(&msg);
        while !cmsg.is_null() {
            if (*cmsg).cmsg_level == libc::SOL_SOCKET && (*cmsg).cmsg_type == libc::SCM_RIGHTS {
                let count = ((*cmsg).cmsg_len as usize - libc::CMSG_LEN(0) as usize) / std::mem::size_of::<RawFd>();
                let first = libc::CMSG_DATA(cmsg).cast::<RawFd>();
                for k in 0..count {
                    fds.push(OwnedFd::from_raw_fd(first.add(k).read_unaligned()));
                }
            }
            cmsg = libc::CMSG_NXTHDR(&msg, cmsg);
        }
    }
    if n == 0 && fds.is_empty() {
        return Ok(None);
    }
    data.truncate(n);
    Ok(Some((data, fds)))
}

/// A connected pair of `SOCK_SEQPACKET` sockets, close-on-exec.
fn socket_pair() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: socketpair writes two new fds into the array.
    let r = unsafe { libc::socketpair(libc::AF_UNIX, libc::SOCK_SEQPACKET | libc::SOCK_CLOEXEC, 0, fds.as_mut_ptr()) };
    if r != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both fds are new and ours.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

// ----- the judge's side -----

/// A running launcher, owned by one thread of the judge.
#[derive(Debug)]
pub struct Launcher {
    sock: OwnedFd,
    child: std::process::Child,
    /// A pidfd of the launcher: once it has ended, its number may belong to anyone, and
    /// nothing may be killed by it (see [`Launcher::tree`]).
    pidfd: Option<OwnedFd>,
}

/// A launcher's process tree, for killing a run: by number, while the launcher lives.
#[derive(Debug)]
pub struct Tree {
    pub root: i32,
    pidfd: Option<OwnedFd>,
}

impl Tree {
    /// Kills every process of the run, unless the launcher has ended (its number may then
    /// be another process's, whose children are not ours).
    pub fn kill(&self) {
        if let Some(fd) = &self.pidfd {
            let mut p = libc::pollfd { fd: fd.as_raw_fd(), events: libc::POLLIN, revents: 0 };
            // SAFETY: one pollfd we own; a pidfd polls readable once its process has ended.
            if unsafe { libc::poll(&mut p, 1, 0) } != 0 {
                return;
            }
        }
        crate::proctree::kill_descendants(self.root);
    }
}

impl Launcher {
    /// Starts `exe --builtin launcher`.
    pub fn start(exe: &std::path::Path) -> io::Result<Launcher> {
        let (ours, theirs) = socket_pair()?;
        let child = std::process::Command::new(exe)
            .args(["--builtin", "launcher"])
            .stdin(std::process::Stdio::from(theirs))
            .stdout(std::process::Stdio::null())
            .spawn()?;
        // SAFETY: pidfd_open takes a pid and flags; a new fd is ours.
        let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, child.id() as i32, 0) };
        let pidfd = (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd as RawFd) });
        Ok(Launcher { sock: ours, child, pidfd })
    }

    /// The launcher's tree, for a thread that may have to kill the run.
    pub fn tree(&self) -> Tree {
        Tree { root: self.pid(), pidfd: self.pidfd.as_ref().and_then(|f| f.try_clone().ok()) }
    }

    pub fn pid(&self) -> i32 {
        self.child.id() as i32
    }

    /// Asks for a run. The outer error means the launcher itself failed (replace it); the
    /// inner one, that the program could not be started (the launcher is fine).
    pub fn start_run(
        &self,
        req: &Request,
        stdin: &OwnedFd,
        stdout: &OwnedFd,
        stderr: &OwnedFd,
    ) -> io::Result<Result<Running, String>> {
        let fds = [stdin.as_raw_fd(), stdout.as_raw_fd(), stderr.as_raw_fd()];
        send(self.sock.as_raw_fd(), &encode(req), &fds)?;
        let (reply, _) = receive(self.sock.as_raw_fd())?
            .ok_or_else(|| io::Error::new(io::ErrorKind::Other, "the launcher ended"))?;
        match reply.split_first() {
            Some((b'S', [a, b, c, d, rest @ ..])) if rest.len() >= 8 => {
                let keeper = i32::from_le_bytes([*a, *b, *c, *d]);
                let (forked, cpu_file) = rest.split_at(8);
                let forked_ns = u64::from_le_bytes(forked.try_into().unwrap_or_default());
                let cgroup_cpu = (!cpu_file.is_empty()).then(|| OsString::from_vec(cpu_file.to_vec()).into());
                Ok(Ok(Running { keeper: (keeper != 0).then_some(keeper), cgroup_cpu, forked_ns }))
            }
            Some((b'E', why)) => Ok(Err(String::from_utf8_lossy(why).into_owned())),
            _ => Err(io::Error::new(io::ErrorKind::Other, "the launcher sent a reply it should not")),
        }
    }

    /// Waits for the run started last to end, with every process of it.
    pub fn finish_run(&self) -> io::Result<Ended> {
        let (reply, _) = receive(self.sock.as_raw_fd())?
            .ok_or_else(|| io::Error::new(io::ErrorKind::Other, "the launcher ended"))?;
        let field = |i: usize| reply.get(1 + 8 * i..9 + 8 * i).and_then(|b| b.try_into().ok()).map(u64::from_le_bytes);
        match (reply.first(), field(0), field(1), field(2), field(3), field(4), field(5)) {
            (Some(b'D'), Some(status), Some(cpu_us), Some(maxrss_kib), Some(leftovers), Some(floor_kib), Some(cg)) => {
                Ok(Ended {
                    status: status as i32,
                    cpu_us,
                    maxrss_kib,
                    leftovers: leftovers as u32,
                    floor_kib,
                    cgroup: cg == 1,
                })
            }
            _ => Err(io::Error::new(io::ErrorKind::Other, "the launcher sent a reply it should not")),
        }
    }
}

impl Drop for Launcher {
    fn drop(&mut self) {
        // The launcher ends, and kills what it still runs, when its socket closes.
        // SAFETY: shutting down our own socket.
        unsafe { libc::shutdown(self.sock.as_raw_fd(), libc::SHUT_RDWR) };
        let _ = self.child.wait();
    }
}

// ----- the launcher's side -----

/// The launcher program: serves requests on stdin until it closes. Returns the exit status.
pub fn main() -> i32 {
    // SAFETY: prctl with an integer flag; signal dispositions.
    unsafe {
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
        // Ctrl-C and a closed terminal reach the judge; the launcher outlives it just long
        // enough to kill its run (it sees its socket close), so it ignores them.
        libc::signal(libc::SIGINT, libc::SIG_IGN);
        libc::signal(libc::SIGHUP, libc::SIG_IGN);
        libc::signal(libc::SIGQUIT, libc::SIG_IGN);
    }
    // Its runs' views hide the judge's temporary folder; the launcher makes none of its own.
    crate::interrupt::launched_by(std::os::unix::process::parent_id());
    let sock = 0;
    // Where runs can have a PID namespace, the launcher's own, to come back to after each.
    let mode = crate::sandbox::pids::support().ok();
    let own_pids =
        mode.filter(|m| *m == crate::sandbox::pids::Mode::Root).and_then(|_| crate::sandbox::pids::own_namespace());
    let maps = crate::sandbox::pids::IdMaps::own();
    let net = own_pids.as_ref().and_then(|_| crate::sandbox::network::prepare());
    let cgroups = crate::sandbox::cgroup::support().ok();
    let mut runs = 0u64;
    // A sandboxed run's cgroup, made ahead of the run that takes it.
    let new_group = |runs: &mut u64| {
        *runs += 1;
        cgroups.and_then(|h| {
            crate::sandbox::cgroup::Group::create(h, &format!("judge-{}-{runs}", std::process::id())).ok()
        })
    };
    let mut spare = new_group(&mut runs);
    // The roots this launcher prepared, which its runs enter rather than make.
    let mut roots = prepared::Roots::default();
    // Measured between runs, off the judge's path (a fork and a wait).
    let mut floor_kib = floor();
    loop {
        let (data, fds) = match receive(sock) {
            Ok(Some(m)) => m,
            _ => break,
        };
        let Some(req) = decode(&data).filter(|_| fds.len() == 3) else {
            let _ = send(sock, b"Ebad request", &[]);
            continue;
        };
        // A sandboxed run's cgroup, capped where the watchdog's guard would kill it.
        let group = if req.scratch.is_some() { spare.take().or_else(|| new_group(&mut runs)) } else { None };
        let guard = (req.memory_kib * 2).max(req.memory_kib + 64 * 1024);
        let group = group.filter(|g| g.set_limit(guard).is_ok());
        // A cgroup whose pids controller refuses the cap still measures; the note says
        // whether runs are capped (see `sandbox::protections`).
        if let Some(g) = &group {
            let _ = g.set_tasks(req.processes);
        }
        let joins = group.as_ref().and_then(|g| g.join_files().ok()).unwrap_or_default();
        let namespaces = match (mode, &own_pids) {
            (Some(crate::sandbox::pids::Mode::Root), Some(own)) => spawn::Namespaces::Root(own, net.as_ref()),
            (Some(crate::sandbox::pids::Mode::User), _) => spawn::Namespaces::User(&maps),
            _ => spawn::Namespaces::None,
        };
        match fork_exec(&req, &fds, namespaces, &joins, &mut roots) {
            Ok(Started { pid, keeper, forked_ns }) => {
                drop(fds);
                // With a keeper, the judge measures the run from it: its descendants are the run.
                // With a keeper the judge measures the run from it (its descendants are the
                // run); with a cgroup it reads the run's CPU from there too.
                let mut started = vec![b'S'];
                started.extend_from_slice(&(if keeper.is_some() { pid } else { 0 }).to_le_bytes());
                started.extend_from_slice(&forked_ns.to_le_bytes());
                if let Some(g) = &group {
                    started.extend_from_slice(g.cpu_file().as_os_str().as_bytes());
                }
                if send(sock, &started, &[]).is_err() {
                    break;
                }
                // A keeper's figures come once the run is over, before its namespaces are
                // torn down: the judge need not wait for that.
                let waited = match &keeper {
                    Some(figures) => ready_or_hang_up(figures.as_raw_fd(), sock),
                    None => wait_or_hang_up(pid, sock),
                };
                if !waited {
                    // The judge is gone (Ctrl-C, killed): nothing of its run may outlive it.
                    sweep(None);
                    return 0;
                }
                let (mut ended, keeper_left) = match &keeper {
                    Some(figures) => {
                        let (ended, reaped) = collect_keeper(pid, figures);
                        (ended, !reaped)
                    }
                    None => (collect(pid), false),
                };
                drop(joins);
                // Every process of the run is reaped by now: the cgroup's figures are final.
                if let Some((cpu_us, peak_kib)) = group.as_ref().and_then(|g| g.figures()) {
                    ended.cpu_us = cpu_us;
                    ended.maxrss_kib = ended.maxrss_kib.max(peak_kib);
                    ended.cgroup = true;
                }
                let mut reply = vec![b'D'];
                let figures = [
                    ended.status as u32 as u64,
                    ended.cpu_us,
                    ended.maxrss_kib,
                    u64::from(ended.leftovers),
                    floor_kib,
                    u64::from(ended.cgroup),
                ];
                for v in figures {
                    reply.extend_from_slice(&v.to_le_bytes());
                }
                if send(sock, &reply, &[]).is_err() {
                    break;
                }
                // Off the judge's path: it reads the figures while the keeper and the cgroup go
                // and the next run's cgroup is made.
                if keeper_left {
                    reap_keeper(pid);
                }
                drop(group);
                if spare.is_none() {
                    spare = new_group(&mut runs);
                }
                floor_kib = floor();
            }
            Err(e) => {
                let _ = send(sock, format!("E{e}").as_bytes(), &[]);
            }
        }
    }
    sweep(None);
    0
}

/// What a forked child's peak RSS starts from: measured by forking one that exits at once.
fn floor() -> u64 {
    // SAFETY: single-threaded; the child only exits.
    let pid = unsafe { libc::fork() };
    if pid == 0 {
        unsafe { libc::_exit(0) };
    }
    if pid < 0 {
        return u64::MAX;
    }
    let mut status = 0;
    // SAFETY: plain C struct wait4 fills in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    while unsafe { libc::wait4(pid, &mut status, 0, &mut usage) } < 0 {
        if io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            return u64::MAX;
        }
    }
    usage.ru_maxrss.max(0) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_round_trip() {
        let req = Request {
            program: "./a.out".into(),
            args: vec!["--fast".into(), "".into()],
            env: vec![("INPUT".into(), "/tmp/in".into())],
            cpu_backstop_s: 5,
            scratch: Some("/tmp/judge-run-x".into()),
            memory_kib: 65536,
            processes: 64,
            file_bytes: 0,
            hidden: vec!["/h".into()],
            readable: vec!["/r".into()],
            build: true,
            writable: vec!["/tmp/judge-x/log.txt".into()],
        };
        assert_eq!(decode(&encode(&req)), Some(req));
        assert_eq!(decode(b"\x05\x00\x00\x00abc"), None);
    }
}
