//! A regular file's lines read on the pool: the reader hands out byte ranges of the file
//! (chunks), and the thread that parses a chunk reads it (`pread`) and cuts it into whole lines,
//! so that no one thread copies every byte of the input (that copy capped a run at about 40M
//! Kaggle rows/s, whatever the cores).
//!
//! What a chunk holds must be exactly what the serial reader would have cut: whole rows, line
//! numbers counted from the input's start, the record cap's rules. A chunk's rows are those
//! from where the one before it ended up to the first line start at or after its nominal end
//! (and, for CSV, on to where a row may start: a quoted field may hold line ends, which
//! [`Boundaries`] follows). Where the chunk before ended, and the line there, is only known once
//! that chunk has been read, so each chunk is first read from a guess, the first line start in
//! its own range, before it waits for the one before it to say where it ended ([`Chain`]). That
//! is nearly always the guess, and then what was read is kept; otherwise (a quoted line end at
//! the cut, a file that changed) the chunk is read again from there, and a chunk that the one
//! before has read past holds nothing. A chunk looks for its first line start in its own range
//! only, and for the end of its last line past it: a long line is read by the chunk it starts
//! in, not again by every chunk it crosses.
//!
//! Waiting cannot deadlock on the pool: chunks are handed out in order and taken from the
//! pool's queue in order (`pipeline::run_batches` runs outside the pool, so its jobs go to the
//! pool's shared queue, first in, first out), and a chunk says where it ended before any work
//! of its batch could make its thread take another job; so the first chunk that has not said
//! so is always on top of its thread, reading.
//!
//! A read error ends the chain: the chunk that met it keeps the whole lines read before it and
//! the error goes to the reader, which returns it after the chunks before; later chunks read
//! nothing.

use std::fmt;
use std::fs::File;
use std::io::{self, BufReader, Read, Seek, SeekFrom};
use std::os::unix::fs::FileExt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

use super::bounded::{self, Src};
use super::csv_boundaries::{Boundaries, RowShape};

/// A regular file's bytes from `pos`, ending (reads give 0) at `limit`; what is read is counted
/// in `scanned`.
struct FileAt<'a> {
    file: &'a File,
    pos: u64,
    limit: u64,
    scanned: &'a AtomicU64,
}

impl Read for FileAt<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let room = self.limit.saturating_sub(self.pos).min(buf.len() as u64) as usize;
        if room == 0 {
            return Ok(0);
        }
        let n = self.file.read_at(&mut buf[..room], self.pos)?;
        self.pos += n as u64;
        self.scanned.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// Buffer of a chunk's reads that are not direct (the lines after its last direct read, a
/// line too long for one): a chunk's bulk is read straight into its block.
const LINE_BUFFER: usize = 16 * 1024;

/// The first line start at or after `at` and before `end`: `at` itself when the byte before it
/// is an LF, else just past the next LF, or the end of the file (`at` itself when past it) when
/// no LF follows; `None` when that is not before `end`. Only the bytes before `end` are looked
/// at, so that the chunks a long line crosses do not each read the rest of it. Counts the bytes
/// read in `scanned`.
fn line_start(file: &File, at: u64, end: u64, scanned: &AtomicU64) -> io::Result<Option<u64>> {
    let Some(mut pos) = at.checked_sub(1) else {
        return Ok((end > 0).then_some(0));
    };
    let mut buf = [0u8; 4096];
    loop {
        // an LF at `pos` starts a line at `pos + 1`, which must be before `end`
        let want = end
            .saturating_sub(1)
            .saturating_sub(pos)
            .min(buf.len() as u64) as usize;
        if want == 0 {
            return Ok(None);
        }
        let n = match file.read_at(&mut buf[..want], pos) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        scanned.fetch_add(n as u64, Ordering::Relaxed);
        if n == 0 {
            let eof = pos.max(at);
            return Ok((eof < end).then_some(eof));
        }
        if let Some(i) = memchr::memchr(b'\n', &buf[..n]) {
            return Ok(Some(pos + i as u64 + 1));
        }
        pos += n as u64;
    }
}

