//! The in-memory benchmark harness: a dataset is read whole into memory (parse time measured apart),
//! optionally sampled and shuffled with a seed, solved once as a warm-up that validates every
//! solution and counts statuses and guesses, solved once more with each puzzle timed alone (the
//! per-puzzle distribution), then timed in rounds: each round repeats whole passes over the
//! dataset until `min_seconds` have gone by, and a round's figure is its time per pass. The best
//! and the median round are reported.
//!
//! Time comes from a [`Clock`], so tests (and report goldens) can run the harness on a
//! [`FakeClock`] that advances a fixed step per reading.

use std::hint::black_box;
use std::num::{NonZeroU32, NonZeroUsize};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::grid::{CELLS, Grid};
use crate::input::{InputError, Reader, Record};
use crate::pipeline::Workers;
use crate::solver;
use crate::stats::Stats;
use crate::status::{Answer, Status};
use crate::transform::{Rng, Transform};

/// Seconds each round runs at least, by default.
pub const DEFAULT_MIN_SECONDS: f64 = 1.0;
/// Timed rounds per dataset, by default.
pub const DEFAULT_ROUNDS: NonZeroU32 = NonZeroU32::new(3).expect("3 is not zero");
/// Solver threads, by default: one, the solver's own speed.
pub const DEFAULT_THREADS: NonZeroUsize = NonZeroUsize::MIN;
/// Solutions searched for per puzzle, by default (1: the first; 2: proof of uniqueness).
pub const DEFAULT_LIMIT: u32 = 1;
/// Seed of `--sample`, by default.
pub const DEFAULT_SEED: u64 = 0;
/// Records read per call while loading a dataset.
const LOAD_BATCH: usize = 4096;
/// Points of the per-puzzle time distribution kept in a result: quantiles 0%, 1%, ..., 100%.
const QUANTILES: usize = 101;

/// A monotonic clock in nanoseconds since some origin of its own.
pub trait Clock: Sync {
    /// Nanoseconds since the clock's origin; never decreases.
    fn now(&self) -> u64;
}

/// The machine's monotonic clock.
#[derive(Debug, Clone, Copy)]
pub struct RealClock {
    origin: Instant,
}

impl Default for RealClock {
    fn default() -> Self {
        RealClock {
            origin: Instant::now(),
        }
    }
}

impl Clock for RealClock {
    fn now(&self) -> u64 {
        self.origin.elapsed().as_nanos() as u64
    }
}

/// A clock for tests: each reading is `step` nanoseconds after the previous one.
#[derive(Debug)]
pub struct FakeClock {
    step: u64,
    time: AtomicU64,
}

impl FakeClock {
    /// A clock at 0 that advances `step` nanoseconds a reading.
    pub fn new(step: u64) -> FakeClock {
        FakeClock {
            step,
            time: AtomicU64::new(0),
        }
    }
}

impl Clock for FakeClock {
    fn now(&self) -> u64 {
        self.time.fetch_add(self.step, Ordering::Relaxed)
    }
}

/// How to benchmark.
#[derive(Debug, Clone)]
pub struct Options {
    /// Solutions searched per puzzle: 1 (first solution) or 2 (proof of uniqueness).
    pub limit: u32,
    /// Each round runs whole passes until at least this many seconds have gone by.
    pub min_seconds: f64,
    /// Timed rounds.
    pub rounds: NonZeroU32,
    /// Seed of a random validity-preserving transform per puzzle; `None` keeps the puzzles as read.
    pub shuffle: Option<u64>,
    /// Keep a random subset of this many puzzles (seeded by `seed`); `None` keeps all.
    pub sample: Option<NonZeroUsize>,
    /// Seed of the sample.
    pub seed: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            limit: DEFAULT_LIMIT,
            min_seconds: DEFAULT_MIN_SECONDS,
            rounds: DEFAULT_ROUNDS,
            shuffle: None,
            sample: None,
            seed: DEFAULT_SEED,
        }
    }
}

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

/// A dataset in memory, ready to time.
#[derive(Debug, Clone, Default)]
pub struct Dataset {
    /// Short name (the file name) used in reports and to match a baseline.
    pub name: String,
    /// The input as given.
    pub path: String,
    /// Records read.
    pub records: u64,
    /// Records skipped because they are not puzzles.
    pub malformed: u64,
    /// Seconds spent reading and parsing.
    pub parse_seconds: f64,
    /// The puzzles to time.
    pub puzzles: Vec<Grid>,
    /// Line of each puzzle in its input.
    pub lines: Vec<u64>,
    /// True when the puzzles were transformed.
    pub shuffled: bool,
}

impl Dataset {
    /// Reads every record of `reader` into memory; a malformed record is counted, handed to
    /// `on_malformed` and left out.
    pub fn load(
        reader: &mut Reader,
        path: &str,
        clock: &dyn Clock,
        mut on_malformed: impl FnMut(&Record, &str),
    ) -> Result<Dataset, InputError> {
        let start = clock.now();
        let mut set = Dataset {
            name: dataset_name(path),
            path: path.to_string(),
            ..Dataset::default()
        };
        let mut batch = Vec::with_capacity(LOAD_BATCH);
        while reader.read_batch(LOAD_BATCH, &mut batch)? > 0 {
            for record in batch.drain(..) {
                set.records += 1;
                match &record.puzzle {
                    Ok(puzzle) => {
                        set.puzzles.push(*puzzle);
                        set.lines.push(record.line);
                    }
                    Err(reason) => {
                        set.malformed += 1;
                        on_malformed(&record, reason);
                    }
                }
            }
        }
        set.parse_seconds = seconds(clock.now() - start);
        Ok(set)
    }

