//! Cephalopod: dice on a rectangle, captures of two or more neighbouring dice summing to 6 or less.
//!
//! Positions are built from a [`Setup`] by `Setup::validate` (setup.rs), which holds the rules a
//! position keeps; the notation (notation.rs) only says what to set up.

mod actions;
mod captures;
mod features;
mod game;
mod naming;
mod notation;
mod orbits;
mod pips;
mod searchable;
mod setup;

pub use naming::CephalopodNaming;

pub use actions::CephalopodActions;
pub use captures::{for_each_move, CaptureTable, SUBSETS};
pub use game::{CephalopodGame, Variant};
pub use notation::{move_name, parse_move, parse_size};
pub use orbits::{colour_free_paths, colour_free_totals, totals_of_rows, Options as CountOptions};
pub use pips::PipsOnly;
pub use setup::{Setup, SetupError};

use crate::error::{Error, Result};
use crate::game::{Outcome, Player, Position};
use crate::paths::CompactKey;
use crate::square::Rect;

/// A placement: the square and the capture set as a mask over its neighbour slots (up, left,
/// right, down); 0 for a plain placement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    pub square: u8,
    pub capture: u8,
}

impl Move {
    /// The squares a capture removes, in board order.
    pub fn captured(self, rect: &Rect) -> Vec<u8> {
        let n = rect.neighbours[self.square as usize];
        (0..4).filter(|slot| self.capture >> slot & 1 == 1).map(|slot| n[slot]).collect()
    }
}

/// A Cephalopod position.
#[derive(Clone, Copy)]
pub struct Cephalopod {
    /// Pips per square (0 = empty); one extra always-empty entry stands for "no neighbour", so
    /// neighbour lookups need no branch.
    pips: [u8; 65],
    white: u64,
    occupied: u64,
    side: Player,
    rect: &'static Rect,
}

impl PartialEq for Cephalopod {
    fn eq(&self, other: &Self) -> bool {
        self.pips == other.pips
            && self.white == other.white
            && self.side == other.side
            && (self.rect.rows, self.rect.cols) == (other.rect.rows, other.rect.cols)
    }
}

impl Eq for Cephalopod {}

impl std::fmt::Debug for Cephalopod {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_notation())
    }
}

impl Cephalopod {
    /// The empty board, Black to move; an error if rows or columns are not from 2 to 8.
    pub fn new(rows: u8, cols: u8) -> Result<Self> {
        Ok(Setup::empty(rows, cols).validate()?)
    }

    /// The empty board of `rect`: where `Setup::validate` and key decoding start.
    fn empty(rect: &'static Rect, side: Player) -> Self {
        Cephalopod { pips: [0; 65], white: 0, occupied: 0, side, rect }
    }

    pub fn rect(&self) -> &'static Rect {
        self.rect
    }

    /// The die on a square: (owner, pips).
    pub fn die(&self, square: u8) -> Option<(Player, u8)> {
        let pips = self.pips[square as usize];
        (pips != 0).then(|| (if self.white >> square & 1 == 1 { Player::White } else { Player::Black }, pips))
    }

    /// Puts a die on a square: for moves, `Setup::validate` and key decoding only.
    fn put(&mut self, square: u8, owner: Player, pips: u8) {
        self.pips[square as usize] = pips;
        self.occupied |= 1 << square;
        if owner == Player::White {
            self.white |= 1 << square;
        } else {
            self.white &= !(1 << square);
        }
    }

    fn clear(&mut self, square: u8) {
        self.pips[square as usize] = 0;
        self.occupied &= !(1 << square);
        self.white &= !(1 << square);
    }

    fn empties(&self) -> u64 {
        self.rect.all() & !self.occupied
    }

    #[inline(always)]
    fn neighbour_pips(&self, square: u8) -> [u8; 4] {
        let n = self.rect.neighbours[square as usize];
        [self.pips[n[0] as usize], self.pips[n[1] as usize], self.pips[n[2] as usize], self.pips[n[3] as usize]]
    }

    /// The capture sets on an empty square, as bits over `SUBSETS`.
    #[inline(always)]
    fn captures(&self, square: u8) -> u16 {
        CaptureTable::get().valid(captures::key(self.neighbour_pips(square)))
    }
}

