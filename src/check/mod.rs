//! Dataset validation: one [`Verdict`] per record, with a detail a maintainer can act on.
//!
//! [`check_record`] is a pure function of one record (and, for `--duplicates`, of where its puzzle
//! was first seen), so it runs on the pipeline's thread pool. It always searches for a second
//! solution (`solve(&puzzle, 2)`), and decides in this order:
//!
//! 1. `malformed`: the record is not a puzzle (the reader's reason);
//! 2. `duplicate`: the puzzle repeats an earlier record's ([`Duplicates`], decided in input order
//!    before the records reach the pool); it is not searched again, its detail names the first;
//! 3. `contradiction`: two equal givens in a unit (the detail names the digit, unit and cells);
//! 4. `unsolvable`: no solution;
//! 5. `wrong_solution`: the record gives a solution (see [`crate::input::Record::solution`]) that
//!    is not 81 cells, leaves a cell blank, changes a given, breaks a unit, or (unique puzzles)
//!    differs from the only solution: the detail says which, and where;
//! 6. `multiple` (two or more solutions; the detail names the cells where the first two found
//!    differ, where a given would settle it) or `unique`.
//!
//! With [`Options::minimal`], each given of a puzzle with one solution is removed in turn and the
//! rest searched again (limit 2): a given is redundant when the puzzle without it still has one
//! solution; a puzzle is minimal when none is. That is one more search per given.
//!
//! With [`Options::rate`], each `unique` puzzle is also rated on Sudoku Explainer's scale
//! ([`crate::rate::rate`], the rating `rate` gives); records with any other verdict get no
//! rating.

use std::collections::BTreeMap;

use serde::Serialize;
use serde::ser::SerializeMap;

use crate::grid::{CELLS, Grid, ParseError, cell_name};
use crate::input::Record;
use crate::rate::{self, Rating};
use crate::ratings::RatingCounts;
use crate::solver;
use crate::stats::Interruption;

mod duplicates;
pub mod report;
pub mod summary;

#[cfg(test)]
use duplicates::digest;
pub use duplicates::{DuplicateMode, Duplicates, Prehashed};

/// What checking one record found; the same words in every output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Exactly one solution (and the given solution, if any, is it).
    Unique,
    /// Two or more solutions.
    Multiple,
    /// Well formed, consistent givens, no solution.
    Unsolvable,
    /// Two equal givens in a row, column or box.
    Contradiction,
    /// Not readable as a puzzle.
    Malformed,
    /// The given solution is not a solution of the puzzle (or not its only one).
    WrongSolution,
    /// The puzzle repeats an earlier record's.
    Duplicate,
}

impl Verdict {
    /// Every verdict, in the order summaries list them (`verdict as usize` indexes it).
    pub const ALL: [Verdict; 7] = [
        Verdict::Unique,
        Verdict::Multiple,
        Verdict::Unsolvable,
        Verdict::Contradiction,
        Verdict::Malformed,
        Verdict::WrongSolution,
        Verdict::Duplicate,
    ];

    /// The verdict word.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Unique => "unique",
            Verdict::Multiple => "multiple",
            Verdict::Unsolvable => "unsolvable",
            Verdict::Contradiction => "contradiction",
            Verdict::Malformed => "malformed",
            Verdict::WrongSolution => "wrong_solution",
            Verdict::Duplicate => "duplicate",
        }
    }

    /// True for every verdict but `unique`: the record needs a maintainer's attention.
    pub fn is_problem(self) -> bool {
        self != Verdict::Unique
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What checking one record found.
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    /// The verdict.
    pub verdict: Verdict,
    /// Why: set for every problem, and for a `unique` puzzle that is not minimal (with
    /// [`Options::minimal`]); `None` for a plain `unique`.
    pub detail: Option<String>,
    /// The puzzle's only solution, when it has exactly one (`unique`, and `wrong_solution` of a
    /// unique puzzle).
    pub solution: Option<Grid>,
    /// With [`Options::minimal`], for a puzzle with exactly one solution: its redundant givens
    /// (0-based cells, in reading order; empty for a minimal puzzle). `None` when not looked at.
    pub redundant: Option<Vec<u8>>,
    /// Guesses of the uniqueness search (see [`solver::Outcome::guesses`]): a difficulty proxy.
    /// `None` when the puzzle was not searched (malformed, duplicate, contradiction).
    pub guesses: Option<u64>,
    /// With [`Options::rate`], the rating of a `unique` record (`None` for any other verdict).
    pub rating: Option<Rating>,
}

