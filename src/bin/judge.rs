//! `judge`: the thin binary. Parses the command line, runs the engine, decides where the
//! report bytes go, and picks the exit status (0 pass, 1 fail, 2 usage, 3 internal).

use clap::Parser;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{IsTerminal, Write};
use sudoku_judge::{cases, cli::Cli, engine, report, run_builtin};

fn main() {
    let args: Vec<String> = std::env::args_os().map(|a| a.to_string_lossy().into_owned()).collect();
    if args.get(1).map(String::as_str) != Some("--builtin") {
        sudoku_judge::interrupt::install();
    }
    let code = dispatch(&args);
    sudoku_judge::interrupt::remove_temp_root();
    std::process::exit(code);
}

fn dispatch(args: &[String]) -> i32 {
    match args.get(1).map(String::as_str) {
        Some("--builtin") => {
            let name = args.get(2).map_or("", String::as_str);
            let rest = args.get(3..).unwrap_or(&[]);
            run_builtin(name, rest)
        }
        Some("gen") => sudoku_judge::cli::gen::main(&args[2..]),
        Some("submit") => sudoku_judge::cli::submit::main(&args[2..]),
        Some("stress") => match std::env::current_exe() {
            Ok(exe) => sudoku_judge::cli::stress::main(&args[2..], exe),
            Err(e) => {
                eprintln!("judge: cannot find the judge executable: {e}");
                2
            }
        },
        _ => run(),
    }
}

fn run() -> i32 {
    let args: Vec<String> = std::env::args_os().skip(1).map(|a| a.to_string_lossy().into_owned()).collect();
    if let Some(hint) = sudoku_judge::cli::oj_habit(&args) {
        eprintln!("judge: {hint}");
        return 2;
    }
    let cli = Cli::parse();
    let misplaced = sudoku_judge::cli::flags_after_command(&cli.command);
    if !misplaced.is_empty() {
        eprintln!(
            "judge: warning: {} comes after --, so the solver gets it, not judge: put judge's options before --",
            misplaced.join(", ")
        );
    }
    let usage = |message: String| {
        eprintln!("judge: {message}");
        2
    };
    let exe = match std::env::current_exe() {
        Ok(e) => e,
        Err(e) => return usage(format!("cannot find the judge executable for @sudoku: {e}")),
    };
    let options = match cli.options(exe) {
        Ok(o) => o,
        Err(e) => return usage(e),
    };
    let protections = sudoku_judge::sandbox::protections(cli.judging.sandbox);
    if !protections.missing.is_empty() {
        if cli.judging.sandbox == sudoku_judge::sandbox::Level::Strict {
            return usage(format!("--sandbox strict: {}", protections.missing.join("; ")));
        }
        if cli.judging.sandbox == sudoku_judge::sandbox::Level::Auto {
            eprintln!("judge: note: runs are sandboxed without some protections: {}", protections.missing.join("; "));
        }
    }
    // A report that cannot be written is found now, not after the whole run.
    let json_to_stdout = cli.json.as_deref() == Some(std::path::Path::new("-"));
    if let Some(path) = cli.json.as_deref().filter(|_| !json_to_stdout) {
        if let Err(e) = std::fs::OpenOptions::new().create(true).append(true).open(path) {
            return usage(format!("cannot write the --json report to {}: {e}", path.display()));
        }
    }
    if let Some(e) = &options.solver_error {
        eprintln!("judge: CE: {e}");
    }
    if let Some(why) = sudoku_judge::build::over_limit(&options.solver_source, options.source_limit) {
        eprintln!("judge: CE: {why}");
        if let Some(p) = cli.problem {
            eprintln!("judge: note: `judge submit {}` writes the solver cut to fit", p.name);
        }
    }
    let Some(paths) = sudoku_judge::cli::paths_or_default(&cli.paths) else {
        return usage("no path given and no cases/, test/ or tests/ folder here: name the folder to judge".into());
    };
    if cli.paths.is_empty() && paths[0] != std::path::Path::new("cases") {
        eprintln!("judge: note: judging {}/ (no cases/ here)", paths[0].display());
    }
    let found = match cases::discover_with_warnings(&paths) {
        Ok((c, warnings)) => {
            for w in warnings {
                eprintln!("judge: warning: {w}");
            }
            c
        }
        Err(e) => return usage(e.to_string()),
    };
    if found.is_empty() {
        let paths: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        return usage(format!(
            "no cases found under {}: expected folders with input.txt, or NAME.in files",
            paths.join(", ")
        ));
    }
    let selected = engine::select(&found, &options).len();
    if selected == 0 {
        let mut asked = Vec::new();
        if let Some(f) = &options.filter {
            asked.push(format!("a name containing '{f}'"));
        }
        if let Some(suite) = &options.suite {
            asked.push(format!("the tag {suite} (--problem)"));
        }
        if !options.tags.is_empty() {
            asked.push(format!("a tag among {}", options.tags.join(", ")));
        }
        if !options.skip_tags.is_empty() {
            asked.push(format!("no tag among {}", options.skip_tags.join(", ")));
        }
        return usage(format!("no case has {} ({} cases found): nothing to run", asked.join(" and "), found.len()));
    }
    if usize::from(cli.jobs) > options.jobs {
        eprintln!(
            "judge: note: --jobs {} capped at {}, the cores available: more would turn CPU waits into time-outs (--oversubscribe to allow)",
            cli.jobs, options.jobs
        );
    }
    if options.jobs > 1 {
        eprintln!("judge: note: {} cases at once; timings are noisier under parallel load", options.jobs);
    }
    let stdout = std::io::stdout();
    let color = match cli.color.as_str() {
        "always" => true,
        "never" => false,
        _ => stdout.is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    };
    let progress = ProgressBar::with_draw_target(Some(selected as u64), ProgressDrawTarget::stderr());
    if std::io::stderr().is_terminal() {
        progress.set_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} {msg}").unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
    } else {
        progress.set_draw_target(ProgressDrawTarget::hidden());
    }
    let results = engine::run_all(&found, &options, &|r| {
        progress.set_message(format!("{} {}", report::tame(&r.name).replace('\n', "\\n"), r.verdict));
        progress.inc(1);
    });
    progress.finish_and_clear();

    let style = report::Style { color, stderr_limit: cli.stderr_limit };
    let text = format!(
        "{}{}\n{}\n",
        report::table(&results, style),
        report::failures(&results, style),
        report::summary(&results)
    );
    // `--json -`: the JSON is stdout, and the table goes to stderr.
    let written = if json_to_stdout {
        let mut err = std::io::stderr().lock();
        let mut out = stdout.lock();
        err.write_all(text.as_bytes())
            .and_then(|_| out.write_all(&report::json(&results, &protections)))
            .and_then(|_| out.flush())
    } else {
        let mut out = stdout.lock();
        out.write_all(text.as_bytes()).and_then(|_| out.flush())
    };
    if written.is_err() {
        return 3;
    }
    if let Some(path) = cli.json.as_ref().filter(|_| !json_to_stdout) {
        if let Err(e) = std::fs::write(path, report::json(&results, &protections)) {
            eprintln!("judge: cannot write {}: {e}", path.display());
            return 3;
        }
    }
    if results.iter().all(|r| r.passed) {
        0
    } else {
        1
    }
}
