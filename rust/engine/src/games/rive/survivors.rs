//! A capture's survivor sets: the connected sets of `keep` cells of the new group that contain the
//! placed stone. Every question about them (how many, the k-th in move order, all of them in
//! order) is answered here, by whichever of two methods is cheaper:
//!
//! - **Growing** connected sets from the placed stone, for small captures. A set is grown only
//!   while the stones still allowed can complete it (the part of the group reachable from it
//!   without excluded stones has at least `keep` cells), so every branch ends in a survivor set:
//!   the work is polynomial per survivor set, never exponential in the group.
//! - **The frontier programme** (`frontier.rs`) for large ones: it counts and ranks without
//!   listing, in time that depends on the group's width, not on the number of sets.
//!
//! Where the programme over a capture's whole group would need more than its state budget (a
//! large capture on hex7 or a wide custom board), counting goes by the joined groups' sizes as
//! always, and the k-th set in move order is found by listing every set, up to `MAX_LISTED` of
//! them; past that it is ranked group by group (`nth_by_parts`): the same uniform draw, but not
//! the k-th in move order. Where a joined group is too wide too, counting falls back to growing
//! (exact, polynomial per set), and a draw past `MAX_LISTED` sets is a `TooLarge` error, never
//! a list that cannot fit (docs/rive.md).
//!
//! Counts are remembered per thread, per capture and per joined group: a playout meets the same
//! captures ply after ply, and counts again only those that changed.

use super::frontier::{self, Table, Unavailable, Walk};
use crate::bitboard::Ones;
use crate::error::{Error, Result};
use crate::hex::HexBoard;
use crate::interrupt::Stop;
use crate::rng::SplitMix64;
use std::cell::RefCell;
use std::ops::ControlFlow;
use std::rc::Rc;

/// Captures with at most this many survivor sets are listed and sorted; larger ones are ranked.
/// (Growing costs about a microsecond per set, building the frontier table a few hundred
/// microseconds for the largest captures seen on hex335, and walking it 70 ns per set.)
const LIST_LIMIT: u64 = 1 << 8;
/// Growing steps allowed before counting by the joined groups' sizes instead. Small: the sizes
/// are remembered per group and the programme that finds them is cheap, so growing pays only for
/// the smallest captures (128 steps made hex5 playouts 15% slower).
const QUICK_GROW_BUDGET: u64 = 16;

/// A capture: the new group (the placed stone and the groups it joins), the placed stone, and
/// how many stones survive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Capture {
    pub group: u128,
    pub placed: u128,
    pub keep: u32,
}

/// Calls `emit` with every survivor set, in no particular order.
pub fn for_each(board: &HexBoard, capture: Capture, emit: &mut impl FnMut(u128)) {
    let _ = grow_from(board, capture.group, capture.placed, capture.keep, &mut Emit(emit));
}

/// The number of survivor sets.
///
/// The groups a capture joins never touch each other, so a set of survivors is connected exactly
/// when, in each joined group, the survivors with the placed stone are connected. The count is
/// therefore a product over the joined groups, summed over the ways to share the survivors out:
/// `count = sum over s1 + s2 (+ s3) = keep - 1 of f1(s1) f2(s2) (f3(s3))`, where `fi(s)` is the
/// number of connected sets of `s` stones of group `i` that, with the placed stone, stay connected.
/// Each `fi` comes from one pass of the frontier programme over that group alone, and is
/// remembered per thread: a group that has not changed since an earlier ply (most of them, in a
/// playout) costs nothing to count again.
pub fn count(board: &'static HexBoard, capture: Capture) -> u128 {
    crate::perft::unstoppable(count_interruptible(board, capture, Stop::never()))
}

/// `count`, returning `Err(Interrupted)` soon after `stop` is requested (the frontier programme
/// looks at it once per pattern of every layer).
pub fn count_interruptible(board: &'static HexBoard, capture: Capture, stop: &Stop) -> Result<u128> {
    // A capture that stays on offer is counted again at every ply until it is taken or spoilt.
    let key = CacheKey::of(board, capture.group, capture.placed, capture.keep);
    if let Some(n) = COUNTS.with(|counts| counts.borrow().get(&key)) {
        return Ok(n);
    }
    let n = count_afresh(board, capture, stop)?;
    COUNTS.with(|counts| counts.borrow_mut().put(key, n));
    Ok(n)
}

