//! Rive: hex territory where every placement joins the smallest groups it can, and captures shrink
//! the joined group to a connected set of survivors (docs/rive.md).

mod actions;
mod frontier;
mod game;
mod notation;
pub mod survivors;

pub use actions::RiveSteps;
pub use game::{RiveGame, Variant};
pub use notation::{move_name, parse_move};

use crate::bitboard::nth_bit;
use crate::error::{Error, Result};
use crate::game::{Outcome, Player, Position};
use crate::hex::HexBoard;
use survivors::Capture;

/// A move. `cell` is the placed cell (or `SWAP`, or `REMOVE` for a single-stone removal step);
/// `removed` the stones a capture removes (the one stone of a removal step).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    pub cell: u8,
    pub removed: u128,
}

impl Move {
    pub const SWAP_CELL: u8 = u8::MAX;
    pub const REMOVE_CELL: u8 = u8::MAX - 1;
    pub const SWAP: Move = Move { cell: Self::SWAP_CELL, removed: 0 };

    pub fn is_swap(self) -> bool {
        self.cell == Self::SWAP_CELL
    }

    pub fn is_removal(self) -> bool {
        self.cell == Self::REMOVE_CELL
    }

    pub fn removal(cell: u8) -> Move {
        Move { cell: Self::REMOVE_CELL, removed: 1u128 << cell }
    }
}

/// A capture under way in the single-stone form: the placed cell and the stones still to remove.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pending {
    pub placed: u8,
    pub remaining: u8,
}

/// A Rive position.
#[derive(Clone, Copy)]
pub struct Rive {
    black: u128,
    white: u128,
    side: Player,
    board: &'static HexBoard,
    /// The variant allows White's swap.
    swap: bool,
    /// Captures are played one stone at a time.
    single_stones: bool,
    pending: Option<Pending>,
}

impl PartialEq for Rive {
    fn eq(&self, other: &Self) -> bool {
        (self.black, self.white, self.side, self.swap, self.single_stones, self.pending)
            == (other.black, other.white, other.side, other.swap, other.single_stones, other.pending)
            && std::ptr::eq(self.board, other.board)
    }
}

impl Eq for Rive {}

impl std::fmt::Debug for Rive {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_notation())
    }
}

/// The groups on the board, kept on the stack (groups never touch, so a 128-cell board holds
/// far fewer than 64 of them... and a hex board at most one group per three cells).
struct Groups {
    masks: [u128; 64],
    sizes: [u32; 64],
    len: usize,
}

impl Groups {
    fn of(board: &HexBoard, stones: u128) -> Groups {
        let mut groups = Groups::none();
        for group in board.groups(stones) {
            groups.masks[groups.len] = group;
            groups.sizes[groups.len] = group.count_ones();
            groups.len += 1;
        }
        groups
    }

    fn none() -> Groups {
        Groups { masks: [0; 64], sizes: [0; 64], len: 0 }
    }

    fn iter(&self) -> impl Iterator<Item = (u128, u32)> + '_ {
        self.masks[..self.len].iter().copied().zip(self.sizes[..self.len].iter().copied())
    }

    /// The groups next to `cell`.
    fn around<'a>(&'a self, board: &HexBoard, cell: u8) -> impl Iterator<Item = (u128, u32)> + 'a {
        let near = board.neighbours[cell as usize];
        self.iter().filter(move |(g, _)| g & near != 0)
    }
}

impl Rive {
    pub fn new(board: &'static HexBoard, swap: bool, single_stones: bool) -> Result<Rive> {
        if board.len() % 2 == 0 {
            return Err(Error::invalid(format!(
                "board: Rive needs an odd number of cells (no draws), {} has {}",
                board.name,
                board.len()
            )));
        }
        Ok(Rive { black: 0, white: 0, side: Player::Black, board, swap, single_stones, pending: None })
    }

