//! Reading lines in bounded memory: a record (a line, a grid row, a CSV row) longer than the cap
//! is not held whole. Its first bytes are kept (enough to show it and to tell that it is too
//! long), the rest is read past, and reading goes on at the next line, so a 2 GB line or a CSV row
//! running away behind an unclosed quote costs no more memory than a record of the cap's size.
//!
//! The one rule, shared by the line, grid and CSV readers and by format detection: a record is
//! too long when it holds more than `max` bytes (line ends not counted). A reader keeps at most
//! `max + 1` bytes of a line, so what it keeps says by itself whether the line was too long, even
//! when it is read again later (detection hands the lines it looked at back to the reader).
//! Here too is what they all skip: a line that carries no record ([`carries_no_record`]).

use std::io::{self, BufRead, BufReader, Read};

/// Bytes a record may hold by default: 64 KiB, 400 times the longest usual record (a Kaggle row
/// of puzzle and solution is 164 bytes).
pub const DEFAULT_MAX_RECORD: usize = 64 * 1024;

/// Reads one line and appends to `buf` at most `max + 1` of its bytes and then its LF, if it has
/// one; the rest of a longer line is read and dropped. Returns the line's length (without its LF,
/// whatever was kept), or `None` at the end of the input.
pub(crate) fn read_line<R: BufRead>(
    src: &mut R,
    buf: &mut Vec<u8>,
    max: usize,
) -> io::Result<Option<u64>> {
    let keep = max.saturating_add(1);
    let mut length = 0u64;
    let mut kept = 0usize;
    let mut any = false;
    loop {
        let available = fill(src)?;
        if available.is_empty() {
            return Ok(any.then_some(length));
        }
        any = true;
        let (content, used, ended) = match memchr::memchr(b'\n', available) {
            Some(i) => (&available[..i], i + 1, true),
            None => (available, available.len(), false),
        };
        let take = content.len().min(keep - kept);
        buf.extend_from_slice(&content[..take]);
        kept += take;
        length += content.len() as u64;
        if ended {
            buf.push(b'\n');
        }
        src.consume(used);
        if ended {
            return Ok(Some(length));
        }
    }
}

/// Appends whole lines from `src` to `bytes`: as many as fit in `want` more bytes, or else the one
/// line that crosses it (a line longer than `max` cut, so memory stays bounded). Returns how many
/// bytes were appended: 0 only at the end of the input. The last line of an input may lack its
/// LF; every other piece appended ends with one.
///
/// A cut line keeps `max + 2` of its bytes, one more than [`read_line`] keeps: a reader that
/// reads it again from these bytes must find it too long exactly as it would have from the
/// input, which for CSV means seeing a byte beyond the `max + 1` a row may take.
///
/// When `want` is large and nothing is buffered, the bytes are read from the stream straight
/// into `bytes` ([`DirectRead`]); a line with no LF within them goes the buffered way.
pub(crate) fn read_lines<R: DirectRead>(
    src: &mut R,
    bytes: &mut Vec<u8>,
    want: usize,
    max: usize,
) -> io::Result<usize> {
    if want >= DIRECT_MIN {
        if let Some(read) = src.read_direct(bytes, want) {
            return read;
        }
    }
    let before = bytes.len();
    let available = fill(src)?;
    let window = available
        .get(..want.min(available.len()))
        .unwrap_or_default();
    let cut = match memchr::memrchr(b'\n', window) {
        Some(i) => i + 1,
        // the line crossing `want`: through its LF, when that is buffered
        None => {
            memchr::memchr(b'\n', &available[window.len()..]).map_or(0, |i| window.len() + i + 1)
        }
    };
    if cut > 0 {
        bytes.extend_from_slice(&available[..cut]);
        src.consume(cut);
    } else {
        // no LF in what is buffered: the line in pieces, capped
        read_line(src, bytes, max.saturating_add(1))?;
    }
    Ok(bytes.len() - before)
}

/// The least `want` read straight from the stream: smaller wants are served from the buffer,
/// which reads this much at a time anyway.
const DIRECT_MIN: usize = 64 * 1024;

/// Bytes a direct read takes beyond what is wanted, so that its whole lines are enough.
const DIRECT_SLACK: usize = 16 * 1024;

