//! `judge submit`: its command line; writes the tailored solver file (see [`crate::submit`]).

use crate::problems::{self, Problem};
use clap::Parser;
use std::io::Write;
use std::path::PathBuf;

const AFTER_HELP: &str = "\
The file is derived from src/bin/sudoku.rs each time (as built into this judge): the engines
and input styles the problem's judge never sends are left out, and so are comments, the
command line and the explanations on stderr. It compiles alone with `rustc --edition 2021
-O` and answers as the full file does on the problem's suite.

Without PROBLEM, lists every problem with its file's size and its judge's source limit.

Exit status: 0 written; 1 written, but over the judge's source limit; 2 bad usage or the
file could not be written.";

/// Writes a solver file tailored to one problem's judge, small enough to paste.
#[derive(Debug, Parser)]
#[command(name = "judge submit", after_help = AFTER_HELP)]
pub struct SubmitCli {
    /// The problem: poj2676, poj3074, acwing166, luogu1784, samurai, poj3076, acwing169 or
    /// spoj-sudoku.
    #[arg(value_name = "PROBLEM", value_parser = problems::find)]
    pub problem: Option<Problem>,

    /// Write the file here instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// `judge submit`, its command line parsed; returns the exit status.
pub fn run(cli: SubmitCli) -> i32 {
    let Some(problem) = cli.problem else {
        return list();
    };
    let file = match crate::submit::for_problem(&problem) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("judge submit: {e}");
            return 2;
        }
    };
    let written = match &cli.output {
        Some(path) => std::fs::write(path, &file).map_err(|e| format!("cannot write {}: {e}", path.display())),
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(file.as_bytes()).and_then(|_| out.flush()).map_err(|e| format!("cannot write output: {e}"))
        }
    };
    if let Err(e) = written {
        eprintln!("judge submit: {e}");
        return 2;
    }
    match crate::submit::summary(&problem, file.len()) {
        Ok(text) => {
            eprint!("{text}");
            0
        }
        Err(text) => {
            eprint!("{text}");
            eprintln!("judge submit: the file is over the judge's source limit");
            1
        }
    }
}

/// Every problem, its file's size and its judge's limit, on stdout.
fn list() -> i32 {
    let mut text = format!("{:<12} {:>7}  {:<14} rust\n", "problem", "bytes", "source limit");
    for p in &problems::PROBLEMS {
        let size = match crate::submit::for_problem(p) {
            Ok(f) => f.len().to_string(),
            Err(e) => {
                eprintln!("judge submit: {}: {e}", p.name);
                return 2;
            }
        };
        let limit = p.submission.source_limit.map_or("not captured".to_string(), |(l, _)| l.to_string());
        let rust = match p.submission.takes_rust {
            Some(true) => "yes",
            Some(false) => "no",
            None => "-",
        };
        text.push_str(&format!("{:<12} {:>7}  {:<14} {rust}\n", p.name, size, limit));
    }
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Ok(()) => 0,
        Err(_) => 2,
    }
}
