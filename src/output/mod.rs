//! Writers: one per output format behind the [`Sink`] trait. A sink sees records and their answers in
//! input order and knows nothing of how they were solved.

use std::io::{self, Write};

use crate::input::Record;
use crate::status::Answer;

/// Layout of the output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputFormat {
    /// Mirror the input: line for line, csv for csv, grid for grid.
    Auto,
    /// One line per record: the 81-digit solution or the status word.
    Line,
    /// Input columns (or `puzzle`) then status, solution, guesses, micros.
    Csv,
    /// One JSON object per record.
    Jsonl,
    /// 9 lines of 9 space-separated digits per record, blank line between records.
    Grid,
}

/// Output settings shared by the writers.
#[derive(Debug, Clone, Default)]
pub struct OutputOptions {
    /// Leave per-record times out (empty CSV cell, JSON null) so output is the same run to run.
    pub no_timings: bool,
}

/// Receives every record with its answer, in input order.
pub trait Sink {
    /// Writes one record.
    fn write(&mut self, record: &Record, answer: &Answer) -> io::Result<()>;
    /// Writes anything pending and flushes.
    fn finish(&mut self) -> io::Result<()>;
}

/// The sink for `format` (not `Auto`), writing to `out`. `header` is the CSV input header, if any.
pub fn sink<'a>(
    format: OutputFormat,
    out: Box<dyn Write + Send + 'a>,
    header: Option<&[String]>,
    options: &OutputOptions,
) -> Box<dyn Sink + Send + 'a> {
    let _ = (format, out, header, options);
    todo!()
}
