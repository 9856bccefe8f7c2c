//! The writers of `rate`: per record its status (`unique` for a rated puzzle; `multiple`,
//! `unsolvable`, `contradiction`, `malformed` with no rating), ER, EP and ED with one decimal as
//! Sudoku Explainer prints them (`>X` for a value known only to lie above the `--max-er` bound
//! X), the hardest technique's name, and the rating time.
//!
//! - `line`: `ER EP ED HARDEST` (`7.2 1.2 1.2 Forcing X-Chain`), or the status word.
//! - `csv`: the input columns (for line and grid input, `puzzle` and the fields kept of a line),
//!   then `status`, `er`, `ep`, `ed`, `hardest`, `micros` (in pipe mode `reason`), renamed where
//!   they clash with an input column as in `solve`'s CSV.
//! - `jsonl`: `file`, `line`, `puzzle`, the fields kept of a line, `status`, `er`, `ep`, `ed`
//!   (numbers, or the string `">X"`, or null with no rating), `hardest`, `micros`, in pipe mode
//!   `reason`.
//! - `grid`: `# ER EP ED HARDEST` then the puzzle's 9 rows, or the status word; a blank line
//!   between records.
//!
//! With `--explain` (line and jsonl), each step of the path follows its record: a line
//! `  DIFFICULTY TECHNIQUE: PLACED; REMOVED` (`  7.1 Forcing X-Chain: r4c7<>5`), or a JSON object
//! with `file`, `line`, `step` (from 1), `technique`, `difficulty`, `placed`
//! (`{"cell":"r3c4","digit":2}` or null) and `removed` (`[{"cell":"r2c5","digits":[6]}]`).

use super::csv::{Appended, CsvFormat, CsvRow};
use super::{Format, OutputFormat, OutputOptions, push_json_str, push_micros, push_u64};
use crate::grid::cell_name;
use crate::input::Record;
use crate::rate::board::digits_of;
use crate::rate::{self, End, Hint, RateError, Rating, tenths};
use crate::status::Status;

/// What `rate` gives a record.
#[derive(Debug, Clone, PartialEq)]
pub struct RateAnswer {
    /// `unique` when rated; otherwise why there is no rating.
    pub status: Status,
    /// The rating of a puzzle with one solution.
    pub rating: Option<Rating>,
    /// Time spent rating (and checking the solution count), nanoseconds.
    pub nanos: u64,
}

/// The status of a puzzle that gets no rating: `solve`'s word for why.
impl From<RateError> for Status {
    fn from(e: RateError) -> Status {
        match e {
            RateError::Multiple => Status::Multiple,
            RateError::Unsolvable => Status::Unsolvable,
            RateError::Contradiction => Status::Contradiction,
        }
    }
}

/// What the formats write besides the ratings.
#[derive(Debug, Clone, Copy, Default)]
pub struct RateColumns {
    /// The `--max-er` bound, in tenths, for `>X`.
    pub max_er: Option<u32>,
    /// Each step after its record (line and jsonl).
    pub explain: bool,
}

/// The formatter of `rate` for `format` (`Auto` taken as `Line`). `header` is the CSV input
/// header, if any.
pub fn rate_formatter(
    format: OutputFormat,
    header: Option<&[String]>,
    options: &OutputOptions,
    columns: RateColumns,
) -> Box<dyn Format<RateAnswer>> {
    let pipe = options.pipe;
    match format {
        OutputFormat::Auto | OutputFormat::Line => {
            super::with_kept(Box::new(LineRate(columns)), options, false)
        }
        OutputFormat::Grid => super::with_kept(Box::new(GridRate(columns)), options, true),
        OutputFormat::Csv => Box::new(CsvFormat::with_columns(
            header,
            options,
            CsvRate {
                columns,
                no_timings: options.no_timings,
                pipe,
            },
        )),
        OutputFormat::Jsonl => Box::new(JsonlRate {
            names: options.names.clone(),
            echo: options.echo.clone(),
            columns,
            no_timings: options.no_timings,
            pipe,
        }),
    }
}

