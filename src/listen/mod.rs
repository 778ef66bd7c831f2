//! `judge listen`: a Competitive Companion listener. The browser extension POSTs each problem
//! as JSON to a port on this machine; each becomes a problem folder (see [`write`](mod@write)).
//!
//! Plain HTTP/1.1 over `std::net`, on the loopback only (127.0.0.1 and `[::1]`, each accepted
//! on a thread of its own), on a port the extension sends to as installed ([`ports`]), one
//! request per connection ([`http`]). Each connection has a thread of its own (at most [`MAX_CONNECTIONS`] at once) and a deadline for its request, so a
//! client that connects and says nothing never delays another's problem. Writing a problem and
//! counting its batch happen one at a time. An `OPTIONS` preflight, which older versions of the
//! extension send, is answered. Only the extension, or a tool without an origin such as curl,
//! may write problems: a web page's origin is refused, and so is `null` (Firefox's extension
//! sends it, but so do sandboxed frames) but for a POST of JSON, which no page can send.

pub mod http;
pub mod ports;
pub mod task;
pub mod write;

use http::Answer;
use std::collections::HashMap;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use task::Task;
use write::Refusal;

pub use http::MAX_BODY;

/// Connections served at once; past it a new one is answered 503 at once.
pub const MAX_CONNECTIONS: usize = 32;

