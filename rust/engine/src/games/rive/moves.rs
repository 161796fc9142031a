//! Rive's moves: the move type, the legal moves in their documented order, and counting and
//! sampling them without listing a capture's survivor sets.

use super::groups::Groups;
use super::survivors::{self, Capture};
use super::{PlayoutPolicy, Rive};
use crate::bitboard::nth_bit;
use crate::error::Result;
use crate::game::Position;
use crate::interrupt::Stop;
use crate::rng::SplitMix64;

/// A move: a placement (with, in the compound form, the stones its capture removes), the removal
/// of one stone of a capture under way (single-stone form), or White's swap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// A stone on `cell`. `removed` holds the stones a compound capture removes: none for a
    /// placement that captures nothing, or one that starts a capture in the single-stone form.
    Place { cell: u8, removed: u128 },
    /// The stone on `cell` removed, as one step of a capture under way (single-stone form).
    Remove { cell: u8 },
    /// White's first move takes over Black's stone.
    Swap,
}

impl Move {
    /// A stone on `cell`, removing nothing.
    pub fn place(cell: u8) -> Move {
        Move::Place { cell, removed: 0 }
    }

    /// The placed cell (None for a swap or a removal step).
    pub fn placed(self) -> Option<u8> {
        match self {
            Move::Place { cell, .. } => Some(cell),
            Move::Remove { .. } | Move::Swap => None,
        }
    }

    /// The stones the move removes, as a cell set.
    pub fn removed(self) -> u128 {
        match self {
            Move::Place { removed, .. } => removed,
            Move::Remove { cell } => 1u128.checked_shl(cell as u32).unwrap_or(0),
            Move::Swap => 0,
        }
    }

    pub fn is_swap(self) -> bool {
        self == Move::Swap
    }

    pub fn is_removal(self) -> bool {
        matches!(self, Move::Remove { .. })
    }
}

/// The legal moves: cell by cell; a capture's survivor sets are enumerated (in Rust) when its cell
/// is reached, in move order, and handed out one at a time; the swap last. It owns a copy of the
/// position (a few words), so that Python can hold it as a lazy iterator.
pub struct Moves {
    position: Rive,
    groups: Groups,
    cells: u128,
    capture: Option<(u8, survivors::InOrder)>,
    removals: u128,
    swap: bool,
}

impl Moves {
    pub(super) fn of(position: &Rive) -> Moves {
        let full = position.occupied() == position.board.all;
        let isolated = position.isolated_cells().filter(|_| position.pending.is_none());
        // With isolation possible no placement captures, so the groups are not needed.
        let groups = if isolated.is_some() { Groups::none() } else { Groups::of(position.board, position.occupied()) };
        let (cells, removals) = match (position.pending, isolated) {
            (Some(p), _) => (0, position.removable(p)),
            (None, _) if full => (0, 0),
            (None, Some(cells)) => (cells, 0),
            (None, None) => (position.legal_cells(&groups), 0),
        };
        let swap = position.swap_is_legal();
        Moves { position: *position, groups, cells, capture: None, removals, swap }
    }
}

impl Iterator for Moves {
    type Item = Move;
    fn next(&mut self) -> Option<Move> {
        crate::perft::unstoppable(self.next_interruptible(Stop::never()))
    }
}

impl Moves {
    /// The next move, returning `Err(Interrupted)` soon after `stop` is requested (reaching a
    /// capture counts and ranks its survivor sets, which can take long on large boards), or
    /// `Err(TooLarge)` for a capture too wide to rank whose survivor sets are too many to list
    /// (docs/rive.md, "Large captures"); the iterator is then left where it was.
    pub fn next_interruptible(&mut self, stop: &Stop) -> Result<Option<Move>> {
        if self.removals != 0 {
            let cell = self.removals.trailing_zeros() as u8;
            self.removals &= self.removals - 1;
            return Ok(Some(Move::Remove { cell }));
        }
        if let Some((cell, removals)) = &mut self.capture {
            if let Some(removed) = removals.next() {
                return Ok(Some(Move::Place { cell: *cell, removed }));
            }
            self.capture = None;
        }
        if self.cells != 0 {
            let cell = self.cells.trailing_zeros() as u8;
            let p = &self.position;
            let mv = match p.capture_at(&self.groups, cell) {
                Some(capture) if !p.single_stones => {
                    // Interrupted here, the cell stays to do: nothing has changed.
                    let mut removals = survivors::InOrder::new_interruptible(p.board, capture, stop)?;
                    let first = removals.next().expect("a capture has a survivor set");
                    self.capture = Some((cell, removals));
                    Move::Place { cell, removed: first }
                }
                _ => Move::place(cell),
            };
            self.cells &= self.cells - 1;
            return Ok(Some(mv));
        }
        if self.swap {
            self.swap = false;
            return Ok(Some(Move::Swap));
        }
        Ok(None)
    }
}

