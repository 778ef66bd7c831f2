//! `judge listen`: its command line, the socket, and what it prints as problems come.

use crate::listen::{self, Note, Options, DEFAULT_PORT};
use clap::Parser;
use std::path::{Path, PathBuf};

const AFTER_HELP: &str = "\
Add the port to Competitive Companion: its options (Chrome: right-click the extension's icon,
Options; Firefox: about:addons, Competitive Companion, Preferences), \"Custom ports\". Then
click the extension's icon on a problem or a contest page.

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

    /// The port on 127.0.0.1 to listen on (0: any free one, printed).
    #[arg(short, long, value_name = "N", default_value_t = DEFAULT_PORT)]
    pub port: u16,

    /// Go on listening after a contest (or a problem) has come whole.
    #[arg(long)]
    pub keep: bool,

    /// Replace the samples and case.toml of a problem folder that exists.
    #[arg(long)]
    pub force: bool,
}

/// `judge listen ARGS`; returns the exit status.
pub fn main(args: &[String]) -> i32 {
    let cli = match ListenCli::try_parse_from(std::iter::once("judge listen".to_string()).chain(args.iter().cloned())) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    if !cli.dir.is_dir() {
        eprintln!("judge listen: {} is not a folder: make it first, or name another", cli.dir.display());
        return 2;
    }
    let listener = match std::net::TcpListener::bind(("127.0.0.1", cli.port)) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("judge listen: cannot listen on 127.0.0.1:{}: {e} (another tool on it? --port N)", cli.port);
            return 2;
        }
    };
    let port = listener.local_addr().map_or(cli.port, |a| a.port());
    println!(
        "judge listen: listening on http://127.0.0.1:{port}/ for Competitive Companion; problems go to {}",
        shown(&cli.dir)
    );
    if port != 27121 {
        println!("judge listen: the extension must know the port: add {port} to its \"Custom ports\" (see --help)");
    }
    let options = Options { dir: cli.dir.clone(), keep: cli.keep, force: cli.force };
    let served = listen::serve(&listener, &options, &mut |note| print_note(&note, cli.keep));
    match served {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("judge listen: {e}");
            3
        }
    }
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
    use std::io::Write;
    match note {
        Note::Written { task, folder } => {
            let plural = if task.tests.len() == 1 { "" } else { "s" };
            println!(
                "judge listen: {} -> {}/ ({} sample{plural}, {} ms, {} MB{})",
                crate::report::tame(&task.name).replace('\n', " "),
                shown(folder),
                task.tests.len(),
                task.time_ms,
                task.memory_mb,
                if task.interactive { ", interactive" } else { "" }
            );
            if task.interactive {
                println!("  next: judge {} --interactor INTERACTOR -- ./solution", quoted(folder));
            } else {
                println!("  next: judge {} -- ./solution   (or a source: main.cpp, main.rs, main.py)", quoted(folder));
            }
        }
        Note::Kept { why, .. } => eprintln!("judge listen: {why}"),
        Note::Refused { status, why } => eprintln!("judge listen: refused a request ({status}): {why}"),
        Note::BatchDone { size, folders } => {
            if *size > 1 {
                let parent = folders.first().and_then(|f| f.parent()).unwrap_or(Path::new("."));
                println!(
                    "judge listen: all {size} problems have come; judge them all with: judge {} -- ./solution",
                    quoted(parent)
                );
            }
            if !keep {
                println!("judge listen: done (--keep listens on)");
            }
        }
    }
    let _ = std::io::stdout().flush();
}
