//! `check --stats`: a check run's totals with its threads and wall time, as JSON that
//! `merge-stats` adds up with the files of the runs made beside it (the partitions of a job), as
//! it does for `solve --stats`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{DatasetStats, Minimality, Totals, Verdict, VerdictCounts};
use crate::ratings::RatingCounts;
use crate::stats::{self, PartInterruption};

/// The `--stats` JSON of a check run, or of several merged.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CheckSummary {
    /// Always `check`: tells `merge-stats` which kind of file it reads.
    pub command: String,
    /// What the run found.
    #[serde(flatten)]
    pub totals: Totals,
    /// Threads (added up over merged runs).
    pub threads: usize,
    /// Wall time, seconds (the longest of merged runs, which ran side by side).
    pub wall_seconds: f64,
    /// Runs added up into this summary (`null` for one run's own).
    #[serde(default)]
    pub parts: Option<u64>,
    /// The names of the runs counted (see [`crate::stats::Summary::runs`]).
    #[serde(default)]
    pub runs: Option<Vec<String>>,
    /// Merged summaries only: every part a signal stopped (see
    /// [`crate::stats::Summary::interrupted_parts`]).
    #[serde(default)]
    pub interrupted_parts: Option<Vec<PartInterruption>>,
    /// The file it was read from, for `interrupted_parts`; not in the JSON.
    #[serde(skip)]
    pub name: String,
}

/// The word in [`CheckSummary::command`].
pub const COMMAND: &str = "check";

impl CheckSummary {
    /// One run's summary.
    pub fn new(totals: Totals, threads: usize, wall_seconds: f64) -> CheckSummary {
        CheckSummary {
            command: COMMAND.to_string(),
            totals,
            threads,
            wall_seconds,
            parts: None,
            runs: None,
            interrupted_parts: None,
            name: String::new(),
        }
    }
}

/// Why check runs' summaries do not add up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    /// Some runs rated their puzzles (`check --rate`) and others did not: their counts by band
    /// would cover only part of the records.
    #[error(
        "{rated} was made with --rate and {unrated} without: the ratings would count only part \
         of the puzzles (merge the runs of one kind)"
    )]
    RatedAndNot {
        /// A part with ratings.
        rated: String,
        /// A part without.
        unrated: String,
    },
    /// Some runs looked at minimality (`check --minimal`) and others did not: the minimality
    /// counts would cover only part of the puzzles.
    #[error(
        "{minimal} was made with --minimal and {other} without: the minimality counts would \
         cover only part of the puzzles (merge the runs of one kind)"
    )]
    MinimalAndNot {
        /// A part with minimality counts.
        minimal: String,
        /// A part without.
        other: String,
    },
    /// Runs that looked for repeated puzzles in different ways (`--duplicates=exact`, `iso`, or
    /// not at all): their `duplicate` counts mean different things, or cover only some parts.
    #[error(
        "{first} was made with {} and {second} with {}: the duplicate counts would not add up \
         (merge the runs of one kind)",
        duplicates_name(first_mode),
        duplicates_name(second_mode)
    )]
    Duplicates {
        /// A part.
        first: String,
        /// Its mode.
        first_mode: Option<String>,
        /// A part of another mode.
        second: String,
        /// Its mode.
        second_mode: Option<String>,
    },
    /// A part whose counts no check run writes (edited by hand): what does not add up (the
    /// part is named by the caller, which looks at each file on its own first).
    #[error("{0}")]
    Inconsistent(String),
    /// Runs rated with different `--max-er` bounds (or one with and one without): their counts
    /// above the bound mean different things.
    #[error(
        "{first} was rated with {} and {second} with {}: the counts above the bound would not \
         add up (merge the runs of one bound)",
        bound_name(*first_bound),
        bound_name(*second_bound)
    )]
    Bounds {
        /// A part.
        first: String,
        /// Its bound (tenths).
        first_bound: Option<u32>,
        /// A part with another bound.
        second: String,
        /// Its bound.
        second_bound: Option<u32>,
    },
}

/// `--duplicates=iso`, or `no --duplicates`.
fn duplicates_name(mode: &Option<String>) -> String {
    match mode {
        Some(word) => format!("--duplicates={word}"),
        None => "no --duplicates".to_string(),
    }
}

/// `--max-er 7.2`, or `no --max-er`.
fn bound_name(bound: Option<u32>) -> String {
    match bound {
        Some(t) => format!("--max-er {}", crate::ratings::Tenths(t)),
        None => "no --max-er".to_string(),
    }
}

