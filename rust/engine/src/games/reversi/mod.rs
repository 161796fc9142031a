//! Reversi (Othello) with blocked squares: sizes 4-10, the Octagon, handicap corners, holes.
//!
//! The position type is [`Reversi`], an enum over three frames so that the standard 8x8 board
//! runs code with nothing variant-specific in it, while holes, small boards, 10x10 and the
//! Octagon share the same generic move generator ([`Board`]). Every position is built from a
//! [`Setup`] by `Setup::validate` (setup.rs), which holds the rules a position keeps; the
//! notation (notation.rs) and the variants (variant.rs) only say what to set up.

mod actions;
mod board;
pub mod endgame;
mod features;
mod frame;
mod game;
mod key;
mod moves;
mod naming;
mod notation;
pub mod patterns;
mod searchable;
mod setup;
mod variant;

pub use naming::ReversiNaming;

pub use actions::ReversiActions;
pub use board::{Board, Moves};
pub use endgame::EndgameSolver;
pub use frame::{Classic8, Frame, Frame10, Frame8};
pub use game::ReversiGame;
pub use key::ReversiKey;
pub use setup::{Setup, SetupError, MAX_HOLES};
pub use variant::Variant;

use crate::error::truncate;
use crate::error::{Error, Result};
use crate::game::{Outcome, Player, Position};
use crate::interrupt::Stop;
use crate::perft::Plies;
use crate::rng::SplitMix64;
use crate::square::Coord;

/// The board's shape: a square of even size, or the Octagon (10x10 with cut corners).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Shape {
    Square(u8),
    Octagon,
}

impl Shape {
    pub fn parse(text: &str) -> Result<Shape> {
        match text {
            "octagon" => Ok(Shape::Octagon),
            "4" => Ok(Shape::Square(4)),
            "6" => Ok(Shape::Square(6)),
            "8" => Ok(Shape::Square(8)),
            "10" => Ok(Shape::Square(10)),
            _ => Err(Error::invalid(format!("board must be 4, 6, 8, 10 or 'octagon', got {:?}", truncate(text)))),
        }
    }

    pub fn size(self) -> u8 {
        match self {
            Shape::Square(n) => n,
            Shape::Octagon => 10,
        }
    }

    pub fn name(self) -> String {
        match self {
            Shape::Square(n) => n.to_string(),
            Shape::Octagon => "octagon".into(),
        }
    }

    pub fn contains(self, c: Coord) -> bool {
        c.row < self.size() && c.col < self.size()
    }

    /// The Octagon's twelve cut squares, three per corner.
    pub fn is_cut(self, c: Coord) -> bool {
        if self != Shape::Octagon {
            return false;
        }
        // Distance from the nearest edge, for the two rows/columns next to each edge.
        let from_edge = |x: u8| match x {
            0 | 9 => Some(0),
            1 | 8 => Some(1),
            _ => None,
        };
        // A cut square is a corner or one of its two edge neighbours.
        matches!((from_edge(c.row), from_edge(c.col)), (Some(a), Some(b)) if a + b <= 1)
    }

    /// Squares of the board, in board order (row-major from the top-left), cut squares excluded.
    pub fn squares(self) -> impl Iterator<Item = Coord> {
        let n = self.size();
        (0..n).flat_map(move |r| (0..n).map(move |c| Coord::new(r, c))).filter(move |&c| !self.is_cut(c))
    }

    /// The central 4x4, where holes may never be.
    pub fn in_centre(self, c: Coord) -> bool {
        let lo = self.size() / 2 - 2;
        (lo..lo + 4).contains(&c.row) && (lo..lo + 4).contains(&c.col)
    }

    /// The handicap corners in the order they are filled.
    pub fn handicap_corners(self) -> [Coord; 4] {
        match self {
            Shape::Square(n) => {
                let l = n - 1;
                [Coord::new(0, 0), Coord::new(l, l), Coord::new(0, l), Coord::new(l, 0)]
            }
            Shape::Octagon => [Coord::new(1, 1), Coord::new(8, 8), Coord::new(1, 8), Coord::new(8, 1)],
        }
    }
}

/// A Reversi move: a frame square index, or a pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(pub(crate) u8);

impl Move {
    pub const PASS: Move = Move(u8::MAX);

    pub fn is_pass(self) -> bool {
        self == Move::PASS
    }

    fn frame_width(shape: Shape) -> u32 {
        if shape.size() <= 8 {
            8
        } else {
            10
        }
    }

    /// The square of a placement (None for a pass).
    pub fn coord(self, shape: Shape) -> Option<Coord> {
        if self.is_pass() {
            return None;
        }
        let w = Self::frame_width(shape);
        Some(Coord::new((self.0 as u32 / w) as u8, (self.0 as u32 % w) as u8))
    }

    pub fn name(self, shape: Shape) -> String {
        self.coord(shape).map_or_else(|| "pass".to_string(), Coord::name)
    }

