//! The CSV format: a header row, then one puzzle a row in one column. The column is chosen by
//! [`Column`] or found by name ([`PUZZLE_COLUMNS`], first match in that order, ignoring ASCII case).
//! When asked for given solutions, another column holds them (see `Reader::read_solutions`).
//!
//! The `csv` crate does the parsing (quoting, quoted fields spanning lines, CRLF, skipping blank lines),
//! flexible about row width so that a row with too few or too many fields, invalid UTF-8 or a bad
//! puzzle is a malformed record and never an error. Only I/O errors stop reading. A row that is a
//! single blank field (a line of spaces) is skipped like an empty line.
//!
//! There are no comment lines in CSV input: a row starting with `#` after the header is a record like
//! any other, malformed when it has no puzzle (blank and `#` lines before the header are skipped, as
//! for every input).
//!
//! Rows end at LF, as lines do in the line and grid formats: a CR before the LF is dropped from the
//! row's last field, and a lone CR elsewhere is part of a field (the crate's default would also end
//! rows at a lone CR, splitting a row in two under one line number).
//!
//! Line numbers: the crate's record position is where the previous record ended, before skipped
//! blank lines, so it is off after those. [`Breaks`] notes where every LF of the stream is, and a
//! record's line is one plus the LFs before its first byte.

use std::collections::VecDeque;
use std::io::{self, Read};

use super::detect::{
    PUZZLE_COLUMNS, excerpt, names_excerpt, plural, set_optional_text, set_text, to_text,
};
use super::{Column, Record};
use crate::grid::Grid;

/// Passes bytes through, noting the offset of each LF so record lines can be told exactly.
struct Breaks<R> {
    inner: R,
    /// Bytes passed so far.
    offset: u64,
    /// Offsets of the LF bytes not yet behind the current record.
    breaks: VecDeque<u64>,
    /// LF bytes behind the current record's first byte.
    lf_before: u64,
}

impl<R: Read> Read for Breaks<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        let read = buf.get(..n).unwrap_or_default();
        // Look at 8 bytes at a time; only words holding an LF are looked at byte by byte.
        let mut words = read.chunks_exact(8);
        let mut at = self.offset;
        for word in &mut words {
            if has_break(u64::from_ne_bytes(word.try_into().unwrap_or_default())) {
                self.note_breaks(word, at);
            }
            at += 8;
        }
        self.note_breaks(words.remainder(), at);
        self.offset += n as u64;
        Ok(n)
    }
}

/// True when one of the 8 bytes of `word` may be an LF (never false when one is).
fn has_break(word: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let lf = word ^ (ONES * u64::from(b'\n'));
    (lf.wrapping_sub(ONES) & !lf) & HIGH != 0
}

impl<R> Breaks<R> {
    /// Notes the LF bytes of `bytes`, which start at stream offset `at`.
    fn note_breaks(&mut self, bytes: &[u8], at: u64) {
        for (i, &b) in bytes.iter().enumerate() {
            if b == b'\n' {
                self.breaks.push_back(at + i as u64);
            }
        }
    }

    /// The 0-based line of the first byte of a record the crate says starts at byte `start` (where
    /// the previous record ended): the record really starts after any LF bytes there.
    fn line_at(&mut self, start: u64) -> u64 {
        let mut first = start;
        while let Some(&at) = self.breaks.front() {
            if at > first {
                break;
            }
            if at == first {
                first += 1;
            }
            self.lf_before += 1;
            self.breaks.pop_front();
        }
        self.lf_before
    }
}

/// Reads CSV records; the header has been read when this exists.
pub(crate) struct CsvReader<R> {
    inner: ::csv::Reader<Breaks<R>>,
    record: ::csv::ByteRecord,
    /// Lines before the CSV text (skipped preamble), added to the crate's line numbers.
    skipped: u64,
    /// 0-based puzzle column.
    column: usize,
    /// 0-based column of given solutions, if read.
    solution_column: Option<usize>,
    /// Number of columns in the header.
    width: usize,
    /// Line of the last row read.
    line: u64,
}

