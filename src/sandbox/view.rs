//! Which files a run may read besides the system's: the program and whatever its runtime
//! needs wherever it is installed, the folders of its source and class files, minus every
//! case being judged, every answer-like file, the user's secrets and the judge's own files.
//! Landlock grants folders and cannot take a subfolder back, so a folder holding something
//! hidden is granted piece by piece: each child that holds nothing hidden, whole.
//!
//! | read (and execute) | why |
//! |---|---|
//! | the program's file | it runs |
//! | the program's install folder, as named and as its links resolve (`~/.pyenv/versions/3.12`, a virtualenv, `/opt/jdk`, conda): the folder above its `bin/` | an interpreter's standard library and packages, a venv's `pyvenv.cfg` and `site-packages` (a program elsewhere, `./a.out`, gets its file alone) |
//! | each file named in the arguments, and its folder | a script's modules beside it (`python3 sol.py`), a checker's three files |
//! | each folder named in the arguments, and each entry of a class path (`java -cp DIR:LIB.jar Main`) | class files, packages |
//!
//! Never granted, wherever they sit in those folders: the folders of the cases being judged
//! (given by the judge), files named like answers (`*.out`, `*.ans`, `*.a`, `expected*`,
//! `ans*.txt`, `answer*`, AtCoder's `out/`, cph's `.cph/`), secrets (`.ssh`, `.gnupg`, `.aws`,
//! `.netrc`, `.git-credentials`, `.docker`, `.kube`, `.pypirc`, `.npmrc`, `.password-store`,
//! `.credentials`), the judge's build cache and temporary folder; and never the user's home
//! or `/` as a whole (a program in `~` gets its own file only).

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

/// Adds to `hidden` the folders of the cases' `files` (their inputs and answers), to be
/// hidden from every run of a sandbox ([`super::Sandbox::hiding`]).
pub fn hide_cases<'a>(hidden: &mut Vec<PathBuf>, files: impl IntoIterator<Item = &'a Path>) {
    let mut folders: Vec<PathBuf> = files
        .into_iter()
        .filter_map(|file| std::fs::canonicalize(file).ok()?.parent().map(Path::to_path_buf))
        .chain(hidden.drain(..))
        .collect();
    folders.sort();
    folders.dedup();
    // A folder below another already hidden adds nothing.
    for folder in folders {
        if !hidden.iter().any(|k| folder.starts_with(k)) {
            hidden.push(folder);
        }
    }
}

/// Secrets below the user's home, hidden wherever a grant would reach them; those named by
/// one word are hidden by that name too, in any folder a user's grant walks.
const HOME_SECRETS: [&str; 15] = [
    ".ssh",
    ".gnupg",
    ".aws",
    ".netrc",
    ".git-credentials",
    ".docker",
    ".kube",
    ".pypirc",
    ".npmrc",
    ".password-store",
    ".local/share/keyrings",
    ".config/gh",
    ".config/gcloud",
    ".cargo/credentials",
    ".cargo/credentials.toml",
];

/// The secrets of [`HOME_SECRETS`] that exist below `home`.
fn secrets_under(home: &Path) -> Vec<PathBuf> {
    HOME_SECRETS.iter().filter_map(|s| std::fs::canonicalize(home.join(s)).ok()).collect()
}

/// Names never granted. Lower-cased before the test.
fn hidden_name(name: &OsStr) -> bool {
    let Some(name) = name.to_str().map(str::to_ascii_lowercase) else { return false };
    let secret = HOME_SECRETS.iter().any(|s| !s.contains('/') && *s == name);
    let stem_has_digit = |stem: &str| stem.chars().any(|c| c.is_ascii_digit());
    secret
        || name == ".cph"
        || name == ".credentials"
        || name.starts_with("expected")
        || name.starts_with("answer")
        || name == "out"
        || name.ends_with(".out")
        || name.ends_with(".ans")
        || (name.ends_with(".a") && stem_has_digit(&name))
        || (name.starts_with("ans") && name.ends_with(".txt"))
}