impl Check {
    /// A check with a verdict and a detail, nothing else.
    fn plain(verdict: Verdict, detail: String) -> Check {
        Check {
            verdict,
            detail: Some(detail),
            solution: None,
            redundant: None,
            guesses: None,
            rating: None,
        }
    }

    /// True when the record is worth listing: a problem, or a unique puzzle with redundant givens.
    pub fn is_finding(&self) -> bool {
        self.verdict.is_problem() || self.redundant.as_ref().is_some_and(|r| !r.is_empty())
    }
}

/// How much to check.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// Also test, for puzzles with one solution, which givens are redundant (a search per given).
    pub minimal: bool,
    /// Also rate each `unique` puzzle on Sudoku Explainer's scale (far costlier than checking).
    pub rate: bool,
    /// With `rate`, the bound (tenths) past which a rating stops ([`rate::Options::max_er`]).
    pub max_er: Option<u32>,
}

/// Checks one record. `duplicate_of` says which earlier record its puzzle repeats, when it repeats
/// one (the detail [`Duplicates::first_seen`] gives); such a record is not searched.
pub fn check_record(record: &Record, duplicate_of: Option<&str>, options: &Options) -> Check {
    let puzzle = match &record.puzzle {
        Ok(puzzle) => puzzle,
        Err(reason) => return Check::plain(Verdict::Malformed, reason.clone()),
    };
    if let Some(first) = duplicate_of {
        return Check::plain(Verdict::Duplicate, first.to_string());
    }
    check_puzzle(puzzle, record.solution.as_deref(), options)
}

/// Checks one puzzle and the solution the dataset gives for it, if any (as text, so that one that
/// is not 81 cells is reported too).
pub fn check_puzzle(puzzle: &Grid, given: Option<&str>, options: &Options) -> Check {
    let outcome = match solver::solve(puzzle, 2) {
        Ok(outcome) => outcome,
        Err(conflict) => return Check::plain(Verdict::Contradiction, conflict.to_string()),
    };
    let given = given.map(|text| Grid::parse(text.as_bytes()));
    let ambiguity = || match (&outcome.solution, &outcome.second) {
        (Some(first), Some(second)) => format!("; {}", ambiguity(first, second)),
        _ => String::new(),
    };
    let mut check = match (outcome.count, outcome.solution) {
        (1, Some(only)) => {
            let redundant = options.minimal.then(|| redundant_givens(puzzle));
            let wrong = given.and_then(|g| wrong_solution(&g, puzzle, Some(&only)));
            let (verdict, detail) = match wrong {
                Some(why) => (Verdict::WrongSolution, Some(why)),
                None => (Verdict::Unique, redundant.as_deref().and_then(not_minimal)),
            };
            Check {
                verdict,
                detail,
                solution: Some(only),
                redundant,
                guesses: None,
                rating: None,
            }
        }
        (0, _) | (_, None) => Check::plain(Verdict::Unsolvable, "no solution".to_string()),
        (_, Some(_)) => match given.map(|g| wrong_solution(&g, puzzle, None)) {
            Some(Some(why)) => Check::plain(Verdict::WrongSolution, why),
            Some(None) => Check::plain(
                Verdict::Multiple,
                format!(
                    "2 or more solutions (the given solution is one){}",
                    ambiguity()
                ),
            ),
            None => Check::plain(
                Verdict::Multiple,
                format!("2 or more solutions{}", ambiguity()),
            ),
        },
    };
    check.guesses = Some(outcome.guesses);
    if options.rate && check.verdict == Verdict::Unique {
        // one solution, found above: the rater's own search for a second cannot fail
        check.rating = rate::rate(
            puzzle,
            &rate::Options {
                max_er: options.max_er,
                ..rate::Options::default()
            },
        )
        .ok();
    }
    check
}

/// Cells listed, at most, where two solutions of an ambiguous puzzle differ.
const AMBIGUOUS_SHOWN: usize = 10;

