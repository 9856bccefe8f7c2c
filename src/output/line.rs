//! The line writer: one line per record, the 81-digit solution when the record is solved (`solved`
//! or `unique`), else the status word (`multiple`, `unsolvable`, `contradiction`, `malformed`; a
//! `multiple` record prints its word, not one of its solutions, so nothing is hidden).

use super::Format;
use crate::grid::CELLS;
use crate::input::Record;
use crate::status::Answer;

/// Formats the line format.
pub(crate) struct LineFormat;

impl Format for LineFormat {
    fn record(&self, _record: &Record, answer: &Answer, _first: bool, out: &mut Vec<u8>) {
        match answer.solution {
            Some(solution) if answer.status.is_solved() => {
                let mut line = [b'\n'; CELLS + 1];
                line[..CELLS].copy_from_slice(&solution.to_line(b'0'));
                out.extend_from_slice(&line);
            }
            _ => {
                out.extend_from_slice(answer.status.as_str().as_bytes());
                out.push(b'\n');
            }
        }
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
