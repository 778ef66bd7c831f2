//! Helpers the unit tests of several stages share, so that no stage's tests import another
//! stage's: a temporary tree of files.

/// A temporary folder holding `files` (each a path below it, with a line of text).
pub(crate) fn tree(files: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for f in files {
        let path = dir.path().join(f);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, "x").unwrap();
    }
    dir
}
