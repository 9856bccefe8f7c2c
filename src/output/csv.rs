//! The CSV writer: the input columns (or, for line and grid input, a single `puzzle` column holding
//! the cells as read), then the appended columns `status`, `solution`, `guesses`, `micros`.
//!
//! Column names never clash: an appended name equal to an input column name or an earlier appended
//! name (ignoring ASCII case and spaces around input names) becomes `NAME_2`, or `NAME_3`, ..., the
//! first one free. So radcliffe's `puzzle,solution,clues,difficulty,level` gets
//! `status,solution_2,guesses,micros` appended.
//!
//! Every row has the header's width: a malformed input row with fewer fields is padded with empty
//! cells, one with more is cut. `solution` is the 81 digits (for `multiple`, the first solution
//! found) or empty; `micros` is the solve time with 3 decimals, empty with `no_timings`. Quoting is
//! the `csv` crate's default style, done here ([`CsvRow`]): fields separated by the delimiter
//! (the CSV input's own, so a `;` or tab file is written back with it; else a comma), rows ended
//! by LF, a field quoted only when it holds the delimiter, a quote, CR or LF (its quotes doubled).

use super::{Format, OutputOptions, push_micros, push_u64};
use crate::input::{Record, find_byte};
use crate::status::Answer;

/// The columns appended to the input's, before renaming.
const APPENDED: [&str; 4] = ["status", "solution", "guesses", "micros"];

/// The CSV output header for input with CSV header `input` (`None`: line or grid input).
pub fn csv_header(input: Option<&[String]>) -> Vec<String> {
    header_with(input, &APPENDED)
}

/// The columns `solve` appends in pipe mode: the malformed reason too.
const APPENDED_PIPE: [&str; 5] = ["status", "solution", "guesses", "micros", "reason"];

/// The input's columns (or `puzzle` for line and grid input) and then `appended`, each renamed
/// where it clashes (see the module documentation).
pub(crate) fn header_with(input: Option<&[String]>, appended: &[&str]) -> Vec<String> {
    let mut header: Vec<String> = match input {
        Some(h) => h.to_vec(),
        None => vec!["puzzle".to_string()],
    };
    let taken =
        |header: &[String], name: &str| header.iter().any(|h| h.trim().eq_ignore_ascii_case(name));
    for &name in appended {
        let mut chosen = name.to_string();
        let mut n = 2;
        while taken(&header, &chosen) {
            chosen = format!("{name}_{n}");
            n += 1;
        }
        header.push(chosen);
    }
    header
}

/// One CSV row being appended to an output buffer. Writing CSV by hand rather than through the
/// `csv` crate's writer halves its cost per record: a field that needs no quotes (the usual one)
/// is found with a scan the compiler vectorizes and copied as it is, with no per-byte state
/// machine.
pub(crate) struct CsvRow<'a> {
    out: &'a mut Vec<u8>,
    /// Where the row starts in `out`.
    start: usize,
    fields: usize,
    delimiter: u8,
}

