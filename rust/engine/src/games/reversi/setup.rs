//! `Setup`: a Reversi position as plain data, and `Setup::validate`, the one place that holds
//! every rule a position must keep (docs/reversi.md, "Setup and validation"). The notation
//! parser and the variants (sizes, Octagon, handicap, holes) both build a `Setup` and validate
//! it; nothing else builds a `Board`.

use super::board::Board;
use super::frame::{Classic8, Frame, Frame10, Frame8};
use super::{Reversi, Shape};
use crate::bitboard::Bits;
use crate::error::Error;
use crate::game::{Player, Position};
use crate::square::Coord;
use std::fmt;

/// At most this many holes on any board.
pub const MAX_HOLES: usize = 4;

/// A Reversi position before validation: which squares hold what, and whose turn it is.
/// Squares not listed are empty (or cut, on the Octagon). Lists are in any order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    pub shape: Shape,
    pub black: Vec<Coord>,
    pub white: Vec<Coord>,
    pub holes: Vec<Coord>,
    pub to_move: Player,
}

/// Why a `Setup` is not a position. Each names the first square found at fault (holes in the
/// order given, then black discs, then white ones).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetupError {
    /// A square outside the board.
    OffBoard(Coord, Shape),
    /// One of the Octagon's cut squares.
    Cut(Coord),
    /// A hole in the central 4x4.
    HoleInCentre(Coord),
    /// A hole on a square that also holds a disc.
    HoleOnDisc(Coord),
    /// A square listed twice (as two holes, two discs, or a black and a white disc).
    Twice(Coord),
    /// More than `MAX_HOLES` holes (the count).
    TooManyHoles(usize),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::OffBoard(c, shape) => {
                let n = shape.size();
                write!(f, "{} is off the {n}x{n} board", c.name())
            }
            SetupError::Cut(c) => write!(f, "{} is a cut square of the octagon", c.name()),
            SetupError::HoleInCentre(c) => {
                write!(f, "{} is in the central 4x4, where holes are not allowed", c.name())
            }
            SetupError::HoleOnDisc(c) => write!(f, "{} holds a disc", c.name()),
            SetupError::Twice(c) => write!(f, "{} is given twice", c.name()),
            SetupError::TooManyHoles(n) => write!(f, "at most {MAX_HOLES} holes, got {n}"),
        }
    }
}

impl std::error::Error for SetupError {}

/// A setup that is not a position is a bad argument; parsers re-word it as a notation error.
impl From<SetupError> for Error {
    fn from(e: SetupError) -> Error {
        Error::invalid(e.to_string())
    }
}

impl Setup {
    /// The standard start: the four centre discs (White on the main diagonal), Black to move,
    /// no holes.
    pub fn start(shape: Shape) -> Setup {
        let m = shape.size() / 2;
        Setup {
            shape,
            black: vec![Coord::new(m - 1, m), Coord::new(m, m - 1)],
            white: vec![Coord::new(m - 1, m - 1), Coord::new(m, m)],
            holes: Vec::new(),
            to_move: Player::Black,
        }
    }

    /// Why a hole may not go on `c` in this setup (off the board, cut, in the centre, under a
    /// disc), or `None` if it may. The per-hole rule of `validate`, also used to list the
    /// squares random holes are drawn from.
    pub fn hole_error(&self, c: Coord) -> Option<SetupError> {
        if let Some(e) = self.square_error(c) {
            Some(e)
        } else if self.shape.in_centre(c) {
            Some(SetupError::HoleInCentre(c))
        } else if self.black.contains(&c) || self.white.contains(&c) {
            Some(SetupError::HoleOnDisc(c))
        } else {
            None
        }
    }

    /// Whether `c` is a square of the board at all.
    fn square_error(&self, c: Coord) -> Option<SetupError> {
        if !self.shape.contains(c) {
            Some(SetupError::OffBoard(c, self.shape))
        } else if self.shape.is_cut(c) {
            Some(SetupError::Cut(c))
        } else {
            None
        }
    }

    /// The position, or the first rule it breaks: every hole on the board, outside the centre,
    /// not under a disc and listed once, at most `MAX_HOLES` of them; every disc on the board
    /// and on a square of its own.
    pub fn validate(self) -> Result<Reversi, SetupError> {
        // Squares already listed, one bit per `row * 10 + col` (every board fits in 10x10).
        let mut seen = 0u128;
        let mut first_time = |c: Coord| {
            let bit = 1u128 << (c.row as u32 * 10 + c.col as u32);
            let new = seen & bit == 0;
            seen |= bit;
            new
        };
        for &c in &self.holes {
            if let Some(e) = self.hole_error(c) {
                return Err(e);
            }
            if !first_time(c) {
                return Err(SetupError::Twice(c));
            }
        }
        if self.holes.len() > MAX_HOLES {
            return Err(SetupError::TooManyHoles(self.holes.len()));
        }
        for &c in self.black.iter().chain(&self.white) {
            if let Some(e) = self.square_error(c) {
                return Err(e);
            }
            if !first_time(c) {
                return Err(SetupError::Twice(c));
            }
        }
        Ok(self.build())
    }

    /// Builds the position in the frame that suits the board (the plain 8x8 one when it has no
    /// holes). Only for setups `validate` has accepted.
    fn build(&self) -> Reversi {
        match self.shape {
            Shape::Square(8) if self.holes.is_empty() => Reversi::Classic(self.fill::<Classic8>()),
            Shape::Square(n) if n <= 8 => Reversi::Small(self.fill::<Frame8>()),
            _ => Reversi::Large(self.fill::<Frame10>()),
        }
    }

    fn fill<F: Frame>(&self) -> Board<F> {
        let holes = mask::<F>(&self.holes);
        let (black, white) = (mask::<F>(&self.black), mask::<F>(&self.white));
        let (me, opponent) = if self.to_move == Player::Black { (black, white) } else { (white, black) };
        let squares: Vec<Coord> = self.shape.squares().collect();
        let playable = mask::<F>(&squares) & !holes;
        Board { me, opponent, playable, holes, side: self.to_move, shape: self.shape }
    }
}

fn mask<F: Frame>(squares: &[Coord]) -> F::B {
    squares.iter().fold(F::B::ZERO, |m, c| m | F::B::bit(Board::<F>::index(c.row, c.col)))
}

impl Reversi {
    /// This position as plain data (squares in board order): `to_setup().validate()` gives it
    /// back.
    pub fn to_setup(&self) -> Setup {
        let mut setup = Setup {
            shape: self.shape(),
            black: Vec::new(),
            white: Vec::new(),
            holes: Vec::new(),
            to_move: self.to_move(),
        };
        for c in self.shape().squares() {
            match self.cell_char(c) {
                'b' => setup.black.push(c),
                'w' => setup.white.push(c),
                '#' => setup.holes.push(c),
                _ => {}
            }
        }
        setup
    }
}

impl TryFrom<Setup> for Reversi {
    type Error = SetupError;
    fn try_from(setup: Setup) -> Result<Reversi, SetupError> {
        setup.validate()
    }
}
