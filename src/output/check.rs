//! The writers of `check`'s per-record stream: every record's verdict, in input order.
//!
//! - `jsonl`: one object per record with exactly the keys `file`, `line`, `puzzle` (the cells as
//!   read), `verdict`, `detail` (null for a plain `unique`), `solution` (the only solution as 81
//!   digits, null unless the puzzle has exactly one) and `redundant` (with `--minimal`, the number
//!   of redundant givens of a puzzle with one solution, 0 for a minimal one; else null).
//! - `csv`: the input columns (for line and grid input, one `puzzle` column), then `verdict`,
//!   `detail`, `solution`, `redundant` (empty cells for null), renamed where they clash with an
//!   input column as in `solve`'s CSV.
//!
//! With `rated` (`check --rate`), both end with `er`, `ep`, `ed` and `hardest`, as `rate` writes
//! them (numbers with one decimal, `">9.4"` for a path past what the rater implements, the
//! hardest technique's name), null or empty for a record that is not `unique`.

use std::io::Write;

use serde::Serialize;

use super::csv::{Appended, CsvFormat, CsvRow};
use super::{Format, FormatSink, OutputOptions, Sink};
use crate::check::{Check, Verdict};
use crate::grid::Grid;
use crate::input::{Fields, Record};
use crate::rate::Rating;

use super::rate;

/// Layout of the per-record stream of `check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckFormat {
    /// One JSON object per record.
    Jsonl,
    /// Input columns plus verdict, detail, solution, redundant.
    Csv,
}

/// The columns appended to the input's, before renaming.
const APPENDED: [&str; 4] = ["verdict", "detail", "solution", "redundant"];

/// The columns appended with the ratings (`check --rate`).
const APPENDED_RATED: [&str; 8] = [
    "verdict",
    "detail",
    "solution",
    "redundant",
    "er",
    "ep",
    "ed",
    "hardest",
];

/// The formatter for `format`. `header` is the CSV input header, if any; `options` give the
/// input names (jsonl's `file`) and the CSV delimiter; `rated` adds the rating columns (with
/// the `--max-er` bound in tenths, if any: values above it are written `>X`).
pub fn check_formatter(
    format: CheckFormat,
    header: Option<&[String]>,
    options: &OutputOptions,
    rated: Option<Option<u32>>,
) -> Box<dyn Format<Check>> {
    match format {
        CheckFormat::Jsonl => Box::new(JsonlChecks {
            names: options.names.clone(),
            echo: options.echo.clone(),
            rated,
        }),
        CheckFormat::Csv => Box::new(CsvFormat::with_columns(
            header,
            options,
            CheckColumns { rated },
        )),
    }
}

/// The sink for `format` (see [`check_formatter`]), writing to `out`. Buffered inside;
/// [`Sink::finish`] flushes.
pub fn check_sink<'a>(
    format: CheckFormat,
    out: Box<dyn Write + Send + 'a>,
    header: Option<&[String]>,
    options: &OutputOptions,
) -> Box<dyn Sink<Check> + Send + 'a> {
    Box::new(FormatSink::new(
        check_formatter(format, header, options, None),
        out,
    ))
}

/// The only solution as 81 digits.
fn digits(solution: &Grid) -> [u8; 81] {
    solution.to_line(b'0')
}

struct JsonlChecks {
    names: Vec<String>,
    /// The names of the fields kept of a line of line input.
    echo: Vec<String>,
    /// With the rating keys.
    rated: Option<Option<u32>>,
}

/// The fields kept of a line, as `"NAME": "value"` keys of a record.
struct Echoed<'a> {
    names: &'a [String],
    values: &'a Fields,
}

impl Serialize for Echoed<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.names.len()))?;
        for (i, name) in self.names.iter().enumerate() {
            map.serialize_entry(name, self.values.get(i).unwrap_or(""))?;
        }
        map.end()
    }
}

/// A jsonl record, keys in the documented order.
#[derive(Serialize)]
struct Row<'a> {
    file: &'a str,
    line: u64,
    puzzle: &'a str,
    #[serde(flatten)]
    echo: Echoed<'a>,
    verdict: Verdict,
    detail: Option<&'a str>,
    solution: Option<&'a str>,
    redundant: Option<usize>,
    #[serde(flatten)]
    rating: Option<RatingKeys>,
}

/// The rating keys of a jsonl record (`check --rate`), null for a record not rated.
#[derive(Serialize)]
struct RatingKeys {
    er: Option<serde_json::Value>,
    ep: Option<serde_json::Value>,
    ed: Option<serde_json::Value>,
    hardest: Option<String>,
}

impl RatingKeys {
    fn of(rating: Option<&Rating>, max_er: Option<u32>) -> RatingKeys {
        let vals = rating.map(|r| rate::values(r, max_er));
        let key = |i: usize| {
            vals.map(|v| match v[i] {
                Ok(t) => serde_json::Value::from(f64::from(t) / 10.0),
                Err(_) => {
                    let mut text = Vec::new();
                    rate::push_value(&mut text, v[i]);
                    serde_json::Value::from(String::from_utf8_lossy(&text).into_owned())
                }
            })
        };
        RatingKeys {
            er: key(0),
            ep: key(1),
            ed: key(2),
            hardest: rating.and_then(rate::hardest),
        }
    }
}

