//! The writers of `augment`: each record's copies, one output record per copy, a malformed record
//! (or one whose given solution is not a grid) once with its status.
//!
//! - `csv`: the input columns, the puzzle column (and the solution column, if any) replaced by the
//!   copy's, then `status`, `copy` (1, 2, ...; 0 for the original with `--keep-original`) and
//!   `transform`. Line and grid input give `puzzle` (and `solution` when the lines carry one).
//! - `line`: `PUZZLE [SOLUTION] TRANSFORM` per copy, or the status word.
//! - `jsonl`: `file`, `line`, `copy`, `status`, `puzzle`, `solution` (null for none), `transform`.
//!
//! Copies are written with the blank character the record used (`.` when its cells hold a `.`,
//! else `0`), so a Kaggle file stays digits only.

use super::csv::{CsvRow, header_with, write_header};
use super::{Format, OutputFormat, OutputOptions, push_json_str, push_u64};
use crate::grid::Grid;
use crate::input::Record;
use crate::transform::Variant;

/// What `augment` gives a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Augmented {
    /// The copies: puzzle, solution (when the record gives one), and the transform that made them.
    Copies(Vec<Variant>),
    /// The puzzle is malformed (the reason is the record's).
    Malformed,
    /// The given solution is not a grid: nothing to transform it with, no copies.
    BadSolution,
}

/// Where the puzzle and solution sit in CSV input, and whether copies are numbered from 0.
#[derive(Debug, Clone, Copy, Default)]
pub struct AugmentColumns {
    /// 0-based puzzle column of CSV input.
    pub puzzle: Option<usize>,
    /// 0-based solution column of CSV input, if it has one.
    pub solution: Option<usize>,
    /// The first copy is the record as it is (copy 0, the identity transform).
    pub keep_original: bool,
    /// Line input carries solutions (a `solution` column in CSV output).
    pub line_solutions: bool,
}

/// The formatter of `augment` (`Auto` and `Grid` taken as `Line`). `header` is the CSV input
/// header, if any.
pub fn augment_formatter(
    format: OutputFormat,
    header: Option<&[String]>,
    options: &OutputOptions,
    columns: AugmentColumns,
) -> Box<dyn Format<Augmented>> {
    match format {
        OutputFormat::Csv => {
            let appended: &[&str] = match (header.is_some(), columns.line_solutions) {
                (false, true) => &["solution", "status", "copy", "transform"],
                _ => &["status", "copy", "transform"],
            };
            Box::new(CsvCopies {
                header: header_with(header, appended),
                width: header.map_or(0, <[String]>::len),
                delimiter: options.delimiter,
                pipe: options.pipe,
                columns,
            })
        }
        OutputFormat::Jsonl => Box::new(JsonlCopies {
            names: options.names.clone(),
            first: first_copy(columns),
        }),
        OutputFormat::Auto | OutputFormat::Line | OutputFormat::Grid => Box::new(LineCopies),
    }
}

fn first_copy(columns: AugmentColumns) -> u64 {
    u64::from(!columns.keep_original)
}

/// The status word of a record.
fn status(answer: &Augmented) -> &'static str {
    match answer {
        Augmented::Copies(_) => "ok",
        Augmented::Malformed => "malformed",
        Augmented::BadSolution => "bad_solution",
    }
}

/// A grid's 81 cells with the record's blank character.
fn cells(grid: &Grid, record: &Record) -> [u8; 81] {
    let blank = if record.cells.contains('.') {
        b'.'
    } else {
        b'0'
    };
    grid.to_line(blank)
}

struct LineCopies;

impl Format<Augmented> for LineCopies {
    fn record(&self, record: &Record, answer: &Augmented, _first: bool, out: &mut Vec<u8>) {
        let Augmented::Copies(copies) = answer else {
            out.extend_from_slice(status(answer).as_bytes());
            out.push(b'\n');
            return;
        };
        for (puzzle, solution, transform) in copies {
            out.extend_from_slice(&cells(puzzle, record));
            if let Some(solution) = solution {
                out.push(b' ');
                out.extend_from_slice(&solution.to_line(b'0'));
            }
            out.push(b' ');
            out.extend_from_slice(transform.to_string().as_bytes());
            out.push(b'\n');
        }
    }
}

