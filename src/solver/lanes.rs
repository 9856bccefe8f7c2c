//! The nine digit masks of one band side by side as 12 lanes (lanes 9..12 stay empty), worked on
//! all at once (and the blank test over a grid's 81 cells, for setting up): with SSE2 on x86-64 (part of every x86-64 CPU, so no detection is needed), by a
//! plain loop elsewhere. The loop is also the reference the vector code is tested against.

/// Lanes of one band: the nine digits and three empty pads, so SSE2 takes them four at a time.
pub(super) const LANES: usize = 12;

/// Clears `bits` from every lane; returns the lanes that lost something (bit `k` for lane `k`).
#[inline(always)]
pub(super) fn clear(lanes: &mut [u32; LANES], bits: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        sse2::clear(lanes, bits)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        portable::clear(lanes, bits)
    }
}

/// The lanes holding any of `bits` (bit `k` for lane `k`).
#[inline(always)]
pub(super) fn holding(lanes: &[u32; LANES], bits: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        sse2::holding(lanes, bits)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        portable::holding(lanes, bits)
    }
}

/// The filled cells of a grid (any non-zero value) as three 27-bit band masks.
#[inline(always)]
pub(super) fn filled_cells(cells: &[u8; 81]) -> [u32; 3] {
    #[cfg(target_arch = "x86_64")]
    {
        sse2::filled_cells(cells)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        portable::filled_cells(cells)
    }
}

/// Finishes setting up one band from its givens: fails (returns false) when a given of some digit
/// is no longer among that digit's candidates (an equal given among its peers cleared it), else
/// leaves each solved cell (`!open`) only to its own digit.
#[inline(always)]
pub(super) fn settle_givens(lanes: &mut [u32; LANES], given: &[u32; LANES], open: u32) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        sse2::settle_givens(lanes, given, open)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        portable::settle_givens(lanes, given, open)
    }
}

/// Hidden singles in columns, for every digit of every band at once (the default: none found).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct ColumnSingles {
    /// Per band and digit, the unsolved cells that are the digit's only cell in their column.
    pub(super) cells: [[u32; LANES]; 3],
    /// Per band, the digits (bit per lane) with any such cell.
    pub(super) digits: [u32; 3],
    /// Some digit has a column with no cell left: the board is dead.
    pub(super) dead: bool,
}

/// Finds the cells that are their digit's only candidate in a column, from the candidates
/// `cand` (`[band][digit]`, 27-bit band masks) and the `unsolved` cells of each band: columns
/// with one unsolved cell of the digit in one band and no cell of it (solved or not) in the
/// other two. On a board a solved cell has cleared its column elsewhere, so that is exactly "the
/// digit's only cell in a column where it is not yet placed".
#[inline(always)]
pub(super) fn column_singles(cand: &[[u32; LANES]; 4], unsolved: &[u32; 4]) -> ColumnSingles {
    #[cfg(target_arch = "x86_64")]
    {
        sse2::column_singles(cand, unsolved)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        portable::column_singles(cand, unsolved)
    }
}

/// One column (for column 0) in all three rows of a band.
const COLUMN: u32 = 1 | 1 << 9 | 1 << 18;

/// Lane-by-lane versions: the fallback off x86-64 and the tests' reference.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
mod portable {
    use super::{COLUMN, ColumnSingles, LANES};

    #[inline(always)]
    pub(crate) fn filled_cells(cells: &[u8; 81]) -> [u32; 3] {
        let mut bands = [0u32; 3];
        for (band, row) in bands.iter_mut().zip(cells.chunks_exact(27)) {
            *band = row
                .iter()
                .enumerate()
                .fold(0, |acc, (pos, &v)| acc | u32::from(v != 0) << pos);
        }
        bands
    }

    #[inline(always)]
    pub(crate) fn settle_givens(lanes: &mut [u32; LANES], given: &[u32; LANES], open: u32) -> bool {
        let mut fine = true;
        for (lane, &g) in lanes.iter_mut().zip(given) {
            fine &= g & !*lane == 0;
            *lane &= !(!open & !g);
        }
        fine
    }

