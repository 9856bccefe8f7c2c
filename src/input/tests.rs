//! Tests of the whole reader: format detection and agreement across inputs, batches, line numbers,
//! byte counts, on the sample data and on small inline inputs.

use std::io::Write;

use super::*;
use crate::grid::Grid;

const PUZZLE: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name)
}

fn options(format: InputFormat) -> ReaderOptions {
    ReaderOptions {
        format,
        column: None,
        ..ReaderOptions::default()
    }
}

/// A reader over in-memory inputs named `in0`, `in1`, ...
fn memory(inputs: &[&[u8]], options: &ReaderOptions) -> Result<Reader, InputError> {
    let origins = inputs.iter().map(|i| Origin::Memory(i.to_vec())).collect();
    let names = (0..inputs.len()).map(|i| format!("in{i}")).collect();
    Reader::with_origins(origins, names, None, options)
}

fn read_all(reader: &mut Reader) -> Vec<Record> {
    let mut out = Vec::new();
    while reader.read_batch(7, &mut out).unwrap() > 0 {}
    out
}

fn open_files(names: &[&str], format: InputFormat) -> (Reader, Vec<Record>) {
    let sources = names.iter().map(|n| Source::Path(data(n))).collect();
    let mut reader = Reader::open(sources, &options(format)).unwrap();
    let records = read_all(&mut reader);
    (reader, records)
}

fn temp_file(content: &[u8]) -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().unwrap();
    f.write_all(content).unwrap();
    f.flush().unwrap();
    f
}

#[test]
fn reads_every_sample_file_with_auto_detection() {
    let cases = [
        ("17clue_300.txt", InputFormat::Line, 300, 5),
        ("hardest_300.txt", InputFormat::Line, 300, 1),
        ("easy_300.txt", InputFormat::Line, 300, 1),
        ("serg_100.txt", InputFormat::Line, 100, 3),
        ("exchange_hard_200.txt", InputFormat::Line, 200, 1),
        ("kaggle_200.csv", InputFormat::Csv, 200, 2),
        ("radcliffe_100.csv", InputFormat::Csv, 103, 2),
        ("baekjoon_example1.in", InputFormat::Grid, 1, 1),
    ];
    for (name, format, count, first_line) in cases {
        let (reader, recs) = open_files(&[name], InputFormat::Auto);
        assert_eq!(reader.format(), format, "{name}");
        assert_eq!(recs.len(), count, "{name}");
        assert_eq!(recs[0].line, first_line, "{name}");
        assert!(recs.iter().all(|r| r.puzzle.is_ok()), "{name}");
        assert!(recs.iter().all(|r| r.cells.len() == 81), "{name}");
        let size = std::fs::metadata(data(name)).unwrap().len();
        assert_eq!(reader.total_bytes(), Some(size), "{name}");
        assert_eq!(reader.bytes_read().load(Ordering::Relaxed), size, "{name}");
    }
}

#[test]
fn reads_the_radcliffe_header_and_fields() {
    let (reader, recs) = open_files(&["radcliffe_100.csv"], InputFormat::Auto);
    assert_eq!(
        reader.header().unwrap(),
        ["puzzle", "solution", "clues", "difficulty", "level"]
    );
    assert_eq!(recs[0].fields.len(), 5);
    assert_eq!(
        &recs[0].fields[4], "Beginner",
        "CRLF is not part of the last field"
    );
    assert_eq!(recs[102].line, 104);
}

#[test]
fn bytes_in_memory_read_like_a_file() {
    let text = std::fs::read(data("kaggle_200.csv")).unwrap();
    let (_, from_file) = open_files(&["kaggle_200.csv"], InputFormat::Auto);
    let mut reader = Reader::open(
        vec![Source::Bytes(text.clone())],
        &options(InputFormat::Auto),
    )
    .unwrap();
    assert_eq!(reader.source_name(0), "<memory>");
    assert_eq!(reader.total_bytes(), Some(text.len() as u64));
    assert_eq!(read_all(&mut reader), from_file);
}

#[test]
fn exchange_lines_give_the_puzzle_field() {
    let (_, recs) = open_files(&["exchange_hard_200.txt"], InputFormat::Auto);
    assert_eq!(
        recs[0].cells,
        "080200400570000100002300000820090005000715000700020041000006700003000018007009050"
    );
    assert!(recs[0].fields.is_empty());
}

#[test]
fn skips_a_bom_at_the_start_of_each_input() {
    let a = format!("\u{FEFF}{PUZZLE}\n");
    let b = format!("\u{FEFF}# c\r\n{PUZZLE}\r\n");
    let mut reader = memory(&[a.as_bytes(), b.as_bytes()], &options(InputFormat::Auto)).unwrap();
    let recs = read_all(&mut reader);
    assert_eq!(recs.len(), 2);
    assert!(recs.iter().all(|r| r.cells == PUZZLE && r.puzzle.is_ok()));
    assert_eq!((recs[1].source, recs[1].line), (1, 2));

    let csv = format!("\u{FEFF}puzzle\n{PUZZLE}\n");
    let mut reader = memory(&[csv.as_bytes()], &options(InputFormat::Auto)).unwrap();
    assert_eq!(reader.format(), InputFormat::Csv);
    assert_eq!(reader.header().unwrap(), ["puzzle"]);
    assert_eq!(read_all(&mut reader)[0].line, 2);
}

#[test]
fn batches_cross_input_boundaries() {
    let a = temp_file(format!("{PUZZLE}\n{PUZZLE}\n").as_bytes());
    let b = temp_file(format!("# c\n{PUZZLE}\nbad\n{PUZZLE}\n").as_bytes());
    let sources = vec![
        Source::Path(a.path().to_path_buf()),
        Source::Path(b.path().to_path_buf()),
    ];
    let mut reader = Reader::open(sources, &options(InputFormat::Auto)).unwrap();
    let mut out = Vec::new();
    assert_eq!(reader.read_batch(3, &mut out).unwrap(), 3);
    assert_eq!(reader.read_batch(3, &mut out).unwrap(), 2);
    assert_eq!(reader.read_batch(3, &mut out).unwrap(), 0);
    let got: Vec<_> = out
        .iter()
        .map(|r| (r.source, r.line, r.puzzle.is_ok()))
        .collect();
    assert_eq!(
        got,
        [
            (0, 1, true),
            (0, 2, true),
            (1, 2, true),
            (1, 3, false),
            (1, 4, true)
        ]
    );
    let total = (82 * 2) + 4 + 82 + 4 + 82;
    assert_eq!(reader.total_bytes(), Some(total));
    assert_eq!(reader.bytes_read().load(Ordering::Relaxed), total);
    assert_eq!(reader.source_name(1), b.path().display().to_string());
}

