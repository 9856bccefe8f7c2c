//! The subcommands, one file each, and what they share: opening inputs and the output, building the
//! thread pool, reporting problem records.

pub mod augment;
pub mod bench;
pub mod canon;
pub mod check;
pub mod docs;
pub mod files;
pub mod generate;
pub mod merge_stats;
pub mod progress;
pub mod rate;
pub mod records;
pub mod signals;
pub mod solve;
pub mod split;

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use anyhow::{Context, Result};

use std::num::NonZeroUsize;

use sudoku_batch::input::Record;
use sudoku_batch::input::{Column, Echo, InputError, InputFormat, Reader, ReaderOptions, Source};
use sudoku_batch::output::{Output, OutputOptions, Placed};
use sudoku_batch::pipeline::{PipelineError, logical_cpus, rayon_num_threads, thread_ceiling};
use sudoku_batch::stats::Interruption;

use sudoku_batch::output::OutputFormat;

use crate::cli::{FormatArgs, InputArgs, RecordOutputArgs};

/// Inputs as sources: none means stdin, and so does `-`.
pub fn sources(inputs: &[PathBuf]) -> Vec<Source> {
    if inputs.is_empty() {
        return vec![Source::Stdin];
    }
    inputs
        .iter()
        .map(|p| {
            if p.as_os_str() == "-" {
                Source::Stdin
            } else {
                Source::Path(p.clone())
            }
        })
        .collect()
}

/// Opens the inputs named on the command line; raising `stop` stops reading.
pub fn open_reader(args: &InputArgs, stop: Arc<AtomicBool>) -> Result<Reader> {
    open_reader_echo(args, stop, args.echo.clone().unwrap_or_default())
}

/// [`open_reader`], keeping `echo` of each line of line input whatever `--echo` says.
pub fn open_reader_echo(args: &InputArgs, stop: Arc<AtomicBool>, echo: Echo) -> Result<Reader> {
    let mut options = reader_options(&args.format);
    options.stop = Some(stop);
    options.pipe = args.pipe;
    options.echo = echo;
    if args.pipe && options.format == InputFormat::Grid {
        anyhow::bail!("--pipe reads line or CSV input: a grid is not one line");
    }
    // a header read from each chunk an engine hands over would be its first row, unanswered
    if args.pipe && options.format == InputFormat::Csv && args.format.csv_columns.is_none() {
        anyhow::bail!(
            "--pipe reads CSV rows with no header (an engine's chunks have none, so every line \
             is a row): name the columns with --csv-columns (e.g. --csv-columns id,puzzle) \
             instead of -I csv"
        );
    }
    let reader = open_with(sources(&args.inputs), &args.format, &options)?;
    // --echo picks from the fields of a line; CSV output keeps every column of CSV input
    if args.echo.is_some() && matches!(reader.format(), InputFormat::Csv | InputFormat::Grid) {
        anyhow::bail!(
            "--echo applies to line input; {} is {} input{}",
            reader.source_name(0),
            reader.format().name(),
            if reader.format() == InputFormat::Csv {
                " (-O csv writes every column of each row back)"
            } else {
                ""
            }
        );
    }
    Ok(reader)
}

/// True for `--solution-column none`: the dataset's solutions are not read (a column of them is
/// then like any other).
pub fn solutions_unread(column: Option<&Column>) -> bool {
    matches!(column, Some(Column::Name(name)) if name == "none")
}

/// Asks `reader` for the dataset's given solutions, in CSV column `column` when named (an error
/// for other input), else as the reader finds them; none for `none`.
pub fn read_solutions(reader: &mut Reader, column: Option<&Column>) -> Result<()> {
    if solutions_unread(column) {
        return Ok(());
    }
    if column.is_some() {
        csv_only(reader, "--solution-column")?;
    }
    Ok(reader.read_solutions(column)?)
}

/// Opens `sources` as one stream of records in the layout `args` asks for; with `stop`,
/// reading stops once it is up (a signal): the reader then acts as if its inputs had ended, and
/// a read waiting on an idle pipe does not hold the stop up.
pub fn open_sources(
    sources: Vec<Source>,
    args: &FormatArgs,
    stop: Option<Arc<AtomicBool>>,
) -> Result<Reader> {
    let mut options = reader_options(args);
    options.stop = stop;
    open_with(sources, args, &options)
}

