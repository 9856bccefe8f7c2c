//! Writers: one [`Format`] per output format turns a record and its answer into bytes, with no
//! state between records, so batches are formatted on any thread; [`Output`] writes the header
//! once and the batches' bytes in order. `solve` formats [`Answer`]s ([`formatter`]), `check` its
//! verdicts ([`crate::check::Check`], [`check_formatter`]), `rate` its ratings ([`RateAnswer`],
//! [`rate_formatter`]). [`Sink`] ([`sink`], [`check_sink`])
//! does both a record at a time, for callers that have records one by one.

use std::io::{self, BufWriter, Write};
use std::sync::Arc;

use crate::input::{InputFormat, Record};
use crate::status::Answer;

mod augment;
mod canon;
mod check;
mod csv;
mod generate;
mod grid;
mod jsonl;
mod line;
mod placed;
mod rate;
mod rows;

pub use self::augment::{AugmentColumns, Augmented, augment_formatter};
pub use self::canon::{CanonAnswer, CanonColumns, canon_formatter};
pub use self::check::{CheckFormat, check_formatter, check_sink};
pub use self::csv::csv_header;
pub use self::generate::{GenerateColumns, generate_formatter};
pub use self::placed::Placed;
pub use self::rate::{RateAnswer, RateColumns, rate_formatter};
/// A rating as every writer of `rate` shows it (the Python package too): its ER, EP, ED in
/// tenths, each exact (`Ok`) or known only to lie above X (`Err(X)`, written `>X`), and the
/// hardest technique of an exact rating.
pub use self::rate::{hardest as hardest_name, values as rating_values};
pub use self::rows::rows_formatter;

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

impl OutputFormat {
    /// The format to write for input in `input` format: `Auto` mirrors the input (line for line and
    /// for an unresolved input, csv for csv, grid for grid); any other format stays as it is.
    pub fn resolve(self, input: InputFormat) -> OutputFormat {
        match (self, input) {
            (OutputFormat::Auto, InputFormat::Csv) => OutputFormat::Csv,
            (OutputFormat::Auto, InputFormat::Grid) => OutputFormat::Grid,
            (OutputFormat::Auto, InputFormat::Line | InputFormat::Auto) => OutputFormat::Line,
            (format, _) => format,
        }
    }

    /// The format's name as written on the command line: `auto`, `line`, `csv`, `jsonl`, `grid`.
    pub fn name(self) -> &'static str {
        match self {
            OutputFormat::Auto => "auto",
            OutputFormat::Line => "line",
            OutputFormat::Csv => "csv",
            OutputFormat::Jsonl => "jsonl",
            OutputFormat::Grid => "grid",
        }
    }
}

/// Output settings shared by the writers.
#[derive(Debug, Clone)]
pub struct OutputOptions {
    /// Leave per-record times out (empty CSV cell, JSON null) so output is the same run to run.
    pub no_timings: bool,
    /// The input names, indexed by [`Record::source`], for the `file` of jsonl records.
    pub names: Vec<String>,
    /// The CSV field delimiter: the CSV input's own, so a `;` or tab file is written back as it
    /// came ([`crate::input::Reader::csv_delimiter`]); `,` by default.
    pub delimiter: u8,
    /// Pipe mode (see [`crate::input::ReaderOptions::pipe`]): no CSV header, and `solve` adds
    /// the malformed reason to each record (jsonl key and CSV column `reason`), so that every
    /// output line stands alone.
    pub pipe: bool,
    /// The names of what records of line input keep of their line ([`crate::input::Echo`]),
    /// written after the puzzle.
    pub echo: Vec<String>,
}

impl Default for OutputOptions {
    fn default() -> OutputOptions {
        OutputOptions {
            no_timings: false,
            names: Vec::new(),
            delimiter: b',',
            pipe: false,
            echo: Vec::new(),
        }
    }
}

impl OutputOptions {
    /// The name of input `source`, for jsonl's `file`.
    fn name(&self, source: u32) -> &str {
        self.names
            .get(source as usize)
            .map_or("<unknown input>", String::as_str)
    }
}

/// Turns records with their answers (by default a solve [`Answer`]) into output bytes, one record
/// at a time and with no state between records, so that batches can be formatted on any thread
/// and their bytes written in order by the one thread that writes.
pub trait Format<A = Answer>: Send + Sync {
    /// The bytes before the first record (a CSV header); none for the other formats. Written
    /// once, even when there are no records.
    fn header(&self, out: &mut Vec<u8>) {
        let _ = out;
    }

