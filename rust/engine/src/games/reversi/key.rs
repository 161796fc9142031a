//! Reversi's `count_paths` key (docs/reversi.md, "Counting paths"): the discs of each colour and
//! the side to move. Nothing else decides a Reversi game from here on: whether the mover must
//! pass, and whether the game is over, follow from the discs; the board's shape and holes are the
//! root's, lent back when a key is decoded.

use super::board::Board;
use super::frame::{self, Frame};
use super::{with_board, with_fast_board, Reversi};
use crate::bitboard::Bits;
use crate::game::{Player, Position};
use crate::paths::CompactKey;

/// Black's discs and White's as frame bitboards (square `row * W + col`, `W` the frame's width, 8
/// or 10), with the side to move in bit 127 of White's (a frame uses at most 100 bits): 1 for
/// White. Ordered by Black's discs, then White's and the side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ReversiKey {
    pub black: u128,
    pub white_and_side: u128,
}

const SIDE_BIT: u128 = 1 << 127;

impl ReversiKey {
    pub fn to_move(self) -> Player {
        if self.white_and_side & SIDE_BIT != 0 {
            Player::White
        } else {
            Player::Black
        }
    }

    pub fn white(self) -> u128 {
        self.white_and_side & !SIDE_BIT
    }

    /// The same discs, the other side to move (a pass).
    fn passed(self) -> ReversiKey {
        ReversiKey { black: self.black, white_and_side: self.white_and_side ^ SIDE_BIT }
    }
}

impl<F: Frame> Board<F> {
    #[inline(always)]
    fn key(&self) -> ReversiKey {
        let (black, white) = (self.discs(Player::Black).to_u128(), self.discs(Player::White).to_u128());
        let side = if self.side == Player::White { SIDE_BIT } else { 0 };
        ReversiKey { black, white_and_side: white | side }
    }

    /// The position `key` on this board (its shape and holes).
    #[inline(always)]
    fn with_key(&self, key: ReversiKey) -> Board<F> {
        let (black, white) = (F::B::from_u128(key.black), F::B::from_u128(key.white()));
        let side = key.to_move();
        let (me, opponent) = if side == Player::Black { (black, white) } else { (white, black) };
        Board { me, opponent, side, ..*self }
    }

    fn for_each_child_key(&self, key: ReversiKey, mut child: impl FnMut(ReversiKey)) -> bool {
        let position = self.with_key(key);
        let mut any = false;
        for mv in position.legal_moves() {
            any = true;
            let mut next = position;
            next.play_unchecked(mv);
            child(next.key());
        }
        any
    }

    fn forced_pass_key(&self, key: ReversiKey) -> Option<ReversiKey> {
        let position = self.with_key(key);
        let mut moves = position.legal_moves();
        (moves.next().is_some_and(|mv| mv.is_pass())).then(|| key.passed())
    }

    fn cells_of_key(&self, key: ReversiKey, out: &mut Vec<i8>) {
        let size = self.shape.size();
        let white = key.white();
        for row in 0..size {
            for col in 0..size {
                let i = Self::index(row, col);
                out.push(if key.black >> i & 1 == 1 {
                    1
                } else if white >> i & 1 == 1 {
                    -1
                } else {
                    0
                });
            }
        }
    }
}

/// One of the eight symmetries of a `size x size` square: the transposition or not, then rows
/// reversed or not, then columns reversed or not.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Symmetry {
    transpose: bool,
    flip_rows: bool,
    flip_cols: bool,
}

const SYMMETRIES: [Symmetry; 8] = {
    let mut all = [Symmetry { transpose: false, flip_rows: false, flip_cols: false }; 8];
    let mut i = 0;
    while i < 8 {
        all[i] = Symmetry { transpose: i & 4 != 0, flip_rows: i & 2 != 0, flip_cols: i & 1 != 0 };
        i += 1;
    }
    all
};

impl<F: Frame> Board<F> {
    /// The square `index` maps to under `symmetry` of this board's square.
    #[inline(always)]
    fn image_square(&self, symmetry: Symmetry, index: u32) -> u32 {
        let last = self.shape.size() as u32 - 1;
        let (mut row, mut col) = (index / F::W, index % F::W);
        if symmetry.transpose {
            (row, col) = (col, row);
        }
        if symmetry.flip_rows {
            row = last - row;
        }
        if symmetry.flip_cols {
            col = last - col;
        }
        row * F::W + col
    }

