//! Streaming readers: puzzles from line, CSV or grid files (or stdin), one [`Record`] per input record,
//! in input order, a batch at a time, never the whole input in memory.
//!
//! A record that cannot be read as a puzzle is still a record (`puzzle: Err(reason)`); only I/O errors
//! and inputs that cannot be read at all (no CSV puzzle column, mixed formats) are errors.
//!
//! With [`InputFormat::Auto`] the first input with content fixes the format; empty inputs (nothing
//! but a UTF-8 BOM, blank lines and `#` comment lines) give no records and are passed over. Its
//! format is told by the first of its meaningful lines (up to 100 of them, and no further once 1 MiB
//! is held) that tells one: a field of 81 cells means line format; a row of 9 cells
//! (`0 3 5 4 6 9 2 7 8`, `.3.4.6...`) means grid format; and, on the first meaningful line only, a
//! comma, semicolon or tab (or a lone puzzle column name such as `puzzle`) means CSV with a header
//! row, its delimiter the first of `,` `;` tab present in the header. Every line looked at is still
//! read as a record, so a broken first line (80 cells, `hello`) is a malformed record; only when none
//! of them tells the format is the input an error.
//!
//! Later inputs are read in that format without telling it again, so their broken first lines are
//! malformed records too, with two checks: after CSV, each later input's header must be the first
//! one's (spaces around names ignored); after line or grid, a later input whose first meaningful line
//! is surely a CSV header (it tells CSV and one of its fields is a puzzle column name) is an error.
//! An explicit format skips detection and reads every input that way.
//!
//! CSV input has no comment lines: after the header, a row starting with `#` is a record like any
//! other (malformed when it has no puzzle). Only the lines before the header may be comments.
//!
//! Before any of that, each input's bytes are opened by the `compressed` submodule: decoded when
//! they are gzip, zstd, xz or bzip2 (or the one data file of a zip), and refused, with a message
//! saying what they look like, when their first block is not UTF-8 text. No record may hold more
//! than [`ReaderOptions::max_record`] bytes (the `bounded` submodule): a longer one is a malformed
//! record read past in bounded memory.
//!
//! The layouts themselves, with their rules for malformed records, are described in the `line`,
//! `csv` and `grid` submodules.

use std::fs::{self, File};
use std::io::{self, BufReader, Cursor, Read, Seek, SeekFrom};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

mod block;
mod bounded;
mod chunks;
mod compressed;
mod csv;
mod csv_boundaries;
mod decode;
mod detect;
mod fields;
mod grid;
mod line;
mod pump;
mod record;
mod text;

pub use self::block::Block;
use self::block::Layout;
pub use self::bounded::DEFAULT_MAX_RECORD;
use self::chunks::Chunks;
use self::compressed::{OpenError, Raw, Stream};
pub use self::csv::Column;
pub(crate) use self::csv::csv_io_error;
use self::csv::{CsvReader, find_column, find_named};
pub use self::detect::{InputFormat, SOLUTION_COLUMNS};
use self::detect::{
    Preamble, Sniffed, csv_delimiter, detect, format_name, header_record, is_csv_header,
    read_header_on, read_preamble, sniff,
};
pub use self::fields::Fields;
use self::grid::GridReader;
use self::line::LineReader;
use self::pump::Pump;
pub use self::pump::read_text;
pub use self::record::{Echo, Keep, Record};
pub(crate) use self::text::find_byte;
pub(crate) use self::text::is_status_word;
use self::text::names_excerpt;

/// Where to read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// Standard input (`-` on the command line).
    Stdin,
    /// A file.
    Path(PathBuf),
    /// Bytes in memory, read like a file's (named `<memory>` in messages).
    Bytes(Vec<u8>),
}

/// How to read the inputs.
#[derive(Debug, Clone)]
pub struct ReaderOptions {
    /// Input layout, or `Auto`.
    pub format: InputFormat,
    /// CSV puzzle column; found by name when `None`.
    pub column: Option<Column>,
    /// Bytes a record (a line, a grid row, a CSV row) may hold: a longer one is a malformed
    /// record, read past in bounded memory ([`DEFAULT_MAX_RECORD`] by default).
    pub max_record: usize,
    /// When set, raising this flag (a signal handler does) stops reading: the record being read
    /// is dropped and the reader acts as if every input had ended. Streams (stdin, pipes) are
    /// then read on a thread of their own, so that a read waiting on an idle pipe does not hold
    /// the stop up (the `pump` submodule).
    pub stop: Option<Arc<AtomicBool>>,
    /// Pipe mode, for record-pipe engines (Spark's `RDD.pipe`): every line is exactly one
    /// record, blank and `#` lines included (malformed: `blank line`, `comment line`), and a CSV
    /// row ends with its line whatever its quotes say. `Auto` format is read as line input.
    pub pipe: bool,
    /// The names of the columns of CSV input that has no header row (a chunk of a CSV file, as
    /// an engine hands it over): every line is then a row. Implies CSV. Its delimiter is a
    /// comma, or the `;` or tab that separates the names when they come as one (see
    /// [`headerless_columns`]): never told from a row, whose data may hold any of them.
    pub csv_columns: Option<Vec<String>>,
    /// What records of line input keep of their line besides the puzzle.
    pub echo: Echo,
}

impl Default for ReaderOptions {
    fn default() -> ReaderOptions {
        ReaderOptions {
            format: InputFormat::Auto,
            column: None,
            max_record: DEFAULT_MAX_RECORD,
            stop: None,
            pipe: false,
            csv_columns: None,
            echo: Echo::None,
        }
    }
}

/// Bytes read into a block per record asked for: about a line of 81 cells and a solution.
const BLOCK_BYTES_PER_RECORD: usize = 128;

/// Bytes of the shortest line record: 81 cells and a line end (see
/// [`Reader::read_blocks_of_at_most`]).
const SHORTEST_RECORD: usize = 82;

