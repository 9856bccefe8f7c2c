//! `generate`: records `start..start + count` of a seeded stream of new puzzles, made on the
//! pool a batch at a time, written in order through the same output layer as `solve` (by the
//! writing thread, the output opened with the first record; progress, signals), then a summary on stderr.
//!
//! Each record is made from `(seed, index, options)` alone ([`Generator::record_until`]) on any
//! thread; the writing thread alone decides, in order, which records are repeats of earlier
//! ones of the run (isomorphic: the same class key) and leaves them out, so the records written
//! are the same for any `-j` or batch size. A record that gives up (`--max-tries`) ends the
//! run: the records before it are written, the ones after it are stopped and not written.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::hash::BuildHasherDefault;
use std::io;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use anyhow::{Context, Result, bail};

use sudoku_batch::check::Prehashed;
use sudoku_batch::generate::{
    self, ClassKey, Exclusions, Failure, Generated, Generator, Options, Pattern, Start,
};
use sudoku_batch::input::{Column, InputError, Record, Source};
use sudoku_batch::output::{self, GenerateColumns, Output, OutputFormat};
use sudoku_batch::pipeline::{self, Steps};

use super::files::OutputPlan;
use super::progress::Progress;
use super::signals::Signals;
use super::{NamedFormat, OutputEnd};
use crate::cli::GenerateArgs;

/// Records a batch holds by default: about 10 ms of work for plain generation, so a batch's
/// per-batch costs vanish and a signal is answered within a few batches.
const BATCH: usize = 256;

/// Records a batch holds for targets that take many tries a record (`--guesses`, `--pattern`,
/// `--from` puzzles): one, so that each thread works on a record of its own.
const SLOW_BATCH: usize = 1;

/// A batch of records: made and formatted on the pool, written by the writing thread.
#[derive(Default)]
struct Batch {
    /// The index of its first record.
    start: u64,
    len: usize,
    results: Vec<Result<Generated, Failure>>,
    /// Per record made, its class (with dedupe on).
    keys: Vec<ClassKey>,
    /// The formatted records made that are written (index at or after `--start`), the `k`-th
    /// ending at `ends[k]`; `ends` has one entry per record made, empty for one not written.
    out: Vec<u8>,
    ends: Vec<usize>,
}

/// What the written records add up to, for the summary.
#[derive(Debug, Default)]
struct Tally {
    written: u64,
    repeats: u64,
    givens: u64,
    fewest: u32,
    most: u32,
    guesses: u64,
    no_guess: u64,
    tries: u64,
}

impl Tally {
    fn add(&mut self, g: &Generated) {
        if self.written == 0 || g.givens < self.fewest {
            self.fewest = g.givens;
        }
        self.most = self.most.max(g.givens);
        self.written += 1;
        self.givens += u64::from(g.givens);
        self.guesses += g.guesses;
        self.no_guess += u64::from(g.guesses == 0);
        self.tries += g.tries;
    }

    /// Adds the counts of `other`, a later batch's.
    fn merge(&mut self, other: &Tally) {
        if other.written > 0 && (self.written == 0 || other.fewest < self.fewest) {
            self.fewest = other.fewest;
        }
        self.most = self.most.max(other.most);
        self.written += other.written;
        self.repeats += other.repeats;
        self.givens += other.givens;
        self.guesses += other.guesses;
        self.no_guess += other.no_guess;
        self.tries += other.tries;
    }
}

