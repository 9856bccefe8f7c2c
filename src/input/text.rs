//! The byte-level text rules the readers and format detection share, so that they agree on what
//! a "field of 81 cells" or a "row of 9 cells" is, and count characters as `Grid::parse` does:
//! field splitting, row cells, character counting, decoding, and the excerpts messages show.

/// Longest text, in characters, kept in `Record::cells` for a malformed record or shown in a message.
const EXCERPT_CHARS: usize = 200;

/// True for a byte that separates fields of a line-format line. (Compares joined with `|`, no
/// early exit, so that [`find_byte`] can test 16 bytes at once.)
fn is_field_separator(b: u8) -> bool {
    (b == b' ') | (b == b'\t') | (b == b':') | (b == b',')
}

/// The non-empty fields of a trimmed line, split on whitespace, `:` and `,`.
pub(crate) fn fields(line: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = line;
    std::iter::from_fn(move || {
        while !rest.is_empty() {
            let end = find_byte(rest, is_field_separator).unwrap_or(rest.len());
            let (field, after) = rest.split_at(end);
            rest = after.get(1..).unwrap_or_default();
            if !field.is_empty() {
                return Some(field);
            }
        }
        None
    })
}

/// The position of the first byte of `bytes` for which `hit` holds. Whole 16-byte chunks are
/// tested first without an early exit, which the compiler turns into a few vector compares when
/// `hit` is a plain comparison (as [`is_field_separator`] is): on the long runs of cells in a
/// line, this is several times quicker than a test a byte.
pub(crate) fn find_byte(bytes: &[u8], hit: impl Fn(u8) -> bool) -> Option<usize> {
    let mut chunks = bytes.chunks_exact(16);
    let mut at = 0;
    for chunk in &mut chunks {
        if chunk.iter().fold(0u8, |any, &b| any | u8::from(hit(b))) != 0 {
            return chunk.iter().position(|&b| hit(b)).map(|i| at + i);
        }
        at += 16;
    }
    chunks
        .remainder()
        .iter()
        .position(|&b| hit(b))
        .map(|i| at + i)
}

/// The puzzle field of a line-format line: its first cell string ([`is_cell_string`]), if any.
///
/// Taking the first field that *looks like* a puzzle, not the first of exactly 81 characters,
/// keeps a truncated puzzle from being replaced by the next field: in `PUZZLE SOLUTION` with an
/// 80-cell puzzle, the solution would otherwise be solved as the puzzle and the broken record
/// never reported.
pub(crate) fn puzzle_field(line: &[u8]) -> Option<&[u8]> {
    if line.len() == crate::grid::CELLS && find_byte(line, is_field_separator).is_none() {
        return Some(line); // the common case: the whole line is the puzzle
    }
    fields(line).find(|f| is_cell_string(f))
}

/// True for a field that is a puzzle or solution, perhaps a broken one: 81 characters (whatever
/// they are, so that a bad character is named), or more than 40 characters all of them cells (a
/// truncated or overlong one). A count, a rating or a 12-digit hash is too short to be one, and a
/// long hash holds letters that are not cells.
pub(crate) fn is_cell_string(field: &[u8]) -> bool {
    char_count(field) == crate::grid::CELLS
        || (field.len() > crate::grid::CELLS / 2 && field.iter().all(|&b| is_cell(b)))
}

/// The characters of `text` as [`String::from_utf8_lossy`] decodes them (so as `Grid::parse` counts
/// them): each invalid UTF-8 sequence is one U+FFFD. The one rule for counting characters in the
/// readers; allocates nothing.
pub(crate) fn lossy_chars(text: &[u8]) -> impl Iterator<Item = char> + '_ {
    text.utf8_chunks().flat_map(|chunk| {
        let bad = (!chunk.invalid().is_empty()).then_some(char::REPLACEMENT_CHARACTER);
        chunk.valid().chars().chain(bad)
    })
}