/// `count_interruptible`, not remembered.
fn count_afresh(board: &'static HexBoard, capture: Capture, stop: &Stop) -> Result<u128> {
    // Most captures on small boards have a handful of survivor sets: growing them is cheapest.
    if let Some(n) = count_by_growing(board, capture, QUICK_GROW_BUDGET) {
        return Ok(n as u128);
    }
    // by_size[s] = number of ways for the parts so far to keep s stones besides the placed one.
    let mut by_size = vec![1u128];
    for part in board.groups(capture.group & !capture.placed) {
        let Some(sizes) = part_sizes(board, part | capture.placed, capture.placed, stop)? else {
            return count_without_sizes(board, capture, stop);
        };
        let mut next = vec![0u128; by_size.len() + sizes.len() - 2];
        for (a, &x) in by_size.iter().enumerate().filter(|(_, &x)| x != 0) {
            for (b, &y) in sizes.iter().enumerate().skip(1) {
                next[a + b - 1] = next[a + b - 1].wrapping_add(x.wrapping_mul(y));
            }
        }
        by_size = next;
    }
    Ok(by_size.get(capture.keep as usize - 1).copied().unwrap_or(0))
}

/// The frontier programme's answer, `None` where it cannot give one (the caller falls back).
fn answered<T>(answer: std::result::Result<T, Unavailable>) -> Result<Option<T>> {
    match answer {
        Ok(value) => Ok(Some(value)),
        Err(Unavailable::TooLarge) => Ok(None),
        Err(Unavailable::Interrupted) => Err(Error::Interrupted),
    }
}

/// `frontier::sizes` of a joined group with the placed stone, remembered per thread.
fn part_sizes(board: &'static HexBoard, group: u128, placed: u128, stop: &Stop) -> Result<Option<Rc<Vec<u128>>>> {
    let key = CacheKey::of(board, group, placed, 0);
    if let Some(sizes) = SIZES.with(|sizes| sizes.borrow().get(&key)) {
        return Ok(Some(sizes));
    }
    let sizes = if group.count_ones() <= SMALL_PART {
        sizes_by_growing(board, group, placed)
    } else {
        match answered(frontier::sizes(board, group, placed, stop))? {
            Some(sizes) => sizes,
            None => return Ok(None),
        }
    };
    let sizes = Rc::new(sizes);
    SIZES.with(|remembered| remembered.borrow_mut().put(key, sizes.clone()));
    Ok(Some(sizes))
}

/// Forgets the sizes and counts remembered on this thread, so that a benchmark times counting,
/// not recall.
pub fn forget_remembered_sizes() {
    SIZES.with(|sizes| sizes.borrow_mut().forget());
    COUNTS.with(|counts| counts.borrow_mut().forget());
}

/// Parts (with the placed stone) of at most this many cells are sized by listing their connected
/// sets (at most 2**11 of them): cheaper than setting up the programme, and most parts are small.
const SMALL_PART: u32 = 12;

/// `frontier::sizes` by growing every connected set of `group` that contains `placed`, each once.
fn sizes_by_growing(board: &HexBoard, group: u128, placed: u128) -> Vec<u128> {
    let mut sizes = Sizes { by_size: vec![0u128; group.count_ones() as usize + 1] };
    let _ = grow_from(board, group, placed, group.count_ones(), &mut sizes);
    sizes.by_size
}

/// What is remembered: a board (its address: every board is interned and `'static`, so the
/// address names it for good), a cell set with its placed stone, and a number of stones kept.
/// Kept small: a thread's first count allocates the memo, and a fresh process counts once.
#[derive(Clone, Copy, PartialEq, Eq)]
struct CacheKey {
    group: u128,
    board: usize,
    placed: u8,
    keep: u8,
}

impl CacheKey {
    fn of(board: &'static HexBoard, group: u128, placed: u128, keep: u32) -> CacheKey {
        // Boards have at most 128 cells, so the placed cell and `keep` fit a byte.
        let board = board as *const HexBoard as usize;
        CacheKey { group, board, placed: placed.trailing_zeros() as u8, keep: keep as u8 }
    }

    fn slot(&self) -> usize {
        let mixed = (self.group as u64)
            ^ ((self.group >> 64) as u64).rotate_left(17)
            ^ (self.placed as u64) << 7
            ^ (self.keep as u64) << 29
            ^ self.board as u64;
        (mixed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 52) as usize & (CACHE_SLOTS - 1)
    }
}