/// Runs `generate`; the exit code is 0, 1 when a record gave up, or 128 plus the number of a
/// signal that stopped it.
pub fn run(args: &GenerateArgs) -> Result<ExitCode> {
    let start = Instant::now();
    let end = args.start.checked_add(args.count).with_context(|| {
        format!(
            "--start {} -n {}: the stream has {} records at most",
            args.start,
            args.count,
            u64::MAX
        )
    })?;
    if !args.no_dedupe && args.start > generate::MAX_DEDUPED_START {
        bail!(
            "--start {}: a run that leaves out repeats makes every record before its first \
             (their classes only) and keeps their classes in memory; at most --start {} (hours \
             of work and 16-40 GB), or --no-dedupe, which makes nothing before its records",
            args.start,
            generate::MAX_DEDUPED_START
        );
    }
    let signals = Signals::install()?;
    let pool = super::pool_of(args.threads, args.quiet)?;
    let threads = pool.current_num_threads();
    // the files read: --from, --exclude, and a --pattern given as a file
    let pattern_file = args
        .pattern
        .as_deref()
        .map(Path::new)
        .filter(|p| is_readable_path(p))
        .map(Path::to_path_buf);
    let inputs: Vec<PathBuf> = args
        .from
        .iter()
        .chain(&args.exclude)
        .chain(&pattern_file)
        .cloned()
        .collect();
    // a file that is not there is named with its option (the plan's message names the file)
    let named = (args.from.iter().map(|p| ("--from", p)))
        .chain(args.exclude.iter().map(|p| ("--exclude", p)));
    for (option, path) in named {
        if path.as_os_str() != "-" {
            std::fs::metadata(path).with_context(|| format!("{option} {}", path.display()))?;
        }
    }
    let mut plan = OutputPlan::reading(&inputs)?;
    let mut slot = Some(plan.add(args.output.as_deref(), "output")?);
    let output_name = super::output_name(args.output.as_deref());
    let options = options(args, pattern_file.as_deref(), &pool, signals.stop_flag());
    // a signal while --from or --exclude was read (a pipe that never ends): stop before the
    // output is touched, saying so
    if let (Some(code), Some(stop)) = (signals.exit_code(), signals.interruption(None)) {
        if !args.quiet {
            super::stderr_line(format_args!(
                "generate: {} while reading its inputs; nothing written",
                stop.stopped_by()
            ));
        }
        return Ok(code);
    }
    let options = options?;
    let generator = Generator::new(options).map_err(|e| {
        // what is wrong with a pattern read from a file names the file, as its parse errors do
        match (pattern_file.as_deref(), e.to_string()) {
            (Some(file), text) if text.starts_with("the pattern") => {
                anyhow::anyhow!("--pattern {}: {text}", file.display())
            }
            (_, text) => anyhow::anyhow!(text),
        }
    })?;
    let resolved = output_format(args);
    let format = output::generate_formatter(
        resolved,
        GenerateColumns {
            symmetry: args.symmetry != generate::Symmetry::None,
            rating: args.rating.is_some(),
        },
    );
    // The output is emptied and opened once the first record to write has been made: a run
    // stopped or given up before that (a signal while records 1..K are made for --start K, a
    // first record past --max-tries) leaves every output as it was. Each batch is written by
    // the thread that takes the batches, at its offset in a file (a record costs far more to
    // make than to write); a file that fails is still cut back to its whole records.
    let mut output: Option<Output> = None;
    let o = generator.options();
    let slow = o.guesses.is_some()
        || o.rating.is_some()
        || o.pattern.is_some()
        || o.from.iter().any(|s| matches!(s, Start::Puzzle(_)));
    let batch_size = args
        .batch_size
        .map_or(if slow { SLOW_BATCH } else { BATCH }, |n| n.get());
    let in_flight = pipeline::Config::for_threads(threads).in_flight;
    let dedupe = !args.no_dedupe;
    // With dedupe, whether record i is written depends on the classes of records 0..i: a run
    // from --start K makes records 0..K too (their classes only, nothing written), so that it
    // writes exactly what the whole stream writes from record K+1 on.
    let first_index = if dedupe && args.count > 0 {
        0
    } else {
        args.start
    };
    if first_index < args.start && !args.quiet {
        super::stderr_line(format_args!(
            "generate: making records 1..{} first (not written) to leave out repeats of them \
             exactly as a run from record 1 does; --no-dedupe skips this",
            args.start
        ));
    }
    let made = Arc::new(AtomicU64::new(0));
    let mut progress = Progress::new(
        args.progress,
        args.quiet,
        Some(end - first_index),
        Arc::clone(&made),
        Arc::clone(&made),
    );
    let stop = signals.stop_flag();
    // the first record that gave up (u64::MAX: none): records after it stop at once
    let gave_up = AtomicU64::new(u64::MAX);
    let mut seen: HashSet<ClassKey, BuildHasherDefault<Prehashed>> = HashSet::default();
    let mut tally = Tally::default();
    let mut failure: Option<(u64, Failure)> = None;
    let mut ends = OutputEnd::default();
    let mut next = first_index;
    let mut wrote_any = false;
    let grid = resolved == OutputFormat::Grid;

    let work = |batch: &mut Batch| {
        let (first, stop, gave_up, made) = (batch.start, &stop, &gave_up, &made);
        pipeline::map_indexed_into(batch.len, &mut batch.results, |k| {
            let index = first + k as u64;
            let halt = || stop.load(Ordering::Relaxed) || gave_up.load(Ordering::Relaxed) < index;
            let result = generator.record_until(index, &halt);
            match &result {
                Ok(_) => {
                    made.fetch_add(1, Ordering::Relaxed);
                }
                Err(Failure::GaveUp { .. }) => {
                    gave_up.fetch_min(index, Ordering::Relaxed);
                }
                Err(Failure::Stopped) => {}
            }
            result
        });
        // the records made, up to the first that was not
        let done: Vec<&Generated> = batch
            .results
            .iter()
            .map_while(|r| r.as_ref().ok())
            .collect();
        batch.keys.clear();
        if dedupe {
            pipeline::map_into(&done, &mut batch.keys, |g| generate::class_key(&g.puzzle));
        }
        batch.out.clear();
        batch.ends.clear();
        let none = Record::empty();
        for g in &done {
            // every record but the output's first starts with what parts it from the one
            // before (the grid format's blank line): the writer drops it from the first
            if g.index >= args.start {
                format.record(&none, g, false, &mut batch.out);
            }
            batch.ends.push(batch.out.len());
        }
    };

    let result = pipeline::run_batches_placed(
        |batch: &mut Batch| -> Result<bool, InputError> {
            if next >= end
                || stop.load(Ordering::Relaxed)
                || gave_up.load(Ordering::Relaxed) != u64::MAX
            {
                return Ok(false);
            }
            batch.start = next;
            // a batch does not straddle --start, so that a batch is written whole or not at all
            let upto = if next < args.start { args.start } else { end };
            batch.len =
                usize::try_from(upto - next).map_or(batch_size, |left| left.min(batch_size));
            next += batch.len as u64;
            Ok(true)
        },
        &pool,
        in_flight,
        Steps {
            ahead: |_: &mut Batch| {},
            prepare: |_: &mut Batch| {},
            work,
        },
        |batch: &mut Batch| -> io::Result<()> {
            if failure.is_some() {
                batch.out.clear();
                return Ok(());
            }
            let made = batch.ends.len();
            // repeats of earlier records of the stream, left out in order
            let mut kept = Vec::with_capacity(made);
            for k in 0..made {
                kept.push(!dedupe || seen.insert(batch.keys[k]));
            }
            if kept.contains(&false) {
                let mut out = Vec::with_capacity(batch.out.len());
                let mut from = 0;
                for (k, &end) in batch.ends.iter().enumerate() {
                    if kept[k] {
                        out.extend_from_slice(&batch.out[from..end]);
                    }
                    from = end;
                }
                batch.out = out;
            }
            if grid && !wrote_any && batch.out.first() == Some(&b'\n') {
                batch.out.remove(0);
            }
            let mut last = None;
            // the batch's counts, counted once the file holds it (see `HeldCounts`)
            let mut counts = Tally::default();
            for (k, result) in batch.results.iter().enumerate().take(made) {
                if let Ok(g) = result {
                    if g.index < args.start {
                        continue;
                    }
                    if kept[k] {
                        counts.add(g);
                        last = Some(g.index);
                    } else {
                        counts.repeats += 1;
                    }
                }
            }
            wrote_any |= last.is_some();
            if let Some(slot) = slot.take_if(|_| !batch.out.is_empty()) {
                let mut begun = plan
                    .begin()
                    .map_err(|e| io::Error::other(format!("{e:#}")))?;
                output = Some(Output::to(begun.take_destination(slot), format.as_ref()));
            }
            // written whole here: the batch's counts are the file's at once
            if let Some(output) = output.as_mut() {
                output.write(&batch.out)?;
            }
            let line = last.map(|index| Record {
                line: index + 1,
                ..Record::empty()
            });
            tally.merge(&counts);
            ends.add(None, batch.out.len(), line.as_ref());
            progress.add(made);
            if let Some(Err(f)) = batch.results.get(made) {
                failure = Some((batch.start + made as u64, *f));
            }
            Ok(())
        },
        None,
    );
    progress.finish();
    // no record made to write: a run that ends as asked (`-n 0`) writes what an empty output
    // is (a header); one stopped or given up leaves every output as it was
    let untouched = output.is_none() && (signals.exit_code().is_some() || failure.is_some());
    let mut output = match (output, slot.take()) {
        (Some(output), _) => output,
        (None, Some(slot)) if !untouched => {
            Output::to(plan.begin()?.take_destination(slot), format.as_ref())
        }
        (None, _) => Output::new(Box::new(io::sink()), format.as_ref()),
    };
    // a record of the stream is named by its number (it said `the record at seed 2, record:512`)
    let name = |(_, record): (u32, u64)| format!("record {record} of seed {}", args.seed);
    let (last, stopped) = super::end_records(result, &mut output, &mut ends, &name, &output_name);
    let last = last.map(|(_, line)| line);

    let ended = match last {
        Some(record) => format!("the output ends with record {record}"),
        None if untouched => "no record was written, every output as it was".to_string(),
        None => "no record was written".to_string(),
    };
    if !args.quiet {
        let secs = start.elapsed().as_secs_f64();
        let t = &tally;
        let per = |x: u64| x as f64 / t.written.max(1) as f64;
        let asked = match args.count {
            0 => "no record asked for".to_string(),
            1 => format!("record {end}"),
            _ => format!("records {}..{end}", args.start + 1),
        };
        let mut line = format!(
            "generate: {asked} of seed {}: {} written, {} repeat{} left out",
            args.seed,
            t.written,
            t.repeats,
            if t.repeats == 1 { "" } else { "s" },
        );
        if t.written > 0 {
            let _ = write!(
                line,
                "; givens {:.2} ({}..{}), guesses {:.2} a puzzle ({:.1}% none), tries {:.2} a \
                 puzzle",
                per(t.givens),
                t.fewest,
                t.most,
                per(t.guesses),
                100.0 * per(t.no_guess),
                per(t.tries),
            );
        }
        let _ = write!(
            line,
            "; {secs:.3} s, {:.0} puzzles/s, {threads} thread{}",
            t.written as f64 / secs.max(1e-9),
            if threads == 1 { "" } else { "s" }
        );
        // a signal, a failed output, or its reader gone
        if let Some(interruption) = super::ended_early(&signals, stopped.as_ref(), None, &[]) {
            let _ = write!(line, "; {}: {ended}", interruption.stopped_by());
        }
        super::stderr_line(line);
    }
    if let Some((index, Failure::GaveUp { tries, reached })) = failure {
        let advice = match reached.same_every_try {
            true => "Widen the targets or start from another puzzle",
            false => "Widen the targets or raise --max-tries",
        };
        super::stderr_line(format_args!(
            "sudoku-batch: generate: record {} gave up: no puzzle met the targets ({}) in {tries} \
             {} ({reached}); {ended}. {advice}.",
            index + 1,
            targets(args),
            if tries == 1 { "try" } else { "tries" }
        ));
        return super::conclude(stopped, signals.exit_code().unwrap_or(ExitCode::from(1)));
    }
    super::conclude(stopped, signals.exit_code().unwrap_or(ExitCode::SUCCESS))
}

