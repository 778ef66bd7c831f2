//! `judge`: the thin binary. Parses the command line, runs the engine, decides where the
//! report bytes go, and picks the exit status (0 pass, 1 fail, 2 usage, 3 internal).

use clap::Parser;
use sudoku_judge::cli::here::{self, Plan};
use sudoku_judge::cli::round::{self, Stop};
use sudoku_judge::cli::{Cli, Command};
use sudoku_judge::run_builtin;

fn main() {
    let args: Vec<String> = std::env::args_os().map(|a| a.to_string_lossy().into_owned()).collect();
    if args.get(1).map(String::as_str) != Some("--builtin") {
        sudoku_judge::interrupt::install();
    }
    // Nothing the judge started outlives it: each runner ended its launcher as it was dropped.
    let code = dispatch(&args);
    sudoku_judge::interrupt::remove_temp_root();
    std::process::exit(code);
}

fn dispatch(args: &[String]) -> i32 {
    // The launcher's way into a built-in program: internal, never typed.
    if args.get(1).map(String::as_str) == Some("--builtin") {
        let name = args.get(2).map_or("", String::as_str);
        let rest = args.get(3..).unwrap_or(&[]);
        return run_builtin(name, rest);
    }
    run()
}

/// `judge [PATH]... [-- CMD]`, with or without `--watch`.
fn run() -> i32 {
    let args: Vec<String> = std::env::args_os().skip(1).map(|a| a.to_string_lossy().into_owned()).collect();
    let command = args.first().is_some_and(|a| ["gen", "stress", "submit", "listen"].contains(&a.as_str()));
    if let Some(hint) = sudoku_judge::cli::oj_habit(&args).filter(|_| !command) {
        eprintln!("judge: {hint}");
        return 2;
    }
    let mut cli = Cli::parse();
    let exe = std::env::current_exe();
    match cli.subcommand.take() {
        Some(Command::Gen(gen)) => return sudoku_judge::cli::gen::run(gen),
        Some(Command::Submit(submit)) => return sudoku_judge::cli::submit::run(submit),
        Some(Command::Listen(listen)) => return sudoku_judge::cli::listen::run(listen),
        Some(Command::Stress(stress)) => {
            return match exe {
                Ok(exe) => sudoku_judge::cli::stress::run(*stress, exe),
                Err(e) => {
                    eprintln!("judge: cannot find the judge executable: {e}");
                    2
                }
            }
        }
        None => {}
    }
    if cli.lists_problems() {
        print!("{}", sudoku_judge::problems::listing());
        return 0;
    }
    let misplaced = sudoku_judge::cli::flags_after_command(&cli.command);
    if !misplaced.is_empty() {
        eprintln!(
            "judge: warning: {} comes after --, so the solver gets it, not judge: put judge's options before --",
            misplaced.join(", ")
        );
    }
    let exe = match exe {
        Ok(e) => e,
        Err(e) => {
            eprintln!("judge: cannot find the judge executable for @sudoku: {e}");
            return 2;
        }
    };
    if cli.watch {
        return sudoku_judge::cli::watch::main(&cli, &exe);
    }
    match here::plan(&cli) {
        Plan::One(target) => match round::judge(&cli, &exe, &target, &[]) {
            Ok(results) => round::status(&results),
            Err(stop) => stopped(stop),
        },
        Plan::Contest { root, problems } => sudoku_judge::cli::contest::judge(&cli, &exe, &root, problems),
    }
}

/// The exit status of a round that stopped, its message said.
fn stopped(stop: Stop) -> i32 {
    match stop {
        Stop::Usage(message) => {
            eprintln!("judge: {message}");
            2
        }
        Stop::Io => 3,
    }
}
