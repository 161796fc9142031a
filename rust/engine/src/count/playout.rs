//! Uniformly random playouts to the end of the game, for any game, seeded and reproducible.
//!
//! Playout `i` of a batch seeded `seed` draws from SplitMix64 with state
//! `SplitMix64::new(seed + i).next_u64()`; at each step it takes `below(count_moves())` and plays
//! that entry of `legal_moves()` (`Position::sample_move`, looped by `Position::play_out`). The result does not depend on the
//! number of threads, and the pure-Python reference reproduces it exactly.

use crate::error::Result;
use crate::game::{Outcome, Player, Position};
use crate::interrupt::Stop;
use crate::rng::SplitMix64;
use rayon::prelude::*;

/// Wins and draws over a batch of playouts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    pub black: u64,
    pub white: u64,
    pub draws: u64,
}

impl Tally {
    fn add(mut self, other: Tally) -> Tally {
        self.black += other.black;
        self.white += other.white;
        self.draws += other.draws;
        self
    }

    #[inline(always)]
    fn of(outcome: Option<Outcome>) -> Tally {
        match outcome {
            Some(Outcome::Winner(Player::Black)) => Tally { black: 1, ..Tally::default() },
            Some(Outcome::Winner(Player::White)) => Tally { white: 1, ..Tally::default() },
            _ => Tally { draws: 1, ..Tally::default() },
        }
    }
}

/// The generator of playout `index` in a batch seeded `seed`.
pub fn playout_rng(seed: u64, index: u64) -> SplitMix64 {
    SplitMix64::new(SplitMix64::new(seed.wrapping_add(index)).next_u64())
}

/// The playout loop, compiled twice like the perft walk (see `cpu.rs`): counting moves is mostly
/// popcounts, which the baseline x86-64 target has no instruction for. `finish` (the scoring)
/// is compiled into the same copy, so it gets the fast instructions too.
macro_rules! playout_loop {
    ($name:ident $(#[$attr:meta])*) => {
        $(#[$attr])*
        fn $name<P: Position, R>(position: &P, rng: &mut SplitMix64, stop: &Stop, finish: impl Fn(&P) -> R) -> Result<R> {
            let mut p = position.clone();
            p.play_out_interruptible(rng, stop)?;
            Ok(finish(&p))
        }
    };
}

playout_loop!(playout_portable);
#[cfg(target_arch = "x86_64")]
playout_loop!(playout_v3 #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]);

/// Plays uniformly random legal moves from `position` to the end of the game, then applies
/// `finish` to the final position (inline it: it runs in the fast copy of the loop). Returns
/// `Err(Interrupted)` soon after `stop` is requested: it looks at `stop` as often as the game's
/// `Position::play_out_interruptible` does (every ply where a ply can be long).
#[inline]
pub fn playout_interruptible<P: Position, R>(
    position: &P,
    rng: &mut SplitMix64,
    stop: &Stop,
    finish: impl Fn(&P) -> R,
) -> Result<R> {
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::has_v3() {
        // SAFETY: the CPU has every feature playout_v3 was compiled for.
        return unsafe { playout_v3(position, rng, stop, finish) };
    }
    playout_portable(position, rng, stop, finish)
}

/// How one playout ended: the outcome and both players' score (`Position::score`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ending {
    pub outcome: Option<Outcome>,
    pub score: (u32, u32),
}

impl Ending {
    /// 1 when Black won, -1 when White won, 0 for a draw (or a game not over).
    pub fn sign(&self) -> i8 {
        match self.outcome {
            Some(Outcome::Winner(Player::Black)) => 1,
            Some(Outcome::Winner(Player::White)) => -1,
            _ => 0,
        }
    }
}

/// The most playouts `scored_playouts` keeps the endings of (about 1 GB of them).
pub const MAX_SCORED_PLAYOUTS: u64 = 1 << 26;

/// A batch of playouts with every ending kept: the tally, and per playout its outcome's sign
/// (`Ending::sign`) and both players' final score, in playout order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScoredPlayouts {
    pub tally: Tally,
    pub outcomes: Vec<i8>,
    pub scores: Vec<[i32; 2]>,
}

/// `n` playouts from `position` (the games of `random_playouts`), scored: at most
/// `MAX_SCORED_PLAYOUTS`, since each ending is kept (`InvalidArgument` beyond, rather than run
/// out of memory). `Err(Interrupted)` soon after `stop` is requested.
pub fn scored_playouts_interruptible<P: Position>(
    position: &P,
    n: u64,
    seed: u64,
    threads: usize,
    stop: &Stop,
) -> Result<ScoredPlayouts> {
    if n > MAX_SCORED_PLAYOUTS {
        return Err(crate::Error::invalid(format!(
            "playouts with scores=True: n must be at most {MAX_SCORED_PLAYOUTS}, got {n}"
        )));
    }
    let endings = random_playout_endings_interruptible(position, n, seed, threads, stop)?;
    let tally = endings.iter().fold(Tally::default(), |sum, e| sum.add(Tally::of(e.outcome)));
    let outcomes = endings.iter().map(Ending::sign).collect();
    let scores = endings.iter().map(|e| [e.score.0 as i32, e.score.1 as i32]).collect();
    Ok(ScoredPlayouts { tally, outcomes, scores })
}

/// The ending of each of `n` playouts from `position`, in playout order: the same games as
/// `random_playouts` (same seed, same streams), on `threads` threads.
pub fn random_playout_endings<P: Position>(position: &P, n: u64, seed: u64, threads: usize) -> Vec<Ending> {
    crate::perft::unstoppable(random_playout_endings_interruptible(position, n, seed, threads, Stop::never()))
}

/// `n` playouts from `position` on `threads` threads.
pub fn random_playouts<P: Position>(position: &P, n: u64, seed: u64, threads: usize) -> Tally {
    crate::perft::unstoppable(random_playouts_interruptible(position, n, seed, threads, Stop::never()))
}

/// `random_playout_endings`, returning `Err(Interrupted)` soon after `stop` is requested.
pub fn random_playout_endings_interruptible<P: Position>(
    position: &P,
    n: u64,
    seed: u64,
    threads: usize,
    stop: &Stop,
) -> Result<Vec<Ending>> {
    let one = nth_playout(position, seed, stop, |end: &P| Ending { outcome: end.outcome(), score: end.score() });
    on_threads(threads, stop, || (0..n).into_par_iter().map(one).collect(), || (0..n).map(one).collect())
}

/// `random_playouts`, returning `Err(Interrupted)` soon after `stop` is requested.
pub fn random_playouts_interruptible<P: Position>(
    position: &P,
    n: u64,
    seed: u64,
    threads: usize,
    stop: &Stop,
) -> Result<Tally> {
    let one = nth_playout(position, seed, stop, |end: &P| Tally::of(end.outcome()));
    let add = |a: Tally, b: Tally| Ok(a.add(b));
    on_threads(
        threads,
        stop,
        || (0..n).into_par_iter().map(one).try_reduce(Tally::default, add),
        || (0..n).map(one).try_fold(Tally::default(), |sum, t| add(sum, t?)),
    )
}

/// Playout `i` of the batch `seed` draws from `position` (its own stream, `playout_rng`), and
/// what `finish` makes of its final position: the same playout whatever thread runs it.
fn nth_playout<'a, P: Position, R>(
    position: &'a P,
    seed: u64,
    stop: &'a Stop,
    finish: impl Fn(&P) -> R + Copy + Send + Sync + 'a,
) -> impl Fn(u64) -> Result<R> + Copy + Send + Sync + 'a {
    move |i| playout_interruptible(position, &mut playout_rng(seed, i), stop, finish)
}