/// Characters in `text`, counted as [`lossy_chars`] decodes them (quick for the usual ASCII).
pub(crate) fn char_count(text: &[u8]) -> usize {
    if text.is_ascii() {
        return text.len();
    }
    lossy_chars(text).count()
}

/// True for a byte that is a cell: a digit or a blank character.
pub(crate) fn is_cell(b: u8) -> bool {
    crate::grid::cell_value(b).is_some()
}

/// Why a grid row is not 9 cells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum RowError {
    /// The row has this many cells (characters other than spaces and tabs, counted as
    /// [`lossy_chars`] decodes them).
    Count(usize),
    /// The first character that is not a cell (U+FFFD for invalid UTF-8).
    Char(char),
}

/// True for a byte that separates the cells of a grid row: a space, a tab, or the `|` drawn
/// between boxes (`4 . . | . . . | 8 . 5`, `|..3|.2.|6..|`).
pub(crate) fn is_row_separator(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'|')
}

/// Checks that a trimmed row has 9 cells, its characters other than spaces, tabs and `|`
/// ([`is_row_separator`]), and that each is a digit or a blank: `0 3 5 4 6 9 2 7 8`,
/// `.3.4..6..`, `035 469 278` and `4 . . | . . . | 8 . 5` all qualify.
pub(crate) fn row_cells(row: &[u8]) -> Result<(), RowError> {
    let mut count = 0;
    let mut bad = None;
    let cells = lossy_chars(row).filter(|&ch| !(ch.is_ascii() && is_row_separator(ch as u8)));
    for ch in cells {
        count += 1;
        if bad.is_none() && !(ch.is_ascii() && is_cell(ch as u8)) {
            bad = Some(ch);
        }
    }
    match bad {
        _ if count != 9 => Err(RowError::Count(count)),
        Some(ch) => Err(RowError::Char(ch)),
        None => Ok(()),
    }
}

/// True for a trimmed line of a grid file that is a line drawn between boxes, not a row:
/// `------+-------+------`, `|---+---+---|`, `*-----------*` (Simple Sudoku's frame),
/// `-------------------------`. Such a line is made of `-`, `=`, `+`, `|`, `*`, spaces and tabs,
/// is not a row of 9 cells (`---|---|---` is nine blanks), and holds a `+` or an `=`, or 13
/// characters or more besides spaces and `|` (so that a broken row of 10 to 12 blanks `-` is
/// still a bad row of its grid, not a line passed over).
pub(crate) fn is_divider(line: &[u8]) -> bool {
    let drawn = |b: &u8| matches!(b, b'-' | b'=' | b'+' | b'|' | b'*') || is_row_separator(*b);
    if line.is_empty() || !line.iter().all(drawn) || row_cells(line).is_ok() {
        return false;
    }
    let marks = line.iter().filter(|&&b| !is_row_separator(b)).count();
    line.iter().any(|&b| b == b'+' || b == b'=') || marks >= 13
}

/// True for a trimmed line of a grid file that names the grid after it, not a row: it holds two
/// ASCII letters in a row (`Grid 01`, as in Project Euler's `sudoku.txt`; `Easy`, `Puzzle 7:`,
/// `----- Grid 1 -----`) and no field that is a puzzle (`Puzzle 1: 003020600...` is a line of
/// line input, a bad row), nor a row's worth of cells before its first letter (`0 6 0 2 7 8 1 3 5
/// # note` is a bad row, which keeps its grid one record). Cells are digits and blanks, so no
/// row holds two letters; a broken row that does (`ab3456789`) is read as a title.
pub(crate) fn is_title(line: &[u8]) -> bool {
    let before_letters = line.iter().take_while(|b| !b.is_ascii_alphabetic());
    line.windows(2)
        .any(|w| w[0].is_ascii_alphabetic() && w[1].is_ascii_alphabetic())
        && before_letters.filter(|&&b| is_cell(b)).count() < 9
        && !fields(line).any(is_cell_string)
}

