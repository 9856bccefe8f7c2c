//! Difficulty ratings on Sudoku Explainer's scale: ER (the hardest step of the solving path), EP
//! (the hardest step up to the first placed digit) and ED (the first step's difficulty).
//!
//! The rater solves as a person would, one hint at a time, with Explainer's techniques, their
//! difficulties and its order: at each step the techniques are tried from the easiest family
//! (hidden singles, 1.0) to the hardest (nested forcing chains, 11.0) and the first hint found is
//! applied. Each family of techniques lives in its own module as a function from a [`Board`] to
//! the hints it finds, sent to a [`Sink`] in Explainer's scan order; [`rate`] is the stepper. No
//! technique knows about I/O or threads.
//!
//! The rules, orders and difficulties were learnt from Sudoku Explainer 2022.3.24 (1to9only's
//! fork, commit b1f9ed4, the `serate` command line) by reading its behaviour and hint texts; the
//! code here is this crate's own.

pub mod board;
pub mod bug;
pub mod chains;
pub mod exclusion;
pub mod fish;
pub mod forcing;
pub mod hint;
pub mod intersections;
pub mod nested;
pub mod singles;
pub mod subsets;
#[cfg(test)]
mod tests;
pub mod uniqueness;
pub mod wings;

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};

pub use board::Board;
pub use hint::{Hint, Sink, Technique, tenths};

use crate::grid::Grid;
use crate::solver;

/// The rater's name and version, for output headers: ratings shift between Explainer versions.
pub const RATER: &str = "Sudoku Explainer 2022.3.24 scale, as serate (1to9only/SudokuExplainer \
                           b1f9ed4) rates with its default settings: every technique, standard sudoku";

/// What to compute.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Options {
    /// Stop as soon as the rating is known to lie above this difficulty, in tenths (70 for
    /// 7.0), compared with difficulties rounded as Explainer prints them.
    pub max_er: Option<u32>,
    /// Keep every step of the path.
    pub explain: bool,
}

/// How a rating ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// The path reached the solution: ER, EP and ED are exact.
    Solved,
    /// Stopped because the rating lies above `Options::max_er`: ER (and EP, ED where
    /// `known_*` says so) only bounded from below.
    Above,
    /// No technique found a step, nested forcing chains of every level included: Explainer's
    /// 20.0 in `er`. No puzzle with one solution is known to get here; its ER (and EP, ED where
    /// `known_*` says not) lies at [`NESTED`] or above at least, and outputs say so (`>9.4`)
    /// rather than print 20.0.
    Stuck,
}

/// Explainer's lowest difficulty for a nested forcing chain, in tenths: the least a path that
/// gets stuck would be rated.
pub const NESTED: u32 = 95;

/// A puzzle's rating.
#[derive(Debug, Clone, PartialEq)]
pub struct Rating {
    /// ER: the hardest step (20.0 when stuck; with [`End::Above`], the hardest step taken
    /// before stopping, the rating itself lying above the bound).
    pub er: f64,
    /// EP: the hardest step up to and including the first that places a digit.
    pub ep: f64,
    /// ED: the first step's difficulty.
    pub ed: f64,
    /// EP is exact (else, with [`End::Above`], it lies above the bound too).
    pub known_ep: bool,
    /// ED is exact.
    pub known_ed: bool,
    /// The first step that reached ER.
    pub hardest: Option<Technique>,
    /// Steps taken.
    pub steps: usize,
    /// How the rating ended.
    pub end: End,
    /// Every step, when `Options::explain`.
    pub path: Vec<Hint>,
}

/// Why a puzzle gets no rating.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum RateError {
    /// Two equal givens in a house.
    #[error("two equal givens in a house")]
    Contradiction,
    /// No solution.
    #[error("no solution")]
    Unsolvable,
    /// More than one solution: Explainer's uniqueness techniques would be unsound.
    #[error("more than one solution")]
    Multiple,
}

/// A family of techniques as the stepper calls it, with the least difficulty it can report.
struct Producer {
    least: f64,
    find: fn(&Board, Sink) -> ControlFlow<()>,
    /// A faster way to the first hint, where there is one.
    first: Option<fn(&Board) -> Option<Hint>>,
}