/// Appends a difficulty in tenths with one decimal: `72` gives `7.2`.
pub(super) fn push_tenths(out: &mut Vec<u8>, t: u32) {
    push_u64(out, (t / 10) as u64);
    out.push(b'.');
    out.push(b'0' + (t % 10) as u8);
}

/// The three values of a rating, each exact or known only to lie above the bound.
pub fn values(rating: &Rating, max_er: Option<u32>) -> [Result<u32, u32>; 3] {
    // stuck, every technique tried (Explainer's 20.0): at nested chains' 9.5 or above at least
    let (above, bound) = match rating.end {
        End::Above => (true, max_er.unwrap_or(0)),
        End::Stuck => (true, rate::NESTED - 1),
        End::Solved => (false, 0),
    };
    [
        if above {
            Err(bound)
        } else {
            Ok(tenths(rating.er))
        },
        if above && !rating.known_ep {
            Err(bound)
        } else {
            Ok(tenths(rating.ep))
        },
        if above && !rating.known_ed {
            Err(bound)
        } else {
            Ok(tenths(rating.ed))
        },
    ]
}

/// `7.2`, or `>7.0`.
pub(super) fn push_value(out: &mut Vec<u8>, v: Result<u32, u32>) {
    match v {
        Ok(t) => push_tenths(out, t),
        Err(bound) => {
            out.push(b'>');
            push_tenths(out, bound);
        }
    }
}

/// The hardest technique's name, for an exact rating.
pub fn hardest(rating: &Rating) -> Option<String> {
    (rating.end == End::Solved)
        .then(|| rating.hardest.map(|t| t.name()))
        .flatten()
}

/// `ER EP ED HARDEST`.
fn push_summary(out: &mut Vec<u8>, rating: &Rating, max_er: Option<u32>) {
    for (i, v) in values(rating, max_er).into_iter().enumerate() {
        if i > 0 {
            out.push(b' ');
        }
        push_value(out, v);
    }
    if let Some(name) = hardest(rating) {
        out.push(b' ');
        out.extend_from_slice(name.as_bytes());
    }
}

struct LineRate(RateColumns);

impl Format<RateAnswer> for LineRate {
    fn record(&self, _record: &Record, answer: &RateAnswer, _first: bool, out: &mut Vec<u8>) {
        match &answer.rating {
            Some(rating) => {
                push_summary(out, rating, self.0.max_er);
                out.push(b'\n');
                if self.0.explain {
                    for hint in &rating.path {
                        out.extend_from_slice(format!("  {hint}\n").as_bytes());
                    }
                }
            }
            None => {
                out.extend_from_slice(answer.status.as_str().as_bytes());
                out.push(b'\n');
            }
        }
    }
}

struct GridRate(RateColumns);

impl Format<RateAnswer> for GridRate {
    fn record(&self, record: &Record, answer: &RateAnswer, first: bool, out: &mut Vec<u8>) {
        if !first {
            out.push(b'\n');
        }
        match (&answer.rating, &record.puzzle) {
            (Some(rating), Ok(puzzle)) => {
                out.extend_from_slice(b"# ");
                push_summary(out, rating, self.0.max_er);
                out.push(b'\n');
                puzzle.write_rows(out);
            }
            _ => {
                out.extend_from_slice(answer.status.as_str().as_bytes());
                out.push(b'\n');
            }
        }
    }
}

struct CsvRate {
    columns: RateColumns,
    no_timings: bool,
    /// The malformed reason too (pipe mode).
    pipe: bool,
}

impl Appended<RateAnswer> for CsvRate {
    fn names(&self) -> &'static [&'static str] {
        if self.pipe {
            &["status", "er", "ep", "ed", "hardest", "micros", "reason"]
        } else {
            &["status", "er", "ep", "ed", "hardest", "micros"]
        }
    }

    fn write(&self, row: &mut CsvRow<'_>, record: &Record, answer: &RateAnswer) {
        row.plain_field(|out| out.extend_from_slice(answer.status.as_str().as_bytes()));
        match &answer.rating {
            Some(rating) => {
                for v in values(rating, self.columns.max_er) {
                    row.plain_field(|out| push_value(out, v));
                }
                row.field(hardest(rating).unwrap_or_default());
            }
            None => {
                for _ in 0..4 {
                    row.plain_field(|_| {});
                }
            }
        }
        row.plain_field(|out| {
            if !self.no_timings && answer.status != Status::Malformed {
                push_micros(out, answer.nanos);
            }
        });
        if self.pipe {
            row.field(record.puzzle.as_ref().err().map_or("", String::as_str));
        }
    }
}

