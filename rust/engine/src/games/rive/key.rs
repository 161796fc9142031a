//! Rive's `count_paths` key (docs/rive.md, "Counting paths"): the stones, the side to move and a
//! capture under way. The side says whose placement it is, also after a capture (the capturer
//! places again); the capture under way (single-stone form) says which stones may go next. The
//! swap needs nothing more: it is legal exactly on White's first turn, read from the stones. The
//! board and the variant's rules are the root's.

use super::{Pending, Rive};
use crate::game::Player;
use crate::paths::CompactKey;

/// Black's stones, White's, and the turn's state: bit 0 the side to move (1 White), bit 1 set
/// while a capture is under way, whose placed cell is in bits 2-8 and the stones still to remove
/// in bits 9-15. Ordered by Black's stones, then White's, then the state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RiveKey {
    pub black: u128,
    pub white: u128,
    pub state: u16,
}

impl RiveKey {
    pub fn to_move(self) -> Player {
        if self.state & 1 == 1 {
            Player::White
        } else {
            Player::Black
        }
    }

    pub fn pending(self) -> Option<Pending> {
        (self.state & 2 != 0)
            .then_some(Pending { placed: (self.state >> 2 & 0x7F) as u8, remaining: (self.state >> 9) as u8 })
    }
}

impl CompactKey for Rive {
    type Key = RiveKey;

    fn compact_key(&self) -> RiveKey {
        let pending = self.pending.map_or(0, |p| 2 | (p.placed as u16) << 2 | (p.remaining as u16) << 9);
        RiveKey { black: self.black, white: self.white, state: self.side as u16 | pending }
    }

    fn from_compact_key(&self, key: RiveKey) -> Rive {
        Rive { black: key.black, white: key.white, side: key.to_move(), pending: key.pending(), ..*self }
    }

    /// Every cell in board order.
    fn key_cells(&self, key: RiveKey, out: &mut Vec<i8>) {
        crate::paths::stone_cells(key.black, key.white, self.board.len(), out);
    }

    fn key_to_move(&self, key: RiveKey) -> Player {
        key.to_move()
    }
}

/// Boards of up to this many cells have a dense index for the exact solver (search/memo.rs): a
/// byte for each of 2 * 3**19 positions is 2.3 GB, taken only as the solve reaches them.
pub const DENSE_CELLS: usize = 19;

impl crate::search::DenseKey for Rive {
    /// The stones read as a base-3 number (0 empty, 1 Black, 2 White; the first cell the least
    /// significant digit), times two, plus 1 when White moves. Compound moves only: the
    /// single-stone form's captures under way are states the index does not cover.
    fn dense_key(&self) -> Option<(u64, u64)> {
        let cells = self.board.len();
        if cells > DENSE_CELLS || self.single_stones {
            return None;
        }
        let index = (0..cells).rev().fold(0u64, |index, cell| {
            let digit = (self.black >> cell & 1) as u64 + 2 * (self.white >> cell & 1) as u64;
            3 * index + digit
        });
        Some((2 * index + u64::from(self.side == Player::White), 2 * 3u64.pow(cells as u32)))
    }
}
