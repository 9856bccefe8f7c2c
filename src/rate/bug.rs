//! Bivalue universal grave (BUG, 5.6 and up): if every blank cell but a few held two candidates
//! and every digit two places in each house, the grid would have two solutions; in a puzzle with
//! one, the extra candidates of the few cells ("BUG cells") cannot all go. Types 1 to 4 as
//! Explainer defines them: type 1 (5.6) one BUG cell keeps only its extra digit; type 2 (5.7) one
//! extra digit leaves the cells seeing every BUG cell; type 3 (5.7 plus 0.1 a digit past two) the
//! extra digits form a naked set with cells of a house; type 4 (5.7) two BUG cells in a house with
//! a locked digit.
//!
//! The BUG cells are found as Explainer finds them: for each house (blocks, rows, columns) and
//! digit with other than 0 or 2 places, the one place in a cell of three or more candidates.

use std::ops::ControlFlow;

use super::Combinations;
use super::board::{Board, Digits, HOUSE_CELLS, HOUSE_SET, HOUSES_OF, PEERS, first_digit};
use super::hint::{Hint, Sink, Technique};

/// BUG hints (at most a few, in Explainer's order).
pub fn bug(board: &Board, sink: Sink) -> ControlFlow<()> {
    let mut temp = board.clone();
    let mut bug_cells: Vec<u8> = Vec::new();
    let mut bug_values = [0 as Digits; 81];
    let mut all_values: Digits = 0;
    // the cells seeing every BUG cell, in the first BUG cell's peer order
    let mut common: Option<Vec<u8>> = None;
    for (house, house_cells) in HOUSE_CELLS.iter().enumerate() {
        for digit in 1..=9u8 {
            let pos = board.positions(house, digit);
            let n = pos.count_ones();
            if n == 0 || n == 2 {
                continue;
            }
            let big: Vec<u8> = super::bits(pos as u64)
                .map(|j| house_cells[j])
                .filter(|&c| board.count(c as usize) >= 3)
                .collect();
            if big.is_empty() {
                return ControlFlow::Continue(());
            }
            if big.len() == 1 {
                let cell = big[0];
                if !bug_cells.contains(&cell) {
                    bug_cells.push(cell);
                }
                bug_values[cell as usize] |= 1 << digit;
                all_values |= 1 << digit;
                temp.remove(cell as usize, 1 << digit);
                let peers = &PEERS[cell as usize];
                let mut set = match common.take() {
                    None => peers.to_vec(),
                    Some(set) => set.into_iter().filter(|c| peers.contains(c)).collect(),
                };
                set.retain(|c| !bug_cells.contains(c));
                let empty = set.is_empty();
                common = Some(set);
                if bug_cells.len() > 1 && all_values.count_ones() > 1 && empty {
                    return ControlFlow::Continue(()); // none of types 1, 2 or 3
                }
            }
        }
    }
    // without the extra digits, the grid must be a BUG
    if (0..81).any(|c| temp.value(c) == 0 && temp.count(c) != 2) {
        return ControlFlow::Continue(());
    }
    for house in 0..27 {
        for digit in 1..=9u8 {
            let n = temp.positions(house, digit).count_ones();
            if n != 0 && n != 2 {
                return ControlFlow::Continue(());
            }
        }
    }
    let common = common.unwrap_or_default();
    if bug_cells.len() == 1 {
        let cell = bug_cells[0];
        sink(Hint {
            technique: Technique::Bug(1),
            difficulty: 5.6,
            placement: None,
            eliminations: vec![(cell, board.cands(cell as usize) & !all_values)],
        })?;
    } else if all_values.count_ones() == 1 {
        let digit = first_digit(all_values);
        let eliminations: Vec<(u8, Digits)> = common
            .iter()
            .filter(|&&c| board.has(c as usize, digit))
            .map(|&c| (c, 1 << digit))
            .collect();
        if !eliminations.is_empty() {
            sink(Hint::eliminate(Technique::Bug(2), 5.7, eliminations))?;
        }
        if bug_cells.len() == 2 {
            type4(board, &bug_cells, &bug_values, all_values, sink)?;
        }
    } else if !common.is_empty() {
        if bug_cells.len() == 2 {
            type4(board, &bug_cells, &bug_values, all_values, sink)?;
        }
        type3(board, &bug_cells, all_values, &common, sink)?;
    }
    ControlFlow::Continue(())
}

/// The houses holding every BUG cell, in the order block, row, column.
fn shared_houses(cells: &[u8]) -> impl Iterator<Item = usize> + '_ {
    (0..3).filter_map(move |k| {
        let h = HOUSES_OF[cells[0] as usize][k];
        cells
            .iter()
            .all(|&c| HOUSES_OF[c as usize][k] == h)
            .then_some(h as usize)
    })
}

fn type3(
    board: &Board,
    bug_cells: &[u8],
    all_values: Digits,
    common: &[u8],
    sink: Sink,
) -> ControlFlow<()> {
    for house in shared_houses(bug_cells) {
        let cells: Vec<u8> = common
            .iter()
            .copied()
            .filter(|&c| HOUSE_SET[house] >> c & 1 != 0)
            .collect();
        for degree in 2..=6u32 {
            if (cells.len() as u32) < degree {
                continue;
            }
            for set in Combinations::new(degree - 1, cells.len() as u32) {
                let mut union: Digits = 0;
                let mut ok = all_values.count_ones() > 1;
                for j in super::bits(set) {
                    let c = board.cands(cells[j] as usize);
                    ok &= c.count_ones() > 1;
                    union |= c;
                }
                if union.count_ones() != degree {
                    continue;
                }
                let naked = union | all_values;
                if !ok || naked.count_ones() != degree {
                    continue;
                }
                let eliminations: Vec<(u8, Digits)> = cells
                    .iter()
                    .enumerate()
                    .filter(|&(j, c)| set >> j & 1 == 0 && !bug_cells.contains(c))
                    .filter_map(|(_, &c)| {
                        let d = board.cands(c as usize) & naked;
                        (d != 0).then_some((c, d))
                    })
                    .collect();
                if !eliminations.is_empty() {
                    sink(Hint::eliminate(
                        Technique::Bug(3),
                        5.7 + (naked.count_ones() - 1) as f64 * 0.1,
                        eliminations,
                    ))?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

fn type4(
    board: &Board,
    bug_cells: &[u8],
    bug_values: &[Digits; 81],
    all_values: Digits,
    sink: Sink,
) -> ControlFlow<()> {
    let (c1, c2) = (bug_cells[0] as usize, bug_cells[1] as usize);
    let common = board.cands(c1) & board.cands(c2) & !all_values;
    if common.count_ones() != 1 {
        return ControlFlow::Continue(());
    }
    for _ in shared_houses(bug_cells) {
        let keep = |c: usize| board.cands(c) & !bug_values[c] & !common;
        sink(Hint {
            technique: Technique::Bug(4),
            difficulty: 5.7,
            placement: None,
            eliminations: vec![(c1 as u8, keep(c1)), (c2 as u8, keep(c2))],
        })?;
    }
    ControlFlow::Continue(())
}
