//! A Reversi game: the variant it was set up with, and the moves played. Records live here.

use super::variant::Variant;
use super::{Move, Reversi, Shape};
use crate::error::{Error, Result};
use crate::game::{Game, Outcome, Player, Position};
use crate::record::Record;
use crate::square::{truncate, Coord};

#[derive(Clone)]
pub struct ReversiGame {
    /// `None` when the game began from a position given in notation.
    pub variant: Option<Variant>,
    pub game: Game<Reversi>,
}

impl ReversiGame {
    pub fn new(variant: Variant) -> Self {
        let start = variant.start();
        ReversiGame { variant: Some(variant), game: Game::new(start) }
    }

    pub fn from_position(text: &str) -> Result<Self> {
        Ok(ReversiGame { variant: None, game: Game::new(Reversi::from_notation(text)?) })
    }

    pub fn position(&self) -> &Reversi {
        self.game.position()
    }

    /// Plays a move, with the precise reason when it is illegal; nothing changes on error.
    pub fn play(&mut self, mv: Move) -> Result<()> {
        self.position().check(mv)?;
        self.game.push_unchecked(mv);
        Ok(())
    }

    pub fn play_notation(&mut self, text: &str) -> Result<Move> {
        let mv = self.position().parse_move(text)?;
        self.play(mv)?;
        Ok(mv)
    }

    pub fn record(&self) -> String {
        let start = self.game.start();
        let mut r = Record::default();
        r.push_tag("Game", "reversi");
        r.push_tag("Board", start.shape().name());
        match &self.variant {
            Some(v) => {
                if !v.holes.is_empty() {
                    r.push_tag("Blocked", v.holes.iter().map(|c| c.name()).collect::<Vec<_>>().join(" "));
                }
                if let Some(seed) = v.seed {
                    r.push_tag("Seed", seed.to_string());
                }
                if v.handicap > 0 {
                    r.push_tag("Handicap", v.handicap.to_string());
                    if v.handicap_color == Player::White {
                        r.push_tag("HandicapColor", "white");
                    }
                }
            }
            None => r.push_tag("Position", start.to_notation()),
        }
        r.push_tag("Result", Outcome::result_tag(self.position().outcome()));
        r.moves = self.game.moves().map(|m| m.name(start.shape())).collect();
        r.to_text()
    }

    pub fn from_record(text: &str) -> Result<Self> {
        let r = Record::parse(text)?;
        let known = ["Game", "Board", "Blocked", "Seed", "Handicap", "HandicapColor", "Position", "Result"];
        if let Some((k, _)) = r.tags.iter().find(|(k, _)| !known.contains(&k.as_str())) {
            return Err(Error::notation(format!("reversi record: unknown tag {k}")));
        }
        match r.tag("Game") {
            Some("reversi") => {}
            Some(other) => return Err(Error::notation(format!("reversi record: Game is {other:?}, not \"reversi\""))),
            None => return Err(Error::notation("record: the Game tag is missing")),
        }
        let mut game = match r.tag("Position") {
            Some(position) => {
                if ["Blocked", "Seed", "Handicap", "HandicapColor"].iter().any(|t| r.tag(t).is_some()) {
                    return Err(Error::notation("reversi record: a Position tag excludes Blocked, Seed and Handicap"));
                }
                let g = Self::from_position(position)?;
                if let Some(board) = r.tag("Board") {
                    if board != g.position().shape().name() {
                        return Err(Error::notation("reversi record: Board does not match Position"));
                    }
                }
                g
            }
            None => Self::new(variant_from_tags(&r)?),
        };
        for (i, text) in r.moves.iter().enumerate() {
            game.play_notation(text)
                .map_err(|e| Error::notation(format!("reversi record: move {} ({}): {e}", i + 1, truncate(text))))?;
        }
        if let Some(result) = r.tag("Result") {
            let actual = Outcome::result_tag(game.position().outcome());
            if result != actual {
                return Err(Error::notation(format!(
                    "reversi record: Result is {result:?} but the moves give {actual:?}"
                )));
            }
        }
        Ok(game)
    }
}

fn variant_from_tags(r: &Record) -> Result<Variant> {
    let as_notation = |e: Error| Error::notation(format!("reversi record: {e}"));
    let shape = Shape::parse(r.tag("Board").ok_or_else(|| Error::notation("reversi record: the Board tag is missing"))?)
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
        Some(list) => list.split_whitespace().map(Coord::parse).collect::<Result<Vec<_>>>().map_err(as_notation)?,
    };
    match r.tag("Seed") {
        Some(seed) => {
            let digits = seed.bytes().all(|b| b.is_ascii_digit());
            let seed = seed.parse::<u64>().ok().filter(|_| digits).ok_or_else(|| Error::notation(format!("reversi record: bad Seed {seed:?}")))?;
            let v = Variant::random(shape, seed, handicap, color).map_err(as_notation)?;
            if r.tag("Blocked").is_some() && {
                let mut given = blocked.clone();
                given.sort_by_key(|c| (c.row, c.col));
                given != v.holes
            } {
                return Err(Error::notation("reversi record: Blocked does not match the holes drawn from Seed"));
            }
            Ok(v)
        }
        None => Variant::new(shape, blocked, handicap, color).map_err(as_notation),
    }
}
