//! Aligned exclusion: for two (6.2) or three (7.5) cells, try every combination of their
//! candidates; a combination is impossible when two cells that see each other get the same digit,
//! or when it would empty a cell that sees all of them (an "excluder", a cell of at most two or
//! three candidates). A candidate in no possible combination goes.
//!
//! Cells and excluders are listed and paired as Explainer does: base cells in cell order (only
//! cells whose peers include no cell left with one candidate), pairs in the order (0,1), (0,2),
//! (1,2), (0,3)...; for triplets the third cell comes from the excluders of the first two.

use std::ops::ControlFlow;

use super::board::{Board, Digits, PEERS, sees};
use super::hint::{Hint, Sink, Technique};

/// Aligned pair (`size` 2) or triplet (`size` 3) exclusions.
pub fn aligned_exclusion(board: &Board, size: usize, sink: Sink) -> ControlFlow<()> {
    let mut bases: Vec<u8> = Vec::new();
    let mut excluders: Vec<Vec<u8>> = vec![Vec::new(); 81];
    for cell in 0..81 {
        if board.count(cell) < 2 {
            continue;
        }
        let mut single = false;
        let mut list = Vec::new();
        for &p in &PEERS[cell] {
            let n = board.count(p as usize) as usize;
            single |= n == 1;
            if (2..=size).contains(&n) {
                list.push(p);
            }
        }
        if !single && !list.is_empty() {
            bases.push(cell as u8);
            excluders[cell] = list;
        }
    }
    if bases.len() < size {
        return ControlFlow::Continue(());
    }
    for n2 in 1..bases.len() {
        for n1 in 0..n2 {
            let (a, b) = (bases[n1], bases[n2]);
            if size == 2 {
                let common = common_excluders(&excluders, &[a, b]);
                if common.len() >= 2 {
                    if let Some(hint) = exclusion_hint(board, &[a, b], &common) {
                        sink(hint)?;
                    }
                }
                continue;
            }
            // the third cell: an excluder of either (in that order) that is itself a base cell
            let mut twins: Vec<u8> = Vec::new();
            for &c in excluders[a as usize].iter().chain(&excluders[b as usize]) {
                if c != a && c != b && !twins.contains(&c) && bases.contains(&c) {
                    twins.push(c);
                }
            }
            for &t in &twins {
                let cells = [a, b, t];
                let common = common_excluders(&excluders, &cells);
                if common.len() >= 2 {
                    if let Some(hint) = exclusion_hint(board, &cells, &common) {
                        sink(hint)?;
                    }
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// The excluders shared by all `cells`, in the first cell's order.
fn common_excluders(excluders: &[Vec<u8>], cells: &[u8]) -> Vec<u8> {
    excluders[cells[0] as usize]
        .iter()
        .copied()
        .filter(|e| {
            cells[1..]
                .iter()
                .all(|&c| excluders[c as usize].contains(e))
        })
        .collect()
}

fn exclusion_hint(board: &Board, cells: &[u8], common: &[u8]) -> Option<Hint> {
    let n = cells.len();
    let cands: Vec<Vec<u8>> = cells
        .iter()
        .map(|&c| super::board::digits_of(board.cands(c as usize)).collect())
        .collect();
    let excl: Vec<Digits> = common.iter().map(|&e| board.cands(e as usize)).collect();
    // digits seen in some allowed combination, per cell
    let mut allowed = vec![0 as Digits; n];
    let mut pick = vec![0usize; n];
    loop {
        let digits: Vec<u8> = (0..n).map(|i| cands[i][pick[i]]).collect();
        let clash = (0..n).any(|i| {
            (i + 1..n).any(|j| digits[i] == digits[j] && sees(cells[i] as usize, cells[j] as usize))
        });
        let used: Digits = digits.iter().fold(0, |m, &d| m | 1 << d);
        let emptied = excl.iter().any(|&e| e & !used == 0);
        if !clash && !emptied {
            for i in 0..n {
                allowed[i] |= 1 << digits[i];
            }
        }
        // next combination, odometer style
        let mut i = 0;
        while i < n {
            pick[i] += 1;
            if pick[i] < cands[i].len() {
                break;
            }
            pick[i] = 0;
            i += 1;
        }
        if i == n {
            break;
        }
    }
    let eliminations: Vec<(u8, Digits)> = (0..n)
        .filter_map(|i| {
            let gone = board.cands(cells[i] as usize) & !allowed[i];
            (gone != 0).then_some((cells[i], gone))
        })
        .collect();
    (!eliminations.is_empty()).then(|| {
        Hint::eliminate(
            Technique::AlignedExclusion(n as u8),
            if n == 2 { 6.2 } else { 7.5 },
            eliminations,
        )
    })
}
