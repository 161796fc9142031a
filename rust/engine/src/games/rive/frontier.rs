//! Counting and ranking a capture's survivor sets without listing them.
//!
//! A dynamic programme over the cells of the new group, line by line along the board, decides
//! cell by cell whether the cell is removed or survives. It remembers only what the future can
//! see: how many stones were removed so far, and which of the decided survivors that still
//! touch undecided cells (the *frontier*) are connected to which (the *pattern*). A component
//! that leaves the frontier can never grow again, so it must be the whole survivor set: every
//! later cell is removed, or the branch is dead. The frontier of a hex board is about one line
//! wide, so the number of patterns stays in the hundreds even when survivor sets number in the
//! billions. Per pattern the programme keeps one count per number of removed stones, so that a
//! decision is worked out once per pattern, not once per state.
//!
//! Counting reads the group along whichever of the board's three directions of lines gives the
//! narrowest frontier (any order counts the same sets). Ranking reads it in board order (along
//! the rows), *remove* before *keep*: that visits removal sets in exactly the documented move
//! order (lists of removed cells compared lexicographically), so the same table answers "the
//! k-th" and "all of them, in order" with no sorting.

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
    /// The slots of the frontier before this step that stay on it (they still touch undecided
    /// cells); in the frontier after the step they come first, in order, then this cell if
    /// `cell_stays`.
    kept_slots: u64,
    cell_stays: bool,
    /// The frontier before this step has this many cells.
    width: usize,
    /// The placed stone is this cell or an earlier one.
    placed_decided: bool,
}

/// The decisions of a capture, in the order of its steps (board order for ranking).
struct Plan {
    steps: Vec<Step>,
    /// Stones to remove, and to keep.
    remove: u32,
    keep: u32,
}

/// The three directions of lines on a hex board, along which a plan can decide its cells: the
/// rows (board order), and the two others (`HexBoard::other_lines`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Direction {
    Rows,
    Columns,
    Diagonals,
}

const DIRECTIONS: [Direction; 3] = [Direction::Rows, Direction::Columns, Direction::Diagonals];

/// The choices at each cell, in move order: removing it first.
const CHOICES: [bool; 2] = [false, true];

impl Plan {
    /// The plan in board order: the order of moves, which ranking (`Table`) must follow.
    fn new(board: &HexBoard, group: u128, placed: u128, keep: u32) -> Result<Plan, Unavailable> {
        Plan::in_order(board, Ones(group).map(|cell| cell as u8), group, placed, keep)
    }

    /// The plan deciding the cells of `group` in `order` (any order counts the same sets).
    fn in_order(
        board: &HexBoard,
        order: impl Iterator<Item = u8>,
        group: u128,
        placed: u128,
        keep: u32,
    ) -> Result<Plan, Unavailable> {
        let mut frontier = [0u8; MAX_FRONTIER];
        let mut width = 0;
        let mut steps = Vec::with_capacity(group.count_ones() as usize);
        let mut undecided = group;
        for cell in order {
            undecided &= !(1u128 << cell);
            let touches_undecided = |c: u8| board.neighbours[c as usize] & undecided != 0;
            let mut step = Step {
                cell,
                is_placed: placed >> cell & 1 == 1,
                neighbour_slots: 0,
                kept_slots: 0,
                cell_stays: touches_undecided(cell),
                width,
                placed_decided: placed & !undecided != 0,
            };
            let mut next_frontier = [0u8; MAX_FRONTIER];
            let mut next_width = 0;
            for (slot, &f) in frontier[..width].iter().enumerate() {
                if board.neighbours[cell as usize] >> f & 1 == 1 {
                    step.neighbour_slots |= 1 << slot;
                }
                if touches_undecided(f) {
                    step.kept_slots |= 1 << slot;
                    next_frontier[next_width] = f;
                    next_width += 1;
                }
            }
            if step.cell_stays {
                if next_width == MAX_FRONTIER {
                    return Err(Unavailable::TooLarge);
                }
                next_frontier[next_width] = cell;
                next_width += 1;
            }
            (frontier, width) = (next_frontier, next_width);
            steps.push(step);
        }
        let cells = steps.len() as u32;
        Ok(Plan { steps, remove: cells - keep, keep })
    }