/// Adds up the summaries of check runs made side by side: every count adds up (verdicts,
/// givens, guesses, minimality, ratings by band, classes of repeated puzzles by size); the wall
/// time is the longest run's. Duplicates are found within each run only, so a merge of several
/// runs has no count of distinct puzzles (`distinct` is `null`). Runs with ratings (`--rate`)
/// and runs without do not mix: [`MergeError::RatedAndNot`].
pub fn merge(parts: &[CheckSummary]) -> Result<CheckSummary, MergeError> {
    for part in parts {
        if let Some(why) = inconsistency(&part.totals) {
            return Err(MergeError::Inconsistent(why));
        }
        if part.threads == 0 {
            return Err(MergeError::Inconsistent("a run on 0 threads".to_string()));
        }
    }
    let rated = parts.iter().find(|p| p.totals.ratings.is_some());
    let unrated = parts.iter().find(|p| p.totals.ratings.is_none());
    if let (Some(rated), Some(unrated)) = (rated, unrated) {
        return Err(MergeError::RatedAndNot {
            rated: rated.name.clone(),
            unrated: unrated.name.clone(),
        });
    }
    let minimal = parts.iter().find(|p| p.totals.minimal.is_some());
    let other = parts.iter().find(|p| p.totals.minimal.is_none());
    if let (Some(minimal), Some(other)) = (minimal, other) {
        return Err(MergeError::MinimalAndNot {
            minimal: minimal.name.clone(),
            other: other.name.clone(),
        });
    }
    let duplicates = parts.first().and_then(|p| p.totals.duplicates.clone());
    if let Some(other) = parts.iter().find(|p| p.totals.duplicates != duplicates) {
        return Err(MergeError::Duplicates {
            first: parts[0].name.clone(),
            first_mode: duplicates,
            second: other.name.clone(),
            second_mode: other.totals.duplicates.clone(),
        });
    }
    let max_er = parts.first().and_then(|p| p.totals.max_er);
    if let Some(other) = parts.iter().find(|p| p.totals.max_er != max_er) {
        return Err(MergeError::Bounds {
            first: parts[0].name.clone(),
            first_bound: max_er,
            second: other.name.clone(),
            second_bound: other.totals.max_er,
        });
    }
    let mut ratings = rated.map(|_| RatingCounts::default());
    let mut verdicts = [0u64; Verdict::ALL.len()];
    let mut stats = DatasetStats::default();
    let (mut records, mut problems, mut given) = (0, 0, 0);
    let mut minimal: Option<Minimality> = None;
    let (mut threads, mut wall, mut runs) = (0, 0f64, 0);
    for part in parts {
        let t = &part.totals;
        records += t.records;
        problems += t.problems;
        given += t.given_solutions;
        for (all, n) in verdicts.iter_mut().zip(t.verdicts.0) {
            *all += n;
        }
        stats.add_counts(&t.stats);
        if let (Some(sum), Some(r)) = (ratings.as_mut(), &t.ratings) {
            sum.merge(r);
        }
        if let Some(m) = &t.minimal {
            *minimal.get_or_insert_with(Minimality::default) += m;
        }
        threads += part.threads;
        wall = wall.max(part.wall_seconds);
        runs += part.parts.unwrap_or(1);
    }
    if let [one] = parts {
        stats.distinct = one.totals.stats.distinct;
    }
    let interrupted = stats::interruptions(
        parts
            .iter()
            .map(|p| (p.name.as_str(), &p.interrupted_parts, &p.totals.interrupted)),
    );
    let totals = Totals {
        records,
        problems,
        verdicts: VerdictCounts(verdicts),
        given_solutions: given,
        stats,
        minimal,
        ratings,
        max_er,
        duplicates,
        interrupted: interrupted.first().map(|p| p.interruption.clone()),
    };
    Ok(CheckSummary {
        parts: Some(runs),
        runs: stats::merged_runs(parts.iter().map(|p| &p.runs)),
        interrupted_parts: Some(interrupted),
        ..CheckSummary::new(totals, threads, wall)
    })
}

/// What does not add up in one run's totals, as a check run writes them: every record has one
/// verdict, a problem is a record whose verdict is not `unique`, and the other counts are of
/// some of the records (minimality and ratings by their parts). A file edited by hand (`records`
/// 5 beside 300 verdicts, a million problems) was added up as it stood, exit 0.
fn inconsistency(t: &Totals) -> Option<String> {
    let verdicts: u64 = t.verdicts.iter().map(|(_, n)| n).sum();
    if verdicts != t.records {
        return Some(format!(
            "its verdicts add up to {verdicts}, not its {} records",
            t.records
        ));
    }
    let unique = t.verdicts.get(super::Verdict::Unique);
    if t.problems != t.records - unique {
        return Some(format!(
            "{} problems, where its records other than unique are {}",
            t.problems,
            t.records - unique
        ));
    }
    let givens: u64 = t.stats.givens.iter().sum();
    let guesses: u64 = t.stats.guesses.iter().sum();
    let repeated = (t.stats.duplicate_classes.iter()).fold(0u64, |sum, (size, n)| {
        sum.saturating_add(size.saturating_mul(*n))
    });
    for (what, n) in [
        ("given solutions", t.given_solutions),
        ("records in classes of repeated puzzles", repeated),
    ] {
        if n > t.records {
            return Some(format!("{n} {what}, of {} records", t.records));
        }
    }
    // every puzzle read has its givens counted, and every puzzle searched its guesses (all but
    // contradictions, and repeats, whose first is searched)
    use super::Verdict::{Malformed, Multiple, Unsolvable, WrongSolution};
    let read = t.records - t.verdicts.get(Malformed);
    let searched: u64 = [super::Verdict::Unique, Multiple, Unsolvable, WrongSolution]
        .into_iter()
        .map(|v| t.verdicts.get(v))
        .sum();
    for (what, n, want, whose) in [
        ("by givens", givens, read, "not malformed"),
        ("by guesses", guesses, searched, "searched"),
    ] {
        if n != want {
            return Some(format!(
                "its puzzles counted {what} are {n}, where its records {whose} are {want}"
            ));
        }
    }
    if let Some(m) = &t.minimal {
        if m.minimal + m.not_minimal != m.checked || m.checked > t.records {
            return Some(format!(
                "{} minimal and {} not minimal of {} checked, of {} records",
                m.minimal, m.not_minimal, m.checked, t.records
            ));
        }
        // a puzzle that is not minimal has one given to spare at least, and 81 at the most
        let spare = m.not_minimal..=m.not_minimal.saturating_mul(81);
        if !spare.contains(&m.redundant_givens) {
            return Some(format!(
                "{} givens to spare in {} puzzles not minimal",
                m.redundant_givens, m.not_minimal
            ));
        }
    }
    if let Some(r) = &t.ratings {
        let parts = r.below_6_5 + r.from_6_5_to_7_9 + r.from_8_0 + r.above_max_er + r.nested;
        if parts != r.rated || r.rated > t.records {
            return Some(format!(
                "ratings by band add up to {parts} of {} rated, of {} records",
                r.rated, t.records
            ));
        }
    }
    None
}