/// What a run may read: folders and files, each granted whole.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct View {
    pub paths: Vec<PathBuf>,
    /// Folders granted piece by piece: their entries may be listed (names only: an
    /// interpreter lists the folder it imports from), each below them as [`View::paths`] says.
    pub listed: Vec<PathBuf>,
}

/// What the judge asks of a run's view beyond its command.
#[derive(Clone, Debug, Default, Hash, PartialEq, Eq)]
pub struct Ask {
    /// Folders never to show (the cases being judged), whatever folder around them is granted.
    pub hidden: Vec<PathBuf>,
    /// Folders to show (a compiler's toolchain homes, which its command does not name).
    pub readable: Vec<PathBuf>,
    /// The run's `PATH`: the install of each of its folders is shown, so a wrapper script
    /// finds the same `python3` (a pyenv shim) as the judge would.
    pub path: Option<OsString>,
    /// A build: its source's folder shows the sources, headers and modules a compiler reads,
    /// by kind (see [`super::kinds`]); a run's, the modules a runtime loads.
    pub build: bool,
}

/// The judge's own executable, as the kernel resolves it.
pub fn judge_exe() -> Option<PathBuf> {
    std::env::current_exe().ok().and_then(|e| std::fs::canonicalize(e).ok())
}

/// The view of `program` run with `args`, with `ask.hidden` (the folders of the cases being
/// judged, absolute) kept out.
pub fn of(program: &Path, on_path: bool, args: &[OsString], ask: &Ask) -> View {
    let mut hidden: Vec<PathBuf> = ask.hidden.iter().filter_map(|h| std::fs::canonicalize(h).ok()).collect();
    hidden.push(crate::interrupt::judges_folder());
    // Secrets in the user's home, hidden by path too: an install folder is granted without
    // looking at names (`~/.local` for a pip --user tool holds `share/keyrings`).
    if let Some(home) = std::env::var_os("HOME").filter(|h| !h.is_empty()) {
        hidden.extend(secrets_under(Path::new(&home)));
    }
    hidden.extend(super::toolchains::cache_dir().ok().and_then(|d| std::fs::canonicalize(d).ok()));
    // The judge carries every bundled suite's answers: no grant shows it, wherever it is
    // installed (`/usr/local/bin`, `~/.cargo/bin`); a built-in program may only execute it.
    hidden.extend(judge_exe());
    let mut paths = Vec::new();
    // The system's runtime folders and the few files of `/etc` a runtime reads.
    for system in super::root::system() {
        split(&system, &roots_in(&system, &hidden), &mut paths, usize::MAX);
    }
    // Folders a user keeps (a source's, a class path's): what a runtime loads from them.
    let mut folders = Vec::new();
    // The program's own file, as named and resolved (the judge's executable itself for one of
    // its built-in programs, `@fixture` or `@sudoku`: its own code, never a solver).
    paths.push(program.to_path_buf());
    paths.extend(std::fs::canonicalize(program).ok());
    // A runtime's install (the folder above its `bin`): whole but for the cases judged,
    // since its packages hold files of every name (`credentials.py`, `test.xml.out`). A
    // program in a folder of its own (`./a.out`, a built one) needs nothing beside it but,
    // for a script, its modules.
    let named = [Some(program.to_path_buf()), std::fs::canonicalize(program).ok()];
    for (install, in_bin) in named.iter().flatten().filter_map(|p| install_folder(p)) {
        if in_bin || on_path {
            grant_install(&install, &hidden, &mut paths);
        } else if !ask.build && is_script(program) {
            folders.push(install);
        }
    }
    // What the run's PATH finds: a wrapper's `python3` is the same as the judge's.
    for dir in ask.path.iter().flat_map(std::env::split_paths) {
        if let Some((install, _)) = install_folder(&dir.join("program")) {
            let install = if home_within(&install) { dir } else { install };
            grant_install(&install, &hidden, &mut paths);
        }
    }
    // Toolchain homes the judge names (a compiler's): whole but for what is hidden.
    for home in &ask.readable {
        grant_install(home, &hidden, &mut paths);
    }
    let (named_folders, named_files) = named_in(args);
    folders.extend(named_folders);
    for file in named_files {
        // Named outright (a checker's answer among them): the file itself.
        folders.extend(file.parent().map(Path::to_path_buf));
        paths.push(file);
    }
    for folder in folders {
        let Ok(folder) = std::fs::canonicalize(&folder) else { continue };
        // Never `/` or the user's home as a whole (nor a folder above it).
        if folder.parent().is_none() || home_within(&folder) {
            continue;
        }
        super::kinds::grant(&folder, &hidden, hidden_name, ask.build, &mut paths);
    }
    paths.sort();
    paths.dedup();
    let mut listed: Vec<PathBuf> =
        paths.iter().filter_map(|p| p.strip_prefix(LISTED).ok()).map(PathBuf::from).collect();
    listed.iter_mut().for_each(|p| *p = Path::new("/").join(&*p));
    paths.retain(|p| !p.starts_with(LISTED));
    View { paths, listed }
}