/// The reading options `args` ask for.
fn reader_options(args: &FormatArgs) -> ReaderOptions {
    ReaderOptions {
        format: args.input_format.into(),
        column: args.column.clone(),
        max_record: args.max_record.0,
        csv_columns: args.csv_columns.clone(),
        ..ReaderOptions::default()
    }
}

/// Opens `sources` with `options`, checking what `args` ask for against what they turn out to be.
fn open_with(sources: Vec<Source>, args: &FormatArgs, options: &ReaderOptions) -> Result<Reader> {
    if let Some(columns) = &args.csv_columns {
        if let Some(other) = args.input_format.not_csv() {
            anyhow::bail!("--csv-columns reads CSV rows, but -I {other} was given: drop one");
        }
        sudoku_batch::input::check_csv_columns(columns, args.column.as_ref())
            .map_err(anyhow::Error::msg)?;
        let (columns, _) = sudoku_batch::input::headerless_columns(columns);
        let name = |i: usize| columns[i].trim();
        let twice = (0..columns.len()).find(|&j| (0..j).any(|i| name(i) == name(j)));
        if let Some(j) = twice {
            anyhow::bail!(
                "--csv-columns names {:?} twice: name each column once",
                name(j)
            );
        }
    }
    let mut reader = Reader::open(sources, options)?;
    reader.check_later_inputs()?;
    if args.column.is_some() {
        if let Some(other) = args.input_format.not_csv() {
            anyhow::bail!("--column applies to CSV input only, but -I {other} was given");
        }
        csv_only(&reader, "--column")?;
    }
    Ok(reader)
}

/// Fails when `option` is given for input that is not CSV, naming the input that fixed the
/// format; inputs with no content (an empty shard, `/dev/null`) fix none and pass.
fn csv_only(reader: &Reader, option: &str) -> Result<()> {
    match reader.fixed_by() {
        Some(input) if reader.format() != InputFormat::Csv => anyhow::bail!(
            "{option} applies to CSV input only; {} is {} input",
            reader.source_name(input),
            reader.format().name()
        ),
        _ => Ok(()),
    }
}

/// The rayon pool for `--threads`: when not given, 1 in pipe mode, else `RAYON_NUM_THREADS` (as
/// rayon reads it: a positive number; 0 or anything else means the default, and anything else
/// is warned of), else all cores.
/// Capped by [`thread_ceiling`], with a warning unless quiet.
pub fn thread_pool(args: &InputArgs) -> Result<rayon::ThreadPool> {
    // pipe mode: one thread unless -j says otherwise (an engine runs many processes)
    let pipe_default = args.pipe.then_some(NonZeroUsize::MIN);
    pool_of(args.threads.or(pipe_default), args.silent())
}

/// The rayon pool for `threads` threads when given, else `RAYON_NUM_THREADS` (as rayon reads
/// it), else all cores; capped by [`thread_ceiling`], with a warning unless `quiet`.
pub fn pool_of(threads: Option<NonZeroUsize>, quiet: bool) -> Result<rayon::ThreadPool> {
    let asked = threads.or_else(|| match rayon_num_threads() {
        Ok(n) => n,
        Err(text) => {
            if !quiet {
                stderr_line(format_args!(
                    "sudoku-batch: warning: RAYON_NUM_THREADS={text:?} is not a number of \
                     threads; using all {} logical CPUs (-j N sets it)",
                    logical_cpus()
                ));
            }
            None
        }
    });
    let threads = match asked {
        Some(n) => capped_threads(n, quiet).get(),
        None => logical_cpus(),
    };
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("solver-{i}"))
        .build()
        .context("starting the solver threads")
}

/// `threads`, or [`thread_ceiling`] when it asks for more (saying so on stderr unless `quiet`).
pub fn capped_threads(threads: NonZeroUsize, quiet: bool) -> NonZeroUsize {
    let ceiling = thread_ceiling();
    if threads.get() <= ceiling {
        return threads;
    }
    if !quiet {
        stderr_line(format_args!(
            "sudoku-batch: warning: {threads} threads is far beyond the {} logical CPUs here; \
             using {ceiling} (the most: 4 per CPU, at least 64)",
            logical_cpus()
        ));
    }
    NonZeroUsize::new(ceiling).unwrap_or(NonZeroUsize::MIN)
}

