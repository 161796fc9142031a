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
