//! Compressed, archived and binary inputs: what an input's bytes are, told by their first bytes
//! (magic numbers), never by the file name, so stdin works the same as files.
//!
//! - gzip, zstd, xz and bzip2 streams are decoded as they are read, each with its crate
//!   (`flate2`, `zstd`, `liblzma`, `bzip2`, driven by [`super::decode`]); concatenated streams
//!   (pigz, pbzip2, `cat a.gz b.gz`) are read through to the end. A stream cut short or damaged
//!   is an error naming its format, never a quiet end of input, after every byte decoded before
//!   the damage.
//! - A zip archive (a Kaggle download) is read when it holds one data file: its directory is read
//!   with the `zip` crate, and the entry (stored, deflate, bzip2, zstd or xz) is decoded as a
//!   stream and its CRC-32 checked at the end. Directories and macOS metadata (`__MACOSX/`,
//!   `._*`, `.DS_Store`) are not data files; a zip with several data files is an error that lists
//!   them. A zip on stdin is first copied to an unnamed temporary file, since a zip's directory
//!   is at its end.
//! - Anything else must be text: its first block after decoding (one read of up to
//!   [`TEXT_CHECK`] bytes: all of them for a file, what has come for a pipe) must hold no NUL
//!   byte and be UTF-8. Otherwise the input is an error that says what it looks like (a PNG
//!   image, a 7-Zip archive, UTF-16 text, binary data, ...) and where, without printing its bytes.
//!
//! - Text whose first line ends with a CR alone (old Mac line ends, or a `tr '\n' '\r'` gone
//!   wrong) is read with every CR as a line end ([`CrLines`]), so its rows stay rows; such an
//!   input is read as a stream, never in chunks.
//!
//! Progress counts the bytes read from the file, before decoding, so it matches the file's size.

use std::fs::File;
use std::io::{self, Cursor, Read, Seek, SeekFrom};

use super::decode;

/// Bytes of decoded input that must be text, at most: the first read of up to 64 KiB.
pub(crate) const TEXT_CHECK: usize = 64 * 1024;

/// A byte stream of an input, as it comes (files, stdin) or decoded.
pub(crate) type Stream = Box<dyn Read + Send>;

/// Where an input's raw bytes come from.
pub(crate) enum Raw {
    /// A regular file, which can seek (a zip's directory is at its end).
    File(File),
    /// Anything else: stdin, a pipe, a device.
    Stream(Stream),
}

/// Why an input cannot be read as puzzle text: a message naming what it is (never its bytes).
#[derive(Debug)]
pub(crate) enum OpenError {
    /// Reading failed.
    Io(io::Error),
    /// The input is not readable text, or an archive that cannot be read as one.
    Unreadable(String),
}

impl From<io::Error> for OpenError {
    fn from(e: io::Error) -> OpenError {
        OpenError::Io(e)
    }
}

/// A compressed format told by its magic number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Gzip,
    Zstd,
    Xz,
    Bzip2,
    Zip,
}

impl Format {
    /// The format of a stream starting with `head`, if it is one this module reads.
    fn of(head: &[u8]) -> Option<Format> {
        if head.starts_with(b"\x1f\x8b") {
            Some(Format::Gzip)
        } else if head.starts_with(b"\x28\xb5\x2f\xfd") || is_skippable_frame(head) {
            Some(Format::Zstd)
        } else if head.starts_with(b"\xfd7zXZ\x00") {
            Some(Format::Xz)
        } else if head.len() >= 4 && head.starts_with(b"BZh") && (b'1'..=b'9').contains(&head[3]) {
            Some(Format::Bzip2)
        } else if head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06") {
            Some(Format::Zip)
        } else {
            None
        }
    }

    fn name(self) -> &'static str {
        match self {
            Format::Gzip => "gzip",
            Format::Zstd => "zstd",
            Format::Xz => "xz",
            Format::Bzip2 => "bzip2",
            Format::Zip => "zip",
        }
    }

    /// A decoder of this format over `raw` (not for zip, whose entries are opened apart).
    fn decoder(self, raw: Stream) -> io::Result<Stream> {
        Ok(match self {
            Format::Gzip => decode::gzip(raw),
            Format::Zstd => decode::zstd(raw)?,
            Format::Xz => decode::xz(raw)?,
            Format::Bzip2 => decode::bzip2(raw),
            Format::Zip => raw,
        })
    }
}

