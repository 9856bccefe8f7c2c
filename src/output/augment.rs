//! The writers of `augment`: one output record per copy of an input record, or one for the
//! record itself when it has no copies (malformed, or its given solution is not a grid or not the puzzle's), with
//! its status. A copy is formatted alone ([`Augmented::Copy`]), so a record's copies can be made
//! and written a few at a time, in bounded memory, however many it has.
//!
//! - `csv`: the input columns, the puzzle column (and the solution column, if any) replaced by the
//!   copy's, then `status`, `copy` (1, 2, ...; 0 for the original with `--keep-original`) and
//!   `transform`. Line and grid input give `puzzle`, the fields kept of a line (`--echo`), then
//!   `solution` when the lines carry one. In pipe mode `reason` comes last.
//! - `line`: `PUZZLE [SOLUTION] TRANSFORM`, or the status word, then the fields kept of the line.
//! - `jsonl`: `file`, `line`, `copy`, `status`, `puzzle`, the fields kept of the line, `solution`
//!   (null for none), `transform`, and in pipe mode `reason` (null for a copy).
//! - `grid`: `# COPY TRANSFORM [SOLUTION]` and the fields kept of the line, then the copy's 9
//!   rows (cells separated by spaces); the status word alone for a record without copies
//!   (under a `#` line of the fields kept); a blank line between records. So the output reads
//!   back as grid input, with as many records.
//!
//! Copies are written with the blank character the record used (`.` when its cells hold a `.`,
//! else `0`), so a Kaggle file stays digits only.

use super::csv::{CsvRow, header_with, write_header};
use super::{Format, OutputFormat, OutputOptions, push_json_str, push_u64};
use crate::grid::Grid;
use crate::input::Record;
use crate::transform::Transform;

/// One output record of `augment`.
// Made on the stack for one copy and formatted at once, never held in bulk: boxing the large
// variant would cost an allocation per copy for nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Augmented {
    /// A copy of the record: the puzzle, and its solution when the record gives one, moved by
    /// `transform`.
    Copy {
        /// 0 for the record as it is (`--keep-original`), the random copies from 1.
        number: u64,
        /// The copy's puzzle.
        puzzle: Grid,
        /// The copy's solution, when the record gives one.
        solution: Option<Grid>,
        /// What made the copy from the record.
        transform: Transform,
    },
    /// The puzzle is malformed (the reason is the record's): no copies.
    Malformed,
    /// The given solution is not a grid or does not solve the puzzle (why): nothing to transform it
    /// with, no copies.
    BadSolution(String),
}

/// Where the puzzle and solution sit in CSV input, and whether line input carries solutions.
#[derive(Debug, Clone, Copy, Default)]
pub struct AugmentColumns {
    /// 0-based puzzle column of CSV input.
    pub puzzle: Option<usize>,
    /// 0-based solution column of CSV input, if it has one.
    pub solution: Option<usize>,
    /// Line input carries solutions (a `solution` column in CSV output).
    pub line_solutions: bool,
}

/// The formatter of `augment` for `format` (`Auto` taken as `Line`). `header` is the CSV input
/// header, if any.
pub fn augment_formatter(
    format: OutputFormat,
    header: Option<&[String]>,
    options: &OutputOptions,
    columns: AugmentColumns,
) -> Box<dyn Format<Augmented>> {
    match format {
        OutputFormat::Csv => {
            let echo = if header.is_some() {
                0
            } else {
                options.echo.len()
            };
            let input: Vec<String> = match header {
                Some(header) => header.to_vec(),
                None => std::iter::once("puzzle".to_string())
                    .chain(options.echo.iter().cloned())
                    .collect(),
            };
            let solution = header.is_none() && columns.line_solutions;
            let appended: Vec<&str> = solution
                .then_some("solution")
                .into_iter()
                .chain(["status", "copy", "transform"])
                .chain(options.pipe.then_some("reason"))
                .collect();
            Box::new(CsvCopies {
                header: header_with(Some(&input), &appended),
                width: header.map_or(0, <[String]>::len),
                echo,
                delimiter: options.delimiter,
                pipe: options.pipe,
                columns,
            })
        }
        OutputFormat::Jsonl => Box::new(JsonlCopies {
            names: options.names.clone(),
            echo: options.echo.clone(),
            pipe: options.pipe,
        }),
        OutputFormat::Grid => Box::new(GridCopies {
            echo: options.echo.len(),
        }),
        OutputFormat::Auto | OutputFormat::Line => Box::new(LineCopies {
            echo: options.echo.len(),
        }),
    }
}

/// The status word of an output record.
fn status(answer: &Augmented) -> &'static str {
    match answer {
        Augmented::Copy { .. } => "ok",
        Augmented::Malformed => "malformed",
        Augmented::BadSolution(_) => crate::status::BAD_SOLUTION,
    }
}