/// Errors that stop reading: the message names the input and, where known, the line.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// Reading failed.
    #[error("{name}: {error}")]
    Io {
        /// Input name (`<stdin>` for stdin).
        name: String,
        /// The I/O error. Not a `#[source]`: the message already holds it, and anyhow's `{:#}` would
        /// print it twice.
        error: std::io::Error,
    },
    /// The input is not puzzle text (binary data, UTF-16, an image), or an archive that cannot
    /// be read as one (several data files, an unknown method); the message says which.
    #[error("{name}: {message}")]
    Unreadable {
        /// Input name.
        name: String,
        /// What the input is, and what to do.
        message: String,
    },
    /// The input cannot be read in the chosen format.
    #[error("{name}:{line}: {message}")]
    Format {
        /// Input name.
        name: String,
        /// 1-based line.
        line: u64,
        /// What is wrong.
        message: String,
    },
}

/// Read buffer per input: large enough that reads are few and the byte counter is touched rarely,
/// small enough to stay in the core's cache between the kernel's copy into it and ours out of it
/// into a block (256 KiB cost 10% more CPU on a 1M-row Kaggle run than 32-128 KiB).
const BUFFER: usize = 64 * 1024;

/// Counts the bytes read from an input into the shared counter, once per read call (a buffer fill);
/// also what a regular file's stream gives its reader ([`Chunkable::given`]).
struct Counted {
    inner: Stream,
    bytes: Arc<AtomicU64>,
}

impl Read for Counted {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bytes.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// An opened input: its first meaningful line (already read while detecting) followed by the rest.
type Src = bounded::Src<Stream>;

/// The reader of the input being read.
enum Active {
    Line(LineReader<Src>),
    Grid(GridReader<Src>),
    /// Boxed: the CSV parser's state tables make it far larger than the others.
    Csv(Box<CsvReader<Src>>),
    /// A regular file's lines or rows, read in chunks on the threads that parse them: the
    /// layout of their blocks, and the chunks.
    Chunks(Box<(Layout, chunks::Chunks)>),
}

/// An input that may be read in chunks ([`Active::Chunks`]): a regular file, read as it is.
struct Chunkable {
    file: File,
    /// Bytes its stream has given to the reader (the offset in the file of the next one).
    given: Arc<AtomicU64>,
    /// The reader's byte count when it was opened.
    counted: u64,
    /// The file's length when it was opened: chunks that end before it were cut short.
    length: u64,
}

impl Active {
    /// Reads the next record into `record`; false at the end of the input.
    fn next_into(&mut self, source: u32, record: &mut Record) -> io::Result<bool> {
        match self {
            Active::Line(r) => r.next_into(source, record),
            Active::Csv(r) => r.next_into(source, record),
            // grids are few and large: a new record each is cheap enough
            Active::Grid(r) => Ok(r.next(source)?.map(|read| *record = read).is_some()),
            // only blocks are read in chunks (see `Reader::read_block`)
            Active::Chunks(_) => Err(io::Error::other(
                "an input read in chunks cannot be read record by record",
            )),
        }
    }

    /// How the blocks it reads next are to be parsed (input `source`); `Parsed` for grids, whose
    /// records are read, and for chunks, which carry theirs.
    fn block_layout(&self, source: u32) -> Layout {
        match self {
            Active::Line(r) => {
                let (pipe, echo) = r.modes();
                Layout::Line {
                    source,
                    line: r.line() + 1,
                    solutions: r.solutions(),
                    max: r.max(),
                    pipe,
                    echo,
                }
            }
            Active::Csv(r) => Layout::Csv {
                source,
                line: r.next_line(),
                settings: r.settings(),
            },
            Active::Grid(_) | Active::Chunks(_) => Layout::Parsed,
        }
    }

    fn line(&self) -> u64 {
        match self {
            Active::Line(r) => r.line(),
            Active::Grid(r) => r.line(),
            Active::Csv(r) => r.line(),
            Active::Chunks(_) => 0,
        }
    }
}

/// Where an input's bytes come from.
enum Origin {
    Stdin,
    Path(PathBuf),
    Memory(Vec<u8>),
    /// These bytes, then a read error.
    #[cfg(test)]
    Failing(Vec<u8>),
}

/// Reads records from the inputs, in order.
///
/// The first input that holds anything (empty inputs are passed over) is opened by [`Reader::open`]
/// and fixes the format and, for CSV, the header and puzzle column; later inputs are opened when
/// reached and read in that format (see the module documentation for the checks they get).
pub struct Reader {
    origins: Vec<Origin>,
    names: Vec<String>,
    requested: InputFormat,
    column: Option<Column>,
    /// Bytes a record may hold.
    max_record: usize,
    /// Raised to stop reading (see [`ReaderOptions::stop`]).
    stop: Option<Arc<AtomicBool>>,
    /// See [`ReaderOptions::pipe`].
    pipe: bool,
    /// See [`ReaderOptions::csv_columns`]: the names, and the delimiter.
    csv_columns: Option<(Vec<String>, u8)>,
    /// See [`ReaderOptions::echo`].
    echo: Echo,
    /// The resolved format (meaningful once `resolved`; before, the requested one or Line for Auto).
    format: InputFormat,
    resolved: bool,
    /// The input that fixed `format`: the first with content (`None` while none has).
    fixed_by: Option<u32>,
    header: Option<Vec<String>>,
    /// The field delimiter of the input `header` comes from.
    delimiter: Option<u8>,
    /// Input index and line of `header`, for messages about its columns.
    header_at: (usize, u64),
    /// 0-based puzzle column of the CSV header.
    puzzle_column: usize,
    /// Index of the next input to open.
    next: usize,
    /// The input being read and its index.
    active: Option<(u32, Active)>,
    bytes: Arc<AtomicU64>,
    total: Option<u64>,
    /// An error held back until the records read before it have been handed out.
    failed: Option<InputError>,
    /// Reading was stopped with input left unread ([`Reader::stopped_short`]).
    stopped_short: bool,
    /// Given solutions are read ([`Reader::read_solutions`]).
    solutions: bool,
    /// 0-based CSV solution column, when reading solutions from CSV input that has one.
    solution_column: Option<usize>,
    /// What records of CSV input keep of their rows ([`Reader::keep`]).
    keep: Keep,
    /// The input being read, when its blocks may be read in chunks.
    chunkable: Option<Chunkable>,
    /// Regular files are read in chunks ([`Reader::read_files_in_chunks`]).
    in_chunks: bool,
    /// Bytes read into a block per record asked for.
    block_bytes_per_record: usize,
    /// Bytes of a chunk, when not those of a block ([`Reader::read_block`]'s `records`).
    chunk_bytes: Option<u64>,
    /// How the first input with content is written (see [`Reader::text_layout`]).
    layout: TextLayout,
}

/// How an input's text is written, beyond its records: what writing records back as they were
/// read needs (`split`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TextLayout {
    /// It starts with a UTF-8 BOM (which reading drops).
    pub bom: bool,
    /// Its first meaningful line (a CSV header) ends with CRLF (which reading drops).
    pub crlf: bool,
}

