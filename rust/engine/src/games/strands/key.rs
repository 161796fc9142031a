//! Strands' `count_paths` key (docs/strands.md, "Counting paths"): the stones and the side to
//! move. A ply is a whole turn (all the cells it covers), so positions are only ever keyed at turn
//! boundaries, where nothing else is pending; which cells are empty, and their labels, follow from
//! the stones and the root's layout (a covered cell stays covered).

use super::Strands;
use crate::game::Player;
use crate::paths::CompactKey;

/// Black's stones, White's, and the side to move (0 Black, 1 White). Ordered in that order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StrandsKey {
    pub black: u128,
    pub white: u128,
    pub side: u8,
}

impl StrandsKey {
    pub fn to_move(self) -> Player {
        if self.side == 1 {
            Player::White
        } else {
            Player::Black
        }
    }
}

impl CompactKey for Strands {
    type Key = StrandsKey;

    fn compact_key(&self) -> StrandsKey {
        StrandsKey { black: self.black, white: self.white, side: self.side as u8 }
    }

    /// `self` must be the key's root or an ancestor of it: the labels of the key's empty cells
    /// are read from `self`'s empty cells.
    fn from_compact_key(&self, key: StrandsKey) -> Strands {
        let covered = key.black | key.white;
        Strands {
            black: key.black,
            white: key.white,
            side: key.to_move(),
            empty: self.empty.map(|set| set & !covered),
            ..*self
        }
    }

    /// Every cell in board order.
    fn key_cells(&self, key: StrandsKey, out: &mut Vec<i8>) {
        crate::paths::stone_cells(key.black, key.white, self.board.len(), out);
    }

    fn key_to_move(&self, key: StrandsKey) -> Player {
        key.to_move()
    }
}
