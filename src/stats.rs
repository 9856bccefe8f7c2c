//! Counters and latency percentiles for a run. A [`Stats`] folds with `+=`, so batches can be counted
//! apart and merged; percentiles come from a log-linear histogram of fixed size (about 1.6% bucket
//! width), so memory does not grow with the number of records.

use std::ops::AddAssign;
use std::time::Duration;

use std::collections::BTreeMap;

use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize};

use crate::status::{Answer, Status};

/// Values below this are counted exactly, one bucket each.
const LINEAR: u64 = 64;
/// Sub-buckets per power of two above `LINEAR` (5 bits of mantissa).
const SUB_BITS: u32 = 5;
const SUB: usize = 1 << SUB_BITS;
/// Powers of two from 2^6 to 2^63.
const BUCKETS: usize = LINEAR as usize + (64 - 6) * SUB;

/// A histogram of nanosecond values with buckets about 1/32 of an octave wide.
#[derive(Clone)]
pub struct Histogram {
    counts: Box<[u64; BUCKETS]>,
    total: u64,
    sum: u128,
    max: u64,
}

impl Default for Histogram {
    fn default() -> Self {
        Histogram {
            counts: Box::new([0; BUCKETS]),
            total: 0,
            sum: 0,
            max: 0,
        }
    }
}

impl std::fmt::Debug for Histogram {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Histogram")
            .field("total", &self.total)
            .field("max", &self.max)
            .finish()
    }
}

fn bucket_of(v: u64) -> usize {
    if v < LINEAR {
        return v as usize;
    }
    let exp = 63 - v.leading_zeros(); // >= 6
    let top = (v >> (exp - SUB_BITS)) as usize - SUB; // 0..SUB
    LINEAR as usize + (exp as usize - 6) * SUB + top
}

/// The middle of bucket `b`, as a representative value.
fn value_of(b: usize) -> u64 {
    if b < LINEAR as usize {
        return b as u64;
    }
    let exp = ((b - LINEAR as usize) / SUB) as u32 + 6;
    let top = ((b - LINEAR as usize) % SUB + SUB) as u64;
    let low = top << (exp - SUB_BITS);
    let width = 1u64 << (exp - SUB_BITS);
    low + width / 2
}

impl Histogram {
    /// Counts one value.
    pub fn record(&mut self, v: u64) {
        self.counts[bucket_of(v)] += 1;
        self.total += 1;
        self.sum += v as u128;
        self.max = self.max.max(v);
    }

    /// Number of values counted.
    pub fn count(&self) -> u64 {
        self.total
    }

    /// The largest value counted (exact).
    pub fn max(&self) -> u64 {
        self.max
    }

    /// Mean of the values counted (exact), 0 when empty.
    pub fn mean(&self) -> f64 {
        if self.total == 0 {
            0.0
        } else {
            self.sum as f64 / self.total as f64
        }
    }

    /// The value at quantile `q` (0..=1), within a bucket's width; never above the exact maximum.
    pub fn quantile(&self, q: f64) -> u64 {
        if self.total == 0 {
            return 0;
        }
        let rank = ((q.clamp(0.0, 1.0) * self.total as f64).ceil() as u64).max(1);
        let mut seen = 0;
        for (b, &c) in self.counts.iter().enumerate() {
            seen += c;
            if seen >= rank {
                return value_of(b).min(self.max);
            }
        }
        self.max
    }
}

impl AddAssign<&Histogram> for Histogram {
    fn add_assign(&mut self, other: &Histogram) {
        for (a, b) in self.counts.iter_mut().zip(other.counts.iter()) {
            *a += b;
        }
        self.total += other.total;
        self.sum += other.sum;
        self.max = self.max.max(other.max);
    }
}

/// Counts of a run: records by status, guesses, solve times.
#[derive(Debug, Clone, Default)]
pub struct Stats {
    by_status: StatusCounts,
    searched: u64,
    guesses: u64,
    no_guess: u64,
    times: Histogram,
}

impl Stats {
    /// Counts one record's answer.
    pub fn add(&mut self, answer: &Answer) {
        self.by_status.0[answer.status as usize] += 1;
        if matches!(answer.status, Status::Malformed | Status::Contradiction) {
            return;
        }
        self.searched += 1;
        self.guesses += answer.guesses;
        self.no_guess += (answer.guesses == 0) as u64;
        self.times.record(answer.nanos);
    }

