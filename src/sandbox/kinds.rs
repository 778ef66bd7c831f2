//! What a run sees beside its program, granted by kind rather than hidden by name: in a
//! script's folder or a class path's, the files a runtime loads (sources, modules, classes,
//! jars, shared objects, programs), each granted alone, so whatever else lies there
//! (`.env`, `.git`, `output.txt`, `1.expected`, Polygon's `tests/01.a`, `1.sol`) is absent
//! because it was never granted, whatever its name. No list of names can miss one.
//!
//! | granted | why |
//! |---|---|
//! | files whose extension is one of [`KINDS`] | a script's modules (`helper.py`, `pkg/__init__.py`, `lib.rb`, `util.js`), a class path's `.class` and `.jar` files, an extension module's `.so` |
//! | for a build, also files whose extension is one of [`SOURCES`] | a compiler's sources and headers beside the one it builds (`#include "lib.h"`, `mod helper;`, a Go module's `go.mod`) |
//! | executable files that start as a program does (`\x7fELF` or `#!`) | a wrapper script's `./a.out` or `./helper.sh` |
//! | never: a dot-file or dot-folder, a folder the judge hides (the cases), an answer-like name, anything past [`DEPTH`] levels or [`MOST`] files | `.git`, `.env`, `.venv`'s copies are not a script's modules; a walk stays cheap |

use std::path::{Path, PathBuf};

/// Extensions of the files a runtime loads from a script's or a class path's folder.
pub const KINDS: [&str; 20] = [
    "py", "pyc", "pyi", "so", "js", "mjs", "cjs", "rb", "pl", "pm", "lua", "php", "sh", "bash", "class", "jar", "kts",
    "jl", "r", "wasm",
];

/// Extensions of the files a compiler reads beside the source it builds: sources, headers
/// and module files of the languages a judge builds. A data file an `include_str!` or
/// `#embed` names is none of them: a build that needs one names it in its command.
pub const SOURCES: [&str; 44] = [
    "c", "h", "cc", "cpp", "cxx", "c++", "hh", "hpp", "hxx", "h++", "ipp", "tpp", "tcc", "inl", "inc", "rs", "go",
    "mod", "sum", "java", "kt", "scala", "hs", "lhs", "ml", "mli", "pas", "pp", "dpr", "lpr", "d", "nim", "zig", "cs",
    "fs", "swift", "cr", "ex", "exs", "erl", "hrl", "f90", "s", "asm",
];

/// Levels below the folder a walk looks (a Java package `com/example/util/` is three).
const DEPTH: usize = 6;

/// Files granted from one folder at most: each is a rule and a mount a run.
const MOST: usize = 2_000;

/// Entries a walk looks at before it stops.
const BUDGET: usize = 20_000;

/// Whether `path` (a regular file) is one a runtime loads, or, for a `build`, one a
/// compiler reads.
fn loadable(path: &Path, build: bool) -> bool {
    let kind = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    if kind.is_some_and(|k| KINDS.contains(&k.as_str()) || (build && SOURCES.contains(&k.as_str()))) {
        return true;
    }
    use std::io::Read;
    use std::os::unix::fs::PermissionsExt;
    let executable = std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o111 != 0);
    let mut head = [0u8; 4];
    executable
        && std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut head)).is_ok()
        && (head == *b"\x7fELF" || head.starts_with(b"#!"))
}

/// Grants into `out` the files of `folder` a runtime loads (and, for a `build`, those a
/// compiler reads), never one below `hidden` or named as `secret` says.
pub fn grant(
    folder: &Path,
    hidden: &[PathBuf],
    secret: impl Fn(&std::ffi::OsStr) -> bool,
    build: bool,
    out: &mut Vec<PathBuf>,
) {
    if hidden.iter().any(|h| folder.starts_with(h)) {
        return;
    }
    let mut walk = walkdir::WalkDir::new(folder).follow_links(false).min_depth(1).max_depth(DEPTH).into_iter();
    let (mut seen, mut granted) = (0, 0);
    while let Some(entry) = walk.next() {
        let Ok(entry) = entry else { continue };
        seen += 1;
        if seen > BUDGET || granted >= MOST {
            break;
        }
        let name = entry.file_name();
        use std::os::unix::ffi::OsStrExt;
        let skip =
            name.as_bytes().starts_with(b".") || secret(name) || hidden.iter().any(|h| entry.path().starts_with(h));
        if skip {
            if entry.file_type().is_dir() {
                walk.skip_current_dir();
            }
            continue;
        }
        if entry.file_type().is_file() && loadable(entry.path(), build) {
            out.push(entry.path().to_path_buf());
            granted += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::tree;

    #[test]
    fn a_folder_shows_its_modules_classes_and_programs_and_nothing_else() {
        let dir = tree(&[
            "sol.py",
            "helper.py",
            "pkg/__init__.py",
            "pkg/mod.so",
            "com/x/Main.class",
            "lib.jar",
            ".env",
            ".git/config",
            ".git/hooks/pre-commit.py",
            "output.txt",
            "1.expected",
            "tests/01.a",
            "1.sol",
            "notes.md",
        ]);
        let root = std::fs::canonicalize(dir.path()).unwrap();
        let mut out = Vec::new();
        grant(&root, &[root.join("pkg/mod.so")], |_| false, false, &mut out);
        let mut got: Vec<String> =
            out.iter().map(|p| p.strip_prefix(&root).unwrap().to_string_lossy().into_owned()).collect();
        got.sort();
        assert_eq!(got, ["com/x/Main.class", "helper.py", "lib.jar", "pkg/__init__.py", "sol.py"]);
    }

    #[test]
    fn a_build_s_folder_shows_its_sources_and_headers_and_nothing_else() {
        let dir = tree(&[
            "sol.cpp",
            "lib/util.hpp",
            "helper.rs",
            "go.mod",
            "table.txt",
            ".env",
            ".git/config",
            "output.txt",
            "1.out",
            "tests/01.a",
            "notes.md",
        ]);
        let root = std::fs::canonicalize(dir.path()).unwrap();
        let mut out = Vec::new();
        grant(&root, &[], |_| false, true, &mut out);
        let mut got: Vec<String> =
            out.iter().map(|p| p.strip_prefix(&root).unwrap().to_string_lossy().into_owned()).collect();
        got.sort();
        assert_eq!(got, ["go.mod", "helper.rs", "lib/util.hpp", "sol.cpp"]);
    }
}