/// `parallel` on a pool of `threads` threads while this one polls `stop`, or `serial` on this
/// one (for one thread, or when no pool can be built).
fn on_threads<R: Send>(
    threads: usize,
    stop: &Stop,
    parallel: impl FnOnce() -> Result<R> + Send,
    serial: impl FnOnce() -> Result<R>,
) -> Result<R> {
    if threads <= 1 {
        return serial();
    }
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => stop.install(&pool, parallel)?,
        Err(_) => serial(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reversi::Reversi;

    fn reversi(size: usize) -> Reversi {
        let empty = ".".repeat(size);
        let half = ".".repeat(size / 2 - 1);
        let mut rows = vec![empty; size];
        rows[size / 2 - 1] = format!("{half}wb{half}");
        rows[size / 2] = format!("{half}bw{half}");
        Reversi::from_notation(&format!("{size} {} b", rows.join("/"))).unwrap()
    }

    #[test]
    fn scored_playouts_are_the_tallied_games_with_their_endings() {
        let start = reversi(6);
        let scored = scored_playouts_interruptible(&start, 200, 3, 2, Stop::never()).unwrap();
        assert_eq!(scored.tally, random_playouts(&start, 200, 3, 1));
        let endings = random_playout_endings(&start, 200, 3, 1);
        assert_eq!(scored.outcomes, endings.iter().map(Ending::sign).collect::<Vec<_>>());
        for (score, (ending, sign)) in scored.scores.iter().zip(endings.iter().zip(&scored.outcomes)) {
            assert_eq!(*score, [ending.score.0 as i32, ending.score.1 as i32]);
            // Reversi is won on the score.
            assert_eq!(*sign, (score[0] - score[1]).signum() as i8);
        }
        let count = |s: i8| scored.outcomes.iter().filter(|&&o| o == s).count() as u64;
        assert_eq!([count(1), count(-1), count(0)], [scored.tally.black, scored.tally.white, scored.tally.draws]);
    }

    #[test]
    fn scored_playouts_refuse_more_endings_than_they_keep() {
        let start = reversi(4);
        let refused = scored_playouts_interruptible(&start, MAX_SCORED_PLAYOUTS + 1, 0, 1, Stop::never());
        assert!(matches!(refused, Err(crate::Error::InvalidArgument(_))));
    }
}
