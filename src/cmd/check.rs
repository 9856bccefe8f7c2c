//! `check`: every record of the inputs gets a verdict on the pool (uniqueness always searched, given
//! solutions compared), duplicates are told in input order before dispatch; problems are listed on
//! stderr (capped) with the counts, every finding goes to `--report`, every verdict to `-O`.
//!
//! Nothing goes to stdout without `-O` or `-o`: like a linter, the findings are the output, and a
//! summary that ends the run says how many there were. The exit status says whether there were
//! any (0 none, 1 some), so `check` can gate a dataset in CI.

use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::Instant;

use anyhow::{Context, Result};

use sudoku_batch::check::report::{self, Finding, ReportFormat};
use sudoku_batch::check::summary::CheckSummary;
use sudoku_batch::check::{self, Check, DuplicateMode, Duplicates, Options, Tally};
use sudoku_batch::input::{Block, InputError, Record};
use sudoku_batch::output::{self, CheckFormat, Output};
use sudoku_batch::pipeline::{self, Config, PipelineError, Steps};

use super::files::OutputPlan;
use super::progress::Progress;
use super::signals::Signals;
use super::{HeldCounts, NamedFormat, OutputEnd};
use crate::cli::CheckArgs;

/// One batch of `check`: its records' bytes read on the reading thread (and, for
/// `--duplicates`, parsed there and looked up in input order); parsed, checked and formatted on
/// the pool; written, counted and listed by the writing thread.
#[derive(Default)]
struct Batch {
    block: Block,
    /// With `--duplicates`: for each record whose puzzle repeats an earlier one, where that one
    /// was first seen.
    first_seen: Vec<Option<String>>,
    /// The checks of its first records: all of them, or after a signal those begun before it
    /// (the records after the first one left unchecked are not written or counted).
    checks: Vec<Check>,
    /// The per-record stream's bytes (with `-O`).
    out: Vec<u8>,
    /// The first batch of the run.
    first: bool,
    /// Where its stream's bytes go in a file written by the pool (`None`: written in order).
    at: Option<u64>,
}

