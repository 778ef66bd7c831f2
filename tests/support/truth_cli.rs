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

/// A solver that prints `output` whatever its input (the report, not the solving, is tested).
fn printing(dir: &std::path::Path, name: &str, output: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\ncat <<'END'\n{output}END\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.display().to_string()
}

/// Judges `path` from `cwd` with `solver`; (exit code, stdout).
fn judged(cwd: &std::path::Path, path: &str, solver: &str) -> (Option<i32>, String) {
    let out = super::judge().current_dir(cwd).args([path, "--diff", "unified", "--", solver]).output().unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The report of the one failing case, from its verdict on: what `judge .`, `judge FILE` and
/// `judge FOLDER` must agree on (the case's name aside).
fn verdict_and_details(text: &str) -> String {
    let block = text.split_once("\n--- ").map_or("", |(_, d)| d.split_once("\n\n").map_or(d, |(b, _)| b));
    block.split_once('\n').map_or("", |(_, r)| r).to_string()
}

#[test]
fn answers_of_varying_length_blame_the_right_test_with_its_own_input() {
    // Each test: n, then a row of n numbers; its answer: them sorted, one a line. The answers
    // are 2, 7, 1, 3 and 2 lines (15 in all, 3 a test if split evenly); only test 2 is wrong.
    let input = "5\n2\n2 1\n7\n7 6 5 4 3 2 1\n1\n9\n3\n3 1 2\n2\n5 4\n";
    let answer = "1\n2\n1\n2\n3\n4\n5\n6\n7\n9\n1\n2\n3\n4\n5\n";
    let dir = super::folder(&[
        ("prob/sample-1.in", input),
        ("prob/sample-1.out", answer),
        ("prob/sample-2.in", "2\n1\n4\n3\n9 8 7\n"),
        ("prob/sample-2.out", "4\n7\n8\n9\n"),
    ]);
    let wrong = printing(dir.path(), "wrong.sh", &answer.replacen("5\n6\n", "6\n5\n", 1));
    let prob = dir.path().join("prob");
    let (code, text) = judged(dir.path(), "prob", &wrong);
    assert_eq!(code, Some(1), "{text}");
    let row = text.lines().find(|l| l.starts_with("sample-1")).unwrap_or_default();
    assert!(row.contains("WA on test 2 of 5: line 5, column 1 differs"), "{text}");
    assert!(text.contains("input of test 2 of 5 (the count line left out):\n  7\n  7 6 5 4 3 2 1\n"), "{text}");
    assert!(text.contains("diff of test 2's answer from line 3"), "{text}");
    // The same report from inside the folder, for the file, and for the folder.
    let from_parent = verdict_and_details(&judged(dir.path(), "prob/sample-1.in", &wrong).1);
    assert!(from_parent.starts_with("WA on test 2 of 5"), "{from_parent}");
    assert_eq!(verdict_and_details(&judged(&prob, ".", &wrong).1), from_parent);
    assert_eq!(verdict_and_details(&judged(&prob, "sample-1.in", &wrong).1), from_parent);
    assert_eq!(verdict_and_details(&text), from_parent);
}

#[test]
fn statement_shapes_name_a_test_only_when_it_is_proven() {
    let dir = super::folder(&[
        // n then n lines; one answer line a test.
        ("lines/t.in", "3\n2\nab\ncd\n1\nx\n3\np\nq\nr\n"),
        ("lines/t.out", "2\n1\n3\n"),
        // Grids: n m then n rows.
        ("grid/t.in", "2\n2 3\n#.#\n...\n3 1\n#\n.\n#\n"),
        ("grid/t.out", "2\n2\n"),
        // Two parts: n q, a row of n numbers, q queries; one answer line a query.
        ("two/t.in", "2\n3 2\n5 1 4\n1 2\n2 3\n2 1\n7 7\n1 2\n"),
        ("two/t.out", "6\n5\n14\n"),
        // Its other sample: queries shaped like headers are told apart only across both files.
        ("two/t2.in", "2\n2 3\n4 6\n1 1\n1 2\n2 2\n1 1\n9\n1 1\n"),
        // YES/NO: n then a row of n numbers.
        ("yesno/t.in", "3\n3\n1 2 3\n2\n2 1\n1\n5\n"),
        ("yesno/t.out", "YES\nNO\nYES\n"),
        // One test shaped like many: n then n numbers, one a line, and n answers.
        ("single/t.in", "6\n4\n8\n15\n16\n23\n42\n"),
        ("single/t.out", "4\n12\n27\n43\n66\n108\n"),
    ]);
    let cases = [
        ("lines", "2\n9\n3\n", Some(("test 2 of 3", "  1\n  x\n"))),
        ("grid", "2\n1\n", Some(("test 2 of 2", "  3 1\n  #\n  .\n  #\n"))),
        ("two", "6\n5\n15\n", Some(("test 2 of 2", "  2 1\n  7 7\n  1 2\n"))),
        ("yesno", "YES\nYES\nYES\n", Some(("test 2 of 3", "  2\n  2 1\n"))),
        ("single", "4\n12\n27\n44\n66\n108\n", None),
    ];
    for (name, output, named) in cases {
        let solver = printing(dir.path(), &format!("{name}.sh"), output);
        let (code, text) = judged(dir.path(), name, &solver);
        assert_eq!(code, Some(1), "{name}: {text}");
        let row = text.lines().find(|l| l.starts_with("t ")).unwrap_or_default();
        match named {
            Some((test, input)) => {
                assert!(row.contains(&format!("WA on {test}")), "{name}: {text}");
                assert!(
                    text.contains(&format!("input of {test} (the count line left out):\n{input}")),
                    "{name}: {text}"
                );
            }
            None => {
                assert!(!text.contains("on test"), "{name}: a test was invented: {text}");
                assert!(row.contains("line 4, column 2 differs"), "{name}: {text}");
                assert!(row.ends_with("(the tests inside could not be told apart)"), "{name}: {text}");
                assert!(text.contains("Not cut into tests: no header line") && text.contains("multitest"), "{text}");
                assert!(text.contains("input (head):\n  6\n  4\n"), "{name}: {text}");
            }
        }
    }
    // Declared multi-test (the listener's tag), the single-shaped file is six tests.
    std::fs::write(dir.path().join("single/case.toml"), "tags = [\"multitest\"]\n").unwrap();
    let solver = printing(dir.path(), "single.sh", "4\n12\n27\n44\n66\n108\n");
    let (_, text) = judged(dir.path(), "single", &solver);
    assert!(
        text.contains("WA on test 4 of 6") && text.contains("input of test 4 of 6 (the count line left out):\n  16\n"),
        "{text}"
    );
}

#[test]
fn an_input_swapped_for_a_fifo_never_holds_the_cut() {
    // Outside the sandbox a run may put a FIFO where its input was; the cut read it with a
    // plain read, and the judge waited for a writer forever.
    use std::os::unix::fs::{FileTypeExt, PermissionsExt};
    let dir = super::folder(&[("cases/c/input.txt", "2\n1\nx\n1\ny\n"), ("cases/c/expected.txt", "a\nb\n")]);
    let input = dir.path().join("cases/c/input.txt");
    let solver = dir.path().join("swap.sh");
    let body = format!("#!/bin/sh\nrm -f '{0}' && mkfifo '{0}'\necho a\necho c\n", input.display());
    std::fs::write(&solver, body).unwrap();
    std::fs::set_permissions(&solver, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = super::judge()
        .current_dir(dir.path())
        .args(["cases", "--sandbox", "off", "--", solver.to_str().unwrap()])
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("line 2, column 1 differs"), "{text}");
    assert!(std::fs::metadata(&input).unwrap().file_type().is_fifo(), "the solver did not swap the input");
}

/// Competitive Companion's body for a file-I/O problem reading `input` and writing `output`.
fn companion(name: &str, url: &str, input: &str, output: &str) -> serde_json::Value {
    serde_json::json!({
        "name": name, "group": "file I/O", "url": url, "interactive": false,
        "memoryLimit": 256, "timeLimit": 1000, "testType": "single",
        "tests": [{"input": "2 3\n", "output": "5\n"}, {"input": "10 -4\n", "output": "6\n"}],
        "input": {"type": "file", "fileName": input}, "output": {"type": "file", "fileName": output},
        "languages": {"java": {"mainClass": "Main", "taskClass": "Sum"}}
    })
}

/// Runs `judge listen` in `dir`, POSTs `body`, and ends it once the problem is written (it
/// answers 200 only after the folder is in place).
fn listen_once(dir: &std::path::Path, body: &serde_json::Value) {
    use std::io::{BufRead, Read, Write};
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("judge"))
        .current_dir(dir)
        .args(["listen", "--port", "0"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let port: u16 = lines
        .by_ref()
        .map_while(Result::ok)
        .find_map(|l| l.split("http://127.0.0.1:").nth(1)?.split('/').next()?.parse().ok())
        .expect("the listener printed no port");
    let body = serde_json::to_vec(body).unwrap();
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    let head =
        format!("POST / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Length: {}\r\n\r\n", body.len());
    stream.write_all(&[head.as_bytes(), &body].concat()).unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let _ = child.kill();
    let _ = child.wait();
}

#[test]
fn file_io_problems_from_competitive_companion_are_judged_from_their_files() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let problems = [
        ("A. Sum", "https://codeforces.com/problemset/problem/120/A", "input.txt", "output.txt", "A-Sum"),
        ("Castle", "https://usaco.org/index.php?page=viewproblem2&cpid=1", "castle.in", "castle.out", "Castle"),
    ];
    for (name, url, input, output, folder) in problems {
        listen_once(dir.path(), &companion(name, url, input, output));
        let toml = std::fs::read_to_string(dir.path().join(folder).join("case.toml")).unwrap();
        assert!(toml.contains(&format!("input_file = \"{input}\"\noutput_file = \"{output}\"\n")), "{toml}");
        let script = |label: &str, body: &str| {
            let path = dir.path().join(format!("{folder}-{label}.sh"));
            std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
            path.display().to_string()
        };
        let right = script("right", &format!("read a b < {input}; echo $((a + b)) > {output}"));
        let wrong = script("wrong", &format!("read a b < {input}; echo $((a * b)) > {output}"));
        let stdout_only = script("stdout", "read a b; echo $((a + b))");
        let run = |solver: &str| {
            let out = super::judge().current_dir(dir.path()).args([folder, "--", solver]).output().unwrap();
            (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
        };
        let (code, text) = run(&right);
        assert!(code == Some(0) && text.ends_with("2 passed, 0 failed\n"), "{name}: {text}");
        let (code, text) = run(&wrong);
        assert!(code == Some(1) && text.contains("line 1, column 1 differs"), "{name}: {text}");
        let (code, text) = run(&stdout_only);
        assert!(code == Some(1) && text.contains(&format!("the program wrote no {output}")), "{name}: {text}");
        // The run's files stay in its own folder, never beside the samples.
        assert!(!dir.path().join(folder).join(output).exists() && !dir.path().join(output).exists());
    }
}

#[test]
fn stress_judges_a_file_io_problem_from_its_files() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let script = |name: &str, body: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path.display().to_string()
    };
    let gen = script(
        "gen.sh",
        "exec awk -v s=\"$1\" 'BEGIN { srand(substr(s, length(s) - 5) + 0); print int(rand() * 10), 1 }'",
    );
    let good = script("good.sh", "read a b < in.txt; echo $((a + b)) > out.txt");
    // Wrong when a is 7, and silent on stdout either way.
    let bad = script("bad.sh", "read a b < in.txt; echo $((a + b + (a == 7))) > out.txt");
    let saved = dir.path().join("found");
    let stress = |solver: &str| {
        super::judge()
            .args(["stress", "--gen", &gen, "--ref", &good, "--tests", "100", "--seed", "1"])
            .args(["--input-file", "in.txt", "--output-file", "out.txt", "--save"])
            .arg(&saved)
            .args(["--", solver])
            .output()
            .unwrap()
    };
    let out = stress(&good);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let out = stress(&bad);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}{}", String::from_utf8_lossy(&out.stderr));
    let folder = std::fs::read_dir(&saved).unwrap().next().unwrap().unwrap().path();
    assert!(std::fs::read_to_string(folder.join("input.txt")).unwrap().starts_with('7'));
    let toml = std::fs::read_to_string(folder.join("case.toml")).unwrap();
    assert!(toml.contains("input_file = \"in.txt\"\noutput_file = \"out.txt\"\n"), "{toml}");
    // The saved case replays with its files.
    super::judge().arg(&folder).args(["--", &bad]).assert().code(1);
    super::judge().arg(&folder).args(["--", &good]).assert().success();
}

