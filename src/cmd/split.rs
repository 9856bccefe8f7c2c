//! `split`: one dataset into a train and a test part by isomorphism class, so that no puzzle of
//! one part is the same puzzle (up to symmetry) as a puzzle of the other. Each record goes where
//! its class is drawn (from its minlex form's hash and the seed), computed on the pool; both parts
//! keep the input order and layout (a CSV header in each, the input's BOM and line ends, grids as
//! grids).

use std::fmt::Write as _;
use std::io;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use anyhow::Result;

use sudoku_batch::canon;
use sudoku_batch::input::{Block, Echo, InputError};
use sudoku_batch::output::{self, Format, Output};
use sudoku_batch::pipeline::{self, Config, PipelineError, Steps};

use super::files::OutputPlan;
use super::progress::Progress;
use super::signals::Signals;
use crate::cli::SplitArgs;

/// One batch: read on the reading thread; parsed, classed and formatted into its two parts on the
/// pool; written by the writing thread.
#[derive(Default)]
struct Batch {
    block: Block,
    /// Per record: in the test part (`None`: malformed, in neither).
    test: Vec<Option<bool>>,
    train_out: Vec<u8>,
    test_out: Vec<u8>,
    /// `FILE:LINE: reason` lines of its malformed records, for stderr.
    reasons: String,
}

/// Runs `split`; the exit code is 0, or 128 plus the number of a signal that stopped it.
pub fn run(args: &SplitArgs) -> Result<ExitCode> {
    let start = Instant::now();
    // everything that can be refused on the command line alone is, before any file is touched
    if !(args.test_fraction > 0.0 && args.test_fraction < 1.0) {
        anyhow::bail!(
            "--test-fraction must be above 0 and below 1 (both parts get classes), not {:?}",
            args.test_fraction
        );
    }
    if args.input.pipe {
        anyhow::bail!(
            "--pipe promises one output line per input line; split writes each record to one \
             of two files, so it does not take --pipe"
        );
    }
    if args.input.echo.is_some() {
        anyhow::bail!("split writes each record back whole: --echo does not apply");
    }
    let signals = Signals::install()?;
    let pool = super::thread_pool(&args.input)?;
    let threads = pool.current_num_threads();
    // the parts checked against the inputs and each other by file identity
    let mut plan = OutputPlan::new(&args.input.inputs)?;
    let train = plan.add(Some(args.train.as_path()), "train")?;
    let test = plan.add(Some(args.test.as_path()), "test")?;
    let names_of = [
        super::output_name(Some(&args.train)),
        super::output_name(Some(&args.test)),
    ];
    // a line is written back whole: read it with every field
    let mut reader = super::open_reader_echo(&args.input, signals.stop_flag(), Echo::Line)?;
    if let Some(code) = signals.stopped_before_begin(args.input.silent()) {
        return Ok(code);
    }
    // the inputs are open: now the outputs may be emptied
    let mut files = plan.begin()?;
    let (train, test) = (files.take_destination(train), files.take_destination(test));
    // files are read by the threads that parse them when there are several (see
    // `Reader::read_files_in_chunks`)
    reader.read_files_in_chunks(threads > 1);
    let options = super::output_options(&reader, &args.input, true);
    let format = output::rows_formatter(
        reader.header(),
        &options,
        reader.format(),
        reader.text_layout(),
    );
    // a regular file is written at offsets, so that a failed write (a full disk) leaves whole
    // records (see `Placed`); written on this thread, in order, all the same
    let mut outputs = [
        Output::to(train, format.as_ref()),
        Output::to(test, format.as_ref()),
    ];
    let config = Config {
        batch_size: args.input.batch_size.get(),
        ..Config::for_threads(threads)
    };
    let names = &options.names;
    let (seed, fraction) = (args.seed, args.test_fraction);
    let (mut progress, records_read) = Progress::for_reader(&args.input, &reader);
    let (mut counts, mut malformed) = ([0u64; 2], 0u64);
    // the input and line of the last record written, for an interrupted run's summary
    let mut last = None;
    // the part whose writing failed
    let mut failed = 0;
    // per part, the input and line of the last record of the batches it took
    let mut took = [None; 2];

    let result = pipeline::run_batches(
        |batch: &mut Batch| reader.read_block(&mut batch.block, config.batch_size),
        &pool,
        config.in_flight,
        Steps {
            ahead: |batch: &mut Batch| batch.block.parse_ahead(),
            prepare: |batch: &mut Batch| batch.block.parse(),
            work: |batch: &mut Batch| {
                split_batch(
                    batch,
                    format.as_ref(),
                    names,
                    (seed, fraction),
                    &records_read,
                );
            },
        },
        |batch: &Batch| -> io::Result<()> {
            let records = batch.block.records();
            let batch_last = records.last().map(|r| (r.source, r.line));
            for (part, bytes) in [&batch.train_out, &batch.test_out].into_iter().enumerate() {
                failed = part;
                outputs[part].write(bytes)?;
                took[part] = batch_last.or(took[part]);
            }
            progress.print(&batch.reasons);
            progress.add(records.len());
            for test in &batch.test {
                match test {
                    Some(t) => counts[usize::from(*t)] += 1,
                    None => malformed += 1,
                }
            }
            if let Some(r) = records.last() {
                last = Some((r.source, r.line));
            }
            Ok(())
        },
    );
    progress.finish();
    // both parts finished, also after a failure: a placed part is cut back to its whole
    // records, the other keeps what it took
    let finished = [0, 1].map(|part| outputs[part].finish());
    if result.is_ok() {
        failed = finished.iter().position(Result::is_err).unwrap_or(failed);
    }
    let name = |source: u32| names.get(source as usize).cloned().unwrap_or_default();
    // where the parts end: every record up to the last one written is in one of them
    let ends = last.map(|(source, line)| format!("{}:{line}", name(source)));
    // where each part ends: a part placed holds the records of the batches it took; one
    // written in order, what it took, if its reader took it
    let placed = [0, 1].map(|part| outputs[part].placed().is_some());
    let part_ends = [0, 1].map(|part| {
        took[part]
            .filter(|_| placed[part] || part != failed)
            .map(|(source, line)| format!("{}:{line}", name(source)))
    });
    end_of_parts(result, finished, &names_of, failed, &part_ends, placed)?;
    if !args.input.silent() {
        let mut line = format!(
            "split: {} train, {} test, {malformed} malformed (in neither part), in {:.3} s \
             on {threads} thread{}",
            counts[0],
            counts[1],
            start.elapsed().as_secs_f64(),
            if threads == 1 { "" } else { "s" },
        );
        if let Some(interruption) = signals.interruption(last.map(|(s, l)| (name(s), l))) {
            let _ = match &ends {
                Some(at) => write!(
                    line,
                    "; interrupted by {}: the parts hold every record up to {at}",
                    interruption.signal
                ),
                None => write!(line, "; {interruption}"),
            };
        }
        super::stderr_line(line);
        // a whole run that left a part empty (a fraction too small or too large for the
        // dataset's classes): said, as the fraction's bounds promise both parts classes
        let empty = ["train", "test"]
            .into_iter()
            .zip(counts)
            .find(|&(_, n)| n == 0)
            .map(|(part, _)| part);
        if let Some(part) = empty.filter(|_| counts[0] + counts[1] > 1 && ends.is_some()) {
            if signals.exit_code().is_none() {
                super::stderr_line(format_args!(
                    "sudoku-batch: warning: the {part} part is empty: no class of the {} records \
                     fell to it at --test-fraction {:?}",
                    counts[0] + counts[1],
                    args.test_fraction
                ));
            }
        }
    }
    Ok(signals.exit_code().unwrap_or(ExitCode::SUCCESS))
}

