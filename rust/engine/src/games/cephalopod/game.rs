//! A Cephalopod game's setup as records know it: the board's size, as a [`crate::Variant`].
//! Everything else about a game is [`Game`]'s.

use super::{parse_size, Cephalopod};
use crate::error::{Error, Result};
use crate::game::{self, Game};
use crate::record::Record;

/// A Cephalopod game: position, history, and how it was set up.
pub type CephalopodGame = Game<Variant>;

/// An empty board of `rows` x `cols` squares (2 to 8 each), Black to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Variant {
    pub rows: u8,
    pub cols: u8,
}

impl game::Variant for Variant {
    type Position = Cephalopod;
    const NAME: &'static str = "cephalopod";
    const BOARD_TAGS: &'static [&'static str] = &["Board"];
    const TAGS: &'static [&'static str] = &[];

    fn start(&self) -> Result<Cephalopod> {
        Cephalopod::new(self.rows, self.cols)
    }

    fn board_tags(position: &Cephalopod) -> Vec<(&'static str, String)> {
        vec![("Board", position.rect().size_name())]
    }

    /// The size is the `Board` tag: nothing else to write.
    fn tags(&self) -> Vec<(&'static str, String)> {
        Vec::new()
    }

    fn from_tags(r: &Record) -> Result<Variant> {
        let board = r.tag("Board").ok_or_else(|| Error::notation("cephalopod record: the Board tag is missing"))?;
        let (rows, cols) = parse_size(board)
            .ok_or_else(|| Error::notation(format!("cephalopod record: Board must look like '5x5', got {board:?}")))?;
        Ok(Variant { rows, cols })
    }

    fn text_board(position: &Cephalopod) -> String {
        position.text_board()
    }
}