/// Where two solutions of a puzzle differ, for a maintainer to add a given there:
/// `two of them differ in 4 cells: r1c2 (3/5), r1c7 (5/3), r9c2 (5/3), r9c7 (3/5)`.
fn ambiguity(first: &Grid, second: &Grid) -> String {
    let (n, cells) = differing(first, second, AMBIGUOUS_SHOWN, |i| {
        format!(
            "{} ({}/{})",
            cell_name(i),
            first.cells()[i],
            second.cells()[i]
        )
    });
    format!("two of them differ in {n} cells: {cells}")
}

/// The cells where `a` and `b` differ: how many, and the first `shown` of them as `show` names
/// each, joined with `, ` (and `, ...` after them when some were left out).
fn differing(a: &Grid, b: &Grid, shown: usize, show: impl Fn(usize) -> String) -> (usize, String) {
    let differ: Vec<usize> = (0..CELLS)
        .filter(|&i| a.cells()[i] != b.cells()[i])
        .collect();
    let mut listed: Vec<String> = differ.iter().take(shown).map(|&i| show(i)).collect();
    if differ.len() > shown {
        listed.push("...".to_string());
    }
    (differ.len(), listed.join(", "))
}

/// Why `given` is not right for `puzzle` (whose only solution is `only`, when it has one), or
/// `None` when it is.
fn wrong_solution(
    given: &Result<Grid, ParseError>,
    puzzle: &Grid,
    only: Option<&Grid>,
) -> Option<String> {
    let given = match given {
        Ok(given) => given,
        Err(e) => return Some(format!("given solution: {e}")),
    };
    let right = match only {
        Some(only) => given == only,
        None => given.solves(puzzle),
    };
    if right {
        return None;
    }
    // a complete valid grid keeping the givens solves the puzzle, so for a unique puzzle it is
    // the only solution: one of these flaws is always there
    let mut why = flaw(given, puzzle)
        .unwrap_or_else(|| "given solution differs from the only solution".to_string());
    if let Some(only) = only {
        why.push_str("; ");
        why.push_str(&differences(given, only));
    }
    Some(why)
}

/// The first thing that keeps `given` from solving `puzzle`: a blank cell, a changed given, two
/// equal digits in a unit. `None` when it solves it.
pub fn flaw(given: &Grid, puzzle: &Grid) -> Option<String> {
    let (g, p) = (given.cells(), puzzle.cells());
    let blanks = g.iter().filter(|&&v| v == 0).count();
    if let Some(first) = g.iter().position(|&v| v == 0) {
        return Some(if blanks == 1 {
            format!("given solution leaves {} blank", cell_name(first))
        } else {
            format!(
                "given solution leaves {blanks} cells blank, first {}",
                cell_name(first)
            )
        });
    }
    if let Some(cell) = (0..CELLS).find(|&i| p[i] != 0 && g[i] != p[i]) {
        return Some(format!(
            "given solution has {} at {}, where the puzzle gives {}",
            g[cell],
            cell_name(cell),
            p[cell]
        ));
    }
    given
        .conflict()
        .map(|conflict| format!("given solution has {conflict}"))
}

/// Cells listed, at most, where a given solution differs from the only one.
const DIFFERENCES_SHOWN: usize = 3;

/// Where `given` differs from `only`: `2 cells differ from the only solution: r1c1 is 4 not 3, ...`.
fn differences(given: &Grid, only: &Grid) -> String {
    let (n, cells) = differing(given, only, DIFFERENCES_SHOWN, |i| {
        let had = match given.cells()[i] {
            0 => "blank".to_string(),
            d => d.to_string(),
        };
        format!("{} is {had} not {}", cell_name(i), only.cells()[i])
    });
    let differ = if n == 1 {
        "cell differs"
    } else {
        "cells differ"
    };
    format!("{n} {differ} from the only solution: {cells}")
}

/// The givens of a puzzle with one solution whose removal alone leaves it with one solution.
fn redundant_givens(puzzle: &Grid) -> Vec<u8> {
    let mut cells = *puzzle.cells();
    let mut redundant = Vec::new();
    for cell in 0..CELLS {
        let digit = cells[cell];
        if digit == 0 {
            continue;
        }
        cells[cell] = 0;
        // removing a given keeps the solution, so the count is 1 (redundant) or 2
        let unique = Grid::from_values(cells)
            .and_then(|fewer| solver::solve(&fewer, 2).ok())
            .is_some_and(|outcome| outcome.count == 1);
        if unique {
            redundant.push(cell as u8);
        }
        cells[cell] = digit;
    }
    redundant
}

