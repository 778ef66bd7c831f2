//! `judge`: the thin binary. Parses the command line, runs the engine, decides where the
//! report bytes go, and picks the exit status (0 pass, 1 fail, 2 usage, 3 internal).

use clap::Parser;
use std::io::{IsTerminal, Write};
use sudoku_judge::cli::live::{self, Live, Sink};
use sudoku_judge::{cases, cli::Cli, engine, report, run_builtin};

fn main() {
    let args: Vec<String> = std::env::args_os().map(|a| a.to_string_lossy().into_owned()).collect();
    if args.get(1).map(String::as_str) != Some("--builtin") {
        sudoku_judge::interrupt::install();
    }
    let code = dispatch(&args);
    // Nothing the judge started outlives it.
    sudoku_judge::exec::release_launcher();
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
        Some("listen") => sudoku_judge::cli::listen::main(&args[2..]),
        _ if sudoku_judge::cli::watch::wanted(&args[1..]) => sudoku_judge::cli::watch::main(),
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
    let usage = |message: String| {
        eprintln!("judge: {message}");
        2
    };
    let exe = match std::env::current_exe() {
        Ok(e) => e,
        Err(e) => return usage(format!("cannot find the judge executable for @sudoku: {e}")),
    };
    // Which program, when none is given: refused below only if some case has none of its own.
    let (solver_text, picked, no_solver) = match cli.solver_text() {
        Ok((text, why)) => (text, why, None),
        Err(e) => (String::new(), None, Some(e)),
    };
    let given = cli.given_paths();
    let local = sudoku_judge::cli::paths_or_default(&given);
    if local.is_none() && cli.problem().is_none() {
        return usage(
            "no path given and no cases/, test/ or tests/ folder here: name the folder to judge, or give \
             --problem NAME (judge --problem lists them)"
                .into(),
        );
    }
    let local = match local.map(|paths| cases::discover_with_warnings(&paths).map(|found| (paths, found))) {
        None => None,
        Some(Ok((paths, (found, warnings)))) => {
            for w in warnings {
                eprintln!("judge: warning: {w}");
            }
            Some((paths, found))
        }
        Some(Err(e)) => return usage(e.to_string()),
    };
    let mut tagged_only = true;
    let (paths, found) = match (cli.problem(), local) {
        (Some(problem), local) => {
            let scratch = sudoku_judge::interrupt::temp_root().join("bundled");
            match sudoku_judge::cli::defaults::suite(&problem, &given, local, &scratch) {
                Ok(suite) => {
                    eprintln!("judge: note: {}", suite.note);
                    tagged_only = suite.tagged_only;
                    (suite.paths, suite.cases)
                }
                Err(e) => return usage(e),
            }
        }
        (None, Some((paths, found))) => {
            if given.is_empty() && paths[0] != std::path::Path::new("cases") {
                eprintln!("judge: note: judging {}/ (no cases/ here)", paths[0].display());
            }
            (paths, found)
        }
        (None, None) => return usage("no path given and no cases/, test/ or tests/ folder here".into()),
    };
    // From the first build on, no program of the judge's reads a case but through its stdin.
    sudoku_judge::sandbox::view::hide_cases(&found);
    // `[language.EXT]` tables in case.toml say how to build and run other languages: they
    // must be known before the solver is built, and a bad one stops the run.
    if let Some(bad) = found.iter().find_map(|c| c.problem.as_ref().filter(|p| p.contains("[language."))) {
        return usage(bad.clone());
    }
    for case in &found {
        for (ext, custom) in &case.config.languages {
            sudoku_judge::languages::set_custom(ext, custom.clone());
        }
    }
    let terminal = std::io::stderr().is_terminal();
    // Building a solver takes seconds (rustc about 9): say so while it happens.
    let spinner = cli.building(&exe).and_then(|what| live::spinner(&format!("building {what}"), terminal));
    let exe_for_header = exe.clone();
    let options = cli.options(exe);
    if let Some(spin) = spinner {
        spin.finish_and_clear();
    }
    let mut options = match options {
        Ok(o) => o,
        Err(e) => return usage(e),
    };
    if !tagged_only {
        options.suite = None;
    }
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
        if let Some(p) = cli.problem() {
            eprintln!("judge: note: `judge submit {}` writes the solver cut to fit", p.name);
        }
    }
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
    if let Some(e) = engine::refusal(&found, &options) {
        return usage(e);
    }
    if let Some(e) = no_solver.filter(|_| engine::select(&found, &options).iter().any(|c| c.config.solver.is_none())) {
        return usage(e);
    }
    let stdout = std::io::stdout();
    let color = match cli.color.as_str() {
        "always" => true,
        "never" => false,
        _ => stdout.is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    };
    let width = if stdout.is_terminal() { terminal_width().unwrap_or(100) } else { 100 };
    let diff = report::DiffView::parse(&cli.diff).unwrap_or_default();
    let style = report::Style { color, stderr_limit: cli.stderr_limit, diff, width };
    let chosen = engine::select(&found, &options);
    let layout = report::Layout::before_run(
        chosen.iter().map(|c| c.name.as_str()),
        options.reference.is_some(),
        chosen.iter().any(|c| c.config.points.is_some()),
    );
    // `--json -`: the JSON is stdout, and the table goes to stderr.
    let sink = if json_to_stdout { Sink::Stderr } else { Sink::Stdout };
    // The first line of every report names the program judged.
    let built = cli.building(&exe_for_header).map(|b| format!(", built from {b}")).unwrap_or_default();
    let how = picked.map(|why| format!(" ({why})")).unwrap_or_default();
    let own = chosen.iter().filter(|c| c.config.solver.is_some()).count();
    let header = if solver_text.is_empty() || own == chosen.len() {
        "solver: each case's own (its case.toml's solver)".to_string()
    } else if own > 0 {
        let solver = sudoku_judge::report::tame(&solver_text);
        format!("solver: {solver}{how}{built}; {own} of {} cases name their own in case.toml", chosen.len())
    } else {
        format!("solver: {}{how}{built}", sudoku_judge::report::tame(&solver_text))
    };
    if json_to_stdout {
        eprintln!("{header}");
    } else {
        println!("{header}");
    }
    let live = Live::start(layout, style, sink, chosen.len(), terminal);
    let results = engine::run_all(&found, &options, &|event| live.event(event));
    let rows = live.finish();

    let text = format!("{}\n{}\n", report::failures(&results, style), report::summary(&results));
    let written = rows.and_then(|_| {
        if json_to_stdout {
            let mut out = stdout.lock();
            std::io::stderr()
                .lock()
                .write_all(text.as_bytes())
                .and_then(|_| out.write_all(&report::json(&results, &protections)))
                .and_then(|_| out.flush())
        } else {
            let mut out = stdout.lock();
            out.write_all(text.as_bytes()).and_then(|_| out.flush())
        }
    });
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

/// Columns of the terminal on stdout, when it is one and says.
fn terminal_width() -> Option<usize> {
    // SAFETY: TIOCGWINSZ fills the winsize it is given, on a descriptor we hold.
    let mut size: libc::winsize = unsafe { std::mem::zeroed() };
    let ok = unsafe { libc::ioctl(libc::STDOUT_FILENO, libc::TIOCGWINSZ, &mut size) } == 0;
    (ok && size.ws_col > 0).then_some(usize::from(size.ws_col))
}
