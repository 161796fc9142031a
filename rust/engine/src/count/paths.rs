//! Counting move sequences with transpositions merged, for any game whose positions have an exact
//! compact key.
//!
//! Layer by layer, every distinct position carries the number of sequences that reach it; equal
//! positions are merged by their whole key (never by a hash alone). Memory therefore grows with the
//! number of distinct positions in a layer, not with the number of paths.
//!
//! A ply is what it is in the game's perft (every move, a Reversi pass and a Rive removal
//! included; with [`Plies::PassIsFree`] a Reversi pass uses none), so the counts always sum to
//! perft of the same depth. [`split_perft`] builds on it: perft of the distinct positions a few
//! plies down (merged by symmetry too, where the game has a canonical key), each multiplied by
//! its number of paths.

use crate::error::{Error, Result};
use crate::fast_hash::FastHasher;
use crate::game::Position;
use crate::interrupt::{every, Stop};
use crate::perft::Plies;
use rayon::prelude::*;
use std::collections::HashMap;
use std::fmt::Debug;
use std::hash::{BuildHasherDefault, Hash};

/// A position that can be written as, and rebuilt from, an exact compact key: everything that
/// decides the game from here on (pieces, side to move, a turn's state), nothing that the board
/// fixes for the whole game (its shape, holes, labels, rules), which the root lends back.
/// Each game's key is described in its module and its docs page.
pub trait CompactKey: Position {
    /// The key: small, hashable, ordered (results are sorted by it).
    type Key: Copy + Eq + Hash + Ord + Debug + Send + Sync;

    fn compact_key(&self) -> Self::Key;
    /// The position with this key, on the same board (and variant) as `self`.
    #[allow(clippy::wrong_self_convention)] // the key holds the pieces; `self` lends the board
    fn from_compact_key(&self, key: Self::Key) -> Self;
    /// An error when this board's positions do not fit in a key.
    fn key_fits(&self) -> Result<()> {
        Ok(())
    }

    /// Calls `child` with the key of every position one legal move after `key` (once per move,
    /// transpositions included); returns false if `key` is a finished game. Games override it to
    /// work on keys (or their fastest frame) directly.
    fn for_each_child(&self, key: Self::Key, mut child: impl FnMut(Self::Key)) -> bool {
        let position = self.from_compact_key(key);
        let mut any = false;
        for mv in position.legal_moves() {
            any = true;
            let mut next = position.clone();
            next.play_unchecked(mv);
            child(next.compact_key());
        }
        any
    }

    /// The key after the pass when a pass is the only legal move at `key` (Reversi), else `None`:
    /// under [`Plies::PassIsFree`] such a position is passed through within its layer.
    fn forced_pass(&self, _key: Self::Key) -> Option<Self::Key> {
        None
    }

    /// The cells of the position `key`, in the order of the game's `cells` (Python): `+p` a black
    /// piece (`p` its pips, 1 for a disc or a stone), `-p` a white one, 0 anything else.
    fn key_cells(&self, key: Self::Key, out: &mut Vec<i8>);

    /// A key with the same perft as `key`, the same for every image of `key` under the board's
    /// symmetries (the least of them): `split_perft` merges its frontier by it, so that symmetric
    /// positions are walked once. The default is `key` itself (no symmetry used); it never
    /// changes what `count_paths` returns.
    fn canonical(&self, key: Self::Key) -> Self::Key {
        key
    }

    /// The side to move at `key`.
    fn key_to_move(&self, key: Self::Key) -> crate::game::Player {
        self.from_compact_key(key).to_move()
    }
}

/// Distinct positions with their path counts, sorted by key: what `count_paths` returns.
pub type Paths<P> = Vec<(<P as CompactKey>::Key, u128)>;

type Layer<K> = HashMap<K, u128, BuildHasherDefault<FastHasher>>;

fn add<K: Eq + Hash>(layer: &mut Layer<K>, key: K, count: u128) -> Result<()> {
    let slot = layer.entry(key).or_insert(0);
    *slot = slot.checked_add(count).ok_or_else(|| Error::Overflow("a path count passed 2**128".into()))?;
    Ok(())
}

/// The most positions `count_paths` holds at once (the layer being read, the one being built,
/// and the finished games) for a 16-byte key (Cephalopod's): about 40 bytes each in hash maps that
/// may be half empty, so under about 1 GB. Games with larger keys hold proportionally fewer
/// ([`max_positions`]), so that the bound in bytes is the same for every game.
pub const MAX_POSITIONS: usize = 1 << 23;

