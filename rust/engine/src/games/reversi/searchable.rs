//! What Reversi gives the search (`search::Searchable`): its margin, and its endgame solver
//! (`endgame.rs`) behind the search's hook (docs/engine.md, "Scores" and "The exact solver").

use super::{EndgameSolver, Reversi};
use crate::error::Result;
use crate::interrupt::Stop;
use crate::search::{count_difference, Endgame, Evaluate, Searchable, SCALE};
use std::sync::atomic::AtomicU64;

impl Searchable for Reversi {
    type Endgame = ReversiEndgame;

    /// The final disc difference with the empty squares counted for the winner (the published
    /// endgame suites' convention; holes are not squares).
    fn final_margin(&self) -> i32 {
        Reversi::final_margin(self)
    }

    fn material(&self) -> i32 {
        SCALE * count_difference(self)
    }
}

/// Empties from which a search that is not a solve hands Reversi positions to the endgame
/// solver: a null-window solve of 12 empties costs a few thousand nodes, less than the
/// evaluated search it replaces (docs/engine.md).
pub const REVERSI_ENDGAME_EMPTIES: u32 = 12;

/// The empties at which the estimate before a solve stops (`Endgame::estimate_depth`): two
/// above `REVERSI_ENDGAME_EMPTIES`, so that it does not solve. On FForum 20-39 it costs 143,000
/// nodes in all and puts a best move first in 14 of the 20 problems (FForum 38's, an
/// X-square, among them: its static ordering solved two worse moves first, for 38 M nodes).
const ESTIMATE_EMPTIES: u32 = REVERSI_ENDGAME_EMPTIES + 2;

/// The deepest estimate before a solve: 10 plies cost FForum 40-49 no more nodes than an
/// unbounded estimate, and a few milliseconds anywhere.
const ESTIMATE_MAX_DEPTH: u32 = 10;

/// Reversi's endgame solver (reversi/endgame.rs) behind the search's hook: it takes every
/// position of a solve, and the positions of `REVERSI_ENDGAME_EMPTIES` or fewer empties of
/// any search. Its table is allocated at its first solve.
pub struct ReversiEndgame(Option<EndgameSolver>);

/// 2**20 entries of the solver's table per search thread (24 MB on 8x8).
const ENDGAME_TABLE_BITS: u32 = 20;

impl Endgame<Reversi> for ReversiEndgame {
    fn new() -> Self {
        ReversiEndgame(None)
    }

    fn takes(&self, position: &Reversi, solving: bool) -> bool {
        solving || position.empties() <= REVERSI_ENDGAME_EMPTIES
    }

    fn solve(
        &mut self,
        position: &Reversi,
        alpha: i32,
        beta: i32,
        stop: &Stop,
        seen: &AtomicU64,
        evaluation: Option<&dyn Evaluate<Reversi>>,
    ) -> Result<i32> {
        // A table for the positions this search can meet: small boards never need 2**20.
        let bits = (position.empties() + 8).min(ENDGAME_TABLE_BITS);
        let solver = self.0.get_or_insert_with(|| EndgameSolver::new(bits));
        solver.solve_reporting(position, alpha, beta, stop, seen, evaluation)
    }

    fn nodes(&self) -> u64 {
        self.0.as_ref().map_or(0, EndgameSolver::nodes)
    }

    /// Down to `ESTIMATE_EMPTIES`, and no deeper than `ESTIMATE_MAX_DEPTH`: deeper, the
    /// estimate's leaves reach the solver and it costs millions of nodes, and far from the end
    /// (a solve from the start) it would be a long search of its own.
    fn estimate_depth(position: &Reversi) -> Option<u32> {
        position
            .empties()
            .checked_sub(ESTIMATE_EMPTIES)
            .filter(|&depth| depth >= 2)
            .map(|depth| depth.min(ESTIMATE_MAX_DEPTH))
    }

    fn best_move(&self, position: &Reversi) -> Option<crate::reversi::Move> {
        self.0.as_ref()?.best_move(position)
    }
}
