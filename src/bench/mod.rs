//! The in-memory benchmark harness: a dataset is read whole into memory (parse time measured apart),
//! optionally sampled and shuffled with a seed, solved once as a warm-up that validates every
//! solution and counts statuses and guesses, solved once more with each puzzle timed alone (the
//! per-puzzle distribution), then timed in rounds: each round repeats whole passes over the
//! dataset until `min_seconds` have gone by, and a round's figure is its time per pass. The best
//! and the median round are reported.
//!
//! Time comes from a [`Clock`], so tests (and report goldens) can run the harness on a
//! [`FakeClock`] that advances a fixed step per reading.
//!
//! This file holds the harness and the results it hands back; `options` says how to benchmark,
//! `clock` where time comes from, `dataset` what is timed, `checksum` sums up the answers and
//! `run_info` tells where and how the run ran, for a report.

use std::hint::black_box;

use serde::{Deserialize, Serialize};

use crate::input::InputError;
use crate::pipeline::Workers;
use crate::solver;
use crate::stats::Stats;
use crate::status::Status;

mod checksum;
mod clock;
mod dataset;
mod options;
mod run_info;

pub use self::checksum::checksum;
use self::clock::seconds;
pub use self::clock::{Clock, FakeClock, RealClock};
pub use self::dataset::{Dataset, dataset_name, puzzle_lines};
pub use self::options::{
    DEFAULT_LIMIT, DEFAULT_MIN_SECONDS, DEFAULT_ROUNDS, DEFAULT_SEED, DEFAULT_THREADS, Options,
};
pub use self::run_info::RunInfo;

/// Points of the per-puzzle time distribution kept in a result: quantiles 0%, 1%, ..., 100%.
const QUANTILES: usize = 101;

/// Why a benchmark stopped.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// Reading the dataset failed.
    #[error(transparent)]
    Input(#[from] InputError),
    /// The solver gave a grid that does not solve its puzzle: a bug, never a figure.
    #[error("{name}:{line}: the solver's answer does not solve the puzzle{shuffled}")]
    WrongSolution {
        /// Dataset name.
        name: String,
        /// Line of the puzzle in the dataset.
        line: u64,
        /// `" (shuffled)"` when the puzzle was transformed, else empty.
        shuffled: &'static str,
    },
}

/// One timed round.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Round {
    /// Whole passes over the dataset in the round.
    pub passes: u64,
    /// Seconds the round took.
    pub seconds: f64,
    /// Wall time per puzzle, microseconds: `seconds / (passes * puzzles)`.
    pub usec_per_puzzle: f64,
}

/// A comparison with the same dataset in an earlier report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// The earlier report's µs/puzzle (best round).
    pub usec_per_puzzle: f64,
    /// This run's µs/puzzle over the earlier one: below 1 is faster, above 1 slower.
    pub ratio: f64,
}

/// What the benchmark measured on one dataset.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DatasetResult {
    /// Short name (the file name).
    pub name: String,
    /// The input as given on the command line.
    pub path: String,
    /// Records read.
    pub records: u64,
    /// Records skipped because they are not puzzles.
    pub malformed: u64,
    /// Puzzles timed (after `--sample`).
    pub puzzles: u64,
    /// Seconds spent reading and parsing the input.
    pub parse_seconds: f64,
    /// Puzzles solved per second of wall time, best round.
    pub puzzles_per_sec: f64,
    /// Wall time per puzzle, microseconds, best round (with several threads: wall time over all
    /// puzzles, so the inverse of the throughput, not one puzzle's latency).
    pub usec_per_puzzle: f64,
    /// Wall time per puzzle, microseconds, median round.
    pub usec_per_puzzle_median: f64,
    /// Mean time of one solve, microseconds, each puzzle timed alone in a pass of its own.
    pub usec_mean: f64,
    /// Median time of one solve, microseconds (from a histogram, within about 2%).
    pub usec_p50: f64,
    /// 99th percentile of one solve's time, microseconds.
    pub usec_p99: f64,
    /// Longest solve, microseconds.
    pub usec_max: f64,
    /// Share of the puzzles solved (or proved unsolvable) without guessing, percent.
    pub no_guess_percent: f64,
    /// Mean guesses per puzzle.
    pub guesses_per_puzzle: f64,
    /// Puzzles with a solution: `solved` with limit 1, `unique` with limit 2.
    pub solved: u64,
    /// Puzzles with no solution.
    pub unsolvable: u64,
    /// Puzzles with two or more solutions (only found with limit 2).
    pub multiple: u64,
    /// Puzzles with two equal givens in a unit.
    pub contradiction: u64,
    /// FNV-1a 64 (hex) of what `sudoku-batch solve -O line` would print for these puzzles: the
    /// 81-digit solution or the status word, a line each. Equal checksums, equal answers.
    pub checksum: String,
    /// Every timed round, in order.
    pub rounds: Vec<Round>,
    /// Per-puzzle solve time at quantiles 0%, 1%, ..., 100%, microseconds (empty when no
    /// puzzles).
    pub quantiles_usec: Vec<f64>,
    /// Comparison with a baseline report, when one was given and has this dataset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline: Option<Comparison>,
}

