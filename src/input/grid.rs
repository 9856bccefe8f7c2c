//! The grid format: a puzzle is 9 consecutive non-blank rows of 9 cells each, a row written either as
//! 9 characters (`.3.4..6..`, `035469278`) or with spaces, tabs or `|` between cells
//! (`0 3 5 4 6 9 2 7 8`, `4 . . | . . . | 8 . 5`, `|..3|.2.|6..|`). Grids may follow each other
//! directly or be separated by blank lines; `#` comment lines and lines drawn between boxes
//! (`------+-------+------`, `*-----------*`: [`is_divider`]) are skipped, even inside a grid; a
//! title line before a grid (`Grid 01`, as in Project Euler's file: [`is_title`]) is skipped. The
//! `#` and title lines are kept with the grid they come with ([`Record::above`]), for a command
//! that writes records back whole (`split`).
//!
//! Recovery rules, so one bad grid never shifts the next: a grid with a bad row still takes exactly 9
//! rows (and is malformed, the reason naming the first bad row); a blank line, a title line or the
//! end of the input after 1 to 8 rows ends a short, malformed grid.
//!
//! Grids are counted by rows, so a short grid followed directly (no blank line between) by another
//! grid takes rows of the next one: 8 rows then a full grid give one 9-row grid (taking the first row
//! of the next, which becomes short) and then one short grid ending at the next blank line or the end.
//! Only a blank line or a title line resynchronises. Once a blank or title line has come right
//! after a grid of 9 rows, the input sets its grids apart: from then on a grid ends at such a line
//! (or a few rows past the ninth, [`FRAMED_ROWS`]), so a grid of 10 rows is one malformed record,
//! not a grid of its first 9 (read as good) and a short one; the rows after a grid cut at
//! [`FRAMED_ROWS`], up to the next blank or title line (or a line drawn right after the cut, or
//! right after one of these records), are malformed records of their own that say so, never a
//! grid of two grids' rows: a line drawn among them may be one between two bands of a grid.
//! Lines drawn between boxes end grids too: see [`GridReader::drawn_line`].
//!
//! A CR inside a line ends a row as an LF does (a file that mixes line ends, `cat mac.txt
//! unix.txt`: its CR-ended rows are rows, not one long row that made its grid malformed and
//! shifted the grids after it), and is counted as a line end in line numbers too, as in a file
//! of CR lines alone.
//!
//! Grid input carries no given solutions.

use std::io::{self, BufRead};
use std::ops::Range;

use super::bounded::{self, DEFAULT_MAX_RECORD};
use super::detect::BOM;
use super::record::Record;
use super::text::{
    RowError, excerpt, is_divider, is_label, is_row_separator, is_status_word, is_title, plural,
    row_cells, to_text,
};
use crate::grid::CELLS;
use crate::grid::Grid;

/// The most rows a framed grid takes when the line below it is missing: a few more than 9, so
/// that rows too many are its own (it is malformed) and yet the rest of the input is not one
/// record.
const FRAMED_ROWS: usize = 12;

/// Reads grid-format records from a buffered source.
pub(crate) struct GridReader<R> {
    src: R,
    buf: Vec<u8>,
    line: u64,
    /// Rows of the grid being read, trimmed, each followed by `/`.
    rows: Vec<u8>,
    /// Number of rows in `rows`.
    count: usize,
    /// Line of the first row of the grid being read.
    start: u64,
    /// The cells read so far (every non-space character of the rows).
    cells: Vec<u8>,
    /// Why the grid being read is malformed, from its first bad row.
    error: Option<String>,
    /// The grid being read began right after a line drawn above it (a top border): it ends at
    /// a line drawn below it.
    framed: bool,
    /// The last line was drawn above a grid (between grids).
    framed_next: bool,
    /// A line drawn inside the grid has ended a band: the grid is read by bands.
    banded: bool,
    /// A status word's record read with the grid before it, handed out next.
    pending: Option<Box<Record>>,
    /// The comment and title lines since the record before, each ended with `\n`: the next
    /// record's [`Record::above`].
    above: Vec<u8>,
    /// A blank or title line came right after a grid of 9 rows: this input sets its grids
    /// apart, so a grid ends at such a line, not at its ninth row (a row too many is the
    /// grid's own, not a record of its own after a grid read wrong).
    separated: bool,
    /// The last line was the ninth row of a grid not yet known to be set apart.
    just_done: bool,
    /// Bands of the grid ended by a line drawn.
    bands: usize,
    /// Rows of the grid since the last line drawn in it.
    band_rows: usize,
    /// The rows of `buf` not read yet, after a CR inside its line (up to its trimmed end).
    rest: Option<Range<usize>>,
    /// Bytes a row may hold (see the `bounded` module).
    max: usize,
    /// The last grid was cut at [`FRAMED_ROWS`], or held rows run on from such a grid, and no
    /// blank or title line has come since (nor a line drawn between records): the first line
    /// of the grid whose rows run on, for the next grid (its rows are the same grids' rows, out
    /// of step: never a record of their own).
    run_on: Option<u64>,
    /// The grid being read holds rows run on from the grid at this line.
    continues: Option<u64>,
    /// Reading failed right after a grid's ninth row: the grid was handed out, the error is
    /// next.
    failed: Option<io::Error>,
}