#[test]
fn reads_the_later_input_only_when_reached() {
    let a = temp_file(format!("{PUZZLE}\n").as_bytes());
    let b = temp_file(b"not a sudoku file\n");
    let sources = vec![
        Source::Path(a.path().to_path_buf()),
        Source::Path(b.path().to_path_buf()),
    ];
    let mut reader = Reader::open(sources, &options(InputFormat::Auto)).unwrap();
    assert_eq!(reader.bytes_read().load(Ordering::Relaxed), 82);
    let mut out = Vec::new();
    assert_eq!(reader.read_batch(1, &mut out).unwrap(), 1);
    assert_eq!(reader.read_batch(1, &mut out).unwrap(), 1);
    assert_eq!((out[1].source, out[1].line), (1, 1));
    assert_eq!(out[1].puzzle, Err("no field of 81 cells".to_string()));
    assert_eq!(reader.bytes_read().load(Ordering::Relaxed), 82 + 18);
}

#[test]
fn empty_inputs_give_no_records_and_no_error() {
    let mut reader = memory(&[b"", b"\n# nothing\n"], &options(InputFormat::Auto)).unwrap();
    assert_eq!(reader.format(), InputFormat::Line);
    assert_eq!(reader.header(), None);
    assert!(read_all(&mut reader).is_empty());
}

#[test]
fn an_empty_first_input_lets_the_next_one_decide() {
    let csv = format!("id,puzzle\n1,{PUZZLE}\n");
    let mut reader = memory(&[b"", csv.as_bytes()], &options(InputFormat::Auto)).unwrap();
    assert_eq!(reader.format(), InputFormat::Csv);
    assert_eq!(reader.header().unwrap(), ["id", "puzzle"]);
    let recs = read_all(&mut reader);
    assert_eq!((recs[0].source, recs[0].line), (1, 2));
}

/// `(source, line, puzzle is ok)` of each record.
fn summary(recs: &[Record]) -> Vec<(u32, u64, bool)> {
    recs.iter()
        .map(|r| (r.source, r.line, r.puzzle.is_ok()))
        .collect()
}

#[test]
fn later_inputs_are_read_in_the_first_format_but_a_csv_header_is_an_error() {
    let csv = format!("id,puzzle\n1,{PUZZLE}\n");
    let mut reader = memory(
        &[
            PUZZLE.as_bytes(),
            b"",
            b"\n\n1 2 3 4 5 6 7 8 9\n",
            csv.as_bytes(),
        ],
        &options(InputFormat::Auto),
    )
    .unwrap();
    let mut out = Vec::new();
    // the records before the error are handed out first, the error on the next call
    assert_eq!(reader.read_batch(10, &mut out).unwrap(), 2);
    assert_eq!(summary(&out), [(0, 1, true), (2, 3, false)]);
    let err = reader.read_batch(10, &mut out).unwrap_err();
    assert_eq!(
        err.to_string(),
        "in3:1: detected csv but the first input is line; use --input-format"
    );
}

/// A later input that reads as the other of line and grid input is refused, as a CSV header
/// is: a file of grids after puzzles a line was read as rows of grids (three puzzles merged into
/// one malformed record), a file of puzzles a line after grids each line a short grid.
#[test]
fn a_later_input_of_the_other_layout_is_an_error() {
    let grid = "Grid 01\n".to_string() + &"003020600\n".repeat(9);
    let lines = format!("{PUZZLE}\n{PUZZLE}\n");
    for (inputs, message) in [
        (
            [grid.as_bytes(), lines.as_bytes()],
            "in1:1: detected line but the first input is grid; use --input-format",
        ),
        (
            [lines.as_bytes(), grid.as_bytes()],
            "in1:1: detected grid but the first input is line; use --input-format",
        ),
    ] {
        let mut reader = memory(&inputs, &options(InputFormat::Auto)).unwrap();
        let mut out = Vec::new();
        let err = loop {
            match reader.read_batch(10, &mut out) {
                Ok(0) => panic!("no error: {message}"),
                Ok(_) => {}
                Err(e) => break e,
            }
        };
        assert_eq!(err.to_string(), message);
    }
}

#[test]
fn a_broken_first_line_of_a_later_input_is_a_malformed_record() {
    let short = &PUZZLE[..80];
    let later = [
        format!("{short}\n{PUZZLE}\n"),
        format!("123456789\n{PUZZLE}\n"),
        format!("hello\n{PUZZLE}\n"),
        format!("# c\nhello,world\n{PUZZLE}\n"),
        format!("sudokus\n{PUZZLE}\n"),
        format!("1 2 3 4 5 6 7 8 9\n{PUZZLE}\n"),
    ];
    let mut inputs = vec![PUZZLE.as_bytes()];
    inputs.extend(later.iter().map(|t| t.as_bytes()));
    let mut reader = memory(&inputs, &options(InputFormat::Auto)).unwrap();
    let recs = read_all(&mut reader);
    let mut expected = vec![(0, 1, true)];
    for source in 1..=6 {
        let first = if source == 4 { 2 } else { 1 };
        expected.extend([(source, first, false), (source, first + 1, true)]);
    }
    assert_eq!(summary(&recs), expected);
    assert_eq!(
        recs[1].puzzle,
        Err("found 80 cells, expected 81".to_string())
    );
    assert_eq!(recs[1].cells, short);

    // grid: a broken first row spoils the first grid only
    let grid = "1 2 3 4 5 6 7 8 9\n".repeat(9);
    // (a word alone would be a title line, not a row: see the grid module)
    let broken = format!(
        "1 2 3 4 5 6 7 8\n{}\n{grid}",
        "1 2 3 4 5 6 7 8 9\n".repeat(8)
    );
    let mut reader = memory(
        &[grid.as_bytes(), broken.as_bytes()],
        &options(InputFormat::Auto),
    )
    .unwrap();
    assert_eq!(reader.format(), InputFormat::Grid);
    let recs = read_all(&mut reader);
    assert_eq!(summary(&recs), [(0, 1, true), (1, 1, false), (1, 11, true)]);
    assert_eq!(
        recs[1].puzzle,
        Err("row 1: found 8 cells, expected 9".into())
    );
}

#[test]
fn a_csv_header_after_grid_input_is_an_error() {
    let grid = "1 2 3 4 5 6 7 8 9\n".repeat(9);
    for header in ["\"id\",\"Puzzle\"", "quizzes;solutions", "sudoku"] {
        let later = format!("{header}\n{PUZZLE}\n");
        let mut reader = memory(
            &[grid.as_bytes(), later.as_bytes()],
            &options(InputFormat::Auto),
        )
        .unwrap();
        let mut out = Vec::new();
        assert_eq!(reader.read_batch(10, &mut out).unwrap(), 1);
        let err = reader.read_batch(10, &mut out).unwrap_err();
        assert_eq!(
            err.to_string(),
            "in1:1: detected csv but the first input is grid; use --input-format",
            "{header}"
        );
    }
}

#[test]
fn an_explicit_format_reads_a_later_csv_header_as_a_record() {
    let later = format!("id,puzzle\n1,{PUZZLE}\n");
    let mut reader = memory(
        &[PUZZLE.as_bytes(), later.as_bytes()],
        &options(InputFormat::Line),
    )
    .unwrap();
    let recs = read_all(&mut reader);
    assert_eq!(summary(&recs), [(0, 1, true), (1, 1, false), (1, 2, true)]);
}

