//! How `case.toml`'s `subcases` key says a multi-test file is cut into tests: the case's
//! word, read with the rest of its settings, which the subcases step (`src/subcases.rs`) acts on
//! after a failed run.

/// How a multi-test file is cut into tests.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Split {
    #[default]
    Auto,
    /// Declared multi-test: a count, then T tests.
    On,
    Off,
    Custom {
        separator: Option<String>,
        input_lines: Option<usize>,
        answer_lines: Option<usize>,
        /// Each test is worth an equal share of the case's points: a file with some tests
        /// right is PC, not WA.
        points: bool,
    },
}

impl Split {
    /// Whether each test earns its share of the case's points.
    pub fn per_test_points(&self) -> bool {
        matches!(self, Split::Custom { points: true, .. })
    }

    /// Reads case.toml's `subcases`: `"auto"`, `"on"`, `"off"` or a table.
    pub fn parse(value: &toml::Value) -> Result<Split, String> {
        match value {
            toml::Value::String(s) if s == "auto" => Ok(Split::Auto),
            toml::Value::String(s) if s == "off" => Ok(Split::Off),
            toml::Value::String(s) if s == "on" => Ok(Split::On),
            toml::Value::Table(t) => {
                let lines = |key: &str| -> Result<Option<usize>, String> {
                    match t.get(key) {
                        None => Ok(None),
                        Some(toml::Value::Integer(n)) if *n >= 1 => Ok(Some(*n as usize)),
                        Some(_) => Err(format!("{key} must be a number of lines, 1 or more")),
                    }
                };
                let separator = match t.get("separator") {
                    None => None,
                    Some(toml::Value::String(s)) if !s.contains('\n') => Some(s.trim().to_string()),
                    Some(_) => return Err("separator must be one line of text (\"\" for a blank line)".into()),
                };
                let known = ["separator", "input_lines", "answer_lines", "points"];
                if let Some(key) = t.keys().find(|k| !known.contains(&k.as_str())) {
                    return Err(format!("unknown key {key}: use separator, input_lines, answer_lines or points"));
                }
                let points = match t.get("points") {
                    None => false,
                    Some(toml::Value::String(s)) if s == "per-test" => true,
                    Some(_) => return Err("points = \"per-test\" is the one choice (each test an equal share)".into()),
                };
                Ok(Split::Custom {
                    separator,
                    input_lines: lines("input_lines")?,
                    answer_lines: lines("answer_lines")?,
                    points,
                })
            }
            _ => Err("use \"auto\", \"on\", \"off\" or a table such as { separator = \"\" }".into()),
        }
    }
}
