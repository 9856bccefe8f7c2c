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
    /// The comment lines skipped (trimmed, each ended with `\n`; the last ones, within the
    /// record size): grid input keeps them with its first grid ([`super::Record::above`]).
    pub comments: Vec<u8>,
}

/// What the start of an input says its format is: [`sniff`].
pub(crate) struct Sniffed {
    /// The lines looked at, from the first meaningful one, to be read again as records.
    pub preamble: Preamble,
    /// The format, if one of the lines told it.
    pub format: Option<InputFormat>,
    /// The (1-based) line of the last meaningful line looked at.
    pub last_line: u64,
    /// The last line read (blank and comment lines counted), and whether reading stopped there
    /// for the [`SNIFF_BYTES`] held rather than at the end of the input or of the lines to look at.
    pub read_to: (u64, bool),
    /// The format was told by a line, and for grid input confirmed by a second one (not a
    /// fallback, nor one row before nothing that tells).
    pub sure: bool,
}

/// The lines [`read_preamble`] passes over before an input's first meaningful line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Skip {
    /// Blank lines and `#` comments (before a header, or a line or grid input's first record).
    BlankAndComments,
    /// Blank lines only: headerless CSV (`--csv-columns`), whose first line is a row, and a `#`
    /// row a record like any other.
    Blank,
    /// None (pipe mode, where every line is a record).
    Nothing,
}

/// Reads up to the first line that `skip` does not pass over, dropping a leading BOM. `None`
/// when the input holds no such line. Lines longer than `max` bytes are cut as
/// [`bounded::read_line`] cuts them (and never passed over as blank).
pub(crate) fn read_preamble<R: BufRead>(
    src: &mut R,
    max: usize,
    skip: Skip,
) -> io::Result<Option<Preamble>> {
    let keep_all = skip == Skip::Nothing;
    let mut buf = Vec::new();
    let mut skipped = 0u64;
    let mut bom = false;
    let mut comments = Vec::new();
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
        let passed = match skip {
            Skip::BlankAndComments => bounded::carries_no_record(buf.trim_ascii(), length, max),
            Skip::Blank => buf.trim_ascii().is_empty() && length <= max as u64,
            Skip::Nothing => false,
        };
        if passed {
            if !buf.trim_ascii().is_empty() && length <= max as u64 {
                super::grid::keep_above(&mut comments, buf.trim_ascii(), max);
            }
            skipped += 1;
            continue;
        }
        return Ok(Some(Preamble {
            skipped,
            first: buf,
            bom,
            comments,
        }));
    }
}

/// The lines of an input from its first meaningful one: those already in `buf` (the first, and
/// a header's lines read on with it) handed out from `pos`, then new ones read into `buf` from
/// the source; all of them stay in `buf`, for the reader.
struct Lines<'a, R> {
    src: &'a mut R,
    buf: Vec<u8>,
    max: usize,
    /// Where in `buf` the next line to hand out starts.
    pos: usize,
    /// The (1-based) line of the last one handed out.
    line: u64,
}

impl<R: BufRead> Lines<'_, R> {
    /// The next line (trimmed) and its length, with its line number: `None` at the end. A line
    /// held in `buf` says its length by itself: a cut one keeps `max + 1` bytes, so it is too
    /// long by what it keeps as by its whole length (see the `bounded` module).
    fn next(&mut self) -> io::Result<Option<(&[u8], u64, u64)>> {
        if self.pos == self.buf.len()
            && bounded::read_line(self.src, &mut self.buf, self.max)?.is_none()
        {
            return Ok(None);
        }
        let rest = &self.buf[self.pos..];
        let end = memchr::memchr(b'\n', rest).map_or(rest.len(), |i| i + 1);
        let line = &rest[..end];
        self.pos += end;
        self.line += 1;
        let length = line.strip_suffix(b"\n").unwrap_or(line).len() as u64;
        Ok(Some((line.trim_ascii(), length, self.line)))
    }
}

/// Grid rows are confirmed by the meaningful lines after them, this many at most: a first line
/// of 9 cells (`123456789`) followed by puzzles a line is a broken record of line input, not
/// the first row of a grid (four records were read as one malformed grid).
const CONFIRM_LINES: u64 = 8;