/// Where the chunks of one input ended, shared by the threads that read them and the reader.
pub(crate) struct Chain {
    file: File,
    /// Its length when the chunks began: a file that ends before it was cut short.
    opened: u64,
    /// The reader's count of bytes read, for progress.
    progress: Arc<AtomicU64>,
    /// Bytes read from the file, rows and line ends looked for (see [`Chunks::scanned`]).
    scanned: AtomicU64,
    links: Mutex<Links>,
    changed: Condvar,
}

impl fmt::Debug for Chain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Chain").finish_non_exhaustive()
    }
}

/// What the chunks read so far say.
struct Links {
    /// Chunks that have said where they ended (the first `done` ones).
    done: u64,
    /// Where the last of them ended (a row starts there), and the line there.
    end: u64,
    line: u64,
    /// A read failed: the chunks after it read nothing.
    broken: bool,
    /// The error, with the line of the last whole line read before it, until the reader takes it.
    failure: Option<(io::Error, u64)>,
}

impl Chain {
    /// The chain of `file` (whose length was `opened` when it was opened), whose first chunk
    /// starts at a row start on line `line`.
    fn new((file, opened): (File, u64), start: u64, line: u64, progress: Arc<AtomicU64>) -> Chain {
        Chain {
            file,
            opened,
            progress,
            scanned: AtomicU64::new(0),
            links: Mutex::new(Links {
                done: 0,
                end: start,
                line,
                broken: false,
                failure: None,
            }),
            changed: Condvar::new(),
        }
    }

    fn links(&self) -> MutexGuard<'_, Links> {
        self.links.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Waits until the first `chunks` chunks have said where they ended; returns where the last
    /// did and the line there, `None` when the chain is broken.
    fn wait(&self, chunks: u64) -> Option<(u64, u64)> {
        let mut links = self.links();
        while links.done < chunks && !links.broken {
            links = self
                .changed
                .wait(links)
                .unwrap_or_else(PoisonError::into_inner);
        }
        (!links.broken).then_some((links.end, links.line))
    }

    /// Chunk `index` (the next to say so) ended at `end`, the line there `line`; or it failed.
    fn link(&self, index: u64, end: u64, line: u64, failure: Option<(io::Error, u64)>) {
        let mut links = self.links();
        debug_assert_eq!(links.done, index, "chunks say where they end in order");
        links.done = index + 1;
        if !links.broken {
            links.end = end;
            links.line = line;
            if failure.is_some() {
                links.broken = true;
                links.failure = failure;
            }
        }
        drop(links);
        self.changed.notify_all();
    }

    /// The read error met, once.
    fn take_failure(&self) -> Option<(io::Error, u64)> {
        self.links().failure.take()
    }
}

/// Says where a chunk ended, even when its reading panics (then the chain breaks), so that no
/// chunk after it waits forever.
struct Link<'a> {
    chain: &'a Chain,
    index: u64,
    said: bool,
}

impl Link<'_> {
    fn say(mut self, end: u64, line: u64, failure: Option<(io::Error, u64)>) {
        self.said = true;
        self.chain.link(self.index, end, line, failure);
    }
}

impl Drop for Link<'_> {
    fn drop(&mut self) {
        if !self.said {
            let error = io::Error::other("a chunk of the input was not read");
            self.chain.link(self.index, 0, 0, Some((error, 0)));
        }
    }
}

/// A chunk of a regular file, handed out by [`Chunks::next`] and read by [`Chunk::read`].
#[derive(Debug, Clone)]
pub(crate) struct Chunk {
    chain: Arc<Chain>,
    index: u64,
    /// Nominal start and end: its rows start from the first line start at or after `from`
    /// (from `from` itself when `exact`), up to the first at or after `to`.
    from: u64,
    to: u64,
    exact: bool,
    /// Bytes a record may hold.
    max: usize,
    /// CSV's delimiter and the columns of its rows, telling where rows may start; `None` for
    /// lines (every line start).
    csv: Option<(u8, RowShape)>,
}

/// What a chunk read.
struct Rows {
    /// Lines in the bytes (as [`bounded::count_lines`] counts them).
    lines: u64,
    /// Where they end in the file.
    end: u64,
    error: Option<io::Error>,
}