/// The folders and files `args` name that exist here: each argument, and each entry of a
/// class path (`-cp A:B`, `-classpath`, `--class-path`).
fn named_in(args: &[OsString]) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let (mut folders, mut files) = (Vec::new(), Vec::new());
    let mut class_path = false;
    for arg in args {
        let text = arg.to_string_lossy();
        let pieces: Vec<&str> = if class_path { text.split(':').collect() } else { vec![&text] };
        class_path = matches!(&*text, "-cp" | "-classpath" | "--class-path");
        for piece in pieces.into_iter().filter(|p| !p.is_empty()) {
            let path = Path::new(piece);
            if path.is_dir() {
                folders.push(path.to_path_buf());
            } else if path.is_file() {
                files.push(path.to_path_buf());
            }
        }
    }
    (folders, files)
}

/// The folders `args` name (a class path's, `.` among them) that no run is shown, since each
/// is the user's home or holds it: a program that loads its classes or modules from one
/// finds none there, which a note says before the first run rather than RE on every case.
pub fn unshown_folders(args: &[OsString]) -> Vec<PathBuf> {
    let (folders, _) = named_in(args);
    let mut unshown: Vec<PathBuf> = folders
        .into_iter()
        .filter(|f| std::fs::canonicalize(f).is_ok_and(|f| f.parent().is_none() || home_within(&f)))
        .collect();
    unshown.dedup();
    unshown
}

/// Grants a runtime's or toolchain's install folder, whole but for what is hidden in it;
/// never `/` or the user's home as a whole.
fn grant_install(install: &Path, hidden: &[PathBuf], paths: &mut Vec<PathBuf>) {
    if let Ok(install) = std::fs::canonicalize(install) {
        if install.parent().is_some() && !home_within(&install) {
            split(&install, &roots_in(&install, hidden), paths, usize::MAX);
        }
    }
}

/// Whether `program` is a script (`#!`), whose modules sit beside it.
fn is_script(program: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 2];
    std::fs::File::open(program).and_then(|mut f| f.read_exact(&mut head)).is_ok() && head == *b"#!"
}

/// The folder a program is installed in, and whether it is the one above a `bin`, `sbin` or
/// `shims` folder (`~/.pyenv/shims/python3` needs `~/.pyenv`, a venv's `bin/python` the
/// venv); else the program's own folder.
fn install_folder(program: &Path) -> Option<(PathBuf, bool)> {
    let program = std::env::current_dir().ok()?.join(program);
    let dir = program.parent()?;
    let name = dir.file_name()?.to_str()?;
    let in_bin = ["bin", "sbin", "shims"].contains(&name);
    let folder = if in_bin { dir.parent()? } else { dir };
    (folder.parent().is_some()).then(|| (folder.to_path_buf(), in_bin))
}

/// Whether `folder` is the user's home or holds it.
fn home_within(folder: &Path) -> bool {
    let home = std::env::var_os("HOME").map(PathBuf::from).and_then(|h| std::fs::canonicalize(h).ok());
    home.is_some_and(|h| h.starts_with(folder))
}

/// The hidden folders at or below `folder`, or above it.
fn roots_in(folder: &Path, roots: &[PathBuf]) -> Vec<PathBuf> {
    roots.iter().filter(|r| r.starts_with(folder) || folder.starts_with(r)).cloned().collect()
}

