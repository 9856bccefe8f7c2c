//! A cheap isomorphism invariant: a 64-bit value that isomorphic puzzles share, so that
//! `check --duplicates=iso` needs a canonical form only for puzzles whose invariant an earlier
//! puzzle had (figures in BENCHMARKS.md).
//!
//! Each given is described by what the symmetries keep: the givens of its row and of its row's
//! part in its stack, the same two counts for its column (the part in its band), and the givens of
//! its box. Moving rows, columns, bands and stacks moves those counts with the cell; transposing
//! swaps the row pair and the column pair, so a given's key holds the two pairs smaller first.
//! Relabelling digits renames the groups of givens that share a digit, so the keys are summed per
//! digit (a sum is blind to order), and each digit's sum, with its count of givens, is mixed and
//! summed over the digits. Two isomorphic puzzles therefore get equal values; different classes
//! mostly get different ones (on the shared corpora: no two of Kaggle's 20k or of hard.txt's
//! 321,592 classes share one but 3, about 2-4% of 17-clue and forum_hardest puzzles, and most of
//! serg's, whose puzzles share one pattern), and sharing one costs only the forms, never a wrong
//! answer.
//!
//! In a full grid those counts are the same for every given, so full grids (with no digit repeated
//! in a row or a column) are described otherwise: by the cycles of the permutations that relate the
//! rows of each band (`grid_invariant`). Only full grids can be isomorphic to full grids, so the
//! two kinds of value never need to agree. Of the 19,999 classes of the Kaggle 20k solutions, 328
//! share a value with another.

use crate::grid::Grid;

use super::{ALL_CELLS, given_bits};

/// For each cell, packed: its row-and-stack part (`3r + stack`), its column-and-band part
/// (`3c + band`) at bit 8, and its box at bit 16.
const CELL_PARTS: [u32; 81] = {
    let mut parts = [0u32; 81];
    let mut i = 0;
    while i < 81 {
        let (r, c) = (i / 9, i % 9);
        parts[i] = (3 * r + c / 3) as u32
            | ((3 * c + r / 3) as u32) << 8
            | ((r / 3 * 3 + c / 3) as u32) << 16;
        i += 1;
    }
    parts
};

/// Set bits of a 3-bit value.
const POP3: [u32; 8] = [0, 1, 1, 2, 1, 2, 2, 3];

/// The invariant of `puzzle` (see the module documentation): equal for isomorphic puzzles.
pub fn invariant(puzzle: &Grid) -> u64 {
    let cells = puzzle.cells();
    let given = given_bits(cells);
    if given == ALL_CELLS
        && let Some(value) = grid_invariant(cells)
    {
        return value;
    }
    let [rows, cols] = super::masks_of(given);
    // per row and stack part: the row's count, and the part's at bit 4; per column and band part
    // the same for columns; per box its count
    let mut row_parts = [0u32; 27];
    let mut col_parts = [0u32; 27];
    let mut boxes = [0u32; 9];
    for i in 0..9 {
        let (row, col) = (usize::from(rows[i]), usize::from(cols[i]));
        let r = [POP3[row & 7], POP3[(row >> 3) & 7], POP3[row >> 6]];
        let c = [POP3[col & 7], POP3[(col >> 3) & 7], POP3[col >> 6]];
        let (in_row, in_col) = (r[0] + r[1] + r[2], c[0] + c[1] + c[2]);
        for part in 0..3 {
            row_parts[3 * i + part] = in_row | r[part] << 4;
            col_parts[3 * i + part] = in_col | c[part] << 4;
            boxes[i / 3 * 3 + part] += r[part];
        }
    }
    let mut counts = [0u64; 10];
    let mut sums = [0u64; 10];
    for (base, mut bits) in [(0, given as u64), (64, (given >> 64) as u64)] {
        while bits != 0 {
            let cell = base + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let parts = CELL_PARTS[cell];
            let row = row_parts[(parts & 0xff) as usize];
            let col = col_parts[((parts >> 8) & 0xff) as usize];
            let key = row.min(col) | row.max(col) << 8 | boxes[(parts >> 16) as usize] << 16;
            let digit = usize::from(cells[cell]);
            counts[digit] += 1;
            sums[digit] = sums[digit].wrapping_add(spread(u64::from(key)));
        }
    }
    (1..10).fold(0u64, |all, d| all.wrapping_add(finish(sums[d] ^ counts[d])))
}

/// The invariant of a full grid whose rows and columns each hold every digit (`None` for any
/// other grid). The counts of givens that describe a puzzle's givens are all equal in a full grid,
/// so they would give every grid one value; what tells grids apart is how the rows of a band
/// relate. For rows `a` and `b` of a band, the column where row `a` holds the digit row `b` holds
/// at each column is a permutation of the columns; moving columns only conjugates it and
/// relabelling leaves it as it is, so its cycle lengths are kept. Each band (the columns' bands,
/// the stacks, too: transposing swaps the two kinds) gets the sum of its three pairs' mixed
/// cycle lengths, blind to row order, and the bands' values, mixed, are summed, blind to band order
/// and transposition. About 1 µs a grid, against about 4 µs for its canonical form.
fn grid_invariant(cells: &[u8; super::CELLS]) -> Option<u64> {
    let mut lines = [[[0u8; 9]; 9]; 2];
    let mut seen = [[0u16; 9]; 2];
    for (i, &d) in cells.iter().enumerate() {
        let (r, c) = (i / 9, i % 9);
        lines[0][r][c] = d;
        lines[1][c][r] = d;
        seen[0][r] |= 1 << d;
        seen[1][c] |= 1 << d;
    }
    if seen.iter().flatten().any(|&m| m != 0x3fe) {
        return None;
    }
    let mut all = 0u64;
    for grid in &lines {
        for band in grid.chunks(3) {
            let mut value = 0u64;
            for (a, b) in [(0, 1), (0, 2), (1, 2)] {
                let mut column_of = [0u8; 16];
                for (col, &d) in band[a].iter().enumerate() {
                    column_of[usize::from(d & 15)] = col as u8;
                }
                let sigma = band[b].map(|d| column_of[usize::from(d & 15)]);
                // the count of cycles of each length, 4 bits per length
                let mut lengths = 0u64;
                let mut visited = 0u16;
                for start in 0..9u8 {
                    if visited & (1 << start) != 0 {
                        continue;
                    }
                    let mut len = 0;
                    let mut col = start;
                    while visited & (1 << col) == 0 {
                        visited |= 1 << col;
                        col = sigma[usize::from(col % 9)];
                        len += 1;
                    }
                    lengths += 1 << (4 * len);
                }
                value = value.wrapping_add(spread(lengths));
            }
            all = all.wrapping_add(finish(value));
        }
    }
    Some(all)
}

/// One multiply and a shift: enough to make a sum of keys depend on the keys, not only on
/// their total.
fn spread(key: u64) -> u64 {
    let m = (key ^ 0x9e37_79b9_7f4a_7c15).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    m ^ (m >> 31)
}

/// SplitMix64's finaliser, for each digit's sum before the sum over digits.
fn finish(x: u64) -> u64 {
    let mut x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}
