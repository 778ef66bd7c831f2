//! Which built-in checker a case asks for ([`CheckerKind`]), as `case.toml`'s `checker` key
//! and `--checker` spell it: the case's word, which the checkers in `src/check.rs` act on.

/// The built-in checkers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CheckerKind {
    Lines,
    Exact,
    Tokens,
    Sudoku,
    /// Numbers within 10^-N, absolute or relative; other words exactly.
    Float(u8),
}

/// Each built-in checker's name, as `--checker` and `case.toml` spell it (`floatN` aside).
const KIND_NAMES: [(&str, CheckerKind); 5] = [
    ("lines", CheckerKind::Lines),
    ("exact", CheckerKind::Exact),
    ("tokens", CheckerKind::Tokens),
    ("sudoku", CheckerKind::Sudoku),
    ("float", CheckerKind::Float(6)),
];

impl CheckerKind {
    pub fn parse(text: &str) -> Result<CheckerKind, String> {
        if let Some(kind) = KIND_NAMES.iter().find(|(name, _)| *name == text).map(|&(_, kind)| kind) {
            return Ok(kind);
        }
        match text.strip_prefix("float").map(str::parse::<u8>) {
            Some(Ok(digits @ 1..=15)) => Ok(CheckerKind::Float(digits)),
            // oj's `-c` is the command to test: say where that goes here.
            _ if text.contains(['/', ' ', '.']) => Err(format!(
                "unknown checker '{text}': -c is the checker here (oj's -c is the command: write --solver '{text}', \
                 or put the command after --)"
            )),
            _ => Err(format!(
                "unknown checker '{text}': use lines, exact, tokens, sudoku, float (1e-6) or floatN (1e-N, N from 1 to 15)"
            )),
        }
    }

    /// The name `parse` reads back.
    pub fn name(self) -> String {
        match self {
            CheckerKind::Float(6) => "float".into(),
            CheckerKind::Float(digits) => format!("float{digits}"),
            _ => KIND_NAMES.iter().find(|(_, kind)| *kind == self).map_or("lines", |(name, _)| name).into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checker_names_round_trip() {
        for (name, kind) in KIND_NAMES {
            assert_eq!((CheckerKind::parse(name), kind.name()), (Ok(kind), name.to_string()));
        }
        for digits in 1..=15 {
            let kind = CheckerKind::Float(digits);
            assert_eq!(CheckerKind::parse(&kind.name()), Ok(kind));
        }
        assert_eq!(CheckerKind::parse("float9"), Ok(CheckerKind::Float(9)));
        for bad in ["float0", "float16", "float-1", "floaty"] {
            assert!(CheckerKind::parse(bad).is_err(), "{bad}");
        }
        assert!(CheckerKind::parse("diff").unwrap_err().contains("use lines"));
    }
}