/// The legal moves, generated square by square without allocating.
#[derive(Clone)]
pub struct Moves<'a> {
    position: &'a Cephalopod,
    empties: u64,
    square: u8,
    /// Capture sets of `square` not yet produced (bits over `SUBSETS`).
    pending: u16,
}

impl Iterator for Moves<'_> {
    type Item = Move;
    fn next(&mut self) -> Option<Move> {
        if self.pending != 0 {
            let i = self.pending.trailing_zeros();
            self.pending &= self.pending - 1;
            return Some(Move { square: self.square, capture: SUBSETS[i as usize] });
        }
        if self.empties == 0 {
            return None;
        }
        let square = self.empties.trailing_zeros() as u8;
        self.empties &= self.empties - 1;
        let valid = self.position.captures(square);
        if valid == 0 {
            return Some(Move { square, capture: 0 });
        }
        self.square = square;
        let i = valid.trailing_zeros();
        self.pending = valid & (valid - 1);
        Some(Move { square, capture: SUBSETS[i as usize] })
    }
}

impl Position for Cephalopod {
    type Move = Move;
    type Moves<'a> = Moves<'a>;

    fn to_move(&self) -> Player {
        self.side
    }

    fn legal_moves(&self) -> Moves<'_> {
        Moves { position: self, empties: self.empties(), square: 0, pending: 0 }
    }

    // `slot` is both a bit of the capture mask and an index into the neighbours.
    #[allow(clippy::needless_range_loop)]
    #[inline]
    fn play_unchecked(&mut self, mv: Move) {
        let mut pips = 1;
        if mv.capture != 0 {
            let n = self.rect.neighbours[mv.square as usize];
            pips = 0;
            for slot in 0..4 {
                if mv.capture >> slot & 1 == 1 {
                    pips += self.pips[n[slot] as usize];
                    self.clear(n[slot]);
                }
            }
        }
        self.put(mv.square, self.side, pips);
        self.side = self.side.other();
    }

    /// (black dice, white dice)
    fn score(&self) -> (u32, u32) {
        let white = self.white.count_ones();
        (self.occupied.count_ones() - white, white)
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.empties() != 0 {
            return None;
        }
        let (black, white) = self.score();
        Some(Outcome::by_count(black, white))
    }

    fn zobrist(&self) -> u64 {
        let keys = zobrist_keys();
        let mut hash = if self.side == Player::White { keys[12 * 64] } else { 0 };
        let mut dice = self.occupied;
        while dice != 0 {
            let square = dice.trailing_zeros() as u8;
            dice &= dice - 1;
            let c = self.rect.coord(square);
            let code = self.pips[square as usize] as usize + if self.white >> square & 1 == 1 { 6 } else { 0 };
            hash ^= keys[(code - 1) * 64 + c.row as usize * 8 + c.col as usize];
        }
        hash
    }

    fn is_over(&self) -> bool {
        self.empties() == 0
    }

    /// Why a move is illegal, or None.
    fn why_illegal(&self, mv: Move) -> Option<String> {
        if mv.square as usize >= self.rect.len() {
            return Some(format!("square {} is off this {}x{} board", mv.square, self.rect.rows, self.rect.cols));
        }
        let name = self.rect.name(mv.square);
        if self.occupied >> mv.square & 1 == 1 {
            return Some(format!("{name} is occupied"));
        }
        let valid = self.captures(mv.square);
        if mv.capture == 0 {
            return (valid != 0).then(|| format!("a capture is possible on {name}, so placing there must capture"));
        }
        if mv.capture.count_ones() < 2 {
            return Some("a capture takes two or more dice".into());
        }
        let pips = self.neighbour_pips(mv.square);
        let n = self.rect.neighbours[mv.square as usize];
        for slot in 0..4 {
            if mv.capture >> slot & 1 == 1 && pips[slot] == 0 {
                return Some(format!("{} holds no die to capture", self.rect.name(n[slot])));
            }
        }
        let sum = captures::sum_of(pips, mv.capture).unwrap_or(0);
        (sum > 6).then(|| format!("the captured dice sum to {sum}, more than 6"))
    }

    #[inline]
    fn count_moves(&self) -> u64 {
        let table = CaptureTable::get();
        let mut empties = self.empties();
        let mut moves = 0;
        while empties != 0 {
            let square = empties.trailing_zeros() as u8;
            empties &= empties - 1;
            moves += table.moves(captures::key(self.neighbour_pips(square)));
        }
        moves
    }

    /// Each child is made and unmade on one scratch copy, touching only what counting reads
    /// (pips and occupancy). (`slot` is both a bit of the capture mask and a neighbour index.)
    #[allow(clippy::needless_range_loop)]
    fn perft2(&self) -> u64 {
        let mut scratch = *self;
        let mut leaves = 0;
        let mut any = false;
        for mv in self.legal_moves() {
            any = true;
            let n = self.rect.neighbours[mv.square as usize];
            let mut placed = if mv.capture == 0 { 1 } else { 0 };
            for slot in 0..4 {
                if mv.capture >> slot & 1 == 1 {
                    placed += scratch.pips[n[slot] as usize];
                    scratch.pips[n[slot] as usize] = 0;
                    scratch.occupied &= !(1 << n[slot]);
                }
            }
            scratch.pips[mv.square as usize] = placed;
            scratch.occupied |= 1 << mv.square;
            leaves += scratch.count_moves().max(1);
            scratch.pips = self.pips;
            scratch.occupied = self.occupied;
        }
        if any {
            leaves
        } else {
            1
        }
    }

    fn parse_move(&self, text: &str) -> Result<Move> {
        notation::parse_move(self.rect, text)
    }

    fn format_move(&self, mv: Move) -> String {
        notation::move_name(self.rect, mv)
    }

    fn to_notation(&self) -> String {
        notation::write(self)
    }

    fn from_notation(text: &str) -> Result<Self> {
        notation::read(text)
    }
}