    /// Applies `--sample` (a seeded subset, in input order) and then `--shuffle` (a seeded
    /// transform per puzzle).
    pub fn prepare(&mut self, options: &Options) {
        if let Some(n) = options.sample {
            let keep = Rng::new(options.seed).sample_indices(self.puzzles.len(), n.get());
            self.puzzles = keep.iter().map(|&i| self.puzzles[i]).collect();
            self.lines = keep.iter().map(|&i| self.lines[i]).collect();
        }
        if let Some(seed) = options.shuffle {
            let mut rng = Rng::new(seed);
            for p in &mut self.puzzles {
                *p = Transform::random(&mut rng).apply(p);
            }
            self.shuffled = true;
        }
    }
}

/// The name of a dataset: the file name of its path (`<stdin>` stays as it is).
fn dataset_name(path: &str) -> String {
    std::path::Path::new(path)
        .file_name()
        .map_or_else(|| path.to_string(), |n| n.to_string_lossy().into_owned())
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

/// FNV-1a 64 of the line output of `answers`, as 16 hex digits.
pub fn checksum(answers: &[Answer]) -> String {
    let mut hash = Fnv1a::default();
    for answer in answers {
        match answer.solution {
            Some(solution) if answer.status.is_solved() => hash.write(&solution.to_line(b'0')),
            _ => hash.write(answer.status.as_str().as_bytes()),
        }
        hash.write(b"\n");
    }
    format!("{:016x}", hash.0)
}

/// The 64-bit FNV-1a hash: simple, stable across machines and versions.
struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Self {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv1a {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

fn seconds(nanos: u64) -> f64 {
    nanos as f64 / 1e9
}

/// The prepared puzzles as 81-character lines (`.` for blanks), for timing another solver on
/// exactly the same puzzles.
pub fn puzzle_lines(set: &Dataset, out: &mut Vec<u8>) {
    for p in &set.puzzles {
        out.extend_from_slice(&p.to_line(b'.'));
        out.push(b'\n');
    }
    debug_assert!(out.len() % (CELLS + 1) == 0);
}

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

    const EASY: &str =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

    fn dataset(puzzles: &[Grid]) -> Dataset {
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

    fn easy() -> Grid {
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
    fn checksum_is_fnv1a_of_the_line_output() {
        let puzzle = easy();
        let solution = solver::solve(&puzzle, 1).unwrap().solution.unwrap();
        let answers = [
            Answer {
                status: Status::Solved,
                solution: Some(solution),
                guesses: 0,
                nanos: 0,
            },
            Answer::malformed(),
        ];
        let mut text = String::from_utf8(solution.to_line(b'0').to_vec()).unwrap();
        text.push_str("\nmalformed\n");
        // FNV-1a 64 written out plainly
        let mut h: u64 = 0xcbf29ce484222325;
        for b in text.bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x100000001b3);
        }
        assert_eq!(checksum(&answers), format!("{h:016x}"));
        // the empty input hashes to the offset basis
        assert_eq!(checksum(&[]), "cbf29ce484222325");
    }

    #[test]
    fn shuffle_and_sample_are_seeded() {
        let puzzles: Vec<Grid> =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/hardest_300.txt"))
                .unwrap()
                .lines()
                .filter_map(|l| l.get(..81).and_then(|p| p.parse().ok()))
                .collect();
        assert!(puzzles.len() >= 100);
        let options = Options {
            shuffle: Some(7),
            sample: NonZeroUsize::new(20),
            seed: 3,
            ..Options::default()
        };
        let prepared = |options: &Options| {
            let mut set = dataset(&puzzles);
            set.prepare(options);
            set
        };
        let a = prepared(&options);
        assert_eq!(a.puzzles.len(), 20);
        assert_eq!(a.puzzles, prepared(&options).puzzles);
        assert!(a.lines.windows(2).all(|w| w[0] < w[1]), "input order kept");
        // the same sample, unshuffled, is the original puzzles at those lines
        let plain = prepared(&Options {
            shuffle: None,
            ..options.clone()
        });
        assert_eq!(plain.lines, a.lines);
        for (p, &line) in plain.puzzles.iter().zip(&plain.lines) {
            assert_eq!(*p, puzzles[line as usize - 1]);
        }
        assert!(a.puzzles.iter().zip(&plain.puzzles).all(|(x, y)| x != y));
        assert_ne!(
            a.puzzles,
            prepared(&Options {
                shuffle: Some(8),
                ..options.clone()
            })
            .puzzles
        );
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

    #[test]
    fn dataset_names_are_file_names() {
        assert_eq!(
            dataset_name("../shared/data/tdoku/puzzles2_17_clue"),
            "puzzles2_17_clue"
        );
        assert_eq!(dataset_name("<stdin>"), "<stdin>");
    }
}
