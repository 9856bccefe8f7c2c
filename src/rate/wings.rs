//! Wings: a pivot cell and two pincers it sees. XY-Wing (4.2): three bivalue cells xy, xz, yz;
//! the cells seeing both pincers lose z. XYZ-Wing (4.4): the pivot holds x, y and z; the cells
//! seeing all three lose z.
//!
//! Scan order as Explainer's: pivots in cell order, pincers in the pivot's peer order (block,
//! row, column).

use std::ops::ControlFlow;

use super::board::{Board, Digits, PEER_SET, PEERS, cells_of, first_digit};
use super::hint::{Hint, Sink, Technique};

/// XY-Wings (`xyz` false) or XYZ-Wings (`xyz` true).
pub fn wings(board: &Board, xyz: bool, sink: Sink) -> ControlFlow<()> {
    let pivot_size = if xyz { 3 } else { 2 };
    for pivot in 0..81 {
        let xy = board.cands(pivot);
        if xy.count_ones() != pivot_size {
            continue;
        }
        for &a in &PEERS[pivot] {
            let xz = board.cands(a as usize);
            if xz.count_ones() != 2 || (xy & !xz).count_ones() != 1 {
                continue;
            }
            for &b in &PEERS[pivot] {
                let yz = board.cands(b as usize);
                if yz.count_ones() != 2 || !is_wing(xy, xz, yz, xyz) {
                    continue;
                }
                let z = first_digit(xz & yz);
                let mut seen = PEER_SET[a as usize] & PEER_SET[b as usize];
                if xyz {
                    seen &= PEER_SET[pivot];
                }
                seen &= !(1u128 << pivot | 1u128 << a | 1u128 << b);
                let eliminations: Vec<(u8, Digits)> = cells_of(seen)
                    .filter(|&c| board.has(c, z))
                    .map(|c| (c as u8, 1 << z))
                    .collect();
                if !eliminations.is_empty() {
                    sink(Hint {
                        technique: if xyz {
                            Technique::XyzWing
                        } else {
                            Technique::XyWing
                        },
                        difficulty: if xyz { 4.4 } else { 4.2 },
                        placement: None,
                        eliminations,
                    })?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

fn is_wing(xy: Digits, xz: Digits, yz: Digits, xyz: bool) -> bool {
    let union = xy | xz | yz;
    let inter = xy & xz & yz;
    union.count_ones() == 3 && inter.count_ones() == if xyz { 1 } else { 0 }
}
