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

#[test]
fn a_case_file_swapped_for_a_fifo_without_the_sandbox_never_hangs_the_judge() {
    // Without the sandbox a solver may replace the case's answer with a FIFO: reading it
    // waited for a writer for ever. Now the judge refuses what is not a regular file.
    let dir = super::folder(&[("cases/a/input.txt", "1 2\n"), ("cases/a/expected.txt", "3\n")]);
    let script = dir.path().join("swap.sh");
    super::sandbox_cli::executable(&script, "rm -f \"$CASE/expected.txt\"\nmkfifo \"$CASE/expected.txt\"\necho 3\n");
    let out = judge()
        .current_dir(dir.path())
        .env("CASE", dir.path().join("cases/a"))
        .args(["cases", "--sandbox", "off", "--repeat", "2", "--", "./swap.sh"])
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("not a regular file"), "{text}");
}

#[test]
fn two_jobs_building_the_same_source_both_run_it() {
    // Every case names the same Rust source in the suite's case.toml: with two jobs, both
    // built it at once, and one run could not start the program the other had replaced.
    let mut files = vec![
        ("cases/case.toml".to_string(), "solver = \"./add.rs\"\n".to_string()),
        (
            "cases/add.rs".to_string(),
            "use std::io::Read;\nfn main() { let mut s = String::new(); std::io::stdin().read_to_string(&mut s).unwrap(); \
             println!(\"{}\", s.split_whitespace().map(|w| w.parse::<i64>().unwrap()).sum::<i64>()); }\n"
                .to_string(),
        ),
    ];
    for i in 0..6 {
        files.push((format!("cases/c{i}/input.txt"), format!("{i} 1\n")));
        files.push((format!("cases/c{i}/expected.txt"), format!("{}\n", i + 1)));
    }
    let files: Vec<(&str, &str)> = files.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    let dir = super::folder(&files);
    for round in 0..3 {
        let cache = tempfile::tempdir().unwrap();
        let out = judge()
            .current_dir(dir.path())
            .env("XDG_CACHE_HOME", cache.path())
            .args(["cases", "-j", "2"])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "round {round}: {text}");
    }
}
