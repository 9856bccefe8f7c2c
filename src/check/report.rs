//! The `--report` file of a check run: every finding (each problem record, and with `--minimal`
//! each unique puzzle with redundant givens) and the totals, as JSON, CSV or Markdown; one writer per
//! format behind the [`Report`] trait.
//!
//! Reports are written as the run goes, findings first and totals last, so memory does not grow
//! with the number of findings. They hold no times, so the same input gives the same bytes.
//!
//! - JSON: `{"findings":[{"file","line","verdict","detail","puzzle"},...],"totals":{...}}`, one
//!   finding a line; `totals` as [`Totals`] serialises.
//! - CSV: the findings only, columns `file,line,verdict,detail,puzzle` (the totals are in the
//!   other formats and on stderr).
//! - Markdown: a findings table, then a totals table and the problem and minimality counts (and
//!   with `--rate` a table of ratings by band).

use std::io::{self, BufWriter, Write};
use std::path::Path;

use serde::Serialize;

use super::{DatasetStats, Totals, Verdict};
use crate::input::csv_io_error;
use crate::ratings::Tenths;
use crate::report::markdown_cell as cell;

/// Layout of a report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportFormat {
    /// One JSON object.
    Json,
    /// A CSV table of the findings.
    Csv,
    /// Markdown tables.
    Markdown,
    /// SVG bar charts of the dataset's givens and guesses.
    Svg,
}

impl ReportFormat {
    /// The format a file's extension names: `.json`, `.csv`, `.md` or `.markdown` (any case).
    pub fn from_path(path: &Path) -> Option<ReportFormat> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "json" => Some(ReportFormat::Json),
            "csv" => Some(ReportFormat::Csv),
            "md" | "markdown" => Some(ReportFormat::Markdown),
            "svg" => Some(ReportFormat::Svg),
            _ => None,
        }
    }
}

/// One record worth listing.
#[derive(Debug, Clone, Serialize)]
pub struct Finding<'a> {
    /// Input name (`<stdin>` for stdin).
    pub file: &'a str,
    /// 1-based line where the record starts.
    pub line: u64,
    /// The verdict.
    pub verdict: Verdict,
    /// Why (see [`super::Check::detail`]).
    pub detail: &'a str,
    /// The puzzle cells as read (for a malformed record, what was read).
    pub puzzle: &'a str,
}

/// Receives the findings in input order, then the totals.
pub trait Report {
    /// Writes one finding.
    fn finding(&mut self, finding: &Finding<'_>) -> io::Result<()>;
    /// Writes the totals and anything pending, and flushes.
    fn finish(&mut self, totals: &Totals) -> io::Result<()>;
    /// Writes the findings so far out whole (a part of the report ends here).
    fn flush(&mut self) -> io::Result<()>;
}

/// The report writer for `format`, writing to `out` (buffered inside).
pub fn report<'a>(
    format: ReportFormat,
    out: Box<dyn Write + Send + 'a>,
) -> Box<dyn Report + Send + 'a> {
    let out = BufWriter::new(out);
    match format {
        ReportFormat::Json => Box::new(Json { out, count: 0 }),
        ReportFormat::Csv => Box::new(Csv {
            out: ::csv::Writer::from_writer(out),
            header_written: false,
        }),
        ReportFormat::Markdown => Box::new(Markdown { out, count: 0 }),
        ReportFormat::Svg => Box::new(Svg { out }),
    }
}

struct Json<W: Write> {
    out: W,
    count: u64,
}

