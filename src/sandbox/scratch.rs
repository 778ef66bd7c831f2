//! A run's scratch folder: its working folder and `TMPDIR`, private (mode 0700), and
//! removed with everything in it when the run ends, so a `freopen("output.txt")` never
//! writes into the user's folder and nothing a run leaves outlives it.

use std::path::{Path, PathBuf};

/// A scratch folder, removed on drop.
#[derive(Debug)]
pub struct Scratch {
    dir: tempfile::TempDir,
}

impl Scratch {
    pub fn new() -> std::io::Result<Scratch> {
        let dir = tempfile::Builder::new().prefix("judge-run-").tempdir_in(crate::interrupt::temp_root())?;
        Ok(Scratch { dir })
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn path_buf(&self) -> PathBuf {
        self.dir.path().to_path_buf()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        // A run may leave read-only folders behind: make them writable so that all goes.
        for entry in walkdir::WalkDir::new(self.dir.path()).into_iter().flatten() {
            if entry.file_type().is_dir() {
                use std::os::unix::fs::PermissionsExt;
                let _ = std::fs::set_permissions(entry.path(), std::fs::Permissions::from_mode(0o700));
            }
        }
    }
}
