//! A flat open-addressing hash table from `u64` keys to small `Copy` values: what the hot loops
//! of path counting merge positions in.
//!
//! Why not `std::collections::HashMap`: counting layers inserts tens of millions of children into
//! tables far larger than the caches, and the time goes into probing and growth. Here a probe is
//! one multiplication (Fibonacci hashing) and a linear scan of a small index, a table is
//! allocated once and cleared between layers (the two layers of a count swap), and the load
//! stays at or under one half, so a probe rarely looks past the first slot or two.

/// Marks an unused slot. Callers' keys never take this value (a pips key uses 3 bits a square
/// and never shows 7 everywhere; [`FlatTable::entry`] checks it in debug builds).
pub const EMPTY: u64 = u64::MAX;

/// A slot of the index: a key and where its value is in the dense arrays.
#[derive(Clone, Copy)]
struct Slot {
    key: u64,
    at: u32,
}

const FREE: Slot = Slot { key: EMPTY, at: 0 };

/// An index of 16-byte slots (a power-of-two number of them, at most half used) over dense
/// arrays of keys and values in insertion order. A probe touches only the small index, values
/// (an orbit's counts are up to 128 bytes) are read and written once, and iterating reads the
/// dense arrays in order.
pub struct FlatTable<V> {
    slots: Vec<Slot>,
    keys: Vec<u64>,
    values: Vec<V>,
    /// `64 - log2(slots)`: the hash is the top bits of the key times the golden ratio.
    shift: u32,
}

impl<V: Copy + Default> FlatTable<V> {
    /// A table that holds `entries` before it first grows.
    pub fn with_capacity(entries: usize) -> Self {
        let slots = (entries.max(8) * 2).next_power_of_two();
        FlatTable {
            slots: vec![FREE; slots],
            keys: Vec::with_capacity(entries),
            values: Vec::with_capacity(entries),
            shift: 64 - slots.trailing_zeros(),
        }
    }

    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The memory the table holds, in bytes: its index and its dense arrays as allocated.
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot>()
            + self.keys.capacity() * std::mem::size_of::<u64>()
            + self.values.capacity() * std::mem::size_of::<V>()
    }

    #[inline(always)]
    fn home(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// The value of `key`, inserted as `V::default()` if the table does not hold it yet.
    #[inline(always)]
    pub fn entry(&mut self, key: u64) -> &mut V {
        let at = self.place(key);
        &mut self.values[at]
    }

    /// Where `key`'s value is in the dense arrays (`value_mut`), inserting it as `V::default()`
    /// if the table does not hold it yet.
    #[inline(always)]
    pub fn place(&mut self, key: u64) -> usize {
        debug_assert_ne!(key, EMPTY);
        if 2 * (self.keys.len() + 1) > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut slot = self.home(key);
        loop {
            let held = self.slots[slot];
            if held.key == key {
                return held.at as usize;
            }
            if held.key == EMPTY {
                let at = self.keys.len();
                self.slots[slot] = Slot { key, at: u32::try_from(at).expect("under 2**32 entries") };
                self.keys.push(key);
                self.values.push(V::default());
                return at;
            }
            slot = (slot + 1) & mask;
        }
    }

    /// The value at `at` (from `place`).
    #[inline(always)]
    pub fn value_mut(&mut self, at: usize) -> &mut V {
        &mut self.values[at]
    }

    /// Asks the CPU to start loading the index slot where `key` is looked up first. Counting
    /// inserts keys at random places in tables larger than the caches, so each insert waits for
    /// memory; prefetching a whole batch of keys before placing them lets those waits overlap.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        prefetch(&self.slots[self.home(key)]);
    }

    /// The same for the value at `at`, before it is read and written.
    #[inline(always)]
    pub fn prefetch_value(&self, at: usize) {
        prefetch(&self.values[at]);
    }

    /// The value of `key`, if the table holds it.
    pub fn get(&self, key: u64) -> Option<&V> {
        let mask = self.slots.len() - 1;
        let mut slot = self.home(key);
        loop {
            match self.slots[slot] {
                Slot { key: held, at } if held == key => return Some(&self.values[at as usize]),
                Slot { key: EMPTY, .. } => return None,
                _ => slot = (slot + 1) & mask,
            }
        }
    }

    /// Doubles the index and places every key in it again (the dense arrays stay).
    #[cold]
    fn grow(&mut self) {
        let slots = self.slots.len() * 2;
        self.slots = vec![FREE; slots];
        self.shift = 64 - slots.trailing_zeros();
        let mask = slots - 1;
        for (at, &key) in self.keys.iter().enumerate() {
            let mut slot = self.home(key);
            while self.slots[slot].key != EMPTY {
                slot = (slot + 1) & mask;
            }
            self.slots[slot] = Slot { key, at: at as u32 };
        }
    }

    /// Every entry, in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = (u64, &V)> + '_ {
        self.keys.iter().copied().zip(&self.values)
    }

    /// Empties the table, keeping its memory.
    pub fn clear(&mut self) {
        if self.keys.len() * 8 < self.slots.len() {
            // Few entries: free their slots rather than sweep the whole index.
            let mask = self.slots.len() - 1;
            for &key in &self.keys {
                let mut slot = self.home(key);
                while self.slots[slot].key != key {
                    slot = (slot + 1) & mask;
                }
                self.slots[slot] = FREE;
            }
        } else {
            self.slots.fill(FREE);
        }
        self.keys.clear();
        self.values.clear();
    }
}

/// A hint to load the cache line of `value` (nothing on other targets).
#[inline(always)]
fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: a prefetch only hints the cache: it cannot fault, and the pointer comes from a
        // live reference. (SSE, which has the instruction, is part of every x86-64 CPU.)
        unsafe { _mm_prefetch::<_MM_HINT_T0>(value as *const T as *const i8) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn it_holds_what_a_hash_map_holds_through_growth_and_clearing() {
        let mut table: FlatTable<u64> = FlatTable::with_capacity(1);
        let mut reference: HashMap<u64, u64> = HashMap::new();
        let mut x = 12345u64;
        for round in 0..3 {
            for _ in 0..20_000 {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let key = (x >> 40) % 5000 + round; // many repeats, key 0 included
                *table.entry(key) += x & 0xFF;
                *reference.entry(key).or_insert(0) += x & 0xFF;
            }
            let mut held: Vec<(u64, u64)> = table.iter().map(|(k, &v)| (k, v)).collect();
            let mut expected: Vec<(u64, u64)> = reference.iter().map(|(&k, &v)| (k, v)).collect();
            held.sort_unstable();
            expected.sort_unstable();
            assert_eq!(held, expected);
            assert_eq!(table.len(), reference.len());
            assert!(table.bytes() >= 2 * 16 * table.len());
            table.clear();
            reference.clear();
            assert!(table.is_empty() && table.iter().next().is_none());
        }
    }
}
