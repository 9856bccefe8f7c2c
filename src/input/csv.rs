//! The CSV format: a header row, then one puzzle a row in one column. The column is chosen by
//! [`Column`] or found by name ([`PUZZLE_COLUMNS`], first match in that order, ignoring ASCII case).
//! When asked for given solutions, another column holds them (see `Reader::read_solutions`).
//!
//! The `csv-core` crate does the parsing (quoting, quoted fields spanning lines); this reader
//! feeds it and owns the buffers, so that it can bound them. A row with too few or too many
//! fields, invalid UTF-8 or a bad puzzle is a malformed record and never an error; only I/O errors
//! stop reading. Blank lines are skipped, and so is a row that is a single blank field (a line of
//! spaces).
//!
//! There are no comment lines in CSV input: a row starting with `#` after the header is a record like
//! any other, malformed when it has no puzzle (blank and `#` lines before the header are skipped, as
//! for every input).
//!
//! Rows end at LF, as lines do in the line and grid formats: a CR before the LF is dropped from the
//! row's last field, and a lone CR elsewhere is part of a field (ending rows at a lone CR too would
//! split a row in two under one line number).
//!
//! Bounded memory: a row may hold at most `max` bytes (line ends inside quotes counted, its own LF
//! not). A longer one, say a 200 MB row or one whose unclosed quote runs on through the rest of
//! the file, is read no further than that: it is a malformed record, the rest of the line where
//! reading stopped is read past, and reading goes on at the next line with a fresh parser. So an
//! unclosed quote costs one malformed record of at most `max` bytes, never the rest of the file.
//!
//! Line numbers: the LFs before a row (blank lines) are read past here, so a row's line is known
//! before it is parsed; the LFs inside it (quoted fields spanning lines) are counted by the
//! parser as it reads them.

use std::io::{self, BufRead};

use super::bounded;
use super::csv_boundaries::{Boundaries, Misshapen, QuoteTrouble, RowShape, quote_trouble};
use super::detect::PUZZLE_COLUMNS;
use super::record::{Keep, Record};
use super::text::{excerpt, names_excerpt, plural, set_optional_text, to_text};
use crate::grid::Grid;

/// What reading one row found.
enum Row {
    /// The input ended.
    End,
    /// A row, its fields in the reader's buffers.
    Fields,
    /// A blank line, in pipe mode (otherwise blank lines are read past).
    Blank,
    /// A row longer than the cap, read past up to the end of line `through`.
    TooLong {
        /// The last line read past.
        through: u64,
    },
    /// A row whose quotes do not add up, its first line's fields read (the reason says what is
    /// wrong): in pipe mode, a line whose last field is quoted and not closed (the rest of that
    /// field was on the lines after it in the file, which pipe mode reads as rows of their own);
    /// otherwise a quote that never closes, or a quoted field spanning lines followed by more
    /// than a delimiter (see [`Replay`]).
    OpenQuote(String),
}

/// The bytes of a row read again: a quote that never closes (a row running to the end of the
/// input inside quotes) or a quoted field spanning lines and followed by more than a delimiter
/// (a stray quote closed by a later one: `1,P,"oops` ... `3,P,"fine"`) would make one row of
/// the lines after it, every one of them lost with no word said. Such a row is a malformed
/// record of its first line, and the lines after it are read again, as rows of their own.
///
/// What is read again, the row's bytes after its first line end, is read as if it came next
/// from the input, the input's own bytes after it: a row read again may go on past where the
/// row it came from ended (a stray quote just before a quoted field spanning lines: that field
/// is read whole). [`Boundaries`] follows the same rule, so blocks are cut only where a row
/// read this way ends, and the rows do not depend on where blocks were cut.
#[derive(Default)]
struct Replay {
    bytes: Vec<u8>,
    /// Bytes of `bytes` read so far: once all are, the source's come next.
    at: usize,
}

impl Replay {
    /// The bytes left to read again.
    fn left(&self) -> &[u8] {
        &self.bytes[self.at..]
    }

    /// The next bytes: those to read again, else `src`'s.
    fn fill<'a, R: BufRead>(&'a self, src: &'a mut R) -> io::Result<&'a [u8]> {
        match self.left() {
            [] => bounded::fill(src),
            left => Ok(left),
        }
    }

    /// Marks `n` bytes of those [`Replay::fill`] gave read.
    fn consume<R: BufRead>(&mut self, src: &mut R, n: usize) {
        match self.left().is_empty() {
            true => src.consume(n),
            false => self.at += n,
        }
    }

    /// Reads past the rest of the line (in the bytes to read again first); true when an LF
    /// ended it.
    fn skip_line<R: BufRead>(&mut self, src: &mut R) -> io::Result<bool> {
        if let Some(i) = memchr::memchr(b'\n', self.left()) {
            self.at += i + 1;
            return Ok(true);
        }
        self.at = self.bytes.len();
        bounded::skip_line(src)
    }

    /// Reads `again` first, then the rest of what was to be read again (if any).
    fn start(&mut self, again: &[u8]) {
        let rest = self.bytes.split_off(self.at);
        self.bytes.clear();
        self.bytes.extend_from_slice(again);
        self.bytes.extend_from_slice(&rest);
        self.at = 0;
    }
}

/// Reads CSV records; the header has been read when this exists.
pub(crate) struct CsvReader<R> {
    src: R,
    core: ::csv_core::Reader,
    /// The field bytes of the last row read, one field after another.
    out: Vec<u8>,
    /// Where each field of the last row ends in `out`.
    ends: Vec<usize>,
    /// Fields in the last row read.
    fields: usize,
    /// 0-based puzzle column.
    column: usize,
    /// 0-based column of given solutions, if read.
    solution_column: Option<usize>,
    /// 0-based column named as a solution column, read or not (see [`RowShape::solution`]).
    named_solution: Option<usize>,
    /// Number of columns in the header.
    width: usize,
    /// The header has been read (or there is none): rows have the shape of [`CsvReader::shape`].
    shaped: bool,
    /// The columns were named by `--csv-columns`, not by a header row (messages say which).
    headerless: bool,
    /// Line of the last row read.
    line: u64,
    /// Line of the next byte to read.
    next_line: u64,
    /// Bytes a row may hold.
    max: usize,
    delimiter: u8,
    /// The parser has read nothing since it was made or reset (see [`CsvReader::read_row`]).
    fresh: bool,
    /// Where rows end in the bytes read for blocks ([`CsvReader::read_block`]).
    boundaries: Boundaries,
    /// The bytes of fields read of a row that was too long (see [`CsvReader::kept_text`]).
    kept: usize,
    /// The input holds no quote: rows are read without the parser ([`CsvReader::set_plain`]).
    plain: bool,
    /// Every line is a record ([`CsvReader::set_pipe`]).
    pipe: bool,
    /// The line being read, in pipe mode.
    pipe_line: Vec<u8>,
    /// What records keep of their row (see [`CsvReader::set_keep`]).
    keep: Keep,
    /// The bytes of the row being parsed, as read (at most `max` and its line end).
    raw: Vec<u8>,
    /// Bytes read again (see [`Replay`]).
    replay: Replay,
}

/// A new parser of CSV rows with `delimiter` (quotes `"`, doubled inside quotes; rows end at LF).
/// (A parser must be made, or reset: csv-core's parsers do not survive `clone`, measured.)
pub(crate) fn parser(delimiter: u8) -> ::csv_core::Reader {
    ::csv_core::ReaderBuilder::new()
        .delimiter(delimiter)
        .terminator(::csv_core::Terminator::Any(b'\n'))
        .build()
}

impl CsvSettings {
    /// The field delimiter.
    pub(crate) fn delimiter(&self) -> u8 {
        self.delimiter
    }

    /// Bytes a row may hold.
    pub(crate) fn max(&self) -> usize {
        self.max
    }

    /// Every line is a row (pipe mode).
    pub(crate) fn pipe(&self) -> bool {
        self.pipe
    }

    /// The columns rows should have.
    pub(crate) fn shape(&self) -> RowShape {
        // the solutions read, else those `check` would read, never the puzzle's column
        let solution = self.solution_column.or(self.named_solution);
        RowShape {
            width: self.width,
            column: self.column,
            solution: solution.filter(|&c| c != self.column),
        }
    }
}

/// What reading a CSV input's rows takes besides the bytes: enough to read the rows of a block on
/// another thread exactly as this reader would.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CsvSettings {
    pipe: bool,
    delimiter: u8,
    width: usize,
    column: usize,
    solution_column: Option<usize>,
    named_solution: Option<usize>,
    headerless: bool,
    max: usize,
    keep: Keep,
}

impl<R: BufRead> CsvReader<R> {
    /// A reader of the rows of `src`, whose first byte is on line `line`; no header is read.
    fn start(src: R, line: u64, delimiter: u8, max: usize) -> CsvReader<R> {
        CsvReader::with_parser(src, line, parser(delimiter), delimiter, max)
    }

