//! Colour-free path counting (`count_paths(depth, owners=False)`, docs/cephalopod.md).
//!
//! Which moves a Cephalopod position offers depends only on which squares hold how many pips:
//! never on who owns the dice, nor on whose turn it is (a placement always puts a 1, a capture
//! the sum of the captured pips, whoever moves). So positions that differ only in owners and side
//! to move have the same futures, move for move, and `count_paths` may merge them.
//!
//! [`PipsOnly`] is a Cephalopod position seen through that lens: its compact key holds the pips
//! alone (3 bits a square), so the generic layer loop of `paths::count_paths` merges by pips with
//! no code of its own (the same memory bound, `TooLarge` rule and `Stop` as every game). Rebuilt
//! from a key it is the board with every die Black's and Black to move: one representative of
//! the positions merged under that key.

use super::{captures, Cephalopod, Move};
use crate::error::{Error, Result};
use crate::game::{Player, Position};
use crate::paths::CompactKey;

/// A Cephalopod position whose `count_paths` key ignores owners and the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PipsOnly(pub Cephalopod);

/// The largest board a pips-only key holds: 42 squares of 3 bits fill bits 0 to 125 of a `u128`.
/// (The owner-aware key needs 4 bits a square and 1 for the side to move: 31 squares, 125 bits.)
pub const MAX_SQUARES: usize = 42;

/// Where square `square`'s pips (0-6, 3 bits) sit in a pips-only key: square 0 highest (bits 123
/// to 125), so keys sort as boards read in board order.
pub(super) fn pips_shift(square: usize) -> u32 {
    3 * (MAX_SQUARES - 1 - square) as u32
}

/// The pips on `square` in a pips-only key.
fn key_pips(key: u128, square: usize) -> u8 {
    (key >> pips_shift(square) & 0b111) as u8
}

impl PipsOnly {
    /// The pips of every square of the board in board order (0 for an empty square).
    pub fn pips_cells(key: u128, squares: usize) -> impl Iterator<Item = u8> {
        (0..squares).map(move |square| key_pips(key, square))
    }
}

impl Position for PipsOnly {
    type Move = Move;
    type Moves<'a> = super::Moves<'a>;

    crate::delegate_position!();

    fn from_notation(text: &str) -> Result<Self> {
        Cephalopod::from_notation(text).map(PipsOnly)
    }
}

/// The key: 3 bits a square (pips 0-6), square 0 highest (bits 90-92); nothing else.
impl CompactKey for PipsOnly {
    type Key = u128;

    fn compact_key(&self) -> u128 {
        let squares = self.0.rect.len();
        (0..squares).fold(0, |key, square| key | (self.0.pips[square] as u128) << pips_shift(square))
    }

    /// The board of `key` with every die Black's, Black to move.
    fn from_compact_key(&self, key: u128) -> Self {
        let mut p = Cephalopod::empty(self.0.rect, Player::Black);
        for square in 0..self.0.rect.len() {
            match key_pips(key, square) {
                0 => {}
                pips => p.put(square as u8, Player::Black, pips),
            }
        }
        PipsOnly(p)
    }

    /// Straight on the key, as `Cephalopod::for_each_child` with the owner codes left out.
    fn for_each_child(&self, key: u128, mut child: impl FnMut(u128)) -> bool {
        let squares = self.0.rect.len();
        // A missing neighbour (index past the board) reads as an empty square.
        let pips = |square: u8| if square as usize >= squares { 0 } else { key_pips(key, square as usize) };
        let neighbours = &self.0.rect.neighbours;
        captures::for_each_move(neighbours, pips, |square, captured, placed| {
            let mut next = key;
            for (slot, &n) in neighbours[square].iter().enumerate() {
                if captured >> slot & 1 == 1 {
                    next &= !(0b111u128 << pips_shift(n as usize));
                }
            }
            child(next | (placed as u128) << pips_shift(square));
        })
    }

    /// Boards of at most [`MAX_SQUARES`] (42) squares: 3 bits a square in 128 bits, where the
    /// owner-aware key (4 bits a square and the side to move) stops at 31.
    fn key_fits(&self) -> Result<()> {
        if self.0.rect.len() > MAX_SQUARES {
            return Err(Error::invalid(format!(
                "count_paths(owners=False) needs a board of at most {MAX_SQUARES} squares (its key is 3 bits \
                 a square in 128 bits); {} has {}",
                self.0.rect.size_name(),
                self.0.rect.len()
            )));
        }
        Ok(())
    }

    /// `+p` for a die showing `p` (no owner: every cell is 0 to 6).
    fn key_cells(&self, key: u128, out: &mut Vec<i8>) {
        out.extend(Self::pips_cells(key, self.0.rect.len()).map(|p| p as i8));
    }

