//! Counting and ranking a capture's survivor sets without listing them.
//!
//! A dynamic programme over the cells of the new group in board order decides, cell by cell,
//! whether the cell is removed or survives. It remembers only what the future can see: how many
//! stones were removed so far, and which of the decided survivors that still touch undecided
//! cells (the *frontier*) are connected to which (the *pattern*). A component that leaves the
//! frontier can never grow again, so it must be the whole survivor set: every later cell is
//! removed, or the branch is dead. The frontier of a hex board is about one row wide, so the
//! number of patterns stays in the hundreds even when survivor sets number in the billions.
//! Per pattern the programme keeps one count per number of removed stones, so that a decision
//! is worked out once per pattern, not once per state.
//!
//! Deciding the cells in board order, *remove* before *keep*, visits removal sets in exactly the
//! documented move order (lists of removed cells compared lexicographically), so the same table
//! answers "how many", "the k-th" and "all of them, in order" with no sorting.

use crate::bitboard::Ones;
use crate::hex::HexBoard;
use crate::interrupt::Stop;

/// The most frontier cells a pattern can describe (a 4-bit component label each, in a `u128`).
const MAX_FRONTIER: usize = 32;
/// Labels 1..=14 name components; 15 marks a survivor with no decided neighbour yet.
const FRESH: u8 = 15;
/// The most counts a table may hold over all its layers (16 bytes each: 64 MiB), or a counting
/// pass in one layer. Past these the caller falls back (see `survivors`).
pub const MAX_TABLE_COUNTS: usize = 1 << 22;
pub const MAX_LAYER_COUNTS: usize = 1 << 22;

/// Why the programme did not answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unavailable {
    /// The group is too wide for the pattern encoding, or needs too many counts.
    TooLarge,
    /// The stop was requested (`Stop::checkpoint`, looked at once per pattern of every layer).
    Interrupted,
}

/// `Err(Interrupted)` once `stop` is requested: one relaxed load.
#[inline(always)]
fn checkpoint(stop: &Stop) -> Result<(), Unavailable> {
    stop.checkpoint().map_err(|_| Unavailable::Interrupted)
}

/// A component label (0 = removed or not on the frontier) per frontier cell, 4 bits each, the
/// first frontier cell lowest. Labels are numbered in order of first appearance, so equal
/// connectivity gives equal patterns.
type Pattern = u128;

/// Where deciding one cell leads from a pattern, whatever the number removed so far.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Link {
    Dead,
    /// The survivors are complete (one component left the frontier, with the placed stone):
    /// a survivor set if exactly the right number of cells was removed, counting every cell
    /// after this one.
    Closed,
    Next(u32),
}

/// One cell's decision, precomputed from the group's shape.
struct Step {
    cell: u8,
    is_placed: bool,
    /// The frontier cells (as slots of the frontier before this step) next to this cell.
    neighbour_slots: u64,
    /// Per slot of the frontier after this step: the slot it comes from, or `None` for this cell.
    next: Vec<Option<u8>>,
    /// The frontier before this step has this many cells.
    width: usize,
    /// The placed stone is this cell or an earlier one.
    placed_decided: bool,
}

/// The decisions of a capture in board order.
struct Plan {
    steps: Vec<Step>,
    /// Stones to remove, and to keep.
    remove: u32,
    keep: u32,
}

/// The choices at each cell, in move order: removing it first.
const CHOICES: [bool; 2] = [false, true];

impl Plan {
    fn new(board: &HexBoard, group: u128, placed: u128, keep: u32) -> Result<Plan, Unavailable> {
        let cells: Vec<u8> = Ones(group).map(|c| c as u8).collect();
        let mut frontier: Vec<u8> = Vec::new();
        let mut steps = Vec::with_capacity(cells.len());
        let placed_index = cells.iter().position(|&c| placed >> c & 1 == 1).expect("the placed stone is in the group");
        for (i, &cell) in cells.iter().enumerate() {
            let undecided: u128 = cells[i + 1..].iter().fold(0, |m, &c| m | 1u128 << c);
            let touches_undecided = |c: u8| board.neighbours[c as usize] & undecided != 0;
            let neighbour_slots = frontier
                .iter()
                .enumerate()
                .filter(|(_, &f)| board.neighbours[cell as usize] >> f & 1 == 1)
                .fold(0u64, |m, (slot, _)| m | 1 << slot);
            let mut next = Vec::new();
            let mut next_frontier = Vec::new();
            for (slot, &f) in frontier.iter().enumerate() {
                if touches_undecided(f) {
                    next.push(Some(slot as u8));
                    next_frontier.push(f);
                }
            }
            if touches_undecided(cell) {
                next.push(None);
                next_frontier.push(cell);
            }
            if next.len() > MAX_FRONTIER {
                return Err(Unavailable::TooLarge);
            }
            steps.push(Step {
                cell,
                is_placed: i == placed_index,
                neighbour_slots,
                width: frontier.len(),
                next,
                placed_decided: i >= placed_index,
            });
            frontier = next_frontier;
        }
        Ok(Plan { steps, remove: cells.len() as u32 - keep, keep })
    }

