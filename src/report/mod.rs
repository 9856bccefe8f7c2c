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
    /// Encoding or decoding JSON failed.
    #[error("JSON: {0}")]
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
}

#[derive(Debug, Clone, Deserialize)]
struct BaselineDataset {
    name: String,
    usec_per_puzzle: f64,
}

impl Baseline {
    /// Reads the JSON of an earlier report (only `datasets[].name` and `usec_per_puzzle` are used).
    pub fn from_json(json: &str) -> Result<Baseline, ReportError> {
        Ok(serde_json::from_str(json)?)
    }
}

impl Report {
    /// Compares each dataset with the first of the same name in `baseline`; returns the names the
    /// baseline lacks (or has without a time).
    pub fn compare_with(&mut self, baseline: &Baseline) -> Vec<String> {
        let mut missing = Vec::new();
        for d in &mut self.datasets {
            let old = baseline.datasets.iter().find(|b| b.name == d.name);
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
        missing
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
    fn baseline_ratios_match_by_name() {
        let mut report = sample();
        let mut old = sample();
        old.datasets[0].usec_per_puzzle *= 2.0;
        old.datasets.remove(2);
        let json = serde_json::to_string(&old).unwrap();
        let missing = report.compare_with(&Baseline::from_json(&json).unwrap());
        assert_eq!(missing, vec!["kaggle_200.csv".to_string()]);
        let ratio = |i: usize| report.datasets[i].baseline.as_ref().map(|b| b.ratio);
        assert_eq!(ratio(0), Some(0.5));
        assert_eq!(ratio(1), Some(1.0));
        assert_eq!(ratio(2), None);
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