struct JsonlRate {
    names: Vec<String>,
    /// The names of the fields kept of a line of line input.
    echo: Vec<String>,
    columns: RateColumns,
    no_timings: bool,
    /// The malformed reason too (pipe mode).
    pipe: bool,
}

impl JsonlRate {
    /// `{"file":NAME,"line":N`.
    fn start(&self, record: &Record, l: &mut Vec<u8>) {
        l.extend_from_slice(b"{\"file\":");
        let name = self.names.get(record.source as usize);
        push_json_str(l, name.map_or("<unknown input>", String::as_str));
        l.extend_from_slice(b",\"line\":");
        push_u64(l, record.line);
    }

    fn step(&self, record: &Record, n: usize, hint: &Hint, l: &mut Vec<u8>) {
        self.start(record, l);
        l.extend_from_slice(b",\"step\":");
        push_u64(l, n as u64);
        l.extend_from_slice(b",\"technique\":");
        push_json_str(l, &hint.technique.name());
        l.extend_from_slice(b",\"difficulty\":");
        push_tenths(l, hint.tenths());
        l.extend_from_slice(b",\"placed\":");
        match hint.placement {
            Some((cell, digit)) => {
                l.extend_from_slice(b"{\"cell\":\"");
                l.extend_from_slice(cell_name(cell as usize).as_bytes());
                l.extend_from_slice(b"\",\"digit\":");
                push_u64(l, digit as u64);
                l.push(b'}');
            }
            None => l.extend_from_slice(b"null"),
        }
        l.extend_from_slice(b",\"removed\":[");
        for (i, &(cell, digits)) in hint.eliminations.iter().enumerate() {
            if i > 0 {
                l.push(b',');
            }
            l.extend_from_slice(b"{\"cell\":\"");
            l.extend_from_slice(cell_name(cell as usize).as_bytes());
            l.extend_from_slice(b"\",\"digits\":[");
            for (j, d) in digits_of(digits).enumerate() {
                if j > 0 {
                    l.push(b',');
                }
                push_u64(l, d as u64);
            }
            l.extend_from_slice(b"]}");
        }
        l.extend_from_slice(b"]}\n");
    }
}