    /// Always Black: the key holds no side to move (the rows merge both).
    fn key_to_move(&self, _key: u128) -> Player {
        Player::Black
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::paths::count_paths;
    use std::collections::HashMap;

    /// The owner-aware counts summed by pips-only board, as the colour-free count must give.
    fn summed_by_pips(root: &Cephalopod, depth: u32) -> Vec<(u128, u128)> {
        let squares = root.rect.len();
        let mut merged: HashMap<u128, u128> = HashMap::new();
        for (key, count) in count_paths(root, depth).unwrap() {
            let cells = super::super::key_cells(key, squares);
            let board =
                cells.enumerate().fold(0u128, |k, (square, c)| k | (c.unsigned_abs() as u128) << pips_shift(square));
            *merged.entry(board).or_insert(0) += count;
        }
        let mut rows: Vec<(u128, u128)> = merged.into_iter().collect();
        rows.sort_unstable();
        rows
    }

    #[test]
    fn colour_free_counts_are_the_owner_aware_counts_summed_by_pips() {
        for (notation, depth) in [
            ("2x2 ../.. b", 6),
            ("3x3 .../.../... b", 6),
            ("3x3 1b.2w/.../3b.2b b", 5),
            ("2x3 .1w./... w", 6),
            ("4x4 ..../..../..../.... b", 4),
        ] {
            let root = Cephalopod::from_notation(notation).unwrap();
            let colour_free = count_paths(&PipsOnly(root), depth).unwrap();
            assert_eq!(colour_free, summed_by_pips(&root, depth), "{notation} depth {depth}");
        }
    }

    #[test]
    fn the_empty_3x3_board_merges_to_fewer_positions_with_the_same_total() {
        let root = Cephalopod::new(3, 3).unwrap();
        let aware = count_paths(&root, 8).unwrap();
        let free = count_paths(&PipsOnly(root), 8).unwrap();
        assert!(free.len() < aware.len());
        let total = |rows: &[(u128, u128)]| rows.iter().map(|&(_, c)| c).sum::<u128>();
        assert_eq!(total(&free), total(&aware));
        assert_eq!(total(&free), root.perft(8, crate::perft::Plies::EveryMove, 1) as u128);
    }

    #[test]
    fn a_stopped_colour_free_count_is_interrupted() {
        let stop = crate::interrupt::Stop::new();
        stop.request();
        let root = PipsOnly(Cephalopod::new(3, 3).unwrap());
        assert_eq!(crate::paths::count_paths_interruptible(&root, 5, &stop), Err(crate::error::Error::Interrupted));
    }

    #[test]
    fn boards_over_42_squares_are_refused() {
        for (rows, cols) in [(7, 7), (6, 8), (8, 8)] {
            let root = Cephalopod::new(rows, cols).unwrap();
            let refused = count_paths(&PipsOnly(root), 1).unwrap_err();
            assert!(refused.to_string().contains("at most 42 squares"), "{refused}");
        }
    }

    /// Boards of 32 to 42 squares, past the owner-aware key's 31: the colour-free count holds
    /// them, with the same total as perft (5x8 and 6x7 fill the key to bits 3 and 0), and the
    /// owner-aware count refuses them.
    #[test]
    fn boards_of_32_to_42_squares_are_counted_colour_free() {
        for (rows, cols, depth) in [(4, 8, 3), (5, 8, 3), (6, 7, 3), (6, 7, 4)] {
            let root = Cephalopod::new(rows, cols).unwrap();
            let rows_counted = count_paths(&PipsOnly(root), depth).unwrap();
            let total: u128 = rows_counted.iter().map(|&(_, c)| c).sum();
            assert_eq!(total, root.perft(depth, crate::perft::Plies::EveryMove, 1) as u128, "{rows}x{cols}");
            assert!(count_paths(&root, depth).is_err());
        }
        // A start with dice on the last squares (their pips sit in the key's lowest bits).
        let root = Cephalopod::from_notation("6x7 ......./......./......./......./......./....1b2w. b").unwrap();
        let free = count_paths(&PipsOnly(root), 3).unwrap();
        let total: u128 = free.iter().map(|&(_, c)| c).sum();
        assert_eq!(total, root.perft(3, crate::perft::Plies::EveryMove, 1) as u128);
        let pips_on = |key: u128, square: usize| PipsOnly::pips_cells(key, 42).nth(square).unwrap();
        assert!(free.iter().any(|&(key, _)| pips_on(key, 40) == 2 && pips_on(key, 41) == 0));
    }
}
