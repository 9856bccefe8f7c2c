//! `bench`: each input read into memory as a dataset and timed by the library's harness; the
//! report printed as a Markdown table and written in the formats asked for.

use std::io::{IsTerminal, Seek, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex, PoisonError};

use anyhow::{Context, Result};

use sudoku_batch::bench::{self, Dataset, Options, RealClock, RunInfo};
use sudoku_batch::pipeline::Workers;
use sudoku_batch::report::{self, Baseline, Format, Report};

use super::files::{Begun, OutputPlan, Slot};
use super::signals::Signals;
use crate::cli::BenchArgs;

/// Runs `bench`.
pub fn run(args: &BenchArgs) -> Result<ExitCode> {
    let options = Options {
        limit: args.limit,
        min_seconds: args.min_seconds,
        rounds: args.rounds,
        shuffle: args.shuffle,
        sample: args.sample,
        seed: args.seed,
    };
    // everything that can fail before the timing fails first: threads, baseline, output files
    let workers = Workers::new(super::capped_threads(args.threads, args.quiet))
        .context("starting the solver threads")?;
    let exports = [
        (&args.export_markdown, Format::Markdown, "--export-markdown"),
        (&args.export_csv, Format::Csv, "--export-csv"),
        (&args.export_json, Format::Json, "--export-json"),
        (&args.export_svg, Format::Svg, "--export-svg"),
    ];
    let mut plan = OutputPlan::new(&args.inputs)?;
    if let Some(path) = &args.baseline {
        plan.also_reads(path)?;
    }
    // (after the plan's look at it: a closed stdin named `/dev/stdin` is said as such)
    let baseline = args.baseline.as_deref().map(read_baseline).transpose()?;
    let mut outputs = Vec::new();
    for (path, format, option) in exports {
        if let Some(path) = path {
            outputs.push((path, format, plan.add(Some(path), option)?));
        }
    }
    // (`--export-markdown /dev/stdout` too: it was refused, the table already there)
    let to_stdout = |p: &Path| super::files::names_stdout(p);
    let table = (!args.quiet && !outputs.iter().any(|(p, _, _)| to_stdout(p)))
        .then(|| plan.add(None, "table"))
        .transpose()?;
    let mut puzzles_out = match args.write_puzzles.as_deref() {
        Some(path) if path.is_dir() => {
            puzzle_files_apart(path, &args.inputs, &plan)?;
            Some(PuzzleWriter::Dir(path.to_path_buf(), Vec::new()))
        }
        Some(path) => Some(PuzzleWriter::File(
            path.to_path_buf(),
            plan.add(Some(path), "puzzles")?,
            spool_beside(path)?,
        )),
        None => None,
    };
    // A signal before the figures are in ends the run there, every output as it was and the
    // files it made removed (they were left empty: bench's timing loops look at no stop flag,
    // so the signal's default action ended it); one while they are written lets them finish.
    let signals = Signals::install()?;
    let begun = Arc::new(Mutex::new(false));
    {
        let (begun, created, quiet) = (Arc::clone(&begun), plan.created_files(), args.quiet);
        signals.on_first(move |signal| {
            let begun = begun.lock().unwrap_or_else(PoisonError::into_inner);
            if *begun {
                return;
            }
            for path in &created {
                let _ = std::fs::remove_file(path);
            }
            if !quiet {
                super::stderr_line(format_args!(
                    "bench: interrupted by {} before its figures were in: nothing written, \
                     every output as it was",
                    super::signals::signal_name(signal)
                ));
            }
            std::process::exit(128 + signal);
        })?;
    }
    let mut readers = Vec::with_capacity(args.inputs.len());
    for input in &args.inputs {
        readers.push(super::open_sources(
            super::sources(std::slice::from_ref(input)),
            &args.format,
            None,
        )?);
    }
    // The outputs are emptied only once every figure is in (`plan.begin` below), not before the
    // timing: a run stopped part way (Ctrl-C, which bench leaves to its default action, or an
    // error in a later dataset) used to leave its `--export-*` files empty, an earlier run's
    // figures lost. It now leaves every existing file as it was (files it made are empty). So
    // `--write-puzzles` spools its lines to unnamed files beside its file (or a folder's
    // files) until then.
    let progress = !args.quiet && std::io::stderr().is_terminal();

    let clock = RealClock::default();
    let run = RunInfo::collect(&options, workers.threads());
    if run.profile == "debug" && !args.quiet {
        super::stderr_line(format_args!(
            "bench: note: a debug build; build with --release for figures worth quoting"
        ));
    }
    let mut datasets = Vec::with_capacity(args.inputs.len());
    for mut reader in readers {
        let name = reader.source_name(0).to_string();
        let quiet = args.quiet;
        let mut set = Dataset::load(&mut reader, &name, &clock, |record, reason| {
            if !quiet {
                super::stderr_line(format_args!("{name}:{}: {reason} (skipped)", record.line));
            }
        })?;
        set.prepare(&options);
        if set.puzzles.is_empty() && !quiet {
            super::stderr_line(format_args!(
                "bench: {name}: no puzzle to time: no figures in its row (zeros in JSON and CSV)"
            ));
        }
        if let Some(out) = &mut puzzles_out {
            out.write(&set, &plan)?;
        }
        if progress {
            super::stderr_line(format_args!(
                "bench: {name}: {} puzzles, timing {} round{}...",
                set.puzzles.len(),
                options.rounds,
                if options.rounds.get() == 1 { "" } else { "s" }
            ));
        }
        datasets.push(bench::run(&set, &options, &workers, &clock)?);
    }
    // (the lock waits for a signal's removal of the files made, which then ends the run)
    *begun.lock().unwrap_or_else(PoisonError::into_inner) = true;
    let mut files = plan.begin()?;
    // every output is written even when one fails: they were all emptied by `begin`, and one
    // failing (a full disk, a closed pipe) left those after it empty, earlier runs' figures lost
    let mut failed = Vec::new();
    if let Some(out) = puzzles_out {
        if let Err(err) = out.finish(&mut files) {
            failed.push(err);
        }
    }
    let outputs: Vec<_> = outputs
        .into_iter()
        // a report file whose write fails is left empty, not holding a torn document
        .map(|(path, format, slot)| match to_stdout(path) {
            true => (path, format, files.take(slot)),
            false => (path, format, files.take_whole(slot)),
        })
        .collect();
    let table = table.map(|slot| files.take(slot));

    let mut report = Report { run, datasets };
    if let Some((path, baseline)) = &baseline {
        let (missing, other) = report.compare_with(baseline);
        if !missing.is_empty() && !args.quiet {
            super::stderr_line(format_args!(
                "bench: {} has no figure for {}",
                path.display(),
                missing.join(", ")
            ));
        }
        if !other.is_empty() {
            // said even with -q: a column of ratios left empty needs a reason
            super::stderr_line(format_args!(
                "bench: {} timed other work under the name of {} (other puzzles, order, \
                 --limit, --shuffle or --sample: the checksums differ); not compared",
                path.display(),
                other.join(", ")
            ));
        }
    }
    // the export on stdout, if any, last: a reader that goes away (`| head`) then cuts
    // nothing else short, and ends the run quietly
    let (mut outputs, on_stdout): (Vec<_>, Vec<_>) =
        outputs.into_iter().partition(|(p, _, _)| !to_stdout(p));
    outputs.extend(on_stdout);
    let mut last = Ok(());
    for (path, format, mut out) in outputs {
        let bytes = report::exporter(format)
            .serialize(&report)
            .with_context(|| format!("making {}", path.display()))?;
        let written = out
            .write_all(&bytes)
            .and_then(|()| out.flush())
            .with_context(|| format!("writing {}", super::output_name(Some(path))));
        match (to_stdout(path), written) {
            (true, written) => last = super::last_output(written),
            (false, Err(err)) => failed.push(err),
            (false, Ok(())) => {}
        }
    }
    if let Some(mut out) = table {
        let table = report::exporter(Format::Markdown).serialize(&report)?;
        last = super::last_output(
            out.write_all(&table)
                .and_then(|()| out.flush())
                .context("writing <stdout>"),
        );
    }
    // a file that failed is told (all of them, the first as the error) before a quiet stdout
    let mut failed = failed.into_iter();
    match failed.next() {
        Some(first) => {
            for err in failed {
                super::stderr_line(format_args!("sudoku-batch: error: {err:#}"));
            }
            Err(first)
        }
        // a signal that came while the figures were written: they were finished
        None => last.map(|()| signals.exit_code().unwrap_or(ExitCode::SUCCESS)),
    }
}

