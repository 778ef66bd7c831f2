//! The languages a solver may be given in, each built and run as the judge it follows builds
//! and runs it (see the table in docs/judge.md), and the user's own: `--compiler-cmd` with `--run-cmd`, or
//! a `[language.EXT]` table in `case.toml`, give any other extension its commands.
//!
//! A command is a template: `{src}` the source, `{out}` the program built (one file, in the
//! build cache), `{class}` the source's stem (Java's class), `{memory_mib}` the case's memory
//! limit in MiB (filled in per case: a JVM's heap is bounded by it, as judges bound it).

use std::collections::HashMap;
use std::path::Path;

/// The languages the judge knows how to build and run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    C,
    Cpp,
    Rust,
    Python,
    PyPy,
    Java,
    Kotlin,
    Go,
    JavaScript,
}

/// A Python source compiled (not run) to check its syntax, as judges report a syntax error
/// as CE; `{out}` is not written, so no `__pycache__` is left beside the source.
const PYTHON_CHECK: &str =
    "python3 -c \"import sys; compile(open(sys.argv[1], 'rb').read(), sys.argv[1], 'exec')\" {src}";
const PYPY_CHECK: &str = "pypy3 -c \"import sys; compile(open(sys.argv[1], 'rb').read(), sys.argv[1], 'exec')\" {src}";

/// The flags judges give the JVM (Codeforces, AtCoder): a heap bounded by the memory limit,
/// a deep stack for recursion, the serial collector (one GC thread, the least memory).
const JVM: &str = "java -Xmx{memory_mib}m -Xss64m -XX:+UseSerialGC -DONLINE_JUDGE=true";

impl Language {
    /// Every language, in README's order.
    pub const ALL: [Language; 9] = [
        Language::C,
        Language::Cpp,
        Language::Rust,
        Language::Python,
        Language::PyPy,
        Language::Java,
        Language::Kotlin,
        Language::Go,
        Language::JavaScript,
    ];

    /// The language of a source file, by its extension alone (`.py` is CPython); see
    /// [`Languages::of`] for the user's own tables.
    pub fn of(path: &Path) -> Option<Language> {
        Language::by_extension(path.extension()?.to_str()?)
    }

    fn by_extension(ext: &str) -> Option<Language> {
        Some(match ext {
            "c" => Language::C,
            "cpp" | "cc" | "cxx" | "c++" => Language::Cpp,
            "rs" => Language::Rust,
            "py" => Language::Python,
            "java" => Language::Java,
            "kt" => Language::Kotlin,
            "go" => Language::Go,
            "js" => Language::JavaScript,
            _ => return None,
        })
    }

