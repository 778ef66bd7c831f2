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
        // The TempDir removes the folder next; whatever the run made read-only must not stop it.
        crate::interrupt::unlock(self.dir.path());
    }
}
