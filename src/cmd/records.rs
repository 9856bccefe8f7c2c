//! The loop of `canon`: every record of the inputs mapped to an answer on the pool, formatted
//! there, written in input order, then a one-line summary on stderr. (`augment`, whose records
//! may have any number of copies, deals them out over steps of its own: see `cmd/augment.rs`.)

use std::fmt::Write as _;
use std::io;
use std::num::NonZeroUsize;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use anyhow::Result;
use serde::Serialize;

use sudoku_batch::input::{Block, Reader, Record};
use sudoku_batch::output::{Format, Output, OutputFormat, OutputOptions};
use sudoku_batch::pipeline::{self, Config, Steps};
use sudoku_batch::stats::Interruption;

use super::files::OutputPlan;
use super::progress::Progress;
use super::signals::Signals;
use super::{HeldCounts, OutputEnd};
use crate::cli::{InputArgs, RecordOutputArgs};

/// One batch: read on the reading thread; parsed, mapped and formatted on the pool; written by
/// the writing thread.
struct Batch<A> {
    block: Block,
    /// The answers of its first records: all of them, or after a signal those answered before
    /// it (the records after the first one left unanswered are not written).
    answers: Vec<A>,
    out: Vec<u8>,
    /// `FILE:LINE: reason` lines of its malformed records, for stderr.
    reasons: String,
    malformed: u64,
    first: bool,
    /// Where its bytes go in a file written by the pool (`None`: written in order).
    at: Option<u64>,
}

impl<A> Default for Batch<A> {
    fn default() -> Self {
        Batch {
            block: Block::default(),
            answers: Vec::new(),
            out: Vec::new(),
            reasons: String::new(),
            malformed: 0,
            first: false,
            at: None,
        }
    }
}

/// Builds a command's formatter from the open inputs, the output options and the resolved format.
pub type Formatter<'f, A> =
    dyn Fn(&Reader, &OutputOptions, OutputFormat) -> Box<dyn Format<A>> + 'f;

/// A command that maps each record to an answer of type `A` and writes it.
pub struct RecordCommand<'a, A> {
    /// The command's name, for the summary.
    pub name: &'static str,
    pub input: &'a InputArgs,
    pub out: &'a RecordOutputArgs,
    /// Called once the inputs are open, before any record is read (to ask for solutions, say).
    pub setup: &'a dyn Fn(&mut Reader) -> Result<()>,
    /// The formatter for the resolved output format.
    pub format: &'a Formatter<'a, A>,
    /// A record's answer.
    pub answer: &'a (dyn Fn(&Record) -> A + Sync),
    /// Leave per-record times out of the output.
    pub no_timings: bool,
    /// At most this many records a batch, whatever `--batch-size` says: for commands whose
    /// records take milliseconds each, so that the batches in flight, which a signal lets
    /// finish, end soon.
    pub batch_cap: Option<NonZeroUsize>,
    /// Sees each batch's answers once written, in input order (for the command's own summary).
    pub tally: &'a (dyn Fn(&[A]) + Sync),
    /// Lines added after the one-line summary (empty: none).
    pub report: &'a dyn Fn() -> String,
    /// Where to write the run's summary as JSON (`--stats`), and the JSON from the run's facts.
    pub stats: Option<(&'a Path, &'a StatsJson<'a>)>,
}

/// A command's `--stats` JSON, made from the run's facts (and what the command tallied).
pub type StatsJson<'f> = dyn Fn(&RunFacts) -> serde_json::Value + 'f;

/// What every record command knows of its run when it ends, for its `--stats` JSON.
#[derive(Debug, Clone, Serialize)]
pub struct RunFacts {
    pub records: u64,
    pub malformed: u64,
    pub seconds: f64,
    pub threads: usize,
    /// How a signal stopped the run and where its output ends; `None`: it ran to the end.
    pub interrupted: Option<Interruption>,
}

