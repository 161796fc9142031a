//! Counting and unranking combinations: a turn's moves are the combinations of one label's
//! empty cells, so they are counted with binomials and drawn by unranking, never listed.

use crate::bitboard::nth_bit_with;

/// Binomial coefficients C(n, k) for n <= 128, k <= 6, computed at compile time.
static BINOMIALS: [[u64; 7]; 129] = {
    let mut t = [[0u64; 7]; 129];
    let mut n = 0;
    while n < 129 {
        t[n][0] = 1;
        let mut k = 1;
        while k < 7 {
            t[n][k] = if n == 0 { 0 } else { t[n - 1][k - 1] + t[n - 1][k] };
            k += 1;
        }
        n += 1;
    }
    t
};

/// `UP_TO[n][x]`: the number of ways to cover 1 to `x` of `n` cells (sum of `C(n, k)`).
pub(super) static UP_TO: [[u64; 7]; 129] = {
    let mut t = [[0u64; 7]; 129];
    let mut n = 0;
    while n < 129 {
        let mut x = 1;
        while x < 7 {
            t[n][x] = t[n][x - 1] + if x <= n { BINOMIALS[n][x] } else { 0 };
            x += 1;
        }
        n += 1;
    }
    t
};

/// `COLUMNS[k][m]` = C(m, k): one column of BINOMIALS, contiguous for the searches of
/// `unrank_combination`.
static COLUMNS: [[u64; 129]; 7] = {
    let mut t = [[0u64; 129]; 7];
    let mut k = 0;
    while k < 7 {
        let mut m = 0;
        while m < 129 {
            t[k][m] = BINOMIALS[m][k];
            m += 1;
        }
        k += 1;
    }
    t
};

/// The `index`-th `k`-subset of `set` (`n` cells) in lexicographic order of cell positions
/// (the order `Moves` generates them in).
///
/// Lexicographic rank `index` is the colexicographic rank `C(n, k) - 1 - index` of the mirrored
/// positions, so each element comes from one search in a column of binomials: with
/// `r = C(n, k) - index`, the next element sits `m` positions before the end, for the largest `m`
/// with `C(m, k) < r`; then `r -= C(m, k)` and `k -= 1` (hockey-stick identity). No branch
/// depends on the data, where walking the cells one by one mispredicts at almost every cell.
#[inline(always)]
pub(super) fn unrank_combination(set: u128, n: u32, k: u32, index: u64, fast_pdep: bool) -> u128 {
    debug_assert!(index < binomial(n, k));
    let mut r = binomial(n, k) - index;
    let mut cells = 0u128;
    for k in (2..=k).rev() {
        let m = count_below(&COLUMNS[k as usize], n, r) - 1;
        r -= COLUMNS[k as usize][m as usize];
        cells |= 1u128 << nth_bit_with(set, n - 1 - m, fast_pdep);
    }
    // C(m, 1) = m: the last element needs no search.
    cells | 1u128 << nth_bit_with(set, n - r as u32, fast_pdep)
}

/// One more than the largest m with `column[m] < r`, for a column of binomials C(m, k) and an
/// `r <= C(upper, k)`: the number of entries below `r`, counted over whole blocks of 8 that
/// cover `0..upper` (entries from `upper` on are >= r). Independent comparisons that vectorize,
/// where a binary search is a chain of dependent loads on the critical path of a playout. (Not
/// narrowed to the previous element's bound: the varying trip count then costs more.)
/// (Binomials up to C(128, 6) fit in an i64, and signed comparisons are the ones AVX2 has.)
#[inline(always)]
fn count_below(column: &[u64; 129], upper: u32, r: u64) -> u32 {
    let mut count = 0;
    for block in column[..128].chunks_exact(8).take(upper.div_ceil(8) as usize) {
        count += block.iter().map(|&c| ((c as i64) < r as i64) as u32).sum::<u32>();
    }
    count
}

#[inline(always)]
pub(super) fn binomial(n: u32, k: u32) -> u64 {
    if k > 6 {
        return 0;
    }
    BINOMIALS[n as usize][k as usize]
}