/// The detail of a unique puzzle with these redundant givens: `None` when it is minimal.
fn not_minimal(redundant: &[u8]) -> Option<String> {
    if redundant.is_empty() {
        return None;
    }
    let names: Vec<String> = redundant.iter().map(|&c| cell_name(c as usize)).collect();
    let givens = if names.len() == 1 { "given" } else { "givens" };
    Some(format!(
        "not minimal: {} redundant {givens} ({})",
        names.len(),
        names.join(", ")
    ))
}

/// Counts of a check run: records per verdict and, with `--minimal`, minimality.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    verdicts: VerdictCounts,
    given_solutions: u64,
    minimal: Minimality,
    looked_minimal: bool,
    stats: DatasetStats,
    ratings: RatingCounts,
}

impl Tally {
    /// Counts one record's check.
    pub fn add(&mut self, record: &Record, check: &Check) {
        self.verdicts.0[check.verdict as usize] += 1;
        if let Ok(puzzle) = &record.puzzle {
            self.stats.givens[puzzle.givens()] += 1;
        }
        if let Some(guesses) = check.guesses {
            self.stats.guesses[guess_bucket(guesses)] += 1;
        }
        self.given_solutions += u64::from(record.solution.is_some());
        if let Some(rating) = &check.rating {
            self.ratings.add(rating);
        }
        if let Some(redundant) = &check.redundant {
            self.looked_minimal = true;
            self.minimal.checked += 1;
            if redundant.is_empty() {
                self.minimal.minimal += 1;
            } else {
                self.minimal.not_minimal += 1;
                self.minimal.redundant_givens += redundant.len() as u64;
            }
        }
    }

    /// Adds the counts of `other` (a later part of the same run: the hardest rating of a tie is
    /// this one's).
    pub fn merge(&mut self, other: &Tally) {
        for (all, n) in self.verdicts.0.iter_mut().zip(other.verdicts.0) {
            *all += n;
        }
        self.given_solutions += other.given_solutions;
        self.minimal += &other.minimal;
        self.looked_minimal |= other.looked_minimal;
        self.stats.add_counts(&other.stats);
        self.ratings.merge(&other.ratings);
    }

    /// Records counted.
    pub fn records(&self) -> u64 {
        self.verdicts.0.iter().sum()
    }

    /// Records with a problem (any verdict but `unique`).
    pub fn problems(&self) -> u64 {
        self.records() - self.verdicts.get(Verdict::Unique)
    }

    /// The totals, for summaries and reports; `options` say whether minimality was looked at
    /// and puzzles rated.
    pub fn totals(&self, options: &Options) -> Totals {
        let minimal = options.minimal;
        Totals {
            records: self.records(),
            problems: self.problems(),
            verdicts: self.verdicts.clone(),
            given_solutions: self.given_solutions,
            minimal: (minimal || self.looked_minimal).then(|| self.minimal.clone()),
            stats: self.stats.clone(),
            ratings: options.rate.then(|| self.ratings.clone()),
            max_er: options.max_er.filter(|_| options.rate),
            duplicates: None,
            interrupted: None,
        }
    }

    /// Adds the sizes of the classes of repeated puzzles a run's [`Duplicates`] found.
    pub fn set_duplicates(&mut self, duplicates: &Duplicates) {
        self.stats.distinct = Some(duplicates.len() as u64);
        self.stats.duplicate_classes = duplicates.class_sizes();
    }
}

/// The bucket of a guess count: 0 for none, else `k` for `2^(k-1) ..= 2^k - 1` guesses.
fn guess_bucket(guesses: u64) -> usize {
    (u64::BITS - guesses.leading_zeros()) as usize
}

/// The guesses bucket `k` of [`DatasetStats::guesses`] holds: `(0, 0)` for 0, else
/// `(2^(k-1), 2^k - 1)`.
pub fn guess_bucket_range(k: usize) -> (u64, u64) {
    match k {
        0 => (0, 0),
        _ => {
            let least = 1u64 << (k - 1).min(63);
            (least, least.saturating_mul(2) - 1)
        }
    }
}

