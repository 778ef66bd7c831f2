//! Whether a root judge's runs can read the files their command names, told before the
//! first run rather than as a verdict.
//!
//! A root judge runs every program as [`super::root::RUN_ID`], never uid 0, as isolate's boxes
//! do; so a solver of root's that only root may read (a `umask 077` home makes every file
//! 0600) would be RE "Permission denied" on every case, or its build CE, with nothing saying
//! why. The judge looks first and says what to change.

use std::ffi::OsString;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

/// Why the runs' user cannot use a file their command names, one line a file; empty when
/// they can, when the judge is not root, or when runs are not a user of their own.
pub fn unreadable(program: &OsString, args: &[OsString], own_user: bool) -> Vec<String> {
    // SAFETY: a plain query.
    if !own_user || unsafe { libc::geteuid() } != 0 {
        return Vec::new();
    }
    let id = super::root::RUN_ID;
    let mut why = Vec::new();
    // The program itself, when it is a file here: run (a binary needs its execute bit, a
    // script both), or built first (a source is read).
    let named = Path::new(program);
    if named.components().count() > 1 || named.is_file() {
        why.extend(lacking(named, id, Use::Run));
    }
    // What its arguments name that exists here: a script, a source, a class path's jar.
    for arg in args {
        let path = Path::new(arg);
        if path.as_os_str().is_empty() || arg.to_str().is_some_and(|a| a.starts_with('-')) {
            continue;
        }
        why.extend(lacking(path, id, Use::Read));
    }
    why
}

#[derive(Clone, Copy)]
enum Use {
    Read,
    Run,
}

/// The line for `path` when uid and gid `id` may not use it so.
fn lacking(path: &Path, id: u32, how: Use) -> Option<String> {
    let meta = std::fs::metadata(path).ok().filter(|m| m.is_file())?;
    let mode = meta.mode();
    let mut head = [0u8; 4];
    let elf = std::fs::File::open(path)
        .and_then(|mut f| std::io::Read::read(&mut f, &mut head))
        .is_ok_and(|n| head[..n] == *b"\x7fELF");
    // A binary is only executed; a script is read by its interpreter, and executed too when
    // it is run by its path with its execute bit set; a source is read by its compiler.
    let needed = match how {
        Use::Run if elf => 0o1,
        Use::Run if mode & 0o111 != 0 => 0o5,
        _ => 0o4,
    };
    let shift = if meta.uid() == id {
        6
    } else if meta.gid() == id {
        3
    } else {
        0
    };
    let bits = (mode >> shift) & 0o7;
    if bits & needed == needed {
        return None;
    }
    let (what, fix) = match needed {
        0o1 => ("run", "o+x"),
        0o5 => ("read and run", "o+rx"),
        _ => ("read", "o+r"),
    };
    Some(format!(
        "{} is mode {:04o}, owned by uid {}: a root judge runs programs as uid {id}, never root, which may not \
         {what} it: chmod {fix} {}",
        path.display(),
        mode & 0o7777,
        meta.uid(),
        path.display()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn a_file_only_its_owner_may_read_is_named_with_its_fix_and_others_are_not() {
        let dir = tempfile::tempdir().unwrap();
        let private = dir.path().join("sol.py");
        let open = dir.path().join("open.py");
        std::fs::write(&private, "print(1)\n").unwrap();
        std::fs::write(&open, "print(1)\n").unwrap();
        std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o600)).unwrap();
        std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o644)).unwrap();
        let python = OsString::from("python3");
        let args = |p: &Path| vec![OsString::from("-u"), p.as_os_str().to_owned()];
        // Not a root judge, or no user of their own: nothing to say.
        assert!(unreadable(&python, &args(&private), false).is_empty());
        if unsafe { libc::geteuid() } != 0 {
            assert!(unreadable(&python, &args(&private), true).is_empty());
            return;
        }
        let lines = unreadable(&python, &args(&private), true);
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(lines[0].contains("mode 0600") && lines[0].contains("chmod o+r"), "{}", lines[0]);
        assert!(unreadable(&python, &args(&open), true).is_empty());
        // A script run by its path needs others' execute bit too; a source built first, read.
        std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o744)).unwrap();
        let lines = unreadable(&open.as_os_str().to_owned(), &[], true);
        assert!(lines.len() == 1 && lines[0].contains("chmod o+rx"), "{lines:?}");
        let lines = unreadable(&private.as_os_str().to_owned(), &[], true);
        assert!(lines.len() == 1 && lines[0].contains("chmod o+r "), "{lines:?}");
    }
}
