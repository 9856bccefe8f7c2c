//! `solve`: every record of the inputs solved on the pool, written in input order with its status,
//! then a summary of counts and solve times on stderr (and as JSON with `--stats`).

use std::fmt::Write as _;
use std::io;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use anyhow::Result;

use sudoku_batch::input::{Block, Keep};
use sudoku_batch::output::{self, Format, Output, OutputFormat};
use sudoku_batch::pipeline::{self, Config, Steps};
use sudoku_batch::solver;
use sudoku_batch::stats::Stats;
use sudoku_batch::status::Answer;

use super::files::OutputPlan;
use super::progress::Progress;
use super::signals::Signals;
use super::{HeldCounts, OutputEnd};
use crate::cli::SolveArgs;

/// One batch of `solve`: its records' bytes read on the reading thread; parsed, solved and
/// formatted on the pool; its output bytes, stderr lines and counts taken by the writing thread.
#[derive(Default)]
struct Batch {
    block: Block,
    answers: Vec<Answer>,
    /// The formatted records.
    out: Vec<u8>,
    /// `FILE:LINE: reason` lines of its malformed records, for stderr.
    reasons: String,
    stats: Stats,
    /// The first batch of the run (its first record is the output's first).
    first: bool,
    /// Where its bytes go in a file written by the pool (`None`: written in order).
    at: Option<u64>,
}

/// Runs `solve`; the exit code is 0, or 128 plus the number of a signal that stopped it.
pub fn run(args: &SolveArgs) -> Result<ExitCode> {
    let start = Instant::now();
    super::refuse_grid_in_pipe(&args.input, &args.out)?;
    let signals = Signals::install()?;
    // everything that can fail on the command line alone fails before stdin is read
    let pool = super::thread_pool(&args.input)?;
    let threads = pool.current_num_threads();
    let mut plan = OutputPlan::new(&args.input.inputs)?;
    let out = plan.add(args.out.output.as_deref(), "output")?;
    let output_name = super::output_name(args.out.output.as_deref());
    let stats_file = args
        .stats
        .as_deref()
        .map(|path| plan.add(Some(path), "stats"))
        .transpose()?;
    let mut reader = super::open_reader(&args.input, signals.stop_flag())?;
    if let Some(code) = signals.stopped_before_begin(args.input.silent()) {
        return Ok(code);
    }
    // the inputs are open: now the outputs may be emptied
    let mut files = plan.begin()?;
    let (out, stats_file) = (
        files.take_destination(out),
        stats_file.map(|s| files.take_whole(s)),
    );
    // files are read by the threads that parse them when there are several (see
    // `Reader::read_files_in_chunks`)
    reader.read_files_in_chunks(threads > 1);
    let options = super::output_options(&reader, &args.input, args.no_timings);
    let resolved = super::record_format(&args.out).resolve(reader.format());
    // what the output writes of a CSV row: its columns (CSV), the puzzle as read (JSONL), or
    // neither (solutions and statuses only)
    reader.keep(Keep {
        fields: resolved == OutputFormat::Csv,
        cells: resolved == OutputFormat::Jsonl,
    });
    let format = output::formatter(resolved, reader.header(), &options);
    let mut output = Output::to(out, format.as_ref());
    // a file is written by the pool, each batch at its place
    let placed = output.placed();
    let place = |batch: &Batch| super::place_batch(placed.as_deref(), batch.at, &batch.out);
    let config = Config {
        batch_size: args.input.batch_size.get(),
        ..Config::for_threads(threads)
    };
    let names = &options.names;
    let (mut progress, records_read) = Progress::for_reader(&args.input, &reader);
    let mut stats = Stats::default();
    let unique = args.unique;
    // solve times are shown in the records, the summary or the --stats file; when none of them
    // is, the clock is not read
    let timed = !args.no_timings || !args.input.silent() || args.stats.is_some();
    // where the output ends: the input and line of the last record written whole
    let mut ends = OutputEnd::default();
    // a batch's counts once the file holds it (see `HeldCounts`), and the reasons of its
    // malformed records, told then (a full disk's file cut back holds none of the records of
    // batches written ahead, and no reason of theirs is told)
    let mut held = HeldCounts::default();
    let told = super::Told::default();
    let mut count = |(batch, reasons): (Stats, String)| {
        stats += &batch;
        told.add(&reasons);
    };
    let mut batches = 0u64;

    let result = pipeline::run_batches_placed(
        |batch: &mut Batch| {
            batch.first = batches == 0;
            batches += 1;
            reader.read_block(&mut batch.block, config.batch_size)
        },
        &pool,
        config.in_flight,
        Steps {
            ahead: |batch: &mut Batch| batch.block.parse_ahead(),
            prepare: |batch: &mut Batch| batch.block.parse(),
            work: |batch: &mut Batch| {
                solve_batch(
                    batch,
                    format.as_ref(),
                    names,
                    (unique, timed),
                    &records_read,
                )
            },
        },
        |batch: &mut Batch| -> io::Result<()> {
            batch.at = output.place(&batch.out)?;
            let reasons = match args.input.pipe {
                true => String::new(),
                false => std::mem::take(&mut batch.reasons),
            };
            let records = batch.block.records();
            progress.add(records.len());
            let counts = (std::mem::take(&mut batch.stats), reasons);
            held.add((batch.at, batch.out.len()), counts, &mut count);
            held.settle(placed.as_deref(), &mut count);
            progress.print(&told.take());
            ends.add(batch.at, batch.out.len(), records.last());
            Ok(())
        },
        placed.is_some().then_some(&place),
    );
    progress.finish();
    let (last, failure) = super::end_records(
        result,
        &mut output,
        &mut ends,
        &super::record_at(names),
        &output_name,
    );
    held.settle(output.placed().as_deref(), &mut count);
    progress.print(&told.take());

    let mut summary = stats.summary(start.elapsed(), threads);
    summary.runs = Some(vec![sudoku_batch::stats::run_id()]);
    summary.interrupted = super::ended_early(&signals, failure.as_ref(), last, names);
    if !args.input.silent() {
        super::stderr_line(&summary);
    }
    super::tell_pipe_signal("solve", &args.input, &signals, summary.interrupted.as_ref());
    if let (Some(file), Some(path)) = (stats_file, &args.stats) {
        super::write_stats(file, path, &summary)?;
    }
    super::conclude(failure, signals.exit_code().unwrap_or(ExitCode::SUCCESS))
}

/// A batch's work on the pool, once its block is parsed: its records solved (in parallel), then
/// formatted, their stats counted and the reasons of malformed ones written.
fn solve_batch(
    batch: &mut Batch,
    format: &dyn Format,
    names: &[String],
    (unique, timed): (bool, bool),
    records_read: &AtomicU64,
) {
    let records = batch.block.records();
    records_read.fetch_add(records.len() as u64, Ordering::Relaxed);
    pipeline::map_into(records, &mut batch.answers, |record| match &record.puzzle {
        Ok(puzzle) => solver::answer_with(puzzle, unique, timed),
        Err(_) => Answer::malformed(),
    });
    batch.out.clear();
    batch.reasons.clear();
    batch.stats = Stats::default();
    for (i, (record, answer)) in records.iter().zip(&batch.answers).enumerate() {
        if let Err(reason) = &record.puzzle {
            let name = names.get(record.source as usize).map_or("", String::as_str);
            let _ = writeln!(batch.reasons, "{name}:{}: {reason}", record.line);
        }
        batch.stats.add(answer);
        format.record(record, answer, batch.first && i == 0, &mut batch.out);
    }
}
