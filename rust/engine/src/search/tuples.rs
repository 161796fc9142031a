//! Local patterns: an n-tuple network read around every cell, for the games whose boards come
//! in many shapes and sizes (Cephalopod, Rive, Strands). Reversi's fixed boards have patterns
//! of their own (reversi/patterns.rs); these games play on rectangles of any size, hexagons and
//! numbered layouts, so their patterns are *convolutional*: one small neighbourhood (a cell
//! and the cells around it) is read on every cell of the board, and every cell of every board
//! shares one table of weights. The estimate is the sum of what the cells look up plus the
//! game's linear features (search/eval.rs), with one set of weights per phase.
//!
//! A [`Family`] is the neighbourhood of one game: how many cells it reads, how many states a
//! cell has (empty, the mover's, the other's, off the board, and the dice's pips), and its
//! symmetries (the rotations and reflections of the hexagon or the square), under which
//! contents share an entry, so that symmetric positions get equal values exactly. A game
//! implements [`LocalPatterns`]: the raw content (a base-`states` number) of every cell's
//! neighbourhood. The training script reads the same entries (`Tuples::rows`), so the fit and
//! the engine cannot drift apart.

use super::eval::{Features, Linear};
use crate::error::{Error, Result};
use std::sync::OnceLock;

/// The weight files' format version: a file of another version is refused.
pub const FORMAT: u32 = 1;

/// The most cells a board of these games has (a neighbourhood is read on each).
pub const MAX_CELLS: usize = 128;

/// One game's neighbourhood and its symmetry classes.
#[derive(Debug)]
pub struct Family {
    pub name: &'static str,
    /// Cells read, the centre first.
    pub cells: usize,
    /// States a cell can be in.
    pub states: u32,
    /// For each of the `states^cells` contents, its canonical entry (below `entries`).
    canon: Vec<u32>,
    pub entries: usize,
}

impl Family {
    /// The family reading `cells` cells of `states` states, whose contents are equal under
    /// `symmetries` (each a permutation of the cells: cell `i` goes to `symmetry[i]`).
    pub fn new(name: &'static str, cells: usize, states: u32, symmetries: &[Vec<usize>]) -> Family {
        let contents = (states as usize).pow(cells as u32);
        let mut digits = vec![0u32; cells];
        let mut image = vec![0u32; cells];
        let mut smallest = vec![0u32; contents];
        for (raw, least) in smallest.iter_mut().enumerate() {
            let mut rest = raw as u32;
            for d in digits.iter_mut() {
                *d = rest % states;
                rest /= states;
            }
            *least = symmetries
                .iter()
                .map(|symmetry| {
                    for (i, &to) in symmetry.iter().enumerate() {
                        image[to] = digits[i];
                    }
                    image.iter().rev().fold(0u32, |n, &d| n * states + d)
                })
                .min()
                .unwrap_or(raw as u32);
        }
        // Entries numbered in the order of their smallest content.
        let mut entry_of = vec![u32::MAX; contents];
        let mut entries = 0u32;
        let canon = smallest
            .iter()
            .map(|&least| {
                if entry_of[least as usize] == u32::MAX {
                    entry_of[least as usize] = entries;
                    entries += 1;
                }
                entry_of[least as usize]
            })
            .collect();
        Family { name, cells, states, canon, entries: entries as usize }
    }

    /// The raw contents a cell's neighbourhood can have.
    pub fn contents(&self) -> usize {
        self.canon.len()
    }

    /// The canonical entry of a raw content.
    pub fn entry(&self, raw: u32) -> u32 {
        self.canon[raw as usize]
    }

    /// The hexagon: a cell and its six neighbours (hex.rs `around`, anticlockwise), each empty
    /// (0), the mover's (1), the other's (2) or off the board (3); the twelve symmetries of the
    /// hexagon. Rive and Strands read it.
    pub fn hexagon() -> &'static Family {
        static HEXAGON: OnceLock<Family> = OnceLock::new();
        HEXAGON.get_or_init(|| Family::new("hexagon", 7, 4, &ring_symmetries(6)))
    }

    /// The cross of dice: a square and its four neighbours (up, right, down, left), each empty
    /// (0), off the board (1), a die of the mover's (2-7, by its pips) or of the other's (8-13);
    /// the eight symmetries of the square. Cephalopod reads it: whether a placement captures,
    /// and what, is decided by the pips around the square.
    pub fn cross() -> &'static Family {
        static CROSS: OnceLock<Family> = OnceLock::new();
        CROSS.get_or_init(|| Family::new("cross", 5, DICE_STATES, &ring_symmetries(4)))
    }
}

/// A square of the cross: empty, off the board, then the mover's dice and the other's by pips.
pub const DICE_STATES: u32 = 14;

/// The symmetries of a centre and a ring of `n` cells around it, given anticlockwise: the `n`
/// rotations and the `n` reflections, the centre fixed.
pub fn ring_symmetries(n: usize) -> Vec<Vec<usize>> {
    let rotations = (0..n).map(|k| (0..n).map(|i| (i + k) % n).collect::<Vec<_>>());
    let reflections = (0..n).map(|k| (0..n).map(|i| (k + n - i) % n).collect::<Vec<_>>());
    rotations
        .chain(reflections)
        .map(|ring| std::iter::once(0).chain(ring.into_iter().map(|i| i + 1)).collect())
        .collect()
}

/// A game with local patterns: its family, and the raw content of every cell's neighbourhood.
pub trait LocalPatterns: Features {
    fn family() -> &'static Family;