    fn cells(&self) -> usize {
        self.steps.len()
    }

    /// The numbers of removed cells a state can have once `decided` cells are decided: at most
    /// `remove`, and few enough that at most `keep` survive.
    fn removed_range(&self, decided: usize) -> (u32, u32) {
        let decided = decided as u32;
        (decided.saturating_sub(self.keep), decided.min(self.remove))
    }

    /// Counts per pattern of layer `decided` (one per number removed in `removed_range`).
    fn stride(&self, decided: usize) -> usize {
        let (low, high) = self.removed_range(decided);
        (high - low + 1) as usize
    }

    /// The number removed before a closure at `index` that completes a survivor set: then every
    /// undecided cell is removed too, and exactly `remove` are.
    fn removed_before_closing(&self, index: usize, removes_cell: bool) -> Option<u32> {
        let undecided_after = (self.cells() - index - 1) as u32;
        self.remove.checked_sub(undecided_after + removes_cell as u32)
    }

    /// Decides `steps[index]` for `pattern`: the cell survives (`keep`) or is removed.
    fn decide(&self, index: usize, pattern: Pattern, keep: bool) -> Result<Decided, Unavailable> {
        let step = &self.steps[index];
        let mut labels = pattern;
        let cell_label = if keep {
            let mut joined = 0u16;
            for slot in Ones(step.neighbour_slots) {
                joined |= 1 << label(labels, slot as usize);
            }
            joined &= !1;
            if joined == 0 {
                FRESH
            } else {
                let target = joined.trailing_zeros() as u8;
                for slot in 0..step.width {
                    if joined >> label(labels, slot) & 1 == 1 {
                        labels = with_label(labels, slot, target);
                    }
                }
                target
            }
        } else if step.is_placed {
            return Ok(Decided::Dead); // the placed stone always survives
        } else {
            0
        };
        let mut before = 1u16 << cell_label;
        for slot in 0..step.width {
            before |= 1 << label(labels, slot);
        }
        before &= !1;
        let (mut next, mut after) = (0u128, 0u16);
        let mut renamed = [0u8; 16];
        let mut fresh = 1;
        for (slot, source) in step.next.iter().enumerate() {
            let old = source.map_or(cell_label, |s| label(labels, s as usize));
            if old == 0 {
                continue;
            }
            after |= 1 << old;
            if renamed[old as usize] == 0 {
                if fresh == FRESH {
                    return Err(Unavailable::TooLarge);
                }
                renamed[old as usize] = fresh;
                fresh += 1;
            }
            next = with_label(next, slot, renamed[old as usize]);
        }
        if before == after {
            return Ok(Decided::Live(next));
        }
        // A component left the frontier for good: it is all that survives, or the survivors split.
        Ok(if before.count_ones() == 1 && step.placed_decided { Decided::Closed } else { Decided::Dead })
    }
}

enum Decided {
    Dead,
    Closed,
    Live(Pattern),
}

/// One layer of the programme being built: its patterns, an index to find them, and per
/// pattern one count per number removed.
struct Layer {
    patterns: Vec<Pattern>,
    index: PatternIndex,
    counts: Vec<u128>,
    stride: usize,
    low: u32,
}

impl Layer {
    /// A layer expecting about `patterns` patterns (the previous layer's count is a good guess:
    /// growing the arrays as patterns arrive cost a fifth of the time).
    fn new(stride: usize, low: u32, patterns: usize) -> Layer {
        Layer {
            patterns: Vec::with_capacity(patterns),
            index: PatternIndex::with_capacity(patterns),
            counts: Vec::with_capacity(patterns * stride),
            stride,
            low,
        }
    }

    fn slot(&mut self, pattern: Pattern) -> u32 {
        let patterns = &mut self.patterns;
        let counts = &mut self.counts;
        let stride = self.stride;
        self.index.find_or_insert(pattern, || {
            patterns.push(pattern);
            counts.resize(counts.len() + stride, 0);
            patterns.len() as u32 - 1
        })
    }
}

