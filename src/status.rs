//! The status of one record, the same words in every output format, and the per-record answer
//! (status, solution, guesses, solve time) that the writers print. Plain data: the solver fills it
//! in ([`crate::solver::answer`]), the writers read it.

use crate::grid::Grid;

/// `augment`'s status word for a record whose given solution does not fit its puzzle (beside
/// [`Status`]'s words, which it shares).
pub const BAD_SOLUTION: &str = "bad_solution";

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
    /// Every status, in the order summaries list them (`status as usize` indexes it).
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
}

impl Answer {
    /// The answer for a record that could not be read as a puzzle (the reason stays with the record).
    pub fn malformed() -> Answer {
        Answer {
            status: Status::Malformed,
            solution: None,
            guesses: 0,
            nanos: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_lists_statuses_in_declaration_order() {
        // `status as usize` indexes per-status counters by this order
        for (i, s) in Status::ALL.iter().enumerate() {
            assert_eq!(*s as usize, i, "{s}");
        }
    }

    #[test]
    fn words_match_serde_names() {
        for s in Status::ALL {
            assert_eq!(
                serde_json::to_string(&s).unwrap(),
                format!("\"{}\"", s.as_str())
            );
        }
    }
}