    /// The image of a set of squares (a frame bitboard as `u128`) under `symmetry`.
    fn image(&self, symmetry: Symmetry, mut squares: u128) -> u128 {
        let mut image = 0;
        while squares != 0 {
            image |= 1 << self.image_square(symmetry, squares.trailing_zeros());
            squares &= squares - 1;
        }
        image
    }

    /// The symmetries of the square that map the board onto itself: its holes and cut corners
    /// onto holes and cut corners (an octagon has all eight; holes at random, usually only the
    /// identity).
    fn symmetries(&self) -> impl Iterator<Item = Symmetry> + '_ {
        let size = self.shape.size() as u32;
        let square: u128 = (0..size * size).map(|i| 1u128 << ((i / size) * F::W + i % size)).fold(0, |a, b| a | b);
        let off_board = square & !self.playable.to_u128();
        SYMMETRIES.into_iter().filter(move |&symmetry| self.image(symmetry, off_board) == off_board)
    }

    /// The least image of `key` under the board's symmetries.
    fn canonical_key(&self, key: ReversiKey) -> ReversiKey {
        let side = key.white_and_side & SIDE_BIT;
        self.symmetries()
            .map(|symmetry| ReversiKey {
                black: self.image(symmetry, key.black),
                white_and_side: self.image(symmetry, key.white()) | side,
            })
            .min()
            .unwrap_or(key)
    }
}

/// The eight symmetries of the square 8x8 board (bit `row * 8 + col`), as maps of a bitboard:
/// the transposition (row and column swapped) or not, then rows reversed or not, then columns
/// reversed or not.
fn symmetric_images(x: u64) -> [u64; 8] {
    let flip_rows = |x: u64| x.swap_bytes();
    let flip_cols = |x: u64| x.reverse_bits().swap_bytes();
    let mut images = [0; 8];
    for (t, base) in [x, transpose(x)].into_iter().enumerate() {
        images[4 * t] = base;
        images[4 * t + 1] = flip_rows(base);
        images[4 * t + 2] = flip_cols(base);
        images[4 * t + 3] = flip_rows(flip_cols(base));
    }
    images
}

/// Bit `row * 8 + col` to bit `col * 8 + row` (three delta swaps).
fn transpose(mut x: u64) -> u64 {
    let t = 0x0F0F_0F0F_0000_0000 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    let t = 0x3333_0000_3333_0000 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    let t = 0x5500_5500_5500_5500 & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    x
}

/// The least image of `key` under the eight symmetries of the plain 8x8 board.
fn canonical_8x8(key: ReversiKey) -> ReversiKey {
    let side = key.white_and_side & SIDE_BIT;
    let (black, white) = (symmetric_images(key.black as u64), symmetric_images(key.white() as u64));
    (0..8).map(|i| ReversiKey { black: black[i] as u128, white_and_side: white[i] as u128 | side }).min().unwrap_or(key)
}

impl CompactKey for Reversi {
    type Key = ReversiKey;

    fn compact_key(&self) -> ReversiKey {
        with_board!(self, b => b.key())
    }

    fn from_compact_key(&self, key: ReversiKey) -> Reversi {
        match self {
            Reversi::Classic(b) => Reversi::Classic(b.with_key(key)),
            Reversi::Small(b) => Reversi::Small(b.with_key(key)),
            Reversi::Large(b) => Reversi::Large(b.with_key(key)),
        }
    }

    /// In the board's fastest frame (AVX2 where the CPU has it), without listing the moves.
    fn for_each_child(&self, key: ReversiKey, child: impl FnMut(ReversiKey)) -> bool {
        with_fast_board!(self, b => b.for_each_child_key(key, child))
    }

    /// A position's perft is that of each of its images under the board's symmetries: the
    /// eight of the square on the plain 8x8 board (bit tricks), on other boards those of the
    /// eight that map holes and cut corners onto holes and cut corners (square by square).
    fn canonical(&self, key: ReversiKey) -> ReversiKey {
        match self {
            Reversi::Classic(_) => canonical_8x8(key),
            Reversi::Small(b) => b.canonical_key(key),
            Reversi::Large(b) => b.canonical_key(key),
        }
    }

    fn forced_pass(&self, key: ReversiKey) -> Option<ReversiKey> {
        with_board!(self, b => b.forced_pass_key(key))
    }