/// The key of `count_paths` (docs/cephalopod.md): the side to move in bit 127, then 4 bits per
/// square from the top, square 0 highest, each 0 (empty), 1-6 (black pips) or 7-12 (white).
impl CompactKey for Cephalopod {
    type Key = u128;

    fn compact_key(&self) -> u128 {
        let mut key = (self.side as u128) << 127;
        for square in 0..self.rect.len() {
            let code = self.die(square as u8).map_or(0, |(owner, pips)| pips + 6 * owner as u8);
            key |= (code as u128) << key_shift(square);
        }
        key
    }

    fn from_compact_key(&self, key: u128) -> Self {
        let mut p = Cephalopod::empty(self.rect, key_to_move(key));
        for square in 0..self.rect.len() {
            if let Some((owner, pips)) = key_die(key, square) {
                p.put(square as u8, owner, pips);
            }
        }
        p
    }

    /// Straight on the key: read the neighbours' codes, look the capture sets up, and write the
    /// placed die, clear the captured ones and flip the side bit.
    fn for_each_child(&self, key: u128, mut child: impl FnMut(u128)) -> bool {
        let squares = self.rect.len();
        let shift = |square: usize| 120 - 4 * square as u32;
        let code = |square: u8| -> u8 {
            if square as usize >= squares {
                0
            } else {
                (key >> shift(square as usize) & 0xF) as u8
            }
        };
        let side = (key >> 127) as u8;
        let flipped = key ^ (1u128 << 127);
        let neighbours = &self.rect.neighbours;
        let pips = |square: u8| match code(square) {
            c if c > 6 => c - 6,
            c => c,
        };
        captures::for_each_move(neighbours, pips, |square, captured, placed| {
            let mut next = flipped;
            for (slot, &n) in neighbours[square].iter().enumerate() {
                if captured >> slot & 1 == 1 {
                    next &= !(0xFu128 << shift(n as usize));
                }
            }
            child(next | ((placed + 6 * side) as u128) << shift(square));
        })
    }

