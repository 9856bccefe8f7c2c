//! The Markdown report: one table row per dataset, in the spirit of tdoku's
//! `puzzles/sec | usec/puzzle | %no_guess | guesses/puzzle`, and a line saying where and how it ran.

use std::fmt::Write;

use super::{Exporter, Report, ReportError, usec};
use crate::bench::RunInfo;

/// Writes the report as a Markdown table.
#[derive(Debug, Clone, Copy, Default)]
pub struct MarkdownExporter;

impl Exporter for MarkdownExporter {
    fn serialize(&self, report: &Report) -> Result<Vec<u8>, ReportError> {
        Ok(markdown(report).into_bytes())
    }
}

fn markdown(report: &Report) -> String {
    let contradictions = report.datasets.iter().any(|d| d.contradiction > 0);
    let baseline = report.has_baseline();
    let mut head = vec![
        ("dataset", ":--"),
        ("puzzles", "--:"),
        ("puzzles/s", "--:"),
        ("µs/puzzle", "--:"),
        ("median round", "--:"),
        ("p50 µs", "--:"),
        ("p99 µs", "--:"),
        ("max µs", "--:"),
        ("% no guess", "--:"),
        ("guesses/puzzle", "--:"),
        ("solved", "--:"),
        ("unsolvable", "--:"),
        ("multiple", "--:"),
    ];
    if contradictions {
        head.push(("contradiction", "--:"));
    }
    head.push(("checksum", ":--"));
    if baseline {
        head.push(("vs baseline", "--:"));
    }
    let mut out = String::new();
    let row = |out: &mut String, cells: &[String]| {
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    };
    row(
        &mut out,
        &head.iter().map(|h| h.0.to_string()).collect::<Vec<_>>(),
    );
    row(
        &mut out,
        &head.iter().map(|h| h.1.to_string()).collect::<Vec<_>>(),
    );
    for d in &report.datasets {
        // a dataset with no puzzle has no figures: its zeros read as the fastest of all
        let figure = |text: String| match d.puzzles {
            0 => "-".to_string(),
            _ => text,
        };
        let mut cells = vec![
            super::markdown_cell(&d.name),
            d.puzzles.to_string(),
            figure(format!("{:.0}", d.puzzles_per_sec)),
            figure(usec(d.usec_per_puzzle)),
            figure(usec(d.usec_per_puzzle_median)),
            figure(usec(d.usec_p50)),
            figure(usec(d.usec_p99)),
            figure(usec(d.usec_max)),
            figure(format!("{:.1}", d.no_guess_percent)),
            figure(format!("{:.2}", d.guesses_per_puzzle)),
            d.solved.to_string(),
            d.unsolvable.to_string(),
            d.multiple.to_string(),
        ];
        if contradictions {
            cells.push(d.contradiction.to_string());
        }
        cells.push(format!("`{}`", d.checksum));
        if baseline {
            cells.push(
                d.baseline
                    .as_ref()
                    .map_or_else(|| "-".to_string(), |b| format!("{:.2}", b.ratio)),
            );
        }
        row(&mut out, &cells);
    }
    out.push('\n');
    out.push_str(&run_line(&report.run));
    let skipped: u64 = report.datasets.iter().map(|d| d.malformed).sum();
    if skipped > 0 {
        let records = if skipped == 1 { "record" } else { "records" };
        let _ = write!(out, " {skipped} malformed {records} skipped.");
    }
    if baseline {
        out.push_str(" vs baseline: this run's µs/puzzle over the baseline's (below 1 is faster).");
    }
    out.push('\n');
    out
}

/// One sentence: tool, build, machine, options, date.
fn run_line(run: &RunInfo) -> String {
    let commit: String = run.commit.chars().take(12).collect();
    let mut line = format!(
        "{} ({commit}, {} build, {}) on {} ({} logical CPUs), {} thread{}, {}; best of {} round{} of at least {} s",
        run.tool,
        run.profile,
        run.rustc,
        run.cpu,
        run.cores,
        run.threads,
        if run.threads == 1 { "" } else { "s" },
        if run.limit >= 2 {
            "limit 2 (proof of uniqueness)"
        } else {
            "limit 1 (first solution)"
        },
        run.rounds,
        if run.rounds == 1 { "" } else { "s" },
        run.min_seconds,
    );
    if let Some(n) = run.sample {
        let _ = write!(
            line,
            "; a sample of at most {n} puzzles a dataset (seed {})",
            run.seed
        );
    }
    if let Some(seed) = run.shuffle {
        let _ = write!(line, "; shuffled (seed {seed})");
    }
    let _ = write!(line, "; {}.", run.date);
    line
}

#[cfg(test)]
mod tests {
    use super::super::tests::sample;
    use super::*;

    #[test]
    fn table_has_a_row_per_dataset_and_the_run_line() {
        let text = markdown(&sample());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2 + 3 + 2);
        assert!(lines[0].starts_with("| dataset | puzzles | puzzles/s | µs/puzzle |"));
        assert!(
            lines[2].starts_with("| easy_300.txt | 300 | 800000 | 1.25 |"),
            "{}",
            lines[2]
        );
        assert!(!lines[0].contains("contradiction") && !lines[0].contains("baseline"));
        assert!(lines[6].contains("1 thread, limit 1 (first solution); best of 3 rounds"));
        assert!(lines[6].contains("shuffled (seed 7); 2026-11-22T05:40:00Z."));
        assert!(lines[6].ends_with("3 malformed records skipped."));
    }

    #[test]
    fn the_run_line_names_the_sample_as_at_most_a_dataset() {
        // a dataset smaller than the sample is timed whole: the count is in its row
        let mut report = sample();
        report.run.sample = Some(1000);
        let text = markdown(&report);
        assert!(
            text.contains("; a sample of at most 1000 puzzles a dataset (seed "),
            "{text}"
        );
    }

    #[test]
    fn columns_for_contradictions_and_baseline_appear_when_needed() {
        let mut report = sample();
        report.datasets[1].contradiction = 2;
        report.datasets[0].baseline = Some(crate::bench::Comparison {
            usec_per_puzzle: 2.468,
            ratio: 0.5,
        });
        let text = markdown(&report);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].ends_with("| contradiction | checksum | vs baseline |"));
        assert!(lines[2].ends_with("| 0 | `0123456789abcdef` | 0.50 |"));
        assert!(lines[3].ends_with("| 2 | `0123456789abcdef` | - |"));
    }
}