/// Runs `command`; the exit code is 0, or 128 plus the number of a signal that stopped it.
pub fn run<A: Send + Sync>(command: &RecordCommand<'_, A>) -> Result<ExitCode> {
    let (args, out_args) = (command.input, command.out);
    let start = Instant::now();
    super::refuse_grid_in_pipe(args, out_args)?;
    let signals = Signals::install()?;
    let pool = super::thread_pool(args)?;
    let threads = pool.current_num_threads();
    let mut plan = OutputPlan::new(&args.inputs)?;
    let out = plan.add(out_args.output.as_deref(), "output")?;
    let stats_file = command
        .stats
        .map(|(path, _)| plan.add(Some(path), "stats"))
        .transpose()?;
    let output_name = super::output_name(out_args.output.as_deref());
    // slow records: a reader of the output that goes away is noticed at once, not at the next
    // write (which came after every record in flight, or never on an idle input)
    let mut watch = match command.batch_cap {
        Some(_) => plan.watch_reader(&out, signals.stop_flag()),
        None => None,
    };
    let mut reader = super::open_reader(args, signals.stop_flag())?;
    // for slow records, those not yet begun when a signal comes are left unanswered (see
    // `map_batch`)
    let stop = signals.stop_flag();
    let stop = command.batch_cap.is_some().then_some(&*stop);
    if let Some(code) = signals.stopped_before_begin(args.silent()) {
        return Ok(code);
    }
    if super::reader_gone_before_begin(watch.as_ref(), &reader, args.silent()) {
        return Ok(ExitCode::SUCCESS);
    }
    // the inputs are open: now the outputs may be emptied
    let mut files = plan.begin()?;
    let out = files.take_destination(out);
    let stats_file = stats_file.map(|slot| files.take_whole(slot));
    // files are read by the threads that parse them when there are several (see
    // `Reader::read_files_in_chunks`)
    reader.read_files_in_chunks(threads > 1);
    // slow records stream a few at a time: a block holds no more than a batch asks for
    if command.batch_cap.is_some() {
        reader.read_blocks_of_at_most();
    }
    (command.setup)(&mut reader)?;
    let options = super::output_options(&reader, args, command.no_timings);
    let resolved = super::record_format(out_args).resolve(reader.format());
    let format = (command.format)(&reader, &options, resolved);
    let mut output = Output::to(out, format.as_ref());
    // a file is written by the pool, each batch at its place
    let placed = output.placed();
    let place = |batch: &Batch<A>| super::place_batch(placed.as_deref(), batch.at, &batch.out);
    let config = Config {
        batch_size: command
            .batch_cap
            .map_or(args.batch_size, |cap| cap.min(args.batch_size))
            .get(),
        ..Config::for_threads(threads)
    };
    let names = &options.names;
    let (mut progress, records_read) = Progress::for_reader(args, &reader);
    let (mut records, mut malformed) = (0u64, 0u64);
    let mut ends = OutputEnd::default();
    // a batch's counts once the file holds it (see `HeldCounts`): its records, malformed ones
    // and answers, and the reasons of its malformed records, told then (a full disk's file cut
    // back holds none of the records of batches written ahead, and no reason of theirs is told)
    let mut held = HeldCounts::default();
    let told = super::Told::default();
    let mut count = |(n, bad, answers, reasons): (u64, u64, Vec<A>, String)| {
        records += n;
        malformed += bad;
        (command.tally)(&answers);
        told.add(&reasons);
    };
    let mut batches = 0u64;
    // a batch cut short by a signal was written: the batches after it are not
    let mut cut = false;

    let result = pipeline::run_batches_placed(
        |batch: &mut Batch<A>| {
            batch.first = batches == 0;
            batches += 1;
            reader.read_block(&mut batch.block, config.batch_size)
        },
        &pool,
        config.in_flight,
        Steps {
            ahead: |batch: &mut Batch<A>| batch.block.parse_ahead(),
            prepare: |batch: &mut Batch<A>| batch.block.parse(),
            work: |batch: &mut Batch<A>| {
                map_batch(
                    batch,
                    format.as_ref(),
                    names,
                    command.answer,
                    &records_read,
                    stop,
                );
            },
        },
        |batch: &mut Batch<A>| -> io::Result<()> {
            if cut {
                // nothing of it is written (its place, if any, is empty)
                batch.out.clear();
                batch.at = output.place(&batch.out)?;
                return Ok(());
            }
            batch.at = output.place(&batch.out)?;
            let reasons = match args.pipe {
                true => String::new(),
                false => std::mem::take(&mut batch.reasons),
            };
            let all = batch.block.records();
            let batch_records = &all[..batch.answers.len().min(all.len())];
            cut = batch_records.len() < all.len();
            progress.add(batch_records.len());
            let last = batch_records.last().map(|r| (r.source, r.line));
            let counts = (
                batch_records.len() as u64,
                batch.malformed,
                std::mem::take(&mut batch.answers),
                reasons,
            );
            held.add((batch.at, batch.out.len()), counts, &mut count);
            held.settle(placed.as_deref(), &mut count);
            progress.print(&told.take());
            ends.add_at(batch.at, batch.out.len(), last);
            Ok(())
        },
        placed.is_some().then_some(&place),
    );
    progress.finish();
    let (last, mut failure) = super::end_records(
        result,
        &mut output,
        &mut ends,
        &super::record_at(names),
        &output_name,
    );
    let left = super::left_by_reader(watch.take(), reader.stopped_short() || cut, &output_name);
    failure = failure.or(left);
    held.settle(output.placed().as_deref(), &mut count);
    progress.print(&told.take());
    let secs = start.elapsed().as_secs_f64();
    let interrupted = super::ended_early(&signals, failure.as_ref(), last, names);
    super::tell_pipe_signal(command.name, args, &signals, interrupted.as_ref());
    if !args.silent() {
        let mut line = format!(
            "{}: {records} record{}, {malformed} malformed, in {secs:.3} s ({:.0} records/s, \
             {threads} thread{})",
            command.name,
            if records == 1 { "" } else { "s" },
            records as f64 / secs.max(1e-9),
            if threads == 1 { "" } else { "s" },
        );
        if let Some(interruption) = &interrupted {
            let _ = write!(line, "; {interruption}");
        }
        let report = (command.report)();
        if !report.is_empty() {
            line.push('\n');
            line.push_str(report.trim_end());
        }
        super::stderr_line(line);
    }
    if let (Some(file), Some((path, json))) = (stats_file, command.stats) {
        let facts = RunFacts {
            records,
            malformed,
            seconds: secs,
            threads,
            interrupted,
        };
        super::write_stats(file, path, &json(&facts))?;
    }
    super::conclude(failure, signals.exit_code().unwrap_or(ExitCode::SUCCESS))
}