    /// Records counted.
    pub fn records(&self) -> u64 {
        self.by_status.0.iter().sum()
    }

    /// Records with status `status`.
    pub fn count(&self, status: Status) -> u64 {
        self.by_status.get(status)
    }

    /// The solve times counted (nanoseconds), for distributions beyond the summary's percentiles.
    pub fn times(&self) -> &Histogram {
        &self.times
    }

    /// The summary of the run, given its wall time.
    pub fn summary(&self, wall: Duration, threads: usize) -> Summary {
        let micros = |ns: u64| ns as f64 / 1000.0;
        let secs = wall.as_secs_f64();
        let per = |n: u64| {
            if self.searched == 0 {
                0.0
            } else {
                n as f64 / self.searched as f64
            }
        };
        Summary {
            records: self.records(),
            statuses: self.by_status.clone(),
            puzzles: self.searched,
            threads,
            wall_seconds: secs,
            puzzles_per_second: if secs > 0.0 {
                self.searched as f64 / secs
            } else {
                0.0
            },
            micros: Latency {
                mean: self.times.mean() / 1000.0,
                p50: micros(self.times.quantile(0.50)),
                p90: micros(self.times.quantile(0.90)),
                p99: micros(self.times.quantile(0.99)),
                max: micros(self.times.max()),
            },
            guesses_per_puzzle: per(self.guesses),
            no_guess_share: per(self.no_guess),
            interrupted: None,
            interrupted_parts: None,
            counts: self.counts(),
            parts: None,
            runs: None,
        }
    }

    /// The counts to write down, from which [`Stats::from_counts`] rebuilds these stats.
    pub fn counts(&self) -> Counts {
        Counts {
            statuses: self
                .by_status
                .iter()
                .map(|(s, n)| (s.as_str().to_string(), n))
                .collect(),
            searched: self.searched,
            guesses: self.guesses,
            no_guess: self.no_guess,
            nanos_sum: u64::try_from(self.times.sum).unwrap_or(u64::MAX),
            nanos_max: self.times.max,
            histogram: self
                .times
                .counts
                .iter()
                .enumerate()
                .filter(|&(_, &n)| n > 0)
                .map(|(b, &n)| (b as u32, n))
                .collect(),
        }
    }

    /// Stats rebuilt from written-down counts (see [`Stats::counts`]).
    pub fn from_counts(counts: &Counts) -> Result<Stats, MergeError> {
        let mut stats = Stats::default();
        for (word, &n) in &counts.statuses {
            let status = Status::ALL
                .into_iter()
                .find(|s| s.as_str() == word)
                .ok_or_else(|| MergeError::Status(word.clone()))?;
            stats.by_status.0[status as usize] += n;
        }
        stats.searched = counts.searched;
        stats.guesses = counts.guesses;
        stats.no_guess = counts.no_guess;
        for &(bucket, n) in &counts.histogram {
            let slot = stats
                .times
                .counts
                .get_mut(bucket as usize)
                .ok_or(MergeError::Bucket(bucket))?;
            *slot += n;
            stats.times.total += n;
        }
        stats.times.sum = u128::from(counts.nanos_sum);
        stats.times.max = counts.nanos_max;
        // what a run writes always adds up: percentiles and shares made of counts that do not
        // came out as nonsense ("1666.7% without guessing", a p50 of 0)
        if counts.no_guess > counts.searched {
            return Err(MergeError::Inconsistent(format!(
                "{} solved without a guess of {} searched",
                counts.no_guess, counts.searched
            )));
        }
        // every record of a searching status reached the search, and no other did
        let reached: u64 = [
            Status::Solved,
            Status::Unique,
            Status::Multiple,
            Status::Unsolvable,
        ]
        .iter()
        .map(|&s| stats.by_status.0[s as usize])
        .fold(0, u64::saturating_add);
        if reached != counts.searched {
            return Err(MergeError::Inconsistent(format!(
                "{} searched, where its records solved, unique, multiple or unsolvable are {reached}",
                counts.searched
            )));
        }
        // the slowest puzzle's time is part of the sum of times, which only searched ones have
        if counts.nanos_max > counts.nanos_sum || counts.searched == 0 && counts.nanos_sum > 0 {
            return Err(MergeError::Inconsistent(format!(
                "the slowest of {} puzzles took {} ns of {} ns in all",
                counts.searched, counts.nanos_max, counts.nanos_sum
            )));
        }
        if stats.times.total != counts.searched {
            return Err(MergeError::Inconsistent(format!(
                "the solve-time histogram holds {} puzzles, {} were searched",
                stats.times.total, counts.searched
            )));
        }
        // nor is any puzzle's time above the slowest's, or their mean: a merge of such counts
        // said "mean 2.09, ... max 0.00"
        let top = (counts.histogram.iter())
            .filter(|&&(_, n)| n > 0)
            .map(|&(bucket, _)| bucket as usize)
            .max();
        let mean_above = u128::from(counts.nanos_sum)
            > u128::from(counts.searched) * u128::from(counts.nanos_max);
        if mean_above || top.is_some_and(|top| top > bucket_of(counts.nanos_max)) {
            return Err(MergeError::Inconsistent(format!(
                "the slowest of {} puzzles took {} ns, less than {}",
                counts.searched,
                counts.nanos_max,
                match mean_above {
                    true => format!("their mean ({} ns in all)", counts.nanos_sum),
                    false => "a time in its solve-time histogram".to_string(),
                }
            )));
        }
        // a puzzle searched and not solved without a guess made one at least
        let guessing = counts.searched - counts.no_guess;
        if counts.guesses < guessing {
            return Err(MergeError::Inconsistent(format!(
                "{} guesses, where {guessing} of its {} puzzles searched were not solved without one",
                counts.guesses, counts.searched
            )));
        }
        Ok(stats)
    }
}