    fn key_fits(&self) -> Result<()> {
        if self.rect.len() > 31 {
            return Err(Error::invalid(format!(
                "count_paths needs a board of at most 31 squares (its key is 128 bits); {} has {}",
                self.rect.size_name(),
                self.rect.len()
            )));
        }
        Ok(())
    }

    fn key_cells(&self, key: u128, out: &mut Vec<i8>) {
        out.extend(key_cells(key, self.rect.len()));
    }

    fn key_to_move(&self, key: u128) -> Player {
        key_to_move(key)
    }
}

/// Where square `square`'s 4-bit code sits in a compact key.
fn key_shift(square: usize) -> usize {
    120 - 4 * square
}

/// The side to move in a compact key.
pub fn key_to_move(key: u128) -> Player {
    if key >> 127 == 1 {
        Player::White
    } else {
        Player::Black
    }
}

/// The die on `square` in a compact key: (owner, pips), or `None` for an empty square.
fn key_die(key: u128, square: usize) -> Option<(Player, u8)> {
    match (key >> key_shift(square) & 0xF) as u8 {
        0 => None,
        code @ 1..=6 => Some((Player::Black, code)),
        code => Some((Player::White, code - 6)),
    }
}

/// The squares of a compact key on a board of `squares` squares, as `PathCounts.cells` gives
/// them (docs/cephalopod.md): `+p` a black die showing `p`, `-p` a white one, 0 empty.
pub fn key_cells(key: u128, squares: usize) -> impl Iterator<Item = i8> {
    // Straight from the codes (0 empty, 1-6 black, 7-12 white): this runs over every result row.
    (0..squares).map(move |square| match (key >> key_shift(square) & 0xF) as i8 {
        code @ 7..=12 => 6 - code,
        code => code,
    })
}

fn zobrist_keys() -> &'static [u64; 12 * 64 + 1] {
    crate::rng::zobrist_keys()
}

/// A readable board: column letters, then one numbered line per row, each die as pips and owner.
impl Cephalopod {
    pub fn text_board(&self) -> String {
        let letters: Vec<String> = (0..self.rect.cols).map(|c| format!(" {}", (b'a' + c) as char)).collect();
        let mut out = format!("   {}", letters.join(" "));
        for r in 0..self.rect.rows {
            let cells: Vec<String> = (0..self.rect.cols)
                .map(|c| match self.die(r * self.rect.cols + c) {
                    None => " .".to_string(),
                    Some((owner, pips)) => format!("{pips}{}", owner.letter()),
                })
                .collect();
            out.push_str(&format!("\n{:>2} {}", r + 1, cells.join(" ")));
        }
        out
    }
}

impl crate::cells::Cells for Cephalopod {
    fn cell_names(&self) -> Vec<String> {
        (0..self.rect().len() as u8).map(|square| self.rect().name(square)).collect()
    }

    fn contents(&self, name: &str) -> Result<crate::cells::Contents> {
        use crate::cells::Contents;
        let c = crate::square::Coord::parse(name)?;
        let rect = self.rect();
        let square = rect
            .index(c)
            .ok_or_else(|| Error::invalid(format!("{} is not a square of the {} board", c.name(), rect.size_name())))?;
        Ok(self.die(square).map_or(Contents::Empty, |(player, pips)| Contents::Piece { player, pips }))
    }
}
