//! `judge --watch` on a terminal: a save of the solver's source or of a case is judged again
//! (the changed case first), `--json` is rewritten each round, and Ctrl-C ends it cleanly.

use std::io::{Read, Write};
use std::sync::{Arc, Mutex};

#[test]
fn a_saved_solver_or_case_is_judged_again_until_ctrl_c() {
    let dir = super::folder(&[
        ("cases/a/input.txt", "1 2\n"),
        ("cases/a/expected.txt", "3\n"),
        ("cases/b/input.txt", "2 2\n"),
        ("cases/b/expected.txt", "4\n"),
    ]);
    // A source the judge builds (rustc is there wherever the crate is tested): a save of it
    // is built again before the round.
    let solver = dir.path().join("add.rs");
    let source = |op: &str| {
        format!(
            "use std::io::Read;\nfn main() {{\n    let mut s = String::new();\n    std::io::stdin().read_to_string(&mut s).unwrap();\n    \
             let v: Vec<i64> = s.split_whitespace().map(|w| w.parse().unwrap()).collect();\n    \
             println!(\"{{}}\", v[0] {op} v[1]);\n}}\n"
        )
    };
    std::fs::write(&solver, source("+")).unwrap();
    let json = dir.path().join("report.json");
    let (slave, mut master) = super::live_cli::pty();
    let mut writer = master.try_clone().unwrap();
    let mut command = std::process::Command::new(assert_cmd::cargo::cargo_bin!("judge"));
    command
        .current_dir(dir.path())
        .args(["--watch", "cases", "--color", "never", "--json"])
        .arg(&json)
        .args(["--", "add.rs"])
        .env("TERM", "xterm");
    super::live_cli::on_terminal(&mut command, slave);
    let mut child = command.spawn().unwrap();
    drop(command);
    let pid = child.id();
    let seen = Arc::new(Mutex::new(String::new()));
    let reader = {
        let seen = Arc::clone(&seen);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n @ 1..) = master.read(&mut buf) {
                seen.lock().unwrap().push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        })
    };
    let text = || seen.lock().unwrap().replace('\r', "");
    let round_done = |n: usize| move || text().contains(&format!("round {n} done"));
    let verdicts = || -> serde_json::Value {
        let report: serde_json::Value =
            std::fs::read(&json).ok().and_then(|b| serde_json::from_slice(&b).ok()).unwrap_or_default();
        report["cases"].as_array().map_or(serde_json::json!([]), |cases| {
            cases.iter().map(|c| serde_json::json!([c["name"], c["verdict"]])).collect()
        })
    };
    assert!(super::eventually(round_done(1)) && text().contains("2 passed, 0 failed"), "{}", text());
    assert_eq!(verdicts(), serde_json::json!([["a", "AC"], ["b", "AC"]]));
    // A save of the solver: built again, and a second round of rows with the new verdicts.
    std::fs::write(&solver, source("* 1 *")).unwrap();
    assert!(super::eventually(round_done(2)), "{}", text());
    let second = text().split("round 1 done").nth(1).unwrap_or_default().to_string();
    assert!(second.contains("judging again") && second.contains("1 passed, 1 failed"), "{second}");
    assert!(second.contains("a     WA") && second.contains("b     AC"), "{second}");
    assert!(super::eventually(|| verdicts() == serde_json::json!([["a", "WA"], ["b", "AC"]])), "{}", verdicts());
    // A save of one case's answer: that case first.
    std::fs::write(dir.path().join("cases/b/expected.txt"), "5\n").unwrap();
    assert!(super::eventually(round_done(3)), "{}", text());
    let third = text().split("round 2 done").nth(1).unwrap_or_default().to_string();
    let (b, a) = (third.find("b     WA"), third.find("a     WA"));
    assert!(b.is_some() && a.is_some() && b < a, "{third}");
    // Ctrl-C, typed on the terminal.
    writer.write_all(b"\x03").unwrap();
    let status = child.wait().unwrap();
    reader.join().unwrap();
    let code = std::os::unix::process::ExitStatusExt::signal(&status).or(status.code());
    assert_eq!(code, Some(130), "{status:?}\n{}", text());
    let temp = std::env::temp_dir().join(format!("judge-{pid}"));
    assert!(!temp.exists(), "{} is left behind", temp.display());
}
