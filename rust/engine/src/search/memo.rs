//! The exact value of every position reachable from the one asked, each computed once: the
//! endgame solver of games whose small boards have too long a game for alpha-beta.
//!
//! Rive on hex3 has 19 cells, but a game on it can last thousands of plies (captures empty
//! cells again; docs/ai_openspiel.md proves the bound): alpha-beta meets the same positions
//! along endless orders and its table cannot hold them, so a solve from seven stones did not
//! finish in 100 s. The positions themselves are few: at most 3**19 boards, two sides to move.
//! So this solver gives each position a byte in one dense table (its value plus an offset, 0 for
//! "not yet"), and finds values by a depth-first walk without pruning that stores every value
//! it computes. The game's graph has no cycles (every Rive placement makes the sorted group
//! sizes grow), so each value is the best child's once its children are known: the walk is a
//! retrograde analysis driven from the root, touching only what the root can reach.
//!
//! The walk keeps its own stack, not the thread's: a line can be thousands of plies deep.

use super::{for_chooser, Endgame, Searchable};
use crate::error::Result;
use crate::interrupt::Stop;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// A game whose positions on small boards have a dense index.
pub trait DenseKey: Searchable {
    /// `(index, states)`: this position's index below `states`, the number of indices its
    /// board and variant can have; `None` where the table would be too large (or the position
    /// is not of a form the index covers).
    fn dense_key(&self) -> Option<(u64, u64)>;
}

/// A value the table stores: the margin plus this, so that 0 means "not yet known".
const OFFSET: i32 = 128;

/// The solver: one dense table of values, allocated at the first solve (as zeroed memory that
/// the system hands out as it is touched).
pub struct Memo {
    values: Vec<u8>,
    nodes: u64,
}

/// One position on the walk's stack.
struct Frame<P: Searchable> {
    position: P,
    index: u64,
    moves: Vec<P::Move>,
    next: usize,
    best: i32,
    /// Its mover moved into it again (a Rive capture): its value is the parent's as it is.
    again: bool,
}

impl Memo {
    fn known(&self, index: u64) -> Option<i32> {
        let stored = self.values[index as usize];
        (stored != 0).then(|| i32::from(stored) - OFFSET)
    }

    fn frame<P: DenseKey>(&mut self, position: P, index: u64, again: bool, stop: &Stop) -> Result<Frame<P>> {
        self.nodes += 1;
        let moves = position.list_moves(stop)?;
        Ok(Frame { position, index, moves, next: 0, best: i32::MIN, again })
    }

    /// The exact final margin of `root` for its side to move.
    fn value<P: DenseKey>(&mut self, root: &P, stop: &Stop) -> Result<i32> {
        if root.is_over() {
            return Ok(root.final_margin());
        }
        let (index, states) = root.dense_key().expect("takes() checked the key");
        if self.values.len() as u64 != states {
            let asked = format!("{states} positions, one byte each");
            // SAFETY: zero is a valid u8.
            self.values = unsafe { crate::memory::try_zeroed(states as usize, "the dense endgame memo", &asked) }?;
        }
        if let Some(value) = self.known(index) {
            return Ok(value);
        }
        let mut stack = vec![self.frame(root.clone(), index, false, stop)?];
        loop {
            let top = stack.last_mut().expect("the walk ends when the root is done");
            if top.next == top.moves.len() {
                let done = stack.pop().expect("a frame");
                self.values[done.index as usize] = (done.best + OFFSET) as u8;
                match stack.last_mut() {
                    Some(parent) => parent.best = parent.best.max(for_chooser(done.again, done.best)),
                    None => return Ok(done.best),
                }
                continue;
            }
            let mut child = top.position.clone();
            child.play_unchecked(top.moves[top.next]);
            top.next += 1;
            let again = child.to_move() == top.position.to_move();
            if child.is_over() {
                top.best = top.best.max(for_chooser(again, child.final_margin()));
                continue;
            }
            let (index, _) = child.dense_key().expect("a child keeps its board and form");
            if let Some(value) = self.known(index) {
                top.best = top.best.max(for_chooser(again, value));
                continue;
            }
            stop.checkpoint()?;
            let frame = self.frame(child, index, again, stop)?;
            stack.push(frame);
        }
    }
}

impl Drop for Memo {
    /// A memo of gigabytes is taken back by the system off the caller's time.
    fn drop(&mut self) {
        let values = std::mem::take(&mut self.values);
        let bytes = values.len();
        crate::memory::free_in_background(values, bytes);
    }
}

impl<P: DenseKey> Endgame<P> for Memo {
    fn new() -> Self {
        Memo { values: Vec::new(), nodes: 0 }
    }

    /// Every position of a solve whose board has a dense index.
    fn takes(&self, position: &P, solving: bool) -> bool {
        solving && position.dense_key().is_some()
    }

    /// The exact value, whatever the window (exact is within every bound).
    fn solve(
        &mut self,
        position: &P,
        _alpha: i32,
        _beta: i32,
        stop: &Stop,
        seen: &AtomicU64,
        _evaluation: Option<&dyn super::Evaluate<P>>,
    ) -> Result<i32> {
        let before = self.nodes;
        let value = self.value(position, stop);
        seen.fetch_add(self.nodes - before, Relaxed);
        value
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }
}
