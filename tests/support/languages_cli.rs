//! Each language as judges build and run it, from the outside: one program per language that
//! doubles its input (AC), is judged against a wrong answer (WA), spins on 0 (TLE) and fills
//! 512 MiB on -1 (MLE); a language whose toolchain is not installed is skipped, saying so.
//! Also: any other language through --compiler-cmd/--run-cmd or a `[language.EXT]` table, and
//! the errors for a missing toolchain and a bad table.

use super::{folder, judge};
use predicates::prelude::*;

/// The four cases every language is judged on, and the verdict each must get.
const CASES: [(&str, &str, &str, &str); 4] = [
    ("ac", "3\n", "6\n", "AC"),
    ("wa", "4\n", "9\n", "WA"),
    ("tle", "0\n", "0\n", "TLE"),
    ("mle", "-1\n", "0\n", "MLE"),
];

struct Lang {
    file: &'static str,
    source: &'static str,
    /// Extra judge flags (`--lang pypy`).
    flags: &'static [&'static str],
    /// Programs that must be on PATH, with the package to install.
    tools: &'static [(&'static str, &'static str)],
}

const C: &str = "#include <stdio.h>\n#include <stdlib.h>\nint main(void) {\n  long n; if (scanf(\"%ld\", &n) != 1) return 1;\n  if (n == 0) { volatile unsigned long x = 1; while (x) x = x * 3 + 1; }\n  if (n < 0) { volatile char *p = (volatile char *) malloc(512 << 20); for (long i = 0; i < (512 << 20); i += 4096) p[i] = 1; printf(\"%d\\n\", p[4096]); }\n  printf(\"%ld\\n\", 2 * n);\n  return 0;\n}\n";

const RUST: &str = "use std::io::Read;\nfn main() {\n    let mut s = String::new();\n    std::io::stdin().read_to_string(&mut s).unwrap();\n    let n: i64 = s.trim().parse().unwrap();\n    if n == 0 {\n        let mut x = 1u64;\n        while std::hint::black_box(x) != 0 {\n            x = x.wrapping_mul(3) | 1;\n        }\n    }\n    if n < 0 {\n        let v = vec![1u8; 512 << 20];\n        println!(\"{}\", v[std::hint::black_box(12345)]);\n    }\n    println!(\"{}\", 2 * n);\n}\n";

const PYTHON: &str = "n = int(input())\nif n == 0:\n    while True:\n        pass\nif n < 0:\n    b = b'x' * (-n << 29)\n    print(len(b))\nprint(2 * n)\n";

const JAVA: &str = "import java.util.*;\npublic class Main {\n    public static void main(String[] args) {\n        long n = new Scanner(System.in).nextLong();\n        if (n == 0) { long x = 1; while (x != 0) x = x * 3 + 1; System.out.println(x); }\n        if (n < 0) {\n            List<byte[]> keep = new ArrayList<>();\n            for (int i = 0; i < 64; i++) { byte[] b = new byte[8 << 20]; Arrays.fill(b, (byte) 1); keep.add(b); }\n            System.out.println(keep.size());\n        }\n        System.out.println(n * 2);\n    }\n}\n";

const KOTLIN: &str = "fun main() {\n    val n = readLine()!!.trim().toLong()\n    if (n == 0L) { var x = 1L; while (x != 0L) x = x * 3 + 1; println(x) }\n    if (n < 0L) {\n        val keep = ArrayList<ByteArray>()\n        for (i in 0 until 64) { keep.add(ByteArray(8 shl 20) { 1 }) }\n        println(keep.size)\n    }\n    println(n * 2)\n}\n";

const GO: &str = "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tvar n int64\n\tfmt.Scan(&n)\n\tif n == 0 {\n\t\tx := int64(1)\n\t\tfor x != 0 {\n\t\t\tx = x*3 + 1\n\t\t}\n\t\tfmt.Println(x)\n\t}\n\tif n < 0 {\n\t\tb := make([]byte, 512<<20)\n\t\tfor i := range b {\n\t\t\tb[i] = 1\n\t\t}\n\t\tfmt.Println(b[12345])\n\t}\n\tfmt.Println(2 * n)\n}\n";