/// A mark before a path in the list [`split`] makes: a folder listed, not granted.
const LISTED: &str = "\0listed";

/// Grants `path` whole when nothing hidden is in it; else lists it and splits its children,
/// `depth` levels down at most.
fn split(path: &Path, hidden: &[PathBuf], out: &mut Vec<PathBuf>, depth: usize) {
    if hidden.iter().any(|h| h == path) {
        return;
    }
    if !hidden.iter().any(|h| h.starts_with(path)) {
        out.push(path.to_path_buf());
        return;
    }
    if depth == 0 {
        return;
    }
    out.push(Path::new(LISTED).join(path.strip_prefix("/").unwrap_or(path)));
    for entry in std::fs::read_dir(path).into_iter().flatten().flatten() {
        split(&entry.path(), hidden, out, depth - 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::tree;

    fn granted(view: &View, path: &Path) -> bool {
        view.paths.iter().any(|g| path.starts_with(g))
    }

    #[test]
    fn a_build_s_source_folder_shows_its_sources_by_kind_and_never_the_cases_or_the_answers() {
        let dir = tree(&[
            "sol.py",
            "helper.py",
            "pkg/mod.py",
            "test/sample-1.in",
            "test/sample-1.out",
            "cases/a/input.txt",
            "notes/expected.txt",
            "notes/plan.md",
            "01.a",
            ".env",
        ]);
        let root = std::fs::canonicalize(dir.path()).unwrap();
        let ask = Ask { hidden: vec![root.join("cases")], build: true, ..Ask::default() };
        let view = of(Path::new("/usr/bin/python3"), true, &[root.join("sol.py").into()], &ask);
        for readable in ["sol.py", "helper.py", "pkg/mod.py"] {
            assert!(granted(&view, &root.join(readable)), "{readable}: {view:?}");
        }
        for hidden in ["test/sample-1.out", "cases/a/input.txt", "notes/expected.txt", "01.a", "notes/plan.md", ".env"]
        {
            assert!(!granted(&view, &root.join(hidden)), "{hidden}: {view:?}");
        }
    }

    #[test]
    fn a_class_path_and_a_virtualenv_are_granted() {
        let dir = tree(&["classes/Main.class", "lib/x.jar", "venv/bin/python", "venv/lib/site.py", "venv/pyvenv.cfg"]);
        let root = std::fs::canonicalize(dir.path()).unwrap();
        let cp = format!("{}:{}", root.join("classes").display(), root.join("lib/x.jar").display());
        let view = of(Path::new("/usr/bin/java"), true, &["-cp".into(), cp.into(), "Main".into()], &Ask::default());
        assert!(granted(&view, &root.join("classes/Main.class")) && granted(&view, &root.join("lib/x.jar")));
        let view = of(&root.join("venv/bin/python"), false, &[], &Ask::default());
        assert!(granted(&view, &root.join("venv/lib/site.py")) && granted(&view, &root.join("venv/pyvenv.cfg")));
    }

    #[test]
    fn a_tool_installed_in_the_home_s_local_folder_never_shows_its_keyrings() {
        let home = tree(&[".local/bin/tool", ".local/lib/tool/x.py", ".local/share/keyrings/login.keyring"]);
        let home = std::fs::canonicalize(home.path()).unwrap();
        let local = home.join(".local");
        let mut paths = Vec::new();
        split(&local, &roots_in(&local, &secrets_under(&home)), &mut paths, usize::MAX);
        let view = View { paths, ..View::default() };
        assert!(granted(&view, &local.join("lib/tool/x.py")), "{view:?}");
        assert!(!granted(&view, &local.join("share/keyrings/login.keyring")), "{view:?}");
    }

    #[test]
    fn answer_like_names_and_secrets_are_hidden() {
        for name in ["expected.txt", "a.out", "1.ans", "ans1.txt", "Answer", "out", ".ssh", ".aws", "07.a"] {
            assert!(hidden_name(OsStr::new(name)), "{name}");
        }
        for name in ["sol.py", "Main.class", "input.txt", "in1.txt", "lib.a", "output.rs", "credentials.py"] {
            assert!(!hidden_name(OsStr::new(name)), "{name}");
        }
    }
}
