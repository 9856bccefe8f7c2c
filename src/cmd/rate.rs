//! `rate`: every record's Sudoku Explainer rating (ER, EP, ED and the hardest technique)
//! computed on the pool, written in input order, then a summary on stderr that names the rater
//! and counts the ratings by band.

use std::num::NonZeroUsize;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{Result, bail};

use sudoku_batch::output::{self, OutputFormat, RateAnswer, RateColumns};
use sudoku_batch::rate;
use sudoku_batch::ratings::{RatingCounts, Tenths};
use sudoku_batch::status::Status;

use super::records::{self, RecordCommand, RunFacts, StatsJson};
use crate::cli::RateArgs;

/// Records a batch at most. A rating takes from tens of microseconds to a second (8.0 and up
/// average 34 ms), and a signal lets the records under way finish: with `solve`'s 2048 records
/// a batch, Ctrl-C took two minutes on a mixed set (-j1). A batch's records are rated one after
/// another on one thread (see `pipeline::map_indexed_prefix_into`), so batches are small: each
/// thread has one, and the first records of a file reach the output a batch of 4 later.
pub(super) const BATCH_CAP: NonZeroUsize = NonZeroUsize::new(4).expect("4 is not zero");

/// Counts for the summary.
#[derive(Default)]
struct Tally {
    /// Rated records by band (shared with `check --rate`).
    counts: RatingCounts,
    /// Records with no rating, by status.
    unrated: [u64; Status::ALL.len()],
}

impl Tally {
    fn add(&mut self, answers: &[RateAnswer]) {
        for a in answers {
            match &a.rating {
                Some(r) => self.counts.add(r),
                None => self.unrated[a.status as usize] += 1,
            }
        }
    }

    fn report(&self, max_er: Option<u32>) -> String {
        let mut text = self.counts.line(max_er);
        let unrated: Vec<String> = Status::ALL
            .iter()
            .filter(|s| self.unrated[**s as usize] > 0)
            .map(|s| format!("{} {}", s, self.unrated[*s as usize]))
            .collect();
        if !unrated.is_empty() {
            text += &format!("\nno rating:  {}", unrated.join(", "));
        }
        text += &format!("\nrater:      {}", rate::RATER);
        text
    }

    /// The `--stats` JSON: the rater and its settings, the run's facts and the counts.
    fn json(&self, options: &rate::Options, run: &RunFacts) -> serde_json::Value {
        let no_rating: serde_json::Map<String, serde_json::Value> = Status::ALL
            .iter()
            .filter(|s| self.unrated[**s as usize] > 0)
            .map(|s| (s.to_string(), self.unrated[*s as usize].into()))
            .collect();
        let mut json = serde_json::json!({
            "command": "rate",
            "version": env!("CARGO_PKG_VERSION"),
            "rater": rate::RATER,
            "settings": {
                "max_er": options.max_er.map(|t| Tenths(t).to_string()),
                "explain": options.explain,
            },
            "records": run.records,
            "malformed": run.malformed,
            "no_rating": no_rating,
            "seconds": run.seconds,
            "threads": run.threads,
            "interrupted": run.interrupted,
        });
        // the counts at the top level, as they always were
        if let (Some(all), Ok(serde_json::Value::Object(counts))) =
            (json.as_object_mut(), serde_json::to_value(&self.counts))
        {
            all.extend(counts);
        }
        json
    }
}

/// Runs `rate`; the exit code is 0, or 128 plus the number of a signal that stopped it.
pub fn run(args: &RateArgs) -> Result<ExitCode> {
    if args.explain && args.input.pipe {
        bail!("--explain writes several lines per record: it does not go with --pipe");
    }
    let explicit = super::record_format(&args.out);
    if args.explain && matches!(explicit, OutputFormat::Csv | OutputFormat::Grid) {
        bail!(
            "--explain writes line or jsonl output, not {}",
            explicit.name()
        );
    }
    let options = rate::Options {
        max_er: args.max_er,
        explain: args.explain,
    };
    let columns = RateColumns {
        max_er: args.max_er,
        explain: args.explain,
    };
    let tally = Mutex::new(Tally::default());
    let stats_json = |run: &RunFacts| {
        tally
            .lock()
            .map(|t| t.json(&options, run))
            .unwrap_or_default()
    };
    let out = &args.out;
    records::run(&RecordCommand::<RateAnswer> {
        name: "rate",
        input: &args.input,
        out,
        setup: &|reader| {
            let resolved = super::record_format(out).resolve(reader.format());
            if args.explain && !matches!(resolved, OutputFormat::Line | OutputFormat::Jsonl) {
                bail!(
                    "--explain writes line or jsonl output, not {} (add -O line or -O jsonl)",
                    resolved.name()
                );
            }
            Ok(())
        },
        format: &|reader, options, format| {
            output::rate_formatter(format, reader.header(), options, columns)
        },
        answer: &|record| match &record.puzzle {
            Ok(puzzle) => {
                let start = Instant::now();
                let result = rate::rate(puzzle, &options);
                let nanos = start.elapsed().as_nanos() as u64;
                let (status, rating) = match result {
                    Ok(r) => (Status::Unique, Some(r)),
                    Err(e) => (Status::from(e), None),
                };
                RateAnswer {
                    status,
                    rating,
                    nanos,
                }
            }
            Err(_) => RateAnswer {
                status: Status::Malformed,
                rating: None,
                nanos: 0,
            },
        },
        no_timings: args.no_timings,
        batch_cap: Some(BATCH_CAP),
        tally: &|answers| {
            if let Ok(mut t) = tally.lock() {
                t.add(answers);
            }
        },
        report: &|| {
            tally
                .lock()
                .map(|t| t.report(args.max_er))
                .unwrap_or_default()
        },
        stats: args
            .stats
            .as_deref()
            .map(|path| (path, &stats_json as &StatsJson<'_>)),
    })
}