const JAVASCRIPT: &str = "const n = parseInt(require('fs').readFileSync(0, 'utf8'));\nif (n === 0) { for (;;) {} }\nif (n < 0) { const b = Buffer.alloc(512 << 20, 1); console.log(b[12345]); }\nconsole.log(2 * n);\n";

// One test per language, so that the slow toolchains (kotlinc alone takes some 13 s of CPU)
// build side by side with the other tests instead of one after another in a single test.
const C_LANG: Lang = Lang { file: "main.c", source: C, flags: &[], tools: &[("gcc", "gcc")] };
const CPP_LANG: Lang = Lang { file: "main.cpp", source: C, flags: &[], tools: &[("g++", "g++")] };
const RUST_LANG: Lang = Lang { file: "main.rs", source: RUST, flags: &[], tools: &[("rustc", "rustc")] };
const PYTHON_LANG: Lang = Lang { file: "main.py", source: PYTHON, flags: &[], tools: &[("python3", "python3")] };
const PYPY_LANG: Lang =
    Lang { file: "main.py", source: PYTHON, flags: &["--lang", "pypy"], tools: &[("pypy3", "pypy3")] };
const JAVA_LANG: Lang = Lang {
    file: "Main.java",
    source: JAVA,
    flags: &[],
    tools: &[("javac", "default-jdk-headless"), ("jar", "default-jdk-headless")],
};
const KOTLIN_LANG: Lang = Lang {
    file: "main.kt",
    source: KOTLIN,
    flags: &[],
    tools: &[("kotlinc", "kotlin"), ("java", "default-jdk-headless")],
};
const GO_LANG: Lang = Lang { file: "main.go", source: GO, flags: &[], tools: &[("go", "golang-go")] };
const JAVASCRIPT_LANG: Lang = Lang { file: "main.js", source: JAVASCRIPT, flags: &[], tools: &[("node", "nodejs")] };

fn on_path(tool: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(tool).is_file()))
}

/// The verdict of each case, by name, from a `--json -` run of `args` in `dir`.
fn verdicts(dir: &std::path::Path, cache: &std::path::Path, args: &[&str]) -> Vec<(String, String)> {
    let out = judge()
        .current_dir(dir)
        .env("XDG_CACHE_HOME", cache)
        .args(["cases", "--time-limit", "1s", "--json", "-"])
        .args(args)
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {args:?}\nstderr: {}", String::from_utf8_lossy(&out.stderr)));
    report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["name"].as_str().unwrap().to_string(), c["verdict"].as_str().unwrap().to_string()))
        .collect()
}

fn expected_verdicts() -> Vec<(String, String)> {
    let mut want: Vec<(String, String)> = CASES.iter().map(|(n, _, _, v)| (n.to_string(), v.to_string())).collect();
    want.sort();
    want
}

fn four_cases() -> tempfile::TempDir {
    let files: Vec<(String, &str)> = CASES
        .iter()
        .flat_map(|(name, input, expected, _)| {
            [(format!("cases/{name}/input.txt"), *input), (format!("cases/{name}/expected.txt"), *expected)]
        })
        .collect();
    let borrowed: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), *t)).collect();
    folder(&borrowed)
}

/// Builds and runs `lang`'s program on the four cases as judges do, and checks each verdict;
/// whether it did (false: its toolchain is not installed, which is said).
fn judged_as_judges_do(lang: &Lang) -> bool {
    if let Some((tool, package)) = lang.tools.iter().find(|(t, _)| !on_path(t)) {
        eprintln!("skipped {} {:?}: {tool} is not installed (apt-get install {package})", lang.file, lang.flags);
        return false;
    }
    let cache = tempfile::tempdir().unwrap();
    let dir = four_cases();
    std::fs::write(dir.path().join(lang.file), lang.source).unwrap();
    let solver = format!("./{}", lang.file);
    let mut args: Vec<&str> = lang.flags.to_vec();
    args.extend(["--", solver.as_str()]);
    let mut got = verdicts(dir.path(), cache.path(), &args);
    got.sort();
    assert_eq!(got, expected_verdicts(), "{} {:?}", lang.file, lang.flags);
    true
}

// C, C++ and Rust are never skipped: CI has them.
#[test]
fn c_is_built_and_run_as_judges_do() {
    assert!(judged_as_judges_do(&C_LANG), "gcc: CI has it");
}

