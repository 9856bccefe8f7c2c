//! The line format: one puzzle a line. Blank and `#` comment lines carry no record; surrounding
//! whitespace and CRLF line ends are ignored. On a line with several fields (split on whitespace, `:`
//! and `,`: sudoku exchange `HASH PUZZLE RATING`, tdoku `puzzle:count:solution`, header-less
//! `puzzle,solution`) the puzzle is the first *cell string*: a field of 81 characters, or of at
//! least 41 characters all of them cells. So a truncated puzzle (80 cells) is the puzzle, and the
//! record is malformed, rather than the solution after it being solved in its place. A shorter
//! field (a count, a rating, a 12-character hash) or one with other characters (a long hash) is
//! not a cell string.
//!
//! When asked for given solutions, the solution is the first cell string after the puzzle (a
//! truncated or overlong one is still taken, and `check` reports it): `PUZZLE SOLUTION`, tdoku's
//! `puzzle:count:solution`.

use std::io::{self, BufRead};

use super::bounded::{self, DEFAULT_MAX_RECORD};
use super::detect::BOM;
use super::record::{Echo, Record};
use super::text::{excerpt, fields, is_cell_string, puzzle_field, set_optional_text, set_text};
use crate::grid::{CELLS, Grid};

/// Reads line-format records from a buffered source.
pub(crate) struct LineReader<R> {
    src: R,
    buf: Vec<u8>,
    line: u64,
    /// Given solutions are read.
    solutions: bool,
    /// Bytes a line may hold (see the `bounded` module).
    max: usize,
    /// Every line is a record ([`LineReader::set_pipe`]).
    pipe: bool,
    /// What of the line each record keeps in `fields`.
    echo: Echo,
}

impl<R: BufRead> LineReader<R> {
    /// A reader whose first line read is line `skipped + 1`.
    pub(crate) fn new(src: R, skipped: u64) -> LineReader<R> {
        LineReader {
            src,
            buf: Vec::with_capacity(256),
            line: skipped,
            solutions: false,
            max: DEFAULT_MAX_RECORD,
            pipe: false,
            echo: Echo::None,
        }
    }

    /// Lines longer than `max` bytes are malformed records (read past in bounded memory).
    pub(crate) fn set_max(&mut self, max: usize) {
        self.max = max;
    }

    /// Also read each record's given solution (see the module documentation).
    pub(crate) fn set_solutions(&mut self, solutions: bool) {
        self.solutions = solutions;
    }

    /// The last line read (1-based; 0 before any).
    pub(crate) fn line(&self) -> u64 {
        self.line
    }

    /// The source of the lines.
    pub(crate) fn src(&self) -> &R {
        &self.src
    }

    /// Given solutions are read.
    pub(crate) fn solutions(&self) -> bool {
        self.solutions
    }

    /// Bytes a line may hold.
    pub(crate) fn max(&self) -> usize {
        self.max
    }

    /// Appends the input's next lines to `bytes`, unparsed: whole lines (a line longer than the
    /// cap cut as this reader cuts it) until `bytes` holds at least `target` more bytes or the
    /// input ends. Returns the lines appended (0 at the end of the input). The lines are then read
    /// by a `LineReader` over `bytes`, on any thread.
    ///
    /// On a read error, the whole lines read before it stay in `bytes` (and are counted) and the
    /// error is returned.
    pub(crate) fn read_block(&mut self, bytes: &mut Vec<u8>, target: usize) -> io::Result<u64>
    where
        R: bounded::DirectRead,
    {
        let start = bytes.len();
        let read = (|| {
            while bytes.len() - start < target {
                let want = target - (bytes.len() - start);
                if bounded::read_lines(&mut self.src, bytes, want, self.max)? == 0 {
                    break;
                }
            }
            Ok(())
        })();
        if read.is_err() {
            bounded::keep_whole_lines(bytes, start);
        }
        let lines = bounded::count_lines(&bytes[start..]);
        self.line += lines;
        read.map(|()| lines)
    }

