//! Perft — the count of leaves of the game tree — written once for every game.
//!
//! Conventions (spec/api.md): `perft(0) == 1`; a finished game is one leaf even with depth
//! left; otherwise the sum over the legal moves. With [`Plies::PassIsFree`] a pass uses no
//! ply (the other published Reversi convention).

use crate::game::Position;
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
        fn $name<P: Position>(pos: &P, depth: u32, plies: Plies) -> u64 {
            if depth == 0 {
                return 1;
            }
            if plies == Plies::EveryMove {
                match depth {
                    1 => return pos.perft1(),
                    2 => return pos.perft2(),
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
                let mut child = pos.clone();
                child.play_unchecked(mv);
                // SAFETY: a v3 copy only ever runs after `cpu::has_v3()` said yes.
                #[allow(unused_unsafe)]
                {
                    leaves += unsafe { $name(&child, remaining, plies) };
                }
            }
            if any { leaves } else { 1 }
        }
    };
}

walker!(walk_portable);
#[cfg(target_arch = "x86_64")]
walker!(walk_v3 #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]);

/// Leaves of the tree `depth` plies deep, on one thread.
pub fn perft<P: Position>(pos: &P, depth: u32, plies: Plies) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::has_v3() {
        // SAFETY: the CPU has every feature walk_v3 was compiled for.
        return unsafe { walk_v3(pos, depth, plies) };
    }
    walk_portable(pos, depth, plies)
}

/// Perft of each legal move's child, in move order.
pub fn divide<P: Position>(pos: &P, depth: u32, plies: Plies) -> Vec<(P::Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .map(|mv| {
            let remaining = if plies == Plies::PassIsFree && pos.is_pass(mv) { depth } else { depth - 1 };
            let mut child = pos.clone();
            child.play_unchecked(mv);
            (mv, perft(&child, remaining, plies))
        })
        .collect()
}

/// Perft on `threads` threads: the tree is cut a few plies down into many subtrees (enough to
/// keep every thread busy to the end), which a rayon pool then counts.
pub fn perft_parallel<P: Position>(pos: &P, depth: u32, plies: Plies, threads: usize) -> u64 {
    if threads <= 1 || depth < 4 {
        return perft(pos, depth, plies);
    }
    let mut frontier = vec![(pos.clone(), depth)];
    // Expand breadth-first until there are plenty of subtrees per thread; leaves that finish
    // early are counted on the way.
    let mut finished = 0u64;
    while frontier.len() < 64 * threads {
        let mut next = Vec::with_capacity(frontier.len() * 8);
        let mut expanded = false;
        for (p, d) in frontier {
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
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool,
        Err(_) => return finished + frontier.iter().map(|(p, d)| perft(p, *d, plies)).sum::<u64>(),
    };
    finished + pool.install(|| frontier.par_iter().map(|(p, d)| perft(p, *d, plies)).sum::<u64>())
}
