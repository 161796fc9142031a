//! Reversi's moves named without their position (`naming::MoveNaming`): on a board of a shape.

use super::{Move, Reversi, Shape};
use crate::naming::MoveNaming;
use crate::square::Coord;

/// Reversi moves are named on a board of a given shape.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReversiNaming(pub Shape);

impl MoveNaming for ReversiNaming {
    type Pos = Reversi;
    fn of(position: &Reversi) -> Self {
        ReversiNaming(position.shape())
    }
    fn name(self, mv: Move) -> String {
        mv.name(self.0)
    }
    fn parse(self, text: &str) -> Option<Move> {
        Move::parse(text, self.0).ok()
    }
    fn board(self) -> String {
        self.0.name()
    }
    fn from_board(board: &str) -> Option<Self> {
        Shape::parse(board).ok().map(ReversiNaming)
    }
    fn placed(self, mv: Move) -> Vec<String> {
        mv.coord(self.0).map(Coord::name).into_iter().collect()
    }
    fn removed(self, _mv: Move) -> Vec<String> {
        Vec::new()
    }
    fn cell_indices(self, mv: Move) -> (Vec<u8>, Vec<u8>) {
        let size = self.0.size();
        (mv.coord(self.0).map(|c| c.row * size + c.col).into_iter().collect(), Vec::new())
    }
}