    /// Appends one record. `first` says it is the first record of the whole output (the grid
    /// format separates records with blank lines).
    fn record(&self, record: &Record, answer: &A, first: bool, out: &mut Vec<u8>);
}

/// Receives every record with its answer (by default a solve [`Answer`]), in input order.
pub trait Sink<A = Answer> {
    /// Writes one record.
    fn write(&mut self, record: &Record, answer: &A) -> io::Result<()>;
    /// Writes anything pending and flushes.
    fn finish(&mut self) -> io::Result<()>;
}

/// Output buffer of every sink: large, so writes to the terminal, pipe or file are few.
const BUFFER: usize = 128 * 1024;

/// The formatter for `format` (not `Auto`; taken as `Line` if it is). `header` is the CSV input
/// header, if any. ([`OutputFormat::resolve`] resolves `Auto`.)
pub fn formatter(
    format: OutputFormat,
    header: Option<&[String]>,
    options: &OutputOptions,
) -> Box<dyn Format> {
    match format {
        OutputFormat::Auto | OutputFormat::Line => {
            with_kept(Box::new(line::LineFormat), options, false)
        }
        OutputFormat::Grid => with_kept(Box::new(grid::GridFormat), options, true),
        OutputFormat::Jsonl => Box::new(jsonl::JsonlFormat::new(options)),
        OutputFormat::Csv => Box::new(csv::CsvFormat::new(header, options)),
    }
}

/// `inner` (a line or grid format) with the fields kept of each line of line input (`--echo`,
/// `options.echo`), space-separated at the end of the record's first line: the answer, a status
/// word, a grid's `#` line. A solved grid of `solve`, which has no such line, gets a `#` line
/// of them first, and so does a record of a `grid` format with no grid (its status word stays
/// alone on its line, which is how grid input tells such a record: `multiple 8...95...` read
/// back as a title, and the output of 55 records as 103 or 54). (They were left out without a
/// word: only CSV and JSON Lines wrote them.)
pub fn with_kept<A: 'static>(
    inner: Box<dyn Format<A>>,
    options: &OutputOptions,
    grid: bool,
) -> Box<dyn Format<A>> {
    match options.echo.len() {
        0 => inner,
        n => Box::new(Kept { inner, n, grid }),
    }
}

/// See [`with_kept`].
struct Kept<A> {
    inner: Box<dyn Format<A>>,
    /// Fields kept of a line.
    n: usize,
    /// `inner` writes grids.
    grid: bool,
}

impl<A> Format<A> for Kept<A> {
    fn header(&self, out: &mut Vec<u8>) {
        self.inner.header(out);
    }

    fn record(&self, record: &Record, answer: &A, first: bool, out: &mut Vec<u8>) {
        let start = out.len();
        self.inner.record(record, answer, first, out);
        // past the blank line that separates grids
        let body = start + usize::from(!first && out.get(start) == Some(&b'\n'));
        let tail = out.get(body..).unwrap_or_default();
        let end = body + memchr::memchr(b'\n', tail).unwrap_or(tail.len());
        let line = &out[body..end];
        let grid_row = line.len() == 17
            && line.iter().enumerate().all(|(i, &b)| {
                if i % 2 == 0 {
                    b.is_ascii_digit()
                } else {
                    b == b' '
                }
            });
        let above = grid_row || self.grid && crate::input::is_status_word(line);
        let mut kept = Vec::new();
        if above {
            kept.push(b'#');
        }
        for i in 0..self.n {
            kept.push(b' ');
            kept.extend_from_slice(record.fields.get(i).unwrap_or("").as_bytes());
        }
        if above {
            kept.push(b'\n');
            out.splice(body..body, kept);
        } else {
            out.splice(end..end, kept);
        }
    }
}

/// The sink for `format` (see [`formatter`]), writing to `out`, buffered inside; [`Sink::finish`]
/// writes the header if no record did and flushes.
pub fn sink<'a>(
    format: OutputFormat,
    out: Box<dyn Write + Send + 'a>,
    header: Option<&[String]>,
    options: &OutputOptions,
) -> Box<dyn Sink + Send + 'a> {
    Box::new(FormatSink::new(formatter(format, header, options), out))
}