/// True for a trimmed line that is a status word alone, as `-O grid` writes it in place of the
/// grid of a record that has none (`malformed`, `unsolvable`, `contradiction`, `multiple`,
/// augment's `bad_solution`): between grids it is that record, read back as a malformed one, so a
/// dataset keeps its count of records across a round trip (it was a title, skipped, the record
/// gone and `check` of the file saying nothing of it).
pub(crate) fn is_status_word(line: &[u8]) -> bool {
    use crate::status::{BAD_SOLUTION, Status};
    line == BAD_SOLUTION.as_bytes() || Status::ALL.iter().any(|s| s.as_str().as_bytes() == line)
}

/// True for a trimmed line that numbers the grid after it (`1`, `001`, `(3)`, `[12]`, `#4`, `7.`,
/// `1/300`): a number, or two with `/` between them, perhaps in brackets, after `#` or before
/// `.` or `:`, in at most 5 characters. Only between grids: inside one, such a line is a bad row
/// of it. Nothing else is (`..3.5`, `1 2 3`, `0 0 0 0 5` are broken rows, and records).
pub(crate) fn is_label(line: &[u8]) -> bool {
    let inner = match line {
        [b'(', inner @ .., b')'] | [b'[', inner @ .., b']'] | [b'#', inner @ ..] => inner,
        [inner @ .., b'.' | b':'] => inner,
        _ => line,
    };
    let number = |n: &[u8]| !n.is_empty() && n.iter().all(u8::is_ascii_digit);
    let numbers = match inner.iter().position(|&b| b == b'/') {
        Some(i) => number(&inner[..i]) && number(&inner[i + 1..]),
        None => number(inner),
    };
    numbers && line.len() <= 5 && row_cells(line).is_err()
}

/// Bytes as a String: `Ok` when they are valid UTF-8, else `Err` with each invalid sequence replaced
/// by U+FFFD as [`lossy_chars`] does (quick for the usual valid text).
pub(crate) fn decode(bytes: &[u8]) -> Result<String, String> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Ok(s.to_owned()),
        Err(_) => Err(String::from_utf8_lossy(bytes).into_owned()),
    }
}

/// Bytes as a String, invalid UTF-8 replaced (see [`decode`]).
pub(crate) fn to_text(bytes: &[u8]) -> String {
    decode(bytes).unwrap_or_else(|lossy| lossy)
}

/// A reused text buffer keeps at most this much room when it is given shorter text, so a huge field
/// read once does not hold its memory for the rest of the run.
const KEEP: usize = 1024;

/// Sets `out` to `bytes` as [`decode`] decodes them, in `out`'s own buffer (no allocation once it
/// is large enough: the readers refill the records of recycled batches this way). Returns false
/// when the bytes were not valid UTF-8 (each invalid sequence replaced by U+FFFD).
pub(crate) fn set_text(out: &mut String, bytes: &[u8]) -> bool {
    if out.capacity() > KEEP && bytes.len() <= KEEP {
        *out = String::new();
    }
    out.clear();
    match std::str::from_utf8(bytes) {
        Ok(s) => {
            out.push_str(s);
            true
        }
        Err(_) => {
            out.push_str(&String::from_utf8_lossy(bytes));
            false
        }
    }
}

/// Sets `out` to the text of `bytes` (as [`set_text`] does, in the buffer already there if any), or
/// to `None` when there are none.
pub(crate) fn set_optional_text(out: &mut Option<String>, bytes: Option<&[u8]>) {
    match bytes {
        Some(bytes) => {
            set_text(out.get_or_insert_with(String::new), bytes);
        }
        None => *out = None,
    }
}

/// Text for `Record::cells` of a malformed record: decoded as [`lossy_chars`] does, at most 200
/// characters (cut ones end in `...`). Kept as read otherwise: it is data, written to the output.
pub(crate) fn excerpt(text: &[u8]) -> String {
    cut(lossy_chars(text))
}

