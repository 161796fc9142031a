//! The integer types used as bitboards, behind one small trait so that board code is written
//! once for 64-bit boards (up to 8x8) and 128-bit boards (10x10, hex boards).

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

pub trait Bits:
    Copy
    + Eq
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    const ZERO: Self;
    const BITS: u32;
    fn bit(index: u32) -> Self;
    fn count(self) -> u32;
    /// Index of the lowest set bit (undefined result on zero: callers check first).
    fn lowest(self) -> u32;
    /// The lowest set bit alone (zero for zero).
    fn isolate_lowest(self) -> Self;
    /// The highest set bit alone (zero for zero).
    fn isolate_highest(self) -> Self;
    fn wrapping_dec(self) -> Self;
    fn to_u128(self) -> u128;
    /// Truncating conversion; callers only pass masks that fit.
    fn from_u128(x: u128) -> Self;

    #[inline(always)]
    fn is_zero(self) -> bool {
        self == Self::ZERO
    }
    #[inline(always)]
    fn has(self, index: u32) -> bool {
        index < Self::BITS && !(self & Self::bit(index)).is_zero()
    }
    /// Iterates the indices of the set bits, lowest first.
    #[inline(always)]
    fn ones(self) -> Ones<Self> {
        Ones(self)
    }
}

macro_rules! impl_bits {
    ($t:ty) => {
        impl Bits for $t {
            const ZERO: Self = 0;
            const BITS: u32 = <$t>::BITS;
            #[inline(always)]
            fn bit(index: u32) -> Self {
                1 << index
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn lowest(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline(always)]
            fn isolate_lowest(self) -> Self {
                self & self.wrapping_neg()
            }
            #[inline(always)]
            fn wrapping_dec(self) -> Self {
                self.wrapping_sub(1)
            }
            #[inline(always)]
            fn isolate_highest(self) -> Self {
                if self == 0 {
                    0
                } else {
                    1 << (<$t>::BITS - 1 - self.leading_zeros())
                }
            }
            #[inline(always)]
            fn to_u128(self) -> u128 {
                self as u128
            }
            #[inline(always)]
            fn from_u128(x: u128) -> Self {
                x as $t
            }
        }
    };
}
impl_bits!(u64);
impl_bits!(u128);

/// Iterator over set-bit indices.
#[derive(Debug, Clone, Copy)]
pub struct Ones<B>(pub B);

impl<B: Bits> Iterator for Ones<B> {
    type Item = u32;
    #[inline(always)]
    fn next(&mut self) -> Option<u32> {
        if self.0.is_zero() {
            return None;
        }
        let i = self.0.lowest();
        self.0 ^= B::bit(i);
        Some(i)
    }
}

/// `SELECT_IN_BYTE[b][k]`: the index of the `k`-th set bit of the byte `b` (8 when there is none).
static SELECT_IN_BYTE: [[u8; 8]; 256] = {
    let mut t = [[8u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let (mut bit, mut k) = (0, 0);
        while bit < 8 {
            if b >> bit & 1 == 1 {
                t[b][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    t
};

/// The index of the `k`-th set bit of `set` (from 0, lowest first); `k < set.count_ones()`.
/// It sits on the critical path of Strands playouts: one PDEP where that is fast, else a
/// constant number of steps with no data-dependent branch (clearing `k` low bits in a loop
/// mispredicts on random `k`).
#[inline(always)]
pub fn nth_bit(set: u128, k: u32) -> u8 {
    nth_bit_with(set, k, crate::cpu::has_fast_pdep())
}

/// `nth_bit` with the PDEP decision taken once by the caller: hot loops read it before the loop
/// rather than from memory at every call. `fast_pdep` must be `crate::cpu::has_fast_pdep()`
/// (crate-private for that reason: true on a CPU without BMI2 would execute PDEP).
#[inline(always)]
pub(crate) fn nth_bit_with(set: u128, k: u32, fast_pdep: bool) -> u8 {
    debug_assert!(k < set.count_ones(), "nth_bit: bit {k} of a set of {}", set.count_ones());
    let low = set as u64;
    let below = low.count_ones();
    let high_word = k >= below;
    let word = std::hint::select_unpredictable(high_word, (set >> 64) as u64, low);
    let k = k - std::hint::select_unpredictable(high_word, below, 0);
    let base = std::hint::select_unpredictable(high_word, 64u32, 0);
    #[cfg(not(target_arch = "x86_64"))]
    let _ = fast_pdep;
    #[cfg(target_arch = "x86_64")]
    if fast_pdep {
        debug_assert!(crate::cpu::has_fast_pdep());
        // SAFETY: callers pass `fast_pdep` only when the CPU has BMI2 (see `has_fast_pdep`).
        return (base + unsafe { nth_bit_pdep(word, k) }) as u8;
    }
    (base + nth_bit_of_word(word, k)) as u8
}

/// The `k`-th set bit of a word by PDEP: deposit a lone bit `k` into the set bits of `word`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
#[inline]
unsafe fn nth_bit_pdep(word: u64, k: u32) -> u32 {
    std::arch::x86_64::_pdep_u64(1u64 << k, word).trailing_zeros()
}

/// The `k`-th set bit of a word: a binary descent over popcounts of halves, then a byte table.
#[inline(always)]
fn nth_bit_of_word(mut word: u64, mut k: u32) -> u32 {
    let mut base = 0;
    for width in [32u32, 16, 8] {
        let count = (word & ((1u64 << width) - 1)).count_ones();
        let skip = k >= count;
        k -= std::hint::select_unpredictable(skip, count, 0);
        word >>= std::hint::select_unpredictable(skip, width, 0);
        base += std::hint::select_unpredictable(skip, width, 0);
    }
    base + SELECT_IN_BYTE[(word & 0xff) as usize][k as usize] as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nth_bit_finds_every_set_bit_in_order() {
        let mut x = 0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C834u128;
        for _ in 0..200 {
            let expected: Vec<u8> = (0..128u8).filter(|&i| x >> i & 1 == 1).collect();
            let found: Vec<u8> = (0..x.count_ones()).map(|k| nth_bit(x, k)).collect();
            assert_eq!(found, expected);
            x = x.rotate_left(7).wrapping_mul(0x2545_F491_4F6C_DD1D) ^ (x >> 3);
        }
        assert_eq!(nth_bit(1u128 << 127, 0), 127);
        for word in [1u64, 0x8000_0000_0000_0001, 0xF0F0_0000_FFFF_0001, u64::MAX] {
            for k in 0..word.count_ones() {
                assert_eq!(nth_bit_of_word(word, k), nth_bit(word as u128, k) as u32);
            }
        }
        assert_eq!(nth_bit(u128::MAX, 127), 127);
    }
}
