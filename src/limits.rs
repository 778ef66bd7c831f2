//! Limits a solver runs under (time, memory, output) and the parsing of their written forms.

use std::fmt;
use std::time::Duration;

/// The limits of one case. Defaults are POJ 2676's: 2000 ms and 65536 KiB.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Limits {
    /// CPU time (user + system) the solver may use.
    #[serde(serialize_with = "as_millis")]
    pub time: Duration,
    /// Peak resident memory, in KiB.
    pub memory_kib: u64,
    /// Bytes of standard output read before the run is stopped as OLE.
    pub output_bytes: u64,
    /// Tasks (processes and threads) a sandboxed run may have alive at once; past it, `fork`
    /// and `clone` fail inside the run (a cgroup's `pids.max`).
    pub processes: u64,
    /// More runs than cores at once stretch the wall-clock limit by this factor, so that
    /// waiting for a CPU is never taken for sleeping. TLE is decided by CPU time.
    #[serde(skip)]
    pub wall_factor: u32,
    /// The wall-clock limit asked for (`--wall-limit`, `wall_limit`), instead of the default.
    #[serde(skip)]
    pub wall: Option<Duration>,
}

fn as_millis<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u64(d.as_millis() as u64)
}

/// Tasks a run may have at once by default: far above what an honest program makes (a JVM
/// on a large machine runs some 50 threads, Python's `Pool()` one process a core), far below
/// the machine's PID space (32,768 by default), so a fork bomb leaves the machine usable.
pub const DEFAULT_PROCESSES: u64 = 256;

/// Parses a process limit: a whole number from 1 up.
pub fn parse_processes(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(n) if (1..=1 << 22).contains(&n) => Ok(n),
        _ => Err(format!("cannot read '{text}' as a process limit: write a whole number of tasks from 1, like 64")),
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            time: Duration::from_millis(2000),
            memory_kib: 65536,
            output_bytes: 64 << 20,
            processes: DEFAULT_PROCESSES,
            wall_factor: 1,
            wall: None,
        }
    }
}

impl Limits {
    /// When the watchdog kills a run whatever its CPU time: the limit asked for, else
    /// max(2 x TL, TL + 1 s), so that a sleeping or blocked solver still ends, with room for
    /// start-up noise. Time a run spends waiting for a CPU (a busy machine) is not counted
    /// against it (see [`crate::exec`]).
    pub fn wall_limit(&self) -> Duration {
        match self.wall {
            Some(wall) => wall,
            None => (self.time * 2).max(self.time + Duration::from_secs(1)) * self.wall_factor.max(1),
        }
    }
}

/// A limit written in a form we do not accept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LimitError {
    text: String,
    accepted: &'static str,
}

impl fmt::Display for LimitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot read '{}' as a limit: write {}", self.text, self.accepted)
    }
}

impl std::error::Error for LimitError {}

const TIME_FORMS: &str = "a positive number with a unit, like 2s, 1.5s or 1500ms";
const SIZE_FORMS: &str = "a positive number with a unit, like 64MiB, 65536KiB, 1GiB or 512B";

/// Splits "1500ms" into (1500.0, "ms").
fn number_and_unit(text: &str) -> Option<(f64, &str)> {
    let t = text.trim();
    let end = t.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(t.len());
    let number: f64 = t[..end].parse().ok()?;
    (number.is_finite() && number > 0.0).then_some((number, t[end..].trim()))
}

/// Parses `2s`, `1.5s`, `1500ms`. A bare number is refused: "2" could mean either.
pub fn parse_time(text: &str) -> Result<Duration, LimitError> {
    let err = || LimitError { text: text.to_string(), accepted: TIME_FORMS };
    let (n, unit) = number_and_unit(text).ok_or_else(err)?;
    let secs = match unit {
        "ms" => n / 1000.0,
        "s" | "sec" => n,
        // oj's `-t 2` and judges' pages mean seconds; say so rather than guess.
        "" => return Err(LimitError { text: text.to_string(), accepted: "a unit: 2s for seconds, or 2ms" }),
        _ => return Err(err()),
    };
    if secs > 3600.0 {
        return Err(LimitError { text: text.to_string(), accepted: "at most 3600s" });
    }
    // Limits are kept in whole milliseconds: less would be a limit of zero.
    if secs < 0.001 {
        return Err(LimitError { text: text.to_string(), accepted: "at least 1ms" });
    }
    Ok(Duration::from_secs_f64(secs))
}

