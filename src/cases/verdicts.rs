//! The verdicts' names ([`Verdict`]): what a case's `expect` says it should earn, and what the
//! judge (`src/verdict.rs`, which hands them on) gives it. Defined with the case, so that
//! reading `case.toml` needs nothing of the stage that judges.

/// What a case earned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Verdict {
    /// Accepted: the checker agreed with the output.
    #[serde(rename = "AC")]
    Ac,
    /// Wrong answer.
    #[serde(rename = "WA")]
    Wa,
    /// Presentation error: right tokens, wrong layout.
    #[serde(rename = "PE")]
    Pe,
    /// Partially correct: a checker gave part of the case's points.
    #[serde(rename = "PC")]
    Pc,
    /// Time limit exceeded (CPU time over the limit, or killed by the wall-clock watchdog).
    #[serde(rename = "TLE")]
    Tle,
    /// Memory limit exceeded (peak resident memory over the limit).
    #[serde(rename = "MLE")]
    Mle,
    /// Output limit exceeded.
    #[serde(rename = "OLE")]
    Ole,
    /// Runtime error: non-zero exit or a signal.
    #[serde(rename = "RE")]
    Re,
    /// Internal error: the case or the checker could not be used.
    #[serde(rename = "IE")]
    Ie,
    /// Compile error: the solver's source did not build.
    #[serde(rename = "CE")]
    Ce,
    /// Ran cleanly with nothing to compare against.
    #[serde(rename = "OK")]
    Ok,
    /// Skipped (after `--fail-fast`).
    #[serde(rename = "SK")]
    Sk,
}

pub const ALL_VERDICTS: [Verdict; 12] = [
    Verdict::Ac,
    Verdict::Wa,
    Verdict::Pe,
    Verdict::Pc,
    Verdict::Tle,
    Verdict::Mle,
    Verdict::Ole,
    Verdict::Re,
    Verdict::Ie,
    Verdict::Ce,
    Verdict::Ok,
    Verdict::Sk,
];

impl Verdict {
    pub fn code(self) -> &'static str {
        match self {
            Verdict::Ac => "AC",
            Verdict::Wa => "WA",
            Verdict::Pe => "PE",
            Verdict::Pc => "PC",
            Verdict::Tle => "TLE",
            Verdict::Mle => "MLE",
            Verdict::Ole => "OLE",
            Verdict::Re => "RE",
            Verdict::Ie => "IE",
            Verdict::Ce => "CE",
            Verdict::Ok => "OK",
            Verdict::Sk => "SK",
        }
    }

    pub fn parse(text: &str) -> Result<Verdict, String> {
        ALL_VERDICTS.iter().copied().find(|v| v.code().eq_ignore_ascii_case(text.trim())).ok_or_else(|| {
            let names: Vec<&str> = ALL_VERDICTS.iter().map(|v| v.code()).collect();
            format!("unknown verdict '{text}': use one of {}", names.join(", "))
        })
    }

    /// Whether this verdict, with no expectation set, counts as passed.
    pub fn is_pass(self) -> bool {
        matches!(self, Verdict::Ac | Verdict::Ok)
    }

    /// Rank in the precedence order (higher wins when several apply).
    pub fn rank(self) -> u8 {
        match self {
            Verdict::Ie => 10,
            Verdict::Ce => 9,
            Verdict::Mle => 8,
            Verdict::Tle => 7,
            Verdict::Ole => 6,
            Verdict::Re => 5,
            Verdict::Pe | Verdict::Wa | Verdict::Pc => 4,
            Verdict::Ac => 3,
            Verdict::Ok => 2,
            Verdict::Sk => 1,
        }
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}
