//! The transcript of an interactive case: the last lines each way between the solver and
//! the interactor, bounded in lines and bytes however much they say, and which of the two
//! hung up first.

use crate::exec::{StreamEnd, Tap};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

/// One of the two programs of an interactive case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Solver,
    Interactor,
}

impl Side {
    fn index(self) -> usize {
        self as usize
    }

    fn other(self) -> Side {
        match self {
            Side::Solver => Side::Interactor,
            Side::Interactor => Side::Solver,
        }
    }
}

/// Lines kept of each side's output: enough to see the last exchange.
pub const LINES_EACH_WAY: usize = 6;
/// Bytes kept of a line.
pub const LINE_BYTES: usize = 120;

/// The tail of both streams, in the order the lines were written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Transcript {
    /// Finished lines, oldest first, each with its writer and whether it was cut.
    lines: VecDeque<(Side, Vec<u8>, bool)>,
    /// Each side's line still being written (no newline yet), and whether it was cut.
    partial: [(Vec<u8>, bool); 2],
    /// Lines of each side no longer kept.
    dropped: [u64; 2],
    /// The side that hung up first: ended, or closed the stream the other one writes to.
    pub first_to_end: Option<Side>,
}

impl Transcript {
    /// Adds what `from` wrote.
    pub fn passed(&mut self, from: Side, mut chunk: &[u8]) {
        while !chunk.is_empty() {
            let end = chunk.iter().position(|&b| b == b'\n');
            let piece = &chunk[..end.unwrap_or(chunk.len())];
            let (line, cut) = &mut self.partial[from.index()];
            let room = LINE_BYTES.saturating_sub(line.len());
            line.extend_from_slice(&piece[..piece.len().min(room)]);
            *cut |= piece.len() > room;
            let Some(end) = end else { return };
            let done = std::mem::take(&mut self.partial[from.index()]);
            self.push(from, done.0, done.1);
            chunk = &chunk[end + 1..];
        }
    }

    fn push(&mut self, from: Side, line: Vec<u8>, cut: bool) {
        self.lines.push_back((from, line, cut));
        if self.lines.iter().filter(|(s, _, _)| *s == from).count() > LINES_EACH_WAY {
            if let Some(oldest) = self.lines.iter().position(|(s, _, _)| *s == from) {
                self.lines.remove(oldest);
                self.dropped[from.index()] += 1;
            }
        }
    }

    /// Records that the stream `from` writes ended as `how` says; only the first end counts.
    pub fn ended(&mut self, from: Side, how: StreamEnd) {
        let gone = match how {
            StreamEnd::Closed | StreamEnd::Overflow => from,
            StreamEnd::Refused => from.other(),
        };
        self.first_to_end.get_or_insert(gone);
    }

    /// Whether nothing passed either way.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty() && self.partial.iter().all(|(p, _)| p.is_empty())
    }

    /// The kept lines in the order they were written, then each side's line still open:
    /// (writer, bytes, cut at `LINE_BYTES`, still open).
    fn entries(&self) -> impl Iterator<Item = (Side, &Vec<u8>, bool, bool)> + '_ {
        let unfinished = [Side::Solver, Side::Interactor]
            .into_iter()
            .map(|s| (s, &self.partial[s.index()]))
            .filter(|(_, (line, _))| !line.is_empty())
            .map(|(s, (line, cut))| (s, line, *cut, true));
        self.lines.iter().map(|(s, line, cut)| (*s, line, *cut, false)).chain(unfinished)
    }

    /// The transcript for a report: `>` the solver's lines, `<` the interactor's, each made
    /// harmless for a terminal (see [`crate::tame::tame`]).
    pub fn show(&self) -> String {
        let mut out = String::from("transcript (last lines; > solver to interactor, < interactor to solver):\n");
        let dropped: u64 = self.dropped.iter().sum();
        if dropped > 0 {
            out += &format!("  ... {dropped} earlier lines\n");
        }
        for (side, line, cut, open) in self.entries() {
            let mark = if side == Side::Solver { '>' } else { '<' };
            let text = crate::tame::tame(&String::from_utf8_lossy(line)).replace('\t', "\\t");
            let more = if cut { "…" } else { "" };
            let open = if open { "  (no newline yet)" } else { "" };
            out += &format!("  {mark} {text}{more}{open}\n");
        }
        if self.is_empty() {
            out += "  (nothing passed either way)\n";
        }
        out
    }
}

/// In `--json`: the kept lines in order (`from`, `text`, whether `cut` at `LINE_BYTES`, whether
/// `complete` with its newline), how many earlier lines were dropped, and who hung up first.
impl serde::Serialize for Transcript {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let lines: Vec<serde_json::Value> = self
            .entries()
            .map(|(from, line, cut, open)| {
                serde_json::json!({
                    "from": from, "text": String::from_utf8_lossy(line), "cut": cut, "complete": !open,
                })
            })
            .collect();
        let doc = serde_json::json!({
            "dropped_lines": self.dropped.iter().sum::<u64>(),
            "lines": lines,
            "first_to_end": self.first_to_end,
        });
        doc.serialize(serializer)
    }
}

/// One direction of a case's exchange, as [`crate::exec`] relays it.
pub struct Direction {
    pub from: Side,
    pub transcript: Arc<Mutex<Transcript>>,
}

impl Tap for Direction {
    fn passed(&mut self, chunk: &[u8]) {
        self.transcript.lock().unwrap_or_else(|p| p.into_inner()).passed(self.from, chunk);
    }

    fn ended(&mut self, how: StreamEnd) {
        self.transcript.lock().unwrap_or_else(|p| p.into_inner()).ended(self.from, how);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_lines_each_way_are_kept_in_order_and_bounded() {
        let mut t = Transcript::default();
        t.passed(Side::Interactor, b"9\n");
        for i in 0..10 {
            t.passed(Side::Solver, format!("? {i} 1\n").as_bytes());
            t.passed(Side::Interactor, b"5\n");
        }
        t.passed(Side::Solver, &[b'x'; 500]);
        let shown = t.show();
        assert!(shown.contains("... 9 earlier lines"), "{shown}");
        assert!(!shown.contains("? 3 1") && shown.contains("? 4 1\n  < 5"), "{shown}");
        assert!(shown.ends_with(&format!("  > {}…  (no newline yet)\n", "x".repeat(LINE_BYTES))), "{shown}");
    }

    #[test]
    fn control_characters_are_shown_escaped() {
        let mut t = Transcript::default();
        t.passed(Side::Solver, b"\x1b[2J\r\n");
        assert!(t.show().contains("> \\x1B[2J\\x0D\n"), "{}", t.show());
    }

    #[test]
    fn the_first_hang_up_is_the_one_kept() {
        let mut t = Transcript::default();
        t.ended(Side::Solver, StreamEnd::Refused);
        t.ended(Side::Interactor, StreamEnd::Closed);
        assert_eq!(t.first_to_end, Some(Side::Interactor));
        let mut t = Transcript::default();
        t.ended(Side::Solver, StreamEnd::Closed);
        t.ended(Side::Interactor, StreamEnd::Closed);
        assert_eq!(t.first_to_end, Some(Side::Solver));
    }
}