/// Runs the programme forwards, calling `link` with every (layer, pattern, choice, link),
/// and `closed` with (survivors, number of ways) whenever the survivors are complete (then
/// every later cell is removed).
fn forward(
    plan: &Plan,
    budget: usize,
    link: &mut dyn FnMut(usize, u32, usize, Link),
    closed: &mut dyn FnMut(u32, u128),
    stop: &Stop,
) -> Result<(), Unavailable> {
    let mut layer = Layer::new(1, 0, 1);
    layer.slot(0);
    layer.counts[0] = 1;
    let mut held = 0usize;
    for index in 0..plan.cells() {
        let (low, high) = plan.removed_range(index + 1);
        let mut next = Layer::new(plan.stride(index + 1), low, layer.patterns.len() * 2);
        for p in 0..layer.patterns.len() {
            checkpoint(stop)?;
            let pattern = layer.patterns[p];
            for (choice, keep) in CHOICES.into_iter().enumerate() {
                let delta = !keep as u32;
                let here = &layer.counts[p * layer.stride..(p + 1) * layer.stride];
                let outcome = match plan.decide(index, pattern, keep)? {
                    Decided::Dead => Link::Dead,
                    Decided::Closed => {
                        for (r, &ways) in here.iter().enumerate().filter(|(_, &w)| w != 0) {
                            let removed = layer.low + r as u32 + delta;
                            if removed <= plan.remove {
                                closed(index as u32 + 1 - removed, ways);
                            }
                        }
                        Link::Closed
                    }
                    Decided::Live(child) => {
                        // Counts move from `removed` to `removed + delta`, where that is in range.
                        let first = (low + 1).saturating_sub(layer.low + delta + 1) as usize;
                        let last = (high + 1 - delta).saturating_sub(layer.low).min(layer.stride as u32) as usize;
                        if first >= last || here[first..last].iter().all(|&w| w == 0) {
                            Link::Dead // no state of this pattern can take this choice
                        } else {
                            let j = next.slot(child);
                            let there = &mut next.counts[j as usize * next.stride..(j as usize + 1) * next.stride];
                            for (r, &ways) in (first..).zip(&here[first..last]) {
                                let to = (r as u32 + layer.low + delta - low) as usize;
                                there[to] = there[to].wrapping_add(ways);
                            }
                            Link::Next(j)
                        }
                    }
                };
                link(index, p as u32, choice, outcome);
            }
        }
        held += next.counts.len();
        if next.counts.len() > MAX_LAYER_COUNTS || held > budget {
            return Err(Unavailable::TooLarge);
        }
        layer = next;
    }
    Ok(())
}

/// The number of survivor sets, with one layer in memory at a time.
pub fn count(board: &HexBoard, group: u128, placed: u128, keep: u32, stop: &Stop) -> Result<u128, Unavailable> {
    let plan = Plan::new(board, group, placed, keep)?;
    let mut total = 0u128;
    forward(
        &plan,
        usize::MAX,
        &mut |_, _, _, _| {},
        &mut |survivors, ways| {
            if survivors == keep {
                total = total.wrapping_add(ways);
            }
        },
        stop,
    )?;
    Ok(total)
}

/// For every size `s`, the number of connected sets of `s` cells of `group` that contain
/// `placed` (index `s`; index 0 is 0), in one pass.
pub fn sizes(board: &HexBoard, group: u128, placed: u128, stop: &Stop) -> Result<Vec<u128>, Unavailable> {
    let cells = group.count_ones();
    let mut plan = Plan::new(board, group, placed, cells)?;
    plan.remove = cells; // any number may go
    let mut by_size = vec![0u128; cells as usize + 1];
    forward(
        &plan,
        usize::MAX,
        &mut |_, _, _, _| {},
        &mut |survivors, ways| {
            by_size[survivors as usize] = by_size[survivors as usize].wrapping_add(ways);
        },
        stop,
    )?;
    Ok(by_size)
}

/// Every layer of the programme with, per state (pattern, number removed), how many survivor
/// sets complete it: enough to find the k-th survivor set in move order by walking down once.
pub struct Table {
    cells: Vec<u8>,
    /// Per layer (cells decided) and pattern: the links for (remove, keep).
    links: Vec<Vec<[Link; 2]>>,
    /// Per layer: the completions of each (pattern, removed), `stride` per pattern from `low`.
    completions: Vec<Vec<u128>>,
    ranges: Vec<(u32, u32)>,
}

