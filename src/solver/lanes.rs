//! The nine digit masks of one band side by side as 12 lanes (lanes 9..12 stay empty), worked on
//! all at once (and the blank test over a grid's 81 cells, for setting up): with SSE2 on x86-64
//! (part of every x86-64 CPU, so no detection is needed), by a plain loop elsewhere. The loop is
//! also the reference the vector code is tested against. The steps the search runs most (the
//! column step, clearing cells, the digits holding some cells) have AVX2 versions as well, which
//! only the search copy built for AVX2 calls; so do the whole-band propagation step and the
//! read-out of a solved band's digits, which have no SSE2 version (the baseline copy propagates
//! digit by digit and writes a solution cell by cell).

use super::tables::COLUMN;

/// Lanes of one band: the nine digits and three empty pads, so SSE2 takes them four at a time.
pub(super) const LANES: usize = 12;

/// Clears `bits` from every lane; returns the lanes that lost something (bit `k` for lane `k`).
///
/// `WIDE` (here and below): use the AVX2 version. Only the search copy built with AVX2, which
/// runs only after AVX2 was detected, sets it.
#[inline(always)]
pub(super) fn clear<const WIDE: bool>(lanes: &mut [u32; LANES], bits: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        if WIDE {
            // SAFETY: `WIDE` is set only where AVX2 was detected (above).
            return unsafe { avx2::clear(lanes, bits) };
        }
        sse2::clear(lanes, bits)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        portable::clear(lanes, bits)
    }
}

/// The lanes holding any of `bits` (bit `k` for lane `k`).
#[inline(always)]
pub(super) fn holding<const WIDE: bool>(lanes: &[u32; LANES], bits: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        if WIDE {
            // SAFETY: `WIDE` is set only where AVX2 was detected (see `clear`).
            return unsafe { avx2::holding(lanes, bits) };
        }
        sse2::holding(lanes, bits)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        portable::holding(lanes, bits)
    }
}

