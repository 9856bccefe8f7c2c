//! The grid writer: per record 9 lines of 9 space-separated digits of the solution when the record is
//! solved (`solved` or `unique`), else the status word on one line; ONE blank line between records,
//! none before the first or after the last (so one solved puzzle prints exactly as Baekjoon 2580
//! expects).

use super::Format;
use crate::input::Record;
use crate::status::Answer;

/// Formats the grid format.
pub(crate) struct GridFormat;

impl Format for GridFormat {
    fn record(&self, _record: &Record, answer: &Answer, first: bool, out: &mut Vec<u8>) {
        if !first {
            out.push(b'\n');
        }
        match answer.solution {
            Some(solution) if answer.status.is_solved() => solution.write_rows(out),
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
    use super::super::tests::{PUZZLE, answer, record, render};
    use crate::status::{Answer, Status};

    const BAEKJOON_IN: &str = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/baekjoon_example1.in"
    ));
    const BAEKJOON_OUT: &str = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/baekjoon_example1.out"
    ));

    #[test]
    fn matches_the_baekjoon_expected_output() {
        let cells: String = BAEKJOON_IN.split_whitespace().collect();
        let solved: String = BAEKJOON_OUT.split_whitespace().collect();
        let answer = Answer {
            status: Status::Solved,
            solution: solved.parse().ok(),
            guesses: 0,
            nanos: 1,
        };
        let text = render(
            OutputFormat::Grid,
            None,
            false,
            &[(record(1, &cells), answer)],
        );
        assert_eq!(text, BAEKJOON_OUT);
    }

    #[test]
    fn separates_records_with_one_blank_line() {
        let items = [
            (record(1, PUZZLE), answer(Status::Unique)),
            (record(2, "123"), answer(Status::Malformed)),
            (record(3, PUZZLE), answer(Status::Multiple)),
        ];
        let text = render(OutputFormat::Grid, None, false, &items);
        let grid = "4 8 3 9 2 1 6 5 7\n9 6 7 3 4 5 8 2 1\n2 5 1 8 7 6 4 9 3\n\
                    5 4 8 1 3 2 9 7 6\n7 2 9 5 6 4 1 3 8\n1 3 6 7 9 8 2 4 5\n\
                    3 7 2 6 8 9 5 1 4\n8 1 4 2 5 3 7 6 9\n6 9 5 4 1 7 3 8 2\n";
        assert_eq!(text, format!("{grid}\nmalformed\n\nmultiple\n"));
    }
}
