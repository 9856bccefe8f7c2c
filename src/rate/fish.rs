//! Basic fish: a digit whose places in N columns lie in N rows between them leaves the rest of
//! those rows (and the same with rows and columns swapped). X-Wing 3.2, Swordfish 3.8, Jellyfish
//! 5.2.
//!
//! Scan order as Explainer's: columns as the base first, then rows; sets of N base lines in
//! increasing order of their bit masks, and for each set the digits 1 to 9.

use std::ops::ControlFlow;

use super::Combinations;
use super::board::{Board, HOUSE_CELLS, Kind, digit_count};
use super::hint::{Hint, Sink, Technique};

/// Fish of `size` base lines.
pub fn fish(board: &Board, size: u32, sink: Sink) -> ControlFlow<()> {
    for (base, cover) in [(Kind::Column, Kind::Row), (Kind::Row, Kind::Column)] {
        // per digit, the base lines with two places or more (none for a digit placed too often
        // to leave `size` lines free), and each base line's places
        let mut lines = [0u64; 10];
        let mut places = [[0u16; 9]; 10];
        for digit in 1..=9u8 {
            if board.placed(digit) + 2 * size > 9 {
                continue;
            }
            for (i, p) in places[digit as usize].iter_mut().enumerate() {
                *p = board.positions(base.house(i), digit);
                if digit_count(*p) > 1 {
                    lines[digit as usize] |= 1 << i;
                }
            }
        }
        for set in Combinations::new(size, 9) {
            for digit in 1..=9u8 {
                if set & !lines[digit as usize] != 0 {
                    continue;
                }
                // a base line's positions are numbered by the cover line crossing there
                let union = super::bits(set).fold(0u16, |u, i| u | places[digit as usize][i]);
                if digit_count(union) != size {
                    continue;
                }
                let mut eliminations = Vec::new();
                for i in super::bits(union as u64) {
                    let line = cover.house(i);
                    let outside = board.positions(line, digit) & !(set as u16);
                    for j in super::bits(outside as u64) {
                        eliminations.push((HOUSE_CELLS[line][j], 1 << digit));
                    }
                }
                if !eliminations.is_empty() {
                    sink(Hint::eliminate(
                        Technique::Fish(size as u8),
                        match size {
                            2 => 3.2,
                            3 => 3.8,
                            _ => 5.2,
                        },
                        eliminations,
                    ))?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}
