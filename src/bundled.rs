//! The problem suites built into `judge` at build time (see `build.rs`): `judge --problem
//! NAME` judges them from any folder, once `judge` is installed with `cargo install`, without
//! this repository's `cases/` at hand.

use std::path::{Path, PathBuf};

mod table {
    include!(concat!(env!("OUT_DIR"), "/bundled_suites.rs"));
}

pub use table::{FILES, LEFT_OUT};

/// The case folders tagged `problem` left out of the built-in copy for their size.
pub fn left_out(problem: &str) -> Vec<&'static str> {
    LEFT_OUT.iter().filter(|(_, _, tags)| tags.contains(&problem)).map(|(p, _, _)| *p).collect()
}

/// Writes every built-in suite under `dir` (as `dir/cases/...`, so case names read as they
/// do in the repository: `poj2676/17clue-1`) and returns the folder to judge.
pub fn unpack(dir: &Path) -> std::io::Result<PathBuf> {
    let root = dir.join("cases");
    for (rel, bytes) in FILES {
        let path = root.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&path, bytes)?;
    }
    Ok(root)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_problem_has_a_built_in_suite_as_in_the_repository() {
        let dir = tempfile::tempdir().unwrap();
        let root = unpack(dir.path()).unwrap();
        let bundled = crate::cases::discover(&[root]).unwrap();
        let here = crate::cases::discover(&[PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/cases"))]).unwrap();
        for p in &crate::problems::PROBLEMS {
            let names = |cases: &[crate::cases::Case]| -> Vec<String> {
                cases.iter().filter(|c| c.config.tags.iter().any(|t| t == p.name)).map(|c| c.name.clone()).collect()
            };
            let (ours, theirs) = (names(&bundled), names(&here));
            assert!(ours.len() >= 20, "{}: {} built-in cases", p.name, ours.len());
            let missing: Vec<&str> = theirs.iter().filter(|n| !ours.contains(n)).map(String::as_str).collect();
            assert_eq!(missing, left_out(p.name), "{}: in cases/, not built in, and not listed as left out", p.name);
        }
        assert_eq!(left_out("poj2676"), ["poj2676/big-10000"]);
        let total: usize = FILES.iter().map(|(_, b)| b.len()).sum();
        assert!(total < 1 << 20, "the built-in suites take {total} bytes");
    }
}
