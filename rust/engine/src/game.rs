//! The one trait every game implements, and the history-keeping wrapper built on it.

use crate::error::{Error, Result};
use crate::interrupt::Stop;
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

    /// Black's and White's points as the game counts them at the end: discs (Reversi), squares
    /// covered (Cephalopod), stones (Rive), the size of the largest group (Strands).
    fn points(&self) -> (u32, u32);

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

    fn parse_move(&self, text: &str) -> Result<Self::Move>;

    fn format_move(&self, mv: Self::Move) -> String;

    /// The position in the game's one-line notation.
    fn to_notation(&self) -> String;

    /// The position from its notation (`from_notation(p.to_notation()) == p`).
    fn from_notation(text: &str) -> Result<Self>
    where
        Self: Sized;
}

/// A position plus the moves that led to it: what the Python classes wrap.
///
/// Checked play and undo live here, once for every game: a rejected move changes nothing.
#[derive(Clone)]
pub struct Game<P: Position> {
    position: P,
    /// Each entry is the position before the move, so undo is a copy, not a reverse computation.
    history: Vec<(P, P::Move)>,
}

impl<P: Position> Game<P> {
    pub fn new(position: P) -> Self {
        Game { position, history: Vec::new() }
    }

    pub fn position(&self) -> &P {
        &self.position
    }

    /// The position the game started from.
    pub fn start(&self) -> &P {
        self.history.first().map_or(&self.position, |(p, _)| p)
    }

    pub fn moves(&self) -> impl ExactSizeIterator<Item = P::Move> + '_ {
        self.history.iter().map(|(_, m)| *m)
    }

    /// Plays a legal move, or returns `IllegalMove` and changes nothing.
    pub fn play(&mut self, mv: P::Move) -> Result<()> {
        self.position.check_move(mv)?;
        self.push_unchecked(mv);
        Ok(())
    }

    /// Parses and plays a move given in notation.
    pub fn play_notation(&mut self, text: &str) -> Result<P::Move> {
        let mv = self.position.parse_move(text)?;
        self.play(mv)?;
        Ok(mv)
    }

    pub fn push_unchecked(&mut self, mv: P::Move) {
        let before = self.position.clone();
        self.position.play_unchecked(mv);
        self.history.push((before, mv));
    }

    /// Takes back the last move, or returns `None` when there is none.
    pub fn undo(&mut self) -> Option<P::Move> {
        let (before, mv) = self.history.pop()?;
        self.position = before;
        Some(mv)
    }
}

/// A game as users hold it: position and history (`Game`) plus how it was set up, so that it can
/// be written as a record and replayed. The Python classes are written once against this.
pub trait RecordedGame: Clone + Send + Sync + Sized + 'static {
    type P: Position + Copy + PartialEq + 'static;

    /// The game's name in records (`[Game "..."]`) and errors.
    const NAME: &'static str;

    /// Whether listing, counting or drawing moves can take long (move lists of millions):
    /// then the binding runs them with the GIL released and interruptible; else directly, as the
    /// cheap calls they are.
    const HUGE_MOVE_LISTS: bool = false;

    fn game(&self) -> &Game<Self::P>;
    fn game_mut(&mut self) -> &mut Game<Self::P>;
    fn from_position(text: &str) -> Result<Self>;
    fn from_record(text: &str) -> Result<Self>;
    fn record(&self) -> String;
    fn text_board(position: &Self::P) -> String;

    /// Perft, stopping with `Err(Interrupted)` when `stop` says so.
    fn perft(position: &Self::P, depth: u32, plies: crate::perft::Plies, threads: usize, stop: &Stop) -> Result<u64> {
        crate::perft::perft_parallel_interruptible(position, depth, plies, threads, stop)
    }

    fn divide(
        position: &Self::P,
        depth: u32,
        plies: crate::perft::Plies,
        stop: &Stop,
    ) -> Result<Vec<(<Self::P as Position>::Move, u64)>> {
        crate::perft::divide_interruptible(position, depth, plies, stop)
    }
}