    /// The next record, `None` at the end of the input.
    #[cfg(test)]
    pub(crate) fn next(&mut self, source: u32) -> io::Result<Option<Record>> {
        let mut record = Record::empty();
        Ok(self.next_into(source, &mut record)?.then_some(record))
    }

    /// Reads the next record into `record`, reusing its buffers; false at the end of the input.
    pub(crate) fn next_into(&mut self, source: u32, record: &mut Record) -> io::Result<bool> {
        let read = self.read_into(source, record)?;
        if read && self.pipe {
            record.without_cr();
        }
        Ok(read)
    }

    /// [`LineReader::next_into`] but for pipe mode's CRs.
    fn read_into(&mut self, source: u32, record: &mut Record) -> io::Result<bool> {
        loop {
            self.buf.clear();
            let Some(length) = bounded::read_line(&mut self.src, &mut self.buf, self.max)? else {
                return Ok(false);
            };
            self.line += 1;
            // a BOM at the start of a line is the start of a file joined on (`cat a.txt
            // b.txt`, b.txt saved with one): dropped, as the first input's is (it was a cell:
            // "found 82 cells")
            let text = match self.buf.trim_ascii_start().strip_prefix(BOM) {
                Some(rest) => rest.trim_ascii(),
                None => self.buf.trim_ascii(),
            };
            let no_record = bounded::carries_no_record(text, length, self.max);
            if no_record && !self.pipe {
                continue;
            }
            record.source = source;
            record.line = self.line;
            self.echo.fill(text, &mut record.fields);
            if no_record {
                // pipe mode: every line is a record
                record.cells = excerpt(text);
                let what = if text.is_empty() { "blank" } else { "comment" };
                record.puzzle = Err(format!("{what} line"));
                record.solution = None;
                return Ok(true);
            }
            if length > self.max as u64 {
                record.cells = excerpt(text);
                record.puzzle = Err(bounded::too_long("line", self.max));
                record.solution = None;
                return Ok(true);
            }
            // where the text starts in the line (after blanks and a BOM): a byte's place in a
            // reason counts from the line's start
            let lead = text.as_ptr() as usize - self.buf.as_ptr() as usize;
            if self.pipe {
                // pipe mode reads no file as a whole, so it checks no file for text: a line
                // that is not UTF-8 is one malformed record, whatever else it holds, so that
                // keys echoed back are never silently altered
                if let Err(e) = std::str::from_utf8(text) {
                    record.cells = excerpt(text);
                    record.puzzle = Err(not_utf8(text, e.valid_up_to(), lead));
                    record.solution = None;
                    return Ok(true);
                }
            }
            record.puzzle = parse_line(text, lead, &mut record.cells);
            let solution = self.solutions.then(|| given_solution(text)).flatten();
            set_optional_text(&mut record.solution, solution);
            return Ok(true);
        }
    }

    /// Pipe mode: blank and `#` comment lines are records too (malformed: `blank line`,
    /// `comment line`), so that every line gives one record.
    pub(crate) fn set_pipe(&mut self, pipe: bool) {
        self.pipe = pipe;
    }

    /// Also keep the line, or some of its fields, in each record's `fields` (see [`Echo`]).
    pub(crate) fn set_echo(&mut self, echo: Echo) {
        self.echo = echo;
    }

    /// Pipe mode and echo, for a reader of a block.
    pub(crate) fn modes(&self) -> (bool, Echo) {
        (self.pipe, self.echo.clone())
    }
}

/// Why a line is malformed whose text (starting at byte `lead` of the line) is not UTF-8 from
/// its byte `at` on; the same words in pipe mode and out of it.
fn not_utf8(text: &[u8], at: usize, lead: usize) -> String {
    format!(
        "invalid UTF-8 (byte 0x{:02X} at byte {} of the line); puzzle text must be UTF-8",
        text[at],
        lead + at + 1
    )
}