/// The most positions `count_paths` holds at once for positions of type `P`: [`MAX_POSITIONS`]
/// scaled by the size of an entry (key and count) against Cephalopod's 32 bytes. Reversi's,
/// Rive's and Strands' 32- to 48-byte keys give 4 to 5.6 million positions.
pub fn max_positions<P: CompactKey>() -> usize {
    let entry = std::mem::size_of::<(P::Key, u128)>();
    MAX_POSITIONS / entry.max(32) * 32
}

/// The memory a cap of positions stands for, in bytes: the default cap's budget (about 1 GiB
/// for `MAX_POSITIONS`) per position, the same for every game's counts.
pub const BYTES_PER_CAPPED_POSITION: u64 = 128;

/// `max_positions` as a caller asks for it: refused (`TooLarge`, naming the sizes and the
/// machine's memory) when the memory it allows is more than the machine has, since the count
/// would fill the memory before its cap could stop it (docs/design.md, "Input limits and memory").
pub fn checked_cap(max_positions: usize) -> Result<usize> {
    let bytes = (max_positions as u64).saturating_mul(BYTES_PER_CAPPED_POSITION);
    crate::memory::within_machine(bytes, "count_paths", &format!("max_positions={max_positions}"))?;
    Ok(max_positions)
}

/// The distinct positions at the end of all move sequences from `root` (a sequence ends after
/// `depth` moves, or earlier when the game ends), with the number of sequences reaching each,
/// sorted by key.
pub fn count_paths<P: CompactKey>(root: &P, depth: u32) -> Result<Vec<(P::Key, u128)>> {
    count_paths_interruptible(root, depth, Stop::never())
}

/// `count_paths`, returning `Err(Interrupted)` soon after `stop` is requested, and `TooLarge`
/// rather than hold more than [`max_positions`] positions.
///
/// It stops as soon as every sequence has ended (no live position is left), so a depth past the
/// longest game costs no more than that game's length.
pub fn count_paths_interruptible<P: CompactKey>(root: &P, depth: u32, stop: &Stop) -> Result<Vec<(P::Key, u128)>> {
    count_paths_within(root, depth, Plies::EveryMove, stop, max_positions::<P>())
}

/// `count_paths_interruptible` under a ply convention: with [`Plies::PassIsFree`] a position
/// whose only move is a pass is replaced by the position after it before its moves are counted
/// (as perft does), so the totals equal perft under that convention.
pub fn count_paths_plies<P: CompactKey>(
    root: &P,
    depth: u32,
    plies: Plies,
    stop: &Stop,
) -> Result<Vec<(P::Key, u128)>> {
    count_paths_within(root, depth, plies, stop, max_positions::<P>())
}

fn count_paths_within<P: CompactKey>(
    root: &P,
    depth: u32,
    plies: Plies,
    stop: &Stop,
    max_positions: usize,
) -> Result<Vec<(P::Key, u128)>> {
    Ok(layers(root, depth, plies, stop, max_positions, |_, _| Ok(false))?.0)
}

/// Told after every ply of a count: the plies done (the whole depth at once when every game has
/// ended) and the entries held (distinct positions; orbits in Cephalopod's count over symmetries).
/// An error stops the count with that error (the binding turns a Python callback's exception into
/// one).
pub type Progress<'a> = dyn FnMut(u32, usize) -> Result<()> + 'a;

/// `count_paths_interruptible` holding at most `cap` positions at once (`None`: the default,
/// [`max_positions`]; a machine with more memory can go deeper), telling `progress` after every
/// ply.
pub fn count_paths_reporting<P: CompactKey>(
    root: &P,
    depth: u32,
    cap: Option<usize>,
    stop: &Stop,
    progress: &mut Progress<'_>,
) -> Result<Vec<(P::Key, u128)>> {
    let after_ply = |done: u32, held: usize| progress(done, held).map(|()| false);
    let cap = cap.unwrap_or_else(max_positions::<P>);
    Ok(layers(root, depth, Plies::EveryMove, stop, cap, after_ply)?.0)
}

