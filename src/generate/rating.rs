//! The ER target (`--rating A..B`): how far a candidate's Sudoku Explainer rating lies from the
//! range, found with as little rating as it takes.
//!
//! A rating walks the solving path step by step, and most of its time goes to the hard steps,
//! so a candidate is rated at most twice, each time stopped early ([`rate::Options::max_er`]):
//! first up to just below the range's lower end (a path that never needs more is below the
//! range, its ER exact; one that does lies at the lower end or above), then up to the upper end
//! (a path that stays within it is in range, and its ER, EP and ED exact; one that needs more is
//! above). The first rating is skipped when the lower end is 1.0 or less, the second stops
//! nowhere without an upper end.

use crate::grid::Grid;
use crate::rate::{self, End, NESTED, Technique, tenths};

use super::Bounds;

/// A record's rating (with `--rating`), in tenths: exact, as `rate` gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Er {
    /// ER: the hardest step.
    pub er: u32,
    /// EP: the hardest step up to the first placement.
    pub ep: u32,
    /// ED: the first step.
    pub ed: u32,
    /// The technique of the hardest step.
    pub hardest: Option<Technique>,
}

/// The lowest ER there is (a last digit in a house), in tenths.
pub const LOWEST: u64 = 10;

/// How far the ER of `puzzle` (which has one solution) lies from `range` (tenths; 0 inside
/// it), and its rating when inside. A path stuck with every technique tried (Explainer's 20.0,
/// ER 9.5 or above, not exact) is never inside: its distance is at least 1.
pub(crate) fn judge(puzzle: &Grid, range: Bounds) -> (u64, Option<Er>) {
    let rated = |max_er: Option<u64>| {
        let options = rate::Options {
            max_er: max_er.map(|t| t.min(u64::from(u32::MAX)) as u32),
            explain: false,
        };
        rate::rate(puzzle, &options).ok()
    };
    if range.lo > LOWEST {
        match rated(Some(range.lo - 1)) {
            None => return (u64::MAX, None),
            Some(r) if r.end == End::Solved => {
                return (range.distance(u64::from(tenths(r.er))), None);
            }
            // at the lower end or above
            Some(_) => {}
        }
    }
    let bounded = (range.hi != u64::MAX).then_some(range.hi);
    let Some(r) = rated(bounded) else {
        return (u64::MAX, None);
    };
    match r.end {
        End::Solved => {
            let er = tenths(r.er);
            let distance = range.distance(u64::from(er));
            let found = Er {
                er,
                ep: tenths(r.ep),
                ed: tenths(r.ed),
                hardest: r.hardest,
            };
            (distance, (distance == 0).then_some(found))
        }
        // above the upper end: by what the path reached before it stopped, at least a tenth
        End::Above => (
            u64::from(tenths(r.er))
                .max(range.hi.saturating_add(1))
                .saturating_sub(range.hi),
            None,
        ),
        End::Stuck => (range.distance(u64::from(NESTED)).max(1), None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::tests::PUZZLE;

    #[test]
    fn judges_as_a_full_rating_does() {
        let puzzle: Grid = PUZZLE.parse().unwrap();
        let full = rate::rate(&puzzle, &rate::Options::default()).unwrap();
        let er = u64::from(tenths(full.er));
        let (d, found) = judge(&puzzle, Bounds::new(er, er));
        assert_eq!(d, 0);
        let found = found.unwrap();
        assert_eq!(
            (found.er, found.ep, found.ed),
            (tenths(full.er), tenths(full.ep), tenths(full.ed))
        );
        assert_eq!(found.hardest, full.hardest);
        assert_eq!(judge(&puzzle, Bounds::new(er + 3, u64::MAX)), (3, None));
        // above: at least a tenth away
        let (d, found) = judge(&puzzle, Bounds::new(LOWEST, er - 1));
        assert!(d >= 1 && found.is_none(), "{d}");
        assert_eq!(judge(&puzzle, Bounds::new(LOWEST, u64::MAX)).0, 0);
    }
}