#[test]
fn a_later_input_after_csv_must_have_the_same_header() {
    let csv = format!("id,puzzle\n1,{PUZZLE}\n");
    for (later, message) in [
        (
            format!("{PUZZLE}\n"),
            "in1:1: detected line but the first input is csv; use --input-format".to_string(),
        ),
        (
            "hello\n".to_string(),
            "in1:1: CSV header (hello) differs from the first input's (id, puzzle)".to_string(),
        ),
        (
            format!("{}\n{PUZZLE}\n", &PUZZLE[..80]),
            format!(
                "in1:1: CSV header ({}) differs from the first input's (id, puzzle)",
                &PUZZLE[..80]
            ),
        ),
    ] {
        let mut reader = memory(
            &[csv.as_bytes(), later.as_bytes()],
            &options(InputFormat::Auto),
        )
        .unwrap();
        let mut out = Vec::new();
        assert_eq!(reader.read_batch(10, &mut out).unwrap(), 1);
        let err = reader.read_batch(10, &mut out).unwrap_err();
        assert_eq!(err.to_string(), message);
    }
}

#[test]
fn a_broken_first_line_of_the_first_input_is_a_malformed_record() {
    let short = &PUZZLE[..80];
    let text = format!("{short}\n{PUZZLE}\n");
    let mut reader = memory(&[text.as_bytes()], &options(InputFormat::Auto)).unwrap();
    assert_eq!(reader.format(), InputFormat::Line);
    let recs = read_all(&mut reader);
    assert_eq!(summary(&recs), [(0, 1, false), (0, 2, true)]);
    assert_eq!(
        recs[0].puzzle,
        Err("found 80 cells, expected 81".to_string())
    );

    // every line looked at is read as a record, comments and blank lines still skipped
    let text = format!("# c\nhello\n\n# c\n{short}\nx y z\n{PUZZLE}\n{PUZZLE}\n");
    let mut reader = memory(&[text.as_bytes()], &options(InputFormat::Auto)).unwrap();
    let recs = read_all(&mut reader);
    assert_eq!(
        summary(&recs),
        [
            (0, 2, false),
            (0, 5, false),
            (0, 6, false),
            (0, 7, true),
            (0, 8, true)
        ]
    );

    // the format told by a later line is used for the whole input
    let grid = "1 2 3 4 5 6 7 8 9\n".repeat(9);
    let text = format!(
        "1 2 3 4 5 6 7 8\n{}\n{grid}",
        "1 2 3 4 5 6 7 8 9\n".repeat(8)
    );
    let mut reader = memory(&[text.as_bytes()], &options(InputFormat::Auto)).unwrap();
    assert_eq!(reader.format(), InputFormat::Grid);
    assert_eq!(
        summary(&read_all(&mut reader)),
        [(0, 1, false), (0, 11, true)]
    );
}

#[test]
fn a_file_with_no_telling_line_among_the_first_100_is_an_error() {
    let err = memory(&[b"\nhello\n# c\n\nworld\n"], &options(InputFormat::Auto))
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        "in0:2: cannot tell the input format from lines 2..5; use --input-format"
    );
    let text = format!("{}{PUZZLE}\n", "hello\n".repeat(100));
    let err = memory(&[text.as_bytes()], &options(InputFormat::Auto))
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        "in0:1: cannot tell the input format from lines 1..100; use --input-format"
    );
}

#[test]
fn a_huge_broken_first_input_is_rejected_after_about_1_mib() {
    let line = format!("{}\n", "x".repeat(100_000));
    let f = temp_file(line.repeat(300).as_bytes()); // 30 MB
    let sources = vec![Source::Path(f.path().to_path_buf())];
    let reader = Reader::open(sources, &options(InputFormat::Auto));
    let err = reader.err().unwrap();
    assert_eq!(
        err.to_string(),
        // lines over the record cap are cut to 64 KiB: 16 of them fill the 1 MiB looked at
        format!(
            "{}:1: cannot tell the input format from lines 1..16; use --input-format",
            f.path().display()
        )
    );
}

#[test]
fn undetectable_first_input_is_an_error() {
    let err = memory(&[b"# c\nhello\n"], &options(InputFormat::Auto))
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        "in0:2: cannot tell the input format from line 2; use --input-format"
    );
    // comments after it that fill the 1 MiB looked at are said (a puzzle came after them)
    let text = format!("hello\n{}{}\n", "# c\n".repeat(300_000), "1".repeat(81));
    let err = memory(&[text.as_bytes()], &options(InputFormat::Auto))
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        "in0:1: cannot tell the input format from line 1 (the other lines up to line 262144, \
         the first 1 MiB, are blank or comments); use --input-format"
    );
}

#[test]
fn csv_without_puzzle_column_is_an_error() {
    let err = memory(&[b"a,b\n1,2\n"], &options(InputFormat::Auto))
        .err()
        .unwrap();
    let InputError::Format {
        name,
        line,
        message,
    } = err
    else {
        panic!("not a format error: {err}");
    };
    assert_eq!((name.as_str(), line), ("in0", 1));
    assert!(message.starts_with("no puzzle column in the header (a, b)"));
}

#[test]
fn csv_header_must_match_the_first_input() {
    let a = format!("id,puzzle\n1,{PUZZLE}\n");
    let b = format!("# c\nid,quiz\n1,{PUZZLE}\n");
    let mut reader = memory(&[a.as_bytes(), b.as_bytes()], &options(InputFormat::Auto)).unwrap();
    let mut out = Vec::new();
    assert_eq!(reader.read_batch(10, &mut out).unwrap(), 1);
    let err = reader.read_batch(10, &mut out).unwrap_err();
    assert_eq!(
        err.to_string(),
        "in1:2: CSV header (id, quiz) differs from the first input's (id, puzzle)"
    );
}

#[test]
fn header_mismatch_message_is_short_and_printable() {
    let a = format!("id,puzzle\n1,{PUZZLE}\n");
    let mut b = b"\x1b[2J".to_vec();
    b.extend_from_slice(&vec![b'z'; 50_000]);
    b.extend_from_slice(b",puzzle\n");
    let mut reader = memory(&[a.as_bytes(), &b], &options(InputFormat::Auto)).unwrap();
    let mut out = Vec::new();
    assert_eq!(reader.read_batch(10, &mut out).unwrap(), 1);
    let err = reader.read_batch(10, &mut out).unwrap_err().to_string();
    assert!(err.len() < 500, "{} bytes", err.len());
    assert!(
        err.starts_with("in1:1: CSV header (\\u{1b}[2Jzzz"),
        "{}",
        &err[..50]
    );
    assert!(err.ends_with("...) differs from the first input's (id, puzzle)"));
    assert!(!err.chars().any(char::is_control));
}

