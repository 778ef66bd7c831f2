//! What `judge` judges when the command line names no cases, or names a contest: the folder
//! you are in when it holds cases in any layout judge reads, or, at a contest's root
//! (problem folders side by side, as `judge listen` writes them), each problem with its own
//! program.

use super::defaults::Solver;
use super::round::Target;
use super::Cli;
use std::path::{Path, PathBuf};

/// What one `judge` command judges.
pub enum Plan {
    /// One round over these paths, with one program.
    One(Target),
    /// A contest's root: each problem folder with the program picked in it.
    Contest { root: PathBuf, problems: Vec<(PathBuf, Result<Solver, String>)> },
}

/// The folders directly in `root` that hold cases, in natural order.
fn problem_folders(root: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(root) else { return Vec::new() };
    let mut found: Vec<PathBuf> = entries
        .flatten()
        .filter(|e| !crate::cases::is_skipped(&e.file_name().to_string_lossy()))
        .map(|e| e.path())
        // A folder with an input.txt is one case, not a problem.
        .filter(|p| p.is_dir() && !p.join("input.txt").exists() && crate::cases::holds_cases(p))
        .collect();
    found.sort_by(|a, b| crate::cases::natural_cmp(&a.to_string_lossy(), &b.to_string_lossy()));
    found
}

/// The plan for `cli`: with no path given, at a folder with no cases/, test/ or tests/ and no
/// case of its own but with problem folders (each holding cases, none a case folder itself),
/// a contest, unless a program is given or is here (it is then judged on every problem's
/// cases); else one round as the command line says.
pub fn plan(cli: &Cli) -> Plan {
    let given = cli.given_paths();
    let one = || Plan::One(Target { given: given.clone(), solver: cli.solver() });
    if cli.problem().is_some() {
        return one();
    }
    // Only `judge` alone: a folder named on the command line is judged as it always was, one
    // program on every case below it.
    if !given.is_empty() || super::paths_or_default(&[]).is_some() {
        return one();
    }
    let root = PathBuf::from(".");
    if crate::cases::holds_cases(&root) {
        return one();
    }
    let problems = problem_folders(&root);
    if problems.is_empty() {
        return one();
    }
    // A program given is one program for every problem, as asked; so is a program here (a
    // problem's folder with its samples in a subfolder, not a contest's).
    let program_here = super::defaults::solver(&root).is_ok();
    if !cli.command.is_empty() || cli.solver.is_some() || program_here {
        return Plan::One(Target { given: vec![root], solver: cli.solver() });
    }
    let problems = problems
        .into_iter()
        .map(|dir| {
            // Named as typed: `B-Two/`, not `./B-Two/`.
            let dir = dir.strip_prefix(".").map(Path::to_path_buf).unwrap_or(dir);
            let solver = Solver::choose(&[], None, &dir);
            (dir, solver)
        })
        .collect();
    Plan::Contest { root, problems }
}
