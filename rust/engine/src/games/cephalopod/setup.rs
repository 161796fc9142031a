//! `Setup`: a Cephalopod position as plain data, and `Setup::validate`, the one place that holds
//! the rules a position must keep (docs/cephalopod.md, "Setup and validation"). The notation
//! parser builds a `Setup` and validates it; so does `Cephalopod::new`.

use super::Cephalopod;
use crate::error::Error;
use crate::game::{Player, Position};
use crate::square::{Coord, Rect};
use std::fmt;

/// A Cephalopod position before validation: the board's size, per square (row-major from the
/// top-left) its die as (owner, pips) or `None`, and whose turn it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    pub rows: u8,
    pub cols: u8,
    pub dice: Vec<Option<(Player, u8)>>,
    pub to_move: Player,
}

/// Why a `Setup` is not a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetupError {
    /// Rows or columns outside 2 to 8 (the error of `Rect::get`, which holds that rule).
    Size(Error),
    /// `dice` does not have one entry per square: (rows, cols, entries).
    Squares(u8, u8, usize),
    /// A die showing no pips or more than 6: (square, pips).
    Pips(Coord, u8),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Size(e) => write!(f, "{e}"),
            SetupError::Squares(rows, cols, got) => {
                write!(f, "a {rows}x{cols} board has {} squares, got {got}", *rows as usize * *cols as usize)
            }
            SetupError::Pips(c, pips) => write!(f, "the die on {} shows {pips} pips; a die shows 1 to 6", c.name()),
        }
    }
}

impl std::error::Error for SetupError {}

/// A setup that is not a position is a bad argument (a bad size keeps `Rect::get`'s error);
/// the notation parser re-words it as a notation error.
impl From<SetupError> for Error {
    fn from(e: SetupError) -> Error {
        match e {
            SetupError::Size(e) => e,
            e => Error::invalid(e.to_string()),
        }
    }
}

impl Setup {
    /// The empty board, Black to move.
    pub fn empty(rows: u8, cols: u8) -> Setup {
        Setup { rows, cols, dice: vec![None; rows as usize * cols as usize], to_move: Player::Black }
    }

    /// The board's geometry, or why the size is not allowed (checked first by `validate`, and
    /// by the notation parser before it counts rows).
    pub fn rect(&self) -> Result<&'static Rect, SetupError> {
        Rect::get(self.rows, self.cols).map_err(SetupError::Size)
    }

    /// The position, or the first rule it breaks: rows and columns from 2 to 8, one entry per
    /// square, every die showing 1 to 6 pips.
    pub fn validate(self) -> Result<Cephalopod, SetupError> {
        let rect = self.rect()?;
        if self.dice.len() != rect.len() {
            return Err(SetupError::Squares(self.rows, self.cols, self.dice.len()));
        }
        let mut position = Cephalopod::empty(rect, self.to_move);
        for (square, die) in self.dice.into_iter().enumerate() {
            if let Some((owner, pips)) = die {
                if !(1..=6).contains(&pips) {
                    return Err(SetupError::Pips(rect.coord(square as u8), pips));
                }
                position.put(square as u8, owner, pips);
            }
        }
        Ok(position)
    }
}

impl Cephalopod {
    /// This position as plain data: `to_setup().validate()` gives it back.
    pub fn to_setup(&self) -> Setup {
        let rect = self.rect();
        let dice = (0..rect.len()).map(|square| self.die(square as u8)).collect();
        Setup { rows: rect.rows, cols: rect.cols, dice, to_move: self.to_move() }
    }
}

impl TryFrom<Setup> for Cephalopod {
    type Error = SetupError;
    fn try_from(setup: Setup) -> Result<Cephalopod, SetupError> {
        setup.validate()
    }
}
