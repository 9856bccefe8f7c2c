//! Streaming readers: puzzles from line, CSV or grid files (or stdin), one [`Record`] per input record,
//! in input order, a batch at a time, never the whole input in memory.
//!
//! A record that cannot be read as a puzzle is still a record (`puzzle: Err(reason)`); only I/O errors
//! and inputs that cannot be read at all (no CSV puzzle column, mixed formats) are errors.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use crate::grid::Grid;

/// Layout of an input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputFormat {
    /// Decide from the content of each input.
    Auto,
    /// One puzzle a line (81 cells), possibly among other fields.
    Line,
    /// CSV with a header row; the puzzle is one column.
    Csv,
    /// 9 lines of 9 cells per puzzle.
    Grid,
}

/// Where to read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// Standard input (`-` on the command line).
    Stdin,
    /// A file.
    Path(PathBuf),
}

/// A CSV column chosen by header name or by 1-based position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Column {
    /// Header name, matched exactly first, then ignoring ASCII case.
    Name(String),
    /// 1-based position.
    Index(usize),
}

/// How to read the inputs.
#[derive(Debug, Clone)]
pub struct ReaderOptions {
    /// Input layout, or `Auto`.
    pub format: InputFormat,
    /// CSV puzzle column; found by name when `None`.
    pub column: Option<Column>,
}

/// One input record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// Index of the input (in the order given) the record comes from.
    pub source: u32,
    /// 1-based line where the record starts.
    pub line: u64,
    /// CSV: every column of the row, as read. Empty for line and grid input.
    pub fields: Vec<String>,
    /// The puzzle cells as read (81 characters), or for a malformed record the text that was read.
    pub cells: String,
    /// The parsed puzzle, or why the record is malformed.
    pub puzzle: Result<Grid, String>,
}

/// Errors that stop reading: the message names the input and, where known, the line.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// Reading failed.
    #[error("{name}: {source}")]
    Io {
        /// Input name (`<stdin>` for stdin).
        name: String,
        /// The I/O error.
        source: std::io::Error,
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

/// Reads records from the inputs, in order.
pub struct Reader {
    _todo: (),
}

impl Reader {
    /// Opens the inputs (the first one at once, to resolve its format and CSV header).
    pub fn open(sources: Vec<Source>, options: &ReaderOptions) -> Result<Reader, InputError> {
        let _ = (sources, options);
        todo!()
    }

    /// The resolved format (of the first input; every input must resolve to the same).
    pub fn format(&self) -> InputFormat {
        todo!()
    }

    /// CSV header of the first input (every CSV input must have the same), `None` for other formats.
    pub fn header(&self) -> Option<&[String]> {
        todo!()
    }

    /// Name of input `source` for messages (`<stdin>` for stdin).
    pub fn source_name(&self, source: u32) -> &str {
        let _ = source;
        todo!()
    }

    /// Appends up to `max` records to `out`; returns how many (0 at the end of all inputs).
    pub fn read_batch(&mut self, max: usize, out: &mut Vec<Record>) -> Result<usize, InputError> {
        let _ = (max, out);
        todo!()
    }

    /// Bytes consumed so far over all inputs, shared for progress display.
    pub fn bytes_read(&self) -> Arc<AtomicU64> {
        todo!()
    }

    /// Total bytes of all inputs when every input is a regular file, for progress display.
    pub fn total_bytes(&self) -> Option<u64> {
        todo!()
    }
}