    pub fn from_coord(c: Coord, shape: Shape) -> Move {
        Move((c.row as u32 * Self::frame_width(shape) + c.col as u32) as u8)
    }

    /// Parses `d3` or `pass`. Malformed text is a notation error; a square that is not on this
    /// board (off it or cut) is an illegal move.
    pub fn parse(text: &str, shape: Shape) -> Result<Move> {
        crate::text::check_length("move", text)?;
        if crate::text::trim(text).eq_ignore_ascii_case("pass") {
            return Ok(Move::PASS);
        }
        let c = Coord::parse(text)
            .map_err(|_| Error::notation(format!("expected a square like 'd3' or 'pass', got {:?}", truncate(text))))?;
        if !shape.contains(c) {
            let n = shape.size();
            return Err(Error::illegal(format!("{} is off the {n}x{n} board", c.name())));
        }
        if shape.is_cut(c) {
            return Err(Error::illegal(format!("{} is cut from the octagon", c.name())));
        }
        Ok(Move::from_coord(c, shape))
    }
}

/// Zobrist keys (docs/reversi.md): 100 for Black, 100 for White, 100 for holes, indexed by
/// `row * 10 + col`, then the key for White to move; all drawn from SplitMix64.
pub(crate) fn zobrist_keys() -> &'static [u64; 301] {
    crate::rng::zobrist_keys()
}

/// A Reversi position on any board: the frame is picked once, when the position is built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reversi {
    /// 8x8 without holes.
    Classic(Board<Classic8>),
    /// 4x4, 6x6, or 8x8 with holes.
    Small(Board<Frame8>),
    /// 10x10 and the Octagon.
    Large(Board<Frame10>),
}

/// Calls `$body` with `$b` bound to the concrete board, whatever the frame.
macro_rules! with_board {
    ($pos:expr, $b:ident => $body:expr) => {
        match $pos {
            $crate::reversi::Reversi::Classic($b) => $body,
            $crate::reversi::Reversi::Small($b) => $body,
            $crate::reversi::Reversi::Large($b) => $body,
        }
    };
}
use with_board;

impl Reversi {
    /// The same board and side to move with these discs (frame bits, the mover's and the
    /// other's): how the endgame solver hands its positions to an evaluation.
    pub(crate) fn with_discs(mut self, me: u128, opponent: u128) -> Reversi {
        with_board!(&mut self, b => {
            b.me = crate::bitboard::Bits::from_u128(me);
            b.opponent = crate::bitboard::Bits::from_u128(opponent);
        });
        self
    }
}

/// Like `with_board!`, but 8-wide boards are first re-tagged with their AVX2 frame when the CPU
/// has it: what every long computation (perft, playouts, search) should go through.
macro_rules! with_fast_board {
    ($pos:expr, $b:ident => $body:expr) => {
        match *$pos {
            #[cfg(target_arch = "x86_64")]
            Reversi::Classic(board) if crate::cpu::has_v3() => {
                let $b = board.retag::<frame::Classic8Avx2>();
                $body
            }
            #[cfg(target_arch = "x86_64")]
            Reversi::Small(board) if crate::cpu::has_v3() => {
                let $b = board.retag::<frame::Frame8Avx2>();
                $body
            }
            $crate::reversi::Reversi::Classic($b) => $body,
            $crate::reversi::Reversi::Small($b) => $body,
            $crate::reversi::Reversi::Large($b) => $body,
        }
    };
}
use with_fast_board;

impl Reversi {
    pub fn shape(&self) -> Shape {
        with_board!(self, b => b.shape)
    }

    /// The holes, in board order.
    pub fn holes(&self) -> Vec<Coord> {
        let shape = self.shape();
        shape.squares().filter(|&c| self.cell_char(c) == '#').collect()
    }

    pub fn cell_char(&self, c: Coord) -> char {
        with_board!(self, b => b.cell_char(c.row, c.col))
    }

    /// `f(square, cell_char)` for every square of the `size x size` grid, row by row (square
    /// `row * size + col`), dispatching on the board's frame once rather than per square.
    pub fn for_each_cell(&self, mut f: impl FnMut(usize, char)) {
        let size = self.shape().size();
        with_board!(self, b => {
            for row in 0..size {
                for col in 0..size {
                    f(usize::from(row) * usize::from(size) + usize::from(col), b.cell_char(row, col));
                }
            }
        })
    }
}

impl Position for Reversi {
    type Move = Move;
    type Moves<'a> = std::vec::IntoIter<Move>;

