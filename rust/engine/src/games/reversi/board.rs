//! `Board<F>`: a Reversi position in frame `F`, and its `Position` implementation.

use super::frame::Frame;
use super::{Move, Shape};
use crate::bitboard::{Bits, Ones};
use crate::error::{Error, Result};
use crate::game::{Outcome, Player, Position};
use crate::square::Coord;

/// A Reversi position. Discs are stored from the mover's point of view (`me`, `opponent`) so
/// that move generation never branches on colour. Built only by `Setup::validate` (setup.rs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Board<F: Frame> {
    pub(super) me: F::B,
    pub(super) opponent: F::B,
    /// Squares of the board that are neither holes nor cut (and inside the frame's board).
    pub(super) playable: F::B,
    pub(super) holes: F::B,
    pub(super) side: Player,
    pub(super) shape: Shape,
}

/// The legal moves of a Reversi position: a bitboard of placements, or a lone pass.
#[derive(Debug, Clone, Copy)]
pub struct Moves<B: Bits> {
    squares: Ones<B>,
    pass: bool,
}

impl<B: Bits> Iterator for Moves<B> {
    type Item = Move;
    #[inline(always)]
    fn next(&mut self) -> Option<Move> {
        if self.pass {
            self.pass = false;
            return Some(Move::PASS);
        }
        self.squares.next().map(|i| Move(i as u8))
    }
}

impl<F: Frame> Board<F> {
    #[inline(always)]
    fn empties(&self) -> F::B {
        let free = !(self.me | self.opponent);
        if F::FULL {
            free
        } else {
            free & self.playable
        }
    }

    /// Placements of the side to move, as a bitboard.
    #[inline(always)]
    pub fn placements(&self) -> F::B {
        F::mobility(self.me, self.opponent, self.empties())
    }

    #[inline(always)]
    fn opponent_placements(&self) -> F::B {
        F::mobility(self.opponent, self.me, self.empties())
    }

    /// This board in frame `G`, if `G` is the frame it was built in (checked by width and by
    /// whether the frame skips the playable mask).
    fn notation_frame<G: Frame>(&self) -> Option<Board<G>> {
        if G::W != F::W || G::FULL != F::FULL {
            return None;
        }
        let convert = |x: F::B| G::B::from_u128(x.to_u128());
        Some(Board {
            me: convert(self.me),
            opponent: convert(self.opponent),
            playable: convert(self.playable),
            holes: convert(self.holes),
            side: self.side,
            shape: self.shape,
        })
    }

    /// The same board in another frame with the same bitboard layout (the AVX2 twins).
    #[inline(always)]
    pub(super) fn retag<G: Frame<B = F::B>>(self) -> Board<G> {
        Board {
            me: self.me,
            opponent: self.opponent,
            playable: self.playable,
            holes: self.holes,
            side: self.side,
            shape: self.shape,
        }
    }

    pub fn discs(&self, player: Player) -> F::B {
        if player == self.side {
            self.me
        } else {
            self.opponent
        }
    }

    pub fn index(row: u8, col: u8) -> u32 {
        row as u32 * F::W + col as u32
    }

    pub fn coord(index: u32) -> Coord {
        Coord::new((index / F::W) as u8, (index % F::W) as u8)
    }

    /// What occupies a square, as its position-notation character.
    pub(super) fn cell_char(&self, row: u8, col: u8) -> char {
        let i = Self::index(row, col);
        if self.holes.has(i) {
            '#'
        } else if !self.playable.has(i) {
            '-'
        } else if self.discs(Player::Black).has(i) {
            'b'
        } else if self.discs(Player::White).has(i) {
            'w'
        } else {
            '.'
        }
    }
}

impl<F: Frame> Position for Board<F> {
    type Move = Move;
    type Moves<'a> = Moves<F::B>;

    #[inline]
    fn to_move(&self) -> Player {
        self.side
    }

    #[inline(always)]
    fn legal_moves(&self) -> Moves<F::B> {
        let placements = self.placements();
        let pass = placements.is_zero() && !self.opponent_placements().is_zero();
        Moves { squares: Ones(placements), pass }
    }

    #[inline(always)]
    fn play_unchecked(&mut self, mv: Move) {
        if !mv.is_pass() {
            let square = mv.0 as u32;
            let flipped = F::flips(self.me, self.opponent, square);
            self.me |= flipped | F::B::bit(square);
            self.opponent ^= flipped;
        }
        std::mem::swap(&mut self.me, &mut self.opponent);
        self.side = self.side.other();
    }

