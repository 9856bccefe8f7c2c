//! Benchmark reports: one exporter per format (markdown, csv, json, svg) behind the [`Exporter`]
//! trait, all drawn from the same [`Report`], and the reading of an earlier JSON report as a
//! baseline.

mod csv;
mod json;
mod markdown;
mod svg;

use serde::{Deserialize, Serialize};

use crate::bench::{Comparison, DatasetResult, RunInfo};

pub use self::csv::CsvExporter;
pub use self::json::JsonExporter;
pub use self::markdown::MarkdownExporter;
pub use self::svg::SvgExporter;

/// Text for a Markdown table cell, shown as it is: `|` and the punctuation Markdown reads as
/// emphasis, code or links backslash-escaped (`_` only where it could open or close emphasis,
/// so `easy_300.txt` stays readable as raw text), `&` and `<` as entities, line breaks and other
/// control characters as spaces: any file name or detail stays in its cell and reads as
/// written (a file `*hard*.txt` is not `hard.txt` in italics).
pub(crate) fn markdown_cell(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let word = |i: Option<usize>| {
        i.and_then(|i| chars.get(i))
            .is_some_and(|c| c.is_alphanumeric())
    };
    let mut out = String::with_capacity(text.len());
    for (i, &ch) in chars.iter().enumerate() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '_' if word(i.checked_sub(1)) && word(Some(i + 1)) => out.push('_'),
            '|' | '\\' | '*' | '_' | '`' | '[' | ']' | '~' => {
                out.push('\\');
                out.push(ch);
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A whole benchmark run: where and how it ran, and one result per dataset.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Machine, build and options of the run.
    pub run: RunInfo,
    /// One entry per dataset, in the order given.
    pub datasets: Vec<DatasetResult>,
}

/// Why a report could not be made or read.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// Encoding or decoding JSON failed. (Transparent: with its text in the message as well as
    /// its source, a chain of errors said it twice.)
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// Writing CSV failed.
    #[error("CSV: {0}")]
    Csv(String),
    /// Drawing the chart failed.
    #[error("SVG chart: {0}")]
    Svg(String),
}

/// A report format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// A Markdown table and a line of run info.
    Markdown,
    /// One CSV row per dataset, run info in every row.
    Csv,
    /// The whole [`Report`] as JSON.
    Json,
    /// A chart: µs/puzzle per dataset (log scale) and the per-puzzle time distribution.
    Svg,
}

/// Turns a report into the bytes of one format.
pub trait Exporter {
    /// The report in this exporter's format.
    fn serialize(&self, report: &Report) -> Result<Vec<u8>, ReportError>;
}

/// The exporter of `format`.
pub fn exporter(format: Format) -> Box<dyn Exporter> {
    match format {
        Format::Markdown => Box::new(MarkdownExporter),
        Format::Csv => Box::new(CsvExporter),
        Format::Json => Box::new(JsonExporter),
        Format::Svg => Box::new(SvgExporter),
    }
}

/// An earlier report, as far as a comparison needs it (older reports may lack other fields).
#[derive(Debug, Clone, Deserialize)]
pub struct Baseline {
    datasets: Vec<BaselineDataset>,
    /// Its run's options (absent in a report that has none).
    #[serde(default)]
    run: Option<BaselineRun>,
}

/// What comparing needs of a baseline's run: the limit (the checksum of a unique puzzle's
/// answers is the same at limit 1 and 2, the work is not).
#[derive(Debug, Clone, Deserialize)]
struct BaselineRun {
    #[serde(default)]
    limit: Option<u32>,
}

#[derive(Debug, Clone, Deserialize)]
struct BaselineDataset {
    name: String,
    usec_per_puzzle: f64,
    /// The checksum of its answers (absent in a report that has none: then compared as it is).
    #[serde(default)]
    checksum: Option<String>,
}

impl Baseline {
    /// Reads the JSON of an earlier report (only `datasets[].name`, `usec_per_puzzle` and
    /// `checksum` are used).
    pub fn from_json(json: &str) -> Result<Baseline, ReportError> {
        Ok(serde_json::from_str(json)?)
    }
}

impl Report {
    /// Compares each dataset with the first of the same name in `baseline` that timed the same
    /// work (the same `--limit` and checksum of answers); returns the names the baseline lacks (or has
    /// without a time), and those it has only for other work.
    ///
    /// Why the checksum: datasets are matched by file name, so a baseline made with another
    /// `--limit`, `--shuffle` or `--sample`, or from another file of the same name, was compared
    /// as if it were this one (a ratio of 0.03 for Kaggle's puzzles against the hardest list's).
    /// The checksum covers the puzzles, their order and orientation, and the answers.
    pub fn compare_with(&mut self, baseline: &Baseline) -> (Vec<String>, Vec<String>) {
        let (mut missing, mut other) = (Vec::new(), Vec::new());
        for d in &mut self.datasets {
            let named = || baseline.datasets.iter().filter(|b| b.name == d.name);
            let limit = baseline.run.as_ref().and_then(|r| r.limit);
            let same = |b: &&BaselineDataset| {
                limit.is_none_or(|l| l == self.run.limit)
                    && b.checksum.as_ref().is_none_or(|c| *c == d.checksum)
            };
            let old = named().find(same);
            if old.is_none() && named().next().is_some() {
                other.push(d.name.clone());
                d.baseline = None;
                continue;
            }
            d.baseline = match old {
                Some(b) if b.usec_per_puzzle > 0.0 => Some(Comparison {
                    usec_per_puzzle: b.usec_per_puzzle,
                    ratio: d.usec_per_puzzle / b.usec_per_puzzle,
                }),
                _ => {
                    missing.push(d.name.clone());
                    None
                }
            };
        }
        (missing, other)
    }

