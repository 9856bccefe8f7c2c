//! Where and how a benchmark ran: the tool, its commit and compiler, the CPU, and the run's
//! options, as a report's header.

use std::num::NonZeroUsize;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::options::Options;

/// Where and how a benchmark ran.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunInfo {
    /// The tool's name and version.
    pub tool: String,
    /// Git commit the tool was built from (`unknown` outside a git checkout).
    pub commit: String,
    /// `rustc -V` of the compiler that built the tool.
    pub rustc: String,
    /// Cargo profile of the build (`release`, `debug`).
    pub profile: String,
    /// CPU model name.
    pub cpu: String,
    /// Logical CPUs of the machine.
    pub cores: usize,
    /// Solver threads used.
    pub threads: usize,
    /// Solutions searched per puzzle (1 or 2).
    pub limit: u32,
    /// Minimum seconds per round.
    pub min_seconds: f64,
    /// Timed rounds per dataset.
    pub rounds: u32,
    /// `--shuffle` seed, if any.
    pub shuffle: Option<u64>,
    /// `--sample` size, if any.
    pub sample: Option<usize>,
    /// Seed of the sample.
    pub seed: u64,
    /// When the run started, UTC, `YYYY-MM-DDTHH:MM:SSZ`.
    pub date: String,
}

impl RunInfo {
    /// The run info of this process and machine, now.
    pub fn collect(options: &Options, threads: usize) -> RunInfo {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let (cpu, processors) = parse_cpuinfo(&cpuinfo);
        let cores = match processors {
            0 => std::thread::available_parallelism().map_or(1, NonZeroUsize::get),
            n => n,
        };
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        RunInfo {
            tool: concat!("sudoku-batch ", env!("CARGO_PKG_VERSION")).to_string(),
            commit: env!("SUDOKU_BATCH_COMMIT").to_string(),
            rustc: env!("SUDOKU_BATCH_RUSTC").to_string(),
            profile: env!("SUDOKU_BATCH_PROFILE").to_string(),
            cpu,
            cores,
            threads,
            limit: options.limit,
            min_seconds: options.min_seconds,
            rounds: options.rounds.get(),
            shuffle: options.shuffle,
            sample: options.sample.map(NonZeroUsize::get),
            seed: options.seed,
            date: utc_date(now),
        }
    }
}

/// The CPU model (`model name`, else `Processor`/`cpu model`; `unknown` if none) and the count of
/// `processor` entries of /proc/cpuinfo text.
fn parse_cpuinfo(text: &str) -> (String, usize) {
    let mut model = None;
    let mut processors = 0;
    for line in text.lines() {
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let (key, value) = (key.trim(), value.trim());
        if key == "processor" {
            processors += 1;
        } else if model.is_none()
            && matches!(key, "model name" | "Processor" | "cpu model")
            && !value.is_empty()
        {
            model = Some(value.to_string());
        }
    }
    (model.unwrap_or_else(|| "unknown".to_string()), processors)
}

/// `YYYY-MM-DDTHH:MM:SSZ` of seconds since 1970 (UTC; the civil calendar from day numbers).
fn utc_date(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // days since 0000-03-01, in 400-year eras of 146097 days
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_cpu_model_and_processor_count() {
        let text = "processor\t: 0\nmodel name\t: AMD EPYC 7B13\nflags\t: x\n\n\
                    processor\t: 1\nmodel name\t: AMD EPYC 7B13\n";
        assert_eq!(parse_cpuinfo(text), ("AMD EPYC 7B13".to_string(), 2));
        assert_eq!(parse_cpuinfo(""), ("unknown".to_string(), 0));
    }

    #[test]
    fn formats_utc_dates() {
        assert_eq!(utc_date(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc_date(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(utc_date(1_795_320_045), "2026-11-22T04:00:45Z");
    }
}
