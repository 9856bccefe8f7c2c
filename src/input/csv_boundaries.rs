//! Where CSV rows end, told from their bytes alone: what lets a block of CSV input be cut
//! between rows, on the thread that reads (`CsvReader::read_block`) or on the one that reads a
//! chunk of a file (the `chunks` module), without parsing a field. And what is wrong with a row's
//! quotes ([`quote_trouble`]), which the reader and the boundaries both go by, so that they agree.

/// The columns the rows of a CSV input should have, as its header (or `--csv-columns`) says:
/// what tells a row spanning lines that is malformed anyway (see [`QuoteTrouble::Misshapen`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RowShape {
    /// Fields a row has.
    pub(crate) width: usize,
    /// 0-based puzzle column.
    pub(crate) column: usize,
    /// 0-based column of given solutions: the one read, else the one `check` would read (named
    /// as in `SOLUTION_COLUMNS`), so that `solve` and `check` read the same rows.
    pub(crate) solution: Option<usize>,
}

/// What is wrong with the quotes of a row (its bytes as read, its own line end included).
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum QuoteTrouble {
    /// The row ends inside quotes.
    Unclosed,
    /// A quoted field holding a line end is followed by more than a delimiter or the row's end.
    Stray,
    /// A quoted field holds a line end and the row is malformed anyway: it has not the header's
    /// width, or its puzzle (or its given solution) holds a line end between its characters,
    /// which no puzzle does, other than a grid's 9 rows of 9 cells. Read as one row it is one malformed record, which costs
    /// the rows on the lines it spans, while read as a stray quote's row (its first line a
    /// malformed record, the lines after it rows of their own) it costs none: a stray quote
    /// closed by a later one at a line end or before a delimiter (`1,"oops` ... `9,p"`).
    Misshapen(Misshapen),
}

/// How a row spanning lines is malformed anyway (see [`QuoteTrouble::Misshapen`]).
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Misshapen {
    /// It has this many fields, not the header's width.
    Fields(usize),
    /// This column (0-based; the puzzle's or the given solution's) holds a line end.
    LineEnd(usize),
}

/// The trouble with `row`'s quotes, as csv-core reads them: a field that starts with a quote is
/// quoted, a doubled quote in it is a quote, and it ends at the next single quote; a quote
/// anywhere else is a character. (csv-core goes on reading a field after its closing quote:
/// fine on one line, `"ab"c`, but after a field spanning lines it is the sign of a stray quote.)
/// With the shape the rows should have, a row spanning lines is also looked at whole (see
/// [`QuoteTrouble::Misshapen`]); without it (a header, a pipe's line) only its quotes are.
pub(crate) fn quote_trouble(
    row: &[u8],
    delimiter: u8,
    shape: Option<&RowShape>,
) -> Option<QuoteTrouble> {
    let (mut quoted, mut at_start, mut spanned) = (false, true, false);
    // the field being read, and its text when it is the puzzle's or the solution's
    let (mut field, mut text, mut line_end_in) = (0, Vec::new(), None);
    let watched =
        |field: usize| shape.is_some_and(|s| field == s.column || Some(field) == s.solution);
    let mut field_ends = |field: usize, text: &mut Vec<u8>| {
        let trimmed = text.trim_ascii();
        if line_end_in.is_none() && trimmed.contains(&b'\n') && !is_grid(trimmed) {
            line_end_in = Some(field);
        }
        text.clear();
    };
    let mut bytes = row.iter().peekable();
    while let Some(&b) = bytes.next() {
        let mut data = true;
        if quoted {
            match b {
                b'"' if bytes.peek() == Some(&&b'"') => {
                    bytes.next();
                }
                b'"' => {
                    quoted = false;
                    data = false;
                    let next = bytes.peek().map(|&&b| b);
                    let ends = next.is_none_or(|n| n == delimiter || n == b'\n' || n == b'\r');
                    if spanned && !ends {
                        return Some(QuoteTrouble::Stray);
                    }
                }
                b'\n' => spanned = true,
                _ => {}
            }
        } else if b == delimiter {
            field_ends(field, &mut text);
            field += 1;
            at_start = true;
            continue;
        } else if b == b'\n' {
            break; // the row's own line end
        } else if b == b'"' && at_start {
            quoted = true;
            data = false;
        }
        at_start = false;
        if data && watched(field) {
            text.push(b);
        }
    }
    if quoted {
        return Some(QuoteTrouble::Unclosed);
    }
    field_ends(field, &mut text);
    let shape = shape.filter(|_| spanned)?;
    if field + 1 != shape.width {
        return Some(QuoteTrouble::Misshapen(Misshapen::Fields(field + 1)));
    }
    line_end_in.map(|c| QuoteTrouble::Misshapen(Misshapen::LineEnd(c)))
}

