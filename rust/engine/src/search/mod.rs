//! Alpha-beta search and the exact solver, written once over [`Position`] for every game.
//!
//! The shape is Stockfish's: iterative deepening at the root (`root.rs`), one recursive
//! negamax with principal variation search below it (`alphabeta.rs`), a shared lockless
//! transposition table (`table.rs`) and the ordering heuristics (`ordering.rs`: table move,
//! killers, history, and the evaluation of each child where the remaining depth pays for it).
//! A game plugs in three things through [`Searchable`]: how a finished game is scored (its
//! margin), a cheap static estimate, and optionally its own endgame solver (Reversi's, in
//! `reversi/endgame.rs`; the dense memo of `memo.rs` for Rive's small boards), which takes over
//! the positions it can solve exactly, as Edax's endgame search takes over from its midgame
//! search.
//!
//! Scores are margins in hundredths of a point for the side to move (`SCALE` per point): a
//! finished game is worth exactly `SCALE * final_margin()`, and evaluations estimate the same
//! quantity, so a search mixing the two compares like with like. A search is *exact* when every
//! leaf it used was a finished game or an endgame solve, never an evaluation: that is how
//! `analyse` turns into `solve` when the end is within reach.

mod alphabeta;
pub mod eval;
pub mod label;
mod memo;
mod ordering;
mod root;
pub mod table;
pub mod tuples;

pub use memo::{DenseKey, Memo};
pub use root::{
    analyse, analyse_in_table, analyse_reporting, Analysis, Iteration, Limits, Progress, Report, Threading, MAX_DEPTH,
    REPORT_INTERVAL,
};

use crate::error::Result;
use crate::game::{Player, Position};
use crate::interrupt::Stop;
use std::sync::atomic::AtomicU64;

/// Hundredths of a point: the unit of every score the search handles.
pub const SCALE: i32 = 100;

/// What a game adds to [`Position`] for the search.
pub trait Searchable: Position<Move: std::hash::Hash> + 'static {
    /// The game's own endgame solver, or [`NoEndgame`].
    type Endgame: Endgame<Self>;

    /// The margin of a finished game for its side to move, in points: positive exactly when the
    /// side to move has won, zero for a draw (each game documents its margin).
    fn final_margin(&self) -> i32;

    /// A cheap estimate of the final margin for the side to move, in hundredths of a point: the
    /// evaluation used when no learned one is given.
    fn material(&self) -> i32;

    /// A legal move found at once, without listing or counting the moves (`None` when the game
    /// is over): what a time-limited search plays when its limit comes before the root's moves
    /// are listed, or when they are too many to list, since a live game always gets a move.
    /// The first of `legal_moves` unless a game's first move can take long to find.
    fn quick_move(&self, stop: &Stop) -> Result<Option<Self::Move>> {
        stop.check()?;
        Ok(self.legal_moves().next())
    }
}

/// A game's own exact solver for the positions it can finish quickly (Reversi's last empties).
/// One per search thread: it may keep tables of its own.
pub trait Endgame<P>: Send {
    fn new() -> Self;

    /// Whether this position is for the solver: `solving` is true when the whole search is an
    /// exact solve (then anything the solver can handle should go to it).
    fn takes(&self, position: &P, solving: bool) -> bool;

    /// The exact final margin in points if it lies strictly inside `(alpha, beta)`, else a bound
    /// on the right side of the window (fail-soft). The nodes it visits are added to `seen`, as
    /// it goes where a solve can be long, for the search's progress reports. `evaluation`, when
    /// given, is the search's learned evaluation, for ordering the solver's moves.
    fn solve(
        &mut self,
        position: &P,
        alpha: i32,
        beta: i32,
        stop: &Stop,
        seen: &AtomicU64,
        evaluation: Option<&dyn Evaluate<P>>,
    ) -> Result<i32>;

    /// Positions visited so far.
    fn nodes(&self) -> u64;

    /// The depth of a search that orders the root of a solve of `position` without a time
    /// limit, with an evaluation that orders solves: its table puts the likely best move first,
    /// which the static ordering of the root's children often does not. `None` (the default)
    /// solves at once: with the piece count, shallower iterations cost more than their
    /// ordering saves (measured on Strands and Cephalopod).
    fn estimate_depth(_position: &P) -> Option<u32> {
        None
    }

    /// The best move the solver's own tables remember for `position`, if any: what a line of
    /// perfect play tries first below the root, where the search's table holds nothing.
    fn best_move(&self, _position: &P) -> Option<P::Move>
    where
        P: Position,
    {
        None
    }
}

/// For games without an endgame solver of their own: the generic search solves them.
pub struct NoEndgame;

impl<P> Endgame<P> for NoEndgame {
    fn new() -> Self {
        NoEndgame
    }
    fn takes(&self, _: &P, _: bool) -> bool {
        false
    }
    fn solve(&mut self, _: &P, _: i32, _: i32, _: &Stop, _: &AtomicU64, _: Option<&dyn Evaluate<P>>) -> Result<i32> {
        unreachable!("NoEndgame takes no position")
    }
    fn nodes(&self) -> u64 {
        0
    }
}

/// A static evaluation: the estimated final margin for the side to move, in hundredths of a
/// point, of a position that is not finished.
pub trait Evaluate<P>: Sync {
    fn evaluate(&self, position: &P) -> i32;

    /// Multi-ProbCut's error model for this evaluation (alphabeta.rs, "selective search"): the
    /// standard deviation, in hundredths of a point, of a `depth`-ply search's value around the
    /// value of the shallow search that predicts it, when it was fitted for positions like this
    /// one; `None` (the default) searches every move in full.
    fn probcut_sigma(&self, _position: &P, _depth: i32) -> Option<i32> {
        None
    }

    /// Whether an exact solver should order its moves by this evaluation: a learned one orders
    /// better than the solver's own rough estimate; the piece count (the default) does not.
    fn orders_solves(&self) -> bool {
        false
    }
}

/// The game's own cheap estimate ([`Searchable::material`]).
pub struct Material;

impl<P: Searchable> Evaluate<P> for Material {
    fn evaluate(&self, position: &P) -> i32 {
        position.material()
    }
}

/// The value of a child for the player who chose it: the same when that player moves again
/// (a Rive capture, a Strands turn never does), negated otherwise.
#[inline(always)]
pub(crate) fn for_chooser(chooser_moves_again: bool, value: i32) -> i32 {
    if chooser_moves_again {
        value
    } else {
        -value
    }
}

/// Black's count minus White's, from the side to move's view, for the games won by the larger
/// count of `score()` (Outcome::by_count): Cephalopod's dice, Rive's stones.
pub fn count_difference<P: Position>(position: &P) -> i32 {
    let (black, white) = position.score();
    let difference = black as i32 - white as i32;
    match position.to_move() {
        Player::Black => difference,
        Player::White => -difference,
    }
}
