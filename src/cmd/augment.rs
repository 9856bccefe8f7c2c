//! `augment`: each record's puzzle (and given solution) under seeded random symmetries, the copies
//! written in input order, then a one-line summary on stderr.
//!
//! The copies stream in bounded memory, whatever `-n` is: a step of the pipeline writes at most
//! `--batch-size` copies (2,048 by default) and about [`STEP_BYTES`] of output. With a few copies
//! a record ([`DEALT_ABOVE`]), a step is a block of records, read and parsed as `solve` reads
//! them (parsing on the pool). With more, the reading thread parses each block and deals its
//! records' copies out into steps, a record's copies over several steps when they are many; each
//! step draws its copies' transforms from where the record's earlier steps left off
//! ([`transform::record_copies`]), so the output is the same for any `-j`, batch size or way of
//! cutting.

use std::fmt::Write as _;
use std::io;
use std::ops::Range;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use anyhow::Result;

use sudoku_batch::check::flaw;
use sudoku_batch::grid::Grid;
use sudoku_batch::input::{Block, InputError, InputFormat, Reader, Record, SOLUTION_COLUMNS};
use sudoku_batch::output::{self, AugmentColumns, Augmented, Format, Output};
use sudoku_batch::pipeline::{self, Config, Steps};
use sudoku_batch::transform::{self, Transform};

use super::files::OutputPlan;
use super::progress::Progress;
use super::signals::Signals;
use crate::cli::AugmentArgs;

/// Output bytes a step of many copies a record is cut at (about: copies are counted by an
/// estimate of their size, [`copy_bytes`]): with `2 x threads + 2` steps in flight, a few MiB.
const STEP_BYTES: usize = 1 << 20;

/// Output records a record may have and still go whole into a block parsed on the pool: a
/// record of the longest line (`--max-record`, 64 KiB) then fills a step with about 1 MiB.
/// Above, the reading thread deals records' copies out. Below, parsing on the pool matters: at
/// `-n 4`, dealing took 15% more CPU and time on 1M Kaggle rows than blocks.
const DEALT_ABOVE: u64 = 16;