/// A [`BufRead`] that may also read from its stream straight into a caller's buffer, skipping
/// the copy through its own: reading a block this way saves a pass over every byte.
pub(crate) trait DirectRead: BufRead {
    /// Appends what is buffered, reads once from the stream into `bytes` (a little more than
    /// `want` in all) and keeps the whole lines there, the bytes after the last LF going back to
    /// be read next. Returns the bytes kept (0 at the end of the input), or `None` when it cannot
    /// read this way (no LF came in all that: it is then read the buffered way, capped).
    fn read_direct(&mut self, _bytes: &mut Vec<u8>, _want: usize) -> Option<io::Result<usize>> {
        None
    }
}

impl DirectRead for &[u8] {}
impl<R: Read> DirectRead for BufReader<R> {}

/// An input as its reader takes it: the lines format detection read first (handed back), then
/// the rest of the stream through a buffer; blocks are read past the buffer when it is empty
/// ([`DirectRead`]).
pub(crate) struct Src<R> {
    /// Bytes to read before the stream's: the lines detection read, or what a direct read got
    /// past its last LF.
    head: Vec<u8>,
    /// Bytes of `head` already read.
    at: usize,
    inner: BufReader<R>,
    /// `head` holds lines handed back by detection, which may not be the stream's bytes as
    /// they came (a line over the cap is kept short): until they are read, where the stream
    /// stands is not known ([`Src::pending`]).
    handed_back: bool,
}

impl<R: Read> Src<R> {
    /// `head`, then the rest of `inner`.
    pub(crate) fn new(head: Vec<u8>, inner: BufReader<R>) -> Src<R> {
        Src {
            handed_back: !head.is_empty(),
            head,
            at: 0,
            inner,
        }
    }

    /// Bytes the stream has given that are not yet read (what is left of `head` and the
    /// buffer); `None` while lines handed back by detection are left, whose bytes may not be
    /// the stream's.
    pub(crate) fn pending(&self) -> Option<usize> {
        let left = self.head.len() - self.at;
        (!self.handed_back || left == 0).then_some(left + self.inner.buffer().len())
    }

    /// The stream.
    pub(crate) fn get_ref(&self) -> &R {
        self.inner.get_ref()
    }

    /// The stream, to be changed (what it has given stays buffered).
    pub(crate) fn get_mut(&mut self) -> &mut R {
        self.inner.get_mut()
    }
}

impl<R: Read> Read for Src<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: Read> BufRead for Src<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.at < self.head.len() {
            return Ok(&self.head[self.at..]);
        }
        self.inner.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        if self.at < self.head.len() {
            self.at += amount;
            if self.at >= self.head.len() {
                // read through: the room is kept for the next direct read's leftovers
                self.head.clear();
                self.at = 0;
                self.handed_back = false;
            }
        } else {
            self.inner.consume(amount);
        }
    }
}

impl<R: Read> DirectRead for Src<R> {
    fn read_direct(&mut self, bytes: &mut Vec<u8>, want: usize) -> Option<io::Result<usize>> {
        let start = bytes.len();
        // what the last direct read left (the start of a line) and what is buffered come first
        bytes.extend_from_slice(&self.head[self.at..]);
        self.head.clear();
        self.at = 0;
        self.handed_back = false;
        let buffered = self.inner.buffer().len();
        bytes.extend_from_slice(self.inner.buffer());
        self.inner.consume(buffered);
        let carried = bytes.len() - start;
        // a little more than wanted, so that what is kept (up to the last LF) is enough
        let room = want.saturating_sub(carried) + DIRECT_SLACK;
        bytes.resize(start + carried + room, 0);
        let n = loop {
            match self.inner.get_mut().read(&mut bytes[start + carried..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    // reading ends here: the whole lines carried stay (the caller drops the
                    // line begun after them, as on the buffered way)
                    bytes.truncate(start + carried);
                    return Some(Err(e));
                }
            }
        };
        bytes.truncate(start + carried + n);
        match memchr::memrchr(b'\n', &bytes[start..]) {
            Some(i) => {
                let end = start + i + 1;
                self.head.extend_from_slice(&bytes[end..]);
                bytes.truncate(end);
                Some(Ok(end - start))
            }
            // the end of the input: the last line, with no LF
            None if n == 0 => Some(Ok(carried)),
            None => {
                // no line end: a long line, read on the buffered way with its cap
                self.head.extend_from_slice(&bytes[start..]);
                bytes.truncate(start);
                None
            }
        }
    }
}