impl<'a> CsvRow<'a> {
    /// A row appended to `out`, its fields separated by `delimiter`.
    pub(crate) fn new(out: &'a mut Vec<u8>, delimiter: u8) -> CsvRow<'a> {
        CsvRow {
            start: out.len(),
            out,
            fields: 0,
            delimiter,
        }
    }

    /// Appends a field, quoted when it must be.
    pub(crate) fn field(&mut self, field: impl AsRef<[u8]>) {
        let field = field.as_ref();
        self.separate();
        if needs_quotes(field, self.delimiter) {
            self.out.push(b'"');
            for &b in field {
                if b == b'"' {
                    self.out.push(b'"');
                }
                self.out.push(b);
            }
            self.out.push(b'"');
        } else {
            self.out.extend_from_slice(field);
        }
    }

    /// Appends a field that needs no quotes (a number, a status word, digits), written by
    /// `write`.
    pub(crate) fn plain_field(&mut self, write: impl FnOnce(&mut Vec<u8>)) {
        self.separate();
        write(self.out);
    }

    fn separate(&mut self) {
        if self.fields > 0 {
            self.out.push(self.delimiter);
        }
        self.fields += 1;
    }

    /// Ends the row.
    pub(crate) fn end(self) {
        if self.fields == 1 && self.out.len() == self.start {
            // a lone empty field is written `""`, or the row would read as no row at all
            self.out.extend_from_slice(b"\"\"");
        }
        self.out.push(b'\n');
    }
}

/// True when a field must be quoted: it holds the delimiter, a quote, CR or LF (found 16 bytes at
/// a time). Each usual delimiter gets a copy of the scan with it built in: compared with a value
/// known only at run time, the scan took twice the instructions (callgrind, a Kaggle CSV).
fn needs_quotes(field: &[u8], delimiter: u8) -> bool {
    match delimiter {
        b',' => needs_quotes_with::<b','>(field),
        b';' => needs_quotes_with::<b';'>(field),
        b'\t' => needs_quotes_with::<b'\t'>(field),
        other => find_byte(field, |b| {
            (b == other) | (b == b'"') | (b == b'\r') | (b == b'\n')
        })
        .is_some(),
    }
}

/// [`needs_quotes`] for the delimiter `D`.
fn needs_quotes_with<const D: u8>(field: &[u8]) -> bool {
    find_byte(field, |b| {
        (b == D) | (b == b'"') | (b == b'\r') | (b == b'\n')
    })
    .is_some()
}

/// The columns a CSV format appends to the input's, and how one record's answer fills them.
pub(crate) trait Appended<A>: Send + Sync {
    /// The column names, before renaming.
    fn names(&self) -> &'static [&'static str];
    /// Appends the fields of one row (the row is ended by the format).
    fn write(&self, row: &mut CsvRow<'_>, record: &Record, answer: &A);
}

/// Formats CSV: the input columns, then the columns `C` appends.
pub(crate) struct CsvFormat<C> {
    header: Vec<String>,
    /// Input columns per row; 0 for line and grid input (the cells are the input column, then
    /// the line's kept fields: see [`OutputOptions::echo`]).
    width: usize,
    /// Fields kept of a line of line input.
    echo: usize,
    delimiter: u8,
    /// No header (pipe mode).
    pipe: bool,
    columns: C,
}

impl CsvFormat<SolveColumns> {
    /// The format of `solve`.
    pub(crate) fn new(header: Option<&[String]>, options: &OutputOptions) -> Self {
        let columns = SolveColumns {
            no_timings: options.no_timings,
            reason: options.pipe,
        };
        CsvFormat::with_columns(header, options, columns)
    }
}

impl<C> CsvFormat<C> {
    /// A format for input with CSV header `header` (`None`: line or grid input), appending
    /// `columns`, with the delimiter, pipe mode and kept line fields of `options`.
    pub(crate) fn with_columns<A>(
        header: Option<&[String]>,
        options: &OutputOptions,
        columns: C,
    ) -> Self
    where
        C: Appended<A>,
    {
        let input: Vec<String> = match header {
            Some(header) => header.to_vec(),
            None => std::iter::once("puzzle".to_string())
                .chain(options.echo.iter().cloned())
                .collect(),
        };
        CsvFormat {
            header: header_with(Some(&input), columns.names()),
            width: header.map_or(0, <[String]>::len),
            echo: if header.is_some() {
                0
            } else {
                options.echo.len()
            },
            delimiter: options.delimiter,
            pipe: options.pipe,
            columns,
        }
    }
}

/// Appends a header row of `names` (nothing in pipe mode, where output has no header).
pub(crate) fn write_header(out: &mut Vec<u8>, names: &[String], delimiter: u8, pipe: bool) {
    if pipe {
        return;
    }
    let mut row = CsvRow::new(out, delimiter);
    for name in names {
        row.field(name);
    }
    row.end();
}

impl<A, C: Appended<A>> Format<A> for CsvFormat<C> {
    fn header(&self, out: &mut Vec<u8>) {
        write_header(out, &self.header, self.delimiter, self.pipe);
    }

    fn record(&self, record: &Record, answer: &A, _first: bool, out: &mut Vec<u8>) {
        let mut row = CsvRow::new(out, self.delimiter);
        // the input columns: `width` fields (padded with empty ones or cut), or for line and
        // grid input (`width` 0) the cells as read and the fields kept of the line
        if self.width == 0 {
            if record.puzzle.is_ok() {
                // the cells of a puzzle are digits and blanks: never quoted
                row.plain_field(|out| out.extend_from_slice(record.cells.as_bytes()));
            } else {
                row.field(&record.cells);
            }
            for i in 0..self.echo {
                row.field(record.fields.get(i).unwrap_or(""));
            }
        } else if record.fields.quote_free() == Some(self.delimiter) {
            // nothing in them to quote (see `Fields::quote_free`): copied as they are
            for i in 0..self.width {
                let field = record.fields.get(i).unwrap_or("");
                row.plain_field(|out| out.extend_from_slice(field.as_bytes()));
            }
        } else {
            for i in 0..self.width {
                row.field(record.fields.get(i).unwrap_or(""));
            }
        }
        self.columns.write(&mut row, record, answer);
        row.end();
    }
}

/// The columns `solve` appends: `status`, `solution`, `guesses`, `micros` (and `reason`).
pub(crate) struct SolveColumns {
    no_timings: bool,
    /// The malformed reason too (pipe mode).
    reason: bool,
}

impl Appended<Answer> for SolveColumns {
    fn names(&self) -> &'static [&'static str] {
        if self.reason {
            &APPENDED_PIPE
        } else {
            &APPENDED
        }
    }

