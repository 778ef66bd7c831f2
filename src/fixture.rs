//! A misbehaving solver on demand (std only), to drive every verdict of the harness in tests.
//!
//! Run as `judge --builtin fixture [COMMANDS]` or name `@fixture` as the solver. Commands come
//! from the arguments (separated by `;`) or, with no arguments, one per line of stdin:
//!
//! | command | effect |
//! |---|---|
//! | `print TEXT` | print TEXT and a newline on stdout |
//! | `stderr TEXT` | print TEXT and a newline on stderr |
//! | `sleep MS` | sleep MS milliseconds (wall time, no CPU) |
//! | `spin MS` | burn MS milliseconds of CPU |
//! | `alloc MIB` | allocate MIB MiB and touch every page, keeping it |
//! | `flood MIB` | write MIB MiB of `y` lines to stdout |
//! | `garbage N` | write N bytes of invalid UTF-8 to stdout |
//! | `exit N` | exit with status N |
//! | `abort` | die by SIGABRT |
//! | `segv` | die by SIGSEGV |
//! | `orphan MS PIDFILE` | start a child that sleeps MS ms, write its PID to PIDFILE, go on |
//!
//! Anything else exits 99 with a message, so a typo in a case cannot pass silently.

use std::io::Write;
use std::time::{Duration, Instant};

/// Runs the fixture; returns its exit status.
pub fn main(args: &[String]) -> i32 {
    let script = if args.is_empty() {
        let mut text = String::new();
        if std::io::Read::read_to_string(&mut std::io::stdin(), &mut text).is_err() {
            return 98;
        }
        text
    } else {
        args.join(" ").replace(';', "\n")
    };
    let mut keep: Vec<Vec<u8>> = Vec::new();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for line in script.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let (command, rest) = line.split_once(' ').unwrap_or((line, ""));
        let number = || rest.trim().parse::<u64>().unwrap_or(0);
        let result = match command {
            "print" => writeln!(out, "{rest}"),
            "stderr" => writeln!(std::io::stderr(), "{rest}"),
            "sleep" => {
                let _ = out.flush();
                std::thread::sleep(Duration::from_millis(number()));
                Ok(())
            }
            "spin" => {
                spin(Duration::from_millis(number()));
                Ok(())
            }
            "alloc" => {
                let mut block = vec![0u8; (number() as usize) << 20];
                for page in block.chunks_mut(4096) {
                    page[0] = 1;
                }
                keep.push(std::hint::black_box(block));
                Ok(())
            }
            "flood" => {
                let line = [b'y', b'\n'].repeat(1 << 15);
                (0..number() * 16).try_for_each(|_| out.write_all(&line))
            }
            "garbage" => out.write_all(&[0xFF, 0xFE, 0xC3].repeat((number() as usize + 2) / 3)),
            "exit" => {
                let _ = out.flush();
                return number() as i32;
            }
            "abort" => {
                let _ = out.flush();
                std::process::abort()
            }
            "segv" => {
                let _ = out.flush();
                // SAFETY: deliberately not safe: this command exists to die by SIGSEGV.
                unsafe { std::ptr::null_mut::<u8>().write_volatile(1) };
                Ok(())
            }
            "orphan" => orphan(rest),
            _ => {
                let _ = writeln!(std::io::stderr(), "fixture: unknown command '{line}'");
                return 99;
            }
        };
        if result.is_err() {
            return 97;
        }
    }
    if out.flush().is_err() {
        return 97;
    }
    0
}

fn spin(how_long: Duration) {
    let start = Instant::now();
    let mut x: u64 = 1;
    while start.elapsed() < how_long {
        for _ in 0..10_000 {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
    }
}

/// Starts a sleeping copy of this program that keeps our stdout open, as a careless solver
/// that forks would.
fn orphan(rest: &str) -> std::io::Result<()> {
    let mut words = rest.split_whitespace();
    let ms = words.next().unwrap_or("60000").to_string();
    let exe = std::env::current_exe()?;
    let child = std::process::Command::new(exe).args(["--builtin", "fixture", "sleep", &ms]).spawn()?;
    if let Some(pidfile) = words.next() {
        std::fs::write(pidfile, child.id().to_string())?;
    }
    Ok(())
}
