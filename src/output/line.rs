//! The line writer: one line per record, the 81-digit solution when the record is solved (`solved`
//! or `unique`), else the status word (`multiple`, `unsolvable`, `contradiction`, `malformed`; a
//! `multiple` record prints its word, not one of its solutions, so nothing is hidden).

use std::io::{self, BufWriter, Write};

use super::Sink;
use crate::grid::CELLS;
use crate::input::Record;
use crate::status::Answer;

/// Writes the line format.
pub(crate) struct LineSink<W: Write> {
    out: BufWriter<W>,
}

impl<W: Write> LineSink<W> {
    pub(crate) fn new(out: BufWriter<W>) -> LineSink<W> {
        LineSink { out }
    }
}

impl<W: Write> Sink for LineSink<W> {
    fn write(&mut self, _record: &Record, answer: &Answer) -> io::Result<()> {
        match answer.solution {
            Some(solution) if answer.status.is_solved() => {
                let mut line = [b'\n'; CELLS + 1];
                line[..CELLS].copy_from_slice(&solution.to_line(b'0'));
                self.out.write_all(&line)
            }
            _ => {
                self.out.write_all(answer.status.as_str().as_bytes())?;
                self.out.write_all(b"\n")
            }
        }
    }

    fn finish(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::super::OutputFormat;
    use super::super::tests::{PUZZLE, SOLUTION, answer, record, render};
    use crate::status::Status;

    #[test]
    fn writes_solutions_or_status_words() {
        let items: Vec<_> = Status::ALL
            .iter()
            .map(|&s| (record(1, PUZZLE), answer(s)))
            .collect();
        let text = render(OutputFormat::Line, None, false, &items);
        assert_eq!(
            text,
            format!("{SOLUTION}\n{SOLUTION}\nmultiple\nunsolvable\ncontradiction\nmalformed\n")
        );
    }

    #[test]
    fn writes_nothing_for_no_records() {
        assert_eq!(render(OutputFormat::Line, None, false, &[]), "");
    }
}