impl Table {
    pub fn build(board: &HexBoard, group: u128, placed: u128, keep: u32, stop: &Stop) -> Result<Table, Unavailable> {
        let plan = Plan::new(board, group, placed, keep)?;
        let mut links: Vec<Vec<[Link; 2]>> = vec![Vec::new(); plan.cells()];
        let mut record = |index: usize, p: u32, choice: usize, link: Link| {
            let layer = &mut links[index];
            if layer.len() <= p as usize {
                layer.resize(p as usize + 1, [Link::Dead; 2]);
            }
            layer[p as usize][choice] = link;
        };
        forward(&plan, MAX_TABLE_COUNTS, &mut record, &mut |_, _| {}, stop)?;
        let ranges: Vec<(u32, u32)> = (0..=plan.cells()).map(|d| plan.removed_range(d)).collect();
        let mut completions: Vec<Vec<u128>> = vec![Vec::new(); plan.cells() + 1];
        for index in (0..plan.cells()).rev() {
            let (low, high) = ranges[index];
            let stride = (high - low + 1) as usize;
            let mut here = vec![0u128; links[index].len() * stride];
            for (p, pattern_links) in links[index].iter().enumerate() {
                checkpoint(stop)?;
                for r in 0..stride {
                    let removed = low + r as u32;
                    here[p * stride + r] = (0..2)
                        .map(|choice| {
                            weight(&plan, &ranges, &completions, index, pattern_links[choice], choice, removed)
                        })
                        .fold(0u128, u128::wrapping_add);
                }
            }
            completions[index] = here;
        }
        Ok(Table { cells: plan.steps.iter().map(|s| s.cell).collect(), links, completions, ranges })
    }

    /// The number of survivor sets.
    pub fn total(&self) -> u128 {
        self.completions.first().and_then(|c| c.first()).copied().unwrap_or(0)
    }

    /// The survivor sets below taking `choice` at cell `index` from (pattern `p`, `removed`).
    fn below(&self, index: usize, p: u32, removed: u32, choice: usize) -> (u128, Link) {
        let link = self.links[index][p as usize][choice];
        let removed_after = removed + (choice == 0) as u32;
        let remove_total = self.ranges.last().map_or(0, |r| r.1);
        let n = match link {
            Link::Dead => 0,
            Link::Closed => (removed_after + (self.cells.len() - index - 1) as u32 == remove_total) as u128,
            Link::Next(j) => self.completion(index + 1, j, removed_after),
        };
        (n, link)
    }

    fn completion(&self, layer: usize, p: u32, removed: u32) -> u128 {
        let (low, high) = self.ranges[layer];
        if !(low..=high).contains(&removed) {
            return 0;
        }
        let stride = (high - low + 1) as usize;
        self.completions[layer][p as usize * stride + (removed - low) as usize]
    }

    /// The removal set of the `k`-th survivor set in move order (`k < total()`).
    pub fn nth(&self, mut k: u128) -> u128 {
        debug_assert!(k < self.total());
        let (mut p, mut removed, mut set) = (0u32, 0u32, 0u128);
        for index in 0..self.cells.len() {
            for choice in 0..2 {
                let (n, link) = self.below(index, p, removed, choice);
                if k >= n {
                    k -= n;
                    continue;
                }
                if choice == 0 {
                    set |= 1u128 << self.cells[index];
                    removed += 1;
                }
                match link {
                    Link::Next(j) => p = j,
                    _ => return set | self.cells[index + 1..].iter().fold(0, |m, &c| m | 1u128 << c),
                }
                break;
            }
        }
        unreachable!("k is below the total, so some decision completes a survivor set")
    }
}

/// Survivor sets below a link from a state with `removed` stones removed (as `Table::below`,
/// while the table is being built).
fn weight(
    plan: &Plan,
    ranges: &[(u32, u32)],
    completions: &[Vec<u128>],
    index: usize,
    link: Link,
    choice: usize,
    removed: u32,
) -> u128 {
    let removed_after = removed + (choice == 0) as u32;
    match link {
        Link::Dead => 0,
        Link::Closed => (plan.removed_before_closing(index, choice == 0) == Some(removed)) as u128,
        Link::Next(j) => {
            let (low, high) = ranges[index + 1];
            if !(low..=high).contains(&removed_after) {
                return 0;
            }
            let stride = (high - low + 1) as usize;
            completions[index + 1][j as usize * stride + (removed_after - low) as usize]
        }
    }
}