    /// A reader of the rows of `src` with the fresh parser `core` (set up for `delimiter`).
    fn with_parser(
        src: R,
        line: u64,
        mut core: ::csv_core::Reader,
        delimiter: u8,
        max: usize,
    ) -> CsvReader<R> {
        core.set_line(line);
        CsvReader {
            src,
            core,
            out: vec![0; 256],
            ends: vec![0; 16],
            fields: 0,
            column: 0,
            solution_column: None,
            named_solution: None,
            width: 0,
            shaped: false,
            headerless: false,
            line,
            next_line: line,
            max,
            delimiter,
            fresh: true,
            boundaries: Boundaries::new(delimiter, max),
            kept: 0,
            plain: false,
            pipe: false,
            pipe_line: Vec::new(),
            keep: Keep::default(),
            raw: Vec::new(),
            replay: Replay::default(),
        }
    }

    /// A reader of the rows of a block (see [`CsvReader::read_block`]) whose first byte is on line
    /// `line`, with the settings of the reader that read it.
    /// `parser` is one [`parser`] made for the settings' delimiter, perhaps used before (it is
    /// reset here): made once for each block buffer rather than for each block, since making
    /// one (its state tables) costs about 270,000 instructions, 170 a row of a block of Kaggle
    /// rows. [`CsvReader::into_parser`] gives it back.
    pub(crate) fn for_block(
        src: R,
        line: u64,
        settings: &CsvSettings,
        mut parser: ::csv_core::Reader,
    ) -> CsvReader<R> {
        parser.reset();
        let mut reader =
            CsvReader::with_parser(src, line, parser, settings.delimiter, settings.max);
        reader.width = settings.width;
        reader.shaped = true;
        reader.headerless = settings.headerless;
        reader.pipe = settings.pipe;
        reader.column = settings.column;
        reader.solution_column = settings.solution_column;
        reader.named_solution = settings.named_solution;
        reader.keep = settings.keep;
        reader
    }

    /// What [`CsvReader::for_block`] needs to read this input's rows.
    pub(crate) fn settings(&self) -> CsvSettings {
        CsvSettings {
            pipe: self.pipe,
            delimiter: self.delimiter,
            width: self.width,
            column: self.column,
            solution_column: self.solution_column,
            named_solution: self.named_solution,
            headerless: self.headerless,
            max: self.max,
            keep: self.keep,
        }
    }

    /// Appends the input's next rows to `bytes`, unparsed: whole rows (as this reader would read
    /// them, quoted line ends and the cap included) until `bytes` holds at least `target` more
    /// bytes or the input ends. Returns the lines appended (0 at the end of the input). The rows
    /// are then read by a [`CsvReader::for_block`] over `bytes`, on any thread.
    ///
    /// Rows end at LFs outside quotes, so a block is cut at the last LF that [`Boundaries`] says
    /// ends a row; when no byte appended is a quote (the usual case), every LF ends one and the
    /// bytes are not looked at one by one.
    ///
    /// On a read error, the whole lines read before it stay in `bytes` (and are counted) and the
    /// error is returned: reading ends there, so a row they leave open is read as it ends.
    pub(crate) fn read_block(&mut self, bytes: &mut Vec<u8>, target: usize) -> io::Result<u64>
    where
        R: bounded::DirectRead,
    {
        let start = bytes.len();
        if let Some(shape) = self.shape() {
            self.boundaries.set_shape(shape);
        }
        let read = (|| {
            loop {
                let before = bytes.len();
                let want = (start + target).saturating_sub(before).max(1);
                if bounded::read_lines(&mut self.src, bytes, want, self.max)? == 0 {
                    return Ok(());
                }
                // in pipe mode every line is a row by itself
                if !self.pipe {
                    self.boundaries.feed(&bytes[before..]);
                }
                if bytes.len() - start >= target && (self.pipe || self.boundaries.at_row_start()) {
                    return Ok(());
                }
            }
        })();
        if read.is_err() {
            bounded::keep_whole_lines(bytes, start);
        }
        let lines = bounded::count_lines(&bytes[start..]);
        self.next_line += lines;
        self.line = self.next_line - 1;
        read.map(|()| lines)
    }

    /// A reader of `src`, whose first line is line `skipped + 1`, that has no header row: its
    /// columns are named otherwise (`--csv-columns`) and the header width is `width`.
    pub(crate) fn headerless(
        src: R,
        skipped: u64,
        delimiter: u8,
        max: usize,
        width: usize,
    ) -> CsvReader<R> {
        let mut reader = CsvReader::start(src, skipped + 1, delimiter, max);
        reader.width = width;
        reader.shaped = true;
        reader.headerless = true;
        reader
    }