    /// True when some dataset has a baseline comparison.
    fn has_baseline(&self) -> bool {
        self.datasets.iter().any(|d| d.baseline.is_some())
    }
}

/// µs figures with precision that suits their size: 2 decimals below 100, 1 below 1000, else none.
fn usec(v: f64) -> String {
    if v < 100.0 {
        format!("{v:.2}")
    } else if v < 1000.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.0}")
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A fixed report (tests/fixtures/report.json, also behind the exporters' golden files).
    pub(crate) fn sample() -> Report {
        serde_json::from_str(include_str!("../../tests/fixtures/report.json"))
            .expect("fixture report")
    }

    #[test]
    fn markdown_cells_show_any_name_as_written() {
        let cases = [
            ("easy_300.txt", "easy_300.txt"),
            ("*hard*.txt", "\\*hard\\*.txt"),
            ("_x_.txt", "\\_x\\_.txt"),
            ("a|b\\c", "a\\|b\\\\c"),
            ("a&amp;b <i>", "a&amp;amp;b &lt;i>"),
            ("`code` [l](u) ~~s~~", "\\`code\\` \\[l\\](u) \\~\\~s\\~\\~"),
            ("line\nbreak\t", "line break "),
        ];
        for (name, cell) in cases {
            assert_eq!(markdown_cell(name), cell, "{name}");
        }
    }

    #[test]
    fn baseline_ratios_match_by_name() {
        let mut report = sample();
        let mut old = sample();
        old.datasets[0].usec_per_puzzle *= 2.0;
        old.datasets.remove(2);
        let json = serde_json::to_string(&old).unwrap();
        let (missing, other) = report.compare_with(&Baseline::from_json(&json).unwrap());
        assert_eq!(missing, vec!["kaggle_200.csv".to_string()]);
        assert!(other.is_empty());
        let ratio = |i: usize| report.datasets[i].baseline.as_ref().map(|b| b.ratio);
        assert_eq!(ratio(0), Some(0.5));
        assert_eq!(ratio(1), Some(1.0));
        assert_eq!(ratio(2), None);
    }

    #[test]
    fn a_baseline_of_other_work_under_the_same_name_is_not_compared() {
        // another --limit, --shuffle or --sample, or another file of that name: the checksum
        // of the answers differs (a ratio of 0.03 was shown for Kaggle against the hardest)
        let mut report = sample();
        let mut old = sample();
        old.datasets[0].checksum = "0000000000000000".to_string();
        old.datasets[1].usec_per_puzzle *= 2.0;
        let json = serde_json::to_string(&old).unwrap();
        let (missing, other) = report.compare_with(&Baseline::from_json(&json).unwrap());
        assert!(missing.is_empty());
        assert_eq!(other, vec![report.datasets[0].name.clone()]);
        assert!(report.datasets[0].baseline.is_none());
        assert_eq!(report.datasets[1].baseline.as_ref().unwrap().ratio, 0.5);
        // the first of that name with the same checksum is the one compared
        let mut twice = old.clone();
        let mut same = sample().datasets[0].clone();
        same.usec_per_puzzle *= 4.0;
        twice.datasets.push(same);
        let json = serde_json::to_string(&twice).unwrap();
        let (_, other) = report.compare_with(&Baseline::from_json(&json).unwrap());
        assert!(other.is_empty());
        assert_eq!(report.datasets[0].baseline.as_ref().unwrap().ratio, 0.25);
        // another limit: the same checksum for unique puzzles, other work all the same
        let mut limit = sample();
        limit.run.limit = 3 - report.run.limit;
        let json = serde_json::to_string(&limit).unwrap();
        let (_, other) = report.compare_with(&Baseline::from_json(&json).unwrap());
        assert_eq!(other.len(), report.datasets.len());
    }

    #[test]
    fn baseline_needs_only_names_and_times() {
        let mut report = sample();
        let json = r#"{"datasets":[{"name":"hardest_300.txt","usec_per_puzzle":83.0}]}"#;
        report.compare_with(&Baseline::from_json(json).unwrap());
        assert_eq!(report.datasets[1].baseline.as_ref().unwrap().ratio, 0.5);
        assert!(Baseline::from_json("{}").is_err());
        assert!(Baseline::from_json("not json").is_err());
    }

    #[test]
    fn json_report_reads_back_to_the_same_json() {
        // (serde_json may be one ulp off on reading floats back, so compare the JSON text)
        let report = sample();
        let bytes = JsonExporter.serialize(&report).unwrap();
        let back: Report = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(JsonExporter.serialize(&back).unwrap(), bytes);
        assert_eq!(back.datasets.len(), 3);
        assert_eq!(back.run, report.run);
    }

    #[test]
    fn usec_precision_follows_size() {
        assert_eq!(usec(1.23456), "1.23");
        assert_eq!(usec(123.456), "123.5");
        assert_eq!(usec(12345.6), "12346");
    }
}
