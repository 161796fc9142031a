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

    /// Output number `n` (from 1) of the stream started from `seed`, without drawing the ones
    /// before it: the seed of the `n`-th of many independent draws (a ply's, a chunk's), the
    /// same in every layer that derives one.
    pub fn output(seed: u64, n: u64) -> u64 {
        SplitMix64::new(seed.wrapping_add(0x9E37_79B9_7F4A_7C15u64.wrapping_mul(n.wrapping_sub(1)))).next_u64()
    }

    /// The state, which `new` takes back (saving a stream where it is).
    pub fn state(&self) -> u64 {
        self.state
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

impl SplitMix64 {
    /// A uniform float in [0, 1), from the top 53 bits.
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A standard Gumbel variate, `-ln(-ln u)`.
    pub fn gumbel(&mut self) -> f64 {
        // u in (0, 1): both logarithms stay finite.
        let u = (self.uniform() + f64::EPSILON).min(1.0 - f64::EPSILON);
        -(-u.ln()).ln()
    }

    /// A standard normal variate (Box-Muller).
    pub fn normal(&mut self) -> f64 {
        let u = 1.0 - self.uniform();
        let v = self.uniform();
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }

    /// A Gamma(`shape`, 1) variate (Marsaglia and Tsang; shape > 0).
    pub fn gamma(&mut self, shape: f64) -> f64 {
        if shape < 1.0 {
            // Gamma(a) = Gamma(a + 1) * U^(1/a).
            let u = 1.0 - self.uniform();
            return self.gamma(shape + 1.0) * u.powf(1.0 / shape);
        }
        let d = shape - 1.0 / 3.0;
        let c = 1.0 / (9.0 * d).sqrt();
        loop {
            let x = self.normal();
            let v = (1.0 + c * x).powi(3);
            if v <= 0.0 {
                continue;
            }
            let u = 1.0 - self.uniform();
            if u.ln() < 0.5 * x * x + d - d * v + d * v.ln() {
                return d * v;
            }
        }
    }

    /// `n` weights from a symmetric Dirichlet(`alpha`) distribution (they sum to 1).
    pub fn dirichlet(&mut self, alpha: f64, n: usize) -> Vec<f64> {
        let draws: Vec<f64> = (0..n).map(|_| self.gamma(alpha)).collect();
        let sum: f64 = draws.iter().sum();
        if sum > 0.0 {
            draws.into_iter().map(|x| x / sum).collect()
        } else {
            // Every draw underflowed (a tiny alpha): the mass on one index, as the limit has it.
            let k = self.below(n.max(1) as u64) as usize;
            (0..n).map(|i| if i == k { 1.0 } else { 0.0 }).collect()
        }
    }
}

/// The seed of every Zobrist table: the bytes of "BOARDCOR".
pub const ZOBRIST_SEED: u64 = 0x424F_4152_4443_4F52;

/// How many Zobrist keys the games use at most (Strands: 257 cells for turn marks, 6 x 128 for
/// stones by label and colour).
const ZOBRIST_KEYS: usize = 257 + 6 * 128;

/// The first `N` Zobrist keys: SplitMix64 drawn from `ZOBRIST_SEED`, one table for every game
/// (each game's keys are a prefix of the same sequence, so each game's table is documented by its
/// layout alone, docs/<game>.md).
pub fn zobrist_keys<const N: usize>() -> &'static [u64; N] {
    static KEYS: std::sync::OnceLock<[u64; ZOBRIST_KEYS]> = std::sync::OnceLock::new();
    let keys = KEYS.get_or_init(|| {
        let mut rng = SplitMix64::new(ZOBRIST_SEED);
        std::array::from_fn(|_| rng.next_u64())
    });
    keys.first_chunk().expect("a game asked for more Zobrist keys than ZOBRIST_KEYS")
}

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
    fn output_n_is_the_nth_draw_of_the_stream() {
        for seed in [0, 1, 0x9E37_79B9_7F4A_7C15, u64::MAX] {
            let mut stream = SplitMix64::new(seed);
            for n in 1..=5 {
                assert_eq!(SplitMix64::output(seed, n), stream.next_u64(), "seed {seed}, output {n}");
            }
        }
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
    fn gamma_and_dirichlet_have_the_right_means() {
        let mut g = SplitMix64::new(3);
        for shape in [0.03, 0.3, 1.0, 2.5] {
            let mean = (0..20_000).map(|_| g.gamma(shape)).sum::<f64>() / 20_000.0;
            assert!((mean - shape).abs() < 0.05 * shape.max(0.3), "{shape}: {mean}");
        }
        let w = g.dirichlet(0.3, 10);
        assert!((w.iter().sum::<f64>() - 1.0).abs() < 1e-9 && w.iter().all(|&x| x >= 0.0));
        let mean = (0..20_000).map(|_| g.gumbel()).sum::<f64>() / 20_000.0;
        assert!((mean - 0.5772).abs() < 0.03, "{mean}");
    }

    #[test]
    fn below_stays_in_range() {
        let mut g = SplitMix64::new(7);
        for n in 1..50 {
            assert!(g.below(n) < n);
        }
    }
}