impl Reader {
    /// Opens the inputs (the first one at once, to resolve its format and CSV header).
    pub fn open(sources: Vec<Source>, options: &ReaderOptions) -> Result<Reader, InputError> {
        let total = sources
            .iter()
            .map(|s| match s {
                Source::Stdin => regular_stdin()
                    .and_then(|f| f.metadata().ok())
                    .map(|m| m.len()),
                Source::Path(p) => std::fs::metadata(p)
                    .ok()
                    .filter(|m| m.is_file())
                    .map(|m| m.len()),
                Source::Bytes(b) => Some(b.len() as u64),
            })
            .sum::<Option<u64>>();
        let names = sources.iter().map(Source::name).collect();
        let origins = sources
            .into_iter()
            .map(|s| match s {
                Source::Stdin => Origin::Stdin,
                Source::Path(p) => Origin::Path(p),
                Source::Bytes(b) => Origin::Memory(b),
            })
            .collect();
        Reader::with_origins(origins, names, total, options)
    }

    fn with_origins(
        origins: Vec<Origin>,
        names: Vec<String>,
        total: Option<u64>,
        options: &ReaderOptions,
    ) -> Result<Reader, InputError> {
        let mut reader = Reader {
            origins,
            names,
            requested: options.format,
            column: options.column.clone(),
            max_record: options.max_record,
            stop: options.stop.clone(),
            pipe: options.pipe,
            csv_columns: options.csv_columns.as_deref().map(headerless_columns),
            echo: options.echo.clone(),
            format: match options.format {
                _ if options.csv_columns.is_some() => InputFormat::Csv,
                InputFormat::Auto => InputFormat::Line,
                f => f,
            },
            resolved: false,
            fixed_by: None,
            header: None,
            delimiter: None,
            header_at: (0, 0),
            puzzle_column: 0,
            next: 0,
            active: None,
            bytes: Arc::new(AtomicU64::new(0)),
            total,
            failed: None,
            stopped_short: false,
            solutions: false,
            solution_column: None,
            keep: Keep::default(),
            chunkable: None,
            in_chunks: false,
            block_bytes_per_record: BLOCK_BYTES_PER_RECORD,
            chunk_bytes: None,
            layout: TextLayout::default(),
        };
        while !reader.resolved && reader.next < reader.origins.len() {
            reader.open_next_or_stop()?;
        }
        Ok(reader)
    }

    /// Opens each later input that is a regular file as the run will when it gets there, and
    /// fails as the run would on one that cannot be read on (a CSV header after line input,
    /// line input or another header after CSV input, an unreadable compressed file); then
    /// goes on from where it was. Standard input from a regular file is read too, and put back
    /// at its start; pipes and devices are left for the run: opening them here would consume
    /// what they hold.
    ///
    /// Why before the run: such an input stopped the run when it was reached, after the
    /// outputs had been emptied, so a failed run had replaced the files it wrote with part of
    /// its output (`solve a.csv b.txt -o out.csv`).
    pub fn check_later_inputs(&mut self) -> Result<(), InputError> {
        let (next, bytes) = (self.next, self.bytes.load(Ordering::Relaxed));
        let active = self.active.take();
        let chunkable = self.chunkable.take();
        let mut result = Ok(());
        for index in next..self.origins.len() {
            // standard input redirected from a regular file (`- < more.csv`) is read ahead too,
            // and put back at its start for the run
            let (file, stdin) = match &self.origins[index] {
                Origin::Path(p) => (std::fs::metadata(p).is_ok_and(|m| m.is_file()), None),
                Origin::Stdin => match regular_stdin() {
                    Some(stdin) => (true, Some(stdin)),
                    None => (false, None),
                },
                _ => (false, None),
            };
            if file {
                self.next = index;
                result = self.open_next();
                self.active = None;
                if let Some(mut stdin) = stdin {
                    // the descriptor shares standard input's offset
                    if let Err(e) = stdin.seek(SeekFrom::Start(0)) {
                        result = result.and(Err(self.io_error(index, 0, e)));
                    }
                }
                if result.is_err() {
                    break;
                }
            }
        }
        self.next = next;
        self.bytes.store(bytes, Ordering::Relaxed);
        self.active = active;
        self.chunkable = chunkable;
        result
    }