impl Chunk {
    /// Bytes read from the file so far by the chunks of its input: rows, and line ends looked for.
    #[cfg(test)]
    pub(crate) fn scanned(&self) -> u64 {
        self.chain.scanned.load(Ordering::Relaxed)
    }

    /// Reads the chunk's rows into `bytes` (whole lines, as the serial reader would have cut
    /// them; long lines capped the same way) and returns the line of their first byte. May wait
    /// for the chunks before it to have been read.
    pub(crate) fn read(&self, bytes: &mut Vec<u8>) -> u64 {
        let chain = &*self.chain;
        let link = Link {
            chain,
            index: self.index,
            said: false,
        };
        // read from a guess while the chunk before is read (a failed guess is no guess: the
        // reading that counts comes after)
        let guess = self.guess(bytes).ok().flatten();
        let Some((at, line)) = chain.wait(self.index) else {
            bytes.clear();
            link.say(0, 0, None);
            return 0;
        };
        let rows = match guess {
            // the chunk before read all that starts in this one (a long line or quoted field)
            _ if at >= self.to => {
                bytes.clear();
                Ok(Rows {
                    lines: 0,
                    end: at,
                    error: None,
                })
            }
            Some((start, _, rows)) if start == at => Ok(rows),
            Some((_, limit, _)) => Ok(self.read_rows(at, limit.max(at), bytes)),
            None => self
                .limit()
                .map(|limit| self.read_rows(at, limit.max(at), bytes)),
        };
        let rows = rows.unwrap_or_else(|error| {
            bytes.clear();
            Rows {
                lines: 0,
                end: at,
                error: Some(error),
            }
        });
        chain
            .progress
            .fetch_add(rows.end.saturating_sub(at), Ordering::Relaxed);
        let after = line + rows.lines;
        let failure = rows.error.map(|e| (e, after.saturating_sub(1)));
        link.say(rows.end, after, failure);
        line
    }

    /// Reads the chunk's rows from the first line start in its range (a guess at where its
    /// rows start), as [`Chunk::read_rows`]; returns that start and the limit with them, `None`
    /// when no line starts in its range.
    fn guess(&self, bytes: &mut Vec<u8>) -> io::Result<Option<(u64, u64, Rows)>> {
        let start = if self.exact {
            Some(self.from)
        } else {
            line_start(&self.chain.file, self.from, self.to, &self.chain.scanned)?
        };
        let Some(start) = start else {
            return Ok(None);
        };
        let limit = self.limit()?;
        Ok(Some((start, limit, self.read_rows(start, limit, bytes))))
    }

    /// Where the chunk's rows end (for CSV, at the earliest): the first line start at or after
    /// its nominal end. The line crossing that end starts in this chunk, so only this chunk
    /// reads it to its end to find it.
    fn limit(&self) -> io::Result<u64> {
        let found = line_start(&self.chain.file, self.to, u64::MAX, &self.chain.scanned)?;
        Ok(found.unwrap_or(u64::MAX))
    }