/// Explainer's techniques in its order. The least difficulties never decrease along the list,
/// which is what lets `max_er` stop before a family that can only report more.
const PRODUCERS: &[Producer] = &[
    Producer {
        least: 1.0,
        find: singles::hidden_singles,
        first: Some(singles::first_hidden_single),
    },
    Producer {
        least: 1.7,
        find: intersections::direct_intersections,
        first: None,
    },
    Producer {
        least: 2.0,
        find: |b, s| subsets::hidden_sets(b, 2, true, s),
        first: None,
    },
    Producer {
        least: 2.3,
        find: singles::naked_singles,
        first: Some(singles::first_naked_single),
    },
    Producer {
        least: 2.5,
        find: |b, s| subsets::hidden_sets(b, 3, true, s),
        first: None,
    },
    Producer {
        least: 2.6,
        find: intersections::intersections,
        first: None,
    },
    Producer {
        least: 3.0,
        find: |b, s| subsets::naked_sets(b, 2, s),
        first: None,
    },
    Producer {
        least: 3.2,
        find: |b, s| fish::fish(b, 2, s),
        first: None,
    },
    Producer {
        least: 3.4,
        find: |b, s| subsets::hidden_sets(b, 2, false, s),
        first: None,
    },
    Producer {
        least: 3.6,
        find: |b, s| subsets::naked_sets(b, 3, s),
        first: None,
    },
    Producer {
        least: 3.8,
        find: |b, s| fish::fish(b, 3, s),
        first: None,
    },
    Producer {
        least: 4.0,
        find: |b, s| subsets::hidden_sets(b, 3, false, s),
        first: None,
    },
    Producer {
        least: 4.2,
        find: |b, s| wings::wings(b, false, s),
        first: None,
    },
    Producer {
        least: 4.4,
        find: |b, s| wings::wings(b, true, s),
        first: None,
    },
    Producer {
        least: 4.5,
        find: uniqueness::unique_loops,
        first: None,
    },
    Producer {
        least: 5.0,
        find: |b, s| subsets::naked_sets(b, 4, s),
        first: None,
    },
    Producer {
        least: 5.2,
        find: |b, s| fish::fish(b, 4, s),
        first: None,
    },
    Producer {
        least: 5.4,
        find: |b, s| subsets::hidden_sets(b, 4, false, s),
        first: None,
    },
    Producer {
        least: 5.6,
        find: bug::bug,
        first: None,
    },
    Producer {
        least: 6.2,
        find: |b, s| exclusion::aligned_exclusion(b, 2, s),
        first: None,
    },
    Producer {
        least: 6.5,
        find: chains::chains_and_cycles,
        first: Some(chains::first_chain_or_cycle),
    },
    Producer {
        least: 7.5,
        find: |b, s| exclusion::aligned_exclusion(b, 3, s),
        first: None,
    },
    Producer {
        least: 7.5,
        find: |b, s| forcing::forcing_chains(b, forcing::Mode::NISHIO, s),
        first: Some(|b| forcing::first_forcing_chain(b, forcing::Mode::NISHIO)),
    },
    Producer {
        least: 8.0,
        find: |b, s| forcing::forcing_chains(b, forcing::Mode::MULTIPLE, s),
        first: Some(|b| forcing::first_forcing_chain(b, forcing::Mode::MULTIPLE)),
    },
    Producer {
        least: 8.5,
        find: |b, s| forcing::forcing_chains(b, forcing::Mode::DYNAMIC, s),
        first: Some(|b| forcing::first_forcing_chain(b, forcing::Mode::DYNAMIC)),
    },
    Producer {
        least: 9.0,
        find: |b, s| forcing::forcing_chains(b, forcing::Mode::DYNAMIC_PLUS, s),
        first: Some(|b| forcing::first_forcing_chain(b, forcing::Mode::DYNAMIC_PLUS)),
    },
    Producer {
        least: 9.5,
        find: |b, s| nested::nested_chains(b, 2, s),
        first: None,
    },
    Producer {
        least: 10.0,
        find: |b, s| nested::nested_chains(b, 3, s),
        first: None,
    },
    Producer {
        least: 10.5,
        find: |b, s| nested::nested_chains(b, 4, s),
        first: None,
    },
    Producer {
        least: 11.0,
        find: |b, s| nested::nested_chains(b, 5, s),
        first: None,
    },
];

/// The first hint of one producer.
fn first(board: &Board, find: fn(&Board, Sink) -> ControlFlow<()>) -> Option<Hint> {
    let mut found = None;
    let _ = find(board, &mut |h| {
        found = Some(h);
        ControlFlow::Break(())
    });
    found
}

/// What the stepper finds next.
#[derive(Debug, Clone, PartialEq)]
pub enum Next {
    /// The step Explainer takes.
    Hint(Hint),
    /// The next step is sure to be harder than the bound asked for: only the techniques that
    /// cannot report more than the bound were tried.
    Above,
    /// No technique applies.
    Stuck,
}

/// The next step Explainer takes on `board`, trying only techniques that can report at most
/// `bound` (in tenths) when there is one.
pub fn next_hint(board: &Board, bound: Option<u32>) -> Next {
    for p in PRODUCERS {
        if bound.is_some_and(|b| tenths(p.least) > b) {
            return Next::Above;
        }
        let hint = match p.first {
            Some(f) => f(board),
            None => first(board, p.find),
        };
        if let Some(hint) = hint {
            return Next::Hint(hint);
        }
    }
    Next::Stuck
}

/// Rates a puzzle that has exactly one solution.
pub fn rate(puzzle: &Grid, options: &Options) -> Result<Rating, RateError> {
    unique(puzzle)?;
    Ok(rate_board(Board::new(puzzle), options))
}

