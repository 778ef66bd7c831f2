//! Saving a shrunk failing input as a case folder that `judge DIR` replays at once:
//! `input.txt`, `expected.txt` from the reference when there is one, and a `case.toml` with
//! the checker, the limits, and how the input was found.

use super::model::{StressOptions, TestRun};
use super::shrink::Shrunk;
use crate::check::Checker;
use crate::limits::Limits;
use crate::verdict::{self, CheckOutcome, Verdict};
use std::path::{Path, PathBuf};

/// Writes `DIR/stress-<seed>/` and returns its path.
/// The reference runs through `runner`.
pub fn save(
    runner: &crate::exec::Runner,
    dir: &Path,
    options: &StressOptions,
    test: &TestRun,
    shrunk: &Shrunk,
) -> Result<PathBuf, String> {
    let folder = dir.join(format!("stress-{}", test.seed));
    let fail = |what: &str, e: std::io::Error| format!("cannot write {}: {e}", folder.join(what).display());
    std::fs::create_dir_all(&folder).map_err(|e| fail("", e))?;
    let input = folder.join("input.txt");
    std::fs::write(&input, &shrunk.bytes).map_err(|e| fail("input.txt", e))?;
    let expected = folder.join("expected.txt");
    match &options.judge.reference {
        Some(reference) => {
            let limits = options.judge.limits(Limits::default());
            let (facts, missing) = crate::fileio::run(runner, reference, &input, &limits, &options.judge.files);
            let judged = verdict::judge(&facts, &limits, || match &missing {
                Some(m) => CheckOutcome::Wrong(m.why()),
                None => CheckOutcome::NothingToCompare,
            });
            if judged.verdict != Verdict::Ok {
                return Err(format!("the reference failed on the shrunk input: {} {}", judged.verdict, judged.detail));
            }
            let bytes = facts.stdout.read_all().map_err(|e| fail("expected.txt", e))?;
            std::fs::write(&expected, bytes).map_err(|e| fail("expected.txt", e))?;
        }
        // A folder saved before, under the same seed, must not keep a stale answer.
        None => {
            let _ = std::fs::remove_file(&expected);
        }
    }
    std::fs::write(folder.join("case.toml"), case_toml(options, test, shrunk)).map_err(|e| fail("case.toml", e))?;
    Ok(folder)
}

fn quoted(text: &str) -> String {
    // TOML basic strings share JSON's escapes.
    serde_json::to_string(text).unwrap_or_else(|_| "\"\"".into())
}

fn case_toml(options: &StressOptions, test: &TestRun, shrunk: &Shrunk) -> String {
    let limits = options.judge.limits(Limits::default());
    let mut text = format!(
        "# Found by judge stress: test {} (seed {}) got {}: {}\n\
         # Input from `{} {}`, shrunk in {} runs from {} to {}.\n\
         # Solver: {}\n",
        test.number,
        test.seed,
        test.verdict,
        test.detail.lines().next().unwrap_or(""),
        options.generator_text,
        test.seed,
        shrunk.tries,
        shrunk.before,
        shrunk.after,
        options.solver_text,
    );
    match &options.judge.checker {
        Some(Checker::Builtin(kind)) => text += &format!("checker = {}\n", quoted(&kind.name())),
        Some(Checker::External(program)) => {
            // Absolute, so that the folder replays from anywhere.
            let path = std::fs::canonicalize(&program.program).unwrap_or_else(|_| program.program.clone().into());
            let words: Vec<String> = std::iter::once(path.to_string_lossy().into_owned())
                .chain(program.args.iter().map(|a| a.to_string_lossy().into_owned()))
                .collect();
            let command = shlex::try_join(words.iter().map(String::as_str)).unwrap_or_default();
            text += &format!("checker_cmd = {}\n", quoted(&command));
        }
        None => {}
    }
    // A file-I/O problem replays with its files.
    for (key, name) in [("input_file", &options.judge.files.input), ("output_file", &options.judge.files.output)] {
        if let Some(name) = name {
            text += &format!("{key} = {}\n", quoted(name));
        }
    }
    text += &format!(
        "time_limit = \"{}ms\"\nmemory_limit = \"{}KiB\"\noutput_limit = \"{}B\"\ntags = [\"stress\"]\n",
        limits.time.as_millis(),
        limits.memory_kib,
        limits.output_bytes
    );
    text
}