/// The output settings the inputs call for: their names (jsonl's `file`) and the CSV input's
/// delimiter, so a `;` or tab file is written back with it.
pub fn output_options(reader: &Reader, args: &InputArgs, no_timings: bool) -> OutputOptions {
    // only line input keeps fields of its lines
    let echo = match reader.format() {
        InputFormat::Line | InputFormat::Auto => args.echo.clone().unwrap_or_default().names(),
        _ => Vec::new(),
    };
    OutputOptions {
        no_timings,
        names: source_names(reader, args),
        delimiter: reader.csv_delimiter().unwrap_or(b','),
        pipe: args.pipe,
        echo,
    }
}

/// A per-record format an output file's name asks for, by its extension (any case).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NamedFormat {
    /// `.jsonl`
    Jsonl,
    /// `.csv`
    Csv,
}

/// The format `path` (`-o`) names by its extension: `.jsonl` or `.csv`; `None` for others, for
/// stdout and for none.
pub fn named_format(path: Option<&Path>) -> Option<NamedFormat> {
    let ext = path?.extension()?.to_str()?.to_ascii_lowercase();
    match ext.as_str() {
        "jsonl" => Some(NamedFormat::Jsonl),
        "csv" => Some(NamedFormat::Csv),
        _ => None,
    }
}

/// Refuses `-O grid` with `--pipe`, which promises one output line per input line: a grid
/// record is ten (`solve`, `rate` and `canon` wrote them with exit 0, so a consumer pairing
/// lines was shifted).
pub fn refuse_grid_in_pipe(input: &InputArgs, out: &RecordOutputArgs) -> Result<()> {
    if input.pipe && record_format(out) == OutputFormat::Grid {
        anyhow::bail!("--pipe promises one output line per input line: -O grid writes ten");
    }
    Ok(())
}

/// The record format of `solve` and `canon`: `-O`, else for `auto` the one the name of `-o` asks
/// for (`.jsonl`, `.csv`), else `auto` (mirroring the input).
pub fn record_format(args: &RecordOutputArgs) -> OutputFormat {
    match (
        OutputFormat::from(args.output_format),
        named_format(args.output.as_deref()),
    ) {
        (OutputFormat::Auto, Some(NamedFormat::Jsonl)) => OutputFormat::Jsonl,
        (OutputFormat::Auto, Some(NamedFormat::Csv)) => OutputFormat::Csv,
        (format, _) => format,
    }
}

/// How a run of `solve` or `canon` ends once its pipeline has: `result`, and `finished` (the
/// output's last flush), as an error naming the output. What was read before a read failure has
/// been written (a failed flush would only repeat itself later); the read error says where
/// reading stopped.
pub fn end_of_output(
    result: Result<(), PipelineError<InputError, io::Error>>,
    finished: io::Result<()>,
    output_name: &str,
    last: Option<String>,
) -> Result<()> {
    // a file written at offsets was cut back to its whole records: say where they end (`last`:
    // the last record it holds, as [`record_at`] names it)
    let ends = match last {
        Some(last) => format!(" (the output ends with {last})"),
        None => String::new(),
    };
    let writing = || format!("writing {output_name}{ends}");
    match result {
        Err(PipelineError::Read(err)) => Err(err.into()),
        Err(PipelineError::Write(err)) => Err(err).with_context(writing),
        Ok(()) => finished.with_context(writing),
    }
}

/// What stopped a run before the end of its input, other than a signal: an input that could not
/// be read, or an output that could not be written. It is held until the run's summary, stats
/// and report are written, which say so (see [`ended_early`]), and then returned by [`conclude`].
///
/// Why held: a run whose output failed (a full disk) left its `--stats` and `--report` empty,
/// and one whose input failed wrote them as for a whole run.
pub struct Failure {
    err: anyhow::Error,
    /// The message the stats and report carry.
    message: String,
    /// The record output's reader went away (a closed pipe, as `| head` does): the run ends
    /// with the exit status it earned, its other outputs written and saying where it stopped.
    reader_left: bool,
}

impl Failure {
    /// An input could not be read.
    pub fn read(err: InputError) -> Failure {
        Failure {
            message: err.to_string(),
            err: err.into(),
            reader_left: false,
        }
    }