/// An unnamed file in the folder of `path` (gone when closed, or when the process dies), for the
/// lines of `--write-puzzles` until the figures are in: a file, not memory, as a dataset can
/// hold millions of puzzles, and beside the output, on the file system that has to hold them.
///
/// An output that is no regular file (`/dev/stdout`, a pipe, `>(cmd)`) is spooled in the
/// system's temporary folder instead: its own folder (`/dev`, `/proc/self/fd`) cannot hold a
/// file, or is a small one that must not fill.
fn spool_beside(path: &Path) -> Result<std::fs::File> {
    let regular = std::fs::metadata(path).map_or(true, |meta| meta.is_file());
    let dir = match path.parent() {
        _ if !regular => std::env::temp_dir(),
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    };
    tempfile::tempfile_in(&dir).with_context(|| {
        format!(
            "{}: cannot make a spool file in {}",
            path.display(),
            dir.display()
        )
    })
}

/// The file a dataset's puzzles go to in a `--write-puzzles` folder: its name and `.txt`.
fn puzzle_file_name(set_name: &str) -> String {
    format!("{}.txt", set_name.trim_matches(['<', '>']))
}

/// Fails, before anything is timed, when two of `inputs` would write one file in the
/// `--write-puzzles` folder `dir` (`a/e.txt b/e.txt`), or one would write over an input or
/// another output. (Found when the second was written, the run had timed the first and left
/// its file.)
fn puzzle_files_apart(dir: &Path, inputs: &[PathBuf], plan: &OutputPlan) -> Result<()> {
    let mut names: Vec<String> = Vec::with_capacity(inputs.len());
    // named as the datasets will be: by their sources' names
    for source in super::sources(inputs) {
        let name = puzzle_file_name(&bench::dataset_name(&source.name()));
        if names.contains(&name) {
            anyhow::bail!(
                "--write-puzzles {}: two datasets would both write {name}",
                dir.display()
            );
        }
        plan.check_later(&dir.join(&name), "puzzles")?;
        names.push(name);
    }
    Ok(())
}

