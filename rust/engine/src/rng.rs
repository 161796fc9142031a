//! SplitMix64: the one generator behind every seeded draw and every Zobrist key.
//!
//! It is tiny, fully specified and trivial to reproduce in Python, which is what lets the
//! pure-Python reference draw the same random holes and compute the same hashes bit for bit.

#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform integer in `0..n` (n > 0), by rejection so that there is no modulo bias.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "below(0) has no values");
        // Reject x >= 2^64 - (2^64 mod n), the incomplete last block of n values. That zone lies
        // within the top n - 1 values, so the (slow) remainder is only needed for x up there.
        loop {
            let x = self.next_u64();
            if x <= u64::MAX - (n - 1) {
                return x % n;
            }
            let rem = (u64::MAX % n + 1) % n;
            if rem == 0 || x < 0u64.wrapping_sub(rem) {
                return x % n;
            }
        }
    }
}

/// The seed of every Zobrist table: the bytes of "BOARDCOR".
pub const ZOBRIST_SEED: u64 = 0x424F_4152_4443_4F52;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_matches_the_published_sequence_for_seed_0() {
        let mut g = SplitMix64::new(0);
        assert_eq!(g.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(g.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn below_rejects_exactly_the_incomplete_last_block() {
        // The textbook form: reject x >= 2^64 - (2^64 mod n), whatever x is.
        fn textbook(g: &mut SplitMix64, n: u64) -> u64 {
            let rem = (u64::MAX % n + 1) % n;
            loop {
                let x = g.next_u64();
                if rem == 0 || x < 0u64.wrapping_sub(rem) {
                    return x % n;
                }
            }
        }
        for n in [1, 2, 3, 7, 1 << 20, (1 << 63) + 1, u64::MAX / 3 * 2, u64::MAX] {
            let (mut a, mut b) = (SplitMix64::new(n), SplitMix64::new(n));
            for _ in 0..1000 {
                assert_eq!(a.below(n), textbook(&mut b, n));
            }
        }
    }

    #[test]
    fn below_stays_in_range() {
        let mut g = SplitMix64::new(7);
        for n in 1..50 {
            assert!(g.below(n) < n);
        }
    }
}
