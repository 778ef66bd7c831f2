//! A busy machine never turns AC into TLE: time spent waiting for a CPU is not the solver's.

use super::judge;
use predicates::prelude::*;

/// Processes that spin until dropped, at the judge's own priority.
struct Spinners(Vec<std::process::Child>);

impl Drop for Spinners {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

#[test]
fn a_solver_needing_60_percent_of_its_limit_gets_ac_with_every_core_busy() {
    let cores = std::thread::available_parallelism().map_or(2, usize::from);
    // Four spinners a core: the solver gets about a fifth of a core, so its 120 ms of CPU take
    // some 600 ms of wall time, past the 400 ms wall limit, where a judge that counted the
    // waiting would kill it.
    let _busy = Spinners(
        (0..4 * cores)
            .map(|_| std::process::Command::new("sh").args(["-c", "while :; do :; done"]).spawn().unwrap())
            .collect(),
    );
    let mut files = Vec::new();
    for k in 0..20 {
        files.push((format!("cases/c{k:02}/input.txt"), String::new()));
        files.push((format!("cases/c{k:02}/expected.txt"), "done\n".to_string()));
    }
    let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let dir = super::folder(&files);
    judge()
        .current_dir(dir.path())
        .args(["cases", "--time-limit", "200ms", "--wall-limit", "400ms", "--", "@fixture", "cpu 120; print done"])
        .assert()
        .success()
        .stdout(predicate::str::ends_with("20 passed, 0 failed\n"));
}

#[test]
fn a_sleeping_solver_still_ends_at_the_wall_limit_and_json_says_why() {
    let dir = super::folder(&[("cases/a/input.txt", ""), ("cases/a/expected.txt", "done\n")]);
    let json = dir.path().join("r.json");
    judge()
        .current_dir(dir.path())
        .args(["cases", "--time-limit", "100ms", "--wall-limit", "300ms", "--json"])
        .arg(&json)
        .args(["--", "@fixture", "sleep 5000; print done"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("TLE").and(predicate::str::contains("wall limit 300 ms")));
    let report = std::fs::read_to_string(&json).unwrap();
    assert!(report.contains("\"ended_by\": \"wall\""), "{report}");
}