/// Where `--write-puzzles` goes: one file for all datasets (its place in the output plan, and
/// the lines spooled until the run's figures are in), or a folder with a file per dataset.
enum PuzzleWriter {
    File(PathBuf, Slot, std::fs::File),
    /// The folder, and each dataset's file name and its lines spooled until the figures are in.
    Dir(PathBuf, Vec<(String, std::fs::File)>),
}

impl PuzzleWriter {
    /// Takes the puzzles of `set` as timed, 81 characters a line: kept for one file, written to
    /// a dataset's own file in a folder (checked against `plan`'s inputs and outputs first).
    fn write(&mut self, set: &Dataset, plan: &OutputPlan) -> Result<()> {
        let mut lines = Vec::with_capacity(set.puzzles.len() * 82);
        bench::puzzle_lines(set, &mut lines);
        match self {
            PuzzleWriter::File(path, _, spool) => spool
                .write_all(&lines)
                .with_context(|| format!("writing {} (spooled)", path.display())),
            PuzzleWriter::Dir(dir, spooled) => {
                let name = puzzle_file_name(&set.name);
                if spooled.iter().any(|(n, _)| *n == name) {
                    anyhow::bail!(
                        "--write-puzzles {}: two datasets would both write {name}",
                        dir.display()
                    );
                }
                let path = dir.join(&name);
                plan.check_later(&path, "puzzles")?;
                let mut spool = spool_beside(&path)?;
                spool
                    .write_all(&lines)
                    .with_context(|| format!("writing {} (spooled)", path.display()))?;
                spooled.push((name, spool));
                Ok(())
            }
        }
    }

    /// Writes the lines kept for each file, once the plan has begun.
    fn finish(self, files: &mut Begun) -> Result<()> {
        match self {
            // a file whose write fails is left empty, not holding part of the puzzles
            PuzzleWriter::File(path, slot, spool) => {
                let mut out = match path.as_os_str() == "-" {
                    true => files.take(slot),
                    false => files.take_whole(slot),
                };
                unspool(spool, &mut out).with_context(|| format!("writing {}", path.display()))
            }
            // each file written even when one fails (a full disk): the first error is told
            PuzzleWriter::Dir(dir, spooled) => {
                let mut result = Ok(());
                for (name, spool) in spooled {
                    let path = dir.join(&name);
                    // a file whose write fails is left empty, as a single file is
                    let written = std::fs::File::create(&path)
                        .and_then(|mut out| {
                            unspool(spool, &mut out).inspect_err(|_| {
                                let _ = out.set_len(0);
                            })
                        })
                        .with_context(|| format!("writing {}", path.display()));
                    result = result.and(written);
                }
                result
            }
        }
    }
}

/// Copies the lines `spool` kept (from its start) into `out`, flushed.
fn unspool(mut spool: std::fs::File, out: &mut dyn Write) -> std::io::Result<()> {
    spool.seek(std::io::SeekFrom::Start(0))?;
    std::io::copy(&mut spool, out)?;
    out.flush()
}

/// The earlier report of `--baseline`, read before any timing so a bad file fails fast.
fn read_baseline(path: &Path) -> Result<(PathBuf, Baseline)> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("{}: cannot read", path.display()))?;
    let baseline = Baseline::from_json(&text)
        .with_context(|| format!("{}: not a bench JSON report", path.display()))?;
    Ok((path.to_path_buf(), baseline))
}
