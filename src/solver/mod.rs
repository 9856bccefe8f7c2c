//! The single-threaded solver: `solve(&Grid, limit) -> Outcome { count, solution, guesses }`.
//!
//! Knows nothing of I/O or threads. Contradictory givens are reported before any search.

use crate::grid::{Conflict, Grid};

/// What one search found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// Solutions found, at most the limit asked for.
    pub count: u32,
    /// The first solution found, if any.
    pub solution: Option<Grid>,
    /// Guesses made: branch alternatives tried beyond the first at each branch point.
    pub guesses: u64,
}

/// Solves `puzzle`, stopping at `limit` solutions (1: first solution; 2: enough to prove uniqueness;
/// 0 is taken as 1). Returns the conflict instead when two givens clash.
pub fn solve(puzzle: &Grid, limit: u32) -> Result<Outcome, Conflict> {
    if let Some(conflict) = puzzle.conflict() {
        return Err(conflict);
    }
    let _ = limit;
    todo!("fast solver: see solver issue")
}
