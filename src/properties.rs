//! Property tests (proptest) of the promise the whole tool rests on: every input record yields
//! exactly one result, in input order, with the line it starts on, whatever the mix of good and
//! broken records, the thread count and the batch size.
//!
//! Inputs are generated from a model that knows which lines are records: for line input, good,
//! truncated, overlong and garbage lines among blank and comment lines, LF or CRLF ends; for CSV,
//! rows with quoted fields (some spanning lines), short and long rows, `#` rows and blank lines.
//! The reader runs over them through the real pipeline (`pipeline::run`, on a rayon pool) and
//! the sink's view is compared with the model.

use proptest::prelude::*;

use crate::input::{InputFormat, Keep, Reader, ReaderOptions, Record, Source};
use crate::pipeline::{self, Config};

const PUZZLE: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

/// The record cap the tests read with: small, so overlong records are cheap to make.
const CAP: usize = 300;

/// One line of a line-format input, and whether it is a record (and a good one).
#[derive(Debug, Clone)]
enum LineKind {
    Good,
    Truncated(usize),
    Garbage(String),
    Overlong(usize),
    Blank(String),
    Comment(String),
    WithSolution,
}

impl LineKind {
    fn text(&self) -> String {
        match self {
            LineKind::Good => PUZZLE.to_string(),
            LineKind::Truncated(n) => PUZZLE[..*n].to_string(),
            LineKind::Garbage(g) => g.clone(),
            LineKind::Overlong(n) => "7".repeat(CAP + 1 + n),
            LineKind::Blank(spaces) => spaces.clone(),
            LineKind::Comment(c) => format!("#{c}"),
            LineKind::WithSolution => format!("{PUZZLE} {}", &PUZZLE[..80]),
        }
    }

    /// `None` for a line that is no record, else whether the record is a puzzle.
    fn record(&self) -> Option<bool> {
        match self {
            LineKind::Blank(_) | LineKind::Comment(_) => None,
            LineKind::Good | LineKind::WithSolution => Some(true),
            LineKind::Truncated(_) | LineKind::Overlong(_) | LineKind::Garbage(_) => Some(false),
        }
    }
}

fn line_kind() -> impl Strategy<Value = LineKind> {
    prop_oneof![
        4 => Just(LineKind::Good),
        1 => (1usize..81).prop_map(LineKind::Truncated),
        1 => "[a-z0-9 ,;:.]{1,40}"
            .prop_filter("not blank or a comment", |g| {
                !g.trim().is_empty() && !g.trim_start().starts_with('#')
            })
            .prop_map(LineKind::Garbage),
        1 => (0usize..400).prop_map(LineKind::Overlong),
        1 => "[ \t]{0,5}".prop_map(LineKind::Blank),
        1 => "[ -~]{0,30}".prop_map(LineKind::Comment),
        1 => Just(LineKind::WithSolution),
    ]
}

