//! The solver programs several tests run, compiled with `rustc -O` as judges build them, once:
//! the solver file alone, and each file `judge submit` tailors. Each `rustc -O` of the solver
//! takes 7 to 10 s of CPU, and the submit, stack-fault and streaming tests built seven where
//! four programs differ. A build is kept under the target folder, named by a hash of its
//! source, flags and compiler, so a later run (or another test process, as under nextest)
//! reuses it while nothing it was built from has changed.

use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use sudoku_judge::problems::{Problem, PROBLEMS};

/// The solver file compiled alone, as `rustc --edition 2021 -O` builds it.
pub fn standalone() -> PathBuf {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/bin/sudoku.rs");
    let source = std::fs::read_to_string(source).unwrap();
    compiled("sudoku", &source, &["--edition", "2021", "-O"])
}

/// The file `judge submit` writes for `problem`, compiled as a judge would, refusing any
/// warning. Problems that leave out the same parts get the same code (their files differ in
/// the header comment only): the first of them in [`PROBLEMS`] is built, once, for all.
pub fn tailored(problem: &Problem) -> PathBuf {
    let parts = sudoku_judge::submit::left_out(problem);
    let first = PROBLEMS.iter().find(|p| sudoku_judge::submit::left_out(p) == parts).unwrap();
    compiled(first.name, &submitted(first.name), &["--edition", "2021", "-O", "-D", "warnings"])
}

/// What `judge submit NAME` writes to stdout. Asked of the judge rather than tailored in this
/// process: a program this process starts inherits its peak memory in the peak `wait4`
/// reports, which the streaming tests measure (tailoring here took their 16 MiB count to 30).
pub fn submitted(name: &str) -> String {
    let out = super::judge().args(["submit", name]).output().unwrap();
    assert!(out.status.success(), "judge submit {name}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// `source` built by `rustc FLAGS -o PROGRAM`: from this process's builds, from the folder
/// of earlier ones, or now. Tests asking for the same build at once wait for one compiler.
fn compiled(name: &str, source: &str, flags: &[&str]) -> PathBuf {
    static BUILDS: Mutex<BTreeMap<u64, Arc<OnceLock<PathBuf>>>> = Mutex::new(BTreeMap::new());
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    (source, flags, rustc_version()).hash(&mut hasher);
    let key = hasher.finish();
    let slot = BUILDS.lock().unwrap().entry(key).or_default().clone();
    slot.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("solver-builds");
        std::fs::create_dir_all(&dir).unwrap();
        let program = dir.join(format!("{name}-{key:016x}"));
        if program.is_file() {
            return program;
        }
        // The source and the compiler's own files go to a folder of this process's, and the
        // program is renamed into place whole: another process never runs a half-written one.
        let work = dir.join(format!("{name}-{key:016x}.{}", std::process::id()));
        std::fs::create_dir_all(&work).unwrap();
        let file = work.join(format!("{name}.rs"));
        std::fs::write(&file, source).unwrap();
        let built = std::process::Command::new("rustc").args(flags).arg("-o").arg(work.join(name)).arg(&file).output();
        let built = built.unwrap();
        assert!(built.status.success(), "{name}: {}", String::from_utf8_lossy(&built.stderr));
        std::fs::rename(work.join(name), &program).unwrap();
        let _ = std::fs::remove_dir_all(&work);
        forget_older(&dir, name, &program);
        program
    })
    .clone()
}

/// Removes the builds of `name` from other sources, so the folder does not grow with every
/// edit of the solver; one less than an hour old is left, in case a test process of another
/// checkout sharing this target folder is about to run it.
fn forget_older(dir: &Path, name: &str, keep: &Path) {
    let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        let file = entry.file_name().to_string_lossy().into_owned();
        let Some(hash) = file.strip_prefix(name).and_then(|f| f.strip_prefix('-')) else { continue };
        let old = entry.metadata().and_then(|m| m.modified()).is_ok_and(|t| t < hour_ago);
        if hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()) && path != keep && old {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// `rustc -vV`: a build is reused only by the compiler that made it.
fn rustc_version() -> &'static str {
    static VERSION: OnceLock<String> = OnceLock::new();
    VERSION.get_or_init(|| {
        let out = std::process::Command::new("rustc").arg("-vV").output().unwrap();
        assert!(out.status.success(), "rustc -vV: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    })
}