/// The removal sets of a table in move order, by a depth-first walk that never enters a branch
/// without survivor sets: each set costs a few steps on average, however many there are.
pub struct Walk {
    table: Table,
    /// Per decided cell: the pattern and number removed it was decided from, and the choice
    /// taken (0 remove, 1 keep).
    path: Vec<(u32, u32, usize)>,
    removed: u128,
    /// The cells after each one, as a set.
    later: Vec<u128>,
    started: bool,
}

impl Walk {
    pub fn new(table: Table) -> Walk {
        let mut later = vec![0u128; table.cells.len()];
        for index in (0..table.cells.len().saturating_sub(1)).rev() {
            later[index] = later[index + 1] | 1u128 << table.cells[index + 1];
        }
        Walk { path: Vec::with_capacity(table.cells.len()), removed: 0, later, started: false, table }
    }

    /// Takes `choice` (or a later one with survivor sets) at the next cell from the state, then
    /// the first choice with survivor sets at every cell after it, to the end of a survivor set.
    fn descend(&mut self, mut p: u32, mut removed: u32, mut choice: usize) -> Option<u128> {
        loop {
            let index = self.path.len();
            let (taken, link) = (choice..2)
                .map(|c| (c, self.table.below(index, p, removed, c)))
                .find(|(_, (n, _))| *n > 0)
                .map(|(c, (_, l))| (c, l))?;
            self.path.push((p, removed, taken));
            if taken == 0 {
                self.removed |= 1u128 << self.table.cells[index];
                removed += 1;
            }
            match link {
                Link::Next(j) => (p, choice) = (j, 0),
                _ => return Some(self.removed | self.later[index]),
            }
        }
    }
}

impl Iterator for Walk {
    type Item = u128;
    fn next(&mut self) -> Option<u128> {
        if !self.started {
            self.started = true;
            return if self.table.total() == 0 { None } else { self.descend(0, 0, 0) };
        }
        while let Some((p, removed, choice)) = self.path.pop() {
            if choice == 0 {
                self.removed &= !(1u128 << self.table.cells[self.path.len()]);
                if let Some(removal) = self.descend(p, removed, 1) {
                    return Some(removal);
                }
            }
        }
        None
    }
}

/// Patterns to their position in a layer: open addressing with linear probing (patterns are
/// bit patterns already; a multiply spreads them).
#[derive(Default)]
struct PatternIndex {
    keys: Vec<Pattern>,
    values: Vec<u32>,
    len: usize,
}

/// No pattern has every label 15 (labels stop at 14).
const EMPTY: Pattern = u128::MAX;

impl PatternIndex {
    fn with_capacity(patterns: usize) -> PatternIndex {
        let capacity = (patterns * 2).next_power_of_two().max(64);
        PatternIndex { keys: vec![EMPTY; capacity], values: vec![0; capacity], len: 0 }
    }

    fn find_or_insert(&mut self, key: Pattern, insert: impl FnOnce() -> u32) -> u32 {
        if (self.len + 1) * 2 > self.keys.len() {
            self.grow();
        }
        let mask = self.keys.len() - 1;
        let mut at = hash(key) & mask;
        loop {
            if self.keys[at] == key {
                return self.values[at];
            }
            if self.keys[at] == EMPTY {
                let value = insert();
                self.keys[at] = key;
                self.values[at] = value;
                self.len += 1;
                return value;
            }
            at = (at + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let capacity = (self.keys.len() * 2).max(64);
        let keys = std::mem::replace(&mut self.keys, vec![EMPTY; capacity]);
        let values = std::mem::replace(&mut self.values, vec![0; capacity]);
        let mask = capacity - 1;
        for (key, value) in keys.into_iter().zip(values).filter(|(k, _)| *k != EMPTY) {
            let mut at = hash(key) & mask;
            while self.keys[at] != EMPTY {
                at = (at + 1) & mask;
            }
            self.keys[at] = key;
            self.values[at] = value;
        }
    }
}

fn hash(key: Pattern) -> usize {
    let folded = (key as u64) ^ ((key >> 64) as u64).rotate_left(29);
    (folded.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20) as usize
}

fn label(labels: u128, slot: usize) -> u8 {
    (labels >> (4 * slot) & 15) as u8
}

fn with_label(labels: u128, slot: usize, value: u8) -> u128 {
    labels & !(15u128 << (4 * slot)) | (value as u128) << (4 * slot)
}
