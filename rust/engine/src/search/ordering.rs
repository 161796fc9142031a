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
    let mut hasher = MoveHasher(0);
    mv.hash(&mut hasher);
    side * HISTORY_SLOTS + (hasher.finish() as usize & (HISTORY_SLOTS - 1))
}

/// FxHash (rustc's): a rotate, a xor and a multiply a word. The standard library's SipHash
/// took 7% of a Reversi search's time here, hashing each child's move for its history; slots
/// need a spread, not resistance to an adversary. An odd multiplier keeps distinct small
/// words (a square) distinct in the low bits the slot reads.
struct MoveHasher(u64);

impl MoveHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for MoveHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }
    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }
    fn write_u16(&mut self, n: u16) {
        self.add(u64::from(n));
    }
    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }
    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Position;
    use crate::reversi::Reversi;

    #[test]
    fn the_moves_of_a_position_get_history_slots_of_their_own() {
        // Every square of a 10x10 board, as a move of its own, lands in a slot no other takes.
        let slots: std::collections::HashSet<usize> = (0u16..100).map(|square| slot(0, &square)).collect();
        assert_eq!(slots.len(), 100);
        let position =
            Reversi::from_notation("8 ......../......../..bw..../..bbbw../..wwwb../...b..../......../........ w")
                .unwrap();
        let moves: Vec<_> = position.legal_moves().collect();
        let slots: std::collections::HashSet<usize> = moves.iter().map(|mv| slot(1, mv)).collect();
        assert_eq!(slots.len(), moves.len());
        assert!(slots.iter().all(|&s| (HISTORY_SLOTS..2 * HISTORY_SLOTS).contains(&s)));
    }
}
