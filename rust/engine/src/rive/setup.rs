//! A Rive position as plain data, and the one place that decides whether it is valid.
//!
//! Notation parses into a `Setup` and writes one out; `validate` holds every validity rule and is
//! the only way to make a `Rive` from parts (`Rive::new` is the empty setup, validated).

use super::{Pending, Rive};
use crate::error::{Error, Result};
use crate::game::Player;
use crate::hex::HexBoard;

/// What a Rive position is made of, before any rule is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Setup {
    pub board: &'static HexBoard,
    pub black: u128,
    pub white: u128,
    pub to_move: Player,
    /// The variant allows White's swap.
    pub swap: bool,
    /// Captures are played one stone at a time.
    pub single_stones: bool,
    /// A capture under way (single-stone form only).
    pub capture: Option<Pending>,
}

impl Setup {
    /// The empty board of a variant, Black to move.
    pub fn empty(board: &'static HexBoard, swap: bool, single_stones: bool) -> Setup {
        Setup { board, black: 0, white: 0, to_move: Player::Black, swap, single_stones, capture: None }
    }

    /// The position, or (as `InvalidArgument`) the first rule it breaks:
    /// - the board has an odd number of cells (the rules need it: no draws);
    /// - every stone is on the board, and no cell holds both colours;
    /// - a capture under way belongs to the single-stone form, and has a stone left to remove;
    /// - its placed cell holds the mover's stone, in a group of more stones than remain to remove.
    ///
    /// Any arrangement of stones is otherwise valid (a position need not be reachable).
    pub fn validate(self) -> Result<Rive> {
        let Setup { board, black, white, to_move, swap, single_stones, capture } = self;
        if board.len() % 2 == 0 {
            return Err(Error::invalid(format!(
                "board: Rive needs an odd number of cells (no draws), {} has {}",
                board.name,
                board.len()
            )));
        }
        if (black | white) & !board.all != 0 || black & white != 0 {
            return Err(Error::invalid("stones: every stone must be on the board, at most one a cell"));
        }
        if let Some(Pending { placed, remaining }) = capture {
            if !single_stones {
                return Err(Error::invalid("capture: only the single-stone form has a capture under way"));
            }
            if remaining == 0 {
                return Err(Error::invalid("capture: a capture under way has at least one stone to remove"));
            }
            let mover = if to_move == Player::Black { black } else { white };
            let on_board = (placed as usize) < board.len();
            let group = if on_board { board.component(1u128 << placed, black | white) } else { 0 };
            if !on_board || mover >> placed & 1 == 0 || group.count_ones() <= remaining as u32 {
                return Err(Error::invalid(format!(
                    "capture: {} must hold the mover's stone in a group of more than {remaining}",
                    if on_board { board.cell_name(placed) } else { format!("cell {placed}") }
                )));
            }
        }
        Ok(Rive { black, white, side: to_move, board, swap, single_stones, pending: capture })
    }

    /// What a cell holds, as in position notation: `.`, `b` or `w`.
    pub fn cell_char(&self, cell: u8) -> char {
        if self.black >> cell & 1 == 1 {
            'b'
        } else if self.white >> cell & 1 == 1 {
            'w'
        } else {
            '.'
        }
    }
}