    /// True once the stop flag is up.
    fn stopping(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// Stops reading: no input is read any further.
    fn stop_reading(&mut self) {
        self.stopped_short |= self.active.is_some() || self.next < self.origins.len();
        self.active = None;
        self.next = self.origins.len();
    }

    /// True when the stop flag ended reading before the end of the inputs (as far as the
    /// reader could tell: an input whose last byte was read but whose end was not yet seen
    /// counts as left unread). A run whose inputs were read whole was not cut short by it.
    pub fn stopped_short(&self) -> bool {
        self.stopped_short
    }

    /// Opens the next input; when that fails because reading was stopped, stops instead.
    fn open_next_or_stop(&mut self) -> Result<(), InputError> {
        match self.open_next() {
            Err(_) if self.stopping() => {
                // the input being opened was not read
                self.stopped_short = true;
                self.stop_reading();
                Ok(())
            }
            other => other,
        }
    }

    /// The resolved format (of the first input; every input must resolve to the same).
    pub fn format(&self) -> InputFormat {
        self.format
    }

    /// The input that fixed the format (the first with content), `None` when none has content.
    pub fn fixed_by(&self) -> Option<u32> {
        self.fixed_by
    }

    /// CSV header of the first input (every CSV input must have the same), `None` for other formats.
    pub fn header(&self) -> Option<&[String]> {
        self.header.as_deref()
    }

    /// How the first input with content is written: a BOM, CRLF line ends (told by its first
    /// meaningful line).
    pub fn text_layout(&self) -> TextLayout {
        self.layout
    }

    /// The field delimiter of the first CSV input (`,`, `;` or tab), `None` for other formats.
    pub fn csv_delimiter(&self) -> Option<u8> {
        self.delimiter
    }

    /// Name of input `source` for messages (`<stdin>` for stdin).
    pub fn source_name(&self, source: u32) -> &str {
        self.names
            .get(source as usize)
            .map_or("<unknown input>", String::as_str)
    }

    /// Appends up to `max` records to `out`; returns how many (0 at the end of all inputs).
    ///
    /// An error met after some records were read in this call is held back and returned by the next
    /// call, so the records before it are still processed and written.
    pub fn read_batch(&mut self, max: usize, out: &mut Vec<Record>) -> Result<usize, InputError> {
        let start = out.len();
        self.read_at(start, max, out)
    }

    /// Like [`Reader::read_batch`], but replaces the records in `batch` rather than appending: the
    /// records already there (left from a batch that has been written) are overwritten in place,
    /// their text buffers reused, so a steady run allocates nothing per record. `batch` is left
    /// holding just the records read.
    pub fn refill_batch(
        &mut self,
        max: usize,
        batch: &mut Vec<Record>,
    ) -> Result<usize, InputError> {
        self.read_at(0, max, batch)
    }

    /// Reads the next block: for line and CSV input, whole lines (rows) of about `records` records'
    /// worth of bytes, to be parsed with [`Block::parse`]; for grid input, up to `records`
    /// records, parsed here. A block never spans two inputs. Returns false at the end of all
    /// inputs (and once reading has been stopped: see [`ReaderOptions::stop`]).
    ///
    /// An error met after some lines were read is held back and returned by the next call, so
    /// the block before it is still worked and written (as with [`Reader::read_batch`]).
    pub fn read_block(&mut self, block: &mut Block, records: usize) -> Result<bool, InputError> {
        block.bytes.clear();
        block.layout = Layout::Parsed;
        if self.format == InputFormat::Grid {
            return Ok(self.read_at(0, records, &mut block.records)? > 0);
        }
        if let Some(err) = self.failed.take() {
            return Err(err);
        }
        let target = records.max(1).saturating_mul(self.block_bytes_per_record);
        loop {
            if self.stopping() {
                self.stop_reading();
                return Ok(false);
            }
            if let Some(chunkable) = self.chunkable.take().filter(|_| self.in_chunks) {
                self.chunkable = self.start_chunks(chunkable, target);
            }
            let Some((source, active)) = self.active.as_mut() else {
                if self.next >= self.origins.len() {
                    return Ok(false);
                }
                self.open_next_or_stop()?;
                continue;
            };
            let source = *source;
            let layout = active.block_layout(source);
            let read = match active {
                Active::Line(r) => r.read_block(&mut block.bytes, target),
                Active::Csv(r) => r.read_block(&mut block.bytes, target),
                Active::Chunks(chunks) => {
                    let (layout, chunks) = &mut **chunks;
                    let base = Box::new(layout.clone());
                    match chunks.next() {
                        Ok(Some(chunk)) => {
                            block.layout = Layout::Chunk { chunk, base };
                            return Ok(true);
                        }
                        Ok(None) => {
                            self.active = None;
                            continue;
                        }
                        Err((e, line)) => {
                            self.active = None;
                            return Err(self.io_error(source as usize, line, e));
                        }
                    }
                }
                // the format is not grid (see above), and every input has the first one's
                Active::Grid(_) => Ok(0),
            };
            block.layout = layout;
            match read {
                Ok(0) if block.bytes.is_empty() => self.active = None,
                Ok(_) => {}
                Err(e) => {
                    let line = self.active.as_ref().map_or(0, |(_, a)| a.line());
                    self.active = None;
                    // a read the stop broke off: its input was not read to its end
                    self.stopped_short |= self.stopping();
                    if !self.stopping() {
                        let err = self.io_error(source as usize, line, e);
                        if block.bytes.is_empty() {
                            return Err(err);
                        }
                        self.failed = Some(err);
                    }
                }
            }
            if self.stopping() {
                // what was read before the stop is kept, but a last line without its LF may be
                // one cut short by a source that ended with the stop
                bounded::keep_whole_lines(&mut block.bytes, 0);
                self.stop_reading();
            }
            if !block.bytes.is_empty() {
                return Ok(true);
            }
        }
    }

    /// From the reader of the input being read (line or CSV, not in pipe mode: they come from
    /// streams) on to reading it in chunks of `target` bytes ([`Active::Chunks`]) from where
    /// that reader stands. Gives `chunkable` back when that is not known yet (lines handed back
    /// by detection are left to read: the reader reads a block first, and is asked again).
    fn start_chunks(&mut self, chunkable: Chunkable, target: usize) -> Option<Chunkable> {
        let Some((source, active)) = &self.active else {
            return None;
        };
        let source = *source;
        let layout = active.block_layout(source);
        let (line, max, csv) = match &layout {
            Layout::Line {
                line,
                max,
                pipe: false,
                ..
            } => (*line, *max, None),
            Layout::Csv { line, settings, .. } if !settings.pipe() => (
                *line,
                settings.max(),
                Some((settings.delimiter(), settings.shape())),
            ),
            _ => return None,
        };
        let pending = match active {
            Active::Line(r) => r.src().pending(),
            Active::Csv(r) => r.src().pending().filter(|_| r.at_row_start()),
            Active::Grid(_) | Active::Chunks(_) => None,
        };
        let Some(pending) = pending else {
            return Some(chunkable);
        };
        // where the reader stands in the file: what its stream gave, less what it holds unread
        let start = chunkable
            .given
            .load(Ordering::Relaxed)
            .checked_sub(pending as u64)?;
        let size = self.chunk_bytes.unwrap_or(target as u64);
        let progress = Arc::clone(&self.bytes);
        let file = (chunkable.file, chunkable.length);
        let Ok(chunks) = Chunks::new(file, (start, line), size, (max, csv), progress) else {
            return None; // the file cannot be looked at: read it on as a stream
        };
        // the bytes read past `start` are counted again as chunks read them
        let counted = self.bytes.load(Ordering::Relaxed) - chunkable.counted;
        self.bytes
            .fetch_sub(counted.saturating_sub(start), Ordering::Relaxed);
        self.active = Some((source, Active::Chunks(Box::new((layout, chunks)))));
        None
    }

    /// Reads up to `max` records into `out[start..]` (reusing the records there, pushing new ones
    /// past its end), then cuts `out` after the last one read; returns how many were read.
    fn read_at(
        &mut self,
        start: usize,
        max: usize,
        out: &mut Vec<Record>,
    ) -> Result<usize, InputError> {
        // read record by record, the input is not read in chunks
        self.chunkable = None;
        if let Some(err) = self.failed.take() {
            out.truncate(start);
            return Err(err);
        }
        let mut count = 0;
        let result = self.fill(max, out, start, &mut count);
        out.truncate(start + count);
        match result {
            Ok(()) => Ok(count),
            Err(err) if count == 0 => Err(err),
            Err(err) => {
                self.failed = Some(err);
                Ok(count)
            }
        }
    }

    /// Reads records into `out[start + *count..]` until `*count` is `max` or the inputs end.
    fn fill(
        &mut self,
        max: usize,
        out: &mut Vec<Record>,
        start: usize,
        count: &mut usize,
    ) -> Result<(), InputError> {
        while *count < max {
            let Some((source, active)) = self.active.as_mut() else {
                if self.next >= self.origins.len() {
                    break;
                }
                self.open_next_or_stop()?;
                continue;
            };
            let source = *source;
            let at = start + *count;
            if at == out.len() {
                out.push(Record::empty());
            }
            let Some(slot) = out.get_mut(at) else {
                break; // cannot happen: the slot was just made
            };
            let read = active.next_into(source, slot);
            // once stopped, the record just read is dropped: it may be one cut short by a
            // source that ended with the stop (a `zcat | ` upstream killed by the same Ctrl-C)
            if self.stopping() {
                self.stop_reading();
                break;
            }
            match read {
                Ok(true) => *count += 1,
                Ok(false) => self.active = None,
                Err(e) => {
                    let line = self.active.as_ref().map_or(0, |(_, a)| a.line());
                    self.active = None;
                    return Err(self.io_error(source as usize, line, e));
                }
            }
        }
        Ok(())
    }

    /// From now on, [`Reader::read_block`] reads a regular file (named, or stdin redirected from
    /// one at its start; not compressed, not in pipe mode) in chunks: its blocks hold where
    /// their bytes are in the file, and [`Block::parse`] reads them there, on whatever thread
    /// parses them, so that no one thread copies every byte (see the `chunks` module). For a
    /// pool of several threads that parse blocks: with one, the reading thread that reads and
    /// parses ahead of it is faster.
    pub fn read_files_in_chunks(&mut self, on: bool) {
        self.in_chunks = on;
    }

    /// Blocks of line and CSV input sized so that they hold at most about the records asked
    /// for, not about that many: for commands whose records are slow (ratings, milliseconds
    /// each), which stream a few at a time. Blocks are cut by bytes, at about 128 a record, so
    /// 16 records asked for of 82-byte lines gave 25, and the first easy records of a file
    /// reached a pipe only with the hard ones after them, seconds later.
    pub fn read_blocks_of_at_most(&mut self) {
        self.block_bytes_per_record = SHORTEST_RECORD;
    }

    /// From now on, records of CSV input keep only what `keep` says of their rows, for output
    /// that writes nothing else: the simple rows of CSV blocks with no quote in them (the rows
    /// of a Kaggle-style file) are then read without copying the rest, leaving
    /// [`Record::fields`] or [`Record::cells`] empty. Any other record keeps everything, and so
    /// do line and grid input. Given solutions, if read, are kept.
    pub fn keep(&mut self, keep: Keep) {
        self.keep = keep;
        if let Some((_, Active::Csv(reader))) = &mut self.active {
            reader.set_keep(keep);
        }
    }

    /// From now on, also read each record's given solution into [`Record::solution`].
    ///
    /// For CSV input the solution column is `column` (by name or 1-based position) or, when `None`,
    /// the first column named as in [`SOLUTION_COLUMNS`] (no such column: no given solutions); a
    /// `column` that is missing or is the puzzle column is an error. Line input takes the field after
    /// the puzzle that looks like a solution; grid input has no given solutions, and `column` is
    /// ignored for both. Call it before reading any record. Kept apart from [`ReaderOptions`] so
    /// that only `check` pays for it.
    pub fn read_solutions(&mut self, column: Option<&Column>) -> Result<(), InputError> {
        self.solutions = true;
        if let Some(header) = &self.header {
            let found = match column {
                Some(_) => Some(find_column(header, column)),
                None => find_named(header, &SOLUTION_COLUMNS).map(Ok),
            };
            let (input, line) = self.header_at;
            // names given with --csv-columns are no header of the input's
            let named = |m: String| match self.csv_columns {
                Some(_) => m.replace("the header", "--csv-columns"),
                None => m,
            };
            let index = found
                .transpose()
                .map_err(|m| self.format_error(input, line, named(m)))?;
            if column.is_some() && index == Some(self.puzzle_column) {
                let message = "the solution column is the puzzle column".to_string();
                return Err(self.format_error(input, line, message));
            }
            // the same column chosen as puzzle by name and as solution by preference: no solutions
            self.solution_column = index.filter(|&i| i != self.puzzle_column);
        }
        let (solutions, column) = (self.solutions, self.solution_column);
        match &mut self.active {
            Some((_, Active::Line(r))) => r.set_solutions(solutions),
            Some((_, Active::Csv(r))) => r.set_solution_column(column),
            // set before reading, so before any chunk
            Some((_, Active::Grid(_) | Active::Chunks(_))) | None => {}
        }
        Ok(())
    }

    /// The 1-based CSV puzzle column (CSV input only).
    pub fn puzzle_column(&self) -> Option<usize> {
        self.header.as_ref().map(|_| self.puzzle_column + 1)
    }

    /// The 1-based CSV solution column found by [`Reader::read_solutions`], if any.
    pub fn solution_column(&self) -> Option<usize> {
        self.solution_column.map(|i| i + 1)
    }

    /// Bytes consumed so far over all inputs, shared for progress display.
    pub fn bytes_read(&self) -> Arc<AtomicU64> {
        Arc::clone(&self.bytes)
    }

    /// Total bytes of all inputs when every input is a regular file, for progress display.
    pub fn total_bytes(&self) -> Option<u64> {
        self.total
    }

    /// Opens input `self.next`, reads up to its first meaningful line (the first input with `Auto`:
    /// up to the line that tells the format) and sets up its reader over those lines and the rest
    /// (no reader for an empty input). The first input with content resolves the format (and CSV
    /// header); later ones are read in it, after the checks of the module documentation.
    fn open_next(&mut self) -> Result<(), InputError> {
        let index = self.next;
        self.next += 1;
        self.chunkable = None;
        let Some(origin) = self.origins.get_mut(index) else {
            return Ok(());
        };
        // a stream read on a thread of its own already
        let mut pumped = false;
        let raw = match origin {
            Origin::Stdin => match regular_stdin() {
                Some(file) => Raw::File(file),
                None => Raw::Stream(Box::new(io::stdin())),
            },
            // a named pipe's open waits for its writer: when the run can be stopped, it is
            // opened by the thread that reads it, so that a signal ends the wait
            Origin::Path(p)
                if self.stop.is_some() && fs::metadata(&*p).is_ok_and(|m| !m.is_file()) =>
            {
                let stop = self.stop.as_ref().map(Arc::clone).unwrap_or_default();
                let pump =
                    Pump::open(p.to_path_buf(), stop).map_err(|e| self.io_error(index, 0, e))?;
                pumped = true;
                Raw::Stream(Box::new(pump))
            }
            Origin::Path(p) => {
                let file = File::open(&*p).map_err(|e| self.io_error(index, 0, e))?;
                match file.metadata() {
                    Ok(m) if m.is_file() => Raw::File(file),
                    // a pipe (`<(zcat x)`), a device: read as a stream
                    _ => Raw::Stream(Box::new(file)),
                }
            }
            Origin::Memory(data) => Raw::Stream(Box::new(Cursor::new(std::mem::take(data)))),
            #[cfg(test)]
            Origin::Failing(data) => Raw::Stream(Box::new(
                Cursor::new(std::mem::take(data)).chain(tests::Failing),
            )),
        };
        // a regular file read as it is can be read in chunks: another handle on it
        let chunk_file = match &raw {
            Raw::File(file) => uncompressed_clone(file),
            Raw::Stream(_) => None,
        };
        // a stream that may block is read on a thread of its own when the run can be stopped
        let raw = match (raw, &self.stop) {
            (Raw::Stream(stream), Some(stop)) if !pumped => Raw::Stream(Box::new(
                Pump::start(stream, Arc::clone(stop)).map_err(|e| self.io_error(index, 0, e))?,
            )),
            (raw, _) => raw,
        };
        let bytes = &self.bytes;
        let count = |inner: Stream| -> Stream {
            Box::new(Counted {
                inner,
                bytes: Arc::clone(bytes),
            })
        };
        let counted = self.bytes.load(Ordering::Relaxed);
        let text = compressed::open(raw, count, !self.pipe).map_err(|e| match e {
            OpenError::Io(e) => self.io_error(index, 0, e),
            OpenError::Unreadable(message) => InputError::Unreadable {
                name: self.source_name(index as u32).to_string(),
                message,
            },
        })?;
        let stream = text.stream;
        // a file whose CR line ends are read as LFs is not its bytes on disk
        let chunk_file = chunk_file.filter(|_| !text.cr_lines);
        let (stream, chunkable): (Stream, _) = match chunk_file {
            Some(file) => {
                let given = Arc::new(AtomicU64::new(0));
                let stream = Box::new(Counted {
                    inner: stream,
                    bytes: Arc::clone(&given),
                });
                let chunkable = Chunkable {
                    length: file.metadata().map_or(0, |m| m.len()),
                    file,
                    given,
                    counted,
                };
                (stream, Some(chunkable))
            }
            None => (stream, None),
        };
        let mut buffered = BufReader::with_capacity(BUFFER, stream);
        // pipe mode and named CSV columns tell the format (line, or CSV) without looking
        let told_already = self.pipe || self.csv_columns.is_some();
        let sniffing = self.requested == InputFormat::Auto && !self.resolved && !told_already;
        // a later input after line or grid input is looked at as the first was, and refused
        // when it is clearly another format (a file of grids after puzzles a line was read as
        // rows of one grid, its puzzles merged into malformed records)
        let later =
            self.requested == InputFormat::Auto && !told_already && self.format != InputFormat::Csv;
        let (skipped, first, bom, format, comments) = if sniffing || later {
            let sniffed =
                sniff(&mut buffered, self.max_record).map_err(|e| self.io_error(index, 0, e))?;
            // empty: no records, the next input decides (or there is nothing to agree with)
            let Some(Sniffed {
                preamble,
                format: told,
                last_line,
                read_to,
                sure,
            }) = sniffed
            else {
                return Ok(());
            };
            let Preamble {
                skipped,
                first,
                bom,
                comments,
            } = preamble;
            let first_line = skipped + 1;
            if sniffing {
                let Some(format) = told else {
                    let mut lines = if last_line == first_line {
                        format!("line {first_line}")
                    } else {
                        format!("lines {first_line}..{last_line}")
                    };
                    // blank and comment lines after them filled what detection holds
                    if let (to, true) = read_to
                        && to > last_line
                    {
                        lines.push_str(&format!(
                            " (the other lines up to line {to}, the first {} MiB, are blank or \
                             comments)",
                            detect::SNIFF_BYTES >> 20
                        ));
                    }
                    return Err(self.format_error(
                        index,
                        first_line,
                        format!("cannot tell the input format from {lines}; use --input-format"),
                    ));
                };
                (skipped, first, bom, format, comments)
            } else {
                // (a grid's title may be a puzzle column's name, `Puzzle`: what follows says)
                let csv = told.is_none_or(|t| t == InputFormat::Csv);
                if csv && is_csv_header(header_record(&first).trim_ascii()) {
                    return Err(self.mixed_error(index, first_line, InputFormat::Csv));
                }
                let other = told.filter(|&f| sure && f != InputFormat::Csv && f != self.format);
                if let Some(told) = other {
                    return Err(self.mixed_error(index, first_line, told));
                }
                (skipped, first, bom, self.format, comments)
            }
        } else {
            // headerless CSV's first line is a row: a `#` there is a record, as after a header
            let skip = match (self.pipe, self.csv_columns.is_some()) {
                (true, _) => detect::Skip::Nothing,
                (false, true) => detect::Skip::Blank,
                (false, false) => detect::Skip::BlankAndComments,
            };
            let preamble = read_preamble(&mut buffered, self.max_record, skip)
                .map_err(|e| self.io_error(index, 0, e))?;
            let Some(Preamble {
                skipped,
                mut first,
                bom,
                comments,
            }) = preamble
            else {
                return Ok(()); // empty: no records, nothing to agree with
            };
            // a header whose quoted name holds a line end is read whole (`-I csv`)
            if self.format == InputFormat::Csv && self.csv_columns.is_none() && !self.pipe {
                read_header_on(&mut buffered, &mut first, self.max_record)
                    .map_err(|e| self.io_error(index, skipped + 1, e))?;
            }
            // the requested format, or the one the first input fixed (CSV: its header is
            // compared below)
            (skipped, first, bom, self.format, comments)
        };
        let first_line = skipped + 1;
        // a CSV header is not a record: the first input of a stream that may block is read on to
        // its first row (or its end) here, so that a run stopped while it waits for that row
        // stops before it begins, as one waiting for its first line does (it has emptied no
        // output yet)
        let header_first = format == InputFormat::Csv && self.csv_columns.is_none();
        if header_first && !self.resolved && self.stop.is_some() && chunkable.is_none() {
            io::BufRead::fill_buf(&mut buffered)
                .map_err(|e| self.io_error(index, first_line, e))?;
        }
        // the header, for CSV (sniffing tells CSV from the first record only, so it is all of
        // `first`; a quoted name in it may hold a line end)
        let header_line = header_record(&first);
        // headerless CSV: the delimiter the names were given with, not one a row happens to hold
        // (a first row `broken;row` made every comma row after it malformed)
        let delimiter = match &self.csv_columns {
            Some((_, delimiter)) => *delimiter,
            None => csv_delimiter(header_line.trim_ascii()),
        };
        if !self.resolved {
            self.layout = TextLayout {
                bom,
                crlf: header_line.ends_with(b"\r"),
            };
        }
        // for a later input that must have the first one's CSV header: the format its first line
        // tells, to name in the error if the header differs
        let told = match self.requested {
            InputFormat::Auto if self.resolved => detect(header_line.trim_ascii()),
            _ => None,
        };
        let src = Src::new(first, buffered);
        let active = match format {
            InputFormat::Line | InputFormat::Auto => {
                let mut reader = LineReader::new(src, skipped);
                reader.set_solutions(self.solutions);
                reader.set_max(self.max_record);
                reader.set_pipe(self.pipe);
                reader.set_echo(self.echo.clone());
                Active::Line(reader)
            }
            InputFormat::Grid => {
                let mut reader = GridReader::new(src, skipped);
                reader.set_max(self.max_record);
                reader.set_above(comments);
                Active::Grid(reader)
            }
            InputFormat::Csv => {
                let (mut reader, header) = match &self.csv_columns {
                    Some((columns, _)) => {
                        let reader = CsvReader::headerless(
                            src,
                            skipped,
                            delimiter,
                            self.max_record,
                            columns.len(),
                        );
                        (reader, columns.clone())
                    }
                    None => {
                        CsvReader::new(src, skipped, delimiter, self.max_record).map_err(|e| {
                            if e.kind() == io::ErrorKind::InvalidData {
                                self.format_error(index, first_line, e.to_string())
                            } else {
                                self.io_error(index, first_line, e)
                            }
                        })?
                    }
                };
                reader.set_pipe(self.pipe);
                match &self.header {
                    Some(first_header) => {
                        if !same_header(first_header, &header) {
                            // a header that is surely another format's line says so; either way
                            // the input cannot be read as the first one's CSV
                            if let Some(other) = told.filter(|&f| f != InputFormat::Csv) {
                                return Err(self.mixed_error(index, first_line, other));
                            }
                            return Err(self.format_error(
                                index,
                                first_line,
                                format!(
                                    "CSV header ({}) differs from the first input's ({})",
                                    names_excerpt(&header),
                                    names_excerpt(first_header)
                                ),
                            ));
                        }
                    }
                    None => {
                        // a first row of puzzles (`P;S` lines, `"P","S"`) is no header: read as
                        // one, with --column given, its puzzle was lost without a word
                        let puzzle = |f: &String| {
                            let f = f.trim().as_bytes();
                            f.len() > crate::grid::CELLS / 2 && f.iter().all(|&b| text::is_cell(b))
                        };
                        if self.csv_columns.is_none() && header.iter().any(puzzle) {
                            return Err(self.format_error(
                                index,
                                first_line,
                                format!(
                                    "CSV header ({}) holds a puzzle, not column names: the input \
                                     has no header row; name its columns with --csv-columns (as \
                                     'puzzle;solution', with its delimiter), which reads line \
                                     {first_line} as a row",
                                    names_excerpt(&header)
                                ),
                            ));
                        }
                        self.puzzle_column = find_column(&header, self.column.as_ref())
                            .map_err(|m| self.format_error(index, first_line, m))?;
                        self.header = Some(header);
                        self.delimiter = Some(delimiter);
                        self.header_at = (index, first_line);
                    }
                }
                reader.set_column(self.puzzle_column);
                reader.set_solution_column(self.solution_column);
                // read or not, so that `solve` and `check` cut rows alike
                let named = self
                    .header
                    .as_ref()
                    .and_then(|h| find_named(h, &SOLUTION_COLUMNS));
                reader.set_named_solution(named);
                reader.set_keep(self.keep);
                Active::Csv(Box::new(reader))
            }
        };
        self.format = format;
        if !self.resolved {
            self.fixed_by = Some(index as u32);
        }
        self.resolved = true;
        self.active = Some((index as u32, active));
        self.chunkable = chunkable;
        Ok(())
    }

    fn io_error(&self, index: usize, line: u64, e: io::Error) -> InputError {
        let source = if line == 0 {
            e
        } else {
            io::Error::new(e.kind(), format!("after line {line}: {e}"))
        };
        InputError::Io {
            name: self.source_name(index as u32).to_string(),
            error: source,
        }
    }

    /// Input `index` turned out `found`, not the format of the first input.
    fn mixed_error(&self, index: usize, line: u64, found: InputFormat) -> InputError {
        self.format_error(
            index,
            line,
            format!(
                "detected {} but the first input is {}; use --input-format",
                format_name(found),
                format_name(self.format)
            ),
        )
    }

    fn format_error(&self, index: usize, line: u64, message: String) -> InputError {
        InputError::Format {
            name: self.source_name(index as u32).to_string(),
            line,
            message,
        }
    }
}

impl Source {
    /// The name used in messages: `<stdin>`, the path as given, or `<memory>`.
    pub fn name(&self) -> String {
        match self {
            Source::Stdin => "<stdin>".to_string(),
            Source::Path(p) => p.display().to_string(),
            Source::Bytes(_) => "<memory>".to_string(),
        }
    }
}

/// Standard input as a file, when it is a regular file read from its start (`< data.csv`): it is
/// then read as a named file is (in chunks on the pool, see [`Reader::read_files_in_chunks`]).
/// Any other stdin is read as a stream from where it stands, as is a file whose offset is not
/// at its start (`{ read -r line; sudoku-batch ...; } < data.csv` reads on after that line).
/// The handle shares stdin's offset: reading it moves it, as reading stdin would.
fn regular_stdin() -> Option<File> {
    use std::os::fd::AsFd;
    let fd = io::stdin().as_fd().try_clone_to_owned().ok()?;
    at_start_of_regular_file(File::from(fd))
}

/// `file` when it is a regular file whose offset is at its start.
fn at_start_of_regular_file(mut file: File) -> Option<File> {
    let regular = file.metadata().ok()?.is_file();
    (regular && file.stream_position().ok()? == 0).then_some(file)
}

/// Another handle on `file` when it is read as it is (not compressed, not an archive).
fn uncompressed_clone(file: &File) -> Option<File> {
    use std::os::unix::fs::FileExt;
    let mut head = [0u8; 8];
    let n = file.read_at(&mut head, 0).ok()?;
    if compressed::is_compressed(&head[..n]) {
        return None;
    }
    file.try_clone().ok()
}

/// Checks that `--csv-columns` names (split as [`headerless_columns`] splits them) hold the puzzle
/// column (`column`, or one named as [`crate::input::Column`] finding does by default). The error
/// names the option, not a header the input does not have (it said "the header" at line 1 of
/// a headerless file).
pub fn check_csv_columns(names: &[String], column: Option<&Column>) -> Result<(), String> {
    let (columns, _) = headerless_columns(names);
    find_column(&columns, column)
        .map(|_| ())
        .map_err(|m| m.replace("the header", "--csv-columns"))
}

/// Two headers name the same columns (spaces around names ignored).
/// The names `--csv-columns` gives (split at commas) and the delimiter of the rows: a comma; or,
/// for names given as one separated by `;` or a tab (`--csv-columns 'id;puzzle'`), that.
pub fn headerless_columns(names: &[String]) -> (Vec<String>, u8) {
    if let [one] = names {
        for delimiter in [b';', b'\t'] {
            if one.as_bytes().contains(&delimiter) {
                let split = one.split(char::from(delimiter)).map(str::to_string);
                return (split.collect(), delimiter);
            }
        }
    }
    (names.to_vec(), b',')
}

fn same_header(a: &[String], b: &[String]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.trim() == y.trim())
}

#[cfg(test)]
mod tests;