/// Runs `check`; the exit code is 1 when any record has a problem, 128 plus the number of a
/// signal that stopped it.
pub fn run(args: &CheckArgs) -> Result<ExitCode> {
    let start = Instant::now();
    let signals = Signals::install()?;
    // everything that can fail on the command line alone fails before stdin is read
    let pool = super::thread_pool(&args.input)?;
    let threads = pool.current_num_threads();
    let stream = stream_format(args)?;
    // `--duplicates iso` takes `iso` for an input (the mode needs `=`): say so, not only that
    // there is no file `iso`
    if let Some(mode) = args.duplicates.and(args.input.inputs.first()) {
        let word = mode.to_string_lossy();
        if (word == "iso" || word == "exact") && !mode.exists() {
            anyhow::bail!(
                "{word}: no such input; for that mode of --duplicates, write --duplicates={word}"
            );
        }
    }
    let mut plan = OutputPlan::new(&args.input.inputs)?;
    let out = match stream {
        Some(_) => Some(plan.add(args.output.as_deref(), "output")?),
        None => None,
    };
    let output_name = super::output_name(args.output.as_deref());
    let report_file = match &args.report {
        // the file first: naming an input is the worse mistake
        Some(path) => Some((
            path,
            plan.add(Some(path), "report")?,
            report_format(path, args)?,
        )),
        None => None,
    };
    let stats_file = args
        .stats
        .as_deref()
        .map(|path| plan.add(Some(path), "stats"))
        .transpose()?;
    // ratings are slow: a reader of the output that goes away is noticed at once, not at the
    // next write (which came after every rating in flight, or never on an idle input)
    let mut watch = match (&out, args.rate) {
        (Some(slot), true) => plan.watch_reader(slot, signals.stop_flag()),
        _ => None,
    };
    let mut reader = super::open_reader(&args.input, signals.stop_flag())?;
    // a solution column the input does not have fails before the outputs are touched (it
    // emptied them)
    super::read_solutions(&mut reader, args.solution_column.as_ref())?;
    if let Some(code) = signals.stopped_before_begin(args.input.silent()) {
        return Ok(code);
    }
    if super::reader_gone_before_begin(watch.as_ref(), &reader, args.input.silent()) {
        return Ok(ExitCode::SUCCESS);
    }
    // the inputs are open: now the outputs may be emptied
    let mut files = plan.begin()?;
    let out = out.map(|slot| files.take_destination(slot));
    let stats_file = stats_file.map(|slot| files.take_whole(slot));
    let report_file = report_file.map(|(path, slot, format)| match path.as_os_str() == "-" {
        true => (path, (format, files.take(slot))),
        false => (path, (format, files.take_parts(slot))),
    });
    let output_options = super::output_options(&reader, &args.input, false);
    let names = output_options.names.clone();
    let rated = args.rate.then_some(args.max_er);
    let format =
        stream.map(|f| output::check_formatter(f, reader.header(), &output_options, rated));
    let mut output = match (&format, out) {
        (Some(format), Some(out)) => Some(Output::to(out, format.as_ref())),
        _ => None,
    };
    let report = report_file.map(|(path, (format, writer))| (path, report::report(format, writer)));
    // rating takes milliseconds a puzzle: batches as small as `rate`'s, so a signal, which
    // lets the batches in flight finish, is answered soon
    let batch_size = match args.rate {
        true => args.input.batch_size.min(super::rate::BATCH_CAP),
        false => args.input.batch_size,
    };
    let config = Config {
        batch_size: batch_size.get(),
        ..Config::for_threads(threads)
    };
    let (mut progress, records_read) = Progress::for_reader(&args.input, &reader);
    let options = Options {
        minimal: args.minimal,
        rate: args.rate,
        max_er: args.max_er,
    };
    let mut duplicates = args
        .duplicates
        .map(|mode| Duplicates::with_mode(names.clone(), mode.into()));
    // files are read by the threads that parse them when there are several (see
    // `Reader::read_files_in_chunks`); not when looking for duplicates, which parses every
    // block on the reading thread
    reader.read_files_in_chunks(threads > 1 && duplicates.is_none());
    if args.rate {
        reader.read_blocks_of_at_most();
    }
    let pool_ref = &pool;
    let mut found = Found {
        tally: Tally::default(),
        listing: Listing::new(args.max_problems),
        report,
        report_failed: false,
        report_only: output.is_none(),
    };
    // a batch's counts and findings once the file holds it (see `HeldCounts`)
    let mut held = HeldCounts::default();
    let mut ready = Vec::new();
    // problems in a batch the reader went away from while it was written (not counted)
    let mut problems_uncounted = false;
    // the input and line of the last record checked, for an interrupted run's summary
    let mut last = None;
    // where the per-record stream ends
    let mut ends = OutputEnd::default();
    let placed = output.as_ref().and_then(Output::placed);
    // the stream's write errors are named after the run (see the end of the pipeline)
    let place = |batch: &Batch| -> Result<()> {
        Ok(super::place_batch(placed.as_deref(), batch.at, &batch.out)?)
    };
    let mut batches = 0u64;
    // With `--rate`, once a signal comes, a record not yet begun is left unchecked, and only the
    // records before the first one so left are written and counted: Ctrl-C then takes effect
    // within a rating's time, not after every batch in flight (on the hardest puzzles, most of
    // a minute). Not with `--duplicates`, whose table has seen every record read by then, nor
    // without `--rate`, where the batches in flight take milliseconds.
    let stop = signals.stop_flag();
    let may_cut = args.rate && args.duplicates.is_none();
    // a batch cut short by a signal was written: the batches after it are not
    let mut cut = false;

    let result = pipeline::run_batches_placed(
        |batch: &mut Batch| {
            batch.first = batches == 0;
            batches += 1;
            if !reader.read_block(&mut batch.block, config.batch_size)? {
                return Ok(false);
            }
            batch.first_seen.clear();
            if let Some(duplicates) = duplicates.as_mut() {
                batch.block.parse();
                let records = batch.block.records();
                match duplicates.mode() {
                    // a digest a record: cheaper here than a wait for the pool
                    DuplicateMode::Exact => {
                        duplicates.first_seen_all(records, &mut batch.first_seen)
                    }
                    // invariants, and the forms some records need, computed on the pool
                    DuplicateMode::Isomorphic => pool_ref
                        .install(|| duplicates.first_seen_all(records, &mut batch.first_seen)),
                }
            }
            Ok::<bool, InputError>(true)
        },
        &pool,
        config.in_flight,
        Steps {
            ahead: |batch: &mut Batch| batch.block.parse_ahead(),
            prepare: |batch: &mut Batch| batch.block.parse(),
            work: |batch: &mut Batch| {
                let records = batch.block.records();
                records_read.fetch_add(records.len() as u64, Ordering::Relaxed);
                let first_seen = &batch.first_seen;
                let check = |i: usize| {
                    let first = first_seen.get(i).and_then(Option::as_deref);
                    check::check_record(&records[i], first, &options)
                };
                if may_cut {
                    pipeline::map_indexed_prefix_into(
                        records.len(),
                        &mut batch.checks,
                        &stop,
                        check,
                    );
                } else {
                    pipeline::map_indexed_into(records.len(), &mut batch.checks, check);
                }
                batch.out.clear();
                if let Some(format) = &format {
                    for (i, (record, check)) in records.iter().zip(&batch.checks).enumerate() {
                        format.record(record, check, batch.first && i == 0, &mut batch.out);
                    }
                }
            },
        },
        |batch: &mut Batch| -> Result<()> {
            if cut {
                // nothing of it is written (its place, if any, is empty)
                batch.out.clear();
                if let Some(output) = output.as_mut() {
                    batch.at = output.place(&batch.out)?;
                }
                return Ok(());
            }
            let all = batch.block.records();
            let records = &all[..batch.checks.len().min(all.len())];
            cut = records.len() < all.len();
            let counts = Counts::of(records, &batch.checks);
            let gone_before = watch.as_ref().is_some_and(|w| w.gone());
            if let Some(output) = output.as_mut() {
                batch.at = match output.place(&batch.out) {
                    Ok(at) => at,
                    // the reader went away while the batch was written in order: the counts,
                    // report and stats end with the batches before it, where the summary says
                    // the output ends (they counted it: a run resumed after that line counted
                    // it twice); but the reader may have read any of it, so a problem in it
                    // still earns exit 1
                    Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => {
                        // a reader known gone before the batch was written read none of it:
                        // its problems earn nothing, and are not listed
                        if !gone_before {
                            problems_uncounted |= counts.tally.problems() > 0;
                            // listed on stderr, so that the exit 1 has its reason
                            found.list_uncounted(&counts, &names);
                        }
                        return Err(err.into());
                    }
                    Err(err) => return Err(err.into()),
                };
            }
            ends.add(batch.at, batch.out.len(), records.last());
            held.add((batch.at, batch.out.len()), counts, &mut |c| ready.push(c));
            held.settle(placed.as_deref(), &mut |c| ready.push(c));
            // every batch the file holds is counted, also past a report that fails on one of
            // them (the rest of `ready` would be dropped with the drain): the counts end where
            // the output does
            let mut failed = None;
            for counts in ready.drain(..) {
                if let Err(err) = found.take(counts, &names) {
                    failed.get_or_insert(err);
                }
            }
            if let Some(err) = failed {
                return Err(err);
            }
            // the batch's findings are listed as they are found, not at the end of the run
            let listed = found.listing.take();
            if !args.input.pipe {
                progress.print(&listed);
            }
            progress.add(records.len());
            if let Some(r) = records.last() {
                last = Some((r.source, r.line));
            }
            Ok(())
        },
        placed.is_some().then_some(&place),
    );
    progress.finish();
    // an input error or a failed write stops the run; what was read before it is reported,
    // the stats and report say where the run stopped, then the error is told
    // a write failed: batches read (and seen by `--duplicates`' table) were not counted
    let output_cut = matches!(result, Err(PipelineError::Write(_)));
    let mut failure = match result {
        Ok(()) => None,
        Err(PipelineError::Read(err)) => Some(super::Failure::read(err)),
        Err(PipelineError::Write(err)) => {
            // a placed stream is cut back to its whole records (also when the report failed,
            // which stops the run): say where they end
            if let Some(output) = output.as_mut() {
                let _ = output.finish();
            }
            let whole = ends.last(placed.as_deref()).filter(|_| placed.is_some());
            let at = |last| format!("ends with {}", super::record_at(&names)(last));
            Some(match found.report_failed {
                // the report's error first, then where the record output ends
                true => super::Failure::side(match whole {
                    Some(whole) => anyhow::anyhow!("{err:#}; {output_name} {}", at(whole)),
                    None => err,
                }),
                false => {
                    // resumed after the last record the stream holds, a run misses nothing
                    last = whole.or(last.filter(|_| placed.is_none()));
                    super::Failure::output(err.context(match whole {
                        Some(whole) => format!("writing {output_name} (the output {})", at(whole)),
                        None => format!("writing {output_name}"),
                    }))
                }
            })
        }
    };
    if let Some(output) = output.as_mut().filter(|_| failure.is_none()) {
        if let Err(err) = output.finish() {
            failure = Some(super::Failure::output(
                anyhow::Error::new(err).context(format!("writing {output_name}")),
            ));
        }
    }
    let left = super::left_by_reader(watch.take(), reader.stopped_short() || cut, &output_name);
    failure = failure.or(left);
    // the batches the file holds now that it is finished (cut back after a failure), counted
    // and listed; those cut away with it are not
    held.settle(placed.as_deref(), &mut |c| ready.push(c));
    for counts in ready.drain(..) {
        if let Err(err) = found.take(counts, &names) {
            failure.get_or_insert(super::Failure::side(err));
        }
    }
    if !args.input.pipe {
        progress.print(&found.listing.take());
    }
    let Found {
        mut tally,
        listing,
        mut report,
        report_failed,
        ..
    } = found;
    // the table of puzzles seen counts every record read; after a failed output some of them
    // were cut away with the file: no counts of distinct puzzles then
    if let Some(duplicates) = duplicates.as_ref().filter(|_| !output_cut) {
        tally.set_duplicates(duplicates);
    }
    let mut totals = tally.totals(&options);
    totals.duplicates = args
        .duplicates
        .map(|mode| DuplicateMode::from(mode).word().to_string());
    totals.interrupted = super::ended_early(&signals, failure.as_ref(), last, &names);
    super::tell_pipe_signal("check", &args.input, &signals, totals.interrupted.as_ref());
    // a report that failed is not finished; one that fails now is told after the stats
    let reported = match report.as_mut().filter(|_| !report_failed) {
        Some((path, report)) => report
            .finish(&totals)
            .with_context(|| format!("writing {}", super::output_name(Some(path)))),
        None => Ok(()),
    };
    // a report that failed as it was finished: the stats say the run failed, as for any output
    // that fails (they said nothing, beside exit 2)
    if let (Err(err), None) = (&reported, &totals.interrupted) {
        let failure = super::Failure::side(anyhow::anyhow!("{err:#}"));
        totals.interrupted = super::ended_early(&signals, Some(&failure), last, &names);
    }
    if !args.input.pipe {
        // "the report lists them all" only of a report written whole
        listing.finish(args.report.is_some() && !report_failed && reported.is_ok());
    }
    let problems = totals.problems;
    let summary = CheckSummary {
        runs: Some(vec![sudoku_batch::stats::run_id()]),
        ..CheckSummary::new(totals, threads, start.elapsed().as_secs_f64())
    };
    if !args.input.silent() {
        super::stderr_line(&summary);
        if problems_uncounted {
            // the exit 1 then comes from those, which the summary's counts leave out
            super::stderr_line(
                "problems in the batch being written when the reader went away (listed above) \
                 are not counted here, but earn exit 1",
            );
        }
    }
    if let (Some(file), Some(path)) = (stats_file, &args.stats) {
        super::write_stats(file, path, &summary)?;
    }
    reported?;
    // pipe mode: the records say what is wrong; the run itself went well
    let earned = signals.exit_code().unwrap_or(
        if (problems > 0 || problems_uncounted) && !args.input.pipe {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        },
    );
    super::conclude(failure, earned)
}

