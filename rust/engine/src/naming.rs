//! Moves named without the position they were made in.
//!
//! A move kept apart from its position (a Python move object, a record's line) still needs its
//! board: to be named, to read the text it is compared with, and to say which cells it placed on
//! and removed from. [`MoveNaming`] is that board, one small `Copy` value per game.
//!
//! **Placed and removed** are the same notion in every game, cell names in board order:
//! - Reversi: a placement places its square and removes nothing (flipped discs change colour,
//!   they stay on the board); a pass places and removes nothing.
//! - Cephalopod: a placement places its square and removes the captured dice.
//! - Rive: a placement places its cell and removes a capture's stones; a single-stone removal step
//!   (`xb2`) places nothing and removes its one stone; the swap places and removes nothing.
//! - Strands: a move places its cells and removes nothing.

use crate::cephalopod::{self, Cephalopod};
use crate::game::Position;
use crate::hex::HexBoard;
use crate::reversi::{self, Reversi, Shape};
use crate::rive::{self, Rive};
use crate::square::{Coord, Rect};
use crate::strands::{self, Strands};

/// The board a game's moves are named on.
pub trait MoveNaming: Copy + PartialEq + Send + Sync + 'static {
    type Pos: Position;
    /// The board of `position`.
    fn of(position: &Self::Pos) -> Self;
    /// The move's notation on this board.
    fn name(self, mv: <Self::Pos as Position>::Move) -> String;
    /// The move `text` names on this board, or `None` if it names none.
    fn parse(self, text: &str) -> Option<<Self::Pos as Position>::Move>;
    /// The board as in position notation (`8`, `octagon`, `5x5`, `hex335`).
    fn board(self) -> String;
    /// The board `board` (as `board()` writes it) names, or `None`.
    fn from_board(board: &str) -> Option<Self>;
    /// The cells the move places on, in board order (module documentation).
    fn placed(self, mv: <Self::Pos as Position>::Move) -> Vec<String>;
    /// The cells the move removes from, in board order (module documentation).
    fn removed(self, mv: <Self::Pos as Position>::Move) -> Vec<String>;
}

/// Reversi moves are named on a board of a given shape.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReversiNaming(pub Shape);

impl MoveNaming for ReversiNaming {
    type Pos = Reversi;
    fn of(position: &Reversi) -> Self {
        ReversiNaming(position.shape())
    }
    fn name(self, mv: reversi::Move) -> String {
        mv.name(self.0)
    }
    fn parse(self, text: &str) -> Option<reversi::Move> {
        reversi::Move::parse(text, self.0).ok()
    }
    fn board(self) -> String {
        self.0.name()
    }
    fn from_board(board: &str) -> Option<Self> {
        Shape::parse(board).ok().map(ReversiNaming)
    }
    fn placed(self, mv: reversi::Move) -> Vec<String> {
        mv.coord(self.0).map(Coord::name).into_iter().collect()
    }
    fn removed(self, _mv: reversi::Move) -> Vec<String> {
        Vec::new()
    }
}