impl AddAssign<&Stats> for Stats {
    fn add_assign(&mut self, other: &Stats) {
        for (a, b) in self.by_status.0.iter_mut().zip(other.by_status.0) {
            *a += b;
        }
        self.searched += other.searched;
        self.guesses += other.guesses;
        self.no_guess += other.no_guess;
        self.times += &other.times;
    }
}

/// Records per status, indexed by `status as usize`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StatusCounts([u64; Status::ALL.len()]);

impl StatusCounts {
    /// The statuses that occurred with their counts, in [`Status::ALL`] order.
    pub fn iter(&self) -> impl Iterator<Item = (Status, u64)> + '_ {
        Status::ALL
            .into_iter()
            .map(|s| (s, self.0[s as usize]))
            .filter(|&(_, n)| n > 0)
    }

    /// The count of one status.
    pub fn get(&self, status: Status) -> u64 {
        self.0[status as usize]
    }
}

impl Serialize for StatusCounts {
    /// A JSON object from status word to count, in [`Status::ALL`] order, statuses that occurred.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        for (status, n) in self.iter() {
            map.serialize_entry(status.as_str(), &n)?;
        }
        map.end()
    }
}

/// Solve times per puzzle, microseconds.
#[derive(Debug, Clone, Serialize)]
pub struct Latency {
    /// Mean.
    pub mean: f64,
    /// Median.
    pub p50: f64,
    /// 90th percentile.
    pub p90: f64,
    /// 99th percentile.
    pub p99: f64,
    /// Largest.
    pub max: f64,
}

/// What a run did, as printed on stderr and written by `--stats`.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// Records read (and written).
    pub records: u64,
    /// Records per status word (only statuses that occurred, in [`Status::ALL`] order).
    pub statuses: StatusCounts,
    /// Records that reached the search (not malformed, no contradiction).
    pub puzzles: u64,
    /// Solver threads.
    pub threads: usize,
    /// Wall time of the whole run, seconds.
    pub wall_seconds: f64,
    /// `puzzles` per second of wall time.
    pub puzzles_per_second: f64,
    /// Solve time per puzzle, microseconds (only the solver call, not reading or writing).
    pub micros: Latency,
    /// Mean guesses per puzzle.
    pub guesses_per_puzzle: f64,
    /// Share of puzzles solved (or proved unsolvable) without guessing, 0..=1.
    pub no_guess_share: f64,
    /// Set when a signal stopped the run before the end of its input (`null` otherwise). In a
    /// merged summary: the first interrupted part's, so that `null` still means that the whole
    /// job ran to the end; [`Summary::interrupted_parts`] lists them all.
    pub interrupted: Option<Interruption>,
    /// Merged summaries only (`null` for one run's own): every part a signal stopped, with the
    /// `--stats` file it came from. Empty when every part ran to the end.
    pub interrupted_parts: Option<Vec<PartInterruption>>,
    /// The counts everything above is made from, so that the summaries of many runs (the
    /// partitions of a Spark job, say) can be added up into one, percentiles included
    /// ([`merge`]).
    pub counts: Counts,
    /// Runs added up into this summary (`null` for one run's own).
    pub parts: Option<u64>,
    /// The names of the runs counted ([`run_id`]): one for a run's own, every part's for a
    /// merge, so that `merge-stats` can refuse a run counted twice (a copy of a part, or a merged
    /// file with one of its own parts). `null` when none is known (a summary not written by a
    /// run, or merged from files of versions before these names).
    pub runs: Option<Vec<String>>,
}

