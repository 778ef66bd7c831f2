//! `judge` at a contest's root: each problem folder judged with its own program, one table per
//! problem, then a line for the contest. A problem with no program yet is left out and said,
//! not failed: in a contest, most problems have none for a while.

use super::defaults::Solver;
use super::round::{self, Stop, Target};
use super::Cli;
use std::io::Write;
use std::path::{Path, PathBuf};

/// How one problem went.
enum Outcome {
    Judged { passed: usize, total: usize },
    NoProgram,
    Refused,
}

/// Judges every problem of the contest at `root`; the exit status: 0 every problem judged
/// passed, 1 some failed or could not be judged, 2 none had a program (or a usage error), 3 a
/// report could not be written.
pub fn judge(cli: &Cli, exe: &Path, root: &Path, problems: Vec<(PathBuf, Result<Solver, String>)>) -> i32 {
    if cli.json.is_some() {
        eprintln!(
            "judge: --json reports one folder of cases, and {} is a contest's folder of problems: name one of them",
            crate::cases::shown_path(root)
        );
        return 2;
    }
    // The same refusal as one folder's, once for the contest.
    if let Err(why) = cli.judging.sandbox() {
        eprintln!("judge: {why}");
        return 2;
    }
    let mut outcomes = Vec::new();
    for (k, (dir, solver)) in problems.into_iter().enumerate() {
        let name = crate::cases::shown_path(&dir);
        let title = format!("{}problem {name}/\n", if k == 0 { "" } else { "\n" });
        if std::io::stdout().lock().write_all(title.as_bytes()).is_err() {
            return 3;
        }
        let outcome = match solver {
            Err(why) => {
                eprintln!("judge: {name}: not judged: {}", why.replace(" here", &format!(" in {name}/")));
                Outcome::NoProgram
            }
            Ok(solver) => match round::judge(cli, exe, &Target { given: vec![dir.clone()], solver: Ok(solver) }, &[]) {
                Ok(results) => {
                    Outcome::Judged { passed: results.iter().filter(|r| r.passed).count(), total: results.len() }
                }
                Err(Stop::Usage(message)) => {
                    eprintln!("judge: {name}: {message}");
                    Outcome::Refused
                }
                Err(Stop::Io) => return 3,
            },
        };
        outcomes.push((name, outcome));
    }
    let judged = outcomes.iter().filter(|(_, o)| matches!(o, Outcome::Judged { .. })).count();
    let all_passed = outcomes
        .iter()
        .filter(|(_, o)| matches!(o, Outcome::Judged { .. }))
        .all(|(_, o)| matches!(o, Outcome::Judged { passed, total } if passed == total));
    let parts: Vec<String> = outcomes
        .iter()
        .map(|(name, o)| match o {
            Outcome::Judged { passed, total } if passed == total => format!("{name} passed ({passed}/{total})"),
            Outcome::Judged { passed, total } => format!("{name} failed ({passed}/{total})"),
            Outcome::NoProgram => format!("{name} no program"),
            Outcome::Refused => format!("{name} not judged"),
        })
        .collect();
    let line = format!("\ncontest: {judged} of {} problems judged: {}\n", outcomes.len(), parts.join(", "));
    if std::io::stdout().lock().write_all(line.as_bytes()).is_err() {
        return 3;
    }
    let refused = outcomes.iter().any(|(_, o)| matches!(o, Outcome::Refused));
    if judged == 0 {
        eprintln!("judge: no problem here has a program yet: put main.cpp (or main.py, main.rs...) or a.out in one");
        2
    } else if all_passed && !refused {
        0
    } else {
        1
    }
}