    fn write(&self, row: &mut CsvRow<'_>, record: &Record, answer: &Answer) {
        // status words and digits never need quotes
        row.plain_field(|out| out.extend_from_slice(answer.status.as_str().as_bytes()));
        row.plain_field(|out| {
            if let Some(solution) = answer.solution {
                out.extend_from_slice(&solution.to_line(b'0'));
            }
        });
        row.plain_field(|out| push_u64(out, answer.guesses));
        row.plain_field(|out| {
            if !self.no_timings {
                push_micros(out, answer.nanos);
            }
        });
        if self.reason {
            row.field(record.puzzle.as_ref().err().map_or("", String::as_str));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::OutputFormat;
    use super::super::tests::{PUZZLE, SOLUTION, answer, record, render};
    use super::*;
    use crate::status::Status;

    fn strings(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    fn csv_record(line: u64, fields: &[&str]) -> Record {
        let mut r = record(line, fields.get(1).copied().unwrap_or(""));
        r.fields = fields.iter().collect();
        r
    }

    #[test]
    fn renames_appended_columns_that_clash() {
        let radcliffe = strings(&["puzzle", "solution", "clues", "difficulty", "level"]);
        assert_eq!(
            csv_header(Some(&radcliffe))[5..],
            strings(&["status", "solution_2", "guesses", "micros"])
        );
        let crowded = strings(&["Status", "STATUS_2", "micros_2 ", "guesses_3", "Micros"]);
        assert_eq!(
            csv_header(Some(&crowded))[5..],
            strings(&["status_3", "solution", "guesses", "micros_3"])
        );
        assert_eq!(
            csv_header(None),
            strings(&["puzzle", "status", "solution", "guesses", "micros"])
        );
    }

    #[test]
    fn writes_line_input_with_a_puzzle_column() {
        let items = [
            (record(1, PUZZLE), answer(Status::Unique)),
            (record(2, PUZZLE), answer(Status::Unsolvable)),
            (record(3, "1,\"2"), answer(Status::Malformed)),
        ];
        let text = render(OutputFormat::Csv, None, false, &items);
        assert_eq!(
            text,
            format!(
                "puzzle,status,solution,guesses,micros\n\
                 {PUZZLE},unique,{SOLUTION},7,12.345\n\
                 {PUZZLE},unsolvable,,7,12.345\n\
                 \"1,\"\"2\",malformed,,0,0.000\n"
            )
        );
    }

    #[test]
    fn pads_short_rows_and_cuts_long_ones() {
        let header = strings(&["id", "puzzle", "solution"]);
        let items = [
            (
                csv_record(2, &["1", PUZZLE, SOLUTION]),
                answer(Status::Multiple),
            ),
            (csv_record(3, &["2"]), answer(Status::Malformed)),
            (
                csv_record(4, &["3", "x", "y", "z"]),
                answer(Status::Malformed),
            ),
        ];
        let text = render(OutputFormat::Csv, Some(&header), true, &items);
        assert_eq!(
            text,
            format!(
                "id,puzzle,solution,status,solution_2,guesses,micros\n\
                 1,{PUZZLE},{SOLUTION},multiple,{SOLUTION},7,\n\
                 2,,,malformed,,0,\n\
                 3,x,y,malformed,,0,\n"
            )
        );
    }

    #[test]
    fn quotes_fields_that_need_it() {
        let header = strings(&["note", "puzzle"]);
        let items = [(
            csv_record(2, &["two\nlines, \"quoted\"", PUZZLE]),
            answer(Status::Contradiction),
        )];
        let text = render(OutputFormat::Csv, Some(&header), true, &items);
        assert_eq!(
            text,
            format!(
                "note,puzzle,status,solution,guesses,micros\n\
                 \"two\nlines, \"\"quoted\"\"\",{PUZZLE},contradiction,,7,\n"
            )
        );
    }

    #[test]
    fn quotes_fields_as_the_csv_crate_does() {
        let rows: [&[&str]; 6] = [
            &["plain", "", "a,b", "say \"hi\"", "cr\rlf\n", "\""],
            &["", ""],
            &[""],
            &["tab\tand;semicolon", "#hash", " spaced ", "é"],
            &["\"\"", ",", "\r\n"],
            &["x"],
        ];
        for delimiter in [b',', b';', b'\t'] {
            let mut ours = Vec::new();
            let mut theirs = ::csv::WriterBuilder::new()
                .flexible(true)
                .delimiter(delimiter)
                .from_writer(Vec::new());
            for fields in rows {
                let mut row = CsvRow::new(&mut ours, delimiter);
                for f in fields {
                    row.field(f);
                }
                row.end();
                theirs.write_record(fields).unwrap();
            }
            assert_eq!(
                String::from_utf8(ours).unwrap(),
                String::from_utf8(theirs.into_inner().unwrap()).unwrap(),
                "delimiter {:?}",
                delimiter as char
            );
        }
    }

    #[test]
    fn writes_the_header_even_without_records() {
        let header = strings(&["quizzes", "solutions"]);
        assert_eq!(
            render(OutputFormat::Csv, Some(&header), false, &[]),
            "quizzes,solutions,status,solution,guesses,micros\n"
        );
    }
}