/// Remembered answers: direct-mapped, a new entry replaces the one in its slot.
const CACHE_SLOTS: usize = 1 << 10;

struct Remembered<V> {
    slots: Vec<Option<(CacheKey, V)>>,
}

impl<V: Clone> Remembered<V> {
    fn new() -> Remembered<V> {
        Remembered { slots: vec![None; CACHE_SLOTS] }
    }

    fn get(&self, key: &CacheKey) -> Option<V> {
        match &self.slots[key.slot()] {
            Some((k, value)) if k == key => Some(value.clone()),
            _ => None,
        }
    }

    fn put(&mut self, key: CacheKey, value: V) {
        self.slots[key.slot()] = Some((key, value));
    }

    fn forget(&mut self) {
        self.slots.iter_mut().for_each(|slot| *slot = None);
    }
}

thread_local! {
    /// `frontier::sizes` of a joined group with the placed stone (keep 0).
    static SIZES: RefCell<Remembered<Rc<Vec<u128>>>> = RefCell::new(Remembered::new());
    /// The number of survivor sets of a capture.
    static COUNTS: RefCell<Remembered<u128>> = RefCell::new(Remembered::new());
}

/// The count without the joined groups' sizes (a group too wide for the programme): the programme
/// over the whole new group, or, past that too, growing every survivor set (exact, but slow).
fn count_without_sizes(board: &HexBoard, capture: Capture, stop: &Stop) -> Result<u128> {
    match answered(frontier::count(board, capture.group, capture.placed, capture.keep, stop))? {
        Some(n) => Ok(n),
        None => Ok(count_by_growing(board, capture, u64::MAX).expect("no budget") as u128),
    }
}

/// The removal set of the `k`-th survivor set in move order, given their number `total`.
/// `Err(Interrupted)` soon after `stop` is requested (building the table looks at it).
///
/// Where the capture is too wide for one ranking table over its whole group, the sets are
/// listed and the k-th selected, still in move order, up to `MAX_LISTED` of them. Past that
/// they are ranked group by group (`nth_by_parts`): still exactly one set for each `k`, so a
/// uniform `k` is still a uniform draw, but not the k-th in move order. Only where the joined
/// groups are too wide as well is that a `TooLarge` error, rather than a list that would not
/// fit in memory.
pub fn nth(board: &'static HexBoard, capture: Capture, total: u128, k: u128, stop: &Stop) -> Result<u128> {
    if total > LIST_LIMIT as u128 {
        if let Some(removal) = ranked(board, capture, k, stop)? {
            return Ok(removal);
        }
        if total > MAX_LISTED {
            if let Some(removal) = nth_by_parts(board, capture, k, stop)? {
                return Ok(removal);
            }
        }
    }
    nth_listed(board, capture, total, k)
}

/// The capture-cell playout policy's survivor set of rank `k` (below the capture's count
/// `total`): ranked group by group (`nth_by_parts`), which needs only a table over each joined
/// group (over their union, the move-order rank of `nth` costs about a third more on hex5 and
/// hex7); where a joined group is too wide for the programme (never on a named board), the
/// k-th in move order. With one joined group the two ranks are the same.
pub fn nth_by_groups(board: &'static HexBoard, capture: Capture, total: u128, k: u128, stop: &Stop) -> Result<u128> {
    match nth_by_parts(board, capture, k, stop)? {
        Some(removal) => Ok(removal),
        // Not `nth`, which would try the groups again past `MAX_LISTED`.
        None if total > LIST_LIMIT as u128 => match ranked(board, capture, k, stop)? {
            Some(removal) => Ok(removal),
            None => nth_listed(board, capture, total, k),
        },
        None => nth_listed(board, capture, total, k),
    }
}

/// The k-th in move order from the frontier table, `None` where the group is too wide for it.
fn ranked(board: &HexBoard, capture: Capture, k: u128, stop: &Stop) -> Result<Option<u128>> {
    let table = answered(Table::build(board, capture.group, capture.placed, capture.keep, stop))?;
    Ok(table.map(|table| table.nth(k)))
}

/// The k-th in move order of the `total` sets, listed and selected.
fn nth_listed(board: &HexBoard, capture: Capture, total: u128, k: u128) -> Result<u128> {
    let mut removals = listed_within_budget(board, capture, total)?;
    removals.select_nth_unstable_by(k as usize, move_order);
    Ok(removals[k as usize])
}