/// A regular file read to its end, which must be where it ended when opened: a file cut short
/// while it is read (truncated, rewritten by another program) ends in an error, not as if it
/// had been read whole (the run exited 0 with records missing).
pub(crate) struct Whole {
    file: File,
    read: u64,
    /// Its length when opened; 0 for a file that tells none (in /proc).
    length: u64,
}

impl Whole {
    pub(crate) fn new(file: File) -> Whole {
        let length = file.metadata().map_or(0, |m| m.len());
        Whole {
            file,
            read: 0,
            length,
        }
    }
}

impl Read for Whole {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.file.read(buf)?;
        self.read += n as u64;
        if n == 0 && !buf.is_empty() && self.read < self.length {
            return Err(cut_short(self.length, self.read));
        }
        Ok(n)
    }
}

/// The error of a file that ends at `end`, before `length`, its length when opened.
pub(crate) fn cut_short(length: u64, end: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::UnexpectedEof,
        format!(
            "the file was cut short while it was read: it held {length} bytes when opened, \
             and ended after {end}; the records past there are missing"
        ),
    )
}

/// Opens the bytes of an input for reading as text: decoded when compressed, the one data file
/// of a zip, checked to be text when `check_text`. Without it (pipe mode) the bytes are read as
/// they are: a pipe engine hands over lines, and a line that is not text, or that starts like a
/// compressed stream (`BZh91...`, `PK\x03\x04`), is one malformed record wherever it stands,
/// never a failed input or lines made up by decoding. `count` wraps the raw bytes (before
/// decoding) for progress.
pub(crate) fn open(
    raw: Raw,
    count: impl Fn(Stream) -> Stream,
    check_text: bool,
) -> Result<Text, OpenError> {
    if !check_text {
        let stream = count(match raw {
            Raw::File(file) => Box::new(Whole::new(file)),
            Raw::Stream(stream) => stream,
        });
        return Ok(Text {
            stream,
            cr_lines: false,
        });
    }
    // a regular file's decoded first block is read whole, as the file's own is in one read
    // (a decoder's first read may give less: an xz file's gave 34 KB, so a byte the plain or
    // gzipped file was refused for passed, and the same data had two outcomes)
    let whole_block = matches!(raw, Raw::File(_));
    let (format, raw) = match raw {
        Raw::File(mut file) => {
            let head = peek(&mut file, 8)?;
            file.seek(SeekFrom::Start(0))?;
            (Format::of(&head), Raw::File(file))
        }
        Raw::Stream(mut stream) => {
            // a whole first block, not just the magic: the text check reads from it again
            let head = first_block(&mut stream, 8)?;
            let format = Format::of(&head);
            let whole: Stream = Box::new(Cursor::new(head).chain(stream));
            (format, Raw::Stream(whole))
        }
    };
    let decoded = match (format, raw) {
        (Some(Format::Zip), Raw::File(file)) => zip_entry(file, &count)?,
        (Some(Format::Zip), Raw::Stream(mut stream)) => {
            // the directory is at the end: keep the whole archive in an unnamed temporary file
            let mut spool = tempfile::tempfile()?;
            io::copy(&mut stream, &mut spool)?;
            spool.seek(SeekFrom::Start(0))?;
            zip_entry(spool, &count)?
        }
        (format, raw) => {
            let raw = count(match raw {
                Raw::File(file) => Box::new(Whole::new(file)),
                Raw::Stream(stream) => stream,
            });
            match format {
                Some(format) => Box::new(Named {
                    inner: format.decoder(raw)?,
                    format: format.name(),
                }),
                None => raw,
            }
        }
    };
    if check_text {
        text(decoded, format, whole_block)
    } else {
        Ok(Text {
            stream: decoded,
            cr_lines: false,
        })
    }
}

