//! New puzzles: each with exactly one solution, minimal unless asked otherwise, and made from a
//! seed and its place in the stream alone, so any record can be made again on its own.
//!
//! [`Generator::record`] makes record `i` of the stream of [`Options`] (whose seed is one of
//! them): the same puzzle on any thread, in any order, on any machine, whatever records are made
//! before or after it. A record is made by *tries*: each try draws a solution grid (or takes one
//! from [`Options::from`]), carves a puzzle out of it (`minimize`), and keeps it when it meets
//! every target (number of givens, pattern, symmetry, guesses, rating, not an excluded class). A record
//! that no try meets within [`Options::tries`] is a [`Failure::GaveUp`], never an endless loop.
//!
//! - `grids`: random solution grids and completions of a starting puzzle;
//! - `minimize`: carving (runs of removals, unavoidable sets), uniqueness and minimality;
//! - `symmetry`: symmetries as orbits of cells, and clue patterns;
//! - `hard`: the hill climb towards a range of guesses or of ratings;
//! - `rating`: how far a candidate's Sudoku Explainer rating lies from a range;
//! - `pattern`: the search for digits on a clue pattern;
//! - `exclude`: classes of isomorphic puzzles (excluded ones, and repeats within a run);
//! - `options`: what is asked for, read and checked.
//!
//! # The stream
//!
//! Record `i`'s random numbers come from the seed and `i` alone ([`record_rng`]), and its tries
//! draw them in order, so the record is fixed by `(seed, i, options)`. Which puzzle that is may
//! change between versions of sudoku-batch (a faster carving that visits givens in another
//! order, say), never within one: a test pins the first records of a seed.
//!
//! ```
//! use sudoku_batch::generate::{Generator, Options};
//! use sudoku_batch::solver;
//!
//! let generator = Generator::new(Options { seed: 7, ..Options::default() }).unwrap();
//! let record = generator.record(0).unwrap();
//! assert_eq!(solver::solve(&record.puzzle, 2).unwrap().count, 1);
//! assert_eq!(generator.record(0).unwrap(), record); // the same every time
//! ```

mod exclude;
mod grids;
mod hard;
mod minimize;
mod options;
mod pattern;
mod rating;
mod symmetry;

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};

pub use exclude::{ClassKey, Exclusions, class_key};
pub use options::{
    Bounds, BoundsError, DEFAULT_MAX_TRIES, DEFAULT_MAX_TRIES_GUESSES, DEFAULT_MAX_TRIES_SYMMETRY,
    Options, OptionsError, RatingRange, Start, StartError,
};
pub use rating::{Er, LOWEST as LOWEST_ER};
pub use symmetry::{PATTERN_BLANKS, PATTERN_MARKS, Pattern, PatternError, Symmetry};

use crate::grid::{CELLS, Grid};
use crate::solver;
use crate::transform::Rng;

use minimize::Carver;

/// One record of the stream: a puzzle with exactly one solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Generated {
    /// Its place in the stream, from 0 (the command numbers records from 1).
    pub index: u64,
    /// The puzzle.
    pub puzzle: Grid,
    /// Its only solution.
    pub solution: Grid,
    /// Its number of givens.
    pub givens: u32,
    /// The guesses `solve --unique` reports for it ([`crate::solver::Outcome::guesses`] of a
    /// search up to two solutions): 0 when deduction alone proves the one solution.
    pub guesses: u64,
    /// The symmetry its givens were placed with (the one drawn, for [`Symmetry::Random`]).
    pub symmetry: Symmetry,
    /// The tries it took (1: the first candidate met every target).
    pub tries: u64,
    /// With [`Options::rating`], its rating (exact, in range); `None` otherwise.
    pub rating: Option<Er>,
}

/// What the tries of a record that gave up came closest to, for the message.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Reached {
    /// Unique candidates made (minimal, when asked).
    pub puzzles: u64,
    /// The fewest and most givens among them.
    pub givens: Option<(u32, u32)>,
    /// The most guesses among them.
    pub guesses: Option<u64>,
    /// Candidates isomorphic to an excluded puzzle.
    pub excluded: u64,
    /// Pattern searches' steps that left several solutions (not counted yet: the search
    /// counts solutions instead).
    pub not_unique: u64,
    /// With [`Options::rating`], the closest a rated candidate's ER came to the range, in
    /// tenths, as far as known (a rating stopped above the range's top is known only to be
    /// past it: at least a tenth), so every candidate was at least this far (0: one was in
    /// range, but missed another target).
    pub er_off: Option<u64>,
    /// Candidates that were unique but not minimal (a symmetric one with a given to spare).
    pub not_minimal: u64,
    /// With `--no-minimal`, candidates that were minimal (no given to spare).
    pub minimal: u64,
    /// Set when the record gave up after one try, since every try from its start makes the
    /// same puzzle (a `--from` puzzle with one solution).
    pub same_every_try: bool,
}