/// A batch's work on the pool: its records' classes drawn (in parallel), then each record
/// formatted into its part, the reasons of malformed ones written.
fn split_batch(
    batch: &mut Batch,
    format: &dyn Format<()>,
    names: &[String],
    (seed, fraction): (u64, f64),
    records_read: &AtomicU64,
) {
    let records = batch.block.records();
    records_read.fetch_add(records.len() as u64, Ordering::Relaxed);
    pipeline::map_into(records, &mut batch.test, |record| {
        let puzzle = record.puzzle.as_ref().ok()?;
        Some(canon::in_test_part(&canon::minlex(puzzle), seed, fraction))
    });
    batch.train_out.clear();
    batch.test_out.clear();
    batch.reasons.clear();
    for (record, test) in records.iter().zip(&batch.test) {
        let out = match (test, &record.puzzle) {
            (Some(true), _) => &mut batch.test_out,
            (Some(false), _) => &mut batch.train_out,
            (None, Err(reason)) => {
                let name = names.get(record.source as usize).map_or("", String::as_str);
                let _ = writeln!(batch.reasons, "{name}:{}: {reason}", record.line);
                continue;
            }
            (None, Ok(_)) => continue,
        };
        format.record(record, &(), false, out);
    }
}

/// How a run of `split` ends once its pipeline has (`result`) and its parts are flushed
/// (`finished`), as an error naming the part that failed (`failed`, an index into `names`) and
/// saying where each part ends (`ends`: the input and line of the last record it holds, where
/// that is known; `placed`: the parts cut back to whole records). A part on a closed pipe is
/// an error too, unlike `solve`'s output: the other part is then cut short, and must not pass
/// for a whole one.
fn end_of_parts(
    result: Result<(), PipelineError<InputError, io::Error>>,
    finished: [io::Result<()>; 2],
    names: &[String; 2],
    failed: usize,
    ends: &[Option<String>; 2],
    placed: [bool; 2],
) -> Result<()> {
    let [train, test] = finished;
    let err = match result {
        Err(PipelineError::Read(err)) => return Err(err.into()),
        Err(PipelineError::Write(err)) => err,
        Ok(()) => match train.and(test) {
            Ok(()) => return Ok(()),
            Err(err) => err,
        },
    };
    let (name, other) = (&names[failed], &names[1 - failed]);
    let holds = |part: usize| match &ends[part] {
        Some(at) => format!("it holds its records up to {at}"),
        None => "it holds no record".to_string(),
    };
    // a placed part was cut back to its whole records; one written in order may end torn
    let cut = format!(
        "{}; {other} stops with it: {}",
        match (&ends[failed], placed[failed]) {
            (Some(at), _) => format!("{name} holds its records up to {at}"),
            (None, true) => format!("{name} holds no record"),
            (None, false) => format!("{name} may end part way through a record"),
        },
        holds(1 - failed)
    );
    if err.kind() == io::ErrorKind::BrokenPipe {
        // said as a message, not as the I/O error: a broken pipe is not the quiet end it is
        // for `solve`'s output
        anyhow::bail!("writing {name}: its reader closed it before the end; {cut}");
    }
    Err(anyhow::Error::new(err).context(format!("writing {name} ({cut})")))
}
