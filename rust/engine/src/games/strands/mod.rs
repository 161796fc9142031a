//! Strands: cover cells of one label per turn; the biggest groups win (docs/strands.md).
//!
//! A position keeps the empty cells of each label as a bitboard, so a turn's moves are the
//! combinations of one label's empty cells: counted with binomials, drawn by unranking, and
//! generated one combination after another without a list. Where each rule lives:
//! `setup.rs` (which positions exist), `layouts.rs` (the named and random layouts),
//! `moves.rs` (what a turn may cover, and the order of the moves), `combinatorics.rs`
//! (counting and unranking combinations), `scoring.rs` (who wins), `notation.rs`, `actions.rs`
//! (the step form), `game.rs` (records); this file: the position and its `Position` impl.

mod actions;
mod combinatorics;
mod features;
mod game;
mod key;
mod layouts;
mod moves;
mod naming;
mod notation;
mod scoring;
mod searchable;
mod setup;

pub use naming::StrandsNaming;

pub use actions::StrandsActions;
pub use game::{StrandsGame, Variant};
pub use key::StrandsKey;
pub use layouts::{digit_row, layout_named, layout_names, named_layout, parse_digit_row, DEFAULT_LAYOUT, LAYOUTS};
pub use moves::{Cover, Moves};
pub use notation::{move_name, parse_move, parse_setup};
pub use setup::{Cell, Setup, SetupError};

use crate::error::Result;
use crate::game::{Outcome, Player, Position};
use crate::hex::HexBoard;
use crate::rng::SplitMix64;
use combinatorics::unrank_combination;

/// A turn: the cells it covers (all of one label).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    pub cells: u128,
}

/// A Strands position.
#[derive(Clone, Copy)]
pub struct Strands {
    black: u128,
    white: u128,
    /// The empty cells of each label (index label - 1).
    empty: [u128; 6],
    side: Player,
    cover: Cover,
    board: &'static HexBoard,
}

impl PartialEq for Strands {
    fn eq(&self, other: &Self) -> bool {
        (self.black, self.white, self.empty, self.side, self.cover)
            == (other.black, other.white, other.empty, other.side, other.cover)
            && std::ptr::eq(self.board, other.board)
    }
}

impl Eq for Strands {}

impl std::fmt::Debug for Strands {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_notation())
    }
}

impl Strands {
    /// The start of a game on these rows of labels (errors name `layout`).
    pub fn new(rows: &[Vec<u8>], cover: Cover) -> Result<Strands> {
        Setup::start(rows, cover).validate().map_err(SetupError::in_layout)
    }

    pub fn board(&self) -> &'static HexBoard {
        self.board
    }

    pub fn cover(&self) -> Cover {
        self.cover
    }

    pub fn stones(&self, player: Player) -> u128 {
        match player {
            Player::Black => self.black,
            Player::White => self.white,
        }
    }

    /// The label of an empty cell (None if covered).
    pub fn label(&self, cell: u8) -> Option<u8> {
        (0..6).find(|&l| self.empty[l] >> cell & 1 == 1).map(|l| l as u8 + 1)
    }

    /// The side of the hexhex board (its middle row has `2 * side - 1` cells).
    pub fn side(&self) -> u8 {
        self.board.side()
    }

    /// Black's opening: no stone on the board yet.
    fn opening(&self) -> bool {
        self.black | self.white == 0
    }
}

impl Position for Strands {
    type Move = Move;
    type Moves<'a> = Moves;

    fn to_move(&self) -> Player {
        self.side
    }

    fn legal_moves(&self) -> Moves {
        Moves::new(*self)
    }

    #[inline(always)]
    fn play_unchecked(&mut self, mv: Move) {
        match self.side {
            Player::Black => self.black |= mv.cells,
            Player::White => self.white |= mv.cells,
        }
        // A turn's cells share one label, so clearing them from every label's set changes only
        // that one: cheaper than finding it.
        for set in &mut self.empty {
            *set &= !mv.cells;
        }
        self.side = self.side.other();
    }

    /// The size of each player's largest group.
    fn score(&self) -> (u32, u32) {
        (self.largest_group(Player::Black), self.largest_group(Player::White))
    }