#[test]
fn cpp_is_built_and_run_as_judges_do() {
    assert!(judged_as_judges_do(&CPP_LANG), "g++: CI has it");
}

#[test]
fn rust_is_built_and_run_as_judges_do() {
    assert!(judged_as_judges_do(&RUST_LANG), "rustc: CI has it");
}

#[test]
fn python_is_run_as_judges_do() {
    judged_as_judges_do(&PYTHON_LANG);
}

#[test]
fn pypy_is_run_as_judges_do() {
    judged_as_judges_do(&PYPY_LANG);
}

#[test]
fn java_is_built_and_run_as_judges_do() {
    judged_as_judges_do(&JAVA_LANG);
}

#[test]
fn kotlin_is_built_and_run_as_judges_do() {
    judged_as_judges_do(&KOTLIN_LANG);
}

#[test]
fn go_is_built_and_run_as_judges_do() {
    judged_as_judges_do(&GO_LANG);
}

#[test]
fn javascript_is_run_as_judges_do() {
    judged_as_judges_do(&JAVASCRIPT_LANG);
}

#[test]
fn any_other_language_takes_a_build_and_a_run_command() {
    let cache = tempfile::tempdir().unwrap();
    let dir = four_cases();
    // A "language" of our own: C under another extension, built and run by the user's commands.
    std::fs::write(dir.path().join("main.c2"), C).unwrap();
    let mut got = verdicts(
        dir.path(),
        cache.path(),
        &["--compiler-cmd", "gcc -x c -O2 -o {out} {src}", "--run-cmd", "{out}", "--", "./main.c2"],
    );
    got.sort();
    assert_eq!(got, expected_verdicts());
    // Interpreted, with no build: the run command alone.
    std::fs::write(dir.path().join("main.python"), PYTHON).unwrap();
    let mut got = verdicts(dir.path(), cache.path(), &["--run-cmd", "python3 {src}", "--", "./main.python"]);
    got.sort();
    assert_eq!(got, expected_verdicts());
    // The same from a [language.EXT] table in the suite's case.toml: no flag at all.
    std::fs::write(dir.path().join("cases/case.toml"), "[language.python]\nrun = \"python3 {src}\"\n").unwrap();
    let mut got = verdicts(dir.path(), cache.path(), &["--", "./main.python"]);
    got.sort();
    assert_eq!(got, expected_verdicts());
}

