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