/// The layers of `count_paths` up to `depth`, or to the first ply after which `enough(plies
/// done, positions held)` says so (an error from it stops the count): the merged positions
/// (finished games included) and the ply reached.
fn layers<P: CompactKey>(
    root: &P,
    depth: u32,
    plies: Plies,
    stop: &Stop,
    max_positions: usize,
    mut enough: impl FnMut(u32, usize) -> Result<bool>,
) -> Result<(Paths<P>, u32)> {
    root.key_fits()?;
    let mut layer = Layer::default();
    layer.insert(root.compact_key(), 1);
    let mut finished = Layer::default();
    let mut reached = 0;
    while reached < depth {
        let mut next = Layer::with_capacity_and_hasher(layer.len().min(max_positions / 2), Default::default());
        let mut overflow = false;
        // Children made since the last check: a Strands position can have tens of thousands.
        let mut made = 0usize;
        for (i, (&key, &count)) in layer.iter().enumerate() {
            if every(i as u64, 256) || made >= 4096 {
                made = 0;
                stop.check()?;
                let held = layer.len() + next.len() + finished.len();
                if held > max_positions {
                    return Err(Error::TooLarge(format!(
                        "count_paths to depth {depth} needs more than {max_positions} positions in memory at once \
                         (reached at depth {}); ask for a smaller depth or a larger max_positions",
                        reached + 1
                    )));
                }
            }
            let moving = match plies {
                Plies::PassIsFree => root.forced_pass(key).unwrap_or(key),
                Plies::EveryMove => key,
            };
            let alive = root.for_each_child(moving, |child| {
                made += 1;
                let slot = next.entry(child).or_insert(0);
                match slot.checked_add(count) {
                    Some(sum) => *slot = sum,
                    None => overflow = true,
                }
            });
            if !alive {
                add(&mut finished, key, count)?;
            }
        }
        if overflow {
            return Err(Error::Overflow("a path count passed 2**128".into()));
        }
        layer = next;
        reached += 1;
        if layer.is_empty() {
            // Every sequence has ended: deeper layers would all be empty.
            reached = depth;
        }
        if enough(reached, layer.len() + finished.len())? {
            break;
        }
    }
    for (key, count) in finished {
        add(&mut layer, key, count)?;
    }
    let mut result: Vec<(P::Key, u128)> = layer.into_iter().collect();
    result.sort_unstable_by_key(|&(key, _)| key);
    Ok((result, reached))
}

/// Counts modulo 2**64 when `wrapping`, leaving out the rows whose count is then 0: what every
/// count's wrapping mode returns.
pub fn wrapped<K>(rows: Vec<(K, u128)>, wrapping: bool) -> Vec<(K, u128)> {
    if !wrapping {
        return rows;
    }
    rows.into_iter().map(|(key, count)| (key, count as u64 as u128)).filter(|&(_, count)| count != 0).collect()
}

/// The columns of square totals: pips 0 (an empty cell) to 6.
pub const PIPS: usize = 7;

/// `T[cell * PIPS + pips]` of rows of `cells` (row-major, `width` cells a row, as
/// `CompactKey::key_cells` writes them) with path counts `counts`: the paths whose final position
/// shows `pips` on `cell` (`|cell|`, so owners are not told apart; a disc or a stone is 1). Exact
/// (`Overflow` past 2**128), or modulo 2**64 when `wrapping`. What `PathCounts.square_totals`
/// returns, and the definition Cephalopod's `path_totals` must meet.
pub fn square_totals(cells: &[i8], width: usize, counts: &[u128], wrapping: bool) -> Result<Vec<u128>> {
    let mut totals = vec![0u128; width * PIPS];
    for (row, &count) in cells.chunks_exact(width.max(1)).zip(counts) {
        for (cell, &value) in row.iter().enumerate() {
            let total = &mut totals[cell * PIPS + (value.unsigned_abs() as usize).min(PIPS - 1)];
            *total = match wrapping {
                true => (*total as u64).wrapping_add(count as u64) as u128,
                false => {
                    total.checked_add(count).ok_or_else(|| Error::Overflow("a square total passed 2**128".into()))?
                }
            };
        }
    }
    Ok(totals)
}

/// `CompactKey::key_cells` of a key holding each colour's stones as one bit a cell (the hex
/// games): +1 Black, -1 White, 0 empty, for the first `cells` cells.
pub fn stone_cells(black: u128, white: u128, cells: usize, out: &mut Vec<i8>) {
    out.extend((0..cells).map(|cell| (black >> cell & 1) as i8 - (white >> cell & 1) as i8));
}

/// Where `split_perft` merges transpositions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Split {
    /// At this many plies (0: plain perft).
    At(u32),
    /// Layer after layer while the layer is small and enough plies remain below it
    /// ([`AUTO_LAYER`], [`AUTO_BELOW`]); plain perft for a board without a key.
    Auto,
}