    /// Reads the header of `src`, whose first line is line `skipped + 1`; returns the reader and the
    /// header as read. The puzzle column is set with [`CsvReader::set_column`]. A header longer
    /// than `max` bytes is an error of kind `InvalidData`.
    pub(crate) fn new(
        src: R,
        skipped: u64,
        delimiter: u8,
        max: usize,
    ) -> io::Result<(CsvReader<R>, Vec<String>)> {
        let mut reader = CsvReader::start(src, skipped + 1, delimiter, max);
        let header: Vec<String> = match reader.read_row()? {
            Row::End | Row::Blank => Vec::new(),
            Row::Fields => reader.row().map(to_text).collect(),
            Row::TooLong { .. } => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    bounded::too_long("CSV header", max),
                ));
            }
            Row::OpenQuote(_) => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "CSV header: a quoted field runs past the end of its line",
                ));
            }
        };
        reader.width = header.len();
        reader.shaped = true;
        Ok((reader, header))
    }

    /// The parser, to be used again for another block ([`CsvReader::for_block`]).
    pub(crate) fn into_parser(self) -> ::csv_core::Reader {
        self.core
    }

    /// How many fields a row should have, as said in messages: `the header has 2`, or
    /// `--csv-columns names 2` where no header row named them.
    fn width_said(&self) -> String {
        match self.headerless {
            true => format!("--csv-columns names {}", self.width),
            false => format!("the header has {}", self.width),
        }
    }

    /// The columns rows should have, once the header is read.
    fn shape(&self) -> Option<RowShape> {
        self.shaped.then(|| self.settings().shape())
    }

    /// Sets the 0-based column named as a solution column (see [`RowShape::solution`]).
    pub(crate) fn set_named_solution(&mut self, column: Option<usize>) {
        self.named_solution = column;
    }

    /// Sets the 0-based puzzle column.
    pub(crate) fn set_column(&mut self, column: usize) {
        self.column = column;
    }

    /// Sets the 0-based column of given solutions (`None`: none read).
    pub(crate) fn set_solution_column(&mut self, column: Option<usize>) {
        self.solution_column = column;
    }

    /// The line of the last row read (1-based).
    pub(crate) fn line(&self) -> u64 {
        self.line
    }

    /// The line of the next byte to read.
    pub(crate) fn next_line(&self) -> u64 {
        self.next_line
    }

    /// The source of the rows.
    pub(crate) fn src(&self) -> &R {
        &self.src
    }

    /// The blocks read so far end where a row may start (see [`CsvReader::read_block`]).
    pub(crate) fn at_row_start(&self) -> bool {
        self.boundaries.at_row_start()
    }

    /// The next record, `None` at the end of the input.
    #[cfg(test)]
    pub(crate) fn next(&mut self, source: u32) -> io::Result<Option<Record>> {
        let mut record = Record::empty();
        Ok(self.next_into(source, &mut record)?.then_some(record))
    }

    /// Reads the next row into `out` and `ends` (or past it, when too long).
    fn read_row(&mut self) -> io::Result<Row> {
        if self.pipe {
            return self.read_pipe_row();
        }
        // blank lines before the row, read past here so that the row's first line is known
        loop {
            let available = self.replay.fill(&mut self.src)?;
            let blank = available.iter().take_while(|&&b| b == b'\n').count();
            let all = blank == available.len();
            self.replay.consume(&mut self.src, blank);
            self.next_line += blank as u64;
            self.core.set_line(self.next_line);
            if !all || blank == 0 {
                break;
            }
        }
        self.line = self.next_line;
        if self.plain {
            return self.read_plain_row();
        }
        self.parse_row()
    }

    /// Parses the row that starts at the next byte with csv-core (past the blank lines).
    fn parse_row(&mut self) -> io::Result<Row> {
        let (mut nout, mut nend, mut taken) = (0, 0, 0);
        // the row's own LF is allowed on top of its `max` bytes
        let limit = self.max.saturating_add(1);
        let mut at_line_start = true;
        self.raw.clear();
        loop {
            let available = self.replay.fill(&mut self.src)?;
            if !available.is_empty() && taken >= limit {
                return self.too_long(at_line_start, nout, nend);
            }
            let mut input = &available[..available.len().min(limit - taken)];
            // csv-core drops a UTF-8 BOM from the first bytes a fresh parser reads; the BOM at
            // the start of an input is gone already, and one anywhere else is data: one byte
            // first keeps the parser from seeing it
            if std::mem::take(&mut self.fresh) && input.starts_with(b"\xEF\xBB\xBF") {
                input = &input[..1];
            }
            if nout == self.out.len() {
                self.out.resize(2 * self.out.len(), 0);
            }
            if nend == self.ends.len() {
                self.ends.resize(2 * self.ends.len(), 0);
            }
            let (result, nin, o, e) =
                self.core
                    .read_record(input, &mut self.out[nout..], &mut self.ends[nend..]);
            let read = &input[..nin];
            // the row ends with this call: by its LF, or by the end of the input
            let by_lf = !input.is_empty();
            self.raw.extend_from_slice(read);
            // the parser counts the LFs it reads (blank lines before the row are added to it)
            self.next_line = self.core.line();
            if let Some(&last) = read.last() {
                at_line_start = last == b'\n';
            }
            self.replay.consume(&mut self.src, nin);
            taken += nin;
            nout += o;
            nend += e;
            match result {
                ::csv_core::ReadRecordResult::InputEmpty
                | ::csv_core::ReadRecordResult::OutputFull
                | ::csv_core::ReadRecordResult::OutputEndsFull => {}
                ::csv_core::ReadRecordResult::Record => {
                    // a last row with no LF may have taken one byte over
                    if taken - usize::from(at_line_start) > self.max {
                        return self.too_long(true, nout, nend);
                    }
                    self.fields = nend;
                    // ended by its LF, not by the end of the input (perhaps inside quotes)
                    return Ok(self.quotes_checked(by_lf));
                }
                ::csv_core::ReadRecordResult::End => return Ok(Row::End),
            }
        }
    }

    /// The row just parsed (`ended`: by its own line end, not the input's end), or, when its quotes do not add up (see
    /// [`Replay`]), its first line's fields, the lines after it to be read again.
    fn quotes_checked(&mut self, ended: bool) -> Row {
        // one line that ends: nothing to look at (the common case)
        let lines = self.next_line - self.line;
        if ended && lines == 1 {
            return Row::Fields;
        }
        let Some(trouble) = quote_trouble(&self.raw, self.delimiter, self.shape().as_ref()) else {
            return Row::Fields;
        };
        let through = self.next_line - u64::from(self.raw.last() == Some(&b'\n'));
        self.first_line_only();
        let again = match through > self.line {
            true => format!(
                " (lines {} to {through} would be one row): the lines after the first are read \
                 as rows of their own",
                self.line
            ),
            false => String::new(),
        };
        Row::OpenQuote(match trouble {
            QuoteTrouble::Unclosed => format!("a quote in the row never closes{again}"),
            QuoteTrouble::Stray => format!(
                "a quoted field spanning lines is followed by more than a delimiter, a stray \
                 quote?{again}"
            ),
            QuoteTrouble::Misshapen(how) => {
                let how = match how {
                    Misshapen::Fields(n) => {
                        format!("has {}, {}", plural(n, "field"), self.width_said())
                    }
                    Misshapen::LineEnd(c) if c == self.column => {
                        format!("holds a line end in its puzzle (column {})", c + 1)
                    }
                    Misshapen::LineEnd(c) => {
                        format!("holds a line end in its given solution (column {})", c + 1)
                    }
                };
                format!("a quoted field spans lines and the row {how}, a stray quote?{again}")
            }
        })
    }

    /// Makes the row just read (its bytes in `raw`) the fields of its first line, and sets the
    /// bytes after that line to be read again, with a fresh parser (see [`Replay`]).
    fn first_line_only(&mut self) {
        let first = memchr::memchr(b'\n', &self.raw).unwrap_or(self.raw.len());
        let raw = std::mem::take(&mut self.raw);
        self.replay.start(raw.get(first + 1..).unwrap_or_default());
        self.next_line = self.line + u64::from(first < raw.len());
        self.core.reset();
        let (nout, nend) = self.parse_whole(&raw[..first]);
        self.fresh = true;
        self.raw = raw;
        self.fields = nend;
        self.kept = nout;
    }

    /// [`CsvReader::read_row`] for input with no quote in it (see [`CsvReader::set_plain`]), past
    /// the blank lines: a row is the bytes up to the next LF and its fields are split at the
    /// delimiter, found with `memchr`, which is what csv-core makes of such bytes (with the cap:
    /// what it would have taken of a long row, and where it would have gone on), at a tenth of
    /// its cost.
    fn read_plain_row(&mut self) -> io::Result<Row> {
        let available = bounded::fill(&mut self.src)?;
        if available.is_empty() {
            return Ok(Row::End);
        }
        let limit = self.max.saturating_add(1);
        let lf = memchr::memchr(b'\n', available);
        let length = lf.unwrap_or(available.len());
        let kept = &available[..length.min(limit)];
        // a row ending within `limit` bytes (its LF counted) is whole; a last row with no LF
        // may take `limit` bytes and is then too long, but its last field is whole
        let whole = match lf {
            Some(_) => length < limit,
            None => length <= self.max,
        };
        let last_field_done = whole || (lf.is_none() && length <= limit);
        let (nout, nend) = split_plain(
            kept,
            self.delimiter,
            last_field_done,
            &mut self.out,
            &mut self.ends,
        );
        self.src.consume(length + usize::from(lf.is_some()));
        self.next_line += u64::from(lf.is_some());
        self.fields = nend;
        if whole {
            return Ok(Row::Fields);
        }
        self.kept = nout;
        Ok(Row::TooLong {
            through: self.next_line - 1,
        })
    }

    /// [`CsvReader::read_row`] in pipe mode ([`CsvReader::set_pipe`]): the next line is a row
    /// by itself, whatever its quotes say, and a blank line is a row too (a [`Row::Blank`]), so
    /// that every line gives one record.
    fn read_pipe_row(&mut self) -> io::Result<Row> {
        let mut line = std::mem::take(&mut self.pipe_line);
        line.clear();
        let read = bounded::read_line(&mut self.src, &mut line, self.max.saturating_add(1));
        let row = match read {
            Ok(Some(length)) => Ok(self.pipe_row(&line, length)),
            Ok(None) => Ok(Row::End),
            Err(e) => Err(e),
        };
        self.pipe_line = line;
        row
    }

    /// The row of one line in pipe mode: `line` is what was kept of it (at most `max + 2` bytes
    /// and its LF), `length` its length. Quotes are parsed within the line only.
    fn pipe_row(&mut self, line: &[u8], length: u64) -> Row {
        self.line = self.next_line;
        self.next_line += u64::from(line.last() == Some(&b'\n'));
        self.core.set_line(self.next_line);
        let content = line.strip_suffix(b"\n").unwrap_or(line);
        let long = length > self.max as u64;
        if !long && content.trim_ascii().is_empty() {
            return Row::Blank;
        }
        let kept = &content[..content.len().min(self.max.saturating_add(1))];
        let quoted = memchr::memchr(b'"', kept).is_some();
        let (nout, nend) = if !quoted {
            split_plain(kept, self.delimiter, true, &mut self.out, &mut self.ends)
        } else {
            self.core.reset();
            self.parse_whole(kept)
        };
        self.fields = nend;
        if long {
            self.kept = nout;
            return Row::TooLong { through: self.line };
        }
        if quoted && Self::ends_in_quotes(kept, self.delimiter) {
            self.kept = nout;
            return Row::OpenQuote(
                "a quoted field runs past the end of the line (with --pipe a CSV row is one line)"
                    .to_string(),
            );
        }
        // a line with an odd number of quotes that opens no field is the rest of a quoted field
        // that ran past an earlier line's end (the quote that closes it, and pairs): not a row,
        // whose fields would be cut where that field's text holds the delimiter. Told from the
        // line alone (a row of its own holds its quotes in pairs), so that a record never depends
        // on the line before it, which an engine may have put in another chunk.
        if quoted && memchr::memchr_iter(b'"', kept).count() % 2 == 1 {
            self.kept = nout;
            return Row::OpenQuote(
                "a quote without its pair: the rest of a quoted field that ran past the end of \
                 an earlier line? (with --pipe a CSV row is one line)"
                    .to_string(),
            );
        }
        Row::Fields
    }

    /// True when `line` (one line, no line end) ends inside a quoted field, as the CSV parser reads
    /// quotes: a field that starts with a quote is quoted, a doubled quote in it is a quote, and it
    /// ends at the next single quote; a quote anywhere else is a character.
    fn ends_in_quotes(line: &[u8], delimiter: u8) -> bool {
        // one line: no field spans lines, so the only trouble is an open quote
        quote_trouble(line, delimiter, None).is_some()
    }

    /// Parses `bytes` as the whole input of a fresh parser (the parser reset): one row, ended
    /// where the bytes end. Returns the bytes of fields and the fields read.
    fn parse_whole(&mut self, bytes: &[u8]) -> (usize, usize) {
        let (mut nout, mut nend) = (0, 0);
        let mut input = bytes;
        // a fresh parser drops a leading BOM: one byte first keeps it (see `read_row`)
        let mut one = input.starts_with(b"\xEF\xBB\xBF");
        loop {
            if nout == self.out.len() {
                self.out.resize(2 * self.out.len() + 1, 0);
            }
            if nend == self.ends.len() {
                self.ends.resize(2 * self.ends.len() + 1, 0);
            }
            let chunk = if std::mem::take(&mut one) {
                &input[..1]
            } else {
                input
            };
            let (result, nin, o, e) =
                self.core
                    .read_record(chunk, &mut self.out[nout..], &mut self.ends[nend..]);
            input = &input[nin..];
            nout += o;
            nend += e;
            match result {
                ::csv_core::ReadRecordResult::Record | ::csv_core::ReadRecordResult::End
                    if chunk.is_empty() =>
                {
                    break;
                }
                _ => {}
            }
        }
        self.core.reset();
        self.core.set_line(self.next_line);
        (nout, nend)
    }

    /// Pipe mode: every line is a record (see [`CsvReader::read_pipe_row`]).
    pub(crate) fn set_pipe(&mut self, pipe: bool) {
        self.pipe = pipe;
    }

    /// What records keep of their row (everything unless set otherwise): the simple rows of
    /// input with no quote (see [`CsvReader::read_simple_row`]) are read into records without
    /// what `keep` leaves out; other rows keep everything.
    pub(crate) fn set_keep(&mut self, keep: Keep) {
        self.keep = keep;
    }

    /// Reads rows as [`CsvReader::read_plain_row`] does: for input known to hold no quote.
    pub(crate) fn set_plain(&mut self, plain: bool) {
        self.plain = plain;
    }

    /// After a row has taken `max` bytes without ending (its first `nout` bytes of fields read, in
    /// `nend` whole fields and a part): reads past the rest of the line where reading stopped
    /// (unless it stopped just after a line end) and starts a fresh parser there.
    ///
    /// A row that has gone past a line end by then (a quoted field holding line ends) is instead
    /// a malformed record of its first line, and the lines after it are read again as rows of
    /// their own, as a row whose quote never closes is ([`Replay`]): reading past them would lose
    /// every row in them to one stray quote, and whether the quote would have closed a real field
    /// or run on through the rest of the input is not known without reading on, past the cap.
    /// (Before, such a row was read past up to where the cap was reached: a stray quote in a file
    /// of 20,000 rows cost the 400 rows after it.)
    fn too_long(&mut self, at_line_start: bool, nout: usize, nend: usize) -> io::Result<Row> {
        if memchr::memchr(b'\n', &self.raw).is_some() {
            let through = self.next_line - u64::from(at_line_start);
            self.first_line_only();
            // the cap reached just past the first line's end: that line is all the row read
            let (span, after) = match through > self.line {
                true => (
                    format!("lines {} to {through} would be one row", self.line),
                    "the first",
                ),
                false => (
                    format!("a quote open at the end of line {}", self.line),
                    "it",
                ),
            };
            return Ok(Row::OpenQuote(format!(
                "{} ({span}: a quote that never closes?): the lines after {after} are read as \
                 rows of their own",
                bounded::too_long("row", self.max),
            )));
        }
        if !at_line_start && self.replay.skip_line(&mut self.src)? {
            self.next_line += 1;
        }
        self.core.reset();
        self.core.set_line(self.next_line);
        self.fresh = true;
        self.fields = nend;
        self.kept = nout;
        Ok(Row::TooLong {
            through: self.next_line - 1,
        })
    }

    /// The fields of the last row read, the CR of a CRLF row end dropped from the last one.
    fn row(&self) -> impl Iterator<Item = &[u8]> {
        let ends = &self.ends[..self.fields];
        let last = ends.len().saturating_sub(1);
        let mut start = 0;
        ends.iter().enumerate().map(move |(i, &end)| {
            let field = self.out.get(start..end).unwrap_or_default();
            start = end;
            if i == last {
                field.strip_suffix(b"\r").unwrap_or(field)
            } else {
                field
            }
        })
    }

    /// Reads the next record into `record`, reusing its buffers; false at the end of the input.
    pub(crate) fn next_into(&mut self, source: u32, record: &mut Record) -> io::Result<bool> {
        let read = self.read_into(source, record)?;
        if read && self.pipe {
            record.without_cr();
        }
        Ok(read)
    }

    /// [`CsvReader::next_into`] but for pipe mode's CRs.
    fn read_into(&mut self, source: u32, record: &mut Record) -> io::Result<bool> {
        if self.plain && !self.pipe && self.read_simple_row(source, record)? {
            return Ok(true);
        }
        let mut open_quote = None;
        loop {
            match self.read_row()? {
                Row::End => return Ok(false),
                Row::TooLong { through } => {
                    let mut reason = bounded::too_long("row", self.max);
                    if through > self.line {
                        reason.push_str(&format!(
                            " (lines {} to {through}: an unclosed quote?)",
                            self.line
                        ));
                    }
                    record.source = source;
                    record.line = self.line;
                    // the fields read whole before the cap stay (a key before a long note)
                    let ends = &self.ends[..self.fields];
                    let last_end = ends.last().copied().unwrap_or(0);
                    record.fields.set_row(&self.out, ends, last_end);
                    record.cells = excerpt(&self.kept_text());
                    record.puzzle = Err(reason);
                    record.solution = None;
                    return Ok(true);
                }
                Row::Blank => {
                    record.source = source;
                    record.line = self.line;
                    record.fields.clear();
                    record.cells.clear();
                    record.puzzle = Err("blank line".to_string());
                    record.solution = None;
                    return Ok(true);
                }
                // its field was cut at the line end: taken as it stood, the row was read with
                // that field shortened (a note "two" of "two\nlines"), the next line a row too;
                // its fields are kept as read (its key columns say which row it is)
                Row::OpenQuote(reason) => {
                    open_quote = Some(reason);
                    break;
                }
                Row::Fields => {
                    let blank = self.fields == 1 && self.row().all(|f| f.trim_ascii().is_empty());
                    if !blank || self.pipe {
                        break;
                    }
                }
            }
        }
        let n = self.fields;
        let ends = &self.ends[..n];
        // as `row` gives them: the CR of a CRLF row end is not the last field's
        let end = ends.last().copied().unwrap_or(0);
        let last_start = n.checked_sub(2).map_or(0, |i| ends[i]);
        let row_end = if end > last_start && self.out[end - 1] == b'\r' {
            end - 1
        } else {
            end
        };
        let bad_utf8 = record.fields.set_row(&self.out, ends, row_end);
        if self.plain && !self.pipe {
            // split at the delimiter, in bytes with no quote, at LFs
            record.fields.mark_quote_free(self.delimiter);
        }
        record.source = source;
        record.line = self.line;
        record.puzzle = match self.row().nth(self.column) {
            None => {
                record.cells = excerpt(self.joined().as_slice());
                Err(format!(
                    "row has {}, the puzzle is column {}",
                    plural(n, "field"),
                    self.column + 1
                ))
            }
            Some(field) => {
                let field = field.trim_ascii();
                let puzzle = if n != self.width {
                    Err(format!(
                        "row has {}, {}",
                        plural(n, "field"),
                        self.width_said()
                    ))
                } else if let Some(i) = bad_utf8 {
                    Err(format!("invalid UTF-8 in column {}", i + 1))
                } else {
                    Grid::parse(field).map_err(|e| e.to_string())
                };
                // a puzzle is ASCII, and its field was checked with the row
                let parsed = record.fields.get(self.column).filter(|_| puzzle.is_ok());
                set_cells(&mut record.cells, parsed.map(str::trim_ascii), field);
                puzzle
            }
        };
        self.set_solution(record);
        if let Some(reason) = open_quote {
            record.puzzle = Err(reason);
            record.solution = None;
        }
        cr_hint(&mut record.puzzle, &self.out[..row_end]);
        Ok(true)
    }

    /// Reads the next row into `record` when it is a plain one (see [`CsvReader::set_plain`]) and
    /// simple: the row starts at the next byte (no blank line before it), is no longer than the
    /// cap, is UTF-8, has the header's width and is not a single blank field. Returns false for
    /// any other, with nothing consumed (`record`, perhaps changed, is then filled the other
    /// way): [`CsvReader::read_row`] reads it. What is read here is what
    /// that reading would give (the property tests compare them), in one pass fewer: the row's
    /// bytes are split into the record's fields as they are copied, not first into the reader's
    /// buffers (on Kaggle rows, 2.5% less CPU for a whole `solve`).
    fn read_simple_row(&mut self, source: u32, record: &mut Record) -> io::Result<bool> {
        let available = bounded::fill(&mut self.src)?;
        let lf = memchr::memchr(b'\n', available);
        let length = lf.unwrap_or(available.len());
        if length == 0 || length > self.max {
            return Ok(false);
        }
        let row = &available[..length];
        let Ok(text) = std::str::from_utf8(row.strip_suffix(b"\r").unwrap_or(row)) else {
            return Ok(false);
        };
        // the fields, when kept or needed for the given solution; else the row is looked at
        // where the puzzle is, not copied
        let (field, n) = if self.keep.fields || self.solution_column.is_some() {
            record.fields.set_plain_row(text, self.delimiter);
            let n = record.fields.len();
            (record.fields.get(self.column).unwrap_or_default(), n)
        } else {
            record.fields.clear();
            puzzle_field(text, self.delimiter, self.column)
        };
        let field = field.trim_ascii();
        if n != self.width || (n == 1 && field.is_empty()) {
            return Ok(false); // the header's width or not, and a blank row is read past
        }
        let puzzle = Grid::parse(field.as_bytes()).map_err(|e| e.to_string());
        if self.keep.cells {
            let parsed = puzzle.is_ok().then_some(field);
            set_cells(&mut record.cells, parsed, field.as_bytes());
        } else {
            record.cells.clear();
        }
        record.puzzle = puzzle;
        cr_hint(&mut record.puzzle, text.as_bytes());
        record.source = source;
        self.row_read(length, lf.is_some(), record);
        self.set_solution(record);
        Ok(true)
    }

    /// Moves past a row read by [`CsvReader::read_simple_row`], `length` bytes and an LF when
    /// `lf`, and gives `record` its line.
    fn row_read(&mut self, length: usize, lf: bool, record: &mut Record) {
        self.src.consume(length + usize::from(lf));
        self.line = self.next_line;
        self.next_line += u64::from(lf);
        record.line = self.line;
    }

    /// Sets the record's given solution from the solution column, when read.
    fn set_solution(&self, record: &mut Record) {
        let solution = self
            .solution_column
            .and_then(|i| record.fields.get(i))
            .map(|f| f.trim().as_bytes())
            .filter(|f| !f.is_empty());
        set_optional_text(&mut record.solution, solution);
    }

    /// What was read of a row too long to read whole, its fields joined with `,`, for showing it.
    fn kept_text(&self) -> Vec<u8> {
        let mut text = self.joined();
        let done = self.ends[..self.fields].last().copied().unwrap_or(0);
        if let Some(part) = self.out.get(done..self.kept).filter(|p| !p.is_empty()) {
            if self.fields > 0 {
                text.push(b',');
            }
            text.extend_from_slice(part);
        }
        text
    }

    /// The fields of the last row joined with `,`, for showing a row that lacks its puzzle.
    fn joined(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for (i, f) in self.row().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.extend_from_slice(f);
        }
        out
    }
}

