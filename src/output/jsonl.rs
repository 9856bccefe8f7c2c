//! The JSON Lines writer: one object per record with exactly the keys `file` (the input's name,
//! as `check` writes it), `line`, `puzzle` (the cells as read), `status`, `solution` (81 digits,
//! or null when there is none; for `multiple` the first solution found), `guesses` and `micros`
//! (3 decimals, or null with `no_timings`), in that order. The fields kept of a line of line
//! input ([`OutputOptions::echo`]) come after `puzzle`, and in pipe mode `reason` (why the record
//! is malformed, else null) comes last. Strings go through serde_json, so any text read from a
//! malformed record is escaped correctly.

use super::{Format, OutputOptions, push_json_str, push_micros, push_u64};
use crate::input::Record;
use crate::status::Answer;

/// Formats JSON Lines.
pub(crate) struct JsonlFormat {
    no_timings: bool,
    /// `,"NAME":` for each field kept of a line of line input.
    echo: Vec<Vec<u8>>,
    /// The malformed reason too (pipe mode).
    reason: bool,
    /// `{"file":NAME,"line":` for each input, its name escaped once here rather than per record.
    starts: Vec<Vec<u8>>,
}

impl JsonlFormat {
    pub(crate) fn new(options: &OutputOptions) -> JsonlFormat {
        let start = |name: &str| {
            let mut start = b"{\"file\":".to_vec();
            // a String always serialises
            let _ = serde_json::to_writer(&mut start, name);
            start.extend_from_slice(b",\"line\":");
            start
        };
        let inputs = options.names.len().max(1) as u32;
        let key = |name: &String| {
            let mut key = b",".to_vec();
            // a String always serialises
            let _ = serde_json::to_writer(&mut key, name);
            key.push(b':');
            key
        };
        JsonlFormat {
            no_timings: options.no_timings,
            echo: options.echo.iter().map(key).collect(),
            reason: options.pipe,
            starts: (0..inputs).map(|i| start(options.name(i))).collect(),
        }
    }
}

impl Format for JsonlFormat {
    fn record(&self, record: &Record, answer: &Answer, _first: bool, l: &mut Vec<u8>) {
        match self.starts.get(record.source as usize) {
            Some(start) => l.extend_from_slice(start),
            None => l.extend_from_slice(b"{\"file\":\"<unknown input>\",\"line\":"),
        }
        push_u64(l, record.line);
        l.extend_from_slice(b",\"puzzle\":");
        push_json_str(l, &record.cells);
        for (i, key) in self.echo.iter().enumerate() {
            l.extend_from_slice(key);
            let value = record.fields.get(i).unwrap_or("");
            push_json_str(l, value);
        }
        l.extend_from_slice(b",\"status\":\"");
        l.extend_from_slice(answer.status.as_str().as_bytes());
        l.extend_from_slice(b"\",\"solution\":");
        match answer.solution {
            Some(solution) => {
                l.push(b'"');
                l.extend_from_slice(&solution.to_line(b'0'));
                l.push(b'"');
            }
            None => l.extend_from_slice(b"null"),
        }
        l.extend_from_slice(b",\"guesses\":");
        push_u64(l, answer.guesses);
        l.extend_from_slice(b",\"micros\":");
        if self.no_timings {
            l.extend_from_slice(b"null");
        } else {
            push_micros(l, answer.nanos);
        }
        if self.reason {
            l.extend_from_slice(b",\"reason\":");
            match &record.puzzle {
                Ok(_) => l.extend_from_slice(b"null"),
                Err(reason) => push_json_str(l, reason),
            }
        }
        l.extend_from_slice(b"}\n");
    }
}

#[cfg(test)]
mod tests {
    use super::super::OutputFormat;
    use super::super::tests::{PUZZLE, SOLUTION, answer, record, render};
    use crate::status::Status;

    #[test]
    fn writes_one_object_per_line_with_keys_in_order() {
        let items = [
            (record(3, PUZZLE), answer(Status::Solved)),
            (record(4, PUZZLE), answer(Status::Unsolvable)),
        ];
        let text = render(OutputFormat::Jsonl, None, false, &items);
        assert_eq!(
            text,
            format!(
                "{{\"file\":\"in.txt\",\"line\":3,\"puzzle\":\"{PUZZLE}\",\"status\":\"solved\",\"solution\":\"{SOLUTION}\",\"guesses\":7,\"micros\":12.345}}\n\
                 {{\"file\":\"in.txt\",\"line\":4,\"puzzle\":\"{PUZZLE}\",\"status\":\"unsolvable\",\"solution\":null,\"guesses\":7,\"micros\":12.345}}\n"
            )
        );
        for line in text.lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(v.as_object().unwrap().len(), 7);
        }
    }

    #[test]
    fn leaves_timings_out_when_asked() {
        let items = [(record(1, PUZZLE), answer(Status::Multiple))];
        let text = render(OutputFormat::Jsonl, None, true, &items);
        assert!(text.ends_with(&format!(
            "\"status\":\"multiple\",\"solution\":\"{SOLUTION}\",\"guesses\":7,\"micros\":null}}\n"
        )));
    }

    #[test]
    fn escapes_strange_text_in_the_puzzle() {
        let items = [(record(9, "a\"b\\c\td\u{1}é"), answer(Status::Malformed))];
        let text = render(OutputFormat::Jsonl, None, false, &items);
        assert_eq!(
            text,
            "{\"file\":\"in.txt\",\"line\":9,\"puzzle\":\"a\\\"b\\\\c\\td\\u0001é\",\"status\":\"malformed\",\"solution\":null,\"guesses\":0,\"micros\":0.000}\n"
        );
        let v: serde_json::Value = serde_json::from_str(text.trim_end()).unwrap();
        assert_eq!(v["puzzle"], "a\"b\\c\td\u{1}é");
    }
}