/// A name for one run, unlike any other's: 32 hex digits from the clock, the process and the
/// per-process random keys of the standard library's hasher. Written in `--stats` JSON
/// ([`Summary::runs`]) so that `merge-stats` tells a part it has counted already, whatever file
/// it comes from.
pub fn run_id() -> String {
    use std::hash::{BuildHasher, Hasher};
    let time = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let mut id = String::with_capacity(32);
    for half in 0..2u8 {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u128(time);
        h.write_u32(std::process::id());
        h.write_u8(half);
        id.push_str(&format!("{:016x}", h.finish()));
    }
    id
}

/// The run names of merged parts, in their order (`None` when no part has any).
pub fn merged_runs<'a>(
    parts: impl Iterator<Item = &'a Option<Vec<String>>>,
) -> Option<Vec<String>> {
    let mut runs: Option<Vec<String>> = None;
    for part in parts.flatten() {
        runs.get_or_insert_with(Vec::new)
            .extend(part.iter().cloned());
    }
    runs
}

/// The counts of a run, as written in its `--stats` JSON: enough to rebuild its [`Stats`] and
/// add it to another's. The solve-time histogram is sparse: `[bucket, count]` pairs of the
/// buckets that are not empty (about 1/32 of an octave wide each).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Records per status word.
    pub statuses: BTreeMap<String, u64>,
    /// Puzzles that reached the search.
    pub searched: u64,
    /// Guesses over all of them.
    pub guesses: u64,
    /// Those solved without a guess.
    pub no_guess: u64,
    /// Solve times: their sum, in nanoseconds.
    pub nanos_sum: u64,
    /// Solve times: the longest, in nanoseconds.
    pub nanos_max: u64,
    /// Solve times: `[bucket, count]` for each non-empty bucket.
    pub histogram: Vec<(u32, u64)>,
}

/// What merging needs of a `--stats` JSON file; its other keys are left unread.
#[derive(Debug, Clone, Deserialize)]
pub struct SummaryFile {
    /// Solver threads.
    pub threads: usize,
    /// Wall time, seconds.
    pub wall_seconds: f64,
    /// The counts.
    pub counts: Counts,
    /// Runs it adds up already (`null` for one run).
    #[serde(default)]
    pub parts: Option<u64>,
    /// The names of the runs it counts ([`Summary::runs`]).
    #[serde(default)]
    pub runs: Option<Vec<String>>,
    /// How a signal stopped the run (`null` when it ran to the end).
    #[serde(default)]
    pub interrupted: Option<Interruption>,
    /// A merged file's interrupted parts.
    #[serde(default)]
    pub interrupted_parts: Option<Vec<PartInterruption>>,
    /// The file it was read from, named in the merged summary's
    /// [`Summary::interrupted_parts`]; set by the reader, not read from the JSON.
    #[serde(skip)]
    pub name: String,
}

/// A part of a merged summary that a signal stopped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartInterruption {
    /// The `--stats` file of the part.
    pub part: String,
    /// How it was stopped, and where its output ends.
    #[serde(flatten)]
    pub interruption: Interruption,
}