    /// The name `--lang` takes.
    pub fn name(self) -> &'static str {
        match self {
            Language::C => "c",
            Language::Cpp => "cpp",
            Language::Rust => "rust",
            Language::Python => "python",
            Language::PyPy => "pypy",
            Language::Java => "java",
            Language::Kotlin => "kotlin",
            Language::Go => "go",
            Language::JavaScript => "javascript",
        }
    }

    /// The language `--lang NAME` names; the error lists them.
    pub fn parse(name: &str) -> Result<Language, String> {
        let name = name.to_ascii_lowercase();
        let alias = match name.as_str() {
            "c++" => "cpp",
            "python3" | "cpython" => "python",
            "pypy3" => "pypy",
            "js" | "node" => "javascript",
            "kt" => "kotlin",
            other => other,
        };
        Language::ALL.iter().copied().find(|l| l.name() == alias).ok_or_else(|| {
            let names: Vec<&str> = Language::ALL.iter().map(|l| l.name()).collect();
            format!("unknown language '{name}': use one of {}", names.join(", "))
        })
    }

    /// The default build command, with `{src}` and `{out}` for the source and the program
    /// built. Interpreted languages are only checked for syntax (`{out}` is not written).
    pub fn default_command(self) -> &'static str {
        match self {
            // Judges define ONLINE_JUDGE (POJ, Codeforces, Luogu): a solution's
            // `#ifndef ONLINE_JUDGE freopen(...)` must behave here as it will there.
            Language::C => "gcc -O2 -std=gnu11 -DONLINE_JUDGE -o {out} {src} -lm",
            Language::Cpp => "g++ -O2 -std=gnu++17 -DONLINE_JUDGE -o {out} {src}",
            Language::Rust => "rustc --edition 2021 -O -o {out} {src}",
            Language::Python => PYTHON_CHECK,
            Language::PyPy => PYPY_CHECK,
            // One file in the cache: the classes javac writes, in a jar (a classpath entry).
            Language::Java => {
                "sh -c 'javac -encoding UTF-8 -d \"$0.classes\" \"$1\" && jar cf \"$0\" -C \"$0.classes\" . \
                 && rm -r \"$0.classes\"' {out} {src}"
            }
            // kotlinc writes a jar only to a name ending in .jar.
            Language::Kotlin => {
                "sh -c 'kotlinc \"$1\" -include-runtime -d \"$0.jar\" && mv \"$0.jar\" \"$0\"' {out} {src}"
            }
            Language::Go => "go build -o {out} {src}",
            Language::JavaScript => "node --check {src}",
        }
    }

    /// How the program is run, with the solver's own arguments after it.
    pub fn run_command(self) -> String {
        match self {
            Language::C | Language::Cpp | Language::Rust | Language::Go => "{out}".into(),
            Language::Python => "python3 {src}".into(),
            Language::PyPy => "pypy3 {src}".into(),
            Language::Java => format!("{JVM} -cp {{out}} {{class}}"),
            Language::Kotlin => format!("{JVM} -jar {{out}}"),
            Language::JavaScript => "node {src}".into(),
        }
    }

    /// The programs the build and the run need, each with the Debian package that has it.
    pub fn tools(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Language::C => &[("gcc", "gcc")],
            Language::Cpp => &[("g++", "g++")],
            Language::Rust => &[("rustc", "rustc (or rustup)")],
            Language::Python => &[("python3", "python3")],
            Language::PyPy => &[("pypy3", "pypy3")],
            Language::Java => {
                &[("javac", "default-jdk-headless"), ("jar", "default-jdk-headless"), ("java", "default-jdk-headless")]
            }
            Language::Kotlin => &[("kotlinc", "kotlin"), ("java", "default-jdk-headless")],
            Language::Go => &[("go", "golang-go")],
            Language::JavaScript => &[("node", "nodejs")],
        }
    }
}

/// What the user said about one extension: a preset (`--lang`), and commands of their own.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Custom {
    pub preset: Option<Language>,
    pub build: Option<String>,
    pub run: Option<String>,
}

/// What the user said about extensions (`--lang`, `--run-cmd`, `case.toml`'s
/// `[language.EXT]` tables), for one judging round: a value handed to every build.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Languages(HashMap<String, Custom>);

impl Languages {
    /// What the user said about `ext`, if anything.
    pub fn custom(&self, ext: &str) -> Option<&Custom> {
        self.0.get(ext)
    }

    /// The language of a source file, by what the user said of its extension (PyPy by
    /// `--lang pypy`), else by the extension.
    pub fn of(&self, path: &Path) -> Option<Language> {
        let ext = path.extension()?.to_str()?;
        match self.custom(ext) {
            Some(custom) => custom.preset,
            None => Language::by_extension(ext),
        }
    }

    /// Records what the user said about `ext` (fields given win over earlier ones).
    pub fn set(&mut self, ext: &str, given: Custom) {
        let entry = self.0.entry(ext.to_string()).or_default();
        entry.preset = given.preset.or(entry.preset);
        entry.build = given.build.or(entry.build.take());
        entry.run = given.run.or(entry.run.take());
    }
}

/// How a source is built and run: the build command (none: nothing to build), the run
/// command, and the programs they need with the package of each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Toolchain {
    pub build: Option<String>,
    pub run: String,
    pub tools: Vec<(String, String)>,
}