/// Benchmarks one dataset: warm-up with validation, the per-puzzle pass, then the timed rounds.
pub fn run(
    set: &Dataset,
    options: &Options,
    workers: &Workers,
    clock: &dyn Clock,
) -> Result<DatasetResult, BenchError> {
    let limit = options.limit.clamp(1, 2);
    let unique = limit == 2;
    let puzzles = &set.puzzles;

    // warm-up: solve everything once, check every answer, count statuses and guesses
    let mut answers = workers.map(puzzles, |p| solver::answer(p, unique));
    for ((answer, puzzle), &line) in answers.iter().zip(puzzles).zip(&set.lines) {
        if answer.solution.is_some_and(|s| !s.solves(puzzle)) {
            return Err(BenchError::WrongSolution {
                name: set.path.clone(),
                line,
                shuffled: if set.shuffled { " (shuffled)" } else { "" },
            });
        }
    }
    let checksum = checksum(&answers);

    // the distribution: each puzzle timed alone
    let times = workers.map(puzzles, |p| {
        let start = clock.now();
        black_box(solver::solve(black_box(p), limit).ok());
        clock.now() - start
    });
    let mut stats = Stats::default();
    for (answer, nanos) in answers.iter_mut().zip(times) {
        answer.nanos = nanos;
        stats.add(answer);
    }

    // the timed rounds: whole passes until min_seconds, figure per pass
    let min_nanos = (options.min_seconds.max(0.0) * 1e9) as u64;
    let mut rounds = Vec::new();
    if !puzzles.is_empty() {
        for _ in 0..options.rounds.get() {
            let start = clock.now();
            let mut passes = 0u64;
            let elapsed = loop {
                let found: u32 = workers
                    .map(puzzles, |p| {
                        solver::solve(black_box(p), limit).map_or(0, |o| o.count)
                    })
                    .iter()
                    .sum();
                black_box(found);
                passes += 1;
                let elapsed = clock.now() - start;
                if elapsed >= min_nanos {
                    break elapsed;
                }
            };
            let seconds = seconds(elapsed);
            rounds.push(Round {
                passes,
                seconds,
                usec_per_puzzle: seconds * 1e6 / (passes as f64 * puzzles.len() as f64),
            });
        }
    }
    Ok(result(set, &stats, checksum, rounds))
}