    /// The record output could not be written (`err` names it).
    pub fn output(err: anyhow::Error) -> Failure {
        Failure {
            message: format!("{err:#}"),
            reader_left: is_broken_pipe(&err),
            err,
        }
    }

    /// True when the record output's reader went away (see [`conclude`]).
    pub fn reader_left(&self) -> bool {
        self.reader_left
    }

    /// Another output than the record output (a report) could not be written: an error even
    /// when its reader went away, as the run stops with it and its other outputs are cut short.
    pub fn side(err: anyhow::Error) -> Failure {
        Failure {
            message: format!("{err:#}"),
            err,
            reader_left: false,
        }
    }
}

/// How a run ends once its summary, stats and report are written: with its failure (exit 2),
/// else with the exit status it earned (`earned`). A record output whose reader went away is
/// no failure: the reader asked for no more, and the run wrote what it had.
///
/// Why only the record output: a closed pipe on a report or `--stats` ended every command
/// quietly with exit 0, its record output cut short and `check`'s exit 1 for problems lost.
pub fn conclude(failure: Option<Failure>, earned: ExitCode) -> Result<ExitCode> {
    match failure {
        Some(failure) if !failure.reader_left => Err(failure.err),
        _ => Ok(earned),
    }
}

/// How a run ended before the end of its input, if it did: the signal that stopped it, else the
/// failure that did (see [`Failure`]), with its output ending at `last` (source and line,
/// `names` the sources' names).
///
/// Why the failure too: a run stopped by an input error wrote its stats and report as for a run
/// that reached the end (`interrupted: null`, "Problems: 0 of 6920 records"), or left its stats
/// empty, and `merge-stats` added such a part up as whole.
pub fn ended_early(
    signals: &signals::Signals,
    failure: Option<&Failure>,
    last: Option<(u32, u64)>,
    names: &[String],
) -> Option<Interruption> {
    let last = last.map(|(source, line)| {
        (
            names.get(source as usize).cloned().unwrap_or_default(),
            line,
        )
    });
    // a failed output or input first: the run exits 2 for it even when a signal came too
    match failure {
        Some(f) if !f.reader_left => Some(Interruption::error(f.message.clone(), last)),
        _ => signals
            .interruption(last.clone())
            .or_else(|| failure.map(|_| Interruption::closed(last))),
    }
}

/// Ends a run's record output once its pipeline has (`result`): finishes it (a placed file cut
/// back to its whole records, [`Output::finish`]). Returns the input and line of the last record
/// written whole, and what stopped the run early, if anything: an input error, or the output's
/// failure as [`end_of_output`] words it (a placed file's naming the last record it holds).
pub fn end_records(
    result: Result<(), PipelineError<InputError, io::Error>>,
    output: &mut Output<'_>,
    ends: &mut OutputEnd,
    name: &dyn Fn((u32, u64)) -> String,
    output_name: &str,
) -> (Option<(u32, u64)>, Option<Failure>) {
    // what was read before an input error is written, then the error told
    let (result, read_error) = match result {
        Err(PipelineError::Read(err)) => (Ok(()), Some(err)),
        other => (other, None),
    };
    let finished = output.finish();
    let placed = output.placed();
    let last = ends.last(placed.as_deref());
    // a placed file (or one appended to, cut back) holds whole records up to `last`, even
    // after a failed write
    let whole = last.filter(|_| output.holds_whole_records());
    let failure = match end_of_output(result, finished, output_name, whole.map(name)) {
        Err(err) => Some(Failure::output(err)),
        Ok(()) => read_error.map(Failure::read),
    };
    (last, failure)
}

/// True when the reader of the record output went away while the inputs were opened, before
/// the first record was read ([`signals::PipeWatch`]): the run then ends there, with the exit
/// status it earned (0) and every output as it was, as one stopped by a signal does (it emptied
/// `--stats` and `--report` files to say that nothing was done). Said on stderr unless `quiet`.
pub fn reader_gone_before_begin(
    watch: Option<&signals::PipeWatch>,
    reader: &sudoku_batch::input::Reader,
    quiet: bool,
) -> bool {
    let gone = watch.is_some_and(signals::PipeWatch::gone) && reader.stopped_short();
    if gone && !quiet {
        stderr_line(
            "the reader of the output went away before the first record was read: nothing \
             written, every output as it was",
        );
    }
    gone
}

