//! Uniformly random playouts to the end of the game, for any game, seeded and reproducible.
//!
//! Playout `i` of a batch seeded `seed` draws from SplitMix64 with state
//! `SplitMix64::new(seed + i).next_u64()`; at each step it takes `below(count_moves())` and plays
//! that entry of `legal_moves()` (`Position::sample_move`, looped by `Position::play_out`). The result does not depend on the
//! number of threads, and the pure-Python reference reproduces it exactly.

use crate::error::Result;
use crate::game::{Outcome, Player, Position};
use crate::interrupt::{every, Stop};
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
        fn $name<P: Position, R>(position: &P, rng: &mut SplitMix64, finish: impl Fn(&P) -> R) -> R {
            let mut p = position.clone();
            p.play_out(rng);
            finish(&p)
        }
    };
}

playout_loop!(playout_portable);
#[cfg(target_arch = "x86_64")]
playout_loop!(playout_v3 #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]);

/// Plays uniformly random legal moves from `position` to the end of the game, then applies
/// `finish` to the final position (inline it: it runs in the fast copy of the loop).
#[inline]
pub fn playout<P: Position, R>(position: &P, rng: &mut SplitMix64, finish: impl Fn(&P) -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::has_v3() {
        // SAFETY: the CPU has every feature playout_v3 was compiled for.
        return unsafe { playout_v3(position, rng, finish) };
    }
    playout_portable(position, rng, finish)
}

/// How one playout ended: the outcome and both players' points (`Position::points`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ending {
    pub outcome: Option<Outcome>,
    pub points: (u32, u32),
}

/// The ending of each of `n` playouts from `position`, in playout order: the same games as
/// `random_playouts` (same seed, same streams), on `threads` threads.
pub fn random_playout_endings<P: Position>(position: &P, n: u64, seed: u64, threads: usize) -> Vec<Ending> {
    crate::perft::unstoppable(random_playout_endings_interruptible(position, n, seed, threads, &Stop::new()))
}

/// `n` playouts from `position` on `threads` threads.
pub fn random_playouts<P: Position>(position: &P, n: u64, seed: u64, threads: usize) -> Tally {
    crate::perft::unstoppable(random_playouts_interruptible(position, n, seed, threads, &Stop::new()))
}

/// `random_playout_endings`, returning `Err(Interrupted)` soon after `stop` is requested.
pub fn random_playout_endings_interruptible<P: Position>(
    position: &P,
    n: u64,
    seed: u64,
    threads: usize,
    stop: &Stop,
) -> Result<Vec<Ending>> {
    let one = |i: u64| {
        checked(stop, i)?;
        Ok(playout(
            position,
            &mut playout_rng(seed, i),
            #[inline(always)]
            |end: &P| Ending { outcome: end.outcome(), points: end.points() },
        ))
    };
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
    let one = |i: u64| {
        checked(stop, i)?;
        Ok(playout(
            position,
            &mut playout_rng(seed, i),
            #[inline(always)]
            |end: &P| Tally::of(end.outcome()),
        ))
    };
    let add = |a: Tally, b: Tally| Ok(a.add(b));
    on_threads(
        threads,
        stop,
        || (0..n).into_par_iter().map(one).try_reduce(Tally::default, add),
        || (0..n).map(one).try_fold(Tally::default(), |sum, t| add(sum, t?)),
    )
}

/// Playouts are short (microseconds on small boards): look at the stop every fourth.
#[inline(always)]
fn checked(stop: &Stop, i: u64) -> Result<()> {
    if every(i, 4) {
        stop.check()?;
    }
    Ok(())
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