    /// Writes the raw content of each cell's neighbourhood (from the side to move's view) into
    /// `out`, one per cell of the board, and returns how many cells the board has.
    fn local_patterns(&self, out: &mut [u32; MAX_CELLS]) -> usize;
}

/// The parameters of one phase: an entry per canonical content, then a bias and one weight per
/// linear feature.
pub fn params<P: LocalPatterns>() -> usize {
    P::family().entries + 1 + P::COUNT
}

/// A game's local-pattern weights, expanded to one table of raw contents per phase.
#[derive(Debug)]
pub struct Tuples {
    family: &'static Family,
    phases: usize,
    /// Per phase, the value of each raw content, in points.
    tables: Vec<f32>,
    /// The linear features' part: per phase, a bias and one weight per feature.
    linear: Linear,
}

impl Tuples {
    /// The weights of game `P`: `P::PHASES` phases of [`params`] numbers each, or why they do not
    /// fit it.
    pub fn new<P: LocalPatterns>(weights: &[f32]) -> Result<Tuples> {
        let family = P::family();
        let per_phase = params::<P>();
        if weights.len() != P::PHASES * per_phase {
            return Err(Error::invalid(format!(
                "{} local-pattern weights given, the {} family needs {} ({} phases of {} entries, a bias and {} features)",
                weights.len(),
                family.name,
                P::PHASES * per_phase,
                P::PHASES,
                family.entries,
                P::COUNT
            )));
        }
        if weights.iter().any(|w| !w.is_finite()) {
            return Err(Error::invalid("local-pattern weights must be finite numbers"));
        }
        let mut tables = Vec::with_capacity(P::PHASES * family.contents());
        let mut linear = Vec::with_capacity(P::PHASES * (1 + P::COUNT));
        for phase in weights.chunks(per_phase) {
            tables.extend(family.canon.iter().map(|&e| phase[e as usize]));
            linear.extend_from_slice(&phase[family.entries..]);
        }
        Ok(Tuples { family, phases: P::PHASES, tables, linear: Linear::new::<P>(linear)? })
    }

    /// The estimated final margin, in points, of `position` for its side to move.
    pub fn margin<P: LocalPatterns>(&self, position: &P) -> f32 {
        let phase = position.phase().min(self.phases - 1);
        let mut raw = [0u32; MAX_CELLS];
        let cells = position.local_patterns(&mut raw);
        let table = &self.tables[phase * self.family.contents()..(phase + 1) * self.family.contents()];
        let patterns: f32 = raw[..cells].iter().map(|&r| table[r as usize]).sum();
        patterns + self.linear.margin(position)
    }

    /// The training row of `position`: its phase, and the canonical entry of each cell (the
    /// columns the fit reads; `out` is cleared first).
    pub fn row<P: LocalPatterns>(position: &P, out: &mut Vec<u32>) -> usize {
        let mut raw = [0u32; MAX_CELLS];
        let cells = position.local_patterns(&mut raw);
        out.clear();
        out.extend(raw[..cells].iter().map(|&r| P::family().entry(r)));
        position.phase().min(P::PHASES - 1)
    }
}

/// The hexagon's raw content around every cell of a hex board, from `mine` and `theirs`.
pub fn hexagon_contents(board: &crate::hex::HexBoard, mine: u128, theirs: u128, out: &mut [u32; MAX_CELLS]) -> usize {
    let state = |cell: u8| -> u32 {
        if cell == crate::hex::HexBoard::NONE {
            3
        } else {
            (mine >> cell & 1) as u32 | ((theirs >> cell & 1) as u32) << 1
        }
    };
    for (cell, around) in board.around.iter().enumerate() {
        out[cell] = around.iter().rev().fold(0u32, |n, &c| n * 4 + state(c)) * 4 + state(cell as u8);
    }
    board.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hexagon_has_one_entry_per_content_up_to_its_twelve_symmetries() {
        let family = Family::hexagon();
        assert_eq!(family.contents(), 4usize.pow(7));
        // Burnside: the classes of 6 ring cells in 4 states under the dihedral group of order
        // 12 (430 necklaces with reflections), times the 4 states of the centre.
        assert_eq!(family.entries, 4 * 430);
    }

    #[test]
    fn the_cross_has_one_entry_per_content_up_to_its_eight_symmetries() {
        let family = Family::cross();
        assert_eq!(family.contents(), 14usize.pow(5));
        // Burnside over the dihedral group of order 8 acting on 4 squares in 14 states:
        // (14^4 + 2 * 14 + 14^2 + 2 * 14^3 + 2 * 14^2) / 8 = 5,565 rings, times the centre's 14.
        assert_eq!(family.entries, 14 * 5_565);
    }

    #[test]
    fn a_rotated_neighbourhood_reads_the_same_entry() {
        let family = Family::hexagon();
        let encode = |digits: [u32; 7]| digits.iter().rev().fold(0u32, |n, &d| n * 4 + d);
        let one = encode([1, 2, 0, 0, 3, 3, 1]);
        let rotated = encode([1, 1, 2, 0, 0, 3, 3]);
        let reflected = encode([1, 1, 3, 3, 0, 0, 2]);
        assert_eq!(family.entry(one), family.entry(rotated));
        assert_eq!(family.entry(one), family.entry(reflected));
        assert_ne!(family.entry(one), family.entry(encode([2, 2, 0, 0, 3, 3, 1])));
    }
}
