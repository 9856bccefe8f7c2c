//! `merge-stats`: the `--stats` JSON of runs made side by side, added up into one summary.

use std::io::{Read, Write};

use anyhow::{Context, Result};

use sudoku_batch::check::summary::{self, CheckSummary};
use sudoku_batch::stats::{self, SummaryFile};

use super::files::OutputPlan;
use crate::cli::MergeStatsArgs;

/// Runs `merge-stats`.
pub fn run(args: &MergeStatsArgs) -> Result<()> {
    // one run's stats named twice (`part-1.json ./part-1.json`, a link) would count it twice
    if let Some((i, j)) = super::files::same_file_twice(&args.inputs) {
        anyhow::bail!(
            "{}: the same file as {}: its run would count twice (name each part once)",
            args.inputs[j].display(),
            args.inputs[i].display()
        );
    }
    let mut plan = OutputPlan::new(&args.inputs)?;
    let out = plan.add(args.output.as_deref(), "output")?;
    // the files of one kind: solve's, or check's (told by their "command")
    let (mut solves, mut checks) = (Vec::new(), Vec::new());
    for path in &args.inputs {
        let name = super::sources(std::slice::from_ref(path))
            .first()
            .map_or_else(String::new, |s| s.name());
        let text = if path.as_os_str() == "-" {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .with_context(|| format!("{name}: cannot read"))?;
            text
        } else {
            std::fs::read_to_string(path).with_context(|| format!("{name}: cannot read"))?
        };
        let value: serde_json::Value = serde_json::from_str(&text)
            .with_context(|| format!("{name}: not the --stats JSON of a run"))?;
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
            part.name = name;
            checks.push(part);
        } else {
            let mut part: SummaryFile = serde_json::from_value(value)
                .with_context(|| format!("{name}: not the --stats JSON of a run"))?;
            part.name = name;
            solves.push(part);
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
    let mut out = plan.begin()?.take(out);
    out.write_all((json + "\n").as_bytes())
        .and_then(|()| out.flush())
        .with_context(|| format!("writing {}", super::output_name(args.output.as_deref())))?;
    if !args.quiet {
        super::stderr_line(&text);
    }
    Ok(())
}
