//! The writers of `canon`: per record its status (`ok`, or `malformed`), its minlex form
//! ([`crate::canon`]) as 81 digits, the form's 64-bit hash as 16 hex digits, and with
//! `--transform` the transform that maps the puzzle to its form (text form of
//! [`crate::transform::Transform`]).
//!
//! - `line`: `FORM HASH` (then ` TRANSFORM`), or `malformed`.
//! - `csv`: the input columns (for line and grid input, `puzzle` and the fields kept of a line),
//!   then `status`, `canonical`, `hash` (then `transform`; in pipe mode `reason`), renamed where
//!   they clash with an input column as in `solve`'s CSV.
//! - `jsonl`: `file`, `line`, `puzzle`, the fields kept of a line, `status`, `canonical`, `hash`
//!   (null for a malformed record), then `transform` and in pipe mode `reason` when asked.
//! - `grid`: `# HASH` (and ` TRANSFORM`) then the form's 9 rows, or `malformed`; a blank line
//!   between records.

use super::csv::{Appended, CsvFormat, CsvRow};
use super::{Format, OutputFormat, OutputOptions, push_json_str, push_u64};
use crate::canon::{self, Canonical};
use crate::input::Record;

/// What `canon` gives a record: the form and its transform, or `None` when it is malformed.
pub type CanonAnswer = Option<Canonical>;

/// What the formats write besides the form and hash.
#[derive(Debug, Clone, Copy, Default)]
pub struct CanonColumns {
    /// The transform that maps the puzzle to its form.
    pub transform: bool,
}

/// The formatter of `canon` for `format` (`Auto` taken as `Line`). `header` is the CSV input
/// header, if any.
pub fn canon_formatter(
    format: OutputFormat,
    header: Option<&[String]>,
    options: &OutputOptions,
    columns: CanonColumns,
) -> Box<dyn Format<CanonAnswer>> {
    let pipe = options.pipe;
    match format {
        OutputFormat::Auto | OutputFormat::Line => {
            super::with_kept(Box::new(Line(columns)), options, false)
        }
        OutputFormat::Grid => super::with_kept(Box::new(GridCanon(columns)), options, true),
        OutputFormat::Csv => Box::new(CsvFormat::with_columns(
            header,
            options,
            CsvCanon { columns, pipe },
        )),
        OutputFormat::Jsonl => Box::new(JsonlCanon {
            names: options.names.clone(),
            echo: options.echo.clone(),
            columns,
            pipe,
        }),
    }
}

/// 16 lowercase hex digits.
fn push_hash(out: &mut Vec<u8>, hash: u64) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    for shift in (0..16).rev() {
        out.push(HEX[(hash >> (shift * 4)) as usize & 0xF]);
    }
}

/// The form's 81 digits.
fn push_form(out: &mut Vec<u8>, c: &Canonical) {
    out.extend_from_slice(&c.grid.to_line(b'0'));
}

const MALFORMED: &[u8] = b"malformed";

struct Line(CanonColumns);

impl Format<CanonAnswer> for Line {
    fn record(&self, _record: &Record, answer: &CanonAnswer, _first: bool, out: &mut Vec<u8>) {
        match answer {
            Some(c) => {
                push_form(out, c);
                out.push(b' ');
                push_hash(out, canon::hash(&c.grid));
                if self.0.transform {
                    out.push(b' ');
                    out.extend_from_slice(c.transform.to_string().as_bytes());
                }
            }
            None => out.extend_from_slice(MALFORMED),
        }
        out.push(b'\n');
    }
}

struct GridCanon(CanonColumns);

impl Format<CanonAnswer> for GridCanon {
    fn record(&self, _record: &Record, answer: &CanonAnswer, first: bool, out: &mut Vec<u8>) {
        if !first {
            out.push(b'\n');
        }
        match answer {
            Some(c) => {
                out.extend_from_slice(b"# ");
                push_hash(out, canon::hash(&c.grid));
                if self.0.transform {
                    out.push(b' ');
                    out.extend_from_slice(c.transform.to_string().as_bytes());
                }
                out.push(b'\n');
                c.grid.write_rows(out);
            }
            None => {
                out.extend_from_slice(MALFORMED);
                out.push(b'\n');
            }
        }
    }
}

struct CsvCanon {
    columns: CanonColumns,
    /// The malformed reason too (pipe mode).
    pipe: bool,
}

impl Appended<CanonAnswer> for CsvCanon {
    fn names(&self) -> &'static [&'static str] {
        match (self.columns.transform, self.pipe) {
            (false, false) => &["status", "canonical", "hash"],
            (true, false) => &["status", "canonical", "hash", "transform"],
            (false, true) => &["status", "canonical", "hash", "reason"],
            (true, true) => &["status", "canonical", "hash", "transform", "reason"],
        }
    }

    fn write(&self, row: &mut CsvRow<'_>, record: &Record, answer: &CanonAnswer) {
        // status words, digits, hex and transforms never need quotes
        row.plain_field(|out| out.extend_from_slice(status(answer)));
        row.plain_field(|out| {
            if let Some(c) = answer {
                push_form(out, c);
            }
        });
        row.plain_field(|out| {
            if let Some(c) = answer {
                push_hash(out, canon::hash(&c.grid));
            }
        });
        if self.columns.transform {
            row.plain_field(|out| {
                if let Some(c) = answer {
                    out.extend_from_slice(c.transform.to_string().as_bytes());
                }
            });
        }
        if self.pipe {
            row.field(record.puzzle.as_ref().err().map_or("", String::as_str));
        }
    }
}

fn status(answer: &CanonAnswer) -> &'static [u8] {
    match answer {
        Some(_) => b"ok",
        None => MALFORMED,
    }
}

