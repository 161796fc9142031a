//! The one trait every game's positions implement ([`Position`]), the one trait that says how a
//! game was set up ([`Variant`]), and the game built on both ([`Game`]): history, checked play,
//! undo and records, written once for every game.

use crate::error::{Error, Result};
use crate::interrupt::Stop;
use crate::perft::{self, Plies};
use crate::record::Record;
use crate::rng::SplitMix64;

/// The two players. Black moves first in every game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Player {
    Black = 0,
    White = 1,
}

impl Player {
    pub fn other(self) -> Player {
        match self {
            Player::Black => Player::White,
            Player::White => Player::Black,
        }
    }

    /// The player's name, as the text board's status line writes it.
    pub fn name(self) -> &'static str {
        match self {
            Player::Black => "Black",
            Player::White => "White",
        }
    }

    /// The one-letter notation shared by all games' positions.
    pub fn letter(self) -> char {
        match self {
            Player::Black => 'b',
            Player::White => 'w',
        }
    }

    pub fn from_letter(token: &str) -> Option<Player> {
        match token {
            "b" => Some(Player::Black),
            "w" => Some(Player::White),
            _ => None,
        }
    }
}

/// How a finished game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    Winner(Player),
    Draw,
}

impl Outcome {
    /// The outcome of a finished game won by the player with more pieces (discs, dice, stones).
    pub fn by_count(black: u32, white: u32) -> Outcome {
        match black.cmp(&white) {
            std::cmp::Ordering::Greater => Outcome::Winner(Player::Black),
            std::cmp::Ordering::Less => Outcome::Winner(Player::White),
            std::cmp::Ordering::Equal => Outcome::Draw,
        }
    }

    /// The record notation: `1-0`, `0-1`, `1/2-1/2`.
    pub fn result_tag(outcome: Option<Outcome>) -> &'static str {
        match outcome {
            Some(Outcome::Winner(Player::Black)) => "1-0",
            Some(Outcome::Winner(Player::White)) => "0-1",
            Some(Outcome::Draw) => "1/2-1/2",
            None => "*",
        }
    }
}

/// A game position: small, cheap to clone, and complete (nothing outside it is needed to
/// continue the game). Generic code — perft, playouts, search — is written against this trait.
///
/// Design notes, for all four games:
/// - `legal_moves` is empty exactly when the game is over. A player who must pass gets an
///   explicit pass move (Reversi); a player who moves again after a capture (Rive) is simply
///   `to_move` again after `play_unchecked`.
/// - `Moves` is an iterator borrowing the position, not a `Vec`, so that a move set held as a
///   bitboard (Reversi) costs nothing to produce and a huge one (Strands, Rive captures) can be
///   enumerated lazily.
/// - `count_moves` and `perft1` may be overridden to count without enumerating.
/// - Perft is a method (`perft_interruptible`) so that a game with a faster frame for its walk
///   (Reversi's AVX2 boards) overrides it once and every caller gets that path.
pub trait Position: Clone + Send + Sync {
    /// A move: a small value that only makes sense for the position that produced it.
    type Move: Copy + Eq + std::fmt::Debug + Send + Sync;
    /// The legal moves, in the game's documented order; may borrow the position.
    type Moves<'a>: Iterator<Item = Self::Move>
    where
        Self: 'a;

    fn to_move(&self) -> Player;

    fn legal_moves(&self) -> Self::Moves<'_>;

    /// Plays a move taken from `legal_moves` of this very position (unchecked: anything else is
    /// a logic error, though never undefined behaviour).
    fn play_unchecked(&mut self, mv: Self::Move);

    /// `Some` once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// Black's and White's score as the game counts it at the end (Python's playout `scores`):
    /// discs (Reversi), dice (Cephalopod), stones (Rive), the size of the largest group (Strands).
    fn score(&self) -> (u32, u32);

    fn zobrist(&self) -> u64;

    fn is_over(&self) -> bool {
        self.legal_moves().next().is_none()
    }

    /// Whether `mv` is a pass (perft has a convention in which a pass uses no ply).
    fn is_pass(&self, _mv: Self::Move) -> bool {
        false
    }

