//! The transposition table: one table shared by every thread of a search, without locks.
//!
//! Each slot is two atomic words, the key XOR the data and the data (Hyatt and Mann's lockless
//! hashing): a slot torn by two threads writing at once fails its key check and reads as empty,
//! so a thread never trusts a half-written entry. Buckets hold two slots: the first keeps the
//! deepest entry seen, the second always takes the newest (Stockfish's "depth-preferred plus
//! always-replace" in its simplest form).

use crate::error::Result;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// A bucket: two slots of two 8-byte words.
const BUCKET_BYTES: usize = 32;

/// The largest power of two at most `n` (`n` at least 1).
fn prev_power_of_two(n: usize) -> usize {
    1 << (usize::BITS - 1 - n.leading_zeros())
}

/// What an entry's score says about the true value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// The value is at least the score (the search failed high).
    Lower,
    /// The value is at most the score (the search failed low).
    Upper,
    /// The value is the score.
    Exact,
}

/// The depth written for an entry whose subtree reached only finished games (or the game's own
/// endgame solver): its bounds hold at every depth, and a search that uses it stays exact.
pub const SOLVED: u8 = u8::MAX;

/// Move indices (into the position's `legal_moves`, in the documented order) up to this fit.
const NO_MOVE: u32 = (1 << 22) - 1;

/// One entry, as read back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    pub score: i32,
    pub depth: u8,
    pub bound: Bound,
    /// The best move found, as its index in `legal_moves`.
    pub best: Option<u32>,
}

impl Entry {
    fn pack(self) -> u64 {
        let bound = match self.bound {
            Bound::Lower => 1u64,
            Bound::Upper => 2,
            Bound::Exact => 3,
        };
        let best = u64::from(self.best.filter(|&i| i < NO_MOVE).unwrap_or(NO_MOVE));
        (self.score as u32 as u64) | (u64::from(self.depth) << 32) | (bound << 40) | (best << 42)
    }

    fn unpack(word: u64) -> Option<Entry> {
        let bound = match (word >> 40) & 3 {
            1 => Bound::Lower,
            2 => Bound::Upper,
            3 => Bound::Exact,
            _ => return None,
        };
        let best = ((word >> 42) as u32) & NO_MOVE;
        Some(Entry {
            score: word as u32 as i32,
            depth: (word >> 32) as u8,
            bound,
            best: (best != NO_MOVE).then_some(best),
        })
    }
}

pub struct Table {
    /// `2 * buckets` slots of (key ^ data, data).
    slots: Vec<[AtomicU64; 2]>,
    mask: usize,
}

impl Table {
    /// The largest table that fits in `bytes`: a power of two of 32-byte buckets, at least
    /// 1,024 (so a power-of-two size in MiB is exactly the size asked for). Its memory is zeroed
    /// memory that the system hands out as the search touches it, so a large table costs
    /// nothing until it is used: a search of a small position does not pay for clearing 64 MB.
    /// `TooLarge` (naming the sizes and the machine's memory) when the system cannot give it.
    pub fn with_bytes(bytes: usize) -> Result<Table> {
        let buckets = prev_power_of_two((bytes / BUCKET_BYTES).max(1024));
        let asked = crate::memory::shown(bytes as u64);
        // SAFETY: zero is a valid AtomicU64 (it has the size and bit validity of u64).
        let slots = unsafe { crate::memory::try_zeroed(2 * buckets, "the transposition table", &asked) }?;
        Ok(Table { slots, mask: buckets - 1 })
    }

    /// The table's size in bytes.
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<[AtomicU64; 2]>()
    }

    fn bucket(&self, key: u64) -> usize {
        2 * ((key as usize) & self.mask)
    }

    fn read(&self, slot: usize, key: u64) -> Option<Entry> {
        let [check, data] = &self.slots[slot];
        let data = data.load(Relaxed);
        (check.load(Relaxed) ^ data == key).then(|| Entry::unpack(data)).flatten()
    }

    fn write(&self, slot: usize, key: u64, entry: Entry) {
        let data = entry.pack();
        self.slots[slot][0].store(key ^ data, Relaxed);
        self.slots[slot][1].store(data, Relaxed);
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        let first = self.bucket(key);
        self.read(first, key).or_else(|| self.read(first + 1, key))
    }

    pub fn store(&self, key: u64, entry: Entry) {
        let first = self.bucket(key);
        let same_key = self.read(first, key).is_some();
        let resident = Entry::unpack(self.slots[first][1].load(Relaxed));
        if same_key || resident.is_none_or(|old| old.depth <= entry.depth) {
            self.write(first, key, entry);
        } else {
            self.write(first + 1, key, entry);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_through_their_packing() {
        for entry in [
            Entry { score: -12_345, depth: 7, bound: Bound::Upper, best: Some(3) },
            Entry { score: 6_400, depth: SOLVED, bound: Bound::Exact, best: None },
            Entry { score: 0, depth: 0, bound: Bound::Lower, best: Some(NO_MOVE - 1) },
        ] {
            assert_eq!(Entry::unpack(entry.pack()), Some(entry));
        }
    }

    #[test]
    fn a_power_of_two_size_is_the_size_given() {
        assert_eq!(Table::with_bytes(64 << 20).unwrap().bytes(), 64 << 20);
        assert_eq!(Table::with_bytes((64 << 20) + 1).unwrap().bytes(), 64 << 20);
        assert_eq!(Table::with_bytes((128 << 20) - 1).unwrap().bytes(), 64 << 20);
        assert_eq!(Table::with_bytes(1).unwrap().bytes(), 1024 * BUCKET_BYTES);
    }

    #[test]
    fn a_table_past_the_machine_is_too_large() {
        let Some(machine) = crate::memory::physical_bytes() else { return };
        let past = (2 * machine).next_power_of_two() as usize;
        assert!(matches!(Table::with_bytes(past), Err(crate::Error::TooLarge(_))));
    }

    #[test]
    fn a_deep_entry_is_kept_when_a_shallow_one_of_another_key_arrives() {
        let table = Table::with_bytes(1 << 15).unwrap();
        let deep = Entry { score: 5, depth: 9, bound: Bound::Exact, best: Some(1) };
        let shallow = Entry { score: -5, depth: 1, bound: Bound::Lower, best: None };
        let other = 1 + (table.mask as u64 + 1); // same bucket, another key
        table.store(1, deep);
        table.store(other, shallow);
        assert_eq!(table.probe(1), Some(deep));
        assert_eq!(table.probe(other), Some(shallow));
        assert_eq!(table.probe(2), None);
    }
}
