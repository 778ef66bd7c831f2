//! A run's stdout, spooled to a temporary file as it arrives.
//!
//! The judge never holds a whole output in memory: a solver may print up to the output limit
//! (64 MiB by default, any size if asked), and ten thousand cases may run in one go. The
//! output goes to an unnamed-on-drop temporary file; only a bounded head stays in memory for
//! reports. Checkers read the file as a stream ([`Spool::reader`]) or, for an external
//! checker, by its path.

use std::io::{self, BufRead, BufReader, Write};
use std::path::Path;
use std::sync::Arc;

/// How much of the start of an output stays in memory.
pub const HEAD_KEEP: usize = 64 * 1024;

/// A finished output: its length, its head, and the file holding all of it.
#[derive(Clone, Debug, Default)]
pub struct Spool {
    /// `None` for an output that was never captured (a run that did not start).
    file: Option<Arc<tempfile::NamedTempFile>>,
    len: u64,
    head: Vec<u8>,
}

impl Spool {
    /// A spool holding `bytes` (for tests and for callers that already have the output).
    pub fn from_bytes(bytes: &[u8]) -> io::Result<Spool> {
        let mut writer = SpoolWriter::new()?;
        writer.write(bytes);
        writer.finish()
    }

    /// Bytes in the output.
    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The first [`HEAD_KEEP`] bytes at most.
    pub fn head(&self) -> &[u8] {
        &self.head
    }

    /// Where the whole output is, for a program that wants a file.
    pub fn path(&self) -> Option<&Path> {
        self.file.as_ref().map(|f| f.path())
    }

    /// The whole output from its start, read as a stream (each call starts over).
    pub fn reader(&self) -> io::Result<BufReader<std::fs::File>> {
        match &self.file {
            Some(f) => Ok(BufReader::with_capacity(1 << 16, f.reopen()?)),
            None => Ok(BufReader::new(tempfile::tempfile()?)),
        }
    }

    /// The whole output in memory: for tests and snapshots of small outputs only.
    pub fn read_all(&self) -> io::Result<Vec<u8>> {
        let mut all = Vec::new();
        io::Read::read_to_end(&mut self.reader()?, &mut all)?;
        Ok(all)
    }
}

/// Collects an output as it arrives. A write error (a full disk) is kept and reported by
/// [`SpoolWriter::finish`]; later chunks are still counted, so the length stays right.
pub struct SpoolWriter {
    file: io::BufWriter<tempfile::NamedTempFile>,
    len: u64,
    head: Vec<u8>,
    error: Option<io::Error>,
}

impl SpoolWriter {
    pub fn new() -> io::Result<SpoolWriter> {
        let file = tempfile::Builder::new().prefix("judge-output-").tempfile_in(crate::interrupt::temp_root())?;
        Ok(SpoolWriter { file: io::BufWriter::with_capacity(1 << 16, file), len: 0, head: Vec::new(), error: None })
    }

    /// Bytes received so far.
    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn write(&mut self, chunk: &[u8]) {
        self.len += chunk.len() as u64;
        let room = HEAD_KEEP.saturating_sub(self.head.len()).min(chunk.len());
        self.head.extend_from_slice(&chunk[..room]);
        if self.error.is_none() {
            if let Err(e) = self.file.write_all(chunk) {
                self.error = Some(e);
            }
        }
    }

    pub fn finish(self) -> io::Result<Spool> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let file = self.file.into_inner().map_err(|e| e.into_error())?;
        Ok(Spool { file: Some(Arc::new(file)), len: self.len, head: self.head })
    }
}

impl std::fmt::Debug for SpoolWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SpoolWriter").field("len", &self.len).finish_non_exhaustive()
    }
}

/// Lines `from..from + count` (1-based) of `source`, each with its line ending, each cut at
/// `max_line` bytes (marked `...`): a window for a diff, bounded whatever the file. The flag
/// says whether the source goes on after the window.
pub fn window(mut source: impl BufRead, from: u64, count: usize, max_line: usize) -> io::Result<(Vec<u8>, bool)> {
    let mut out = Vec::new();
    let (mut line_no, mut kept, mut dropped) = (1u64, 0usize, false);
    while line_no < from + count as u64 {
        let buf = source.fill_buf()?;
        if buf.is_empty() {
            if dropped {
                out.extend_from_slice(b"...");
            }
            break;
        }
        let newline = buf.iter().position(|&b| b == b'\n');
        let end = newline.map_or(buf.len(), |i| i + 1);
        if line_no >= from {
            let body = &buf[..newline.unwrap_or(end)];
            let take = max_line.saturating_sub(kept).min(body.len());
            out.extend_from_slice(&body[..take]);
            kept += take;
            dropped |= take < body.len();
            if newline.is_some() {
                if dropped {
                    out.extend_from_slice(b"...");
                }
                out.push(b'\n');
            }
        }
        source.consume(end);
        if newline.is_some() {
            line_no += 1;
            kept = 0;
            dropped = false;
        }
    }
    let more = !source.fill_buf()?.is_empty();
    Ok((out, more))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spool_keeps_everything_on_disk_and_a_bounded_head() {
        let big: Vec<u8> = (0..200_000u32).map(|i| b'a' + (i % 26) as u8).collect();
        let spool = Spool::from_bytes(&big).unwrap();
        assert_eq!(spool.len(), big.len() as u64);
        assert_eq!(spool.head(), &big[..HEAD_KEEP]);
        assert_eq!(spool.read_all().unwrap(), big);
        // Each reader starts over.
        assert_eq!(spool.read_all().unwrap().len(), big.len());
        assert!(spool.path().is_some_and(|p| p.exists()));
    }

    #[test]
    fn a_window_is_the_lines_asked_for_cut_to_size() {
        let text = b"one\ntwo\nthree\nfour\nfive";
        assert_eq!(window(&text[..], 2, 2, 100).unwrap(), (b"two\nthree\n".to_vec(), true));
        assert_eq!(window(&text[..], 4, 10, 100).unwrap(), (b"four\nfive".to_vec(), false));
        assert_eq!(window(&text[..], 3, 1, 2).unwrap(), (b"th...\n".to_vec(), true));
        assert_eq!(window(&text[..], 9, 1, 2).unwrap(), (Vec::new(), false));
    }
}
