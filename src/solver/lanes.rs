//! The nine digit masks of one band side by side as 12 lanes (lanes 9..12 stay empty), worked on
//! all at once: with SSE2 on x86-64 (part of every x86-64 CPU, so no detection is needed), by a
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

/// Lane-by-lane versions: the fallback off x86-64 and the tests' reference.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
mod portable {
    use super::LANES;

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
        __m128i, _mm_and_si128, _mm_andnot_si128, _mm_castsi128_ps, _mm_cmpeq_epi32,
        _mm_loadu_si128, _mm_movemask_ps, _mm_set1_epi32, _mm_setzero_si128, _mm_storeu_si128,
    };

    use super::LANES;

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