/// How `source` is built and run, `build` replacing the build command; `None` when its
/// extension is no language the judge knows and `languages` gives no run command for it.
pub fn toolchain(source: &Path, build: Option<&str>, languages: &Languages) -> Option<Toolchain> {
    let ext = source.extension().and_then(|e| e.to_str()).unwrap_or("");
    let custom = languages.custom(ext).cloned().unwrap_or_default();
    let language = custom.preset.or_else(|| Language::by_extension(ext));
    let build = build.map(str::to_string).or(custom.build.clone());
    let (build, run, mut tools) = match language {
        Some(l) => (
            Some(build.unwrap_or_else(|| l.default_command().to_string())),
            custom.run.clone().unwrap_or_else(|| l.run_command()),
            l.tools().iter().map(|(t, p)| (t.to_string(), p.to_string())).collect::<Vec<_>>(),
        ),
        // Another language: its commands are all the user's; a build alone runs what it built.
        None => match (build, custom.run.clone()) {
            (None, None) => return None,
            (build, run) => {
                let run = run.unwrap_or_else(|| "{out}".to_string());
                (build, run, Vec::new())
            }
        },
    };
    // The user's own commands need their own first words.
    for command in [custom.build.as_deref(), custom.run.as_deref()].into_iter().flatten() {
        if let Some(first) = shlex::split(command).and_then(|w| w.into_iter().next()) {
            if !first.starts_with('{') && !tools.iter().any(|(t, _)| *t == first) {
                tools.push((first, String::new()));
            }
        }
    }
    Some(Toolchain { build, run, tools })
}

/// Why `tools` cannot run here: the first one not found on PATH, and what to install.
pub fn missing(tools: &[(String, String)], source: &Path) -> Option<String> {
    let (tool, package) = tools.iter().find(|(t, _)| !on_path(t))?;
    let name = source.display();
    Some(if package.is_empty() {
        format!("{name}: `{tool}` is not installed (not found on PATH)")
    } else {
        format!("{name}: `{tool}` is not installed (not found on PATH): install it, on Debian or Ubuntu `apt-get install {package}`")
    })
}

fn on_path(tool: &str) -> bool {
    let path = Path::new(tool);
    if path.components().count() > 1 {
        return path.is_file();
    }
    std::env::var_os("PATH").is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(tool).is_file()))
}

/// Reads `[language.EXT]` tables (`build`, `run`: command templates) for this run; the error
/// names the table and what it needs.
pub fn parse_tables(value: &toml::Table) -> Result<Vec<(String, Custom)>, String> {
    let mut out = Vec::new();
    for (ext, table) in value {
        let where_ = format!("[language.{ext}]");
        if ext.is_empty() || !ext.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'_') {
            return Err(format!("{where_}: name it by the extension, without the dot, like [language.rb]"));
        }
        let toml::Value::Table(fields) = table else {
            return Err(format!("{where_}: expected a table with `run` (and `build`), like run = \"ruby {{src}}\""));
        };
        let mut custom = Custom::default();
        for (key, v) in fields {
            let text = v.as_str().map(str::to_string);
            match (key.as_str(), text) {
                ("build", Some(t)) => custom.build = Some(check_build(&t).map_err(|e| format!("{where_} build: {e}"))?),
                ("run", Some(t)) => custom.run = Some(check_run(&t).map_err(|e| format!("{where_} run: {e}"))?),
                ("lang", Some(t)) => {
                    custom.preset = Some(Language::parse(&t).map_err(|e| format!("{where_} lang: {e}"))?)
                }
                ("build" | "run" | "lang", None) => return Err(format!("{where_} {key}: expected a string")),
                (other, _) => return Err(format!("{where_}: unknown field `{other}`: use build, run or lang")),
            }
        }
        if custom.run.is_none() && custom.build.is_none() && custom.preset.is_none() {
            return Err(format!("{where_}: give `run` (and `build` for a compiled language)"));
        }
        out.push((ext.clone(), custom));
    }
    Ok(out)
}

