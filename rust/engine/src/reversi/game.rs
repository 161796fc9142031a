//! A Reversi game: the variant it was set up with, and the moves played; its records.

use super::variant::Variant;
use super::Move;
use super::{Reversi, Shape};
use crate::error::{Error, Result};
use crate::game::{Game, Player, Position, RecordedGame};
use crate::interrupt::Stop;
use crate::perft::Plies;
use crate::record::{self, Record};
use crate::square::Coord;

const ALWAYS: [&str; 1] = ["Board"];
const VARIANT: [&str; 4] = ["Blocked", "Seed", "Handicap", "HandicapColor"];

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

    pub fn position(&self) -> &Reversi {
        self.game.position()
    }
}

impl RecordedGame for ReversiGame {
    type P = Reversi;
    const NAME: &'static str = "reversi";

    fn game(&self) -> &Game<Reversi> {
        &self.game
    }

    fn game_mut(&mut self) -> &mut Game<Reversi> {
        &mut self.game
    }

    fn from_position(text: &str) -> Result<Self> {
        Ok(ReversiGame { variant: None, game: Game::new(Reversi::from_notation(text)?) })
    }

    fn text_board(position: &Reversi) -> String {
        position.text_board()
    }

    /// Through `Reversi::perft`, which runs 8-wide boards in their AVX2 frames.
    fn perft(position: &Reversi, depth: u32, plies: Plies, threads: usize, stop: &Stop) -> Result<u64> {
        position.perft_interruptible(depth, plies, threads, stop)
    }

    fn divide(position: &Reversi, depth: u32, plies: Plies, stop: &Stop) -> Result<Vec<(Move, u64)>> {
        position.divide_interruptible(depth, plies, stop)
    }

    fn record(&self) -> String {
        let board = vec![("Board", self.game.start().shape().name())];
        let variant = self.variant.as_ref().map(|v| {
            let mut tags = Vec::new();
            if !v.holes.is_empty() {
                tags.push(("Blocked", v.holes.iter().map(|c| c.name()).collect::<Vec<_>>().join(" ")));
            }
            if let Some(seed) = v.seed {
                tags.push(("Seed", seed.to_string()));
            }
            if v.handicap > 0 {
                tags.push(("Handicap", v.handicap.to_string()));
                if v.handicap_color == Player::White {
                    tags.push(("HandicapColor", "white".to_string()));
                }
            }
            tags
        });
        record::write("reversi", board, variant, &self.game)
    }

    fn from_record(text: &str) -> Result<Self> {
        let r = record::read(text, "reversi", &ALWAYS, &VARIANT)?;
        let mut game = match r.tag("Position") {
            Some(position) => {
                let g = Self::from_position(position)?;
                if r.tag("Board").is_some_and(|board| board != g.position().shape().name()) {
                    return Err(Error::notation("reversi record: Board does not match Position"));
                }
                g
            }
            None => Self::new(variant_from_tags(&r)?),
        };
        record::replay(&r, &mut game.game, "reversi")?;
        Ok(game)
    }
}

fn variant_from_tags(r: &Record) -> Result<Variant> {
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
        Some(list) => crate::text::words(list).map(Coord::parse).collect::<Result<Vec<_>>>().map_err(as_notation)?,
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