/// Why summaries cannot be merged.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// A summary names a status this build does not know.
    #[error("unknown status {0:?}")]
    Status(String),
    /// A histogram bucket is out of range.
    #[error("histogram bucket {0} out of range")]
    Bucket(u32),
    /// Counts that no run writes (edited by hand): what does not add up.
    #[error("{0}")]
    Inconsistent(String),
    /// Runs with `--unique` and runs without: their `unique` and `multiple` counts would cover
    /// only part of the puzzles, and read as the whole job's.
    #[error(
        "{unique} was made with --unique and {other} without: the unique and multiple counts \
         would cover only part of the puzzles (merge the runs of one kind)"
    )]
    UniqueAndNot {
        /// A part whose puzzles were checked for a second solution.
        unique: String,
        /// A part whose puzzles were not.
        other: String,
    },
}

/// Adds up the summaries of runs made side by side (the partitions of one job): counts and
/// solve-time distributions add up; the wall time is the longest run's (they ran at the same
/// time), so puzzles per second is the whole job's; threads add up. Percentiles are computed
/// from the added histograms, as for one run (within a bucket's width, about 2%).
pub fn merge(parts: &[SummaryFile]) -> Result<Summary, MergeError> {
    // a run with --unique says `unique` or `multiple` of a puzzle it solved, one without `solved`
    let with = |statuses: &[Status]| {
        parts.iter().find(|p| {
            statuses.iter().any(|&status| {
                let word = status.as_str();
                p.counts.statuses.get(word).is_some_and(|&n| n > 0)
            })
        })
    };
    if let (Some(unique), Some(other)) = (
        with(&[Status::Unique, Status::Multiple]),
        with(&[Status::Solved]),
    ) {
        // one part of both kinds: edited by hand (its name is the caller's to give)
        if std::ptr::eq(unique, other) {
            return Err(MergeError::Inconsistent(
                "it counts records solved and records unique or multiple, which no run does \
                 (a run is made with --unique or without)"
                    .to_string(),
            ));
        }
        return Err(MergeError::UniqueAndNot {
            unique: unique.name.clone(),
            other: other.name.clone(),
        });
    }
    let mut total = Stats::default();
    let mut wall = 0f64;
    let mut threads = 0;
    let mut runs = 0;
    for part in parts {
        if part.threads == 0 {
            return Err(MergeError::Inconsistent("a run on 0 threads".to_string()));
        }
        total += &Stats::from_counts(&part.counts)?;
        wall = wall.max(part.wall_seconds);
        threads += part.threads;
        runs += part.parts.unwrap_or(1);
    }
    let interrupted = interruptions(
        parts
            .iter()
            .map(|p| (p.name.as_str(), &p.interrupted_parts, &p.interrupted)),
    );
    let mut summary = total.summary(Duration::from_secs_f64(wall.max(0.0)), threads);
    summary.parts = Some(runs);
    summary.runs = merged_runs(parts.iter().map(|p| &p.runs));
    summary.interrupted = interrupted.first().map(|p| p.interruption.clone());
    summary.interrupted_parts = Some(interrupted);
    Ok(summary)
}

/// The interrupted parts of a merge, from each part's file name, its own interrupted parts (a
/// merged file) and its own interruption (one run's file), in the order the parts come.
pub fn interruptions<'a>(
    parts: impl Iterator<
        Item = (
            &'a str,
            &'a Option<Vec<PartInterruption>>,
            &'a Option<Interruption>,
        ),
    >,
) -> Vec<PartInterruption> {
    let mut all = Vec::new();
    for (name, inner, own) in parts {
        // a merged file carries its parts' interruptions; a run's own, its own
        match (inner, own) {
            (Some(inner), _) => all.extend(inner.iter().cloned()),
            (None, Some(interruption)) => all.push(PartInterruption {
                part: name.to_string(),
                interruption: interruption.clone(),
            }),
            (None, None) => {}
        }
    }
    all
}

/// The lines a merged summary ends with: the parts a signal stopped (`INCOMPLETE: ...`), and how
/// many runs it adds up; one run's own summary gets its interruption line instead.
pub fn write_parts(
    f: &mut std::fmt::Formatter<'_>,
    parts: Option<u64>,
    interrupted_parts: &Option<Vec<PartInterruption>>,
    interrupted: &Option<Interruption>,
) -> std::fmt::Result {
    match (interrupted_parts, interrupted) {
        (Some(stopped), _) if !stopped.is_empty() => {
            let of = parts.unwrap_or(stopped.len() as u64);
            write!(
                f,
                "\nINCOMPLETE: {} of {of} part{} stopped early:",
                stopped.len(),
                if of == 1 { " was" } else { "s were" }
            )?;
            for p in stopped {
                write!(f, "\n  {}: {}", p.part, p.interruption)?;
            }
        }
        (Some(_), _) => {}
        (None, Some(interruption)) => write!(f, "\n{interruption}")?,
        (None, None) => {}
    }
    if let Some(parts) = parts {
        let runs = if parts == 1 { "run" } else { "runs" };
        write!(f, "\nparts:      {parts} {runs} added up")?;
    }
    Ok(())
}