/// The most survivor sets `nth` and `InOrder` list (16 bytes each: 256 MiB).
const MAX_LISTED: u128 = 1 << 24;

/// `listed`, or a `TooLarge` error where `total` sets would pass `MAX_LISTED`.
fn listed_within_budget(board: &HexBoard, capture: Capture, total: u128) -> Result<Vec<u128>> {
    if total > MAX_LISTED {
        return Err(Error::TooLarge(format!(
            "a capture with {total} survivor sets on a group too wide to rank them: listing them would \
             take more than {} MiB (docs/rive.md, \"Large captures\")",
            (MAX_LISTED * 16) >> 20
        )));
    }
    Ok(listed(board, capture))
}

/// The `k`-th survivor set (`k` below the capture's count) ranked group by group: the joined
/// groups in the order `HexBoard::groups` gives them, each keeping some number of stones (fewer
/// first), and within a group its connected shares in move order (the frontier table of that
/// group alone). A mixed-radix reading of `k`, so each `k` gives one set and each set one `k`.
/// `None` where a joined group is too wide for the programme too.
fn nth_by_parts(board: &'static HexBoard, capture: Capture, mut k: u128, stop: &Stop) -> Result<Option<u128>> {
    let parts: Vec<u128> = board.groups(capture.group & !capture.placed).collect();
    let mut sizes = Vec::with_capacity(parts.len());
    for &part in &parts {
        let Some(part_sizes) = part_sizes(board, part | capture.placed, capture.placed, stop)? else {
            return Ok(None);
        };
        sizes.push(part_sizes);
    }
    // after[i][t]: the ways for the groups from i on to keep t stones besides the placed one.
    let kept = capture.keep as usize - 1;
    let mut after = vec![vec![0u128; kept + 1]; parts.len() + 1];
    after[parts.len()][0] = 1;
    for i in (0..parts.len()).rev() {
        for t in 0..=kept {
            after[i][t] = (1..sizes[i].len().min(t + 2))
                .map(|b| sizes[i][b].wrapping_mul(after[i + 1][t + 1 - b]))
                .fold(0, u128::wrapping_add);
        }
    }
    let (mut left, mut removal) = (kept, 0u128);
    for (i, &part) in parts.iter().enumerate() {
        // `b` cells of the group's share with the placed stone: `b - 1` of its stones survive.
        for b in 1..sizes[i].len().min(left + 2) {
            let rest = after[i + 1][left + 1 - b];
            let ways = sizes[i][b].wrapping_mul(rest);
            if k >= ways {
                k -= ways;
                continue;
            }
            // One group's share: the programme over that group alone, or its shares listed.
            let share = Capture { group: part | capture.placed, placed: capture.placed, keep: b as u32 };
            let (total, rank) = (sizes[i][b], k / rest);
            removal |= match b {
                1 => part,
                _ if total > LIST_LIMIT as u128 => match ranked(board, share, rank, stop)? {
                    Some(removal) => removal,
                    None => nth_listed(board, share, total, rank)?,
                },
                _ => nth_listed(board, share, total, rank)?,
            };
            (k, left) = (k % rest, left + 1 - b);
            break;
        }
    }
    Ok(Some(removal))
}

/// Draws `n` below `total`: SplitMix64's `below` while `total` fits 64 bits (always, in practice),
/// else 128 bits by rejection.
pub(crate) fn below(rng: &mut SplitMix64, total: u128) -> u128 {
    if let Ok(small) = u64::try_from(total) {
        return rng.below(small) as u128;
    }
    let bits = 128 - total.leading_zeros();
    loop {
        let n = ((rng.next_u64() as u128) << 64 | rng.next_u64() as u128) >> (128 - bits);
        if n < total {
            return n;
        }
    }
}

/// The removal sets in move order, one at a time: listed and sorted when there are few, ranked
/// one by one from the frontier table when there are many (never a list of millions).
pub enum InOrder {
    Listed { removals: Vec<u128>, next: usize },
    Ranked(Walk),
}

impl InOrder {
    pub fn new(board: &'static HexBoard, capture: Capture) -> InOrder {
        crate::perft::unstoppable(InOrder::new_interruptible(board, capture, Stop::never()))
    }

