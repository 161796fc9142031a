//! Capture sets, as a table: a square has at most four neighbours, so the capture sets of two or
//! more dice are at most the 11 subsets below, and which of them sum to 6 or less depends only on
//! the four neighbours' pips (3 bits each: a 4096-entry table that stays in L1), computed once.

use std::sync::OnceLock;

/// Neighbour slots are in board order: up, left, right, down (bits 0-3). The subsets of two or
/// more slots, ordered by their lists of squares compared lexicographically (docs/cephalopod.md).
pub const SUBSETS: [u8; 11] = [0b0011, 0b0111, 0b1111, 0b1011, 0b0101, 0b1101, 0b1001, 0b0110, 0b1110, 0b1010, 0b1100];

/// For each neighbour key, a bit per entry of `SUBSETS` that is a capture set, and how many
/// moves the square offers (the number of capture sets, or 1 for a plain placement).
pub struct CaptureTable {
    valid: Vec<u16>,
    moves: Vec<u8>,
}

/// The table index of the four neighbours' pips (0 for an empty square or none), 3 bits each.
#[inline(always)]
pub fn key(pips: [u8; 4]) -> usize {
    pips[0] as usize | (pips[1] as usize) << 3 | (pips[2] as usize) << 6 | (pips[3] as usize) << 9
}

impl CaptureTable {
    pub fn get() -> &'static CaptureTable {
        static TABLE: OnceLock<CaptureTable> = OnceLock::new();
        TABLE.get_or_init(|| {
            let mut valid = vec![0u16; 1 << 12];
            for (k, entry) in valid.iter_mut().enumerate() {
                let pips = [(k & 7) as u8, (k >> 3 & 7) as u8, (k >> 6 & 7) as u8, (k >> 9 & 7) as u8];
                for (i, &subset) in SUBSETS.iter().enumerate() {
                    if sum_of(pips, subset).is_some_and(|s| s <= 6) {
                        *entry |= 1 << i;
                    }
                }
            }
            let moves = valid.iter().map(|v| v.count_ones().max(1) as u8).collect();
            CaptureTable { valid, moves }
        })
    }

    /// The capture sets around a square (bits over `SUBSETS`).
    #[inline(always)]
    pub fn valid(&self, key: usize) -> u16 {
        self.valid[key]
    }

    /// The moves on a square: its capture sets, or 1 for a plain placement.
    #[inline(always)]
    pub fn moves(&self, key: usize) -> u64 {
        self.moves[key] as u64
    }
}

/// Every move of a board read through `pips(square)` (0 for an empty square, and for a missing
/// neighbour: an index past the board): `each(square, captured, placed)` with the neighbour slots
/// the move captures (bits over `neighbours[square]`, 0 for a plain placement) and the pips of the
/// die placed. Returns false when the board is full (the game is over). The one move generator of
/// the key-based counts (owner-aware, colour-free, over symmetry orbits), in move order.
#[inline(always)]
pub fn for_each_move(neighbours: &[[u8; 4]], pips: impl Fn(u8) -> u8, mut each: impl FnMut(usize, u8, u8)) -> bool {
    let table = CaptureTable::get();
    let mut any = false;
    for (square, n) in neighbours.iter().enumerate() {
        if pips(square as u8) != 0 {
            continue;
        }
        any = true;
        let around = [pips(n[0]), pips(n[1]), pips(n[2]), pips(n[3])];
        let mut valid = table.valid(key(around));
        if valid == 0 {
            each(square, 0, 1);
            continue;
        }
        while valid != 0 {
            let subset = SUBSETS[valid.trailing_zeros() as usize];
            valid &= valid - 1;
            let placed = (0..4).filter(|slot| subset >> slot & 1 == 1).map(|slot| around[slot]).sum();
            each(square, subset, placed);
        }
    }
    any
}

/// The pips a subset of slots adds up to, or `None` if one of its slots holds no die.
pub fn sum_of(pips: [u8; 4], subset: u8) -> Option<u8> {
    (0..4).filter(|slot| subset >> slot & 1 == 1).try_fold(0, |sum, slot| match pips[slot] {
        0 => None,
        p => Some(sum + p),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_are_every_set_of_two_or_more_slots_once() {
        let mut seen: Vec<u8> = SUBSETS.to_vec();
        seen.sort();
        let expected: Vec<u8> = (0u8..16).filter(|m| m.count_ones() >= 2).collect();
        assert_eq!(seen, expected);
    }

    #[test]
    fn two_ones_and_a_five_give_three_pairs_and_no_more() {
        let t = CaptureTable::get();
        // up 1, left 1, right 5, down empty: {up,left}=2, {up,right}=6, {left,right}=6; triple 7.
        let v = t.valid(key([1, 1, 5, 0]));
        assert_eq!(v.count_ones(), 3);
    }
}