impl Reached {
    fn note(&mut self, givens: u32, guesses: u64) {
        self.note_givens(givens);
        self.guesses = Some(self.guesses.map_or(guesses, |g| g.max(guesses)));
    }

    /// A puzzle with one solution made, of `givens` givens (its guesses not counted).
    fn note_givens(&mut self, givens: u32) {
        self.puzzles += 1;
        self.givens = Some(match self.givens {
            None => (givens, givens),
            Some((lo, hi)) => (lo.min(givens), hi.max(givens)),
        });
    }

    fn note_er(&mut self, off: u64) {
        self.er_off = Some(self.er_off.map_or(off, |o| o.min(off)));
    }
}

impl fmt::Display for Reached {
    /// `12 puzzles with one solution made, 21..27 givens, at most 4 guesses; 3 isomorphic to an
    /// excluded puzzle`,
    /// leaving out what is nought.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // not "unique puzzles": read as different ones, though a --from puzzle that keeps its
        // givens makes the same one at every try
        write!(f, "{} puzzle", self.puzzles)?;
        if self.puzzles != 1 {
            f.write_str("s")?;
        }
        f.write_str(" with one solution made")?;
        if let Some((lo, hi)) = self.givens {
            match lo == hi {
                true => write!(f, ", {lo} givens")?,
                false => write!(f, ", {lo}..{hi} givens")?,
            }
        }
        if let Some(g) = self.guesses {
            write!(f, ", at most {g} guesses")?;
        }
        match self.er_off {
            Some(u64::MAX) | None => {}
            Some(0) => f.write_str(", ER in range")?,
            Some(off) => write!(
                f,
                ", every ER at least {}.{} from the range",
                off / 10,
                off % 10
            )?,
        }
        if self.same_every_try {
            f.write_str(
                "; its start (--from) is a puzzle with one solution, so every try makes that \
                 same puzzle: no other was tried",
            )?;
        }
        for (n, what) in [
            (self.not_unique, "with more than one solution"),
            (self.not_minimal, "not minimal"),
            (
                self.minimal,
                "minimal (--no-minimal asks for a given to spare)",
            ),
            (self.excluded, "isomorphic to an excluded puzzle"),
        ] {
            if n > 0 {
                write!(f, "; {n} {what}")?;
            }
        }
        Ok(())
    }
}

/// Why a record was not made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Failure {
    /// No try met every target within the tries allowed.
    #[error("no puzzle met the targets in {tries} tries ({reached})")]
    GaveUp {
        /// The tries made.
        tries: u64,
        /// What they came closest to.
        reached: Reached,
    },
    /// The caller's stop asked it to stop.
    #[error("stopped before it was made")]
    Stopped,
}

/// Makes the records of one stream (see the module documentation).
#[derive(Debug, Clone)]
pub struct Generator {
    options: Options,
}

impl Generator {
    /// A generator of the stream `options` describe, once they are checked
    /// ([`Options::validate`]).
    pub fn new(options: Options) -> Result<Generator, OptionsError> {
        options.validate()?;
        Ok(Generator { options })
    }

    /// The options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Record `index` of the stream.
    pub fn record(&self, index: u64) -> Result<Generated, Failure> {
        self.record_until(index, &|| false)
    }

