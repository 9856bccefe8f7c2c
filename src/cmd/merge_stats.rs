//! `merge-stats`: the `--stats` JSON of runs made side by side, added up into one summary.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::sync::{Arc, Mutex, PoisonError};

use anyhow::{Context, Result};

use sudoku_batch::check::summary::{self, CheckSummary};
use sudoku_batch::stats::{self, SummaryFile};

use super::files::OutputPlan;
use crate::cli::MergeStatsArgs;

/// Runs `merge-stats`.
pub fn run(args: &MergeStatsArgs) -> Result<()> {
    let mut plan = OutputPlan::new(&args.inputs)?;
    // one run's stats named twice (`part-1.json ./part-1.json`, a link) would count it twice
    if let Some((first, second)) = plan.repeated_input() {
        anyhow::bail!(
            "{second}: the same file as {first}: its run would count twice (name each part once)"
        );
    }
    // an output that exists (or standard output) is checked against the inputs now; a new
    // file is made only once there is something to write: a Ctrl-C while the parts were read
    // (a `-` waiting on a pipe) left it behind, empty
    let new_file = args
        .output
        .as_deref()
        .filter(|path| path.as_os_str() != "-" && std::fs::metadata(path).is_err());
    let early = match new_file {
        None => Some(plan.add(args.output.as_deref(), "output")?),
        Some(_) => None,
    };
    // the files of one kind: solve's, or check's (told by their "command")
    let (mut solves, mut checks) = (Vec::new(), Vec::new());
    // every count of every part added up: when that fits, no sum the merge makes overflows
    let mut everything = 0u64;
    // the runs counted so far, by name, and the file each came in
    let mut counted: HashMap<String, String> = HashMap::new();
    for path in &args.inputs {
        let name = super::sources(std::slice::from_ref(path))
            .first()
            .map_or_else(String::new, |s| s.name());
        let source: Box<dyn Read> = if path.as_os_str() == "-" {
            Box::new(std::io::stdin())
        } else {
            Box::new(std::fs::File::open(path).with_context(|| format!("{name}: cannot read"))?)
        };
        // at most a bound's worth: `/dev/zero` or an endless pipe was read until memory ran out
        let mut text = String::new();
        source
            .take(MAX_STATS_BYTES + 1)
            .read_to_string(&mut text)
            .with_context(|| format!("{name}: cannot read"))?;
        if text.len() as u64 > MAX_STATS_BYTES {
            anyhow::bail!(
                "{name}: not the --stats JSON of a run: more than {} MiB",
                MAX_STATS_BYTES >> 20
            );
        }
        // a file saved by an editor that marks UTF-8 starts with a BOM, which JSON does not allow
        let json = text.strip_prefix('\u{feff}').unwrap_or(&text);
        let value: serde_json::Value = serde_json::from_str(json)
            .with_context(|| format!("{name}: not the --stats JSON of a run"))?;
        let wall = value.get("wall_seconds").and_then(|w| w.as_f64());
        if wall.is_some_and(|w| !(0.0..=MAX_WALL_SECONDS).contains(&w)) {
            anyhow::bail!(
                "{name}: not the --stats JSON of a run: wall_seconds {} is not a run's time",
                value["wall_seconds"]
            );
        }
        everything = add_counts(&value, everything).with_context(|| {
            format!(
                "{name}: the numbers of the parts are too large to add up safely: together they \
                 reach 2^64"
            )
        })?;
        // the runs it counts, looked at once its counts are known to be a run's
        let runs = run_names(&value).map_err(|why| {
            anyhow::anyhow!("{name}: not the --stats JSON of a run: its runs {why}")
        })?;
        let command = value.get("command").and_then(|c| c.as_str());
        if let Some(other) = command.filter(|c| *c != summary::COMMAND && *c != "solve") {
            anyhow::bail!(
                "{name}: the stats of a {other} run: merge-stats adds up solve or check runs"
            );
        }
        let is_check = command == Some(summary::COMMAND);
        let (this, other) = if is_check {
            ("check", "solve")
        } else {
            ("solve", "check")
        };
        if is_check && !solves.is_empty() || !is_check && !checks.is_empty() {
            anyhow::bail!("{name}: a {this} run's stats cannot be added to a {other} run's");
        }
        if is_check {
            let mut part: CheckSummary = serde_json::from_value(value)
                .with_context(|| format!("{name}: not the --stats JSON of a check run"))?;
            // what cannot be added up is told with the file's name
            summary::merge(std::slice::from_ref(&part))
                .with_context(|| format!("{name}: not the --stats JSON of a check run"))?;
            part.name = name.clone();
            checks.push(part);
        } else {
            let mut part: SummaryFile = serde_json::from_value(value)
                .with_context(|| format!("{name}: not the --stats JSON of a run"))?;
            stats::merge(std::slice::from_ref(&part))
                .with_context(|| format!("{name}: not the --stats JSON of a run"))?;
            part.name = name.clone();
            solves.push(part);
        }
        // a run counted twice: a copy of a part, or a merged file beside one of its parts
        for run in &runs {
            if let Some(first) = counted.insert(run.clone(), name.clone()) {
                let within = match first == name {
                    true => "twice in it".to_string(),
                    false => format!("in {first} already"),
                };
                anyhow::bail!(
                    "{name}: counts run {run}, which is counted {within}: its records would add \
                     up twice (name each run's stats once, and a merged file without its parts)"
                );
            }
        }
    }
    let (json, text) = if checks.is_empty() {
        let merged = stats::merge(&solves).context("merging")?;
        (serde_json::to_string_pretty(&merged), merged.to_string())
    } else {
        let merged = summary::merge(&checks).context("merging")?;
        (serde_json::to_string_pretty(&merged), merged.to_string())
    };
    let json = json.context("encoding the stats")?;
    let out = match early {
        Some(out) => out,
        None => plan.add(args.output.as_deref(), "output")?,
    };
    // a signal between emptying an output file and writing it lost the file's earlier content
    // (exit 143, nothing in its place): it now waits for the file's write to end, then ends the
    // run with 128 plus its number (a pipe's or a terminal's write is not waited for: its
    // reader may never read)
    let shown = super::output_name(args.output.as_deref());
    let to_file = args
        .output
        .as_deref()
        .filter(|path| path.as_os_str() != "-")
        .and_then(|path| std::fs::metadata(path).ok())
        .is_some_and(|m| m.is_file());
    let holds = Arc::new(Mutex::new(match to_file {
        true => "as it was",
        false => "may hold part of the stats",
    }));
    {
        let (holds, shown) = (Arc::clone(&holds), shown.clone());
        super::signals::Signals::install()?.on_first(move |signal| {
            let holds = *holds.lock().unwrap_or_else(PoisonError::into_inner);
            super::stderr_line(format_args!(
                "merge-stats: interrupted by {}: {shown} {holds}",
                super::signals::signal_name(signal)
            ));
            std::process::exit(128 + signal);
        })?;
    }
    let mut held = to_file.then(|| holds.lock().unwrap_or_else(PoisonError::into_inner));
    let mut out = plan.begin()?.take_whole(out);
    // the one output: a reader that went away asked for no more
    super::last_output(
        out.write_all((json + "\n").as_bytes())
            .and_then(|()| out.flush())
            .with_context(|| format!("writing {shown}")),
    )?;
    let whole = "was written whole before it";
    match held.as_mut() {
        Some(holds) => **holds = whole,
        None => *holds.lock().unwrap_or_else(PoisonError::into_inner) = whole,
    }
    drop(held);
    super::signals::let_a_signal_end_the_run();
    if !args.quiet {
        super::stderr_line(&text);
    }
    Ok(())
}