#[test]
fn a_csv_header_longer_than_the_record_cap_is_an_error() {
    let a = format!("id,puzzle\n1,{PUZZLE}\n");
    let b = format!("{},puzzle\n1,{PUZZLE}\n", "z".repeat(5_000_000));
    let mut reader = memory(&[a.as_bytes(), b.as_bytes()], &options(InputFormat::Auto)).unwrap();
    let mut out = Vec::new();
    assert_eq!(reader.read_batch(10, &mut out).unwrap(), 1);
    let err = reader.read_batch(10, &mut out).unwrap_err().to_string();
    assert_eq!(err, "in1:1: CSV header longer than 65536 bytes");
    let err = memory(&[b.as_bytes()], &options(InputFormat::Csv))
        .err()
        .unwrap();
    assert_eq!(err.to_string(), "in0:1: CSV header longer than 65536 bytes");
}

#[test]
fn csv_inputs_with_the_same_header_continue() {
    let a = format!("id,puzzle\n1,{PUZZLE}\n");
    let b = format!("id,puzzle\r\n\"2\nx\",{PUZZLE}\r\n3,{PUZZLE}\r\n");
    let mut reader = memory(&[a.as_bytes(), b.as_bytes()], &options(InputFormat::Auto)).unwrap();
    let recs = read_all(&mut reader);
    let got: Vec<_> = recs.iter().map(|r| (r.source, r.line)).collect();
    assert_eq!(got, [(0, 2), (1, 2), (1, 4)]);
    assert!(recs.iter().all(|r| r.puzzle.is_ok()));
}

/// A header whose quoted name holds a line end, the delimiter `;` or a tab: `-I csv` refused it
/// ("a quoted field runs past the end of its line") where `-I auto` read it; every input alike.
#[test]
fn a_header_over_two_lines_is_read_whole_in_every_input() {
    for delimiter in [";", "\t", ","] {
        let text = format!("\"id\nnote\"{delimiter}puzzle\r\n1{delimiter}{PUZZLE}\r\n");
        for format in [InputFormat::Csv, InputFormat::Auto] {
            let inputs = [text.as_bytes(), text.as_bytes()];
            let mut reader = memory(&inputs, &options(format)).unwrap();
            assert_eq!(reader.header().unwrap(), ["id\nnote", "puzzle"]);
            let recs = read_all(&mut reader);
            assert_eq!(
                summary(&recs),
                [(0, 3, true), (1, 3, true)],
                "{delimiter:?}"
            );
        }
    }
}

#[test]
fn csv_column_by_name_or_index() {
    let text = format!("a,b,c\n1,{PUZZLE},x\n");
    for column in [Column::Name("B".into()), Column::Index(2)] {
        let opts = ReaderOptions {
            format: InputFormat::Csv,
            column: Some(column),
            ..ReaderOptions::default()
        };
        let mut reader = memory(&[text.as_bytes()], &opts).unwrap();
        let recs = read_all(&mut reader);
        assert_eq!(recs[0].cells, PUZZLE);
        assert_eq!(recs[0].fields, ["1", PUZZLE, "x"]);
    }
    let opts = ReaderOptions {
        format: InputFormat::Csv,
        column: Some(Column::Index(4)),
        ..ReaderOptions::default()
    };
    let err = memory(&[text.as_bytes()], &opts).err().unwrap();
    assert_eq!(
        err.to_string(),
        "in0:1: no column 4: the header has 3 columns (a, b, c)"
    );
}

#[test]
fn semicolon_and_tab_separated_csv() {
    for sep in [";", "\t"] {
        let text = format!("id{sep}puzzle\n1{sep}{PUZZLE}\n");
        let mut reader = memory(&[text.as_bytes()], &options(InputFormat::Auto)).unwrap();
        assert_eq!(reader.format(), InputFormat::Csv);
        let recs = read_all(&mut reader);
        assert_eq!(recs[0].fields, ["1", PUZZLE]);
        assert!(recs[0].puzzle.is_ok());
    }
}

/// Lines of puzzles (CSV rows, with `row`) filling the first block that must be text.
fn first_block(row: &str) -> Vec<u8> {
    let n = compressed::TEXT_CHECK / row.len() + 1;
    row.repeat(n).into_bytes()
}

#[test]
fn invalid_utf8_after_the_first_block_is_malformed_not_an_error() {
    let mut line = first_block(&format!("{PUZZLE}\n"));
    let good = line.len() / 82;
    let mut bad = PUZZLE.as_bytes().to_vec();
    bad[0] = 0xC3;
    line.extend_from_slice(&bad);
    line.extend_from_slice(format!("\n{PUZZLE}\n").as_bytes());
    let mut reader = memory(&[&line], &options(InputFormat::Line)).unwrap();
    let recs = read_all(&mut reader);
    assert_eq!(recs.len(), good + 2);
    assert!(recs[good].puzzle.is_err() && recs[good + 1].puzzle.is_ok());

    let mut csv = b"puzzle,note\n".to_vec();
    csv.extend_from_slice(&first_block(&format!("{PUZZLE},ok\n")));
    csv.extend_from_slice(format!("{PUZZLE},").as_bytes());
    csv.extend_from_slice(b"\xE9t\xE9\n"); // Latin-1 "été"
    csv.extend_from_slice(format!("{PUZZLE},ok\n").as_bytes());
    let mut reader = memory(&[&csv], &options(InputFormat::Auto)).unwrap();
    let recs = read_all(&mut reader);
    let n = recs.len();
    assert_eq!(
        recs[n - 2].puzzle,
        Err("invalid UTF-8 in column 2".to_string())
    );
    assert!(recs[n - 1].puzzle.is_ok());
}

#[test]
fn binary_or_non_utf8_first_block_is_an_error_that_says_what_it_is() {
    let cases: [(&[u8], &str); 8] = [
        // UTF-16 with no byte order mark was binary data (a NUL at offset 1)
        (
            b"1\x002\x00.\x00\r\x00\n\x00",
            "in0: UTF-16 text without a byte order mark, not UTF-8; convert it first (iconv -f \
             UTF-16LE -t UTF-8)",
        ),
        (
            b"\x00#\x00 \x00p\x00u",
            "in0: UTF-16 text without a byte order mark, not UTF-8; convert it first (iconv -f \
             UTF-16BE -t UTF-8)",
        ),
        (
            b"\x89PNG\r\n\x1a\n\x00\x00",
            "in0: a PNG image, not puzzle text (a NUL byte at offset 8, on line 3)",
        ),
        (
            b"puzzle\x00\n",
            "in0: binary data, not puzzle text (a NUL byte at offset 6, on line 1)",
        ),
        (
            b"# caf\xe9\n",
            "in0: not UTF-8 text (byte 0xE9 at offset 5, on line 1); puzzle text must be UTF-8 \
             (iconv -f LATIN1 -t UTF-8 converts Latin-1)",
        ),
        (
            b"\xff\xfe#\x00",
            "in0: UTF-16 text, not UTF-8; convert it first (iconv -f UTF-16 -t UTF-8)",
        ),
        // lines ended by a lone CR (old Mac files) count as the readers count them
        (
            b"# a\r# b\r\n# caf\xe9\r",
            "in0: not UTF-8 text (byte 0xE9 at offset 14, on line 3); puzzle text must be UTF-8 \
             (iconv -f LATIN1 -t UTF-8 converts Latin-1)",
        ),
        (
            b"%PDF-1.7\n\xe2\xe3\xcf\xd3",
            "in0: a PDF document (byte 0xE2 at offset 9, on line 2); puzzle text must be UTF-8 (iconv -f LATIN1 -t UTF-8 converts Latin-1)",
        ),
    ];
    for (bytes, message) in cases {
        let err = memory(&[bytes], &options(InputFormat::Auto)).err().unwrap();
        assert!(matches!(err, InputError::Unreadable { .. }), "{err}");
        assert_eq!(err.to_string(), message);
    }
    // a character cut by the end of the first block is not a fault
    let mut text = first_block(&format!("{PUZZLE}\n"));
    text.truncate(compressed::TEXT_CHECK - 1);
    text.extend_from_slice("\né\n".as_bytes());
    assert!(memory(&[&text], &options(InputFormat::Line)).is_ok());
}