/// Parses a size into bytes: `B`, `KiB`/`KB`/`K`, `MiB`/`MB`/`M`, `GiB`/`GB`/`G`, all
/// binary (judges say kB and mean KiB).
pub fn parse_size(text: &str) -> Result<u64, LimitError> {
    let err = || LimitError { text: text.to_string(), accepted: SIZE_FORMS };
    let (n, unit) = number_and_unit(text).ok_or_else(err)?;
    let scale: f64 = match unit.to_ascii_lowercase().as_str() {
        "b" => 1.0,
        "k" | "kb" | "kib" => 1024.0,
        "m" | "mb" | "mib" => 1024.0 * 1024.0,
        "g" | "gb" | "gib" => 1024.0 * 1024.0 * 1024.0,
        _ => return Err(err()),
    };
    let bytes = n * scale;
    if bytes > 1024.0 * 1024.0 * 1024.0 * 1024.0 {
        return Err(LimitError { text: text.to_string(), accepted: "at most 1TiB" });
    }
    if bytes < 1.0 {
        return Err(LimitError { text: text.to_string(), accepted: "at least 1B" });
    }
    Ok(bytes as u64)
}

/// A memory limit: a size of at least 1 KiB, since memory is counted in KiB.
pub fn parse_memory(text: &str) -> Result<u64, LimitError> {
    let bytes = parse_size(text)?;
    if bytes < 1024 {
        return Err(LimitError { text: text.to_string(), accepted: "at least 1KiB" });
    }
    Ok(bytes)
}

/// Shows KiB as a person reads them: `812 KiB`, `63.9 MiB`.
pub fn show_kib(kib: u64) -> String {
    if kib < 10 * 1024 {
        format!("{kib} KiB")
    } else {
        format!("{:.1} MiB", kib as f64 / 1024.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_in_every_accepted_form() {
        assert_eq!(parse_time("2s").unwrap(), Duration::from_secs(2));
        assert_eq!(parse_time("1500ms").unwrap(), Duration::from_millis(1500));
        assert_eq!(parse_time("0.5s").unwrap(), Duration::from_millis(500));
    }

    #[test]
    fn limits_that_round_to_zero_are_refused() {
        assert!(parse_time("0.1ms").unwrap_err().to_string().contains("at least 1ms"));
        assert!(parse_size("0.5B").is_err());
        assert!(parse_size("0.0001KiB").is_err());
        assert!(parse_memory("512B").unwrap_err().to_string().contains("at least 1KiB"));
        assert_eq!(parse_memory("1KiB").unwrap(), 1024);
        assert_eq!(parse_size("1B").unwrap(), 1);
        assert!(parse_time("2").unwrap_err().to_string().contains("2s for seconds"));
    }

    #[test]
    fn times_refused_with_the_accepted_forms() {
        for bad in ["2", "", "-1s", "1h", "ms", "0s", "nan s", "99999s"] {
            let e = parse_time(bad).unwrap_err().to_string();
            assert!(e.contains(bad) && e.contains("write"), "{bad}: {e}");
        }
    }

    #[test]
    fn sizes_are_binary() {
        assert_eq!(parse_size("64MiB").unwrap(), 64 << 20);
        assert_eq!(parse_size("65536KiB").unwrap(), 64 << 20);
        assert_eq!(parse_size("65536kB").unwrap(), 64 << 20);
        assert_eq!(parse_size("1G").unwrap(), 1 << 30);
        assert!(parse_size("64").is_err());
        assert!(parse_size("64 parsecs").is_err());
    }

    #[test]
    fn wall_limit_leaves_room() {
        let l = Limits { time: Duration::from_millis(200), ..Limits::default() };
        assert_eq!(l.wall_limit(), Duration::from_millis(1200));
        assert_eq!(Limits::default().wall_limit(), Duration::from_secs(4));
    }
}