/// The format of the per-record stream: `-O`, else the extension of `-o` (`.jsonl`, `.csv`), else
/// JSON Lines in pipe mode, else none; `-o` with neither is an error.
fn stream_format(args: &CheckArgs) -> Result<Option<CheckFormat>> {
    if let Some(format) = args.output_format {
        return Ok(Some(format.into()));
    }
    let Some(path) = args.output.as_deref() else {
        // pipe mode promises a line out for every line in: the verdicts as JSON Lines
        return Ok(args.input.pipe.then_some(CheckFormat::Jsonl));
    };
    match super::named_format(Some(path)) {
        Some(NamedFormat::Jsonl) => Ok(Some(CheckFormat::Jsonl)),
        Some(NamedFormat::Csv) => Ok(Some(CheckFormat::Csv)),
        None => anyhow::bail!(
            "{}: cannot tell the output format from the file name; use -O jsonl or -O csv",
            path.display()
        ),
    }
}

/// The report's format: `--report-format`, else the file's extension.
fn report_format(path: &Path, args: &CheckArgs) -> Result<ReportFormat> {
    match args.report_format {
        Some(format) => Ok(format.into()),
        None => ReportFormat::from_path(path).with_context(|| {
            format!(
                "{}: cannot tell the report format from the file name; name it .json, .csv, \
                 .md or .svg, or use --report-format",
                path.display()
            )
        }),
    }
}

