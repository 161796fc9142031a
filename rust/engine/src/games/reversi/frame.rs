//! Frames: how a Reversi board sits in a bitboard.
//!
//! Square (row, col) is bit `row * W + col` of a frame `W` squares wide. Boards smaller than
//! their frame sit in its top-left corner; squares outside the board (or cut, or holes) are
//! simply never empty-and-playable and never hold a disc, so every line stops at them with no
//! extra work in move generation.

#[cfg(target_arch = "x86_64")]
use super::moves::avx2;
use super::moves::{flips_generic, mobility_generic};
use crate::bitboard::Bits;
use std::fmt::Debug;

pub trait Frame: Copy + Debug + Send + Sync + 'static {
    type B: Bits;
    /// Squares per row of the frame.
    const W: u32;
    /// Every frame square is playable (plain 8x8): the playable mask is skipped entirely.
    const FULL: bool;
    /// Frame squares not in the first or last column: runs with a horizontal component may only
    /// pass through these, which stops them wrapping from one row to the next.
    const INNER_COLUMNS: Self::B;
    /// The longest possible run of opponent discs (W - 2).
    const MAX_RUN: u32 = Self::W - 2;
    /// `rays()[square][d]`: the frame squares from `square` (excluded) to the frame's edge in
    /// direction `d`; directions 0-3 go towards higher indices, 4-7 towards lower ones.
    fn rays() -> &'static [[Self::B; 8]];

    /// Squares where `me` can place a disc among `empty`.
    #[inline(always)]
    fn mobility(me: Self::B, opponent: Self::B, empty: Self::B) -> Self::B {
        super::moves::mobility_generic::<Self>(me, opponent, empty)
    }

    /// The discs flipped by `me` placing at `square`.
    #[inline(always)]
    fn flips(me: Self::B, opponent: Self::B, square: u32) -> Self::B {
        super::moves::flips_generic::<Self>(me, opponent, square)
    }
}

/// Row and column steps of the eight directions: four increasing the square index, then their
/// opposites.
const DIRECTIONS: [(i32, i32); 8] = [(0, 1), (1, 0), (1, 1), (1, -1), (0, -1), (-1, 0), (-1, -1), (-1, 1)];

const fn rays(width: u32, height: u32) -> [[u128; 8]; 128] {
    let mut table = [[0u128; 8]; 128];
    let mut square = 0;
    while square < width * height {
        let mut d = 0;
        while d < 8 {
            let (dr, dc) = DIRECTIONS[d];
            let (mut r, mut c) = ((square / width) as i32 + dr, (square % width) as i32 + dc);
            while r >= 0 && r < height as i32 && c >= 0 && c < width as i32 {
                table[square as usize][d] |= 1u128 << (r as u32 * width + c as u32);
                r += dr;
                c += dc;
            }
            d += 1;
        }
        square += 1;
    }
    table
}

const fn rays64() -> [[u64; 8]; 64] {
    let wide = rays(8, 8);
    let mut table = [[0u64; 8]; 64];
    let mut i = 0;
    while i < 64 * 8 {
        table[i / 8][i % 8] = wide[i / 8][i % 8] as u64;
        i += 1;
    }
    table
}

static RAYS_8: [[u64; 8]; 64] = rays64();
static RAYS_10: [[u128; 8]; 128] = rays(10, 10);

/// Defines a frame type for boards in a 64-bit, 8-wide frame.
macro_rules! frame_8 {
    ($(#[$doc:meta])* $name:ident, full: $full:expr, mobility: $mobility:expr, flips: $flips:expr) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub struct $name;

        impl Frame for $name {
            type B = u64;
            const W: u32 = 8;
            const FULL: bool = $full;
            const INNER_COLUMNS: u64 = inner_columns(8, 64) as u64;
            #[inline(always)]
            fn rays() -> &'static [[u64; 8]] {
                &RAYS_8
            }
            #[inline(always)]
            fn mobility(me: u64, opponent: u64, empty: u64) -> u64 {
                $mobility(me, opponent, empty)
            }
            #[inline(always)]
            fn flips(me: u64, opponent: u64, square: u32) -> u64 {
                $flips(me, opponent, square)
            }
        }
    };
}

frame_8!(
    /// The standard 8x8 board without holes: nothing variant-specific on its hot path.
    Classic8, full: true, mobility: mobility_generic::<Self>, flips: flips_generic::<Self>
);
frame_8!(
    /// Boards up to 8x8 with holes or of smaller size.
    Frame8, full: false, mobility: mobility_generic::<Self>, flips: flips_generic::<Self>
);

// The AVX2 twins of the two frames above. A board is re-tagged with one of these only after
// `cpu::has_v3()` said yes (see `Reversi::fast`), which is what makes the calls sound; the hot
// loops then carry no feature check at all.
#[cfg(target_arch = "x86_64")]
frame_8!(
    /// `Classic8`, with AVX2 move generation.
    Classic8Avx2, full: true,
    mobility: |m, o, e| unsafe { avx2::mobility(m, o, e) },
    flips: |m, o, s| unsafe { avx2::flips(m, o, s, &RAYS_8[s as usize]) }
);
#[cfg(target_arch = "x86_64")]
frame_8!(
    /// `Frame8`, with AVX2 move generation.
    Frame8Avx2, full: false,
    mobility: |m, o, e| unsafe { avx2::mobility(m, o, e) },
    flips: |m, o, s| unsafe { avx2::flips(m, o, s, &RAYS_8[s as usize]) }
);

/// 10x10 boards and the Octagon, in a 128-bit frame of width 10.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frame10;

const fn inner_columns(width: u32, bits: u32) -> u128 {
    let mut mask = 0u128;
    let mut i = 0;
    while i < bits {
        let col = i % width;
        if col != 0 && col != width - 1 {
            mask |= 1u128 << i;
        }
        i += 1;
    }
    mask
}

impl Frame for Frame10 {
    type B = u128;
    const W: u32 = 10;
    const FULL: bool = false;
    const INNER_COLUMNS: u128 = inner_columns(10, 100);
    #[inline(always)]
    fn rays() -> &'static [[u128; 8]] {
        &RAYS_10
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inner_columns_of_the_8_frame_is_the_classic_mask() {
        assert_eq!(Classic8::INNER_COLUMNS, 0x7E7E_7E7E_7E7E_7E7E);
    }
}
