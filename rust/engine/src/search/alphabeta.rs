//! The recursive search: fail-soft negamax with principal variation search, the transposition
//! table, and the ordering heuristics. One `Worker` per thread; what the threads share (the
//! table, the stop, the node count) is in `Context`.

use super::ordering::Ordering;
use super::table::{Bound, Entry, Table, SOLVED};
use super::{for_chooser, Endgame, Evaluate, Searchable, SCALE};
use crate::error::Result;
use crate::interrupt::Stop;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU32, AtomicU64, Ordering::Relaxed};

/// Larger than every score.
pub const INFINITY: i32 = 1 << 28;
/// Beyond every evaluation's reach (a window this far out is about won or lost games, which
/// Multi-ProbCut does not judge).
const SOLVED_BOUND: i32 = 1 << 24;
/// Plies to go from which a node orders its moves by evaluating each child.
const EVALUATED_ORDERING_DEPTH: i32 = 3;
/// How many children the ordering evaluates between two looks at the stop.
const ORDERING_CHECK: usize = 32;
/// Local nodes counted between two additions to the shared count.
const NODE_BATCH: u64 = 1024;
/// Multi-ProbCut (Buro): the shallowest search it cuts, and how many standard deviations of
/// the evaluation's error a shallow search must clear to stand for the deep one (1.5: Buro's
/// choice for Othello, not tuned here).
const PROBCUT_MIN_DEPTH: i32 = 4;
const PROBCUT_T: f32 = 1.5;

/// The depth of the shallow search that predicts a `depth`-ply one.
#[inline(always)]
pub fn probcut_depth(depth: i32) -> i32 {
    (depth - 2 - depth / 3).max(1)
}

/// What every thread of one search shares.
pub struct Context<'a, E> {
    pub table: &'a Table,
    pub stop: &'a Stop<'a>,
    pub evaluator: &'a E,
    /// The whole search is an exact solve: hand the game's endgame solver all it can take.
    pub solving: bool,
    /// Amplitude, in hundredths of a point, of the noise added to evaluations (weaker levels).
    pub noise: i32,
    pub seed: u64,
    /// The counts this search keeps as it goes (its nodes; what progress reports read).
    pub tally: &'a Tally,
    pub node_limit: u64,
    /// When the time limit passes, if there is one: the search looks at the clock itself every
    /// `NODE_BATCH` nodes, so that a timer thread woken late (a loaded machine) does not make
    /// the search late too.
    pub deadline: Option<std::time::Instant>,
    /// A limit (nodes or time), not the caller, ended the search.
    pub limit_reached: AtomicBool,
}

/// What a search has done so far: its node count, and what a caller's progress reports read
/// (on the caller's thread, while the search runs: docs/engine.md, "Progress").
#[derive(Default)]
pub struct Tally {
    /// Nodes searched, added up every `NODE_BATCH` nodes of each thread.
    pub nodes: AtomicU64,
    /// Nodes of the endgame solves, added as they go (for reports only: the answer counts each
    /// solver's own total).
    pub endgame_nodes: AtomicU64,
    /// The iteration under way.
    pub depth: AtomicU32,
    /// The best root value proved in this iteration's full-window search, when `bounded`.
    pub lower_bound: AtomicI32,
    pub bounded: AtomicBool,
    /// The deepest completed iteration's score, when `scored`.
    pub score: AtomicI32,
    pub scored: AtomicBool,
}

impl Tally {
    /// A root move proved worth `value` in a full-window iteration.
    pub fn raise_bound(&self, value: i32) {
        if !self.bounded.load(Relaxed) || value > self.lower_bound.load(Relaxed) {
            self.lower_bound.store(value, Relaxed);
            self.bounded.store(true, Relaxed);
        }
    }
}

impl<E> Context<'_, E> {
    pub fn reach_limit(&self) {
        self.limit_reached.store(true, Relaxed);
        self.stop.request();
    }
}

pub struct Worker<'a, P: Searchable, E> {
    pub cx: &'a Context<'a, E>,
    pub endgame: P::Endgame,
    ordering: Ordering<P::Move>,
    /// Nodes not yet added to the shared count.
    unreported: u64,
    /// An evaluation (or a depth-limited table entry) was used since this was last cleared: the
    /// value found is an estimate, not exact.
    pub horizon: bool,
}

/// `alpha / SCALE` rounded down and `beta / SCALE` rounded up: the window in points that
/// contains every whole-point value inside `(alpha, beta)`.
fn window_in_points(alpha: i32, beta: i32) -> (i32, i32) {
    (alpha.div_euclid(SCALE), -(-beta).div_euclid(SCALE))
}