    #[inline(always)]
    pub(crate) fn column_singles(cand: &[[u32; LANES]; 4], unsolved: &[u32; 4]) -> ColumnSingles {
        let mut out = ColumnSingles::default();
        // `d` picks the same lane in each band's row of `cand` and of the result.
        #[allow(clippy::needless_range_loop)]
        for d in 0..9 {
            let m = [0, 1, 2].map(|b| cand[b][d]);
            // The columns the digit can take in each band.
            let any = m.map(|m| (m | m >> 9 | m >> 18) & 511);
            out.dead |= any[0] | any[1] | any[2] != 511;
            for b in 0..3 {
                let live = m[b] & unsolved[b];
                let (r0, r1, r2) = (live & 511, live >> 9 & 511, live >> 18);
                // Columns with one open cell in this band and no cell at all in the other two.
                let once = (r0 ^ r1 ^ r2) & !(r0 & r1 & r2);
                let cols = once & !any[(b + 1) % 3] & !any[(b + 2) % 3];
                let cells = live & (cols * COLUMN);
                out.cells[b][d] = cells;
                out.digits[b] |= u32::from(cells != 0) << d;
            }
        }
        out
    }

    #[inline(always)]
    pub(crate) fn clear(lanes: &mut [u32; LANES], bits: u32) -> u32 {
        let mut changed = 0;
        for (k, lane) in lanes.iter_mut().enumerate() {
            changed |= u32::from(*lane & bits != 0) << k;
            *lane &= !bits;
        }
        changed
    }