    /// Reads the whole lines from `start` (a row start) up to `limit` (a line start) into
    /// `bytes`, and for CSV on until a row may start.
    fn read_rows(&self, start: u64, limit: u64, bytes: &mut Vec<u8>) -> Rows {
        bytes.clear();
        let file = FileAt {
            file: &self.chain.file,
            pos: start,
            limit,
            scanned: &self.chain.scanned,
        };
        let mut src = Src::new(Vec::new(), BufReader::with_capacity(LINE_BUFFER, file));
        let mut ends = self.csv.map(|(delimiter, shape)| {
            let mut ends = Boundaries::new(delimiter, self.max);
            ends.set_shape(shape);
            ends
        });
        let size = self.to.saturating_sub(self.from).max(1);
        // nothing is handed back here: what is pending is the file's bytes
        let position =
            |src: &Src<FileAt<'_>>| src.get_ref().pos - src.pending().unwrap_or(0) as u64;
        let read = (|| -> io::Result<()> {
            loop {
                let before = bytes.len();
                let want = limit.saturating_sub(position(&src)).clamp(1, size) as usize;
                if bounded::read_lines(&mut src, bytes, want, self.max)? == 0 {
                    break;
                }
                if let Some(ends) = &mut ends {
                    ends.feed(&bytes[before..]);
                }
            }
            // a row that runs over the limit (quoted line ends): read on, a line at a time
            if let Some(ends) = &mut ends {
                src.get_mut().limit = u64::MAX;
                while !ends.at_row_start() {
                    let before = bytes.len();
                    if bounded::read_lines(&mut src, bytes, 1, self.max)? == 0 {
                        break;
                    }
                    ends.feed(&bytes[before..]);
                }
            }
            Ok(())
        })();
        let end = position(&src);
        let mut error = read.err();
        // a last line without its LF where the file now ends, before its length when opened:
        // the file was cut short in that line, which is no record
        if error.is_none() && bytes.last().is_some_and(|&b| b != b'\n') && end < self.chain.opened {
            let mut byte = [0u8];
            if matches!(self.chain.file.read_at(&mut byte, end), Ok(0)) {
                error = Some(super::compressed::cut_short(self.chain.opened, end));
            }
        }
        if error.is_some() {
            bounded::keep_whole_lines(bytes, 0);
        }
        Rows {
            lines: bounded::count_lines(bytes),
            end,
            error,
        }
    }
}

/// The chunks of one input, handed out in order by the reader.
#[derive(Debug)]
pub(crate) struct Chunks {
    chain: Arc<Chain>,
    /// Chunks handed out.
    next: u64,
    /// Nominal start of the next chunk, and whether a row surely starts there.
    from: u64,
    exact: bool,
    /// The file's length when last looked at.
    len: u64,
    /// Bytes a chunk spans.
    size: u64,
    max: usize,
    csv: Option<(u8, RowShape)>,
}

impl Chunks {
    /// The chunks of `file` (whose length was `opened` when it was opened) from `start`, a row
    /// start on line `line`: `size` bytes each, records of at most `max` bytes, CSV rows with
    /// `csv`'s delimiter and columns (`None`: lines).
    pub(crate) fn new(
        (file, opened): (File, u64),
        (start, line): (u64, u64),
        size: u64,
        (max, csv): (usize, Option<(u8, RowShape)>),
        progress: Arc<AtomicU64>,
    ) -> io::Result<Chunks> {
        let len = file.metadata()?.len();
        Ok(Chunks {
            chain: Arc::new(Chain::new((file, opened), start, line, progress)),
            next: 0,
            from: start,
            exact: true,
            len,
            size: size.max(1),
            max,
            csv,
        })
    }