/// An input opened as text.
pub(crate) struct Text {
    /// Its bytes, decoded.
    pub stream: Stream,
    /// Its line ends are CRs alone, read as LFs ([`CrLines`]): its bytes on disk are not the
    /// bytes read, so it cannot be read in chunks.
    pub cr_lines: bool,
}

/// Bytes read at most to tell whether an input's lines end in CR alone.
const CR_LOOKAHEAD: usize = 1 << 20;

/// Whether the lines of an input starting with `block` end in CR alone (a CR followed by
/// another byte than LF): when the block holds such a CR and no LF at all, or when two such CRs
/// come before its first LF, outside double quotes (CR lines, then LF lines: `cat mac.txt
/// unix.txt`, `mac.txt` of two lines or more). A lone CR in the first line of an LF file (a
/// stray one, or CSV's in a quoted field) says nothing, with another later or not: it made the
/// whole file CR lines, a record made up, a quoted field's CR written back as an LF and every
/// line number after it off. `None` when the block cannot tell yet: no line end, or a CR that
/// ends it (its LF may come next), unless it is the whole input (`end`).
fn lines_end_in_cr(block: &[u8], end: bool) -> Option<bool> {
    let lone = |at: usize| at + 1 < block.len() && block[at + 1] != b'\n';
    let Some(lf) = memchr::memchr(b'\n', block) else {
        let any = memchr::memchr_iter(b'\r', block).any(lone);
        return (any || end).then_some(any);
    };
    let (mut quoted, mut lone_crs) = (false, 0);
    for (at, &byte) in block[..lf].iter().enumerate() {
        match byte {
            b'"' => quoted = !quoted,
            b'\r' if !quoted && lone(at) => lone_crs += 1,
            _ => {}
        }
    }
    Some(lone_crs >= 2)
}

/// Reads on into `block` (the input's first block, read from `stream`) until
/// [`lines_end_in_cr`] can tell, or [`CR_LOOKAHEAD`] bytes are read (then: not CR lines). The
/// first block alone said no when its first line was longer than the block, or when a pipe's
/// first read ended at its first CR: the whole input was then one line, its records lost.
fn tell_cr_lines(block: &mut Vec<u8>, stream: &mut Stream) -> io::Result<bool> {
    let mut end = block.is_empty();
    loop {
        if let Some(cr) = lines_end_in_cr(block, end) {
            return Ok(cr);
        }
        // past the lookahead by a byte at least: a CR that ends it is told lone or not
        if block.len() > CR_LOOKAHEAD {
            return Ok(false);
        }
        let len = block.len();
        block.resize(len + TEXT_CHECK, 0);
        let read = loop {
            match stream.read(&mut block[len..]) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                other => break other,
            }
        };
        block.truncate(len + *read.as_ref().unwrap_or(&0));
        end = read? == 0;
    }
}

/// Reads an input whose lines end in CR alone with each CR turned into an LF, and a CRLF pair
/// into one LF (`cat mac.txt dos.txt`: taken as two line ends, every CRLF made an empty line,
/// which broke a grid into rows and put every later line number one off a line).
pub(crate) struct CrLines {
    inner: Stream,
    /// The last byte read was a CR: an LF first in the next read is that CR's.
    after_cr: bool,
}

impl CrLines {
    pub(crate) fn new(inner: Stream) -> CrLines {
        CrLines {
            inner,
            after_cr: false,
        }
    }
}

impl Read for CrLines {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            let n = self.inner.read(buf)?;
            if n == 0 {
                return Ok(0);
            }
            // bytes kept, moved down over the LFs of CRLF pairs dropped
            let mut kept = 0;
            let mut from = 0;
            while from < n {
                let at = memchr::memchr2(b'\r', b'\n', &buf[from..n]).map_or(n, |i| from + i);
                buf.copy_within(from..at, kept);
                kept += at - from;
                if at == n {
                    self.after_cr = false;
                    break;
                }
                if buf[at] == b'\r' {
                    buf[kept] = b'\n';
                    kept += 1;
                    self.after_cr = true;
                } else if std::mem::take(&mut self.after_cr) && at == from {
                    // the LF right after a CR (in this read or the one before): the CR was
                    // the line end
                } else {
                    buf[kept] = b'\n';
                    kept += 1;
                }
                from = at + 1;
            }
            if kept > 0 {
                return Ok(kept);
            }
            // the read held only the LF of a pair: 0 would say the input ended
        }
    }
}