/// What a batch adds to the run: its counts, and its findings (in input order) to list and
/// report.
struct Counts {
    tally: Tally,
    findings: Vec<OwnedFinding>,
}

/// A [`Finding`] that outlives its batch.
struct OwnedFinding {
    source: u32,
    line: u64,
    verdict: check::Verdict,
    detail: String,
    puzzle: String,
}

impl OwnedFinding {
    /// The finding, its input named by `names`.
    fn finding<'a>(&'a self, names: &'a [String]) -> Finding<'a> {
        Finding {
            file: names
                .get(self.source as usize)
                .map_or("<unknown input>", String::as_str),
            line: self.line,
            verdict: self.verdict,
            detail: &self.detail,
            puzzle: &self.puzzle,
        }
    }
}

impl Counts {
    /// The counts and findings of `records`, checked as `checks` say.
    fn of(records: &[Record], checks: &[Check]) -> Counts {
        let mut tally = Tally::default();
        let mut findings = Vec::new();
        for (record, check) in records.iter().zip(checks) {
            tally.add(record, check);
            if check.is_finding() {
                findings.push(OwnedFinding {
                    source: record.source,
                    line: record.line,
                    verdict: check.verdict,
                    detail: check.detail.clone().unwrap_or_default(),
                    puzzle: record.cells.clone(),
                });
            }
        }
        Counts { tally, findings }
    }
}