#[test]
fn an_interactive_folder_without_an_interactor_is_a_usage_error_naming_the_flag() {
    let dir = super::folder(&[
        ("guess/sample-1.in", "1 8\n"),
        ("guess/sample-1.out", "? 4\n? 2\n! 1\n"),
        ("guess/case.toml", "tags = [\"codeforces\", \"interactive\"]\n"),
    ]);
    let out = super::judge().current_dir(dir.path()).args(["guess", "--", "/bin/cat"]).output().unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
    assert!(stderr.contains("is interactive") && stderr.contains("--interactor CMD"), "{stderr}");
    assert!(!stdout.contains("WA"), "{stdout}");
}

#[test]
fn a_problem_with_no_samples_says_so() {
    let dir = super::folder(&[("A-Sum/case.toml", "time_limit = \"1000ms\"\ntags = [\"codeforces\"]\n")]);
    let out = super::judge().current_dir(dir.path()).args(["A-Sum", "--", "/bin/cat"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("no samples to judge: A-Sum") && !stderr.contains("IE"), "{stderr}");
}

#[test]
fn a_compile_error_is_told_once_and_headings_say_what_failed() {
    let dir = super::folder(&[
        ("p/1.in", "1\n"),
        ("p/1.out", "1\n"),
        ("p/2.in", "2\n"),
        ("p/2.out", "2\n"),
        ("p/3.in", "3\n"),
        ("p/3.out", "3\n"),
        ("main.c", "int main( { return 0; }\n"),
    ]);
    let out = super::judge().current_dir(dir.path()).args(["p", "--solver", "main.c"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(text.matches("did not compile").count(), 1, "{text}");
    assert_eq!(text.lines().filter(|l| l.split_whitespace().nth(1) == Some("CE")).count(), 3, "{text}");
    assert!(text.contains("--- 3 cases: CE (1, 2, 3)\n"), "{text}");
    // A user's folder: what failed, without a harness's "expected AC".
    let dir = super::folder(&[("q/1.in", "1\n"), ("q/1.out", "2\n")]);
    let out = super::judge().current_dir(dir.path()).args(["q", "--", "/bin/cat"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("\n--- 1: WA\n") && !text.contains("expected AC"), "{text}");
}
