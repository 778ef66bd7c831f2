//! The compile step: a solver given as a source file (`main.cpp`, `Main.java`, `main.py`...,
//! see [`crate::languages`]) is built once, the way a judge builds it, into a cache keyed by
//! the source's bytes and the exact command, then run as that judge runs it; a failed build is
//! a compile error (CE), never a crash, and a missing compiler names the package to install.
//!
//! The compiler runs through [`crate::exec::run`] like any other program (contained, with
//! limits), so a compiler that hangs or forks cannot outlive the build either.

use crate::exec::{self, Program};
use crate::limits::Limits;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

pub use crate::languages::Language;

/// The source file `program` would be built from, and its size in bytes; `None` when its
/// first word is not a source file.
pub fn source_of(program: &Program, languages: &crate::languages::Languages) -> Option<(PathBuf, u64)> {
    let source = PathBuf::from(&program.program);
    crate::languages::toolchain(&source, None, languages)?;
    let size = std::fs::metadata(&source).ok().filter(|m| m.is_file())?.len();
    Some((source, size))
}

/// Why a judge with a source limit of `limit` bytes refuses `source` (CE), if it does.
pub fn over_limit(source: &Option<(PathBuf, u64)>, limit: Option<u64>) -> Option<String> {
    match (source, limit) {
        (Some((path, size)), Some(limit)) if *size > limit => {
            Some(format!("{}: source is {size} bytes; this judge accepts at most {limit}", path.display()))
        }
        _ => None,
    }
}

/// A build that failed: the command run and what the compiler said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileError {
    pub source: PathBuf,
    pub command: String,
    pub message: String,
    /// The compiler or the runtime is not installed: a usage error, not the source's fault.
    pub missing_tool: bool,
}

impl std::fmt::Display for CompileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.missing_tool {
            return write!(f, "{}", self.message);
        }
        let (how, said) = self.message.split_once('\n').unwrap_or((&self.message, ""));
        write!(f, "{} did not compile: {how} (`{}`)", self.source.display(), self.command)?;
        if !said.trim().is_empty() {
            write!(f, "\n{}", said.trim_end())?;
        }
        Ok(())
    }
}

/// How much memory a build may take: heavy templates need a few hundred MiB; a compiler past
/// this is stopped (the watchdog's kill comes at twice it) and said to be out of memory.
const BUILD_MEMORY_KIB: u64 = 2 << 20;

/// How long a build may take: generous, since heavy templates take seconds.
const BUILD_TIME: Duration = Duration::from_secs(60);

/// `program` ready to run: unchanged unless its first word is a source file, which is then
/// built (or found in the cache) with `command` or its language's default, and given its
/// language's run command (the program's own arguments after it); the compiler runs through
/// `runner`, whose setup also says the user's languages.
pub fn prepare(runner: &exec::Runner, program: Program, command: Option<&str>) -> Result<Program, CompileError> {
    let source = PathBuf::from(&program.program);
    let languages = &runner.setup().languages;
    let Some(chain) = crate::languages::toolchain(&source, command, languages).filter(|_| source.is_file()) else {
        return Ok(program);
    };
    let template = chain.build.clone().unwrap_or_default();
    let fail = |message: String| CompileError {
        source: source.clone(),
        command: template.clone(),
        message,
        missing_tool: false,
    };
    if let Some(why) = crate::languages::missing(&chain.tools, &source) {
        return Err(CompileError { missing_tool: true, ..fail(why) });
    }
    let out = match &chain.build {
        Some(template) => Some(cached_build(runner, &source, template).map_err(fail)?),
        None => None,
    };
    let words =
        shlex::split(&chain.run).ok_or_else(|| fail(format!("cannot split the run command '{}'", chain.run)))?;
    let class = source.file_stem().map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let out_text = out.as_ref().map_or_else(String::new, |o| o.to_string_lossy().into_owned());
    let mut words = words.into_iter().map(|w| {
        OsString::from(
            w.replace("{out}", &out_text).replace("{src}", &source.to_string_lossy()).replace("{class}", &class),
        )
    });
    let Some(first) = words.next() else { return Err(fail("the run command is empty".into())) };
    let mut args: Vec<OsString> = words.collect();
    args.extend(program.args);
    Ok(Program { program: first, args, env: program.env })
}

/// `program` with `{memory_mib}` in its arguments replaced by a case's memory limit (a JVM's
/// heap is bounded by it, as judges bound it).
pub fn for_memory(program: &Program, memory_kib: u64) -> Program {
    let mib = (memory_kib / 1024).max(1).to_string();
    let args = program
        .args
        .iter()
        .map(|a| match a.to_str() {
            Some(text) if text.contains("{memory_mib}") => OsString::from(text.replace("{memory_mib}", &mib)),
            _ => a.clone(),
        })
        .collect();
    Program { args, ..program.clone() }
}

