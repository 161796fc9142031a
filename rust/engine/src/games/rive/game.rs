//! A Rive game's setup as records know it: board, swap and single-stone form, as a
//! [`crate::Variant`]. Everything else about a game is [`Game`]'s.

use super::{PlayoutPolicy, Rive};
use crate::error::{Error, Result};
use crate::game::{self, Game};
use crate::hex::HexBoard;
use crate::record::Record;

/// A Rive game: position, history, and how it was set up.
pub type RiveGame = Game<Variant>;

/// The empty `board` (an odd number of cells), Black to move; `swap` lets White take Black's
/// first stone; `single_stones` is the form whose captures remove single stones;
/// `playout_policy` how the game's random moves are drawn (a record keeps it, as a `Playouts`
/// tag when it is not the uniform default, so that a replayed game draws the same).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Variant {
    pub board: &'static HexBoard,
    pub swap: bool,
    pub single_stones: bool,
    pub playout_policy: PlayoutPolicy,
}

impl Variant {
    /// The rules alone, random moves drawn uniformly.
    pub fn new(board: &'static HexBoard, swap: bool, single_stones: bool) -> Variant {
        Variant { board, swap, single_stones, playout_policy: PlayoutPolicy::Uniform }
    }
}

fn yes_no(record: &Record, tag: &str) -> Result<bool> {
    match record.tag(tag) {
        None | Some("no") => Ok(false),
        Some("yes") => Ok(true),
        Some(other) => Err(Error::notation(format!("rive record: {tag} must be \"yes\" or \"no\", got {other:?}"))),
    }
}

impl game::Variant for Variant {
    type Position = Rive;
    const NAME: &'static str = "rive";
    const HUGE_MOVE_LISTS: bool = true;
    const BOARD_TAGS: &'static [&'static str] = &["Board"];
    const TAGS: &'static [&'static str] = &["Swap", "SingleStones", "Playouts"];

    fn start(&self) -> Result<Rive> {
        Ok(Rive::new(self.board, self.swap, self.single_stones)?.with_playout_policy(self.playout_policy))
    }

    fn board_tags(position: &Rive) -> Vec<(&'static str, String)> {
        vec![("Board", position.board().name.clone())]
    }

    fn tags(&self) -> Vec<(&'static str, String)> {
        let mut tags = Vec::new();
        if self.swap {
            tags.push(("Swap", "yes".to_string()));
        }
        if self.single_stones {
            tags.push(("SingleStones", "yes".to_string()));
        }
        if self.playout_policy != PlayoutPolicy::Uniform {
            tags.push(("Playouts", self.playout_policy.name().to_string()));
        }
        tags
    }

    fn from_tags(r: &Record) -> Result<Variant> {
        let name = r.tag("Board").ok_or_else(|| Error::notation("rive record: the Board tag is missing"))?;
        let board = HexBoard::named(name).map_err(|e| Error::notation(format!("rive record: {e}")))?;
        let playout_policy = match r.tag("Playouts") {
            None => PlayoutPolicy::Uniform,
            Some(name) => PlayoutPolicy::by_name(name).map_err(|e| Error::notation(format!("rive record: {e}")))?,
        };
        Ok(Variant { board, swap: yes_no(r, "Swap")?, single_stones: yes_no(r, "SingleStones")?, playout_policy })
    }

    fn text_board(position: &Rive) -> String {
        position.text_board()
    }
}