/// Runs `augment`; the exit code is 0, or 128 plus the number of a signal that stopped it.
pub fn run(args: &AugmentArgs) -> Result<ExitCode> {
    let start = Instant::now();
    let (copies, keep) = (args.copies, args.keep_original);
    // everything that can be refused on the command line alone is, before any file is touched
    if args.input.pipe && (copies != 1 || keep) {
        anyhow::bail!(
            "--pipe promises one output line per input line: augment --pipe makes one copy of \
             each record (-n 1, without --keep-original)"
        );
    }
    super::refuse_grid_in_pipe(&args.input, &args.out)?;
    let signals = Signals::install()?;
    let pool = super::thread_pool(&args.input)?;
    let threads = pool.current_num_threads();
    let mut plan = OutputPlan::new(&args.input.inputs)?;
    let out = plan.add(args.out.output.as_deref(), "output")?;
    let output_name = super::output_name(args.out.output.as_deref());
    let mut reader = super::open_reader(&args.input, signals.stop_flag())?;
    let per_record = copies.saturating_add(u64::from(keep));
    // with many copies a record the reading thread parses (to deal the copies out), so files
    // are read in chunks only for a few (see `Reader::read_files_in_chunks`)
    let dealt = per_record > DEALT_ABOVE;
    reader.read_files_in_chunks(threads > 1 && !dealt);
    // a solutions column left unread would be copied as it is beside each moved puzzle, a
    // wrong solution every copy
    if super::solutions_unread(args.solution_column.as_ref()) {
        anyhow::bail!(
            "--solution-column none: augment moves a dataset's solutions with its puzzles; a \
             column of them left unread would be copied unmoved (name the column, or leave it \
             out of the input)"
        );
    }
    super::read_solutions(&mut reader, args.solution_column.as_ref())?;
    // `-c solutions` on a `quizzes,solutions` file: the column named as the solutions is moved
    // as the puzzles, so none is moved as their solutions, and the puzzles' own column is
    // written back unmoved beside them (`ok`, exit 0, every row inconsistent): said
    if let Some(warning) = puzzles_in_solution_column(&reader, args) {
        if !args.input.silent() {
            super::stderr_line(warning);
        }
    }
    if let Some(code) = signals.stopped_before_begin(args.input.silent()) {
        return Ok(code);
    }
    // the inputs are open: now the output may be emptied
    let out = plan.begin()?.take_destination(out);
    let options = super::output_options(&reader, &args.input, true);
    let resolved = super::record_format(&args.out).resolve(reader.format());
    let columns = AugmentColumns {
        puzzle: reader.puzzle_column().map(|c| c - 1),
        solution: reader.solution_column().map(|c| c - 1),
        line_solutions: reader.format() == InputFormat::Line,
    };
    let format = output::augment_formatter(resolved, reader.header(), &options, columns);
    // a regular file is written at offsets, so that a failed write (a full disk) leaves whole
    // copies (see `Placed`); written on this thread, in order, all the same
    let mut output = Output::to(out, format.as_ref());
    let config = Config::for_threads(threads);
    // a step's copies, at most; a block holds about this many copies' worth of records
    let step_copies = args.input.batch_size.get();
    let block_records = usize::try_from(step_copies as u64 / per_record)
        .unwrap_or(1)
        .max(1);
    let names = &options.names;
    let (mut progress, records_read) = Progress::for_reader(&args.input, &reader);
    let plan = Plan {
        format: format.as_ref(),
        names,
        seed: args.seed,
        copies,
        keep,
    };
    let mut dealer = Dealer {
        held: Block::default(),
        next: 0,
        copy: 0,
        original_owed: keep,
        started: false,
        stop: signals.stop_flag(),
        records_read: Arc::clone(&records_read),
    };
    let mut total = Tally::default();
    // where the output ends: the last record written whole, and a record whose copies the last
    // step written did not finish (its last copy written)
    let mut last = None;
    let mut cut = None;
    let mut steps = 0u64;

    let result = pipeline::run_batches(
        |step: &mut Step| {
            step.first = steps == 0;
            steps += 1;
            if dealt {
                dealer.deal(step, &mut reader, &plan, block_records, step_copies as u64)
            } else {
                step.shares_len = 0;
                reader.read_block(&mut step.block, block_records)
            }
        },
        &pool,
        config.in_flight,
        Steps {
            ahead: |step: &mut Step| step.block.parse_ahead(),
            prepare: |step: &mut Step| step.block.parse(),
            work: |step: &mut Step| {
                if !dealt {
                    let read = step.block.records().len() as u64;
                    records_read.fetch_add(read, Ordering::Relaxed);
                }
                step.write(&plan);
            },
        },
        |step: &Step| -> io::Result<()> {
            output.write(&step.out)?;
            if !args.input.pipe {
                progress.print(&step.reasons);
            }
            let tally = &step.tally;
            progress.add(tally.records as usize);
            total.add(tally);
            last = tally.last.or(last);
            cut = tally.cut;
            Ok(())
        },
    );
    progress.finish();
    let name = |source: u32| names.get(source as usize).cloned().unwrap_or_default();
    let finished = output.finish();
    let placed = output.placed().is_some();
    let failure = super::end_of_output(result, finished, &output_name, None)
        .err()
        .map(|err| {
            // a placed file was cut back to the copies of the steps written whole
            super::Failure::output(match (placed, cut, last) {
                (false, ..) => err,
                (true, Some((source, at, copy)), _) => err.context(format!(
                    "the output ends with copy {copy} of the record at {}:{at}",
                    name(source)
                )),
                (true, None, Some((source, line))) => err.context(format!(
                    "the output ends with the record at {}:{line}",
                    name(source)
                )),
                (true, None, None) => err.context("no record was written"),
            })
        });
    // a closed pipe ends the run with its summary; any other failure at once
    if failure.as_ref().is_some_and(|f| !f.reader_left()) {
        return super::conclude(failure, ExitCode::SUCCESS);
    }
    if !args.input.silent() {
        let secs = start.elapsed().as_secs_f64();
        let Tally {
            records,
            malformed,
            bad_solutions,
            copies,
            ..
        } = total;
        let mut line = format!(
            "augment: {records} record{}, {copies} cop{}, {malformed} malformed, \
             {bad_solutions} with a solution that is none, in {secs:.3} s \
             ({:.0} copies/s, {threads} thread{})",
            if records == 1 { "" } else { "s" },
            if copies == 1 { "y" } else { "ies" },
            copies as f64 / secs.max(1e-9),
            if threads == 1 { "" } else { "s" },
        );
        let at = last.map(|(source, line)| (name(source), line));
        // a signal, or the reader of the output going away (the one failure that gets here)
        let stopped = signals.interruption(at.clone()).or_else(|| {
            failure
                .as_ref()
                .map(|_| sudoku_batch::stats::Interruption::closed(at))
        });
        if let Some(interruption) = stopped {
            match cut {
                Some((source, at, copy)) => {
                    let _ = write!(
                        line,
                        "; interrupted by {}: the output ends with copy {copy} of the record \
                         at {}:{at}",
                        interruption.signal,
                        name(source)
                    );
                }
                None => {
                    let _ = write!(line, "; {interruption}");
                }
            }
        }
        super::stderr_line(line);
    }
    let at = last.map(|(source, line)| (name(source), line));
    super::tell_pipe_signal(
        "augment",
        &args.input,
        &signals,
        signals.interruption(at).as_ref(),
    );
    super::conclude(failure, signals.exit_code().unwrap_or(ExitCode::SUCCESS))
}

