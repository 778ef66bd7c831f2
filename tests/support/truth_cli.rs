//! Reports that must be true on real problem shapes: memory before time, the cut into tests
//! only where it is proven, file-I/O problems, interactive folders without an interactor.

#[test]
fn memory_past_the_limit_then_a_loop_is_mle_every_time() {
    // 400 MiB touched under a 256 MiB limit stays below the memory guard (twice the limit),
    // so the run goes on to its CPU limit: TLE in 3 of 5 runs before, whichever came first.
    let mut files = Vec::new();
    for k in 0..4 {
        files.push((format!("hog{k}/input.txt"), "alloc 400\ncpu 5000\n".to_string()));
        files.push((format!("hog{k}/case.toml"), "memory_limit = \"256MiB\"\ntime_limit = \"300ms\"\n".to_string()));
    }
    let files: Vec<(&str, &str)> = files.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    let cases = super::folder(&files);
    let out = super::judge().arg(cases.path()).args(["--solver", "@fixture"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let rows: Vec<&str> = text.lines().filter(|l| l.starts_with("hog")).collect();
    assert_eq!(rows.len(), 4, "{text}");
    for row in rows {
        assert!(row.contains(" MLE ") && row.contains("the limit is 262144 KiB"), "{text}");
        assert!(row.contains("ms of CPU time"), "the note gives both figures: {text}");
    }
}