impl<R: BufRead> GridReader<R> {
    /// A reader whose first line read is line `skipped + 1`.
    pub(crate) fn new(src: R, skipped: u64) -> GridReader<R> {
        GridReader {
            src,
            buf: Vec::with_capacity(64),
            line: skipped,
            rows: Vec::with_capacity(256),
            count: 0,
            start: 0,
            cells: Vec::with_capacity(CELLS),
            error: None,
            framed: false,
            framed_next: false,
            separated: false,
            just_done: false,
            banded: false,
            bands: 0,
            band_rows: 0,
            rest: None,
            max: DEFAULT_MAX_RECORD,
            above: Vec::new(),
            pending: None,
            run_on: None,
            continues: None,
            failed: None,
        }
    }

    /// The comment lines read before the reader's first line (see [`super::detect::Preamble`]),
    /// kept with the first grid.
    pub(crate) fn set_above(&mut self, comments: Vec<u8>) {
        self.above = comments;
    }

    /// Rows longer than `max` bytes make their grid malformed (read past in bounded memory).
    pub(crate) fn set_max(&mut self, max: usize) {
        self.max = max;
    }

    /// The last line read (1-based; 0 before any).
    pub(crate) fn line(&self) -> u64 {
        self.line
    }

    /// The next row: where it is in `buf` (trimmed) and its length (a line longer than `max`
    /// is kept in part: see the `bounded` module); `None` at the end of the input. A CR inside a
    /// line ends a row: its rows are given one by one.
    #[inline]
    fn next_row(&mut self) -> io::Result<Option<(Range<usize>, u64)>> {
        // the rest of a line after a CR is trimmed piece by piece below; a line read whole is
        // trimmed here
        let (line, after_cr) = match self.rest.take() {
            // a row after a CR is on a line of its own, as after an LF (two grids never start
            // on one line number)
            Some(rest) => {
                self.line += 1;
                (rest, true)
            }
            None => {
                self.buf.clear();
                let read = bounded::read_line(&mut self.src, &mut self.buf, self.max)?;
                let Some(length) = read else {
                    return Ok(None);
                };
                self.line += 1;
                let line = trimmed(&self.buf, 0..self.buf.len());
                if length > self.max as u64 {
                    return Ok(Some((line, length)));
                }
                (line, false)
            }
        };
        // a line holding a CR between two rows is longer than one row written with spaces (17
        // bytes): shorter lines, nearly all, are not looked through
        let cr = (after_cr || line.len() > 2 * 9 - 1)
            .then(|| memchr::memchr(b'\r', &self.buf[line.clone()]))
            .flatten();
        let row = match cr {
            Some(i) => {
                self.rest = Some(line.start + i + 1..line.end);
                trimmed(&self.buf, line.start..line.start + i)
            }
            None if after_cr => trimmed(&self.buf, line),
            None => line,
        };
        // a BOM at the start of a row is the start of a file joined on (`cat a.txt bom.txt`,
        // bom.txt saved with one): dropped, as the first input's is (it was a tenth cell)
        let bom = self.buf.get(row.start) == Some(&BOM[0])
            && self
                .buf
                .get(row.clone())
                .is_some_and(|r| r.starts_with(BOM));
        let row = match bom {
            true => trimmed(&self.buf, row.start + BOM.len()..row.end),
            false => row,
        };
        let length = row.len() as u64;
        Ok(Some((row, length)))
    }