/// The failure of a run whose record output's reader went away ([`signals::PipeWatch`]) and
/// that stopped for it (`stopped`: reading cut short, or records left out) with nothing written
/// after, told as a broken pipe; `None` when the reader stayed, or left once every record was
/// written (the run is whole).
pub fn left_by_reader(
    watch: Option<signals::PipeWatch>,
    stopped: bool,
    output_name: &str,
) -> Option<Failure> {
    (watch.is_some_and(|w| w.gone()) && stopped).then(|| {
        Failure::output(
            anyhow::Error::new(io::Error::from(io::ErrorKind::BrokenPipe))
                .context(format!("writing {output_name}")),
        )
    })
}

/// How a record read from the inputs is named in messages: `the record at FILE:LINE`, given the
/// input and line (`names`: the inputs' names, see [`source_names`]).
pub fn record_at(names: &[String]) -> impl Fn((u32, u64)) -> String + '_ {
    |(source, line)| {
        let name = names.get(source as usize).map_or("", String::as_str);
        format!("the record at {name}:{line}")
    }
}

/// Writes a batch's bytes at `at` in `placed` (the pool's step of a file written at offsets);
/// nothing for output written in order.
pub fn place_batch(placed: Option<&Placed>, at: Option<u64>, bytes: &[u8]) -> io::Result<()> {
    match (placed, at) {
        (Some(file), Some(at)) => file.write_at(at, bytes),
        _ => Ok(()),
    }
}

/// Writes a run's `--stats` JSON to `file` (named `path` in messages).
pub fn write_stats(
    mut file: Box<dyn Write + Send>,
    path: &Path,
    summary: &impl serde::Serialize,
) -> Result<()> {
    let json = serde_json::to_string_pretty(summary).context("encoding the stats")?;
    file.write_all((json + "\n").as_bytes())
        .and_then(|()| file.flush())
        .with_context(|| format!("writing {}", output_name(Some(path))))
}

/// What each batch handed to the output holds (`T`: its counts, or its last record), held
/// while the batch is written at an offset until the file's whole prefix holds it: a file cut
/// back after a failed write (a full disk) is then described by the batches it holds, never by
/// those cut away (stats said `"records": 13584` of a file that ended at line 10188). Batches
/// written in order are taken at once.
pub struct HeldCounts<T> {
    /// Where each held batch's bytes end, and what it holds, oldest first.
    pending: std::collections::VecDeque<(u64, T)>,
}

impl<T> Default for HeldCounts<T> {
    fn default() -> Self {
        HeldCounts {
            pending: std::collections::VecDeque::new(),
        }
    }
}

impl<T> HeldCounts<T> {
    /// Takes what a batch holds (`counts`), given its offset `at` (`None` for output written in
    /// order, handed to `count` at once) and its bytes' length.
    pub fn add(&mut self, (at, len): (Option<u64>, usize), counts: T, count: &mut impl FnMut(T)) {
        match at {
            None => count(counts),
            Some(at) => self.pending.push_back((at + len as u64, counts)),
        }
    }

    /// Hands `count` what the batches the file's whole prefix holds by now hold (`placed`: the
    /// output's file when written at offsets); at the end of a run (the file finished, cut back
    /// after a failure) the rest are dropped with their batches.
    pub fn settle(&mut self, placed: Option<&Placed>, count: &mut impl FnMut(T)) {
        let prefix = placed.map_or(u64::MAX, Placed::prefix);
        while self.pending.front().is_some_and(|&(end, _)| end <= prefix) {
            if let Some((_, counts)) = self.pending.pop_front() {
                count(counts);
            }
        }
    }
}

/// Lines for stderr gathered while batches are counted ([`HeldCounts`]), told by the thread
/// that writes stderr: the reasons of malformed records, said only of batches the output holds.
#[derive(Default)]
pub struct Told(std::sync::Mutex<String>);

impl Told {
    /// Adds lines to tell.
    pub fn add(&self, lines: &str) {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push_str(lines);
    }