    pub fn board(&self) -> &'static HexBoard {
        self.board
    }

    pub fn swap_allowed(&self) -> bool {
        self.swap
    }

    pub fn single_stones(&self) -> bool {
        self.single_stones
    }

    pub fn pending(&self) -> Option<Pending> {
        self.pending
    }

    fn occupied(&self) -> u128 {
        self.black | self.white
    }

    /// (black stones, white stones)
    pub fn score(&self) -> (u32, u32) {
        (self.black.count_ones(), self.white.count_ones())
    }

    /// Sizes of all groups, largest first.
    pub fn group_sizes(&self) -> Vec<u32> {
        let mut sizes: Vec<u32> = Groups::of(self.board, self.occupied()).iter().map(|g| g.1).collect();
        sizes.sort_unstable_by(|a, b| b.cmp(a));
        sizes
    }

    pub(crate) fn set(&mut self, black: u128, white: u128, side: Player, pending: Option<Pending>) {
        (self.black, self.white, self.side, self.pending) = (black, white, side, pending);
    }

    /// The empty cells next to no stone, if there are any: then they are the legal cells (isolation
    /// is forced) and none of them captures, so the groups need not be computed at all.
    #[inline]
    fn isolated_cells(&self) -> Option<u128> {
        let empty = self.board.all & !self.occupied();
        let isolated = empty & !self.board.dilate(self.occupied());
        (isolated != 0).then_some(isolated)
    }

    /// The empty cells where a stone may go now (the min-max rule), given the groups: each empty
    /// cell's value is the size of the largest group next to it, and the legal cells are those of
    /// the smallest value.
    fn legal_cells(&self, groups: &Groups) -> u128 {
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

    /// For a placement on `cell`: `None` if it captures nothing, else the capture (the new group
    /// and the number of survivors).
    fn capture_at(&self, groups: &Groups, cell: u8) -> Option<Capture> {
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

    /// White's first move may swap, unless that first stone filled the board (a one-cell board):
    /// the game is then over, and over means no legal move, the swap included.
    fn swap_is_legal(&self) -> bool {
        self.swap
            && self.pending.is_none()
            && self.side == Player::White
            && self.white == 0
            && self.black.count_ones() == 1
            && !self.is_over()
    }

    /// Stones whose removal keeps the capturing group connected (single-stone form).
    fn removable(&self, pending: Pending) -> u128 {
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

/// The legal moves: cell by cell; a capture's survivor sets are enumerated (in Rust) when its cell
/// is reached, sorted, and handed out one at a time. It owns a copy of the position (a few words),
/// so that Python can hold it as a lazy iterator.
pub struct Moves {
    position: Rive,
    groups: Groups,
    cells: u128,
    capture: Option<(u8, survivors::InOrder)>,
    removals: u128,
    swap: bool,
}

impl Iterator for Moves {
    type Item = Move;
    fn next(&mut self) -> Option<Move> {
        if self.removals != 0 {
            let cell = self.removals.trailing_zeros() as u8;
            self.removals &= self.removals - 1;
            return Some(Move::removal(cell));
        }
        if let Some((cell, removals)) = &mut self.capture {
            if let Some(removed) = removals.next() {
                return Some(Move { cell: *cell, removed });
            }
            self.capture = None;
        }
        if self.cells != 0 {
            let cell = self.cells.trailing_zeros() as u8;
            self.cells &= self.cells - 1;
            let p = &self.position;
            return match p.capture_at(&self.groups, cell) {
                Some(capture) if !p.single_stones => {
                    let mut removals = survivors::InOrder::new(p.board, capture);
                    let first = removals.next().expect("a capture has a survivor set");
                    self.capture = Some((cell, removals));
                    Some(Move { cell, removed: first })
                }
                _ => Some(Move { cell, removed: 0 }),
            };
        }
        if self.swap {
            self.swap = false;
            return Some(Move::SWAP);
        }
        None
    }
}

impl Position for Rive {
    type Move = Move;
    type Moves<'a> = Moves;

    fn to_move(&self) -> Player {
        self.side
    }

    fn legal_moves(&self) -> Moves {
        let full = self.occupied() == self.board.all;
        let isolated = self.isolated_cells().filter(|_| self.pending.is_none());
        // With isolation possible no placement captures, so the groups are not needed.
        let groups = if isolated.is_some() { Groups::none() } else { Groups::of(self.board, self.occupied()) };
        let (cells, removals) = match (self.pending, isolated) {
            (Some(p), _) => (0, self.removable(p)),
            (None, _) if full => (0, 0),
            (None, Some(cells)) => (cells, 0),
            (None, None) => (self.legal_cells(&groups), 0),
        };
        let swap = self.swap_is_legal();
        Moves { position: *self, groups, cells, capture: None, removals, swap }
    }

    fn play_unchecked(&mut self, mv: Move) {
        if mv.is_swap() {
            self.white = self.black;
            self.black = 0;
            self.side = Player::Black;
            return;
        }
        if mv.is_removal() {
            self.black &= !mv.removed;
            self.white &= !mv.removed;
            if let Some(p) = self.pending.as_mut() {
                p.remaining -= 1;
                if p.remaining == 0 {
                    self.pending = None; // the capture is done: the same player places again
                }
            }
            return;
        }
        let bit = 1u128 << mv.cell;
        let capture = if self.single_stones {
            let groups = Groups::of(self.board, self.occupied());
            self.capture_at(&groups, mv.cell).map(|c| c.group.count_ones() - c.keep)
        } else {
            (mv.removed != 0).then_some(0)
        };
        match self.side {
            Player::Black => self.black |= bit,
            Player::White => self.white |= bit,
        }
        self.black &= !mv.removed;
        self.white &= !mv.removed;
        match capture {
            None => self.side = self.side.other(),
            Some(0) => {}
            Some(remaining) => self.pending = Some(Pending { placed: mv.cell, remaining: remaining as u8 }),
        }
    }

    fn points(&self) -> (u32, u32) {
        self.score()
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        let (black, white) = self.score();
        Some(Outcome::by_count(black, white))
    }

    fn zobrist(&self) -> u64 {
        let keys = zobrist_keys();
        let mut hash = if self.side == Player::White { keys[256] } else { 0 };
        for (layer, stones) in [(0, self.black), (128, self.white)] {
            let mut rest = stones;
            while rest != 0 {
                hash ^= keys[layer + rest.trailing_zeros() as usize];
                rest &= rest - 1;
            }
        }
        if let Some(p) = self.pending {
            hash ^= keys[257 + p.placed as usize] ^ keys[257 + 128 + (p.remaining as usize).min(31)];
        }
        hash
    }

    /// The board is full and no capture is under way (in the single-stone form a capture can
    /// fill the board for a moment, before its removals).
    fn is_over(&self) -> bool {
        self.occupied() == self.board.all && self.pending.is_none()
    }

    /// Why `mv` is illegal here, or None.
    fn why_illegal(&self, mv: Move) -> Option<String> {
        if mv.is_swap() {
            return (!self.swap_is_legal()).then(|| {
                if self.swap {
                    "swap is only allowed as White's first move".into()
                } else {
                    "this game does not allow the swap".into()
                }
            });
        }
        if let Some(pending) = self.pending {
            if !mv.is_removal() {
                return Some(format!("a capture is under way: remove {} more stone(s) first", pending.remaining));
            }
            return (mv.removed & self.removable(pending) != mv.removed || mv.removed.count_ones() != 1)
                .then(|| "that stone cannot be removed: the group would split, or it is not in the group".into());
        }
        if mv.is_removal() {
            return Some("no capture is under way, so there is nothing to remove".into());
        }
        let name = self.board.cell_name(mv.cell);
        if self.occupied() >> mv.cell & 1 == 1 {
            return Some(format!("{name} is occupied"));
        }
        let groups = Groups::of(self.board, self.occupied());
        if self.legal_cells(&groups) >> mv.cell & 1 == 0 {
            return Some(format!("{name} is not allowed: another cell touches smaller groups"));
        }
        match (self.capture_at(&groups, mv.cell), mv.removed) {
            (None, 0) => None,
            (None, _) => Some(format!("{name} captures nothing, so nothing may be removed")),
            (Some(_), 0) if self.single_stones => None,
            (Some(_), 0) => Some(format!("{name} is a capture: name the stones it removes")),
            (Some(_), _) if self.single_stones => Some("in the single-stone form, remove one stone at a time".into()),
            (Some(Capture { group, keep, .. }), removed) => {
                let survivors = group & !removed;
                if removed & !group != 0 {
                    Some("a removed stone is not in the new group".into())
                } else if removed >> mv.cell & 1 == 1 {
                    Some("the placed stone cannot be removed".into())
                } else if survivors.count_ones() != keep {
                    Some(format!("the new group must keep {keep} stones, not {}", survivors.count_ones()))
                } else if self.board.component(1u128 << mv.cell, survivors) != survivors {
                    Some("the survivors would not be connected".into())
                } else {
                    None
                }
            }
        }
    }

    /// Counts captures' survivor sets without building them (saturating at `u64::MAX`;
    /// `count_moves_exact` never does).
    fn count_moves(&self) -> u64 {
        u64::try_from(self.count_moves_exact()).unwrap_or(u64::MAX)
    }

    /// Counts each cell's moves, picks one, and finds only the chosen capture's survivor set.
    fn sample_move(&self, rng: &mut crate::rng::SplitMix64) -> Option<Move> {
        if let Some(p) = self.pending {
            let removable = self.removable(p);
            let k = rng.below(removable.count_ones() as u64);
            return Some(Move::removal(nth_bit(removable, k as u32)));
        }
        if self.is_over() {
            return None;
        }
        if let Some(isolated) = self.isolated_cells() {
            let total = isolated.count_ones() as u64 + self.swap_is_legal() as u64;
            let k = rng.below(total);
            return Some(if k < isolated.count_ones() as u64 {
                Move { cell: nth_bit(isolated, k as u32), removed: 0 }
            } else {
                Move::SWAP
            });
        }
        let choices = self.moves_per_cell();
        let total: u128 = choices.iter().map(|c| c.2).fold(0, u128::saturating_add) + self.swap_is_legal() as u128;
        let mut k = survivors::below(rng, total);
        for (cell, capture, count) in choices {
            if k >= count {
                k -= count;
                continue;
            }
            return Some(match capture {
                None => Move { cell, removed: 0 },
                Some(capture) => Move { cell, removed: survivors::nth(self.board, capture, count, k) },
            });
        }
        Some(Move::SWAP)
    }

    fn parse_move(&self, text: &str) -> Result<Move> {
        notation::parse_move(self.board, text)
    }

    fn format_move(&self, mv: Move) -> String {
        notation::move_name(self.board, mv)
    }

    fn to_notation(&self) -> String {
        notation::write(self)
    }

    fn from_notation(text: &str) -> Result<Self> {
        notation::read(text)
    }
}

fn zobrist_keys() -> &'static [u64; 257 + 128 + 32] {
    crate::rng::zobrist_keys()
}

impl Rive {
    /// The number of legal moves, exact however large.
    pub fn count_moves_exact(&self) -> u128 {
        if let Some(p) = self.pending {
            return self.removable(p).count_ones() as u128;
        }
        if self.is_over() {
            return 0;
        }
        let swap = self.swap_is_legal() as u128;
        if let Some(isolated) = self.isolated_cells() {
            return isolated.count_ones() as u128 + swap;
        }
        self.moves_per_cell().iter().map(|c| c.2).fold(0, u128::saturating_add) + swap
    }

    /// Per legal cell (no capture under way, isolation impossible): the cell, its capture in
    /// compound form, and its number of moves.
    fn moves_per_cell(&self) -> Vec<(u8, Option<Capture>, u128)> {
        let groups = Groups::of(self.board, self.occupied());
        let mut cells = self.legal_cells(&groups);
        let mut choices = Vec::with_capacity(cells.count_ones() as usize);
        while cells != 0 {
            let cell = cells.trailing_zeros() as u8;
            cells &= cells - 1;
            let capture = self.capture_at(&groups, cell).filter(|_| !self.single_stones);
            choices.push((cell, capture, capture.map_or(1, |c| survivors::count(self.board, c))));
        }
        choices
    }

    /// A readable board: each row indented by its offset, cells `.`, `b`, `w`.
    pub fn text_board(&self) -> String {
        self.board.draw(|cell| notation::cell_char(self, cell))
    }
}