impl Format<Check> for JsonlChecks {
    fn record(&self, record: &Record, check: &Check, _first: bool, out: &mut Vec<u8>) {
        let solution = check.solution.as_ref().map(digits);
        let row = Row {
            file: self
                .names
                .get(record.source as usize)
                .map_or("<unknown input>", String::as_str),
            line: record.line,
            puzzle: &record.cells,
            echo: Echoed {
                names: &self.echo,
                values: &record.fields,
            },
            verdict: check.verdict,
            detail: check.detail.as_deref(),
            // digits are ASCII
            solution: solution.as_ref().and_then(|d| std::str::from_utf8(d).ok()),
            redundant: check.redundant.as_ref().map(Vec::len),
            rating: self
                .rated
                .map(|bound| RatingKeys::of(check.rating.as_ref(), bound)),
        };
        // strings and numbers always serialise
        let _ = serde_json::to_writer(&mut *out, &row);
        out.push(b'\n');
    }
}

/// The columns `check` appends: `verdict`, `detail`, `solution`, `redundant`, and when
/// `rated` `er`, `ep`, `ed`, `hardest`.
struct CheckColumns {
    rated: Option<Option<u32>>,
}

impl Appended<Check> for CheckColumns {
    fn names(&self) -> &'static [&'static str] {
        if self.rated.is_some() {
            &APPENDED_RATED
        } else {
            &APPENDED
        }
    }

    fn write(&self, row: &mut CsvRow<'_>, _record: &Record, check: &Check) {
        // verdict words and digits never need quotes; details may
        row.plain_field(|out| out.extend_from_slice(check.verdict.as_str().as_bytes()));
        row.field(check.detail.as_deref().unwrap_or(""));
        row.plain_field(|out| {
            if let Some(solution) = &check.solution {
                out.extend_from_slice(&digits(solution));
            }
        });
        match &check.redundant {
            Some(redundant) => row.field(redundant.len().to_string()),
            None => row.field(""),
        }
        if let Some(bound) = self.rated {
            match &check.rating {
                Some(rating) => {
                    for v in rate::values(rating, bound) {
                        row.plain_field(|out| rate::push_value(out, v));
                    }
                    row.field(rate::hardest(rating).unwrap_or_default());
                }
                None => {
                    for _ in 0..4 {
                        row.plain_field(|_| {});
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{PUZZLE, SOLUTION, record};
    use super::*;

    fn checks() -> Vec<(Record, Check)> {
        let mut csv_row = record(2, PUZZLE);
        csv_row.fields = ["7", PUZZLE, SOLUTION].into_iter().collect();
        let mut short = record(3, "x");
        short.fields = ["8"].into_iter().collect();
        short.source = 1;
        vec![
            (
                csv_row,
                Check {
                    verdict: Verdict::Unique,
                    detail: None,
                    solution: SOLUTION.parse().ok(),
                    redundant: Some(vec![]),
                    guesses: None,
                    rating: None,
                },
            ),
            (
                short,
                Check {
                    verdict: Verdict::Malformed,
                    detail: Some("found 1 cell, expected 81, \"x\"".into()),
                    solution: None,
                    redundant: None,
                    guesses: None,
                    rating: None,
                },
            ),
        ]
    }

    fn render(format: CheckFormat, header: Option<&[String]>) -> String {
        let mut out = Vec::new();
        {
            let options = OutputOptions {
                names: vec!["a.csv".to_string(), "b.csv".to_string()],
                ..OutputOptions::default()
            };
            let mut s = check_sink(format, Box::new(&mut out), header, &options);
            for (r, c) in &checks() {
                s.write(r, c).unwrap();
            }
            s.finish().unwrap();
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn jsonl_has_the_documented_keys_in_order() {
        let text = render(CheckFormat::Jsonl, None);
        assert_eq!(
            text,
            format!(
                "{{\"file\":\"a.csv\",\"line\":2,\"puzzle\":\"{PUZZLE}\",\"verdict\":\"unique\",\"detail\":null,\"solution\":\"{SOLUTION}\",\"redundant\":0}}\n\
                 {{\"file\":\"b.csv\",\"line\":3,\"puzzle\":\"x\",\"verdict\":\"malformed\",\"detail\":\"found 1 cell, expected 81, \\\"x\\\"\",\"solution\":null,\"redundant\":null}}\n"
            )
        );
    }

    #[test]
    fn csv_keeps_input_columns_and_renames_clashes() {
        let header: Vec<String> = ["id", "puzzle", "solution"].map(String::from).into();
        assert_eq!(
            render(CheckFormat::Csv, Some(&header)),
            format!(
                "id,puzzle,solution,verdict,detail,solution_2,redundant\n\
                 7,{PUZZLE},{SOLUTION},unique,,{SOLUTION},0\n\
                 8,,,malformed,\"found 1 cell, expected 81, \"\"x\"\"\",,\n"
            )
        );
        assert_eq!(
            render(CheckFormat::Csv, None).lines().next(),
            Some("puzzle,verdict,detail,solution,redundant")
        );
    }
}
