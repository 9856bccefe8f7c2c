//! Where CSV rows end, told from their bytes alone: what lets a block of CSV input be cut
//! between rows, on the thread that reads (`CsvReader::read_block`) or on the one that reads a
//! chunk of a file (the `chunks` module), without parsing a field.

/// Where rows end in CSV bytes, told without parsing their fields: the quoting rules of csv-core
/// as the `csv` module sets it up (`"` quotes, doubled inside quotes; rows end at LF; blank lines
/// skipped) and [`CsvReader`](super::csv::CsvReader)'s cap (a row that takes `max + 1` bytes
/// without ending is read past to the end of the line where that happens, unless it spans lines
/// by then) and its rows read again (a row with a quoted field spanning lines that is followed by
/// more than a delimiter, a stray quote's sign, or that reaches the cap, ends after its first
/// line: the bytes after that are rows again; see `Replay` in the `csv` module). Fed the input in
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
    /// The current row has a quoted field spanning lines followed by more than a delimiter.
    stray: bool,
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
            stray: false,
        }
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
        let again = std::mem::take(&mut self.stray).then(|| {
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
                self.stray = false;
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
                self.stray = false;
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
                // after a closing quote: a quote (data), the delimiter, the row's end, or a CR
                if state == Quoting::QuoteInQuoted
                    && !(quote || delimiter || lf || b == b'\r')
                    && self.spanned
                {
                    self.stray = true;
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
