//! The listener's HTTP/1.1: reading one request within a deadline, deciding whether its
//! origin may write problems, and writing one answer. No keep-alive: one request per
//! connection, as the extension sends them.

use std::io::{Read, Write as _};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// The largest body read: a problem's samples are kilobytes.
pub const MAX_BODY: usize = 8 << 20;
/// The largest request head (request line and headers).
const MAX_HEAD: usize = 32 << 10;
/// How long a client may take to send its whole request. A client that sends nothing holds
/// only its own connection's thread meanwhile, never another client's request.
pub const REQUEST_DEADLINE: Duration = Duration::from_secs(20);

/// One parsed request.
pub struct Request {
    pub method: String,
    pub origin: Option<String>,
    /// The body is declared `application/json`: a web page cannot send that to another
    /// origin without a preflight, which is never granted to a page.
    pub json: bool,
    pub body: Vec<u8>,
}

/// An HTTP answer: status and a line of text.
pub struct Answer {
    pub status: u16,
    pub text: String,
}

impl Answer {
    pub fn new(status: u16, text: impl Into<String>) -> Answer {
        Answer { status, text: text.into() }
    }
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
        503 => "Service Unavailable",
        _ => "Internal Server Error",
    }
}

/// Why a request keeps it from writing problems, if it does. Browser extensions send their
/// own scheme (`chrome-extension://`), or, Firefox since 85, `null` (so as not to give away
/// the extension's ID); curl and other tools send none. A web page sends its http(s) origin,
/// and a sandboxed frame or a `file:` page also sends `null`: so `null` is taken only for a
/// POST declared `application/json`, which such a page can only send after a preflight
/// (`OPTIONS`), and a preflight from `null` or a web origin is refused. An extension with
/// its host permission is never preflighted.
pub fn refused(method: &str, origin: Option<&str>, json: bool) -> Option<String> {
    let origin = origin?.trim();
    let scheme = origin.split_once("://").map(|(s, _)| s.to_ascii_lowercase());
    if scheme.as_deref().is_some_and(|s| s.ends_with("-extension") || s == "extension") {
        return None;
    }
    if origin.eq_ignore_ascii_case("null") {
        if method == "POST" && json {
            return None;
        }
        return Some(
            "requests with `Origin: null` are taken only as a POST of application/json, as the extension sends \
             (a sandboxed frame or a file: page cannot)"
                .to_string(),
        );
    }
    Some(format!("requests from web pages ({}) are not taken", crate::tame::tame(origin)))
}

/// Reads from `stream` into `buf` before `deadline`; `Ok(0)` at its end.
fn read_by(stream: &mut TcpStream, buf: &mut [u8], deadline: Instant) -> std::io::Result<usize> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Err(std::io::ErrorKind::TimedOut.into());
    }
    stream.set_read_timeout(Some(left))?;
    stream.read(buf)
}

/// Reads one request, all of it before `REQUEST_DEADLINE`; `Err` is the answer to give instead.
pub fn read_request(stream: &mut TcpStream) -> Result<Request, Answer> {
    let deadline = Instant::now() + REQUEST_DEADLINE;
    let mut head = Vec::new();
    let mut buf = [0u8; 4096];
    let end = loop {
        if let Some(at) = head.windows(4).position(|w| w == b"\r\n\r\n") {
            break at + 4;
        }
        if head.len() > MAX_HEAD {
            return Err(Answer::new(431, "the request head is too large"));
        }
        match read_by(stream, &mut buf, deadline) {
            Ok(0) | Err(_) => return Err(Answer::new(400, "the request ended before its headers did")),
            Ok(n) => head.extend_from_slice(&buf[..n]),
        }
    };
    let mut body = head.split_off(end);
    let text = String::from_utf8_lossy(&head);
    let mut lines = text.split("\r\n");
    let method = lines.next().unwrap_or_default().split(' ').next().unwrap_or_default().to_string();
    let (mut length, mut origin, mut chunked, mut expect, mut json) = (None, None, false, false, false);
    for line in lines {
        let Some((key, value)) = line.split_once(':') else { continue };
        let value = value.trim();
        match key.trim().to_ascii_lowercase().as_str() {
            "content-length" => {
                length = Some(value.parse::<usize>().map_err(|_| Answer::new(400, "bad Content-Length"))?)
            }
            "origin" => origin = Some(value.to_string()),
            "content-type" => {
                json = value.split(';').next().is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
            }
            "transfer-encoding" => chunked = true,
            "expect" => expect = value.eq_ignore_ascii_case("100-continue"),
            _ => {}
        }
    }
    if method == "POST" {
        if chunked {
            return Err(Answer::new(411, "send the body with a Content-Length, not chunked"));
        }
        let length = length.ok_or_else(|| Answer::new(411, "a POST needs a Content-Length"))?;
        if length > MAX_BODY {
            return Err(Answer::new(413, format!("the body is {length} bytes; a problem is at most {MAX_BODY}")));
        }
        // curl asks before sending a body over 1 KiB, and waits a second for the answer.
        if expect && body.len() < length {
            let _ = stream.write_all(b"HTTP/1.1 100 Continue\r\n\r\n");
        }
        while body.len() < length {
            let want = (length - body.len()).min(buf.len());
            match read_by(stream, &mut buf[..want], deadline) {
                Ok(0) | Err(_) => return Err(Answer::new(400, "the body is shorter than its Content-Length")),
                Ok(n) => body.extend_from_slice(&buf[..n]),
            }
        }
        body.truncate(length);
    }
    Ok(Request { method, origin, json, body })
}

/// Writes `answer` and closes the connection gently.
pub fn send(stream: &mut TcpStream, answer: &Answer) {
    let body = format!("{}\n", answer.text);
    let head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\n\
         Access-Control-Allow-Origin: *\r\nAccess-Control-Allow-Methods: POST, OPTIONS\r\n\
         Access-Control-Allow-Headers: Content-Type\r\nConnection: close\r\n\r\n",
        answer.status,
        reason(answer.status),
        if answer.status == 204 { 0 } else { body.len() },
    );
    let _ = stream.set_write_timeout(Some(REQUEST_DEADLINE));
    let _ = stream.write_all(head.as_bytes());
    if answer.status != 204 {
        let _ = stream.write_all(body.as_bytes());
    }
    let _ = stream.flush();
    // Closing with unread bytes would reset the connection, and the client might lose the
    // answer: say we are done, then read what it still sends (bounded in bytes and time)
    // until it closes.
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
    let _ = std::io::copy(&mut Read::by_ref(stream).take(MAX_BODY as u64), &mut std::io::sink());
}

#[cfg(test)]
mod tests {
    use super::refused;

    #[test]
    fn only_extensions_and_tools_may_write() {
        let extensions =
            [None, Some("chrome-extension://cjnmckjndlpiamhfimnnjmnckgghkjbl"), Some("moz-extension://1-2-3")];
        for taken in extensions {
            for method in ["POST", "OPTIONS"] {
                assert_eq!(refused(method, taken, false), None, "{taken:?}");
            }
        }
        for page in ["https://evil.example", "http://localhost:8000", "file://", "x"] {
            assert!(refused("POST", Some(page), true).is_some(), "{page}");
            assert!(refused("OPTIONS", Some(page), false).is_some(), "{page}");
        }
        // Firefox's extension: null, with the JSON a page could only send after a preflight.
        assert_eq!(refused("POST", Some("null"), true), None);
        // A sandboxed frame's simple request, or its preflight for a JSON one.
        assert!(refused("POST", Some("null"), false).unwrap().contains("Origin: null"));
        assert!(refused("OPTIONS", Some("NULL"), false).is_some());
    }
}