    /// Record `index` of the stream, or [`Failure::Stopped`] as soon as `stop` says so (it is
    /// asked before every try): the same record as [`Generator::record`] gives, when it is not
    /// stopped.
    pub fn record_until(&self, index: u64, stop: &dyn Fn() -> bool) -> Result<Generated, Failure> {
        let o = &self.options;
        let mut rng = record_rng(o.seed, index);
        let start = match o.from.len() {
            0 => None,
            n => o.from.get((index % n as u64) as usize).copied(),
        };
        let mut budget = Budget {
            tries: 0,
            max: o.tries(),
            stop,
            reached: Reached::default(),
        };
        let climb = o.guesses.is_some() || o.rating.is_some_and(|r| r.lo >= CLIMB_ER);
        let found = match (o.pattern, climb) {
            // the pattern fixes the givens: its search, every target checked after
            (Some(pattern), _) => loop {
                let (puzzle, solution) = pattern::search(&pattern, &mut rng, &mut budget)?;
                let mut found = Generated {
                    index,
                    puzzle,
                    solution,
                    givens: pattern.givens(),
                    guesses: solver::solve(&puzzle, 2).map_or(0, |out| out.guesses),
                    symmetry: o.symmetry,
                    tries: 0,
                    rating: None,
                };
                budget.reached.note(found.givens, found.guesses);
                if self.accepts(&mut found, &mut budget.reached) {
                    break found;
                }
            },
            (None, true) => hard::climb(self, &mut rng, start.as_ref(), &mut budget)?,
            (None, false) => loop {
                budget.next()?;
                if let Some(mut found) = self.attempt(&mut rng, start.as_ref(), &mut budget.reached)
                {
                    if self.accepts(&mut found, &mut budget.reached) {
                        break found;
                    }
                }
                // every try from this start makes the same puzzle: the rest would miss alike
                // (they took a minute, --max-tries of them, before the record gave up)
                if budget.tries == 1 && self.same_every_try(start.as_ref()) {
                    budget.reached.same_every_try = true;
                    return Err(Failure::GaveUp {
                        tries: budget.tries,
                        reached: budget.reached,
                    });
                }
            },
        };
        Ok(Generated {
            index,
            tries: budget.tries,
            ..found
        })
    }

    /// True when every try from `start` makes the same puzzle: a `--from` puzzle with one
    /// solution, carved to a minimal puzzle with a symmetry fixed, is always carved to its own
    /// givens (and the cells the symmetry puts with them), since no removal can lose its
    /// uniqueness. (Without minimality each try carves to a floor of its own; `random` draws
    /// a symmetry a try.)
    fn same_every_try(&self, start: Option<&Start>) -> bool {
        let o = &self.options;
        let Some(Start::Puzzle(puzzle)) = start else {
            return false;
        };
        o.minimal
            && o.symmetry != Symmetry::Random
            && solver::solve(puzzle, 2).is_ok_and(|out| out.count == 1)
    }

    /// True when a candidate meets the targets the carving does not see to: guesses, not an
    /// excluded class, and its rating (set in `found` when in range), the costliest, last.
    fn accepts(&self, found: &mut Generated, reached: &mut Reached) -> bool {
        let o = &self.options;
        if o.guesses.is_some_and(|g| !g.contains(found.guesses)) {
            return false;
        }
        if o.exclude.contains(&found.puzzle) {
            reached.excluded += 1;
            return false;
        }
        o.rating.is_none() || found.rating.is_some() || self.rated(found, reached) == 0
    }

    /// How far `found`'s ER lies from [`Options::rating`] (0 inside it, and always 0 without
    /// it); its rating set when inside.
    fn rated(&self, found: &mut Generated, reached: &mut Reached) -> u64 {
        let Some(range) = self.options.rating else {
            return 0;
        };
        let (off, er) = rating::judge(&found.puzzle, range);
        reached.note_er(off);
        found.rating = er;
        off
    }

    /// One try: a grid drawn (or the start's), a puzzle carved out of it; `None` when it misses
    /// a target the carving sees (clues, minimality with a symmetry).
    fn attempt(
        &self,
        rng: &mut Rng,
        start: Option<&Start>,
        reached: &mut Reached,
    ) -> Option<Generated> {
        let mut carving = self.carving(rng, start)?;
        let floor = self.floor(rng);
        carving.carver.carve(&carving.units[..carving.len], floor);
        if !self.minimal_enough(&mut carving, reached) {
            return None;
        }
        self.finish(&carving, reached)
    }

    /// The givens a carving stops at: with `--no-minimal` and a clue range, a number drawn from
    /// the range; else 0 (carved down to minimal). Draws nothing from `rng` otherwise.
    pub(crate) fn floor(&self, rng: &mut Rng) -> u32 {
        match (self.options.minimal, self.options.clues) {
            (false, Some(clues)) => {
                // a puzzle has a blank: 81 givens are a solved grid (drawn, it was written as a
                // puzzle, rated ER 0.0)
                let lo = clues.lo.max(17);
                let hi = clues.hi.min(options::MOST_GIVENS);
                (lo + rng.below((hi - lo + 1) as usize) as u64) as u32
            }
            _ => 0,
        }
    }