/// Reads the preamble and then lines until one tells the format ([`detect`]): the first meaningful
/// line may tell any format; later ones only line or grid, since a CSV header is the first line
/// (it may run over several lines, a quoted name holding a line end). A line that tells grid input
/// is confirmed by the next one that tells a format, within [`CONFIRM_LINES`]: if that one tells
/// line input, the input is line input. Looks at [`SNIFF_LINES`] meaningful lines at most (past
/// the confirming ones) and stops reading once [`SNIFF_BYTES`] are held. `None` when the input
/// holds no meaningful line. Lines longer than `max` bytes are cut as [`bounded::read_line`] cuts
/// them (the reader that reads them again still finds them too long).
pub(crate) fn sniff<R: BufRead>(src: &mut R, max: usize) -> io::Result<Option<Sniffed>> {
    let Some(mut preamble) = read_preamble(src, max, Skip::BlankAndComments)? else {
        return Ok(None);
    };
    let first_line = preamble.skipped + 1;
    let mut lines = Lines {
        src,
        buf: std::mem::take(&mut preamble.first),
        max,
        pos: 0,
        line: first_line - 1,
    };
    let format = sniff_lines(&mut lines, first_line)?;
    let read_to = (lines.line, lines.buf.len() > SNIFF_BYTES);
    preamble.first = lines.buf;
    Ok(Some(Sniffed {
        preamble,
        format: format.told,
        last_line: format.last_line,
        read_to,
        sure: format.sure,
    }))
}

/// What [`sniff_lines`] found.
struct Told {
    told: Option<InputFormat>,
    last_line: u64,
    sure: bool,
}

/// [`sniff`]'s work on the lines from the first meaningful one (`first_line`), all of them left
/// in `lines`' buffer for the reader.
fn sniff_lines<R: BufRead>(lines: &mut Lines<'_, R>, first_line: u64) -> io::Result<Told> {
    // a header whose quoted name holds a line end (`"my` / `id",puzzle`): the lines up to its
    // closing quote are one record, a header if they name a puzzle column (a first line that
    // tells line or grid input is not looked past: a puzzle typed on a terminal is read at once)
    let opens_header = !matches!(
        detect(lines.buf.trim_ascii()),
        Some(InputFormat::Line | InputFormat::Grid)
    );
    if opens_header {
        read_header_on(lines.src, &mut lines.buf, lines.max)?;
        let read_on = bounded::count_lines(&lines.buf) - 1;
        let closed = count_quotes(&lines.buf) % 2 == 0;
        if read_on > 0 && closed && is_csv_header(lines.buf.trim_ascii()) {
            return Ok(Told {
                told: Some(InputFormat::Csv),
                last_line: first_line + read_on,
                sure: true,
            });
        }
    }
    // the lines read on with it are looked at one by one below, as any after them
    let Some((first, _, _)) = lines.next()? else {
        // (never: the first line is in the buffer)
        return Ok(Told {
            told: None,
            last_line: first_line,
            sure: false,
        });
    };
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
    // a puzzle column's name alone (`Grid`, `Sudoku`) is a one-column CSV header, or a title
    // before grid rows: the next line that tells says which
    let bare_name = format == Some(InputFormat::Csv) && delimiter(first).is_none();
    if bare_name {
        fallback = format.take();
    }
    let mut last_line = first_line;
    let mut looked = 1;
    // the count of lines looked at when one told grid input, while the lines after it confirm it
    let mut grid_at = (format == Some(InputFormat::Grid)).then_some(1);
    let max = lines.max;
    loop {
        let limit = match grid_at {
            Some(at) => at + CONFIRM_LINES,
            None if format.is_none() => SNIFF_LINES,
            None => break,
        };
        if looked >= limit || lines.buf.len() > SNIFF_BYTES {
            break;
        }
        let Some((text, length, line)) = lines.next()? else {
            break;
        };
        if bounded::carries_no_record(text, length, max) {
            continue;
        }
        looked += 1;
        last_line = line;
        let Some(told) = detect(text).filter(|&f| f != InputFormat::Csv) else {
            continue;
        };
        if bare_name && told != InputFormat::Grid {
            // puzzles a row under the name: CSV (a line of 9 cells before them, which told grid
            // for a moment, is a broken row of it, not the start of a grid the name is a title of)
            format = None;
            break;
        }
        // a second line telling grid input confirms the first; one telling line input outvotes it
        grid_at = (grid_at.is_none() && told == InputFormat::Grid).then_some(looked);
        format = Some(told);
    }
    Ok(Told {
        told: format.or(fallback),
        last_line,
        sure: format.is_some() && grid_at.is_none(),
    })
}

/// The number of `"` in `bytes`.
fn count_quotes(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == b'"').count()
}

/// The pieces of a CSV line between `delimiter`s outside quotes (a quote opens or closes a quoted
/// part; `""` inside one closes and opens it again, which leaves it open).
fn split_unquoted(line: &[u8], delimiter: u8) -> impl Iterator<Item = &[u8]> {
    let mut quoted = false;
    line.split(move |&b| {
        if b == b'"' {
            quoted = !quoted;
        }
        b == delimiter && !quoted
    })
}