/// What every step needs to write its copies.
struct Plan<'a> {
    format: &'a dyn Format<Augmented>,
    names: &'a [String],
    seed: u64,
    /// Random copies of each record.
    copies: u64,
    /// The record as it is first, as copy 0.
    keep: bool,
}

/// Counts of the records a step finished, and where its output ends.
#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    /// Records whose output is complete.
    records: u64,
    malformed: u64,
    /// Records whose given solution is not a grid or does not solve the puzzle.
    bad_solutions: u64,
    /// Copies written.
    copies: u64,
    /// Input and line of the last record whose output is complete.
    last: Option<(u32, u64)>,
    /// Input, line and last copy written of a record whose copies go on in the next step.
    cut: Option<(u32, u64, u64)>,
}

impl Tally {
    /// Adds the counts of `other` (not where it ends).
    fn add(&mut self, other: &Tally) {
        self.records += other.records;
        self.malformed += other.malformed;
        self.bad_solutions += other.bad_solutions;
        self.copies += other.copies;
    }
}

/// A record's share of a step, when copies are dealt: which of its outputs the step writes.
struct Share {
    record: Record,
    /// Its given solution, as [`given_solution`] reads it.
    given: Result<Option<Grid>, String>,
    /// The record as it is, as copy 0.
    original: bool,
    /// Its random copies (numbered from 0; written as copy 1, 2, ...).
    copies: Range<u64>,
    /// The share holds the record's first output (its malformed reason is reported with it).
    first: bool,
    /// The share holds the record's last output.
    last: bool,
}

impl Default for Share {
    fn default() -> Share {
        Share {
            record: Record::empty(),
            given: Ok(None),
            original: false,
            copies: 0..0,
            first: false,
            last: false,
        }
    }
}

/// One step of the pipeline: read on the reading thread, its copies made and formatted on the
/// pool, written by the writing thread.
#[derive(Default)]
struct Step {
    /// One copy a record: the records read, parsed on the pool, each given all its output.
    block: Block,
    /// Several copies a record: the shares dealt to this step (`shares[..shares_len]`; the
    /// others are kept for their buffers).
    shares: Vec<Share>,
    shares_len: usize,
    out: Vec<u8>,
    /// `FILE:LINE: reason` lines of its records without copies, for stderr.
    reasons: String,
    tally: Tally,
    /// The first step of the run (its first output record is the output's first).
    first: bool,
}

impl Step {
    /// Makes and formats the step's outputs (on the pool).
    fn write(&mut self, plan: &Plan<'_>) {
        let Step {
            block,
            shares,
            shares_len,
            out,
            reasons,
            tally,
            first,
        } = self;
        out.clear();
        reasons.clear();
        *tally = Tally::default();
        let mut writer = Writer {
            plan,
            out,
            reasons,
            tally,
            first: *first,
        };
        if *shares_len > 0 {
            for share in &shares[..*shares_len] {
                writer.share(
                    &share.record,
                    &share.given,
                    share.original,
                    share.copies.clone(),
                    (share.first, share.last),
                );
            }
        } else {
            for record in block.records() {
                let given = given_solution(record);
                writer.share(record, &given, plan.keep, 0..plan.copies, (true, true));
            }
        }
    }
}

