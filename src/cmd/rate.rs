//! `rate`: every record's Sudoku Explainer rating (ER, EP, ED and the hardest technique)
//! computed on the pool, written in input order, then a summary on stderr that names the rater
//! and counts the ratings by band.

use std::num::NonZeroUsize;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{Result, bail};

use sudoku_batch::output::{self, OutputFormat, RateAnswer, RateColumns};
use sudoku_batch::rate::{self, End, RateError, tenths};
use sudoku_batch::status::Status;

use super::records::{self, RecordCommand, RunFacts, StatsJson};
use crate::cli::RateArgs;

/// Records a batch at most. A rating takes from tens of microseconds to a second (8.0 and up
/// average 34 ms), and a signal lets the batches in flight finish: with `solve`'s 2048 records
/// a batch, Ctrl-C took two minutes on a mixed set (-j1); 16 records keep it to about two
/// seconds there and leave the pool's threads evenly loaded.
const BATCH_CAP: NonZeroUsize = NonZeroUsize::new(16).expect("16 is not zero");

/// Counts for the summary.
#[derive(Default)]
struct Tally {
    /// Rated records by Explainer's bands: below 6.5, 6.5 to 7.9, 8.0 and up.
    bands: [u64; 3],
    /// Rated records known only to lie above `--max-er`.
    above: u64,
    /// Records whose path gets stuck, nested forcing chains of every level tried (Explainer's
    /// 20.0; not met on a puzzle with one solution so far): ER 9.5 or above.
    nested: u64,
    /// Records with no rating, by status.
    unrated: [u64; Status::ALL.len()],
    /// The highest ER and its technique.
    max: Option<(u32, String)>,
}

impl Tally {
    fn add(&mut self, answers: &[RateAnswer]) {
        for a in answers {
            let Some(r) = &a.rating else {
                self.unrated[a.status as usize] += 1;
                continue;
            };
            match r.end {
                End::Above => {
                    self.above += 1;
                    continue;
                }
                End::Stuck => {
                    self.nested += 1;
                    continue;
                }
                End::Solved => {}
            }
            let er = tenths(r.er);
            self.bands[match er {
                ..65 => 0,
                65..80 => 1,
                _ => 2,
            }] += 1;
            if self.max.as_ref().is_none_or(|(m, _)| er > *m) {
                let name = r.hardest.map(|t| t.name()).unwrap_or_default();
                self.max = Some((er, name));
            }
        }
    }

    fn report(&self, max_er: Option<u32>) -> String {
        let rated: u64 = self.bands.iter().sum::<u64>() + self.above + self.nested;
        let mut text = format!(
            "rated:      {rated} (ER below 6.5: {}, 6.5 to 7.9: {}, 8.0 and up: {}",
            self.bands[0], self.bands[1], self.bands[2]
        );
        if let Some(bound) = max_er {
            text += &format!("; above {}.{}: {}", bound / 10, bound % 10, self.above);
        }
        if self.nested > 0 {
            text += &format!(
                "; stuck, every technique tried (Explainer's 20.0, written >9.4): {}",
                self.nested
            );
        }
        text += ")";
        if let Some((er, name)) = &self.max {
            text += &format!("; hardest {}.{} ({name})", er / 10, er % 10);
        }
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
        let tenths = |er: u32| format!("{}.{}", er / 10, er % 10);
        let no_rating: serde_json::Map<String, serde_json::Value> = Status::ALL
            .iter()
            .filter(|s| self.unrated[**s as usize] > 0)
            .map(|s| (s.to_string(), self.unrated[*s as usize].into()))
            .collect();
        serde_json::json!({
            "command": "rate",
            "version": env!("CARGO_PKG_VERSION"),
            "rater": rate::RATER,
            "settings": {
                "max_er": options.max_er.map(tenths),
                "explain": options.explain,
            },
            "records": run.records,
            "malformed": run.malformed,
            "rated": self.bands.iter().sum::<u64>() + self.above + self.nested,
            "er_below_6_5": self.bands[0],
            "er_6_5_to_7_9": self.bands[1],
            "er_8_0_and_up": self.bands[2],
            "above_max_er": self.above,
            "er_9_5_or_above_not_rated_exactly": self.nested,
            "no_rating": no_rating,
            "hardest": self.max.as_ref().map(|(er, name)| serde_json::json!({
                "er": tenths(*er),
                "technique": name,
            })),
            "seconds": run.seconds,
            "threads": run.threads,
            "interrupted": run.interrupted,
        })
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
                    Err(RateError::Multiple) => (Status::Multiple, None),
                    Err(RateError::Unsolvable) => (Status::Unsolvable, None),
                    Err(RateError::Contradiction) => (Status::Contradiction, None),
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