    /// The next record, `None` at the end of the input.
    pub(crate) fn next(&mut self, source: u32) -> io::Result<Option<Record>> {
        if let Some(record) = self.pending.take() {
            return Ok(Some(*record));
        }
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        loop {
            let row = match self.next_row() {
                Ok(row) => row,
                // damage right after a grid's ninth row (a compressed stream's check at its
                // end): the grid is whole, and written before the error, as a line is; it was
                // held for the blank line that sets grids apart, and lost
                Err(e) if self.count == 9 && e.kind() != io::ErrorKind::Interrupted => {
                    self.failed = Some(e);
                    return Ok(Some(self.finish(source)));
                }
                Err(e) => return Err(e),
            };
            let Some((span, length)) = row else {
                return Ok((self.count > 0).then(|| self.finish(source)));
            };
            let row = &self.buf[span.clone()];
            let long = length > self.max as u64;
            if row.is_empty() && !long {
                let ended = (self.count > 0).then(|| self.finish(source));
                self.in_step();
                match ended {
                    Some(record) => return Ok(Some(record)),
                    None => continue,
                }
            }
            if bounded::carries_no_record(row, length, self.max) {
                // a comment, even inside a grid: kept with it unless too long to keep
                if !long {
                    keep_above(&mut self.above, row, self.max);
                }
                continue;
            }
            // a good row is neither a line drawn nor a title: nearly every line is told by
            // this one look
            let cells = row_cells(row);
            let other = !long && cells.is_err();
            if other && is_divider(row) {
                let second = self.count > 0 && self.band_rows == 0;
                if self.drawn_line() {
                    let record = self.finish(source);
                    if second {
                        // the line before was this grid's bottom line, this one is the next
                        // grid's top line: that grid is read framed, in step
                        self.framed_next = true;
                        self.run_on = None;
                    }
                    return Ok(Some(record));
                }
                continue;
            }
            let between = self.count == 0 || self.count >= 9;
            if other && between && is_status_word(row) {
                // a record `-O grid` wrote without a grid: one record still, after the grid it
                // ends (one of an input that sets its grids apart, at its ninth row or past it)
                let word = String::from_utf8_lossy(row).into_owned();
                let ended = (self.count > 0).then(|| self.finish(source));
                self.in_step();
                let record = Record {
                    source,
                    line: self.line,
                    fields: Default::default(),
                    puzzle: Err(format!(
                        "`{word}` in place of a grid (a record written with no grid)"
                    )),
                    cells: word,
                    solution: None,
                    above: self.take_above(),
                };
                return Ok(Some(match ended {
                    Some(grid) => {
                        self.pending = Some(Box::new(record));
                        grid
                    }
                    None => record,
                }));
            }
            if other && (is_title(row) || (between && is_label(row))) {
                // a grid's name (`Grid 02`, `Easy`): it ends a grid cut short, as a blank line
                // does; a number alone (`12`, `(3)`) names one only between grids (or after a
                // ninth row, where a grid that ends at a line may end)
                let ended = (self.count > 0).then(|| self.finish(source));
                self.in_step();
                // the title is the next grid's
                keep_above(&mut self.above, &self.buf[span], self.max);
                match ended {
                    Some(record) => return Ok(Some(record)),
                    None => continue,
                }
            }
            if self.count == 0 {
                self.start = self.line;
                self.rows.clear();
                self.cells.clear();
                // rows that run on from a grid cut at its last row allowed are out of step
                // with the grids: 9 of them (`cat a.txt` twice with no blank line, then 3
                // rows more) made a grid of two grids' rows, checked as a record of the file
                self.continues = self.run_on.take();
                self.error = self.continues.map(|line| {
                    format!("rows run on from the grid at line {line} (no blank line ended it)")
                });
                self.framed = std::mem::take(&mut self.framed_next);
                self.banded = false;
                self.bands = 0;
                self.band_rows = 0;
            }
            self.just_done = false;
            self.count += 1;
            self.band_rows += 1;
            self.rows.extend_from_slice(row);
            self.rows.push(b'/');
            if self.error.is_none() && long {
                let long = bounded::too_long("line", self.max);
                self.error = Some(format!("row {}: {long}", self.count));
            }
            if self.error.is_none() {
                match cells {
                    Ok(()) => self
                        .cells
                        .extend(row.iter().filter(|&&b| !is_row_separator(b))),
                    Err(RowError::Count(n)) => {
                        let found = plural(n, "cell");
                        self.error = Some(format!("row {}: found {found}, expected 9", self.count));
                    }
                    Err(RowError::Char(ch)) => {
                        self.error = Some(format!("row {}: invalid character {ch:?}", self.count));
                    }
                }
            }
            // a framed grid ends at its bottom line, a grid of an input whose grids are set
            // apart at the blank or title line after it (rows past its ninth are its own, too
            // many), or after a few rows too many when that line is missing; any other at its
            // ninth row or its third band's third
            let third_band = self.banded && self.bands == 2 && self.band_rows == 3;
            let ends_at_a_line = self.framed || self.separated;
            if !ends_at_a_line && (self.count == 9 || third_band) {
                self.just_done = true;
                return Ok(Some(self.finish(source)));
            }
            if self.count == FRAMED_ROWS {
                self.run_on = Some(self.continues.unwrap_or(self.start));
                return Ok(Some(self.finish(source)));
            }
        }
    }

    /// A blank, title or status line: the grids after it are in step again (a grid cut short
    /// ends there, and rows run on from a cut grid end there), and the input sets its grids
    /// apart if it came right after a ninth row.
    fn in_step(&mut self) {
        self.framed_next = false;
        self.run_on = None;
        self.separated |= std::mem::take(&mut self.just_done);
    }

    /// What a line drawn between boxes does: whether it ends the grid being read. Between grids it is a
    /// grid's top line (the grid after it is framed). Inside a grid, it ends a band: a band
    /// that is not 3 rows makes the grid malformed, and the grid ends with its third band, so a
    /// grid missing a row ends at its own line, never taking the next grid's first row. A first
    /// line inside a grid after 6 rows or more is drawn around grids only (there are no lines
    /// between bands): it ends the grid. A second line right after a band's line ends the grid
    /// too, as the next one's top line.
    fn drawn_line(&mut self) -> bool {
        if self.count == 0 {
            self.framed_next = true;
            self.run_on = None;
            return false;
        }
        if self.band_rows == 0 {
            // two lines in a row inside a grid (a grid ends at the line after its third band,
            // so this one is short): the first was its bottom line, a band or more of it lost,
            // and this is the top line of the next. Passed over, the next grid's first band
            // made this one's third, and every framed grid after it was read out of step, some
            // as good grids of two grids' rows.
            return true;
        }
        if !self.banded && self.count > 5 {
            return true;
        }
        self.banded = true;
        self.bands += 1;
        if self.band_rows != 3 && self.error.is_none() {
            self.error = Some(format!(
                "band {}: {}, expected 3",
                self.bands,
                plural(self.band_rows, "row")
            ));
        }
        self.band_rows = 0;
        self.bands == 3 || self.count >= 9
    }

