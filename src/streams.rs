//! Outputs read as streams, in the normalized views the built-in checkers compare, with
//! memory independent of the size of a file or of any one line in it.
//!
//! - [`Raw`]: the bytes as they are (`exact`).
//! - [`NormalLines`]: every line's trailing CR, spaces and tabs dropped and trailing blank lines
//!   dropped (`lines`). Whether a run of spaces is trailing is known only at its end, so a long
//!   run is measured, then re-read from the file (hence `Seek`) instead of held in memory.
//! - [`Tokens`]: whitespace-separated words, joined by one space (`tokens`).
//! - [`LineCursor`]: normalized lines one at a time, each cut to a bounded length, for the
//!   `sudoku` checker.

use std::io::{self, BufRead, Seek, SeekFrom};

/// A stream of bytes in some normalized view.
pub trait ByteStream {
    fn next_byte(&mut self) -> io::Result<Option<u8>>;
}

fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r')
}

/// Reads one byte; `peek` leaves it in the buffer.
fn read_byte(src: &mut (impl BufRead + ?Sized)) -> io::Result<Option<u8>> {
    let b = peek_byte(src)?;
    if b.is_some() {
        src.consume(1);
    }
    Ok(b)
}

fn peek_byte(src: &mut (impl BufRead + ?Sized)) -> io::Result<Option<u8>> {
    loop {
        match src.fill_buf() {
            Ok(buf) => return Ok(buf.first().copied()),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// The bytes as they are.
pub struct Raw<R>(pub R);

impl<R: BufRead> ByteStream for Raw<R> {
    fn next_byte(&mut self) -> io::Result<Option<u8>> {
        read_byte(&mut self.0)
    }
}

/// Runs of blanks up to this long are kept in memory while deciding whether they trail.
const BLANKS_KEPT: usize = 4096;

/// The `lines` view: equal for two texts exactly when their lines are equal once each loses
/// its trailing CR, spaces and tabs and the text loses its trailing blank lines.
pub struct NormalLines<R> {
    src: R,
    /// Bytes read from `src` so far (where a run of blanks began, to re-read it).
    pos: u64,
    /// Line breaks seen but not yet known to be followed by content.
    pending_breaks: u64,
    /// Line breaks, then blanks, then one byte, known to be output.
    breaks: u64,
    blanks: Vec<u8>,
    blanks_at: usize,
    /// Bytes of a long run of blanks still to re-read from `src`.
    replay: u64,
    held: Option<u8>,
}

impl<R: BufRead + Seek> NormalLines<R> {
    pub fn new(src: R) -> Self {
        NormalLines {
            src,
            pos: 0,
            pending_breaks: 0,
            breaks: 0,
            blanks: Vec::new(),
            blanks_at: 0,
            replay: 0,
            held: None,
        }
    }

    fn read(&mut self) -> io::Result<Option<u8>> {
        let b = read_byte(&mut self.src)?;
        self.pos += u64::from(b.is_some());
        Ok(b)
    }
}

impl<R: BufRead + Seek> ByteStream for NormalLines<R> {
    fn next_byte(&mut self) -> io::Result<Option<u8>> {
        loop {
            if self.breaks > 0 {
                self.breaks -= 1;
                return Ok(Some(b'\n'));
            }
            if self.blanks_at < self.blanks.len() {
                self.blanks_at += 1;
                return Ok(Some(self.blanks[self.blanks_at - 1]));
            }
            if self.replay > 0 {
                self.replay -= 1;
                return self.read();
            }
            if let Some(b) = self.held.take() {
                return Ok(Some(b));
            }
            let Some(b) = self.read()? else { return Ok(None) };
            if b == b'\n' {
                self.pending_breaks += 1;
            } else if is_blank(b) {
                let start = self.pos - 1;
                self.blanks.clear();
                self.blanks_at = 0;
                self.blanks.push(b);
                let mut len = 1u64;
                while let Some(c) = peek_byte(&mut self.src)?.filter(|&c| is_blank(c)) {
                    self.read()?;
                    len += 1;
                    if self.blanks.len() < BLANKS_KEPT {
                        self.blanks.push(c);
                    }
                }
                if matches!(peek_byte(&mut self.src)?, None | Some(b'\n')) {
                    self.blanks.clear(); // trailing: dropped
                    continue;
                }
                self.breaks = std::mem::take(&mut self.pending_breaks);
                if len as usize > self.blanks.len() {
                    // Too long to have kept: read it again from where it began.
                    self.blanks.clear();
                    self.src.seek(SeekFrom::Start(start))?;
                    self.pos = start;
                    self.replay = len;
                }
            } else {
                self.breaks = std::mem::take(&mut self.pending_breaks);
                self.held = Some(b);
            }
        }
    }
}

/// The `tokens` view: words separated by one space.
pub struct Tokens<R> {
    src: R,
    started: bool,
    held: Option<u8>,
}

impl<R: BufRead> Tokens<R> {
    pub fn new(src: R) -> Self {
        Tokens { src, started: false, held: None }
    }
}

impl<R: BufRead> ByteStream for Tokens<R> {
    fn next_byte(&mut self) -> io::Result<Option<u8>> {
        if let Some(b) = self.held.take() {
            return Ok(Some(b));
        }
        let mut gap = false;
        loop {
            match read_byte(&mut self.src)? {
                None => return Ok(None),
                Some(b) if b.is_ascii_whitespace() => gap = true,
                Some(b) => {
                    if gap && self.started {
                        self.held = Some(b);
                        return Ok(Some(b' '));
                    }
                    self.started = true;
                    return Ok(Some(b));
                }
            }
        }
    }
}

/// Reads the next whitespace-separated word into `word` (at most `max` bytes of it); its whole
/// length and an FNV-1a hash of all of it, or `None` at the end. Memory stays bounded however
/// long a word is.
pub fn next_word(src: &mut (impl BufRead + ?Sized), word: &mut Vec<u8>, max: usize) -> io::Result<Option<(u64, u64)>> {
    word.clear();
    while peek_byte(src)?.is_some_and(|b| b.is_ascii_whitespace()) {
        src.consume(1);
    }
    let (mut len, mut hash) = (0u64, 0xcbf2_9ce4_8422_2325u64);
    while let Some(b) = peek_byte(src)?.filter(|b| !b.is_ascii_whitespace()) {
        src.consume(1);
        if word.len() < max {
            word.push(b);
        }
        len += 1;
        hash = (hash ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
    }
    Ok((len > 0).then_some((len, hash)))
}

/// Where two streams first differ, counted in lines of the view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// 1-based line and column of the first differing byte.
    pub line: u64,
    pub column: u64,
    /// Lines in each stream (a non-empty stream has one more than its line breaks).
    pub lines: (u64, u64),
    /// The line where they differ is whole in both: one stream simply has more lines.
    pub one_ends_first: bool,
}

/// Whether the two streams are equal; stops at the first difference.
pub fn same(a: &mut impl ByteStream, b: &mut impl ByteStream) -> io::Result<bool> {
    loop {
        let x = a.next_byte()?;
        if x != b.next_byte()? {
            return Ok(false);
        }
        if x.is_none() {
            return Ok(true);
        }
    }
}

/// `None` when the two streams are equal; otherwise where they first differ. Counting the
/// lines of each (`count_lines`) reads both to their end; otherwise `lines` is (0, 0).
pub fn first_mismatch(
    a: &mut impl ByteStream,
    b: &mut impl ByteStream,
    count_lines: bool,
) -> io::Result<Option<Mismatch>> {
    let (mut line, mut column) = (1u64, 1u64);
    let mut any = false;
    loop {
        let (x, y) = (a.next_byte()?, b.next_byte()?);
        if x != y {
            let rest = |s: &mut dyn FnMut() -> io::Result<Option<u8>>, first: Option<u8>| -> io::Result<u64> {
                let mut breaks = line - 1;
                let mut nonempty = any || first.is_some();
                let mut next = first;
                while let Some(c) = next {
                    breaks += u64::from(c == b'\n');
                    nonempty = true;
                    next = s()?;
                }
                Ok(breaks + u64::from(nonempty))
            };
            let (la, lb) =
                if count_lines { (rest(&mut || a.next_byte(), x)?, rest(&mut || b.next_byte(), y)?) } else { (0, 0) };
            // Both at a line's end, or one stream empty: no line differs, the counts do.
            let at_end = |c: Option<u8>| matches!(c, None | Some(b'\n'));
            let one_ends_first = (at_end(x) && at_end(y)) || (column == 1 && (x.is_none() || y.is_none()));
            return Ok(Some(Mismatch { line, column, lines: (la, lb), one_ends_first }));
        }
        match x {
            None => return Ok(None),
            Some(b'\n') => {
                line += 1;
                column = 1;
            }
            Some(_) => column += 1,
        }
        any = true;
    }
}

/// Normalized lines one at a time (trailing CR, spaces and tabs dropped), with their
/// 1-based numbers. A line longer than `max_line` keeps its first `max_line` bytes and ends
/// in byte 0xFF, so it can never equal a line that fits.
pub struct LineCursor<R> {
    src: R,
    max_line: usize,
    number: usize,
    peeked: Option<Option<Vec<u8>>>,
}

impl<R: BufRead> LineCursor<R> {
    pub fn new(src: R, max_line: usize) -> Self {
        LineCursor { src, max_line, number: 0, peeked: None }
    }

    fn read_line(&mut self) -> io::Result<Option<Vec<u8>>> {
        let mut line = Vec::new();
        let mut cut = false;
        let mut any = false;
        loop {
            let buf = match self.src.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                break;
            }
            any = true;
            let newline = buf.iter().position(|&b| b == b'\n');
            let body = &buf[..newline.unwrap_or(buf.len())];
            let room = self.max_line.saturating_sub(line.len()).min(body.len());
            line.extend_from_slice(&body[..room]);
            // Only blanks may be dropped without changing the line.
            cut |= body[room..].iter().any(|&b| !is_blank(b));
            let used = newline.map_or(buf.len(), |i| i + 1);
            self.src.consume(used);
            if newline.is_some() {
                break;
            }
        }
        if !any {
            return Ok(None);
        }
        while line.last().is_some_and(|&b| is_blank(b)) {
            line.pop();
        }
        if cut {
            line.push(0xFF);
        }
        Ok(Some(line))
    }

    /// The next line without taking it.
    pub fn peek(&mut self) -> io::Result<Option<&[u8]>> {
        if self.peeked.is_none() {
            self.peeked = Some(self.read_line()?);
        }
        Ok(self.peeked.as_ref().and_then(|l| l.as_deref()))
    }

    /// The next line and its number.
    pub fn next_line(&mut self) -> io::Result<Option<(usize, Vec<u8>)>> {
        let line = match self.peeked.take() {
            Some(l) => l,
            None => self.read_line()?,
        };
        Ok(line.map(|l| {
            self.number += 1;
            (self.number, l)
        }))
    }

    /// The number the next line will have.
    pub fn next_number(&self) -> usize {
        self.number + 1
    }

    pub fn skip_blank(&mut self) -> io::Result<()> {
        while self.peek()?.is_some_and(<[u8]>::is_empty) {
            self.next_line()?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn collect(mut s: impl ByteStream) -> Vec<u8> {
        let mut out = Vec::new();
        while let Some(b) = s.next_byte().unwrap() {
            out.push(b);
        }
        out
    }

    /// The definition the stream must agree with: lines, trimmed, trailing blank ones gone.
    fn normal(text: &[u8]) -> Vec<u8> {
        let mut lines: Vec<&[u8]> = text
            .split(|&b| b == b'\n')
            .map(|mut l| {
                while let [head @ .., b' ' | b'\t' | b'\r'] = l {
                    l = head;
                }
                l
            })
            .collect();
        while lines.last().is_some_and(|l| l.is_empty()) {
            lines.pop();
        }
        lines.join(&b'\n')
    }

    #[test]
    fn normal_lines_agree_with_their_definition() {
        let mut long = b"a".to_vec();
        long.extend(std::iter::repeat(b' ').take(10_000));
        long.extend_from_slice(b"b\n");
        long.extend(std::iter::repeat(b'\t').take(10_000));
        long.extend_from_slice(b"\n\n");
        let samples: Vec<&[u8]> = vec![
            b"",
            b"\n",
            b"a",
            b"a\n",
            b"a \r\n\n  \n",
            b"  a  b \t\n\n c\r\n\r\n",
            b"\n\n\nx",
            b" \t\r",
            b"1 2\r\n3  \n\n\n",
            &long,
        ];
        for s in samples {
            assert_eq!(collect(NormalLines::new(Cursor::new(s))), normal(s), "{:?}", String::from_utf8_lossy(s));
        }
    }

    #[test]
    fn tokens_are_joined_by_one_space() {
        assert_eq!(collect(Tokens::new(&b"  1\n\n2\t 3 \n"[..])), b"1 2 3");
        assert_eq!(collect(Tokens::new(&b" \n "[..])), b"");
    }

    #[test]
    fn a_mismatch_says_where_and_how_many_lines() {
        let m = |a: &[u8], b: &[u8]| {
            first_mismatch(&mut NormalLines::new(Cursor::new(a)), &mut NormalLines::new(Cursor::new(b)), true).unwrap()
        };
        assert_eq!(m(b"1\n2\n", b"1\r\n2"), None);
        let at = |line, column, lines, one_ends_first| Some(Mismatch { line, column, lines, one_ends_first });
        assert_eq!(m(b"1\n23\n", b"1\n24\n"), at(2, 2, (2, 2), false));
        assert_eq!(m(b"1\n2", b"1\n23"), at(2, 2, (2, 2), false));
        assert_eq!(m(b"1\n", b"1\n2\n3\n"), at(1, 2, (1, 3), true));
        assert_eq!(m(b"", b"x"), at(1, 1, (0, 1), true));
    }

    #[test]
    fn a_cursor_bounds_each_line() {
        let mut text = b"  12 \r\n\n".to_vec();
        text.extend(std::iter::repeat(b'9').take(100));
        text.extend_from_slice(b"\nend");
        let mut c = LineCursor::new(Cursor::new(text), 10);
        assert_eq!(c.next_line().unwrap(), Some((1, b"  12".to_vec())));
        c.skip_blank().unwrap();
        let (n, long) = c.next_line().unwrap().unwrap();
        assert_eq!((n, long.len(), long.last()), (3, 11, Some(&0xFF)));
        assert_eq!(c.peek().unwrap(), Some(&b"end"[..]));
        assert_eq!(c.next_line().unwrap(), Some((4, b"end".to_vec())));
        assert_eq!(c.next_line().unwrap(), None);
    }
}
