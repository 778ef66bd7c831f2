//! Which port the listener takes: one Competitive Companion sends to as installed, so that
//! contest day needs no set-up in the extension, and the next of them when one is taken.

use std::net::TcpListener;

/// The ports the extension sends every problem to without being told (its `hosts.ts`), with
/// the tool each was made for, in the order tried: tools no longer maintained first, the
/// ones most installed (CP Editor, cph) last, so the judge rarely takes a port such a tool
/// wants later. 4243 (CHelper's) gets the JSON after a `json` line.
pub const DEFAULT_PORTS: [(u16, &str); 8] = [
    (10042, "acmX"),
    (10043, "Caide"),
    (6174, "Mind Sport"),
    (4244, "Hightail"),
    (1327, "cpbooster"),
    (10045, "CP Editor"),
    (27121, "Competitive Programming Helper"),
    (4243, "CHelper"),
];

/// The tool the extension made `port` for, when it sends there by default.
pub fn owner(port: u16) -> Option<&'static str> {
    DEFAULT_PORTS.iter().find(|(p, _)| *p == port).map(|(_, name)| *name)
}

/// A socket on 127.0.0.1 and the ports passed over because something else held them.
pub struct Bound {
    pub listener: TcpListener,
    pub port: u16,
    pub taken: Vec<u16>,
}

/// Listens on `port`, or (`None`) on the first default port free; the error names every
/// port tried and why.
pub fn bind(port: Option<u16>) -> Result<Bound, String> {
    let tried: Vec<u16> = match port {
        Some(p) => vec![p],
        None => DEFAULT_PORTS.iter().map(|(p, _)| *p).collect(),
    };
    let mut taken = Vec::new();
    let mut errors = Vec::new();
    for p in tried {
        match TcpListener::bind(("127.0.0.1", p)) {
            Ok(listener) => {
                let port = listener.local_addr().map_or(p, |a| a.port());
                return Ok(Bound { listener, port, taken });
            }
            Err(e) => {
                taken.push(p);
                errors.push(format!("{p}: {e}"));
            }
        }
    }
    Err(errors.join("; "))
}