/// The first record of CSV text: up to its first LF outside quotes (a quoted header name may hold
/// one), without it.
pub(crate) fn header_record(text: &[u8]) -> &[u8] {
    split_unquoted(text, b'\n').next().unwrap_or_default()
}

/// True for a trimmed line that is surely a CSV header: [`detect`] says CSV and one of its fields
/// (split on [`csv_delimiter`], spaces and one pair of quotes around it dropped) is a puzzle column
/// name ([`PUZZLE_COLUMNS`], ignoring ASCII case).
pub(crate) fn is_csv_header(line: &[u8]) -> bool {
    if detect(line) != Some(InputFormat::Csv) {
        return false;
    }
    let delimiter = csv_delimiter(line);
    split_unquoted(line, delimiter).any(is_puzzle_column)
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
    // (outside quotes: `"Puzzle set, 2024"` is a title, not two columns)
    if delimiter(line).is_some() {
        return Some(InputFormat::Csv);
    }
    // A one-column CSV file: its header is just the puzzle column's name (quoted or not).
    is_puzzle_column(line).then_some(InputFormat::Csv)
}

/// The CSV delimiter a header line uses: `,` if present outside quotes, else `;`, else tab, else
/// `,` (so `"a,b";puzzle` is two columns, the first named `a,b`).
pub(crate) fn csv_delimiter(header: &[u8]) -> u8 {
    delimiter(header).unwrap_or(b',')
}

/// The first of `,`, `;` and tab found outside quotes in a line, if any.
fn delimiter(line: &[u8]) -> Option<u8> {
    [b',', b';', b'\t']
        .into_iter()
        .find(|&d| split_unquoted(line, d).nth(1).is_some())
}

