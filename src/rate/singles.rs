//! Singles: a digit with one place left in a house (hidden single, 1.0 when the cell is the
//! house's last blank one, 1.2 in a block, 1.5 in a row or column) and a cell with one candidate
//! left (naked single, 2.3).
//!
//! Scan orders as Explainer's: hidden singles that are a house's last blank cell first (blocks,
//! columns, rows), then the others in the same house order; naked singles in cell order.

use std::ops::ControlFlow;

use super::board::{Board, HOUSE_CELLS, Kind, first_digit};
use super::hint::{Hint, Sink, Technique};

/// The first hidden single, from the board's bookkeeping (what [`hidden_singles`] sends first).
pub fn first_hidden_single(board: &Board) -> Option<Hint> {
    let (house, digit, alone) = board.first_hidden_single()?;
    let pos = board.positions(house, digit);
    let kind = Kind::of(house);
    Some(Hint {
        technique: Technique::HiddenSingle { kind, alone },
        difficulty: match (alone, kind) {
            (true, _) => 1.0,
            (false, Kind::Block) => 1.2,
            (false, _) => 1.5,
        },
        placement: Some((HOUSE_CELLS[house][pos.trailing_zeros() as usize], digit)),
        eliminations: Vec::new(),
    })
}

/// The first naked single (what [`naked_singles`] sends first).
pub fn first_naked_single(board: &Board) -> Option<Hint> {
    let cells = board.naked_cells();
    (cells != 0).then(|| {
        let cell = cells.trailing_zeros() as usize;
        Hint {
            technique: Technique::NakedSingle,
            difficulty: 2.3,
            placement: Some((cell as u8, first_digit(board.cands(cell)))),
            eliminations: Vec::new(),
        }
    })
}

/// Hidden singles.
pub fn hidden_singles(board: &Board, sink: Sink) -> ControlFlow<()> {
    for alone in [true, false] {
        for kind in [Kind::Block, Kind::Column, Kind::Row] {
            for i in 0..9 {
                let house = kind.house(i);
                let is_alone = board.empty_count(house) == 1;
                if is_alone != alone {
                    continue;
                }
                for digit in 1..=9u8 {
                    let pos = board.positions(house, digit);
                    if pos.count_ones() == 1 {
                        let cell = HOUSE_CELLS[house][pos.trailing_zeros() as usize];
                        let difficulty = match (alone, kind) {
                            (true, _) => 1.0,
                            (false, Kind::Block) => 1.2,
                            (false, _) => 1.5,
                        };
                        sink(Hint {
                            technique: Technique::HiddenSingle { kind, alone },
                            difficulty,
                            placement: Some((cell, digit)),
                            eliminations: Vec::new(),
                        })?;
                    }
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// Naked singles.
pub fn naked_singles(board: &Board, sink: Sink) -> ControlFlow<()> {
    for cell in 0..81 {
        if board.value(cell) == 0 && board.count(cell) == 1 {
            sink(Hint {
                technique: Technique::NakedSingle,
                difficulty: 2.3,
                placement: Some((cell as u8, first_digit(board.cands(cell)))),
                eliminations: Vec::new(),
            })?;
        }
    }
    ControlFlow::Continue(())
}

#[cfg(test)]
mod tests {
    use super::super::tests::{all_hints, board};
    use super::*;

    #[test]
    fn last_blank_cell_of_a_house_is_a_hidden_single_of_one() {
        // row 1 lacks only its last digit
        let b = board(
            "12345678.........................................................................",
        );
        let hints = all_hints(&b, hidden_singles);
        assert_eq!(
            hints[0].technique,
            Technique::HiddenSingle {
                kind: Kind::Row,
                alone: true
            }
        );
        assert_eq!(hints[0].difficulty, 1.0);
        assert_eq!(hints[0].placement, Some((8, 9)));
    }

    #[test]
    fn the_bookkeeping_finds_the_first_single_the_scan_finds() {
        // every step of an easy puzzle's path: the board's tables agree with a full scan
        let mut b = board(
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
        );
        while !b.is_solved() {
            let scan = all_hints(&b, hidden_singles).into_iter().next();
            assert_eq!(first_hidden_single(&b), scan);
            let naked = all_hints(&b, naked_singles).into_iter().next();
            assert_eq!(first_naked_single(&b), naked);
            let Some(hint) = scan.or(naked) else { break };
            hint.apply(&mut b);
        }
        assert!(b.is_solved());
    }

    #[test]
    fn naked_single_is_the_only_candidate_of_a_cell() {
        // r1c1 sees 2..9 (row and column) and so holds 1
        let b = board(
            ".2345....6........7........8........9............................................",
        );
        let hints = all_hints(&b, naked_singles);
        assert_eq!(hints.len(), 1);
        assert_eq!(hints[0].placement, Some((0, 1)));
        assert_eq!(hints[0].difficulty, 2.3);
    }
}
