//! Records written back as they were read, for `split`, in the layout of the input
//! ([`TextLayout`]): a UTF-8 BOM first when the input has one, lines ended with CRLF when its
//! first line is. A CSV row is written with its fields (the header first), a line of line input
//! as it was (trimmed; read with [`crate::input::Echo::Line`]), a grid as its 9 rows of 9 cells
//! as read (without the spaces between cells), followed by a blank line.

use super::csv::{CsvRow, write_header};
use super::{Format, OutputOptions};
use crate::input::{InputFormat, Record, TextLayout};

/// The formatter of records as read from input in `format`, laid out as `layout`. `header` is
/// the CSV input header, if any.
pub fn rows_formatter(
    header: Option<&[String]>,
    options: &OutputOptions,
    format: InputFormat,
    layout: TextLayout,
) -> Box<dyn Format<()>> {
    Box::new(Rows {
        header: header.map(<[String]>::to_vec),
        delimiter: options.delimiter,
        grid: format == InputFormat::Grid,
        layout,
    })
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

struct Rows {
    header: Option<Vec<String>>,
    delimiter: u8,
    /// Grid input: each record as 9 rows.
    grid: bool,
    layout: TextLayout,
}

impl Rows {
    /// Ends the line just written (with LF) as the input's lines end.
    fn end_line(&self, out: &mut Vec<u8>) {
        if self.layout.crlf && out.last() == Some(&b'\n') {
            out.pop();
            out.extend_from_slice(b"\r\n");
        }
    }

    fn line(&self, out: &mut Vec<u8>, text: &[u8]) {
        out.extend_from_slice(text);
        out.push(b'\n');
        self.end_line(out);
    }
}

impl Format<()> for Rows {
    fn header(&self, out: &mut Vec<u8>) {
        if self.layout.bom {
            out.extend_from_slice(BOM);
        }
        if let Some(header) = &self.header {
            write_header(out, header, self.delimiter, false);
            self.end_line(out);
        }
    }

    fn record(&self, record: &Record, _answer: &(), _first: bool, out: &mut Vec<u8>) {
        if self.header.is_some() {
            let mut row = CsvRow::new(out, self.delimiter);
            for field in record.fields.iter() {
                row.field(field);
            }
            row.end();
            self.end_line(out);
        } else if self.grid && record.cells.len() == 81 {
            for line in record.above.lines() {
                self.line(out, line.as_bytes());
            }
            for row in record.cells.as_bytes().chunks_exact(9) {
                self.line(out, row);
            }
            self.line(out, b"");
        } else {
            let text = record.fields.get(0).unwrap_or(&record.cells);
            self.line(out, text.as_bytes());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{PUZZLE, record};
    use super::*;
    use crate::input::Fields;

    fn render(
        header: Option<&[String]>,
        format: InputFormat,
        layout: TextLayout,
        record: &Record,
    ) -> Vec<u8> {
        let f = rows_formatter(header, &OutputOptions::default(), format, layout);
        let mut out = Vec::new();
        f.header(&mut out);
        f.record(record, &(), true, &mut out);
        out
    }

    #[test]
    fn keeps_the_bom_and_crlf_of_the_input() {
        let windows = TextLayout {
            bom: true,
            crlf: true,
        };
        let mut row = record(2, PUZZLE);
        let mut fields = Fields::default();
        fields.push_bytes(b"7");
        fields.push_bytes(PUZZLE.as_bytes());
        row.fields = fields;
        let header = ["id".to_string(), "puzzle".to_string()];
        let csv = render(Some(&header), InputFormat::Csv, windows, &row);
        assert_eq!(
            csv,
            format!("\u{FEFF}id,puzzle\r\n7,{PUZZLE}\r\n").as_bytes()
        );
        let unix = render(Some(&header), InputFormat::Csv, TextLayout::default(), &row);
        assert_eq!(unix, format!("id,puzzle\n7,{PUZZLE}\n").as_bytes());
        let mut line = record(1, PUZZLE);
        let mut fields = Fields::default();
        fields.push_bytes(format!("k1 {PUZZLE}").as_bytes());
        line.fields = fields;
        let text = render(None, InputFormat::Line, windows, &line);
        assert_eq!(text, format!("\u{FEFF}k1 {PUZZLE}\r\n").as_bytes());
    }

    #[test]
    fn writes_a_grid_as_nine_rows_and_a_blank_line() {
        let text = render(
            None,
            InputFormat::Grid,
            TextLayout::default(),
            &record(1, PUZZLE),
        );
        let text = String::from_utf8(text).unwrap();
        let rows: Vec<&str> = text.split('\n').collect();
        assert_eq!(rows.len(), 11, "{text}");
        assert_eq!(rows[0], &PUZZLE[..9]);
        assert_eq!(rows[8], &PUZZLE[72..]);
        assert_eq!(&rows[9..], ["", ""]);
    }
}