/// Why the record has no copies (pipe mode's `reason`), `None` for a copy.
fn reason<'a>(record: &'a Record, answer: &'a Augmented) -> Option<&'a str> {
    match answer {
        Augmented::Copy { .. } => None,
        Augmented::Malformed => Some(record.puzzle.as_ref().err().map_or("", String::as_str)),
        Augmented::BadSolution(reason) => Some(reason),
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

/// Appends ` FIELD` for each of the first `n` fields kept of the record's line.
fn push_kept(out: &mut Vec<u8>, record: &Record, n: usize) {
    for i in 0..n {
        out.push(b' ');
        out.extend_from_slice(record.fields.get(i).unwrap_or("").as_bytes());
    }
}

struct LineCopies {
    /// Fields kept of a line of line input.
    echo: usize,
}

impl Format<Augmented> for LineCopies {
    fn record(&self, record: &Record, answer: &Augmented, _first: bool, out: &mut Vec<u8>) {
        match answer {
            Augmented::Copy {
                puzzle,
                solution,
                transform,
                ..
            } => {
                out.extend_from_slice(&cells(puzzle, record));
                if let Some(solution) = solution {
                    out.push(b' ');
                    out.extend_from_slice(&solution.to_line(b'0'));
                }
                out.push(b' ');
                out.extend_from_slice(transform.to_string().as_bytes());
            }
            _ => out.extend_from_slice(status(answer).as_bytes()),
        }
        push_kept(out, record, self.echo);
        out.push(b'\n');
    }
}

struct GridCopies {
    /// Fields kept of a line of line input.
    echo: usize,
}

impl Format<Augmented> for GridCopies {
    fn record(&self, record: &Record, answer: &Augmented, first: bool, out: &mut Vec<u8>) {
        if !first {
            out.push(b'\n');
        }
        let Augmented::Copy {
            number,
            puzzle,
            solution,
            transform,
        } = answer
        else {
            // the fields on a `#` line above the status word, which stays alone on its line:
            // grid input reads `malformed k2 9.9` as a title, and the record was lost there
            if self.echo > 0 {
                out.push(b'#');
                push_kept(out, record, self.echo);
                out.push(b'\n');
            }
            out.extend_from_slice(status(answer).as_bytes());
            out.push(b'\n');
            return;
        };
        out.extend_from_slice(b"# ");
        push_u64(out, *number);
        out.push(b' ');
        out.extend_from_slice(transform.to_string().as_bytes());
        if let Some(solution) = solution {
            out.push(b' ');
            out.extend_from_slice(&solution.to_line(b'0'));
        }
        push_kept(out, record, self.echo);
        out.push(b'\n');
        for row in cells(puzzle, record).chunks_exact(9) {
            for (i, &cell) in row.iter().enumerate() {
                if i > 0 {
                    out.push(b' ');
                }
                out.push(cell);
            }
            out.push(b'\n');
        }
    }
}

struct CsvCopies {
    header: Vec<String>,
    /// Input columns (0 for line and grid input).
    width: usize,
    /// Fields kept of a line of line input.
    echo: usize,
    delimiter: u8,
    /// No header, and the reason a record has no copies in the last column.
    pipe: bool,
    columns: AugmentColumns,
}

impl Format<Augmented> for CsvCopies {
    fn header(&self, out: &mut Vec<u8>) {
        write_header(out, &self.header, self.delimiter, self.pipe);
    }

    fn record(&self, record: &Record, answer: &Augmented, _first: bool, out: &mut Vec<u8>) {
        let mut row = CsvRow::new(out, self.delimiter);
        let (puzzle, solution, copy) = match answer {
            Augmented::Copy {
                number,
                puzzle,
                solution,
                transform,
            } => (
                Some(cells(puzzle, record)),
                solution.map(|s| s.to_line(b'0')),
                Some((*number, transform)),
            ),
            _ => (None, None, None),
        };
        if self.width == 0 {
            match &puzzle {
                Some(p) => row.plain_field(|o| o.extend_from_slice(p)),
                None => row.field(&record.cells),
            }
            for i in 0..self.echo {
                row.field(record.fields.get(i).unwrap_or(""));
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
            if let Some((_, t)) = copy {
                o.extend_from_slice(t.to_string().as_bytes());
            }
        });
        if self.pipe {
            row.field(reason(record, answer).unwrap_or(""));
        }
        row.end();
    }
}

struct JsonlCopies {
    names: Vec<String>,
    /// The names of the fields kept of a line of line input.
    echo: Vec<String>,
    /// The reason a record has no copies, last.
    pipe: bool,
}

impl Format<Augmented> for JsonlCopies {
    fn record(&self, record: &Record, answer: &Augmented, _first: bool, l: &mut Vec<u8>) {
        l.extend_from_slice(b"{\"file\":");
        let name = self.names.get(record.source as usize);
        push_json_str(l, name.map_or("<unknown input>", String::as_str));
        l.extend_from_slice(b",\"line\":");
        push_u64(l, record.line);
        l.extend_from_slice(b",\"copy\":");
        match answer {
            Augmented::Copy { number, .. } => push_u64(l, *number),
            _ => l.extend_from_slice(b"null"),
        }
        l.extend_from_slice(b",\"status\":\"");
        l.extend_from_slice(status(answer).as_bytes());
        l.extend_from_slice(b"\",\"puzzle\":");
        match answer {
            Augmented::Copy { puzzle, .. } => {
                l.push(b'"');
                l.extend_from_slice(&cells(puzzle, record));
                l.push(b'"');
            }
            _ => push_json_str(l, &record.cells),
        }
        for (i, key) in self.echo.iter().enumerate() {
            l.push(b',');
            push_json_str(l, key);
            l.push(b':');
            push_json_str(l, record.fields.get(i).unwrap_or(""));
        }
        l.extend_from_slice(b",\"solution\":");
        match answer {
            Augmented::Copy {
                solution: Some(s), ..
            } => {
                l.push(b'"');
                l.extend_from_slice(&s.to_line(b'0'));
                l.push(b'"');
            }
            _ => l.extend_from_slice(b"null"),
        }
        l.extend_from_slice(b",\"transform\":");
        match answer {
            Augmented::Copy { transform, .. } => {
                l.push(b'"');
                l.extend_from_slice(transform.to_string().as_bytes());
                l.push(b'"');
            }
            _ => l.extend_from_slice(b"null"),
        }
        if self.pipe {
            l.extend_from_slice(b",\"reason\":");
            match reason(record, answer) {
                Some(reason) => push_json_str(l, reason),
                None => l.extend_from_slice(b"null"),
            }
        }
        l.extend_from_slice(b"}\n");
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{PUZZLE, SOLUTION, record};
    use super::*;
    use crate::input::Fields;

    /// A record of line input keeping two fields of its line.
    fn kept(line: u64, cells: &str) -> Record {
        let mut r = record(line, cells);
        let mut fields = Fields::default();
        fields.push_bytes(b"k1");
        fields.push_bytes(b"2.5");
        r.fields = fields;
        r
    }

    fn options(pipe: bool) -> OutputOptions {
        OutputOptions {
            names: vec!["in.txt".to_string()],
            pipe,
            echo: vec!["field1".to_string(), "field3".to_string()],
            ..OutputOptions::default()
        }
    }

    /// Copy 1 of PUZZLE (with SOLUTION) under the identity, then a malformed record.
    fn render(format: OutputFormat, pipe: bool) -> String {
        let columns = AugmentColumns {
            line_solutions: true,
            ..AugmentColumns::default()
        };
        let f = augment_formatter(format, None, &options(pipe), columns);
        let copy = Augmented::Copy {
            number: 1,
            puzzle: PUZZLE.parse().unwrap(),
            solution: Some(SOLUTION.parse().unwrap()),
            transform: Transform::IDENTITY,
        };
        let mut bad = kept(2, "12x");
        bad.puzzle = Err("found 3 cells, expected 81".to_string());
        let mut out = Vec::new();
        f.header(&mut out);
        f.record(&kept(1, PUZZLE), &copy, true, &mut out);
        f.record(&bad, &Augmented::Malformed, false, &mut out);
        String::from_utf8(out).unwrap()
    }

    const IDENTITY: &str = "R123456789C123456789D123456789";

    #[test]
    fn every_format_keeps_the_fields_of_the_line() {
        assert_eq!(
            render(OutputFormat::Line, false),
            format!("{PUZZLE} {SOLUTION} {IDENTITY} k1 2.5\nmalformed k1 2.5\n")
        );
        assert_eq!(
            render(OutputFormat::Csv, false),
            format!(
                "puzzle,field1,field3,solution,status,copy,transform\n\
                 {PUZZLE},k1,2.5,{SOLUTION},ok,1,{IDENTITY}\n12x,k1,2.5,,malformed,,\n"
            )
        );
        let jsonl = render(OutputFormat::Jsonl, false);
        let first: serde_json::Value = serde_json::from_str(jsonl.lines().next().unwrap()).unwrap();
        assert_eq!(first["field1"], "k1");
        assert_eq!(first["field3"], "2.5");
        assert_eq!(first["copy"], 1);
    }

    #[test]
    fn pipe_mode_gives_the_reason_and_no_header() {
        assert_eq!(
            render(OutputFormat::Csv, true),
            format!(
                "{PUZZLE},k1,2.5,{SOLUTION},ok,1,{IDENTITY},\n\
                 12x,k1,2.5,,malformed,,,\"found 3 cells, expected 81\"\n"
            )
        );
        let jsonl = render(OutputFormat::Jsonl, true);
        let rows: Vec<serde_json::Value> = jsonl
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(rows[0]["reason"], serde_json::Value::Null);
        assert_eq!(rows[1]["reason"], "found 3 cells, expected 81");
    }

    #[test]
    fn grid_writes_each_copy_as_nine_rows_under_a_comment() {
        let text = render(OutputFormat::Grid, false);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], format!("# 1 {IDENTITY} {SOLUTION} k1 2.5"));
        assert_eq!(lines[1], ". . 3 . 2 . 6 . .");
        assert_eq!(lines[9], ". . 5 . 1 . 3 . .");
        // the status word alone, so that grid input reads it back as a record
        assert_eq!(&lines[10..], ["", "# k1 2.5", "malformed"]);
    }
}
