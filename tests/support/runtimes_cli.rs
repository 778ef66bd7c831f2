//! Honest programs of real runtimes run in the default sandbox as they run without it: a
//! Python script importing a module beside it, a virtualenv's Python named by its path,
//! `multiprocessing`, `java -cp DIR Main`. And the folder they are granted never shows them
//! the answers below it, as `oj download` lays them out. A runtime missing here is skipped,
//! with the reason printed.

use super::judge;
use std::path::Path;

/// An oj-style folder: `test/sample-1.in` (`1 2`) and `test/sample-1.out` (`3`), and `files`.
fn contest(files: &[(&str, &str)]) -> tempfile::TempDir {
    let mut all = vec![("test/sample-1.in", "1 2\n"), ("test/sample-1.out", "3\n")];
    all.extend_from_slice(files);
    super::folder(&all)
}

fn have(program: &str, args: &[&str]) -> bool {
    let ok = std::process::Command::new(program).args(args).output().is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("skipped: {program} is not installed here");
    }
    ok
}

const SOLUTION: &str =
    "import sys\nfrom helper import add\na, b = map(int, sys.stdin.read().split())\nprint(add(a, b))\n";
const HELPER: &str = "def add(a, b):\n    return a + b\n";

/// Judges `test/` in `dir` with `flags` and `solver`, and returns the verdict of its one case.
fn verdict(dir: &Path, flags: &[&str], solver: &[&str]) -> String {
    let out = judge()
        .current_dir(dir)
        .args(["test", "--json", "r.json"])
        .args(flags)
        .arg("--")
        .args(solver)
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&std::fs::read(dir.join("r.json")).unwrap())
        .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&out.stderr)));
    let case = &report["cases"][0];
    format!("{} {}", case["verdict"].as_str().unwrap_or("none"), case["note"].as_str().unwrap_or(""))
}

#[test]
fn a_python_script_imports_the_module_beside_it_but_never_reads_the_answers_below_it() {
    if !have("python3", &["-c", ""]) {
        return;
    }
    let leak = "try:\n    print(open('test/sample-1.out').read().strip())\nexcept OSError:\n    print('refused')\n";
    let dir = contest(&[("sol.py", SOLUTION), ("helper.py", HELPER), ("leak.py", leak)]);
    assert!(verdict(dir.path(), &[], &["python3", "sol.py"]).starts_with("AC"));
    // The answer is in the folder the script's own folder holds; the run starts in scratch,
    // so it names it from there too.
    let leak = format!("{}/leak.py", dir.path().display());
    let leaked = verdict(dir.path(), &[], &["python3", &leak]);
    assert!(leaked.starts_with("WA"), "{leaked}");
    assert!(verdict(dir.path(), &["--sandbox", "off"], &["python3", "leak.py"]).starts_with("AC"));
}

#[test]
fn a_virtualenv_s_python_named_by_its_path_runs_with_its_own_packages() {
    if !have("python3", &["-c", "import venv, ensurepip"]) {
        return;
    }
    let dir = contest(&[("sol.py", SOLUTION), ("helper.py", HELPER)]);
    let made = std::process::Command::new("python3")
        .args(["-m", "venv", "--without-pip", "env"])
        .current_dir(dir.path())
        .status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipped: python3 -m venv failed here");
        return;
    }
    let v = verdict(dir.path(), &[], &["env/bin/python", "sol.py"]);
    assert!(v.starts_with("AC"), "{v}");
}

#[test]
fn python_multiprocessing_has_the_shared_memory_it_needs() {
    if !have("python3", &["-c", "import multiprocessing.synchronize"]) {
        return;
    }
    // Every start method: `forkserver`, Python 3.14's default on Linux, hands the server
    // its descriptors over a Unix socket (`sendmsg`), which a sandbox must leave open.
    for method in ["fork", "forkserver", "spawn"] {
        let pool = format!(
            "import sys, multiprocessing as mp\n\
             def double(x):\n    return 2 * x\n\
             if __name__ == '__main__':\n    mp.set_start_method('{method}')\n\
             \x20   a, b = map(int, sys.stdin.read().split())\n\
             \x20   with mp.Pool(2) as pool:\n        print(sum(pool.map(double, [a, b])) - a - b)\n"
        );
        let dir = contest(&[("pool.py", &pool)]);
        let v = verdict(dir.path(), &["--memory-limit", "256MiB"], &["python3", "pool.py"]);
        assert!(v.starts_with("AC"), "{method}: {v}");
    }
}

#[test]
fn java_runs_from_its_class_folder() {
    if !have("javac", &["-version"]) {
        return;
    }
    let main = "import java.util.*;\npublic class Main { public static void main(String[] a) { \
                Scanner s = new Scanner(System.in); System.out.println(s.nextInt() + s.nextInt()); } }\n";
    let dir = contest(&[("Main.java", main)]);
    let built =
        std::process::Command::new("javac").args(["-d", "classes", "Main.java"]).current_dir(dir.path()).status();
    assert!(built.unwrap().success());
    let v = verdict(dir.path(), &["--memory-limit", "1GiB"], &["java", "-cp", "classes", "Main"]);
    assert!(v.starts_with("AC"), "{v}");
}
