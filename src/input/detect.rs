//! Deciding what an input is ([`InputFormat`]): skipping its preamble (UTF-8 BOM, blank and `#`
//! comment lines) up to the first meaningful line, and telling line, grid or CSV layout from the
//! first lines. What a "field of 81 cells" or a "row of 9 cells" is, it asks the `text` module, as
//! the readers do, so that detection and reading agree.

use std::io::{self, BufRead};

use super::bounded;
use super::text::{char_count, fields, row_cells};

/// Layout of an input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputFormat {
    /// Decide from the content of each input.
    Auto,
    /// One puzzle a line (81 cells), possibly among other fields.
    Line,
    /// CSV with a header row; the puzzle is one column.
    Csv,
    /// 9 lines of 9 cells per puzzle.
    Grid,
}

impl InputFormat {
    /// The format's name as written on the command line: `auto`, `line`, `csv`, `grid`.
    pub fn name(self) -> &'static str {
        format_name(self)
    }
}

pub(super) fn format_name(format: InputFormat) -> &'static str {
    match format {
        InputFormat::Auto => "auto",
        InputFormat::Line => "line",
        InputFormat::Csv => "csv",
        InputFormat::Grid => "grid",
    }
}

/// The UTF-8 byte order mark some editors put at the start of a file.
pub(crate) const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Header names taken as the puzzle column, in order of preference (compared ignoring ASCII case).
pub(crate) const PUZZLE_COLUMNS: [&str; 10] = [
    "puzzle", "puzzles", "quizzes", "quiz", "question", "sudoku", "grid", "board", "problem",
    "unsolved",
];

/// Header names taken as the column of given solutions (`check`), in order of preference (compared
/// ignoring ASCII case).
pub const SOLUTION_COLUMNS: [&str; 4] = ["solution", "solutions", "answer", "answers"];

/// Meaningful lines looked at, at most, to tell the format of the first input.
pub(crate) const SNIFF_LINES: u64 = 100;

/// Bytes buffered, at most, while looking for the format: no further line is read once the lines
/// held exceed this (so a huge broken file is rejected early; a line already being read is read
/// whole, as every reader reads whole lines).
pub(crate) const SNIFF_BYTES: usize = 1 << 20;

/// The first meaningful line of an input and how many lines came before it.
pub(crate) struct Preamble {
    /// Lines skipped before `first` (blank and comment lines).
    pub skipped: u64,
    /// The first meaningful line, as read (BOM removed, line end kept); after [`sniff`], also the
    /// lines read after it while looking for the format.
    pub first: Vec<u8>,
    /// The input started with a UTF-8 BOM (removed).
    pub bom: bool,
}

/// What the start of an input says its format is: [`sniff`].
pub(crate) struct Sniffed {
    /// The lines looked at, from the first meaningful one, to be read again as records.
    pub preamble: Preamble,
    /// The format, if one of the lines told it.
    pub format: Option<InputFormat>,
    /// The (1-based) line of the last meaningful line looked at.
    pub last_line: u64,
}

/// Reads up to the first line that is neither blank nor a `#` comment, dropping a leading BOM.
/// `None` when the input holds no such line. Lines longer than `max` bytes are cut as
/// [`bounded::read_line`] cuts them. With `keep_all` (pipe mode, where every line is a record)
/// no line is skipped: the first line is the first meaningful one.
pub(crate) fn read_preamble<R: BufRead>(
    src: &mut R,
    max: usize,
    keep_all: bool,
) -> io::Result<Option<Preamble>> {
    let mut buf = Vec::new();
    let mut skipped = 0u64;
    let mut bom = false;
    loop {
        buf.clear();
        let Some(length) = bounded::read_line(src, &mut buf, max)? else {
            return Ok(None);
        };
        // (in pipe mode a last line holding only the BOM is kept: it is a line, so a record)
        if skipped == 0 && buf.starts_with(BOM) && !(keep_all && buf.len() == BOM.len()) {
            buf.drain(..BOM.len());
            bom = true;
        }
        if !keep_all && bounded::carries_no_record(buf.trim_ascii(), length, max) {
            skipped += 1;
            continue;
        }
        return Ok(Some(Preamble {
            skipped,
            first: buf,
            bom,
        }));
    }
}