impl<W: Write> Report for Json<W> {
    fn finding(&mut self, finding: &Finding<'_>) -> io::Result<()> {
        let start: &[u8] = if self.count == 0 {
            b"{\"findings\":[\n"
        } else {
            b",\n"
        };
        self.count += 1;
        self.out.write_all(start)?;
        serde_json::to_writer(&mut self.out, finding).map_err(io::Error::from)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    fn finish(&mut self, totals: &Totals) -> io::Result<()> {
        let end: &[u8] = if self.count == 0 {
            b"{\"findings\":[],\n\"totals\":"
        } else {
            b"\n],\n\"totals\":"
        };
        self.out.write_all(end)?;
        serde_json::to_writer(&mut self.out, totals).map_err(io::Error::from)?;
        self.out.write_all(b"}\n")?;
        self.out.flush()
    }
}

struct Csv<W: Write> {
    out: ::csv::Writer<W>,
    header_written: bool,
}

impl<W: Write> Csv<W> {
    fn header(&mut self) -> io::Result<()> {
        if !std::mem::replace(&mut self.header_written, true) {
            let header = ["file", "line", "verdict", "detail", "puzzle"];
            self.out.write_record(header).map_err(csv_io_error)?;
        }
        Ok(())
    }
}

impl<W: Write> Report for Csv<W> {
    fn finding(&mut self, f: &Finding<'_>) -> io::Result<()> {
        self.header()?;
        let line = f.line.to_string();
        let row = [f.file, &line, f.verdict.as_str(), f.detail, f.puzzle];
        self.out.write_record(row).map_err(csv_io_error)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    fn finish(&mut self, _totals: &Totals) -> io::Result<()> {
        self.header()?;
        self.out.flush()
    }
}

struct Markdown<W: Write> {
    out: W,
    count: u64,
}

impl<W: Write> Report for Markdown<W> {
    fn finding(&mut self, f: &Finding<'_>) -> io::Result<()> {
        if self.count == 0 {
            self.out.write_all(
                b"# sudoku-batch check\n\n## Findings\n\n\
                  | file | line | verdict | detail |\n|---|---:|---|---|\n",
            )?;
        }
        self.count += 1;
        writeln!(
            self.out,
            "| {} | {} | {} | {} |",
            cell(f.file),
            f.line,
            f.verdict,
            cell(f.detail)
        )
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    fn finish(&mut self, totals: &Totals) -> io::Result<()> {
        if self.count == 0 {
            self.out
                .write_all(b"# sudoku-batch check\n\n## Findings\n\nNone.\n")?;
        }
        self.out
            .write_all(b"\n## Totals\n\n| verdict | records |\n|---|---:|\n")?;
        for (verdict, n) in totals.verdicts.iter() {
            writeln!(self.out, "| {verdict} | {n} |")?;
        }
        writeln!(self.out, "| all | {} |", totals.records)?;
        writeln!(
            self.out,
            "\nProblems: {} of {} records.",
            totals.problems, totals.records
        )?;
        if let Some(m) = &totals.minimal {
            writeln!(
                self.out,
                "\nMinimal: {} of {} puzzles with one solution; {} not minimal, with {} redundant \
                 givens in all.",
                m.minimal, m.checked, m.not_minimal, m.redundant_givens
            )?;
        }
        dataset_tables(&mut self.out, &totals.stats)?;
        if let Some(r) = &totals.ratings {
            self.out.write_all(
                b"\n## Ratings (Sudoku Explainer's ER)\n\n| ER | puzzles |\n|---|---:|\n",
            )?;
            for (band, n) in [
                ("below 6.5", r.below_6_5),
                ("6.5 to 7.9", r.from_6_5_to_7_9),
                ("8.0 and up", r.from_8_0),
                (
                    "not rated exactly (stuck with every technique: 9.5 or above)",
                    r.nested,
                ),
            ] {
                writeln!(self.out, "| {band} | {n} |")?;
            }
            if let Some(bound) = totals.max_er {
                let (bound, n) = (Tenths(bound), r.above_max_er);
                writeln!(
                    self.out,
                    "| above {bound} (--max-er; not rated exactly) | {n} |"
                )?;
            }
            writeln!(self.out, "| all rated | {} |", r.rated)?;
            if let Some(h) = &r.hardest {
                let (er, name) = (Tenths(h.er), cell(&h.technique));
                let exact = match r.above_max_er + r.nested {
                    0 => "",
                    _ => " rated exactly",
                };
                writeln!(self.out, "\nHardest{exact}: {er} ({name}).")?;
            }
        }
        if let Some(interruption) = &totals.interrupted {
            let what = cell(&interruption.to_string());
            writeln!(self.out, "\n**Incomplete:** {what}.")?;
        }
        self.out.flush()
    }
}

/// `s` for any count but 1.
fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// A guess bucket as text: `0`, `1`, `2-3`, ...
fn guess_range(min: u64, max: u64) -> String {
    if min == max {
        min.to_string()
    } else {
        format!("{min}-{max}")
    }
}

/// The Markdown report's dataset section: givens, guesses and duplicate classes.
fn dataset_tables(out: &mut impl Write, stats: &DatasetStats) -> io::Result<()> {
    if stats.givens().next().is_none() && stats.distinct.is_none() {
        return Ok(()); // no well-formed puzzle: nothing to describe
    }
    out.write_all(b"\n## Dataset\n\n| givens | puzzles |\n|---:|---:|\n")?;
    for (givens, n) in stats.givens() {
        writeln!(out, "| {givens} | {n} |")?;
    }
    if stats.guesses().next().is_some() {
        out.write_all(b"\n| guesses (uniqueness search) | puzzles |\n|---:|---:|\n")?;
        for (min, max, n) in stats.guesses() {
            writeln!(out, "| {} | {n} |", guess_range(min, max))?;
        }
    }
    if let Some(distinct) = stats.distinct {
        writeln!(out, "\nDistinct puzzles: {distinct}.")?;
        if !stats.duplicate_classes.is_empty() {
            out.write_all(b"\n| records in a class of duplicates | classes |\n|---:|---:|\n")?;
            for (size, n) in &stats.duplicate_classes {
                writeln!(out, "| {size} | {n} |")?;
            }
        }
    }
    Ok(())
}

/// The SVG report: bar charts of the givens and the guesses of the dataset's puzzles (the
/// findings are in the other formats).
struct Svg<W: Write> {
    out: W,
}

impl<W: Write> Report for Svg<W> {
    fn finding(&mut self, _finding: &Finding<'_>) -> io::Result<()> {
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    fn finish(&mut self, totals: &Totals) -> io::Result<()> {
        // every count from the least to the most that occurs, so the axis has no silent gaps
        let stats = &totals.stats;
        let present = |counts: &[u64]| {
            let first = counts.iter().position(|&n| n > 0);
            let last = counts.iter().rposition(|&n| n > 0);
            first.zip(last).map_or(0..0, |(a, b)| a..b + 1)
        };
        let givens: Vec<(String, u64)> = present(&stats.givens)
            .map(|g| (g.to_string(), stats.givens[g]))
            .collect();
        let guesses: Vec<(String, u64)> = present(&stats.guesses)
            .map(|k| {
                let (min, max) = super::guess_bucket_range(k);
                (guess_range(min, max), stats.guesses[k])
            })
            .collect();
        let puzzles: u64 = stats.givens.iter().sum();
        let searched: u64 = stats.guesses.iter().sum();
        let (width, height) = (760, 640);
        writeln!(
            self.out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
             viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\" font-size=\"11\">"
        )?;
        writeln!(
            self.out,
            "<rect width=\"{width}\" height=\"{height}\" fill=\"white\"/>"
        )?;
        // the two charts count different records, and say which; a run stopped early says so
        // first (the chart alone looked like a whole dataset's)
        let note = match &totals.interrupted {
            Some(stop) => format!(
                "INCOMPLETE, the run stopped early ({}); malformed records are not counted",
                match (&stop.file, stop.line) {
                    (Some(file), Some(line)) => format!("records up to {file}:{line}"),
                    _ => "no record".to_string(),
                }
            ),
            None => "malformed records are not counted".to_string(),
        };
        bars(
            &mut self.out,
            0,
            (
                &format!(
                    "Givens per puzzle: {puzzles} well-formed puzzle{} of {} records",
                    plural(puzzles),
                    totals.records
                ),
                &note,
            ),
            "givens",
            &givens,
        )?;
        bars(
            &mut self.out,
            320,
            (
                &format!(
                    "Guesses of the uniqueness search: {searched} puzzle{} searched",
                    plural(searched)
                ),
                "difficulty for the solver; duplicates, contradictions and malformed records are \
                 not searched",
            ),
            "guesses",
            &guesses,
        )?;
        self.out.write_all(b"</svg>\n")?;
        self.out.flush()
    }
}

/// One bar chart, 300 pixels high from `top`: its title and a note on what it counts, a bar per
/// `(label, count)`, labels below.
fn bars(
    out: &mut impl Write,
    top: u32,
    (title, note): (&str, &str),
    axis: &str,
    data: &[(String, u64)],
) -> io::Result<()> {
    let (left, plot_width, plot_height) = (60.0, 680.0, 210.0);
    let base = f64::from(top) + 50.0 + plot_height;
    writeln!(
        out,
        "<text x=\"380\" y=\"{}\" text-anchor=\"middle\" font-size=\"14\">{}</text>",
        top + 20,
        xml(title)
    )?;
    writeln!(
        out,
        "<text x=\"380\" y=\"{}\" text-anchor=\"middle\" font-size=\"11\" \
         fill=\"#555\">{}</text>",
        top + 36,
        xml(note)
    )?;
    writeln!(
        out,
        "<line x1=\"{left}\" y1=\"{base}\" x2=\"{}\" y2=\"{base}\" stroke=\"black\"/>",
        left + plot_width
    )?;
    let most = data.iter().map(|d| d.1).max().unwrap_or(0).max(1);
    writeln!(
        out,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{most}</text>",
        left - 4.0,
        base - plot_height + 4.0
    )?;
    let step = plot_width / data.len().max(1) as f64;
    // a label every `every` bars, so that neighbours never run together (7 px a character at
    // this font size, and a gap); every bar still names its value in its tooltip
    let widest = data.iter().map(|d| d.0.chars().count()).max().unwrap_or(1);
    let every = ((widest as f64 * 7.0 + 6.0) / step).ceil().max(1.0) as usize;
    for (i, (label, n)) in data.iter().enumerate() {
        let h = plot_height * *n as f64 / most as f64;
        let x = left + step * i as f64;
        writeln!(
            out,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{h:.1}\" fill=\"#4878a8\">\
             <title>{} {axis}: {n}</title></rect>",
            x + step * 0.1,
            base - h,
            step * 0.8,
            xml(label)
        )?;
        if i % every == 0 {
            writeln!(
                out,
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
                x + step / 2.0,
                base + 14.0,
                xml(label)
            )?;
        }
    }
    writeln!(
        out,
        "<text x=\"380\" y=\"{:.1}\" text-anchor=\"middle\">{axis}</text>",
        base + 32.0
    )
}

/// Text escaped for SVG.
fn xml(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::super::{Check, Tally};
    use super::*;
    use crate::input::Record;

    fn findings() -> Vec<Finding<'static>> {
        vec![
            Finding {
                file: "a|b.txt",
                line: 3,
                verdict: Verdict::Contradiction,
                detail: "digit 5 twice in row 1 (r1c1 and r1c6)",
                puzzle: "55",
            },
            Finding {
                file: "a|b.txt",
                line: 4,
                verdict: Verdict::Malformed,
                detail: "invalid character '|' at cell 2 (r1c2), \"quoted\"\nnext <b>",
                puzzle: "1|,",
            },
        ]
    }