/// Where a run's output goes: a file, which may be written at offsets from every thread
/// ([`Placed`]), or any other writer (a pipe, a terminal, a device), written in order.
pub enum Destination<'a> {
    /// A file (a regular one, or what a path or stdout turned out to be).
    File(std::fs::File),
    /// Anything else.
    Stream(Box<dyn Write + Send + 'a>),
}

/// The output of a run formatted a batch at a time (with a [`Format`], on any thread): the
/// header once, then each batch's bytes in order: buffered and written by the caller's thread,
/// or for a [`Placed`] file given their offset ([`Output::place`]) and written by any thread.
pub struct Output<'a> {
    dest: Dest<'a>,
    /// The header, until it is written.
    header: Option<Vec<u8>>,
    /// A regular file in append mode written in order (`>>`), and its length before the run:
    /// cut back to its whole batches when a write fails.
    appended: Option<(std::fs::File, u64)>,
    /// The bytes written whole (header and batches, each flushed), for [`Output::appended`].
    whole: u64,
    /// An appended file was cut back to its whole batches after a failed write.
    cut_back: bool,
    /// The appended file is shared with stderr, whose messages come between batches: its
    /// length is looked at again before each batch, which is what a failed one is cut back to.
    shared: bool,
}

enum Dest<'a> {
    Serial(BufWriter<Box<dyn Write + Send + 'a>>),
    Placed(Arc<Placed>),
}