struct JsonlCanon {
    names: Vec<String>,
    /// The names of the fields kept of a line of line input.
    echo: Vec<String>,
    columns: CanonColumns,
    /// The malformed reason too (pipe mode).
    pipe: bool,
}

impl Format<CanonAnswer> for JsonlCanon {
    fn record(&self, record: &Record, answer: &CanonAnswer, _first: bool, l: &mut Vec<u8>) {
        l.extend_from_slice(b"{\"file\":");
        let name = self.names.get(record.source as usize);
        push_json_str(l, name.map_or("<unknown input>", String::as_str));
        l.extend_from_slice(b",\"line\":");
        push_u64(l, record.line);
        l.extend_from_slice(b",\"puzzle\":");
        push_json_str(l, &record.cells);
        for (i, key) in self.echo.iter().enumerate() {
            l.push(b',');
            push_json_str(l, key);
            l.push(b':');
            push_json_str(l, record.fields.get(i).unwrap_or(""));
        }
        l.extend_from_slice(b",\"status\":\"");
        l.extend_from_slice(status(answer));
        l.extend_from_slice(b"\",\"canonical\":");
        let quoted = |l: &mut Vec<u8>, write: &dyn Fn(&mut Vec<u8>, &Canonical)| match answer {
            Some(c) => {
                l.push(b'"');
                write(l, c);
                l.push(b'"');
            }
            None => l.extend_from_slice(b"null"),
        };
        quoted(l, &push_form);
        l.extend_from_slice(b",\"hash\":");
        quoted(l, &|l, c| push_hash(l, canon::hash(&c.grid)));
        if self.columns.transform {
            l.extend_from_slice(b",\"transform\":");
            quoted(l, &|l, c| {
                l.extend_from_slice(c.transform.to_string().as_bytes())
            });
        }
        if self.pipe {
            l.extend_from_slice(b",\"reason\":");
            match &record.puzzle {
                Err(reason) => push_json_str(l, reason),
                Ok(_) => l.extend_from_slice(b"null"),
            }
        }
        l.extend_from_slice(b"}\n");
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{PUZZLE, record};
    use super::*;

    fn render(format: OutputFormat, options: &OutputOptions, transform: bool) -> String {
        let f = canon_formatter(format, None, options, CanonColumns { transform });
        let good = record(3, PUZZLE);
        let mut bad = record(4, "12x");
        bad.puzzle = Err("has 3 cells".to_string());
        let mut out = Vec::new();
        f.header(&mut out);
        f.record(
            &good,
            &Some(canon::canonical(&PUZZLE.parse().unwrap())),
            true,
            &mut out,
        );
        f.record(&bad, &None, false, &mut out);
        String::from_utf8(out).unwrap()
    }

    fn form_and_hash() -> (String, String) {
        let c = canon::canonical(&PUZZLE.parse().unwrap());
        let form = String::from_utf8(c.grid.to_line(b'0').to_vec()).unwrap();
        (form, format!("{:016x}", canon::hash(&c.grid)))
    }

    #[test]
    fn line_gives_form_and_hash_or_the_status() {
        let (form, hash) = form_and_hash();
        let text = render(OutputFormat::Line, &OutputOptions::default(), false);
        assert_eq!(text, format!("{form} {hash}\nmalformed\n"));
        let with = render(OutputFormat::Line, &OutputOptions::default(), true);
        let first = with.lines().next().unwrap();
        let t = first.split(' ').nth(2).unwrap();
        let transform: crate::transform::Transform = t.parse().unwrap();
        assert_eq!(
            transform.apply(&PUZZLE.parse().unwrap()).to_line(b'0'),
            form.as_bytes()
        );
    }

    #[test]
    fn csv_and_jsonl_carry_status_form_hash_and_reason() {
        let (form, hash) = form_and_hash();
        let csv = render(OutputFormat::Csv, &OutputOptions::default(), false);
        assert_eq!(
            csv,
            format!("puzzle,status,canonical,hash\n{PUZZLE},ok,{form},{hash}\n12x,malformed,,\n")
        );
        let pipe = OutputOptions {
            pipe: true,
            names: vec!["in.txt".into()],
            ..OutputOptions::default()
        };
        let csv = render(OutputFormat::Csv, &pipe, false);
        assert!(csv.ends_with("12x,malformed,,,has 3 cells\n"), "{csv}");
        let jsonl = render(OutputFormat::Jsonl, &pipe, true);
        let rows: Vec<serde_json::Value> = jsonl
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(rows[0]["file"], "in.txt");
        assert_eq!(rows[0]["line"], 3);
        assert_eq!(rows[0]["status"], "ok");
        assert_eq!(rows[0]["canonical"], form.as_str());
        assert_eq!(rows[0]["hash"], hash.as_str());
        assert!(rows[0]["transform"].as_str().unwrap().contains('D'));
        assert_eq!(rows[0]["reason"], serde_json::Value::Null);
        assert_eq!(rows[1]["status"], "malformed");
        assert_eq!(rows[1]["canonical"], serde_json::Value::Null);
        assert_eq!(rows[1]["reason"], "has 3 cells");
    }

    #[test]
    fn grid_gives_the_hash_as_a_comment_then_the_rows() {
        let (form, hash) = form_and_hash();
        let text = render(OutputFormat::Grid, &OutputOptions::default(), false);
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some(format!("# {hash}").as_str()));
        let rows: String = lines.by_ref().take(9).collect::<Vec<_>>().join(" ");
        assert_eq!(rows.replace(' ', ""), form);
        assert_eq!(lines.collect::<Vec<_>>(), ["", "malformed"]);
    }
}
