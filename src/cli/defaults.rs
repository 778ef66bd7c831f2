//! What `judge` judges when the command line does not say: the program (this repository's
//! bundled solver at home; elsewhere the user's own, as oj and cph pick it) and, under
//! `--problem`, the suite (the one in the working folder, else the one built into `judge`).

use crate::cases::Case;
use crate::problems::Problem;
use std::path::{Path, PathBuf};

/// The solver when none is given, and how it was picked (for the report's first line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picked {
    pub command: String,
    pub why: &'static str,
}

/// Whether `dir` is in this repository (where `@sudoku` is what one judges): it or a folder
/// above it holds this package's Cargo.toml.
pub fn is_this_project(dir: &Path) -> bool {
    dir.ancestors().any(|d| {
        std::fs::read_to_string(d.join("Cargo.toml"))
            .is_ok_and(|t| t.lines().any(|l| l.trim() == "name = \"sudoku-judge\""))
    })
}

/// The program to judge in `dir` when none is given: `@sudoku` in this repository; else
/// `./a.out` (oj's default), else the one source file named `main.*`, else the one source
/// file of a language the judge builds. The error says what was found and what to give.
pub fn solver(dir: &Path) -> Result<Picked, String> {
    if is_this_project(dir) {
        return Ok(Picked { command: "@sudoku".into(), why: "the bundled solver" });
    }
    if dir.join("a.out").is_file() {
        return Ok(Picked { command: "./a.out".into(), why: "./a.out here, as oj picks it" });
    }
    let mut sources: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| e.path().is_file())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| !n.starts_with('.') && crate::build::Language::of(Path::new(n)).is_some())
                .collect()
        })
        .unwrap_or_default();
    sources.sort();
    let mains: Vec<&String> = sources.iter().filter(|n| n.starts_with("main.") || n.starts_with("Main.")).collect();
    let (chosen, why) = match (mains.as_slice(), sources.as_slice()) {
        ([one], _) => ((*one).clone(), "the main source here"),
        ([], [one]) => (one.clone(), "the only source here"),
        _ => {
            let found = if sources.is_empty() {
                "no ./a.out and no source file here".to_string()
            } else {
                format!("no ./a.out, and {} source files here ({})", sources.len(), sources.join(", "))
            };
            return Err(format!(
                "which program? {found}: give it, like `judge -- ./a.out`, `judge -- main.cpp` or \
                 `judge --solver 'python3 sol.py'` (`--solver @sudoku` for the bundled Sudoku solver)"
            ));
        }
    };
    Ok(Picked { command: format!("./{chosen}"), why })
}

/// The program a run judges, chosen once for every entry point (`judge`, `--watch`, `judge
/// stress`, each problem of a contest): given on the command line, or picked in a folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solver {
    /// The command as text (for the report's first line, and to split when `words` is empty).
    pub text: String,
    /// The words after `--`, when the command was given so.
    pub words: Vec<String>,
    /// How it was picked, when it was not given.
    pub why: Option<&'static str>,
}

impl Solver {
    /// The words after `--` (which win), else `--solver TEXT`, else the program [`solver`] picks
    /// in `dir`, named as from the working folder (`./main.cpp`, `B-Two/main.cpp`).
    pub fn choose(words: &[String], given: Option<&str>, dir: &Path) -> Result<Solver, String> {
        if !words.is_empty() {
            let text = shlex::try_join(words.iter().map(String::as_str)).unwrap_or_else(|_| words.join(" "));
            return Ok(Solver { text, words: words.to_vec(), why: None });
        }
        if let Some(text) = given {
            return Ok(Solver { text: text.to_string(), words: Vec::new(), why: None });
        }
        let here = std::env::current_dir().map_err(|e| format!("cannot read the working folder: {e}"))?;
        let full = here.join(dir);
        let picked = solver(&full)?;
        let is_here = std::fs::canonicalize(&full).ok() == std::fs::canonicalize(&here).ok();
        let text = match picked.command.strip_prefix("./") {
            // Named from the working folder, where the run is started.
            Some(file) if !is_here => {
                let path = dir.join(file).display().to_string();
                shlex::try_quote(&path).map_or(path.clone(), |q| q.into_owned())
            }
            _ => picked.command,
        };
        Ok(Solver { text, words: Vec::new(), why: Some(picked.why) })
    }
}