#[test]
fn forced_format_reads_without_detection() {
    let grid = "1 2 3 4 5 6 7 8 9\n".repeat(9);
    let mut reader = memory(&[grid.as_bytes()], &options(InputFormat::Line)).unwrap();
    let recs = read_all(&mut reader);
    assert_eq!(recs.len(), 9, "each row is a malformed line record");
    assert!(recs.iter().all(|r| r.puzzle.is_err()));
    let mut reader = memory(&[grid.as_bytes()], &options(InputFormat::Grid)).unwrap();
    assert_eq!(read_all(&mut reader).len(), 1);
}

#[test]
fn missing_file_is_an_io_error_naming_it() {
    let sources = vec![Source::Path(PathBuf::from("/no/such/file.txt"))];
    let err = Reader::open(sources, &options(InputFormat::Auto))
        .err()
        .unwrap();
    assert!(matches!(err, InputError::Io { .. }));
    assert!(err.to_string().starts_with("/no/such/file.txt: "), "{err}");
}

#[test]
fn total_bytes_is_unknown_with_stdin_unless_a_file() {
    let sources = vec![Source::Path(data("easy_300.txt")), Source::Stdin];
    let reader = Reader::open(sources, &options(InputFormat::Auto)).unwrap();
    // the test's own stdin: a terminal, a pipe or /dev/null, unless run `< file`
    let named = std::fs::metadata(data("easy_300.txt")).unwrap().len();
    let stdin = regular_stdin().map(|f| f.metadata().unwrap().len());
    assert_eq!(reader.total_bytes(), stdin.map(|n| n + named));
    assert_eq!(reader.source_name(1), "<stdin>");
}

#[test]
fn reader_can_move_to_another_thread() {
    fn is_send<T: Send>() {}
    is_send::<Reader>();
}

/// A reader that always fails.
pub(super) struct Failing;

impl Read for Failing {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        Err(io::Error::other("disk on fire"))
    }
}

#[test]
fn read_error_names_the_input_and_line() {
    let body = first_block(&format!("{PUZZLE}\n"));
    let n = body.len() / 82;
    for (format, header) in [(InputFormat::Line, ""), (InputFormat::Csv, "puzzle\n")] {
        // more than the first block, which is read whole when the input is opened
        let mut text = header.as_bytes().to_vec();
        text.extend_from_slice(&body);
        let origins = vec![Origin::Failing(text)];
        let mut reader =
            Reader::with_origins(origins, vec!["in0".into()], None, &options(format)).unwrap();
        let mut out = Vec::new();
        // every record comes out first; the error follows on the next call
        let err = loop {
            match reader.read_batch(1000, &mut out) {
                Ok(got) => assert!(got > 0, "the error comes before the end"),
                Err(err) => break err,
            }
        };
        assert_eq!(out.len(), n);
        assert!(matches!(err, InputError::Io { .. }));
        let lines = if format == InputFormat::Csv { n + 1 } else { n };
        assert_eq!(
            err.to_string(),
            format!("in0: after line {lines}: disk on fire"),
            "{format:?}"
        );
    }
}

#[test]
fn directory_is_an_io_error() {
    let dir = tempfile::tempdir().unwrap();
    let sources = vec![Source::Path(dir.path().to_path_buf())];
    let err = Reader::open(sources, &options(InputFormat::Auto))
        .err()
        .unwrap();
    assert!(matches!(err, InputError::Io { .. }), "{err}");
    assert!(
        err.to_string()
            .starts_with(&format!("{}: ", dir.path().display()))
    );
}

/// A tiny seeded generator (xorshift64*), so the garbage below is the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Input made of pieces that stress the readers: good puzzles, near-puzzles, separators, quotes,
/// CR, BOMs, invalid UTF-8, comments and blank lines, in random order.
fn garbage(rng: &mut Rng) -> Vec<u8> {
    let pieces: [&[u8]; 16] = [
        PUZZLE.as_bytes(),
        &PUZZLE.as_bytes()[..80],
        b"\n",
        b"\r\n",
        b"\r",
        b",",
        b";",
        b"\"",
        b" ",
        b"\t",
        b"# comment\n",
        b"\xEF\xBB\xBF",
        b"\xff\xfe\x80",
        b"0 3 5 4 6 9 2 7 8\n",
        b"puzzle,solution\n",
        b"..3.2.6..",
    ];
    let mut out = Vec::new();
    for _ in 0..rng.below(60) {
        out.extend_from_slice(pieces[rng.below(pieces.len())]);
    }
    out
}

#[test]
fn random_garbage_never_panics_and_keeps_line_order() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for round in 0..3000 {
        let inputs = [garbage(&mut rng), garbage(&mut rng)];
        let slices: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
        let format = [
            InputFormat::Auto,
            InputFormat::Line,
            InputFormat::Csv,
            InputFormat::Grid,
        ][round % 4];
        // Opening may fail (undetectable input, no puzzle column): an error, never a panic.
        let Ok(mut reader) = memory(&slices, &options(format)) else {
            continue;
        };
        let mut records = Vec::new();
        while let Ok(n) = reader.read_batch(1 + rng.below(5), &mut records) {
            if n == 0 {
                break;
            }
        }
        for pair in records.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            assert!(
                (a.source, a.line) < (b.source, b.line),
                "round {round}: records out of order: {}:{} then {}:{}",
                a.source,
                a.line,
                b.source,
                b.line
            );
        }
        for r in &records {
            assert!(r.line >= 1, "round {round}: line 0");
            if let Ok(grid) = &r.puzzle {
                assert_eq!(r.cells.len(), 81, "round {round}");
                assert_eq!(
                    Grid::parse(r.cells.as_bytes()).ok(),
                    Some(*grid),
                    "round {round}"
                );
            }
        }
    }
}