/// What the listener tells its caller as requests come.
#[derive(Debug)]
pub enum Note<'a> {
    /// A problem was written to `folder`.
    Written { task: &'a Task, folder: &'a Path },
    /// A problem's folder exists already: kept.
    Kept { task: &'a Task, why: String },
    /// A request was refused with this status.
    Refused { status: u16, why: String },
    /// Every problem of a batch has come (`size` of them).
    BatchDone { size: usize, folders: &'a [PathBuf] },
}

/// How to listen.
#[derive(Clone, Debug)]
pub struct Options {
    pub dir: PathBuf,
    /// Listen on after a batch is complete.
    pub keep: bool,
    /// Replace the samples of a problem folder that exists.
    pub force: bool,
}

/// What the connections' threads share.
struct Shared {
    options: Options,
    on: Box<dyn Fn(Note) + Send + Sync>,
    /// The problems of each batch seen so far, by batch id; held while a problem is written,
    /// so two problems never race for one folder.
    batches: Mutex<HashMap<String, (usize, Vec<PathBuf>)>>,
    live: AtomicUsize,
    done: AtomicBool,
    /// Where each accepting thread listens, to wake it when the listener is done.
    addresses: Vec<SocketAddr>,
}

/// Serves on `listeners` (127.0.0.1 and `[::1]`, one accepting thread each) until a batch is
/// complete (or for ever with `keep`), telling `on` what happens, from the connections'
/// threads. Only an error of a listening socket itself ends it early.
pub fn serve(
    listeners: &[TcpListener],
    options: Options,
    on: impl Fn(Note) + Send + Sync + 'static,
) -> std::io::Result<()> {
    let shared = Arc::new(Shared {
        options,
        on: Box::new(on),
        batches: Mutex::default(),
        live: AtomicUsize::new(0),
        done: AtomicBool::new(false),
        addresses: listeners.iter().map(TcpListener::local_addr).collect::<std::io::Result<_>>()?,
    });
    std::thread::scope(|s| {
        for listener in listeners {
            let shared = &shared;
            s.spawn(move || accept(listener, shared));
        }
    });
    Ok(())
}

/// Accepts connections on `listener` until the listener is done, each served on a thread of
/// its own.
fn accept(listener: &TcpListener, shared: &Arc<Shared>) {
    for stream in listener.incoming() {
        if shared.done.load(Ordering::SeqCst) {
            return;
        }
        let Ok(stream) = stream else { continue };
        if shared.live.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
            shared.live.fetch_sub(1, Ordering::SeqCst);
            busy(stream, shared);
            continue;
        }
        let mine = Arc::clone(shared);
        let spawned = std::thread::Builder::new().name("listen-connection".into()).spawn(move || {
            handle(stream, &mine);
            mine.live.fetch_sub(1, Ordering::SeqCst);
        });
        if spawned.is_err() {
            shared.live.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// Too many connections: a 503 sent without waiting on the client, and the connection closed.
fn busy(stream: TcpStream, shared: &Shared) {
    use std::io::Write as _;
    let why = format!("{MAX_CONNECTIONS} connections are open already: try again");
    (shared.on)(Note::Refused { status: 503, why: why.clone() });
    let _ = stream.set_nonblocking(true);
    let text = format!(
        "HTTP/1.1 503 Service Unavailable\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{why}\n",
        why.len() + 1
    );
    let _ = (&stream).write_all(text.as_bytes());
}

/// One connection: its request read, judged and answered.
fn handle(mut stream: TcpStream, shared: &Shared) {
    let refuse = |stream: &mut TcpStream, answer: Answer| {
        (shared.on)(Note::Refused { status: answer.status, why: answer.text.clone() });
        http::send(stream, &answer);
    };
    let request = match http::read_request(&mut stream) {
        Ok(r) => r,
        Err(answer) => return refuse(&mut stream, answer),
    };
    if let Some(why) = http::refused(&request.method, request.origin.as_deref(), request.json) {
        return refuse(&mut stream, Answer::new(403, why));
    }
    match request.method.as_str() {
        "OPTIONS" => http::send(&mut stream, &Answer::new(204, "")),
        "POST" => {
            if let Some(folders) = receive(&request.body, shared, &mut stream) {
                (shared.on)(Note::BatchDone { size: folders.len(), folders: &folders });
                if !shared.options.keep {
                    shared.done.store(true, Ordering::SeqCst);
                    // Each accepting thread waits in accept(): a connection wakes it to see it is done.
                    for address in &shared.addresses {
                        let _ = TcpStream::connect(address);
                    }
                }
            }
        }
        other => {
            let answer = Answer::new(405, format!("{} is not taken: POST a problem", crate::tame::tame(other)));
            refuse(&mut stream, answer)
        }
    }
}

/// Takes one POSTed problem and answers it; the folders of its batch when it completes one.
fn receive(body: &[u8], shared: &Shared, stream: &mut TcpStream) -> Option<Vec<PathBuf>> {
    // The extension sends to CHelper's port (4243) a `json` line before the JSON.
    let body = body.strip_prefix(b"json\r\n").or_else(|| body.strip_prefix(b"json\n")).unwrap_or(body);
    let task = match Task::parse(body) {
        Ok(t) => t,
        Err(why) => {
            (shared.on)(Note::Refused { status: 400, why: why.clone() });
            http::send(stream, &Answer::new(400, why));
            return None;
        }
    };
    let (answer, done) = {
        let mut batches = shared.batches.lock().unwrap_or_else(|e| e.into_inner());
        let (answer, folder) = match write::write(&task, &shared.options.dir, shared.options.force) {
            Ok(folder) => {
                (shared.on)(Note::Written { task: &task, folder: &folder });
                (Answer::new(200, format!("written to {}", folder.display())), folder)
            }
            Err(Refusal::Exists(folder)) => {
                // A problem that is there already still counts towards its batch: fetching a
                // contest again must not leave the listener waiting for ever.
                let why = Refusal::Exists(folder.clone()).to_string();
                (shared.on)(Note::Kept { task: &task, why: why.clone() });
                (Answer::new(409, why), folder)
            }
            Err(refusal) => {
                let status = if matches!(refusal, Refusal::Bad(_)) { 400 } else { 500 };
                (shared.on)(Note::Refused { status, why: refusal.to_string() });
                drop(batches);
                http::send(stream, &Answer::new(status, refusal.to_string()));
                return None;
            }
        };
        let entry = batches.entry(task.batch.id.clone()).or_insert((task.batch.size, Vec::new()));
        // The same problem sent twice counts once.
        if !entry.1.contains(&folder) {
            entry.1.push(folder);
        }
        let done = if entry.1.len() >= entry.0 { batches.remove(&task.batch.id).map(|(_, f)| f) } else { None };
        (answer, done)
    };
    // Answered with the lock let go: a slow client delays no other problem.
    http::send(stream, &answer);
    done
}