/// Names (CSV header fields) for an error message: joined with `, `, control and other unprintable
/// characters escaped (`\u{1b}`, `\n`), at most 200 characters (cut ones end in `...`), so a huge
/// or binary header still gives a short message that is safe to print to a terminal.
pub(crate) fn names_excerpt(names: &[String]) -> String {
    let joined = names.iter().enumerate().flat_map(|(i, name)| {
        let sep = if i == 0 { "" } else { ", " };
        sep.chars().chain(name.chars().flat_map(escape))
    });
    cut(joined)
}

/// A character as [`char::escape_debug`] shows it, but quotes and backslashes as they are: only
/// control and unprintable characters are escaped.
fn escape(ch: char) -> impl Iterator<Item = char> {
    let plain = matches!(ch, '"' | '\'' | '\\');
    let (kept, escaped) = if plain {
        (Some(ch), None)
    } else {
        (None, Some(ch.escape_debug()))
    };
    kept.into_iter().chain(escaped.into_iter().flatten())
}

/// At most [`EXCERPT_CHARS`] of `chars`, the last 3 of them replaced by `...` when some were cut;
/// takes no more than that from `chars`.
fn cut(chars: impl Iterator<Item = char>) -> String {
    let mut chars = chars.fuse();
    let mut out: String = chars.by_ref().take(EXCERPT_CHARS).collect();
    if chars.next().is_some() {
        let end = out
            .char_indices()
            .nth(EXCERPT_CHARS - 3)
            .map_or(out.len(), |(i, _)| i);
        out.truncate(end);
        out.push_str("...");
    }
    out
}