/// The figures of a dataset from its counts, checksum and rounds.
fn result(set: &Dataset, stats: &Stats, checksum: String, rounds: Vec<Round>) -> DatasetResult {
    let mut per_pass: Vec<f64> = rounds.iter().map(|r| r.usec_per_puzzle).collect();
    per_pass.sort_by(f64::total_cmp);
    let best = per_pass.first().copied().unwrap_or(0.0);
    // the lower middle for an even count: a figure that was measured, not an average of two
    let median = per_pass
        .get(per_pass.len().saturating_sub(1) / 2)
        .copied()
        .unwrap_or(0.0);
    let summary = stats.summary(std::time::Duration::ZERO, 1);
    let times = stats.times();
    let micros = |ns: u64| ns as f64 / 1000.0;
    let quantiles_usec = if times.count() == 0 {
        Vec::new()
    } else {
        (0..QUANTILES)
            .map(|i| micros(times.quantile(i as f64 / (QUANTILES - 1) as f64)))
            .collect()
    };
    DatasetResult {
        name: set.name.clone(),
        path: set.path.clone(),
        records: set.records,
        malformed: set.malformed,
        puzzles: set.puzzles.len() as u64,
        parse_seconds: set.parse_seconds,
        puzzles_per_sec: if best > 0.0 { 1e6 / best } else { 0.0 },
        usec_per_puzzle: best,
        usec_per_puzzle_median: median,
        usec_mean: summary.micros.mean,
        usec_p50: summary.micros.p50,
        usec_p99: summary.micros.p99,
        usec_max: summary.micros.max,
        no_guess_percent: summary.no_guess_share * 100.0,
        guesses_per_puzzle: summary.guesses_per_puzzle,
        solved: stats.count(Status::Solved) + stats.count(Status::Unique),
        unsolvable: stats.count(Status::Unsolvable),
        multiple: stats.count(Status::Multiple),
        contradiction: stats.count(Status::Contradiction),
        checksum,
        rounds,
        quantiles_usec,
        baseline: None,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::num::{NonZeroU32, NonZeroUsize};

    use super::*;
    use crate::grid::Grid;

    const EASY: &str =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

    pub(crate) fn dataset(puzzles: &[Grid]) -> Dataset {
        Dataset {
            name: "set".into(),
            path: "dir/set".into(),
            records: puzzles.len() as u64,
            puzzles: puzzles.to_vec(),
            lines: (1..=puzzles.len() as u64).collect(),
            ..Dataset::default()
        }
    }

    fn one_thread() -> Workers {
        Workers::new(NonZeroUsize::MIN).unwrap()
    }

    pub(crate) fn easy() -> Grid {
        EASY.parse().unwrap()
    }

    #[test]
    fn fake_clock_rounds_repeat_passes_until_min_seconds() {
        // 4 puzzles; per pass one clock reading (after the pass), each 1 ms apart
        let set = dataset(&[easy(); 4]);
        let options = Options {
            min_seconds: 0.0105,
            rounds: NonZeroU32::new(2).unwrap(),
            ..Options::default()
        };
        let clock = FakeClock::new(1_000_000);
        let r = run(&set, &options, &one_thread(), &clock).unwrap();
        assert_eq!(r.rounds.len(), 2);
        for round in &r.rounds {
            // readings 1 ms apart: the 11th pass is the first to reach 10.5 ms
            assert_eq!(round.passes, 11);
            assert!((round.seconds - 0.011).abs() < 1e-12);
            assert!((round.usec_per_puzzle - 11_000.0 / 44.0).abs() < 1e-9);
        }
        assert!((r.usec_per_puzzle - 250.0).abs() < 1e-9);
        assert!((r.puzzles_per_sec - 4000.0).abs() < 1e-6);
        // each puzzle timed alone: two readings, one step
        assert_eq!(r.usec_max, 1000.0);
        assert_eq!(r.usec_mean, 1000.0);
        assert_eq!(r.quantiles_usec.len(), 101);
        assert_eq!((r.solved, r.unsolvable, r.multiple), (4, 0, 0));
    }

    #[test]
    fn best_and_median_rounds_are_reported() {
        let rounds: Vec<Round> = [3.0, 1.0, 2.0, 5.0]
            .iter()
            .map(|&u| Round {
                passes: 1,
                seconds: u,
                usec_per_puzzle: u,
            })
            .collect();
        let r = result(
            &dataset(&[easy()]),
            &Stats::default(),
            String::new(),
            rounds,
        );
        assert_eq!(r.usec_per_puzzle, 1.0);
        assert_eq!(r.usec_per_puzzle_median, 2.0);
        assert_eq!(r.puzzles_per_sec, 1e6);
        assert_eq!(r.rounds[0].usec_per_puzzle, 3.0, "rounds stay in run order");
    }

    #[test]
    fn counts_statuses_with_limit_two() {
        let open: Grid =
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9........."
                .parse()
                .unwrap();
        let bad: Grid = format!("55{}", ".".repeat(79)).parse().unwrap();
        // r1c9 must be 9, but column 9 has its 9: no conflict among givens, no solution
        let unsolvable: Grid = format!("12345678.........9{}", ".".repeat(63))
            .parse()
            .unwrap();
        let set = dataset(&[easy(), open, bad, unsolvable]);
        let options = Options {
            limit: 2,
            min_seconds: 0.0,
            rounds: NonZeroU32::MIN,
            ..Options::default()
        };
        let r = run(&set, &options, &one_thread(), &FakeClock::new(10)).unwrap();
        assert_eq!(
            (r.solved, r.multiple, r.contradiction, r.unsolvable),
            (1, 1, 1, 1)
        );
        assert_eq!(r.rounds.len(), 1);
        assert_eq!(r.rounds[0].passes, 1);
    }

    #[test]
    fn shuffling_keeps_the_answers_counts() {
        let text =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/17clue_300.txt"))
                .unwrap();
        let puzzles: Vec<Grid> = text
            .lines()
            .filter_map(|l| l.get(..81).and_then(|p| p.parse().ok()))
            .take(50)
            .collect();
        let options = Options {
            limit: 2,
            min_seconds: 0.0,
            rounds: NonZeroU32::MIN,
            ..Options::default()
        };
        let clock = FakeClock::new(1);
        let plain = run(&dataset(&puzzles), &options, &one_thread(), &clock).unwrap();
        let mut shuffled = dataset(&puzzles);
        shuffled.prepare(&Options {
            shuffle: Some(1),
            ..options.clone()
        });
        let two = Workers::new(NonZeroUsize::new(2).unwrap()).unwrap();
        let s = run(&shuffled, &options, &two, &clock).unwrap();
        assert_eq!((s.solved, s.multiple), (plain.solved, plain.multiple));
        assert_eq!(s.solved, 50);
        assert_ne!(s.checksum, plain.checksum);
    }

    #[test]
    fn empty_dataset_gives_zeros_without_timing() {
        let r = run(
            &dataset(&[]),
            &Options::default(),
            &one_thread(),
            &FakeClock::new(1),
        )
        .unwrap();
        assert!(r.rounds.is_empty());
        assert_eq!(
            (r.puzzles, r.usec_per_puzzle, r.puzzles_per_sec),
            (0, 0.0, 0.0)
        );
        assert!(r.quantiles_usec.is_empty());
    }
}