    #[inline(always)]
    pub(crate) fn holding(lanes: &[u32; LANES], bits: u32) -> u32 {
        lanes
            .iter()
            .enumerate()
            .fold(0, |acc, (k, &lane)| acc | u32::from(lane & bits != 0) << k)
    }
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_andnot_si128, _mm_castsi128_ps, _mm_cmpeq_epi8,
        _mm_cmpeq_epi32, _mm_loadu_si128, _mm_movemask_epi8, _mm_movemask_ps, _mm_or_si128,
        _mm_set1_epi32, _mm_setzero_si128, _mm_slli_epi32, _mm_srli_epi32, _mm_storeu_si128,
        _mm_xor_si128,
    };

    use super::{ColumnSingles, LANES};

    #[inline(always)]
    pub(crate) fn filled_cells(cells: &[u8; 81]) -> [u32; 3] {
        // 80 bytes in five 16-byte compares with zero, the last byte on its own.
        let mut blank = 0u128;
        let zero = unsafe { _mm_setzero_si128() };
        for (k, chunk) in cells.chunks_exact(16).enumerate() {
            let v = unsafe { _mm_loadu_si128(chunk.as_ptr().cast::<__m128i>()) };
            let mask = unsafe { _mm_movemask_epi8(_mm_cmpeq_epi8(v, zero)) } as u16;
            blank |= u128::from(mask) << (16 * k);
        }
        blank |= u128::from(cells[80] == 0) << 80;
        let filled = !blank;
        [0, 1, 2].map(|b| (filled >> (27 * b)) as u32 & ((1 << 27) - 1))
    }

    #[inline(always)]
    pub(crate) fn settle_givens(lanes: &mut [u32; LANES], given: &[u32; LANES], open: u32) -> bool {
        let mut lost = 0;
        let (open, zero) = unsafe { (_mm_set1_epi32(open as i32), _mm_setzero_si128()) };
        for (chunk, g) in lanes.chunks_exact_mut(4).zip(given.chunks_exact(4)) {
            let ptr = chunk.as_mut_ptr().cast::<__m128i>();
            let c = unsafe { _mm_loadu_si128(ptr) };
            let g = unsafe { _mm_loadu_si128(g.as_ptr().cast::<__m128i>()) };
            // given & !cand: a given its digit lost
            lost |= !lane_mask(unsafe { _mm_cmpeq_epi32(_mm_andnot_si128(c, g), zero) }) & 15;
            // cand & !(solved & !given) = cand & (open | given)
            let keep = unsafe { _mm_or_si128(open, g) };
            unsafe { _mm_storeu_si128(ptr, _mm_and_si128(c, keep)) };
        }
        lost == 0
    }

    // SAFETY (every `unsafe` block below): SSE2 belongs to the x86-64 baseline, so these
    // instructions exist on every CPU this code can run on; each pointer is a 4-lane chunk of a
    // live `[u32; 12]`, valid for the 16 bytes read or written, and the unaligned load and
    // store forms make no alignment demand.

    /// Bit per 32-bit lane of `v` that is all ones.
    #[inline(always)]
    fn lane_mask(v: __m128i) -> u32 {
        (unsafe { _mm_movemask_ps(_mm_castsi128_ps(v)) }) as u32
    }

    #[inline(always)]
    pub(crate) fn clear(lanes: &mut [u32; LANES], bits: u32) -> u32 {
        let mut kept = 0;
        let bits = unsafe { _mm_set1_epi32(bits as i32) };
        for (k, chunk) in lanes.chunks_exact_mut(4).enumerate() {
            let ptr = chunk.as_mut_ptr().cast::<__m128i>();
            let old = unsafe { _mm_loadu_si128(ptr) };
            let new = unsafe { _mm_andnot_si128(bits, old) };
            unsafe { _mm_storeu_si128(ptr, new) };
            kept |= lane_mask(unsafe { _mm_cmpeq_epi32(new, old) }) << (4 * k);
        }
        !kept & ((1 << LANES) - 1)
    }

    #[inline(always)]
    pub(crate) fn holding(lanes: &[u32; LANES], bits: u32) -> u32 {
        let mut none = 0;
        let (bits, zero) = unsafe { (_mm_set1_epi32(bits as i32), _mm_setzero_si128()) };
        for (k, chunk) in lanes.chunks_exact(4).enumerate() {
            let v = unsafe { _mm_loadu_si128(chunk.as_ptr().cast::<__m128i>()) };
            let common = unsafe { _mm_and_si128(v, bits) };
            none |= lane_mask(unsafe { _mm_cmpeq_epi32(common, zero) }) << (4 * k);
        }
        !none & ((1 << LANES) - 1)
    }

    #[inline(always)]
    pub(crate) fn column_singles(cand: &[[u32; LANES]; 4], unsolved: &[u32; 4]) -> ColumnSingles {
        let mut out = ColumnSingles::default();
        let (row, zero) = unsafe { (_mm_set1_epi32(511), _mm_setzero_si128()) };
        let open = unsolved.map(|u| unsafe { _mm_set1_epi32(u as i32) });
        let mut full = 0;
        // Four digits at a time (the last group is digit 8 and three empty lanes).
        for k in 0..LANES / 4 {
            let v = [0, 1, 2].map(|b| unsafe { _mm_loadu_si128(cand[b][4 * k..].as_ptr().cast()) });
            // The columns each digit can take in each band, solved cells included.
            let any = v.map(|v| unsafe {
                let folded =
                    _mm_or_si128(_mm_or_si128(v, _mm_srli_epi32(v, 9)), _mm_srli_epi32(v, 18));
                _mm_and_si128(folded, row)
            });
            let all = unsafe { _mm_or_si128(_mm_or_si128(any[0], any[1]), any[2]) };
            full |= lane_mask(unsafe { _mm_cmpeq_epi32(all, row) }) << (4 * k);
            // Columns with exactly one open cell in a band and no cell at all in the other two.
            // (A solved cell of the digit clears its column elsewhere, so "open" matters only
            // here; counting solved cells too would flag every solved column.)
            let mut cols = [zero; 3];
            for b in 0..3 {
                let others = unsafe { _mm_or_si128(any[(b + 1) % 3], any[(b + 2) % 3]) };
                cols[b] = unsafe {
                    let live = _mm_and_si128(v[b], open[b]);
                    let (r0, r1, r2) = (
                        _mm_and_si128(live, row),
                        _mm_and_si128(_mm_srli_epi32(live, 9), row),
                        _mm_srli_epi32(live, 18),
                    );
                    let odd = _mm_xor_si128(_mm_xor_si128(r0, r1), r2);
                    let three = _mm_and_si128(_mm_and_si128(r0, r1), r2);
                    _mm_andnot_si128(others, _mm_andnot_si128(three, odd))
                };
            }
            // Usually there is none: then the cells need not be spelled out.
            let some = unsafe { _mm_or_si128(_mm_or_si128(cols[0], cols[1]), cols[2]) };
            if lane_mask(unsafe { _mm_cmpeq_epi32(some, zero) }) == 15 {
                continue;
            }
            for b in 0..3 {
                let cells = unsafe {
                    let c = cols[b];
                    let spread =
                        _mm_or_si128(_mm_or_si128(c, _mm_slli_epi32(c, 9)), _mm_slli_epi32(c, 18));
                    _mm_and_si128(_mm_and_si128(v[b], spread), open[b])
                };
                let lanes = &mut out.cells[b][4 * k..4 * k + 4];
                unsafe { _mm_storeu_si128(lanes.as_mut_ptr().cast(), cells) };
                let none = lane_mask(unsafe { _mm_cmpeq_epi32(cells, zero) });
                out.digits[b] |= (!none & 15) << (4 * k);
            }
        }
        out.dead = full & 511 != 511;
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small seeded generator, enough to vary lanes and bits.
    fn next(state: &mut u64) -> u32 {
        *state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (*state >> 33) as u32
    }

    #[test]
    fn vector_and_portable_lanes_agree() {
        let mut state = 7;
        for _ in 0..10_000 {
            let mut lanes = [0u32; LANES];
            for lane in &mut lanes[..9] {
                *lane = next(&mut state) & next(&mut state) & ((1 << 27) - 1);
            }
            let bits = 1 << (next(&mut state) % 27) | next(&mut state) & next(&mut state);
            let mut a = lanes;
            let mut b = lanes;
            assert_eq!(holding(&lanes, bits), portable::holding(&lanes, bits));
            assert_eq!(clear(&mut a, bits), portable::clear(&mut b, bits));
            assert_eq!(a, b);
        }
    }

    #[test]
    fn vector_and_portable_column_singles_agree() {
        let mut state = 11;
        for round in 0..20_000 {
            let mut cand = [[0u32; LANES]; 4];
            // Dense masks (few singles) and sparse ones (many, and dead columns), in turns.
            for band in &mut cand[..3] {
                for lane in &mut band[..9] {
                    let mut m = next(&mut state) | next(&mut state);
                    for _ in 0..round % 4 {
                        m &= next(&mut state) | next(&mut state);
                    }
                    *lane = m & ((1 << 27) - 1);
                }
            }
            let unsolved = [0, 1, 2, 3].map(|b| {
                if b < 3 {
                    (next(&mut state) | next(&mut state)) & ((1 << 27) - 1)
                } else {
                    0
                }
            });
            assert_eq!(
                column_singles(&cand, &unsolved),
                portable::column_singles(&cand, &unsolved)
            );
        }
    }

    #[test]
    fn a_digit_alone_in_a_column_is_a_single() {
        let mut cand = [[0u32; LANES]; 4];
        // Digit 4: column 2 only in band 1, row 2 there; every other column everywhere.
        for (b, band) in cand[..3].iter_mut().enumerate() {
            for lane in &mut band[..9] {
                *lane = ((1 << 27) - 1) & !(COLUMN << 2);
            }
            if b == 1 {
                band[4] |= 1 << (18 + 2);
            }
        }
        // Every other digit also needs column 2 somewhere to stay alive.
        for d in (0..9).filter(|&d| d != 4) {
            cand[0][d] |= COLUMN << 2;
        }
        let singles = column_singles(&cand, &[(1 << 27) - 1; 4]);
        assert!(!singles.dead);
        assert_eq!(singles.cells[1][4], 1 << 20);
        assert_eq!(singles.digits, [0, 1 << 4, 0]);
        cand[1][4] = 0;
        assert!(column_singles(&cand, &[(1 << 27) - 1; 4]).dead);
    }

    #[test]
    fn vector_and_portable_set_up_agree() {
        let mut state = 5;
        for round in 0..5_000 {
            let mut cells = [0u8; 81];
            for cell in &mut cells {
                // From all blank to all filled as rounds go on.
                if next(&mut state) % 100 < round % 101 {
                    *cell = (next(&mut state) % 9 + 1) as u8;
                }
            }
            assert_eq!(filled_cells(&cells), portable::filled_cells(&cells));
            let mut lanes = [0u32; LANES];
            let mut given = [0u32; LANES];
            for (lane, g) in lanes[..9].iter_mut().zip(&mut given[..9]) {
                *lane = next(&mut state) & ((1 << 27) - 1);
                *g = next(&mut state) & next(&mut state) & next(&mut state) & ((1 << 27) - 1);
            }
            let open = next(&mut state) & ((1 << 27) - 1);
            let (mut a, mut b) = (lanes, lanes);
            assert_eq!(
                settle_givens(&mut a, &given, open),
                portable::settle_givens(&mut b, &given, open)
            );
            assert_eq!(a, b);
        }
    }

    #[test]
    fn clear_reports_only_lanes_that_lost_bits() {
        let mut lanes = [0u32; LANES];
        lanes[0] = 0b101;
        lanes[3] = 0b010;
        lanes[8] = 0b100;
        assert_eq!(clear(&mut lanes, 0b100), 1 | 1 << 8);
        assert_eq!(lanes[0], 0b001);
        assert_eq!(lanes[3], 0b010);
        assert_eq!(lanes[8], 0);
        assert_eq!(holding(&lanes, 0b011), 1 | 1 << 3);
    }
}