/// The puzzle (or why there is none) of a trimmed, non-blank line, which starts at byte `lead`
/// of its line; sets `cells` to its cells text.
fn parse_line(text: &[u8], lead: usize, cells: &mut String) -> Result<Grid, String> {
    // the common case: the whole line is the puzzle. Only a line of 81 bytes can be one, and
    // trying longer lines would cost a failed parse (which counts characters for its message).
    if let Some(grid) = (text.len() == CELLS)
        .then(|| Grid::parse(text).ok())
        .flatten()
    {
        set_text(cells, text);
        return Ok(grid);
    }
    // a CR inside a line is a line end of a file that mixes them (`k1 P1\rk2 P2\r\n`): the
    // fields around it are not this line's, and the puzzle field found after it was the next
    // line's puzzle, answered for this one
    let reason = if memchr::memchr(b'\r', text).is_some() {
        super::record::CR_INSIDE.to_string()
    } else if let Some(at) = not_utf8_at(text) {
        // a line that is not UTF-8 is malformed, as a CSV row is, also when its puzzle is
        // sound (it was answered, and `--echo` gave back another key than the line's), and
        // says so wherever the bad byte is (one before the puzzle read "found 82 cells", one in
        // it named a character the file does not hold)
        not_utf8(text, at, lead)
    } else {
        match puzzle_field(text) {
            Some(field) => match Grid::parse(field) {
                Ok(grid) => {
                    set_text(cells, field);
                    return Ok(grid);
                }
                Err(e) => e.to_string(),
            },
            None => {
                let mut all = fields(text);
                match (all.next(), all.next()) {
                    (Some(only), None) => match Grid::parse(only) {
                        Err(e) => e.to_string(),
                        Ok(_) => "no field of 81 cells".to_string(),
                    },
                    _ => "no field of 81 cells".to_string(),
                }
            }
        }
    };
    *cells = excerpt(text);
    Err(reason)
}

/// Where `text` stops being UTF-8, if it does.
fn not_utf8_at(text: &[u8]) -> Option<usize> {
    if text.is_ascii() {
        return None;
    }
    std::str::from_utf8(text).err().map(|e| e.valid_up_to())
}

