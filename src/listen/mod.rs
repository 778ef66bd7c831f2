//! `judge listen`: a Competitive Companion listener. The browser extension POSTs each problem
//! as JSON to a port on this machine; each becomes a problem folder (see [`write`](mod@write)).
//!
//! Plain HTTP/1.1 over `std::net`, on 127.0.0.1 only, one request per connection (the
//! extension sends one problem per POST, a contest's problems one after another). An
//! `OPTIONS` preflight, which older versions of the extension send, is answered. A request
//! from a web page (an `Origin` of http or https) is refused: only the extension, or a tool
//! without an origin such as curl, may write problems.

pub mod task;
pub mod write;

use std::collections::HashMap;
use std::io::{Read, Write as _};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::time::Duration;
use task::Task;
use write::Refusal;

/// The port listened on by default: none of the ports the extension knows already (cph and
/// competitest.nvim 27121, CP Editor 10045, cpbooster 1327, Hightail 4244...), so the judge
/// can listen beside them.
pub const DEFAULT_PORT: u16 = 10047;

/// The largest body read: a problem's samples are kilobytes.
pub const MAX_BODY: usize = 8 << 20;
/// The largest request head (request line and headers).
const MAX_HEAD: usize = 32 << 10;
/// How long a client may take to send its request.
const READ_TIMEOUT: Duration = Duration::from_secs(10);

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

/// One parsed request.
struct Request {
    method: String,
    origin: Option<String>,
    body: Vec<u8>,
}

/// An HTTP answer: status and a line of text.
struct Answer {
    status: u16,
    text: String,
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        204 => "No Content",
        400 => "Bad Request",
        403 => "Forbidden",
        405 => "Method Not Allowed",
        409 => "Conflict",
        411 => "Length Required",
        413 => "Payload Too Large",
        431 => "Request Header Fields Too Large",
        _ => "Internal Server Error",
    }
}

/// Reads one request; `Err` is the answer to give instead.
fn read_request(stream: &mut TcpStream) -> Result<Request, Answer> {
    let refuse = |status: u16, text: &str| Answer { status, text: text.to_string() };
    let mut head = Vec::new();
    let mut buf = [0u8; 4096];
    let end = loop {
        if let Some(at) = head.windows(4).position(|w| w == b"\r\n\r\n") {
            break at + 4;
        }
        if head.len() > MAX_HEAD {
            return Err(refuse(431, "the request head is too large"));
        }
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => return Err(refuse(400, "the request ended before its headers did")),
            Ok(n) => head.extend_from_slice(&buf[..n]),
        }
    };
    let mut body = head.split_off(end);
    let text = String::from_utf8_lossy(&head);
    let mut lines = text.split("\r\n");
    let method = lines.next().unwrap_or_default().split(' ').next().unwrap_or_default().to_string();
    let (mut length, mut origin, mut chunked, mut expect) = (None, None, false, false);
    for line in lines {
        let Some((key, value)) = line.split_once(':') else { continue };
        let value = value.trim();
        match key.trim().to_ascii_lowercase().as_str() {
            "content-length" => length = Some(value.parse::<usize>().map_err(|_| refuse(400, "bad Content-Length"))?),
            "origin" => origin = Some(value.to_string()),
            "transfer-encoding" => chunked = true,
            "expect" => expect = value.eq_ignore_ascii_case("100-continue"),
            _ => {}
        }
    }
    if method == "POST" {
        if chunked {
            return Err(refuse(411, "send the body with a Content-Length, not chunked"));
        }
        let length = length.ok_or_else(|| refuse(411, "a POST needs a Content-Length"))?;
        if length > MAX_BODY {
            return Err(refuse(413, &format!("the body is {length} bytes; a problem is at most {MAX_BODY}")));
        }
        // curl asks before sending a body over 1 KiB, and waits a second for the answer.
        if expect && body.len() < length {
            let _ = stream.write_all(b"HTTP/1.1 100 Continue\r\n\r\n");
        }
        if body.len() < length {
            let mut rest = vec![0u8; length - body.len()];
            stream.read_exact(&mut rest).map_err(|_| refuse(400, "the body is shorter than its Content-Length"))?;
            body.extend_from_slice(&rest);
        }
        body.truncate(length);
    }
    Ok(Request { method, origin, body })
}