/// Writes shares of records into a step's buffers.
struct Writer<'s, 'p> {
    plan: &'s Plan<'p>,
    out: &'s mut Vec<u8>,
    reasons: &'s mut String,
    tally: &'s mut Tally,
    /// The next output record is the output's first.
    first: bool,
}

impl Writer<'_, '_> {
    fn emit(&mut self, record: &Record, answer: &Augmented) {
        self.plan
            .format
            .record(record, answer, self.first, self.out);
        self.first = false;
    }

    /// A problem record, reported and written once (with its first share).
    fn problem(&mut self, record: &Record, answer: &Augmented, reason: &str) {
        let name = self.plan.names.get(record.source as usize);
        let name = name.map_or("", String::as_str);
        let _ = writeln!(self.reasons, "{name}:{}: {reason}", record.line);
        self.emit(record, answer);
    }

    /// Writes `record`'s share: the record as it is (`original`), then its random copies
    /// `copies`; a record without copies is written (and counted) with its first share only.
    /// `given` is its given solution ([`given_solution`]).
    fn share(
        &mut self,
        record: &Record,
        given: &Result<Option<Grid>, String>,
        original: bool,
        copies: Range<u64>,
        (first, last): (bool, bool),
    ) {
        match (&record.puzzle, given) {
            (Err(reason), _) => {
                if first {
                    self.tally.malformed += 1;
                    self.problem(record, &Augmented::Malformed, reason);
                }
            }
            (Ok(_), Err(reason)) => {
                if first {
                    self.tally.bad_solutions += 1;
                    self.problem(record, &Augmented::BadSolution(reason.clone()), reason);
                }
            }
            (Ok(puzzle), Ok(solution)) => {
                if original {
                    let copy = Augmented::Copy {
                        number: 0,
                        puzzle: *puzzle,
                        solution: *solution,
                        transform: Transform::IDENTITY,
                    };
                    self.emit(record, &copy);
                    self.tally.copies += 1;
                }
                let seed = self.plan.seed;
                let transforms =
                    transform::record_copies(seed, record.source, record.line, copies.clone());
                for (index, transform) in copies.clone().zip(transforms) {
                    let copy = Augmented::Copy {
                        number: index + 1,
                        puzzle: transform.apply(puzzle),
                        solution: solution.as_ref().map(|s| transform.apply(s)),
                        transform,
                    };
                    self.emit(record, &copy);
                    self.tally.copies += 1;
                }
            }
        }
        let at = (record.source, record.line);
        if last {
            self.tally.records += 1;
            self.tally.last = Some(at);
            self.tally.cut = None;
        } else {
            let copy = if copies.is_empty() { 0 } else { copies.end };
            self.tally.cut = Some((at.0, at.1, copy));
        }
    }
}

/// The record's given solution: none, a grid that solves its puzzle, or why it is not one
/// (`solution: REASON`, or what keeps it from solving the puzzle: a copy is as valid as its
/// original, so a wrong solution is told, never carried over as `ok`).
fn given_solution(record: &Record) -> Result<Option<Grid>, String> {
    let grid = match record.solution.as_deref().map(str::parse::<Grid>) {
        None => return Ok(None),
        Some(Ok(grid)) => grid,
        Some(Err(e)) => return Err(format!("solution: {e}")),
    };
    match record.puzzle.as_ref().ok().and_then(|p| flaw(&grid, p)) {
        Some(why) => Err(why),
        None => Ok(Some(grid)),
    }
}

/// About the bytes one output record of `record` takes (its text and the columns added), to
/// cut steps by size when records are large (long kept fields, wide CSV rows).
fn copy_bytes(record: &Record) -> usize {
    let fields: usize = record.fields.iter().map(str::len).sum();
    let solution = record.solution.as_ref().map_or(0, String::len);
    256 + record.cells.len() + solution + fields
}

