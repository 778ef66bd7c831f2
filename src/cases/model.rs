//! The case model: one [`Case`], what its `case.toml` may say ([`CaseFile`], read into a
//! [`CaseConfig`]), the settings in force in a folder, and how a case's name and paths are
//! shown. The walk in `src/cases.rs` and the other layouts' readers (`src/layouts.rs`,
//! `src/cph.rs`) build cases from these; none of them is imported here.

use super::checker::CheckerKind;
use super::split;
use super::verdicts::Verdict;
use crate::limits::{parse_memory, parse_size, parse_time, Limits};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// One case to run.
#[derive(Clone, Debug)]
pub struct Case {
    /// Path below the root it was found under, `/`-separated: `samurai/seed`, `sample-2`.
    pub name: String,
    pub input: Option<PathBuf>,
    pub expected: Option<PathBuf>,
    pub config: CaseConfig,
    /// Why this case cannot be run (IE), if it cannot.
    pub problem: Option<String>,
}

impl Case {
    /// The files that hold this case's data (its input and its answer): what no run may read
    /// but through its stdin.
    pub fn data_files(&self) -> impl Iterator<Item = &Path> {
        [self.input.as_deref(), self.expected.as_deref()].into_iter().flatten()
    }

    /// Whether this case depends on one of `changed`: its input, its answer, or a `case.toml`
    /// in a folder above it.
    pub fn touched_by(&self, changed: &[PathBuf]) -> bool {
        let files = [self.input.as_deref(), self.expected.as_deref()];
        changed.iter().any(|c| {
            files.contains(&Some(c.as_path()))
                || (c.file_name().is_some_and(|n| n == "case.toml")
                    && c.parent().is_some_and(|dir| self.input.as_deref().is_some_and(|i| i.starts_with(dir))))
        })
    }
}

/// What `case.toml` may say. Every field is optional.
#[derive(Clone, Debug, Default, PartialEq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaseFile {
    pub time_limit: Option<String>,
    /// Wall-clock time before a run that is not using the CPU is ended, like "10s".
    pub wall_limit: Option<String>,
    pub memory_limit: Option<String>,
    pub output_limit: Option<String>,
    /// Tasks (processes and threads) a run may have at once, like 64.
    pub process_limit: Option<u64>,
    /// The largest solver source the judge accepts, like "50000B" or "64KiB".
    pub source_limit: Option<String>,
    /// `lines`, `exact`, `tokens` or `sudoku`.
    pub checker: Option<String>,
    /// An external testlib-style checker command; overrides `checker`.
    pub checker_cmd: Option<String>,
    /// A testlib-style interactor, run as `CMD INPUT OUTPUT [ANSWER]` talking with the
    /// solver: the case is interactive, and the interactor's exit code its verdict.
    pub interactor: Option<String>,
    /// The verdict this case must get to pass (harness cases expect TLE, RE...).
    pub expect: Option<String>,
    /// A solver command for this case alone, instead of the default one.
    pub solver: Option<String>,
    #[serde(default)]
    pub tags: Vec<String>,
    /// What the case is worth when scores are kept (default 1).
    pub points: Option<f64>,
    /// How to build a `solver` given as a source file: `{src}` and `{out}` are replaced.
    pub compiler_cmd: Option<String>,
    /// `[language.EXT]` tables: how to build (`build`) and run (`run`) sources of another
    /// language, or which preset to use (`lang`).
    pub language: Option<toml::Table>,
    /// How a multi-test file is cut into tests: "auto", "off" or a table (see `subcases`).
    pub subcases: Option<toml::Value>,
    /// Variables the solver's runs get besides a judge's few (the sandbox gives it none of the
    /// judge's own): `env = { NAME = "VALUE" }`.
    pub env: Option<toml::Table>,
    /// A file-I/O problem: the file it reads its input from (see [`crate::fileio`]).
    pub input_file: Option<String>,
    /// ...and the file it writes its answer to.
    pub output_file: Option<String>,
}

/// `case.toml`, read and checked.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CaseConfig {
    pub time_limit: Option<std::time::Duration>,
    pub wall: Option<std::time::Duration>,
    pub memory_kib: Option<u64>,
    pub output_bytes: Option<u64>,
    pub processes: Option<u64>,
    /// `env`: variables for the solver's runs, outer `case.toml`'s first.
    pub env: Vec<(std::ffi::OsString, std::ffi::OsString)>,
    /// A solver given as a source larger than this is CE, as on a judge with that limit.
    pub source_bytes: Option<u64>,
    pub checker: Option<CheckerKind>,
    pub checker_cmd: Option<String>,
    pub interactor: Option<String>,
    pub expect: Option<Verdict>,
    pub solver: Option<String>,
    pub tags: Vec<String>,
    pub points: Option<f64>,
    pub compiler_cmd: Option<String>,
    /// The folder a relative `solver` path is taken from: that of the case.toml naming it.
    pub solver_dir: Option<PathBuf>,
    /// The folder a relative `checker_cmd` path is taken from.
    pub checker_dir: Option<PathBuf>,
    /// The folder a relative `interactor` path is taken from.
    pub interactor_dir: Option<PathBuf>,
    /// What `[language.EXT]` tables say, by extension (outer files first).
    pub languages: Vec<(String, crate::languages::Custom)>,
    pub subcases: Option<split::Split>,
    /// `input_file` and `output_file`: the files a file-I/O problem reads and writes.
    pub files: super::files::Files,
}

