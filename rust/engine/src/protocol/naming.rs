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
//!
//! **Order.** Moves of one board sort by these cells ([`MoveOrder`]): first the moves that place
//! a piece, by the cells placed on (in board order, compared as lists), then by the cells removed;
//! then the moves that place nothing (a pass, the swap, a single-stone removal), by the cells
//! removed. This is the order of `legal_moves()` in Reversi, Cephalopod and Rive; Strands lists a
//! turn's moves by label first, which a move alone does not know.

//!
//! Each game names its moves in its own `naming.rs` (`reversi::ReversiNaming`, ...); the hex
//! games share `hex_naming!`.

use crate::game::Position;

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
    /// `placed` and `removed` as board-order indices of the cells (for sorting only: any indices
    /// that increase in board order do).
    fn cell_indices(self, mv: <Self::Pos as Position>::Move) -> (Vec<u8>, Vec<u8>);

    /// Where the move sorts among the moves of this board (module documentation).
    fn order(self, mv: <Self::Pos as Position>::Move) -> MoveOrder {
        let (placed, removed) = self.cell_indices(mv);
        MoveOrder { places_nothing: placed.is_empty(), placed, removed }
    }
}

/// A move's place in the order moves sort in (module documentation): the fields compare in
/// turn, lists lexicographically. Two moves of a board are equal exactly when their orders are.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct MoveOrder {
    places_nothing: bool,
    placed: Vec<u8>,
    removed: Vec<u8>,
}

/// The indices of a bitboard's cells, ascending.
pub fn bit_indices(set: u128) -> Vec<u8> {
    crate::bitboard::Ones(set).map(|i| i as u8).collect()
}

/// Moves of a hex game are named on a given board (boards are interned: one board, one address):
/// the game's `naming.rs` calls it with its position type, its module and how a move's placed
/// and removed cells read as bitboards.
macro_rules! hex_naming {
    ($Naming:ident, $Pos:ty, $game:ident, $placed:expr, $removed:expr) => {
        #[doc = concat!("`", stringify!($Pos), "` moves are named on a given hex board.")]
        #[derive(Debug, Clone, Copy)]
        pub struct $Naming(pub &'static $crate::hex::HexBoard);

        impl PartialEq for $Naming {
            fn eq(&self, other: &Self) -> bool {
                std::ptr::eq(self.0, other.0)
            }
        }

        impl $crate::naming::MoveNaming for $Naming {
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
                $crate::hex::HexBoard::named(board).ok().map($Naming)
            }
            fn placed(self, mv: $game::Move) -> Vec<String> {
                let placed: fn($game::Move) -> u128 = $placed;
                self.0.cell_names(placed(mv))
            }
            fn removed(self, mv: $game::Move) -> Vec<String> {
                let removed: fn($game::Move) -> u128 = $removed;
                self.0.cell_names(removed(mv))
            }
            fn cell_indices(self, mv: $game::Move) -> (Vec<u8>, Vec<u8>) {
                let (placed, removed): (fn($game::Move) -> u128, fn($game::Move) -> u128) = ($placed, $removed);
                ($crate::naming::bit_indices(placed(mv)), $crate::naming::bit_indices(removed(mv)))
            }
        }
    };
}
pub(crate) use hex_naming;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cephalopod::{Cephalopod, CephalopodNaming};
    use crate::hex::HexBoard;
    use crate::reversi::{Reversi, ReversiNaming, Shape};
    use crate::rive::{Rive, RiveNaming};
    use crate::strands::StrandsNaming;

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

    /// Whether `moves` are strictly increasing in the move order.
    fn strictly_sorted<N: MoveNaming>(naming: N, moves: impl Iterator<Item = <N::Pos as Position>::Move>) -> bool {
        let orders: Vec<MoveOrder> = moves.map(|mv| naming.order(mv)).collect();
        orders.windows(2).all(|pair| pair[0] < pair[1])
    }

    #[test]
    fn legal_moves_come_in_the_move_order_where_documented() {
        let reversi =
            Reversi::from_notation("8 b#w...../...w..../...b..../...wb.../...bw.../......../......../........ b")
                .unwrap();
        assert!(strictly_sorted(ReversiNaming::of(&reversi), reversi.legal_moves()));
        let cephalopod = Cephalopod::from_notation("3x3 .1b./1w.1w/.1b. b").unwrap();
        assert!(cephalopod.count_moves() > 10);
        assert!(strictly_sorted(CephalopodNaming::of(&cephalopod), cephalopod.legal_moves()));
        for position in ["hex3 w../bw.b/...wb/.w../bb. w", "hex3 .../..../..b../..../... w swap"] {
            let rive = Rive::from_notation(position).unwrap();
            assert!(strictly_sorted(RiveNaming::of(&rive), rive.legal_moves()), "{position}");
        }
        let rive = RiveNaming::from_board("hex3").unwrap();
        let order = |text| rive.order(rive.parse(text).unwrap());
        assert!(
            order("a1") < order("a1xb2") && order("a1xb2") < order("a1xb2,c3") && order("a1xb2,c3") < order("a1xc3")
        );
        assert!(order("e3") < order("swap") && order("swap") < order("xa1") && order("xa1") < order("xb1"));
        let reversi = ReversiNaming(Shape::Square(8));
        let order = |text| reversi.order(reversi.parse(text).unwrap());
        assert!(order("h1") < order("a2") && order("h8") < order("pass"));
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