    fn totals() -> Totals {
        let mut t = Tally::default();
        let record = Record {
            source: 0,
            line: 1,
            fields: Default::default(),
            cells: String::new(),
            puzzle: Err(String::new()),
            solution: None,
            above: String::new(),
        };
        for verdict in [Verdict::Unique, Verdict::Contradiction, Verdict::Malformed] {
            t.add(
                &record,
                &Check {
                    verdict,
                    detail: None,
                    solution: None,
                    redundant: None,
                    guesses: None,
                    rating: None,
                },
            );
        }
        t.totals(&crate::check::Options::default())
    }

    fn render(format: ReportFormat, findings: &[Finding<'_>]) -> String {
        let mut out = Vec::new();
        {
            let mut r = report(format, Box::new(&mut out));
            for f in findings {
                r.finding(f).unwrap();
            }
            r.finish(&totals()).unwrap();
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn tells_the_format_from_the_extension() {
        let of = |p: &str| ReportFormat::from_path(Path::new(p));
        assert_eq!(of("r.json"), Some(ReportFormat::Json));
        assert_eq!(of("dir/R.CSV"), Some(ReportFormat::Csv));
        assert_eq!(of("r.md"), Some(ReportFormat::Markdown));
        assert_eq!(of("r.markdown"), Some(ReportFormat::Markdown));
        assert_eq!(of("r.txt"), None);
        assert_eq!(of("report"), None);
    }

    #[test]
    fn json_report_parses_and_holds_findings_then_totals() {
        for findings in [findings(), vec![]] {
            let text = render(ReportFormat::Json, &findings);
            let v: serde_json::Value = serde_json::from_str(&text).unwrap();
            assert_eq!(v["findings"].as_array().unwrap().len(), findings.len());
            assert_eq!(v["totals"]["records"], 3);
            assert_eq!(v["totals"]["verdicts"]["contradiction"], 1);
            assert!(text.ends_with("}\n"));
        }
        let text = render(ReportFormat::Json, &findings());
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            v["findings"][1],
            serde_json::json!({
                "file": "a|b.txt", "line": 4, "verdict": "malformed",
                "detail": "invalid character '|' at cell 2 (r1c2), \"quoted\"\nnext <b>",
                "puzzle": "1|,"
            })
        );
    }

    #[test]
    fn csv_report_is_a_table_of_findings() {
        assert_eq!(
            render(ReportFormat::Csv, &findings()),
            "file,line,verdict,detail,puzzle\n\
             a|b.txt,3,contradiction,digit 5 twice in row 1 (r1c1 and r1c6),55\n\
             a|b.txt,4,malformed,\"invalid character '|' at cell 2 (r1c2), \"\"quoted\"\"\nnext <b>\",\"1|,\"\n"
        );
        assert_eq!(
            render(ReportFormat::Csv, &[]),
            "file,line,verdict,detail,puzzle\n"
        );
    }

    #[test]
    fn markdown_report_escapes_cells() {
        let text = render(ReportFormat::Markdown, &findings());
        assert_eq!(
            text,
            "# sudoku-batch check\n\n## Findings\n\n\
             | file | line | verdict | detail |\n|---|---:|---|---|\n\
             | a\\|b.txt | 3 | contradiction | digit 5 twice in row 1 (r1c1 and r1c6) |\n\
             | a\\|b.txt | 4 | malformed | invalid character '\\|' at cell 2 (r1c2), \"quoted\" next &lt;b> |\n\
             \n## Totals\n\n| verdict | records |\n|---|---:|\n\
             | unique | 1 |\n| multiple | 0 |\n| unsolvable | 0 |\n| contradiction | 1 |\n\
             | malformed | 1 |\n| wrong_solution | 0 |\n| duplicate | 0 |\n| all | 3 |\n\
             \nProblems: 2 of 3 records.\n"
        );
        assert!(render(ReportFormat::Markdown, &[]).contains("## Findings\n\nNone.\n"));
    }
}