/// Reads the preamble and then lines until one tells the format ([`detect`]): the first meaningful
/// line may tell any format; later ones only line or grid, since a CSV header is the first line. Looks
/// at [`SNIFF_LINES`] meaningful lines at most and stops reading once [`SNIFF_BYTES`] are held.
/// `None` when the input holds no meaningful line. Lines longer than `max` bytes are cut as
/// [`bounded::read_line`] cuts them (the reader that reads them again still finds them too long).
pub(crate) fn sniff<R: BufRead>(src: &mut R, max: usize) -> io::Result<Option<Sniffed>> {
    let Some(mut preamble) = read_preamble(src, max, false)? else {
        return Ok(None);
    };
    let buf = &mut preamble.first;
    let first = buf.trim_ascii();
    let mut format = detect(first);
    // a first line with a delimiter and a broken puzzle in it (80 cells, then `,2.6`) but no
    // puzzle column name is more likely a malformed record of line input than a header: the
    // lines after it say (the whole file was refused for its first line, read fine elsewhere)
    let mut fallback = None;
    if format == Some(InputFormat::Csv)
        && !is_csv_header(first)
        && fields(first).any(super::text::is_cell_string)
    {
        fallback = format.take();
    }
    let mut line = preamble.skipped + 1;
    let mut last_line = line;
    let mut looked = 1;
    while format.is_none() && looked < SNIFF_LINES && buf.len() <= SNIFF_BYTES {
        let start = buf.len();
        let Some(length) = bounded::read_line(src, buf, max)? else {
            break;
        };
        line += 1;
        let text = buf.get(start..).unwrap_or_default().trim_ascii();
        if bounded::carries_no_record(text, length, max) {
            continue;
        }
        looked += 1;
        last_line = line;
        format = detect(text).filter(|&f| f != InputFormat::Csv);
    }
    Ok(Some(Sniffed {
        preamble,
        format: format.or(fallback),
        last_line,
    }))
}

/// True for a trimmed line that is surely a CSV header: [`detect`] says CSV and one of its fields
/// (split on [`csv_delimiter`], spaces and one pair of quotes around it dropped) is a puzzle column
/// name ([`PUZZLE_COLUMNS`], ignoring ASCII case).
pub(crate) fn is_csv_header(line: &[u8]) -> bool {
    if detect(line) != Some(InputFormat::Csv) {
        return false;
    }
    let delimiter = csv_delimiter(line);
    line.split(|&b| b == delimiter).any(is_puzzle_column)
}

/// True for a header field that names the puzzle column ([`PUZZLE_COLUMNS`], ignoring ASCII
/// case, spaces and one pair of quotes around it).
fn is_puzzle_column(field: &[u8]) -> bool {
    let field = field.trim_ascii();
    let name = field
        .strip_prefix(b"\"")
        .and_then(|f| f.strip_suffix(b"\""))
        .unwrap_or(field)
        .trim_ascii();
    PUZZLE_COLUMNS
        .iter()
        .any(|c| c.as_bytes().eq_ignore_ascii_case(name))
}

/// The layout a first meaningful line (trimmed) says the input has, if it says.
pub(crate) fn detect(line: &[u8]) -> Option<InputFormat> {
    if fields(line).any(|f| char_count(f) == crate::grid::CELLS) {
        return Some(InputFormat::Line);
    }
    if row_cells(line).is_ok() {
        return Some(InputFormat::Grid);
    }
    if line.iter().any(|&b| matches!(b, b',' | b';' | b'\t')) {
        return Some(InputFormat::Csv);
    }
    // A one-column CSV file: its header is just the puzzle column's name (quoted or not).
    is_puzzle_column(line).then_some(InputFormat::Csv)
}

