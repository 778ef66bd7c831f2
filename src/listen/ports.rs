//! Which port the listener takes: one Competitive Companion sends to as installed, so that
//! contest day needs no set-up in the extension, and the next of them when one is taken.

use std::io::ErrorKind;
use std::net::{Ipv6Addr, TcpListener};

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

/// The sockets listened on (127.0.0.1, and `[::1]` on the same port where the machine has
/// IPv6), and the ports passed over because something else held them.
pub struct Bound {
    pub listeners: Vec<TcpListener>,
    pub port: u16,
    pub taken: Vec<u16>,
    /// Why `[::1]` is not listened on, when it is not: the machine has no IPv6 loopback.
    pub no_ipv6: Option<String>,
}

/// Listens on `port`, or (`None`) on the first default port free, on 127.0.0.1 and `[::1]`: a
/// browser may resolve `localhost` to either first, and the extension posts to
/// `http://localhost:PORT`. A port whose `[::1]` another program holds is taken too (the
/// browser might reach that program); a machine without IPv6 gets 127.0.0.1 alone. The error
/// names every port tried and why.
pub fn bind(port: Option<u16>) -> Result<Bound, String> {
    let tried: Vec<u16> = match port {
        // Any free port: one free on 127.0.0.1 may be held on `[::1]`, so a few are tried.
        Some(0) => vec![0; 8],
        Some(p) => vec![p],
        None => DEFAULT_PORTS.iter().map(|(p, _)| *p).collect(),
    };
    let mut taken = Vec::new();
    let mut errors = Vec::new();
    for p in tried {
        let v4 = match TcpListener::bind(("127.0.0.1", p)) {
            Ok(listener) => listener,
            Err(e) => {
                taken.push(p);
                errors.push(format!("{p}: {e}"));
                continue;
            }
        };
        let port = v4.local_addr().map_or(p, |a| a.port());
        match TcpListener::bind((Ipv6Addr::LOCALHOST, port)) {
            Ok(v6) => return Ok(Bound { listeners: vec![v4, v6], port, taken, no_ipv6: None }),
            Err(e) if e.kind() == ErrorKind::AddrInUse => {
                taken.push(p);
                errors.push(format!("{p}: [::1]: {e}"));
            }
            Err(e) => return Ok(Bound { listeners: vec![v4], port, taken, no_ipv6: Some(e.to_string()) }),
        }
    }
    Err(errors.join("; "))
}