    /// The plans along the board's three directions of lines, the narrowest frontier first, for
    /// counting: the programme's work grows about twofold with each frontier cell, and a group
    /// that is long along the rows is narrow across them. A direction whose plan cannot be made
    /// (a frontier too wide) is left out.
    fn narrowest_first(board: &HexBoard, group: u128, placed: u128, keep: u32) -> Vec<Plan> {
        let mut plans: Vec<Plan> = DIRECTIONS
            .into_iter()
            .filter_map(|direction| Plan::along(board, direction, group, placed, keep).ok())
            .collect();
        plans.sort_by_key(Plan::cost);
        plans
    }

    /// The plan deciding the cells of `group` line by line in `direction`, each line in order.
    fn along(
        board: &HexBoard,
        direction: Direction,
        group: u128,
        placed: u128,
        keep: u32,
    ) -> Result<Plan, Unavailable> {
        let lines = match direction {
            Direction::Rows => return Plan::new(board, group, placed, keep),
            Direction::Columns => &board.other_lines[0],
            Direction::Diagonals => &board.other_lines[1],
        };
        let positions = Ones(group).fold(0u128, |set, cell| set | 1u128 << lines.position[cell as usize]);
        Plan::in_order(board, Ones(positions).map(|at| lines.cell[at as usize]), group, placed, keep)
    }

