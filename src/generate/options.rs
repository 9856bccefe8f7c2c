//! What a run of the generator asks for, read from text where the command line gives text
//! (ranges such as `20..25`), and checked as a whole by [`super::Generator::new`]: every
//! combination it accepts can be met by some puzzle, or at least tried for; the ones that can
//! never be met are refused with a message saying why.

use std::fmt;
use std::str::FromStr;

use crate::grid::{CELLS, Conflict, Grid};

use super::exclude::Exclusions;
use super::symmetry::{Pattern, Symmetry};

/// A range of whole numbers, both ends included: `A..B`, `A..` (no upper end), `..B` (from 0)
/// or `A` (exactly A).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// The smallest value in range.
    pub lo: u64,
    /// The largest value in range (`u64::MAX`: no upper end).
    pub hi: u64,
}

impl Bounds {
    /// Every value.
    pub const ANY: Bounds = Bounds {
        lo: 0,
        hi: u64::MAX,
    };

    /// The range `lo..=hi`.
    pub fn new(lo: u64, hi: u64) -> Bounds {
        Bounds { lo, hi }
    }

    /// True when `v` is in range.
    pub fn contains(&self, v: u64) -> bool {
        self.lo <= v && v <= self.hi
    }

    /// How far `v` is from the range (0 inside it).
    pub fn distance(&self, v: u64) -> u64 {
        if v < self.lo {
            self.lo - v
        } else {
            v.saturating_sub(self.hi)
        }
    }
}

impl fmt::Display for Bounds {
    /// As it is written: `A..B`, `A..`, or `A` when both ends are equal.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.lo, self.hi) {
            (lo, hi) if lo == hi => write!(f, "{lo}"),
            (lo, u64::MAX) => write!(f, "{lo}.."),
            (lo, hi) => write!(f, "{lo}..{hi}"),
        }
    }
}

/// Why a text is not a range.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoundsError {
    /// Not `A..B`, `A..`, `..B` or `A`.
    #[error("expected a range such as 20..25, 20.., ..25 or 22, not {0:?}")]
    Syntax(String),
    /// An end too large for a count.
    #[error("{0} is too large")]
    TooLarge(String),
    /// The lower end is above the upper one.
    #[error("{lo}..{hi} is empty: its lower end is above its upper end")]
    Empty {
        /// The lower end.
        lo: u64,
        /// The upper end.
        hi: u64,
    },
}

impl FromStr for Bounds {
    type Err = BoundsError;

    fn from_str(text: &str) -> Result<Bounds, BoundsError> {
        let syntax = || BoundsError::Syntax(text.to_string());
        let number = |s: &str| {
            let s = s.trim();
            s.parse::<u64>().map_err(|e| match e.kind() {
                std::num::IntErrorKind::PosOverflow => BoundsError::TooLarge(s.to_string()),
                _ => syntax(),
            })
        };
        let (lo, hi) = match text.split_once("..") {
            None => {
                let n = number(text)?;
                (n, n)
            }
            Some((lo, hi)) => {
                // `A..=B` means the same as `A..B` here: both ends are always included
                let hi = hi.strip_prefix('=').unwrap_or(hi);
                let lo = if lo.trim().is_empty() { 0 } else { number(lo)? };
                let hi = if hi.trim().is_empty() {
                    if lo == 0 && text.trim() == ".." {
                        return Err(syntax());
                    }
                    u64::MAX
                } else {
                    number(hi)?
                };
                (lo, hi)
            }
        };
        if lo > hi {
            return Err(BoundsError::Empty { lo, hi });
        }
        Ok(Bounds { lo, hi })
    }
}

/// A starting point read from `--from`: a solution grid (the puzzle's solution will be it), or
/// a puzzle whose givens every puzzle made from it keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// A complete, valid grid.
    Grid(Grid),
    /// A puzzle with blanks and at least one solution.
    Puzzle(Grid),
}

/// Why a grid cannot be a starting point.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    /// Two equal givens in a unit.
    #[error("not a valid start: {0}")]
    Contradiction(Conflict),
    /// Consistent givens, but no solution.
    #[error("not a valid start: the puzzle has no solution")]
    Unsolvable,
}

