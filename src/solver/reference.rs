//! A deliberately simple backtracking solver, kept as the test oracle for the fast one.
//!
//! It shares no code or tables with the bitboard solver so that a mistake in one does not hide
//! in the other. Speed is not a goal: at each step it recomputes which digits every row, column
//! and box already holds, fills the blank cell with fewest allowed digits (only to keep tests
//! quick) and tries those digits in increasing order.

use crate::grid::{CELLS, Grid};

use super::Outcome;

/// Counts solutions of `puzzle` up to `limit` (0 is taken as 1), keeping the first two found.
///
/// Test oracle: obviously correct, possibly slow. Givens that clash give a count of 0 here
/// (the fast solver reports them as a conflict instead). `guesses` counts, as in
/// [`super::Outcome`], the digits tried at a cell after the first one tried there.
pub fn solve(puzzle: &Grid, limit: u32) -> Outcome {
    let mut cells = *puzzle.cells();
    let mut out = Outcome {
        count: 0,
        solution: None,
        second: None,
        guesses: 0,
    };
    if puzzle.conflict().is_none() {
        search(&mut cells, limit.max(1), &mut out);
    }
    out
}

/// Row, column and box of a cell.
fn units(i: usize) -> (usize, usize, usize) {
    let (r, c) = (i / 9, i % 9);
    (r, c, (r / 3) * 3 + c / 3)
}

/// Fills the blank cell with fewest allowed digits, trying each in turn; returns true when the
/// limit is reached.
fn search(cells: &mut [u8; CELLS], limit: u32, out: &mut Outcome) -> bool {
    // Bit v set in used[unit] when digit v is already in that unit.
    let (mut rows, mut cols, mut boxes) = ([0u16; 9], [0u16; 9], [0u16; 9]);
    for (i, &v) in cells.iter().enumerate() {
        if v != 0 {
            let (r, c, b) = units(i);
            rows[r] |= 1 << v;
            cols[c] |= 1 << v;
            boxes[b] |= 1 << v;
        }
    }
    let mut best: Option<(usize, u16)> = None;
    for (i, &v) in cells.iter().enumerate() {
        if v != 0 {
            continue;
        }
        let (r, c, b) = units(i);
        let allowed = !(rows[r] | cols[c] | boxes[b]) & 0b11_1111_1110;
        if best.is_none_or(|(_, a)| allowed.count_ones() < a.count_ones()) {
            best = Some((i, allowed));
        }
    }
    let Some((i, allowed)) = best else {
        out.count += 1;
        match out.count {
            1 => out.solution = Grid::from_values(*cells),
            2 => out.second = Grid::from_values(*cells),
            _ => {}
        }
        return out.count >= limit;
    };
    let mut tried = 0;
    for v in 1..=9u8 {
        if allowed & (1 << v) == 0 {
            continue;
        }
        if tried > 0 {
            out.guesses += 1;
        }
        tried += 1;
        cells[i] = v;
        if search(cells, limit, out) {
            return true;
        }
    }
    cells[i] = 0;
    false
}