/// How a run that stopped before the end of its input ended, stopped by a signal or by an
/// input it could not read on (a cut-off download, a later input of another format): every
/// record read before was written whole, in order, and the output ends with the record at
/// `file`:`line`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Interruption {
    /// The signal: `SIGINT` (Ctrl-C), `SIGTERM` or `SIGHUP`; `SIGPIPE` when the reader of the
    /// record output went away; [`Interruption::ERROR`] for an input that could not be read or
    /// an output that could not be written.
    pub signal: String,
    /// Input of the last record written (`null` when none was).
    pub file: Option<String>,
    /// Line where the last record written starts in its input (`null` when none was); a run
    /// resumed after it misses nothing.
    pub line: Option<u64>,
    /// The error that stopped the run (absent for a signal).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl Interruption {
    /// [`Interruption::signal`] of a run an error stopped.
    pub const ERROR: &str = "error";

    /// A run stopped by the error `error`, its output ending with the record at `last`.
    ///
    /// Why a failed run says so in its stats and report: they were written as for a run that
    /// reached the end (`interrupted: null`, "Problems: 0 of 6920 records"), or left empty,
    /// and `merge-stats` added such a part up as whole.
    pub fn error(error: String, last: Option<(String, u64)>) -> Interruption {
        let (file, line) = last.unzip();
        Interruption {
            signal: Interruption::ERROR.to_string(),
            file,
            line,
            error: Some(error),
        }
    }

    /// A run whose record output's reader went away (a closed pipe, `| head`), its output
    /// ending with the record at `last`: told as the signal other tools die of then.
    pub fn closed(last: Option<(String, u64)>) -> Interruption {
        let (file, line) = last.unzip();
        Interruption {
            signal: "SIGPIPE".to_string(),
            file,
            line,
            error: None,
        }
    }

    /// What stopped the run: `interrupted by SIGINT`, or `stopped by an error (...)`.
    pub fn stopped_by(&self) -> String {
        match &self.error {
            Some(error) => format!("stopped by an error ({error})"),
            None => format!("interrupted by {}", self.signal),
        }
    }
}