impl Start {
    /// A complete grid as [`Start::Grid`], any other as [`Start::Puzzle`], once checked: no
    /// two equal givens in a unit, and (for a puzzle) a solution.
    pub fn new(grid: Grid) -> Result<Start, StartError> {
        if let Some(conflict) = grid.conflict() {
            return Err(StartError::Contradiction(conflict));
        }
        if grid.is_complete() {
            return Ok(Start::Grid(grid));
        }
        match crate::solver::solve(&grid, 1) {
            Ok(outcome) if outcome.count > 0 => Ok(Start::Puzzle(grid)),
            Ok(_) => Err(StartError::Unsolvable),
            Err(conflict) => Err(StartError::Contradiction(conflict)),
        }
    }

    /// True when no puzzle with `symmetry` keeps its givens: they and their images fill the
    /// grid (81 givens are a solved grid). For `random`, under every symmetry it draws.
    pub fn fills_under(&self, symmetry: Symmetry) -> bool {
        let fills = |s: Symmetry| s.closure(self.kept()) == super::symmetry::ALL_CELLS;
        match symmetry {
            Symmetry::Random => Symmetry::DRAWN.into_iter().all(fills),
            s => fills(s),
        }
    }

    /// The cells every puzzle made from it keeps (bit `9 * row + column`): none for a grid.
    pub(crate) fn kept(&self) -> u128 {
        match self {
            Start::Grid(_) => 0,
            Start::Puzzle(p) => p
                .cells()
                .iter()
                .enumerate()
                .filter(|&(_, &v)| v != 0)
                .fold(0u128, |m, (i, _)| m | 1u128 << i),
        }
    }
}

/// The most givens a puzzle has: one blank at least (81 givens are a solved grid).
pub(crate) const MOST_GIVENS: u64 = CELLS as u64 - 1;

/// Tries a record may take by default before the run gives up on it (see
/// [`Options::max_tries`]): enough for every target that plain generation meets at least once in
/// a few thousand puzzles (20 givens, say), with room to spare, and little enough that a target
/// no puzzle meets (17 givens at random) stops a run within seconds.
pub const DEFAULT_MAX_TRIES: u64 = 100_000;

/// Tries a record may take by default with a [`Options::symmetry`] (and no
/// [`Options::guesses`]), whose minimal puzzles are rare among carvings (measured, seed 3: one in
/// 68 for rot180, 1,260 for rot90, 3,100 for mirror-both, 12,000 for dihedral, so 100,000 tries
/// would give up on about one dihedral record in 3,000).
pub const DEFAULT_MAX_TRIES_SYMMETRY: u64 = 1_000_000;

/// Tries a record may take by default with [`Options::guesses`], where a try is one step of the
/// hill climb (most steps cost a uniqueness check: about 2.5 µs). The tries a record needs are
/// spread wide, since a climb that stalls starts again from a new grid: measured (seed 1, 20
/// records, AMD EPYC, after the solver's guesses fell on hard puzzles), `--guesses 50..` 23,000
/// to 1.3 million, `80..` (6 records) 0.26 to 5 million. A target no climb reaches
/// (`--guesses 100000..`) gives up after 25 to 55 seconds.
pub const DEFAULT_MAX_TRIES_GUESSES: u64 = 10_000_000;

