//! The status of one record, the same words in every output format, and the per-record answer
//! (status, solution, guesses, solve time) that the writers print.

use std::time::Instant;

use crate::grid::Grid;
use crate::solver;

/// What became of one input record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// A solution was found (uniqueness not checked).
    Solved,
    /// Exactly one solution (uniqueness checked).
    Unique,
    /// Two or more solutions (uniqueness checked); the first one found is reported.
    Multiple,
    /// Well formed, consistent givens, no solution.
    Unsolvable,
    /// Two equal givens in a row, column or box.
    Contradiction,
    /// Not readable as a puzzle.
    Malformed,
}

impl Status {
    /// Every status, in the order summaries list them.
    pub const ALL: [Status; 6] = [
        Status::Solved,
        Status::Unique,
        Status::Multiple,
        Status::Unsolvable,
        Status::Contradiction,
        Status::Malformed,
    ];

    /// The status word printed in every output format.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Unique => "unique",
            Status::Multiple => "multiple",
            Status::Unsolvable => "unsolvable",
            Status::Contradiction => "contradiction",
            Status::Malformed => "malformed",
        }
    }

    /// True when the record got a solution that is the answer to print in place of the puzzle.
    pub fn is_solved(self) -> bool {
        matches!(self, Status::Solved | Status::Unique)
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The answer for one record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The record's status.
    pub status: Status,
    /// The solution found (for `multiple`, the first one found), `None` when there is none.
    pub solution: Option<Grid>,
    /// Guesses the solver made.
    pub guesses: u64,
    /// Time spent in the solver, nanoseconds (0 when the solver did not run).
    pub nanos: u64,
    /// Why the record is a contradiction or malformed, for messages.
    pub detail: Option<String>,
}

impl Answer {
    /// An answer for a record that could not be read as a puzzle.
    pub fn malformed(reason: impl Into<String>) -> Answer {
        Answer {
            status: Status::Malformed,
            solution: None,
            guesses: 0,
            nanos: 0,
            detail: Some(reason.into()),
        }
    }

    /// Solves `puzzle`, checking uniqueness when `unique` is set, and times the solver call.
    pub fn solve(puzzle: &Grid, unique: bool) -> Answer {
        let start = Instant::now();
        let result = solver::solve(puzzle, if unique { 2 } else { 1 });
        let nanos = start.elapsed().as_nanos() as u64;
        match result {
            Err(conflict) => Answer {
                status: Status::Contradiction,
                solution: None,
                guesses: 0,
                nanos,
                detail: Some(conflict.to_string()),
            },
            Ok(outcome) => {
                let status = match (outcome.count, unique) {
                    (0, _) => Status::Unsolvable,
                    (_, false) => Status::Solved,
                    (1, true) => Status::Unique,
                    (_, true) => Status::Multiple,
                };
                Answer {
                    status,
                    solution: outcome.solution,
                    guesses: outcome.guesses,
                    nanos,
                    detail: None,
                }
            }
        }
    }
}