/// A build command must say where the source and the program go.
pub fn check_build(text: &str) -> Result<String, String> {
    match (text.contains("{src}"), text.contains("{out}"), shlex::split(text)) {
        (_, _, None) => Err(format!("cannot split \"{text}\" into words: check its quotes")),
        (true, true, Some(_)) => Ok(text.to_string()),
        _ => Err(format!(
            "the build command must name {{src}} and {{out}}, like \"g++ -O2 -o {{out}} {{src}}\"; found \"{text}\""
        )),
    }
}

/// A run command must say what it runs: the program built or the source.
pub fn check_run(text: &str) -> Result<String, String> {
    match (text.contains("{src}") || text.contains("{out}"), shlex::split(text)) {
        (_, None) => Err(format!("cannot split \"{text}\" into words: check its quotes")),
        (true, Some(_)) => Ok(text.to_string()),
        (false, Some(_)) => Err(format!(
            "the run command must name {{out}} (the program built) or {{src}} (the source), like \"ruby {{src}}\"; found \"{text}\""
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_aliases_pick_a_language() {
        assert_eq!(Language::parse("PyPy3"), Ok(Language::PyPy));
        assert_eq!(Language::parse("c++"), Ok(Language::Cpp));
        assert_eq!(Language::parse("node"), Ok(Language::JavaScript));
        assert!(Language::parse("cobol").unwrap_err().contains("use one of c, cpp, rust"));
        for l in Language::ALL {
            assert_eq!(Language::parse(l.name()), Ok(l));
            assert!(!l.tools().is_empty(), "{l:?} names the programs it needs");
        }
    }

    #[test]
    fn the_jvm_rows_bound_the_heap_by_the_memory_limit() {
        for l in [Language::Java, Language::Kotlin] {
            assert!(l.run_command().contains("-Xmx{memory_mib}m"), "{}", l.run_command());
        }
        assert!(Language::Java.run_command().ends_with("-cp {out} {class}"));
    }

    #[test]
    fn tables_are_checked_field_by_field() {
        let parse = |text: &str| parse_tables(&toml::from_str::<toml::Table>(text).unwrap());
        let ok = parse("[pas]\nbuild = \"fpc -o{out} {src}\"\nrun = \"{out}\"\n").unwrap();
        assert_eq!(ok[0].0, "pas");
        assert_eq!(ok[0].1.build.as_deref(), Some("fpc -o{out} {src}"));
        assert_eq!(parse("[py]\nlang = \"pypy\"\n").unwrap()[0].1.preset, Some(Language::PyPy));
        assert!(parse("[rb]\n").unwrap_err().contains("give `run`"));
        assert!(parse("[rb]\nrun = \"ruby 'x\"\n").unwrap_err().contains("check its quotes"));
        assert!(parse("[\".rb\"]\nrun = \"ruby {src}\"\n").unwrap_err().contains("without the dot"));
    }

    #[test]
    fn an_unknown_extension_has_no_toolchain_until_given_one() {
        let none = Languages::default();
        assert_eq!(toolchain(Path::new("a.zig"), None, &none), None);
        let built = toolchain(Path::new("a.zig"), Some("zig build-exe -femit-bin={out} {src}"), &none).unwrap();
        assert_eq!(built.run, "{out}");
        let mut languages = Languages::default();
        languages.set("zzlang", Custom { run: Some("zzrun {src}".into()), ..Custom::default() });
        // What one round was told is its own: another round's languages know nothing of it.
        assert_eq!(toolchain(Path::new("a.zzlang"), None, &none), None);
        let custom = toolchain(Path::new("a.zzlang"), None, &languages).unwrap();
        assert_eq!((custom.build, custom.run.as_str()), (None, "zzrun {src}"));
        assert_eq!(custom.tools, [("zzrun".to_string(), String::new())]);
        assert!(missing(&custom.tools, Path::new("a.zzlang")).unwrap().contains("`zzrun` is not installed"));
    }
}
