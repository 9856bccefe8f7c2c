//! Records written back as they were read, for `split`: a CSV row with its fields (the header
//! first), a line of line input as it was (trimmed; read with [`crate::input::Echo::Line`]), a grid
//! as its 81 cells on one line.

use super::csv::{CsvRow, write_header};
use super::{Format, OutputOptions};
use crate::input::Record;

/// The formatter of records as read. `header` is the CSV input header, if any.
pub fn rows_formatter(header: Option<&[String]>, options: &OutputOptions) -> Box<dyn Format<()>> {
    Box::new(Rows {
        header: header.map(<[String]>::to_vec),
        delimiter: options.delimiter,
    })
}

struct Rows {
    header: Option<Vec<String>>,
    delimiter: u8,
}

impl Format<()> for Rows {
    fn header(&self, out: &mut Vec<u8>) {
        if let Some(header) = &self.header {
            write_header(out, header, self.delimiter, false);
        }
    }

    fn record(&self, record: &Record, _answer: &(), _first: bool, out: &mut Vec<u8>) {
        if self.header.is_some() {
            let mut row = CsvRow::new(out, self.delimiter);
            for field in record.fields.iter() {
                row.field(field);
            }
            row.end();
        } else {
            out.extend_from_slice(record.fields.get(0).unwrap_or(&record.cells).as_bytes());
            out.push(b'\n');
        }
    }
}