    /// About the work of the programme: the patterns a frontier of each width can have.
    fn cost(&self) -> u64 {
        self.steps.iter().map(|s| 1u64 << s.width.min(40)).sum()
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
    ///
    /// One pass over the frontier does it all (this is the programme's inner loop): it merges
    /// the components the kept cell joins, notes every component present, and writes the next
    /// pattern from the slots that stay, renaming components in order of first appearance.
    fn decide(&self, index: usize, pattern: Pattern, keep: bool) -> Result<Decided, Unavailable> {
        let step = &self.steps[index];
        if !keep && step.is_placed {
            return Ok(Decided::Dead); // the placed stone always survives
        }
        // A kept cell joins the components next to it, merged under the lowest label, or starts
        // a fresh one; a removed cell is label 0.
        let mut joined = 0u16;
        if keep {
            for slot in Ones(step.neighbour_slots) {
                joined |= 1 << label(pattern, slot as usize);
            }
            joined &= !1;
        }
        let cell_label = match (keep, joined) {
            (false, _) => 0,
            (true, 0) => FRESH,
            (true, _) => joined.trailing_zeros() as u8,
        };
        // Each old label as it reads after the merge: the joined components take the cell's.
        let mut merged_as = IDENTITY;
        for old in Ones(joined as u64) {
            merged_as[old as usize] = cell_label;
        }
        // The loop has no branch on the data (they mispredict): each slot is read, and written
        // out only if it stays; a label is renamed on its first appearance among those written.
        let mut before = 1u16 << cell_label;
        let (mut after, mut renamed, mut fresh) = (0u16, [0u8; 16], 1u8);
        let (mut next, mut out) = (0 as Pattern, 0u32);
        let mut rest = pattern;
        for slot in 0..step.width {
            let old = merged_as[(rest & 15) as usize];
            rest >>= 4;
            before |= 1 << old;
            let stays = (step.kept_slots >> slot & 1) as u8;
            let seen = (old != 0) as u8 & stays;
            let first = seen & (renamed[old as usize] == 0) as u8;
            renamed[old as usize] |= fresh * first;
            fresh += first;
            after |= (seen as u16) << old;
            next |= (renamed[old as usize] as Pattern * seen as Pattern) << (4 * out);
            out += stays as u32;
        }
        if step.cell_stays && cell_label != 0 {
            after |= 1 << cell_label;
            if renamed[cell_label as usize] == 0 {
                renamed[cell_label as usize] = fresh;
                fresh += 1;
            }
            next |= (renamed[cell_label as usize] as Pattern) << (4 * out);
        }
        if fresh > FRESH {
            return Err(Unavailable::TooLarge); // more components than labels
        }
        if before & !1 == after {
            return Ok(Decided::Live(next));
        }
        // A component left the frontier for good: it is all that survives, or the survivors split.
        Ok(if (before & !1).count_ones() == 1 && step.placed_decided { Decided::Closed } else { Decided::Dead })
    }
}

/// Every label as itself (`Plan::decide` changes the merged ones).
const IDENTITY: [u8; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

enum Decided {
    Dead,
    Closed,
    Live(Pattern),
}

/// What the programme carries per (pattern, number removed): the number of ways to get there
/// (`u64` while every count fits, `u128` past that), or only whether it can be reached
/// (`Reached`: all a ranking table needs from the forward pass, one byte instead of sixteen).
trait Ways: Copy + Default + PartialEq + 'static {
    const ONE: Self;
    fn plus(self, other: Self) -> Self;
    fn widen(self) -> u128;
    /// Runs `f` with this thread's two spare layers (their memory kept from call to call: a
    /// playout runs the programme thousands of times, and fresh memory costs page faults).
    fn with_layers<R>(f: impl FnOnce(&mut [Layer<Self>; 2]) -> R) -> R;
}

/// The most counts a spare layer keeps between calls (a few hundred KiB): a capture's programme
/// may take far more, but only that call needs it.
const SPARE_COUNTS: usize = 1 << 14;

/// `Ways::with_layers` for one type: a thread's spare layers, or fresh ones if they are in use.
macro_rules! spare_layers {
    ($ways:ty) => {
        fn with_layers<R>(f: impl FnOnce(&mut [Layer<Self>; 2]) -> R) -> R {
            thread_local! {
                static SPARE: std::cell::RefCell<[Layer<$ways>; 2]> = std::cell::RefCell::new([Layer::new(), Layer::new()]);
            }
            SPARE.with(|spare| match spare.try_borrow_mut() {
                Ok(mut layers) => {
                    let answer = f(&mut layers);
                    // Keep what playouts need, not what the largest capture once took.
                    for layer in layers.iter_mut().filter(|l| l.counts.capacity() > SPARE_COUNTS) {
                        *layer = Layer::new();
                    }
                    answer
                }
                Err(_) => f(&mut [Layer::new(), Layer::new()]),
            })
        }
    };
}

/// Counting: ways add up (wrapping, as the 128-bit counts of the whole programme do).
macro_rules! counting_ways {
    ($($count:ty),*) => {$(
        impl Ways for $count {
            const ONE: $count = 1;
            #[inline(always)]
            fn plus(self, other: $count) -> $count {
                self.wrapping_add(other)
            }
            #[inline(always)]
            fn widen(self) -> u128 {
                self as u128
            }
            spare_layers!($count);
        }
    )*};
}

counting_ways!(u64, u128);

#[derive(Clone, Copy, Default, PartialEq)]
struct Reached(bool);

impl Ways for Reached {
    const ONE: Reached = Reached(true);
    #[inline(always)]
    fn plus(self, other: Reached) -> Reached {
        Reached(self.0 | other.0)
    }
    #[inline(always)]
    fn widen(self) -> u128 {
        self.0 as u128
    }
    spare_layers!(Reached);
}

/// Counts fit in 64 bits for groups of at most this many cells: a count never exceeds the
/// number of subsets of the other cells, 2**63.
const U64_CELLS: u32 = 64;

/// One layer of the programme being built: its patterns, an index to find them, and per
/// pattern one count per number removed, with the range of those that can be non-zero.
struct Layer<W> {
    patterns: Vec<Pattern>,
    index: PatternIndex,
    counts: Vec<W>,
    /// Per pattern: the numbers removed (from `low`) that were reached, as `first..last`.
    live: Vec<(u8, u8)>,
    stride: usize,
    low: u32,
}

impl<W: Ways> Layer<W> {
    fn new() -> Layer<W> {
        Layer {
            patterns: Vec::new(),
            index: PatternIndex::default(),
            counts: Vec::new(),
            live: Vec::new(),
            stride: 1,
            low: 0,
        }
    }

