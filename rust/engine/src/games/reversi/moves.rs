//! Move generation and flipping, generic over the frame.
//!
//! Both use the same parallel-prefix ("Kogge-Stone") fill along the eight directions. The four
//! directions of each sweep are written as arrays of four lanes so that, in the AVX2 copy of the
//! hot loop, LLVM turns them into single vector instructions.

use super::frame::Frame;
use crate::bitboard::Bits;

#[inline(always)]
fn shl<B: Bits>(x: [B; 4], s: [u32; 4]) -> [B; 4] {
    [x[0] << s[0], x[1] << s[1], x[2] << s[2], x[3] << s[3]]
}

#[inline(always)]
fn shr<B: Bits>(x: [B; 4], s: [u32; 4]) -> [B; 4] {
    [x[0] >> s[0], x[1] >> s[1], x[2] >> s[2], x[3] >> s[3]]
}

#[inline(always)]
fn and<B: Bits>(a: [B; 4], b: [B; 4]) -> [B; 4] {
    [a[0] & b[0], a[1] & b[1], a[2] & b[2], a[3] & b[3]]
}

#[inline(always)]
fn or<B: Bits>(a: [B; 4], b: [B; 4]) -> [B; 4] {
    [a[0] | b[0], a[1] | b[1], a[2] | b[2], a[3] | b[3]]
}

/// The four direction steps (east, south, south-east, south-west) and, per direction, which
/// opponent discs a run may pass through.
#[inline(always)]
fn lanes<F: Frame>(opponent: F::B) -> ([u32; 4], [F::B; 4]) {
    let inner = opponent & F::INNER_COLUMNS;
    ([1, F::W, F::W + 1, F::W - 1], [inner, opponent, inner, inner])
}

/// Squares reachable from `from` through a contiguous run of `through` squares, one direction
/// per lane, excluding `from` itself (the run only).
#[inline(always)]
fn fill<F: Frame>(from: [F::B; 4], through: [F::B; 4], s: [u32; 4], left: bool) -> [F::B; 4] {
    let step = |x: [F::B; 4], k: [u32; 4]| if left { shl(x, k) } else { shr(x, k) };
    let s2 = [2 * s[0], 2 * s[1], 2 * s[2], 2 * s[3]];
    let mut run = and(through, step(from, s));
    run = or(run, and(through, step(run, s)));
    let pairs = and(through, step(through, s));
    // Each doubling step extends runs by two squares: 2 -> 4 -> 6 (-> 8 on 10-wide frames).
    let mut covered = 2;
    while covered < F::MAX_RUN {
        run = or(run, and(pairs, step(run, s2)));
        covered += 2;
    }
    run
}

/// Squares where `me` can place a disc among `empty`: the generic version, for any frame.
#[inline(always)]
pub fn mobility_generic<F: Frame>(me: F::B, opponent: F::B, empty: F::B) -> F::B {
    let (s, through) = lanes::<F>(opponent);
    let from = [me; 4];
    let east = shl(fill::<F>(from, through, s, true), s);
    let west = shr(fill::<F>(from, through, s, false), s);
    let all = or(east, west);
    (all[0] | all[1] | all[2] | all[3]) & empty
}

/// The discs flipped by `me` placing at `square` (zero when the placement brackets nothing):
/// the generic version, for any frame.
///
/// Along each ray from the square, the first square that is not an opponent disc (a hole, an
/// empty or off-board square, or one of ours) ends the run; the run flips only if that square is
/// ours. The first such square is the lowest bit of the ray for directions going up the index,
/// the highest for the others — one bit trick each, no loop.
// The ray index matters: rays 0-3 grow the square index and rays 4-7 shrink it.
#[allow(clippy::needless_range_loop)]
#[inline(always)]
pub fn flips_generic<F: Frame>(me: F::B, opponent: F::B, square: u32) -> F::B {
    let rays = &F::rays()[square as usize];
    let mut flipped = F::B::ZERO;
    for &ray in &rays[..4] {
        let end = (ray & !opponent).isolate_lowest();
        if !(end & me).is_zero() {
            flipped |= ray & end.wrapping_dec();
        }
    }
    for &ray in &rays[4..] {
        let end = (ray & !opponent).isolate_highest();
        if !(end & me).is_zero() {
            flipped |= ray & !(end | end.wrapping_dec());
        }
    }
    flipped
}

/// AVX2 versions for 64-bit, 8-wide frames. Only `Classic8Avx2` and `Frame8Avx2` call them.
#[cfg(target_arch = "x86_64")]
pub(super) mod avx2 {
    use std::arch::x86_64::*;