    /// `None` for a legal move, else why it is not: the one legality hook. The default looks the
    /// move up in `legal_moves`; games override it to answer directly and to say more.
    /// `is_legal` and `check_move` are derived from it and are not overridden.
    fn why_illegal(&self, mv: Self::Move) -> Option<String> {
        let listed = self.legal_moves().any(|m| m == mv);
        (!listed).then(|| format!("{} is not a legal move here", self.format_move(mv)))
    }

    fn is_legal(&self, mv: Self::Move) -> bool {
        self.why_illegal(mv).is_none()
    }

    /// `Ok` for a legal move, else `IllegalMove` saying why (`why_illegal`).
    fn check_move(&self, mv: Self::Move) -> Result<()> {
        match self.why_illegal(mv) {
            None => Ok(()),
            Some(why) => Err(Error::illegal(why)),
        }
    }

    fn count_moves(&self) -> u64 {
        self.legal_moves().count() as u64
    }

    /// A legal move drawn uniformly at random, or `None` when the game is over. Games whose
    /// move lists are huge (Strands) override it to draw without enumerating.
    fn sample_move(&self, rng: &mut SplitMix64) -> Option<Self::Move> {
        match self.count_moves() {
            0 => None,
            n => self.legal_moves().nth(rng.below(n) as usize),
        }
    }

    /// `legal_moves` as a list, returning `Err(Interrupted)` soon after `stop` is requested.
    /// Games whose enumeration can pause long between two moves override it to check inside.
    fn list_moves(&self, stop: &Stop) -> Result<Vec<Self::Move>> {
        let mut moves = Vec::new();
        for (i, mv) in self.legal_moves().enumerate() {
            if crate::interrupt::every(i as u64, 1024) {
                stop.check()?;
            }
            moves.push(mv);
        }
        Ok(moves)
    }

    /// `count_moves`, for games where counting can take long: those override it to check `stop`.
    fn count_moves_interruptible(&self, stop: &Stop) -> Result<u64> {
        stop.check()?;
        Ok(self.count_moves())
    }

    /// `sample_move`, for games where drawing can take long: those override it to check `stop`.
    fn sample_move_interruptible(&self, rng: &mut SplitMix64, stop: &Stop) -> Result<Option<Self::Move>> {
        stop.check()?;
        Ok(self.sample_move(rng))
    }

    /// Plays `sample_move` after `sample_move` to the end of the game (the random playout).
    /// Games override it to keep what a turn changes incrementally, with the same draws.
    #[inline(always)]
    fn play_out(&mut self, rng: &mut SplitMix64) {
        while let Some(mv) = self.sample_move(rng) {
            self.play_unchecked(mv);
        }
    }

    /// `play_out`, returning `Err(Interrupted)` soon after `stop` is requested (the position is
    /// then part-way through the playout). The default looks once per playout, which suits games
    /// whose whole playout takes microseconds (so their fast `play_out` stays as it is); a game
    /// whose one playout or one move can take long (Rive's compound captures on large boards)
    /// overrides it to look at every ply, and inside a ply. Same draws as `play_out`.
    #[inline(always)]
    fn play_out_interruptible(&mut self, rng: &mut SplitMix64, stop: &Stop) -> Result<()> {
        stop.checkpoint()?;
        self.play_out(rng);
        Ok(())
    }

    /// `perft(1)`: the number of legal moves, or 1 for a finished game.
    fn perft1(&self) -> u64 {
        self.count_moves().max(1)
    }

    /// `perft(2)` under the every-move convention; games override it with a tight loop that
    /// never builds the children as full positions.
    fn perft2(&self) -> u64 {
        let mut leaves = 0;
        let mut any = false;
        for mv in self.legal_moves() {
            any = true;
            let mut child = self.clone();
            child.play_unchecked(mv);
            leaves += child.perft1();
        }
        if any {
            leaves
        } else {
            1
        }
    }