/// `Split::Auto` stops merging after the first layer of at least this many positions (about
/// 13 MB with Reversi's keys). Merging costs about a microsecond per move of the layer before
/// (hashing), a single thread; measured on Reversi 8x8 (docs/design.md, "Merged perft"), the
/// layer past this size (ply 9, 1.7 million positions) cost more than it saved.
pub const AUTO_LAYER: usize = 1 << 18;

/// `Split::Auto` leaves at least this many plies below the merged layer: shallower walks from
/// each position cost less than merging them did.
pub const AUTO_BELOW: u32 = 4;

/// Perft by transpositions merged: the distinct positions `k` plies down with their path
/// counts ([`count_paths_plies`]), merged again by their canonical keys (symmetric positions,
/// `CompactKey::canonical`), then perft of `depth - k` of each (in parallel on `threads`
/// threads, each by the game's fastest walk), multiplied and summed. Equal to plain perft for
/// every `k` from 0 to `depth`; exact to 2**128 (`Overflow` past it). Memory is that of
/// `count_paths` to `k` (`TooLarge` past [`max_positions`]).
pub fn split_perft<P: CompactKey>(
    root: &P,
    depth: u32,
    split: Split,
    plies: Plies,
    threads: usize,
    stop: &Stop,
) -> Result<u128> {
    match perft_frontier(root, depth, split, plies, stop)? {
        Some(Frontier { positions, remaining }) => {
            let leaves = |&(key, paths): &(P::Key, u128)| -> Result<u128> {
                let below = root.from_compact_key(key).perft_interruptible(remaining, plies, 1, stop)?;
                paths.checked_mul(below as u128).ok_or_else(overflow)
            };
            sum_in_parallel(&positions, threads, stop, leaves)
        }
        None => Ok(root.perft_interruptible(depth, plies, threads, stop)? as u128),
    }
}

/// Where `split_perft` counts below: the distinct positions (merged by symmetry too) with their
/// path counts, and the plies that remain below them.
pub struct Frontier<P: CompactKey> {
    pub positions: Paths<P>,
    pub remaining: u32,
}

/// The frontier `split_perft` would count below, sorted by key; `None` when it counts plainly
/// (`Split::At(0)`, or `Split::Auto` on a shallow depth or a board without a key). Distributed
/// perft cuts this frontier into work units (docs/distributed.md).
pub fn perft_frontier<P: CompactKey>(
    root: &P,
    depth: u32,
    split: Split,
    plies: Plies,
    stop: &Stop,
) -> Result<Option<Frontier<P>>> {
    let (positions, remaining) = match split {
        Split::At(k) if k > depth => {
            return Err(Error::invalid(format!("split_depth must be from 0 to depth ({depth}), got {k}")));
        }
        Split::At(0) => return Ok(None),
        Split::At(k) => (count_paths_plies(root, k, plies, stop)?, depth - k),
        Split::Auto if depth <= AUTO_BELOW || root.key_fits().is_err() => return Ok(None),
        Split::Auto => {
            let enough = |done: u32, held: usize| Ok(held >= AUTO_LAYER || depth - done <= AUTO_BELOW);
            let (frontier, reached) = layers(root, depth, plies, stop, max_positions::<P>(), enough)?;
            (frontier, depth - reached)
        }
    };
    Ok(Some(Frontier { positions: merge_symmetric(root, positions)?, remaining }))
}

/// The sum over `positions` of each one's path count times its perft of `depth`, on `threads`
/// threads: the work unit of distributed perft. Exact to 2**128 (`Overflow` past it).
pub fn weighted_perft<P: Position>(
    positions: &[(P, u128)],
    depth: u32,
    plies: Plies,
    threads: usize,
    stop: &Stop,
) -> Result<u128> {
    // One position alone gets every thread; many share them out one position per thread.
    if let [(position, paths)] = positions {
        let below = position.perft_interruptible(depth, plies, threads, stop)?;
        return paths.checked_mul(below as u128).ok_or_else(overflow);
    }
    sum_in_parallel(positions, threads, stop, |(position, paths)| {
        let below = position.perft_interruptible(depth, plies, 1, stop)?;
        paths.checked_mul(below as u128).ok_or_else(overflow)
    })
}