/// What a dataset holds, for `check`'s report: how many givens its puzzles have, how hard they
/// are for the solver (guesses of the uniqueness search, a difficulty proxy), and with
/// `--duplicates` how its repeated puzzles group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DatasetStats {
    /// Well-formed puzzles per number of givens (index 0 to 81).
    pub givens: [u64; CELLS + 1],
    /// Searched puzzles per guess bucket: index 0 for no guess, `k` for `2^(k-1)` to `2^k - 1`.
    pub guesses: [u64; 65],
    /// With `--duplicates`: distinct puzzles (classes, with `iso`).
    pub distinct: Option<u64>,
    /// With `--duplicates`: for each size of a class of repeated puzzles (2 or more records),
    /// how many classes have it.
    pub duplicate_classes: BTreeMap<u64, u64>,
}

impl Default for DatasetStats {
    fn default() -> DatasetStats {
        DatasetStats {
            givens: [0; CELLS + 1],
            guesses: [0; 65],
            distinct: None,
            duplicate_classes: BTreeMap::new(),
        }
    }
}

impl DatasetStats {
    /// Adds the puzzles of `other` to the counts by givens, guesses and class size (`distinct`,
    /// which does not add up, is left alone).
    pub fn add_counts(&mut self, other: &DatasetStats) {
        for (all, n) in self.givens.iter_mut().zip(other.givens) {
            *all += n;
        }
        for (all, n) in self.guesses.iter_mut().zip(other.guesses) {
            *all += n;
        }
        for (&size, &n) in &other.duplicate_classes {
            *self.duplicate_classes.entry(size).or_insert(0) += n;
        }
    }

    /// `(givens, puzzles)` for every count of givens some puzzle has.
    pub fn givens(&self) -> impl Iterator<Item = (usize, u64)> + '_ {
        self.givens
            .iter()
            .enumerate()
            .filter(|&(_, &n)| n > 0)
            .map(|(g, &n)| (g, n))
    }

    /// `(least, most, puzzles)` guesses for every bucket some puzzle falls in.
    pub fn guesses(&self) -> impl Iterator<Item = (u64, u64, u64)> + '_ {
        self.guesses
            .iter()
            .enumerate()
            .filter(|&(_, &n)| n > 0)
            .map(|(k, &n)| {
                let (least, most) = guess_bucket_range(k);
                (least, most, n)
            })
    }
}

impl Serialize for DatasetStats {
    /// `{"givens":{"17":n,...},"guesses":[{"min":0,"max":0,"puzzles":n},...],"distinct":n|null,
    /// "duplicate_classes":{"2":n,...}}`, in numeric order, buckets with no puzzle left out.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Bucket {
            min: u64,
            max: u64,
            puzzles: u64,
        }
        /// Counts keyed by number, in numeric order (a map keyed by strings would sort "9"
        /// after "32").
        struct Numbered(Vec<(u64, u64)>);
        impl Serialize for Numbered {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut map = serializer.serialize_map(Some(self.0.len()))?;
                for (key, n) in &self.0 {
                    map.serialize_entry(&key.to_string(), n)?;
                }
                map.end()
            }
        }
        let givens = Numbered(self.givens().map(|(g, n)| (g as u64, n)).collect());
        let guesses: Vec<Bucket> = self
            .guesses()
            .map(|(min, max, puzzles)| Bucket { min, max, puzzles })
            .collect();
        let classes = Numbered(
            self.duplicate_classes
                .iter()
                .map(|(&k, &n)| (k, n))
                .collect(),
        );
        let mut map = serializer.serialize_map(Some(4))?;
        map.serialize_entry("givens", &givens)?;
        map.serialize_entry("guesses", &guesses)?;
        map.serialize_entry("distinct", &self.distinct)?;
        map.serialize_entry("duplicate_classes", &classes)?;
        map.end()
    }
}

/// Records per verdict, indexed by `verdict as usize`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VerdictCounts([u64; Verdict::ALL.len()]);

impl VerdictCounts {
    /// Every verdict with its count (zeros included), in [`Verdict::ALL`] order.
    pub fn iter(&self) -> impl Iterator<Item = (Verdict, u64)> + '_ {
        Verdict::ALL.into_iter().map(|v| (v, self.0[v as usize]))
    }

    /// The count of one verdict.
    pub fn get(&self, verdict: Verdict) -> u64 {
        self.0[verdict as usize]
    }
}