fn send(stream: &mut TcpStream, answer: &Answer) {
    let body = format!("{}\n", answer.text);
    let head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\n\
         Access-Control-Allow-Origin: *\r\nAccess-Control-Allow-Methods: POST, OPTIONS\r\n\
         Access-Control-Allow-Headers: Content-Type\r\nConnection: close\r\n\r\n",
        answer.status,
        reason(answer.status),
        if answer.status == 204 { 0 } else { body.len() },
    );
    let _ = stream.write_all(head.as_bytes());
    if answer.status != 204 {
        let _ = stream.write_all(body.as_bytes());
    }
    let _ = stream.flush();
    // Closing with unread bytes would reset the connection, and the client might lose the
    // answer: say we are done, then read what it still sends (bounded) until it closes.
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let _ = std::io::copy(&mut Read::by_ref(stream).take(MAX_BODY as u64), &mut std::io::sink());
}

/// The problems of each batch seen so far, by batch id.
#[derive(Default)]
struct Batches {
    seen: HashMap<String, (usize, Vec<PathBuf>)>,
}

/// Serves on `listener` until a batch is complete (or for ever with `keep`), telling `on`
/// what happens. Only an error of the listening socket itself ends it early.
pub fn serve(listener: &TcpListener, options: &Options, on: &mut dyn FnMut(Note)) -> std::io::Result<()> {
    let mut batches = Batches::default();
    for stream in listener.incoming() {
        let Ok(mut stream) = stream else { continue };
        let _ = stream.set_read_timeout(Some(READ_TIMEOUT));
        let _ = stream.set_write_timeout(Some(READ_TIMEOUT));
        let request = match read_request(&mut stream) {
            Ok(r) => r,
            Err(answer) => {
                on(Note::Refused { status: answer.status, why: answer.text.clone() });
                send(&mut stream, &answer);
                continue;
            }
        };
        if request.origin.as_deref().is_some_and(|o| o.starts_with("http://") || o.starts_with("https://")) {
            let answer = Answer { status: 403, text: "requests from web pages are not taken".into() };
            on(Note::Refused { status: 403, why: answer.text.clone() });
            send(&mut stream, &answer);
            continue;
        }
        match request.method.as_str() {
            "OPTIONS" => send(&mut stream, &Answer { status: 204, text: String::new() }),
            "POST" => {
                let done = receive(&request.body, options, &mut batches, on, &mut stream);
                if let Some(folders) = done {
                    on(Note::BatchDone { size: folders.len(), folders: &folders });
                    if !options.keep {
                        return Ok(());
                    }
                }
            }
            _ => {
                let answer = Answer { status: 405, text: format!("{} is not taken: POST a problem", request.method) };
                on(Note::Refused { status: 405, why: answer.text.clone() });
                send(&mut stream, &answer);
            }
        }
    }
    Ok(())
}

/// Takes one POSTed problem and answers it; the folders of its batch when it completes one.
fn receive(
    body: &[u8],
    options: &Options,
    batches: &mut Batches,
    on: &mut dyn FnMut(Note),
    stream: &mut TcpStream,
) -> Option<Vec<PathBuf>> {
    let task = match Task::parse(body) {
        Ok(t) => t,
        Err(why) => {
            on(Note::Refused { status: 400, why: why.clone() });
            send(stream, &Answer { status: 400, text: why });
            return None;
        }
    };
    let folder = match write::write(&task, &options.dir, options.force) {
        Ok(folder) => {
            on(Note::Written { task: &task, folder: &folder });
            send(stream, &Answer { status: 200, text: format!("written to {}", folder.display()) });
            folder
        }
        Err(refusal @ Refusal::Exists(_)) => {
            // A problem that is there already still counts towards its batch: fetching a
            // contest again must not leave the listener waiting for ever.
            let why = refusal.to_string();
            on(Note::Kept { task: &task, why: why.clone() });
            send(stream, &Answer { status: 409, text: why });
            match refusal {
                Refusal::Exists(p) => p,
                _ => return None,
            }
        }
        Err(refusal) => {
            let status = if matches!(refusal, Refusal::Bad(_)) { 400 } else { 500 };
            on(Note::Refused { status, why: refusal.to_string() });
            send(stream, &Answer { status, text: refusal.to_string() });
            return None;
        }
    };
    let entry = batches.seen.entry(task.batch.id.clone()).or_insert((task.batch.size, Vec::new()));
    entry.1.push(folder);
    if entry.1.len() >= entry.0 {
        return batches.seen.remove(&task.batch.id).map(|(_, folders)| folders);
    }
    None
}