impl std::fmt::Display for CheckSummary {
    /// The totals as `check` prints them, the wall time, and for a merge its parts.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut totals = self.totals.clone();
        // a merge says which parts were stopped, below, instead of its first one's line
        if self.interrupted_parts.is_some() {
            totals.interrupted = None;
        }
        write!(f, "{totals}")?;
        let problems = match totals.problems {
            0 => "no problems".to_string(),
            1 => "1 problem".to_string(),
            n => format!("{n} problems"),
        };
        write!(
            f,
            "\n{problems}; checked in {:.3} s on {} thread{}",
            self.wall_seconds,
            self.threads,
            if self.threads == 1 { "" } else { "s" }
        )?;
        // a merge's parts; one run's interruption is in its totals' lines already
        stats::write_parts(f, self.parts, &self.interrupted_parts, &None)?;
        Ok(())
    }
}

/// Verdict counts as written: verdict word to count.
impl<'de> Deserialize<'de> for VerdictCounts {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let words = BTreeMap::<String, u64>::deserialize(deserializer)?;
        let mut counts = [0u64; Verdict::ALL.len()];
        for (word, n) in words {
            let verdict = Verdict::ALL
                .into_iter()
                .find(|v| v.as_str() == word)
                .ok_or_else(|| serde::de::Error::custom(format!("unknown verdict {word:?}")))?;
            counts[verdict as usize] = n;
        }
        Ok(VerdictCounts(counts))
    }
}

/// Dataset statistics as written (see their `Serialize`): givens by count, guesses by
/// power-of-two bucket, distinct puzzles, classes by size.
impl<'de> Deserialize<'de> for DatasetStats {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Bucket {
            min: u64,
            max: Option<u64>,
            puzzles: u64,
        }
        #[derive(Deserialize)]
        struct Written {
            givens: BTreeMap<String, u64>,
            guesses: Vec<Bucket>,
            distinct: Option<u64>,
            duplicate_classes: BTreeMap<String, u64>,
        }
        let bad = |what: String| serde::de::Error::custom(what);
        let written = Written::deserialize(deserializer)?;
        let mut stats = DatasetStats {
            distinct: written.distinct,
            ..DatasetStats::default()
        };
        for (key, n) in written.givens {
            let slot = key
                .parse::<usize>()
                .ok()
                .and_then(|g| stats.givens.get_mut(g))
                .ok_or_else(|| bad(format!("givens {key:?} out of range")))?;
            *slot = n;
        }
        for bucket in written.guesses {
            let k = super::guess_bucket(bucket.min);
            // a bucket as written: from a power of two (or 0) to just below the next
            let (least, most) = super::guess_bucket_range(k);
            if bucket.min != least || bucket.max.is_some_and(|max| max != most) {
                return Err(bad(format!(
                    "guesses bucket {}..{} is not one this build writes ({least}..{most})",
                    bucket.min,
                    bucket.max.map_or(String::new(), |m| m.to_string())
                )));
            }
            let slot = stats
                .guesses
                .get_mut(k)
                .ok_or_else(|| bad(format!("guesses bucket {} out of range", bucket.min)))?;
            // added, not set: a bucket named twice (by hand) replaced the count before it
            *slot = slot
                .checked_add(bucket.puzzles)
                .ok_or_else(|| bad("guesses overflow".to_string()))?;
        }
        for (key, n) in written.duplicate_classes {
            let size = key
                .parse::<u64>()
                .map_err(|_| bad(format!("class size {key:?} is not a number")))?;
            stats.duplicate_classes.insert(size, n);
        }
        Ok(stats)
    }
}