impl CaseConfig {
    /// These settings laid over `outer`'s (a case.toml nearer the case wins); tags add up.
    pub fn over(self, outer: &CaseConfig) -> CaseConfig {
        let outer = outer.clone();
        let mut tags = outer.tags;
        tags.extend(self.tags.into_iter().filter(|t| !tags.contains(t)).collect::<Vec<_>>());
        let (solver, solver_dir) =
            if self.solver.is_some() { (self.solver, self.solver_dir) } else { (outer.solver, outer.solver_dir) };
        let (checker_cmd, checker_dir) = if self.checker_cmd.is_some() || self.checker.is_some() {
            (self.checker_cmd, self.checker_dir)
        } else {
            (outer.checker_cmd, outer.checker_dir)
        };
        let mut languages = outer.languages;
        languages.extend(self.languages);
        let (interactor, interactor_dir) = if self.interactor.is_some() {
            (self.interactor, self.interactor_dir)
        } else {
            (outer.interactor, outer.interactor_dir)
        };
        CaseConfig {
            time_limit: self.time_limit.or(outer.time_limit),
            wall: self.wall.or(outer.wall),
            memory_kib: self.memory_kib.or(outer.memory_kib),
            output_bytes: self.output_bytes.or(outer.output_bytes),
            processes: self.processes.or(outer.processes),
            env: outer.env.iter().cloned().chain(self.env.iter().cloned()).collect(),
            source_bytes: self.source_bytes.or(outer.source_bytes),
            checker: self.checker.or(outer.checker),
            checker_cmd,
            expect: self.expect.or(outer.expect),
            solver,
            tags,
            points: self.points.or(outer.points),
            compiler_cmd: self.compiler_cmd.or(outer.compiler_cmd),
            solver_dir,
            checker_dir,
            interactor,
            interactor_dir,
            languages,
            subcases: self.subcases.or(outer.subcases),
            files: self.files.over(&outer.files),
        }
    }

    /// Reads `case.toml` text; the error says which field is wrong and what it accepts.
    pub fn parse(text: &str) -> Result<CaseConfig, String> {
        let file: CaseFile = toml::from_str(text).map_err(|e| e.message().to_string())?;
        let field = |name: &str, e: String| format!("{name}: {e}");
        let mut config = CaseConfig {
            tags: file.tags,
            solver: file.solver,
            compiler_cmd: file.compiler_cmd,
            ..CaseConfig::default()
        };
        if let Some(tables) = &file.language {
            config.languages = crate::languages::parse_tables(tables)?;
        }
        if let Some(p) = file.points {
            if !(p.is_finite() && p >= 0.0) {
                return Err(field("points", format!("{p} is not a number of points: use 0 or more")));
            }
            config.points = Some(p);
        }
        if let Some(t) = file.time_limit {
            config.time_limit = Some(parse_time(&t).map_err(|e| field("time_limit", e.to_string()))?);
        }
        if let Some(m) = file.memory_limit {
            let bytes = parse_memory(&m).map_err(|e| field("memory_limit", e.to_string()))?;
            config.memory_kib = Some(bytes / 1024);
        }
        if let Some(w) = file.wall_limit {
            config.wall = Some(parse_time(&w).map_err(|e| field("wall_limit", e.to_string()))?);
        }
        if let Some(o) = file.source_limit {
            config.source_bytes = Some(parse_size(&o).map_err(|e| field("source_limit", e.to_string()))?);
        }
        if let Some(o) = file.output_limit {
            config.output_bytes = Some(parse_size(&o).map_err(|e| field("output_limit", e.to_string()))?);
        }
        for (name, value) in file.env.iter().flatten() {
            let value =
                value.as_str().ok_or_else(|| field("env", format!("{name} must be a string, like {name} = \"1\"")))?;
            let (name, _) = parse_env(name).map_err(|e| field("env", e))?;
            config.env.push((name, value.into()));
        }
        if let Some(n) = file.process_limit {
            config.processes =
                Some(crate::limits::parse_processes(&n.to_string()).map_err(|e| field("process_limit", e))?);
        }
        if let Some(c) = file.checker {
            config.checker = Some(CheckerKind::parse(&c).map_err(|e| field("checker", e))?);
        }
        config.checker_cmd = file.checker_cmd;
        config.interactor = file.interactor;
        if let Some(v) = file.subcases {
            config.subcases = Some(split::Split::parse(&v).map_err(|e| field("subcases", e))?);
        }
        for (key, name, slot) in [
            ("input_file", &file.input_file, &mut config.files.input),
            ("output_file", &file.output_file, &mut config.files.output),
        ] {
            if let Some(name) = name {
                *slot = Some(super::files::parse_name(name).map_err(|e| field(key, e))?);
            }
        }
        if let Some(v) = file.expect {
            config.expect = Some(Verdict::parse(&v).map_err(|e| field("expect", e))?);
        }
        Ok(config)
    }