    /// True when the carved puzzle is minimal as asked: with a symmetry the carving removes
    /// whole orbits, which leaves no orbit to spare but maybe a single given: such a puzzle is
    /// not minimal, and the try fails. With `--no-minimal` it is the other way round: a
    /// carving that could not get down to its floor stopped at a minimal puzzle (and one may
    /// land on its floor minimal), which is not what was asked for, and the try fails.
    fn minimal_enough(&self, carving: &mut Carving, reached: &mut Reached) -> bool {
        if self.options.minimal && carving.symmetry == Symmetry::None {
            return true;
        }
        let minimal = carving.carver.needs_every_given(carving.kept);
        if minimal == self.options.minimal {
            return true;
        }
        // one solution all the same: counted among those made (the give-up said "0 puzzles
        // with one solution made; 20000 not minimal")
        reached.note_givens(carving.carver.givens().count_ones());
        match minimal {
            true => reached.minimal += 1,
            false => reached.not_minimal += 1,
        }
        false
    }

    /// The record of a carved puzzle, when its number of givens is in range.
    fn finish(&self, carving: &Carving, reached: &mut Reached) -> Option<Generated> {
        let found = describe(carving, reached);
        self.clue_distance(found.givens).eq(&0).then_some(found)
    }

    /// How far `givens` is from the clue range (0 inside it, or with no range).
    fn clue_distance(&self, givens: u32) -> u64 {
        self.options
            .clues
            .map_or(0, |c| c.distance(u64::from(givens)))
    }

    /// The start of a try: its grid, its symmetry, the cells it keeps and the units (orbits) to
    /// carve in a random order. `None` when a starting puzzle has no completion (never: starts
    /// are checked).
    fn carving(&self, rng: &mut Rng, start: Option<&Start>) -> Option<Carving> {
        let o = &self.options;
        let symmetry = match o.symmetry {
            Symmetry::Random => Symmetry::DRAWN[rng.below(Symmetry::DRAWN.len())],
            s => s,
        };
        let (solution, kept) = match start {
            None => (grids::random_grid(rng), 0),
            Some(Start::Grid(grid)) => (*grid, 0),
            Some(start @ Start::Puzzle(puzzle)) => {
                (grids::complete(rng, puzzle.cells())?, start.kept())
            }
        };
        let orbits = &symmetry.orbits().masks;
        // a kept given keeps its whole orbit, so the puzzle stays symmetric; a start whose
        // givens and their images fill the grid makes no puzzle (81 givens are a solved grid):
        // a failed try (a fixed symmetry that always fills is refused when the start is read)
        let kept = symmetry.closure(kept);
        if kept == symmetry::ALL_CELLS {
            return None;
        }
        let mut units = [0u128; CELLS];
        let mut len = 0;
        for &orbit in orbits.iter().filter(|&&m| m & kept == 0) {
            units[len] = orbit;
            len += 1;
        }
        rng.shuffle(&mut units[..len]);
        let mut carver = Carver::new(&solution);
        carver.learn_pair_sets();
        carver.learn_line_sets();
        Some(Carving {
            carver,
            symmetry,
            kept,
            units,
            len,
        })
    }
}

/// The record of the puzzle `carving` holds (its index and tries left 0), noted in `reached`.
fn describe(carving: &Carving, reached: &mut Reached) -> Generated {
    let puzzle = carving.carver.puzzle();
    let givens = carving.carver.givens().count_ones();
    let guesses = solver::solve(&puzzle, 2).map_or(0, |out| out.guesses);
    reached.note(givens, guesses);
    Generated {
        index: 0,
        puzzle,
        solution: carving.carver.solution(),
        givens,
        guesses,
        symmetry: carving.symmetry,
        tries: 0,
        rating: None,
    }
}

/// A try under way.
struct Carving {
    carver: Carver,
    symmetry: Symmetry,
    /// Cells never removed: the start's givens and their orbits.
    kept: u128,
    /// The orbits that may be removed, the first `len`, in the try's random order.
    units: [u128; CELLS],
    len: usize,
}

/// The tries of one record: counted, bounded, and stopped on request.
pub(crate) struct Budget<'a> {
    tries: u64,
    max: u64,
    stop: &'a dyn Fn() -> bool,
    reached: Reached,
}

