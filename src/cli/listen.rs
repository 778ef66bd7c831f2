//! `judge listen`: its command line, the socket, and what it prints as problems come.

use crate::listen::{self, ports, Note, Options};
use clap::Parser;
use std::path::{Path, PathBuf};

const AFTER_HELP: &str = "\
Click the extension's icon on a problem or a contest page: it sends to the ports 10042, 10043,
6174, 4244, 1327, 10045, 27121 and 4243 as installed, and the listener takes the first of them
free on 127.0.0.1 and ::1 (a browser may resolve localhost to either). Another port (--port N)
must be added to the extension's \"Custom ports\" (its options: Chrome, right-click its icon,
Options; Firefox, about:addons, Competitive Companion).

Each problem becomes DIR/NAME/ with sample-N.in and sample-N.out and a case.toml holding its
time and memory limits, its site and `interactive` as tags. A folder that exists keeps its
samples (--force replaces them; other files in it always stay).";

/// Receives problems from the Competitive Companion browser extension.
#[derive(Debug, Parser)]
#[command(name = "judge listen", after_help = AFTER_HELP)]
pub struct ListenCli {
    /// The folder problems are written under (the working folder by default).
    #[arg(value_name = "DIR", default_value = ".")]
    pub dir: PathBuf,

    /// The port on 127.0.0.1 and ::1 to listen on (0: any free one, printed) [default: the first free
    /// of those the extension sends to as installed].
    #[arg(short, long, value_name = "N")]
    pub port: Option<u16>,

    /// Go on listening after a contest (or a problem) has come whole.
    #[arg(long)]
    pub keep: bool,

    /// Replace the samples and case.toml of a problem folder that exists.
    #[arg(long)]
    pub force: bool,
}

/// `judge listen`, its command line parsed; returns the exit status.
pub fn run(cli: ListenCli) -> i32 {
    if !cli.dir.is_dir() {
        eprintln!("judge listen: {} is not a folder: make it first, or name another", cli.dir.display());
        return 2;
    }
    let bound = match ports::bind(cli.port) {
        Ok(b) => b,
        Err(e) => {
            let which = match cli.port {
                Some(p) => format!("127.0.0.1:{p}"),
                None => "any port Competitive Companion sends to".to_string(),
            };
            eprintln!("judge listen: cannot listen on {which} ({e}): another tool on it? --port N");
            return 2;
        }
    };
    let port = bound.port;
    for taken in &bound.taken {
        let whose = ports::owner(*taken).map(|o| format!(" (the extension's port for {o})")).unwrap_or_default();
        say_err(&format!("judge listen: port {taken}{whose} is taken by another program: trying the next"));
    }
    let on = match &bound.no_ipv6 {
        None => format!("http://127.0.0.1:{port}/ and http://[::1]:{port}/"),
        Some(_) => format!("http://127.0.0.1:{port}/"),
    };
    say(&format!("judge listen: listening on {on} for Competitive Companion; problems go to {}", shown(&cli.dir)));
    if let Some(why) = &bound.no_ipv6 {
        say_err(&format!("judge listen: not on [::1] (this machine gives no IPv6 loopback: {why})"));
    }
    match ports::owner(port) {
        Some(owner) => say(&format!(
            "judge listen: the extension sends there as installed ({owner}'s port): click its icon on a problem or a contest"
        )),
        None => {
            say(&format!("judge listen: the extension must know the port: add {port} to its \"Custom ports\" (see --help)"))
        }
    }
    let options = Options { dir: cli.dir.clone(), keep: cli.keep, force: cli.force };
    let keep = cli.keep;
    let served = listen::serve(&bound.listeners, options, move |note| print_note(&note, keep));
    match served {
        Ok(()) => 0,
        Err(e) => {
            say_err(&format!("judge listen: {e}"));
            3
        }
    }
}

/// Writes `text` and a newline to stdout whole; a stdout closed or full is no reason to stop
/// taking problems, so its error is dropped.
fn say(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(format!("{text}\n").as_bytes()).and_then(|_| out.flush());
}

/// [`say`] on stderr.
fn say_err(text: &str) {
    use std::io::Write;
    let _ = std::io::stderr().lock().write_all(format!("{text}\n").as_bytes());
}

/// A path as the user would type it.
fn shown(path: &Path) -> String {
    let text = crate::cases::shown_path(path);
    text.strip_prefix("./").map(str::to_string).unwrap_or(text)
}

/// A word safe to paste into a shell.
fn quoted(path: &Path) -> String {
    let text = shown(path);
    shlex::try_quote(&text).map_or(text.clone(), |q| q.into_owned())
}

fn print_note(note: &Note, keep: bool) {
    match note {
        Note::Written { task, folder } => {
            let plural = if task.tests.len() == 1 { "" } else { "s" };
            // `judge` alone judges the folder it is in, with the program in it.
            let next = if task.interactive {
                format!(
                    "cd {} && judge --interactor INTERACTOR   (with main.cpp, main.py... or a.out in it)",
                    quoted(folder)
                )
            } else {
                format!("cd {} && judge   (with main.cpp, main.py... or a.out in it)", quoted(folder))
            };
            say(&format!(
                "judge listen: {} -> {}/ ({} sample{plural}, {} ms, {} MB{})\n  next: {next}",
                crate::tame::tame(&task.name).replace('\n', " "),
                shown(folder),
                task.tests.len(),
                task.time_ms,
                task.memory_mb,
                if task.interactive { ", interactive" } else { "" }
            ));
        }
        Note::Kept { why, .. } => say_err(&format!("judge listen: {why}")),
        Note::Refused { status, why } => say_err(&format!("judge listen: refused a request ({status}): {why}")),
        Note::BatchDone { size, folders } => {
            if *size > 1 {
                let parent = folders.first().and_then(|f| f.parent()).unwrap_or(Path::new("."));
                // At a contest's root, `judge` judges each problem with its own program.
                let command = if shown(parent).is_empty() || parent == Path::new(".") {
                    "judge".to_string()
                } else {
                    format!("cd {} && judge", quoted(parent))
                };
                say(&format!(
                    "judge listen: all {size} problems have come; judge each with the program in its folder: {command}"
                ));
            }
            if !keep {
                say("judge listen: done (--keep listens on)");
            }
        }
    }
}
