//! The groups on the board and what they decide: where a stone may go (the min-max rule), what a
//! placement captures, and which stones a capture under way may remove next.

use super::survivors::{self, Capture};
use super::Rive;
use crate::hex::HexBoard;

/// The groups on the board, kept on the stack (groups never touch, so a 128-cell board holds
/// far fewer than 64 of them... and a hex board at most one group per three cells).
pub(super) struct Groups {
    masks: [u128; 64],
    sizes: [u32; 64],
    len: usize,
}

impl Groups {
    pub(super) fn of(board: &HexBoard, stones: u128) -> Groups {
        let mut groups = Groups::none();
        for group in board.groups(stones) {
            groups.masks[groups.len] = group;
            groups.sizes[groups.len] = group.count_ones();
            groups.len += 1;
        }
        groups
    }

    pub(super) fn none() -> Groups {
        Groups { masks: [0; 64], sizes: [0; 64], len: 0 }
    }

    /// Each group with its size.
    pub(super) fn iter(&self) -> impl Iterator<Item = (u128, u32)> + '_ {
        self.masks[..self.len].iter().copied().zip(self.sizes[..self.len].iter().copied())
    }

    /// The groups next to `cell`.
    fn around<'a>(&'a self, board: &HexBoard, cell: u8) -> impl Iterator<Item = (u128, u32)> + 'a {
        let near = board.neighbours[cell as usize];
        self.iter().filter(move |(g, _)| g & near != 0)
    }
}

impl Rive {
    /// The empty cells next to no stone, if there are any: then they are the legal cells (isolation
    /// is forced) and none of them captures, so the groups need not be computed at all.
    #[inline]
    pub(super) fn isolated_cells(&self) -> Option<u128> {
        let empty = self.board.all & !self.occupied();
        let isolated = empty & !self.board.dilate(self.occupied());
        (isolated != 0).then_some(isolated)
    }

    /// The empty cells where a stone may go now (the min-max rule), given the groups: each empty
    /// cell's value is the size of the largest group next to it, and the legal cells are those of
    /// the smallest value.
    pub(super) fn legal_cells(&self, groups: &Groups) -> u128 {
        let empty = self.board.all & !self.occupied();
        let mut value = [0u32; 128];
        let mut touched = 0u128;
        for (g, size) in groups.iter() {
            let mut boundary = self.board.dilate(g) & empty;
            touched |= boundary;
            while boundary != 0 {
                let cell = boundary.trailing_zeros() as usize;
                boundary &= boundary - 1;
                value[cell] = value[cell].max(size);
            }
        }
        if empty & !touched != 0 {
            return empty & !touched; // isolation is possible, so it is forced
        }
        let mut cells = touched;
        let mut smallest = u32::MAX;
        let mut legal = 0u128;
        while cells != 0 {
            let cell = cells.trailing_zeros();
            cells &= cells - 1;
            let v = value[cell as usize];
            if v < smallest {
                smallest = v;
                legal = 0;
            }
            if v == smallest {
                legal |= 1u128 << cell;
            }
        }
        legal
    }

    /// For a placement on `cell`: `None` if it captures nothing (it touches fewer than two
    /// groups), else the capture: the new group, and how many survive (the largest joined group
    /// and the placed stone).
    pub(super) fn capture_at(&self, groups: &Groups, cell: u8) -> Option<Capture> {
        let mut joined = 0u128;
        let mut count = 0;
        let mut largest = 0;
        for (g, size) in groups.around(self.board, cell) {
            joined |= g;
            count += 1;
            largest = largest.max(size);
        }
        let placed = 1u128 << cell;
        (count >= 2).then_some(Capture { group: joined | placed, placed, keep: largest + 1 })
    }

    /// The capture a legal placement on `cell` makes (None if it is not a legal capture).
    fn legal_capture(&self, cell: u8) -> Option<Capture> {
        if cell as usize >= self.board.len() {
            return None;
        }
        let groups = Groups::of(self.board, self.occupied());
        if self.pending.is_some() || self.legal_cells(&groups) >> cell & 1 == 0 {
            return None;
        }
        self.capture_at(&groups, cell)
    }

    /// The removal sets of the capture on `cell`, in the documented order (None if placing there
    /// is not a legal capture).
    pub fn capture_removals(&self, cell: u8) -> Option<Vec<u128>> {
        self.legal_capture(cell).map(|capture| survivors::InOrder::new(self.board, capture).collect())
    }

    /// The number of removal sets of the capture on `cell`, counted without building them.
    pub fn count_capture_removals(&self, cell: u8) -> Option<u128> {
        self.legal_capture(cell).map(|capture| survivors::count(self.board, capture))
    }

    /// Stones whose removal keeps the capturing group connected (single-stone form).
    pub(super) fn removable(&self, pending: super::Pending) -> u128 {
        let group = self.board.component(1u128 << pending.placed, self.occupied());
        let mut removable = 0;
        let mut rest = group & !(1u128 << pending.placed);
        while rest != 0 {
            let v = rest & rest.wrapping_neg();
            rest ^= v;
            let left = group & !v;
            if self.board.component(1u128 << pending.placed, left) == left {
                removable |= v;
            }
        }
        removable
    }
}
