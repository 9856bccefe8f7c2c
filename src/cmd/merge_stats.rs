//! `merge-stats`: the `--stats` JSON of runs made side by side, added up into one summary.

use std::io::{Read, Write};

use anyhow::{Context, Result};

use sudoku_batch::stats::{self, SummaryFile};

use super::files::OutputPlan;
use crate::cli::MergeStatsArgs;

/// Runs `merge-stats`.
pub fn run(args: &MergeStatsArgs) -> Result<()> {
    let mut plan = OutputPlan::new(&args.inputs)?;
    let out = plan.add(args.output.as_deref(), "output")?;
    let mut parts = Vec::with_capacity(args.inputs.len());
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
        let mut part: SummaryFile = serde_json::from_str(&text)
            .with_context(|| format!("{name}: not the --stats JSON of a run"))?;
        part.name = name;
        parts.push(part);
    }
    let summary = stats::merge(&parts).context("merging")?;
    let mut out = plan.begin()?.take(out);
    let json = serde_json::to_string_pretty(&summary).context("encoding the stats")?;
    out.write_all((json + "\n").as_bytes())
        .and_then(|()| out.flush())
        .with_context(|| format!("writing {}", super::output_name(args.output.as_deref())))?;
    if !args.quiet {
        super::stderr_line(&summary);
    }
    Ok(())
}
