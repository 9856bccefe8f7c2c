//! `canon`: every record's minlex form (and its hash, and optionally the transform that gives it)
//! computed on the pool, written in input order, then a one-line summary on stderr.

use std::fmt::Write as _;
use std::io;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use anyhow::Result;

use sudoku_batch::canon;
use sudoku_batch::input::Block;
use sudoku_batch::output::{self, CanonAnswer, CanonColumns, Format, Output};
use sudoku_batch::pipeline::{self, Config, Steps};

use super::progress::Progress;
use super::signals::Signals;
use crate::cli::CanonArgs;

/// One batch of `canon`: read on the reading thread; parsed, canonicalised and formatted on the
/// pool; written by the writing thread.
#[derive(Default)]
struct Batch {
    block: Block,
    answers: Vec<CanonAnswer>,
    out: Vec<u8>,
    /// `FILE:LINE: reason` lines of its malformed records, for stderr.
    reasons: String,
    malformed: u64,
    first: bool,
}

/// Runs `canon`; the exit code is 0, or 128 plus the number of a signal that stopped it.
pub fn run(args: &CanonArgs) -> Result<ExitCode> {
    let start = Instant::now();
    let signals = Signals::install()?;
    let pool = super::thread_pool(&args.input)?;
    let threads = pool.current_num_threads();
    let out = super::open_output(args.out.output.as_deref(), &args.input.inputs)?;
    let output_name = super::output_name(args.out.output.as_deref());
    let mut reader = super::open_reader(&args.input, signals.stop_flag())?;
    let options = super::output_options(&reader, &args.input, true);
    let format = output::canon_formatter(
        super::record_format(&args.out).resolve(reader.format()),
        reader.header(),
        &options,
        CanonColumns {
            transform: args.transform,
        },
    );
    let mut output = Output::new(out, format.as_ref());
    let config = Config {
        batch_size: args.input.batch_size.get(),
        ..Config::for_threads(threads)
    };
    let names = &options.names;
    let (mut progress, records_read) = Progress::for_reader(&args.input, &reader);
    let (mut records, mut malformed) = (0u64, 0u64);
    let mut last = None;
    let mut batches = 0u64;

    let result = pipeline::run_batches(
        |batch: &mut Batch| {
            batch.first = batches == 0;
            batches += 1;
            reader.read_block(&mut batch.block, config.batch_size)
        },
        &pool,
        config.in_flight,
        Steps {
            prepare: |batch: &mut Batch| batch.block.parse(),
            work: |batch: &mut Batch| canon_batch(batch, format.as_ref(), names, &records_read),
        },
        |batch: &Batch| -> io::Result<()> {
            output.write(&batch.out)?;
            if !args.input.pipe {
                progress.print(&batch.reasons);
            }
            let batch_records = batch.block.records();
            progress.add(batch_records.len());
            records += batch_records.len() as u64;
            malformed += batch.malformed;
            if let Some(r) = batch_records.last() {
                last = Some((r.source, r.line));
            }
            Ok(())
        },
    );
    progress.finish();
    super::end_of_output(result, output.finish(), &output_name)?;
    if !args.input.silent() {
        let secs = start.elapsed().as_secs_f64();
        let mut line = format!(
            "canon: {records} record{}, {} canonical, {malformed} malformed, in {secs:.3} s \
             ({:.0} records/s, {threads} threads)",
            if records == 1 { "" } else { "s" },
            records - malformed,
            records as f64 / secs.max(1e-9),
        );
        let interrupted = signals.interruption(last.map(|(source, line)| {
            (
                names.get(source as usize).cloned().unwrap_or_default(),
                line,
            )
        }));
        if let Some(interruption) = interrupted {
            let _ = write!(line, "; {interruption}");
        }
        super::stderr_line(line);
    }
    Ok(signals.exit_code().unwrap_or(ExitCode::SUCCESS))
}

/// A batch's work on the pool: its records' forms (in parallel), then formatted.
fn canon_batch(
    batch: &mut Batch,
    format: &dyn Format<CanonAnswer>,
    names: &[String],
    records_read: &AtomicU64,
) {
    let records = batch.block.records();
    records_read.fetch_add(records.len() as u64, Ordering::Relaxed);
    pipeline::map_into(records, &mut batch.answers, |record| {
        record.puzzle.as_ref().ok().map(canon::canonical)
    });
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
