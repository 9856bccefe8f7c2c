//! A record's fields (a CSV row's columns, or what line input echoes) held as one string and the
//! places where fields end: filling a record copies and checks a row's bytes once, not a `String`
//! per field.

use std::fmt;
use std::ops::Index;

/// Fields of one record, as text: invalid UTF-8 read into them is replaced (U+FFFD).
#[derive(Clone, Default)]
pub struct Fields {
    /// Every field's text, one after another.
    text: String,
    /// Where each field ends in `text`.
    ends: Vec<usize>,
    /// A delimiter known to be in no field, nor a quote, CR or LF: the fields of a CSV row read
    /// without quotes ([`Fields::mark_quote_free`]), which CSV output with that delimiter
    /// copies as they are, without looking for bytes to quote.
    quote_free: Option<u8>,
}

/// Equal fields hold the same text; what is known of their bytes does not count.
impl PartialEq for Fields {
    fn eq(&self, other: &Fields) -> bool {
        self.text == other.text && self.ends == other.ends
    }
}

impl Eq for Fields {}

/// Bytes of fields a record keeps room for between rows; a very wide row once gives its room back.
const KEEP: usize = 4096;

impl Fields {
    /// The number of fields.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// True when there are no fields (line input that echoes nothing, grid input).
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Field `i` (from 0), if there is one.
    pub fn get(&self, i: usize) -> Option<&str> {
        let end = *self.ends.get(i)?;
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        Some(&self.text[start..end])
    }

    /// The fields in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        (0..self.len()).map(|i| &self[i])
    }

    /// The delimiter that, with a quote, CR and LF, no field holds, when that is known: CSV
    /// written with it needs no quotes for these fields.
    pub fn quote_free(&self) -> Option<u8> {
        self.quote_free
    }

    /// Records that no field holds `delimiter`, a quote or LF (they are a CSV row split at
    /// `delimiter` in bytes with no quote); a CR in a field is looked for here.
    pub(crate) fn mark_quote_free(&mut self, delimiter: u8) {
        let cr = memchr::memchr(b'\r', self.text.as_bytes()).is_some();
        self.quote_free = (!cr).then_some(delimiter);
    }

    /// Sets the fields to those of `text`, a CSV row with no quote in it (and no line end) split
    /// at `delimiter`, an ASCII byte other than CR; they are marked quote-free as
    /// [`Fields::mark_quote_free`] does, unless a CR is in them.
    pub(crate) fn set_plain_row(&mut self, text: &str, delimiter: u8) {
        debug_assert!(delimiter.is_ascii() && delimiter != b'\r');
        self.clear();
        let bytes = text.as_bytes();
        let mut cr = false;
        let mut start = 0;
        for at in memchr::memchr2_iter(delimiter, b'\r', bytes) {
            if bytes[at] == b'\r' {
                cr = true;
                continue;
            }
            // an ASCII delimiter is a character boundary of UTF-8 text
            self.text.push_str(&text[start..at]);
            self.ends.push(self.text.len());
            start = at + 1;
        }
        self.text.push_str(&text[start..]);
        self.ends.push(self.text.len());
        self.quote_free = (!cr).then_some(delimiter);
    }

    /// Puts a space for each CR of the fields (one byte for one: the ends stay); true when there
    /// was one (see [`super::Record::without_cr`]).
    pub(crate) fn cr_to_space(&mut self) -> bool {
        let held = replace_cr(&mut self.text);
        if held {
            self.quote_free = None;
        }
        held
    }

    /// No fields.
    pub fn clear(&mut self) {
        self.quote_free = None;
        if self.text.capacity() > KEEP {
            self.text = String::new();
        }
        if self.ends.capacity() > KEEP {
            self.ends = Vec::new();
        }
        self.text.clear();
        self.ends.clear();
    }

    /// Adds a field with the text of `bytes`; false when they are not UTF-8 (the field then holds
    /// them with invalid sequences replaced).
    pub(crate) fn push_bytes(&mut self, bytes: &[u8]) -> bool {
        self.quote_free = None;
        let valid = match std::str::from_utf8(bytes) {
            Ok(s) => {
                self.text.push_str(s);
                true
            }
            Err(_) => {
                self.text.push_str(&String::from_utf8_lossy(bytes));
                false
            }
        };
        self.ends.push(self.text.len());
        valid
    }

    /// Sets the fields to a row held as `bytes` (the fields one after another) that ends where
    /// `ends` says, the last field's bytes stopping at `last_end` (before a row's CR); returns the
    /// index of the first field that is not UTF-8, if any. The row's bytes are checked at once:
    /// only a row with invalid bytes is converted field by field.
    pub(crate) fn set_row(
        &mut self,
        bytes: &[u8],
        ends: &[usize],
        last_end: usize,
    ) -> Option<usize> {
        self.clear();
        let whole = &bytes[..last_end];
        let valid = std::str::from_utf8(whole).ok().filter(|text| {
            // fields that are not UTF-8 alone may be when joined ("\xC3" and "\xA9")
            let inner = &ends[..ends.len().saturating_sub(1)];
            inner.iter().all(|&end| text.is_char_boundary(end))
        });
        if let Some(text) = valid {
            self.text.push_str(text);
            self.ends.extend_from_slice(ends);
            if let Some(last) = self.ends.last_mut() {
                *last = last_end;
            }
            return None;
        }
        let mut bad = None;
        let mut start = 0;
        let last = ends.len().saturating_sub(1);
        for (i, &end) in ends.iter().enumerate() {
            let end = if i == last { last_end } else { end };
            if !self.push_bytes(&bytes[start..end]) {
                bad.get_or_insert(i);
            }
            start = end;
        }
        bad
    }
}