    /// Every square of the `size x size` grid, row by row (holes and cut squares are 0).
    fn key_cells(&self, key: ReversiKey, out: &mut Vec<i8>) {
        with_board!(self, b => b.cells_of_key(key, out))
    }

    fn key_to_move(&self, key: ReversiKey) -> Player {
        key.to_move()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perft::Plies;
    use crate::rng::SplitMix64;

    /// The position after up to `most` random plies from `start` (fewer if the game ends).
    fn random_position(start: Reversi, rng: &mut SplitMix64, most: u64) -> Reversi {
        let mut p = start;
        for _ in 0..rng.below(most) {
            if let Some(mv) = p.sample_move(rng) {
                p.play_unchecked(mv);
            }
        }
        p
    }

    /// Checks that each of `images` (of `p`'s key) is a position with `p`'s perft to `depth`
    /// and `p`'s canonical key, and that canonical keys are their own.
    fn check_images(p: &Reversi, images: &[ReversiKey], depth: u32) {
        let key = p.compact_key();
        let expected = p.perft(depth, Plies::EveryMove, 1);
        for (i, &image) in images.iter().enumerate() {
            assert_eq!(image.black.count_ones(), key.black.count_ones());
            let q = p.from_compact_key(image);
            assert_eq!(q.perft(depth, Plies::EveryMove, 1), expected, "image {i} of {p:?}: {q:?}");
            assert_eq!(p.canonical(image), p.canonical(key), "every image has the same canonical key");
        }
        assert_eq!(p.canonical(p.canonical(key)), p.canonical(key));
    }

    #[test]
    fn the_transposition_swaps_rows_and_columns() {
        for (row, col) in [(0, 0), (0, 7), (2, 5), (7, 1), (6, 6)] {
            assert_eq!(transpose(1 << (row * 8 + col)), 1 << (col * 8 + row));
        }
    }

    #[test]
    fn every_image_of_a_position_has_its_perft() {
        let start = Reversi::from_notation(
            &crate::reversi::Variant::new(crate::reversi::Shape::Square(8), vec![], 0, Player::Black)
                .unwrap()
                .start()
                .to_notation(),
        )
        .unwrap();
        let mut rng = SplitMix64::new(7);
        for _ in 0..20 {
            let p = random_position(start, &mut rng, 30);
            let key = p.compact_key();
            let (black, white) = (symmetric_images(key.black as u64), symmetric_images(key.white() as u64));
            let images: Vec<ReversiKey> = (0..8)
                .map(|i| ReversiKey {
                    black: black[i] as u128,
                    white_and_side: white[i] as u128 | (key.white_and_side & SIDE_BIT),
                })
                .collect();
            check_images(&p, &images, 4);
        }
    }

    /// Every board but the plain 8x8 (which has its own bit tricks above), with the number of
    /// symmetries its holes and cut corners leave.
    const BOARDS: [(&str, usize); 7] = [
        ("4 ..../.wb./.bw./.... b", 8),
        ("6 ....../....../..wb../..bw../....../...... b", 8),
        ("10 ........../........../........../........../....wb..../....bw..../........../........../........../.......... b", 8),
        ("octagon --......--/-........-/........../........../....wb..../....bw..../........../........../-........-/--......-- b", 8),
        ("8 #......#/......../......../...wb.../...bw.../......../......../#......# b", 8),
        // a1 lies on one diagonal only: the identity and the reflection in that diagonal.
        ("8 #......./......../......../...wb.../...bw.../......../......../........ b", 2),
        ("6 .....#/#...../..wb../..bw../....../...... b", 1),
    ];

    #[test]
    fn every_board_merges_by_the_symmetries_its_holes_allow() {
        let mut rng = SplitMix64::new(11);
        for (notation, expected_symmetries) in BOARDS {
            let start = Reversi::from_notation(notation).unwrap();
            let symmetries = with_board!(&start, b => b.symmetries().count());
            assert_eq!(symmetries, expected_symmetries, "{notation}");
            for _ in 0..12 {
                let p = random_position(start, &mut rng, 16);
                let key = p.compact_key();
                let images: Vec<ReversiKey> = with_board!(&p, b => b
                    .symmetries()
                    .map(|s| ReversiKey {
                        black: b.image(s, key.black),
                        white_and_side: b.image(s, key.white()) | (key.white_and_side & SIDE_BIT),
                    })
                    .collect());
                check_images(&p, &images, 3);
            }
        }
    }
}