struct CsvCopies {
    header: Vec<String>,
    /// Input columns (0 for line and grid input).
    width: usize,
    delimiter: u8,
    pipe: bool,
    columns: AugmentColumns,
}

impl CsvCopies {
    /// One row: the input's columns (or the puzzle and perhaps its solution), then the rest.
    fn row(
        &self,
        out: &mut Vec<u8>,
        record: &Record,
        answer: &Augmented,
        copy: Option<(u64, &Variant)>,
    ) {
        let mut row = CsvRow::new(out, self.delimiter);
        let puzzle = copy.map(|(_, (p, _, _))| cells(p, record));
        let solution = copy.and_then(|(_, (_, s, _))| s.map(|s| s.to_line(b'0')));
        if self.width == 0 {
            match &puzzle {
                Some(p) => row.plain_field(|o| o.extend_from_slice(p)),
                None => row.field(&record.cells),
            }
            if self.columns.line_solutions {
                match &solution {
                    Some(s) => row.plain_field(|o| o.extend_from_slice(s)),
                    None => row.field(record.solution.as_deref().unwrap_or("")),
                }
            }
        } else {
            for i in 0..self.width {
                let replaced = match (
                    Some(i) == self.columns.puzzle,
                    Some(i) == self.columns.solution,
                ) {
                    (true, _) => puzzle.as_ref(),
                    (_, true) => solution.as_ref(),
                    _ => None,
                };
                match replaced {
                    Some(cells) => row.plain_field(|o| o.extend_from_slice(cells)),
                    None => row.field(record.fields.get(i).unwrap_or("")),
                }
            }
        }
        row.plain_field(|o| o.extend_from_slice(status(answer).as_bytes()));
        row.plain_field(|o| {
            if let Some((n, _)) = copy {
                push_u64(o, n);
            }
        });
        row.plain_field(|o| {
            if let Some((_, (_, _, t))) = copy {
                o.extend_from_slice(t.to_string().as_bytes());
            }
        });
        row.end();
    }
}

impl Format<Augmented> for CsvCopies {
    fn header(&self, out: &mut Vec<u8>) {
        write_header(out, &self.header, self.delimiter, self.pipe);
    }

    fn record(&self, record: &Record, answer: &Augmented, _first: bool, out: &mut Vec<u8>) {
        match answer {
            Augmented::Copies(copies) => {
                let first = first_copy(self.columns);
                for (n, copy) in copies.iter().enumerate() {
                    self.row(out, record, answer, Some((first + n as u64, copy)));
                }
            }
            _ => self.row(out, record, answer, None),
        }
    }
}

struct JsonlCopies {
    names: Vec<String>,
    first: u64,
}

impl JsonlCopies {
    fn start(&self, l: &mut Vec<u8>, record: &Record) {
        l.extend_from_slice(b"{\"file\":");
        let name = self.names.get(record.source as usize);
        push_json_str(l, name.map_or("<unknown input>", String::as_str));
        l.extend_from_slice(b",\"line\":");
        push_u64(l, record.line);
        l.extend_from_slice(b",\"copy\":");
    }
}

impl Format<Augmented> for JsonlCopies {
    fn record(&self, record: &Record, answer: &Augmented, _first: bool, l: &mut Vec<u8>) {
        let Augmented::Copies(copies) = answer else {
            self.start(l, record);
            l.extend_from_slice(b"null,\"status\":\"");
            l.extend_from_slice(status(answer).as_bytes());
            l.extend_from_slice(b"\",\"puzzle\":");
            push_json_str(l, &record.cells);
            l.extend_from_slice(b",\"solution\":null,\"transform\":null}\n");
            return;
        };
        for (n, (puzzle, solution, transform)) in copies.iter().enumerate() {
            self.start(l, record);
            push_u64(l, self.first + n as u64);
            l.extend_from_slice(b",\"status\":\"ok\",\"puzzle\":\"");
            l.extend_from_slice(&cells(puzzle, record));
            l.extend_from_slice(b"\",\"solution\":");
            match solution {
                Some(s) => {
                    l.push(b'"');
                    l.extend_from_slice(&s.to_line(b'0'));
                    l.push(b'"');
                }
                None => l.extend_from_slice(b"null"),
            }
            l.extend_from_slice(b",\"transform\":\"");
            l.extend_from_slice(transform.to_string().as_bytes());
            l.extend_from_slice(b"\"}\n");
        }
    }
}
