//! Rive: hex territory where every placement joins the smallest groups it can, and captures shrink
//! the joined group to a connected set of survivors (docs/rive.md).
//!
//! Where each rule lives: `setup.rs` (what a valid position is), `groups.rs` (the min-max rule
//! and what a placement captures), `moves.rs` (the move type, the legal moves in order, counting
//! and sampling them), `play.rs` (playing a move, and why a move is illegal), `survivors.rs` and
//! `frontier.rs` (a capture's survivor sets), `notation.rs` (moves and positions as text),
//! `actions.rs` (the step form), `game.rs` (records).

mod actions;
mod features;
mod frontier;
mod game;
mod groups;
mod key;
mod moves;
mod naming;
mod notation;
mod play;
mod searchable;
mod setup;
pub mod survivors;

pub use naming::RiveNaming;

pub use actions::RiveActions;
pub use game::{RiveGame, Variant};
pub use key::{RiveKey, DENSE_CELLS};
pub use moves::{Move, Moves};
pub use notation::{move_name, parse_move};
pub use setup::Setup;

use crate::error::Result;
use crate::game::{Outcome, Player, Position};
use crate::hex::HexBoard;
use crate::interrupt::Stop;
use crate::rng::SplitMix64;
use groups::Groups;

/// How random moves are drawn (random_move, playouts, MCTS rollouts): a choice of distribution,
/// not a rule, so it is no part of the position's identity (equality, hash, notation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PlayoutPolicy {
    /// Uniformly over the legal moves: a capture with many survivor sets is drawn that many
    /// times more often, and every capture must be counted at every ply.
    #[default]
    Uniform,
    /// Uniformly over the legal cells (and the swap), then uniformly over the chosen capture's
    /// survivor sets: only that capture is counted and ranked, so a ply costs one count.
    CaptureCell,
}

impl PlayoutPolicy {
    pub fn name(self) -> &'static str {
        match self {
            PlayoutPolicy::Uniform => "uniform",
            PlayoutPolicy::CaptureCell => "capture-cell",
        }
    }

    pub fn by_name(name: &str) -> Result<PlayoutPolicy> {
        match name {
            "uniform" => Ok(PlayoutPolicy::Uniform),
            "capture-cell" => Ok(PlayoutPolicy::CaptureCell),
            _ => Err(crate::error::Error::invalid(format!(
                "playout_policy must be 'uniform' or 'capture-cell', got {name:?}"
            ))),
        }
    }
}

/// A capture under way in the single-stone form: the placed cell and the stones still to remove.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pending {
    pub placed: u8,
    pub remaining: u8,
}

/// A Rive position. Only `Setup::validate` makes one from parts, so every `Rive` is valid.
#[derive(Clone, Copy)]
pub struct Rive {
    black: u128,
    white: u128,
    side: Player,
    board: &'static HexBoard,
    /// The variant allows White's swap.
    swap: bool,
    /// Captures are played one stone at a time.
    single_stones: bool,
    pending: Option<Pending>,
    /// How this position's random moves are drawn (not part of its identity).
    playout_policy: PlayoutPolicy,
}

impl PartialEq for Rive {
    fn eq(&self, other: &Self) -> bool {
        (self.black, self.white, self.side, self.swap, self.single_stones, self.pending)
            == (other.black, other.white, other.side, other.swap, other.single_stones, other.pending)
            && std::ptr::eq(self.board, other.board)
    }
}

impl Eq for Rive {}

impl std::fmt::Debug for Rive {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_notation())
    }
}

impl Rive {
    /// The empty board of a variant (an error if the board has an even number of cells).
    pub fn new(board: &'static HexBoard, swap: bool, single_stones: bool) -> Result<Rive> {
        Setup::empty(board, swap, single_stones).validate()
    }

    /// The position as plain data (`Setup::validate` gives it back).
    pub fn setup(&self) -> Setup {
        Setup {
            board: self.board,
            black: self.black,
            white: self.white,
            to_move: self.side,
            swap: self.swap,
            single_stones: self.single_stones,
            capture: self.pending,
        }
    }