/// True when an input starting with `head` (its first 8 bytes, or all of a shorter one) is
/// compressed or an archive: read through a decoder, not as it is.
pub(crate) fn is_compressed(head: &[u8]) -> bool {
    Format::of(head).is_some()
}

/// A zstd skippable frame's magic (0x184D2A50 to 0x184D2A5F, little-endian): what `pzstd`
/// writes first (its frame sizes); the decoder reads past such frames. (Text never starts
/// with it: its fourth byte is a control character.)
fn is_skippable_frame(head: &[u8]) -> bool {
    head.len() >= 4 && head[0] & 0xF0 == 0x50 && head[1..4] == [0x2A, 0x4D, 0x18]
}

/// Reads up to `n` bytes (fewer only at the end of the input).
fn peek(src: &mut impl Read, n: usize) -> io::Result<Vec<u8>> {
    let mut head = Vec::with_capacity(n);
    src.take(n as u64).read_to_end(&mut head)?;
    Ok(head)
}

/// Reads the first block of `src`: up to [`TEXT_CHECK`] bytes, in as few reads as give at least
/// `min` of them (fewer at the end of the input). Reading no more than that keeps a pipe that
/// delivers a few lines and waits (a slow generator, a test feeding stdin) from stalling the run
/// until 64 KiB have come; a regular file gives the whole block in one read.
fn first_block(src: &mut impl Read, min: usize) -> io::Result<Vec<u8>> {
    match first_block_or_part(src, min) {
        (_, Some(e)) => Err(e),
        (block, None) => Ok(block),
    }
}

/// [`first_block`], keeping what was read before an error: the bytes, and the error to give
/// after them (`None`: none). A compressed file damaged or cut short within its first block
/// gave no record at all, where its records before the damage are to be written first (as
/// they were from a pipe, whose first block is a read or two).
fn first_block_or_part(src: &mut impl Read, min: usize) -> (Vec<u8>, Option<io::Error>) {
    let mut block = vec![0; TEXT_CHECK];
    let mut len = 0;
    let mut error = None;
    while len < min {
        match src.read(&mut block[len..]) {
            Ok(0) => break,
            Ok(n) => len += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => {
                error = Some(e);
                break;
            }
        }
    }
    block.truncate(len);
    (block, error)
}

/// A stream that fails with `error` once (and then ends): what follows the part of a first
/// block read before its error.
struct FailOnce(Option<io::Error>);

impl Read for FailOnce {
    fn read(&mut self, _buf: &mut [u8]) -> io::Result<usize> {
        self.0.take().map_or(Ok(0), Err)
    }
}