/// The targets asked for, for the message of a record that gave up: `--clues 17` and so on.
fn targets(args: &GenerateArgs) -> String {
    let mut parts = Vec::new();
    match args.clues {
        Some(c) if args.no_minimal => parts.push(format!("--clues {c}, not minimal")),
        Some(c) => parts.push(format!("minimal, --clues {c}")),
        None => parts.push("minimal".to_string()),
    }
    if args.symmetry != generate::Symmetry::None {
        parts.push(format!("--symmetry {}", args.symmetry.name()));
    }
    if args.pattern.is_some() {
        parts.push("--pattern".to_string());
    }
    if let Some(g) = args.guesses {
        parts.push(format!("--guesses {g}"));
    }
    if let Some(r) = args.rating {
        parts.push(format!("--rating {}", generate::RatingRange(r)));
    }
    if !args.exclude.is_empty() {
        parts.push("--exclude".to_string());
    }
    parts.join(", ")
}

/// The record format: `-O`, else for `auto` the one `-o`'s extension names, else line.
fn output_format(args: &GenerateArgs) -> OutputFormat {
    match (
        OutputFormat::from(args.output_format),
        super::named_format(args.output.as_deref()),
    ) {
        (OutputFormat::Auto, Some(NamedFormat::Jsonl)) => OutputFormat::Jsonl,
        (OutputFormat::Auto, Some(NamedFormat::Csv)) => OutputFormat::Csv,
        (OutputFormat::Auto, None) => OutputFormat::Line,
        (format, _) => format,
    }
}