/// True for text that is a grid written as 9 rows of 9 cells, one a line (a puzzle or solution
/// laid out in a quoted field): a line end in it is no sign of a stray quote.
fn is_grid(text: &[u8]) -> bool {
    let mut rows = 0;
    for row in text.split(|&b| b == b'\n') {
        rows += 1;
        if rows > 9 || super::text::row_cells(row.trim_ascii()).is_err() {
            return false;
        }
    }
    rows == 9
}

/// Where rows end in CSV bytes, told without parsing their fields: the quoting rules of csv-core
/// as the `csv` module sets it up (`"` quotes, doubled inside quotes; rows end at LF; blank lines
/// skipped) and [`CsvReader`](super::csv::CsvReader)'s cap (a row that takes `max + 1` bytes
/// without ending is read past to the end of the line where that happens, unless it spans lines
/// by then) and its rows read again (a row with a quoted field spanning lines whose quotes are in
/// trouble, by [`quote_trouble`], or that reaches the cap, ends after its first line: the bytes
/// after that are rows again; see `Replay` in the `csv` module). Fed the input in
/// pieces, it says whether the bytes fed so far end where a row may start, which is where a block
/// can be cut.
#[derive(Debug, Clone)]
pub(crate) struct Boundaries {
    state: Quoting,
    /// Bytes of the current row fed so far.
    taken: usize,
    /// The last byte fed was an LF.
    after_lf: bool,
    delimiter: u8,
    /// Bytes a row may take before it is too long: `max + 1` (its LF).
    limit: usize,
    /// The bytes of the current row (kept while it is not known to hold no trouble: see
    /// [`Boundaries::row_end`]).
    row: Vec<u8>,
    /// The current row holds an LF inside quotes.
    spanned: bool,
    /// The columns rows should have, once known (see [`Boundaries::set_shape`]).
    shape: Option<RowShape>,
}

/// Where the bytes fed so far leave a CSV row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Quoting {
    /// Between rows (blank lines are read past here).
    RowStart,
    /// At the start of a field.
    FieldStart,
    /// In an unquoted field: quotes there are data.
    Field,
    /// Inside quotes.
    Quoted,
    /// Just after a quote inside quotes: another quote is data, anything else ends the quotes.
    QuoteInQuoted,
    /// Reading past the rest of the line of a row that took too many bytes.
    Skipping,
}

impl Boundaries {
    pub(crate) fn new(delimiter: u8, max: usize) -> Boundaries {
        Boundaries {
            state: Quoting::RowStart,
            taken: 0,
            after_lf: true,
            delimiter,
            limit: max.saturating_add(1),
            row: Vec::new(),
            spanned: false,
            shape: None,
        }
    }

    /// Sets the columns rows should have (the reader's, past its header), which tell some rows
    /// spanning lines to be read again (see [`QuoteTrouble::Misshapen`]).
    pub(crate) fn set_shape(&mut self, shape: RowShape) {
        self.shape = Some(shape);
    }

    /// True when the bytes fed so far end where a row may start.
    pub(crate) fn at_row_start(&self) -> bool {
        self.state == Quoting::RowStart
    }

