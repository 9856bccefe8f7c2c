//! `split`: one dataset into a train and a test part by isomorphism class, so that no puzzle of
//! one part is the same puzzle (up to symmetry) as a puzzle of the other. Each record goes where
//! its class is drawn (from its minlex form's hash and the seed), computed on the pool; both parts
//! keep the input order and layout (a CSV header in each).

use std::fmt::Write as _;
use std::io;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;

use sudoku_batch::canon;
use sudoku_batch::input::{Block, Echo};
use sudoku_batch::output::{self, Output};
use sudoku_batch::pipeline::{self, Config, Steps};

use super::files::OutputPlan;
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
    reasons: String,
}

/// Runs `split`; the exit code is 0, or 128 plus the number of a signal that stopped it.
pub fn run(args: &SplitArgs) -> Result<ExitCode> {
    let start = Instant::now();
    if !(args.test_fraction > 0.0 && args.test_fraction < 1.0) {
        anyhow::bail!(
            "--test-fraction must be between 0 and 1, not {}",
            args.test_fraction
        );
    }
    let signals = Signals::install()?;
    let pool = super::thread_pool(&args.input)?;
    let threads = pool.current_num_threads();
    let mut plan = OutputPlan::new(&args.input.inputs)?;
    let train = plan.add(Some(args.train.as_path()), "train")?;
    let test = plan.add(Some(args.test.as_path()), "test")?;
    // a line is written back whole: read it with every field
    let mut reader = super::open_reader_echo(&args.input, signals.stop_flag(), Echo::Line)?;
    // the inputs are open: now the outputs may be emptied
    let mut files = plan.begin()?;
    let (train, test) = (files.take(train), files.take(test));
    // files are read by the threads that parse them when there are several (see
    // `Reader::read_files_in_chunks`)
    reader.read_files_in_chunks(threads > 1);
    let options = super::output_options(&reader, &args.input, true);
    let format = output::rows_formatter(reader.header(), &options);
    let mut train_output = Output::new(train, format.as_ref());
    let mut test_output = Output::new(test, format.as_ref());
    let config = Config {
        batch_size: args.input.batch_size.get(),
        ..Config::for_threads(threads)
    };
    let names = &options.names;
    let (seed, fraction) = (args.seed, args.test_fraction);
    let (mut counts, mut malformed) = ([0u64; 2], 0u64);

    let result = pipeline::run_batches(
        |batch: &mut Batch| reader.read_block(&mut batch.block, config.batch_size),
        &pool,
        config.in_flight,
        Steps {
            ahead: |batch: &mut Batch| batch.block.parse_ahead(),
            prepare: |batch: &mut Batch| batch.block.parse(),
            work: |batch: &mut Batch| {
                let records = batch.block.records();
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
            },
        },
        |batch: &Batch| -> io::Result<()> {
            train_output.write(&batch.train_out)?;
            test_output.write(&batch.test_out)?;
            if !args.input.silent() && !batch.reasons.is_empty() {
                super::stderr_line(batch.reasons.trim_end());
            }
            for test in &batch.test {
                match test {
                    Some(t) => counts[usize::from(*t)] += 1,
                    None => malformed += 1,
                }
            }
            Ok(())
        },
    );
    super::end_of_output(
        result,
        train_output.finish(),
        &args.train.display().to_string(),
    )?;
    test_output
        .finish()
        .map_err(|e| anyhow::anyhow!("writing {}: {e}", args.test.display()))?;
    if !args.input.silent() {
        super::stderr_line(format_args!(
            "split: {} train, {} test, {malformed} malformed (in neither part), in {:.3} s \
             on {threads} threads",
            counts[0],
            counts[1],
            start.elapsed().as_secs_f64()
        ));
    }
    Ok(signals.exit_code().unwrap_or(ExitCode::SUCCESS))
}