impl<'a, P: Searchable, E: Evaluate<P>> Worker<'a, P, E> {
    pub fn new(cx: &'a Context<'a, E>) -> Self {
        Worker { cx, endgame: P::Endgame::new(), ordering: Ordering::new(), unreported: 0, horizon: false }
    }

    /// Adds this worker's remaining nodes to the shared count.
    pub fn flush_nodes(&mut self) {
        self.cx.tally.nodes.fetch_add(self.unreported, Relaxed);
        self.unreported = 0;
    }

    #[inline(always)]
    fn count_node(&mut self) -> Result<()> {
        self.unreported += 1;
        if self.unreported == NODE_BATCH {
            let total = self.cx.tally.nodes.fetch_add(NODE_BATCH, Relaxed) + NODE_BATCH;
            self.unreported = 0;
            if total >= self.cx.node_limit || self.cx.deadline.is_some_and(|d| std::time::Instant::now() >= d) {
                self.cx.reach_limit();
            }
        }
        self.cx.stop.checkpoint()
    }

    /// The evaluation, with this search's noise (the same for a position wherever it is met).
    pub fn evaluate(&self, position: &P) -> i32 {
        let value = self.cx.evaluator.evaluate(position);
        if self.cx.noise == 0 {
            return value;
        }
        let draw = crate::rng::SplitMix64::new(position.zobrist() ^ self.cx.seed).next_u64();
        let span = 2 * self.cx.noise as u64 + 1;
        value + (draw % span) as i32 - self.cx.noise
    }

