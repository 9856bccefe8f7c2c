//! Lookup tables for the bitboard solver, all built at compile time by `const fn`s so the search
//! never pays for set-up and the tables live in read-only memory.
//!
//! Layout shared with the solver: a *band* is 3 rows of 9 cells; inside a band bit `9 * row + col`
//! stands for the cell at that row (0..3 within the band) and column (0..9). A *triad* is the
//! 3 cells where one row of a band meets one box; the 9 triads of a band are numbered
//! `3 * row + box`.

/// All 27 cells of a band.
pub(super) const BAND: u32 = (1 << 27) - 1;

/// One column in all three rows of a band, for column 0; shift left by the column.
pub(super) const COLUMN: u32 = 1 | 1 << 9 | 1 << 18;

/// For a 9-bit triad pattern of one digit in one band, as [`triads`] builds it (the triad of row
/// `r` and box `k` at bit `3 * k + r`), the cells (27-bit band mask) of the triads that lie on
/// some row-to-box permutation, or 0 when no permutation fits (a contradiction).
///
/// Why: a digit fills exactly one cell in each row of a band and one in each box, so the triads
/// it uses form a permutation matrix; a triad on no fitting permutation cannot hold the digit.
/// This is locked candidates (pointing and claiming) inside the band in one lookup.
pub(super) static TRIAD_KEEP: [u32; 512] = triad_keep();

/// For each cell of a band, its peers inside that band (same row, same box, same column),
/// excluding the cell itself. Padded to 32 entries so an index masked with `& 31` needs no
/// bounds check.
pub(super) static BAND_PEERS: [u32; 32] = band_peers();

/// A 9-bit set of digits spread to the work-list layout: bit `d` moves to bit `4 * d` (shift left
/// by the band after).
pub(super) static SPREAD4: [u64; 512] = spread4();

const fn spread4() -> [u64; 512] {
    let mut t = [0u64; 512];
    let mut digits = 0;
    while digits < 512 {
        let mut d = 0;
        while d < 9 {
            if digits >> d & 1 != 0 {
                t[digits] |= 1 << (4 * d);
            }
            d += 1;
        }
        digits += 1;
    }
    t
}

/// For a 9-bit pattern of a 3 x 3 matrix (bit `3 * i + j`), the entries that lie on some
/// permutation inside the pattern; 0 when no permutation fits. Rows by boxes in a band (as
/// [`TRIAD_KEEP`] uses it), or bands by columns in a stack (the tests' reference for the
/// bit-operation version in `lanes`).
#[cfg(test)]
pub(super) static PERMUTATION_KEEP: [u16; 512] = permutation_keep();

const fn permutation_keep() -> [u16; 512] {
    let mut t = [0u16; 512];
    let mut pattern = 0;
    while pattern < 512 {
        let mut p = 0;
        while p < 6 {
            if PERMUTATIONS[p] & !(pattern as u16) == 0 {
                t[pattern] |= PERMUTATIONS[p];
            }
            p += 1;
        }
        pattern += 1;
    }
    t
}

/// The six permutations of 3 rows onto 3 boxes, as 9-bit triad patterns.
const PERMUTATIONS: [u16; 6] = {
    let sigma: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut out = [0u16; 6];
    let mut p = 0;
    while p < 6 {
        let mut r = 0;
        while r < 3 {
            out[p] |= 1 << (3 * r + sigma[p][r]);
            r += 1;
        }
        p += 1;
    }
    out
};

/// The triads of a band mask that hold any of its cells: the triad of row `r` and box `k` at bit
/// `3 * k + r` (box-major, the transpose of the `3 * row + box` numbering).
///
/// Why box-major: folding each triad's three cells onto its first cell (`m | m >> 1 | m >> 2`)
/// leaves row `r`'s triads at bits `9 * r + 3 * k`, and one shift and mask per row moves them to
/// `3 * k + r` at once; no table is needed (the row-major order would need a look-up per row).
#[inline(always)]
pub(super) fn triads(band: u32) -> usize {
    let first = band | band >> 1 | band >> 2;
    (first & 0o111 | first >> 8 & 0o222 | first >> 16 & 0o444) as usize
}

