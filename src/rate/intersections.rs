//! Intersections: a digit of one house confined to the cells it shares with a second house leaves
//! the second house's other cells. Pointing (block to line, 2.6), claiming (line to block, 2.8),
//! their direct forms that are reported only when the removal leaves a hidden single which they
//! then place (1.7, 1.9), and the generalized intersection (2.9): the cells that see every place
//! of a digit in a house lose it.

use std::ops::ControlFlow;

use super::board::{Board, Cells, HOUSE_SET, Kind, PEER_SET, cells_of};
use super::hint::{Hint, Sink, Technique};

/// The pairs of house kinds in Explainer's scan order: blocks against columns and rows, then
/// columns and rows against blocks.
const PAIRS: [(Kind, Kind); 4] = [
    (Kind::Block, Kind::Column),
    (Kind::Block, Kind::Row),
    (Kind::Column, Kind::Block),
    (Kind::Row, Kind::Block),
];

/// Pointing and claiming, then generalized intersections.
pub fn intersections(board: &Board, sink: Sink) -> ControlFlow<()> {
    locking(board, false, sink)?;
    for kind in [Kind::Block, Kind::Column, Kind::Row] {
        for i in 0..9 {
            generalized(board, kind.house(i), sink)?;
        }
    }
    ControlFlow::Continue(())
}

/// Direct pointing and direct claiming.
pub fn direct_intersections(board: &Board, sink: Sink) -> ControlFlow<()> {
    locking(board, true, sink)
}

fn locking(board: &Board, direct: bool, sink: Sink) -> ControlFlow<()> {
    for (kind1, kind2) in PAIRS {
        for i1 in 0..9 {
            let h1 = kind1.house(i1);
            // the one house of the second kind holding all of a digit's places, digit by
            // digit; met in Explainer's order (second house, then digit) once sorted
            let mut found = [(0u8, 0u8); 9];
            let mut n = 0;
            for digit in 1..=9u8 {
                let pos = board.positions(h1, digit);
                if pos.count_ones() > 1 {
                    if let Some(i2) = holder(kind1, kind2, i1, pos) {
                        found[n] = (i2, digit);
                        n += 1;
                    }
                }
            }
            found[..n].sort_by_key(|&(i2, _)| i2);
            for &(i2, digit) in &found[..n] {
                let h2 = kind2.house(i2 as usize);
                if direct {
                    following_singles(board, kind1, i1, h1, h2, digit, sink)?;
                } else if let Some(hint) = locking_hint(board, h1, h2, digit, None) {
                    sink(hint)?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// The house of kind `kind2` holding every place `pos` of house `i1` of kind `kind1`, if one
/// does.
fn holder(kind1: Kind, kind2: Kind, i1: usize, pos: u16) -> Option<u8> {
    // places j of a block are (row j / 3, column j % 3) inside it; of a line, j is the place
    // along it, and j / 3 says which block it crosses
    let same_third = |pos: u16| {
        let t = pos.trailing_zeros() / 3;
        (pos & !(0b111 << (3 * t)) == 0).then_some(t as usize)
    };
    let same_mod3 = |pos: u16| {
        let m = pos.trailing_zeros() % 3;
        (pos & !(0b001_001_001 << m) == 0).then_some(m as usize)
    };
    let i2 = match (kind1, kind2) {
        (Kind::Block, Kind::Column) => (i1 % 3) * 3 + same_mod3(pos)?,
        (Kind::Block, Kind::Row) => (i1 / 3) * 3 + same_third(pos)?,
        (Kind::Column, Kind::Block) => same_third(pos)? * 3 + i1 / 3,
        (Kind::Row, Kind::Block) => (i1 / 3) * 3 + same_third(pos)?,
        _ => return None,
    };
    Some(i2 as u8)
}

/// The cells of `house` that have `digit` as a candidate.
#[inline]
fn cells_with(board: &Board, house: usize, digit: u8) -> Cells {
    board.cells_with(digit) & HOUSE_SET[house]
}

/// The direct form: another house of the first kind crossing `h2` whose digit would be left with
/// one place by the removal.
fn following_singles(
    board: &Board,
    kind1: Kind,
    i1: usize,
    h1: usize,
    h2: usize,
    digit: u8,
    sink: Sink,
) -> ControlFlow<()> {
    for i3 in (0..9).filter(|&i3| i3 != i1) {
        let h3 = kind1.house(i3);
        if HOUSE_SET[h3] & HOUSE_SET[h2] == 0 {
            continue;
        }
        let cells = cells_with(board, h3, digit);
        if cells.count_ones() > 1 {
            let outside = cells & !HOUSE_SET[h2];
            if outside.count_ones() == 1 {
                let single = outside.trailing_zeros() as u8;
                if let Some(hint) = locking_hint(board, h1, h2, digit, Some(single)) {
                    sink(hint)?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

fn locking_hint(
    board: &Board,
    h1: usize,
    h2: usize,
    digit: u8,
    single: Option<u8>,
) -> Option<Hint> {
    let victims = cells_with(board, h2, digit) & !HOUSE_SET[h1];
    let eliminations: Vec<(u8, u16)> = cells_of(victims).map(|c| (c as u8, 1 << digit)).collect();
    let pointing = Kind::of(h1) == Kind::Block;
    match single {
        // a direct hint always places its single, so it is always worth taking
        Some(cell) => Some(Hint {
            technique: if pointing {
                Technique::DirectPointing
            } else {
                Technique::DirectClaiming
            },
            difficulty: if pointing { 1.7 } else { 1.9 },
            placement: Some((cell, digit)),
            eliminations,
        }),
        None if eliminations.is_empty() => None,
        None => Some(Hint {
            technique: if pointing {
                Technique::Pointing
            } else {
                Technique::Claiming
            },
            difficulty: if pointing { 2.6 } else { 2.8 },
            placement: None,
            eliminations,
        }),
    }
}

/// Generalized intersections in one house: for each digit with 2 to 7 places, the cells outside
/// the house that see all of them lose the digit.
fn generalized(board: &Board, house: usize, sink: Sink) -> ControlFlow<()> {
    for digit in 1..=9u8 {
        let cells = cells_with(board, house, digit);
        let n = cells.count_ones();
        if !(2..8).contains(&n) {
            continue;
        }
        let seen = cells_of(cells).fold(!0u128, |s, c| s & PEER_SET[c]) & !HOUSE_SET[house];
        let victims: Vec<(u8, u16)> = cells_of(seen)
            .filter(|&c| board.has(c, digit))
            .map(|c| (c as u8, 1 << digit))
            .collect();
        if !victims.is_empty() {
            sink(Hint {
                technique: Technique::GeneralizedIntersection,
                difficulty: 2.9,
                placement: None,
                eliminations: victims,
            })?;
        }
    }
    ControlFlow::Continue(())
}