/// `1 field`, `2 fields`: a count with its noun.
pub(crate) fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("{n} {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_row_cells() {
        assert_eq!(row_cells(b"0 3 5 4 6 9 2 7 8"), Ok(()));
        assert_eq!(row_cells(b"035 469\t278"), Ok(()));
        assert_eq!(row_cells(b"0 3 5 4 6 9 2 7"), Err(RowError::Count(8)));
        assert_eq!(row_cells(b"0 3 x 4 6 9 2 7 8"), Err(RowError::Char('x')));
        assert_eq!(
            row_cells("0 3 é 4 6 9 2 7 8".as_bytes()),
            Err(RowError::Char('é'))
        );
    }

    #[test]
    fn counts_characters_as_grid_parse_does() {
        let samples: [&[u8]; 7] = [
            b"plain ascii",
            "caf\u{e9} \u{1F600}".as_bytes(),
            b"\xFF\xFE",           // two invalid bytes: two characters
            b"\xE2\x82",           // a cut 3-byte sequence: one character
            b"a\xE2\x82b\xF0\x9F", // cut sequences between ASCII
            b"\x80\x80\x80",       // lone continuation bytes: one each
            b"\xC3\xA9\xC3",       // valid then cut
        ];
        for text in samples {
            let lossy = String::from_utf8_lossy(text);
            assert_eq!(char_count(text), lossy.chars().count(), "{text:?}");
            assert!(lossy_chars(text).eq(lossy.chars()), "{text:?}");
        }
        // 80 cells and a lone continuation byte are 81 characters, as for Grid::parse (which then
        // names the bad character), so the line reader takes the field as the puzzle
        let mut field = vec![b'1'; 80];
        field.push(0x80);
        assert_eq!(char_count(&field), 81);
        assert!(matches!(
            crate::grid::Grid::parse(&field),
            Err(crate::grid::ParseError::Char { cell: 80, .. })
        ));
    }

    #[test]
    fn row_cells_count_invalid_utf8_as_grid_parse_does() {
        // a cut 2-byte sequence is one character, not zero
        assert_eq!(
            row_cells(b"1 2 3 4 5 6 7 8 \xC3"),
            Err(RowError::Char('\u{FFFD}'))
        );
        // a cut 3-byte sequence is one character, not two
        assert_eq!(
            row_cells(b"12345678\xE2\x82"),
            Err(RowError::Char('\u{FFFD}'))
        );
        assert_eq!(
            row_cells(b"1234567\xFF\xFF"),
            Err(RowError::Char('\u{FFFD}'))
        );
        assert_eq!(row_cells(b"12345678\x80\x80"), Err(RowError::Count(10)));
    }

    #[test]
    fn decodes_valid_text_as_ok_and_replaces_invalid_bytes() {
        assert_eq!(decode(b"abc"), Ok("abc".to_string()));
        assert_eq!(decode(b"a\xFFb"), Err("a\u{FFFD}b".to_string()));
        assert_eq!(to_text(b"a\xFFb"), "a\u{FFFD}b");
    }

    #[test]
    fn fields_split_on_separators_and_drop_empty_ones_at_any_length() {
        // every length around the 16-byte chunks, separators at every kind of place
        let pieces: [&[u8]; 7] = [b"x", b" ", b"\t", b":", b",", b"12345678901234567", b"ab"];
        let mut seed = 0x9E37_79B9u32;
        for n in 0..400 {
            let mut line = Vec::new();
            for _ in 0..n % 40 {
                seed ^= seed << 13;
                seed ^= seed >> 17;
                seed ^= seed << 5;
                line.extend_from_slice(pieces[seed as usize % pieces.len()]);
            }
            let want: Vec<&[u8]> = line
                .split(|&b| matches!(b, b' ' | b'\t' | b':' | b','))
                .filter(|f| !f.is_empty())
                .collect();
            assert_eq!(fields(&line).collect::<Vec<_>>(), want, "{line:?}");
            let first = line
                .iter()
                .position(|&b| matches!(b, b' ' | b'\t' | b':' | b','));
            assert_eq!(find_byte(&line, is_field_separator), first);
        }
    }

    #[test]
    fn set_text_reuses_the_buffer_and_replaces_invalid_bytes() {
        let mut text = String::with_capacity(100);
        let buffer = text.as_ptr();
        assert!(set_text(&mut text, b"abc"));
        assert_eq!(text, "abc");
        assert_eq!(text.as_ptr(), buffer, "no new allocation");
        assert!(!set_text(&mut text, b"a\xFFb"));
        assert_eq!(text, "a\u{FFFD}b");
        let mut big = "x".repeat(5 * KEEP);
        assert!(set_text(&mut big, b"short"));
        assert_eq!(big, "short");
        assert!(big.capacity() <= KEEP, "a huge buffer is given back");
    }

    #[test]
    fn cuts_long_excerpts() {
        assert_eq!(excerpt(b"abc"), "abc");
        let long = excerpt(&[b'x'; 500]);
        assert_eq!(long.chars().count(), 200);
        assert!(long.ends_with("..."));
        let exact = "é".repeat(200);
        assert_eq!(
            excerpt(exact.as_bytes()),
            exact,
            "200 characters are not cut"
        );
        let cut = excerpt("é".repeat(201).as_bytes());
        assert_eq!(cut, format!("{}...", "é".repeat(197)));
        assert_eq!(
            excerpt(b"a\x1b[2Jb\xFF"),
            "a\x1b[2Jb\u{FFFD}",
            "cells are kept as read"
        );
    }

    #[test]
    fn names_in_messages_are_escaped_and_cut() {
        let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(names_excerpt(&names(&["id", "puzzle"])), "id, puzzle");
        assert_eq!(
            names_excerpt(&names(&[
                "\x1b[31mred",
                "bell\x07",
                "a\tb\r\n",
                "\"q\" \\ é\u{FFFD}"
            ])),
            "\\u{1b}[31mred, bell\\u{7}, a\\tb\\r\\n, \"q\" \\ é\u{FFFD}"
        );
        let huge = vec!["x".repeat(10_000_000)];
        let shown = names_excerpt(&huge);
        assert_eq!(shown.chars().count(), 200);
        assert!(shown.ends_with("..."));
        let many: Vec<String> = (0..100_000).map(|i| format!("c{i}")).collect();
        let shown = names_excerpt(&many);
        assert!(shown.starts_with("c0, c1, c2, "));
        assert_eq!(shown.chars().count(), 200);
    }
}