/// The field `column` of `row` (a row with no quote, split at `delimiter`, an ASCII byte; empty
/// when the row has fewer fields), and the number of fields of the row.
fn puzzle_field(row: &str, delimiter: u8, column: usize) -> (&str, usize) {
    let (mut start, mut end, mut n) = (0, row.len(), 1);
    for at in memchr::memchr_iter(delimiter, row.as_bytes()) {
        // the delimiter that ends field n - 1 and starts field n
        if n == column {
            start = at + 1;
        } else if n == column + 1 {
            end = at;
        }
        n += 1;
    }
    let field = if n > column {
        row.get(start..end)
    } else {
        None
    };
    (field.unwrap_or_default(), n)
}

/// Sets a record's `cells` for its puzzle field, `field` as read (trimmed): `parsed`, its text,
/// when the puzzle parsed, or else an excerpt of it.
fn set_cells(cells: &mut String, parsed: Option<&str>, field: &[u8]) {
    match parsed {
        Some(text) => {
            cells.clear();
            cells.push_str(text);
        }
        None => *cells = excerpt(field),
    }
}

/// Adds to the reason of a malformed row that holds a CR (`row`, without the CR of a CRLF end)
/// that the file may mix line ends: the row is then two lines of it run together (`P1,S1\rP2,S2`,
/// "row has 3 fields"), which the reason alone did not say.
fn cr_hint(puzzle: &mut Result<Grid, String>, row: &[u8]) {
    if let Err(reason) = puzzle {
        if memchr::memchr(b'\r', row).is_some() {
            reason.push_str(
                "; the row holds a carriage return (CR) that is not its end: the file may mix \
                 line ends (convert them to one kind: dos2unix, mac2unix)",
            );
        }
    }
}

