//! The figures of a run are measured over one span: wall time from the fork of the program's
//! process, before it could spend any CPU time, so a single-threaded run never reports wall
//! time below its CPU time (it did in about half of all runs, the two clocks starting at
//! different moments).

use super::judge;

#[test]
fn a_single_threaded_run_never_shows_wall_time_below_its_cpu_time() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("r.json");
    // Forty short runs of the bundled single-threaded solver, whose CPU time is mostly
    // start-up, where the clocks differed most.
    judge().args(["cases/poj2676", "--filter", "17clue", "--repeat", "5", "--json"]).arg(&json).assert().success();
    let report: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let mut runs = 0;
    for case in report["cases"].as_array().unwrap() {
        let facts = &case["facts"];
        let (cpu, wall) = (facts["cpu_ms"].as_f64().unwrap(), facts["wall_ms"].as_f64().unwrap());
        assert!(wall >= cpu, "{}: wall {wall} ms below CPU {cpu} ms", case["name"]);
        runs += 1;
    }
    assert!(runs >= 8, "{report}");
}

/// Live processes whose environment holds `marker` (a variable only one judge was given).
fn carrying(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let environ = std::fs::read(entry.path().join("environ")).unwrap_or_default();
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        if String::from_utf8_lossy(&environ).contains(marker) && !stat.contains(") Z") {
            found.push(stat);
        }
    }
    found
}

#[test]
fn the_judge_returns_only_when_every_process_it_started_is_gone() {
    // Launchers and keepers carry the judge's environment (runs do not): none may be alive
    // once it has returned, or `time judge` misses their CPU time. Two jobs, so two worker
    // threads each end a launcher; several rounds, as the old race lost about half of them.
    let marker = format!("JUDGE_OUTLIVED_{}", std::process::id());
    for _ in 0..4 {
        judge().env(&marker, "1").args(["cases/poj2676", "--filter", "17clue", "-j", "2"]).assert().success();
        assert_eq!(carrying(&marker), Vec::<String>::new());
    }
}