impl Rive {
    /// The number of legal moves, exact however large.
    pub fn count_moves_exact(&self) -> u128 {
        crate::perft::unstoppable(self.count_moves_exact_interruptible(Stop::never()))
    }

    /// `count_moves_exact`, returning `Err(Interrupted)` soon after `stop` is requested.
    pub fn count_moves_exact_interruptible(&self, stop: &Stop) -> Result<u128> {
        if let Some(p) = self.pending {
            return Ok(self.removable(p).count_ones() as u128);
        }
        if self.is_over() {
            return Ok(0);
        }
        let swap = self.swap_is_legal() as u128;
        if let Some(isolated) = self.isolated_cells() {
            return Ok(isolated.count_ones() as u128 + swap);
        }
        Ok(self.moves_per_cell(stop)?.iter().map(|c| c.2).fold(0, u128::saturating_add) + swap)
    }

    /// A legal move drawn uniformly: counts each cell's moves, picks one, and finds only the
    /// chosen capture's survivor set.
    /// Returns `Err(Interrupted)` soon after `stop` is requested (counting and ranking look at
    /// it), having drawn nothing from `rng` if still counting.
    pub(super) fn sample(&self, rng: &mut SplitMix64, stop: &Stop) -> Result<Option<Move>> {
        if let Some(p) = self.pending {
            let removable = self.removable(p);
            let k = rng.below(removable.count_ones() as u64);
            return Ok(Some(Move::Remove { cell: nth_bit(removable, k as u32) }));
        }
        if self.is_over() {
            return Ok(None);
        }
        if let Some(isolated) = self.isolated_cells() {
            let total = isolated.count_ones() as u64 + self.swap_is_legal() as u64;
            let k = rng.below(total);
            return Ok(Some(if k < isolated.count_ones() as u64 {
                Move::place(nth_bit(isolated, k as u32))
            } else {
                Move::Swap
            }));
        }
        if self.playout_policy == PlayoutPolicy::CaptureCell {
            return self.sample_by_cell(rng, stop).map(Some);
        }
        let choices = self.moves_per_cell(stop)?;
        let total: u128 = choices.iter().map(|c| c.2).fold(0, u128::saturating_add) + self.swap_is_legal() as u128;
        let mut k = survivors::below(rng, total);
        for (cell, capture, count) in choices {
            if k >= count {
                k -= count;
                continue;
            }
            return Ok(Some(match capture {
                None => Move::place(cell),
                Some(capture) => Move::Place { cell, removed: survivors::nth(self.board, capture, count, k, stop)? },
            }));
        }
        Ok(Some(Move::Swap))
    }

    /// `PlayoutPolicy::CaptureCell`'s draw (no capture under way, isolation impossible): a legal
    /// cell or the swap uniformly, then, for a capture, one of its survivor sets uniformly (its
    /// rank read group by group, `survivors::nth_by_groups`): one capture counted and ranked,
    /// where the uniform draw counts every capture on the board.
    fn sample_by_cell(&self, rng: &mut SplitMix64, stop: &Stop) -> Result<Move> {
        let groups = Groups::of(self.board, self.occupied());
        let cells = self.legal_cells(&groups);
        let k = rng.below(cells.count_ones() as u64 + self.swap_is_legal() as u64);
        if k == cells.count_ones() as u64 {
            return Ok(Move::Swap);
        }
        let cell = nth_bit(cells, k as u32);
        let capture = self.capture_at(&groups, cell).filter(|_| !self.single_stones);
        Ok(match capture {
            None => Move::place(cell),
            Some(capture) => {
                let count = survivors::count_interruptible(self.board, capture, stop)?;
                let rank = survivors::below(rng, count);
                Move::Place { cell, removed: survivors::nth_by_groups(self.board, capture, count, rank, stop)? }
            }
        })
    }