    #[inline(always)]
    fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        Some(match self.compare_groups() {
            std::cmp::Ordering::Greater => Outcome::Winner(Player::Black),
            std::cmp::Ordering::Less => Outcome::Winner(Player::White),
            std::cmp::Ordering::Equal => Outcome::Draw,
        })
    }

    fn zobrist(&self) -> u64 {
        let keys = zobrist_keys();
        let mut hash = if self.side == Player::White { keys[256] } else { 0 };
        let layers =
            [(0usize, self.black), (128, self.white)].into_iter().chain((0..6).map(|l| (257 + l * 128, self.empty[l])));
        for (base, set) in layers {
            let mut rest = set;
            while rest != 0 {
                hash ^= keys[base + rest.trailing_zeros() as usize];
                rest &= rest - 1;
            }
        }
        hash
    }

    fn is_over(&self) -> bool {
        self.black | self.white == self.board.all
    }

    fn why_illegal(&self, mv: Move) -> Option<String> {
        let b = self.board;
        let names = |set: u128| {
            (0..b.len() as u8).filter(|&c| set >> c & 1 == 1).map(|c| b.cell_name(c)).collect::<Vec<_>>().join(",")
        };
        let covered = mv.cells & (self.black | self.white);
        if mv.cells == 0 {
            return Some("a turn covers at least one cell".into());
        }
        if covered != 0 {
            return Some(format!("{} is already covered", names(covered)));
        }
        let label = match (0..6).find(|&l| self.empty[l] & mv.cells == mv.cells) {
            Some(l) => l,
            None => return Some("all cells of a turn must carry the same label".into()),
        };
        if self.opening() {
            return (label != 1 || mv.cells.count_ones() != 1)
                .then(|| "Black's opening covers exactly one cell labelled 2".into());
        }
        let (low, high) = self.sizes(label, self.empty[label].count_ones());
        let k = mv.cells.count_ones();
        (!(low..=high).contains(&k)).then(|| match self.cover {
            Cover::UpTo => format!("a turn on label {} covers 1 to {high} cells, not {k}", label + 1),
            Cover::Exact => format!("a turn on label {} covers exactly {high} cells, not {k}", label + 1),
        })
    }

    /// Sums of binomials: no move is built.
    #[inline(always)]
    fn count_moves(&self) -> u64 {
        self.moves_per_label().iter().sum()
    }

    /// The draws of `sample_move`, with the moves per label kept up to date: a turn changes
    /// only its own label's count.
    #[inline(always)]
    fn play_out(&mut self, rng: &mut SplitMix64) {
        if self.opening() {
            match self.sample_move(rng) {
                Some(mv) => self.play_unchecked(mv),
                None => return,
            }
        }
        // The next turn's draw needs only how many cells this one covers, not which: keeping the
        // counts apart from the cells lets the unranking of one turn overlap the next draw.
        let fast_pdep = crate::cpu::has_fast_pdep();
        let mut empties = self.empty_per_label();
        let mut counts = self.moves_per_label();
        let mut total: u64 = counts.iter().sum();
        while total != 0 {
            let (label, size, rank) = self.locate(&counts, &empties, rng.below(total), false);
            let n = empties[label];
            empties[label] = n - size;
            let now = self.moves_of_label(label, n - size);
            total = total - counts[label] + now;
            counts[label] = now;
            let set = self.empty[label];
            let cells = unrank_combination(set, n, size, rank, fast_pdep);
            self.empty[label] = set & !cells;
            // Alternating sides is a pattern, but a branch on it still mispredicts: select instead.
            let black = self.side == Player::Black;
            self.black |= std::hint::select_unpredictable(black, cells, 0);
            self.white |= std::hint::select_unpredictable(black, 0, cells);
            self.side = self.side.other();
        }
    }

    /// Draws `below(count_moves())` and unranks it: the list is never built.
    #[inline(always)]
    fn sample_move(&self, rng: &mut SplitMix64) -> Option<Move> {
        let counts = self.moves_per_label();
        match counts.iter().sum() {
            0 => None,
            n => Some(self.unrank(&counts, rng.below(n))),
        }
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

fn zobrist_keys() -> &'static [u64; 257 + 6 * 128] {
    crate::rng::zobrist_keys()
}

crate::cells::hex_cells!(Strands);

impl Strands {
    /// A readable board: each row indented by its offset; empty cells as their label.
    pub fn text_board(&self) -> String {
        self.board.draw(|cell| notation::cell_char(self, cell))
    }
}