/// A batch's work on the pool: its records' answers (in parallel), then formatted.
///
/// With `stop` (commands whose records are slow: those with a batch cap), once it is up (a
/// signal), a record not yet begun is left unanswered, and only the records before the first
/// one so left are formatted (and later written): the output still ends with a whole record,
/// in input order, and Ctrl-C takes effect within a record's time rather than after every
/// batch in flight (which, with `rate` on the hardest puzzles, was most of a minute). Without,
/// every record is answered (measured: the test a record cost `canon` 2% on easy puzzles).
fn map_batch<A: Send>(
    batch: &mut Batch<A>,
    format: &dyn Format<A>,
    names: &[String],
    answer: &(dyn Fn(&Record) -> A + Sync),
    records_read: &AtomicU64,
    stop: Option<&AtomicBool>,
) {
    let records = batch.block.records();
    records_read.fetch_add(records.len() as u64, Ordering::Relaxed);
    match stop {
        None => pipeline::map_into(records, &mut batch.answers, answer),
        Some(stop) => {
            pipeline::map_indexed_prefix_into(records.len(), &mut batch.answers, stop, |i| {
                answer(&records[i])
            })
        }
    }
    batch.out.clear();
    batch.reasons.clear();
    batch.malformed = 0;
    for (i, (record, answer)) in records.iter().zip(&batch.answers).enumerate() {
        if let Err(reason) = &record.puzzle {
            batch.malformed += 1;
            let name = names.get(record.source as usize).map_or("", String::as_str);
            let _ = writeln!(batch.reasons, "{name}:{}: {reason}", record.line);
        }
        format.record(record, answer, batch.first && i == 0, &mut batch.out);
    }
}
