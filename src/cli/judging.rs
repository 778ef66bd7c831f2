//! The flags every command that judges shares ([`JudgingArgs`]: limits, checker, languages,
//! sandbox, environment), turned into typed values (the sandbox, the languages, engine
//! options), and the programs they name built and checked.

use crate::check::{Checker, CheckerKind};
use crate::engine::{self, Options};
use crate::exec::{Program, Runner};
use crate::limits::{parse_memory, parse_size, parse_time};

/// The limits and checker flags, shared by judging and `judge stress`.
#[derive(Debug, clap::Args)]
pub struct JudgingArgs {
    /// CPU time limit per case, like 2s or 1500ms [default: 2000ms, or case.toml's].
    #[arg(short, long, value_name = "TIME", value_parser = parse_time)]
    pub time_limit: Option<std::time::Duration>,

    /// Wall-clock time after which a run that is not using the CPU (sleeping, blocked) is ended
    /// as TLE; time spent waiting for a busy CPU does not count [default: max(2 x TL, TL + 1s)].
    #[arg(long, value_name = "TIME", value_parser = parse_time)]
    pub wall_limit: Option<std::time::Duration>,

    /// Peak memory limit per case, like 64MiB or 65536KiB [default: 65536KiB, or case.toml's].
    #[arg(short, long, value_name = "SIZE", value_parser = parse_memory)]
    pub memory_limit: Option<u64>,

    /// Stdout beyond this size is OLE [default: 64MiB, or case.toml's].
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub output_limit: Option<u64>,

    /// Tasks (processes and threads) a sandboxed run may have alive at once; past it, fork and
    /// thread creation fail inside the run [default: 256, or case.toml's process_limit].
    #[arg(long, value_name = "N", value_parser = crate::limits::parse_processes)]
    pub process_limit: Option<u64>,

    /// Pass an environment variable to every sandboxed run: NAME (the judge's value) or
    /// NAME=VALUE. Runs get only PATH, HOME and TMPDIR (their scratch folder), LANG=C.UTF-8,
    /// ONLINE_JUDGE=1 and these.
    #[arg(long = "env", value_name = "NAME[=VALUE]", value_parser = crate::cases::model::parse_env)]
    pub env: Vec<(std::ffi::OsString, Option<std::ffi::OsString>)>,

    /// Built-in checker for every case: lines, exact, tokens, sudoku, float (numbers within 1e-6) or floatN
    /// (within 1e-N) [default: case.toml's, or lines].
    #[arg(short, long, value_name = "NAME", value_parser = CheckerKind::parse)]
    pub checker: Option<CheckerKind>,

    /// External testlib-style checker, run as `CMD input output answer`. Its exit code: 0 AC, 1 WA, 2 or 4 PE,
    /// 3 checker failure (IE), 7 partial (`points X` on stderr, X from 0 to 1 of the case's points),
    /// 16+k partial (testlib `_pc(k)`: k% of the points); its stderr is shown as feedback.
    #[arg(long, value_name = "CMD", conflicts_with = "checker")]
    pub checker_cmd: Option<String>,

    /// How to build a solver, reference or checker given as a source file, with {src} and
    /// {out} for the source and the program built, e.g. "g++-9 -O2 -std=c++14 -o {out} {src}"
    /// [default: by language, see docs/judge.md: .c .cpp .rs .py .java .kt .go .js].
    #[arg(long, value_name = "CMD", alias = "compile-cmd", value_parser = crate::languages::check_build)]
    pub compiler_cmd: Option<String>,

    /// How to run the solver given as a source file, with {out} the program --compiler-cmd
    /// built, {src} the source and {memory_mib} the memory limit, e.g. "ruby {src}" (any
    /// language: no build needed) [default: by language, see docs/judge.md].
    #[arg(long, value_name = "CMD", value_parser = crate::languages::check_run)]
    pub run_cmd: Option<String>,

    /// Build and run the solver's source as this language does: c, cpp, rust, python, pypy,
    /// java, kotlin, go or javascript [default: by its extension; .py is python].
    #[arg(long, value_name = "NAME", value_parser = crate::languages::Language::parse)]
    pub lang: Option<crate::languages::Language>,

    /// How runs are isolated: auto (every protection this kernel offers: files, network,
    /// signals, a scratch folder; the default), strict (all of them, or no run), or off (as
    /// the user, in this folder).
    #[arg(long, value_name = "LEVEL", default_value = "auto", value_parser = crate::sandbox::Level::parse)]
    pub sandbox: crate::sandbox::Level,