    /// The lines gathered since the last call.
    pub fn take(&self) -> String {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

/// Where a run's output ends: the input and line of the last record written whole. Batches
/// written in order end where the last one handed over does; a file written by the pool ends
/// where its whole prefix does ([`Placed::prefix`]), which after a failed write may be before
/// batches handed over later.
#[derive(Default)]
pub struct OutputEnd {
    /// The last record of each batch handed over, until the whole prefix holds it.
    held: HeldCounts<Option<(u32, u64)>>,
    /// The last record of the whole prefix (or of every batch, written in order).
    whole: Option<(u32, u64)>,
}

impl OutputEnd {
    /// Notes a batch handed over: its offset in a placed file (`None`: written in order), its
    /// bytes' length and its last record.
    pub fn add(&mut self, at: Option<u64>, len: usize, last: Option<&Record>) {
        self.add_at(at, len, last.map(|r| (r.source, r.line)));
    }

    /// [`OutputEnd::add`] with the last record's input and line.
    pub fn add_at(&mut self, at: Option<u64>, len: usize, last: Option<(u32, u64)>) {
        let whole = &mut self.whole;
        self.held
            .add((at, len), last, &mut |last| *whole = last.or(*whole));
    }

    /// The last record written whole, once no write is under way (`placed`: the output's file
    /// when written at offsets).
    pub fn last(&mut self, placed: Option<&Placed>) -> Option<(u32, u64)> {
        let whole = &mut self.whole;
        self.held
            .settle(placed, &mut |last| *whole = last.or(*whole));
        self.whole
    }
}

/// The names of the inputs for messages, indexed by `Record::source` (`<stdin>` for none).
/// An input named again on the command line is told apart by its place (`a.txt (input 2)`), so
/// that a record is never said to repeat itself.
pub fn source_names(reader: &Reader, args: &InputArgs) -> Vec<String> {
    let mut names: Vec<String> = Vec::with_capacity(args.inputs.len().max(1));
    for i in 0..args.inputs.len().max(1) {
        let name = reader.source_name(i as u32).to_string();
        let name = if names.contains(&name) {
            format!("{name} (input {})", i + 1)
        } else {
            name
        };
        names.push(name);
    }
    names
}

/// How the output is named in messages.
pub fn output_name(path: Option<&Path>) -> String {
    match path {
        Some(p) if p.as_os_str() != "-" => p.display().to_string(),
        _ => "<stdout>".to_string(),
    }
}

/// Pipe mode writes no summary, but a signal that stopped the run (which then exits 128 plus
/// its number: the run failed) is told in one line on stderr, where an engine keeps its
/// program's messages; `-q` keeps even that off.
pub fn tell_pipe_signal(
    command: &str,
    args: &InputArgs,
    signals: &signals::Signals,
    interrupted: Option<&Interruption>,
) {
    if !args.pipe || args.quiet || signals.exit_code().is_none() {
        return;
    }
    if let Some(interrupted) = interrupted {
        stderr_line(format_args!("{command} --pipe: {interrupted}"));
    }
}

/// Writes `line` and a line end to stderr, ignoring failure: a stderr that cannot be written
/// (`2>/dev/full`, a closed pipe) must neither panic, as `eprintln!` does, nor change the exit
/// code the run has earned. Pass `format_args!(..)` to format without allocating.
pub fn stderr_line(line: impl std::fmt::Display) {
    let _ = writeln!(io::stderr().lock(), "{line}");
}

/// True when the error chain holds a broken pipe: the reader of an output went away.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// Marks an error as the closed pipe of a command's last output on stdout (the bench table, a
/// man page, `merge-stats`' sum): the run ends quietly with exit 0, as there is nothing left
/// to write. Any other broken pipe is an error like any other (exit 2).
#[derive(Debug)]
pub struct ReaderLeft;

impl std::fmt::Display for ReaderLeft {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the reader of the output went away")
    }
}

/// `result` with a broken pipe marked [`ReaderLeft`]: for the last output a command writes.
pub fn last_output<T>(result: Result<T>) -> Result<T> {
    result.map_err(|err| match is_broken_pipe(&err) {
        true => err.context(ReaderLeft),
        false => err,
    })
}

/// True when `err` is marked [`ReaderLeft`].
pub fn reader_left(err: &anyhow::Error) -> bool {
    err.downcast_ref::<ReaderLeft>().is_some()
}
