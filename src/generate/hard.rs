//! The hill climb towards a range of guesses (`--guesses A..B`) or of ratings (`--rating
//! A..B`).
//!
//! Carving a random grid makes easy puzzles nearly always (a guess or none, BENCHMARKS.md has
//! the shares), so a range above them is not met by drawing puzzles until one falls in it. The
//! climb starts from a carved puzzle and takes steps on the same grid: drop one or two of its
//! givens, add one to four of the grid's other cells, keep the step if the puzzle still has one
//! solution, carve it down to minimal again (in a fresh random order; with `--no-minimal`, down
//! to the climb's floor drawn from the clue range), and keep the result when
//! it is no further from the range than where the climb stands (first in givens, when a clue
//! range is asked for too, then in guesses, then in ER): so it wanders over plateaus and moves
//! up. A candidate is rated only once its givens and guesses are in range (a rating costs tens
//! of microseconds to tens of milliseconds, a step's carving some microseconds). A climb that
//! has not come closer in [`STALL`] steps ([`STALL_RATING`] for a rating alone) starts again
//! from a new grid. Every step is one try of the record's budget, and every random number comes from the record's generator, so
//! the climb, like any record, depends on `(seed, index, options)` alone.
//!
//! The carver is kept along a climb: the unavoidable sets it learnt about the grid serve every
//! later step on it.

use crate::transform::Rng;

use super::{Bounds, Budget, Failure, Generated, Generator, Reached, Start, describe};

/// Steps a climb may take without coming closer to the range before it starts again from a new
/// grid. Measured (tries a puzzle of `--guesses 30..`, 40 records): 100 steps 131k, 400 79k,
/// 1,600 36k, 6,400 36k; of `--guesses 50..`, 20 records: 1,600 162k, 6,400 123k, 25,600 221k,
/// never 1,064k.
pub(crate) const STALL: u32 = 6400;

/// [`STALL`] when the climb is for a rating alone: ER moves by whole techniques and its
/// plateaus are wide, so a climb that stalls is better started again soon. Measured (seconds,
/// one thread, AMD EPYC, shared machine): `--rating 9.0..`, 10 records of seed 1: 50 steps 26.3,
/// 400 15.9, 6,400 20.0; 20 of seed 2: 100 32.0, 400 32.4; `--rating 8.5..`, 20 of seed 2: 100
/// 11.8, 400 8.5.
const STALL_RATING: u32 = 400;

/// Givens a step drops at most (one to this many, drawn).
const MOST_DROPPED: usize = 2;

/// Cells a step adds at most (one to this many, drawn). Measured (tries a puzzle of `--guesses
/// 50..`, 20 records, with [`STALL`] 6,400), dropping / adding at most: 1/1 1,483k, 1/2 271k,
/// 2/2 345k, 2/3 123k, 3/3 189k, 2/4 68k, 3/4 173k, 2/5 66k (slower steps: 4.6 s against 3.7).
const MOST_ADDED: usize = 4;

/// Record of the first puzzle within the guesses and ratings asked for (and every other
/// target) the climb reaches; [`Failure::GaveUp`] when the budget runs out first.
pub(crate) fn climb(
    generator: &Generator,
    rng: &mut Rng,
    start: Option<&Start>,
    budget: &mut Budget<'_>,
) -> Result<Generated, Failure> {
    let guesses = generator.options().guesses.unwrap_or(Bounds::ANY);
    let stall_max = match generator.options().guesses {
        Some(_) => STALL,
        None => STALL_RATING,
    };
    // how far from every range: givens, guesses, then ER (rated only when the others are met)
    let score = |found: &mut Generated, reached: &mut Reached| {
        let givens = generator.clue_distance(found.givens);
        let guesses = guesses.distance(found.guesses);
        let er = match (givens, guesses) {
            (0, 0) => generator.rated(found, reached),
            _ => u64::MAX,
        };
        (givens, guesses, er)
    };
    loop {
        budget.next()?;
        let Some(mut carving) = generator.carving(rng, start) else {
            continue;
        };
        let len = carving.len;
        // with --no-minimal, each climb carves down to a floor of its own (drawn here once)
        let floor = generator.floor(rng);
        carving.carver.carve(&carving.units[..len], floor);
        if !generator.minimal_enough(&mut carving, &mut budget.reached) {
            continue;
        }
        let mut current = describe(&carving, &mut budget.reached);
        let mut here = score(&mut current, &mut budget.reached);
        let mut stall = 0;
        loop {
            if here == (0, 0, 0) && generator.accepts(&mut current, &mut budget.reached) {
                return Ok(current);
            }
            // every step and climb from this start makes the same puzzle (a step's givens
            // added are carved away again): the rest would miss alike (they took a minute,
            // --max-tries of them, before the record gave up)
            if budget.tries == 1 && generator.same_every_try(start) {
                budget.reached.same_every_try = true;
                return Err(Failure::GaveUp {
                    tries: budget.tries,
                    reached: budget.reached,
                });
            }
            if stall >= stall_max {
                break;
            }
            budget.next()?;
            stall += 1;
            let before = carving.carver.givens();
            // the units given now and the ones blank, in the try's current order
            let (mut given, mut blank) = ([0u128; 81], [0u128; 81]);
            let (mut n_given, mut n_blank) = (0, 0);
            for &unit in &carving.units[..len] {
                if unit & before != 0 {
                    given[n_given] = unit;
                    n_given += 1;
                } else {
                    blank[n_blank] = unit;
                    n_blank += 1;
                }
            }
            let mut after = before;
            for _ in 0..(1 + rng.below(MOST_DROPPED)).min(n_given) {
                let k = rng.below(n_given);
                after &= !given[k];
                n_given -= 1;
                given.swap(k, n_given);
            }
            for _ in 0..(1 + rng.below(MOST_ADDED)).min(n_blank) {
                let k = rng.below(n_blank);
                after |= blank[k];
                n_blank -= 1;
                blank.swap(k, n_blank);
            }
            carving.carver.set_givens(after);
            if !carving.carver.is_unique() {
                carving.carver.set_givens(before);
                continue;
            }
            rng.shuffle(&mut carving.units[..len]);
            carving.carver.carve(&carving.units[..len], floor);
            if !generator.minimal_enough(&mut carving, &mut budget.reached) {
                carving.carver.set_givens(before);
                continue;
            }
            let mut next = describe(&carving, &mut budget.reached);
            let there = score(&mut next, &mut budget.reached);
            if there <= here {
                if there < here {
                    stall = 0;
                }
                (current, here) = (next, there);
            } else {
                carving.carver.set_givens(before);
            }
        }
    }
}