/// The digits (1..=9) of a solved band's 27 cells, in bytes 0..27 (the rest 0), from its
/// nine digit masks, which then hold each cell exactly once. Only the AVX2 copy of the search
/// reads a solution this way; the baseline copy places the digits one cell at a time.
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) unsafe fn band_values(lanes: &[u32; LANES]) -> [u8; 32] {
    // SAFETY: passed on from the caller.
    unsafe { avx2::band_values(lanes) }
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

/// Locked candidates along columns for every digit at once: in each stack a digit takes one
/// column in each band and one band in each column, so its (band, column) pairs must admit a
/// permutation. Clears from `cand` the columns of a band that lie on no fitting permutation and
/// returns, per band, the digits (bit per lane) that lost cells; `None` when some digit's stack
/// admits no permutation at all (the board is dead; `cand` may then be partly cleared).
///
/// Done by bit operations rather than a table: with the columns of a stack taken cyclically,
/// band `b` keeps column `j` when the other two bands `a`, `c` can take the other two columns
/// crosswise, `a[j+1] & c[j+2] | a[j+2] & c[j+1]` (indices mod 3 within the stack), which is two
/// rotations of each band's 9-bit column mask.
#[inline(always)]
pub(super) fn column_permutations<const WIDE: bool>(
    cand: &mut [[u32; LANES]; 4],
) -> Option<[u32; 3]> {
    #[cfg(target_arch = "x86_64")]
    {
        if WIDE {
            // SAFETY: `WIDE` is set only where AVX2 was detected (see `clear`).
            return unsafe { avx2::column_permutations(cand) };
        }
        sse2::column_permutations(cand)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        portable::column_permutations(cand)
    }
}

/// One whole band's deduction step for all nine digits at once, repeated until the band holds
/// still: each digit keeps only the triads on some row-to-box permutation (as [`TRIAD_KEEP`]
/// does for one), and the rows left with one open cell are placed: the cell leaves the other
/// digits of the band and its column leaves the digit's masks in the other two bands (once; the
/// work list takes it from there). Returns the work-list bits (`4 * digit + band`) of the other
/// bands' masks that lost cells, or `None` on a contradiction (a digit with no permutation
/// left, or one cell placed as two digits); the band then may be partly updated.
///
/// [`TRIAD_KEEP`]: super::tables::TRIAD_KEEP
#[inline(always)]
pub(super) fn band_step<const WIDE: bool>(
    cand: &mut [[u32; LANES]; 4],
    unsolved: &mut [u32; 4],
    b: usize,
) -> Option<u64> {
    #[cfg(target_arch = "x86_64")]
    {
        if WIDE {
            // SAFETY: `WIDE` is set only where AVX2 was detected (see `clear`).
            return unsafe { avx2::band_step(cand, unsolved, b) };
        }
    }
    portable::band_step(cand, unsolved, b)
}

/// Within each stack (3-bit group) of a 9-bit column mask, column `j` takes the bit of column
/// `j + 1` (mod 3).
const NEXT_KEEP: u32 = 0b011_011_011;
/// Likewise column `j + 2`, the wrap-around part.
const WRAP_KEEP: u32 = 0b001_001_001;

/// Lane-by-lane versions: the fallback off x86-64 and the tests' reference.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
mod portable {
    use super::super::tables::{TRIAD_KEEP, triads};
    use super::super::{OTHER_BANDS, columns_of, single_rows};
    use super::{COLUMN, LANES, NEXT_KEEP, WRAP_KEEP};

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

    /// Column `j` of each stack takes the bit of column `j + 1` (mod 3).
    #[inline(always)]
    fn next(x: u32) -> u32 {
        (x >> 1) & NEXT_KEEP | (x << 2) & !NEXT_KEEP & 511
    }

    /// Column `j` of each stack takes the bit of column `j + 2` (mod 3).
    #[inline(always)]
    fn after_next(x: u32) -> u32 {
        (x >> 2) & WRAP_KEEP | (x << 1) & !WRAP_KEEP & 511
    }

    #[inline(always)]
    pub(crate) fn column_permutations(cand: &mut [[u32; LANES]; 4]) -> Option<[u32; 3]> {
        column_step_by(cand, keep_by_rotation)
    }

    /// The columns each band keeps, from the digit's columns in each band (9 bits each); `None`
    /// when some stack admits no permutation.
    #[inline(always)]
    fn keep_by_rotation(any: [u32; 3]) -> Option<[u32; 3]> {
        let keep = [0, 1, 2].map(|b| {
            let (a, c) = (any[(b + 1) % 3], any[(b + 2) % 3]);
            any[b] & (next(a) & after_next(c) | after_next(a) & next(c))
        });
        // A stack where band 0 keeps nothing admits no permutation.
        ((keep[0] | keep[0] >> 1 | keep[0] >> 2) & WRAP_KEEP == WRAP_KEEP).then_some(keep)
    }

    /// The column step digit by digit, with `keep` mapping the digit's columns in each band (9
    /// bits each) to the columns each band keeps, or `None` when no permutation fits.
    #[inline(always)]
    pub(crate) fn column_step_by(
        cand: &mut [[u32; LANES]; 4],
        keep: impl Fn([u32; 3]) -> Option<[u32; 3]>,
    ) -> Option<[u32; 3]> {
        let mut changed = [0u32; 3];
        for d in 0..9 {
            let lost = step_digit(cand, d, &keep)?;
            for (changed, lost) in changed.iter_mut().zip(lost) {
                *changed |= lost << d;
            }
        }
        Some(changed)
    }

    /// The column step for digit `d` alone (by the bit-operation test): per band, 1 when it lost
    /// cells.
    #[inline(always)]
    pub(crate) fn column_step_by_digit(cand: &mut [[u32; LANES]; 4], d: usize) -> Option<[u32; 3]> {
        step_digit(cand, d, keep_by_rotation)
    }

    #[inline(always)]
    fn step_digit(
        cand: &mut [[u32; LANES]; 4],
        d: usize,
        keep: impl Fn([u32; 3]) -> Option<[u32; 3]>,
    ) -> Option<[u32; 3]> {
        let d = d.min(LANES - 1);
        let any = [0, 1, 2].map(|b| {
            let m = cand[b][d];
            (m | m >> 9 | m >> 18) & 511
        });
        let keep = keep(any)?;
        Some([0, 1, 2].map(|b| {
            let new = cand[b][d] & (keep[b] * COLUMN);
            let lost = u32::from(new != cand[b][d]);
            cand[b][d] = new;
            lost
        }))
    }

    /// One digit at a time, by the table.
    pub(crate) fn band_step(
        cand: &mut [[u32; LANES]; 4],
        unsolved: &mut [u32; 4],
        b: usize,
    ) -> Option<u64> {
        let b = b & 3;
        let mut columns = [0u32; 9];
        loop {
            let mut singles = [0u32; 9];
            for (d, lane) in cand[b][..9].iter_mut().enumerate() {
                *lane &= TRIAD_KEEP[triads(*lane) & 511];
                if *lane == 0 {
                    return None;
                }
                singles[d] = single_rows(*lane) & unsolved[b];
            }
            let (mut placed, mut twice) = (0, 0);
            for &s in &singles {
                twice |= placed & s;
                placed |= s;
            }
            if placed == 0 {
                return Some(clear_columns(cand, b, &columns));
            }
            if twice != 0 {
                return None;
            }
            unsolved[b] &= !placed;
            let mut changed = false;
            for (d, lane) in cand[b][..9].iter_mut().enumerate() {
                let kept = *lane & !(placed & !singles[d]);
                changed |= kept != *lane;
                *lane = kept;
                columns[d] |= columns_of(singles[d]);
            }
            if !changed {
                return Some(clear_columns(cand, b, &columns));
            }
        }
    }

    /// Clears each digit's `columns` from the bands other than `b`; returns the work-list bits
    /// of the masks that lost cells.
    fn clear_columns(cand: &mut [[u32; LANES]; 4], b: usize, columns: &[u32; 9]) -> u64 {
        let mut again = 0;
        for o in OTHER_BANDS[b & 3] {
            for (d, &c) in columns.iter().enumerate() {
                let lane = &mut cand[o & 3][d];
                again |= u64::from(*lane & c != 0) << (4 * d + o);
                *lane &= !c;
            }
        }
        again
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
    };

    use super::{LANES, NEXT_KEEP, WRAP_KEEP};

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
    pub(crate) fn column_permutations(cand: &mut [[u32; LANES]; 4]) -> Option<[u32; 3]> {
        let (row, next_keep, wrap_keep, next_wrap, after_wrap) = unsafe {
            (
                _mm_set1_epi32(511),
                _mm_set1_epi32(NEXT_KEEP as i32),
                _mm_set1_epi32(WRAP_KEEP as i32),
                _mm_set1_epi32((!NEXT_KEEP & 511) as i32),
                _mm_set1_epi32((!WRAP_KEEP & 511) as i32),
            )
        };
        // Column j + 1 and column j + 2 of each stack, at column j.
        let next = |x| unsafe {
            _mm_or_si128(
                _mm_and_si128(_mm_srli_epi32(x, 1), next_keep),
                _mm_and_si128(_mm_slli_epi32(x, 2), next_wrap),
            )
        };
        let after_next = |x| unsafe {
            _mm_or_si128(
                _mm_and_si128(_mm_srli_epi32(x, 2), wrap_keep),
                _mm_and_si128(_mm_slli_epi32(x, 1), after_wrap),
            )
        };
        let mut changed = [0u32; 3];
        let mut fits = 0;
        // Four digits at a time (the last group is digit 8 and three empty lanes).
        for k in 0..LANES / 4 {
            let v = [0, 1, 2].map(|b| unsafe { _mm_loadu_si128(cand[b][4 * k..].as_ptr().cast()) });
            let any = v.map(|v| unsafe {
                let folded =
                    _mm_or_si128(_mm_or_si128(v, _mm_srli_epi32(v, 9)), _mm_srli_epi32(v, 18));
                _mm_and_si128(folded, row)
            });
            let (n, a) = (any.map(next), any.map(after_next));
            // Bands x and y can take column j + 1 and j + 2 crosswise.
            let cross = |x: usize, y: usize| unsafe {
                _mm_or_si128(_mm_and_si128(n[x], a[y]), _mm_and_si128(a[x], n[y]))
            };
            let keep = unsafe {
                [
                    _mm_and_si128(any[0], cross(1, 2)),
                    _mm_and_si128(any[1], cross(0, 2)),
                    _mm_and_si128(any[2], cross(0, 1)),
                ]
            };
            // Every stack keeps something of band 0 exactly when every stack admits a
            // permutation.
            let stacks = unsafe {
                let k0 = keep[0];
                let folded = _mm_or_si128(
                    _mm_or_si128(k0, _mm_srli_epi32(k0, 1)),
                    _mm_srli_epi32(k0, 2),
                );
                _mm_and_si128(folded, wrap_keep)
            };
            fits |= lane_mask(unsafe { _mm_cmpeq_epi32(stacks, wrap_keep) }) << (4 * k);
            for b in 0..3 {
                let new = unsafe {
                    let c = keep[b];
                    let spread =
                        _mm_or_si128(_mm_or_si128(c, _mm_slli_epi32(c, 9)), _mm_slli_epi32(c, 18));
                    _mm_and_si128(v[b], spread)
                };
                unsafe { _mm_storeu_si128(cand[b][4 * k..].as_mut_ptr().cast(), new) };
                let same = lane_mask(unsafe { _mm_cmpeq_epi32(new, v[b]) });
                changed[b] |= (!same & 15) << (4 * k);
            }
        }
        (fits & 511 == 511).then_some(changed.map(|c| c & 511))
    }
}

/// Eight digits at a time (digit 8 on its own), for the search copy built with AVX2.
#[cfg(target_arch = "x86_64")]
pub(super) mod avx2 {
    use std::arch::x86_64::{
        __m256i, _mm256_add_epi32, _mm256_and_si256, _mm256_andnot_si256, _mm256_castsi256_ps,
        _mm256_cmpeq_epi8, _mm256_cmpeq_epi32, _mm256_cvtsi256_si32, _mm256_loadu_si256,
        _mm256_movemask_ps, _mm256_or_si256, _mm256_permute2x128_si256, _mm256_set1_epi8,
        _mm256_set1_epi32, _mm256_set1_epi64x, _mm256_setr_epi8, _mm256_setzero_si256,
        _mm256_shuffle_epi8, _mm256_shuffle_epi32, _mm256_slli_epi32, _mm256_srli_epi32,
        _mm256_storeu_si256, _mm256_sub_epi32, _mm256_testz_si256,
    };

    use super::super::tables::{SPREAD4, TRIAD_KEEP, triads};
    use super::super::{OTHER_BANDS, columns_of, single_rows};
    use super::{LANES, NEXT_KEEP, WRAP_KEEP};

    /// As [`super::clear`].
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn clear(lanes: &mut [u32; LANES], bits: u32) -> u32 {
        let wide = _mm256_set1_epi32(bits as i32);
        // SAFETY (load and store): 12 lanes, so lanes 0..8 are in bounds for 32 bytes.
        let old = unsafe { _mm256_loadu_si256(lanes.as_ptr().cast()) };
        let new = _mm256_andnot_si256(wide, old);
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), new) };
        let kept = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(new, old))) as u32;
        // Lane 8 (digit 9) on its own; the pads stay empty. (Comparing before and after, not
        // testing `lanes[8] & bits` first: the latter timed 5% slower on 17-clue.)
        let rest = lanes[8];
        lanes[8] = rest & !bits;
        (!kept & 255) | u32::from(lanes[8] != rest) << 8
    }

    /// As [`super::band_values`]: a digit's value by its four bits, each bit the union of the
    /// masks of the digits that have it, spread to one byte a cell (a byte shuffle puts the
    /// mask's byte `i / 8` in byte `i`, a compare with bit `i % 8` makes it all ones or none).
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn band_values(lanes: &[u32; LANES]) -> [u8; 32] {
        let l = |d: usize| lanes[d];
        let planes = [
            l(0) | l(2) | l(4) | l(6) | l(8),
            l(1) | l(2) | l(5) | l(6),
            l(3) | l(4) | l(5) | l(6),
            l(7) | l(8),
        ];
        let source = _mm256_setr_epi8(
            0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3,
            3, 3, 3,
        );
        let bit = _mm256_set1_epi64x(0x8040_2010_0804_0201u64 as i64);
        let mut values = _mm256_setzero_si256();
        for (k, &plane) in planes.iter().enumerate() {
            let bytes = _mm256_shuffle_epi8(_mm256_set1_epi32(plane as i32), source);
            let set = _mm256_cmpeq_epi8(_mm256_and_si256(bytes, bit), bit);
            values = _mm256_or_si256(values, _mm256_and_si256(set, _mm256_set1_epi8(1 << k)));
        }
        let mut out = [0u8; 32];
        // SAFETY: 32 bytes into 32 bytes.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), values) };
        out
    }

    /// As [`super::holding`].
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn holding(lanes: &[u32; LANES], bits: u32) -> u32 {
        let wide = _mm256_set1_epi32(bits as i32);
        // SAFETY: 12 lanes: 0..8 are in bounds for 32 bytes.
        let v = unsafe { _mm256_loadu_si256(lanes.as_ptr().cast()) };
        let none = _mm256_cmpeq_epi32(_mm256_and_si256(v, wide), _mm256_setzero_si256());
        let none = _mm256_movemask_ps(_mm256_castsi256_ps(none)) as u32;
        (!none & 255) | u32::from(lanes[8] & bits != 0) << 8
    }

    /// As [`super::column_permutations`].
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn column_permutations(cand: &mut [[u32; LANES]; 4]) -> Option<[u32; 3]> {
        let row = _mm256_set1_epi32(511);
        let next_keep = _mm256_set1_epi32(NEXT_KEEP as i32);
        let wrap_keep = _mm256_set1_epi32(WRAP_KEEP as i32);
        let next_wrap = _mm256_set1_epi32((!NEXT_KEEP & 511) as i32);
        let after_wrap = _mm256_set1_epi32((!WRAP_KEEP & 511) as i32);
        let next = |x: __m256i| {
            _mm256_or_si256(
                _mm256_and_si256(_mm256_srli_epi32(x, 1), next_keep),
                _mm256_and_si256(_mm256_slli_epi32(x, 2), next_wrap),
            )
        };
        let after_next = |x: __m256i| {
            _mm256_or_si256(
                _mm256_and_si256(_mm256_srli_epi32(x, 2), wrap_keep),
                _mm256_and_si256(_mm256_slli_epi32(x, 1), after_wrap),
            )
        };
        // SAFETY: each band holds 12 lanes, so lanes 0..8 are in bounds for 32 bytes.
        let v = [0, 1, 2].map(|b| unsafe { _mm256_loadu_si256(cand[b].as_ptr().cast()) });
        let any = v.map(|v| {
            let folded = _mm256_or_si256(
                _mm256_or_si256(v, _mm256_srli_epi32(v, 9)),
                _mm256_srli_epi32(v, 18),
            );
            _mm256_and_si256(folded, row)
        });
        let (n, a) = (any.map(next), any.map(after_next));
        // Bands x and y can take column j + 1 and j + 2 crosswise.
        let cross = |x: usize, y: usize| {
            _mm256_or_si256(_mm256_and_si256(n[x], a[y]), _mm256_and_si256(a[x], n[y]))
        };
        let keep = [
            _mm256_and_si256(any[0], cross(1, 2)),
            _mm256_and_si256(any[1], cross(0, 2)),
            _mm256_and_si256(any[2], cross(0, 1)),
        ];
        let k0 = keep[0];
        let stacks = _mm256_and_si256(
            _mm256_or_si256(
                _mm256_or_si256(k0, _mm256_srli_epi32(k0, 1)),
                _mm256_srli_epi32(k0, 2),
            ),
            wrap_keep,
        );
        let fits = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(stacks, wrap_keep)));
        let mut changed = [0u32; 3];
        for b in 0..3 {
            let c = keep[b];
            let spread = _mm256_or_si256(
                _mm256_or_si256(c, _mm256_slli_epi32(c, 9)),
                _mm256_slli_epi32(c, 18),
            );
            let new = _mm256_and_si256(v[b], spread);
            // SAFETY: as for the load.
            unsafe { _mm256_storeu_si256(cand[b].as_mut_ptr().cast(), new) };
            let same = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(new, v[b])));
            changed[b] = !same as u32 & 255;
        }
        // Digit 8 on its own, by the portable step.
        let last = super::portable::column_step_by_digit(cand, 8)?;
        if fits & 255 != 255 {
            return None;
        }
        for b in 0..3 {
            changed[b] |= last[b] << 8;
        }
        Some(changed)
    }

    /// As [`super::band_step`]: digits 0..8 eight to a vector, digit 8 by the scalar table.
    ///
    /// The triad test by bit operations: with a band's triads folded onto their first cells
    /// (bit `9 * row + 3 * box`), triad (r, k) lies on a permutation when rows r + 1 and r + 2
    /// can take boxes k + 1 and k + 2 crosswise (indices mod 3), so four rotations of the
    /// folded mask (box by one and two within a row, row by one and two) decide all nine triads.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn band_step(
        cand: &mut [[u32; LANES]; 4],
        unsolved: &mut [u32; 4],
        b: usize,
    ) -> Option<u64> {
        const FIRSTS: i32 = 0o111_111_111;
        const LOWEST: i32 = 1 | 1 << 9 | 1 << 18;
        let b = b & 3;
        let set = _mm256_set1_epi32;
        let (or, and, andnot) = (_mm256_or_si256, _mm256_and_si256, _mm256_andnot_si256);
        let lanes_equal = |x: __m256i, y: __m256i| {
            _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(x, y)))
        };
        // SAFETY (every load and store here): 12 lanes, so lanes 0..8 are in bounds for 32 bytes.
        let mut v = unsafe { _mm256_loadu_si256(cand[b].as_ptr().cast()) };
        let mut last = cand[b][8];
        let mut open = unsolved[b];
        let mut columns = _mm256_setzero_si256();
        let mut last_columns = 0;
        loop {
            let f = and(
                or(or(v, _mm256_srli_epi32(v, 1)), _mm256_srli_epi32(v, 2)),
                set(FIRSTS),
            );
            let next_box = or(
                and(_mm256_srli_epi32(f, 3), set(0o011_011_011)),
                and(_mm256_slli_epi32(f, 6), set(0o100_100_100)),
            );
            let after_box = or(
                and(_mm256_slli_epi32(f, 3), set(0o110_110_110)),
                and(_mm256_srli_epi32(f, 6), set(0o001_001_001)),
            );
            // Bits moved past bit 27 fall outside `f`, which the result is masked with.
            let next_row = |x: __m256i| or(_mm256_srli_epi32(x, 9), _mm256_slli_epi32(x, 18));
            let after_row = |x: __m256i| or(_mm256_slli_epi32(x, 9), _mm256_srli_epi32(x, 18));
            let keep = and(
                f,
                or(
                    and(next_row(next_box), after_row(after_box)),
                    and(next_row(after_box), after_row(next_box)),
                ),
            );
            v = and(
                v,
                or(
                    or(keep, _mm256_slli_epi32(keep, 1)),
                    _mm256_slli_epi32(keep, 2),
                ),
            );
            last &= TRIAD_KEEP[triads(last) & 511];
            if lanes_equal(v, _mm256_setzero_si256()) != 0 || last == 0 {
                return None;
            }
            // Rows with one cell, as `single_rows` finds them.
            let rest = and(v, _mm256_sub_epi32(v, set(LOWEST)));
            let carries = and(_mm256_add_epi32(rest, set(510 * LOWEST)), set(LOWEST << 9));
            let multi = _mm256_sub_epi32(carries, _mm256_srli_epi32(carries, 9));
            let singles = and(andnot(multi, v), set(open as i32));
            let last_singles = single_rows(last) & open;
            if _mm256_testz_si256(singles, singles) != 0 && last_singles == 0 {
                break;
            }
            // The cells placed (any lane) and those placed twice, by halving the lanes three
            // times: `once` ORs, `twice` collects the overlaps.
            let halve = |(once, twice): (__m256i, __m256i), (o, t): (__m256i, __m256i)| {
                (or(once, o), or(or(twice, t), and(once, o)))
            };
            let zero = _mm256_setzero_si256();
            let (once, twice) = halve(
                (singles, zero),
                (_mm256_permute2x128_si256(singles, singles, 1), zero),
            );
            let (once, twice) = halve(
                (once, twice),
                (
                    _mm256_shuffle_epi32(once, 0x4E),
                    _mm256_shuffle_epi32(twice, 0x4E),
                ),
            );
            let (once, twice) = halve(
                (once, twice),
                (
                    _mm256_shuffle_epi32(once, 0xB1),
                    _mm256_shuffle_epi32(twice, 0xB1),
                ),
            );
            let placed = _mm256_cvtsi256_si32(once) as u32;
            if _mm256_cvtsi256_si32(twice) as u32 | placed & last_singles != 0 {
                return None;
            }
            let placed = placed | last_singles;
            open &= !placed;
            let cleared = andnot(andnot(singles, set(placed as i32)), v);
            let cleared_last = last & !(placed & !last_singles);
            let folded = and(
                or(
                    or(singles, _mm256_srli_epi32(singles, 9)),
                    _mm256_srli_epi32(singles, 18),
                ),
                set(511),
            );
            columns = or(
                columns,
                or(
                    or(folded, _mm256_slli_epi32(folded, 9)),
                    _mm256_slli_epi32(folded, 18),
                ),
            );
            last_columns |= columns_of(last_singles);
            let same = lanes_equal(cleared, v) == 255 && cleared_last == last;
            (v, last) = (cleared, cleared_last);
            if same {
                break;
            }
        }
        unsafe { _mm256_storeu_si256(cand[b].as_mut_ptr().cast(), v) };
        cand[b][8] = last;
        unsolved[b] = open;
        if _mm256_testz_si256(columns, columns) != 0 && last_columns == 0 {
            return Some(0);
        }
        let mut again = 0;
        for o in OTHER_BANDS[b] {
            let o = o & 3;
            let w = unsafe { _mm256_loadu_si256(cand[o].as_ptr().cast()) };
            let kept = andnot(columns, w);
            unsafe { _mm256_storeu_si256(cand[o].as_mut_ptr().cast(), kept) };
            let w8 = cand[o][8];
            cand[o][8] = w8 & !last_columns;
            let lost = (!lanes_equal(kept, w) as u32 & 255) | u32::from(cand[o][8] != w8) << 8;
            again |= SPREAD4[lost as usize & 511] << o;
        }
        Some(again)
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
            assert_eq!(
                holding::<false>(&lanes, bits),
                portable::holding(&lanes, bits)
            );
            assert_eq!(clear::<false>(&mut a, bits), portable::clear(&mut b, bits));
            assert_eq!(a, b);
            #[cfg(target_arch = "x86_64")]
            if std::is_x86_feature_detected!("avx2") {
                let mut w = lanes;
                // SAFETY (both calls): AVX2 was just detected.
                assert_eq!(
                    unsafe { avx2::holding(&lanes, bits) },
                    portable::holding(&lanes, bits)
                );
                let lost = unsafe { avx2::clear(&mut w, bits) };
                assert_eq!(lost, portable::clear(&mut lanes.clone(), bits));
                assert_eq!(w, b);
            }
        }
    }

    /// Random candidate masks for three bands, from dense to sparse as `round` goes on.
    fn random_bands(state: &mut u64, round: usize) -> [[u32; LANES]; 4] {
        let mut cand = [[0u32; LANES]; 4];
        for band in &mut cand[..3] {
            for lane in &mut band[..9] {
                let mut m = next(state) | next(state);
                for _ in 0..round % 4 {
                    m &= next(state) | next(state);
                }
                *lane = m & ((1 << 27) - 1);
            }
        }
        cand
    }

    /// Candidates around a hidden solution (a pattern grid with the digits relabelled): each
    /// digit keeps its solution cells plus random others, solved cells (random) only their own
    /// digit; every other board loses one of its solution cells. So rows left with one cell,
    /// placements and (less often) contradictions all come up.
    fn random_band_board(state: &mut u64) -> ([[u32; LANES]; 4], [u32; 4]) {
        let mut label: Vec<usize> = (0..9).collect();
        for i in (1..9).rev() {
            label.swap(i, next(state) as usize % (i + 1));
        }
        let mut cand = [[0u32; LANES]; 4];
        let mut unsolved = [0u32; 4];
        let mut solution = [[0u32; 9]; 3];
        for b in 0..3 {
            let solved = next(state) & next(state) & ((1 << 27) - 1);
            unsolved[b] = !solved & ((1 << 27) - 1);
            let mut own = [0u32; 9];
            for cell in 0..27 {
                let (r, c) = (3 * b + cell / 9, cell % 9);
                own[label[(3 * (r % 3) + r / 3 + c) % 9]] |= 1 << cell;
            }
            for d in 0..9 {
                let extra = next(state) & next(state) & unsolved[b];
                cand[b][d] = own[d] | extra;
            }
            solution[b] = own;
        }
        if next(state) % 2 == 0 {
            let (b, d) = (next(state) as usize % 3, next(state) as usize % 9);
            let own = solution[b][d];
            let nth = next(state) % 3;
            let cell = (0..nth).fold(own, |m, _| m & (m - 1));
            cand[b][d] &= !(cell & cell.wrapping_neg());
        }
        (cand, unsolved)
    }

    #[test]
    fn band_step_vector_agrees_with_the_table() {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            let mut state = 11;
            let (mut placing, mut dead) = (0, 0);
            for round in 0..30_000 {
                let (cand, unsolved) = random_band_board(&mut state);
                let b = round % 3;
                let (mut c1, mut u1) = (cand, unsolved);
                let (mut c2, mut u2) = (cand, unsolved);
                let want = portable::band_step(&mut c1, &mut u1, b);
                // SAFETY: AVX2 was just detected.
                let got = unsafe { avx2::band_step(&mut c2, &mut u2, b) };
                assert_eq!(got, want, "round {round}");
                if want.is_some() {
                    assert_eq!((c2, u2), (c1, u1), "round {round}");
                    placing += usize::from(u1 != unsolved);
                } else {
                    dead += 1;
                }
            }
            // Both outcomes, and placing, must have been exercised.
            assert!(
                placing > 10_000 && dead > 2_000,
                "placing {placing}, dead {dead}"
            );
        }
    }

    #[test]
    fn band_step_keeps_the_triads_on_a_permutation_for_every_pattern() {
        use super::super::tables::{TRIAD_KEEP, triads};
        // Digit 0 (and digit 8, the scalar lane) hold whole triads by the pattern; the other
        // digits the whole band. Every row has three cells or more, so nothing is placed.
        for (pattern, &keep) in TRIAD_KEEP.iter().enumerate() {
            let cells = (0..9)
                .filter(|t| pattern >> t & 1 != 0)
                .fold(0u32, |c, t| c | 0b111 << (9 * (t % 3) + 3 * (t / 3)));
            assert_eq!(triads(cells), pattern);
            let want = cells & keep;
            let mut cand = [[0u32; LANES]; 4];
            for band in &mut cand[..3] {
                band[..9].fill((1 << 27) - 1);
            }
            cand[1][0] = cells;
            cand[1][8] = cells;
            let mut unsolved = [(1 << 27) - 1; 4];
            let mut expected = cand;
            expected[1][0] = want;
            expected[1][8] = want;
            let result = band_step::<false>(&mut cand, &mut unsolved, 1);
            assert_eq!(result.is_some(), want != 0, "pattern {pattern:09b}");
            if want != 0 {
                assert_eq!((result, cand), (Some(0), expected), "pattern {pattern:09b}");
            }
            #[cfg(target_arch = "x86_64")]
            if std::is_x86_feature_detected!("avx2") {
                let mut wide = expected;
                wide[1][0] = cells;
                wide[1][8] = cells;
                // SAFETY: AVX2 was just detected.
                let result = unsafe { avx2::band_step(&mut wide, &mut unsolved, 1) };
                assert_eq!(result.is_some(), want != 0, "pattern {pattern:09b}");
                if want != 0 {
                    assert_eq!((result, wide), (Some(0), expected), "pattern {pattern:09b}");
                }
            }
        }
    }

    /// The column permutation step done the slow way: per digit and stack, the 3 x 3 (band,
    /// column) pattern through the permutation table.
    fn column_permutations_by_table(cand: &mut [[u32; LANES]; 4]) -> Option<[u32; 3]> {
        use super::super::tables::PERMUTATION_KEEP;
        portable::column_step_by(cand, |any| {
            let mut allowed = [0u32; 3];
            for s in 0..3 {
                let pattern = (0..3).fold(0, |p, b| p | (any[b] >> (3 * s) & 7) << (3 * b));
                let keep = u32::from(PERMUTATION_KEEP[pattern as usize]);
                if keep == 0 {
                    return None;
                }
                for (b, allowed) in allowed.iter_mut().enumerate() {
                    *allowed |= (keep >> (3 * b) & 7) << (3 * s);
                }
            }
            Some(allowed)
        })
    }

    #[test]
    fn column_permutations_agree_with_the_table_and_each_other() {
        let mut state = 13;
        let (mut found, mut dead) = (0, 0);
        for round in 0..20_000 {
            let cand = random_bands(&mut state, round);
            let expected = column_permutations_by_table(&mut cand.clone());
            let (mut a, mut b) = (cand, cand);
            assert_eq!(portable::column_permutations(&mut a), expected);
            assert_eq!(column_permutations::<false>(&mut b), expected);
            #[cfg(target_arch = "x86_64")]
            if std::is_x86_feature_detected!("avx2") {
                let mut w = cand;
                // SAFETY: AVX2 was just detected.
                let wide = unsafe { avx2::column_permutations(&mut w) };
                assert_eq!(wide, expected);
                if expected.is_some() {
                    assert_eq!(w, b);
                }
            }
            if let Some(changed) = expected {
                let mut c = cand;
                column_permutations_by_table(&mut c);
                assert_eq!((a, b), (c, c));
                found += usize::from(changed != [0; 3]);
            } else {
                dead += 1;
            }
        }
        // The random boards must reach both a change and a dead end often.
        assert!(found > 1000 && dead > 1000, "found {found}, dead {dead}");
    }

    #[test]
    fn a_digit_alone_in_a_column_takes_that_column_of_its_box() {
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
        // Every other digit may go anywhere.
        for band in &mut cand[..3] {
            for (d, lane) in band[..9].iter_mut().enumerate() {
                if d != 4 {
                    *lane |= COLUMN << 2;
                }
            }
        }
        let before = cand;
        let changed = column_permutations::<false>(&mut cand).expect("a permutation fits");
        // Band 1 takes column 2 of stack 0 for digit 4: the rest of its box goes, leaving the
        // one cell (a box single for the band step to place). Nothing else changes.
        assert_eq!(changed, [0, 1 << 4, 0]);
        assert_eq!(cand[0], before[0]);
        assert_eq!(cand[2], before[2]);
        let stack0 = COLUMN * 0b111;
        assert_eq!(cand[1][4] & stack0, 1 << 20);
        assert_eq!(cand[1][4] & !stack0, before[1][4] & !stack0);
        cand[1][4] = 0;
        assert_eq!(column_permutations::<false>(&mut cand), None);
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
        assert_eq!(clear::<false>(&mut lanes, 0b100), 1 | 1 << 8);
        assert_eq!(lanes[0], 0b001);
        assert_eq!(lanes[3], 0b010);
        assert_eq!(lanes[8], 0);
        assert_eq!(holding::<false>(&lanes, 0b011), 1 | 1 << 3);
    }
}