#[test]
fn csv_rows_end_at_lf_only() {
    // CRLF rows: no CR left in the last field; a lone CR inside a row does not split it
    let text = format!("id,puzzle,note\r\n1,{PUZZLE},a\rb\r\n2,{PUZZLE},\"q\"\r\n");
    let mut reader = memory(&[text.as_bytes()], &options(InputFormat::Auto)).unwrap();
    assert_eq!(reader.header().unwrap(), ["id", "puzzle", "note"]);
    let recs = read_all(&mut reader);
    assert_eq!(recs.len(), 2);
    assert_eq!((recs[0].line, recs[1].line), (2, 3));
    assert_eq!(recs[0].fields, ["1", PUZZLE, "a\rb"]);
    assert_eq!(recs[1].fields, ["2", PUZZLE, "q"]);
    assert!(recs.iter().all(|r| r.puzzle.is_ok()));
}

/// A reader over in-memory inputs that also reads given solutions, with `column` for CSV.
fn with_solutions(
    inputs: &[&[u8]],
    format: InputFormat,
    column: Option<Column>,
) -> Result<Reader, InputError> {
    let mut reader = memory(inputs, &options(format))?;
    reader.read_solutions(column.as_ref())?;
    Ok(reader)
}

#[test]
fn csv_solutions_come_from_a_solution_column_by_name() {
    let text = format!("id,Solutions,puzzle\n1, {PUZZLE} ,{PUZZLE}\n2\n3,  ,{PUZZLE}\n");
    let mut reader = with_solutions(&[text.as_bytes()], InputFormat::Auto, None).unwrap();
    assert_eq!(reader.solution_column(), Some(2));
    let recs = read_all(&mut reader);
    assert_eq!(recs[0].solution.as_deref(), Some(PUZZLE), "trimmed");
    assert_eq!(recs[1].solution, None, "the row lacks the column");
    assert_eq!(recs[2].solution, None, "an empty cell gives no solution");

    let none = b"id,puzzle,rating\n1,x,2\n".as_slice();
    let mut reader = with_solutions(&[none], InputFormat::Auto, None).unwrap();
    assert_eq!(reader.solution_column(), None);
    assert!(read_all(&mut reader).iter().all(|r| r.solution.is_none()));
}

#[test]
fn csv_solution_column_by_option_and_its_errors() {
    let text = format!("puzzle,a,b\n{PUZZLE},x,y\n");
    for column in [Column::Name("B".into()), Column::Index(3)] {
        let mut reader =
            with_solutions(&[text.as_bytes()], InputFormat::Csv, Some(column)).unwrap();
        assert_eq!(read_all(&mut reader)[0].solution.as_deref(), Some("y"));
    }
    // the header is the first input with content: errors name it and its line
    let inputs = [b"\n".as_slice(), b"\n# c\npuzzle,a\n".as_slice()];
    let err = |column| {
        with_solutions(&inputs, InputFormat::Auto, Some(column))
            .err()
            .unwrap()
            .to_string()
    };
    assert_eq!(
        err(Column::Name("z".into())),
        "in1:3: no column named \"z\" in the header (puzzle, a)"
    );
    assert_eq!(
        err(Column::Index(1)),
        "in1:3: the solution column is the puzzle column"
    );
}

#[test]
fn line_solutions_reach_later_inputs_and_grids_have_none() {
    let first = format!("{PUZZLE}:1:{PUZZLE}\n");
    let second = format!("{PUZZLE} {PUZZLE}\n{PUZZLE}\n");
    let mut reader = with_solutions(
        &[first.as_bytes(), second.as_bytes()],
        InputFormat::Auto,
        None,
    )
    .unwrap();
    let got: Vec<_> = read_all(&mut reader)
        .into_iter()
        .map(|r| r.solution.is_some())
        .collect();
    assert_eq!(got, [true, true, false]);

    let grid = std::fs::read(data("baekjoon_example1.in")).unwrap();
    let mut reader = with_solutions(&[&grid], InputFormat::Auto, None).unwrap();
    assert_eq!(read_all(&mut reader)[0].solution, None);
}

#[test]
fn refilled_batches_hold_the_same_records_as_fresh_ones() {
    // refill_batch overwrites records left from earlier batches (wide CSV rows, malformed rows,
    // solutions) in place; whatever was there before, the records must be the ones read afresh
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let (mut compared, mut with_solution, mut csv_fields) = (0, 0, 0);
    for round in 0..3000 {
        let inputs = [garbage(&mut rng), garbage(&mut rng)];
        let slices: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
        let format = [InputFormat::Auto, InputFormat::Line, InputFormat::Csv][round % 3];
        let solutions = round % 2 == 0;
        let open = || -> Option<Reader> {
            let mut reader = memory(&slices, &options(format)).ok()?;
            if solutions {
                reader.read_solutions(None).ok()?;
            }
            Some(reader)
        };
        let (Some(mut fresh), Some(mut refilled)) = (open(), open()) else {
            continue;
        };
        let mut batch = Vec::new();
        loop {
            let max = 1 + rng.below(5);
            let mut want = Vec::new();
            let n = fresh.read_batch(max, &mut want);
            let m = refilled.refill_batch(max, &mut batch);
            assert_eq!(
                n.as_ref().ok(),
                m.as_ref().ok(),
                "round {round}: batch sizes differ"
            );
            assert_eq!(batch, want, "round {round}");
            compared += batch.len();
            with_solution += batch.iter().filter(|r| r.solution.is_some()).count();
            csv_fields += batch.iter().map(|r| r.fields.len()).sum::<usize>();
            if !matches!(n, Ok(1..)) {
                break;
            }
        }
    }
    assert!(
        compared > 1000 && with_solution > 0 && csv_fields > 0,
        "{compared} {with_solution} {csv_fields}"
    );
}

#[test]
fn records_keeping_less_have_the_same_puzzles_lines_and_reasons() {
    // simple rows, which keep only what they are told, among rows that keep everything (a wrong
    // width, a blank line, a space row, a bad puzzle, a second input's header)
    let first = format!(
        "id,puzzle,note\n1,{PUZZLE},a\n2,{PUZZLE}\n\n   \n3, {PUZZLE} ,c\r\n4,{},d\n",
        &PUZZLE[1..]
    );
    let second = format!("id,puzzle,note\n5,{PUZZLE},e\n");
    let inputs: [&[u8]; 2] = [first.as_bytes(), second.as_bytes()];
    let read = |keep: Keep| {
        let mut reader = memory(&inputs, &options(InputFormat::Csv)).unwrap();
        reader.keep(keep);
        let mut block = Block::default();
        let mut records = Vec::new();
        while reader.read_block(&mut block, 1).unwrap() {
            block.parse();
            records.extend_from_slice(block.records());
        }
        records
    };
    // everything, read one record at a time (not through blocks)
    let all = read_all(&mut memory(&inputs, &options(InputFormat::Csv)).unwrap());
    assert_eq!(all.len(), 5);
    assert_eq!(read(Keep::default()), all);
    for (fields, cells) in [(false, false), (true, false), (false, true)] {
        let some = read(Keep { fields, cells });
        assert_eq!(some.len(), all.len());
        for (a, b) in all.iter().zip(&some) {
            assert_eq!((a.source, a.line, &a.puzzle), (b.source, b.line, &b.puzzle));
            assert!(!fields || a.fields == b.fields);
            assert!(!cells || a.cells == b.cells);
        }
        // what the simple rows, the second input's included, leave out is empty; the row of
        // the wrong width, and the one read past the blank lines, keep everything
        assert_eq!(some[1], all[1]);
        assert_eq!(some[2], all[2]);
        for i in [0, 3, 4] {
            assert_eq!(some[i].fields.is_empty(), !fields, "record {i}");
            assert_eq!(some[i].cells.is_empty(), !cells, "record {i}");
        }
    }
}