    /// Perft (docs/design.md, "Perft conventions") on `threads` threads, returning `Err(Interrupted)` soon after `stop`
    /// is requested. The default is the generic walk of `perft.rs`; a game overrides it to walk
    /// in a faster representation (Reversi's frames), never to change the count.
    fn perft_interruptible(&self, depth: u32, plies: Plies, threads: usize, stop: &Stop) -> Result<u64> {
        perft::generic_perft(self, depth, plies, threads, stop)
    }

    /// Perft of each legal move's child, in move order; overridden together with
    /// `perft_interruptible`.
    fn divide_interruptible(&self, depth: u32, plies: Plies, stop: &Stop) -> Result<Vec<(Self::Move, u64)>> {
        perft::generic_divide(self, depth, plies, stop)
    }

    /// `perft_interruptible` with a stop nobody can request.
    fn perft(&self, depth: u32, plies: Plies, threads: usize) -> u64 {
        perft::unstoppable(self.perft_interruptible(depth, plies, threads, Stop::never()))
    }

    /// `divide_interruptible` with a stop nobody can request.
    fn divide(&self, depth: u32, plies: Plies) -> Vec<(Self::Move, u64)> {
        perft::unstoppable(self.divide_interruptible(depth, plies, Stop::never()))
    }

    fn parse_move(&self, text: &str) -> Result<Self::Move>;

    fn format_move(&self, mv: Self::Move) -> String;

    /// The position in the game's one-line notation.
    fn to_notation(&self) -> String;

    /// The position from its notation (`from_notation(p.to_notation()) == p`).
    fn from_notation(text: &str) -> Result<Self>
    where
        Self: Sized;
}

/// The [`Position`] methods of a wrapper `struct W(P)` that plays exactly as the position it
/// wraps: every required method but `from_notation` (which must wrap), and `is_over`, handed to
/// field `.0`. A wrapper that changes one thing (how it is keyed, how it lists its moves) writes
/// that method and this line beside it.
#[macro_export]
macro_rules! delegate_position {
    () => {
        fn to_move(&self) -> $crate::Player {
            self.0.to_move()
        }
        fn legal_moves(&self) -> Self::Moves<'_> {
            self.0.legal_moves()
        }
        fn play_unchecked(&mut self, mv: Self::Move) {
            self.0.play_unchecked(mv)
        }
        fn outcome(&self) -> Option<$crate::Outcome> {
            self.0.outcome()
        }
        fn score(&self) -> (u32, u32) {
            self.0.score()
        }
        fn zobrist(&self) -> u64 {
            self.0.zobrist()
        }
        fn is_over(&self) -> bool {
            self.0.is_over()
        }
        fn parse_move(&self, text: &str) -> $crate::Result<Self::Move> {
            self.0.parse_move(text)
        }
        fn format_move(&self, mv: Self::Move) -> String {
            self.0.format_move(mv)
        }
        fn to_notation(&self) -> String {
            self.0.to_notation()
        }
    };
}

