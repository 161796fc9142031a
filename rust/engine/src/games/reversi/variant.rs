//! The variant parameters of a Reversi game (board, holes, handicap) and the start position
//! they give, built as a `Setup` and validated like any other.

use super::setup::{Setup, SetupError, MAX_HOLES};
use super::{Reversi, Shape};
use crate::error::{Error, Result};
use crate::game::Player;
use crate::rng::SplitMix64;
use crate::square::Coord;

/// Everything needed to set up a game before the first move. Built by `new` or `random`, which
/// validate it; the fields are for reading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variant {
    pub shape: Shape,
    /// Holes in board order.
    pub holes: Vec<Coord>,
    /// The seed the holes were drawn from, if they were.
    pub seed: Option<u64>,
    pub handicap: u8,
    pub handicap_color: Player,
    /// The validated start position (private, so that a `Variant` exists only once validated).
    start: Reversi,
}

impl Variant {
    /// A validated variant with explicit holes.
    pub fn new(shape: Shape, holes: Vec<Coord>, handicap: u8, handicap_color: Player) -> Result<Variant> {
        check_handicap(handicap)?;
        let mut setup = start_setup(shape, handicap, handicap_color);
        setup.holes = holes;
        let mut holes = setup.holes.clone();
        let start = setup.validate().map_err(blocked)?;
        holes.sort_by_key(|c| (c.row, c.col));
        Ok(Variant { shape, holes, seed: None, handicap, handicap_color, start })
    }

    /// A variant whose holes are drawn from `seed` (docs/reversi.md gives the algorithm).
    pub fn random(shape: Shape, seed: u64, handicap: u8, handicap_color: Player) -> Result<Variant> {
        check_handicap(handicap)?;
        let base = start_setup(shape, handicap, handicap_color);
        let mut allowed: Vec<Coord> = shape.squares().filter(|&c| base.hole_error(c).is_none()).collect();
        if allowed.is_empty() {
            let n = shape.size();
            return Err(Error::invalid(format!("blocked: a {n}x{n} board has no square where a hole may go")));
        }
        let mut rng = SplitMix64::new(seed);
        let count = 1 + rng.below(MAX_HOLES as u64) as usize;
        for i in 0..count {
            let j = i + rng.below((allowed.len() - i) as u64) as usize;
            allowed.swap(i, j);
        }
        let mut v = Variant::new(shape, allowed[..count].to_vec(), handicap, handicap_color)?;
        v.seed = Some(seed);
        Ok(v)
    }

    /// The corners that hold a handicap disc, in the documented order.
    pub fn corners(&self) -> Vec<Coord> {
        corners(self.shape, self.handicap)
    }

    /// The position before the first move: the centre, the handicap discs, Black to move.
    pub fn start(&self) -> Reversi {
        self.start
    }
}

fn check_handicap(handicap: u8) -> Result<()> {
    if handicap > 4 {
        return Err(Error::invalid(format!("handicap must be 0 to 4, got {handicap}")));
    }
    Ok(())
}

fn corners(shape: Shape, handicap: u8) -> Vec<Coord> {
    shape.handicap_corners()[..handicap as usize].to_vec()
}

/// The start without holes: the centre discs and the handicap discs, Black to move.
fn start_setup(shape: Shape, handicap: u8, handicap_color: Player) -> Setup {
    let mut setup = Setup::start(shape);
    match handicap_color {
        Player::Black => setup.black.extend(corners(shape, handicap)),
        Player::White => setup.white.extend(corners(shape, handicap)),
    }
    setup
}

/// A variant's setup fails only on its holes, reported as the `blocked` argument's fault. The
/// only discs a hole can meet outside the centre are handicap discs.
fn blocked(e: SetupError) -> Error {
    let why = match e {
        SetupError::HoleOnDisc(c) => format!("{} holds a handicap disc", c.name()),
        e => e.to_string(),
    };
    Error::invalid(format!("blocked: {why}"))
}
