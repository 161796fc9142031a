//! A Rive position as plain data, and the one place that decides whether it is valid.
//!
//! Notation parses into a `Setup` and writes one out; `validate` holds every validity rule and is
//! the only way to make a `Rive` from parts (`Rive::new` is the empty setup, validated).

use super::{Pending, PlayoutPolicy, Rive};
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
        Ok(Rive {
            black,
            white,
            side: to_move,
            board,
            swap,
            single_stones,
            pending: capture,
            playout_policy: PlayoutPolicy::Uniform,
        })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Position;

    fn hex3() -> &'static HexBoard {
        HexBoard::named("hex3").unwrap()
    }

    fn message(setup: Setup) -> String {
        match setup.validate() {
            Err(Error::InvalidArgument(m)) => m,
            other => panic!("expected an InvalidArgument error, got {other:?}"),
        }
    }

    #[test]
    fn a_position_round_trips_through_its_setup() {
        for text in ["hex3 b../..w./...../..../... w swap", "5@0 bwbwb b single capture=a3:2"] {
            let position = Rive::from_notation(text).unwrap();
            assert_eq!(position.setup().validate().unwrap(), position);
        }
    }

    #[test]
    fn every_rule_is_checked_by_validate() {
        let even = HexBoard::from_rows(&[(2, 0)]).unwrap();
        assert!(message(Setup::empty(even, false, false)).starts_with("board: Rive needs an odd number of cells"));
        let stones = "stones: every stone must be on the board, at most one a cell";
        assert_eq!(message(Setup { black: 1 << 19, ..Setup::empty(hex3(), false, false) }), stones);
        assert_eq!(message(Setup { black: 1, white: 1, ..Setup::empty(hex3(), false, false) }), stones);
        let five = HexBoard::from_rows(&[(5, 0)]).unwrap();
        let bwbwb = Setup { black: 0b10101, white: 0b01010, ..Setup::empty(five, false, true) };
        let capture = |placed, remaining| Some(Pending { placed, remaining });
        assert!(Setup { capture: capture(2, 2), ..bwbwb }.validate().is_ok());
        assert_eq!(
            message(Setup { capture: capture(2, 2), single_stones: false, ..bwbwb }),
            "capture: only the single-stone form has a capture under way"
        );
        assert_eq!(
            message(Setup { capture: capture(2, 0), ..bwbwb }),
            "capture: a capture under way has at least one stone to remove"
        );
        let not_held = "capture: a2 must hold the mover's stone in a group of more than 2";
        assert_eq!(message(Setup { capture: capture(1, 2), ..bwbwb }), not_held);
        assert_eq!(
            message(Setup { capture: capture(2, 5), ..bwbwb }),
            "capture: a3 must hold the mover's stone in a group of more than 5"
        );
        assert_eq!(
            message(Setup { capture: capture(9, 1), ..bwbwb }),
            "capture: cell 9 must hold the mover's stone in a group of more than 1"
        );
    }

    #[test]
    fn notation_reports_the_rules_as_before() {
        let error = |text: &str| Rive::from_notation(text).unwrap_err();
        assert_eq!(
            error("5@0 bwbwb b single capture=a2:2"),
            Error::notation("rive position: capture: a2 must hold the mover's stone in a group of more than 2")
        );
        assert_eq!(
            error("2@0 .. b"),
            Error::notation("rive position: board: Rive needs an odd number of cells (no draws), 2@0 has 2")
        );
    }
}