/// Checks that the first block of `stream` is text (see the module documentation); returns the
/// stream whole.
fn text(mut stream: Stream, format: Option<Format>, whole_block: bool) -> Result<Text, OpenError> {
    // a decoding error already names its format (see `Named`); one after some bytes comes
    // after them, once the records they hold are read
    let (block, error) = first_block_or_part(&mut stream, if whole_block { TEXT_CHECK } else { 1 });
    let mut stream: Stream = match error {
        Some(e) if block.is_empty() => return Err(e.into()),
        Some(e) => Box::new(FailOnce(Some(e))),
        None => stream,
    };
    let within = |what: String| match format {
        Some(f) => format!("{} data holding {what}", f.name()),
        None => what,
    };
    if block.starts_with(b"\xff\xfe") || block.starts_with(b"\xfe\xff") {
        return Err(OpenError::Unreadable(within(
            "UTF-16 text, not UTF-8; convert it first (iconv -f UTF-16 -t UTF-8)".to_string(),
        )));
    }
    if let Some(order) = utf16_without_bom(&block) {
        return Err(OpenError::Unreadable(within(format!(
            "UTF-16 text without a byte order mark, not UTF-8; convert it first (iconv -f \
             {order} -t UTF-8)"
        ))));
    }
    // where a stray byte is, by line too: a text file with one is fixed in an editor (a line
    // ends at an LF, or at a CR not before an LF, as the readers count lines of CR files)
    let line = |at: usize| {
        let before = &block[..at];
        let lone_crs = memchr::memchr_iter(b'\r', before)
            .filter(|&i| block.get(i + 1) != Some(&b'\n'))
            .count();
        memchr::memchr_iter(b'\n', before).count() + lone_crs + 1
    };
    if let Some(at) = memchr::memchr(0, &block) {
        let what = looks_like(&block).unwrap_or("binary data");
        return Err(OpenError::Unreadable(within(format!(
            "{what}, not puzzle text (a NUL byte at offset {at}, on line {})",
            line(at)
        ))));
    }
    if let Err(e) = std::str::from_utf8(&block) {
        // a character cut at the end of the block is not a fault: the next read holds its end
        if e.error_len().is_some() {
            let at = e.valid_up_to();
            let what = looks_like(&block).unwrap_or("not UTF-8 text");
            return Err(OpenError::Unreadable(within(format!(
                "{what} (byte 0x{:02X} at offset {at}, on line {}); puzzle text must be UTF-8 \
                 (iconv -f LATIN1 -t UTF-8 converts Latin-1)",
                block[at],
                line(at)
            ))));
        }
    }
    let mut block = block;
    let cr_lines = tell_cr_lines(&mut block, &mut stream)?;
    let whole: Stream = Box::new(Cursor::new(block).chain(stream));
    Ok(Text {
        stream: if cr_lines {
            Box::new(CrLines::new(whole))
        } else {
            whole
        },
        cr_lines,
    })
}

/// `UTF-16LE` or `UTF-16BE` when the start of `block` is ASCII text in UTF-16 without a byte
/// order mark (as some Windows tools write it): its first 256 code units or fewer, at least 4,
/// all ASCII text characters (printable, tab, CR, LF), each with a zero high byte on the same
/// side. It was called binary data for its NUL at offset 1.
fn utf16_without_bom(block: &[u8]) -> Option<&'static str> {
    let units = block.chunks_exact(2).take(256);
    if units.len() < 4 {
        return None;
    }
    let text = |b: u8| b.is_ascii_graphic() || matches!(b, b' ' | b'\t' | b'\r' | b'\n');
    let (mut le, mut be) = (true, true);
    for unit in units {
        le &= unit[1] == 0 && text(unit[0]);
        be &= unit[0] == 0 && text(unit[1]);
    }
    match (le, be) {
        (true, _) => Some("UTF-16LE"),
        (_, true) => Some("UTF-16BE"),
        _ => None,
    }
}

/// What a binary input's first bytes say it is, for the error message.
fn looks_like(head: &[u8]) -> Option<&'static str> {
    const MAGIC: [(&[u8], &str); 12] = [
        (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
        (b"Rar!\x1a\x07", "a RAR archive"),
        (b"\x04\x22\x4d\x18", "LZ4-compressed data"),
        (b"\x89PNG", "a PNG image"),
        (b"\xff\xd8\xff", "a JPEG image"),
        (b"GIF8", "a GIF image"),
        (b"%PDF", "a PDF document"),
        (b"\x7fELF", "an executable"),
        (b"PAR1", "a Parquet file"),
        (b"ARROW1", "an Arrow file"),
        (b"SQLite format 3\x00", "an SQLite database"),
        (
            b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1",
            "an old Microsoft Office document",
        ),
    ];
    if head.get(257..262) == Some(b"ustar") {
        return Some("a tar archive");
    }
    MAGIC
        .iter()
        .find(|(magic, _)| head.starts_with(magic))
        .map(|&(_, what)| what)
}

/// A decoder whose errors name its format (`gzip data: ...`).
struct Named {
    inner: Stream,
    format: &'static str,
}

impl Read for Named {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf).map_err(|e| {
            if e.kind() == io::ErrorKind::Interrupted {
                return e;
            }
            io::Error::new(e.kind(), format!("{} data: {e}", self.format))
        })
    }
}

