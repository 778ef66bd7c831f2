//! The files a file-I/O case names in `case.toml` (`input_file`, `output_file`) or on the
//! command line: the case's word, which the run in `src/fileio.rs` acts on.

/// The files a problem reads and writes instead of stdin and stdout (either may be unset).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Files {
    pub input: Option<String>,
    pub output: Option<String>,
}

impl Files {
    pub fn is_empty(&self) -> bool {
        self.input.is_none() && self.output.is_none()
    }

    /// These names, each laid over `outer`'s.
    pub fn over(&self, outer: &Files) -> Files {
        Files {
            input: self.input.clone().or_else(|| outer.input.clone()),
            output: self.output.clone().or_else(|| outer.output.clone()),
        }
    }
}

/// Checks a file name a problem reads or writes: a plain name in the working folder.
pub fn parse_name(text: &str) -> Result<String, String> {
    let name = text.trim();
    if name.is_empty() || name == "." || name == ".." || name.contains(['/', '\\', '\0']) {
        return Err(format!("'{text}' is not a file name: give a plain name such as input.txt or castle.in"));
    }
    Ok(name.to_string())
}
