//! `augment`: each record's puzzle (and given solution) under seeded random symmetries, the copies
//! written in input order, then a one-line summary on stderr.

use std::process::ExitCode;

use anyhow::Result;

use sudoku_batch::grid::Grid;
use sudoku_batch::input::InputFormat;
use sudoku_batch::output::{self, AugmentColumns, Augmented};
use sudoku_batch::transform;

use super::records::{self, RecordCommand};
use crate::cli::AugmentArgs;

/// Runs `augment`; the exit code is 0, or 128 plus the number of a signal that stopped it.
pub fn run(args: &AugmentArgs) -> Result<ExitCode> {
    let (copies, seed, keep) = (args.copies, args.seed, args.keep_original);
    records::run(&RecordCommand::<Augmented> {
        name: "augment",
        input: &args.input,
        out: &args.out,
        setup: &|reader| super::read_solutions(reader, args.solution_column.as_ref()),
        format: &|reader, options, format| {
            let columns = AugmentColumns {
                puzzle: reader.puzzle_column().map(|c| c - 1),
                solution: reader.solution_column().map(|c| c - 1),
                keep_original: keep,
                line_solutions: reader.format() != InputFormat::Csv,
            };
            output::augment_formatter(format, reader.header(), options, columns)
        },
        answer: &|record| {
            let Ok(puzzle) = &record.puzzle else {
                return Augmented::Malformed;
            };
            let solution = match record.solution.as_deref().map(|s| s.parse::<Grid>()) {
                Some(Err(_)) => return Augmented::BadSolution,
                Some(Ok(s)) => Some(s),
                None => None,
            };
            let mut rng = transform::record_rng(seed, record.source, record.line);
            Augmented::Copies(transform::augment(
                puzzle,
                solution.as_ref(),
                &mut rng,
                copies,
                keep,
            ))
        },
    })
}