/// Cephalopod moves are named on a board of a given size.
#[derive(Debug, Clone, Copy)]
pub struct CephalopodNaming(pub &'static Rect);

impl PartialEq for CephalopodNaming {
    fn eq(&self, other: &Self) -> bool {
        (self.0.rows, self.0.cols) == (other.0.rows, other.0.cols)
    }
}

impl MoveNaming for CephalopodNaming {
    type Pos = Cephalopod;
    fn of(position: &Cephalopod) -> Self {
        CephalopodNaming(position.rect())
    }
    fn name(self, mv: cephalopod::Move) -> String {
        cephalopod::move_name(self.0, mv)
    }
    fn parse(self, text: &str) -> Option<cephalopod::Move> {
        cephalopod::parse_move(self.0, text).ok()
    }
    fn board(self) -> String {
        self.0.size_name()
    }
    fn from_board(board: &str) -> Option<Self> {
        let (rows, cols) = cephalopod::parse_size(board)?;
        Rect::get(rows, cols).ok().map(CephalopodNaming)
    }
    fn placed(self, mv: cephalopod::Move) -> Vec<String> {
        vec![self.0.name(mv.square)]
    }
    fn removed(self, mv: cephalopod::Move) -> Vec<String> {
        mv.captured(self.0).into_iter().map(|square| self.0.name(square)).collect()
    }
}

/// Moves of a hex game are named on a given board (boards are interned: one board, one address).
macro_rules! hex_naming {
    ($Naming:ident, $Pos:ty, $game:ident, $placed:expr, $removed:expr) => {
        #[doc = concat!("`", stringify!($Pos), "` moves are named on a given hex board.")]
        #[derive(Debug, Clone, Copy)]
        pub struct $Naming(pub &'static HexBoard);

        impl PartialEq for $Naming {
            fn eq(&self, other: &Self) -> bool {
                std::ptr::eq(self.0, other.0)
            }
        }

        impl MoveNaming for $Naming {
            type Pos = $Pos;
            fn of(position: &$Pos) -> Self {
                $Naming(position.board())
            }
            fn name(self, mv: $game::Move) -> String {
                $game::move_name(self.0, mv)
            }
            fn parse(self, text: &str) -> Option<$game::Move> {
                $game::parse_move(self.0, text).ok()
            }
            fn board(self) -> String {
                self.0.name.clone()
            }
            fn from_board(board: &str) -> Option<Self> {
                HexBoard::named(board).ok().map($Naming)
            }
            fn placed(self, mv: $game::Move) -> Vec<String> {
                let placed: fn($game::Move) -> u128 = $placed;
                self.0.cell_names(placed(mv))
            }
            fn removed(self, mv: $game::Move) -> Vec<String> {
                let removed: fn($game::Move) -> u128 = $removed;
                self.0.cell_names(removed(mv))
            }
        }
    };
}

hex_naming!(RiveNaming, Rive, rive, |mv| mv.placed().map_or(0, |cell| 1u128 << cell), |mv| mv.removed());
hex_naming!(StrandsNaming, Strands, strands, |mv| mv.cells, |_| 0);

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn every_game_says_what_a_move_placed_and_removed() {
        let reversi = ReversiNaming(Shape::Square(8));
        let d3 = reversi.parse("d3").unwrap();
        assert_eq!((reversi.placed(d3), reversi.removed(d3)), (names(&["d3"]), names(&[])));
        let pass = reversi.parse("pass").unwrap();
        assert_eq!((reversi.placed(pass), reversi.removed(pass)), (names(&[]), names(&[])));

        let cephalopod = CephalopodNaming::from_board("3x3").unwrap();
        let capture = cephalopod.parse("b2xc2,a2").unwrap();
        assert_eq!((cephalopod.placed(capture), cephalopod.removed(capture)), (names(&["b2"]), names(&["a2", "c2"])));

        let rive = RiveNaming::from_board("hex3").unwrap();
        for (text, placed, removed) in [
            ("c3xd1,b2", &["c3"][..], &["b2", "d1"][..]),
            ("xb2", &[], &["b2"]),
            ("swap", &[], &[]),
            ("a1", &["a1"], &[]),
        ] {
            let mv = rive.parse(text).unwrap();
            assert_eq!((rive.placed(mv), rive.removed(mv)), (names(placed), names(removed)), "{text}");
        }

        let strands = StrandsNaming::from_board("hex3").unwrap();
        let mv = strands.parse("c3,a1").unwrap();
        assert_eq!((strands.placed(mv), strands.removed(mv)), (names(&["a1", "c3"]), names(&[])));
    }

    #[test]
    fn boards_are_named_as_in_position_notation_and_back() {
        let rect = CephalopodNaming::from_board("4x6").unwrap();
        assert_eq!((rect.0.rows, rect.0.cols, rect.board()), (4, 6, "4x6".to_string()));
        for bad in ["4x9", "4", "x", "4x6x", "1x5"] {
            assert!(CephalopodNaming::from_board(bad).is_none(), "{bad}");
        }
        assert_eq!(RiveNaming::from_board("hex335").unwrap().board(), "hex335");
        assert_eq!(ReversiNaming::from_board("octagon").unwrap().board(), "octagon");
        assert_eq!(HexBoard::named("hex4").unwrap().side(), 4);
    }
}
