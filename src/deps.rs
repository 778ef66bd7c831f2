//! The local files a build read besides its source (a header, a Rust module), so that editing
//! one rebuilds the cached program: the compilers that can write a dependency file (gcc,
//! g++, clang, rustc) are asked to, and the files it names are recorded beside the program
//! with a hash of each.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

/// Arguments that make `compiler` (with `args` already given) write the local files it reads
/// to `depfile`; none for a compiler we do not know or a command that already asks.
pub fn ask(compiler: &OsStr, args: &[OsString], depfile: &Path) -> Vec<OsString> {
    let name = Path::new(compiler).file_name().and_then(OsStr::to_str).unwrap_or("");
    let given = |prefix: &str| args.iter().any(|a| a.to_string_lossy().starts_with(prefix));
    let c_family = ["gcc", "g++", "cc", "c++", "clang"].iter().any(|c| name.starts_with(c));
    if c_family && !given("-M") {
        // -MMD: headers of the user, not of the system.
        return vec!["-MMD".into(), "-MF".into(), depfile.into()];
    }
    if name.starts_with("rustc") && !given("--emit") {
        let mut emit = OsString::from("--emit=dep-info=");
        emit.push(depfile);
        emit.push(",link");
        return vec![emit];
    }
    Vec::new()
}

/// The files a Makefile-style dependency file names as prerequisites, made absolute against
/// `base`; comments and targets left out.
pub fn parse(text: &str, base: &Path) -> Vec<PathBuf> {
    let joined = text.replace("\\\n", " ");
    let mut files: Vec<PathBuf> = Vec::new();
    for line in joined.lines().filter(|l| !l.trim_start().starts_with('#')) {
        let Some((_, prerequisites)) = split_rule(line) else { continue };
        let mut word = String::new();
        let mut chars = prerequisites.chars().peekable();
        let mut push = |word: &mut String| {
            if !word.is_empty() {
                let path = base.join(std::mem::take(word));
                if !files.contains(&path) {
                    files.push(path);
                }
            }
        };
        while let Some(c) = chars.next() {
            match c {
                // An escaped space is part of a name.
                '\\' if chars.peek() == Some(&' ') => word.push(chars.next().unwrap_or(' ')),
                c if c.is_whitespace() => push(&mut word),
                c => word.push(c),
            }
        }
        push(&mut word);
    }
    files
}

/// A rule's prerequisites: what follows the first `: ` (or a `:` that ends the line).
fn split_rule(line: &str) -> Option<(&str, &str)> {
    let at = line.find(": ").or_else(|| line.strip_suffix(':').map(str::len))?;
    Some((&line[..at], line.get(at + 1..).unwrap_or("")))
}

fn list_path(out: &Path) -> PathBuf {
    let mut name = out.file_name().unwrap_or_default().to_os_string();
    name.push(".deps");
    out.with_file_name(name)
}

/// Records `files` with a hash of each as the dependencies of the cached program `out`
/// (none: no record).
pub fn record(out: &Path, files: &[PathBuf], hash: impl Fn(&[u8]) -> String) -> std::io::Result<()> {
    let list = list_path(out);
    if files.is_empty() {
        return match std::fs::remove_file(&list) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        };
    }
    let mut text = String::new();
    for file in files {
        let bytes = std::fs::read(file).unwrap_or_default();
        text += &format!("{}\t{}\n", hash(&bytes), file.display());
    }
    std::fs::write(list, text)
}

/// Whether every file recorded for `out` still hashes as it did when `out` was built (true
/// when nothing was recorded).
pub fn unchanged(out: &Path, hash: impl Fn(&[u8]) -> String) -> bool {
    let Ok(text) = std::fs::read_to_string(list_path(out)) else { return true };
    text.lines()
        .filter_map(|l| l.split_once('\t'))
        .all(|(sum, file)| std::fs::read(file).is_ok_and(|bytes| hash(&bytes) == sum))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gcc_and_rustc_dependency_files_are_read() {
        let gcc = "main.o: /w/main.cpp /w/add.h \\\n /w/my\\ lib.h\n";
        let base = Path::new("/w");
        assert_eq!(
            parse(gcc, base),
            vec![PathBuf::from("/w/main.cpp"), PathBuf::from("/w/add.h"), PathBuf::from("/w/my lib.h")]
        );
        let rustc = "/tmp/out: /w/main.rs /w/helper.rs\n\n/w/main.rs:\n/w/helper.rs:\n\n# env-dep:X=1\n";
        assert_eq!(parse(rustc, base), vec![PathBuf::from("/w/main.rs"), PathBuf::from("/w/helper.rs")]);
        assert_eq!(parse("out: add.h\n", base), vec![PathBuf::from("/w/add.h")]);
    }

    #[test]
    fn known_compilers_are_asked_and_others_are_not() {
        let d = Path::new("/c/x.d");
        assert_eq!(ask(OsStr::new("g++-13"), &[], d), vec![OsString::from("-MMD"), "-MF".into(), "/c/x.d".into()]);
        assert_eq!(ask(OsStr::new("/usr/bin/rustc"), &[], d), vec![OsString::from("--emit=dep-info=/c/x.d,link")]);
        assert!(ask(OsStr::new("rustc"), &["--emit=link".into()], d).is_empty());
        assert!(ask(OsStr::new("python3"), &[], d).is_empty());
    }
}
