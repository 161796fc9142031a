//! Cephalopod's moves named without their position (`naming::MoveNaming`): on a board of a size.

use super::{move_name, parse_move, parse_size, Cephalopod, Move};
use crate::naming::MoveNaming;
use crate::square::Rect;

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
    fn name(self, mv: Move) -> String {
        move_name(self.0, mv)
    }
    fn parse(self, text: &str) -> Option<Move> {
        parse_move(self.0, text).ok()
    }
    fn board(self) -> String {
        self.0.size_name()
    }
    fn from_board(board: &str) -> Option<Self> {
        let (rows, cols) = parse_size(board)?;
        Rect::get(rows, cols).ok().map(CephalopodNaming)
    }
    fn placed(self, mv: Move) -> Vec<String> {
        vec![self.0.name(mv.square)]
    }
    fn removed(self, mv: Move) -> Vec<String> {
        mv.captured(self.0).into_iter().map(|square| self.0.name(square)).collect()
    }
    fn cell_indices(self, mv: Move) -> (Vec<u8>, Vec<u8>) {
        (vec![mv.square], mv.captured(self.0))
    }
}
