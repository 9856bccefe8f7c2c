//! The writers of `generate`: per record the puzzle first (blanks as `.`), then its solution,
//! its number of givens, the guesses `solve --unique` reports for it, and its place in the
//! stream (`record`, from 1); with [`GenerateColumns::symmetry`], the symmetry its givens were
//! placed with; with [`GenerateColumns::rating`], its ER, EP, ED (one decimal, as `rate` writes
//! them) and in csv and jsonl the hardest technique, last.
//!
//! - `line`: `PUZZLE SOLUTION GIVENS GUESSES [ER EP ED]` (the record number is the line's place
//!   in the stream of a run from record 1, repeats aside: see `generate` in the README).
//! - `csv`: `puzzle,solution,givens,guesses,record,tries[,symmetry][,er,ep,ed,hardest]`.
//! - `jsonl`: `{"puzzle","solution","givens","guesses","record","tries"[,"symmetry"][,"er",
//!   "ep","ed","hardest"]}`.
//!
//! `tries` is the candidate puzzles the record took (see `generate::Options::max_tries`): the
//! cost of its targets.
//! - `grid`: `# RECORD GIVENS GUESSES SOLUTION [SYMMETRY] [ER EP ED]`, then the puzzle's 9 rows of 9 digits
//!   (0 blank), a blank line between records: the grid format `solve -I grid` reads back.

use super::csv::{CsvRow, write_header};
use super::rate::push_tenths;
use super::{Format, OutputFormat, push_json_str, push_u64};
use crate::generate::Generated;
use crate::input::Record;

/// What the formats write besides the fixed columns.
#[derive(Debug, Clone, Copy, Default)]
pub struct GenerateColumns {
    /// The symmetry each puzzle's givens were placed with (asked for with `--symmetry`).
    pub symmetry: bool,
    /// Each puzzle's rating (asked for with `--rating`).
    pub rating: bool,
}

/// ` ER EP ED` (`sep` before each), when the record has a rating.
fn push_rating(out: &mut Vec<u8>, g: &Generated, sep: u8) {
    if let Some(r) = &g.rating {
        for t in [r.er, r.ep, r.ed] {
            out.push(sep);
            push_tenths(out, t);
        }
    }
}

/// The name of the hardest technique, when the record has a rating.
fn hardest(g: &Generated) -> String {
    g.rating
        .and_then(|r| r.hardest)
        .map(|t| t.name())
        .unwrap_or_default()
}

/// The formatter of `generate` for `format` (`Auto` taken as `Line`). Records carry no input,
/// so the [`Record`] handed to [`Format::record`] is not read.
pub fn generate_formatter(
    format: OutputFormat,
    columns: GenerateColumns,
) -> Box<dyn Format<Generated>> {
    match format {
        OutputFormat::Auto | OutputFormat::Line => Box::new(Line),
        OutputFormat::Csv => Box::new(Csv(columns)),
        OutputFormat::Jsonl => Box::new(Jsonl(columns)),
        OutputFormat::Grid => Box::new(GridRows(columns)),
    }
}

struct Line;

impl Format<Generated> for Line {
    fn record(&self, _record: &Record, g: &Generated, _first: bool, out: &mut Vec<u8>) {
        out.extend_from_slice(&g.puzzle.to_line(b'.'));
        out.push(b' ');
        out.extend_from_slice(&g.solution.to_line(b'0'));
        out.push(b' ');
        push_u64(out, u64::from(g.givens));
        out.push(b' ');
        push_u64(out, g.guesses);
        push_rating(out, g, b' ');
        out.push(b'\n');
    }
}

struct Csv(GenerateColumns);

impl Format<Generated> for Csv {
    fn header(&self, out: &mut Vec<u8>) {
        let mut names: Vec<String> = ["puzzle", "solution", "givens", "guesses", "record", "tries"]
            .map(String::from)
            .to_vec();
        if self.0.symmetry {
            names.push("symmetry".to_string());
        }
        if self.0.rating {
            names.extend(["er", "ep", "ed", "hardest"].map(String::from));
        }
        write_header(out, &names, b',', false);
    }

    fn record(&self, _record: &Record, g: &Generated, _first: bool, out: &mut Vec<u8>) {
        // digits, dots, numbers and symmetry names never need quotes
        let mut row = CsvRow::new(out, b',');
        row.plain_field(|o| o.extend_from_slice(&g.puzzle.to_line(b'.')));
        row.plain_field(|o| o.extend_from_slice(&g.solution.to_line(b'0')));
        row.plain_field(|o| push_u64(o, u64::from(g.givens)));
        row.plain_field(|o| push_u64(o, g.guesses));
        row.plain_field(|o| push_u64(o, g.index + 1));
        row.plain_field(|o| push_u64(o, g.tries));
        if self.0.symmetry {
            row.plain_field(|o| o.extend_from_slice(g.symmetry.name().as_bytes()));
        }
        if let (true, Some(r)) = (self.0.rating, &g.rating) {
            for t in [r.er, r.ep, r.ed] {
                row.plain_field(|o| push_tenths(o, t));
            }
            row.field(hardest(g));
        }
        row.end();
    }
}

struct Jsonl(GenerateColumns);

