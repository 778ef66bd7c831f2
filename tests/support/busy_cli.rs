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

/// `command` restricted to the first CPU, as are all the processes it starts.
fn on_cpu_0(command: &mut std::process::Command) -> &mut std::process::Command {
    use std::os::unix::process::CommandExt;
    // SAFETY: sched_setaffinity on the child itself, between fork and exec, on a local set.
    unsafe {
        command.pre_exec(|| {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            libc::CPU_SET(0, &mut set);
            libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set);
            Ok(())
        })
    }
}

#[test]
fn a_solver_needing_a_third_of_its_limit_gets_ac_on_a_starved_cpu() {
    // Three spinners and the judge share one CPU: the solver gets at most about a third of it
    // (what a scheduler grants a newcomer varies: from a half to a tenth was seen with eight
    // spinners), so its 200 ms of CPU take over 300 ms of wall time, past its 300 ms wall limit,
    // where a judge that counted the waiting killed it (TLE). The run may take eight times its
    // wall limit before the judge gives up on the machine (IE); a third leaves a wide margin.
    // Pinning makes the load certain: spinners spread over idle cores were seen to leave a new
    // process nearly a whole core.
    let _busy = Spinners(
        (0..3)
            .map(|_| on_cpu_0(std::process::Command::new("sh").args(["-c", "while :; do :; done"])).spawn().unwrap())
            .collect(),
    );
    // Every case alone would be TLE under such a judge: four show it, where twenty kept a
    // CPU spinning for 14 s of a loaded suite.
    let mut files = Vec::new();
    for k in 0..4 {
        files.push((format!("cases/c{k:02}/input.txt"), String::new()));
        files.push((format!("cases/c{k:02}/expected.txt"), "done\n".to_string()));
    }
    let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let dir = super::folder(&files);
    let out = on_cpu_0(std::process::Command::new(assert_cmd::cargo::cargo_bin!("judge")).current_dir(dir.path()))
        .args(["cases", "--time-limit", "600ms", "--wall-limit", "300ms", "--", "@fixture", "cpu 200; print done"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && text.ends_with("4 passed, 0 failed\n"), "{text}");
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
