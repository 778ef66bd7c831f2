//! Finding cases on disk: walking folders, `case.toml` passed down, natural order, and
//! per-case problems.
//!
//! A folder per case holds `input.txt`, optional `expected.txt` and optional `case.toml`; the
//! other layouts (oj pairs, Polygon, AtCoder) are found by [`layouts`]. A `case.toml`
//! applies to its folder and everything below it, nearer files winning field by field.
//!
//! A problem with one case (an answer without input, a bad `case.toml`) is recorded on that
//! case and judged IE; it never stops discovery of the others.

pub mod checker;
pub mod cph;
pub mod files;
pub mod layouts;
pub mod model;
pub mod split;
pub mod verdicts;

pub(crate) use model::{is_skipped, relative_name, Settings};
pub use model::{shown_path, Case, CaseConfig, CaseFile};
use std::cmp::Ordering;
use std::path::{Path, PathBuf};

/// A path given on the command line that cannot be searched.
#[derive(Debug)]
pub struct DiscoveryError {
    pub path: PathBuf,
    pub message: String,
}

impl std::fmt::Display for DiscoveryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot search '{}' for cases: {}", self.path.display(), self.message)
    }
}

/// Finds every case under each path, in natural order within each path. Entries that
/// cannot be searched (a dangling link, a link loop, a folder we may not read) are skipped
/// with a warning, never fatal: see [`discover_with_warnings`].
pub fn discover(paths: &[PathBuf]) -> Result<Vec<Case>, DiscoveryError> {
    discover_with_warnings(paths).map(|(cases, _)| cases)
}

/// As [`discover`], with a warning for each entry that was skipped.
pub fn discover_with_warnings(paths: &[PathBuf]) -> Result<(Vec<Case>, Vec<String>), DiscoveryError> {
    let mut all = Vec::new();
    let mut warnings = Vec::new();
    for root in paths {
        if !root.exists() {
            return Err(DiscoveryError { path: root.clone(), message: "no such file or folder".into() });
        }
        let mut found = discover_one(root, &mut warnings);
        found.sort_by(|a, b| natural_cmp(&a.name, &b.name));
        all.extend(found);
    }
    Ok((all, warnings))
}

fn discover_one(root: &Path, warnings: &mut Vec<String>) -> Vec<Case> {
    if root.is_file() {
        return vec![file_case(root, warnings)];
    }
    let mut cases = Vec::new();
    // A suite's case.toml beside `tests/` applies however the suite was reached.
    let above = settings_above(root);
    // The settings each folder passes down: its own case.toml over its parent's.
    let mut inherited: Vec<(PathBuf, Settings)> = Vec::new();
    let walker = walkdir::WalkDir::new(root).follow_links(true).sort_by_file_name().into_iter();
    // A link to a folder outside the tree given (`/`, `/usr`) is not followed: discovery never
    // leaves the tree it was given.
    let inside = std::fs::canonicalize(root).ok();
    let outside = std::cell::RefCell::new(Vec::new());
    let walker = walker.filter_entry(|e| {
        if e.depth() > 0 && e.path_is_symlink() && e.file_type().is_dir() {
            let target = std::fs::canonicalize(e.path()).ok();
            let within = matches!((&inside, &target), (Some(i), Some(t)) if t.starts_with(i));
            if !within {
                outside.borrow_mut().push(e.path().to_path_buf());
                return false;
            }
        }
        e.depth() == 0 || !is_skipped(&e.file_name().to_string_lossy())
    });
    for entry in walker {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                let at = e.path().map_or_else(|| root.display().to_string(), shown_path);
                warnings
                    .push(format!("skipped {at}: {}", e.io_error().map_or_else(|| e.to_string(), |io| io.to_string())));
                continue;
            }
        };
        if entry.file_type().is_dir() {
            let dir = entry.path();
            while inherited.last().is_some_and(|(d, _)| !dir.starts_with(d)) {
                inherited.pop();
            }
            let parent = inherited.last().map_or_else(|| above.clone(), |(_, s)| s.clone());
            let here = parent.with_file(dir);
            cases.extend(cases_in_folder(root, dir, &here));
            inherited.push((dir.to_path_buf(), here));
        }
    }
    for link in outside.into_inner() {
        warnings.push(format!("skipped {}: a link to a folder outside {}", shown_path(&link), shown_path(root)));
    }
    cases
}

