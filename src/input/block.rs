//! Blocks: records' bytes that the thread that reads cuts where records start, and that any
//! thread then parses into records with the line or CSV reader of their input (or, for a chunk of
//! a regular file, reads first), so that the thread that reads only moves bytes.

use std::io;

use super::chunks;
use super::csv::{self, CsvReader};
use super::line::LineReader;
use super::record::{Echo, Record};

/// Records' bytes, cut where records start: read on one thread ([`Reader::read_block`]) and
/// parsed on any ([`Block::parse`]), so that the thread that reads only moves bytes.
///
/// Line and CSV input are read this way: a block holds whole lines (CSV rows, quoted line ends
/// and all), and parsing it gives exactly the records the reader would have read one by one,
/// line numbers, malformed reasons and the record cap included. Grid input is read record by
/// record into the block (its grids are few and large, and a grid's rows are counted across
/// lines); its [`Block::parse`] has nothing left to do. A regular file's block may instead be a
/// chunk, only where its bytes are: [`Block::parse`] then reads them too
/// ([`Reader::read_files_in_chunks`]).
///
/// [`Reader::read_block`]: super::Reader::read_block
/// [`Reader::read_files_in_chunks`]: super::Reader::read_files_in_chunks
#[derive(Debug, Default)]
pub struct Block {
    pub(super) bytes: Vec<u8>,
    pub(super) layout: Layout,
    pub(super) records: Vec<Record>,
    /// A CSV parser for the delimiter with it, kept from one use of the block to the next.
    parser: Option<(u8, ::csv_core::Reader)>,
}

/// How a block's bytes are to be read.
#[derive(Debug, Default, Clone)]
pub(super) enum Layout {
    /// Nothing to parse: the records are read.
    #[default]
    Parsed,
    /// Lines of line input.
    Line {
        source: u32,
        /// The line of the block's first byte.
        line: u64,
        solutions: bool,
        max: usize,
        pipe: bool,
        echo: Echo,
    },
    /// Rows of CSV input.
    Csv {
        source: u32,
        /// The line of the block's first byte.
        line: u64,
        settings: csv::CsvSettings,
    },
    /// A chunk of a regular file, still to be read: then lines or rows as `base` says, from
    /// the line the chunk's reading gives.
    Chunk {
        chunk: chunks::Chunk,
        base: Box<Layout>,
    },
}

impl Layout {
    /// The same layout for bytes whose first is on line `first`.
    fn on_line(mut self, first: u64) -> Layout {
        if let Layout::Line { line, .. } | Layout::Csv { line, .. } = &mut self {
            *line = first;
        }
        self
    }
}

impl Block {
    /// Parses the block's bytes into its records, reusing the records' buffers from the last
    /// time the block was used; may run on any thread. Nothing to do when already parsed.
    pub fn parse(&mut self) {
        let mut count = 0;
        let records = &mut self.records;
        let mut next = |read: &mut dyn FnMut(&mut Record) -> io::Result<bool>| {
            loop {
                if count == records.len() {
                    records.push(Record::empty());
                }
                // reading from bytes in memory cannot fail
                match read(&mut records[count]) {
                    Ok(true) => count += 1,
                    _ => break,
                }
            }
        };
        let layout = match std::mem::take(&mut self.layout) {
            Layout::Chunk { chunk, base } => {
                let line = chunk.read(&mut self.bytes);
                base.on_line(line)
            }
            layout => layout,
        };
        match layout {
            Layout::Parsed | Layout::Chunk { .. } => return,
            Layout::Line {
                source,
                line,
                solutions,
                max,
                pipe,
                echo,
            } => {
                let mut reader = LineReader::new(&self.bytes[..], line - 1);
                reader.set_solutions(solutions);
                reader.set_max(max);
                reader.set_pipe(pipe);
                reader.set_echo(echo);
                next(&mut |record| reader.next_into(source, record));
            }
            Layout::Csv {
                source,
                line,
                settings,
            } => {
                let delimiter = settings.delimiter();
                let parser = match self.parser.take() {
                    Some((d, parser)) if d == delimiter => parser,
                    _ => csv::parser(delimiter),
                };
                let mut reader = CsvReader::for_block(&self.bytes[..], line, &settings, parser);
                reader.set_plain(memchr::memchr(b'"', &self.bytes).is_none());
                next(&mut |record| reader.next_into(source, record));
                self.parser = Some((delimiter, reader.into_parser()));
            }
        }
        self.records.truncate(count);
    }

    /// [`Block::parse`] on the thread that reads, while the pool has a block waiting for every
    /// thread: the same, except for a chunk of a file, which is left to the pool. Reading a
    /// chunk may wait for the chunks before it, still waiting on the pool; the reading thread
    /// would then hold back the block a thread will soon want (measured: 1.71 CPUs busy on a
    /// 1M-row Kaggle run at -j2, against 1.97 when chunks are left to the pool).
    pub fn parse_ahead(&mut self) {
        if !matches!(self.layout, Layout::Chunk { .. }) {
            self.parse();
        }
    }

    /// The block's records (parsed with [`Block::parse`] first).
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// The block's records, to be changed in place.
    pub fn records_mut(&mut self) -> &mut [Record] {
        &mut self.records
    }
}