/// Whether `--pattern`'s argument names something to read the pattern from: `-` (standard
/// input) or anything there but a folder (a file, a pipe such as `<(cmd)`, `/dev/stdin`); else
/// it is the pattern itself (81 cells are no path that exists).
fn is_readable_path(path: &Path) -> bool {
    path.as_os_str() == "-" || std::fs::metadata(path).is_ok_and(|m| !m.is_dir())
}

/// The most bytes a `--pattern` file is read for (a pattern is 81 cells, perhaps in rows with
/// comments): `/dev/zero` is not read until memory runs out.
const MAX_PATTERN_BYTES: u64 = 1 << 20;

/// The generator's options from the command line, its files read.
fn options(
    args: &GenerateArgs,
    pattern_file: Option<&Path>,
    pool: &rayon::ThreadPool,
    stop: Arc<AtomicBool>,
) -> Result<Options> {
    let pattern = match (&args.pattern, pattern_file) {
        (None, _) => None,
        (Some(_), Some(file)) => {
            let text = sudoku_batch::input::read_text(file, Arc::clone(&stop), MAX_PATTERN_BYTES)
                .with_context(|| format!("--pattern {}: cannot read it", file.display()))?;
            Some(Pattern::parse(&text).with_context(|| format!("--pattern {}", file.display()))?)
        }
        // a folder is no pattern file, nor a pattern ("cell 1 (r1c1) is '/'")
        (Some(text), None) if Path::new(text).is_dir() => {
            anyhow::bail!("--pattern {text}: a folder, not a pattern file")
        }
        (Some(text), None) => Some(Pattern::parse(text).with_context(|| {
            format!("--pattern {text:?} (not a file, so read as the pattern itself)")
        })?),
    };
    let from = match &args.from {
        None => Vec::new(),
        Some(path) => read_starts(path, args, &stop)?,
    };
    let mut exclude = Exclusions::new();
    for path in &args.exclude {
        read_exclusions(path, args, pool, &stop, &mut exclude)?;
    }
    Ok(Options {
        seed: args.seed,
        clues: args.clues,
        minimal: !args.no_minimal,
        symmetry: args.symmetry,
        pattern,
        from,
        guesses: args.guesses,
        rating: args.rating,
        max_tries: args.max_tries,
        exclude,
    })
}