    /// These limits laid over `base`.
    pub fn limits(&self, base: Limits) -> Limits {
        Limits {
            time: self.time_limit.unwrap_or(base.time),
            memory_kib: self.memory_kib.unwrap_or(base.memory_kib),
            output_bytes: self.output_bytes.unwrap_or(base.output_bytes),
            processes: self.processes.unwrap_or(base.processes),
            wall_factor: base.wall_factor,
            wall: self.wall.or(base.wall),
        }
    }
}

pub(crate) fn is_skipped(name: &str) -> bool {
    name.starts_with('.') || name.ends_with('~') || [".bak", ".orig", ".swp", ".tmp"].iter().any(|s| name.ends_with(s))
}

/// The largest `case.toml` read: settings are a few lines.
const MAX_CASE_TOML: u64 = 1 << 20;

/// The settings in force in a folder: every `case.toml` from the root down, nearer ones
/// winning, and the first problem met in any of them.
#[derive(Clone, Debug, Default)]
pub(crate) struct Settings {
    pub(crate) config: CaseConfig,
    pub(crate) problem: Option<String>,
    /// Whether this folder has a `case.toml` of its own.
    pub(crate) own_file: bool,
}

impl Settings {
    /// These settings with `dir/case.toml` (if any) laid over them.
    pub(crate) fn with_file(&self, dir: &Path) -> Settings {
        let toml = dir.join("case.toml");
        let Ok(meta) = std::fs::metadata(&toml) else {
            return Settings { own_file: false, ..self.clone() };
        };
        // Never opened unless it is a small regular file: a FIFO would block, a folder or a
        // huge file is a mistake, and each is the problem of every case below it.
        let read = if !meta.is_file() {
            Err("it is not a regular file".to_string())
        } else if meta.len() > MAX_CASE_TOML {
            Err(format!("it is {} bytes; a case.toml holds at most {MAX_CASE_TOML}", meta.len()))
        } else {
            std::fs::read_to_string(&toml).map_err(|e| e.to_string())
        };
        match read.and_then(|t| CaseConfig::parse(&t)) {
            Ok(mut config) => {
                // A relative command is taken from the folder of the case.toml that names it.
                if config.solver.is_some() {
                    config.solver_dir = Some(dir.to_path_buf());
                }
                if config.checker_cmd.is_some() {
                    config.checker_dir = Some(dir.to_path_buf());
                }
                if config.interactor.is_some() {
                    config.interactor_dir = Some(dir.to_path_buf());
                }
                Settings { config: config.over(&self.config), problem: self.problem.clone(), own_file: true }
            }
            Err(e) => Settings {
                config: self.config.clone(),
                problem: Some(self.problem.clone().unwrap_or_else(|| format!("{}: {e}", shown_path(&toml)))),
                own_file: true,
            },
        }
    }
}

/// A path as text, with bytes that are not UTF-8 shown as `\xFF`, so that two different
/// names never look alike.
pub fn shown_path(path: &Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    escaped(path.as_os_str().as_bytes())
}

fn escaped(mut bytes: &[u8]) -> String {
    let mut out = String::new();
    while !bytes.is_empty() {
        match std::str::from_utf8(bytes) {
            Ok(text) => {
                out.push_str(text);
                break;
            }
            Err(e) => {
                let (good, bad) = bytes.split_at(e.valid_up_to());
                out.push_str(std::str::from_utf8(good).unwrap_or_default());
                let n = e.error_len().unwrap_or(bad.len());
                for b in &bad[..n] {
                    out.push_str(&format!("\\x{b:02X}"));
                }
                bytes = &bad[n..];
            }
        }
    }
    out
}

pub(crate) fn relative_name(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    let parts: Vec<String> = rel.components().map(|c| shown_path(Path::new(c.as_os_str()))).collect();
    if parts.is_empty() {
        root.file_name().map_or_else(|| ".".to_string(), |n| shown_path(Path::new(n)))
    } else {
        parts.join("/")
    }
}

/// Reads a variable passed to runs, by `--env` or `case.toml`'s `env`: `NAME` (the judge's
/// value) or `NAME=VALUE`.
pub fn parse_env(text: &str) -> Result<(OsString, Option<OsString>), String> {
    let (name, value) = match text.split_once('=') {
        Some((name, value)) => (name, Some(OsString::from(value))),
        None => (text, None),
    };
    let good = !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !good {
        return Err(format!(
            "cannot pass '{text}' to runs: write NAME (the judge's value) or NAME=VALUE, NAME of letters, digits and _"
        ));
    }
    Ok((name.into(), value))
}
