//! A Reversi game's setup as records know it: `reversi::Variant` (board, holes, handicap) as a
//! [`crate::Variant`]. Everything else about a game is [`Game`]'s.

use super::variant::Variant;
use super::{Reversi, Shape};
use crate::error::{Error, Result};
use crate::game::{self, Game, Player};
use crate::record::Record;
use crate::square::Coord;

/// A Reversi game: position, history, and how it was set up.
pub type ReversiGame = Game<Variant>;

impl game::Variant for Variant {
    type Position = Reversi;
    const NAME: &'static str = "reversi";
    const BOARD_TAGS: &'static [&'static str] = &["Board"];
    const TAGS: &'static [&'static str] = &["Blocked", "Seed", "Handicap", "HandicapColor"];

    fn start(&self) -> Result<Reversi> {
        Ok(Variant::start(self))
    }

    fn board_tags(position: &Reversi) -> Vec<(&'static str, String)> {
        vec![("Board", position.shape().name())]
    }

    fn tags(&self) -> Vec<(&'static str, String)> {
        let mut tags = Vec::new();
        if !self.holes.is_empty() {
            tags.push(("Blocked", self.holes.iter().map(|c| c.name()).collect::<Vec<_>>().join(" ")));
        }
        if let Some(seed) = self.seed {
            tags.push(("Seed", seed.to_string()));
        }
        if self.handicap > 0 {
            tags.push(("Handicap", self.handicap.to_string()));
            if self.handicap_color == Player::White {
                tags.push(("HandicapColor", "white".to_string()));
            }
        }
        tags
    }

    fn from_tags(r: &Record) -> Result<Variant> {
        let as_notation = |e: Error| Error::notation(format!("reversi record: {e}"));
        let shape =
            Shape::parse(r.tag("Board").ok_or_else(|| Error::notation("reversi record: the Board tag is missing"))?)
                .map_err(as_notation)?;
        let handicap = match r.tag("Handicap") {
            None => 0,
            Some(h) => h.parse::<u8>().map_err(|_| Error::notation(format!("reversi record: bad Handicap {h:?}")))?,
        };
        let color = match r.tag("HandicapColor") {
            None | Some("black") => Player::Black,
            Some("white") => Player::White,
            Some(c) => return Err(Error::notation(format!("reversi record: bad HandicapColor {c:?}"))),
        };
        let blocked = match r.tag("Blocked") {
            None => Vec::new(),
            Some(list) => {
                crate::text::words(list).map(Coord::parse).collect::<Result<Vec<_>>>().map_err(as_notation)?
            }
        };
        let Some(seed) = r.tag("Seed") else {
            return Variant::new(shape, blocked, handicap, color).map_err(as_notation);
        };
        let digits = !seed.is_empty() && seed.bytes().all(|b| b.is_ascii_digit());
        let seed = seed
            .parse::<u64>()
            .ok()
            .filter(|_| digits)
            .ok_or_else(|| Error::notation(format!("reversi record: bad Seed {seed:?}")))?;
        let v = Variant::random(shape, seed, handicap, color).map_err(as_notation)?;
        let mut given = blocked;
        given.sort_by_key(|c| (c.row, c.col));
        if r.tag("Blocked").is_some() && given != v.holes {
            return Err(Error::notation("reversi record: Blocked does not match the holes drawn from Seed"));
        }
        Ok(v)
    }

    fn text_board(position: &Reversi) -> String {
        position.text_board()
    }
}