impl std::fmt::Display for Interruption {
    /// `interrupted by SIGINT: the output ends with the record at big.txt:48213`, or `stopped
    /// by an error (...): ...`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: ", self.stopped_by())?;
        // the reader of a pipe may have read part of the batch being written when it left
        let closed = self.signal == "SIGPIPE" && self.error.is_none();
        match (&self.file, self.line, closed) {
            (Some(file), Some(line), false) => {
                write!(f, "the output ends with the record at {file}:{line}")
            }
            (Some(file), Some(line), true) => write!(
                f,
                "the output holds the records up to the one at {file}:{line} whole, and the \
                 reader may have read some after it"
            ),
            (_, _, false) => f.write_str("no record was written"),
            (_, _, true) => f.write_str(
                "no batch of records was written whole, and the reader may have read some of one",
            ),
        }
    }
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let statuses: Vec<String> = self
            .statuses
            .iter()
            .map(|(s, n)| format!("{s} {n}"))
            .collect();
        write!(f, "records:    {}", self.records)?;
        if statuses.is_empty() {
            writeln!(f)?;
        } else {
            writeln!(f, " ({})", statuses.join(", "))?;
        }
        writeln!(
            f,
            "wall time:  {:.3} s, {:.0} puzzles/s on {} thread{}",
            self.wall_seconds,
            self.puzzles_per_second,
            self.threads,
            if self.threads == 1 { "" } else { "s" }
        )?;
        let m = &self.micros;
        writeln!(
            f,
            "µs/puzzle:  mean {:.2}, p50 {:.2}, p90 {:.2}, p99 {:.2}, max {:.2}",
            m.mean, m.p50, m.p90, m.p99, m.max
        )?;
        write!(
            f,
            "guesses:    {:.2} per puzzle, {:.1}% without guessing",
            self.guesses_per_puzzle,
            self.no_guess_share * 100.0
        )?;
        write_parts(f, self.parts, &self.interrupted_parts, &self.interrupted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries_of_parts_add_up_to_the_summary_of_the_whole() {
        // one run over all answers, and the same answers split over three runs, merged
        let answers: Vec<Answer> = (0..3000u64)
            .map(|i| {
                let status = match i % 7 {
                    0 => Status::Malformed,
                    1 => Status::Unsolvable,
                    _ => Status::Solved,
                };
                answer(status, i % 5, 100 + i * i % 97_000)
            })
            .collect();
        let mut whole = Stats::default();
        for a in &answers {
            whole.add(a);
        }
        let parts: Vec<SummaryFile> = answers
            .chunks(1000)
            .enumerate()
            .map(|(i, chunk)| {
                let mut part = Stats::default();
                for a in chunk {
                    part.add(a);
                }
                let summary = part.summary(Duration::from_secs(1 + i as u64), 2);
                // through JSON, as the files are
                let json = serde_json::to_string(&summary).unwrap();
                serde_json::from_str(&json).unwrap()
            })
            .collect();
        let merged = merge(&parts).unwrap();
        let want = whole.summary(Duration::from_secs(3), 6);
        assert_eq!(merged.counts, want.counts);
        assert_eq!(merged.records, 3000);
        assert_eq!(merged.parts, Some(3));
        assert_eq!(merged.threads, 6);
        assert_eq!(merged.wall_seconds, 3.0, "the longest part's");
        assert_eq!(merged.micros.p50, want.micros.p50);
        assert_eq!(merged.micros.p99, want.micros.p99);
        assert_eq!(merged.micros.max, want.micros.max);
        assert_eq!(merged.guesses_per_puzzle, want.guesses_per_puzzle);
        // merging merged summaries again counts the runs underneath
        let twice: SummaryFile =
            serde_json::from_str(&serde_json::to_string(&merged).unwrap()).unwrap();
        assert_eq!(merge(&[twice]).unwrap().parts, Some(3));
    }

    /// A `--stats` file of one run, through JSON, named `name`; stopped by SIGINT at `line`
    /// when given.
    fn part_file(name: &str, stopped_at: Option<u64>) -> SummaryFile {
        let mut stats = Stats::default();
        stats.add(&answer(Status::Solved, 1, 1000));
        let mut summary = stats.summary(Duration::from_secs(1), 1);
        summary.interrupted = stopped_at.map(|line| Interruption {
            error: None,
            signal: "SIGINT".to_string(),
            file: Some("big.txt".to_string()),
            line: Some(line),
        });
        let mut file: SummaryFile =
            serde_json::from_str(&serde_json::to_string(&summary).unwrap()).unwrap();
        file.name = name.to_string();
        file
    }

    #[test]
    fn a_merged_summary_names_every_interrupted_part() {
        let parts = [
            part_file("p0.json", None),
            part_file("p1.json", Some(48213)),
            part_file("p2.json", None),
            part_file("p3.json", Some(7)),
        ];
        let merged = merge(&parts).unwrap();
        let stopped = merged.interrupted_parts.clone().unwrap();
        let names: Vec<&str> = stopped.iter().map(|p| p.part.as_str()).collect();
        assert_eq!(names, ["p1.json", "p3.json"]);
        assert_eq!(stopped[0].interruption.line, Some(48213));
        assert_eq!(merged.interrupted.as_ref().unwrap().line, Some(48213));
        let text = merged.to_string();
        assert!(
            text.contains("INCOMPLETE: 2 of 4 parts were stopped"),
            "{text}"
        );
        assert!(text.contains("p3.json: interrupted by SIGINT"), "{text}");
        // merged again, with a complete run: the parts are still named
        let mut again: SummaryFile =
            serde_json::from_str(&serde_json::to_string(&merged).unwrap()).unwrap();
        again.name = "merged.json".to_string();
        let twice = merge(&[again, part_file("p4.json", None)]).unwrap();
        assert_eq!(twice.interrupted_parts.unwrap(), stopped);
        assert_eq!(twice.parts, Some(5));
    }

    #[test]
    fn a_merge_of_complete_runs_says_none_was_interrupted() {
        let merged = merge(&[part_file("a.json", None)]).unwrap();
        assert_eq!(merged.interrupted, None);
        assert_eq!(merged.interrupted_parts, Some(Vec::new()));
        let text = merged.to_string();
        assert!(text.ends_with("parts:      1 run added up"), "{text}");
        assert!(!text.contains("INCOMPLETE"), "{text}");
    }

    #[test]
    fn an_empty_run_has_no_empty_status_list() {
        let text = Stats::default()
            .summary(Duration::from_secs(1), 1)
            .to_string();
        assert!(text.starts_with("records:    0\n"), "{text}");
    }

    fn answer(status: Status, guesses: u64, nanos: u64) -> Answer {
        Answer {
            status,
            solution: None,
            guesses,
            nanos,
        }
    }

    #[test]
    fn buckets_are_monotonic_and_narrow() {
        // sorted values: every value up to 10^4, then powers of two and their neighbours
        let values = (0..10_000u64)
            .chain((14..64).flat_map(|e| [(1u64 << e) - 1, 1u64 << e, (1u64 << e) + 1]))
            .chain([u64::MAX]);
        let mut last = 0;
        for v in values {
            let b = bucket_of(v);
            assert!(b >= last && b < BUCKETS, "bucket order at {v}");
            let mid = value_of(b);
            let err = (mid as f64 - v as f64).abs() / (v.max(1) as f64);
            assert!(err <= 1.0 / 32.0, "value {v} bucket mid {mid}");
            last = b;
        }
    }

    #[test]
    fn quantiles_of_known_values() {
        let mut h = Histogram::default();
        for v in 1..=1000u64 {
            h.record(v * 1000);
        }
        let within = |got: u64, want: f64| (got as f64 - want).abs() / want < 0.02;
        assert!(within(h.quantile(0.5), 500_000.0), "{}", h.quantile(0.5));
        assert!(within(h.quantile(0.9), 900_000.0));
        assert!(within(h.quantile(0.99), 990_000.0));
        assert_eq!(h.quantile(1.0), 1_000_000);
        assert_eq!(h.max(), 1_000_000);
        assert_eq!(h.mean(), 500_500.0);
    }

    #[test]
    fn empty_stats_summarise_to_zeros() {
        let s = Stats::default().summary(Duration::ZERO, 1);
        assert_eq!((s.records, s.puzzles), (0, 0));
        assert_eq!(s.micros.p99, 0.0);
        assert_eq!(s.puzzles_per_second, 0.0);
    }

    #[test]
    fn folding_batches_equals_counting_at_once() {
        let answers = [
            answer(Status::Solved, 0, 1500),
            answer(Status::Solved, 3, 25_000),
            answer(Status::Malformed, 0, 0),
            answer(Status::Contradiction, 0, 100),
            answer(Status::Unsolvable, 2, 9000),
        ];
        let mut whole = Stats::default();
        answers.iter().for_each(|a| whole.add(a));
        let (mut a, mut b) = (Stats::default(), Stats::default());
        answers[..2].iter().for_each(|x| a.add(x));
        answers[2..].iter().for_each(|x| b.add(x));
        a += &b;
        let (x, y) = (
            whole.summary(Duration::from_secs(1), 2),
            a.summary(Duration::from_secs(1), 2),
        );
        assert_eq!(
            serde_json::to_string(&x).unwrap(),
            serde_json::to_string(&y).unwrap()
        );
        assert_eq!(x.records, 5);
        assert_eq!(x.puzzles, 3);
        assert_eq!(x.statuses.get(Status::Solved), 2);
        assert_eq!(x.statuses.get(Status::Unique), 0);
        assert!((x.guesses_per_puzzle - 5.0 / 3.0).abs() < 1e-9);
        assert!((x.no_guess_share - 1.0 / 3.0).abs() < 1e-9);
        assert_eq!(x.micros.max, 25.0);
        // statuses listed in Status::ALL order, not alphabetically
        assert!(
            x.to_string().starts_with(
                "records:    5 (solved 2, unsolvable 1, contradiction 1, malformed 1)"
            )
        );
        let json = serde_json::to_string(&x.statuses).unwrap();
        assert_eq!(
            json,
            r#"{"solved":2,"unsolvable":1,"contradiction":1,"malformed":1}"#
        );
        assert_eq!(x.puzzles_per_second, 3.0);
    }
}