impl<'a> Output<'a> {
    /// Output to `out` for records formatted by `format`, written in order.
    pub fn new<A>(out: Box<dyn Write + Send + 'a>, format: &dyn Format<A>) -> Output<'a> {
        Output::with_dest(Dest::Serial(BufWriter::with_capacity(BUFFER, out)), format)
    }

    /// Output to `dest`: placed when it is a file that can be ([`Placed::new`]), else written in
    /// order.
    pub fn to<A>(dest: Destination<'a>, format: &dyn Format<A>) -> Output<'a> {
        match dest {
            // shared with stderr: written in order, each write at the end, after the messages;
            // a batch whose write fails is cut back to where the file ended before it (`> log
            // 2>&1` under `ulimit -f` ended with a torn record)
            Destination::File(file) if placed::shares_stderr(&file) => {
                let appends = placed::append_from_now(&file).is_ok();
                let appended = appends
                    .then(|| Some((file.try_clone().ok()?, file.metadata().ok()?.len())))
                    .flatten();
                let mut output = Output::new(Box::new(file), format);
                output.shared = appended.is_some();
                output.appended = appended;
                output
            }
            Destination::File(file) => match Placed::new(file) {
                Ok(placed) => Output::with_dest(Dest::Placed(Arc::new(placed)), format),
                Err(file) => {
                    // appended to (`>>`): what a failed run leaves can be cut back, as a
                    // placed file's is (a full disk left a torn record after the last batch)
                    let appended = placed::surely_appends(&file)
                        .then(|| Some((file.try_clone().ok()?, file.metadata().ok()?.len())))
                        .flatten();
                    let mut output = Output::new(Box::new(file), format);
                    output.appended = appended;
                    output
                }
            },
            Destination::Stream(out) => Output::new(out, format),
        }
    }

    fn with_dest<A>(dest: Dest<'a>, format: &dyn Format<A>) -> Output<'a> {
        let mut header = Vec::new();
        format.header(&mut header);
        Output {
            dest,
            header: Some(header),
            appended: None,
            whole: 0,
            cut_back: false,
            shared: false,
        }
    }

    /// The placed file, for the threads that write batches at their offsets (`None`: the output
    /// is written in order by [`Output::place`] itself).
    pub fn placed(&self) -> Option<Arc<Placed>> {
        match &self.dest {
            Dest::Placed(placed) => Some(Arc::clone(placed)),
            Dest::Serial(_) => None,
        }
    }

    /// True when the output holds whole records only, up to the last batch taken, even after a
    /// failed write: a placed file, or an appended one cut back after its failure.
    pub fn holds_whole_records(&self) -> bool {
        matches!(self.dest, Dest::Placed(_)) || self.cut_back
    }

    /// Writes a batch's bytes (the header first, before the first batch), here and now.
    pub fn write(&mut self, bytes: &[u8]) -> io::Result<()> {
        if let Some(at) = self.place(bytes)? {
            if let Dest::Placed(placed) = &self.dest {
                placed.write_at(at, bytes)?;
            }
        }
        Ok(())
    }

    /// Takes the next batch's bytes in output order: written now (the header first, before the
    /// first batch) and `None`, or for a placed output their offset, where the caller writes
    /// them ([`Placed::write_at`], from any thread).
    pub fn place(&mut self, bytes: &[u8]) -> io::Result<Option<u64>> {
        let header = self.header.take();
        match &mut self.dest {
            Dest::Serial(out) => {
                if let Some((file, base)) = self.appended.as_mut().filter(|_| self.shared) {
                    // where this batch starts: after the messages written since the last one
                    *base = file.metadata().map_or(*base, |m| m.len());
                    self.whole = 0;
                }
                let len = header.as_ref().map_or(0, Vec::len) + bytes.len();
                let written = header
                    .map_or(Ok(()), |header| out.write_all(&header))
                    .and_then(|()| out.write_all(bytes))
                    // a batch at a time to its reader: `rate`'s small, slow batches waited in
                    // the buffer for a thousand records (a pipe's reader saw nothing for
                    // seconds, and one gone, `| head`, was found only at the next flush)
                    .and_then(|()| out.flush());
                match written {
                    Ok(()) => {
                        self.whole += len as u64;
                        Ok(None)
                    }
                    Err(err) => {
                        if let Some((file, base)) = self.appended.take() {
                            // nothing more reaches the file (the buffer's rest is dropped,
                            // not flushed at the end), and it is cut back to its whole batches
                            let sink: Box<dyn Write + Send + 'a> = Box::new(io::sink());
                            let _ = std::mem::replace(out, BufWriter::new(sink)).into_parts();
                            self.cut_back = file.set_len(base + self.whole).is_ok();
                        }
                        Err(err)
                    }
                }
            }
            Dest::Placed(placed) => {
                if let Some(header) = header {
                    placed.write_at(placed.reserve(header.len()), &header)?;
                }
                Ok(Some(placed.reserve(bytes.len())))
            }
        }
    }

    /// Writes the header if no batch did, and flushes; a placed file is cut back to its whole
    /// prefix if anything placed was not written ([`Placed::finish`]), once no write is under
    /// way.
    pub fn finish(&mut self) -> io::Result<()> {
        self.write(&[])?;
        match &mut self.dest {
            Dest::Serial(out) => out.flush(),
            Dest::Placed(placed) => placed.finish().map(|_| ()),
        }
    }
}

/// A [`Sink`] made of a [`Format`]: formats each record and writes its bytes to an [`Output`].
pub(crate) struct FormatSink<'a, A> {
    format: Box<dyn Format<A>>,
    output: Output<'a>,
    bytes: Vec<u8>,
    /// No record written yet.
    first: bool,
}

impl<'a, A> FormatSink<'a, A> {
    pub(crate) fn new(format: Box<dyn Format<A>>, out: Box<dyn Write + Send + 'a>) -> Self {
        let output = Output::new(out, format.as_ref());
        FormatSink {
            format,
            output,
            bytes: Vec::with_capacity(512),
            first: true,
        }
    }
}

impl<A> Sink<A> for FormatSink<'_, A> {
    fn write(&mut self, record: &Record, answer: &A) -> io::Result<()> {
        self.bytes.clear();
        let first = std::mem::take(&mut self.first);
        self.format.record(record, answer, first, &mut self.bytes);
        self.output.write(&self.bytes)
    }

    fn finish(&mut self) -> io::Result<()> {
        self.output.finish()
    }
}

/// Appends `text` as a JSON string, byte for byte what serde_json writes: text with nothing to
/// escape (puzzle cells, as a rule) is copied whole, found 16 bytes at a time; serde_json's own
/// writer escapes byte by byte, which was 6% of a `-O jsonl` run on Kaggle puzzles.
fn push_json_str(out: &mut Vec<u8>, text: &str) {
    let bytes = text.as_bytes();
    // what serde_json escapes: control characters, the quote and the backslash
    if crate::input::find_byte(bytes, |b| b < 0x20 || b == b'"' || b == b'\\').is_none() {
        out.push(b'"');
        out.extend_from_slice(bytes);
        out.push(b'"');
    } else {
        // a String always serialises
        let _ = serde_json::to_writer(&mut *out, text);
    }
}

/// Appends `n` in decimal.
fn push_u64(out: &mut Vec<u8>, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    for slot in digits.iter_mut().rev() {
        *slot = b'0' + (n % 10) as u8;
        n /= 10;
        start -= 1;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(digits.get(start..).unwrap_or_default());
}

/// Appends a time in nanoseconds as microseconds with 3 decimals: `12345` gives `12.345`.
fn push_micros(out: &mut Vec<u8>, nanos: u64) {
    push_u64(out, nanos / 1000);
    let frac = nanos % 1000;
    out.extend_from_slice(&[
        b'.',
        b'0' + (frac / 100) as u8,
        b'0' + (frac / 10 % 10) as u8,
        b'0' + (frac % 10) as u8,
    ]);
}

#[cfg(test)]
pub(crate) mod tests {
    //! Answers built by hand for the writer tests (the solver is not used here).

    use super::*;
    use crate::grid::Grid;
    use crate::status::Status;

    pub(crate) const PUZZLE: &str =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    pub(crate) const SOLUTION: &str =
        "483921657967345821251876493548132976729564138136798245372689514814253769695417382";

    #[test]
    fn json_strings_are_what_serde_json_writes() {
        let long_plain = "x".repeat(40);
        let long_quote = format!("{}\"{}", "y".repeat(20), "z".repeat(20));
        let texts = [
            "",
            PUZZLE,
            "a\"b",
            "back\\slash",
            "tab\tnew\nline\r",
            "\u{1}\u{1f}",
            "\u{7f}",
            "é ü 😀 \u{FFFD}",
            "</script>",
            &long_plain,
            &long_quote,
        ];
        for text in texts {
            let mut ours = Vec::new();
            push_json_str(&mut ours, text);
            assert_eq!(ours, serde_json::to_vec(text).unwrap(), "{text:?}");
        }
    }

    /// A record of line input.
    pub(crate) fn record(line: u64, cells: &str) -> Record {
        Record {
            source: 0,
            line,
            fields: Default::default(),
            cells: cells.to_string(),
            puzzle: Grid::parse(cells.as_bytes()).map_err(|e| e.to_string()),
            solution: None,
            above: String::new(),
        }
    }

    /// An answer with `status`, the known solution when the status has one, and fixed counts.
    pub(crate) fn answer(status: Status) -> Answer {
        if status == Status::Malformed {
            return Answer::malformed();
        }
        let solution = matches!(status, Status::Solved | Status::Unique | Status::Multiple)
            .then(|| SOLUTION.parse().ok())
            .flatten();
        Answer {
            status,
            solution,
            guesses: 7,
            nanos: 12_345,
        }
    }

    /// Runs `format` over the records and answers, returning the output text.
    pub(crate) fn render(
        format: OutputFormat,
        header: Option<&[String]>,
        no_timings: bool,
        items: &[(Record, Answer)],
    ) -> String {
        let mut out = Vec::new();
        {
            let mut s = sink(
                format,
                Box::new(&mut out),
                header,
                &OutputOptions {
                    no_timings,
                    names: vec!["in.txt".to_string()],
                    ..OutputOptions::default()
                },
            );
            for (r, a) in items {
                s.write(r, a).unwrap();
            }
            s.finish().unwrap();
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn formats_numbers_and_micros() {
        let mut out = Vec::new();
        push_u64(&mut out, 0);
        out.push(b' ');
        push_u64(&mut out, u64::MAX);
        out.push(b' ');
        push_micros(&mut out, 12_345);
        out.push(b' ');
        push_micros(&mut out, 7);
        out.push(b' ');
        push_micros(&mut out, 3_000_050);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "0 18446744073709551615 12.345 0.007 3000.050"
        );
    }

    #[test]
    fn auto_output_mirrors_the_input() {
        assert_eq!(
            OutputFormat::Auto.resolve(InputFormat::Csv),
            OutputFormat::Csv
        );
        assert_eq!(
            OutputFormat::Auto.resolve(InputFormat::Grid),
            OutputFormat::Grid
        );
        assert_eq!(
            OutputFormat::Auto.resolve(InputFormat::Line),
            OutputFormat::Line
        );
        assert_eq!(
            OutputFormat::Jsonl.resolve(InputFormat::Csv),
            OutputFormat::Jsonl
        );
    }
}