/// The one data file of a zip archive, decoded as a stream.
fn zip_entry(file: File, count: &impl Fn(Stream) -> Stream) -> Result<Stream, OpenError> {
    let unreadable = |what: String| OpenError::Unreadable(what);
    let mut directory = file.try_clone()?;
    let mut archive = zip::ZipArchive::new(file)
        .map_err(|e| unreadable(format!("a damaged zip archive ({e})")))?;
    let mut data = Vec::new();
    for i in 0..archive.len() {
        let entry = archive
            .by_index_raw(i)
            .map_err(|e| unreadable(format!("a damaged zip archive ({e})")))?;
        if entry.is_file() && !is_metadata(entry.name()) {
            data.push(i);
        }
    }
    let names = |archive: &zip::ZipArchive<File>, of: &[usize]| {
        let names: Vec<String> = of
            .iter()
            .filter_map(|&i| archive.name_for_index(i))
            .map(String::from)
            .collect();
        super::text::names_excerpt(&names)
    };
    // the zip crate keeps one entry a name: two data files of one name look like one
    if let [_] = data.as_slice() {
        let all = data_file_names(&mut directory, archive.central_directory_start())?;
        if all.len() > 1 {
            return Err(unreadable(format!(
                "a zip archive with {} data files of one name ({}); unzip it and give the one \
                 to read",
                all.len(),
                super::text::names_excerpt(&all)
            )));
        }
    }
    let index = match data.as_slice() {
        [one] => *one,
        [] => return Err(unreadable("a zip archive with no data file".to_string())),
        several => {
            let spreadsheet = (0..archive.len())
                .filter_map(|i| archive.name_for_index(i))
                .any(|n| n == "[Content_Types].xml");
            let hint = if spreadsheet {
                "an Office document (xlsx?): export the sheet as CSV"
            } else {
                "unzip it and give the one to read"
            };
            return Err(unreadable(format!(
                "a zip archive with {} data files ({}); {hint}",
                several.len(),
                names(&archive, several)
            )));
        }
    };
    let name = names(&archive, &[index]);
    let (method, start, compressed, size, crc, encrypted) = {
        let entry = archive
            .by_index_raw(index)
            .map_err(|e| unreadable(format!("a damaged zip archive ({e})")))?;
        (
            entry.compression(),
            entry.data_start(),
            entry.compressed_size(),
            entry.size(),
            entry.crc32(),
            entry.encrypted(),
        )
    };
    if encrypted {
        return Err(unreadable(format!(
            "a zip archive whose data file {name} is encrypted"
        )));
    }
    let start = start.ok_or_else(|| unreadable("a damaged zip archive".to_string()))?;
    let mut file = archive.into_inner();
    file.seek(SeekFrom::Start(start))?;
    let raw = count(Box::new(file.take(compressed)));
    // the zip crate is built without its decoders (the stream is decoded here, with the crates
    // the other formats use), so every method but stored is one of its constants
    use zip::CompressionMethod as Method;
    let decoded: Stream = match method {
        Method::STORE => raw,
        Method::DEFLATE => decode::deflate(raw),
        Method::BZIP2 => decode::bzip2(raw),
        Method::ZSTD => decode::zstd(raw)?,
        Method::XZ => decode::xz(raw)?,
        other => {
            let method = match other {
                Method::DEFLATE64 => "Deflate64",
                Method::LZMA => "LZMA",
                Method::PPMD => "PPMd",
                Method::AES => "AES encryption",
                Method::SHRINK | Method::IMPLODE | Method::REDUCE_1 | Method::REDUCE_2 => {
                    "a legacy method"
                }
                Method::REDUCE_3 | Method::REDUCE_4 => "a legacy method",
                _ => "an unknown method",
            };
            return Err(unreadable(format!(
                "a zip archive whose data file {name} is compressed with {method}, which is not \
                 read here (stored, deflate, bzip2, zstd and xz are): unzip it first"
            )));
        }
    };
    Ok(Box::new(Checked {
        inner: decoded,
        hasher: crc32fast::Hasher::new(),
        length: 0,
        size,
        crc,
        name,
    }))
}