const fn triad_keep() -> [u32; 512] {
    let keep = permutation_keep();
    let mut t = [0u32; 512];
    let mut pattern = 0;
    while pattern < 512 {
        // `pattern` is box-major (bit 3 * box + row); `keep` is indexed row-major.
        let mut row_major = 0;
        let mut triad = 0;
        while triad < 9 {
            if pattern >> triad & 1 != 0 {
                row_major |= 1 << (3 * (triad % 3) + triad / 3);
            }
            triad += 1;
        }
        let mut cells = 0u32;
        let mut triad = 0;
        while triad < 9 {
            if keep[row_major] >> triad & 1 != 0 {
                cells |= 0b111 << (9 * (triad / 3) + 3 * (triad % 3));
            }
            triad += 1;
        }
        t[pattern] = cells;
        pattern += 1;
    }
    t
}

/// For each cell of a band, its peers inside that band weighted for the choice of the cell to
/// branch on: masked with a band's cells packed twice (bits 0..27 and 27..54), one popcount
/// counts its row peers outside its box once, its four box peers outside its row and column
/// twice, and the four in its box on its row or column not at all (the column peers outside the
/// band are counted once from the other bands). Padded to 32 entries.
pub(super) static PEER_WEIGHTS: [u64; 32] = peer_weights();

const fn peer_weights() -> [u64; 32] {
    let boxes = box_cells();
    let mut t = [0u64; 32];
    let mut cell = 0;
    while cell < 27 {
        let row = 0o777 << (9 * (cell / 9));
        let column = COLUMN << (cell % 9);
        let own_box = boxes[cell];
        let box_only = own_box & !row & !column;
        // a band peer outside the cell's box is in its row (its column leaves the band)
        let row_outside_box = row & !own_box;
        t[cell] = (row_outside_box | box_only) as u64 | (box_only as u64) << 27;
        cell += 1;
    }
    t
}

/// For each cell of a band, the cells of its box (27-bit band mask, the cell itself included).
/// Padded to 32 entries.
pub(super) static BOX_CELLS: [u32; 32] = box_cells();

const fn box_cells() -> [u32; 32] {
    let mut t = [0u32; 32];
    let mut cell = 0;
    while cell < 27 {
        t[cell] = 0o007_007_007 << (3 * (cell % 9 / 3));
        cell += 1;
    }
    t
}

/// For each cell of a band, its column in the two other bands packed side by side (bits 0..27
/// and 27..54), to match two bands' masks packed the same way. Padded to 32 entries.
pub(super) static OTHER_BANDS_COLUMN: [u64; 32] = other_bands_column();

const fn other_bands_column() -> [u64; 32] {
    let mut t = [0u64; 32];
    let mut cell = 0;
    while cell < 27 {
        let column = (COLUMN << (cell % 9)) as u64;
        t[cell] = column | column << 27;
        cell += 1;
    }
    t
}

/// For each cell of the grid (0..81, padded to 128 entries: index with `& 127`), its 20 peers
/// as bits of a `u128`, bit `i` for cell `i`: the grid's own peers table
/// ([`crate::grid::PEERS`]), padded so that an index masked with `& 127` needs no bounds check.
pub(super) static GRID_PEERS: [u128; 128] = grid_peers();

const fn grid_peers() -> [u128; 128] {
    let mut t = [0u128; 128];
    let mut cell = 0;
    while cell < 81 {
        t[cell] = crate::grid::PEERS[cell];
        cell += 1;
    }
    t
}