impl Format<RateAnswer> for JsonlRate {
    fn record(&self, record: &Record, answer: &RateAnswer, _first: bool, l: &mut Vec<u8>) {
        self.start(record, l);
        l.extend_from_slice(b",\"puzzle\":");
        push_json_str(l, &record.cells);
        for (i, key) in self.echo.iter().enumerate() {
            l.push(b',');
            push_json_str(l, key);
            l.push(b':');
            push_json_str(l, record.fields.get(i).unwrap_or(""));
        }
        l.extend_from_slice(b",\"status\":\"");
        l.extend_from_slice(answer.status.as_str().as_bytes());
        l.push(b'"');
        let rating = answer.rating.as_ref();
        let vals = rating.map(|r| values(r, self.columns.max_er));
        for (i, key) in [&b",\"er\":"[..], b",\"ep\":", b",\"ed\":"]
            .iter()
            .enumerate()
        {
            l.extend_from_slice(key);
            match vals.map(|v| v[i]) {
                Some(Ok(t)) => push_tenths(l, t),
                Some(Err(bound)) => {
                    l.push(b'"');
                    push_value(l, Err(bound));
                    l.push(b'"');
                }
                None => l.extend_from_slice(b"null"),
            }
        }
        l.extend_from_slice(b",\"hardest\":");
        match rating.and_then(hardest) {
            Some(name) => push_json_str(l, &name),
            None => l.extend_from_slice(b"null"),
        }
        l.extend_from_slice(b",\"micros\":");
        if self.no_timings || answer.status == Status::Malformed {
            l.extend_from_slice(b"null");
        } else {
            push_micros(l, answer.nanos);
        }
        if self.pipe {
            l.extend_from_slice(b",\"reason\":");
            match &record.puzzle {
                Err(reason) => push_json_str(l, reason),
                Ok(_) => l.extend_from_slice(b"null"),
            }
        }
        l.extend_from_slice(b"}\n");
        if let (true, Some(rating)) = (self.columns.explain, rating) {
            for (n, hint) in rating.path.iter().enumerate() {
                self.step(record, n + 1, hint, l);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{PUZZLE, record};
    use super::*;
    use crate::rate::{Options, rate};

    fn answers(explain: bool, max_er: Option<u32>) -> (Record, RateAnswer, Record, RateAnswer) {
        let good = record(3, PUZZLE);
        let rating = rate(&PUZZLE.parse().unwrap(), &Options { max_er, explain }).unwrap();
        let a = RateAnswer {
            status: Status::Unique,
            rating: Some(rating),
            nanos: 12_345,
        };
        let mut bad = record(4, "12x");
        bad.puzzle = Err("has 3 cells".to_string());
        let b = RateAnswer {
            status: Status::Malformed,
            rating: None,
            nanos: 0,
        };
        (good, a, bad, b)
    }

    fn render(format: OutputFormat, options: &OutputOptions, columns: RateColumns) -> String {
        let (good, a, bad, b) = answers(columns.explain, columns.max_er);
        let f = rate_formatter(format, None, options, columns);
        let mut out = Vec::new();
        f.header(&mut out);
        f.record(&good, &a, true, &mut out);
        f.record(&bad, &b, false, &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn line_gives_er_ep_ed_and_the_hardest_technique_or_the_status() {
        let text = render(
            OutputFormat::Line,
            &OutputOptions::default(),
            RateColumns::default(),
        );
        let mut lines = text.lines();
        let first: Vec<&str> = lines.next().unwrap().splitn(4, ' ').collect();
        for v in &first[..3] {
            let x: f64 = v.parse().unwrap();
            assert!((1.0..=20.0).contains(&x), "{v}");
            assert_eq!(
                v.split('.').nth(1).map(str::len),
                Some(1),
                "one decimal: {v}"
            );
        }
        assert!(!first[3].is_empty());
        assert_eq!(lines.next(), Some("malformed"));
        assert_eq!(lines.next(), None);
    }

    #[test]
    fn explain_lists_every_step_after_its_record() {
        let columns = RateColumns {
            explain: true,
            max_er: None,
        };
        let (_, a, _, _) = answers(true, None);
        let steps = a.rating.as_ref().unwrap().path.len();
        let text = render(OutputFormat::Line, &OutputOptions::default(), columns);
        assert_eq!(text.lines().count(), 1 + steps + 1);
        assert!(text.lines().nth(1).unwrap().starts_with("  "));
        let jsonl = render(OutputFormat::Jsonl, &OutputOptions::default(), columns);
        let rows: Vec<serde_json::Value> = jsonl
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(rows.len(), 1 + steps + 1);
        assert_eq!(rows[1]["step"], 1);
        // the path places every blank cell once
        let placed = rows[1..=steps]
            .iter()
            .filter(|r| !r["placed"].is_null())
            .count();
        assert_eq!(placed, PUZZLE.bytes().filter(|&b| b == b'.').count());
    }

    #[test]
    fn max_er_writes_the_bound_for_values_above_it() {
        let columns = RateColumns {
            explain: false,
            // the sample puzzle's hardest steps are hidden singles in blocks (1.2)
            max_er: Some(10),
        };
        let jsonl = render(OutputFormat::Jsonl, &OutputOptions::default(), columns);
        let row: serde_json::Value = serde_json::from_str(jsonl.lines().next().unwrap()).unwrap();
        assert_eq!(row["er"], ">1.0");
        assert_eq!(row["hardest"], serde_json::Value::Null);
        let csv = render(OutputFormat::Csv, &OutputOptions::default(), columns);
        assert!(
            csv.starts_with("puzzle,status,er,ep,ed,hardest,micros\n"),
            "{csv}"
        );
        assert!(
            csv.lines().nth(1).unwrap().contains(",unique,>1.0,"),
            "{csv}"
        );
        assert!(csv.ends_with("12x,malformed,,,,,\n"), "{csv}");
    }
}