#[test]
fn bad_language_tables_and_unknown_extensions_are_usage_errors() {
    let dir = folder(&[("cases/a/input.txt", "1\n"), ("main.rb", "puts 1\n")]);
    let toml = dir.path().join("cases/case.toml");
    for (text, says) in [
        ("[language.rb]\nrun = \"ruby\"\n", "[language.rb] run: the run command must name {out}"),
        (
            "[language.rb]\nbuild = \"rubyc {src}\"\n",
            "[language.rb] build: the build command must name {src} and {out}",
        ),
        ("[language.rb]\nrunn = \"ruby {src}\"\n", "[language.rb]: unknown field `runn`: use build, run or lang"),
        ("[language.rb]\nrun = 3\n", "[language.rb] run: expected a string"),
        ("[language.rb]\nlang = \"cobol\"\n", "unknown language 'cobol'"),
        ("[language]\nrb = \"ruby {src}\"\n", "[language.rb]: expected a table with `run`"),
    ] {
        std::fs::write(&toml, text).unwrap();
        judge()
            .current_dir(dir.path())
            .args(["cases", "--", "./main.rb"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(says));
    }
    std::fs::remove_file(&toml).unwrap();
    judge().current_dir(dir.path()).args(["cases", "--", "./main.rb"]).assert().code(2).stderr(
        predicate::str::contains(".rb is not a language the judge knows")
            .and(predicate::str::contains("--run-cmd 'ruby {src}'"))
            .and(predicate::str::contains("[language.rb]"))
            .and(predicate::str::contains("java Main").not()),
    );
    judge()
        .current_dir(dir.path())
        .args(["cases", "--run-cmd", "ruby"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("the run command must name {out} (the program built) or {src}"));
    judge()
        .current_dir(dir.path())
        .args(["cases", "--lang", "cobol"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown language 'cobol': use one of c, cpp, rust, python, pypy, java"));
}

#[test]
fn a_missing_toolchain_names_the_package_to_install() {
    let dir = folder(&[("cases/a/input.txt", "1\n"), ("Main.java", JAVA), ("main.go", GO), ("main.kt", KOTLIN)]);
    let empty = tempfile::tempdir().unwrap();
    for (source, tool, package) in [
        ("./Main.java", "javac", "default-jdk-headless"),
        ("./main.go", "go", "golang-go"),
        ("./main.kt", "kotlinc", "kotlin"),
    ] {
        judge()
            .current_dir(dir.path())
            .env("PATH", empty.path())
            .args(["cases", "--", source])
            .assert()
            .code(2)
            .stderr(
                predicate::str::contains(format!("`{tool}` is not installed"))
                    .and(predicate::str::contains(format!("apt-get install {package}"))),
            );
    }
}

/// A virtual environment's Python, importing a module that sits beside the solution.
#[test]
fn a_venv_python_imports_a_module_beside_the_solution() {
    let dir = four_cases();
    std::fs::write(dir.path().join("helper.py"), "def twice(n):\n    return 2 * n\n").unwrap();
    std::fs::write(dir.path().join("sol.py"), "import helper\nprint(helper.twice(int(input())))\n").unwrap();
    let venv = dir.path().join("venv");
    let made = std::process::Command::new("python3").args(["-m", "venv", "--without-pip"]).arg(&venv).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipped: python3 -m venv is not available (apt-get install python3-venv)");
        return;
    }
    let python = venv.join("bin/python");
    let python = python.to_str().unwrap();
    let cache = tempfile::tempdir().unwrap();
    // Under the default sandbox: its file view shows the venv and the script's folder.
    let got = verdicts(dir.path(), cache.path(), &["--filter", "ac", "--", python, "sol.py"]);
    assert_eq!(got, [("ac".to_string(), "AC".to_string())]);
}

/// The four cases with `Main.java` beside them, compiled by the user into `classes` (a folder
/// of the cases' folder); `None`, said, where javac is not installed.
pub(super) fn java_cases(classes: &str) -> Option<tempfile::TempDir> {
    if !on_path("javac") {
        eprintln!("skipped: javac is not installed (apt-get install default-jdk-headless)");
        return None;
    }
    let dir = four_cases();
    std::fs::write(dir.path().join("Main.java"), JAVA).unwrap();
    let into = dir.path().join(classes);
    let built = std::process::Command::new("javac").arg("-d").arg(&into).arg(dir.path().join("Main.java")).status();
    assert!(built.unwrap().success());
    Some(dir)
}

/// A class path that is the user's home folder is never shown to runs as a whole: `javac
/// Main.java` then `java -cp . Main` in the home folder was RE "Could not find or load main
/// class Main" on every case with no word why; a note now says so before the first run.
#[test]
fn a_class_path_that_is_the_home_folder_is_named_before_the_first_run() {
    let Some(dir) = java_cases(".") else { return };
    let note = "runs never see '.' as a whole";
    let elsewhere = tempfile::tempdir().unwrap();
    for (home, said) in [(dir.path(), true), (elsewhere.path(), false)] {
        let out = judge()
            .current_dir(dir.path())
            .env("HOME", home)
            .args(["cases", "--filter", "ac", "--", "java", "-Xmx64m", "-cp", ".", "Main"])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(stderr.contains(note), said, "home {}: {stderr}", home.display());
        // Where the folder is shown, the classes in it run.
        if !said {
            assert_eq!(out.status.code(), Some(0), "{stderr}");
        }
    }
}

/// A Java program compiled by the user and run as `java -cp DIR Main`, the classic judge
/// command line.
#[test]
fn a_java_class_folder_runs_with_java_cp() {
    let Some(dir) = java_cases("classes") else { return };
    let cache = tempfile::tempdir().unwrap();
    // Under the default sandbox: its file view shows every class-path entry named.
    let got =
        verdicts(dir.path(), cache.path(), &["--filter", "ac", "--", "java", "-Xmx64m", "-cp", "classes", "Main"]);
    assert_eq!(got, [("ac".to_string(), "AC".to_string())]);
}