/// What reading gave: the records, then the error that ended reading, if any.
type Outcome = (Vec<Record>, Option<String>);

/// The files `paths` opened, with solutions read when `solutions`; `None` when they cannot be.
fn open_paths(
    paths: &[&std::path::Path],
    options: &ReaderOptions,
    solutions: bool,
) -> Option<Reader> {
    let sources = paths
        .iter()
        .map(|p| Source::Path(p.to_path_buf()))
        .collect();
    let mut reader = Reader::open(sources, options).ok()?;
    if solutions {
        reader.read_solutions(None).ok()?;
    }
    Some(reader)
}

/// What the files `paths` give read in blocks made of chunks of `chunk` bytes and parsed in
/// order, with the number of blocks that were chunks; `None` when they cannot be opened.
fn read_in_chunks(
    paths: &[&std::path::Path],
    options: &ReaderOptions,
    chunk: u64,
    solutions: bool,
) -> Option<(Outcome, usize)> {
    let mut reader = open_paths(paths, options, solutions)?;
    reader.read_files_in_chunks(true);
    reader.chunk_bytes = Some(chunk);
    let mut block = Block::default();
    let (mut records, mut chunks) = (Vec::new(), 0);
    let error = loop {
        match reader.read_block(&mut block, 1) {
            Ok(true) => {}
            Ok(false) => break None,
            Err(e) => break Some(e.to_string()),
        }
        chunks += usize::from(matches!(block.layout, Layout::Chunk { .. }));
        block.parse();
        records.extend_from_slice(block.records());
    };
    Some(((records, error), chunks))
}

/// What the files `paths` give read one record at a time (never in chunks).
fn read_serially(
    paths: &[&std::path::Path],
    options: &ReaderOptions,
    solutions: bool,
) -> Option<Outcome> {
    let mut reader = open_paths(paths, options, solutions)?;
    let mut records = Vec::new();
    let error = loop {
        match reader.read_batch(7, &mut records) {
            Ok(0) => break None,
            Ok(_) => {}
            Err(e) => break Some(e.to_string()),
        }
    };
    Some((records, error))
}

#[test]
fn files_read_in_chunks_give_the_records_read_one_by_one() {
    let rows = |n: usize| -> String {
        (0..n)
            .map(|i| format!("{i},{PUZZLE},{}\n", &PUZZLE[..i % 81]))
            .collect()
    };
    let long = "9".repeat(300);
    let cases: Vec<(InputFormat, usize, String)> = vec![
        // Kaggle-like rows, no final LF
        (
            InputFormat::Csv,
            4096,
            format!("id,puzzle,note\n{}9,{PUZZLE},x", rows(40)),
        ),
        // quoted fields holding line ends and delimiters, across many lines; doubled quotes
        (
            InputFormat::Csv,
            4096,
            format!(
                "id,puzzle,note\n{}7,{PUZZLE},\"a\nb,\n\n\"\"c\"\"\n{}\"\n{}\"x\"\"\n\n\"\n",
                rows(5),
                rows(3),
                rows(4)
            ),
        ),
        // CRLF, blank and space rows, wrong widths, a row over the cap, a quoted row over the
        // cap whose line ends are inside the quotes (read past to the end of a line in them)
        (
            InputFormat::Csv,
            200,
            format!(
                "id,puzzle,note\r\n{}\r\n\r\n   \n1,{PUZZLE}\n2,{PUZZLE},{long}\n3,{PUZZLE},\"{long}\n{long}\n\"\n{}",
                rows(6),
                rows(6)
            ),
        ),
        // lines: comments, blank lines, a line over the cap, no final LF
        (
            InputFormat::Line,
            200,
            format!(
                "# c\n{PUZZLE}\n\n{PUZZLE} 1 2\n{long}\n# x\n{}\n{PUZZLE}",
                [PUZZLE; 20].join("\n")
            ),
        ),
    ];
    for (case, (format, max, text)) in cases.iter().enumerate() {
        let file = temp_file(text.as_bytes());
        let second = temp_file(text.as_bytes());
        let paths = [file.path(), second.path()];
        let options = ReaderOptions {
            max_record: *max,
            ..options(*format)
        };
        let want = read_serially(&paths, &options, false).unwrap();
        assert!(want.0.len() > 10 && want.1.is_none(), "case {case}");
        for chunk in [1, 2, 3, 5, 8, 13, 40, 81, 100, 165, 400, 1000, 1 << 20] {
            let (got, chunks) = read_in_chunks(&paths, &options, chunk, false).unwrap();
            assert_eq!(got, want, "case {case}, chunks of {chunk} bytes");
            assert!(
                chunks >= 2,
                "case {case}, chunk {chunk}: read in {chunks} chunks"
            );
        }
    }
}

#[test]
fn random_files_read_in_chunks_give_the_records_read_one_by_one() {
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    let (mut compared, mut chunked) = (0, 0);
    for round in 0..3000 {
        // inputs of a few hundred bytes, so that they take several chunks; UTF-8 (bytes that
        // are not would make most inputs unreadable, which says nothing of chunks)
        let mut input = || -> Vec<u8> {
            let mut bytes: Vec<u8> = (0..4).flat_map(|_| garbage(&mut rng)).collect();
            bytes.retain(|b| ![0xFF, 0xFE, 0x80].contains(b));
            bytes
        };
        let files = [input(), input()].map(|g| temp_file(&g));
        let paths: Vec<&std::path::Path> = files.iter().map(|f| f.path()).collect();
        let format = [InputFormat::Auto, InputFormat::Line, InputFormat::Csv][round % 3];
        let options = ReaderOptions {
            max_record: [40, 90, 200, DEFAULT_MAX_RECORD][rng.below(4)],
            ..options(format)
        };
        let solutions = round % 2 == 0;
        let chunk = 1 + rng.below(120) as u64;
        let Some(want) = read_serially(&paths, &options, solutions) else {
            continue;
        };
        let (got, chunks) = read_in_chunks(&paths, &options, chunk, solutions).unwrap();
        assert_eq!(got, want, "round {round}, chunks of {chunk} bytes");
        compared += got.0.len();
        chunked += chunks;
    }
    assert!(
        compared > 50_000 && chunked > 100_000,
        "{compared} {chunked}"
    );
}

