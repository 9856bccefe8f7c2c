//! `canon`: every record's minlex form (and its hash, and optionally the transform that gives it)
//! computed on the pool, written in input order, then a one-line summary on stderr.

use std::process::ExitCode;

use anyhow::Result;

use sudoku_batch::canon;
use sudoku_batch::output::{self, CanonAnswer, CanonColumns};

use super::records::{self, RecordCommand};
use crate::cli::CanonArgs;

/// Runs `canon`; the exit code is 0, or 128 plus the number of a signal that stopped it.
pub fn run(args: &CanonArgs) -> Result<ExitCode> {
    let columns = CanonColumns {
        transform: args.transform,
    };
    records::run(&RecordCommand::<CanonAnswer> {
        name: "canon",
        input: &args.input,
        out: &args.out,
        setup: &|_| Ok(()),
        format: &|reader, options, format| {
            output::canon_formatter(format, reader.header(), options, columns)
        },
        answer: &|record| record.puzzle.as_ref().ok().map(canon::canonical),
        no_timings: true,
        batch_cap: None,
        tally: &|_| {},
        report: &String::new,
        stats: None,
    })
}