    fn score(&self) -> (u32, u32) {
        (self.discs(Player::Black).count(), self.discs(Player::White).count())
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.placements().is_zero() || !self.opponent_placements().is_zero() {
            return None;
        }
        let (black, white) = self.score();
        Some(Outcome::by_count(black, white))
    }

    fn zobrist(&self) -> u64 {
        let keys = super::zobrist_keys();
        let mut hash = if self.side == Player::White { keys[300] } else { 0 };
        let layers = [self.discs(Player::Black), self.discs(Player::White), self.holes];
        for (layer, bits) in layers.into_iter().enumerate() {
            for i in bits.ones() {
                let c = Self::coord(i);
                hash ^= keys[layer * 100 + c.row as usize * 10 + c.col as usize];
            }
        }
        hash
    }

    #[inline]
    fn is_pass(&self, mv: Move) -> bool {
        mv.is_pass()
    }

    /// Why `mv` is not legal here, in words (for the error message), or `None` if it is legal.
    fn why_illegal(&self, mv: Move) -> Option<String> {
        let placements = self.placements();
        let name = mv.name(self.shape);
        if mv.is_pass() {
            return if !placements.is_zero() {
                Some("pass is not allowed: the player to move has a placement".into())
            } else if self.opponent_placements().is_zero() {
                Some("pass is not allowed: the game is over".into())
            } else {
                None
            };
        }
        let i = mv.0 as u32;
        if placements.has(i) {
            return None;
        }
        Some(if self.holes.has(i) {
            format!("{name} is a hole")
        } else if (self.me | self.opponent).has(i) {
            format!("{name} is occupied")
        } else if placements.is_zero() && self.opponent_placements().is_zero() {
            format!("{name} cannot be played: the game is over")
        } else {
            format!("{name} brackets no opponent disc")
        })
    }

    #[inline]
    fn count_moves(&self) -> u64 {
        let n = self.placements().count() as u64;
        if n == 0 && !self.opponent_placements().is_zero() {
            1
        } else {
            n
        }
    }

    /// The documented draw (`below(count_moves())`, then that entry of `legal_moves()`), taken
    /// from the placements bitboard without listing them.
    #[inline(always)]
    fn sample_move(&self, rng: &mut crate::rng::SplitMix64) -> Option<Move> {
        let placements = self.placements();
        let n = placements.count();
        if n == 0 {
            let pass = !self.opponent_placements().is_zero();
            // A pass is the only move: its draw still takes a number from the stream.
            return pass.then(|| rng.below(1)).map(|_| Move::PASS);
        }
        let k = rng.below(u64::from(n)) as u32;
        Some(Move(crate::bitboard::nth_bit(placements.to_u128(), k)))
    }

    /// A pass and the end of the game are both one leaf, so the opponent's mobility — needed
    /// only to tell them apart — is never computed here.
    #[inline(always)]
    fn perft1(&self) -> u64 {
        (self.placements().count() as u64).max(1)
    }

    /// For each placement, the child's leaf count is its mobility (or 1 for a pass or the end),
    /// computed straight from the flipped bitboards.
    #[inline(always)]
    fn perft2(&self) -> u64 {
        let empty = self.empties();
        let placements = F::mobility(self.me, self.opponent, empty);
        if placements.is_zero() {
            // A pass (the opponent's placements are the leaves) or the end (one leaf).
            return (F::mobility(self.opponent, self.me, empty).count() as u64).max(1);
        }
        let mut leaves = 0;
        for square in placements.ones() {
            let bit = F::B::bit(square);
            let flipped = F::flips(self.me, self.opponent, square);
            let replies = F::mobility(self.opponent ^ flipped, self.me | flipped | bit, empty ^ bit);
            leaves += (replies.count() as u64).max(1);
        }
        leaves
    }

    fn parse_move(&self, text: &str) -> Result<Move> {
        Move::parse(text, self.shape)
    }

    fn format_move(&self, mv: Move) -> String {
        mv.name(self.shape)
    }

    fn to_notation(&self) -> String {
        super::notation::write(self)
    }

    /// A position of this frame, or an error if the notation describes a board of another one.
    fn from_notation(text: &str) -> Result<Self> {
        let any = super::notation::read(text)?;
        super::with_board!(&any, b => b.notation_frame::<F>())
            .ok_or_else(|| Error::invalid("this position belongs to another board frame; use Reversi::from_notation"))
    }
}
