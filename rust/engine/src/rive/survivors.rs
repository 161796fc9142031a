//! Connected survivor sets of a capture: the connected sets of `t` cells of the new group that
//! contain the placed stone, enumerated directly (never "all subsets, then filter").
//!
//! The enumeration grows a connected set from the placed stone. At each step the candidates are
//! the group's cells next to the set; after exploring the sets that add a candidate `v`, `v` is
//! excluded from its later siblings, so every connected set is produced exactly once.

use crate::hex::HexBoard;

/// Calls `emit` with every connected subset of `group` of `size` cells that contains `root`.
pub fn for_each(board: &HexBoard, group: u128, root: u128, size: u32, emit: &mut impl FnMut(u128)) {
    let candidates = board.dilate(root) & group & !root;
    grow(board, group, root, candidates, 0, size - root.count_ones(), emit);
}

fn grow(board: &HexBoard, group: u128, set: u128, candidates: u128, excluded: u128, need: u32, emit: &mut impl FnMut(u128)) {
    if need == 0 {
        emit(set);
        return;
    }
    let mut open = candidates & !excluded;
    let mut excluded = excluded;
    while open != 0 {
        let v = open & open.wrapping_neg();
        open ^= v;
        let next = (candidates | board.neighbours[v.trailing_zeros() as usize]) & group & !set & !v;
        grow(board, group, set | v, next, excluded, need - 1, emit);
        excluded |= v;
    }
}

/// The number of such subsets, without building them: one ply short of the end, every open
/// candidate completes exactly one set.
pub fn count(board: &HexBoard, group: u128, root: u128, size: u32) -> u64 {
    let candidates = board.dilate(root) & group & !root;
    count_from(board, group, root, candidates, 0, size - root.count_ones())
}

fn count_from(board: &HexBoard, group: u128, set: u128, candidates: u128, excluded: u128, need: u32) -> u64 {
    if need == 0 {
        return 1;
    }
    let mut open = candidates & !excluded;
    if need == 1 {
        return open.count_ones() as u64;
    }
    let mut excluded = excluded;
    let mut total = 0;
    while open != 0 {
        let v = open & open.wrapping_neg();
        open ^= v;
        let next = (candidates | board.neighbours[v.trailing_zeros() as usize]) & group & !set & !v;
        total += count_from(board, group, set | v, next, excluded, need - 1);
        excluded |= v;
    }
    total
}

/// Sorts removal sets into the documented order: by their lists of cells in board order,
/// compared lexicographically. For sets of equal size that is decided by the lowest cell in
/// which they differ: the set holding it comes first.
pub fn sort_removals(removals: &mut [u128]) {
    removals.sort_unstable_by(|a, b| {
        if a == b {
            return std::cmp::Ordering::Equal;
        }
        let first_difference = (a ^ b) & (a ^ b).wrapping_neg();
        if a & first_difference != 0 {
            std::cmp::Ordering::Less
        } else {
            std::cmp::Ordering::Greater
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute_force(board: &HexBoard, group: u128, root: u128, size: u32) -> Vec<u128> {
        let cells: Vec<u128> = (0..128).map(|i| 1u128 << i).filter(|b| group & b != 0 && *b != root).collect();
        let mut found = Vec::new();
        for mask in 0u32..(1 << cells.len()) {
            if mask.count_ones() + 1 != size {
                continue;
            }
            let set = cells.iter().enumerate().filter(|(i, _)| mask >> i & 1 == 1).fold(root, |s, (_, b)| s | b);
            if board.component(root, set) == set {
                found.push(set);
            }
        }
        found.sort();
        found
    }

    #[test]
    fn enumeration_equals_brute_force_on_every_small_group() {
        let board = HexBoard::named("hex3").unwrap();
        // Groups grown from the centre in board order, every size up to 12, every target size.
        let centre = 1u128 << 9;
        for extra in 1..=11 {
            let group = (0..19u32).map(|i| 1u128 << i).filter(|b| *b != centre).take(extra).fold(centre, |g, b| g | b);
            let group = board.component(centre, group);
            for size in 1..=group.count_ones() {
                let mut got = Vec::new();
                for_each(board, group, centre, size, &mut |s| got.push(s));
                got.sort();
                assert_eq!(got, brute_force(board, group, centre, size), "group {group:b} size {size}");
                assert_eq!(count(board, group, centre, size), got.len() as u64);
            }
        }
    }

    #[test]
    fn removal_order_is_lexicographic_on_board_order() {
        let mut sets = vec![0b0110u128, 0b1001, 0b0011, 0b1100, 0b0101, 0b1010];
        sort_removals(&mut sets);
        // As cell lists: [0,1] [0,2] [0,3] [1,2] [1,3] [2,3]
        assert_eq!(sets, vec![0b0011, 0b0101, 0b1001, 0b0110, 0b1010, 0b1100]);
    }
}