    pub fn board(&self) -> &'static HexBoard {
        self.board
    }

    pub fn swap_allowed(&self) -> bool {
        self.swap
    }

    pub fn single_stones(&self) -> bool {
        self.single_stones
    }

    pub fn pending(&self) -> Option<Pending> {
        self.pending
    }

    pub fn playout_policy(&self) -> PlayoutPolicy {
        self.playout_policy
    }

    /// The same position, drawing its random moves by `policy` (and so every position played
    /// from it).
    pub fn with_playout_policy(self, policy: PlayoutPolicy) -> Rive {
        Rive { playout_policy: policy, ..self }
    }

    fn occupied(&self) -> u128 {
        self.black | self.white
    }

    /// Sizes of all groups, largest first.
    pub fn group_sizes(&self) -> Vec<u32> {
        let mut sizes: Vec<u32> = Groups::of(self.board, self.occupied()).iter().map(|g| g.1).collect();
        sizes.sort_unstable_by(|a, b| b.cmp(a));
        sizes
    }

    /// A readable board: each row indented by its offset, cells `.`, `b`, `w`.
    pub fn text_board(&self) -> String {
        let setup = self.setup();
        self.board.draw(|cell| setup.cell_char(cell))
    }
}

impl Position for Rive {
    type Move = Move;
    type Moves<'a> = Moves;

    fn to_move(&self) -> Player {
        self.side
    }

    fn legal_moves(&self) -> Moves {
        Moves::of(self)
    }

    fn play_unchecked(&mut self, mv: Move) {
        self.play(mv)
    }

    /// (black stones, white stones)
    fn score(&self) -> (u32, u32) {
        (self.black.count_ones(), self.white.count_ones())
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        let (black, white) = self.score();
        Some(Outcome::by_count(black, white))
    }

    fn zobrist(&self) -> u64 {
        let keys = zobrist_keys();
        let mut hash = if self.side == Player::White { keys[256] } else { 0 };
        for (layer, stones) in [(0, self.black), (128, self.white)] {
            let mut rest = stones;
            while rest != 0 {
                hash ^= keys[layer + rest.trailing_zeros() as usize];
                rest &= rest - 1;
            }
        }
        if let Some(p) = self.pending {
            hash ^= keys[257 + p.placed as usize] ^ keys[257 + 128 + (p.remaining as usize).min(31)];
        }
        hash
    }

    /// The board is full and no capture is under way (in the single-stone form a capture can
    /// fill the board for a moment, before its removals).
    fn is_over(&self) -> bool {
        self.occupied() == self.board.all && self.pending.is_none()
    }

    fn why_illegal(&self, mv: Move) -> Option<String> {
        self.illegality(mv)
    }

    /// Counts captures' survivor sets without building them (saturating at `u64::MAX`;
    /// `count_moves_exact` never does).
    fn count_moves(&self) -> u64 {
        u64::try_from(self.count_moves_exact()).unwrap_or(u64::MAX)
    }

    fn sample_move(&self, rng: &mut SplitMix64) -> Option<Move> {
        crate::perft::unstoppable(self.sample(rng, Stop::never()))
    }

    // A compound capture on a large board can take a long time to count, rank or list (hundreds
    // of milliseconds on hex7), and a playout there thousands of plies: these look at the stop
    // inside a move and at every ply.

    fn list_moves(&self, stop: &Stop) -> Result<Vec<Move>> {
        let mut moves = Moves::of(self);
        let mut listed = Vec::new();
        while let Some(mv) = moves.next_interruptible(stop)? {
            if crate::interrupt::every(listed.len() as u64, 1024) {
                stop.checkpoint()?;
            }
            listed.push(mv);
        }
        Ok(listed)
    }

    fn count_moves_interruptible(&self, stop: &Stop) -> Result<u64> {
        Ok(u64::try_from(self.count_moves_exact_interruptible(stop)?).unwrap_or(u64::MAX))
    }

    fn sample_move_interruptible(&self, rng: &mut SplitMix64, stop: &Stop) -> Result<Option<Move>> {
        self.sample(rng, stop)
    }

    fn play_out_interruptible(&mut self, rng: &mut SplitMix64, stop: &Stop) -> Result<()> {
        loop {
            stop.checkpoint()?;
            match self.sample(rng, stop)? {
                Some(mv) => self.play(mv),
                None => return Ok(()),
            }
        }
    }

    fn parse_move(&self, text: &str) -> Result<Move> {
        notation::parse_move(self.board, text)
    }

    fn format_move(&self, mv: Move) -> String {
        notation::move_name(self.board, mv)
    }

    fn to_notation(&self) -> String {
        notation::write(&self.setup())
    }

    fn from_notation(text: &str) -> Result<Self> {
        notation::read(text)
    }
}

crate::cells::hex_cells!(Rive);

fn zobrist_keys() -> &'static [u64; 257 + 128 + 32] {
    crate::rng::zobrist_keys()
}