impl<R: Read> CsvReader<R> {
    /// Reads the header of `src`, whose first line is line `skipped + 1`; returns the reader and the
    /// header as read. The puzzle column is set with [`CsvReader::set_column`].
    pub(crate) fn new(
        src: R,
        skipped: u64,
        delimiter: u8,
        capacity: usize,
    ) -> io::Result<(CsvReader<R>, Vec<String>)> {
        let mut inner = ::csv::ReaderBuilder::new()
            .has_headers(true)
            .flexible(true)
            .delimiter(delimiter)
            .terminator(::csv::Terminator::Any(b'\n'))
            .buffer_capacity(capacity)
            .from_reader(Breaks {
                inner: src,
                offset: 0,
                breaks: VecDeque::new(),
                lf_before: 0,
            });
        let header: Vec<String> = inner
            .byte_headers()
            .map_err(csv_io_error)?
            .iter()
            .map(|f| to_text(f.strip_suffix(b"\r").unwrap_or(f)))
            .collect();
        let reader = CsvReader {
            inner,
            record: ::csv::ByteRecord::new(),
            skipped,
            column: 0,
            solution_column: None,
            width: header.len(),
            line: skipped + 1,
        };
        Ok((reader, header))
    }

    /// Sets the 0-based puzzle column.
    pub(crate) fn set_column(&mut self, column: usize) {
        self.column = column;
    }

    /// Sets the 0-based column of given solutions (`None`: none read).
    pub(crate) fn set_solution_column(&mut self, column: Option<usize>) {
        self.solution_column = column;
    }

    /// The line of the last row read (1-based).
    pub(crate) fn line(&self) -> u64 {
        self.line
    }

    /// The next record, `None` at the end of the input.
    #[cfg(test)]
    pub(crate) fn next(&mut self, source: u32) -> io::Result<Option<Record>> {
        let mut record = Record::empty();
        Ok(self.next_into(source, &mut record)?.then_some(record))
    }

    /// Reads the next record into `record`, reusing its buffers; false at the end of the input.
    pub(crate) fn next_into(&mut self, source: u32, record: &mut Record) -> io::Result<bool> {
        loop {
            if !self
                .inner
                .read_byte_record(&mut self.record)
                .map_err(csv_io_error)?
            {
                return Ok(false);
            }
            let start = self.record.position().map_or(0, |p| p.byte());
            self.line = self.skipped + 1 + self.inner.get_mut().line_at(start);
            let blank = self.record.len() == 1 && self.record[0].trim_ascii().is_empty();
            if !blank {
                break;
            }
        }
        let rec = &self.record;
        let n = rec.len();
        let fields = &mut record.fields;
        if fields.capacity() > FIELDS_KEPT && n <= FIELDS_KEPT {
            *fields = Vec::new(); // a very wide row once does not hold its room for the rest
        }
        fields.truncate(n);
        fields.resize_with(n, String::new);
        let mut bad_utf8 = None;
        for (i, (text, f)) in fields.iter_mut().zip(fields_of(rec)).enumerate() {
            if !set_text(text, f) {
                bad_utf8.get_or_insert(i);
            }
        }
        record.source = source;
        record.line = self.line;
        record.puzzle = match fields_of(rec).nth(self.column) {
            None => {
                record.cells = excerpt(joined(rec).as_slice());
                Err(format!(
                    "row has {}, the puzzle is column {}",
                    plural(n, "field"),
                    self.column + 1
                ))
            }
            Some(field) => {
                let field = field.trim_ascii();
                let puzzle = if n != self.width {
                    Err(format!(
                        "row has {}, the header has {}",
                        plural(n, "field"),
                        self.width
                    ))
                } else if let Some(i) = bad_utf8 {
                    Err(format!("invalid UTF-8 in column {}", i + 1))
                } else {
                    Grid::parse(field).map_err(|e| e.to_string())
                };
                match puzzle {
                    Ok(_) => {
                        set_text(&mut record.cells, field);
                    }
                    Err(_) => record.cells = excerpt(field),
                }
                puzzle
            }
        };
        let solution = self
            .solution_column
            .and_then(|i| record.fields.get(i))
            .map(|f| f.trim().as_bytes())
            .filter(|f| !f.is_empty());
        set_optional_text(&mut record.solution, solution);
        Ok(true)
    }
}

/// A reused record keeps room for at most this many fields when it is given a narrower row.
const FIELDS_KEPT: usize = 64;

/// The fields of a row, the CR of a CRLF row end dropped from the last one.
fn fields_of(rec: &::csv::ByteRecord) -> impl Iterator<Item = &[u8]> {
    let last = rec.len().saturating_sub(1);
    rec.iter().enumerate().map(move |(i, f)| {
        if i == last {
            f.strip_suffix(b"\r").unwrap_or(f)
        } else {
            f
        }
    })
}

/// The fields of a row joined with `,`, for showing a row that lacks its puzzle.
fn joined(rec: &::csv::ByteRecord) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, f) in fields_of(rec).enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(f);
    }
    out
}