/// Records read at a time from --from and --exclude files.
const READ_BATCH: usize = 65_536;

/// Reads every record of `path` (`-`: stdin) a batch at a time, in the layout the options ask
/// for; a malformed record is an error naming its line.
fn read_records(
    path: &Path,
    what: &str,
    args: &GenerateArgs,
    stop: &Arc<AtomicBool>,
    mut each: impl FnMut(&[Record], &str) -> Result<()>,
) -> Result<()> {
    let source = if path.as_os_str() == "-" {
        Source::Stdin
    } else {
        Source::Path(path.to_path_buf())
    };
    let mut reader = super::open_sources(vec![source], &args.format, Some(Arc::clone(stop)))
        .with_context(|| format!("{what} {}", path.display()))?;
    let name = reader.source_name(0).to_string();
    let mut batch = Vec::new();
    loop {
        batch.clear();
        if reader.read_batch(READ_BATCH, &mut batch)? == 0 {
            return Ok(());
        }
        if let Some(bad) = batch.iter().find(|r| r.puzzle.is_err()) {
            let reason = bad.puzzle.as_ref().err().map_or("", String::as_str);
            anyhow::bail!("{what} {name}:{}: {reason}", bad.line);
        }
        each(&batch, &name)?;
    }
}

/// The starting points of `--from`.
fn read_starts(path: &Path, args: &GenerateArgs, stop: &Arc<AtomicBool>) -> Result<Vec<Start>> {
    let mut starts = Vec::new();
    read_records(path, "--from", args, stop, |records, name| {
        for record in records {
            if let Ok(grid) = &record.puzzle {
                let start =
                    Start::new(*grid).with_context(|| format!("--from {name}:{}", record.line))?;
                if start.fills_under(args.symmetry) {
                    anyhow::bail!(
                        "--from {name}:{}: with --symmetry {}, its givens and the cells they \
                         map to fill the grid: no puzzle keeps them (81 givens are a solved grid)",
                        record.line,
                        args.symmetry.name()
                    );
                }
                starts.push(start);
            }
        }
        Ok(())
    })?;
    if starts.is_empty() {
        anyhow::bail!("--from {}: no grid or puzzle in it", path.display());
    }
    Ok(starts)
}

