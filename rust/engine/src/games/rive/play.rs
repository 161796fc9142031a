//! Playing a Rive move, and why a move is illegal (the one legality check: `Position::why_illegal`
//! forwards here, and `is_legal` and `check_move` derive from it).

use super::groups::Groups;
use super::survivors::Capture;
use super::{notation, Move, Pending, Rive};
use crate::game::{Player, Position};

impl Rive {
    /// White's first move may swap, unless that first stone filled the board (a one-cell board):
    /// the game is then over, and over means no legal move, the swap included.
    pub(super) fn swap_is_legal(&self) -> bool {
        self.swap
            && self.pending.is_none()
            && self.side == Player::White
            && self.white == 0
            && self.black.count_ones() == 1
            && !self.is_over()
    }

    /// Plays a legal move (`Position::play_unchecked`).
    pub(super) fn play(&mut self, mv: Move) {
        match mv {
            Move::Swap => {
                self.white = self.black;
                self.black = 0;
                self.side = Player::Black;
            }
            Move::Remove { cell } => self.remove(cell),
            Move::Place { cell, removed } => self.place(cell, removed),
        }
    }

    /// One stone of the capture under way removed; the last ends the capture, and the same player
    /// places again.
    fn remove(&mut self, cell: u8) {
        let stone = !(1u128 << cell);
        self.black &= stone;
        self.white &= stone;
        if let Some(p) = self.pending.as_mut() {
            p.remaining -= 1;
            if p.remaining == 0 {
                self.pending = None;
            }
        }
    }

    /// A stone on `cell`, and a compound capture's removals. A placement that captures nothing
    /// ends the turn; a capture leaves the same player to move (in the single-stone form, first
    /// to remove the stones one at a time).
    fn place(&mut self, cell: u8, removed: u128) {
        let bit = 1u128 << cell;
        let capture = if self.single_stones {
            let groups = Groups::of(self.board, self.occupied());
            self.capture_at(&groups, cell).map(|c| c.group.count_ones() - c.keep)
        } else {
            (removed != 0).then_some(0)
        };
        match self.side {
            Player::Black => self.black |= bit,
            Player::White => self.white |= bit,
        }
        self.black &= !removed;
        self.white &= !removed;
        match capture {
            None => self.side = self.side.other(),
            Some(0) => {}
            Some(remaining) => self.pending = Some(Pending { placed: cell, remaining: remaining as u8 }),
        }
    }

    /// Why `mv` is illegal here, or None.
    pub(super) fn illegality(&self, mv: Move) -> Option<String> {
        // Over means no legal move, whatever the move (as in the twin): the reason is that, not
        // the first rule the move would break on a full board ("a1 is occupied"). This covers
        // the one-cell board, full after Black's first stone: White's turn, but no swap.
        if self.is_over() {
            return Some(format!("{} is not allowed: the game is over", notation::move_name(self.board, mv)));
        }
        match (mv, self.pending) {
            (Move::Swap, _) => (!self.swap_is_legal()).then(|| {
                if self.swap {
                    "swap is only allowed as White's first move".into()
                } else {
                    "this game does not allow the swap".into()
                }
            }),
            (Move::Remove { cell }, Some(pending)) => {
                let removable = (cell as usize) < self.board.len() && self.removable(pending) >> cell & 1 == 1;
                (!removable)
                    .then(|| "that stone cannot be removed: the group would split, or it is not in the group".into())
            }
            (Move::Place { .. }, Some(pending)) => {
                Some(format!("a capture is under way: remove {} more stone(s) first", pending.remaining))
            }
            (Move::Remove { .. }, None) => Some("no capture is under way, so there is nothing to remove".into()),
            (Move::Place { cell, removed }, None) => self.placement_illegality(cell, removed),
        }
    }

    /// Why placing on `cell` (removing `removed`) is illegal, no capture being under way.
    fn placement_illegality(&self, cell: u8, removed: u128) -> Option<String> {
        let name = self.board.cell_name(cell);
        if self.occupied() >> cell & 1 == 1 {
            return Some(format!("{name} is occupied"));
        }
        let groups = Groups::of(self.board, self.occupied());
        if self.legal_cells(&groups) >> cell & 1 == 0 {
            return Some(format!("{name} is not allowed: another cell touches smaller groups"));
        }
        match (self.capture_at(&groups, cell), removed) {
            (None, 0) => None,
            (None, _) => Some(format!("{name} captures nothing, so nothing may be removed")),
            (Some(_), 0) if self.single_stones => None,
            (Some(_), 0) => Some(format!("{name} is a capture: name the stones it removes")),
            (Some(_), _) if self.single_stones => Some("in the single-stone form, remove one stone at a time".into()),
            (Some(Capture { group, keep, .. }), removed) => {
                let survivors = group & !removed;
                if removed & !group != 0 {
                    Some("a removed stone is not in the new group".into())
                } else if removed >> cell & 1 == 1 {
                    Some("the placed stone cannot be removed".into())
                } else if survivors.count_ones() != keep {
                    Some(format!("the new group must keep {keep} stones, not {}", survivors.count_ones()))
                } else if self.board.component(1u128 << cell, survivors) != survivors {
                    Some("the survivors would not be connected".into())
                } else {
                    None
                }
            }
        }
    }
}