    /// The same parallel-prefix fill as `fill`, the four directions in one 256-bit register.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub fn mobility(me: u64, opponent: u64, empty: u64) -> u64 {
        const INNER: i64 = 0x7E7E_7E7E_7E7E_7E7E;
        // Lanes: east (1), south (8), south-east (9), south-west (7).
        let shift = _mm256_set_epi64x(7, 9, 8, 1);
        let shift2 = _mm256_add_epi64(shift, shift);
        let through = _mm256_and_si256(_mm256_set1_epi64x(opponent as i64), _mm256_set_epi64x(INNER, INNER, -1, INNER));
        let from = _mm256_set1_epi64x(me as i64);
        let mut up = _mm256_and_si256(through, _mm256_sllv_epi64(from, shift));
        let mut down = _mm256_and_si256(through, _mm256_srlv_epi64(from, shift));
        up = _mm256_or_si256(up, _mm256_and_si256(through, _mm256_sllv_epi64(up, shift)));
        down = _mm256_or_si256(down, _mm256_and_si256(through, _mm256_srlv_epi64(down, shift)));
        let pairs_up = _mm256_and_si256(through, _mm256_sllv_epi64(through, shift));
        let pairs_down = _mm256_srlv_epi64(pairs_up, shift);
        for _ in 0..2 {
            up = _mm256_or_si256(up, _mm256_and_si256(pairs_up, _mm256_sllv_epi64(up, shift2)));
            down = _mm256_or_si256(down, _mm256_and_si256(pairs_down, _mm256_srlv_epi64(down, shift2)));
        }
        let moves = _mm256_or_si256(_mm256_sllv_epi64(up, shift), _mm256_srlv_epi64(down, shift));
        let half = _mm_or_si128(_mm256_castsi256_si128(moves), _mm256_extracti128_si256::<1>(moves));
        let all = _mm_or_si128(half, _mm_unpackhi_epi64(half, half));
        (_mm_cvtsi128_si64(all) as u64) & empty
    }

    /// `flips_generic` with four directions in one register: the upward rays by their lowest
    /// blocker (as in `flips_generic`), the downward ones by a parallel-prefix fill from the
    /// square, as in `mobility`. (The "highest blocker" formulation of the downward rays gets
    /// scalarised by LLVM into four data-dependent branches, which cost far more than the fill.)
    #[target_feature(enable = "avx2")]
    #[inline]
    pub fn flips(me: u64, opponent: u64, square: u32, rays: &[u64; 8]) -> u64 {
        const INNER: i64 = 0x7E7E_7E7E_7E7E_7E7E;
        let zero = _mm256_setzero_si256();
        let one = _mm256_set1_epi64x(1);
        let opp = _mm256_set1_epi64x(opponent as i64);
        let mine = _mm256_set1_epi64x(me as i64);
        // SAFETY: `rays` holds eight u64; the first four are read as one unaligned vector.
        let ray_up = unsafe { _mm256_loadu_si256(rays.as_ptr() as *const __m256i) };
        let blockers = _mm256_andnot_si256(opp, ray_up);
        let end = _mm256_and_si256(blockers, _mm256_sub_epi64(zero, blockers));
        let missed = _mm256_cmpeq_epi64(_mm256_and_si256(end, mine), zero);
        let up = _mm256_andnot_si256(missed, _mm256_and_si256(ray_up, _mm256_sub_epi64(end, one)));

        let shift = _mm256_set_epi64x(7, 9, 8, 1);
        let shift2 = _mm256_add_epi64(shift, shift);
        let through = _mm256_and_si256(opp, _mm256_set_epi64x(INNER, INNER, -1, INNER));
        let from = _mm256_set1_epi64x(1i64 << square);
        let mut down = _mm256_and_si256(through, _mm256_srlv_epi64(from, shift));
        down = _mm256_or_si256(down, _mm256_and_si256(through, _mm256_srlv_epi64(down, shift)));
        let pairs = _mm256_and_si256(through, _mm256_srlv_epi64(through, shift));
        down = _mm256_or_si256(down, _mm256_and_si256(pairs, _mm256_srlv_epi64(down, shift2)));
        down = _mm256_or_si256(down, _mm256_and_si256(pairs, _mm256_srlv_epi64(down, shift2)));
        let missed = _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_srlv_epi64(down, shift), mine), zero);
        let down = _mm256_andnot_si256(missed, down);

        let both = _mm256_or_si256(up, down);
        let half = _mm_or_si128(_mm256_castsi256_si128(both), _mm256_extracti128_si256::<1>(both));
        let all = _mm_or_si128(half, _mm_unpackhi_epi64(half, half));
        _mm_cvtsi128_si64(all) as u64
    }
}