/// The CSV delimiter a header line uses: `,` if present, else `;`, else tab, else `,`.
pub(crate) fn csv_delimiter(header: &[u8]) -> u8 {
    [b',', b';', b'\t']
        .into_iter()
        .find(|d| header.contains(d))
        .unwrap_or(b',')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::bounded::DEFAULT_MAX_RECORD;

    const PUZZLE: &str =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

    #[test]
    fn detects_line_grid_and_csv_from_the_first_line() {
        assert_eq!(detect(PUZZLE.as_bytes()), Some(InputFormat::Line));
        let exchange = format!("00005f662e09 {}  3.4", PUZZLE.replace('.', "0"));
        assert_eq!(detect(exchange.as_bytes()), Some(InputFormat::Line));
        assert_eq!(detect(b"0 3 5 4 6 9 2 7 8"), Some(InputFormat::Grid));
        assert_eq!(detect(b".3.4.6..."), Some(InputFormat::Grid));
        assert_eq!(detect(b"quizzes,solutions"), Some(InputFormat::Csv));
        assert_eq!(detect(b"id;puzzle"), Some(InputFormat::Csv));
        assert_eq!(detect(b"Puzzle"), Some(InputFormat::Csv));
        assert_eq!(detect(b"hello world"), None);
        assert_eq!(detect(&PUZZLE.as_bytes()[..80]), None);
    }

    fn sniffed(text: &[u8]) -> Sniffed {
        let mut src = text;
        sniff(&mut src, DEFAULT_MAX_RECORD).unwrap().unwrap()
    }

    #[test]
    fn looks_past_a_broken_first_line_and_keeps_the_lines_looked_at() {
        let text = format!("# c\n{}\n\n# c\nhello\n{PUZZLE}\nrest\n", &PUZZLE[..80]);
        let mut src = text.as_bytes();
        let s = sniff(&mut src, DEFAULT_MAX_RECORD).unwrap().unwrap();
        assert_eq!(s.format, Some(InputFormat::Line));
        assert_eq!((s.preamble.skipped, s.last_line), (1, 6));
        let expected = format!("{}\n\n# c\nhello\n{PUZZLE}\n", &PUZZLE[..80]);
        assert_eq!(
            s.preamble.first,
            expected.as_bytes(),
            "from the first meaningful line"
        );
        assert_eq!(src, b"rest\n", "nothing read past the line that told");

        let grid = format!("1 2 3 4 5 6 7 8\n{}", "1 2 3 4 5 6 7 8 9\n".repeat(8));
        assert_eq!(sniffed(grid.as_bytes()).format, Some(InputFormat::Grid));
    }

    #[test]
    fn a_broken_first_puzzle_with_a_delimiter_is_no_header_when_lines_follow() {
        // `PUZZLE,RATING` lines, the first puzzle cut short: line input
        let text = format!("{},2.6\n{PUZZLE},2.6\n", &PUZZLE[..80]);
        assert_eq!(sniffed(text.as_bytes()).format, Some(InputFormat::Line));
        let text = format!("{}\t2.6\n{PUZZLE}\t2.6\n", &PUZZLE[..80]);
        assert_eq!(sniffed(text.as_bytes()).format, Some(InputFormat::Line));
        // nothing after it says otherwise: CSV, as before
        let text = format!("{},2.6\nx,y\n", &PUZZLE[..80]);
        assert_eq!(sniffed(text.as_bytes()).format, Some(InputFormat::Csv));
        // a header naming a puzzle column stays one
        let text = format!("puzzle,{}\n{PUZZLE},2.6\n", &PUZZLE[..80]);
        assert_eq!(sniffed(text.as_bytes()).format, Some(InputFormat::Csv));
    }

    #[test]
    fn only_the_first_line_tells_csv() {
        let s = sniffed(b"id,puzzle\n1,2\n");
        assert_eq!((s.format, s.last_line), (Some(InputFormat::Csv), 1));
        assert_eq!(s.preamble.first, b"id,puzzle\n");
        let s = sniffed(b"hello\nid,puzzle\nx;y\n");
        assert_eq!((s.format, s.last_line), (None, 3));
    }

    #[test]
    fn gives_up_after_100_lines_or_1_mib() {
        let text = "hello\n".repeat(150);
        let s = sniffed(format!("{text}{PUZZLE}\n").as_bytes());
        assert_eq!((s.format, s.last_line), (None, 100));
        assert_eq!(s.preamble.first.len(), 6 * 100);

        let long = format!("{}\n", "x".repeat(300_000));
        let text = format!("{}{PUZZLE}\n", long.repeat(10));
        let mut src = text.as_bytes();
        let s = sniff(&mut src, 1 << 30).unwrap().unwrap();
        assert_eq!((s.format, s.last_line), (None, 4));
        assert_eq!(s.preamble.first.len(), 4 * long.len());
        // lines over the record cap are cut, so more of them fit
        let s = sniffed(text.as_bytes());
        assert_eq!((s.format, s.last_line), (Some(InputFormat::Line), 11));
        let cut = DEFAULT_MAX_RECORD + 2;
        assert_eq!(s.preamble.first.len(), 10 * cut + PUZZLE.len() + 1);
    }

    #[test]
    fn tells_a_sure_csv_header() {
        for header in [
            "id,puzzle",
            "Quizzes;solutions",
            "\"\",\"puzzle\",\"solution\"",
            "n\t Grid ",
            "sudoku",
            // one column, quoted: was not told from a line of text
            "\"puzzle\"",
        ] {
            assert!(is_csv_header(header.as_bytes()), "{header}");
        }
        for line in [
            "a,b",
            "hello",
            "puzzles are fun, really",
            "1 2 3 4 5 6 7 8 9",
            PUZZLE,
        ] {
            assert!(!is_csv_header(line.as_bytes()), "{line}");
        }
    }

    #[test]
    fn skips_bom_blank_and_comment_lines_before_the_first_line() {
        let mut src: &[u8] = b"\xEF\xBB\xBF# comment\r\n\n   \n12,34\nrest\n";
        let p = read_preamble(&mut src, DEFAULT_MAX_RECORD, false)
            .unwrap()
            .unwrap();
        assert_eq!(p.skipped, 3);
        assert_eq!(p.first, b"12,34\n");
        assert!(p.bom);
        assert_eq!(src, b"rest\n");
        let mut plain: &[u8] = b"12,34\r\n";
        let p = read_preamble(&mut plain, DEFAULT_MAX_RECORD, false);
        assert!(!p.unwrap().unwrap().bom);
        let mut empty: &[u8] = b"\xEF\xBB\xBF\n# only a comment";
        assert!(
            read_preamble(&mut empty, DEFAULT_MAX_RECORD, false)
                .unwrap()
                .is_none()
        );
    }
}
