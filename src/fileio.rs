//! File-I/O problems: a case that names its input and output files (Codeforces' `input.txt`
//! and `output.txt`, USACO's `NAME.in` and `NAME.out`, an olympiad's `freopen`), as DMOJ's
//! `file_io` does.
//!
//! The run's working folder is a fresh folder of the judge's, granted to the run as writable:
//! the input is copied into it under its name before the run (stdin carries it too), and the
//! answer is read afterwards from the output file the program wrote there, under the output
//! limit, never through a link. A program that wrote no such file is judged on nothing, and
//! the check says which file it should have written.

pub use crate::cases::files::{parse_name, Files};
use crate::exec::{self, Facts, Program};
use crate::limits::Limits;
use std::path::Path;

/// Why a run's answer could not be read: the output file it should have written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Missing(pub String);

impl Missing {
    /// What the check says instead of comparing.
    pub fn why(&self) -> String {
        format!(
            "the program wrote no {}: this problem's answer is read from that file in the working folder, not from stdout",
            self.0
        )
    }
}

/// Runs `program` on `stdin` as [`exec::run`] does, with `files`' input in its working folder
/// and its answer taken from `files`' output; `Missing` when it wrote no output file.
pub fn run(
    runner: &exec::Runner,
    program: &Program,
    stdin: &Path,
    limits: &Limits,
    files: &Files,
) -> (Facts, Option<Missing>) {
    if files.is_empty() {
        return (exec::run(runner, program, stdin, limits), None);
    }
    let folder = match tempfile::Builder::new().prefix("judge-files-").tempdir_in(crate::interrupt::temp_root()) {
        Ok(f) => f,
        Err(e) => return (failed(format!("cannot make the run's working folder: {e}")), None),
    };
    if let Some(name) = &files.input {
        let copied = crate::regular::open(stdin).and_then(|mut from| {
            let mut to = std::fs::File::create(folder.path().join(name))?;
            std::io::copy(&mut from, &mut to)
        });
        if let Err(e) = copied {
            return (failed(format!("cannot put the input in the run's folder as {name}: {e}")), None);
        }
    }
    let mut facts = exec::run_in_folder(runner, &in_folder(program, folder.path()), stdin, limits, folder.path());
    let Some(name) = &files.output else { return (facts, None) };
    if facts.spawn_error.is_some() {
        return (facts, None);
    }
    match read_answer(&folder.path().join(name), limits.output_bytes) {
        Ok(Answer::Written(spool)) => {
            facts.stdout_bytes = spool.len();
            facts.stdout = spool;
            (facts, None)
        }
        Ok(Answer::TooLong) => {
            facts.output_overflow = true;
            (facts, None)
        }
        Ok(Answer::None) => {
            facts.stdout = crate::spool::Spool::default();
            (facts, Some(Missing(name.clone())))
        }
        Err(e) => {
            facts.capture_error = Some(format!("cannot read {name}: {e}"));
            (facts, None)
        }
    }
}

fn failed(why: String) -> Facts {
    Facts { spawn_error: Some(why), ..Facts::default() }
}

/// `program` started in `folder`: a shell changes to it and replaces itself with the program
/// (so the program's exit status, signals and figures are its own). Paths of the command
/// relative to the judge's folder are made absolute first.
fn in_folder(program: &Program, folder: &Path) -> Program {
    let absolute = |word: &std::ffi::OsString| -> std::ffi::OsString {
        let path = Path::new(word);
        let named = path.components().count() > 1 || path.exists();
        match std::env::current_dir() {
            Ok(here) if path.is_relative() && named && here.join(path).exists() => here.join(path).into_os_string(),
            _ => word.clone(),
        }
    };
    let program_word = if Path::new(&program.program).components().count() > 1 {
        absolute(&program.program)
    } else {
        program.program.clone()
    };
    let mut args: Vec<std::ffi::OsString> =
        vec!["-c".into(), "cd \"$0\" && exec \"$@\"".into(), folder.as_os_str().to_owned(), program_word];
    args.extend(program.args.iter().map(absolute));
    Program { program: "/bin/sh".into(), args, env: program.env.clone() }
}

enum Answer {
    Written(crate::spool::Spool),
    TooLong,
    None,
}

/// The output file, read up to `cap` bytes: only a regular file, never through a link (a
/// program could point it at an answer).
fn read_answer(path: &Path, cap: u64) -> std::io::Result<Answer> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let file = match std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK).open(path)
    {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Answer::None),
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
            return Err(std::io::Error::new(std::io::ErrorKind::Other, "it is a link, not a file"))
        }
        Err(e) => return Err(e),
    };
    if !file.metadata()?.is_file() {
        return Err(std::io::Error::new(std::io::ErrorKind::Other, "it is not a regular file"));
    }
    let mut writer = crate::spool::SpoolWriter::new()?;
    let mut chunk = vec![0u8; 1 << 16];
    let mut reader = file.take(cap + 1);
    loop {
        match reader.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => {
                if writer.len() + n as u64 > cap {
                    return Ok(Answer::TooLong);
                }
                writer.write(&chunk[..n]);
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(Answer::Written(writer.finish()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_plain_file_names() {
        assert_eq!(parse_name(" castle.in "), Ok("castle.in".into()));
        for bad in ["", "..", "../x", "/etc/passwd", "a/b", "a\\b"] {
            assert!(parse_name(bad).unwrap_err().contains("not a file name"), "{bad:?}");
        }
    }

    #[test]
    fn the_answer_is_a_regular_file_never_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("output.txt");
        assert!(matches!(read_answer(&path, 10), Ok(Answer::None)));
        std::fs::write(dir.path().join("secret"), "42\n").unwrap();
        std::os::unix::fs::symlink(dir.path().join("secret"), &path).unwrap();
        assert!(read_answer(&path, 10).is_err());
        std::fs::remove_file(&path).unwrap();
        std::fs::write(&path, "12345678901\n").unwrap();
        assert!(matches!(read_answer(&path, 10), Ok(Answer::TooLong)));
        std::fs::write(&path, "3\n").unwrap();
        match read_answer(&path, 10) {
            Ok(Answer::Written(spool)) => assert_eq!(spool.read_all().unwrap(), b"3\n"),
            _ => panic!("the answer was not read"),
        }
    }

    #[test]
    fn files_are_laid_over_outer_ones() {
        let outer = Files { input: Some("a.in".into()), output: Some("a.out".into()) };
        let near = Files { input: Some("b.in".into()), output: None };
        assert_eq!(near.over(&outer), Files { input: Some("b.in".into()), output: Some("a.out".into()) });
        assert!(Files::default().is_empty());
    }
}