    /// A legal move found without counting every capture (`None` when the game is over): a
    /// removal, or a placement that captures nothing where there is one, else the swap, else
    /// the first capturing cell with its first survivor set read group by group (no ranking
    /// table, so even a capture too wide to rank has one). What a search plays when its limit
    /// leaves no time to list the root's moves, or they are too many to list.
    pub fn uncounted_move(&self, stop: &Stop) -> Result<Option<Move>> {
        if let Some(p) = self.pending {
            let removable = self.removable(p);
            return Ok((removable != 0).then(|| Move::Remove { cell: removable.trailing_zeros() as u8 }));
        }
        if self.is_over() {
            return Ok(None);
        }
        if let Some(isolated) = self.isolated_cells() {
            return Ok(Some(Move::place(isolated.trailing_zeros() as u8)));
        }
        let groups = Groups::of(self.board, self.occupied());
        let mut cells = self.legal_cells(&groups);
        let mut first_capture = None;
        while cells != 0 {
            let cell = cells.trailing_zeros() as u8;
            cells &= cells - 1;
            match self.capture_at(&groups, cell).filter(|_| !self.single_stones) {
                None => return Ok(Some(Move::place(cell))),
                Some(capture) => {
                    first_capture.get_or_insert((cell, capture));
                }
            }
        }
        if self.swap_is_legal() {
            return Ok(Some(Move::Swap));
        }
        let Some((cell, capture)) = first_capture else { return Ok(None) };
        let count = survivors::count_interruptible(self.board, capture, stop)?;
        Ok(Some(Move::Place { cell, removed: survivors::nth_by_groups(self.board, capture, count, 0, stop)? }))
    }

    /// Per legal cell (no capture under way, isolation impossible): the cell, its capture in
    /// compound form, and its number of moves.
    fn moves_per_cell(&self, stop: &Stop) -> Result<Vec<(u8, Option<Capture>, u128)>> {
        let groups = Groups::of(self.board, self.occupied());
        let mut cells = self.legal_cells(&groups);
        let mut choices = Vec::with_capacity(cells.count_ones() as usize);
        while cells != 0 {
            let cell = cells.trailing_zeros() as u8;
            cells &= cells - 1;
            let capture = self.capture_at(&groups, cell).filter(|_| !self.single_stones);
            let count = match capture {
                Some(capture) => survivors::count_interruptible(self.board, capture, stop)?,
                None => 1,
            };
            choices.push((cell, capture, count));
        }
        Ok(choices)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex::HexBoard;

    #[test]
    fn a_move_stays_as_small_as_its_removal_set() {
        // A tag and a cell beside the 16-byte set, as the struct with sentinel cells was.
        assert_eq!(std::mem::size_of::<Move>(), 32);
    }

    #[test]
    fn each_kind_of_move_names_its_cells() {
        assert_eq!((Move::place(3).placed(), Move::place(3).removed()), (Some(3), 0));
        let capture = Move::Place { cell: 3, removed: 0b101 };
        assert_eq!((capture.placed(), capture.removed()), (Some(3), 0b101));
        let removal = Move::Remove { cell: 5 };
        assert_eq!((removal.placed(), removal.removed(), removal.is_removal()), (None, 1 << 5, true));
        assert_eq!((Move::Swap.placed(), Move::Swap.removed(), Move::Swap.is_swap()), (None, 0, true));
        let board = HexBoard::named("hex3").unwrap();
        for (mv, name) in [(Move::place(9), "c3"), (capture, "b1xa1,a3"), (removal, "xb3"), (Move::Swap, "swap")] {
            assert_eq!(crate::rive::move_name(board, mv), name);
            assert_eq!(crate::rive::parse_move(board, name), Ok(mv));
        }
    }

    #[test]
    fn the_capture_cell_policy_draws_legal_moves_with_every_cell_equally_likely() {
        let board = HexBoard::named("hex4").unwrap();
        let mut game = Rive::new(board, true, false).unwrap().with_playout_policy(PlayoutPolicy::CaptureCell);
        let mut rng = SplitMix64::new(11);
        let (mut plies, mut checked) = (0, false);
        while let Some(mv) = game.sample(&mut rng, Stop::never()).unwrap() {
            let legal: Vec<Move> = Moves::of(&game).collect();
            assert!(legal.contains(&mv), "{mv:?} is not legal at ply {plies}");
            let mut per_cell = std::collections::BTreeMap::new();
            for m in &legal {
                *per_cell.entry(m.placed()).or_insert(0usize) += 1;
            }
            if !checked && per_cell.values().any(|&n| n >= 6) {
                // A cell is drawn as often as any other, however many survivor sets it has.
                let draws = 3000;
                let mut drawn = std::collections::BTreeMap::new();
                for i in 0..draws {
                    let m = game.sample(&mut SplitMix64::new(1000 + i), Stop::never()).unwrap().unwrap();
                    *drawn.entry(m.placed()).or_insert(0usize) += 1;
                }
                let expected = draws as usize / per_cell.len();
                for cell in per_cell.keys() {
                    let n = drawn.get(cell).copied().unwrap_or(0);
                    assert!(n.abs_diff(expected) < expected * 3 / 10, "{cell:?}: {n} of {draws}, expected {expected}");
                }
                checked = true;
            }
            game.play(mv);
            plies += 1;
        }
        assert!(checked && game.is_over() && plies >= 36, "{plies} plies, checked: {checked}");
    }
}