/// The given solution of a trimmed line: the first cell string after the puzzle field. `None`
/// when the line has no puzzle field.
fn given_solution(text: &[u8]) -> Option<&[u8]> {
    let puzzle = puzzle_field(text)?;
    // the puzzle field is a piece of `text`: the rest of the line starts where it ends
    let end = puzzle.as_ptr().addr() - text.as_ptr().addr() + puzzle.len();
    let rest = text.get(end..)?;
    fields(rest).find(|f| is_cell_string(f))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUZZLE: &str =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

    const SOLUTION: &str =
        "483921657967345821251876493548132976729564138136798245372689514814253769695417382";

    fn read_all(text: &[u8]) -> Vec<Record> {
        read_with(text, false)
    }

    fn read_with(text: &[u8], solutions: bool) -> Vec<Record> {
        let mut r = LineReader::new(text, 0);
        r.set_solutions(solutions);
        let mut out = Vec::new();
        while let Some(rec) = r.next(0).unwrap() {
            out.push(rec);
        }
        out
    }

    #[test]
    fn takes_the_solution_from_the_field_after_the_puzzle_when_asked() {
        let zeros = PUZZLE.replace('.', "0");
        let short = &SOLUTION[..80];
        let garbled = "x".repeat(81);
        let sha = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
        let lines = [
            (PUZZLE.to_string(), None),
            (format!("{PUZZLE} {SOLUTION}"), Some(SOLUTION)),
            (format!("{PUZZLE}:1:{SOLUTION}"), Some(SOLUTION)),
            (format!("{zeros},{SOLUTION}"), Some(SOLUTION)),
            (format!("00005f662e09 {zeros}  3.4"), None),
            (format!("{PUZZLE} {short} 3.4"), Some(short)),
            (format!("{PUZZLE}:1:{garbled}"), Some(garbled.as_str())),
            (format!("{PUZZLE} {sha}"), None),
            (format!("{PUZZLE} 1234"), None),
            // the truncated puzzle is the puzzle (malformed), the field after it the solution
            (format!("{short} {PUZZLE}"), Some(PUZZLE)),
        ];
        let text: String = lines.iter().map(|(l, _)| format!("{l}\n")).collect();
        let got: Vec<_> = read_with(text.as_bytes(), true)
            .into_iter()
            .map(|r| r.solution)
            .collect();
        let want: Vec<_> = lines.iter().map(|(_, s)| s.map(String::from)).collect();
        assert_eq!(got, want);
        assert!(
            read_all(text.as_bytes())
                .iter()
                .all(|r| r.solution.is_none()),
            "not read unless asked"
        );
    }

    #[test]
    fn a_carriage_return_inside_a_line_makes_it_malformed() {
        // the record keyed k1 was answered with k2's puzzle, and k1's vanished
        let other = PUZZLE.replace('3', ".");
        let text = format!("k1 {PUZZLE}\rk2 {other}\r\nk3 {other}\r\n{PUZZLE}\r\n");
        let recs = read_all(text.as_bytes());
        assert_eq!(recs.len(), 3);
        let reason = recs[0].puzzle.clone().unwrap_err();
        assert!(
            reason.starts_with("a carriage return (CR) inside the line"),
            "{reason}"
        );
        assert_eq!(recs[1].cells, other);
        assert_eq!(recs[2].cells, PUZZLE);
    }

    #[test]
    fn a_truncated_puzzle_is_malformed_not_replaced_by_the_next_field() {
        let short = &PUZZLE[..80];
        let zeros = SOLUTION.replace('1', "0");
        let long = format!("{PUZZLE}1");
        let half = &PUZZLE[..41];
        let lines = [
            format!("{short} {SOLUTION}"),
            format!("{short}:1:{SOLUTION}"),
            format!("{short},{SOLUTION}"),
            format!("00005f662e09 {short}  3.4"),
            format!("{long} {SOLUTION}"),
            format!("{half} {SOLUTION}"),
            format!("{short} {zeros} {SOLUTION}"),
        ];
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        let recs = read_with(text.as_bytes(), true);
        let reasons: Vec<_> = recs.iter().map(|r| r.puzzle.clone().unwrap_err()).collect();
        assert_eq!(
            reasons,
            [
                "found 80 cells, expected 81",
                "found 80 cells, expected 81",
                "found 80 cells, expected 81",
                "found 80 cells, expected 81",
                "found 82 cells, expected 81",
                "found 41 cells, expected 81",
                "found 80 cells, expected 81",
            ]
        );
        for (rec, line) in recs.iter().zip(&lines) {
            assert_eq!(rec.cells, excerpt(line.as_bytes()), "the line is shown");
        }
        // the solution is still the cell string after the (broken) puzzle
        assert_eq!(recs[0].solution.as_deref(), Some(SOLUTION));
        assert_eq!(recs[6].solution.as_deref(), Some(zeros.as_str()));
        // a field of 40 cells or fewer (a count, a rating, a hash) is not taken for the puzzle
        let text = format!("123456789012 3.4 {PUZZLE} {SOLUTION}\n");
        let recs = read_with(text.as_bytes(), true);
        assert_eq!(recs[0].cells, PUZZLE);
        assert_eq!(recs[0].solution.as_deref(), Some(SOLUTION));
    }

    #[test]
    fn a_line_longer_than_the_cap_is_malformed_and_reading_goes_on() {
        let long = "1".repeat(5000);
        let comment = format!("# {long}");
        let spaces = " ".repeat(5000);
        let text = format!("{PUZZLE}\n{long}\n{comment}\n{PUZZLE} {SOLUTION}\n{spaces}x\n");
        let mut r = LineReader::new(text.as_bytes(), 0);
        r.set_max(200);
        r.set_solutions(true);
        let mut recs = Vec::new();
        while let Some(rec) = r.next(0).unwrap() {
            recs.push(rec);
        }
        let got: Vec<_> = recs
            .iter()
            .map(|r| (r.line, r.puzzle.clone().err()))
            .collect();
        assert_eq!(
            got,
            [
                (1, None),
                (2, Some("line longer than 200 bytes".to_string())),
                (4, None),
                (5, Some("line longer than 200 bytes".to_string())),
            ],
            "a long comment is still a comment; a long line of blank start is a record"
        );
        assert_eq!(recs[1].cells, excerpt(long.as_bytes()));
        assert_eq!(recs[1].solution, None);
        assert_eq!(recs[2].solution.as_deref(), Some(SOLUTION));
    }

    #[test]
    fn skips_comments_and_blank_lines() {
        let text = format!("# head\n\n{PUZZLE}\n  \t\n# mid\n{PUZZLE}\n");
        let recs = read_all(text.as_bytes());
        assert_eq!(recs.iter().map(|r| r.line).collect::<Vec<_>>(), [3, 6]);
        assert!(recs.iter().all(|r| r.cells == PUZZLE && r.puzzle.is_ok()));
    }

    #[test]
    fn tolerates_crlf_and_trailing_spaces() {
        let text = format!("{PUZZLE}\r\n{PUZZLE}  \t\r\n{PUZZLE}");
        let recs = read_all(text.as_bytes());
        assert_eq!(recs.len(), 3);
        assert!(recs.iter().all(|r| r.cells == PUZZLE && r.puzzle.is_ok()));
        assert_eq!(recs[2].line, 3);
    }

    #[test]
    fn finds_puzzle_field_in_exchange_lines() {
        let zeros = PUZZLE.replace('.', "0");
        let text = format!(
            "00005f662e09 {zeros}  3.4\n{PUZZLE}:1:{zeros}\n{zeros},{zeros}\n\tx {PUZZLE}\n"
        );
        let recs = read_all(text.as_bytes());
        assert_eq!(recs.len(), 4);
        for r in &recs {
            assert_eq!(r.puzzle, Ok(PUZZLE.parse().unwrap()));
            assert_eq!(r.cells.len(), 81);
        }
        assert_eq!(recs[0].cells, zeros);
        assert_eq!(recs[1].cells, PUZZLE);
    }

    #[test]
    fn reports_why_a_line_is_malformed() {
        let short = &PUZZLE[..80];
        let mut bad = PUZZLE.to_string();
        bad.replace_range(10..11, "x");
        let accent = format!("{}é", &PUZZLE[..80]);
        let text = format!("{short}\n{bad}\nab {short} cd\n{accent}\nhash {bad} 1.0\n");
        let recs = read_all(text.as_bytes());
        let reasons: Vec<_> = recs.iter().map(|r| r.puzzle.clone().unwrap_err()).collect();
        assert_eq!(
            reasons,
            [
                "found 80 cells, expected 81",
                "invalid character 'x' at cell 11 (r2c2)",
                "found 80 cells, expected 81",
                "invalid character 'é' at cell 81 (r9c9)",
                "invalid character 'x' at cell 11 (r2c2)",
            ]
        );
        assert_eq!(recs[0].cells, short);
        assert_eq!(recs[2].cells, format!("ab {short} cd"));
        assert_eq!(recs[3].cells, accent);
        assert_eq!(
            recs[4].cells,
            format!("hash {bad} 1.0"),
            "the whole line when malformed"
        );
    }

    #[test]
    fn keeps_line_numbers_after_malformed_rows() {
        let text = format!("{PUZZLE}\ngarbage\n\n{PUZZLE}\nx,y\n{PUZZLE}\n");
        let recs = read_all(text.as_bytes());
        let lines: Vec<_> = recs.iter().map(|r| (r.line, r.puzzle.is_ok())).collect();
        assert_eq!(
            lines,
            [(1, true), (2, false), (4, true), (5, false), (6, true)]
        );
    }

    #[test]
    fn invalid_utf8_is_a_malformed_record() {
        let mut text = PUZZLE.as_bytes().to_vec();
        text[3] = 0xFF;
        // blanks before the text count: the byte is the line's third
        text.extend_from_slice(b"\n  \xFF\xFE\n");
        text.extend_from_slice(PUZZLE.as_bytes());
        let recs = read_all(&text);
        assert_eq!(recs.len(), 3);
        assert_eq!(
            recs[0].puzzle,
            Err(
                "invalid UTF-8 (byte 0xFF at byte 4 of the line); puzzle text must be UTF-8"
                    .to_string()
            )
        );
        assert_eq!(
            recs[1].puzzle,
            Err(
                "invalid UTF-8 (byte 0xFF at byte 3 of the line); puzzle text must be UTF-8"
                    .to_string()
            )
        );
        assert!(recs[2].puzzle.is_ok());
    }

    /// A file with a BOM joined on to another (`cat a.txt bom.txt`): its first line is read as
    /// the file's own first line would be (the BOM was a cell: "found 82 cells").
    #[test]
    fn a_bom_at_the_start_of_a_later_line_is_dropped() {
        let text = format!("{PUZZLE}\n\u{FEFF}{PUZZLE}\n\u{FEFF}  key {PUZZLE}\n");
        let recs = read_all(text.as_bytes());
        assert_eq!(recs.len(), 3);
        assert!(
            recs.iter().all(|r| r.puzzle.is_ok()),
            "{:?}",
            recs[1].puzzle
        );
        // a BOM anywhere else is a character of the line
        let recs = read_all(format!("key\u{FEFF} {PUZZLE}x\n").as_bytes());
        assert!(recs[0].puzzle.is_err());
    }

    #[test]
    fn a_line_not_utf8_outside_its_puzzle_is_malformed() {
        // it was answered, its key read with a U+FFFD in it
        let text = format!("k\u{e9}y {PUZZLE}\nkey {PUZZLE}\n");
        let mut bytes = text.into_bytes();
        bytes.remove(2); // the second byte of é: a lone 0xC3
        let recs = read_all(&bytes);
        assert_eq!(
            recs[0].puzzle,
            Err(
                "invalid UTF-8 (byte 0xC3 at byte 2 of the line); puzzle text must be UTF-8"
                    .to_string()
            )
        );
        assert!(recs[1].puzzle.is_ok());
        // UTF-8 outside the puzzle is fine
        let recs = read_all(format!("k\u{e9}y {PUZZLE}\n").as_bytes());
        assert!(recs[0].puzzle.is_ok());
    }

    #[test]
    fn a_field_with_invalid_utf8_is_the_puzzle_when_grid_parse_counts_81() {
        // 80 cells and a lone continuation byte: the reason names the bad byte and where it is
        // (not "no field of 81 cells", nor the U+FFFD that stood for it, which the file does
        // not hold)
        let mut text = b"hash ".to_vec();
        text.extend_from_slice(&PUZZLE.as_bytes()[..80]);
        text.extend_from_slice(b"\x80 3.4\n");
        let recs = read_all(&text);
        assert_eq!(
            recs[0].puzzle,
            Err(
                "invalid UTF-8 (byte 0x80 at byte 86 of the line); puzzle text must be UTF-8"
                    .to_string()
            )
        );
    }

    #[test]
    fn very_long_malformed_lines_are_cut() {
        let text = "1".repeat(5000);
        let recs = read_all(text.as_bytes());
        assert_eq!(
            recs[0].puzzle,
            Err("found 5000 cells, expected 81".to_string())
        );
        assert_eq!(recs[0].cells.chars().count(), 200);
    }
}
