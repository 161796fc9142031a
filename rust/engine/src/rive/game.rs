//! A Rive game (board, swap, single-stone form, moves) and its records.

use super::Rive;
use crate::error::{Error, Result};
use crate::game::{Game, Position, RecordedGame};
use crate::hex::HexBoard;
use crate::record;

#[derive(Clone)]
pub struct RiveGame {
    /// Whether the game began from a position given in notation rather than the empty board.
    pub from_position: bool,
    pub game: Game<Rive>,
}

impl RiveGame {
    pub fn new(board: &'static HexBoard, swap: bool, single_stones: bool) -> Result<Self> {
        Ok(RiveGame { from_position: false, game: Game::new(Rive::new(board, swap, single_stones)?) })
    }

    pub fn position(&self) -> &Rive {
        self.game.position()
    }
}

fn yes_no(record: &record::Record, tag: &str) -> Result<bool> {
    match record.tag(tag) {
        None | Some("no") => Ok(false),
        Some("yes") => Ok(true),
        Some(other) => Err(Error::notation(format!("rive record: {tag} must be \"yes\" or \"no\", got {other:?}"))),
    }
}

impl RecordedGame for RiveGame {
    type P = Rive;
    const NAME: &'static str = "rive";
    const HUGE_MOVE_LISTS: bool = true;

    fn game(&self) -> &Game<Rive> {
        &self.game
    }

    fn game_mut(&mut self) -> &mut Game<Rive> {
        &mut self.game
    }

    fn from_position(text: &str) -> Result<Self> {
        Ok(RiveGame { from_position: true, game: Game::new(Rive::from_notation(text)?) })
    }

    fn text_board(position: &Rive) -> String {
        position.text_board()
    }

    fn record(&self) -> String {
        let start = self.game.start();
        let board = vec![("Board", start.board().name.clone())];
        let variant = (!self.from_position).then(|| {
            let mut tags = Vec::new();
            if start.swap_allowed() {
                tags.push(("Swap", "yes".to_string()));
            }
            if start.single_stones() {
                tags.push(("SingleStones", "yes".to_string()));
            }
            tags
        });
        record::write("rive", board, variant, &self.game)
    }

    fn from_record(text: &str) -> Result<Self> {
        let r = record::read(text, "rive", &["Board"], &["Swap", "SingleStones"])?;
        let mut game = match r.tag("Position") {
            Some(position) => Self::from_position(position)?,
            None => {
                let name = r.tag("Board").ok_or_else(|| Error::notation("rive record: the Board tag is missing"))?;
                let board = HexBoard::named(name).map_err(|e| Error::notation(format!("rive record: {e}")))?;
                Self::new(board, yes_no(&r, "Swap")?, yes_no(&r, "SingleStones")?)
                    .map_err(|e| Error::notation(format!("rive record: {e}")))?
            }
        };
        if r.tag("Board").is_some_and(|b| b != game.position().board().name) {
            return Err(Error::notation("rive record: Board does not match Position"));
        }
        record::replay(&r, &mut game.game, "rive")?;
        Ok(game)
    }
}
