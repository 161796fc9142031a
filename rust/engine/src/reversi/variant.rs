//! The variant parameters of a Reversi game (board, holes, handicap) and the start position
//! they give.

use super::board::Board;
use super::frame::{Classic8, Frame, Frame10, Frame8};
use super::{Reversi, Shape};
use crate::bitboard::Bits;
use crate::error::{Error, Result};
use crate::game::Player;
use crate::rng::SplitMix64;
use crate::square::Coord;

pub const MAX_HOLES: usize = 4;

/// Everything needed to set up a game before the first move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variant {
    pub shape: Shape,
    /// Holes in board order.
    pub holes: Vec<Coord>,
    /// The seed the holes were drawn from, if they were.
    pub seed: Option<u64>,
    pub handicap: u8,
    pub handicap_color: Player,
}

impl Variant {
    /// A validated variant with explicit holes.
    pub fn new(shape: Shape, holes: Vec<Coord>, handicap: u8, handicap_color: Player) -> Result<Variant> {
        if handicap > 4 {
            return Err(Error::invalid(format!("handicap must be 0 to 4, got {handicap}")));
        }
        let mut v = Variant { shape, holes: Vec::new(), seed: None, handicap, handicap_color };
        for c in holes {
            v.check_hole(c)?;
            if v.holes.contains(&c) {
                return Err(Error::invalid(format!("blocked: {} is given twice", c.name())));
            }
            v.holes.push(c);
        }
        if v.holes.len() > MAX_HOLES {
            return Err(Error::invalid(format!("blocked: at most {MAX_HOLES} holes, got {}", v.holes.len())));
        }
        v.holes.sort_by_key(|c| (c.row, c.col));
        Ok(v)
    }

    /// A variant whose holes are drawn from `seed` (docs/reversi.md gives the algorithm).
    pub fn random(shape: Shape, seed: u64, handicap: u8, handicap_color: Player) -> Result<Variant> {
        let base = Variant::new(shape, Vec::new(), handicap, handicap_color)?;
        let mut allowed: Vec<Coord> = shape.squares().filter(|&c| base.check_hole(c).is_ok()).collect();
        if allowed.is_empty() {
            let n = shape.size();
            return Err(Error::invalid(format!("blocked: a {n}x{n} board has no square where a hole may go")));
        }
        let mut rng = SplitMix64::new(seed);
        let count = 1 + rng.below(MAX_HOLES as u64) as usize;
        for i in 0..count {
            let j = i + rng.below((allowed.len() - i) as u64) as usize;
            allowed.swap(i, j);
        }
        let mut v = Variant::new(shape, allowed[..count].to_vec(), handicap, handicap_color)?;
        v.seed = Some(seed);
        Ok(v)
    }

    /// The corners that hold a handicap disc.
    pub fn corners(&self) -> Vec<Coord> {
        self.shape.handicap_corners()[..self.handicap as usize].to_vec()
    }

    /// Whether a hole may go on `c`, with the reason when not.
    fn check_hole(&self, c: Coord) -> Result<()> {
        let n = self.shape.size();
        let name = c.name();
        let why = if !self.shape.contains(c) {
            format!("{name} is off the {n}x{n} board")
        } else if self.shape.is_cut(c) {
            format!("{name} is a cut square of the octagon")
        } else if self.shape.in_centre(c) {
            format!("{name} is in the central 4x4, where holes are not allowed")
        } else if self.corners().contains(&c) {
            format!("{name} holds a handicap disc")
        } else {
            return Ok(());
        };
        Err(Error::invalid(format!("blocked: {why}")))
    }

    /// The position before the first move: the centre, the handicap discs, Black to move.
    pub fn start(&self) -> Reversi {
        let n = self.shape.size();
        let m = n / 2;
        let mut black = vec![Coord::new(m - 1, m), Coord::new(m, m - 1)];
        let mut white = vec![Coord::new(m - 1, m - 1), Coord::new(m, m)];
        match self.handicap_color {
            Player::Black => black.extend(self.corners()),
            Player::White => white.extend(self.corners()),
        }
        build(self.shape, &self.holes, &black, &white, Player::Black)
    }
}

/// Builds a position in the frame that suits the board (the plain 8x8 one when it has no holes).
pub(super) fn build(shape: Shape, holes: &[Coord], black: &[Coord], white: &[Coord], side: Player) -> Reversi {
    match shape {
        Shape::Square(8) if holes.is_empty() => Reversi::Classic(fill::<Classic8>(shape, holes, black, white, side)),
        Shape::Square(n) if n <= 8 => Reversi::Small(fill::<Frame8>(shape, holes, black, white, side)),
        _ => Reversi::Large(fill::<Frame10>(shape, holes, black, white, side)),
    }
}

fn mask<F: Frame>(squares: impl IntoIterator<Item = Coord>) -> F::B {
    squares.into_iter().fold(F::B::ZERO, |m, c| m | F::B::bit(Board::<F>::index(c.row, c.col)))
}

fn fill<F: Frame>(shape: Shape, holes: &[Coord], black: &[Coord], white: &[Coord], side: Player) -> Board<F> {
    let hole_mask = mask::<F>(holes.iter().copied());
    let playable = mask::<F>(shape.squares()) & !hole_mask;
    let mut board = Board::empty(shape, playable, hole_mask, side);
    board.set_discs(mask::<F>(black.iter().copied()), mask::<F>(white.iter().copied()));
    board
}