#[test]
fn chunks_read_on_many_threads_at_once_keep_their_rows_and_lines() {
    // every chunk handed out first, then all parsed at once, each on its own thread: each
    // waits for the ones before it to say where they ended, whatever order they start in
    let text = format!(
        "id,puzzle,note\n{}",
        (0..300)
            .map(|i| if i % 7 == 0 {
                format!("{i},{PUZZLE},\"q\n{i}\"\n")
            } else {
                format!("{i},{PUZZLE},n\n")
            })
            .collect::<String>()
    );
    let file = temp_file(text.as_bytes());
    let paths = [file.path()];
    let options = options(InputFormat::Csv);
    let (want, _) = read_serially(&paths, &options, false).unwrap();
    for chunk in [50, 333, 1000] {
        let mut reader = Reader::open(vec![Source::Path(file.path().into())], &options).unwrap();
        reader.read_files_in_chunks(true);
        reader.chunk_bytes = Some(chunk);
        let mut blocks = Vec::new();
        loop {
            let mut block = Block::default();
            if !reader.read_block(&mut block, 1).unwrap() {
                break;
            }
            blocks.push(block);
            // the end of the file is told only once every chunk has been read: parse them now
            if blocks.len() as u64 * chunk >= text.len() as u64 {
                std::thread::scope(|scope| {
                    for block in blocks.iter_mut().rev() {
                        scope.spawn(move || block.parse());
                    }
                });
            }
        }
        let got: Vec<Record> = blocks.iter().flat_map(|b| b.records().to_vec()).collect();
        assert_eq!(got, want, "chunks of {chunk} bytes");
    }
}

#[test]
fn a_file_that_grows_while_read_in_chunks_is_read_to_its_new_end() {
    let mut file = temp_file(format!("{PUZZLE}\n{PUZZLE}\n").as_bytes());
    let mut reader = Reader::open(
        vec![Source::Path(file.path().into())],
        &options(InputFormat::Line),
    )
    .unwrap();
    reader.read_files_in_chunks(true);
    reader.chunk_bytes = Some(100);
    let mut block = Block::default();
    let mut records = Vec::new();
    let (mut grown, mut chunks) = (false, 0);
    while reader.read_block(&mut block, 1).unwrap() {
        chunks += usize::from(matches!(block.layout, Layout::Chunk { .. }));
        block.parse();
        records.extend_from_slice(block.records());
        if !grown {
            file.write_all(format!("{PUZZLE}\n").repeat(3).as_bytes())
                .unwrap();
            file.flush().unwrap();
            grown = true;
        }
    }
    let lines: Vec<u64> = records.iter().map(|r| r.line).collect();
    assert_eq!(lines, [1, 2, 3, 4, 5]);
    assert!(chunks > 0);
    assert!(records.iter().all(|r| r.puzzle.is_ok()));
}

#[test]
fn a_long_line_is_not_read_by_every_chunk_it_crosses() {
    // one 2 MB line among rows, chunks of 1000 bytes: the chunks it crosses look for a line
    // start in their own range only, and the one it starts in reads it (capped) to its end
    for (format, text) in [
        (
            InputFormat::Line,
            format!("{PUZZLE}\n{}\n{PUZZLE}\n", "7".repeat(2 << 20)),
        ),
        (
            InputFormat::Csv,
            format!(
                "id,puzzle\n1,{PUZZLE}\n2,\"{}\n\"\n3,{PUZZLE}\n",
                "7".repeat(2 << 20)
            ),
        ),
    ] {
        let file = temp_file(text.as_bytes());
        let options = options(format);
        let mut reader = Reader::open(vec![Source::Path(file.path().into())], &options).unwrap();
        reader.read_files_in_chunks(true);
        reader.chunk_bytes = Some(1000);
        let mut block = Block::default();
        let (mut records, mut chunk) = (Vec::new(), None);
        while reader.read_block(&mut block, 1).unwrap() {
            if let Layout::Chunk { chunk: c, .. } = &block.layout {
                chunk.get_or_insert_with(|| c.clone());
            }
            block.parse();
            records.extend_from_slice(block.records());
        }
        let (want, _) = read_serially(&[file.path()], &options, false).unwrap();
        assert_eq!(records, want, "{format:?}");
        // its chunk looks for its end, then reads it; each chunk it crosses looks at its own
        // range: three reads at most, where looking on to its end from every one of them
        // would read it some 2,000 times
        let scanned = chunk.expect("read in chunks").scanned();
        assert!(
            scanned < 4 * text.len() as u64,
            "{format:?}: {scanned} bytes read for {}",
            text.len()
        );
    }
}

#[test]
fn stdin_is_read_as_a_file_only_when_a_regular_file_at_its_start() {
    use std::io::{Seek, SeekFrom};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rows.txt");
    std::fs::write(&path, format!("{PUZZLE}\n{PUZZLE}\n")).unwrap();
    let file = File::open(&path).unwrap();
    assert!(at_start_of_regular_file(file).is_some());
    // read on from where it stands, as a stream
    let mut file = File::open(&path).unwrap();
    file.seek(SeekFrom::Start(82)).unwrap();
    assert!(at_start_of_regular_file(file).is_none());
    // a pipe, a directory: streams (or errors) as before
    let (reader, _writer) = io::pipe().unwrap();
    assert!(at_start_of_regular_file(File::from(std::os::fd::OwnedFd::from(reader))).is_none());
    assert!(at_start_of_regular_file(File::open(dir.path()).unwrap()).is_none());
}

/// A file cut short while it is read (truncated by another program) ends in an error naming it
/// and where the records read end, read in chunks or serially: it ended as if read whole, and
/// the run exited 0 with its last records missing.
#[test]
fn a_file_cut_short_while_read_is_an_error() {
    let text: String = (0..2000).map(|_| format!("{PUZZLE}\n")).collect();
    for chunked in [false, true] {
        let file = temp_file(text.as_bytes());
        let mut reader = open_paths(&[file.path()], &options(InputFormat::Line), false).unwrap();
        reader.read_files_in_chunks(chunked);
        reader.chunk_bytes = Some(8192);
        let mut block = Block::default();
        assert!(reader.read_block(&mut block, 100).unwrap());
        block.parse();
        let mut records = block.records().len();
        // cut short, in the middle of line 1221 (past what a first read buffers): what is read
        // from here on ends before the length the file had
        file.as_file().set_len(1220 * 82 + 40).unwrap();
        let error = loop {
            match reader.read_block(&mut block, 100) {
                Ok(true) => {
                    block.parse();
                    records += block.records().len();
                }
                Ok(false) => break None,
                Err(e) => break Some(e.to_string()),
            }
        };
        let error = error.unwrap_or_else(|| panic!("chunked {chunked}: no error, {records} read"));
        assert!(
            error.contains("the file was cut short while it was read: it held 164000 bytes"),
            "{error}"
        );
        // the part of line 1221 read is no record: the records read are the whole lines
        assert_eq!(records, 1220, "chunked {chunked}: {error}");
        assert!(
            error.contains("after line 1220:"),
            "chunked {chunked}, {records}: {error}"
        );
    }
}
