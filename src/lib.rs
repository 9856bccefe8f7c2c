//! sudoku-batch: solve, check and benchmark sudoku puzzle datasets fast, on every core, streaming.
//!
//! Data flows one way: [`input`] reads records, [`solver`] solves one puzzle on one thread,
//! [`pipeline`] spreads batches over a rayon pool and hands results back in input order, [`output`]
//! writes them, [`stats`] folds timing and counts. [`check`] gives each record a verdict for
//! dataset validation. [`bench`](mod@bench) times the solver on datasets held in memory
//! (puzzles optionally sampled and shuffled by [`transform`]); [`report`] exports its results.
//!
//! ```
//! use sudoku_batch::{grid::Grid, solver};
//!
//! let puzzle: Grid =
//!     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
//!         .parse()
//!         .unwrap();
//! let outcome = solver::solve(&puzzle, 2).unwrap();
//! assert_eq!(outcome.count, 1); // unique
//! assert!(outcome.solution.unwrap().solves(&puzzle));
//! ```
#![deny(missing_docs)]

pub mod bench;
pub mod canon;
pub mod check;
pub mod generate;
pub mod grid;
pub mod input;
pub mod output;
pub mod pipeline;
#[cfg(test)]
mod properties;
pub mod rate;
pub mod ratings;
pub mod report;
pub mod solver;
pub mod stats;
pub mod status;
pub mod transform;
