//! Any bytes, read as an input in every format, each record solved and checked: no panic, and
//! every answer consistent.
//!
//! The first byte chooses the options (format, a small or the default record cap, given
//! solutions read or not, the block size and what CSV rows keep); the rest is the input,
//! compressed or not, text or not. Every record is read, one by one, again in blocks as
//! `solve` reads (the same records both ways, with what they keep), and again from a file read
//! in chunks (the same records, all they hold); the first 16 are solved and
//! checked. Checked for each run: records come in strictly increasing line order (within the
//! input's lines when it is plain text); a malformed record is exactly one whose puzzle did not parse; the solver's
//! count, solutions and conflicts agree with `check`'s verdict; every solution solves its
//! puzzle; and on puzzles with enough givens, the reference solver agrees on the count.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_batch::check::{self, Options, Verdict};
use sudoku_batch::input::{Block, InputFormat, Keep, Reader, ReaderOptions, Source};
use sudoku_batch::solver::{self, reference};

/// The records of `reader` read in blocks of `records` records' worth of bytes, parsed after.
fn read_blocks(reader: &mut Reader, records: usize) -> Vec<sudoku_batch::input::Record> {
    let mut block = Block::default();
    let mut out = Vec::new();
    while let Ok(true) = reader.read_block(&mut block, records) {
        block.parse();
        out.extend_from_slice(block.records());
    }
    out
}

/// Where the first LF of `bytes` is (its length without one).
fn first_lf(bytes: &[u8]) -> usize {
    bytes.iter().position(|&b| b == b'\n').unwrap_or(bytes.len())
}

fuzz_target!(|data: &[u8]| {
    let Some((&knobs, bytes)) = data.split_first() else {
        return;
    };
    let formats = [
        InputFormat::Auto,
        InputFormat::Line,
        InputFormat::Csv,
        InputFormat::Grid,
    ];
    let options = ReaderOptions {
        format: formats[usize::from(knobs & 3)],
        max_record: if knobs & 4 != 0 { 100 } else { 64 * 1024 },
        ..ReaderOptions::default()
    };
    let Ok(mut reader) = Reader::open(vec![Source::Bytes(bytes.to_vec())], &options) else {
        return;
    };
    if knobs & 8 != 0 && reader.read_solutions(None).is_err() {
        return;
    }
    let mut records = Vec::new();
    while let Ok(1..) = reader.read_batch(64, &mut records) {}

    // read again the way `solve` reads, in blocks of 1 to 16 records' worth of bytes parsed
    // after, keeping all or part of each CSV row as `solve` asks for its output: the same
    // records, with what they keep (quote-free CSV blocks take another path through the rows)
    let mut again =
        Reader::open(vec![Source::Bytes(bytes.to_vec())], &options).expect("opened once");
    if knobs & 8 != 0 {
        again.read_solutions(None).expect("read once");
    }
    let keep = match knobs >> 6 {
        0 => Keep::default(),
        1 => Keep { fields: false, cells: false },
        2 => Keep { fields: true, cells: false },
        _ => Keep { fields: false, cells: true },
    };
    again.keep(keep);
    let block_records = 1 + usize::from((knobs >> 4) & 3) * 5;
    let in_blocks = read_blocks(&mut again, block_records);
    assert_eq!(in_blocks.len(), records.len(), "records read in blocks differ");
    for (a, b) in in_blocks.iter().zip(&records) {
        assert_eq!((a.source, a.line, &a.puzzle), (b.source, b.line, &b.puzzle));
        assert_eq!(a.solution, b.solution);
        assert!(!keep.fields || a.fields == b.fields, "fields differ");
        assert!(!keep.cells || a.cells == b.cells, "cells differ");
    }

    // and from a file, read in chunks by `pread` (when plain: a compressed file is a stream),
    // each chunk from where the one before it ended: the same records, all they hold
    let path = std::env::temp_dir().join(format!("sudoku-batch-fuzz-{}", std::process::id()));
    std::fs::write(&path, bytes).expect("temporary file written");
    let from_file = Reader::open(vec![Source::Path(path.clone())], &options).ok().map(|mut r| {
        if knobs & 8 != 0 {
            r.read_solutions(None).expect("read once");
        }
        r.read_files_in_chunks(true);
        read_blocks(&mut r, block_records)
    });
    let _ = std::fs::remove_file(&path);
    let from_file = from_file.expect("a file opens as its bytes do");
    assert!(from_file == records, "records read in chunks differ");

    for pair in records.windows(2) {
        assert!(pair[0].line < pair[1].line, "lines out of order");
    }
    let plain = std::str::from_utf8(bytes).is_ok() && !bytes.starts_with(b"BZh");
    if plain && !bytes.starts_with(b"PK") {
        // an input whose first line end is a CR alone has CRs for line ends (classic Mac
        // text), each read as an LF; grid input takes a CR inside a line for a row's end, and
        // counts it as a line end (a file joined from CR and LF ones: see the grid module)
        let lf = first_lf(bytes);
        let cr_lines = bytes[..lf].iter().enumerate().any(|(at, &b)| b == b'\r' && at + 1 < lf);
        let cr_ends = cr_lines || reader.format() == InputFormat::Grid;
        let ends = bytes.iter().filter(|&&b| b == b'\n' || (cr_ends && b == b'\r')).count();
        let lines = ends as u64 + 1;
        assert!(records.iter().all(|r| (1..=lines).contains(&r.line)));
    }

    // every record was read; the first few are solved and checked (hard puzzles take a
    // millisecond each in this build, and the fuzzer's worth is in many runs)
    for record in records.iter().take(16) {
        let check = check::check_record(record, None, &Options::default());
        let Ok(puzzle) = &record.puzzle else {
            assert_eq!(check.verdict, Verdict::Malformed);
            continue;
        };
        assert_ne!(check.verdict, Verdict::Malformed);
        let outcome = match solver::solve(puzzle, 2) {
            Err(_) => {
                assert!(puzzle.conflict().is_some());
                assert_eq!(check.verdict, Verdict::Contradiction);
                continue;
            }
            Ok(outcome) => outcome,
        };
        assert!(puzzle.conflict().is_none());
        assert_eq!(outcome.solution.is_some(), outcome.count >= 1);
        assert_eq!(outcome.second.is_some(), outcome.count >= 2);
        if let Some(first) = outcome.solution {
            assert!(first.solves(puzzle));
        }
        if let Some(second) = outcome.second {
            assert!(second.solves(puzzle));
            assert_ne!(Some(second), outcome.solution);
        }
        match (outcome.count, check.verdict) {
            (0, Verdict::Unsolvable) => {}
            (1, Verdict::Unique) => assert_eq!(check.solution, outcome.solution),
            (1, Verdict::WrongSolution) => assert!(record.solution.is_some()),
            (2, Verdict::Multiple) => {
                assert!(check.detail.as_deref().is_some_and(|d| d.contains("differ in")));
            }
            (2, Verdict::WrongSolution) => assert!(record.solution.is_some()),
            (count, verdict) => panic!("{count} solutions but verdict {verdict}"),
        }
        // the oracle is quick enough with this many givens
        let givens = puzzle.cells().iter().filter(|&&v| v != 0).count();
        if givens >= 30 {
            assert_eq!(reference::solve(puzzle, 2).count, outcome.count);
        }
    }
});