/// The `csv` crate's error as an I/O error, unwrapped when it is one. Used by the reader and by the
/// CSV writer (`output::csv`). With ByteRecords, flexible rows and rows padded to the header's width
/// only I/O can fail; any other kind would be a bug and is reported as invalid data.
pub(crate) fn csv_io_error(err: ::csv::Error) -> io::Error {
    match err.into_kind() {
        ::csv::ErrorKind::Io(e) => e,
        other => io::Error::new(io::ErrorKind::InvalidData, format!("CSV: {other:?}")),
    }
}

/// The 0-based puzzle column of `header`, or why there is none.
pub(crate) fn find_column(header: &[String], column: Option<&Column>) -> Result<usize, String> {
    let names = || names_excerpt(header);
    match column {
        Some(Column::Index(i)) => {
            if (1..=header.len()).contains(i) {
                Ok(i - 1)
            } else {
                Err(format!(
                    "no column {i}: the header has {} ({})",
                    plural(header.len(), "column"),
                    names()
                ))
            }
        }
        Some(Column::Name(name)) => header
            .iter()
            .position(|h| h.trim() == name)
            .or_else(|| {
                header
                    .iter()
                    .position(|h| h.trim().eq_ignore_ascii_case(name.trim()))
            })
            .ok_or_else(|| format!("no column named {name:?} in the header ({})", names())),
        None => find_named(header, &PUZZLE_COLUMNS).ok_or_else(|| {
            format!(
                "no puzzle column in the header ({}); name it {} or choose it with --column",
                names(),
                PUZZLE_COLUMNS.join("/")
            )
        }),
    }
}