    fn to_move(&self) -> Player {
        with_board!(self, b => b.to_move())
    }
    fn legal_moves(&self) -> Self::Moves<'_> {
        with_board!(self, b => b.legal_moves().collect::<Vec<_>>().into_iter())
    }
    /// One list, made at once: a Reversi position has at most a few dozen moves, listed
    /// without a pause for the stop to wait on (the default copies `legal_moves` move by move).
    fn list_moves(&self, _stop: &crate::interrupt::Stop) -> crate::Result<Vec<Move>> {
        Ok(with_board!(self, b => b.legal_moves().collect()))
    }
    fn play_unchecked(&mut self, mv: Move) {
        with_board!(self, b => b.play_unchecked(mv))
    }
    fn outcome(&self) -> Option<Outcome> {
        with_board!(self, b => b.outcome())
    }
    /// (black discs, white discs)
    fn score(&self) -> (u32, u32) {
        with_board!(self, b => b.score())
    }
    fn zobrist(&self) -> u64 {
        with_board!(self, b => b.zobrist())
    }
    fn is_pass(&self, mv: Move) -> bool {
        mv.is_pass()
    }
    fn why_illegal(&self, mv: Move) -> Option<String> {
        with_board!(self, b => b.why_illegal(mv))
    }
    fn count_moves(&self) -> u64 {
        with_board!(self, b => b.count_moves())
    }
    #[inline]
    fn sample_move(&self, rng: &mut SplitMix64) -> Option<Move> {
        with_board!(self, b => b.sample_move(rng))
    }
    /// The whole playout in one frame (the AVX2 one where the CPU has it), not frame by frame.
    fn play_out(&mut self, rng: &mut SplitMix64) {
        *self = match *self {
            #[cfg(target_arch = "x86_64")]
            Reversi::Classic(board) if crate::cpu::has_v3() => {
                let mut fast = board.retag::<frame::Classic8Avx2>();
                fast.play_out(rng);
                Reversi::Classic(fast.retag())
            }
            #[cfg(target_arch = "x86_64")]
            Reversi::Small(board) if crate::cpu::has_v3() => {
                let mut fast = board.retag::<frame::Frame8Avx2>();
                fast.play_out(rng);
                Reversi::Small(fast.retag())
            }
            Reversi::Classic(mut b) => {
                b.play_out(rng);
                Reversi::Classic(b)
            }
            Reversi::Small(mut b) => {
                b.play_out(rng);
                Reversi::Small(b)
            }
            Reversi::Large(mut b) => {
                b.play_out(rng);
                Reversi::Large(b)
            }
        }
    }
    /// In the board's own frame (8-wide boards in their AVX2 frames where the CPU has them),
    /// not through this enum at every node.
    fn perft_interruptible(&self, depth: u32, plies: Plies, threads: usize, stop: &Stop) -> Result<u64> {
        with_fast_board!(self, b => b.perft_interruptible(depth, plies, threads, stop))
    }
    fn divide_interruptible(&self, depth: u32, plies: Plies, stop: &Stop) -> Result<Vec<(Move, u64)>> {
        with_fast_board!(self, b => b.divide_interruptible(depth, plies, stop))
    }
    fn parse_move(&self, text: &str) -> Result<Move> {
        with_board!(self, b => b.parse_move(text))
    }
    fn format_move(&self, mv: Move) -> String {
        mv.name(self.shape())
    }
    fn to_notation(&self) -> String {
        with_board!(self, b => b.to_notation())
    }
    fn from_notation(text: &str) -> Result<Self> {
        notation::read(text)
    }
}

impl Reversi {
    /// The same position in the generic 64-bit frame (with its playable mask), for measuring
    /// what variant support costs the plain 8x8 board. Other positions are returned unchanged.
    pub fn in_generic_frame(&self) -> Reversi {
        match *self {
            Reversi::Classic(b) => Reversi::Small(b.retag()),
            other => other,
        }
    }
}

impl Reversi {
    /// A readable board: column letters, then one numbered line per row in position notation
    /// characters (`.` empty, `b`, `w`, `#` hole, `-` cut).
    pub fn text_board(&self) -> String {
        let n = self.shape().size();
        let letters: Vec<String> = (0..n).map(|c| ((b'a' + c) as char).to_string()).collect();
        let mut out = format!("   {}", letters.join(" "));
        for r in 0..n {
            let cells: Vec<String> = (0..n).map(|c| self.cell_char(Coord::new(r, c)).to_string()).collect();
            out.push_str(&format!("\n{:>2} {}", r + 1, cells.join(" ")));
        }
        out
    }
}

impl crate::cells::Cells for Reversi {
    /// Every square of the `size x size` grid, row by row: holes and the Octagon's cut squares
    /// included, as on the text board and in the observation planes.
    fn cell_names(&self) -> Vec<String> {
        let n = self.shape().size();
        (0..n).flat_map(|row| (0..n).map(move |col| Coord::new(row, col).name())).collect()
    }

    fn contents(&self, name: &str) -> Result<crate::cells::Contents> {
        use crate::cells::Contents;
        let c = Coord::parse(name)?;
        let n = self.shape().size();
        if !self.shape().contains(c) {
            return Err(Error::invalid(format!("{} is not a square of the {n}x{n} board", c.name())));
        }
        Ok(match self.cell_char(c) {
            'b' => Contents::stone(Player::Black),
            'w' => Contents::stone(Player::White),
            '#' => Contents::Hole,
            '-' => Contents::Cut,
            _ => Contents::Empty,
        })
    }
}
