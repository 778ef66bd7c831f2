//! One judging round, the same for `judge`, each round of `judge --watch` and each problem of
//! a contest: the sandbox level checked, the cases found, the solver built, the table streamed,
//! then the failures, the summary and the `--json` report.

use super::defaults::Solver;
use super::live::{self, Live, Sink};
use super::Cli;
use crate::engine::{self, CaseResult};
use crate::{cases, report};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

/// What one round judges: the paths given (none: the working folder's default, or the
/// `--problem` suite) with the program chosen for them (`Err`: why none could be picked,
/// refused only when some case does not name its own in case.toml).
pub struct Target {
    pub given: Vec<PathBuf>,
    pub solver: Result<Solver, String>,
}

/// Why a round stopped before judging: a usage or configuration error (exit 2), or a report
/// that could not be written (exit 3).
#[derive(Debug)]
pub enum Stop {
    Usage(String),
    Io,
}

/// The exit status of a round's results: 0 when every case passed, else 1.
pub fn status(results: &[CaseResult]) -> i32 {
    i32::from(!results.iter().all(|r| r.passed))
}

/// Judges `target`, the cases that depend on `changed` first, and prints the report.
pub fn judge(cli: &Cli, exe: &Path, target: &Target, changed: &[PathBuf]) -> Result<Vec<CaseResult>, Stop> {
    let usage = Stop::Usage;
    // Checked before anything is found or built: `strict` on a machine that lacks a
    // protection judges nothing, whichever command asked.
    let sandbox = cli.judging.sandbox().map_err(usage)?;
    let (solver_text, picked, no_solver) = match &target.solver {
        Ok(s) => (s.text.clone(), s.why, None),
        Err(e) => (String::new(), None, Some(e.clone())),
    };
    let given = &target.given;
    let local = super::paths_or_default(given);
    if local.is_none() && cli.problem().is_none() {
        return Err(usage(
            "no path given and no cases here: none in this folder (in any layout judge reads) and no cases/, \
             test/ or tests/ folder: name the folder to judge, or give --problem NAME (judge --problem lists them)"
                .into(),
        ));
    }
    let local = match local.map(|paths| cases::discover_with_warnings(&paths).map(|found| (paths, found))) {
        None => None,
        Some(Ok((paths, (found, warnings)))) => {
            for w in warnings {
                eprintln!("judge: warning: {w}");
            }
            Some((paths, found))
        }
        Some(Err(e)) => return Err(usage(e.to_string())),
    };
    let mut tagged_only = true;
    let (paths, mut found) = match (cli.problem(), local) {
        (Some(problem), local) => {
            let scratch = crate::interrupt::temp_root().join("bundled");
            let suite = super::defaults::suite(&problem, given, local, &scratch).map_err(usage)?;
            eprintln!("judge: note: {}", suite.note);
            tagged_only = suite.tagged_only;
            (suite.paths, suite.cases)
        }
        (None, Some((paths, found))) => {
            if given.is_empty() && !super::DEFAULT_FOLDERS.iter().any(|d| paths[0] == Path::new(d)) {
                eprintln!("judge: note: judging the cases in this folder");
            } else if given.is_empty() && paths[0] != Path::new("cases") {
                eprintln!("judge: note: judging {}/ (no cases/ here)", paths[0].display());
            }
            (paths, found)
        }
        (None, None) => return Err(usage("no path given and no cases/, test/ or tests/ folder here".into())),
    };
    // What changed runs first; the rest keep their order.
    if !changed.is_empty() {
        let (mut first, rest): (Vec<_>, Vec<_>) = found.drain(..).partition(|c| c.touched_by(changed));
        first.extend(rest);
        found = first;
    }
    // From the first build on, no program of the judge's reads a case but through its stdin.
    let sandbox = sandbox.hiding(found.iter().flat_map(cases::Case::data_files));
    // `[language.EXT]` tables in case.toml say how to build and run other languages: they
    // must be known before the solver is built, and a bad one stops the run.
    if let Some(bad) = found.iter().find_map(|c| c.problem.as_ref().filter(|p| p.contains("[language."))) {
        return Err(usage(bad.clone()));
    }
    let mut languages = crate::languages::Languages::default();
    for case in &found {
        for (ext, custom) in &case.config.languages {
            languages.set(ext, custom.clone());
        }
    }
    // The command line's `--lang` and `--run-cmd` win over case.toml's.
    if let Ok(solver) = &target.solver {
        cli.judging.languages(&mut languages, &solver.text, &solver.words).map_err(usage)?;
    }
    // What this round's runs are given, made once: nothing of it outlives the round.
    let setup = std::sync::Arc::new(crate::exec::Setup { sandbox, languages, launcher: exe.to_path_buf() });
    let protections = setup.sandbox.protections();
    let terminal = std::io::stderr().is_terminal();
    // Building a solver takes seconds (rustc about 9): say so while it happens.
    let building = target.solver.as_ref().ok().and_then(|s| cli.building(exe, s, &setup.languages));
    let spinner = building.as_ref().and_then(|what| live::spinner(&format!("building {what}"), terminal));
    // The programs are built on this thread, through a runner ended once they are.
    let options = cli.options(&crate::exec::Runner::new(setup.clone()), target.solver.as_ref().ok());
    if let Some(spin) = spinner {
        spin.finish_and_clear();
    }
    let mut options = options.map_err(usage)?;
    if !tagged_only {
        options.suite = None;
    }
    if cli.judging.sandbox == crate::sandbox::Level::Auto && !protections.missing.is_empty() {
        eprintln!("judge: note: runs are sandboxed without some protections: {}", protections.missing.join("; "));
    }
    // A report that cannot be written is found now, not after the whole run.
    let json_to_stdout = cli.json.as_deref() == Some(Path::new("-"));
    if let Some(path) = cli.json.as_deref().filter(|_| !json_to_stdout) {
        if let Err(e) = std::fs::OpenOptions::new().create(true).append(true).open(path) {
            return Err(usage(format!("cannot write the --json report to {}: {e}", path.display())));
        }
    }
    if let Some(e) = &options.solver_error {
        eprintln!("judge: CE: {e}");
    }
    if let Some(why) = crate::build::over_limit(&options.solver_source, options.source_limit) {
        eprintln!("judge: CE: {why}");
        if let Some(p) = cli.problem() {
            eprintln!("judge: note: `judge submit {}` writes the solver cut to fit", p.name);
        }
    }
    if found.is_empty() {
        let paths: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        return Err(usage(format!(
            "no cases found under {}: expected folders with input.txt, or NAME.in files",
            paths.join(", ")
        )));
    }
    let chosen = engine::select(&found, &options);
    if chosen.is_empty() {
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
        return Err(usage(format!(
            "no case has {} ({} cases found): nothing to run",
            asked.join(" and "),
            found.len()
        )));
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
        return Err(usage(e));
    }
    if let Some(e) = no_solver.filter(|_| chosen.iter().any(|c| c.config.solver.is_none())) {
        return Err(usage(e));
    }
    let stdout = std::io::stdout();
    let style = style(cli);
    let layout = report::Layout::before_run(
        chosen.iter().map(|c| c.name.as_str()),
        options.reference.is_some(),
        chosen.iter().any(|c| c.config.points.is_some()),
    );
    // `--json -`: the JSON is stdout, and the table goes to stderr.
    let sink = if json_to_stdout { Sink::Stderr } else { Sink::Stdout };
    // The first line of every report names the program judged.
    let built = building.map(|b| format!(", built from {b}")).unwrap_or_default();
    let how = picked.map(|why| format!(" ({why})")).unwrap_or_default();
    let own = chosen.iter().filter(|c| c.config.solver.is_some()).count();
    let header = if solver_text.is_empty() || own == chosen.len() {
        "solver: each case's own (its case.toml's solver)".to_string()
    } else if own > 0 {
        let solver = crate::tame::tame(&solver_text);
        format!("solver: {solver}{how}{built}; {own} of {} cases name their own in case.toml", chosen.len())
    } else {
        format!("solver: {}{how}{built}", crate::tame::tame(&solver_text))
    };
    let named = if json_to_stdout { Sink::Stderr } else { Sink::Stdout };
    if named.write(&format!("{header}\n")).is_err() {
        return Err(Stop::Io);
    }
    let count = chosen.len();
    let live = Live::start(layout, style, sink, count, terminal);
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
        return Err(Stop::Io);
    }
    if let Some(path) = cli.json.as_ref().filter(|_| !json_to_stdout) {
        if let Err(e) = std::fs::write(path, report::json(&results, &protections)) {
            eprintln!("judge: cannot write {}: {e}", path.display());
            return Err(Stop::Io);
        }
    }
    Ok(results)
}

/// How reports look: colour, diff view and width from the command line and the terminal.
fn style(cli: &Cli) -> report::Style {
    let stdout = std::io::stdout();
    let color = match cli.color.as_str() {
        "always" => true,
        "never" => false,
        _ => stdout.is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    };
    let width = if stdout.is_terminal() { terminal_width().unwrap_or(100) } else { 100 };
    let diff = report::DiffView::parse(&cli.diff).unwrap_or_default();
    report::Style { color, stderr_limit: cli.stderr_limit, diff, width }
}

/// Columns of the terminal on stdout, when it is one and says.
fn terminal_width() -> Option<usize> {
    // SAFETY: TIOCGWINSZ fills the winsize it is given, on a descriptor we hold.
    let mut size: libc::winsize = unsafe { std::mem::zeroed() };
    let ok = unsafe { libc::ioctl(libc::STDOUT_FILENO, libc::TIOCGWINSZ, &mut size) } == 0;
    (ok && size.ws_col > 0).then_some(usize::from(size.ws_col))
}