/// The names of the data files in a zip's central directory, read from its records (from
/// `start`, as long as they last): a second record of a name is counted too.
fn data_file_names(file: &mut File, start: u64) -> io::Result<Vec<String>> {
    let mut file = io::BufReader::new(file);
    file.seek(SeekFrom::Start(start))?;
    let mut names = Vec::new();
    let mut record = [0u8; 46];
    while file.read_exact(&mut record).is_ok() && record.starts_with(b"PK\x01\x02") {
        let field = |at: usize| u16::from_le_bytes([record[at], record[at + 1]]);
        let mut name = vec![0; usize::from(field(28))];
        file.read_exact(&mut name)?;
        file.seek_relative(i64::from(field(30)) + i64::from(field(32)))?;
        let name = String::from_utf8_lossy(&name).into_owned();
        if !name.ends_with('/') && !is_metadata(&name) {
            names.push(name);
        }
    }
    Ok(names)
}

/// Directories' siblings that are not data: macOS metadata.
fn is_metadata(name: &str) -> bool {
    let base = name.rsplit('/').next().unwrap_or(name);
    name.starts_with("__MACOSX/") || base.starts_with("._") || base == ".DS_Store"
}

/// A zip entry's decoded bytes, their length and CRC-32 checked against the directory at the end.
struct Checked {
    inner: Stream,
    hasher: crc32fast::Hasher,
    length: u64,
    size: u64,
    crc: u32,
    name: String,
}

impl Read for Checked {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self
            .inner
            .read(buf)
            .map_err(|e| io::Error::new(e.kind(), format!("zip data file {}: {e}", self.name)))?;
        if n > 0 {
            self.hasher.update(&buf[..n]);
            self.length += n as u64;
        } else {
            let crc = self.hasher.clone().finalize();
            if self.length != self.size || crc != self.crc {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "zip data file {}: {} bytes with CRC-32 {crc:08x}, the archive says {} \
                         with {:08x}: the archive is damaged",
                        self.name, self.length, self.size, self.crc
                    ),
                ));
            }
        }
        Ok(n)
    }
}

#[cfg(test)]
mod cr_tests {
    use super::*;

    /// zstd that starts with a skippable frame (what `pzstd` writes) is zstd: it was refused as
    /// "binary data, not puzzle text"; one in the middle was read already.
    #[test]
    fn zstd_starting_with_a_skippable_frame_is_decoded() {
        let text = b"puzzle one\npuzzle two\n";
        let frame = zstd::stream::encode_all(&text[..], 3).unwrap();
        let mut data = [0x5Eu8, 0x2A, 0x4D, 0x18, 4, 0, 0, 0, 1, 2, 3, 4].to_vec();
        data.extend_from_slice(&frame);
        data.extend_from_slice(&[0x50, 0x2A, 0x4D, 0x18, 0, 0, 0, 0]);
        data.extend_from_slice(&frame);
        let raw = Raw::Stream(Box::new(Cursor::new(data)));
        let mut opened = open(raw, |s| s, true).map_err(|_| ()).unwrap();
        let mut out = Vec::new();
        opened.stream.read_to_end(&mut out).unwrap();
        assert_eq!(out, [&text[..], &text[..]].concat());
        // not text's first bytes: 'P' '*' 'M' and a control character
        assert!(!is_skippable_frame(b"P*M puzzle"));
        assert!(!is_skippable_frame(b"P*M"));
    }