/// `Ok` when `puzzle` has one solution, else what it has.
fn unique(puzzle: &Grid) -> Result<(), RateError> {
    match solver::solve(puzzle, 2) {
        Err(_) => Err(RateError::Contradiction),
        Ok(o) if o.count == 0 => Err(RateError::Unsolvable),
        Ok(o) if o.count > 1 => Err(RateError::Multiple),
        Ok(_) => Ok(()),
    }
}

/// [`rate`], given up between two steps once `stop` is set (`Ok(None)`): a caller that drops
/// the ratings under way when stopped (Python's Ctrl-C) need not wait for the hardest to end,
/// which take seconds (an ER 11.6 puzzle 5 s, in steps of at most some tenths of a second).
pub fn rate_or_stop(
    puzzle: &Grid,
    options: &Options,
    stop: &AtomicBool,
) -> Result<Option<Rating>, RateError> {
    unique(puzzle)?;
    let (rating, stopped) = walk(Board::new(puzzle), options, stop);
    Ok((!stopped).then_some(rating))
}

/// Walks Explainer's path from `board`: its rating.
pub fn rate_board(board: Board, options: &Options) -> Rating {
    walk(board, options, &AtomicBool::new(false)).0
}

/// Walks Explainer's path from `board` until it ends or `stop` is set between two steps: the
/// rating so far, and whether it stopped.
fn walk(mut board: Board, options: &Options, stop: &AtomicBool) -> (Rating, bool) {
    let mut r = Rating {
        er: 0.0,
        ep: 0.0,
        ed: 0.0,
        known_ep: false,
        known_ed: false,
        hardest: None,
        steps: 0,
        end: End::Solved,
        path: Vec::new(),
    };
    while !board.is_solved() {
        if stop.load(Ordering::Relaxed) {
            return (r, true);
        }
        let hint = match next_hint(&board, options.max_er) {
            Next::Above => {
                r.end = End::Above;
                break;
            }
            Next::Stuck => {
                r.er = 20.0;
                r.end = End::Stuck;
                break;
            }
            Next::Hint(hint) => hint,
        };
        if hint.difficulty > r.er {
            r.er = hint.difficulty;
            r.hardest = Some(hint.technique);
        }
        if !r.known_ep {
            if !r.known_ed {
                r.ed = r.er;
                r.known_ed = true;
            }
            if hint.placement.is_some() {
                r.ep = r.er;
                r.known_ep = true;
            }
        }
        hint.apply(&mut board);
        r.steps += 1;
        let above = options.max_er.is_some_and(|b| tenths(r.er) > b);
        if options.explain {
            r.path.push(hint);
        }
        if above {
            r.end = End::Above;
            break;
        }
    }
    (r, false)
}

/// Reads a line of `serate --format='%g ED=%r/%p/%d'` output: the puzzle and its ER, EP, ED in
/// tenths (`None` for any other line, such as a puzzle serate did not finish).
pub fn parse_serate(line: &str) -> Option<(&str, [u32; 3])> {
    let (puzzle, rest) = line.split_once(" ED=")?;
    let mut values = [0u32; 3];
    let mut parts = rest.trim().split('/');
    for v in &mut values {
        let (whole, tenth) = parts.next()?.split_once('.')?;
        *v = whole.parse::<u32>().ok()? * 10 + tenth.parse::<u32>().ok()?;
    }
    parts.next().is_none().then_some((puzzle, values))
}

/// Every rated line of the serate output files in `dir` (files in name order, lines in order):
/// (file name, puzzle, [ER, EP, ED] in tenths). The reference ratings kept as test fixtures.
pub fn read_serate_dir(dir: &std::path::Path) -> std::io::Result<Vec<(String, String, [u32; 3])>> {
    let mut files = std::fs::read_dir(dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<std::io::Result<Vec<_>>>()?;
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        for line in std::fs::read_to_string(&path)?.lines() {
            // a puzzle serate did not finish in time has no rating
            if let Some((puzzle, r)) = parse_serate(line) {
                out.push((name.clone(), puzzle.to_string(), r));
            }
        }
    }
    Ok(out)
}

/// Sets of `k` of the numbers 0..n as bit masks, in increasing order of the masks (Explainer's
/// order of combinations).
pub struct Combinations {
    next: Option<u64>,
    n: u32,
}

impl Combinations {
    /// The sets of `k` out of `n` (n at most 63).
    pub fn new(k: u32, n: u32) -> Combinations {
        Combinations {
            next: (k <= n && n > 0).then(|| (1u64 << k) - 1),
            n,
        }
    }
}

impl Iterator for Combinations {
    type Item = u64;

    fn next(&mut self) -> Option<u64> {
        let v = self.next?;
        if v == 0 {
            // the one empty set
            self.next = None;
            return Some(0);
        }
        // Gosper's hack: the next larger number with as many bits set
        let low = v & v.wrapping_neg();
        let ripple = v + low;
        let next = (((v ^ ripple) >> 2) / low) | ripple;
        self.next = (next >> self.n == 0).then_some(next);
        Some(v)
    }
}

/// The positions of the set bits of `set`, lowest first.
pub fn bits(mut set: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let i = set.trailing_zeros() as usize;
            set &= set - 1;
            i
        })
    })
}