    /// A solver given as a source larger than this is CE, as on a judge with that limit
    /// (SPOJ: 50000B, Codeforces: 64KiB) [default: the problem's, or case.toml's].
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub source_limit: Option<u64>,

    /// A file-I/O problem: the file its solution reads (input.txt, castle.in), put in the run's
    /// working folder; stdin carries the input too [default: case.toml's input_file].
    #[arg(long, value_name = "NAME", value_parser = crate::fileio::parse_name)]
    pub input_file: Option<String>,

    /// A file-I/O problem: the file its solution writes its answer to (output.txt, castle.out),
    /// read instead of stdout [default: case.toml's output_file].
    #[arg(long, value_name = "NAME", value_parser = crate::fileio::parse_name)]
    pub output_file: Option<String>,
}

impl JudgingArgs {
    /// Records `--lang` and `--run-cmd` in `languages` for the extension of the solver's
    /// source (given as text or as words after `--`), over what `case.toml` said; an error
    /// when the solver is not a source file.
    pub fn languages(
        &self,
        languages: &mut crate::languages::Languages,
        solver_text: &str,
        words: &[String],
    ) -> Result<(), String> {
        if self.run_cmd.is_none() && self.lang.is_none() {
            return Ok(());
        }
        let first = match words.first() {
            Some(w) => Some(w.clone()),
            None => shlex::split(solver_text).and_then(|w| w.into_iter().next()),
        };
        let ext = first.as_deref().map(std::path::Path::new).and_then(|p| p.extension()).and_then(|e| e.to_str());
        let Some(ext) = ext else {
            return Err(format!(
                "--run-cmd and --lang say how to run a solver given as a source file (main.rb, main.py); '{}' is not one",
                first.unwrap_or_default()
            ));
        };
        let custom = crate::languages::Custom { preset: self.lang, build: None, run: self.run_cmd.clone() };
        languages.set(ext, custom);
        Ok(())
    }

    /// The checker asked for, if any; a source is built through `runner`.
    pub fn checker(&self, runner: &Runner) -> Result<Option<Checker>, String> {
        Ok(match (&self.checker, &self.checker_cmd) {
            (Some(kind), _) => Some(Checker::Builtin(*kind)),
            (None, Some(cmd)) => {
                Some(Checker::External(resolve(cmd, runner, "--checker-cmd", self.compiler_cmd.as_deref())?))
            }
            (None, None) => None,
        })
    }

    /// The sandbox at `--sandbox`'s level passing `--env`'s variables; an error naming what
    /// is missing when the level is `strict` and this kernel or user lacks some. Every
    /// command that judges (`judge`, `--watch`, each problem of a contest, `judge stress`,
    /// a `--problem` suite) makes its sandbox here, before anything is built or run.
    pub fn sandbox(&self) -> Result<crate::sandbox::Sandbox, String> {
        crate::sandbox::Sandbox::new(self.sandbox, self.env.clone()).map_err(|missing| missing.to_string())
    }

    /// `options` with these limits and this checker.
    pub fn apply(&self, options: Options, runner: &Runner) -> Result<Options, String> {
        Ok(Options {
            time_limit: self.time_limit,
            wall_limit: self.wall_limit,
            memory_kib: self.memory_limit.map(|b| b / 1024),
            output_bytes: self.output_limit,
            processes: self.process_limit,
            checker: self.checker(runner)?,
            compiler_cmd: self.compiler_cmd.clone(),
            source_limit: self.source_limit,
            files: crate::fileio::Files { input: self.input_file.clone(), output: self.output_file.clone() },
            ..options
        })
    }
}

/// A command from the command line, built first when it is a source file (with `compiler`
/// or the language's default), and checked to exist (a built-in always does); `flag` names
/// it in the error. A build that fails is an error here: only the solver's is a verdict.
pub(crate) fn resolve(text: &str, runner: &Runner, flag: &str, compiler: Option<&str>) -> Result<Program, String> {
    let builtin_exe = &runner.setup().launcher;
    let program = engine::parse_command(text, builtin_exe).map_err(|e| format!("{flag}: {e}"))?;
    reachable(&program, runner).map_err(|e| format!("{flag}: {e}"))?;
    let program = crate::build::prepare(runner, program, compiler).map_err(|e| match e.missing_tool {
        true => format!("{flag}: {e}"),
        false => format!("{flag}: CE: {e}"),
    })?;
    // A JVM checker or reference gets a heap of its own (a solver's follows each case's limit).
    let program = crate::build::for_memory(&program, TOOL_HEAP_KIB);
    checked(program).map_err(|e| format!("{flag}: {e}"))
}

/// The heap of a JVM reference, checker or interactor.
const TOOL_HEAP_KIB: u64 = 256 << 10;