/// Deals the copies of the records read out into steps, when records have several: on the
/// reading thread, from a block it reads and parses itself.
struct Dealer {
    /// The block being dealt.
    held: Block,
    /// Its next record to deal.
    next: usize,
    /// That record's next random copy.
    copy: u64,
    /// That record's original (copy 0) is still to be dealt.
    original_owed: bool,
    /// Some of that record's outputs have been dealt.
    started: bool,
    /// Raised to stop: no more steps, even within a record.
    stop: Arc<AtomicBool>,
    records_read: Arc<AtomicU64>,
}

impl Dealer {
    /// Fills `step` with shares of at most `room` copies (and about [`STEP_BYTES`]), reading
    /// blocks of `block_records` records as needed; false when nothing is left (or reading was
    /// stopped). Hands a step on rather than wait for more input once it holds something.
    fn deal(
        &mut self,
        step: &mut Step,
        reader: &mut Reader,
        plan: &Plan<'_>,
        block_records: usize,
        room: u64,
    ) -> Result<bool, InputError> {
        step.shares_len = 0;
        let (mut room, mut bytes) = (room.max(1), STEP_BYTES);
        while room > 0 && !self.stop.load(Ordering::Relaxed) {
            if self.next == self.held.records().len() {
                if step.shares_len > 0 || !reader.read_block(&mut self.held, block_records)? {
                    break;
                }
                self.held.parse();
                let read = self.held.records().len();
                self.records_read.fetch_add(read as u64, Ordering::Relaxed);
                self.next = 0;
                continue;
            }
            let record = &self.held.records()[self.next];
            let size = copy_bytes(record);
            // copies that fit: at least one in a step that holds nothing yet
            let fit = (bytes / size) as u64;
            if fit == 0 && step.shares_len > 0 {
                break;
            }
            let fit = fit.clamp(1, room);
            let first = !self.started;
            let given = given_solution(record);
            let (original, copies, last) = if record.puzzle.is_err() || given.is_err() {
                (false, 0..0, true) // its status, once
            } else {
                let original = self.original_owed;
                let more = (fit - u64::from(original)).min(plan.copies - self.copy);
                let end = self.copy + more;
                (original, self.copy..end, end == plan.copies)
            };
            let dealt = (u64::from(original) + (copies.end - copies.start)).max(1);
            if step.shares.len() == step.shares_len {
                step.shares.push(Share::default());
            }
            let share = &mut step.shares[step.shares_len];
            if last {
                // the block is done with it: its buffers change places with the slot's
                std::mem::swap(&mut share.record, &mut self.held.records_mut()[self.next]);
            } else {
                share.record.clone_from(record);
            }
            (share.given, share.original, share.copies) = (given, original, copies.clone());
            (share.first, share.last) = (first, last);
            step.shares_len += 1;
            room -= dealt;
            bytes = bytes.saturating_sub(size.saturating_mul(dealt as usize));
            if last {
                self.next += 1;
                self.copy = 0;
                self.original_owed = plan.keep;
                self.started = false;
            } else {
                self.copy = copies.end;
                self.original_owed = false;
                self.started = true;
            }
        }
        Ok(step.shares_len > 0)
    }
}

/// The warning for puzzles read from the column a solution column would be found in by its
/// name, with other columns beside it and no other solution column named.
fn puzzles_in_solution_column(reader: &Reader, args: &AugmentArgs) -> Option<String> {
    if args.solution_column.is_some() || reader.solution_column().is_some() {
        return None;
    }
    let header = reader.header()?;
    let at = reader.puzzle_column()? - 1;
    let puzzle = header.get(at)?;
    let named = SOLUTION_COLUMNS
        .iter()
        .any(|n| n.eq_ignore_ascii_case(puzzle.trim()));
    // the other columns by place (one may bear the puzzle column's name), named as they can be
    let others: Vec<String> = header
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != at)
        .map(|(i, h)| match h.trim().is_empty() {
            true => format!("column {}", i + 1),
            false => h.clone(),
        })
        .collect();
    (named && !others.is_empty()).then(|| {
        format!(
            "sudoku-batch: warning: the puzzles are read from column {puzzle:?}, named as a \
             solution column: no column moves with them as their solutions, and the other \
             columns ({}) are written back as read (for a dataset's puzzles and solutions, \
             -c names the puzzles and --solution-column the solutions)",
            others.join(", ")
        )
    })
}