    /// The record of the grid read (malformed unless it has 9 good rows); resets the grid.
    ///
    /// A grid of rows run on from a cut one leaves the rows after it out of step too, however
    /// it ended (the blank and title lines that end the run clear it after this): a line drawn
    /// between two bands of a grid was taken for the end of a run of 6 rows, and the rest of
    /// that grid's rows with the first band of the framed grid after it made a good grid found
    /// in no file.
    fn finish(&mut self, source: u32) -> Record {
        if let Some(line) = self.continues.take() {
            self.run_on = Some(line);
        }
        let count = std::mem::take(&mut self.count);
        let puzzle = match self.error.take() {
            Some(reason) => Err(reason),
            None if count != 9 => Err(format!("grid has {}, expected 9", plural(count, "row"))),
            None => Grid::parse(&self.cells).map_err(|e| e.to_string()),
        };
        let cells = match puzzle {
            Ok(_) => to_text(&self.cells),
            Err(_) => self.joined_rows(),
        };
        Record {
            source,
            line: self.start,
            fields: Default::default(),
            cells,
            puzzle,
            solution: None,
            above: self.take_above(),
        }
    }

    /// The lines kept for the record being made, emptied for the next.
    fn take_above(&mut self) -> String {
        let above = match self.above.is_empty() {
            true => String::new(),
            false => String::from_utf8_lossy(&self.above).into_owned(),
        };
        self.above.clear();
        above
    }

    /// The rows read, joined with `/`, cut for display.
    fn joined_rows(&self) -> String {
        excerpt(self.rows.strip_suffix(b"/").unwrap_or(&self.rows))
    }
}

/// Adds `line` to the lines kept for the next record (`above`), as long as they stay within
/// `max` bytes: past it the earlier ones go, so that comment lines without end (a file of
/// notes, no grid) are never held in memory whole, and the lines nearest the grid stay.
pub(crate) fn keep_above(above: &mut Vec<u8>, line: &[u8], max: usize) {
    if above.len() + line.len() >= max {
        above.clear();
    }
    if line.len() < max {
        above.extend_from_slice(line);
        above.push(b'\n');
    }
}