/// Runs the reader over `input` through the pipeline; returns `(line, parsed)` of every record
/// in the order the sink saw them.
fn through_pipeline(
    input: Vec<u8>,
    format: InputFormat,
    threads: usize,
    batch_size: usize,
) -> Vec<(u64, bool)> {
    let options = ReaderOptions {
        format,
        max_record: CAP,
        ..ReaderOptions::default()
    };
    let mut reader = Reader::open(vec![Source::Bytes(input)], &options).expect("open");
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("pool");
    let config = Config {
        batch_size,
        in_flight: 2 * threads + 2,
    };
    let mut seen = Vec::new();
    pipeline::run(
        |max, batch: &mut Vec<Record>| reader.refill_batch(max, batch),
        &pool,
        config,
        |record: &Record| record.puzzle.as_ref().map_or(0, |p| p.cells()[2]),
        |records: &[Record], results: &[u8]| {
            assert_eq!(records.len(), results.len());
            seen.extend(records.iter().map(|r| (r.line, r.puzzle.is_ok())));
            Ok::<(), ()>(())
        },
    )
    .expect("run");
    seen
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn every_line_record_comes_out_once_in_order(
        kinds in proptest::collection::vec(line_kind(), 1..120),
        crlf in any::<bool>(),
        threads in 1usize..4,
        batch_size in 1usize..40,
    ) {
        let end = if crlf { "\r\n" } else { "\n" };
        // a good first line, so the format is told at once
        let mut text = format!("{PUZZLE}{end}");
        let mut want = vec![(1, true)];
        for (i, kind) in kinds.iter().enumerate() {
            text.push_str(&kind.text());
            text.push_str(end);
            if let Some(good) = kind.record() {
                want.push((i as u64 + 2, good));
            }
        }
        let got = through_pipeline(text.into_bytes(), InputFormat::Auto, threads, batch_size);
        prop_assert_eq!(got, want);
    }

    #[test]
    fn every_csv_row_comes_out_once_in_order(
        rows in proptest::collection::vec(
            (0u8..6, "[a-z ]{0,8}", 0usize..3), 1..80),
        threads in 1usize..4,
        batch_size in 1usize..40,
    ) {
        let mut text = "id,puzzle,note\n".to_string();
        let mut line = 2u64;
        let mut want = Vec::new();
        for (kind, note, breaks) in &rows {
            let quoted = format!("\"{}{}\"", note, "\n".repeat(*breaks));
            let (row, record) = match kind {
                // a good row, its note quoted across `breaks` line ends
                0 | 1 => (format!("{line},{PUZZLE},{quoted}"), Some(true)),
                // too few fields
                2 => (format!("{line},{PUZZLE}"), Some(false)),
                // a `#` row is a record, not a comment
                3 => (format!("#{note},x,y"), Some(false)),
                // a blank line
                4 => (String::new(), None),
                // a row longer than the cap
                _ => (format!("{line},{},x", "1".repeat(CAP)), Some(false)),
            };
            if let Some(good) = record {
                want.push((line, good));
            }
            line += 1 + row.matches('\n').count() as u64;
            text.push_str(&row);
            text.push('\n');
        }
        let got = through_pipeline(text.into_bytes(), InputFormat::Csv, threads, batch_size);
        prop_assert_eq!(got, want);
    }
}

/// Every record of `input`, read one at a time.
fn one_by_one(input: &[u8], options: &ReaderOptions) -> Vec<Record> {
    let mut reader = Reader::open(vec![Source::Bytes(input.to_vec())], options).expect("open");
    let mut records = Vec::new();
    while reader.read_batch(7, &mut records).expect("read") > 0 {}
    records
}

/// Every record of `input`, read in blocks of about `size` records' worth of bytes and parsed.
fn in_blocks(input: &[u8], options: &ReaderOptions, size: usize) -> Vec<Record> {
    blocks_of(input, options, size, Keep::default())
}

/// [`in_blocks`], the records of CSV input keeping what `keep` says ([`Reader::keep`]).
fn blocks_of(input: &[u8], options: &ReaderOptions, size: usize, keep: Keep) -> Vec<Record> {
    let mut reader = Reader::open(vec![Source::Bytes(input.to_vec())], options).expect("open");
    reader.keep(keep);
    let mut block = crate::input::Block::default();
    let mut records = Vec::new();
    while reader.read_block(&mut block, size).expect("read") {
        block.parse();
        records.extend_from_slice(block.records());
    }
    records
}

/// Pieces of CSV text that exercise its quoting: quotes opening, doubled and closing fields,
/// quoted line ends, CRs, a BOM in the middle, delimiters, and puzzles.
fn csv_piece() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => Just(PUZZLE.to_string()),
        2 => Just(",".to_string()),
        2 => Just("\n".to_string()),
        2 => Just("\"".to_string()),
        1 => Just("\"\"".to_string()),
        1 => Just("\r\n".to_string()),
        1 => Just("\u{FEFF}".to_string()),
        2 => "[a-z0-9 .]{1,12}",
        1 => Just("x".repeat(50)),
    ]
}

/// CSV rows (after a header) read in blocks of `size` records give the records read one by one.
fn csv_blocks_match_one_by_one(
    pieces: &[String],
    size: usize,
    max: usize,
) -> Result<(), proptest::test_runner::TestCaseError> {
    let text = format!("id,puzzle\n{}", pieces.concat());
    let options = ReaderOptions {
        format: InputFormat::Csv,
        max_record: max,
        ..ReaderOptions::default()
    };
    let want = one_by_one(text.as_bytes(), &options);
    prop_assert_eq!(in_blocks(text.as_bytes(), &options, size), want.clone());
    // records that keep less of their rows: the same puzzles, lines and reasons, and what they
    // keep is what the others hold
    let key = |r: &Record| (r.source, r.line, r.puzzle.clone());
    for (fields, cells) in [(false, false), (true, false), (false, true)] {
        let lean = blocks_of(text.as_bytes(), &options, size, Keep { fields, cells });
        prop_assert_eq!(
            lean.iter().map(key).collect::<Vec<_>>(),
            want.iter().map(key).collect::<Vec<_>>()
        );
        for (a, b) in lean.iter().zip(&want) {
            prop_assert!(!fields || a.fields == b.fields);
            prop_assert!(!cells || a.cells == b.cells);
        }
    }
    Ok(())
}

