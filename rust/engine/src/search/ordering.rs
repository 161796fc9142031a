//! Move ordering: the heuristics that make alpha-beta cut early. A node tries the table's move
//! first, then its ply's killers (moves that refuted a sibling), then the rest by history (how
//! often a move caused a cut anywhere, weighted by depth) and, where enough depth remains to
//! pay for it, by the evaluation of the position each move leads to.

use std::hash::{Hash, Hasher};

/// Plies of killers kept (deeper plies share the last slot).
const MAX_PLY: usize = 256;
/// History slots per side (moves are hashed into them).
const HISTORY_SLOTS: usize = 1 << 12;

pub struct Ordering<M> {
    killers: Vec<[Option<M>; 2]>,
    history: Vec<i32>,
}

/// A move's history slot: moves of any game hash to one of `HISTORY_SLOTS` per side.
fn slot<M: Hash>(side: usize, mv: &M) -> usize {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    mv.hash(&mut hasher);
    side * HISTORY_SLOTS + (hasher.finish() as usize & (HISTORY_SLOTS - 1))
}

impl<M: Copy + Eq + Hash> Ordering<M> {
    pub fn new() -> Self {
        Ordering { killers: vec![[None, None]; MAX_PLY], history: vec![0; 2 * HISTORY_SLOTS] }
    }

    pub fn is_killer(&self, ply: usize, mv: M) -> Option<usize> {
        self.killers[ply.min(MAX_PLY - 1)].iter().position(|k| *k == Some(mv))
    }

    pub fn history(&self, side: usize, mv: &M) -> i32 {
        self.history[slot(side, mv)]
    }

    /// `mv` caused a cut at `ply` with `depth` plies to go.
    pub fn reward(&mut self, ply: usize, side: usize, mv: M, depth: i32) {
        let killers = &mut self.killers[ply.min(MAX_PLY - 1)];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        let entry = &mut self.history[slot(side, &mv)];
        *entry += depth * depth;
        if *entry > 1 << 20 {
            // Age every entry so that recent cuts count more than old ones.
            self.history.iter_mut().for_each(|h| *h /= 2);
        }
    }
}