/// The program built from `source` by `template`, from the cache or built now.
fn cached_build(runner: &exec::Runner, source: &Path, template: &str) -> Result<PathBuf, String> {
    let bytes = std::fs::read(source).map_err(|e| format!("cannot read the source: {e}"))?;
    let dir = crate::sandbox::toolchains::cache_dir().map_err(|e| format!("cannot make the build cache: {e}"))?;
    let out = dir.join(format!("{}-{}", key(&bytes, template), stem(source)));
    // One build at a time in this judge: two jobs building the same source at once each
    // renamed their program into place, and the first one's run, whose sandbox named the
    // file it had replaced, could not start it (IE "Permission denied", 1 run of 3 at -j 2).
    static BUILDING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _building = BUILDING.lock().unwrap_or_else(|p| p.into_inner());
    if out.exists() && !intact(&out) {
        // Changed since it was built (by a run outside the sandbox, say): never run it.
        eprintln!(
            "judge: note: the cached build of {} had changed since it was built: building it again",
            source.display()
        );
        let _ = std::fs::remove_file(&out);
    }
    if out.exists() && !crate::deps::unchanged(&out, |b| key(b, "dep")) {
        // A header or module it read was edited since: the program is stale.
        let _ = std::fs::remove_file(&out);
    }
    if !out.exists() {
        build(runner, source, template, &out)?;
        seal(&out).map_err(|e| format!("cannot record the build: {e}"))?;
    }
    Ok(out)
}

/// Runs the build in the sandbox ([`exec::run_build`]), writing into a fresh folder of its
/// own, then copies the program to a temporary name in the cache and renames it into place:
/// two judges building the same source at once never run a half-written program, and the
/// compiler never writes the cache (where it could rewrite another program) nor reads what
/// the sandbox hides (a secret, a case's answer) through `#include` or `include_str!`.
fn build(runner: &exec::Runner, source: &Path, template: &str, out: &Path) -> Result<(), String> {
    // Unique to this build: two threads of one judge (parallel cases sharing a source)
    // must not write the same file.
    static BUILDS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = BUILDS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let partial = out.with_extension(format!("partial-{}-{n}", std::process::id()));
    let work = tempfile::Builder::new()
        .prefix("build-")
        .tempdir_in(crate::interrupt::temp_root())
        .map_err(|e| format!("cannot make a folder for the build: {e}"))?;
    let built = work.path().join(out.file_name().unwrap_or_default());
    let absolute = std::fs::canonicalize(source).map_err(|e| e.to_string())?;
    let words = shlex::split(template).ok_or_else(|| "cannot split the build command into words".to_string())?;
    let words: Vec<OsString> = words
        .iter()
        .map(|w| w.replace("{src}", &absolute.to_string_lossy()).replace("{out}", &built.to_string_lossy()).into())
        .collect();
    let Some((first, rest)) = words.split_first() else { return Err("the build command is empty".into()) };
    let depfile = PathBuf::from(format!("{}.d", built.display()));
    let mut args = rest.to_vec();
    args.extend(crate::deps::ask(first, rest, &depfile));
    let compiler = Program { program: first.clone(), args, env: Vec::new() };
    let limits = Limits { time: BUILD_TIME, memory_kib: BUILD_MEMORY_KIB, output_bytes: 1 << 20, ..Limits::default() };
    let facts = exec::run_build(runner, &compiler, &limits, work.path());
    let said = |head: String| {
        let mut text = String::from_utf8_lossy(&facts.stderr).into_owned();
        if let Ok(stdout) = facts.stdout.read_all() {
            text += &String::from_utf8_lossy(&stdout);
        }
        if text.trim().is_empty() {
            head
        } else {
            format!("{head}\n{}", text.trim_end())
        }
    };
    if let Some(e) = &facts.spawn_error {
        return Err(format!("the compiler did not start: {e}"));
    }
    if facts.watchdog_killed || facts.signal.is_some() || facts.exit_code != Some(0) {
        let how = match (facts.exit_code, facts.signal) {
            _ if facts.watchdog_killed => "ran out of time".to_string(),
            _ if facts.memory_killed || facts.peak_rss_kib > BUILD_MEMORY_KIB => {
                format!("ran out of memory (over {} MiB)", BUILD_MEMORY_KIB / 1024)
            }
            (Some(code), _) => format!("exited {code}"),
            (None, Some(sig)) => format!("died of {}", crate::exec::signal_name(sig)),
            (None, None) => "ended without a status".to_string(),
        };
        return Err(said(format!("the compiler {how}")));
    }
    if !built.exists() {
        // A syntax check (Python) writes nothing: a marker records that it passed.
        std::fs::write(&built, b"").map_err(|e| e.to_string())?;
    }
    std::fs::copy(&built, &partial).map_err(|e| format!("cannot keep the program built: {e}"))?;
    let here = std::env::current_dir().unwrap_or_default();
    // The source itself is in the cache key already.
    let read: Vec<PathBuf> = std::fs::read_to_string(&depfile)
        .map(|t| crate::deps::parse(&t, &here))
        .unwrap_or_default()
        .into_iter()
        .filter(|f| *f != absolute)
        .collect();
    let _ = std::fs::remove_file(&depfile);
    crate::deps::record(out, &read, |b| key(b, "dep"))
        .map_err(|e| format!("cannot record what the build read: {e}"))?;
    std::fs::rename(&partial, out).map_err(|e| e.to_string())
}