    #[test]
    fn lines_ended_by_a_lone_cr_are_told_and_crlf_and_stray_crs_are_not() {
        let tell = |block: &[u8]| lines_end_in_cr(block, false);
        assert_eq!(tell(b"puzzle,solution\r1,2\r"), Some(true));
        assert_eq!(tell(b"a\rb"), Some(true));
        assert_eq!(tell(b"puzzle,solution\r\n1,2\r\n"), Some(false));
        assert_eq!(tell(b"a\nb\rc"), Some(false));
        // a stray CR in the first line of an LF file
        assert_eq!(tell(b"# exported\r v2\npuzzle\n"), Some(false));
        // CR lines, then LF lines
        assert_eq!(tell(b"p1\rp2\rp3\np4\n"), Some(true));
        // CSV's quoted fields may hold a CR: the first line's, with others later, tells nothing
        assert_eq!(tell(b"r1,\"a\rb\"\nr2,\"c\rd\"\n"), Some(false));
        assert_eq!(tell(b"r1,\"a\rb\rc\"\nr2\n"), Some(false));
        // one CR line, LF lines, CR lines: a stray CR in the first line as far as it can tell
        assert_eq!(tell(b"p1\rp2\np3\rp4\r"), Some(false));
        // a CR that ends the block may be half of a CRLF; no line end says nothing yet
        assert_eq!(tell(b"abc\r"), None);
        assert_eq!(tell(b"no line end"), None);
        // unless that is the whole input
        assert_eq!(lines_end_in_cr(b"abc\r", true), Some(false));
        assert_eq!(lines_end_in_cr(b"no line end", true), Some(false));
    }

    #[test]
    fn a_first_line_longer_than_a_block_or_a_read_ending_at_a_cr_is_read_past() {
        // 70,000 bytes before the first CR: past the first block
        let mut text = vec![b'#'; 70_000];
        text.extend_from_slice(b"\rpuzzle\rpuzzle\r");
        let mut stream: Stream = Box::new(Cursor::new(text[TEXT_CHECK..].to_vec()));
        let mut block = text[..TEXT_CHECK].to_vec();
        assert!(tell_cr_lines(&mut block, &mut stream).unwrap());
        assert_eq!(block, text, "what was read on is kept");
        // a first read that ends at the first CR: the next says
        let mut stream: Stream = Box::new(Cursor::new(b"1,2\r".to_vec()));
        let mut block = b"id,puzzle\r".to_vec();
        assert!(tell_cr_lines(&mut block, &mut stream).unwrap());
        // LF lines longer than the lookahead: not CR lines, and nothing lost
        let text = vec![b'x'; CR_LOOKAHEAD + 10];
        let mut stream: Stream = Box::new(Cursor::new(text[10..].to_vec()));
        let mut block = text[..10].to_vec();
        assert!(!tell_cr_lines(&mut block, &mut stream).unwrap());
        assert!(block.len() > CR_LOOKAHEAD && text.starts_with(&block));
        // a lone CR that ends the lookahead is told by the byte after it
        let mut text = vec![b'#'; CR_LOOKAHEAD - 1];
        text.extend_from_slice(b"\rpuzzle\r");
        let mut stream: Stream = Box::new(Cursor::new(text[10..].to_vec()));
        let mut block = text[..10].to_vec();
        assert!(tell_cr_lines(&mut block, &mut stream).unwrap());
    }

    #[test]
    fn cr_lines_turn_every_cr_into_a_line_end() {
        let mut read = CrLines::new(Box::new(Cursor::new(b"1\r2\r\r3".to_vec())));
        let mut out = String::new();
        read.read_to_string(&mut out).unwrap();
        assert_eq!(out, "1\n2\n\n3");
    }

    /// A CRLF pair is one line end, also when a read ends between its CR and its LF (`cat
    /// mac.txt dos.txt`: each was two, a grid cut into rows, every later line number off).
    #[test]
    fn cr_lines_take_a_crlf_pair_for_one_line_end() {
        let text = b"1\r2\r\n3\r\n\r\n4\n5\r\r\n".to_vec();
        let expected = "1\n2\n3\n\n4\n5\n\n";
        // every way of cutting the input into reads
        for size in 1..=text.len() {
            let pieces: Vec<Vec<u8>> = text.chunks(size).map(<[u8]>::to_vec).collect();
            let stream = pieces
                .into_iter()
                .fold(Box::new(io::empty()) as Stream, |all, piece| {
                    Box::new(all.chain(Cursor::new(piece)))
                });
            let mut read = CrLines::new(stream);
            let mut out = Vec::new();
            let mut buf = [0u8; 64];
            loop {
                let n = read.read(&mut buf[..size]).unwrap();
                if n == 0 {
                    break;
                }
                out.extend_from_slice(&buf[..n]);
            }
            assert_eq!(String::from_utf8(out).unwrap(), expected, "reads of {size}");
        }
    }
}