    /// The next chunk, `None` once the file has ended where the last one ended; the error of a
    /// chunk that failed (with the line of the last whole line read before it), once the
    /// chunks before it have been handed out. Waits for the chunks handed out to be read before
    /// saying the file has ended, and then reads on if a byte follows (a file that grew, or
    /// whose length was told short).
    pub(crate) fn next(&mut self) -> Result<Option<Chunk>, (io::Error, u64)> {
        if let Some(failure) = self.chain.take_failure() {
            return Err(failure);
        }
        if self.from >= self.len {
            let Some((end, line)) = self.chain.wait(self.next) else {
                let error = io::Error::other("a chunk of the input was not read");
                return Err(self.chain.take_failure().unwrap_or((error, 0)));
            };
            self.len = self.chain.file.metadata().map_err(|e| (e, 0))?.len();
            // a length may be told short (a file in /proc says 0): the end is where no byte is
            if end >= self.len {
                let mut byte = [0u8];
                match self.chain.file.read_at(&mut byte, end) {
                    Ok(0) if end < self.chain.opened => {
                        return Err((
                            super::compressed::cut_short(self.chain.opened, end),
                            line.saturating_sub(1),
                        ));
                    }
                    Ok(0) => {
                        // the file's offset where a stream read to its end would leave it:
                        // stdin's, when the file is stdin (`{ sudoku-batch ...; cat; } < f`)
                        let _ = (&self.chain.file).seek(SeekFrom::Start(end));
                        return Ok(None);
                    }
                    Ok(_) => self.len = end + 1,
                    Err(e) => return Err((e, 0)),
                }
            }
            self.from = end;
            self.exact = true;
        }
        let chunk = Chunk {
            chain: Arc::clone(&self.chain),
            index: self.next,
            from: self.from,
            to: self.from.saturating_add(self.size),
            exact: std::mem::take(&mut self.exact),
            max: self.max,
            csv: self.csv,
        };
        self.next += 1;
        self.from = chunk.to;
        Ok(Some(chunk))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_read_error_ends_the_chain_and_is_told_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lines.txt");
        std::fs::write(&path, "a\nbb\nccc\n".repeat(100)).unwrap();
        // a handle that can only write: every read of it fails
        let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        let progress = Arc::new(AtomicU64::new(0));
        let mut chunks = Chunks::new((file, 0), (0, 1), 100, (1000, None), progress).unwrap();
        let first = chunks.next().unwrap().unwrap();
        let second = chunks.next().unwrap().unwrap();
        let mut bytes = b"left from before".to_vec();
        std::thread::scope(|scope| {
            // the second waits for the first to say where it ended: it never reads
            let later = scope.spawn(|| {
                let mut bytes = b"left from before".to_vec();
                (second.read(&mut bytes), bytes)
            });
            assert_eq!(first.read(&mut bytes), 1);
            assert_eq!(later.join().unwrap(), (0, Vec::new()));
        });
        assert!(bytes.is_empty());
        let (error, line) = chunks.next().unwrap_err();
        assert_eq!(error.raw_os_error(), Some(9), "EBADF: {error}");
        assert_eq!(line, 0);
        assert!(chunks.chain.take_failure().is_none(), "told once");
    }

    #[test]
    fn a_file_longer_than_its_told_length_is_read_to_its_end() {
        // a file in /proc tells a length of 0: chunks go on while a byte follows the last read
        let path = "/proc/filesystems";
        let text = std::fs::read(path).unwrap();
        let file = File::open(path).unwrap();
        assert_eq!(file.metadata().unwrap().len(), 0);
        assert!(text.len() > 100);
        let progress = Arc::new(AtomicU64::new(0));
        let mut chunks = Chunks::new((file, 0), (0, 1), 16, (1000, None), progress).unwrap();
        let (mut read, mut lines) = (Vec::new(), Vec::new());
        while let Some(chunk) = chunks.next().unwrap() {
            let mut bytes = Vec::new();
            lines.push(chunk.read(&mut bytes));
            read.extend_from_slice(&bytes);
        }
        assert_eq!(read, text);
        assert_eq!(lines.first(), Some(&1));
        assert!(lines.windows(2).all(|w| w[0] <= w[1]), "{lines:?}");
    }

    #[test]
    fn a_line_start_is_after_an_lf_or_at_the_end() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lines.txt");
        let text = format!("ab\n{}\nc", "x".repeat(10_000));
        std::fs::write(&path, &text).unwrap();
        let file = File::open(&path).unwrap();
        let scanned = AtomicU64::new(0);
        let start = |at, end| line_start(&file, at, end, &scanned).unwrap();
        let starts: Vec<u64> = [0, 1, 3, 4, 5000, 10_003, 10_004, 10_005, 20_000]
            .iter()
            .map(|&at| start(at, u64::MAX).unwrap())
            .collect();
        assert_eq!(
            starts,
            [0, 3, 3, 10_004, 10_004, 10_004, 10_004, 10_005, 20_000]
        );
        // within bounds: only a start before `end` counts, and only the bytes before it are read
        assert_eq!(start(0, 0), None);
        assert_eq!(start(1, 4), Some(3));
        assert_eq!(start(1, 3), None);
        let before = scanned.load(Ordering::Relaxed);
        assert_eq!(start(4, 5004), None);
        assert_eq!(scanned.load(Ordering::Relaxed) - before, 5000);
        assert_eq!(start(10_005, 10_007), Some(10_005));
        assert_eq!(start(10_005, 10_005), None);
    }
}