impl Format<Generated> for Jsonl {
    fn record(&self, _record: &Record, g: &Generated, _first: bool, out: &mut Vec<u8>) {
        out.extend_from_slice(b"{\"puzzle\":\"");
        out.extend_from_slice(&g.puzzle.to_line(b'.'));
        out.extend_from_slice(b"\",\"solution\":\"");
        out.extend_from_slice(&g.solution.to_line(b'0'));
        out.extend_from_slice(b"\",\"givens\":");
        push_u64(out, u64::from(g.givens));
        out.extend_from_slice(b",\"guesses\":");
        push_u64(out, g.guesses);
        out.extend_from_slice(b",\"record\":");
        push_u64(out, g.index + 1);
        out.extend_from_slice(b",\"tries\":");
        push_u64(out, g.tries);
        if self.0.symmetry {
            out.extend_from_slice(b",\"symmetry\":\"");
            out.extend_from_slice(g.symmetry.name().as_bytes());
            out.push(b'"');
        }
        if let (true, Some(r)) = (self.0.rating, &g.rating) {
            for (key, t) in [
                (&b",\"er\":"[..], r.er),
                (b",\"ep\":", r.ep),
                (b",\"ed\":", r.ed),
            ] {
                out.extend_from_slice(key);
                push_tenths(out, t);
            }
            out.extend_from_slice(b",\"hardest\":");
            push_json_str(out, &hardest(g));
        }
        out.extend_from_slice(b"}\n");
    }
}

struct GridRows(GenerateColumns);

impl Format<Generated> for GridRows {
    fn record(&self, _record: &Record, g: &Generated, first: bool, out: &mut Vec<u8>) {
        if !first {
            out.push(b'\n');
        }
        out.extend_from_slice(b"# ");
        push_u64(out, g.index + 1);
        out.push(b' ');
        push_u64(out, u64::from(g.givens));
        out.push(b' ');
        push_u64(out, g.guesses);
        out.push(b' ');
        out.extend_from_slice(&g.solution.to_line(b'0'));
        if self.0.symmetry {
            out.push(b' ');
            out.extend_from_slice(g.symmetry.name().as_bytes());
        }
        push_rating(out, g, b' ');
        out.push(b'\n');
        g.puzzle.write_rows(out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::Symmetry;
    use crate::grid::Grid;
    use crate::output::tests::{PUZZLE, SOLUTION};

    fn generated(index: u64) -> Generated {
        Generated {
            index,
            puzzle: PUZZLE.parse().unwrap(),
            solution: SOLUTION.parse().unwrap(),
            givens: 32,
            guesses: 3,
            symmetry: Symmetry::Rot180,
            tries: 1,
            rating: None,
        }
    }

    fn render(format: OutputFormat, columns: GenerateColumns) -> String {
        let f = generate_formatter(format, columns);
        let mut out = Vec::new();
        f.header(&mut out);
        for (i, g) in [generated(0), generated(41)].iter().enumerate() {
            f.record(&Record::empty(), g, i == 0, &mut out);
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn every_format_writes_the_puzzle_first_then_solution_givens_guesses() {
        let plain = GenerateColumns::default();
        assert_eq!(
            render(OutputFormat::Line, plain),
            format!("{PUZZLE} {SOLUTION} 32 3\n").repeat(2)
        );
        assert_eq!(
            render(OutputFormat::Csv, plain),
            format!(
                "puzzle,solution,givens,guesses,record,tries\n{PUZZLE},{SOLUTION},32,3,1,1\n\
                 {PUZZLE},{SOLUTION},32,3,42,1\n"
            )
        );
        let jsonl = render(
            OutputFormat::Jsonl,
            GenerateColumns {
                symmetry: true,
                rating: false,
            },
        );
        let first: serde_json::Value = serde_json::from_str(jsonl.lines().next().unwrap()).unwrap();
        assert_eq!(first["puzzle"], PUZZLE);
        assert_eq!(first["solution"], SOLUTION);
        assert_eq!(
            (first["givens"].as_u64(), first["guesses"].as_u64()),
            (Some(32), Some(3))
        );
        assert_eq!(
            (first["record"].as_u64(), first["symmetry"].as_str()),
            (Some(1), Some("rot180"))
        );
        assert_eq!(first.as_object().unwrap().len(), 7);
        // the keys in this order, the puzzle first
        let line = jsonl.lines().next().unwrap();
        let at = |key: &str| line.find(&format!("\"{key}\":")).unwrap();
        let keys = [
            "puzzle", "solution", "givens", "guesses", "record", "symmetry",
        ];
        assert!(keys.windows(2).all(|w| at(w[0]) < at(w[1])), "{line}");
        assert_eq!(at("puzzle"), 1);
    }

    #[test]
    fn grids_read_back_as_the_puzzles() {
        let text = render(OutputFormat::Grid, GenerateColumns::default());
        assert!(text.starts_with(&format!("# 1 32 3 {SOLUTION}\n0 0 3 0 2 0 6 0 0\n")));
        assert!(text.contains(&format!("\n\n# 42 32 3 {SOLUTION}\n")));
        // the rows, without the comment lines and blank lines, are the puzzle's cells
        let cells: String = text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .flat_map(|l| l.split(' '))
            .collect();
        let puzzle: Grid = PUZZLE.parse().unwrap();
        assert_eq!(
            &cells[..81],
            std::str::from_utf8(&puzzle.to_line(b'0')).unwrap()
        );
    }
}