/// Which cases `--problem` judges, and the note saying so.
pub struct Suite {
    pub paths: Vec<PathBuf>,
    pub cases: Vec<Case>,
    /// Whether only the cases tagged with the problem's name are judged.
    pub tagged_only: bool,
    pub note: String,
}

/// The cases `--problem` judges: `given` (the paths of the command line) if any, every one
/// of them when none is tagged with the problem; else the working folder's suite if it has
/// one (`local`: the default folder found and its cases); else the suite built into `judge`,
/// unpacked under `scratch`.
pub fn suite(
    problem: &Problem,
    given: &[PathBuf],
    local: Option<(Vec<PathBuf>, Vec<Case>)>,
    scratch: &Path,
) -> Result<Suite, String> {
    let tagged = |cases: &[Case]| cases.iter().filter(|c| c.config.tags.iter().any(|t| t == problem.name)).count();
    let shown = |paths: &[PathBuf]| paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ");
    let name = problem.name;
    let mut bundled_why = String::new();
    if let Some((paths, cases)) = local {
        let n = tagged(&cases);
        if n > 0 {
            let note = format!("--problem {name}: the {n} cases tagged {name} in {}", shown(&paths));
            return Ok(Suite { paths, cases, tagged_only: true, note });
        }
        if !given.is_empty() {
            let note = format!(
                "--problem {name}: no case in {} is tagged {name}: judging all {} with {name}'s limits and checker",
                shown(&paths),
                cases.len()
            );
            return Ok(Suite { paths, cases, tagged_only: false, note });
        }
        bundled_why = format!("no case in {} is tagged {name}, so ", shown(&paths));
    }
    let root = crate::bundled::unpack(scratch).map_err(|e| format!("cannot unpack the built-in suites: {e}"))?;
    let paths = vec![root];
    let cases = crate::cases::discover(&paths).map_err(|e| e.to_string())?;
    let n = tagged(&cases);
    let left = crate::bundled::left_out(name);
    let left = if left.is_empty() {
        String::new()
    } else {
        format!("; {} only in the repository's cases/, too large to build in", left.join(", "))
    };
    let note = format!("--problem {name}: {bundled_why}judging the suite built into judge ({n} cases{left})");
    Ok(Suite { paths, cases, tagged_only: true, note })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(files: &[&str]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for f in files {
            std::fs::write(dir.path().join(f), "x").unwrap();
        }
        dir
    }

    #[test]
    fn a_out_first_then_the_main_source_then_the_only_source() {
        let pick = |files: &[&str]| solver(folder(files).path()).map(|p| p.command);
        assert_eq!(pick(&["a.out", "main.cpp"]), Ok("./a.out".into()));
        assert_eq!(pick(&["main.cpp", "gen.py", "notes.txt"]), Ok("./main.cpp".into()));
        assert_eq!(pick(&["sol.py", "notes.txt"]), Ok("./sol.py".into()));
        let two = pick(&["a.cpp", "b.cpp"]).unwrap_err();
        assert!(two.contains("2 source files here (a.cpp, b.cpp)") && two.contains("judge -- ./a.out"), "{two}");
        assert!(pick(&["notes.txt"]).unwrap_err().contains("no ./a.out and no source file here"));
    }

    #[test]
    fn a_program_picked_in_another_folder_is_named_from_here() {
        let dir = folder(&["main.py"]);
        let chosen = Solver::choose(&[], None, dir.path()).unwrap();
        assert_eq!(
            (chosen.text, chosen.why),
            (format!("{}/main.py", dir.path().display()), Some("the main source here"))
        );
        // Given beats picked, and the words after `--` beat --solver.
        let words = vec!["./a b".to_string(), "x".to_string()];
        assert_eq!(Solver::choose(&words, Some("@sudoku"), dir.path()).unwrap().text, "'./a b' x");
        assert_eq!(Solver::choose(&[], Some("@sudoku"), dir.path()).unwrap().text, "@sudoku");
    }

    #[test]
    fn this_repository_judges_its_own_solver() {
        let home = solver(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap();
        assert_eq!(home.command, "@sudoku");
        // Below its root too: cases/ holds Python scripts, none of them a solver.
        let below = solver(&Path::new(env!("CARGO_MANIFEST_DIR")).join("cases")).unwrap();
        assert_eq!(below.command, "@sudoku");
    }
}