    /// Empties the layer for `stride` counts per pattern from `low`, keeping its memory, expecting
    /// about `patterns` patterns (the previous layer's count is a good guess).
    fn reset(&mut self, stride: usize, low: u32, patterns: usize) {
        self.patterns.clear();
        self.counts.clear();
        self.live.clear();
        self.index.reset(patterns);
        (self.stride, self.low) = (stride, low);
    }

    fn slot(&mut self, pattern: Pattern) -> usize {
        let patterns = &mut self.patterns;
        let (counts, live, stride) = (&mut self.counts, &mut self.live, self.stride);
        self.index.find_or_insert(pattern, patterns, || {
            counts.resize(counts.len() + stride, W::default());
            live.push((u8::MAX, 0));
        }) as usize
    }
}

/// Runs the programme forwards, calling `link` with every (layer, pattern, choice, link),
/// and `closed` with (survivors, number of ways) whenever the survivors are complete (then
/// every later cell is removed).
fn forward<W: Ways>(
    plan: &Plan,
    budget: usize,
    link: &mut impl FnMut(usize, u32, usize, Link),
    closed: &mut impl FnMut(u32, W),
    stop: &Stop,
) -> Result<(), Unavailable> {
    W::with_layers(|[layer, next]| forward_in(plan, budget, link, closed, stop, layer, next))
}

/// `forward`, in the two layers given.
fn forward_in<'a, W: Ways>(
    plan: &Plan,
    budget: usize,
    link: &mut impl FnMut(usize, u32, usize, Link),
    closed: &mut impl FnMut(u32, W),
    stop: &Stop,
    mut layer: &'a mut Layer<W>,
    mut next: &'a mut Layer<W>,
) -> Result<(), Unavailable> {
    layer.reset(1, 0, 1);
    layer.slot(0);
    layer.counts[0] = W::ONE;
    layer.live[0] = (0, 1);
    let mut held = 0usize;
    for index in 0..plan.cells() {
        let (low, high) = plan.removed_range(index + 1);
        next.reset(plan.stride(index + 1), low, layer.patterns.len() * 2);
        for p in 0..layer.patterns.len() {
            checkpoint(stop)?;
            let pattern = layer.patterns[p];
            let (first_live, last_live) = (layer.live[p].0 as usize, layer.live[p].1 as usize);
            let here = &layer.counts[p * layer.stride..(p + 1) * layer.stride];
            for (choice, keep) in CHOICES.into_iter().enumerate() {
                let delta = !keep as u32;
                let outcome = match plan.decide(index, pattern, keep)? {
                    Decided::Dead => Link::Dead,
                    Decided::Closed => {
                        for (r, &ways) in here.iter().enumerate().take(last_live).skip(first_live) {
                            let removed = layer.low + r as u32 + delta;
                            if ways != W::default() && removed <= plan.remove {
                                closed(index as u32 + 1 - removed, ways);
                            }
                        }
                        Link::Closed
                    }
                    Decided::Live(child) => {
                        // Counts move from `removed` to `removed + delta`, where that is in range.
                        let first = ((low + 1).saturating_sub(layer.low + delta + 1) as usize).max(first_live);
                        let last = ((high + 1 - delta).saturating_sub(layer.low) as usize).min(last_live);
                        // The live range is a hull: it may hold zeros, and a window of zeros
                        // must not make a pattern of zeros (it would take room in the budget).
                        if first >= last || here[first..last].iter().all(|&w| w == W::default()) {
                            Link::Dead // no state of this pattern can take this choice
                        } else {
                            let j = next.slot(child);
                            // Where `first` lands in the next layer (`first` is at least `low`
                            // less the new number removed, so this does not go below zero).
                            let to = (first as u32 + layer.low + delta - low) as usize;
                            let to_last = to + (last - first);
                            let there = &mut next.counts[j * next.stride..(j + 1) * next.stride];
                            for (sum, &ways) in there[to..to_last].iter_mut().zip(&here[first..last]) {
                                *sum = sum.plus(ways);
                            }
                            let live = &mut next.live[j];
                            *live = (live.0.min(to as u8), live.1.max(to_last as u8));
                            Link::Next(j as u32)
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
        std::mem::swap(&mut layer, &mut next);
    }
    Ok(())
}

/// The number of survivor sets, with one layer in memory at a time.
pub fn count(board: &HexBoard, group: u128, placed: u128, keep: u32, stop: &Stop) -> Result<u128, Unavailable> {
    first_answer(Plan::narrowest_first(board, group, placed, keep), |plan| {
        if group.count_ones() <= U64_CELLS {
            count_with::<u64>(plan, stop)
        } else {
            count_with::<u128>(plan, stop)
        }
    })
}

/// `run`'s answer with the first plan that gives one: a plan can still run out of room (labels,
/// or counts) where a wider-looking one does not. `TooLarge` if none does.
fn first_answer<T>(plans: Vec<Plan>, mut run: impl FnMut(&Plan) -> Result<T, Unavailable>) -> Result<T, Unavailable> {
    for plan in &plans {
        match run(plan) {
            Err(Unavailable::TooLarge) => continue,
            answer => return answer,
        }
    }
    Err(Unavailable::TooLarge)
}

fn count_with<W: Ways>(plan: &Plan, stop: &Stop) -> Result<u128, Unavailable> {
    let mut total = 0u128;
    let keep = plan.keep;
    let mut closed = |survivors: u32, ways: W| {
        if survivors == keep {
            total = total.wrapping_add(ways.widen());
        }
    };
    forward(plan, usize::MAX, &mut |_, _, _, _| {}, &mut closed, stop)?;
    Ok(total)
}

/// For every size `s`, the number of connected sets of `s` cells of `group` that contain
/// `placed` (index `s`; index 0 is 0), in one pass.
pub fn sizes(board: &HexBoard, group: u128, placed: u128, stop: &Stop) -> Result<Vec<u128>, Unavailable> {
    let cells = group.count_ones();
    let mut plans = Plan::narrowest_first(board, group, placed, cells);
    for plan in &mut plans {
        plan.remove = cells; // any number may go
    }
    first_answer(
        plans,
        |plan| if cells <= U64_CELLS { sizes_with::<u64>(plan, stop) } else { sizes_with::<u128>(plan, stop) },
    )
}

fn sizes_with<W: Ways>(plan: &Plan, stop: &Stop) -> Result<Vec<u128>, Unavailable> {
    let mut by_size = vec![0u128; plan.cells() + 1];
    let mut closed = |survivors: u32, ways: W| {
        by_size[survivors as usize] = by_size[survivors as usize].wrapping_add(ways.widen());
    };
    forward(plan, usize::MAX, &mut |_, _, _, _| {}, &mut closed, stop)?;
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
        // Which states are reached is all the table needs from the forward pass.
        forward(&plan, MAX_TABLE_COUNTS, &mut record, &mut |_, _: Reached| {}, stop)?;
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

/// Patterns to their position in a layer: open addressing with linear probing over the
/// positions (patterns are bit patterns already; a multiply spreads them).
#[derive(Default)]
struct PatternIndex {
    /// Per slot: a position in the layer's patterns, or `EMPTY`.
    slots: Vec<u32>,
}

const EMPTY: u32 = u32::MAX;

impl PatternIndex {
    /// Empties the index, sized for about `patterns` patterns.
    fn reset(&mut self, patterns: usize) {
        let capacity = (patterns * 2).next_power_of_two().max(16);
        self.slots.clear();
        self.slots.resize(capacity, EMPTY);
    }

    /// The position of `key` in `patterns`, appending it (and calling `inserted`) if new.
    fn find_or_insert(&mut self, key: Pattern, patterns: &mut Vec<Pattern>, inserted: impl FnOnce()) -> u32 {
        if (patterns.len() + 1) * 2 > self.slots.len() {
            self.grow(patterns);
        }
        let mask = self.slots.len() - 1;
        let mut at = hash(key) & mask;
        loop {
            match self.slots[at] {
                EMPTY => {
                    let position = patterns.len() as u32;
                    patterns.push(key);
                    inserted();
                    self.slots[at] = position;
                    return position;
                }
                position if patterns[position as usize] == key => return position,
                _ => at = (at + 1) & mask,
            }
        }
    }

    fn grow(&mut self, patterns: &[Pattern]) {
        let capacity = (self.slots.len() * 2).max(16);
        self.slots.clear();
        self.slots.resize(capacity, EMPTY);
        let mask = capacity - 1;
        for (position, &key) in patterns.iter().enumerate() {
            let mut at = hash(key) & mask;
            while self.slots[at] != EMPTY {
                at = (at + 1) & mask;
            }
            self.slots[at] = position as u32;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    /// `sizes` with the plan along `direction`.
    fn sizes_along(board: &HexBoard, direction: Direction, group: u128, placed: u128) -> Vec<u128> {
        let cells = group.count_ones();
        let mut plan = Plan::along(board, direction, group, placed, cells).unwrap();
        plan.remove = cells;
        sizes_with::<u64>(&plan, Stop::never()).unwrap()
    }

    /// A connected group of `cells` cells grown at random from `placed`.
    fn random_group(board: &HexBoard, rng: &mut SplitMix64, placed: u128, cells: u32) -> u128 {
        let mut group = placed;
        while group.count_ones() < cells {
            let open = board.dilate(group) & !group;
            group |= 1u128 << crate::bitboard::nth_bit(open, rng.below(open.count_ones() as u64) as u32);
        }
        group
    }

    #[test]
    fn every_direction_counts_the_same_sets() {
        let mut rng = SplitMix64::new(7);
        for name in ["hex4", "hex5", "hex335"] {
            let board = HexBoard::named(name).unwrap();
            for _ in 0..40 {
                let placed = 1u128 << rng.below(board.len() as u64);
                let cells = 2 + rng.below(18) as u32;
                let group = random_group(board, &mut rng, placed, cells);
                let by_rows = sizes_along(board, Direction::Rows, group, placed);
                for direction in [Direction::Columns, Direction::Diagonals] {
                    assert_eq!(
                        sizes_along(board, direction, group, placed),
                        by_rows,
                        "{name} {group:#x} {direction:?}"
                    );
                }
                assert_eq!(sizes(board, group, placed, Stop::never()).unwrap(), by_rows);
                for keep in 1..=group.count_ones() {
                    let total = count(board, group, placed, keep, Stop::never()).unwrap();
                    assert_eq!(total, by_rows[keep as usize], "{name} {group:#x} keep {keep}");
                }
            }
        }
    }

    #[test]
    fn a_band_of_rows_is_counted_column_by_column() {
        // The top three rows of hex5: read row by row the frontier is a whole row wide, read
        // column by column it is at most three cells.
        let board = HexBoard::named("hex5").unwrap();
        let band = (0..board.len()).filter(|&c| board.axial.cell_point(c).0 <= 2).fold(0u128, |g, c| g | 1 << c);
        let placed = band & band.wrapping_neg();
        let costs: Vec<u64> =
            DIRECTIONS.iter().map(|&d| Plan::along(board, d, band, placed, 1).unwrap().cost()).collect();
        let chosen = Plan::narrowest_first(board, band, placed, 1)[0].cost();
        assert_eq!(chosen, *costs.iter().min().unwrap());
        assert!(costs[1] < costs[0], "three rows read column by column: {costs:?}");
    }
}