/// Splits a row with no quote at `delimiter` into `out` (the fields' bytes, one after another)
/// and `ends` (where each field ends), as csv-core does; returns the bytes and fields written.
/// Unless `last_field_done`, the bytes after the last delimiter are a field cut short: written,
/// but not counted as a field.
fn split_plain(
    row: &[u8],
    delimiter: u8,
    last_field_done: bool,
    out: &mut Vec<u8>,
    ends: &mut Vec<usize>,
) -> (usize, usize) {
    if out.len() < row.len() {
        out.resize(row.len(), 0);
    }
    let (mut nout, mut nend, mut at) = (0, 0, 0);
    let delimiters = memchr::memchr_iter(delimiter, row);
    for end in delimiters.chain(last_field_done.then_some(row.len())) {
        let piece = &row[at..end];
        out[nout..nout + piece.len()].copy_from_slice(piece);
        nout += piece.len();
        if nend == ends.len() {
            ends.resize(2 * ends.len() + 1, 0);
        }
        ends[nend] = nout;
        nend += 1;
        at = end + 1;
    }
    if !last_field_done {
        // the part of a field the row was cut in
        let piece = row.get(at..).unwrap_or_default();
        out[nout..nout + piece.len()].copy_from_slice(piece);
        nout += piece.len();
    }
    (nout, nend)
}

/// The `csv` crate's error as an I/O error, unwrapped when it is one. Used by the reader and by the
/// CSV writer (`output::csv`). With ByteRecords, flexible rows and rows padded to the header's width
/// only I/O can fail; any other kind would be a bug and is reported as invalid data.
pub(crate) fn csv_io_error(err: ::csv::Error) -> io::Error {
    match err.into_kind() {
        ::csv::ErrorKind::Io(e) => e,
        other => io::Error::new(io::ErrorKind::InvalidData, format!("CSV: {other:?}")),
    }
}

/// A CSV column chosen by header name or by 1-based position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Column {
    /// Header name, matched exactly first, then ignoring ASCII case.
    Name(String),
    /// 1-based position.
    Index(usize),
}

/// The 0-based puzzle column of `header`, or why there is none.
pub(crate) fn find_column(header: &[String], column: Option<&Column>) -> Result<usize, String> {
    let found = find_column_once(header, column)?;
    if matches!(column, Some(Column::Index(_))) {
        return Ok(found);
    }
    // a name the header holds twice (the same text; `GRID` and `grid` are told apart by a
    // name given exactly): the first was taken without a word, the other ignored
    let name = header[found].trim();
    match header
        .iter()
        .enumerate()
        .position(|(i, h)| i != found && h.trim() == name)
    {
        None => Ok(found),
        Some(other) => Err(format!(
            "the header names {name:?} twice (columns {} and {}); choose one with --column {} \
             or --column {}",
            found.min(other) + 1,
            found.max(other) + 1,
            found.min(other) + 1,
            found.max(other) + 1
        )),
    }
}

/// [`find_column`] before the test for a name held twice.
fn find_column_once(header: &[String], column: Option<&Column>) -> Result<usize, String> {
    let names = || names_excerpt(header);
    match column {
        Some(Column::Index(i)) => {
            if (1..=header.len()).contains(i) {
                Ok(i - 1)
            } else {
                Err(format!(
                    "no column {i}: the header has {} ({})",
                    plural(header.len(), "column"),
                    names()
                ))
            }
        }
        Some(Column::Name(name)) => header
            .iter()
            .position(|h| h.trim() == name)
            .or_else(|| {
                header
                    .iter()
                    .position(|h| h.trim().eq_ignore_ascii_case(name.trim()))
            })
            .ok_or_else(|| format!("no column named {name:?} in the header ({})", names())),
        None => find_named(header, &PUZZLE_COLUMNS).ok_or_else(|| {
            // a run's `-O jsonl` output fed to another run: say so rather than only that the
            // "header" (its first record) names no puzzle column
            let json = header
                .first()
                .is_some_and(|h| h.trim_start().starts_with('{'));
            format!(
                "no puzzle column in the header ({}); name it {} or choose it with \
                 --column{}",
                names(),
                PUZZLE_COLUMNS.join("/"),
                if json {
                    " (this looks like JSON Lines, which sudoku-batch writes but does not read: \
                     feed one run to another with -O csv or -O line)"
                } else {
                    ""
                }
            )
        }),
    }
}