/// The run names a `--stats` file lists (`runs`: see `stats::run_id`), checked: none for a file
/// of a version before them (no key, or `null`); else a name for its one run, or up to one for
/// each part of a merge (fewer when some parts had none), each 32 lowercase hex digits as runs
/// write them, so that a name edited into another spelling (`ABC...`, ` abc...`) or a list
/// emptied by hand cannot let a run count twice.
fn run_names(value: &serde_json::Value) -> Result<Vec<String>, String> {
    let runs = match value.get("runs") {
        None | Some(serde_json::Value::Null) => return Ok(Vec::new()),
        Some(serde_json::Value::Array(runs)) => runs,
        Some(other) => return Err(format!("are {other}, not a list")),
    };
    let parts = value.get("parts").and_then(|p| p.as_u64());
    let most = parts.unwrap_or(1);
    if runs.is_empty() || runs.len() as u64 > most {
        return Err(format!(
            "list {} names for {most} run{}",
            runs.len(),
            if most == 1 { "" } else { "s" }
        ));
    }
    if parts.is_none() && runs.len() != 1 {
        return Err(format!("list {} names for one run", runs.len()));
    }
    runs.iter()
        .map(|run| match run.as_str() {
            Some(id)
                if id.len() == 32 && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) =>
            {
                Ok(id.to_string())
            }
            _ => Err(format!(
                "hold {run}, not a run's name (32 lowercase hex digits)"
            )),
        })
        .collect()
}

/// The largest `--stats` file read. A run's is a few kilobytes; a check's with its duplicate
/// classes grows with the number of class sizes seen, a few hundred bytes each at most.
const MAX_STATS_BYTES: u64 = 64 << 20;

/// The longest wall time a part may claim: a thousand years. (A larger one, `1e300`, made the
/// merge panic, and a negative one is no run's.)
const MAX_WALL_SECONDS: f64 = 1000.0 * 365.25 * 86400.0;

/// `sum` plus every whole number in `value`, or `None` when that overflows. Why all of them: a
/// merged count is the sum of some of the parts' numbers, so when the sum of all of them fits
/// in 64 bits none of the merge's sums wraps round (a crafted `2^64 - 1` twice gave 2^64 - 2
/// records, exit 0); real counts are far below.
fn add_counts(value: &serde_json::Value, sum: u64) -> Option<u64> {
    use serde_json::Value;
    match value {
        Value::Number(n) => sum.checked_add(n.as_u64().unwrap_or(0)),
        Value::Array(items) => items.iter().try_fold(sum, |s, v| add_counts(v, s)),
        Value::Object(map) => map.values().try_fold(sum, |s, v| add_counts(v, s)),
        _ => Some(sum),
    }
}