    /// `new`, returning `Err(Interrupted)` soon after `stop` is requested (counting and building
    /// the table look at it).
    pub fn new_interruptible(board: &'static HexBoard, capture: Capture, stop: &Stop) -> Result<InOrder> {
        let total = count_interruptible(board, capture, stop)?;
        if total > LIST_LIMIT as u128 {
            if let Some(table) = answered(Table::build(board, capture.group, capture.placed, capture.keep, stop))? {
                return Ok(InOrder::Ranked(Walk::new(table)));
            }
        }
        let mut removals = listed_within_budget(board, capture, total)?;
        sort_removals(&mut removals);
        Ok(InOrder::Listed { removals, next: 0 })
    }
}

impl Iterator for InOrder {
    type Item = u128;
    fn next(&mut self) -> Option<u128> {
        match self {
            InOrder::Listed { removals, next } => {
                let removal = removals.get(*next).copied()?;
                *next += 1;
                Some(removal)
            }
            InOrder::Ranked(walk) => walk.next(),
        }
    }
}

/// Every removal set, unsorted.
fn listed(board: &HexBoard, capture: Capture) -> Vec<u128> {
    let mut removals = Vec::new();
    for_each(board, capture, &mut |s| removals.push(capture.group & !s));
    removals
}

/// The number of survivor sets by growing them, or None past `budget` growing steps.
fn count_by_growing(board: &HexBoard, capture: Capture, budget: u64) -> Option<u64> {
    let mut counter = Counter { sets: 0, budget };
    match grow_from(board, capture.group, capture.placed, capture.keep, &mut counter) {
        ControlFlow::Continue(()) => Some(counter.sets),
        ControlFlow::Break(()) => None,
    }
}

// ---- Growing connected sets: the one enumeration behind listing, counting and sizing ----------

/// What the enumeration reports to. Growing, listing and sizing differ only here; each is its
/// own type, so every call is resolved (and inlined) at compile time.
trait Sink {
    /// Every set of every size is wanted (sizing): no branch is cut for being unable to reach
    /// the full size.
    const EVERY_SIZE: bool = false;

    /// A set on the way, short of the full size; `Break` ends the enumeration.
    #[inline(always)]
    fn grown(&mut self, _set: u128) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    /// A set of the full size.
    fn complete(&mut self, set: u128);

    /// One cell short of the full size, each cell of `open` completes `set` in its own way.
    #[inline(always)]
    fn complete_each(&mut self, set: u128, open: u128) {
        for cell in Ones(open) {
            self.complete(set | 1u128 << cell);
        }
    }
}

/// Hands each survivor set to a closure (`for_each`).
struct Emit<'f, F: FnMut(u128)>(&'f mut F);

impl<F: FnMut(u128)> Sink for Emit<'_, F> {
    #[inline(always)]
    fn complete(&mut self, set: u128) {
        (self.0)(set)
    }
}

/// Counts survivor sets, giving up past a number of growing steps (`count_by_growing`).
struct Counter {
    sets: u64,
    budget: u64,
}

impl Sink for Counter {
    #[inline(always)]
    fn grown(&mut self, _set: u128) -> ControlFlow<()> {
        match self.budget.checked_sub(1) {
            Some(left) => {
                self.budget = left;
                ControlFlow::Continue(())
            }
            None => ControlFlow::Break(()),
        }
    }

    #[inline(always)]
    fn complete(&mut self, _set: u128) {
        self.sets += 1;
    }

    #[inline(always)]
    fn complete_each(&mut self, _set: u128, open: u128) {
        self.sets += open.count_ones() as u64;
    }
}

/// Counts the connected sets of every size (`sizes_by_growing`).
struct Sizes {
    by_size: Vec<u128>,
}

impl Sink for Sizes {
    const EVERY_SIZE: bool = true;

    #[inline(always)]
    fn grown(&mut self, set: u128) -> ControlFlow<()> {
        self.by_size[set.count_ones() as usize] += 1;
        ControlFlow::Continue(())
    }

    #[inline(always)]
    fn complete(&mut self, _set: u128) {
        *self.by_size.last_mut().expect("sized from 0") += 1;
    }

    #[inline(always)]
    fn complete_each(&mut self, _set: u128, open: u128) {
        *self.by_size.last_mut().expect("sized from 0") += open.count_ones() as u128;
    }
}

/// The fixed part of an enumeration: the board, the cells sets may use, and the full size.
struct Growth<'a> {
    board: &'a HexBoard,
    within: u128,
    size: u32,
}