/// The 0-based position of the first of `names` (in their order of preference) that `header` has,
/// ignoring ASCII case and spaces around header names.
pub(crate) fn find_named(header: &[String], names: &[&str]) -> Option<usize> {
    names.iter().find_map(|want| {
        header
            .iter()
            .position(|h| h.trim().eq_ignore_ascii_case(want))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::bounded::DEFAULT_MAX_RECORD;

    const KAGGLE: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/kaggle_200.csv"));

    fn read_all(text: &[u8]) -> (Vec<String>, Vec<Record>) {
        let (mut r, header) = CsvReader::new(text, 0, b',', DEFAULT_MAX_RECORD).unwrap();
        r.set_column(find_column(&header, None).unwrap());
        let mut out = Vec::new();
        while let Some(rec) = r.next(0).unwrap() {
            out.push(rec);
        }
        (header, out)
    }

    #[test]
    fn a_line_ends_in_quotes_only_inside_a_quoted_field() {
        let open = |line: &str| CsvReader::<&[u8]>::ends_in_quotes(line.as_bytes(), b',');
        assert!(open(r#"k2,puzzle,"two"#));
        assert!(open(r#""a""b"#));
        assert!(open(r#"a,"b"",c"#));
        assert!(!open(r#"k3,puzzle,"say ""hi"", ok""#));
        assert!(
            !open(r#"a"b,c"#),
            "a quote inside an unquoted field is a character"
        );
        assert!(!open(r#"lines""#));
        assert!(!open(r#""",x"#));
        assert!(!open("plain,row"));
    }

    #[test]
    fn reads_kaggle_rows_with_their_fields() {
        let (header, recs) = read_all(KAGGLE.as_bytes());
        assert_eq!(header, ["quizzes", "solutions"]);
        assert_eq!(recs.len(), 200);
        let first = KAGGLE.lines().nth(1).unwrap();
        assert_eq!(recs[0].fields.iter().collect::<Vec<_>>().join(","), first);
        assert_eq!(recs[0].cells, &first[..81]);
        assert!(recs.iter().all(|r| r.puzzle.is_ok()));
        assert_eq!(recs[199].line, 201);
    }

    #[test]
    fn rows_read_without_quotes_are_known_to_need_none() {
        let row = KAGGLE.lines().nth(1).unwrap();
        // rows read at once (read_simple_row), and one of the wrong width, read by read_row
        let text = format!("quizzes,solutions\n{row}\r\nx\ry,{row}\na,b,c\n");
        for plain in [true, false] {
            let (mut r, header) =
                CsvReader::new(text.as_bytes(), 0, b',', DEFAULT_MAX_RECORD).unwrap();
            r.set_column(find_column(&header, None).unwrap());
            r.set_plain(plain);
            let first = r.next(0).unwrap().unwrap();
            let second = r.next(0).unwrap().unwrap();
            // the CR of the row end is not a field's; the one inside a field is
            let want = plain.then_some(b',');
            assert_eq!(first.fields.quote_free(), want, "plain {plain}");
            assert_eq!(second.fields.quote_free(), None, "plain {plain}");
            assert_eq!(&second.fields[0], "x\ry");
            let third = r.next(0).unwrap().unwrap();
            assert_eq!(third.fields, ["a", "b", "c"]);
            assert_eq!(third.fields.quote_free(), want, "plain {plain}");
        }
    }

    #[test]
    fn finds_the_puzzle_column_by_preference_name_or_index() {
        let h: Vec<String> = ["id", "Solution", "QUIZ", "Puzzle"]
            .map(String::from)
            .into();
        assert_eq!(find_column(&h, None), Ok(3)); // puzzle beats quiz
        assert_eq!(find_column(&h[..3], None), Ok(2));
        let name = |s: &str| Some(Column::Name(s.to_string()));
        assert_eq!(find_column(&h, name("solution").as_ref()), Ok(1));
        assert_eq!(find_column(&h, Some(&Column::Index(1))), Ok(0));
        assert_eq!(
            find_column(&h, Some(&Column::Index(5))),
            Err("no column 5: the header has 4 columns (id, Solution, QUIZ, Puzzle)".into())
        );
        assert_eq!(
            find_column(&h, name("x").as_ref()),
            Err("no column named \"x\" in the header (id, Solution, QUIZ, Puzzle)".into())
        );
        assert!(
            find_column(&h[..2], None)
                .unwrap_err()
                .starts_with("no puzzle column in the header (id, Solution);")
        );
    }

    #[test]
    fn json_lines_taken_for_a_header_are_named() {
        let h: Vec<String> = ["{\"file\":\"a.txt\"", "\"line\":1", "\"puzzle\":\"..3\"}"]
            .map(String::from)
            .to_vec();
        let err = find_column(&h, None).unwrap_err();
        assert!(err.ends_with("(this looks like JSON Lines, which sudoku-batch writes but does not read: feed one run to another with -O csv or -O line)"), "{err}");
        let plain = find_column(&h[1..], None).unwrap_err();
        assert!(!plain.contains("JSON"), "{plain}");
    }

    #[test]
    fn header_errors_are_short_and_printable() {
        let huge: Vec<String> = vec!["a".repeat(10_000_000), "b".into()];
        let err = find_column(&huge, None).unwrap_err();
        assert!(err.len() < 400, "{} bytes", err.len());
        assert!(err.starts_with(&format!(
            "no puzzle column in the header ({}...);",
            "a".repeat(197)
        )));
        let garbage: Vec<String> = vec!["\x1b]0;pwned\x07\u{0}".into(), "x".into()];
        for column in [None, Some(Column::Index(3)), Some(Column::Name("y".into()))] {
            let err = find_column(&garbage, column.as_ref()).unwrap_err();
            assert!(err.contains("(\\u{1b}]0;pwned\\u{7}\\0, x)"), "{err}");
            assert!(!err.chars().any(char::is_control), "{err:?}");
        }
    }

    #[test]
    fn exact_name_beats_case_insensitive_match() {
        let h: Vec<String> = ["GRID", "grid"].map(String::from).into();
        let name = Column::Name("grid".into());
        assert_eq!(find_column(&h, Some(&name)), Ok(1));
    }

    #[test]
    fn quoted_fields_spanning_lines_keep_line_numbers_right() {
        let p = "1".repeat(81);
        let text = format!(
            "note,puzzle\n\"two\nlines\",{p}\nplain, {p} \n\"x\",\"{p}\"\n   \n\r\n\n\"a\r\nb\r\n\",{p}\r\nlast,{p}"
        );
        let (_, recs) = read_all(text.as_bytes());
        let lines: Vec<_> = recs.iter().map(|r| (r.line, r.puzzle.is_ok())).collect();
        assert_eq!(
            lines,
            [(2, true), (4, true), (5, true), (9, true), (12, true)]
        );
        assert_eq!(&recs[0].fields[0], "two\nlines");
        assert_eq!(recs[1].cells, p, "spaces around the puzzle are dropped");
        assert_eq!(recs[1].fields[1], format!(" {p} "), "fields stay as read");
    }

    #[test]
    fn wrong_width_rows_and_bad_bytes_are_malformed_records() {
        let p = "1".repeat(81);
        let mut text =
            format!("puzzle,rating\r\n{p},1\r\n{p}\r\n{p},1,extra\r\nshort\r\n").into_bytes();
        text.extend_from_slice(b"\xFF");
        text.extend_from_slice(format!("{p},2\r\n\r\n{p},3\r\n").as_bytes());
        let (_, recs) = read_all(&text);
        let got: Vec<_> = recs
            .iter()
            .map(|r| (r.line, r.puzzle.as_ref().err().cloned()))
            .collect();
        assert_eq!(
            got,
            [
                (2, None),
                (3, Some("row has 1 field, the header has 2".into())),
                (4, Some("row has 3 fields, the header has 2".into())),
                (5, Some("row has 1 field, the header has 2".into())),
                (6, Some("invalid UTF-8 in column 1".into())),
                (8, None),
            ]
        );
        assert_eq!(recs[3].cells, "short");
    }

    /// A row that is two lines of a file mixing line ends (`P1,1\rP2,2`) says so in its reason
    /// (it said "row has 3 fields" only), read plain or through the parser; a sound row with a
    /// CR in a quoted field is a row as before.
    #[test]
    fn a_malformed_row_holding_a_cr_says_the_file_may_mix_line_ends() {
        let p = "1".repeat(81);
        let text = format!("puzzle,rating\n{p},1\r{p},2\n{p},\"a\rb\"\n{p}\r{p}\n");
        for plain in [false, true] {
            let text = if plain {
                text.replace("\"a\rb\"", "3")
            } else {
                text.clone()
            };
            let (mut r, header) =
                CsvReader::new(text.as_bytes(), 0, b',', DEFAULT_MAX_RECORD).unwrap();
            r.set_column(find_column(&header, None).unwrap());
            r.set_plain(plain);
            let recs: Vec<Record> = std::iter::from_fn(|| r.next(0).unwrap()).collect();
            let got: Vec<_> = recs.iter().map(|r| r.puzzle.as_ref().err()).collect();
            let hint = "the row holds a carriage return (CR) that is not its end: the file may \
                        mix line ends";
            assert_eq!(got.len(), 3, "plain {plain}");
            let first = got[0].unwrap();
            assert!(
                first.starts_with("row has 3 fields, the header has 2; ") && first.contains(hint)
            );
            assert!(got[1].is_none(), "plain {plain}: {:?}", got[1]);
            let last = got[2].unwrap();
            assert!(last.starts_with("row has 1 field, the header has 2; ") && last.contains(hint));
            // one column: the row has the header's width, its field two puzzles
            let text = format!("puzzle\n{p}\r{p}\n");
            let (mut r, _) = CsvReader::new(text.as_bytes(), 0, b',', DEFAULT_MAX_RECORD).unwrap();
            r.set_plain(plain);
            let reason = r.next(0).unwrap().unwrap().puzzle.unwrap_err();
            assert!(
                reason.starts_with("found 163 cells") && reason.contains(hint),
                "{reason}"
            );
        }
    }

    /// Reads `text` with rows capped at `max` bytes, through a small buffer.
    fn read_capped(text: &[u8], max: usize) -> Vec<Record> {
        let src = io::BufReader::with_capacity(64, text);
        let (mut r, header) = CsvReader::new(src, 0, b',', max).unwrap();
        r.set_column(find_column(&header, None).unwrap());
        let mut out = Vec::new();
        while let Some(rec) = r.next(0).unwrap() {
            out.push(rec);
        }
        out
    }

    fn lines_and_reasons(recs: &[Record]) -> Vec<(u64, Option<String>)> {
        recs.iter()
            .map(|r| (r.line, r.puzzle.as_ref().err().cloned()))
            .collect()
    }

    #[test]
    fn a_row_longer_than_the_cap_is_malformed_and_reading_goes_on() {
        let p = "1".repeat(81);
        let big = "x".repeat(200_000);
        let text = format!("id,puzzle\n1,{p}\n{big},{p}\n\n3,{p}\n\"{big}\",{p}\n5,{p}");
        let recs = read_capped(text.as_bytes(), 1000);
        let long = Some("row longer than 1000 bytes".to_string());
        assert_eq!(
            lines_and_reasons(&recs),
            [
                (2, None),
                (3, long.clone()),
                (5, None),
                (6, long.clone()),
                (7, None)
            ]
        );
        assert!(recs[1].cells.chars().count() <= 200);
        // a row of exactly the cap is not too long, with or without its LF; one byte more is
        let row = format!("{},{p}", "y".repeat(1000 - 82));
        let text = format!("id,puzzle\n{row}\n{row}");
        assert!(
            read_capped(text.as_bytes(), 1000)
                .iter()
                .all(|r| r.puzzle.is_ok())
        );
        let text = format!("id,puzzle\ny{row}\ny{row}");
        let recs = read_capped(text.as_bytes(), 1000);
        assert_eq!(
            lines_and_reasons(&recs),
            [(2, long.clone()), (3, long)],
            "with and without a final LF"
        );
    }

    #[test]
    fn quote_trouble_is_an_open_quote_or_a_field_spanning_lines_and_going_on() {
        let trouble = |row: &str| quote_trouble(row.as_bytes(), b',', None);
        assert_eq!(trouble("1,p,ok\n"), None);
        assert_eq!(trouble("1,p,\"two\nlines\"\n"), None);
        assert_eq!(trouble("1,p,\"two\nlines\",x\n"), None);
        assert_eq!(trouble("1,p,\"two\nlines\"\r\n"), None);
        assert_eq!(
            trouble("1,p,\"a\"\"\nb\"\n"),
            None,
            "a doubled quote is a quote"
        );
        assert_eq!(
            trouble("1,p,\"ab\"c\n"),
            None,
            "one line: read as csv-core does"
        );
        assert_eq!(
            trouble("1,p,x\"y\n"),
            None,
            "a quote inside a field is a character"
        );
        assert_eq!(trouble("1,p,\"oops"), Some(QuoteTrouble::Unclosed));
        assert_eq!(
            trouble("1,p,\"oops\n2,p,ok\n"),
            Some(QuoteTrouble::Unclosed)
        );
        assert_eq!(
            trouble("1,p,\"oops\n2,p,ok\n3,p,\"fine\"\n"),
            Some(QuoteTrouble::Stray)
        );
    }

    #[test]
    fn a_row_spanning_lines_is_in_trouble_when_malformed_anyway() {
        let shape = RowShape {
            width: 3,
            column: 1,
            solution: Some(2),
        };
        let trouble = |row: &str| quote_trouble(row.as_bytes(), b',', Some(&shape));
        let misshapen = |how| Some(QuoteTrouble::Misshapen(how));
        // one line: a malformed row, but its quotes add up
        assert_eq!(trouble("1,p\n"), None);
        assert_eq!(trouble("1,p,s\n"), None);
        // spanning lines, read whole when it is well formed
        assert_eq!(trouble("\"1\n2\",p,s\n"), None, "not the puzzle's column");
        assert_eq!(trouble("1,\"\np\n\",s\r\n"), None, "a puzzle trimmed");
        let grid = ["1 2 3 4 5 6 7 8 9"; 9].join("\n");
        assert_eq!(
            trouble(&format!("1,\"{grid}\",s\n")),
            None,
            "a puzzle as a grid"
        );
        let grid = ["123456789"; 9].join("\r\n");
        assert_eq!(
            trouble(&format!("1,p,\"{grid}\"\n")),
            None,
            "a solution as a grid"
        );
        let eight = ["123456789"; 8].join("\n");
        assert_eq!(
            trouble(&format!("1,p,\"{eight}\"\n")),
            misshapen(Misshapen::LineEnd(2)),
            "8 rows are no grid"
        );
        // and read as a stray quote's row when it is not
        assert_eq!(
            trouble("1,\"p\n2,p\",s\n"),
            misshapen(Misshapen::LineEnd(1))
        );
        assert_eq!(
            trouble("1,p,\"s\n2,p,s\"\n"),
            misshapen(Misshapen::LineEnd(2))
        );
        assert_eq!(
            trouble("\"1,p,s\n2,p,s\"\n"),
            misshapen(Misshapen::Fields(1))
        );
        assert_eq!(trouble("1,p,\"s\n\",x\n"), misshapen(Misshapen::Fields(4)));
        assert_eq!(
            trouble("1,p,\"oops\n2,\"p\"\n"),
            Some(QuoteTrouble::Stray),
            "a stray quote's sign comes first"
        );
        // the given solution is looked at only when read; nothing is without a shape
        let no_solution = RowShape {
            solution: None,
            ..shape
        };
        let row = b"1,p,\"s\n2,p,s\"\n";
        assert_eq!(quote_trouble(row, b',', Some(&no_solution)), None);
        assert_eq!(quote_trouble(row, b',', None), None);
        assert_eq!(quote_trouble(b"\"1,p,s\n2,p,s\"\n", b',', None), None);
    }

    #[test]
    fn the_reader_and_the_boundaries_agree_on_rows_malformed_anyway() {
        // a stray quote in each column, closed at a line end or before a delimiter, and an id
        // spanning lines as it may: the boundaries say a row may start only on lines where
        // the reader starts a record, and do on the line after the last
        let (p, s) = ("1".repeat(81), "2".repeat(81));
        let rows = [
            format!("1,\"{p},{s}\n"),
            format!("2,{p},{s}\"\n"),
            format!("3,\"{p},{s}\n"),
            format!("4,{p}\",{s}\n"),
            format!("\"5,{p},{s}\n"),
            format!("6\",{p},{s}\n"),
            format!("7,{p},\"{s}\n8,{p},{s}\"\n"),
            format!("\"9\nnine\",{p},{s}\n"),
            // read again, the second line opens a quote that the third closes: no row starts
            // on the third
            format!("11,\"{p},{s}\n12,{p},\"\n{s}\"\n"),
            format!("10,{p},{s}\n"),
        ];
        let text = format!("id,puzzle,solution\n{}", rows.concat());
        for solutions in [false, true] {
            let mut reader = CsvReader::new(text.as_bytes(), 0, b',', 1000).unwrap().0;
            reader.set_column(1);
            reader.set_solution_column(solutions.then_some(2));
            let mut lines = Vec::new();
            while let Some(record) = reader.next(0).unwrap() {
                lines.push(record.line);
            }
            // an id spanning lines makes one record, well formed (lines 6 to 7, and 10 to 11),
            // and so does a solution spanning lines when solutions are not read (8 to 9)
            let want: Vec<u64> = match solutions {
                true => vec![2, 3, 4, 5, 6, 8, 9, 10, 12, 13, 15],
                false => vec![2, 3, 4, 5, 6, 8, 10, 12, 13, 15],
            };
            assert_eq!(lines, want, "solutions {solutions}");
            let mut ends = Boundaries::new(b',', 1000);
            ends.set_shape(reader.shape().unwrap());
            for (i, line) in text.split_inclusive('\n').enumerate().skip(1) {
                ends.feed(line.as_bytes());
                let next = i as u64 + 2;
                if ends.at_row_start() {
                    assert!(
                        lines.contains(&next) || next == 16,
                        "solutions {solutions}: line {next}"
                    );
                }
            }
            assert!(ends.at_row_start());
        }
    }

    #[test]
    fn rows_after_a_stray_quote_are_read_again_with_their_own_lines() {
        let p = "1".repeat(81);
        let text =
            format!("id,puzzle\n1,{p}\n\"2,{p}\n3,{p}\n\n\"4,{p}\n5,\"a\nb\"\n6,{p}\n\"7,{p}");
        // a small buffer: rows cross its refills
        let recs = read_capped(text.as_bytes(), 1000);
        let got = lines_and_reasons(&recs);
        assert_eq!(
            got,
            [
                (2, None),
                // the quote on line 3 is closed by the one on line 6, and more follows it
                (
                    3,
                    Some(
                        "a quoted field spanning lines is followed by more than a delimiter, a \
                         stray quote? (lines 3 to 6 would be one row): the lines after the first \
                         are read as rows of their own"
                            .into()
                    )
                ),
                (4, None),
                // read again, the quote on line 6 is closed on line 7, and more follows it
                (
                    6,
                    Some(
                        "a quoted field spanning lines is followed by more than a delimiter, a \
                         stray quote? (lines 6 to 7 would be one row): the lines after the first \
                         are read as rows of their own"
                            .into()
                    )
                ),
                // a quoted field spanning lines, as quotes go, but its puzzle "a\nb" holds a
                // line end, which no puzzle does: read as a stray quote's row, each line a record
                (
                    7,
                    Some(
                        "a quoted field spans lines and the row holds a line end in its puzzle \
                         (column 2), a stray quote? (lines 7 to 8 would be one row): the lines \
                         after the first are read as rows of their own"
                            .into()
                    )
                ),
                (8, Some("row has 1 field, the puzzle is column 2".into())),
                (9, None),
                (10, Some("a quote in the row never closes".into())),
            ]
        );
    }

    #[test]
    fn a_quoted_field_spanning_lines_after_a_stray_quote_is_read_whole() {
        // the stray quote on line 2 is closed by the one that opens row 2's note: read again,
        // that note runs on past where the first reading's row ended, and is read whole
        let p = "1".repeat(81);
        let text = format!("id,puzzle,note\n1,{p},\"oops\n2,{p},\"two\nlines\"\n3,{p},x\n");
        let recs = read_capped(text.as_bytes(), 1000);
        let got = lines_and_reasons(&recs);
        assert_eq!(got.len(), 3, "{got:?}");
        assert!(
            got[0].1.as_ref().unwrap().contains("stray quote"),
            "{got:?}"
        );
        assert_eq!(got[1..], [(3, None), (5, None)]);
        assert_eq!(recs[1].fields.get(2), Some("two\nlines"));
    }

    #[test]
    fn an_unclosed_quote_costs_one_record_not_the_rest_of_the_file() {
        let p = "1".repeat(81);
        let mut text = format!("id,puzzle\n1,{p}\n\"2,{p}\n");
        for i in 3..200 {
            text.push_str(&format!("{i},{p}\n"));
        }
        // the quote's row reaches the cap on line 14: its lines after the first are read again
        let recs = read_capped(text.as_bytes(), 1000);
        assert_eq!(recs[0].line, 2);
        assert_eq!(recs[1].line, 3);
        assert_eq!(
            recs[1].puzzle,
            Err(
                "row longer than 1000 bytes (lines 3 to 14 would be one row: a quote that never \
                 closes?): the lines after the first are read as rows of their own"
                    .into()
            )
        );
        assert_eq!(recs[1].fields, [format!("2,{p}\n").trim_end()]);
        let lines: Vec<u64> = recs[2..].iter().map(|r| r.line).collect();
        assert_eq!(lines, (4..=200).collect::<Vec<u64>>());
        assert!(recs[2..].iter().all(|r| r.puzzle.is_ok()));
        // the same records as when the cap lets the quote run on to the end of the input
        let whole = read_capped(text.as_bytes(), 1 << 20);
        assert_eq!(whole.len(), recs.len());
        assert!(
            whole[1]
                .puzzle
                .as_ref()
                .unwrap_err()
                .contains("never closes")
        );
        for (a, b) in whole.iter().zip(&recs).filter(|(a, _)| a.line != 3) {
            assert_eq!(
                (a.line, &a.puzzle, &a.fields),
                (b.line, &b.puzzle, &b.fields)
            );
        }
    }

    #[test]
    fn a_row_that_reaches_the_cap_in_a_quoted_field_holding_line_ends_starts_again_in_blocks() {
        // the reader's rows and the blocks' boundaries agree on a row read again after the cap
        let p = "1".repeat(81);
        let mut text = format!("id,puzzle,note\n1,{p},\"a\n");
        for i in 2..60 {
            text.push_str(&format!("{i},{p},\"x\"\n"));
        }
        for max in [100, 300, 1000, 5000] {
            let recs = read_capped(text.as_bytes(), max);
            assert_eq!(recs.len(), 59, "max {max}");
            assert!(
                recs[0]
                    .puzzle
                    .as_ref()
                    .unwrap_err()
                    .contains("read as rows")
            );
            assert!(recs[1..].iter().all(|r| r.puzzle.is_ok()), "max {max}");
            // fed a line at a time, the boundaries say a row may start only where a record
            // does (not on line 3, inside the row read again), and do after the last
            let mut ends = Boundaries::new(b',', max);
            let lines: Vec<u64> = recs.iter().map(|r| r.line).collect();
            for (i, line) in text.split_inclusive('\n').enumerate() {
                ends.feed(line.as_bytes());
                let next = i as u64 + 2;
                if ends.at_row_start() && next <= 60 {
                    assert!(
                        lines.contains(&next),
                        "max {max}: a row start on line {next}"
                    );
                }
            }
            assert!(ends.at_row_start(), "max {max}");
        }
    }

    #[test]
    fn a_quote_open_at_a_line_end_that_reaches_the_cap_is_said_of_that_line() {
        // the row's first line takes the cap and its LF: "lines 3 to 3 would be one row"
        let p = "1".repeat(81);
        let text = format!(
            "id,puzzle,note\n1,{p},ok\n2,{p},\"{}\n3,{p},ok\n",
            "x".repeat(15)
        );
        let recs = read_capped(text.as_bytes(), 100);
        let reason = "row longer than 100 bytes (a quote open at the end of line 3: a quote that \
                      never closes?): the lines after it are read as rows of their own";
        assert_eq!(
            lines_and_reasons(&recs),
            [(2, None), (3, Some(reason.to_string())), (4, None)]
        );
    }

    #[test]
    fn a_row_over_the_cap_keeps_the_fields_read_whole_before_it() {
        let p = "1".repeat(81);
        let long = "x".repeat(2000);
        for quote in ["", "\""] {
            let text = format!("id,puzzle,note\n1,{p},a\n2,{p},{quote}{long}{quote}\n3,{p},c\n");
            let recs = read_capped(text.as_bytes(), 1000);
            let got: Vec<_> = recs.iter().map(|r| (r.line, r.puzzle.is_ok())).collect();
            assert_eq!(got, [(2, true), (3, false), (4, true)], "{quote}");
            assert_eq!(recs[1].fields, ["2", p.as_str()], "{quote}");
        }
    }

    #[test]
    fn csv_io_errors_come_out_unchanged() {
        let err = csv_io_error(::csv::Error::from(io::Error::other("disk on fire")));
        assert_eq!(err.kind(), io::ErrorKind::Other);
        assert_eq!(err.to_string(), "disk on fire");
    }

    #[test]
    fn a_hash_row_is_a_record_not_a_comment() {
        let p = "1".repeat(81);
        let text = format!("puzzle,note\n# not a comment\n#{p},x\n{p},# note\n");
        let (_, recs) = read_all(text.as_bytes());
        let got: Vec<_> = recs.iter().map(|r| (r.line, r.puzzle.is_ok())).collect();
        assert_eq!(got, [(2, false), (3, false), (4, true)]);
        assert_eq!(recs[0].fields, ["# not a comment"]);
        assert_eq!(recs[1].puzzle, Err("found 82 cells, expected 81".into()));
    }

    #[test]
    fn row_without_the_puzzle_column_says_so() {
        let p = "1".repeat(81);
        let text = format!("id,puzzle\n7\n8,{p}\n");
        let (_, recs) = read_all(text.as_bytes());
        assert_eq!(
            recs[0].puzzle,
            Err("row has 1 field, the puzzle is column 2".into())
        );
        assert_eq!(recs[0].cells, "7");
        assert_eq!(recs[0].fields, ["7"]);
        assert!(recs[1].puzzle.is_ok());
    }
}