/// What the run found so far, in the file's order: counts, the listing on stderr, the report.
struct Found<'a> {
    tally: Tally,
    listing: Listing,
    /// `--report`: its path and its writer.
    report: Option<(&'a std::path::PathBuf, Box<dyn report::Report + Send + 'a>)>,
    /// A write of the report failed (the run stops; the report is not finished).
    report_failed: bool,
    /// The report is the run's only output (no per-record stream): the counts follow it.
    report_only: bool,
}

impl Found<'_> {
    /// Counts a batch the output holds, lists its findings and writes them to the report.
    ///
    /// When the report is the run's only output and has failed (on this batch or before), the
    /// batch is neither counted nor listed: the report is cut back to the batches before the
    /// one it failed on, and the counts and the stats' `line` end where it does (a run resumed
    /// after that line counts it once).
    fn take(&mut self, counts: Counts, names: &[String]) -> Result<()> {
        let reported = self.report(&counts, names);
        if self.report_only && self.report_failed {
            return reported;
        }
        self.tally.merge(&counts.tally);
        self.list(&counts, names);
        reported
    }

    /// Lists the findings of a batch the output does not hold whole (its reader went away
    /// while it was written), neither counted nor reported: those under the cap only, so that
    /// the number said not shown is of the findings counted (and reported).
    fn list_uncounted(&mut self, counts: &Counts, names: &[String]) {
        for f in &counts.findings {
            self.listing.add_uncounted(&f.finding(names));
        }
    }

    /// Lists the findings of `counts` on stderr.
    fn list(&mut self, counts: &Counts, names: &[String]) {
        for f in &counts.findings {
            self.listing.add(&f.finding(names));
        }
    }

    /// Writes the findings of `counts` to the report, whole: a report whose write fails later
    /// is cut back to the end of this batch, never left ending in part of a row. After a
    /// failed write the report is not written to again.
    fn report(&mut self, counts: &Counts, names: &[String]) -> Result<()> {
        let Some((path, report)) = self.report.as_mut().filter(|_| !self.report_failed) else {
            return Ok(());
        };
        let written = counts
            .findings
            .iter()
            .try_for_each(|f| report.finding(&f.finding(names)))
            .and_then(|()| report.flush());
        if let Err(err) = written {
            self.report_failed = true;
            return Err(anyhow::Error::new(err)
                .context(format!("writing {}", super::output_name(Some(path)))));
        }
        Ok(())
    }
}