/// Adds the classes of the puzzles of `path` to `exclude`, their forms computed on the pool.
fn read_exclusions(
    path: &Path,
    args: &GenerateArgs,
    pool: &rayon::ThreadPool,
    stop: &Arc<AtomicBool>,
    exclude: &mut Exclusions,
) -> Result<()> {
    let mut keys = Vec::new();
    read_records(path, "--exclude", args, stop, |records, name| {
        // no puzzle is isomorphic to a solved grid: such a record excludes nothing, and is
        // the column of solutions read by mistake (-c serves --from and --exclude alike), so
        // the test set it stood for would leak whole
        if let Some(grid) = records
            .iter()
            .find(|r| r.puzzle.as_ref().is_ok_and(|p| p.is_complete()))
        {
            anyhow::bail!(
                "--exclude {name}:{}: a solved grid (81 givens), which no puzzle can match, so \
                 it would exclude nothing; give puzzles (-c names the column of --from and \
                 --exclude files alike{})",
                grid.line,
                match &args.format.column {
                    Some(Column::Name(c)) => format!(": -c {c} was given"),
                    Some(Column::Index(c)) => format!(": -c {c} was given"),
                    None => String::new(),
                }
            );
        }
        // nor a puzzle whose givens contradict each other: a damaged row, which would let the
        // puzzle it stood for through unnoticed (a malformed row is refused as well)
        if let Some((line, conflict)) = records.iter().find_map(|r| {
            let conflict = r.puzzle.as_ref().ok()?.conflict()?;
            Some((r.line, conflict))
        }) {
            anyhow::bail!(
                "--exclude {name}:{line}: not a puzzle: {conflict}, so it would exclude nothing \
                 (mend or remove the row)"
            );
        }
        pool.install(|| {
            pipeline::map_into(records, &mut keys, |r| {
                r.puzzle
                    .as_ref()
                    .ok()
                    .map(|p| (sudoku_batch::canon::invariant(p), generate::class_key(p)))
            })
        });
        for &(invariant, key) in keys.iter().flatten() {
            exclude.insert_keys(invariant, key);
        }
        Ok(())
    })
}
