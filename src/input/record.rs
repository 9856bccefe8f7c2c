//! One input record, the shape every reader fills, and what a record keeps of its input besides
//! the puzzle: of a line ([`Echo`]) or of a CSV row ([`Keep`]).

use super::fields::{Fields, replace_cr};
use super::text;
use crate::grid::Grid;

/// What a record of line input keeps of its line besides the puzzle, in [`Record::fields`] (so
/// that output can carry a key, a hash or a rating through): the output's extra columns.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Echo {
    /// Nothing.
    #[default]
    None,
    /// The whole line (spaces around it dropped): one field, named `input`.
    Line,
    /// These fields of the line (1-based, split as the puzzle field is found: on whitespace, `:`
    /// and `,`), named `field1`, `field2`, ...; a field the line lacks is empty.
    Fields(Vec<usize>),
}

impl Echo {
    /// The names of the fields kept, as output columns.
    pub fn names(&self) -> Vec<String> {
        match self {
            Echo::None => Vec::new(),
            Echo::Line => vec!["input".to_string()],
            Echo::Fields(numbers) => numbers.iter().map(|n| format!("field{n}")).collect(),
        }
    }

    /// Sets `fields` to what is kept of the (trimmed) line `text`.
    pub(super) fn fill(&self, text: &[u8], fields: &mut Fields) {
        fields.clear();
        match self {
            Echo::None => {}
            Echo::Line => {
                fields.push_bytes(text);
            }
            Echo::Fields(numbers) => {
                for &n in numbers {
                    let piece = text::fields(text).nth(n.saturating_sub(1));
                    fields.push_bytes(piece.unwrap_or_default());
                }
            }
        }
    }
}

/// What records of CSV input keep of their rows besides the puzzle ([`Reader::keep`]): both
/// by default.
///
/// [`Reader::keep`]: super::Reader::keep
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Keep {
    /// Every field of the row, in [`Record::fields`].
    pub fields: bool,
    /// The puzzle field as read, in [`Record::cells`].
    pub cells: bool,
}

impl Default for Keep {
    fn default() -> Keep {
        Keep {
            fields: true,
            cells: true,
        }
    }
}

/// One input record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// Index of the input (in the order given) the record comes from.
    pub source: u32,
    /// 1-based line where the record starts.
    pub line: u64,
    /// CSV: every column of the row, as read. Empty for line and grid input.
    pub fields: Fields,
    /// The puzzle cells as read (81 characters), or for a malformed record the text that was read.
    pub cells: String,
    /// The parsed puzzle, or why the record is malformed.
    pub puzzle: Result<Grid, String>,
    /// The solution the dataset gives for the puzzle, as read (spaces around it dropped), when the
    /// reader was asked for solutions ([`Reader::read_solutions`]) and the record has one: the CSV
    /// solution column (an empty cell is no solution), or in line input the field after the
    /// puzzle that looks like a solution (see the `line` module). Not checked here: a wrong one
    /// is the caller's finding.
    ///
    /// [`Reader::read_solutions`]: super::Reader::read_solutions
    pub solution: Option<String>,
    /// Grid input: the `#` comment and title lines that came with the grid (above it since the
    /// record before, or among its rows), each trimmed and ended with `\n`; written back above
    /// the grid where a record goes whole (`split`'s parts). Empty for line and CSV input.
    pub above: String,
}

impl Record {
    /// Pipe mode: no record carries a CR to the output, where an engine's line reader (Java's
    /// `readLine`, which Spark SQL's TRANSFORM reads with) would end a line at it, one record
    /// read as two and every later one paired with the wrong input. A record whose text holds
    /// one is malformed, as a line of line input that holds one is (its reason says so), and its
    /// kept text (the fields echoed or written back, the cells) has a space in its place.
    pub(crate) fn without_cr(&mut self) {
        let held = self.fields.cr_to_space() | replace_cr(&mut self.cells);
        if held && self.puzzle.is_ok() {
            self.puzzle = Err(CR_INSIDE.to_string());
            self.solution = None;
        }
        if let Some(solution) = &mut self.solution {
            replace_cr(solution);
        }
    }

    /// A record with nothing read into it yet: a slot for a reader to fill.
    pub fn empty() -> Record {
        Record {
            source: 0,
            line: 0,
            fields: Fields::default(),
            cells: String::new(),
            puzzle: Err(String::new()),
            solution: None,
            above: String::new(),
        }
    }
}

/// Why a line (a row) holding a CR that is not its end is malformed.
pub(crate) const CR_INSIDE: &str = "a carriage return (CR) inside the line: the file mixes line \
    ends; convert them to one kind (dos2unix, mac2unix)";
