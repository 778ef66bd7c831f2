//! Sets `in_crate` for every target of this package: the solver file, built alone as judges
//! build it, replaces std's `main` with a C entry point that skips std's runtime set-up (see
//! the file's top). Inside the crate it is also a module of the lib, which binaries with their
//! own `main` link, so there it must keep std's `main`.
//!
//! Also writes the table of the problem suites built into `judge` (`src/bundled.rs`): every
//! case folder under `cases/` tagged with a problem's name, so that `judge --problem NAME`
//! works from any folder once `judge` is installed. A case folder larger than
//! [`LARGEST_CASE`] stays out (only `poj2676/big-10000`, 1.8 MB, of 2.3 MB in all), and is
//! listed as left out.
use std::path::{Path, PathBuf};

/// The names `--problem` takes (`src/problems.rs`; a unit test there checks that every one
/// of them has bundled cases).
const PROBLEM_NAMES: [&str; 8] =
    ["poj2676", "poj3074", "acwing166", "luogu1784", "samurai", "poj3076", "acwing169", "spoj-sudoku"];

/// The largest case folder built in, in bytes.
const LARGEST_CASE: u64 = 512 << 10;

fn main() {
    println!("cargo:rustc-cfg=in_crate");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=cases");
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let cases = root.join("cases");
    let mut files = Vec::new();
    let mut left_out = Vec::new();
    if cases.is_dir() {
        walk(&cases, &cases, &mut Vec::new(), &mut files, &mut left_out);
    }
    let mut out = String::from("/// Each file of the built-in suites: its path below `cases/`, and its bytes.\n");
    out += "pub static FILES: &[(&str, &[u8])] = &[\n";
    for (rel, abs) in &files {
        out += &format!("    ({rel:?}, include_bytes!({:?})),\n", abs.display().to_string());
    }
    out += "];\n/// The case folders of those suites left out for their size: path below `cases/`, bytes, tags.\n";
    out += "pub static LEFT_OUT: &[(&str, u64, &[&str])] = &[\n";
    for (rel, size, tags) in &left_out {
        out += &format!("    ({rel:?}, {size}, &{tags:?}),\n");
    }
    out += "];\n";
    let dest = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("bundled_suites.rs");
    std::fs::write(dest, out).expect("cannot write the table of bundled suites");
}

/// Adds the files of every tagged case folder under `dir`; `tomls` holds the `case.toml`
/// texts above it (their tags pass down, and so must the files).
fn walk(
    cases: &Path,
    dir: &Path,
    tomls: &mut Vec<(PathBuf, String)>,
    files: &mut Vec<(String, PathBuf)>,
    left_out: &mut Vec<(String, u64, Vec<String>)>,
) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    let own_toml = std::fs::read_to_string(dir.join("case.toml")).ok();
    let pushed = own_toml.is_some();
    if let Some(text) = own_toml {
        tomls.push((dir.join("case.toml"), text));
    }
    let rel = |p: &Path| p.strip_prefix(cases).unwrap_or(p).to_string_lossy().replace('\\', "/");
    let all_tags: Vec<String> = tomls.iter().flat_map(|(_, t)| tags(t)).collect();
    let tagged = all_tags.iter().any(|tag| PROBLEM_NAMES.contains(&tag.as_str()));
    if tagged && dir.join("input.txt").is_file() {
        let own: Vec<&PathBuf> = entries.iter().filter(|p| p.is_file() && !hidden(p)).collect();
        let size: u64 = own.iter().filter_map(|p| std::fs::metadata(p).ok()).map(|m| m.len()).sum();
        if size > LARGEST_CASE {
            left_out.push((rel(dir), size, all_tags));
        } else {
            for (toml, _) in tomls.iter() {
                if !files.iter().any(|(_, abs)| abs == toml) {
                    files.push((rel(toml), toml.clone()));
                }
            }
            for p in own {
                if !files.iter().any(|(_, abs)| abs == p) {
                    files.push((rel(p), p.clone()));
                }
            }
        }
    }
    for p in entries.iter().filter(|p| p.is_dir() && !hidden(p)) {
        walk(cases, p, tomls, files, left_out);
    }
    if pushed {
        tomls.pop();
    }
}

fn hidden(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.'))
}

/// The quoted words of a `tags = [...]` line: enough for this repository's case.toml files,
/// which the judge itself parses properly at run time.
fn tags(toml: &str) -> Vec<String> {
    let Some(line) = toml.lines().find(|l| l.trim_start().starts_with("tags")) else { return Vec::new() };
    line.split('"').skip(1).step_by(2).map(str::to_string).collect()
}
