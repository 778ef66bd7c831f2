//! `judge listen` from the outside: a real HTTP client (HTTP/1.1 written on a TcpStream, as the
//! browser does) POSTs Competitive Companion's JSON, and the folders written are then judged.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A running listener, with what it printed so far.
struct Listener {
    child: Child,
    port: u16,
    printed: Arc<Mutex<String>>,
}

impl Listener {
    /// Starts `judge listen --port 0 ARGS` and waits for the port it prints.
    fn start(dir: &Path, args: &[&str]) -> Listener {
        Listener::start_exactly(dir, &[&["--port", "0"], args].concat())
    }

    /// Starts `judge listen ARGS` and waits for the port it prints.
    fn start_exactly(dir: &Path, args: &[&str]) -> Listener {
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("judge"))
            .current_dir(dir)
            .arg("listen")
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let printed = Arc::new(Mutex::new(String::new()));
        for stream in
            [Box::new(child.stdout.take().unwrap()) as Box<dyn Read + Send>, Box::new(child.stderr.take().unwrap())]
        {
            let printed = Arc::clone(&printed);
            std::thread::spawn(move || {
                for line in BufReader::new(stream).lines().map_while(Result::ok) {
                    printed.lock().unwrap().push_str(&(line + "\n"));
                }
            });
        }
        let port = wait_until(|| {
            let text = printed.lock().unwrap().clone();
            let at = text.find("http://127.0.0.1:")? + "http://127.0.0.1:".len();
            text[at..].split('/').next()?.parse::<u16>().ok()
        });
        Listener { child, port: port.expect("the listener printed no port"), printed }
    }

    fn printed(&self) -> String {
        self.printed.lock().unwrap().clone()
    }

    /// Whether the listener prints `text` (its output is read by other threads: polled).
    fn saw(&self, text: &str) -> bool {
        wait_until(|| self.printed().contains(text).then_some(())).is_some()
    }

    /// Sends one request; the status and the body of the answer.
    fn send(&self, method: &str, headers: &[&str], body: &[u8]) -> (u16, String) {
        self.send_to(std::net::Ipv4Addr::LOCALHOST.into(), method, headers, body)
    }

    /// As [`Listener::send`], to the listener's port on `host`.
    fn send_to(&self, host: std::net::IpAddr, method: &str, headers: &[&str], body: &[u8]) -> (u16, String) {
        let mut stream = std::net::TcpStream::connect((host, self.port)).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        let mut head = format!("{method} / HTTP/1.1\r\nHost: localhost:{}\r\n", self.port);
        for h in headers {
            head.push_str(&format!("{h}\r\n"));
        }
        if !headers.iter().any(|h| h.starts_with("Content-Length")) {
            head.push_str(&format!("Content-Length: {}\r\n", body.len()));
        }
        head.push_str("\r\n");
        stream.write_all(head.as_bytes()).unwrap();
        // The listener may answer (and close) before a refused body is all sent.
        let _ = stream.write_all(body);
        let mut answer = String::new();
        let _ = stream.read_to_string(&mut answer);
        let status = answer.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
        (status, answer)
    }

    /// A POST as curl sends a larger body: the head with `Expect: 100-continue`, the body only
    /// once the listener says to go on.
    fn post_after_continue(&self, json: &serde_json::Value) -> (u16, String) {
        let body = serde_json::to_vec(json).unwrap();
        let mut stream = std::net::TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        let head = format!(
            "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
             Expect: 100-continue\r\n\r\n",
            body.len()
        );
        stream.write_all(head.as_bytes()).unwrap();
        let mut first = [0u8; 25];
        stream.read_exact(&mut first).unwrap();
        assert_eq!(&first, b"HTTP/1.1 100 Continue\r\n\r\n");
        stream.write_all(&body).unwrap();
        let mut answer = String::new();
        let _ = stream.read_to_string(&mut answer);
        (answer.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0), answer)
    }

    fn post(&self, json: &serde_json::Value) -> (u16, String) {
        self.send("POST", &["Content-Type: application/json"], &serde_json::to_vec(json).unwrap())
    }

    /// Waits for the listener to end by itself; its exit status.
    fn wait_for_exit(&mut self) -> Option<i32> {
        let child = &mut self.child;
        wait_until(|| child.try_wait().unwrap()).and_then(|s| s.code())
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Polls `probe` until it gives something, up to a deadline far past any normal run.
fn wait_until<T>(mut probe: impl FnMut() -> Option<T>) -> Option<T> {
    let deadline = Instant::now() + Duration::from_secs(60);
    while Instant::now() < deadline {
        if let Some(found) = probe() {
            return Some(found);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    None
}

/// A problem as the extension sends it (the fields of its README's example).
fn problem(name: &str, url: &str, tests: &[(&str, &str)], batch: (&str, u64)) -> serde_json::Value {
    serde_json::json!({
        "name": name, "group": "Test Round", "url": url, "interactive": false,
        "memoryLimit": 256, "timeLimit": 2000, "testType": "single",
        "input": {"type": "stdin"}, "output": {"type": "stdout"},
        "languages": {"java": {"mainClass": "Main", "taskClass": "Task"}},
        "tests": tests.iter().map(|(i, o)| serde_json::json!({"input": i, "output": o})).collect::<Vec<_>>(),
        "batch": {"id": batch.0, "size": batch.1},
    })
}

/// Every file under `dir`, relative, sorted.
fn files(dir: &Path) -> Vec<String> {
    let mut all: Vec<String> = walk(dir).iter().map(|p| p.strip_prefix(dir).unwrap().display().to_string()).collect();
    all.sort();
    all
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// A solver printing the sum of each line's numbers, skipping a first line that is only a
/// count of tests; `off` is added to each answer (0: a correct solver).
fn summer(dir: &Path, name: &str, off: i32) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    let body = format!(
        "#!/bin/sh\nexec awk 'NR > 1 || NF > 1 {{ s = 0; for (i = 1; i <= NF; i++) s += $i; print s + {off} }}'\n"
    );
    std::fs::write(&path, body).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.display().to_string()
}

#[test]
fn a_contest_of_three_is_written_then_judged_and_the_listener_ends() {
    let root = tempfile::tempdir().unwrap();
    std::fs::create_dir(root.path().join("contest")).unwrap();
    let mut listener = Listener::start(root.path(), &["contest"]);
    // Older versions of the extension ask first.
    let (status, answer) = listener.send("OPTIONS", &["Origin: chrome-extension://abc"], b"");
    assert!(status == 204 && answer.contains("Access-Control-Allow-Origin: *"), "{answer}");
    let batch = ("5f2c", 3);
    let problems = [
        problem(
            "A. Sum of Two",
            "https://codeforces.com/contest/9999/problem/A",
            &[("1 2\n", "3\n"), ("5 5\n", "10\n")],
            batch,
        ),
        problem("B. Three", "https://codeforces.com/contest/9999/problem/B", &[("1 2 3\n", "6\n")], batch),
        problem(
            "C. Many Tests",
            "https://codeforces.com/contest/9999/problem/C",
            &[("2\n1 2\n3 4\n", "3\n7\n")],
            batch,
        ),
    ];
    for (k, p) in problems.iter().enumerate() {
        let (status, answer) = if k == 1 { listener.post_after_continue(p) } else { listener.post(p) };
        assert_eq!(status, 200, "problem {k}: {answer}");
    }
    assert_eq!(listener.wait_for_exit(), Some(0), "{}", listener.printed());
    for line in [
        "A. Sum of Two -> contest/A-Sum-of-Two/ (2 samples, 2000 ms, 256 MB)",
        "next: cd contest/A-Sum-of-Two && judge",
        "all 3 problems have come; judge each with the program in its folder: cd contest && judge\n",
        "judge listen: done",
    ] {
        assert!(listener.saw(line), "{line}: {}", listener.printed());
    }
    assert_eq!(
        files(root.path()),
        [
            "contest/A-Sum-of-Two/case.toml",
            "contest/A-Sum-of-Two/sample-1.in",
            "contest/A-Sum-of-Two/sample-1.out",
            "contest/A-Sum-of-Two/sample-2.in",
            "contest/A-Sum-of-Two/sample-2.out",
            "contest/B-Three/case.toml",
            "contest/B-Three/sample-1.in",
            "contest/B-Three/sample-1.out",
            "contest/C-Many-Tests/case.toml",
            "contest/C-Many-Tests/sample-1.in",
            "contest/C-Many-Tests/sample-1.out",
        ]
    );
    let toml = std::fs::read_to_string(root.path().join("contest/B-Three/case.toml")).unwrap();
    assert!(toml.contains("time_limit = \"2000ms\"\nmemory_limit = \"256MiB\"\ntags = [\"codeforces\"]"), "{toml}");
    // The folders are cases the judge reads: a right solver passes them all, a wrong one not.
    let good = summer(root.path(), "good.sh", 0);
    let bad = summer(root.path(), "bad.sh", 1);
    let out = super::judge().current_dir(root.path()).args(["contest", "--", &good]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && text.contains("4 passed, 0 failed"), "{text}");
    assert!(text.contains("A-Sum-of-Two/sample-2"), "{text}");
    let out = super::judge().current_dir(root.path()).args(["contest/B-Three", "--", &bad]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.code() == Some(1) && text.contains("sample-1  WA") && text.contains("0 passed, 1 failed"),
        "{text}"
    );
}

#[test]
fn single_problems_interactive_ones_and_bad_requests() {
    let root = tempfile::tempdir().unwrap();
    std::fs::create_dir(root.path().join("p")).unwrap();
    let listener = Listener::start(root.path(), &["p", "--keep"]);
    let atcoder = problem(
        "A - Happy Birthday!",
        "https://atcoder.jp/contests/abc100/tasks/abc100_a",
        &[("5 4\n", "9\n"), ("8 8\n", "16\n")],
        ("a1", 1),
    );
    assert_eq!(listener.post(&atcoder).0, 200);
    let mut interactive =
        problem("E. Guess the Number", "https://codeforces.com/contest/679/problem/A", &[("30\n", "\n")], ("i1", 1));
    interactive["interactive"] = true.into();
    assert_eq!(listener.post(&interactive).0, 200);
    // Refused, each with a 4xx, and nothing written for any of them.
    let before = files(root.path());
    let mut missing = atcoder.clone();
    missing.as_object_mut().unwrap().remove("timeLimit");
    let mut path_like = atcoder.clone();
    path_like["name"] = "../../x".into();
    let refused = [
        listener.send("POST", &["Content-Type: application/json"], b"this is not json"),
        listener.post(&missing),
        listener.post(&path_like),
        listener.send("POST", &[&format!("Content-Length: {}", 64 << 20)], b"{"),
        listener.send("POST", &["Origin: https://evil.example"], &serde_json::to_vec(&atcoder).unwrap()),
        // A sandboxed frame or a file: page: a simple POST, or the preflight of a JSON one.
        listener.send("POST", &["Origin: null", "Content-Type: text/plain"], &serde_json::to_vec(&atcoder).unwrap()),
        listener.send("OPTIONS", &["Origin: null", "Access-Control-Request-Method: POST"], b""),
        listener.send("GET", &[], b""),
        // There already: kept.
        listener.post(&atcoder),
    ];
    let statuses: Vec<u16> = refused.iter().map(|(s, _)| *s).collect();
    assert_eq!(statuses, [400, 400, 400, 413, 403, 403, 403, 405, 409], "{refused:?}");
    assert!(refused[1].1.contains("`timeLimit`") && refused[2].1.contains("looks like a path"), "{refused:?}");
    assert_eq!(files(root.path()), before);
    assert!(listener.saw("refused a request (413)"), "{}", listener.printed());
    assert_eq!(
        before,
        [
            "p/A-Happy-Birthday/case.toml",
            "p/A-Happy-Birthday/sample-1.in",
            "p/A-Happy-Birthday/sample-1.out",
            "p/A-Happy-Birthday/sample-2.in",
            "p/A-Happy-Birthday/sample-2.out",
            "p/E-Guess-the-Number/case.toml",
            "p/E-Guess-the-Number/sample-1.in",
            "p/E-Guess-the-Number/sample-1.out",
        ]
    );
    // Firefox's extension sends `Origin: null` with its JSON, which no page can send: taken.
    let firefox = problem("B. Firefox", "https://codeforces.com/contest/1/problem/B", &[("1\n", "1\n")], ("f1", 1));
    let body = serde_json::to_vec(&firefox).unwrap();
    let taken = listener.send("POST", &["Origin: null", "Content-Type: application/json"], &body);
    assert_eq!(taken.0, 200, "{taken:?}");
    assert!(root.path().join("p/B-Firefox/sample-1.in").exists(), "{:?}", files(root.path()));
    // Judged below with a solver of the other problems only.
    std::fs::remove_dir_all(root.path().join("p/B-Firefox")).unwrap();
    let toml = std::fs::read_to_string(root.path().join("p/E-Guess-the-Number/case.toml")).unwrap();
    assert!(toml.contains("tags = [\"codeforces\", \"interactive\"]") && toml.contains("--interactor"), "{toml}");
    assert!(listener.saw("next: cd p/E-Guess-the-Number && judge --interactor"), "{}", listener.printed());
    // --keep: still listening after each single problem.
    assert!(listener.child.id() > 0 && listener.send("OPTIONS", &[], b"").0 == 204);
    let good = summer(root.path(), "good.sh", 0);
    let bad = summer(root.path(), "bad.sh", 2);
    let judge = |solver: &str| {
        super::judge().current_dir(root.path()).args(["p", "--skip-tag", "interactive", "--", solver]).output().unwrap()
    };
    let (ok, wrong) = (judge(&good), judge(&bad));
    let (ok_text, wrong_text) = (String::from_utf8_lossy(&ok.stdout), String::from_utf8_lossy(&wrong.stdout));
    assert!(ok.status.success() && ok_text.contains("2 passed, 0 failed"), "{ok_text}");
    assert!(wrong.status.code() == Some(1) && wrong_text.contains("0 passed, 2 failed"), "{wrong_text}");
}

/// The ports Competitive Companion sends to as installed (its `src/hosts/hosts.ts`, and
/// CHelper's 4243).
const COMPANION_PORTS: [u16; 8] = [1327, 4244, 6174, 10042, 10043, 10045, 27121, 4243];

#[test]
fn the_listener_takes_a_port_the_extension_sends_to_and_the_next_when_it_is_taken() {
    let root = tempfile::tempdir().unwrap();
    // Another program holds the first of the extension's ports that is free (tests running
    // beside this one may hold others: the listener must pass over those too).
    let order = [10042, 10043, 6174, 4244, 1327, 10045, 27121, 4243];
    let held = order.iter().find_map(|p| std::net::TcpListener::bind(("127.0.0.1", *p)).ok());
    let held = held.expect("every port of the extension is taken on this machine");
    let held_port = held.local_addr().unwrap().port();
    let listener = Listener::start_exactly(root.path(), &["--keep"]);
    assert!(COMPANION_PORTS.contains(&listener.port), "port {}: {}", listener.port, listener.printed());
    assert_ne!(listener.port, held_port);
    assert!(listener.saw(&format!("port {held_port} ")), "{}", listener.printed());
    assert!(listener.saw("the extension sends there as installed"), "{}", listener.printed());
    let p = problem("A. Sum", "https://codeforces.com/contest/1/problem/A", &[("1 2\n", "3\n")], ("d", 1));
    assert_eq!(listener.post(&p).0, 200, "{}", listener.printed());
    assert!(root.path().join("A-Sum/sample-1.in").is_file());
    // What the extension sends to CHelper's port: a `json` line, then the problem.
    let b = problem("B. Two", "https://codeforces.com/contest/1/problem/B", &[("2\n", "2\n")], ("e", 1));
    let body = format!("json\n{}", serde_json::to_string(&b).unwrap());
    let (status, answer) = listener.send("POST", &["Content-Type: text/plain;charset=UTF-8"], body.as_bytes());
    assert_eq!(status, 200, "{answer}");
    assert!(root.path().join("B-Two/sample-1.in").is_file());
    drop(held);
}

#[test]
fn the_listener_answers_on_the_ipv6_loopback_too() {
    // A browser may resolve `localhost` to ::1 first.
    let v6: std::net::IpAddr = std::net::Ipv6Addr::LOCALHOST.into();
    if let Err(e) = std::net::TcpListener::bind((v6, 0)) {
        println!("this machine gives no IPv6 loopback ({e}): the listener on [::1] is not checked");
        return;
    }
    let root = tempfile::tempdir().unwrap();
    // Another program holds [::1] alone on the first of the extension's ports free on both:
    // a browser going to ::1 would reach it, so the listener passes over that port.
    let order = [10042, 10043, 6174, 4244, 1327, 10045, 27121, 4243];
    let free = |p: u16| std::net::TcpListener::bind(("127.0.0.1", p)).is_ok();
    let held = order.iter().find_map(|p| std::net::TcpListener::bind((v6, *p)).ok().filter(|_| free(*p)));
    let held = held.expect("every port of the extension is taken on this machine");
    let held_port = held.local_addr().unwrap().port();
    let listener = Listener::start_exactly(root.path(), &["--keep"]);
    assert_ne!(listener.port, held_port, "{}", listener.printed());
    assert!(listener.saw(&format!("port {held_port} ")), "{}", listener.printed());
    assert!(listener.saw(&format!("and http://[::1]:{}/", listener.port)), "{}", listener.printed());
    let p = problem("A. Sum", "https://codeforces.com/contest/1/problem/A", &[("1 2\n", "3\n")], ("d", 1));
    let body = serde_json::to_vec(&p).unwrap();
    let (status, answer) = listener.send_to(v6, "POST", &["Content-Type: application/json"], &body);
    assert_eq!(status, 200, "{answer}{}", listener.printed());
    assert!(root.path().join("A-Sum/sample-1.in").is_file());
    drop(held);
}

#[test]
fn problems_named_in_other_scripts_get_folders_of_their_own() {
    let root = tempfile::tempdir().unwrap();
    let listener = Listener::start(root.path(), &["--keep"]);
    // As the extension sends them: the name as the site gives it, and its Latin class name.
    let mut sum =
        problem("A. Задача о сумме", "https://contest.yandex.ru/contest/1/problems/A/", &[("1 2\n", "3\n")], ("r", 1));
    sum["languages"]["java"]["taskClass"] = "AZadachaOSumme".into();
    let mut melon = problem("A. Арбуз", "https://codeforces.com/problemset/problem/4/A", &[("8\n", "YES\n")], ("r", 1));
    melon["languages"]["java"]["taskClass"] = "AArbuz".into();
    let sudoku = problem("数独", "https://www.luogu.com.cn/problem/P1784", &[("0\n", "0\n")], ("c", 1));
    let queens = problem("八皇后", "https://www.luogu.com.cn/problem/P1219", &[("6\n", "4\n")], ("c", 1));
    for p in [&sum, &melon, &sudoku, &queens] {
        let (status, answer) = listener.post(p);
        assert_eq!(status, 200, "{answer}");
    }
    // Sent again: the same URL is the same problem, there already.
    assert_eq!(listener.post(&melon).0, 409);
    assert_eq!(
        files(root.path()),
        [
            "AArbuz/case.toml",
            "AArbuz/sample-1.in",
            "AArbuz/sample-1.out",
            "AZadachaOSumme/case.toml",
            "AZadachaOSumme/sample-1.in",
            "AZadachaOSumme/sample-1.out",
            "P1219/case.toml",
            "P1219/sample-1.in",
            "P1219/sample-1.out",
            "P1784/case.toml",
            "P1784/sample-1.in",
            "P1784/sample-1.out",
        ]
    );
    assert_eq!(std::fs::read_to_string(root.path().join("AArbuz/sample-1.out")).unwrap(), "YES\n");
}

#[test]
fn an_idle_client_does_not_hold_up_a_problem() {
    let root = tempfile::tempdir().unwrap();
    let listener = Listener::start(root.path(), &["--keep"]);
    // A client that connects and starts a request, then says nothing more.
    let mut idle = std::net::TcpStream::connect(("127.0.0.1", listener.port)).unwrap();
    idle.write_all(b"POST / HTTP/1.1\r\nHost: localhost\r\n").unwrap();
    let p = problem("A. Sum", "https://codeforces.com/contest/1/problem/A", &[("1 2\n", "3\n")], ("i", 1));
    let (status, answer) = listener.post(&p);
    assert_eq!(status, 200, "{answer}");
    // The idle client was waited for all along, not dropped to let the other in: it still
    // gets its answer once it finishes its request.
    let mut second = p.clone();
    second["url"] = "https://codeforces.com/contest/2/problem/A".into();
    let body = serde_json::to_vec(&second).unwrap();
    idle.write_all(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes()).unwrap();
    idle.write_all(&body).unwrap();
    idle.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let mut answer = String::new();
    let _ = idle.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(root.path().join("A-Sum/case.toml").is_file() && root.path().join("A-Sum-2/case.toml").is_file());
}

#[test]
fn a_closed_stdout_ends_nothing() {
    let root = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("judge"))
        .current_dir(root.path())
        .args(["listen", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // As `judge listen | head -1`: the first line read, then the pipe closed.
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    let at = first.find("http://127.0.0.1:").expect("the port") + "http://127.0.0.1:".len();
    let port: u16 = first[at..].split('/').next().unwrap().parse().unwrap();
    let listener = Listener { child, port, printed: Arc::default() };
    let batch = ("s", 2);
    let a = problem("A. One", "https://codeforces.com/contest/1/problem/A", &[("1 2\n", "3\n")], batch);
    let b = problem("B. Two", "https://codeforces.com/contest/1/problem/B", &[("1 2\n", "3\n")], batch);
    for p in [&a, &b] {
        let (status, answer) = listener.post(p);
        assert_eq!(status, 200, "{answer}");
    }
    let mut listener = listener;
    // Both problems are written and the listener ends as it does after a contest: no panic.
    assert_eq!(listener.wait_for_exit(), Some(0));
    assert!(root.path().join("A-One/sample-1.in").is_file() && root.path().join("B-Two/sample-1.in").is_file());
}