/// Grows every connected set of `size` cells of `within` that contains `seed`, each once, and
/// reports them (and, for sizing, every smaller one on the way) to `sink`.
fn grow_from<S: Sink>(board: &HexBoard, within: u128, seed: u128, size: u32, sink: &mut S) -> ControlFlow<()> {
    let growth = Growth { board, within, size };
    grow(&growth, seed, board.dilate(seed) & within & !seed, 0, sink)
}

/// Grows `set` by one candidate at a time (the cells of `within` next to the set, less those
/// already tried at this level, so each set is produced once).
///
/// Unless every size is wanted, the caller guarantees that `set` can be completed within
/// `within` less `excluded`. Adding a candidate keeps that true; excluding one may not, and then
/// no later sibling can complete either (they would exclude even more), so the loop ends: no
/// branch is a dead end, and the work is polynomial per set produced. Two shortcuts: one cell
/// short of the end every open candidate completes exactly one set, and when the part still
/// reachable has exactly the size left, it is the one remaining set.
fn grow<S: Sink>(g: &Growth<'_>, set: u128, candidates: u128, excluded: u128, sink: &mut S) -> ControlFlow<()> {
    let need = g.size - set.count_ones();
    if need == 0 {
        sink.complete(set);
        return ControlFlow::Continue(());
    }
    sink.grown(set)?;
    let mut open = candidates & !excluded;
    if need == 1 {
        sink.complete_each(set, open);
        return ControlFlow::Continue(());
    }
    let mut excluded = excluded;
    while open != 0 {
        let v = open & open.wrapping_neg();
        open ^= v;
        let next = (candidates | g.board.neighbours[v.trailing_zeros() as usize]) & g.within & !set & !v;
        grow(g, set | v, next, excluded, sink)?;
        excluded |= v;
        if S::EVERY_SIZE {
            continue;
        }
        let reachable = g.board.component(set, g.within & !excluded);
        match reachable.count_ones().cmp(&g.size) {
            std::cmp::Ordering::Less => break,
            std::cmp::Ordering::Equal => {
                sink.complete(reachable); // the only completion left, whichever sibling is next
                break;
            }
            std::cmp::Ordering::Greater => {}
        }
    }
    ControlFlow::Continue(())
}

/// The documented order of removal sets: by their lists of cells in board order, compared
/// lexicographically. For sets of equal size that is decided by the lowest cell in which they
/// differ: the set holding it comes first.
pub fn move_order(a: &u128, b: &u128) -> std::cmp::Ordering {
    if a == b {
        return std::cmp::Ordering::Equal;
    }
    let first_difference = (a ^ b) & (a ^ b).wrapping_neg();
    if a & first_difference != 0 {
        std::cmp::Ordering::Less
    } else {
        std::cmp::Ordering::Greater
    }
}

/// Sorts removal sets into move order.
pub fn sort_removals(removals: &mut [u128]) {
    removals.sort_unstable_by(move_order);
}