/// The solver, from `--solver TEXT` or the words after `--` (which win), ready to run; or,
/// beside it, why its source did not build (its cases are then CE).
pub(crate) fn build_solver(
    text: &str,
    words: &[String],
    runner: &Runner,
    compiler: Option<&str>,
) -> Result<(Program, Option<String>), String> {
    let builtin_exe = &runner.setup().launcher;
    let program = if words.is_empty() {
        engine::parse_command(text, builtin_exe)
    } else {
        engine::from_words(words, builtin_exe)
    }
    .map_err(|e| format!("--solver: {e}"))?;
    reachable(&program, runner)?;
    match crate::build::prepare(runner, program.clone(), compiler) {
        Ok(built) => Ok((checked(built)?, None)),
        // Not the source's fault: the user must install something first.
        Err(e) if e.missing_tool => Err(e.to_string()),
        Err(e) => Ok((program, Some(e.to_string()))),
    }
}

/// `Err` naming each file of `program`'s that its runs' user may not read or run (a root
/// judge's runs are never root): an error before any run, not RE on every case.
fn reachable(program: &Program, runner: &Runner) -> Result<(), String> {
    let sandbox = &runner.setup().sandbox;
    let own_user = sandbox.on() && sandbox.protections().own_user;
    if sandbox.on() {
        for folder in crate::sandbox::view::unshown_folders(&program.args) {
            eprintln!(
                "judge: note: runs never see '{}' as a whole (it is your home folder, or holds it): what the program \
                 loads from there (classes, modules) is not found; keep them in a folder of their own",
                folder.display()
            );
        }
    }
    let lines = crate::sandbox::reach::unreadable(&program.program, &program.args, own_user);
    match lines.is_empty() {
        true => Ok(()),
        false => Err(format!("{} (or judge as another user than root)", lines.join("; "))),
    }
}

/// The longest command (program, arguments and environment) a run can be given: it travels
/// to the launcher in one 64 KiB message.
const MAX_COMMAND_BYTES: usize = 60 << 10;

/// `program`, unless it is not built in and cannot be found, or is too long to start.
pub(crate) fn checked(program: Program) -> Result<Program, String> {
    let bytes = program.program.len()
        + program.args.iter().map(|a| a.len() + 1).sum::<usize>()
        + program.env.iter().map(|(k, v)| k.len() + v.len() + 2).sum::<usize>();
    if bytes > MAX_COMMAND_BYTES {
        return Err(format!(
            "the command is {bytes} bytes long; judge starts commands of at most {MAX_COMMAND_BYTES} bytes \
             (put long arguments in a file)"
        ));
    }
    if !program.args.first().is_some_and(|a| a == "--builtin") {
        check_program_exists(&program.program)?;
    }
    Ok(program)
}

/// A solver that cannot be found is a usage error (exit 2), not 100 IE verdicts.
pub(crate) fn check_program_exists(program: &std::ffi::OsStr) -> Result<(), String> {
    let path = std::path::Path::new(program);
    let found = if path.components().count() > 1 {
        path.is_file()
    } else {
        std::env::var_os("PATH")
            .map(|paths| std::env::split_paths(&paths).any(|dir| dir.join(path).is_file()))
            .unwrap_or(false)
    };
    use std::os::unix::fs::PermissionsExt;
    let runnable = |p: &std::path::Path| std::fs::metadata(p).is_ok_and(|m| m.permissions().mode() & 0o111 != 0);
    if found && path.components().count() > 1 && !runnable(path) {
        let shown = path.display();
        let mut head = [0u8; 4];
        let program_like = std::fs::File::open(path)
            .and_then(|mut f| std::io::Read::read(&mut f, &mut head))
            .is_ok_and(|n| head[..n].starts_with(b"#!") || head[..n] == *b"\x7fELF");
        return Err(match path.extension().and_then(|e| e.to_str()).filter(|_| !program_like) {
            Some(ext) => format!(
                "solver '{shown}' is not a program: .{ext} is not a language the judge knows (.c, .cpp, .rs, .py, \
                 .java, .kt, .go, .js): say how to run it, like --run-cmd 'ruby {{src}}' (with --compiler-cmd \
                 '... {{src}} ... {{out}}' and --run-cmd '{{out}}' when it is compiled), or in a [language.{ext}] \
                 table in case.toml"
            ),
            None => format!("solver '{shown}' is not executable: chmod +x {shown}"),
        });
    }
    if found {
        Ok(())
    } else {
        Err(format!("solver '{}' not found: give a path (./a.out) or a program on PATH, or @sudoku", path.display()))
    }
}