/// What to generate. `Default` is plain generation: minimal puzzles of random grids with no
/// other constraint, seed 0.
#[derive(Debug, Clone)]
pub struct Options {
    /// The stream's seed: record `i` is made from `(seed, i)` and the other options alone.
    pub seed: u64,
    /// The number of givens each puzzle may have (`None`: any).
    pub clues: Option<Bounds>,
    /// Minimal puzzles (no given can be removed without losing uniqueness); when false, givens
    /// are removed (keeping one solution) until the puzzle has a number drawn from
    /// [`Options::clues`], which must then be given.
    pub minimal: bool,
    /// The symmetry of each puzzle's pattern of givens.
    pub symmetry: Symmetry,
    /// Givens exactly on these cells.
    pub pattern: Option<Pattern>,
    /// Starting points: record `i` starts from entry `i mod len` (none: a random grid each try).
    pub from: Vec<Start>,
    /// The guesses `solve --unique` needs for each puzzle (`None`: any); a range above the easy
    /// puzzles is reached by a hill climb.
    pub guesses: Option<Bounds>,
    /// Each puzzle's ER on Sudoku Explainer's scale, as `rate` gives it, in tenths (`None`:
    /// any): from 1.0 ([`super::LOWEST_ER`]) up to 9.4, past which the rater does not rate
    /// exactly. Ranges from 8.0 up are reached by the hill climb.
    pub rating: Option<Bounds>,
    /// Tries a record may take before the run gives up on it (`None`: [`DEFAULT_MAX_TRIES`],
    /// [`DEFAULT_MAX_TRIES_GUESSES`] with [`Options::guesses`], [`DEFAULT_MAX_TRIES_SYMMETRY`]
    /// with a symmetry). A try is one candidate puzzle made and tested: a grid carved down, or a
    /// step of the hill climb.
    pub max_tries: Option<u64>,
    /// Classes of puzzles no output may belong to.
    pub exclude: Exclusions,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            seed: 0,
            clues: None,
            minimal: true,
            symmetry: Symmetry::None,
            pattern: None,
            from: Vec::new(),
            guesses: None,
            rating: None,
            max_tries: None,
            exclude: Exclusions::default(),
        }
    }
}

impl Options {
    /// The tries a record may take (see [`Options::max_tries`]).
    pub fn tries(&self) -> u64 {
        self.max_tries.unwrap_or(if self.guesses.is_some() {
            DEFAULT_MAX_TRIES_GUESSES
        } else if self.symmetry != Symmetry::None {
            DEFAULT_MAX_TRIES_SYMMETRY
        } else {
            DEFAULT_MAX_TRIES
        })
    }
}

/// Options that no puzzle can meet, or that do not go together.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OptionsError {
    /// A clue range below 17.
    #[error(
        "--clues {0}: no puzzle with fewer than 17 givens has one solution (McGuire, Tugemann and \
         Civario, 2012)"
    )]
    TooFewClues(Bounds),
    /// A clue range above 80.
    #[error("--clues {0}: a puzzle has 80 givens at most (81 are a solved grid)")]
    TooManyClues(Bounds),
    /// A clue range no count of which the symmetry allows.
    #[error(
        "--symmetry {symmetry} --clues {clues}: a puzzle with that symmetry has no number of \
         givens in that range: the cells go in groups of {groups}{nearest}"
    )]
    SymmetryClues {
        /// The symmetry's name.
        symmetry: &'static str,
        /// The clue range.
        clues: Bounds,
        /// The sizes of the orbits, as text (`4, and the centre`).
        groups: String,
        /// The nearest counts allowed, as text.
        nearest: String,
    },
    /// A minimal puzzle with 79 givens or more, which cannot be.
    #[error(
        "{what}: no minimal puzzle has more than 78 givens (without any one given of such a \
         puzzle 3 cells or fewer are blank, and those are always forced); the most known is 40"
    )]
    TooManyForMinimal {
        /// The option that asks for them, as text.
        what: String,
    },
    /// `--from` puzzles that all keep more givens than the clue range allows.
    #[error(
        "--from puzzles keep their givens, and the fewest of them hold {fewest}: none can make \
         a puzzle within --clues {clues}"
    )]
    FromClues {
        /// The fewest givens of a `--from` puzzle.
        fewest: u32,
        /// The clue range.
        clues: Bounds,
    },
    /// A pattern with every cell marked: a solved grid, no puzzle.
    #[error("the pattern marks all 81 cells: a puzzle has a blank")]
    FullPattern,
    /// `--no-minimal` without a number of givens to stop at.
    #[error("--no-minimal stops removing givens at a number drawn from --clues A..B: give --clues")]
    NotMinimalWithoutClues,
    /// A pattern whose number of marks is outside the clue range.
    #[error("the pattern marks {marks} cells, outside --clues {clues}")]
    PatternClues {
        /// The pattern's marks.
        marks: u32,
        /// The clue range.
        clues: Bounds,
    },
    /// A pattern that does not have the symmetry asked for.
    #[error("the pattern is not symmetric under {0}")]
    PatternSymmetry(&'static str),
    /// A pattern with --symmetry random.
    #[error(
        "--symmetry random draws a symmetry per puzzle, but the pattern fixes the givens: \
         give the pattern's own symmetry or none"
    )]
    PatternRandomSymmetry,
    /// A pattern with --from.
    #[error(
        "--pattern and --from both fix the givens' places: a pattern takes random grids \
         (use one or the other)"
    )]
    PatternWithFrom,
    /// A pattern with --no-minimal: the pattern fixes the givens.
    #[error("--no-minimal removes givens down to a count, but the pattern fixes them")]
    PatternNotMinimal,
    /// No tries at all.
    #[error("--max-tries must be 1 or more")]
    NoTries,
    /// An ER range below the scale's lowest rating.
    #[error("--rating {0}: no puzzle rates below 1.0 (a last digit in a house)")]
    RatingBelowScale(RatingRange),
    /// An ER range of nested forcing chains only: not offered.
    #[error(
        "--rating {0}: ratings from 9.5 up (nested forcing chains) are not offered by generate: \
         fewer than one carving in a thousand reaches even 9.0, and rating one such candidate \
         takes seconds to minutes; make 9.0.. puzzles and rate them (sudoku-batch rate)"
    )]
    RatingPastRater(RatingRange),
}