impl Budget<'_> {
    /// Counts a try, or fails when the tries are spent or the caller asks to stop.
    pub(crate) fn next(&mut self) -> Result<(), Failure> {
        if (self.stop)() {
            return Err(Failure::Stopped);
        }
        if self.tries >= self.max {
            return Err(Failure::GaveUp {
                tries: self.tries,
                reached: self.reached,
            });
        }
        self.tries += 1;
        Ok(())
    }
}

/// The largest start of a run that leaves out repeats: it makes the records before its first
/// (a billion records take hours on every core) and holds their classes in memory (16 to 40
/// bytes a record).
pub const MAX_DEDUPED_START: u64 = 1_000_000_000;

/// Records `start..start + count` of `generator`'s stream as `generate` writes them, in order:
/// made in parallel (on the current rayon pool, through [`crate::pipeline`]) a chunk at a time,
/// and with `dedupe` a record isomorphic to an earlier one of the stream left out, which makes
/// the records before `start` too, for their classes (see `generate` in the README). Also the
/// number of repeats left out, and the first record that gave up (index and failure), after
/// which nothing is made: the records returned are the ones before it. When `stop` says so
/// (it is asked before every try of every record), the records under way end with
/// [`Failure::Stopped`] and nothing more is made.
pub fn written(
    generator: &Generator,
    start: u64,
    count: u64,
    dedupe: bool,
    stop: &(dyn Fn() -> bool + Sync),
) -> (Vec<Generated>, u64, Option<(u64, Failure)>) {
    /// Records made at a time: enough for every thread, few enough to stop soon after a
    /// record gives up.
    const CHUNK: u64 = 1024;
    let end = start.saturating_add(count);
    let mut next = if dedupe && count > 0 { 0 } else { start };
    let mut seen = std::collections::HashSet::new();
    let (mut out, mut repeats) = (Vec::new(), 0);
    let mut made = Vec::new();
    while next < end {
        // a chunk does not straddle `start`
        let upto = if next < start { start } else { end };
        let len = (upto - next).min(CHUNK);
        let first = next;
        // the first record that gave up: the ones after it stop at once
        let gave_up = AtomicU64::new(u64::MAX);
        crate::pipeline::map_indexed_into(len as usize, &mut made, |k| {
            let index = first + k as u64;
            let halt = || gave_up.load(Ordering::Relaxed) < index || stop();
            let record = generator.record_until(index, &halt).inspect_err(|f| {
                if matches!(f, Failure::GaveUp { .. }) {
                    gave_up.fetch_min(index, Ordering::Relaxed);
                }
            })?;
            let key = if dedupe { class_key(&record.puzzle) } else { 0 };
            Ok((record, key))
        });
        for (k, result) in made.drain(..).enumerate() {
            let (record, key) = match result {
                Ok(done) => done,
                Err(failure) => return (out, repeats, Some((first + k as u64, failure))),
            };
            let fresh = !dedupe || seen.insert(key);
            if record.index < start {
                continue;
            }
            match fresh {
                true => out.push(record),
                false => repeats += 1,
            }
        }
        next += len;
    }
    (out, repeats, None)
}

/// Ratings from which `--rating` is reached by the hill climb rather than by carving puzzles
/// until one is in range, in tenths. ER is no smooth score (a step moves it by whole techniques,
/// and wide plateaus such as 7.1-7.2 hold most puzzles), and hard ratings are not that rare
/// among carved puzzles (one in 35 reaches 8.0, one in 100-190 8.5, one in 600-800 9.0), so the
/// climb pays only high up. Measured (20 records, one thread, AMD EPYC, shared machine, CPU
/// seconds carving / climbing): 8.5.. 2.37 / 2.74, 4.27 / 2.61, 3.39 / 3.74 (seeds 1 to 3);
/// 9.0.. 15.6 / 9.2, 17.7 / 10.5, 13.1 / 12.0; 8.0.. (wall, busier) 2.1 / 2.6. BENCHMARKS.md.
const CLIMB_ER: u64 = 85;

/// The random numbers of record `index` of the stream of `seed`: a function of the two alone.
pub fn record_rng(seed: u64, index: u64) -> Rng {
    // two rounds of splitmix64's mixing, so that neighbouring seeds and indices give unrelated
    // streams
    let base = Rng::new(seed).next_u64();
    let start = Rng::new(base ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03)).next_u64();
    Rng::new(start)
}

#[cfg(test)]
mod tests;