/// The 0-based position of the first of `names` (in their order of preference) that `header` has,
/// ignoring ASCII case and spaces around header names.
pub(crate) fn find_named(header: &[String], names: &[&str]) -> Option<usize> {
    names.iter().find_map(|want| {
        header
            .iter()
            .position(|h| h.trim().eq_ignore_ascii_case(want))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const KAGGLE: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/kaggle_200.csv"));

    fn read_all(text: &[u8]) -> (Vec<String>, Vec<Record>) {
        let (mut r, header) = CsvReader::new(text, 0, b',', 1024).unwrap();
        r.set_column(find_column(&header, None).unwrap());
        let mut out = Vec::new();
        while let Some(rec) = r.next(0).unwrap() {
            out.push(rec);
        }
        (header, out)
    }

    #[test]
    fn reads_kaggle_rows_with_their_fields() {
        let (header, recs) = read_all(KAGGLE.as_bytes());
        assert_eq!(header, ["quizzes", "solutions"]);
        assert_eq!(recs.len(), 200);
        let first = KAGGLE.lines().nth(1).unwrap();
        assert_eq!(recs[0].fields.join(","), first);
        assert_eq!(recs[0].cells, &first[..81]);
        assert!(recs.iter().all(|r| r.puzzle.is_ok()));
        assert_eq!(recs[199].line, 201);
    }

    #[test]
    fn finds_the_puzzle_column_by_preference_name_or_index() {
        let h: Vec<String> = ["id", "Solution", "QUIZ", "Puzzle"]
            .map(String::from)
            .into();
        assert_eq!(find_column(&h, None), Ok(3)); // puzzle beats quiz
        assert_eq!(find_column(&h[..3], None), Ok(2));
        let name = |s: &str| Some(Column::Name(s.to_string()));
        assert_eq!(find_column(&h, name("solution").as_ref()), Ok(1));
        assert_eq!(find_column(&h, Some(&Column::Index(1))), Ok(0));
        assert_eq!(
            find_column(&h, Some(&Column::Index(5))),
            Err("no column 5: the header has 4 columns (id, Solution, QUIZ, Puzzle)".into())
        );
        assert_eq!(
            find_column(&h, name("x").as_ref()),
            Err("no column named \"x\" in the header (id, Solution, QUIZ, Puzzle)".into())
        );
        assert!(
            find_column(&h[..2], None)
                .unwrap_err()
                .starts_with("no puzzle column in the header (id, Solution);")
        );
    }

    #[test]
    fn header_errors_are_short_and_printable() {
        let huge: Vec<String> = vec!["a".repeat(10_000_000), "b".into()];
        let err = find_column(&huge, None).unwrap_err();
        assert!(err.len() < 400, "{} bytes", err.len());
        assert!(err.starts_with(&format!(
            "no puzzle column in the header ({}...);",
            "a".repeat(197)
        )));
        let garbage: Vec<String> = vec!["\x1b]0;pwned\x07\u{0}".into(), "x".into()];
        for column in [None, Some(Column::Index(3)), Some(Column::Name("y".into()))] {
            let err = find_column(&garbage, column.as_ref()).unwrap_err();
            assert!(err.contains("(\\u{1b}]0;pwned\\u{7}\\0, x)"), "{err}");
            assert!(!err.chars().any(char::is_control), "{err:?}");
        }
    }

    #[test]
    fn exact_name_beats_case_insensitive_match() {
        let h: Vec<String> = ["GRID", "grid"].map(String::from).into();
        let name = Column::Name("grid".into());
        assert_eq!(find_column(&h, Some(&name)), Ok(1));
    }

    #[test]
    fn quoted_fields_spanning_lines_keep_line_numbers_right() {
        let p = "1".repeat(81);
        let text = format!(
            "note,puzzle\n\"two\nlines\",{p}\nplain, {p} \n\"x\",\"{p}\"\n   \n\r\n\n\"a\r\nb\r\n\",{p}\r\nlast,{p}"
        );
        let (_, recs) = read_all(text.as_bytes());
        let lines: Vec<_> = recs.iter().map(|r| (r.line, r.puzzle.is_ok())).collect();
        assert_eq!(
            lines,
            [(2, true), (4, true), (5, true), (9, true), (12, true)]
        );
        assert_eq!(recs[0].fields[0], "two\nlines");
        assert_eq!(recs[1].cells, p, "spaces around the puzzle are dropped");
        assert_eq!(recs[1].fields[1], format!(" {p} "), "fields stay as read");
    }

    #[test]
    fn wrong_width_rows_and_bad_bytes_are_malformed_records() {
        let p = "1".repeat(81);
        let mut text =
            format!("puzzle,rating\r\n{p},1\r\n{p}\r\n{p},1,extra\r\nshort\r\n").into_bytes();
        text.extend_from_slice(b"\xFF");
        text.extend_from_slice(format!("{p},2\r\n\r\n{p},3\r\n").as_bytes());
        let (_, recs) = read_all(&text);
        let got: Vec<_> = recs
            .iter()
            .map(|r| (r.line, r.puzzle.as_ref().err().cloned()))
            .collect();
        assert_eq!(
            got,
            [
                (2, None),
                (3, Some("row has 1 field, the header has 2".into())),
                (4, Some("row has 3 fields, the header has 2".into())),
                (5, Some("row has 1 field, the header has 2".into())),
                (6, Some("invalid UTF-8 in column 1".into())),
                (8, None),
            ]
        );
        assert_eq!(recs[3].cells, "short");
    }

    #[test]
    fn notes_every_lf_and_no_cr() {
        let text: Vec<u8> = (0..200u8)
            .map(|i| match i % 7 {
                0 => b'\n',
                3 if i % 2 == 0 => b'\r',
                _ => b'a' + i % 26,
            })
            .collect();
        let mut breaks = Breaks {
            inner: &text[..],
            offset: 0,
            breaks: VecDeque::new(),
            lf_before: 0,
        };
        let mut sink = Vec::new();
        breaks.read_to_end(&mut sink).unwrap();
        let expected: Vec<_> = text
            .iter()
            .enumerate()
            .filter(|(_, b)| **b == b'\n')
            .map(|(i, _)| i as u64)
            .collect();
        assert_eq!(Vec::from(breaks.breaks), expected);
    }

    #[test]
    fn csv_io_errors_come_out_unchanged() {
        let err = csv_io_error(::csv::Error::from(io::Error::other("disk on fire")));
        assert_eq!(err.kind(), io::ErrorKind::Other);
        assert_eq!(err.to_string(), "disk on fire");
    }

    #[test]
    fn a_hash_row_is_a_record_not_a_comment() {
        let p = "1".repeat(81);
        let text = format!("puzzle,note\n# not a comment\n#{p},x\n{p},# note\n");
        let (_, recs) = read_all(text.as_bytes());
        let got: Vec<_> = recs.iter().map(|r| (r.line, r.puzzle.is_ok())).collect();
        assert_eq!(got, [(2, false), (3, false), (4, true)]);
        assert_eq!(recs[0].fields, ["# not a comment"]);
        assert_eq!(recs[1].puzzle, Err("found 82 cells, expected 81".into()));
    }

    #[test]
    fn row_without_the_puzzle_column_says_so() {
        let p = "1".repeat(81);
        let text = format!("id,puzzle\n7\n8,{p}\n");
        let (_, recs) = read_all(text.as_bytes());
        assert_eq!(
            recs[0].puzzle,
            Err("row has 1 field, the puzzle is column 2".into())
        );
        assert_eq!(recs[0].cells, "7");
        assert_eq!(recs[0].fields, ["7"]);
        assert!(recs[1].puzzle.is_ok());
    }
}