/// The checked sum of `count` over `items` on `threads` threads (a pool of its own), polling
/// `stop` meanwhile.
fn sum_in_parallel<T: Sync>(
    items: &[T],
    threads: usize,
    stop: &Stop,
    count: impl Fn(&T) -> Result<u128> + Sync,
) -> Result<u128> {
    let sum = |a: u128, b: u128| a.checked_add(b).ok_or_else(overflow);
    let serial = || items.iter().try_fold(0u128, |total, item| sum(total, count(item)?));
    if threads <= 1 {
        return serial();
    }
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => stop.install(&pool, || items.par_iter().map(&count).try_reduce(|| 0, sum))?,
        Err(_) => serial(),
    }
}

/// The frontier with positions merged by their canonical keys (`CompactKey::canonical`): the
/// same positions when the game uses no symmetry.
fn merge_symmetric<P: CompactKey>(root: &P, frontier: Paths<P>) -> Result<Paths<P>> {
    if frontier.iter().all(|&(key, _)| root.canonical(key) == key) {
        return Ok(frontier);
    }
    let mut merged = Layer::with_capacity_and_hasher(frontier.len(), Default::default());
    for (key, count) in frontier {
        add(&mut merged, root.canonical(key), count)?;
    }
    let mut result: Paths<P> = merged.into_iter().collect();
    result.sort_unstable_by_key(|&(key, _)| key);
    Ok(result)
}

fn overflow() -> Error {
    Error::Overflow("a perft count passed 2**128".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Outcome, Player};

    /// A toy game of two moves per position and no end. As a *coin* both moves lead to the other
    /// of two positions (2^depth paths into one position: exact 128-bit counts without a huge
    /// state space); as *bits* every move sequence ends in its own position (2^depth of them).
    #[derive(Clone, Copy, PartialEq)]
    struct Toy {
        key: u128,
        bits: bool,
    }

    const COIN: Toy = Toy { key: 0, bits: false };
    const BITS: Toy = Toy { key: 1, bits: true };

    impl Position for Toy {
        type Move = bool;
        type Moves<'a> = std::array::IntoIter<bool, 2>;
        fn to_move(&self) -> Player {
            if self.key & 1 == 0 || self.bits {
                Player::Black
            } else {
                Player::White
            }
        }
        fn legal_moves(&self) -> Self::Moves<'_> {
            [false, true].into_iter()
        }
        fn play_unchecked(&mut self, bit: bool) {
            self.key = if self.bits { self.key << 1 | bit as u128 } else { self.key ^ 1 };
        }
        fn outcome(&self) -> Option<Outcome> {
            None
        }
        fn score(&self) -> (u32, u32) {
            (0, 0)
        }
        fn zobrist(&self) -> u64 {
            self.key as u64
        }
        fn parse_move(&self, _: &str) -> Result<bool> {
            Ok(true)
        }
        fn format_move(&self, mv: bool) -> String {
            mv.to_string()
        }
        fn to_notation(&self) -> String {
            String::new()
        }
        fn from_notation(_: &str) -> Result<Self> {
            Ok(COIN)
        }
    }

    impl CompactKey for Toy {
        type Key = u128;
        fn compact_key(&self) -> u128 {
            self.key
        }
        fn from_compact_key(&self, key: u128) -> Self {
            Toy { key, ..*self }
        }
        fn key_cells(&self, _key: u128, _out: &mut Vec<i8>) {}
    }

    #[test]
    fn counts_past_64_bits_are_exact() {
        let paths = count_paths(&COIN, 100).unwrap();
        assert_eq!(paths, vec![(0, 1u128 << 100)]);
    }

    #[test]
    fn more_positions_than_the_budget_is_too_large() {
        assert_eq!(count_paths_within(&BITS, 10, Plies::EveryMove, Stop::never(), 4096).unwrap().len(), 1024);
        assert!(matches!(
            count_paths_within(&BITS, 14, Plies::EveryMove, Stop::never(), 4096),
            Err(Error::TooLarge(_))
        ));
    }

    #[test]
    fn a_stopped_count_is_interrupted() {
        let stop = Stop::new();
        stop.request();
        assert_eq!(count_paths_interruptible(&COIN, 5, &stop), Err(Error::Interrupted));
    }

    #[test]
    fn counts_past_128_bits_are_an_overflow_error() {
        assert_eq!(count_paths(&COIN, 127).unwrap(), vec![(1, 1u128 << 127)]);
        assert!(matches!(count_paths(&COIN, 128), Err(Error::Overflow(_))));
    }
}