/// The programme's count over the whole new group (tests compare it with the others).
#[cfg(test)]
fn frontier_count(board: &HexBoard, capture: Capture) -> std::result::Result<u128, frontier::Unavailable> {
    frontier::count(board, capture.group, capture.placed, capture.keep, Stop::never())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute_force(board: &HexBoard, group: u128, root: u128, size: u32) -> Vec<u128> {
        let cells: Vec<u128> = (0..128).map(|i| 1u128 << i).filter(|b| group & b != 0 && *b != root).collect();
        let mut found = Vec::new();
        for mask in 0u32..(1 << cells.len()) {
            if mask.count_ones() + 1 != size {
                continue;
            }
            let set = cells.iter().enumerate().filter(|(i, _)| mask >> i & 1 == 1).fold(root, |s, (_, b)| s | b);
            if board.component(root, set) == set {
                found.push(group & !set);
            }
        }
        sort_removals(&mut found);
        found
    }

    /// Groups grown from a cell in board order, every size up to 14, every target size, on
    /// boards of both shapes, with the placed stone in the middle and at the edge.
    fn small_captures() -> Vec<(&'static HexBoard, Capture)> {
        let mut out = Vec::new();
        for (name, root) in [("hex3", 9u32), ("hex3", 0), ("hex4", 18), ("hex4", 3)] {
            let board = HexBoard::named(name).unwrap();
            let placed = 1u128 << root;
            for extra in 1..=13 {
                let group = (0..board.len() as u32)
                    .map(|i| 1u128 << i)
                    .filter(|b| *b != placed)
                    .take(extra)
                    .fold(placed, |g, b| g | b);
                let group = board.component(placed, group);
                for keep in 1..=group.count_ones() {
                    out.push((board, Capture { group, placed, keep }));
                }
            }
        }
        out
    }

    #[test]
    fn every_method_agrees_with_brute_force_on_small_groups() {
        for (board, capture) in small_captures() {
            let expected = brute_force(board, capture.group, capture.placed, capture.keep);
            let mut grown = listed(board, capture);
            sort_removals(&mut grown);
            assert_eq!(grown, expected, "{capture:?}");
            assert_eq!(count(board, capture), expected.len() as u128);
            assert_eq!(count_by_growing(board, capture, u64::MAX), Some(expected.len() as u64));
            assert_eq!(frontier_count(board, capture), Ok(expected.len() as u128), "{capture:?}");
            let by_size = sizes_by_growing(board, capture.group, capture.placed);
            assert_eq!(by_size[capture.keep as usize], expected.len() as u128);
            assert_eq!(frontier::sizes(board, capture.group, capture.placed, Stop::never()).unwrap(), by_size);
            let table = Table::build(board, capture.group, capture.placed, capture.keep, Stop::never()).unwrap();
            let ranked: Vec<u128> = (0..table.total()).map(|k| table.nth(k)).collect();
            assert_eq!(ranked, expected, "{capture:?}");
            assert_eq!(Walk::new(table).collect::<Vec<_>>(), expected, "{capture:?}");
        }
    }

    #[test]
    fn large_captures_are_ranked_in_move_order() {
        // The whole of hex4 less a hole, joined at its centre: thousands of survivor sets.
        let board = HexBoard::named("hex4").unwrap();
        let placed = 1u128 << 18;
        let group = board.all & !(1u128 << 10) & !(1u128 << 26);
        let mut largest = 0;
        for keep in [30, 31, 33, 34] {
            let capture = Capture { group, placed, keep };
            let mut all = listed(board, capture);
            sort_removals(&mut all);
            largest = largest.max(all.len() as u64);
            assert_eq!(count(board, capture), all.len() as u128);
            let in_order: Vec<u128> = InOrder::new(board, capture).collect();
            assert_eq!(in_order, all);
            for k in [0, all.len() / 3, all.len() - 1] {
                assert_eq!(nth(board, capture, all.len() as u128, k as u128, Stop::never()), Ok(all[k]));
            }
        }
        assert!(largest > LIST_LIMIT, "the table is used: {largest} sets");
    }

    /// Captures of hex4's centre whose group, without the placed stone, falls into two or three
    /// joined groups, with every number of survivors: random cell sets around the centre.
    fn captures_joining_groups() -> Vec<(&'static HexBoard, Capture)> {
        let board = HexBoard::named("hex4").unwrap();
        let placed = 1u128 << 18;
        let mut rng = SplitMix64::new(11);
        let (mut out, mut groups) = (Vec::new(), 0);
        while groups < 60 {
            let cells = (0..board.len()).filter(|_| rng.below(2) == 0).fold(placed, |g, i| g | 1u128 << i);
            let group = board.component(placed, cells);
            if board.groups(group & !placed).count() < 2 || group.count_ones() > 20 {
                continue;
            }
            groups += 1;
            for keep in 2..group.count_ones() {
                out.push((board, Capture { group, placed, keep }));
            }
        }
        out
    }

    #[test]
    fn ranking_by_joined_groups_is_a_bijection_onto_the_survivor_sets() {
        // Where the whole group is too wide for one table, `nth` ranks group by group: every
        // rank below the count must give a different survivor set, and together all of them.
        let (mut checked, mut joined) = (0, 0);
        for (board, capture) in captures_joining_groups() {
            let total = count(board, capture);
            if total > 20_000 {
                continue;
            }
            let mut expected = listed(board, capture);
            expected.sort_unstable();
            let mut ranked: Vec<u128> = (0..total)
                .map(|k| nth_by_parts(board, capture, k, Stop::never()).unwrap().expect("the groups fit"))
                .collect();
            ranked.sort_unstable();
            assert_eq!(ranked, expected, "{capture:?}");
            checked += 1;
            joined += (board.groups(capture.group & !capture.placed).count() == 3) as u32;
        }
        assert!(checked > 100 && joined > 0, "{checked} captures, {joined} joining three groups");
    }

    #[test]
    fn a_capture_too_wide_for_one_table_is_still_drawn() {
        // A hex7 position from a random game (capture-cell policy) in which placing at the
        // largest capture's cell joins groups too wide for one ranking table over the whole
        // group, with about 2.3e18 moves in all: listing them would not fit in memory (it
        // once aborted the process). Each draw must be one of its survivor sets.
        let position = "hex7 .b.b.w./.b.b.w.w/bb.b..b.b/ww...bb.ww/www.wbb.bbb/...bwbw.wbww/bbbb.wwb.bwwb/\
                        wb.wb.w.wbww/wb.ww.w.www/bb.bbb.wwb/..b.b.wbb/w.bw.wbb/w...wbw w";
        let rive = <super::super::Rive as crate::game::Position>::from_notation(position).unwrap();
        let board = rive.board();
        let groups = super::super::groups::Groups::of(board, rive.occupied());
        let mut wide = 0;
        for cell in Ones(rive.legal_cells(&groups)) {
            let Some(capture) = rive.capture_at(&groups, cell as u8) else { continue };
            let total = count(board, capture);
            if total <= LIST_LIMIT as u128 {
                continue;
            }
            let table = Table::build(board, capture.group, capture.placed, capture.keep, Stop::never());
            wide += table.is_err() as u32;
            let mut rng = SplitMix64::new(cell as u64);
            for _ in 0..3 {
                let removal = nth(board, capture, total, below(&mut rng, total), Stop::never()).unwrap();
                let survivors = capture.group & !removal;
                assert_eq!(removal & !capture.group, 0);
                assert_eq!(survivors.count_ones(), capture.keep);
                assert!(survivors & capture.placed != 0 && board.component(capture.placed, survivors) == survivors);
            }
        }
        assert!(wide > 0, "a capture too wide for one table");
    }

    #[test]
    fn a_group_too_wide_along_the_rows_is_counted_along_another_direction() {
        // Two rows of 34 cells: read row by row the frontier is a whole row (more than the
        // programme's 32 cells), read across the rows it is two or three cells wide.
        let board = HexBoard::from_rows(&[(34, 0), (34, 1)]).unwrap();
        let placed = 1u128 << 40; // in the second row
        let group = board.all;
        assert_eq!(Table::build(board, group, placed, 3, Stop::never()).err(), Some(Unavailable::TooLarge));
        let sizes = frontier::sizes(board, group, placed, Stop::never()).expect("counted across the rows");
        for keep in 1..=6 {
            let capture = Capture { group, placed, keep };
            let grown = count_by_growing(board, capture, u64::MAX).unwrap() as u128;
            assert_eq!(sizes[keep as usize], grown, "keep {keep}");
            assert_eq!(frontier_count(board, capture), Ok(grown), "keep {keep}");
        }
        assert_eq!(sizes[68], 1, "the whole strip is one set");
        // Draws of a survivor set with many sets still give survivor sets (listed, then
        // selected, since no ranking table fits).
        let capture = Capture { group, placed, keep: 5 };
        let total = count(board, capture);
        let mut rng = SplitMix64::new(3);
        for _ in 0..3 {
            let removal = nth(board, capture, total, below(&mut rng, total), Stop::never()).unwrap();
            let survivors = group & !removal;
            assert_eq!(survivors.count_ones(), 5);
            assert!(survivors & placed != 0 && board.component(placed, survivors) == survivors);
        }
    }

    #[test]
    fn removal_order_is_lexicographic_on_board_order() {
        let mut sets = vec![0b0110u128, 0b1001, 0b0011, 0b1100, 0b0101, 0b1010];
        sort_removals(&mut sets);
        // As cell lists: [0,1] [0,2] [0,3] [1,2] [1,3] [2,3]
        assert_eq!(sets, vec![0b0011, 0b0101, 0b1001, 0b0110, 0b1010, 0b1100]);
    }

    #[test]
    fn draws_past_64_bits_stay_below_the_total() {
        let mut rng = SplitMix64::new(7);
        let total = (1u128 << 100) + 12345;
        assert!((0..1000).all(|_| below(&mut rng, total) < total));
        assert_eq!(below(&mut SplitMix64::new(3), 1000), SplitMix64::new(3).below(1000) as u128);
    }
}