impl Serialize for VerdictCounts {
    /// A JSON object from verdict word to count, every verdict, in [`Verdict::ALL`] order.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(Verdict::ALL.len()))?;
        for (verdict, n) in self.iter() {
            map.serialize_entry(verdict.as_str(), &n)?;
        }
        map.end()
    }
}

/// Minimality of the puzzles with one solution (`--minimal`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Minimality {
    /// Puzzles with one solution whose givens were tested.
    pub checked: u64,
    /// Of those, puzzles with no redundant given.
    pub minimal: u64,
    /// Of those, puzzles with at least one redundant given.
    pub not_minimal: u64,
    /// Redundant givens over all puzzles (each removable alone, keeping one solution).
    pub redundant_givens: u64,
}

impl std::ops::AddAssign<&Minimality> for Minimality {
    fn add_assign(&mut self, other: &Minimality) {
        self.checked += other.checked;
        self.minimal += other.minimal;
        self.not_minimal += other.not_minimal;
        self.redundant_givens += other.redundant_givens;
    }
}

/// What a check run found, as summarised on stderr and written at the end of a report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Totals {
    /// Records checked.
    pub records: u64,
    /// Records with a problem (any verdict but `unique`).
    pub problems: u64,
    /// Records per verdict, every verdict listed.
    pub verdicts: VerdictCounts,
    /// Records that came with a given solution (compared unless the record is malformed, a
    /// duplicate, or its puzzle has a contradiction or no solution).
    pub given_solutions: u64,
    /// What the dataset holds: givens, guesses, duplicate classes.
    pub stats: DatasetStats,
    /// Minimality of the unique puzzles, when it was tested (`null` otherwise).
    pub minimal: Option<Minimality>,
    /// With `--rate`, the unique puzzles' ratings by band (`null` otherwise; absent from the
    /// files of runs made before it existed).
    #[serde(default)]
    pub ratings: Option<RatingCounts>,
    /// The `--max-er` bound of the ratings (`"7.2"`), left out when there was none.
    #[serde(
        default,
        with = "crate::ratings::bound_text",
        skip_serializing_if = "Option::is_none"
    )]
    pub max_er: Option<u32>,
    /// With `--duplicates`, which puzzles counted as the same (`"exact"`, `"iso"`); left out
    /// without. Runs of different modes do not add up.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duplicates: Option<String>,
    /// Set when a signal stopped the run before the end of its input (`null` otherwise): the
    /// totals count the records checked up to then.
    pub interrupted: Option<Interruption>,
}

impl std::fmt::Display for Totals {
    /// `300 records: 296 unique, 2 multiple, ...` (verdicts that occurred), `given solutions: 300`,
    /// then, when tested,
    /// `minimal: 250 of 296 puzzles with one solution; 46 have 71 redundant givens`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let counts: Vec<String> = self
            .verdicts
            .iter()
            .filter(|&(_, n)| n > 0)
            .map(|(v, n)| format!("{n} {v}"))
            .collect();
        let records = if self.records == 1 {
            "record"
        } else {
            "records"
        };
        write!(f, "{} {records}", self.records)?;
        if !counts.is_empty() {
            write!(f, ": {}", counts.join(", "))?;
        }
        match self.given_solutions {
            0 => write!(f, "\ngiven solutions: none")?,
            n => write!(f, "\ngiven solutions: {n}")?,
        }
        if let Some(m) = &self.minimal {
            write!(
                f,
                "\nminimal: {} of {} puzzles with one solution",
                m.minimal, m.checked
            )?;
            if m.not_minimal > 0 {
                let have = if m.not_minimal == 1 { "has" } else { "have" };
                let givens = if m.redundant_givens == 1 {
                    "given"
                } else {
                    "givens"
                };
                write!(
                    f,
                    "; {} {have} {} redundant {givens}",
                    m.not_minimal, m.redundant_givens
                )?;
            }
        }
        if let Some(ratings) = &self.ratings {
            write!(f, "\n{}", ratings.line(self.max_er))?;
        }
        if let Some(interruption) = &self.interrupted {
            write!(f, "\n{interruption}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
