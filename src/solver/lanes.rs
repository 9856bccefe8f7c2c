//! The nine digit masks of one band side by side as 12 lanes (lanes 9..12 stay empty), worked on
//! all at once (and the blank test over a grid's 81 cells, for setting up): with SSE2 on x86-64
//! (part of every x86-64 CPU, so no detection is needed), by a plain loop elsewhere. The loop is
//! also the reference the vector code is tested against. The steps the search runs most (the
//! column step, clearing cells, the digits holding some cells) have AVX2 versions as well, which
//! only the search copy built for AVX2 calls.

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

/// One column (for column 0) in all three rows of a band.
const COLUMN: u32 = 1 | 1 << 9 | 1 << 18;

/// Within each stack (3-bit group) of a 9-bit column mask, column `j` takes the bit of column
/// `j + 1` (mod 3).
const NEXT_KEEP: u32 = 0b011_011_011;
/// Likewise column `j + 2`, the wrap-around part.
const WRAP_KEEP: u32 = 0b001_001_001;

/// Lane-by-lane versions: the fallback off x86-64 and the tests' reference.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
mod portable {
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
        __m256i, _mm256_and_si256, _mm256_andnot_si256, _mm256_castsi256_ps, _mm256_cmpeq_epi32,
        _mm256_loadu_si256, _mm256_movemask_ps, _mm256_or_si256, _mm256_set1_epi32,
        _mm256_setzero_si256, _mm256_slli_epi32, _mm256_srli_epi32, _mm256_storeu_si256,
    };

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