    /// The value of `child` for the player who moved into it.
    pub fn child_value(
        &mut self,
        child: &P,
        again: bool,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Result<i32> {
        if again {
            self.search(child, depth, alpha, beta, ply)
        } else {
            Ok(-self.search(child, depth, -beta, -alpha, ply)?)
        }
    }

    /// The value of `position` for its side to move if it lies inside `(alpha, beta)`, else a
    /// bound on the right side of the window; `depth` plies to go before evaluating.
    pub fn search(&mut self, position: &P, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> Result<i32> {
        self.count_node()?;
        if self.endgame.takes(position, self.cx.solving) {
            let (low, high) = window_in_points(alpha, beta);
            let evaluation = self.cx.evaluator.orders_solves().then_some(self.cx.evaluator as &dyn Evaluate<P>);
            let (stop, seen) = (self.cx.stop, &self.cx.tally.endgame_nodes);
            return Ok(SCALE * self.endgame.solve(position, low, high, stop, seen, evaluation)?);
        }
        if depth <= 0 {
            // Before listing the moves: a leaf needs only whether the game is over, which a
            // huge move list (a Strands turn) answers without being built.
            if position.is_over() {
                return Ok(SCALE * position.final_margin());
            }
            self.horizon = true;
            return Ok(self.evaluate(position));
        }
        let moves = position.list_moves(self.cx.stop)?;
        if moves.is_empty() {
            return Ok(SCALE * position.final_margin());
        }
        let key = position.zobrist();
        let entry = self.cx.table.probe(key);
        if let Some(found) = entry.filter(|e| e.depth == SOLVED || i32::from(e.depth) >= depth) {
            let decides = match found.bound {
                Bound::Exact => true,
                Bound::Lower => found.score >= beta,
                Bound::Upper => found.score <= alpha,
            };
            if decides {
                self.horizon |= found.depth != SOLVED;
                return Ok(found.score);
            }
        }
        if let Some(value) = self.probcut(position, depth, alpha, beta, ply)? {
            return Ok(value);
        }
        let order = self.order(position, &moves, entry.and_then(|e| e.best), depth, ply);

        let (alpha_in, side) = (alpha, position.to_move() as usize);
        let outer_horizon = std::mem::replace(&mut self.horizon, false);
        let (mut best, mut best_index) = (-INFINITY, None);
        for (n, &index) in order.iter().enumerate() {
            let mut child = position.clone();
            child.play_unchecked(moves[index]);
            let again = child.to_move() == position.to_move();
            let value = if n == 0 {
                self.child_value(&child, again, depth - 1, alpha, beta, ply + 1)?
            } else {
                let probe = self.child_value(&child, again, depth - 1, alpha, alpha + 1, ply + 1)?;
                if probe > alpha && probe < beta {
                    self.child_value(&child, again, depth - 1, probe, beta, ply + 1)?
                } else {
                    probe
                }
            };
            if value > best {
                (best, best_index) = (value, Some(index));
                alpha = alpha.max(value);
                if alpha >= beta {
                    self.ordering.reward(ply, side, moves[index], depth);
                    break;
                }
            }
        }
        let exact = !self.horizon;
        self.horizon |= outer_horizon;
        let bound = if best <= alpha_in {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let depth = if exact { SOLVED } else { depth.min(i32::from(SOLVED) - 1) as u8 };
        self.cx.table.store(key, Entry { score: best, depth, bound, best: best_index.map(|i| i as u32) });
        Ok(best)
    }

    /// Multi-ProbCut at a null-window node: when a shallow search says, with the evaluation's
    /// fitted error, that the deep one would fail high (or low), its bound stands for it. Not in
    /// a solve (whose values must be exact) and not where the evaluation has no fitted error.
    fn probcut(&mut self, position: &P, depth: i32, alpha: i32, beta: i32, ply: usize) -> Result<Option<i32>> {
        if self.cx.solving || depth < PROBCUT_MIN_DEPTH || beta - alpha != 1 || beta.abs() >= SOLVED_BOUND {
            return Ok(None);
        }
        let Some(sigma) = self.cx.evaluator.probcut_sigma(position, depth) else { return Ok(None) };
        let margin = (PROBCUT_T * sigma as f32) as i32;
        let shallow = probcut_depth(depth);
        let high = beta + margin;
        if self.search(position, shallow, high - 1, high, ply)? >= high {
            self.horizon = true;
            return Ok(Some(beta));
        }
        let low = alpha - margin;
        if self.search(position, shallow, low, low + 1, ply)? <= low {
            self.horizon = true;
            return Ok(Some(alpha));
        }
        Ok(None)
    }

    /// The indices of `moves` in the order to try them.
    pub fn order(
        &self,
        position: &P,
        moves: &[P::Move],
        table_move: Option<u32>,
        depth: i32,
        ply: usize,
    ) -> Vec<usize> {
        let side = position.to_move() as usize;
        let mut evaluate_children = depth >= EVALUATED_ORDERING_DEPTH && moves.len() > 1;
        let mut keyed: Vec<(i64, usize)> = moves
            .iter()
            .enumerate()
            .map(|(i, &mv)| {
                // Evaluating thousands of children (a Strands turn on hex7) took 11 ms between
                // two checkpoints: once the stop is requested the rest are keyed by history
                // alone, and the search stops at its next checkpoint (issue 36).
                if evaluate_children && i % ORDERING_CHECK == ORDERING_CHECK - 1 && self.cx.stop.checkpoint().is_err() {
                    evaluate_children = false;
                }
                let key = if table_move == Some(i as u32) {
                    i64::MAX
                } else if let Some(slot) = self.ordering.is_killer(ply, mv) {
                    i64::MAX / 2 - slot as i64
                } else if evaluate_children {
                    let mut child = position.clone();
                    child.play_unchecked(mv);
                    let again = child.to_move() == position.to_move();
                    let value = if child.is_over() { SCALE * child.final_margin() } else { self.evaluate(&child) };
                    (i64::from(for_chooser(again, value)) << 20) + i64::from(self.ordering.history(side, &mv))
                } else {
                    i64::from(self.ordering.history(side, &mv))
                };
                (key, i)
            })
            .collect();
        // Stable: equal keys keep the game's move order, so searches are reproducible.
        keyed.sort_by_key(|&(key, _)| std::cmp::Reverse(key));
        keyed.into_iter().map(|(_, i)| i).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Position;
    use crate::reversi::Reversi;
    use crate::search::{analyse, Limits, Material};

    /// The piece count, claiming a fitted error of `sigma` hundredths for Multi-ProbCut.
    struct Selective(Option<i32>);

    impl Evaluate<Reversi> for Selective {
        fn evaluate(&self, position: &Reversi) -> i32 {
            Material.evaluate(position)
        }
        fn probcut_sigma(&self, _: &Reversi, _: i32) -> Option<i32> {
            self.0
        }
    }

    #[test]
    fn probcut_prunes_where_the_evaluation_has_a_fitted_error_and_never_in_a_solve() {
        let root =
            Reversi::from_notation("8 ......../......../..bbb.../...wb.../...bw.../......../......../........ w")
                .unwrap();
        let limits = Limits { depth: Some(7), ..Limits::default() };
        let full = analyse(&root, &Selective(None), &limits, Stop::never()).unwrap();
        let cut = analyse(&root, &Selective(Some(2 * SCALE)), &limits, Stop::never()).unwrap();
        assert!(cut.nodes < full.nodes, "{} vs {}", cut.nodes, full.nodes);
        assert!(root.why_illegal(cut.best).is_none());
        // A solve stays exact: the same value with and without the cut.
        let small = Reversi::from_notation("4 ..../.wb./.bw./.... b").unwrap();
        let solve = Limits { solve: true, ..Limits::default() };
        let exact = analyse(&small, &Selective(None), &solve, Stop::never()).unwrap();
        let selective = analyse(&small, &Selective(Some(SCALE)), &solve, Stop::never()).unwrap();
        assert_eq!((exact.score, exact.exact), (selective.score, selective.exact));
    }
}