/// Cuts `bytes` after its last LF at or after `start` (to `start` when there is none): what a read
/// error or a stop left of a line is dropped.
pub(crate) fn keep_whole_lines(bytes: &mut Vec<u8>, start: usize) {
    let whole = memchr::memrchr(b'\n', &bytes[start..]).map_or(start, |i| start + i + 1);
    bytes.truncate(whole);
}

/// Lines in `bytes` (the pieces [`read_lines`] appends): one per LF, and one more for a last line
/// without its LF.
pub(crate) fn count_lines(bytes: &[u8]) -> u64 {
    let lfs = bytecount::count(bytes, b'\n') as u64;
    lfs + u64::from(bytes.last().is_some_and(|&b| b != b'\n'))
}

/// Reads past the rest of the current line, through its LF. Returns false when the input ended
/// first.
pub(crate) fn skip_line<R: BufRead>(src: &mut R) -> io::Result<bool> {
    loop {
        let available = fill(src)?;
        if available.is_empty() {
            return Ok(false);
        }
        match memchr::memchr(b'\n', available) {
            Some(i) => {
                src.consume(i + 1);
                return Ok(true);
            }
            None => {
                let n = available.len();
                src.consume(n);
            }
        }
    }
}

/// The bytes `src` has buffered, filling its buffer when empty (empty at the end of the input);
/// a read interrupted by a signal is tried again.
pub(crate) fn fill<R: BufRead>(src: &mut R) -> io::Result<&[u8]> {
    loop {
        match src.fill_buf() {
            Ok(_) => break,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
    // the buffer is filled: this returns it without reading
    src.fill_buf()
}

/// True for a line that carries no record: blank or a `#` comment (`trimmed` is what was kept of
/// it, spaces around dropped; `length` its length). A line longer than `max` bytes is a comment
/// when what was kept starts one, and otherwise a record (malformed), however blank its start:
/// what was read past is not looked at, and a record must never be lost.
pub(crate) fn carries_no_record(trimmed: &[u8], length: u64, max: usize) -> bool {
    if length > max as u64 {
        trimmed.first() == Some(&b'#')
    } else {
        is_skipped(trimmed)
    }
}

/// True for a trimmed line that carries no record: blank or a `#` comment.
fn is_skipped(trimmed: &[u8]) -> bool {
    trimmed.first().is_none_or(|&b| b == b'#')
}

/// The reason given for a record longer than `max` bytes.
pub(crate) fn too_long(what: &str, max: usize) -> String {
    format!("{what} longer than {max} bytes")
}

#[cfg(test)]
mod tests {

    /// Reads `src` to its end with `read_lines(want, max)`: the pieces appended.
    fn pieces<R: DirectRead>(src: &mut R, want: usize, max: usize) -> Vec<Vec<u8>> {
        let mut pieces = Vec::new();
        loop {
            let mut bytes = Vec::new();
            if read_lines(src, &mut bytes, want, max).unwrap() == 0 {
                return pieces;
            }
            pieces.push(bytes);
        }
    }

    #[test]
    fn large_reads_go_straight_into_the_block_and_keep_whole_lines() {
        let text: Vec<u8> = (0..20_000)
            .flat_map(|i| format!("line {i}\n").into_bytes())
            .collect();
        let mut src = Src::new(b"first\n".to_vec(), io::BufReader::new(&text[..]));
        let got = pieces(&mut src, 70_000, 100);
        // the handed-back head first, then the stream read straight into blocks, never buffered
        assert!(src.inner.buffer().is_empty());
        assert!(
            got.iter()
                .all(|p| p.ends_with(b"\n") && p.len() <= 70_000 + DIRECT_SLACK)
        );
        assert!(
            got.iter()
                .all(|p| p.len() > 60_000 || p == got.last().unwrap())
        );
        assert_eq!(got.concat(), [&b"first\n"[..], &text].concat());
    }

    #[test]
    fn a_line_longer_than_a_large_read_is_cut_as_on_the_buffered_way() {
        let mut cut = vec![b'x'; 102];
        cut.push(b'\n');
        // the long line met at the start of a read, and within one
        for before in [&b""[..], b"a\n"] {
            let mut text = before.to_vec();
            text.extend(std::iter::repeat_n(b'x', 300_000));
            text.extend_from_slice(b"\nb\nc");
            let mut src = Src::new(Vec::new(), io::BufReader::new(&text[..]));
            let got = pieces(&mut src, 70_000, 100);
            let at = usize::from(!before.is_empty());
            assert_eq!(got[..at].concat(), before);
            assert_eq!(got[at], cut);
            assert_eq!(got[at + 1..].concat(), b"b\nc");
        }
    }
    use super::*;

    /// Reads every line of `text` through a small buffer (so lines span many fills).
    fn lines(text: &[u8], max: usize) -> Vec<(Vec<u8>, u64)> {
        let mut src = io::BufReader::with_capacity(7, text);
        let mut out = Vec::new();
        loop {
            let mut buf = Vec::new();
            match read_line(&mut src, &mut buf, max).unwrap() {
                Some(n) => out.push((buf, n)),
                None => return out,
            }
        }
    }

    #[test]
    fn keeps_short_lines_whole_with_their_line_end() {
        let got = lines(b"ab\n\ncdefgh\r\nlast", 10);
        let want: Vec<(Vec<u8>, u64)> = vec![
            (b"ab\n".to_vec(), 2),
            (b"\n".to_vec(), 0),
            (b"cdefgh\r\n".to_vec(), 7),
            (b"last".to_vec(), 4),
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn keeps_one_byte_more_than_the_cap_of_a_long_line_and_reads_on() {
        let long = "x".repeat(1000);
        let text = format!("{long}\nnext\n{}\n", "y".repeat(11));
        let got = lines(text.as_bytes(), 10);
        assert_eq!(got[0], (format!("{}\n", &long[..11]).into_bytes(), 1000));
        assert_eq!(got[1], (b"next\n".to_vec(), 4));
        assert_eq!(got[2], (format!("{}\n", "y".repeat(11)).into_bytes(), 11));
        assert_eq!(got.len(), 3);
        // a line of exactly the cap is not too long, and is kept whole
        let got = lines(b"0123456789\n", 10);
        assert_eq!(got, [(b"0123456789\n".to_vec(), 10)]);
    }

    #[test]
    fn kept_bytes_say_by_themselves_that_a_line_was_too_long() {
        // read again (as detection hands lines back), a cut line is still too long
        let text = format!("{}\nok\n", "z".repeat(500));
        let first = lines(text.as_bytes(), 64);
        let again = lines(&first[0].0, 64);
        assert!(again[0].1 > 64);
    }

    #[test]
    fn reads_whole_lines_up_to_what_is_wanted() {
        let text = b"aaaa\nbbbb\ncccc\ndddd";
        let mut src = io::BufReader::with_capacity(64, &text[..]);
        let mut bytes = Vec::new();
        // lines that fit in 11 bytes: two
        assert_eq!(read_lines(&mut src, &mut bytes, 11, 100).unwrap(), 10);
        // none fits in 2: the one crossing it, whole
        assert_eq!(read_lines(&mut src, &mut bytes, 2, 100).unwrap(), 5);
        assert_eq!(read_lines(&mut src, &mut bytes, 100, 100).unwrap(), 4);
        assert_eq!(read_lines(&mut src, &mut bytes, 100, 100).unwrap(), 0);
        assert_eq!(bytes, text);
        assert_eq!(count_lines(&bytes), 4);
        assert_eq!(count_lines(b"a\nb\n"), 2);
        assert_eq!(count_lines(b""), 0);
        // a line longer than the buffer and the cap: cut, through its LF
        let long = format!("{}\nnext\n", "x".repeat(1000));
        let mut src = io::BufReader::with_capacity(64, long.as_bytes());
        let mut bytes = Vec::new();
        assert_eq!(read_lines(&mut src, &mut bytes, 10, 100).unwrap(), 103);
        assert_eq!(bytes, format!("{}\n", "x".repeat(102)).as_bytes());
        bytes.clear();
        assert_eq!(read_lines(&mut src, &mut bytes, 10, 100).unwrap(), 5);
    }

    #[test]
    fn skips_to_the_next_line() {
        let mut src = io::BufReader::with_capacity(4, &b"0123456789\nrest\n"[..]);
        assert!(skip_line(&mut src).unwrap());
        let mut buf = Vec::new();
        assert_eq!(read_line(&mut src, &mut buf, 10).unwrap(), Some(4));
        assert!(!skip_line(&mut src).unwrap());
    }
}