/// An ER range in tenths, shown as written: `7.0..`, `..4.0`, `2.0..4.0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RatingRange(pub Bounds);

impl fmt::Display for RatingRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = |v: u64| format!("{}.{}", v / 10, v % 10);
        match (self.0.lo, self.0.hi) {
            (lo, hi) if lo == hi => f.write_str(&t(lo)),
            (lo, u64::MAX) => write!(f, "{}..", t(lo)),
            (0, hi) => write!(f, "..{}", t(hi)),
            (lo, hi) => write!(f, "{}..{}", t(lo), t(hi)),
        }
    }
}

impl FromStr for RatingRange {
    type Err = String;

    /// `--rating` text: each end as [`crate::ratings::parse_tenths`] reads it (`7.0..`,
    /// `..4.0`, `2.0..4.0`, `7.2`).
    fn from_str(text: &str) -> Result<RatingRange, String> {
        let (lo, hi) = match text.split_once("..") {
            None => (text, text),
            Some((lo, hi)) => (lo, hi.strip_prefix('=').unwrap_or(hi)),
        };
        if lo.trim().is_empty() && hi.trim().is_empty() {
            return Err(format!(
                "expected a range such as 2.0..4.0, 7.0.., ..4.0 or 7.2, not {text:?}"
            ));
        }
        let end = |s: &str, missing: u64| match s.trim() {
            "" => Ok(missing),
            s => crate::ratings::parse_tenths(s).map(u64::from),
        };
        let (lo, hi) = (end(lo, 0)?, end(hi, u64::MAX)?);
        if lo > hi {
            return Err(format!(
                "{text} is empty: its lower end is above its upper end"
            ));
        }
        Ok(RatingRange(Bounds::new(lo, hi)))
    }
}