/// How a game was set up before its first move — Reversi's board, holes and handicap,
/// Cephalopod's size, Rive's board and rules, Strands' layout and cover rule — and what a game of
/// this kind is beyond its positions (its name, how it is recorded). Plain data: `start` checks
/// it and gives the first position, so a variant that `start` refuses never becomes a game.
///
/// A variant is written in a record as tags (`tags`) and read back from them (`from_tags`);
/// [`Game`] does the rest of the record, the same way for every game.
pub trait Variant: Clone + Send + Sync + Sized + 'static {
    type Position: Position + Copy + PartialEq + 'static;

    /// The game's name in records (`[Game "..."]`) and in their errors.
    const NAME: &'static str;

    /// Whether listing, counting or drawing moves can take long (move lists of millions): then
    /// the binding runs them with the GIL released and interruptible; else directly, as the
    /// cheap calls they are.
    const HUGE_MOVE_LISTS: bool = false;

    /// The tags that name the board (`Board`): written in every record, a game set up from a
    /// position included, where they must agree with it.
    const BOARD_TAGS: &'static [&'static str];

    /// The tags a variant may write (`tags`); a `Position` tag excludes them.
    const TAGS: &'static [&'static str];

    /// The position before the first move, or why this variant is impossible.
    fn start(&self) -> Result<Self::Position>;

    /// The `BOARD_TAGS` of a position, with their values, in the order written.
    fn board_tags(position: &Self::Position) -> Vec<(&'static str, String)>;

    /// The variant's tags, in the order written (each one of `TAGS`; defaults are left out).
    fn tags(&self) -> Vec<(&'static str, String)>;

    /// The variant a record's tags describe (a record without a `Position` tag). Errors are
    /// notation errors naming the record (`"reversi record: ..."`).
    fn from_tags(record: &Record) -> Result<Self>;

    /// The position drawn as text, for `print`.
    fn text_board(position: &Self::Position) -> String;
}

/// A game as users hold it: how it was set up, the position, and the moves that led to it. The
/// Python classes wrap it; records are written and read by it (record.rs).
///
/// Checked play and undo live here, once for every game: a rejected move changes nothing.
#[derive(Clone)]
pub struct Game<V: Variant> {
    /// `None` when the game began from a position given in notation.
    variant: Option<V>,
    position: V::Position,
    /// Each entry is the position before the move, so undo is a copy, not a reverse computation.
    history: Vec<(V::Position, <V::Position as Position>::Move)>,
}

impl<V: Variant> Game<V> {
    /// A game at the start of `variant`, or why the variant is impossible.
    pub fn new(variant: V) -> Result<Self> {
        let start = variant.start()?;
        Ok(Game { variant: Some(variant), position: start, history: Vec::new() })
    }

    /// A game from a position in notation (raises what the notation's parser raises).
    pub fn from_position(text: &str) -> Result<Self> {
        Ok(Game { variant: None, position: V::Position::from_notation(text)?, history: Vec::new() })
    }

    /// How the game was set up; `None` for a game set up from a position.
    pub fn variant(&self) -> Option<&V> {
        self.variant.as_ref()
    }

    pub fn position(&self) -> &V::Position {
        &self.position
    }

    /// The position the game started from.
    pub fn start(&self) -> &V::Position {
        self.history.first().map_or(&self.position, |(p, _)| p)
    }

    pub fn moves(&self) -> impl ExactSizeIterator<Item = <V::Position as Position>::Move> + '_ {
        self.history.iter().map(|(_, m)| *m)
    }

    /// Plays a legal move, or returns `IllegalMove` and changes nothing.
    pub fn play(&mut self, mv: <V::Position as Position>::Move) -> Result<()> {
        self.position.check_move(mv)?;
        self.push_unchecked(mv);
        Ok(())
    }

    /// Parses and plays a move given in notation.
    pub fn play_notation(&mut self, text: &str) -> Result<<V::Position as Position>::Move> {
        let mv = self.position.parse_move(text)?;
        self.play(mv)?;
        Ok(mv)
    }

    /// Plays a move known to be legal here (from the engine's own lists) into the history.
    pub fn push_unchecked(&mut self, mv: <V::Position as Position>::Move) {
        let before = self.position;
        self.position.play_unchecked(mv);
        self.history.push((before, mv));
    }

    /// Takes back the last move, or returns `None` when there is none.
    pub fn undo(&mut self) -> Option<<V::Position as Position>::Move> {
        let (before, mv) = self.history.pop()?;
        self.position = before;
        Some(mv)
    }

    /// The board as `print(game)` shows it: the game's text board, then a line saying who moves
    /// (`Black (b) to move`, the letter being the one the board draws) or how the game ended
    /// (`Game over: White wins`, `Game over: a draw`), so that a printed game reads on its own.
    pub fn text(&self) -> String {
        let status = match self.position.outcome() {
            None => {
                let player = self.position.to_move();
                format!("{} ({}) to move", player.name(), player.letter())
            }
            Some(Outcome::Winner(player)) => format!("Game over: {} wins", player.name()),
            Some(Outcome::Draw) => "Game over: a draw".to_string(),
        };
        format!("{}\n{status}", V::text_board(&self.position))
    }
}