/// `range` of `bytes` without the ASCII white space at its ends.
fn trimmed(bytes: &[u8], range: Range<usize>) -> Range<usize> {
    let part = &bytes[range.clone()];
    let start = range.start + part.len() - part.trim_ascii_start().len();
    let end = range.end - (part.len() - part.trim_ascii_end().len());
    start..end.max(start)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BAEKJOON_IN: &str = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/baekjoon_example1.in"
    ));

    fn read_all(text: &str) -> Vec<Record> {
        let mut r = GridReader::new(text.as_bytes(), 0);
        let mut out = Vec::new();
        while let Some(rec) = r.next(0).unwrap() {
            out.push(rec);
        }
        out
    }

    fn summary(recs: &[Record]) -> Vec<(u64, Result<(), String>)> {
        recs.iter()
            .map(|r| (r.line, r.puzzle.as_ref().map(|_| ()).map_err(Clone::clone)))
            .collect()
    }

    /// Damage found right after a grid's ninth row (a compressed stream's end check): the
    /// grids before it are read, the last one too (it waited for the blank line that sets the
    /// grids apart and was lost), then the error; a grid cut before its ninth row is not.
    #[test]
    fn a_whole_grid_before_a_read_error_is_read_before_the_error() {
        struct Failing<'a>(&'a [u8]);
        impl io::Read for Failing<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if self.0.is_empty() {
                    return Err(io::Error::new(io::ErrorKind::InvalidData, "damaged"));
                }
                let n = buf.len().min(self.0.len()).min(7);
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let grid: String = BAEKJOON_IN
            .lines()
            .take(9)
            .map(|l| format!("{l}\n"))
            .collect();
        let two = format!("{grid}\n{grid}");
        let eight: String = grid.lines().take(8).map(|l| format!("{l}\n")).collect();
        for (text, whole) in [(two.clone(), 2), (format!("{two}\n{eight}"), 2)] {
            let mut r = GridReader::new(io::BufReader::new(Failing(text.as_bytes())), 0);
            let mut read = Vec::new();
            let error = loop {
                match r.next(0) {
                    Ok(Some(record)) => read.push(record),
                    Ok(None) => panic!("the error was lost"),
                    Err(e) => break e,
                }
            };
            assert_eq!(error.to_string(), "damaged");
            assert_eq!(summary(&read), [(1, Ok(())), (11, Ok(()))][..whole]);
        }
    }

    #[test]
    fn reads_the_baekjoon_sample() {
        let recs = read_all(BAEKJOON_IN);
        assert_eq!(recs.len(), 1);
        assert_eq!(recs[0].line, 1);
        let expected: String = BAEKJOON_IN.split_whitespace().collect();
        assert_eq!(recs[0].cells, expected);
        assert_eq!(recs[0].puzzle, Ok(expected.parse().unwrap()));
    }

    #[test]
    fn reads_compact_rows_with_and_without_blank_lines() {
        let grid = ".3.4..6..\n".repeat(9);
        let text = format!("# two grids back to back\n{grid}{grid}\n\n{grid}");
        let recs = read_all(&text);
        assert_eq!(summary(&recs), [(2, Ok(())), (11, Ok(())), (22, Ok(()))]);
        assert_eq!(recs[0].cells, ".3.4..6..".repeat(9));
    }

    /// Grid files joined (`cat a.txt bom.txt`, the second saved with a BOM): the BOM starts a
    /// row, and is dropped as the first file's is (the row had ten cells, its grid malformed).
    #[test]
    fn a_bom_at_the_start_of_a_later_row_is_dropped() {
        let grid = ".3.4..6..\n".repeat(9);
        let text = format!("{grid}\u{FEFF}{grid}\n\u{FEFF}  {grid}");
        assert_eq!(
            summary(&read_all(&text)),
            [(1, Ok(())), (10, Ok(())), (20, Ok(()))]
        );
        // a BOM anywhere else in a row is a character of it
        let text = format!(".3.4..6.\u{FEFF}.\n{}", ".3.4..6..\n".repeat(8));
        assert!(read_all(&text)[0].puzzle.is_err());
    }

    /// A file mixing line ends: rows ended by a CR inside a line are rows. The line was one
    /// row of 18 cells, its grid malformed, and every grid after it (none between blank lines)
    /// one row off: a contradiction and a short grid.
    #[test]
    fn a_cr_inside_a_line_ends_a_row() {
        let rows: Vec<String> = (0..9).map(|_| ".3.4..6..".to_string()).collect();
        let mut mixed = rows.clone();
        mixed[3] = format!("{}\r{}\r", rows[3], rows[4]);
        mixed.remove(4);
        let text = format!(
            "{}\n{}\n{}\n",
            mixed.join("\n"),
            rows.join("\n"),
            rows.join("\n")
        );
        let recs = read_all(&text);
        assert_eq!(summary(&recs), [(1, Ok(())), (10, Ok(())), (19, Ok(()))]);
        assert!(recs.iter().all(|r| r.cells == ".3.4..6..".repeat(9)));
        // a CR-ended blank line ends a short grid, as a blank line does
        let text = format!("{}\r\r{}\n", rows[..2].join("\r"), rows.join("\r"));
        let recs = read_all(&text);
        assert_eq!(
            summary(&recs),
            [(1, Err("grid has 2 rows, expected 9".into())), (4, Ok(()))]
        );
    }

    #[test]
    fn short_grid_ends_at_a_blank_line() {
        let good = "0 0 0 0 0 0 0 0 1\n".repeat(9);
        let short = "0 0 0 0 0 0 0 0 1\r\n".repeat(8);
        let text = format!("{short}\n{good}\n{short}");
        let recs = read_all(&text);
        assert_eq!(
            summary(&recs),
            [
                (1, Err("grid has 8 rows, expected 9".into())),
                (10, Ok(())),
                (20, Err("grid has 8 rows, expected 9".into())),
            ]
        );
        assert_eq!(
            recs[0].cells,
            ["0 0 0 0 0 0 0 0 1"; 8].join("/"),
            "rows joined with /"
        );
    }

    #[test]
    fn bad_row_spoils_its_grid_but_not_the_next_without_blank_lines() {
        let good = "123456789\n".repeat(9);
        let mut bad = "123456789\n".repeat(9);
        bad.replace_range(20..30, "12345678\n");
        let mut bad_char = "123456789\n".repeat(9);
        bad_char.replace_range(42..43, "x");
        let text = format!("{good}{bad}{bad_char}{good}");
        let recs = read_all(&text);
        assert_eq!(
            summary(&recs),
            [
                (1, Ok(())),
                (10, Err("row 3: found 8 cells, expected 9".into())),
                (19, Err("row 5: invalid character 'x'".into())),
                (28, Ok(())),
            ]
        );
    }

    #[test]
    fn short_grid_without_blank_line_takes_rows_of_the_next() {
        let eight = "123456789\n".repeat(8);
        let good = "123456789\n".repeat(9);
        let text = format!("{eight}{good}\n{good}");
        let recs = read_all(&text);
        assert_eq!(
            summary(&recs),
            [
                (1, Ok(())),
                (10, Err("grid has 8 rows, expected 9".into())),
                (19, Ok(())),
            ]
        );
    }

    #[test]
    fn a_row_longer_than_the_cap_spoils_its_grid_only() {
        let good = "123456789\n".repeat(9);
        let mut long = "123456789\n".repeat(9);
        long.replace_range(10..19, &"1 ".repeat(3000));
        let text = format!("{good}\n{long}\n{good}");
        let mut r = GridReader::new(text.as_bytes(), 0);
        r.set_max(100);
        let mut recs = Vec::new();
        while let Some(rec) = r.next(0).unwrap() {
            recs.push(rec);
        }
        assert_eq!(
            summary(&recs),
            [
                (1, Ok(())),
                (11, Err("row 2: line longer than 100 bytes".into())),
                (21, Ok(())),
            ]
        );
        assert!(recs[1].cells.chars().count() <= 200);
    }

    /// Grids drawn with `|` between boxes and lines between bands (a common layout; Simple
    /// Sudoku's frame): each grid was `found 11 cells` and a phantom short grid, or shifted the
    /// grids after it.
    #[test]
    fn reads_grids_drawn_with_box_lines() {
        let solid = ".3.4..6..".repeat(9);
        let spaced = [
            ". 3 . | 4 . . | 6 . .",
            ". 3 . | 4 . . | 6 . .",
            ". 3 . | 4 . . | 6 . .",
            "------+-------+------",
            ". 3 . | 4 . . | 6 . .",
            ". 3 . | 4 . . | 6 . .",
            ". 3 . | 4 . . | 6 . .",
            "------+-------+------",
            ". 3 . | 4 . . | 6 . .",
            ". 3 . | 4 . . | 6 . .",
            ". 3 . | 4 . . | 6 . .",
        ]
        .join("\n");
        let framed = format!(
            "*-----------*\n{}*-----------*\n",
            "|.3.|4..|6..|\n|.3.|4..|6..|\n|.3.|4..|6..|\n|---+---+---|\n".repeat(3)
        );
        let text = format!("{spaced}\n{spaced}\n{framed}{framed}\n{spaced}\n");
        let recs = read_all(&text);
        assert_eq!(
            summary(&recs),
            [
                (1, Ok(())),
                (12, Ok(())),
                (24, Ok(())),
                (38, Ok(())),
                (52, Ok(()))
            ]
        );
        assert!(recs.iter().all(|r| r.cells == solid));
        // a row with one cell too many is still a bad row of its grid, which keeps its 9 rows
        let bad = spaced.replacen(". 3 . | 4 . .", ". 3 . | 4 . . .", 1);
        let recs = read_all(&format!("{bad}\n{spaced}\n"));
        assert_eq!(
            summary(&recs),
            [
                (1, Err("row 1: found 10 cells, expected 9".into())),
                (12, Ok(()))
            ]
        );
    }

    /// `-O grid` writes a record with no grid as its status word on a line of its own: read back
    /// between grids it is one malformed record (it was a title, skipped, and the record lost);
    /// inside a grid, or with more on its line, it is what it was.
    #[test]
    fn a_status_word_between_grids_is_a_record() {
        let grid = BAEKJOON_IN.trim_end();
        let text = format!("{grid}\n\nmalformed\n\n{grid}\n\nunsolvable\nmultiple\n");
        let recs = read_all(&text);
        let word = |w: &str| {
            Err(format!(
                "`{w}` in place of a grid (a record written with no grid)"
            ))
        };
        assert_eq!(
            summary(&recs),
            [
                (1, Ok(())),
                (11, word("malformed")),
                (13, Ok(())),
                (23, word("unsolvable")),
                (24, word("multiple")),
            ]
        );
        assert_eq!(recs[1].cells, "malformed");
        // right after a grid's ninth row, once the input has set its grids apart: after it
        let text = format!("{grid}\n\n{grid}\nmalformed\n\n{grid}\n");
        assert_eq!(
            summary(&read_all(&text)),
            [
                (1, Ok(())),
                (11, Ok(())),
                (20, word("malformed")),
                (22, Ok(()))
            ]
        );
        // a title still: a word with more on its line, or one that names the grid after it
        // inside a grid, where it ends the grid cut short
        let text = format!("Grid malformed\n{grid}\n");
        assert_eq!(summary(&read_all(&text)), [(2, Ok(()))]);
        let rows: Vec<&str> = grid.lines().collect();
        let text = format!(
            "{}\nmalformed\n{}\n",
            rows[..4].join("\n"),
            rows[4..].join("\n")
        );
        assert_eq!(
            summary(&read_all(&text)),
            [
                (1, Err("grid has 4 rows, expected 9".into())),
                (6, Err("grid has 5 rows, expected 9".into())),
            ]
        );
    }

    /// The `#` and title lines since the record before, and those among a grid's rows, are the
    /// grid's (`Record::above`); a title that ends a grid cut short is the next one's; a run of
    /// them longer than the record size keeps its last lines.
    #[test]
    fn a_grids_comment_and_title_lines_are_kept_with_it() {
        let grid = BAEKJOON_IN.trim_end();
        let rows: Vec<&str> = grid.lines().collect();
        let text = format!(
            "# one\nGrid 01\n{}\n# inside\n{}\n\n{}\nGrid 03\n{grid}\n",
            rows[..4].join("\n"),
            rows[4..].join("\n"),
            rows[..3].join("\n"),
        );
        let recs = read_all(&text);
        let above: Vec<&str> = recs.iter().map(|r| r.above.as_str()).collect();
        assert_eq!(above, ["# one\nGrid 01\n# inside\n", "", "Grid 03\n"]);
        let text = format!("# a\n# bb\n# cc\n{grid}\n");
        let mut r = GridReader::new(text.as_bytes(), 0);
        r.set_max(12);
        let rec = r.next(0).unwrap().unwrap();
        assert_eq!(rec.above, "# cc\n");
    }

    /// Project Euler's `sudoku.txt`: a title line before each grid. The title was read as a row,
    /// every grid malformed and shifted; it ends a grid cut short, as a blank line does.
    #[test]
    fn a_title_line_names_the_grid_after_it() {
        let rows = "003020600\n".repeat(9);
        let short = "003020600\n".repeat(8);
        let text = format!("Grid 01\n{rows}Grid 02\n{short}Grid 03\n{rows}");
        assert_eq!(
            summary(&read_all(&text)),
            [
                (2, Ok(())),
                (12, Err("grid has 8 rows, expected 9".into())),
                (21, Ok(()))
            ]
        );
    }

    /// The rows of a grid drawn with `+` frames and lines between bands, `missing` (0-based)
    /// left out.
    fn framed(missing: Option<usize>) -> String {
        let border = "+-------+-------+-------+\n";
        let mut out = String::from(border);
        for r in 0..9 {
            if Some(r) != missing {
                out.push_str("| . 3 . | 4 . . | 6 . . |\n");
            }
            if r % 3 == 2 {
                out.push_str(border);
            }
        }
        out
    }

    /// A framed or banded grid missing a row ends at its own lines: it took the next grid's
    /// first row, came out `solved` or `contradiction`, and the next grid was the short one.
    #[test]
    fn a_grid_drawn_in_bands_ends_with_its_bands() {
        let ok = framed(None);
        for missing in [0, 4, 8] {
            let text = format!("{}{ok}{ok}", framed(Some(missing)));
            let recs = read_all(&text);
            let reasons: Vec<_> = recs.iter().map(|r| r.puzzle.clone().err()).collect();
            let band = missing / 3 + 1;
            assert_eq!(
                reasons,
                [Some(format!("band {band}: 2 rows, expected 3")), None, None],
                "row {missing} missing"
            );
            assert_eq!(
                (recs[1].line, recs[2].line),
                (14, 27),
                "row {missing} missing"
            );
        }
        // a row too many is the grid's own, not the next grid's first
        let extra = ok.replacen(
            "| . 3 . | 4 . . | 6 . . |\n",
            "| . 3 . | 4 . . | 6 . . |\n".repeat(2).as_str(),
            1,
        );
        let recs = read_all(&format!("{extra}{ok}"));
        assert_eq!(
            summary(&recs),
            [(2, Err("band 1: 4 rows, expected 3".into())), (16, Ok(()))]
        );
        // lines between bands only, no frame and no blank line between grids: a band short of
        // a row ends at its line (but the last band's, which has none, takes the next row)
        let banded = |missing: Option<usize>| {
            let mut out = String::new();
            for r in 0..9 {
                if Some(r) != missing {
                    out.push_str(". 3 . | 4 . . | 6 . .\n");
                }
                if r == 2 || r == 5 {
                    out.push_str("------+-------+------\n");
                }
            }
            out
        };
        for missing in [1, 3] {
            let text = format!("{}{}{}", banded(None), banded(Some(missing)), banded(None));
            let recs = read_all(&text);
            let reasons: Vec<_> = recs.iter().map(|r| r.puzzle.clone().err()).collect();
            let band = missing / 3 + 1;
            let reason = format!("band {band}: 2 rows, expected 3");
            assert_eq!(reasons, [None, Some(reason), None], "row {missing} missing");
        }
        // a frame missing its bottom line: the grid takes a few rows more, not the whole input
        let open = format!(
            "{}{}",
            ok.trim_end_matches("+-------+-------+-------+\n"),
            "123456789\n".repeat(30)
        );
        let recs = read_all(&open);
        assert_eq!(recs[0].puzzle, Err("grid has 12 rows, expected 9".into()));
        assert!(recs.len() > 2);
    }

    /// Titles of all kinds end the grid before them and are no row; a number alone names a
    /// grid only between grids; a line holding a whole puzzle is never a title.
    #[test]
    fn titles_and_numbers_before_grids() {
        let rows = "003020600\n".repeat(9);
        for title in [
            "Easy",
            "Grid A",
            "----- Grid 1 -----",
            "17 clues",
            "1",
            "(3)",
            "1/300",
        ] {
            let text = format!("{title}\n{rows}\n{title}\n{rows}");
            assert_eq!(
                summary(&read_all(&text)),
                [(2, Ok(())), (13, Ok(()))],
                "{title}"
            );
        }
        // numbers alone set grids apart as titles do
        let text = format!("1\n{rows}2\n{rows}3\n{rows}");
        assert_eq!(
            summary(&read_all(&text)),
            [(2, Ok(())), (12, Ok(())), (22, Ok(()))]
        );
        // a number inside a grid is a bad row of it
        let text = format!("{}7\n{}", "003020600\n".repeat(4), "003020600\n".repeat(4));
        assert_eq!(
            summary(&read_all(&text)),
            [(1, Err("row 5: found 1 cell, expected 9".into()))]
        );
        // puzzles a line read as grid input: each line a bad row, none passed over as a title
        let line = format!("Puzzle 1: {}\n", "003020600".repeat(9));
        let recs = read_all(&line.repeat(2));
        assert_eq!(recs.len(), 1);
        assert!(recs[0].puzzle.is_err());
    }

    #[test]
    fn tells_lines_drawn_between_boxes_from_rows() {
        for divider in [
            "------+-------+------",
            "|---+---+---|",
            "+-------+-------+-------+",
            "*-----------*",
            "-------------------------",
            "=====+=====",
        ] {
            assert!(is_divider(divider.as_bytes()), "{divider}");
        }
        // rows of blanks `-` and broken rows are not passed over
        for row in [
            "---------",
            "---|---|---",
            "- - - - - - - - -",
            "----------",
            "|----|---|---|",
            "12-+45678",
        ] {
            assert!(!is_divider(row.as_bytes()), "{row}");
        }
        for title in [
            "Grid 01",
            "Puzzle 7:",
            "Easy",
            "----- Grid 1 -----",
            "17 clues",
        ] {
            assert!(is_title(title.as_bytes()), "{title}");
        }
        let line = format!("Puzzle 1: {}", "003020600".repeat(9));
        for row in [
            "003020600",
            "x23456789",
            ".",
            "1 2 3",
            &line,
            "0 6 0 2 7 8 1 3 5  # note",
            "|..3|.2.|6..| easy",
        ] {
            assert!(!is_title(row.as_bytes()), "{row}");
        }
        for label in [
            "1", "001", "(3)", "[12]", "1/300", "#4", "7.", "12:", "12345",
        ] {
            assert!(is_label(label.as_bytes()), "{label}");
        }
        // broken rows, not labels (they were, and were read past with no record)
        for row in [
            "1 2 3 4 5 6",
            "123456",
            "Easy",
            "...",
            "123456789",
            "..3.5",
            "1 2 3",
            "0 0 0 0 5",
            "5 5",
            "1/2/3",
            "(12",
            "/3",
        ] {
            assert!(!is_label(row.as_bytes()), "{row}");
        }
        assert!(is_title(b"No. 5"));
    }

    #[test]
    fn bad_rows_with_blank_separators() {
        let mut bad = "1 2 3 4 5 6 7 8 9\n".repeat(9);
        bad.replace_range(0..1, "?");
        let too_long = "1 2 3 4 5 6 7 8 9\n".repeat(10);
        let good = "1 2 3 4 5 6 7 8 9\n".repeat(9);
        let text = format!("{bad}\n{too_long}\n{good}");
        let recs = read_all(&text);
        // the blank line after the first grid says grids are set apart: the grid of ten rows
        // is one malformed record (it was a good grid of its first nine and a short one)
        assert_eq!(
            summary(&recs),
            [
                (1, Err("row 1: invalid character '?'".into())),
                (11, Err("grid has 10 rows, expected 9".into())),
                (22, Ok(())),
            ]
        );
        // before any blank line, grids are 9 rows each; once one has followed a grid, two
        // grids with none between them are one of 12 rows and a short one: told, not read as
        // good grids of wrong rows
        let text = format!("{good}{good}\n{good}{good}\n");
        assert_eq!(
            summary(&read_all(&text)),
            [
                (1, Ok(())),
                (10, Ok(())),
                (20, Err("grid has 12 rows, expected 9".into())),
                (32, Err(run_on(20))),
            ]
        );
        // two grids and three rows of a third with none between them, then a blank line: the
        // 9 rows after the first 12 are two grids' rows (they made a good grid, found in no
        // file); so are the rows after a second cut, and a blank line ends the run
        let three = "1 2 3 4 5 6 7 8 9\n".repeat(3);
        let text = format!("{good}\n{good}{good}{three}\n{good}\n{good}{good}{good}\n{good}");
        assert_eq!(
            summary(&read_all(&text)),
            [
                (1, Ok(())),
                (11, Err("grid has 12 rows, expected 9".into())),
                (23, Err(run_on(11))),
                (33, Ok(())),
                (43, Err("grid has 12 rows, expected 9".into())),
                (55, Err(run_on(43))),
                (67, Err(run_on(43))),
                (71, Ok(())),
            ]
        );
    }

    /// Framed grids back to back (no blank line), the first missing a band, or holding a line
    /// too many: two lines in a row inside it are its bottom line and the next grid's top. They
    /// were passed over, so the next grid's first band made this one's third, and every grid
    /// after it was read out of step (some as good grids of two grids' rows), to the end.
    #[test]
    fn two_lines_in_a_row_end_a_grid_before_the_next_framed_one() {
        let frame = "+---+---+---+\n";
        let band = "1 2 3 4 5 6 7 8 9\n".repeat(3);
        let framed = format!("{frame}{band}{frame}{band}{frame}{band}{frame}");
        let no_last_band = format!("{frame}{band}{frame}{band}{frame}");
        let text = format!("{no_last_band}{framed}{framed}");
        assert_eq!(
            summary(&read_all(&text)),
            [
                (2, Err("grid has 6 rows, expected 9".into())),
                (11, Ok(())),
                (24, Ok(())),
            ]
        );
        let row = "1 2 3 4 5 6 7 8 9\n";
        let line_too_many =
            format!("{frame}{band}{frame}{band}{frame}{row}{frame}{row}{row}{frame}");
        let text = format!("{line_too_many}{framed}{framed}");
        assert_eq!(
            summary(&read_all(&text)),
            [
                (2, Err("band 3: 1 row, expected 3".into())),
                (12, Err("band 1: 2 rows, expected 3".into())),
                (16, Ok(())),
                (29, Ok(())),
            ]
        );
    }

    /// Rows run on from a cut grid, ended by a line drawn between two bands of the grid they
    /// ran into: the rows after that line are out of step still. They were read as a grid of
    /// their own, which took the rest of that grid and the first band of the framed grid after
    /// it: a good grid of two grids' rows.
    #[test]
    fn a_line_drawn_inside_rows_run_on_keeps_them_out_of_step() {
        let row = "1 2 3 4 5 6 7 8 9\n";
        let good = row.repeat(9);
        let band = row.repeat(3);
        let drawn = format!("{band}---+---+---\n{band}---+---+---\n{band}");
        let frame = "+---+---+---+\n";
        let framed = format!("{frame}{band}{frame}{band}{frame}{band}{frame}");
        let six = row.repeat(6);
        let text = format!("{good}\n{good}{six}{drawn}{framed}\n{good}");
        assert_eq!(
            summary(&read_all(&text)),
            [
                (1, Ok(())),
                (11, Err("grid has 12 rows, expected 9".into())),
                (23, Err(run_on(11))),
                (30, Err(run_on(11))),
                (42, Err(run_on(11))),
                (51, Ok(())),
            ]
        );
        // a line drawn right after the cut is between records: the framed grid after it is read
        let three = row.repeat(3);
        let text = format!("{good}\n{good}{three}{framed}\n{good}");
        assert_eq!(
            summary(&read_all(&text)),
            [
                (1, Ok(())),
                (11, Err("grid has 12 rows, expected 9".into())),
                (24, Ok(())),
                (37, Ok(())),
            ]
        );
    }

    fn run_on(line: u64) -> String {
        format!("rows run on from the grid at line {line} (no blank line ended it)")
    }
}