/// Fails when `symmetry` allows no number of givens in `clues` (see
/// [`Symmetry::given_counts`]): such a run tried a million times for each record, then gave up
/// (24 s for `--symmetry rot90 --clues 22`).
fn symmetric_counts(symmetry: Symmetry, clues: Bounds) -> Result<(), OptionsError> {
    let counts = symmetry.given_counts();
    let allowed = |n: u64| n <= CELLS as u64 && counts >> n & 1 != 0;
    let (lo, hi) = (clues.lo.max(17), clues.hi.min(MOST_GIVENS));
    if (lo..=hi).any(allowed) {
        return Ok(());
    }
    let below = (17..lo).rev().find(|&n| allowed(n));
    let above = (hi + 1..=MOST_GIVENS).find(|&n| allowed(n));
    let nearest = match (below, above) {
        (Some(b), Some(a)) => format!("; the nearest counts it allows are {b} and {a}"),
        (Some(n), None) | (None, Some(n)) => format!("; the nearest count it allows is {n}"),
        (None, None) => String::new(),
    };
    // (`random` never comes here: `rot180`, one of its draws, makes any count)
    let orbits = || symmetry.orbits().masks.iter();
    let mut sizes: Vec<u32> = orbits()
        .map(|m| m.count_ones())
        .filter(|&n| n > 1)
        .collect();
    sizes.sort_unstable();
    sizes.dedup();
    let sizes: Vec<String> = sizes.iter().map(u32::to_string).collect();
    let centre = orbits().any(|m| m.count_ones() == 1);
    Err(OptionsError::SymmetryClues {
        symmetry: symmetry.name(),
        clues,
        groups: format!(
            "{}{}",
            sizes.join(" or "),
            if centre { ", and the centre" } else { "" }
        ),
        nearest,
    })
}