/// The band's part of [`GRID_PEERS`]: a cell of band 0 has the same peers inside its band as
/// the cell at that place in any band.
const fn band_peers() -> [u32; 32] {
    let grid = grid_peers();
    let mut t = [0u32; 32];
    let mut cell = 0;
    while cell < 27 {
        t[cell] = grid[cell] as u32 & BAND;
        cell += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_band_keeps_everything_and_empty_row_kills_it() {
        assert_eq!(TRIAD_KEEP[511], BAND);
        // row 1 has no triad at all: no permutation fits
        assert_eq!(TRIAD_KEEP[0b101_101_101], 0);
        assert_eq!(TRIAD_KEEP[triads(BAND & !(511 << 9))], 0);
    }

    #[test]
    fn a_row_confined_to_one_box_claims_that_box() {
        // row 0 only in box 1; rows 1 and 2 anywhere
        let band = 0b000_010_000 | BAND & !511;
        let pattern = triads(band);
        assert_eq!(pattern, 0b110_111_110);
        let keep = TRIAD_KEEP[pattern];
        assert_eq!(keep & 0b111_111_111, 0b111_000); // row 0: box 1 only
        assert_eq!(keep >> 9 & 0b111_111_111, 0b111_000_111); // row 1 loses box 1
        assert_eq!(keep >> 18, 0b111_000_111); // row 2 loses box 1
    }

    #[test]
    fn permutations_keep_only_entries_on_a_fitting_permutation() {
        // the identity diagonal plus one off-diagonal entry that lies on no permutation
        let diagonal = 0b100_010_001;
        assert_eq!(
            usize::from(PERMUTATION_KEEP[diagonal | 0b000_000_010]),
            diagonal
        );
        assert_eq!(PERMUTATION_KEEP[511], 511);
        // row 0 empty: nothing fits
        assert_eq!(PERMUTATION_KEEP[0b111_111_000], 0);
    }

    #[test]
    fn peers_in_band_are_the_row_and_the_rest_of_the_box() {
        // 8 in the row, 6 more in the box (which holds the column's cells in this band)
        assert!(BAND_PEERS[..27].iter().all(|p| p.count_ones() == 14));
        assert_eq!(BAND_PEERS[0], 0b111_111_110 | 0b111 << 9 | 0b111 << 18);
    }

    #[test]
    fn box_cells_are_the_cells_box_and_the_cell() {
        for cell in 0..27 {
            let own_box = BOX_CELLS[cell];
            assert_eq!(own_box.count_ones(), 9);
            assert_ne!(own_box & 1 << cell, 0);
            // the cell and its peers in the band cover its box
            assert_eq!(own_box & !(BAND_PEERS[cell] | 1 << cell), 0);
        }
        assert_eq!(BOX_CELLS[13], 0o070_070_070); // row 1, column 4: box 1
        assert_eq!(BOX_CELLS[26], 0o700_700_700); // row 2, column 8: box 2
    }

    #[test]
    fn peer_weights_count_box_peers_off_the_lines_twice_and_on_them_not_at_all() {
        for cell in 0..27 {
            let once = PEER_WEIGHTS[cell] as u32 & BAND;
            let again = (PEER_WEIGHTS[cell] >> 27) as u32;
            let row = 0o777 << (9 * (cell / 9));
            let own_box = 0o007_007_007 << (3 * (cell % 9 / 3));
            // the six row peers outside the box and the four box peers off the lines
            assert_eq!(once.count_ones(), 10);
            assert_eq!(once & !BAND_PEERS[cell], 0);
            assert_eq!(once & !own_box, row & !own_box);
            // again: exactly the four box peers off the cell's row and column
            assert_eq!(again.count_ones(), 4);
            assert_eq!(again & !(once & own_box), 0);
            assert_eq!(again, once & own_box);
        }
        // cell 0 (row 0, column 0): the box cells at rows 1-2, columns 1-2, and row 0 beyond
        assert_eq!(PEER_WEIGHTS[0] >> 27, 0b110 << 9 | 0b110 << 18);
        assert_eq!(
            PEER_WEIGHTS[0] as u32 & BAND,
            0b111_111_000 | 0b110 << 9 | 0b110 << 18
        );
    }

    #[test]
    fn triads_are_numbered_box_major() {
        // one cell: row 2, column 4 (box 1) -> bit 3 * 1 + 2
        assert_eq!(triads(1 << (18 + 4)), 1 << 5);
        // row 0: the last cell of box 0 and the first of box 2
        assert_eq!(triads(1 << 2 | 1 << 6), 1 << 0 | 1 << 6);
        assert_eq!(triads(BAND), 511);
        assert_eq!(triads(0), 0);
    }
}
