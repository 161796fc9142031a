//! A Cephalopod game (its size and the moves played) and its records.

use super::Cephalopod;
use crate::error::{Error, Result};
use crate::game::{Game, Position, RecordedGame};
use crate::record;

#[derive(Clone)]
pub struct CephalopodGame {
    /// Whether the game began from a position given in notation rather than the empty board.
    pub from_position: bool,
    pub game: Game<Cephalopod>,
}

impl CephalopodGame {
    pub fn new(rows: u8, cols: u8) -> Result<Self> {
        Ok(CephalopodGame { from_position: false, game: Game::new(Cephalopod::new(rows, cols)?) })
    }

    pub fn position(&self) -> &Cephalopod {
        self.game.position()
    }
}

impl RecordedGame for CephalopodGame {
    type P = Cephalopod;
    const NAME: &'static str = "cephalopod";

    fn game(&self) -> &Game<Cephalopod> {
        &self.game
    }

    fn game_mut(&mut self) -> &mut Game<Cephalopod> {
        &mut self.game
    }

    fn from_position(text: &str) -> Result<Self> {
        Ok(CephalopodGame { from_position: true, game: Game::new(Cephalopod::from_notation(text)?) })
    }

    fn text_board(position: &Cephalopod) -> String {
        position.text_board()
    }

    fn record(&self) -> String {
        let board = vec![("Board", self.game.start().rect().size_name())];
        let variant = (!self.from_position).then(Vec::new);
        record::write("cephalopod", board, variant, &self.game)
    }

    fn from_record(text: &str) -> Result<Self> {
        let r = record::read(text, "cephalopod", &["Board"], &[])?;
        let board = r.tag("Board");
        let mut game = match r.tag("Position") {
            Some(position) => Self::from_position(position)?,
            None => {
                let board = board.ok_or_else(|| Error::notation("cephalopod record: the Board tag is missing"))?;
                let (rows, cols) = parse_size(board)?;
                Self::new(rows, cols).map_err(|e| Error::notation(format!("cephalopod record: {e}")))?
            }
        };
        if board.is_some_and(|b| b != game.position().rect().size_name()) {
            return Err(Error::notation("cephalopod record: Board does not match Position"));
        }
        record::replay(&r, &mut game.game, "cephalopod")?;
        Ok(game)
    }
}

fn parse_size(board: &str) -> Result<(u8, u8)> {
    let bad = || Error::notation(format!("cephalopod record: Board must look like '5x5', got {board:?}"));
    let (r, c) = board.split_once('x').ok_or_else(bad)?;
    let digit = |t: &str| (t.len() == 1).then(|| t.parse::<u8>().ok()).flatten();
    Ok((digit(r).ok_or_else(bad)?, digit(c).ok_or_else(bad)?))
}