impl Options {
    /// Checks the options against each other (see [`OptionsError`]).
    pub fn validate(&self) -> Result<(), OptionsError> {
        if let Some(clues) = self.clues {
            if clues.hi < 17 {
                return Err(OptionsError::TooFewClues(clues));
            }
            if clues.lo > MOST_GIVENS {
                return Err(OptionsError::TooManyClues(clues));
            }
        }
        if !self.minimal && self.clues.is_none() {
            return Err(OptionsError::NotMinimalWithoutClues);
        }
        if let Some(clues) = self.clues {
            // each record keeps its --from puzzle's givens (a grid keeps none): a range below
            // them all spent every try on the same puzzle, then gave up
            let kept = |s: &Start| u64::from(s.kept().count_ones());
            if self.from.iter().all(|s| kept(s) > clues.hi) {
                if let Some(fewest) = self.from.iter().map(kept).min() {
                    return Err(OptionsError::FromClues {
                        fewest: fewest as u32,
                        clues,
                    });
                }
            }
            if self.minimal && clues.lo >= 79 {
                return Err(OptionsError::TooManyForMinimal {
                    what: format!("--clues {clues}"),
                });
            }
            symmetric_counts(self.symmetry, clues)?;
        }
        if let Some(marks) = self.pattern.as_ref().map(Pattern::givens) {
            if marks >= CELLS as u32 {
                return Err(OptionsError::FullPattern);
            }
            if self.minimal && marks >= 79 {
                return Err(OptionsError::TooManyForMinimal {
                    what: format!("the pattern marks {marks} cells"),
                });
            }
        }
        if let Some(pattern) = &self.pattern {
            let marks = pattern.givens();
            if let Some(clues) = self.clues.filter(|c| !c.contains(u64::from(marks))) {
                return Err(OptionsError::PatternClues { marks, clues });
            }
            if self.symmetry == Symmetry::Random {
                return Err(OptionsError::PatternRandomSymmetry);
            }
            if !self.symmetry.keeps(pattern.mask()) {
                return Err(OptionsError::PatternSymmetry(self.symmetry.name()));
            }
            if !self.from.is_empty() {
                return Err(OptionsError::PatternWithFrom);
            }
            if !self.minimal {
                return Err(OptionsError::PatternNotMinimal);
            }
        }
        if self.max_tries == Some(0) {
            return Err(OptionsError::NoTries);
        }
        if let Some(rating) = self.rating {
            if rating.hi < super::LOWEST_ER {
                return Err(OptionsError::RatingBelowScale(RatingRange(rating)));
            }
            if rating.lo >= u64::from(crate::rate::NESTED) {
                return Err(OptionsError::RatingPastRater(RatingRange(rating)));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_budget_follows_the_targets_and_an_explicit_one_wins() {
        let plain = Options::default();
        assert_eq!(plain.tries(), DEFAULT_MAX_TRIES);
        let symmetric = Options {
            symmetry: Symmetry::Rot180,
            ..Options::default()
        };
        assert_eq!(symmetric.tries(), DEFAULT_MAX_TRIES_SYMMETRY);
        // a climb's steps are cheap: its budget is the largest, with or without a symmetry
        let hard = Options {
            guesses: Some(Bounds::new(50, u64::MAX)),
            ..symmetric.clone()
        };
        assert_eq!(hard.tries(), DEFAULT_MAX_TRIES_GUESSES);
        const { assert!(DEFAULT_MAX_TRIES_GUESSES > DEFAULT_MAX_TRIES_SYMMETRY) };
        let told = Options {
            max_tries: Some(7),
            ..hard
        };
        assert_eq!(told.tries(), 7);
    }

    #[test]
    fn counts_no_puzzle_can_have_are_refused_before_any_try() {
        let with = |symmetry, lo, hi, minimal| {
            Options {
                symmetry,
                clues: Some(Bounds::new(lo, hi)),
                minimal,
                ..Options::default()
            }
            .validate()
        };
        // rot90 and dihedral: groups of 4 and 8 cells and the centre, so 0 or 1 mod 4
        for n in 17..=80u64 {
            for s in [Symmetry::Rot90, Symmetry::Dihedral] {
                let ok = with(s, n, n, false).is_ok();
                assert_eq!(ok, n % 4 < 2, "{s:?} {n}");
            }
            for s in [Symmetry::None, Symmetry::Rot180, Symmetry::Random] {
                assert!(with(s, n, n, false).is_ok(), "{s:?} {n}");
            }
        }
        let err = with(Symmetry::Rot90, 22, 23, true).unwrap_err().to_string();
        assert!(
            err.contains("groups of 4, and the centre; the nearest counts it allows are 21 and 24"),
            "{err}"
        );
        assert!(with(Symmetry::Rot90, 22, 24, true).is_ok());
        // a minimal puzzle cannot have 79 givens or more; an unminimised one may
        assert!(matches!(
            with(Symmetry::None, 79, u64::MAX, true),
            Err(OptionsError::TooManyForMinimal { .. })
        ));
        assert!(with(Symmetry::None, 78, u64::MAX, true).is_ok());
        assert!(with(Symmetry::None, 80, 80, false).is_ok());
        // 81 givens are a solved grid, no puzzle
        assert!(matches!(
            with(Symmetry::None, 81, 81, false),
            Err(OptionsError::TooManyClues(_))
        ));
        let full = Options {
            pattern: Some(Pattern::from_mask(ALL_MARKS).unwrap()),
            ..Options::default()
        };
        assert!(matches!(full.validate(), Err(OptionsError::FullPattern)));
    }

    /// Every cell marked.
    const ALL_MARKS: u128 = (1 << 81) - 1;

    #[test]
    fn reads_every_form_of_range() {
        assert_eq!("20..25".parse(), Ok(Bounds::new(20, 25)));
        assert_eq!("20..=25".parse(), Ok(Bounds::new(20, 25)));
        assert_eq!(" 20 .. 25 ".parse(), Ok(Bounds::new(20, 25)));
        assert_eq!("20..".parse(), Ok(Bounds::new(20, u64::MAX)));
        assert_eq!("..25".parse(), Ok(Bounds::new(0, 25)));
        assert_eq!("22".parse(), Ok(Bounds::new(22, 22)));
        assert_eq!(
            "30..20".parse::<Bounds>(),
            Err(BoundsError::Empty { lo: 30, hi: 20 })
        );
        for bad in ["", "..", "a..b", "20...25", "-1..3", "20..25..30", "1e3"] {
            assert!(
                matches!(bad.parse::<Bounds>(), Err(BoundsError::Syntax(_))),
                "{bad:?}"
            );
        }
        assert_eq!(
            "1..99999999999999999999".parse::<Bounds>(),
            Err(BoundsError::TooLarge("99999999999999999999".to_string()))
        );
        assert_eq!(Bounds::new(20, 25).to_string(), "20..25");
        assert_eq!(Bounds::new(50, u64::MAX).to_string(), "50..");
        assert_eq!(Bounds::new(7, 7).to_string(), "7");
    }

    #[test]
    fn distance_is_zero_inside_and_counts_outside() {
        let b = Bounds::new(10, 20);
        assert_eq!((b.distance(3), b.distance(10), b.distance(20)), (7, 0, 0));
        assert_eq!(b.distance(25), 5);
        assert_eq!(Bounds::new(50, u64::MAX).distance(u64::MAX), 0);
    }

    #[test]
    fn refuses_targets_no_puzzle_meets_and_options_that_clash() {
        let with = |f: &dyn Fn(&mut Options)| {
            let mut o = Options::default();
            f(&mut o);
            o.validate()
        };
        assert_eq!(with(&|_| {}), Ok(()));
        let clues = |lo, hi| Some(Bounds::new(lo, hi));
        assert!(matches!(
            with(&|o| o.clues = clues(90, 90)),
            Err(OptionsError::TooManyClues(_))
        ));
        assert!(matches!(
            with(&|o| o.clues = clues(0, 16)),
            Err(OptionsError::TooFewClues(_))
        ));
        assert_eq!(with(&|o| o.clues = clues(0, 17)), Ok(()));
        assert_eq!(
            with(&|o| o.minimal = false),
            Err(OptionsError::NotMinimalWithoutClues)
        );
        let diagonal = Pattern::from_mask(
            (0..81)
                .step_by(10)
                .chain(0..9)
                .fold(0, |m, c| m | 1u128 << c),
        )
        .unwrap();
        assert!(matches!(
            with(&|o| {
                o.pattern = Some(diagonal);
                o.clues = clues(20, 30);
            }),
            Err(OptionsError::PatternClues { marks: 17, .. })
        ));
        assert_eq!(
            with(&|o| {
                o.pattern = Some(diagonal);
                o.symmetry = Symmetry::Rot180;
            }),
            Err(OptionsError::PatternSymmetry("rot180"))
        );
        assert_eq!(with(&|o| o.max_tries = Some(0)), Err(OptionsError::NoTries));
        let er = |lo, hi| Some(Bounds::new(lo, hi));
        assert!(matches!(
            with(&|o| o.rating = er(0, 9)),
            Err(OptionsError::RatingBelowScale(_))
        ));
        assert!(matches!(
            with(&|o| o.rating = er(95, u64::MAX)),
            Err(OptionsError::RatingPastRater(_))
        ));
        assert_eq!(with(&|o| o.rating = er(0, 10)), Ok(()));
        assert_eq!(with(&|o| o.rating = er(94, u64::MAX)), Ok(()));
        assert_eq!(RatingRange(Bounds::new(70, u64::MAX)).to_string(), "7.0..");
        assert_eq!(RatingRange(Bounds::new(20, 40)).to_string(), "2.0..4.0");
    }

    #[test]
    fn a_start_is_a_grid_or_a_solvable_puzzle() {
        let solution: Grid =
            "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
                .parse()
                .unwrap();
        assert_eq!(Start::new(solution), Ok(Start::Grid(solution)));
        let mut cells = *solution.cells();
        cells[0] = 0;
        cells[80] = 0;
        let puzzle = Grid::from_values(cells).unwrap();
        let start = Start::new(puzzle).unwrap();
        assert_eq!(start, Start::Puzzle(puzzle));
        assert_eq!(start.kept().count_ones(), 79);
        cells[1] = 4; // a second 4 in row 1
        assert!(matches!(
            Start::new(Grid::from_values(cells).unwrap()),
            Err(StartError::Contradiction(_))
        ));
        // r1c1 has no digit left: 1..8 in its row, 9 below it
        let mut stuck = [0u8; 81];
        stuck[1..9].copy_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8]);
        stuck[9 * 5] = 9;
        assert_eq!(
            Start::new(Grid::from_values(stuck).unwrap()),
            Err(StartError::Unsolvable)
        );
    }
}
