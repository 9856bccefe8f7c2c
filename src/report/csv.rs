//! The CSV report: one row per dataset with every figure, the run info repeated in each row so
//! that rows of several runs can be concatenated and compared.

use serde::Serialize;

use super::{Exporter, Report, ReportError};

/// Writes the report as CSV.
#[derive(Debug, Clone, Copy, Default)]
pub struct CsvExporter;

/// One CSV row: the dataset's figures, then its baseline comparison, then the run.
#[derive(Serialize)]
struct Row<'a> {
    name: &'a str,
    path: &'a str,
    records: u64,
    malformed: u64,
    puzzles: u64,
    parse_seconds: f64,
    puzzles_per_sec: f64,
    usec_per_puzzle: f64,
    usec_per_puzzle_median: f64,
    usec_mean: f64,
    usec_p50: f64,
    usec_p99: f64,
    usec_max: f64,
    no_guess_percent: f64,
    guesses_per_puzzle: f64,
    solved: u64,
    unsolvable: u64,
    multiple: u64,
    contradiction: u64,
    checksum: &'a str,
    rounds: usize,
    baseline_usec_per_puzzle: Option<f64>,
    baseline_ratio: Option<f64>,
    threads: usize,
    limit: u32,
    shuffle: Option<u64>,
    sample: Option<usize>,
    seed: u64,
    min_seconds: f64,
    cpu: &'a str,
    cores: usize,
    tool: &'a str,
    commit: &'a str,
    rustc: &'a str,
    profile: &'a str,
    date: &'a str,
}

impl Exporter for CsvExporter {
    fn serialize(&self, report: &Report) -> Result<Vec<u8>, ReportError> {
        let error = |e: ::csv::Error| ReportError::Csv(e.to_string());
        let mut writer = ::csv::Writer::from_writer(Vec::new());
        let run = &report.run;
        for d in &report.datasets {
            writer
                .serialize(Row {
                    name: &d.name,
                    path: &d.path,
                    records: d.records,
                    malformed: d.malformed,
                    puzzles: d.puzzles,
                    parse_seconds: d.parse_seconds,
                    puzzles_per_sec: d.puzzles_per_sec,
                    usec_per_puzzle: d.usec_per_puzzle,
                    usec_per_puzzle_median: d.usec_per_puzzle_median,
                    usec_mean: d.usec_mean,
                    usec_p50: d.usec_p50,
                    usec_p99: d.usec_p99,
                    usec_max: d.usec_max,
                    no_guess_percent: d.no_guess_percent,
                    guesses_per_puzzle: d.guesses_per_puzzle,
                    solved: d.solved,
                    unsolvable: d.unsolvable,
                    multiple: d.multiple,
                    contradiction: d.contradiction,
                    checksum: &d.checksum,
                    rounds: d.rounds.len(),
                    baseline_usec_per_puzzle: d.baseline.as_ref().map(|b| b.usec_per_puzzle),
                    baseline_ratio: d.baseline.as_ref().map(|b| b.ratio),
                    threads: run.threads,
                    limit: run.limit,
                    shuffle: run.shuffle,
                    sample: run.sample,
                    seed: run.seed,
                    min_seconds: run.min_seconds,
                    cpu: &run.cpu,
                    cores: run.cores,
                    tool: &run.tool,
                    commit: &run.commit,
                    rustc: &run.rustc,
                    profile: &run.profile,
                    date: &run.date,
                })
                .map_err(error)?;
        }
        writer
            .into_inner()
            .map_err(|e| ReportError::Csv(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::sample;
    use super::*;

    #[test]
    fn one_row_per_dataset_under_one_header() {
        let bytes = CsvExporter.serialize(&sample()).unwrap();
        let mut reader = ::csv::Reader::from_reader(bytes.as_slice());
        let header = reader.headers().unwrap().clone();
        assert_eq!(&header[0], "name");
        assert_eq!(&header[7], "usec_per_puzzle");
        let rows: Vec<_> = reader.records().map(Result::unwrap).collect();
        assert_eq!(rows.len(), 3);
        assert!(rows.iter().all(|r| r.len() == header.len()));
        assert_eq!(&rows[1][0], "hardest_300.txt");
        assert_eq!(&rows[1][7], "41.5");
        // no baseline: empty cells
        assert_eq!(&rows[1][21], "");
    }
}
