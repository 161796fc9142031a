//! Perft — the count of leaves of the game tree — written once for every game.
//!
//! Conventions (docs/design.md, "Perft conventions"): `perft(0) == 1`; a finished game is one
//! leaf even with depth left; otherwise the sum over the legal moves. With [`Plies::PassIsFree`]
//! a pass uses no ply (the other published Reversi convention).
//!
//! Callers go through `Position::perft_interruptible` (or `perft` / `divide` here, which do):
//! its default is the generic walk below, and a game with a faster representation for the walk
//! (Reversi's frames) overrides it, so every caller gets the fast path.

use crate::error::{Error, Result};
use crate::game::Position;
use crate::interrupt::Stop;
use rayon::prelude::*;

/// Whether a pass consumes a ply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plies {
    /// Every move, passes included, is one ply (the default everywhere).
    EveryMove,
    /// A pass uses no ply.
    PassIsFree,
}

/// The recursive walk, as a macro so it can be compiled twice: once for the baseline target and
/// once with the x86-64-v3 features (see `cpu.rs`). The engines' hot functions are
/// `#[inline]`, so they are compiled into each copy with that copy's features.
macro_rules! walker {
    ($name:ident $(#[$attr:meta])*) => {
        $(#[$attr])*
        fn $name<P: Position>(pos: &P, depth: u32, plies: Plies, stop: &Stop) -> Result<u64> {
            if depth == 0 {
                return Ok(1);
            }
            if plies == Plies::EveryMove {
                match depth {
                    1 => return Ok(pos.perft1()),
                    2 => return Ok(pos.perft2()),
                    _ => {}
                }
            }
            let mut leaves = 0;
            let mut any = false;
            for mv in pos.legal_moves() {
                any = true;
                let remaining = if plies == Plies::PassIsFree && pos.is_pass(mv) { depth } else { depth - 1 };
                if remaining == 0 {
                    leaves += 1;
                    continue;
                }
                // Before every subtree: a Strands node can have tens of thousands of children,
                // each a few milliseconds of perft2 (or, with free passes, of a full ply).
                stop.check()?;
                let mut child = pos.clone();
                child.play_unchecked(mv);
                // SAFETY: a v3 copy only ever runs after `cpu::has_v3()` said yes.
                #[allow(unused_unsafe)]
                {
                    leaves += unsafe { $name(&child, remaining, plies, stop) }?;
                }
            }
            Ok(if any { leaves } else { 1 })
        }
    };
}

walker!(walk_portable);
#[cfg(target_arch = "x86_64")]
walker!(walk_v3 #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]);

/// Leaves of the tree `depth` plies deep, on one thread, by the game's fastest walk
/// (`Position::perft_interruptible`).
pub fn perft<P: Position>(pos: &P, depth: u32, plies: Plies) -> u64 {
    pos.perft(depth, plies, 1)
}

/// Perft of each legal move's child, in move order (`Position::divide_interruptible`).
pub fn divide<P: Position>(pos: &P, depth: u32, plies: Plies) -> Vec<(P::Move, u64)> {
    pos.divide(depth, plies)
}

/// The value of work given a stop nobody can request. Its only other error is a budget passed
/// (`TooLarge`: a Rive capture too wide to rank with more survivor sets than can be listed),
/// which the plain, infallible API can only report by panicking; the interruptible calls, and
/// so Python, get it as an error.
pub(crate) fn unstoppable<T>(result: Result<T>) -> T {
    match result {
        Ok(value) => value,
        Err(Error::Interrupted) => unreachable!("a stop nobody holds was requested"),
        Err(e) => panic!("{e}"),
    }
}

/// The walk on one thread, in the copy compiled for this CPU.
fn walk<P: Position>(pos: &P, depth: u32, plies: Plies, stop: &Stop) -> Result<u64> {
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::has_v3() {
        // SAFETY: the CPU has every feature walk_v3 was compiled for.
        return unsafe { walk_v3(pos, depth, plies, stop) };
    }
    walk_portable(pos, depth, plies, stop)
}

/// The generic `divide`: `Position::divide_interruptible`'s default.
pub fn generic_divide<P: Position>(pos: &P, depth: u32, plies: Plies, stop: &Stop) -> Result<Vec<(P::Move, u64)>> {
    if depth == 0 {
        return Ok(Vec::new());
    }
    let mut parts = Vec::new();
    for (i, mv) in pos.legal_moves().enumerate() {
        if crate::interrupt::every(i as u64, 64) {
            stop.check()?;
        }
        let remaining = if plies == Plies::PassIsFree && pos.is_pass(mv) { depth } else { depth - 1 };
        let mut child = pos.clone();
        child.play_unchecked(mv);
        parts.push((mv, walk(&child, remaining, plies, stop)?));
    }
    Ok(parts)
}

/// The generic perft on `threads` threads: `Position::perft_interruptible`'s default. The tree
/// is cut a few plies down into many subtrees (enough to keep every thread busy to the end),
/// which a rayon pool then counts. Every thread checks `stop`, and this one polls it while the
/// pool works.
pub fn generic_perft<P: Position>(pos: &P, depth: u32, plies: Plies, threads: usize, stop: &Stop) -> Result<u64> {
    if threads <= 1 || depth < 4 {
        return walk(pos, depth, plies, stop);
    }
    let mut frontier = vec![(pos.clone(), depth)];
    // Expand breadth-first until there are plenty of subtrees per thread; leaves that finish
    // early are counted on the way.
    let mut finished = 0u64;
    while frontier.len() < 64 * threads {
        let mut next = Vec::with_capacity(frontier.len() * 8);
        let mut expanded = false;
        for (p, d) in frontier {
            stop.check()?;
            if d <= 3 {
                next.push((p, d));
                continue;
            }
            let mut any = false;
            for mv in p.legal_moves() {
                any = true;
                let remaining = if plies == Plies::PassIsFree && p.is_pass(mv) { d } else { d - 1 };
                let mut child = p.clone();
                child.play_unchecked(mv);
                next.push((child, remaining));
            }
            if !any {
                finished += 1;
            }
            expanded = true;
        }
        frontier = next;
        if !expanded {
            break;
        }
    }
    let count = |(p, d): &(P, u32)| walk(p, *d, plies, stop);
    let subtrees = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => stop.install(&pool, || frontier.par_iter().map(count).try_reduce(|| 0, |a, b| Ok(a + b)))??,
        Err(_) => frontier.iter().map(count).sum::<Result<u64>>()?,
    };
    Ok(finished + subtrees)
}