impl Index<usize> for Fields {
    type Output = str;

    fn index(&self, i: usize) -> &str {
        match self.get(i) {
            Some(field) => field,
            None => panic!("field {i} of {}", self.len()),
        }
    }
}

impl fmt::Debug for Fields {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<S: AsRef<str>> FromIterator<S> for Fields {
    fn from_iter<I: IntoIterator<Item = S>>(iter: I) -> Fields {
        let mut fields = Fields::default();
        for field in iter {
            fields.push_bytes(field.as_ref().as_bytes());
        }
        fields
    }
}

impl<S: AsRef<str>, const N: usize> PartialEq<[S; N]> for Fields {
    fn eq(&self, other: &[S; N]) -> bool {
        self.len() == N && self.iter().zip(other).all(|(a, b)| a == b.as_ref())
    }
}

/// Puts a space for each CR of `text`; true when there was one.
pub(crate) fn replace_cr(text: &mut String) -> bool {
    if !text.contains('\r') {
        return false;
    }
    *text = text.replace('\r', " ");
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_fields_in_one_string() {
        let mut fields = Fields::default();
        assert!(fields.is_empty());
        assert!(fields.push_bytes(b"a"));
        assert!(fields.push_bytes(b""));
        assert!(!fields.push_bytes(b"x\xFFy"));
        assert_eq!(fields, ["a", "", "x\u{FFFD}y"]);
        assert_eq!(fields.get(3), None);
        assert_eq!(&fields[2], "x\u{FFFD}y");
        assert_eq!(format!("{fields:?}"), "[\"a\", \"\", \"x\u{FFFD}y\"]");
        fields.clear();
        assert_eq!(fields.len(), 0);
    }

    #[test]
    fn sets_a_row_checked_at_once_or_field_by_field() {
        let mut fields: Fields = ["old"].into_iter().collect();
        // "ab", "", "cd\r": the last field stops before the CR
        assert_eq!(fields.set_row(b"abcd\r", &[2, 2, 5], 4), None);
        assert_eq!(fields, ["ab", "", "cd"]);
        assert_eq!(fields.set_row(b"ab\xFFcd", &[3, 5], 5), Some(0));
        assert_eq!(fields, ["ab\u{FFFD}", "cd"]);
        assert_eq!(fields.set_row(b"abc\xFF", &[1, 4], 4), Some(1));
        assert_eq!(fields, ["a", "bc\u{FFFD}"]);
        assert_eq!(fields.set_row("é".as_bytes(), &[1, 2], 2), Some(0));
        assert_eq!(
            fields,
            ["\u{FFFD}", "\u{FFFD}"],
            "a character split by a delimiter"
        );
        assert_eq!(fields.set_row(b"", &[], 0), None);
        assert!(fields.is_empty());
    }

    #[test]
    fn gives_back_the_room_of_a_wide_row() {
        let mut fields = Fields::default();
        let wide = vec![b'x'; 10 * KEEP];
        fields.set_row(&wide, &[wide.len()], wide.len());
        fields.set_row(b"ab", &[2], 2);
        assert_eq!(fields, ["ab"]);
        assert!(fields.text.capacity() <= KEEP);
    }
}