/// A file given as a path: the case it is the input of (a case folder's `input.txt`, an oj
/// `.in`, a Polygon test, an AtCoder `in/` file), with its answer and every `case.toml`
/// above it; else a lone input with nothing to compare, which a warning says.
fn file_case(file: &Path, warnings: &mut Vec<String>) -> Case {
    let same = |p: &Path| match (std::fs::canonicalize(p), std::fs::canonicalize(file)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    let folder = match file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    // The folder that holds the file, then the one above (AtCoder keeps `in/` and `out/` there).
    for dir in [folder.clone(), folder.join("..")] {
        if !dir.is_dir() {
            continue;
        }
        let settings = settings_above(&dir.join("x")).with_file(&dir);
        let naming = dir.join("..");
        let found =
            cases_in_folder(&naming, &dir, &settings).into_iter().find(|c| c.input.as_deref().is_some_and(same));
        if let Some(case) = found {
            return case;
        }
    }
    warnings.push(format!(
        "{} has no answer beside it: it is judged without one (OK if it runs cleanly)",
        shown_path(file)
    ));
    let name = file.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let settings = settings_above(file);
    Case { name, input: Some(file.to_path_buf()), expected: None, config: settings.config, problem: settings.problem }
}

/// The settings of the folders above `path`, the outermost first: up to the working folder
/// when `path` is inside it, else its parent and grandparent.
fn settings_above(path: &Path) -> Settings {
    let Ok(path) = std::fs::canonicalize(path).or_else(|_| {
        let parent = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        std::fs::canonicalize(parent).map(|p| p.join(path.file_name().unwrap_or_default()))
    }) else {
        return Settings::default();
    };
    let cwd = std::env::current_dir().and_then(std::fs::canonicalize).ok();
    let inside = cwd.as_ref().filter(|c| path.starts_with(c));
    let mut dirs = Vec::new();
    for dir in path.ancestors().skip(1) {
        dirs.push(dir);
        match inside {
            Some(c) if dir == c.as_path() => break,
            None if dirs.len() >= 2 => break,
            _ => {}
        }
    }
    let chain = dirs.iter().rev().fold(Settings::default(), |s, d| s.with_file(d));
    Settings { own_file: false, ..chain }
}

/// Whether `dir` itself holds cases, in any layout (not counting its subfolders' own): a
/// case folder, oj or plain pairs, cf-tool or cph tests, an AtCoder `in/` beside `out/`, or a
/// Kattis `data/` of sample folders. Cheap: no walk below.
pub fn holds_cases(dir: &Path) -> bool {
    let direct = |d: &Path| !cases_in_folder(d, d, &Settings::default()).is_empty();
    if !dir.is_dir() {
        return false;
    }
    if direct(dir) || dir.join("in").is_dir() && dir.join("out").is_dir() {
        return true;
    }
    let data = dir.join("data");
    std::fs::read_dir(&data).is_ok_and(|entries| entries.flatten().any(|e| e.path().is_dir() && direct(&e.path())))
}

/// The cases that live directly in `dir`: the folder itself (`input.txt`), and any pairs of
/// the other layouts (see [`layouts`]). A folder with only a `case.toml` and
/// subfolders holds settings for the cases below it; with no subfolders either, it is a case
/// that lacks its input.
fn cases_in_folder(root: &Path, dir: &Path, settings: &Settings) -> Vec<Case> {
    let input = dir.join("input.txt");
    let expected = dir.join("expected.txt");
    let present = |p: &Path| p.symlink_metadata().is_ok();
    let pairs = layouts::pairs_in_folder(root, dir, settings);
    let has_subfolders = || std::fs::read_dir(dir).is_ok_and(|mut it| it.any(|e| e.is_ok_and(|e| e.path().is_dir())));
    let lone_toml = settings.own_file && pairs.is_empty() && !has_subfolders();
    let mut cases = Vec::new();
    if present(&input) || present(&expected) || lone_toml {
        let mut case = Case {
            name: relative_name(root, dir),
            input: present(&input).then(|| input.clone()),
            expected: present(&expected).then(|| expected.clone()),
            config: settings.config.clone(),
            problem: settings.problem.clone(),
        };
        if case.input.is_none() {
            case.problem = Some(if case.expected.is_none() && lone_toml && case.problem.is_none() {
                format!("{}{NO_SAMPLES}", shown_path(dir))
            } else {
                format!("{} has no input.txt", shown_path(dir))
            });
        }
        // A file that is there but cannot be read as one (a folder, a FIFO, a broken link)
        // is the case's problem: never a pass for want of an expected output.
        for path in [&input, &expected] {
            if present(path) && !path.is_file() {
                case.problem = Some(format!("{} is not a regular file", shown_path(path)));
            }
        }
        cases.push(case);
    }
    cases.extend(pairs);
    cases
}

/// Ends the problem of a folder that holds a `case.toml` and nothing to judge (a problem
/// received with no samples).
const NO_SAMPLES: &str = " has no samples: a case.toml and no input.txt (or NAME.in with NAME.out) beside it";

/// Whether `case` is a folder with no samples at all: nothing to judge, which is said, not IE.
pub fn no_samples(case: &Case) -> bool {
    case.input.is_none() && case.expected.is_none() && case.problem.as_deref().is_some_and(|p| p.ends_with(NO_SAMPLES))
}

/// Orders names as people do: `case-2` before `case-10`.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (mut a, mut b) = (a.as_bytes(), b.as_bytes());
    loop {
        match (a.first(), b.first()) {
            (None, None) => return Ordering::Equal,
            (None, _) => return Ordering::Less,
            (_, None) => return Ordering::Greater,
            (Some(x), Some(y)) if x.is_ascii_digit() && y.is_ascii_digit() => {
                let da = a.iter().take_while(|c| c.is_ascii_digit()).count();
                let db = b.iter().take_while(|c| c.is_ascii_digit()).count();
                let (na, nb) = (trim_zeros(&a[..da]), trim_zeros(&b[..db]));
                let ord = na.len().cmp(&nb.len()).then_with(|| na.cmp(nb)).then_with(|| da.cmp(&db));
                if ord != Ordering::Equal {
                    return ord;
                }
                a = &a[da..];
                b = &b[db..];
            }
            (Some(x), Some(y)) => {
                if x != y {
                    return x.cmp(y);
                }
                a = &a[1..];
                b = &b[1..];
            }
        }
    }
}

fn trim_zeros(digits: &[u8]) -> &[u8] {
    let start = digits.iter().position(|&d| d != b'0').unwrap_or(digits.len());
    &digits[start..]
}

#[cfg(test)]
mod tests;