/// Reads on, into `first` (a CSV input's first meaningful line), the lines of a header whose
/// quoted name holds a line end, up to its closing quote: at most [`SNIFF_LINES`] lines and
/// [`SNIFF_BYTES`] bytes (a quote never closed is the CSV reader's to report).
pub(crate) fn read_header_on<R: BufRead>(
    src: &mut R,
    first: &mut Vec<u8>,
    max: usize,
) -> io::Result<()> {
    let mut quotes = count_quotes(first);
    let mut lines = 1;
    while quotes % 2 == 1 && lines < SNIFF_LINES && first.len() <= SNIFF_BYTES {
        let start = first.len();
        if bounded::read_line(src, first, max)?.is_none() {
            break;
        }
        quotes += count_quotes(&first[start..]);
        lines += 1;
    }
    Ok(())
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

    /// A first line of 9 cells is a grid row only when a line after it says so too: before
    /// puzzles a line it is a broken record of line input (four records were read as one
    /// malformed grid, the three good puzzles lost).
    #[test]
    fn a_first_line_of_nine_cells_before_puzzles_a_line_is_line_input() {
        for first in [".........", "123456789", "1 2 3 4 5 6 7 8 9"] {
            let text = format!("{first}\n{PUZZLE}\n{PUZZLE}\n");
            let s = sniffed(text.as_bytes());
            assert_eq!(
                (s.format, s.last_line),
                (Some(InputFormat::Line), 2),
                "{first}"
            );
            let text = format!("{first}\n\n# c\nhello\n{PUZZLE}\n");
            let s = sniffed(text.as_bytes());
            assert_eq!(
                (s.format, s.last_line),
                (Some(InputFormat::Line), 5),
                "{first}"
            );
        }
        // grids: the second row confirms the first, or a later one past broken rows
        let s = sniffed(".3.4..6..\n.3.4..6..\n".as_bytes());
        assert_eq!((s.format, s.last_line), (Some(InputFormat::Grid), 2));
        let s = sniffed(b"Grid 01\n003020600\n9003\nx\n001806400\n");
        assert_eq!((s.format, s.last_line), (Some(InputFormat::Grid), 5));
        // one row alone, or before nothing that tells, is still grid input
        assert_eq!(sniffed(b"003020600\n").format, Some(InputFormat::Grid));
        let text = format!("003020600\n{}", "x\n".repeat(20));
        let s = sniffed(text.as_bytes());
        assert_eq!((s.format, s.last_line), (Some(InputFormat::Grid), 9));
        // a grid told past the first line is confirmed the same way
        let text = format!("hello\n123456789\n{PUZZLE}\n");
        assert_eq!(sniffed(text.as_bytes()).format, Some(InputFormat::Line));
    }

    /// Grids drawn with `|` between boxes and lines between bands, in the layouts people paste.
    #[test]
    fn tells_grids_drawn_with_box_lines() {
        for text in [
            "4 . . | . . . | 8 . 5\n. 3 . | . . . | . . .\n",
            "*-----------*\n|..3|.2.|6..|\n|9..|3.5|..1|\n",
            "+-------+-------+-------+\n| 4 . . | . . . | 8 . 5 |\n------+------\n| . 3 . | . . . | . . . |\n",
        ] {
            assert_eq!(
                sniffed(text.as_bytes()).format,
                Some(InputFormat::Grid),
                "{text}"
            );
        }
    }

    /// A CSV header whose quoted name holds a line end is one record over two lines: it was
    /// taken for line input, three records read for one.
    #[test]
    fn a_header_over_two_lines_is_one_csv_header() {
        let text = format!("\"my\nid\",puzzle\n1,{PUZZLE}\n");
        let s = sniffed(text.as_bytes());
        assert_eq!((s.format, s.last_line), (Some(InputFormat::Csv), 2));
        assert_eq!(s.preamble.first, b"\"my\nid\",puzzle\n");
        assert_eq!(header_record(&s.preamble.first), b"\"my\nid\",puzzle");
        // a quote that opens no header: the lines read past it for its closing quote are
        // looked at, in order, and all go back to the reader
        let text = format!("\"hello\n1 2 3\n{PUZZLE}\nrest\n");
        let s = sniffed(text.as_bytes());
        assert_eq!((s.format, s.last_line), (Some(InputFormat::Line), 3));
        assert_eq!(s.preamble.first, text.as_bytes());
        let text = "\"a\nb\n".repeat(10);
        let s = sniffed(text.as_bytes());
        assert_eq!((s.format, s.last_line), (None, 20));
        assert_eq!(s.preamble.first, text.as_bytes());
        // a first line that tells line input is not looked past for a quote's end
        let text = format!("{PUZZLE} \"note\nrest\n");
        let mut src = text.as_bytes();
        let s = sniff(&mut src, DEFAULT_MAX_RECORD).unwrap().unwrap();
        assert_eq!((s.format, s.last_line), (Some(InputFormat::Line), 1));
        assert_eq!(src, b"rest\n");
    }

    /// A puzzle column's name alone before grid rows is a title (`Grid`): all the rows were
    /// records of a one-column CSV; before puzzles a row it is still that CSV's header. And a
    /// quoted title with a comma is no CSV header.
    #[test]
    fn a_name_alone_before_grid_rows_is_a_title() {
        let s = sniffed(b"Grid\n003020600\n900305001\n");
        assert_eq!(s.format, Some(InputFormat::Grid));
        let text = format!("Puzzle\n{PUZZLE}\n");
        assert_eq!(sniffed(text.as_bytes()).format, Some(InputFormat::Csv));
        assert_eq!(sniffed(b"sudoku\n\"x\"\n").format, Some(InputFormat::Csv));
        let text = format!("\"Puzzle set, 2024\"\n{PUZZLE}\n");
        assert_eq!(sniffed(text.as_bytes()).format, Some(InputFormat::Line));
    }

    /// A delimiter inside a quoted header name is part of the name.
    #[test]
    fn a_delimiter_inside_quotes_is_no_delimiter() {
        assert_eq!(csv_delimiter(b"\"a,b\";puzzle"), b';');
        assert!(is_csv_header(b"\"a,b\";puzzle"));
        assert!(is_csv_header(b"\"a;b\";\"x\"\"y\";puzzle"));
        assert!(!is_csv_header(b"\"a;puzzle\";b"));
        assert_eq!(csv_delimiter(b"\"a,b\""), b',');
        assert_eq!(csv_delimiter(b"id\tpuzzle"), b'\t');
        assert_eq!(header_record(b"id,puzzle\r\n1,2\n"), b"id,puzzle\r");
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
        // comments after a first line that tells nothing fill the 1 MiB: said, with their last
        let text = format!("My puzzles\n{}{PUZZLE}\n", "# note\n".repeat(160_000));
        let s = sniffed(text.as_bytes());
        assert_eq!((s.format, s.last_line), (None, 1));
        assert_eq!(s.read_to, (149_797, true));
        let s = sniffed(b"My puzzles\n# note\n");
        assert_eq!(s.read_to, (2, false));
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
        let p = read_preamble(&mut src, DEFAULT_MAX_RECORD, Skip::BlankAndComments)
            .unwrap()
            .unwrap();
        assert_eq!(p.skipped, 3);
        assert_eq!(p.first, b"12,34\n");
        assert!(p.bom);
        assert_eq!(src, b"rest\n");
        let mut plain: &[u8] = b"12,34\r\n";
        let p = read_preamble(&mut plain, DEFAULT_MAX_RECORD, Skip::BlankAndComments);
        assert!(!p.unwrap().unwrap().bom);
        let mut empty: &[u8] = b"\xEF\xBB\xBF\n# only a comment";
        assert!(
            read_preamble(&mut empty, DEFAULT_MAX_RECORD, Skip::BlankAndComments)
                .unwrap()
                .is_none()
        );
    }
}