/// The findings listed on stderr as they are found: the first `max`, then how many more there
/// were.
struct Listing {
    max: usize,
    shown: usize,
    hidden: u64,
    /// Lines not yet printed.
    pending: String,
}

impl Listing {
    fn new(max: usize) -> Listing {
        Listing {
            max,
            shown: 0,
            hidden: 0,
            pending: String::new(),
        }
    }

    /// Lists `f` (when under the cap, else counts it).
    fn add(&mut self, f: &Finding<'_>) {
        if !self.show(f) {
            self.hidden += 1;
        }
    }

    /// Lists `f`, a finding not counted, when under the cap (else it is not counted either).
    fn add_uncounted(&mut self, f: &Finding<'_>) {
        self.show(f);
    }

    /// Lists `f` when under the cap; says whether it did.
    fn show(&mut self, f: &Finding<'_>) -> bool {
        if self.shown >= self.max {
            return false;
        }
        self.shown += 1;
        let _ = writeln!(
            self.pending,
            "{}:{}: {}: {}",
            f.file, f.line, f.verdict, f.detail
        );
        true
    }

    /// The lines listed since the last call, to print.
    fn take(&mut self) -> String {
        std::mem::take(&mut self.pending)
    }

    /// Prints how many findings were not listed; `reported` says whether a report holds them all.
    fn finish(&self, reported: bool) {
        if self.hidden > 0 {
            let all = if reported {
                "the report lists them all"
            } else {
                "raise --max-problems, or --report FILE lists them all"
            };
            super::stderr_line(format_args!(
                "... and {} more not shown ({all})",
                self.hidden
            ));
        }
    }
}