/// Line input read in blocks of `size` records gives the records read one by one.
fn line_blocks_match_one_by_one(
    text: &str,
    size: usize,
) -> Result<(), proptest::test_runner::TestCaseError> {
    let options = ReaderOptions {
        format: InputFormat::Line,
        max_record: CAP,
        ..ReaderOptions::default()
    };
    let want = one_by_one(text.as_bytes(), &options);
    prop_assert_eq!(in_blocks(text.as_bytes(), &options, size), want);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn csv_read_in_blocks_gives_the_records_read_one_by_one(
        pieces in proptest::collection::vec(csv_piece(), 0..150),
        size in 1usize..6,
        max in 20usize..200,
    ) {
        csv_blocks_match_one_by_one(&pieces, size, max)?;
    }

    #[test]
    fn csv_with_no_quote_read_in_blocks_gives_the_records_read_one_by_one(
        pieces in proptest::collection::vec(
            csv_piece().prop_filter("no quote", |p| !p.contains('"')), 0..150),
        size in 1usize..6,
        max in 20usize..200,
    ) {
        // blocks without a quote are split without the parser: the same records all the same
        csv_blocks_match_one_by_one(&pieces, size, max)?;
    }

    #[test]
    fn lines_read_in_blocks_give_the_records_read_one_by_one(
        kinds in proptest::collection::vec(line_kind(), 0..120),
        size in 1usize..6,
        crlf in any::<bool>(),
        last_lf in any::<bool>(),
    ) {
        let end = if crlf { "\r\n" } else { "\n" };
        let mut text = kinds.iter().map(|k| format!("{}{end}", k.text())).collect::<String>();
        if !last_lf {
            text.push_str(PUZZLE);
        }
        line_blocks_match_one_by_one(&text, size)?;
    }
}

proptest! {
    // big inputs: fewer cases
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn large_line_blocks_read_straight_from_the_stream_give_the_records_read_one_by_one(
        kinds in proptest::collection::vec(line_kind(), 500..2500),
        size in 512usize..1200,
        huge_at in proptest::option::of(0usize..2500),
    ) {
        // blocks of 64 KiB and more are read from the stream into the block, past the buffer;
        // a line longer than a block (no LF in a whole read) goes the buffered way, capped
        let mut lines: Vec<String> = kinds.iter().map(LineKind::text).collect();
        if let Some(at) = huge_at {
            lines.insert(at.min(lines.len()), "x".repeat(300_000));
        }
        let text = lines.iter().map(|l| format!("{l}\n")).collect::<String>();
        line_blocks_match_one_by_one(&text, size)?;
    }

    #[test]
    fn large_csv_blocks_read_straight_from_the_stream_give_the_records_read_one_by_one(
        pieces in proptest::collection::vec(csv_piece(), 8000..20000),
        size in 512usize..1200,
        max in 20usize..200,
    ) {
        csv_blocks_match_one_by_one(&pieces, size, max)?;
    }
}

/// The lines of `text` as an engine counts them: one per LF, and one more for a last line
/// without its LF.
fn lines_of(text: &str) -> u64 {
    let lfs = text.matches('\n').count() as u64;
    lfs + u64::from(!text.is_empty() && !text.ends_with('\n'))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn pipe_mode_gives_one_record_per_line_in_order(
        pieces in proptest::collection::vec(csv_piece(), 0..120),
        csv in any::<bool>(),
        size in 1usize..6,
        max in 20usize..200,
    ) {
        let text = pieces.concat();
        let options = ReaderOptions {
            pipe: true,
            csv_columns: csv.then(|| vec!["id".to_string(), "puzzle".to_string()]),
            max_record: max,
            ..ReaderOptions::default()
        };
        let records = one_by_one(text.as_bytes(), &options);
        let lines: Vec<u64> = records.iter().map(|r| r.line).collect();
        let want: Vec<u64> = (1..=lines_of(&text)).collect();
        prop_assert_eq!(lines, want);
        prop_assert_eq!(in_blocks(text.as_bytes(), &options, size), records);
    }
}