    /// Feeds the next bytes of the input (whole lines, except perhaps the input's last).
    pub(crate) fn feed(&mut self, bytes: &[u8]) {
        // from a row start, bytes with no quote are rows that end at each LF (a row over the cap
        // ends at its own LF too): only where the last line ends matters
        if self.state == Quoting::RowStart && memchr::memchr(b'"', bytes).is_none() {
            if let Some(&last) = bytes.last() {
                self.after_lf = last == b'\n';
                if !self.after_lf {
                    let start = memchr::memrchr(b'\n', bytes).map_or(0, |i| i + 1);
                    self.taken = bytes.len() - start;
                    self.state = Quoting::Field;
                }
            }
            return;
        }
        for &b in bytes {
            let Some(mut again) = self.byte(b) else {
                continue;
            };
            // a row read again: its bytes after its first line, fed again (a row among them
            // may be read again in turn: its own bytes after its first line, then the rest)
            let mut i = 0;
            while i < again.len() {
                match self.byte(again[i]) {
                    Some(mut more) => {
                        more.extend_from_slice(&again[i + 1..]);
                        again = more;
                        i = 0;
                    }
                    None => i += 1,
                }
            }
        }
    }

    /// A row ends (its LF fed, outside quotes): its bytes after its first line when they are to
    /// be read again.
    fn row_end(&mut self) -> Option<Vec<u8>> {
        // a row on one line is read as it is (its quotes add up, since its LF ended it)
        let trouble =
            self.spanned && quote_trouble(&self.row, self.delimiter, self.shape.as_ref()).is_some();
        let again = trouble.then(|| {
            let first = memchr::memchr(b'\n', &self.row).unwrap_or(self.row.len());
            self.row.get(first + 1..).unwrap_or_default().to_vec()
        });
        self.row.clear();
        self.spanned = false;
        again
    }

    /// Feeds one byte; returns the bytes to feed again first when it ends a row read again.
    fn byte(&mut self, b: u8) -> Option<Vec<u8>> {
        let lf = b == b'\n';
        match self.state {
            Quoting::Skipping => {
                if lf {
                    self.state = Quoting::RowStart;
                }
            }
            Quoting::RowStart if lf => {}
            _ if self.taken == self.limit && self.spanned => {
                // too long past a line end (inside quotes): the row's bytes after its first
                // line are read again, then this byte
                let first = memchr::memchr(b'\n', &self.row).unwrap_or(self.row.len());
                let mut again = self.row.get(first + 1..).unwrap_or_default().to_vec();
                again.push(b);
                self.taken = 0;
                self.row.clear();
                self.spanned = false;
                self.state = Quoting::RowStart;
                self.after_lf = true;
                return Some(again);
            }
            _ if self.taken == self.limit => {
                // the row is too long (and not read again): the reader goes on at this byte
                // when it stopped just after an LF, else after the end of this line
                self.taken = 0;
                self.row.clear();
                self.spanned = false;
                if self.after_lf {
                    self.state = Quoting::RowStart;
                    return self.byte(b);
                }
                self.state = if lf {
                    Quoting::RowStart
                } else {
                    Quoting::Skipping
                };
            }
            state => {
                self.taken += 1;
                self.row.push(b);
                let quote = b == b'"';
                let delimiter = b == self.delimiter;
                if state == Quoting::Quoted && lf {
                    self.spanned = true;
                }
                self.state = match state {
                    Quoting::RowStart | Quoting::FieldStart if quote => Quoting::Quoted,
                    Quoting::Quoted if quote => Quoting::QuoteInQuoted,
                    Quoting::Quoted => Quoting::Quoted,
                    Quoting::QuoteInQuoted if quote => Quoting::Quoted,
                    _ if delimiter => Quoting::FieldStart,
                    _ if lf => Quoting::RowStart,
                    _ => Quoting::Field,
                };
                if self.state == Quoting::RowStart {
                    self.taken = 0;
                    self.after_lf = true;
                    return self.row_end();
                }
            }
        }
        self.after_lf = lf;
        None
    }
}
