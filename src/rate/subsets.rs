//! Subsets: N cells of a house whose candidates are N digits between them (naked pair 3.0,
//! triplet 3.6, quad 5.0), or N digits of a house confined to N cells (hidden pair 3.4, triplet
//! 4.0, quad 5.4), and the direct hidden pair and triplet (2.0, 2.5), reported only when the
//! removal leaves a hidden single, which they place.
//!
//! Scan order as Explainer's: blocks, columns, rows; in a house, the sets of N positions (or
//! digits) in increasing order of their bit masks.

use std::ops::ControlFlow;

use super::Combinations;
use super::board::{ALL_DIGITS, Board, Digits, HOUSE_CELLS, Kind};
use super::hint::{Hint, Sink, Technique};

const KINDS: [Kind; 3] = [Kind::Block, Kind::Column, Kind::Row];

/// Naked sets of `size` cells.
pub fn naked_sets(board: &Board, size: u32, sink: Sink) -> ControlFlow<()> {
    for kind in KINDS {
        for i in 0..9 {
            let house = kind.house(i);
            if board.empty_count(house) < 2 * size {
                continue;
            }
            let cells = &HOUSE_CELLS[house];
            // only cells of 2 to `size` candidates can be in a set; sets of them come in the
            // same order as sets of all the house's cells
            let mut at = [0usize; 9];
            let mut n = 0;
            for (j, &c) in cells.iter().enumerate() {
                if (2..=size).contains(&board.count(c as usize)) {
                    at[n] = j;
                    n += 1;
                }
            }
            for pick in Combinations::new(size, n as u32) {
                let mut set = 0u32;
                let mut union: Digits = 0;
                for k in super::bits(pick) {
                    set |= 1 << at[k];
                    union |= board.cands(cells[at[k]] as usize);
                }
                if union.count_ones() != size {
                    continue;
                }
                let others = (0..9).filter(|&j| set >> j & 1 == 0).map(|j| cells[j]);
                let eliminations = board.losses(others, union);
                if !eliminations.is_empty() {
                    sink(Hint {
                        technique: Technique::NakedSet(size as u8),
                        difficulty: match size {
                            2 => 3.0,
                            3 => 3.6,
                            _ => 5.0,
                        },
                        placement: None,
                        eliminations,
                    })?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// Hidden sets of `size` digits; `direct`: only those whose removal leaves a hidden single.
pub fn hidden_sets(board: &Board, size: u32, direct: bool, sink: Sink) -> ControlFlow<()> {
    for kind in KINDS {
        for i in 0..9 {
            let house = kind.house(i);
            let empty = board.empty_count(house);
            if !(empty > 2 * size || (direct && empty > size)) {
                continue;
            }
            let mut positions = [0u16; 10];
            for (d, p) in positions.iter_mut().enumerate().skip(1) {
                *p = board.positions(house, d as u8);
            }
            // only digits with 2 to `size` places can be in a set; sets of them come in the
            // same order as sets of all digits
            let mut digits_in = [0u8; 9];
            let mut n = 0;
            for d in 1..=9u8 {
                if (2..=size).contains(&positions[d as usize].count_ones()) {
                    digits_in[n] = d;
                    n += 1;
                }
            }
            for set in Combinations::new(size, n as u32) {
                let mut digits: Digits = 0;
                let mut union = 0u16;
                for j in super::bits(set) {
                    digits |= 1 << digits_in[j];
                    union |= positions[digits_in[j] as usize];
                }
                if union.count_ones() != size {
                    continue;
                }
                let cells = &HOUSE_CELLS[house];
                let places = super::bits(union as u64).map(|j| cells[j]);
                if direct {
                    // the first other digit left with one place outside the set's cells
                    let single = (1..=9u8).filter(|&d| digits >> d & 1 == 0).find(|&d| {
                        let p = positions[d as usize];
                        p.count_ones() > 1 && (p & !union).count_ones() == 1
                    });
                    if let Some(d) = single {
                        let j = (positions[d as usize] & !union).trailing_zeros() as usize;
                        sink(Hint {
                            technique: Technique::DirectHiddenSet(size as u8),
                            difficulty: if size == 2 { 2.0 } else { 2.5 },
                            placement: Some((cells[j], d)),
                            eliminations: board.losses(places, ALL_DIGITS & !digits),
                        })?;
                    }
                    continue;
                }
                let eliminations = board.losses(places, ALL_DIGITS & !digits);
                if !eliminations.is_empty() {
                    sink(Hint {
                        technique: Technique::HiddenSet(size as u8),
                        difficulty: match size {
                            2 => 3.4,
                            3 => 4.0,
                            _ => 5.4,
                        },
                        placement: None,
                        eliminations,
                    })?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}
