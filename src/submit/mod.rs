//! `judge submit`: the solver file cut down to what one judge's input needs, small enough
//! for its source limit.
//!
//! The full file, `src/bin/sudoku.rs`, stays the one source of truth; a tailored file is
//! derived from it on every call and never stored. Three passes, each its own module:
//!
//! 1. [`cfg`]: the file marks its optional parts with `#[cfg(not(without = "part"))]`
//!    (whole engines as `mod` blocks, and the dispatch's arms and statements that reach
//!    them); a tailoring names the parts it leaves out, and they are removed.
//! 2. [`prune`]: whatever `main` no longer reaches (helpers of the parts left out, the
//!    command line, the explanations on stderr) is removed too.
//! 3. [`rename`]: the names the file defines get one- or two-letter spellings.
//! 4. [`minify`]: the rest is printed without comments, doc comments or indentation.
//!
//! The file is parsed and printed with `syn` and `proc-macro2`, never edited as text. A
//! tailored file keeps the full file's data types whole, so a field or variant only a part
//! left out would read is still there: the file opens with `#![allow(dead_code)]` for
//! them, and compiles with no other warning (the tests build every tailored file with
//! `-D warnings` and compare its answers with the full file's on its problem's suite).

pub mod cfg;
pub mod minify;
pub mod prune;
pub mod rename;

use quote::ToTokens;

/// The solver file, as built into `judge` (so `judge submit` works wherever `judge` does).
pub const SOLVER_SOURCE: &str = include_str!("../bin/sudoku.rs");

/// The parts of the solver file a tailoring can leave out, as its `without` cfgs name them.
pub const PARTS: [(&str, &str); 7] = [
    ("cli", "the command line (help, --count): judges pass no arguments"),
    ("notes", "explanations on stderr of a case without solution"),
    ("nine", "the 9x9 engine and its fast path for puzzle lines"),
    ("canvas", "canvas reading and the coupled-boards engine (Samurai and other gattai)"),
    ("sat", "the SAT engine that takes over when a search's guess budget runs out"),
    ("chains", "the SAT engine's units implied along lines of three grids or more in a row (no Samurai has them)"),
    ("sixteen", "16x16 reading and engine"),
];

/// The solver file without the parts in `without`, ready to paste: one header comment
/// line, then compact Rust.
pub fn tailor(source: &str, without: &[&str], header: &str) -> Result<String, String> {
    if let Some(unknown) = without.iter().find(|p| !PARTS.iter().any(|(name, _)| name == *p)) {
        return Err(format!("unknown part '{unknown}' of the solver file"));
    }
    let mut file = syn::parse_file(source).map_err(|e| format!("the solver file does not parse: {e}"))?;
    cfg::apply(&mut file, without)?;
    prune::apply(&mut file);
    file.attrs.retain(|a| !a.path().is_ident("doc"));
    let tokens = rename::apply(&file, file.to_token_stream());
    let body = minify::print(tokens);
    Ok(format!("// {header}\n#![allow(dead_code)]\n{body}"))
}

/// The parts a submission to `problem` leaves out: those its input style does not need.
pub fn left_out(problem: &crate::problems::Problem) -> Vec<&'static str> {
    problem.without().to_vec()
}

/// The file to submit to `problem`'s judge.
pub fn for_problem(problem: &crate::problems::Problem) -> Result<String, String> {
    let header = format!(
        "sudoku-judge {}: src/bin/sudoku.rs cut by `judge submit {}` to what its input needs",
        env!("CARGO_PKG_VERSION"),
        problem.name
    );
    tailor(SOLVER_SOURCE, &left_out(problem), &header)
}

/// What `judge submit` says on stderr about a file of `bytes` for `problem`: its size
/// against the judge's limit, and the languages the judge takes. `Err` when the file is
/// over the limit.
pub fn summary(problem: &crate::problems::Problem, bytes: usize) -> Result<String, String> {
    let s = &problem.submission;
    let mut lines = vec![format!("{}: {bytes} bytes (left out: {})", problem.name, left_out(problem).join(", "))];
    if s.judge.is_empty() {
        lines.push("no judge hosts this problem: the file is for your own judge or contest".into());
        return Ok(lines.join("\n") + "\n");
    }
    let over = match s.source_limit {
        Some((limit, from)) => {
            let verdict = if bytes as u64 > limit { "OVER it" } else { "within it" };
            lines.push(format!("source limit: {limit} bytes ({from}): {verdict}"));
            bytes as u64 > limit
        }
        None => {
            lines.push(format!("source limit: not captured for {}", s.judge));
            false
        }
    };
    lines.push(match s.takes_rust {
        Some(false) => format!(
            "{judge} takes no Rust ({langs}): this file is for judges that mirror its format, e.g. AcWing; for {judge} \
             itself write C or C++, and judge it here first: judge --problem {name} --solver main.cpp",
            judge = s.judge,
            langs = s.languages,
            name = problem.name
        ),
        Some(true) => format!("{} takes Rust ({})", s.judge, s.languages),
        None => format!("{}: {}", s.judge, s.languages),
    });
    if let Some(build) = s.rust_build {
        lines.push(format!("{} builds Rust with: {build}", s.judge));
    }
    let text = lines.join("\n") + "\n";
    if over {
        Err(text)
    } else {
        Ok(text)
    }
}

#[cfg(test)]
mod tests;