/// The file beside a cached program that holds the hash of its bytes, as built.
fn sum_path(out: &Path) -> PathBuf {
    let mut name = out.file_name().unwrap_or_default().to_os_string();
    name.push(".sum");
    out.with_file_name(name)
}

/// Records what a program built into the cache is, and makes it read-only.
fn seal(out: &Path) -> std::io::Result<()> {
    let bytes = std::fs::read(out)?;
    std::fs::write(sum_path(out), key(&bytes, "built"))?;
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(out)?.permissions().mode() & 0o555;
    std::fs::set_permissions(out, std::fs::Permissions::from_mode(mode))?;
    verified().lock().unwrap_or_else(|p| p.into_inner()).insert(out.to_path_buf());
    Ok(())
}

/// The cached programs this process has already checked (each is hashed once).
fn verified() -> &'static std::sync::Mutex<std::collections::HashSet<PathBuf>> {
    static SEEN: std::sync::OnceLock<std::sync::Mutex<std::collections::HashSet<PathBuf>>> = std::sync::OnceLock::new();
    SEEN.get_or_init(Default::default)
}

/// Whether a cached program is still the one built: its bytes hash to what was recorded.
fn intact(out: &Path) -> bool {
    if verified().lock().unwrap_or_else(|p| p.into_inner()).contains(out) {
        return true;
    }
    let ok = match (std::fs::read(out), std::fs::read_to_string(sum_path(out))) {
        (Ok(bytes), Ok(sum)) => key(&bytes, "built") == sum,
        _ => false,
    };
    if ok {
        verified().lock().unwrap_or_else(|p| p.into_inner()).insert(out.to_path_buf());
    }
    ok
}

/// 128 bits of two independent 64-bit hashes of the command and the source.
fn key(source: &[u8], command: &str) -> String {
    let fnv = |seed: u64| {
        command
            .bytes()
            .chain([0])
            .chain(source.iter().copied())
            .fold(seed, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
    };
    format!("{:016x}{:016x}", fnv(0xcbf2_9ce4_8422_2325), fnv(0x8422_2325_cbf2_9ce4 ^ source.len() as u64))
}

fn stem(source: &Path) -> String {
    source
        .file_stem()
        .map_or_else(|| "solver".into(), |s| s.to_string_lossy().replace(|c: char| !c.is_ascii_alphanumeric(), "_"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages_by_extension() {
        assert_eq!(Language::of(Path::new("a/main.cpp")), Some(Language::Cpp));
        assert_eq!(Language::of(Path::new("main.cc")), Some(Language::Cpp));
        assert_eq!(Language::of(Path::new("main.c")), Some(Language::C));
        assert_eq!(Language::of(Path::new("main.rs")), Some(Language::Rust));
        assert_eq!(Language::of(Path::new("main.py")), Some(Language::Python));
        assert_eq!(Language::of(Path::new("Main.java")), Some(Language::Java));
        assert_eq!(Language::of(Path::new("main.kt")), Some(Language::Kotlin));
        assert_eq!(Language::of(Path::new("main.go")), Some(Language::Go));
        assert_eq!(Language::of(Path::new("main.js")), Some(Language::JavaScript));
        assert_eq!(Language::of(Path::new("a.out")), None);
    }

    #[test]
    fn the_memory_limit_reaches_the_jvm_flags_per_case() {
        let p =
            Program { program: "java".into(), args: vec!["-Xmx{memory_mib}m".into(), "Main".into()], env: Vec::new() };
        assert_eq!(for_memory(&p, 65536).args, ["-Xmx64m", "Main"]);
        assert_eq!(for_memory(&p, 262144).args[0], "-Xmx256m");
    }

    #[test]
    fn the_key_follows_the_source_and_the_command() {
        let k = key(b"int main(){}", "g++ {src}");
        assert_eq!(k, key(b"int main(){}", "g++ {src}"));
        assert_ne!(k, key(b"int main(){} ", "g++ {src}"));
        assert_ne!(k, key(b"int main(){}", "g++ -O2 {src}"));
        assert_eq!(k.len(), 32);
    }

    #[test]
    fn a_program_that_is_not_a_source_is_left_alone() {
        let p = Program { program: "python3".into(), args: vec!["x.py".into()], env: Vec::new() };
        let runner = exec::Runner::new(std::sync::Arc::new(exec::Setup::new(Path::new("judge"))));
        assert_eq!(prepare(&runner, p.clone(), None), Ok(p));
    }
}
