//! The exact endgame solver: the final disc difference under perfect play, for every board.
//!
//! Scores follow the published endgame suites (Edax, FForum): at the end of the game the margin
//! is the mover's discs minus the opponent's, the empty squares going to the winner. Holes and
//! the Octagon's cut squares are not squares.
//!
//! The structure is the classic one of contest solvers (Edax's endgame.c), written here for any
//! frame:
//! - the position is dispatched once, at the top, to its concrete `Board<F>` (the AVX2 frames and
//!   the x86-64-v3 copy of the search where the CPU has them); below that, nothing goes through
//!   the `Reversi` enum;
//! - deep nodes (more than `SHALLOW_MAX` empties): transposition table (bounds and best move),
//!   enhanced transposition cut-off, stability cut-off, fastest-first move ordering;
//! - shallow nodes: parity ordering (squares of odd quadrant regions first), stability cut-off,
//!   no table;
//! - the last four, three and two empties: the remaining squares are tried directly, with no
//!   move generation, sorted by quadrant parity; the last empty only counts its flips.
//!
//! The window is the caller's: a null window `(a, a + 1)` runs the null-window search, a wider
//! one a principal-variation search over it.

use super::board::Board;
use super::frame::{Frame, Frame10};
use super::Reversi;
use crate::bitboard::Bits;
use crate::error::Result;
use crate::interrupt::Stop;
use crate::search::Evaluate;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Nodes with at most this many empties are searched without the transposition table.
const SHALLOW_MAX: u32 = 6;
/// Nodes with at least this many empties try the enhanced transposition cut-off (8 rather than
/// 10: 2.5% fewer nodes on FForum 20-39 with the orderings below).
const ETC_MIN: u32 = 8;
/// Nodes with at least this many empties order their moves by a shallow heuristic search (see
/// `sort_depth`); below it, by `order_key` (fastest first).
const SORT_MIN: u32 = 16;
/// The same with a learned evaluation: its estimate orders well enough to pay for itself from
/// here (FForum 20-39: 17% fewer nodes and 7% less time than from `SORT_MIN` with version-2
/// weights; 12 rather than 13 saved another 3% of the nodes with version 3, and 11 another 3%
/// with the pattern evaluation).
const SORT_MIN_EVALUATED: u32 = 11;
/// A learned evaluation's units per point in the ordering (quarters of a point).
const EVALUATED_UNIT: i32 = 4;
/// How far below alpha the ordering's shallow search still tells moves apart (Edax's
/// `SORT_ALPHA_DELTA`): a move worse than that is bad enough, and the search may cut there.
const SORT_ALPHA_DELTA: i32 = 8;
/// The depth of the shallow search that gives MTD(f) its first guess, with an evaluation.
const GUESS_DEPTH: u32 = 4;
/// Weights of the evaluated ordering (`eval_key`): the opponent's weighted mobility after the
/// move, the shallow search's value of the move (in `mid_eval` units, see `eval_weight`), the
/// opponent's potential mobility, a corner taken, quadrant parity...
const W_MOBILITY: i32 = 16;
const W_EVAL: i32 = 4;
const W_POTENTIAL: i32 = 1;
const W_CORNER: i32 = 16;
const W_PARITY: i32 = 2;
/// ...and the penalty of a move next to an empty corner (it gives the corner away).
const W_X_SQUARE: i32 = 16;
/// A window wider than a null one, at a root with at least this many empties, is solved by
/// null-window tests from a first guess of 0 (MTD(f)) rather than by a principal-variation search.
const MTD_MIN: u32 = 14;
/// Beyond every score (scores lie in `-squares..=squares`, at most 100).
const INF: i32 = 127;
/// No move (in the table).
const NO_MOVE: u8 = u8::MAX;

/// The evaluation that orders a solve's moves far from the end, with the position solved.
type Ordering<'a> = (&'a dyn Evaluate<Reversi>, Reversi);

/// An exact endgame solver with its own transposition table.
pub struct EndgameSolver {
    bits: u32,
    table64: Vec<Entry<u64>>,
    table128: Vec<Entry<u128>>,
    /// The board (frame width, playable squares) the tables hold values for: values depend on
    /// the board, so a solve on another board starts with clear tables.
    board: Option<(u32, u128)>,
    /// Bumped at every solve: entries of earlier solves give way first.
    date: u8,
    nodes: u64,
}

impl EndgameSolver {
    /// A solver with a transposition table of `2**table_bits` entries (allocated at the first
    /// solve, for the frame it needs; `table_bits` is clamped to 1..=26).
    pub fn new(table_bits: u32) -> Self {
        EndgameSolver {
            bits: table_bits.clamp(1, 26),
            table64: Vec::new(),
            table128: Vec::new(),
            board: None,
            date: 0,
            nodes: 0,
        }
    }

    /// The best move the table remembers for `position` from the solves so far (a position of
    /// more than `SHALLOW_MAX` empties, on the board last solved), if any.
    pub fn best_move(&self, position: &Reversi) -> Option<super::Move> {
        fn find<B: TableBits>(table: &[Entry<B>], me: B, opponent: B) -> Option<u8> {
            let e = (!table.is_empty()).then(|| lookup(table, table.len() - 1, me, opponent))??;
            (e.best != NO_MOVE).then_some(e.best)
        }
        let playable = super::with_board!(position, b => b.playable.to_u128());
        let width = if matches!(position, Reversi::Large(_)) { 10 } else { 8 };
        if self.board != Some((width, playable)) {
            return None;
        }
        let best = match position {
            Reversi::Classic(b) => find(&self.table64, b.me, b.opponent),
            Reversi::Small(b) => find(&self.table64, b.me, b.opponent),
            Reversi::Large(b) => find(&self.table128, b.me, b.opponent),
        }?;
        Some(super::Move(best))
    }

    /// Nodes visited since creation: every position played into (a pass included) counts one.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The exact final disc difference for the side to move under perfect play if it lies
    /// strictly inside `(alpha, beta)`; otherwise a fail-soft bound on the right side of the
    /// window (`<= alpha`: the value is at most it; `>= beta`: at least it). An empty window
    /// (`alpha >= beta`) is taken as `(alpha, alpha + 1)`. `Err(Interrupted)` soon after `stop`
    /// is requested.
    pub fn solve(&mut self, position: &Reversi, alpha: i32, beta: i32, stop: &Stop) -> Result<i32> {
        self.solve_reporting(position, alpha, beta, stop, &AtomicU64::new(0), None)
    }

    /// `solve`, adding the nodes it visits to `seen` as it goes (every `PUBLISH_NODES` or so,
    /// and the rest when it returns), so that a caller's progress report sees a long solve move.
    /// With an `evaluation`, the moves of nodes of `SORT_MIN_EVALUATED` empties or more are ordered by
    /// shallow searches over it instead of the solver's own rough estimate (`mid_eval`): a
    /// learned evaluation orders them better, and the deep nodes below pay nothing for it.
    pub fn solve_reporting(
        &mut self,
        position: &Reversi,
        alpha: i32,
        beta: i32,
        stop: &Stop,
        seen: &AtomicU64,
        evaluation: Option<&dyn Evaluate<Reversi>>,
    ) -> Result<i32> {
        let stop = (stop, seen, evaluation.map(|e| (e, *position)));
        match *position {
            #[cfg(target_arch = "x86_64")]
            Reversi::Classic(board) if crate::cpu::has_v3() => {
                let board = board.retag::<super::frame::Classic8Avx2>();
                // SAFETY: the CPU has every feature the v3 copy was compiled for.
                self.run(&board, alpha, beta, stop, |s, m, o, a, b| unsafe { v3::root(s, m, o, a, b) })
            }
            #[cfg(target_arch = "x86_64")]
            Reversi::Small(board) if crate::cpu::has_v3() => {
                let board = board.retag::<super::frame::Frame8Avx2>();
                // SAFETY: as above.
                self.run(&board, alpha, beta, stop, |s, m, o, a, b| unsafe { v3::root(s, m, o, a, b) })
            }
            #[cfg(target_arch = "x86_64")]
            Reversi::Large(board) if crate::cpu::has_v3() => {
                // SAFETY: as above.
                self.run(&board, alpha, beta, stop, |s, m, o, a, b| unsafe { v3::root::<Frame10>(s, m, o, a, b) })
            }
            Reversi::Classic(board) => self.run(&board, alpha, beta, stop, portable::root),
            Reversi::Small(board) => self.run(&board, alpha, beta, stop, portable::root),
            Reversi::Large(board) => self.run(&board, alpha, beta, stop, portable::root),
        }
    }

    /// Sets up the search of `board` (geometry, table) and runs `root` on it.
    fn run<F: Frame>(
        &mut self,
        board: &Board<F>,
        alpha: i32,
        beta: i32,
        (stop, seen, evaluation): (&Stop, &AtomicU64, Option<Ordering<'_>>),
        root: impl FnOnce(&mut Search<'_, F>, F::B, F::B, i32, i32) -> Result<i32>,
    ) -> Result<i32>
    where
        F::B: TableBits,
    {
        let geometry = Geometry::<F>::new(board.playable, board.shape.size() as u32);
        let this_board = (F::W, board.playable.to_u128());
        if self.board != Some(this_board) {
            // Fresh tables, zeroed as they are touched, rather than every entry of the old ones
            // written over (tens of milliseconds).
            self.table64 = Vec::new();
            self.table128 = Vec::new();
            self.board = Some(this_board);
        }
        self.date = self.date.wrapping_add(1);
        let (bits, date) = (self.bits, self.date);
        let table = F::B::table(self);
        if table.is_empty() {
            // A limit reached already sets nothing up.
            stop.checkpoint()?;
            // 128-bit entries are twice as large: the 10-wide boards get at most 2**22.
            let bits = if F::B::BITS > 64 { bits.min(22) } else { bits };
            // Zeroed memory from the system, whose pages cost nothing until touched: a table
            // written in full (24 MiB of 64-bit entries, 48 MiB of 128-bit ones) took 30-50 ms
            // of page faults before the first node, past a short time limit (issue 36).
            // SAFETY: every field of an entry is an integer, so all zeros is a valid entry:
            // the empty one (no position has no disc, so it matches nothing).
            *table = unsafe { crate::memory::try_zeroed(1 << bits, "the endgame table", "its default size") }?;
        }
        let mask = table.len() - 1;
        let squares = geometry.squares;
        let mut search =
            Search { g: &geometry, table: &mut table[..], mask, date, nodes: 0, published: 0, seen, stop, evaluation };
        // Every score lies in -squares..=squares: a window beyond it says nothing more.
        let alpha = alpha.clamp(-squares - 1, squares);
        let beta = if beta <= alpha { alpha + 1 } else { beta.min(squares + 1) };
        let result = root(&mut search, board.me, board.opponent, alpha, beta);
        let nodes = search.nodes;
        seen.fetch_add(nodes - search.published, Relaxed);
        self.nodes += nodes;
        result
    }
}

impl Reversi {
    /// Empty playable squares (holes and the Octagon's cut squares are not squares).
    pub fn empties(&self) -> u32 {
        super::with_board!(self, b => (b.playable & !(b.me | b.opponent)).count())
    }

    /// The final margin of a finished game for its side to move: its discs minus the
    /// opponent's, the empty squares going to the winner (none to either on a draw). On a game
    /// still going, the same count of the discs as they stand.
    pub fn final_margin(&self) -> i32 {
        super::with_board!(self, b => margin(b.me.count() as i32, b.opponent.count() as i32, self.empties() as i32))
    }
}

/// Mine minus theirs, the empties to the winner.
#[inline(always)]
fn margin(mine: i32, theirs: i32, empties: i32) -> i32 {
    let diff = mine - theirs;
    if diff > 0 {
        diff + empties
    } else if diff < 0 {
        diff - empties
    } else {
        0
    }
}

/// A transposition table entry: the position (both bitboards, so that no collision can give a
/// wrong value), bounds on its exact value, and its best move. An entry of zeros is empty: no
/// position has no disc, so it matches nothing (the tables are allocated zeroed).
#[derive(Debug, Clone, Copy)]
struct Entry<B> {
    me: B,
    opponent: B,
    lower: i8,
    upper: i8,
    best: u8,
    empties: u8,
    date: u8,
}

/// The bitboard types that have a table in the solver, and their hash.
trait TableBits: Bits {
    fn table(solver: &mut EndgameSolver) -> &mut Vec<Entry<Self>>;
    fn hash(me: Self, opponent: Self) -> u64;
}

#[inline(always)]
fn mix(a: u64, b: u64) -> u64 {
    let h = (a ^ b.rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let h = (h ^ (h >> 32)).wrapping_mul(0xD6E8_FEB8_6659_FD93);
    h ^ (h >> 32)
}

impl TableBits for u64 {
    fn table(solver: &mut EndgameSolver) -> &mut Vec<Entry<u64>> {
        &mut solver.table64
    }
    #[inline(always)]
    fn hash(me: u64, opponent: u64) -> u64 {
        mix(me, opponent)
    }
}

impl TableBits for u128 {
    fn table(solver: &mut EndgameSolver) -> &mut Vec<Entry<u128>> {
        &mut solver.table128
    }
    #[inline(always)]
    fn hash(me: u128, opponent: u128) -> u64 {
        mix(
            me as u64 ^ ((me >> 64) as u64).rotate_left(17),
            opponent as u64 ^ ((opponent >> 64) as u64).rotate_left(41),
        )
    }
}

/// The first slot of the two-entry bucket of a position in a table of `mask + 1` entries.
#[inline(always)]
fn slot<B: TableBits>(mask: usize, me: B, opponent: B) -> usize {
    (B::hash(me, opponent) as usize) & mask & !1
}

/// The entry of a position in its bucket, if the table holds it.
#[inline(always)]
fn lookup<B: TableBits>(table: &[Entry<B>], mask: usize, me: B, opponent: B) -> Option<Entry<B>> {
    let i = slot(mask, me, opponent);
    table[i..i + 2].iter().find(|e| e.me == me && e.opponent == opponent).copied()
}

/// What the search needs to know about the board, computed once per solve.
struct Geometry<F: Frame> {
    playable: F::B,
    /// Playable squares: the largest margin.
    squares: i32,
    /// The board's four quadrants (of a board of size n, the squares with row and column below
    /// or from n/2), and each square's quadrant as one bit.
    quadrants: [F::B; 4],
    quadrant_of: [u8; 128],
    /// Each square's neighbours, on the board.
    neighbours: [F::B; 128],
    /// Squares walled in every line direction (corners, and squares boxed in by holes): a disc
    /// there can never be flipped. Moves there score higher in the ordering.
    corners: F::B,
    /// Frame squares not in the first (last) column: shifts across columns start only there.
    not_first: F::B,
    not_last: F::B,
    /// Per line direction (east, south, south-east, south-west): the lines of at least three
    /// playable squares...
    lines: [Vec<F::B>; 4],
    /// ...and the squares with a non-playable square (edge, hole, cut) next to them on one side
    /// or the other of that direction.
    walled: [F::B; 4],
}

/// The four line directions: (row step, column step), and the index step of each.
const LINE_STEPS: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

impl<F: Frame> Geometry<F> {
    fn new(playable: F::B, size: u32) -> Self {
        let w = F::W as i32;
        let on = |r: i32, c: i32| r >= 0 && c >= 0 && r < w && c < w && playable.has((r * w + c) as u32);
        let bit = |r: i32, c: i32| F::B::bit((r * w + c) as u32);
        let mut g = Geometry {
            playable,
            squares: playable.count() as i32,
            quadrants: [F::B::ZERO; 4],
            quadrant_of: [0; 128],
            neighbours: [F::B::ZERO; 128],
            corners: F::B::ZERO,
            not_first: F::B::ZERO,
            not_last: F::B::ZERO,
            lines: Default::default(),
            walled: [F::B::ZERO; 4],
        };
        let half = size as i32 / 2;
        for r in 0..w {
            for c in 0..w {
                let s = (r * w + c) as usize;
                if c != 0 {
                    g.not_first |= bit(r, c);
                }
                if c != w - 1 {
                    g.not_last |= bit(r, c);
                }
                if !on(r, c) {
                    continue;
                }
                let q = 2 * usize::from(r >= half) + usize::from(c >= half);
                g.quadrants[q] |= bit(r, c);
                g.quadrant_of[s] = 1 << q;
                for (dr, dc) in [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)] {
                    if on(r + dr, c + dc) {
                        g.neighbours[s] |= bit(r + dr, c + dc);
                    }
                }
                let mut walls = 0;
                for (d, &(dr, dc)) in LINE_STEPS.iter().enumerate() {
                    if !on(r + dr, c + dc) || !on(r - dr, c - dc) {
                        g.walled[d] |= bit(r, c);
                        walls += 1;
                    }
                }
                if walls == 4 {
                    g.corners |= bit(r, c);
                }
            }
        }
        for (d, &(dr, dc)) in LINE_STEPS.iter().enumerate() {
            // A line starts where the square before it is off the frame.
            let starts = (0..w * w).map(|i| (i / w, i % w));
            let starts = starts.filter(|&(r, c)| {
                let (pr, pc) = (r - dr, c - dc);
                pr < 0 || pc < 0 || pr >= w || pc >= w
            });
            for (mut r, mut c) in starts {
                let mut line = F::B::ZERO;
                while r >= 0 && c >= 0 && r < w && c < w {
                    if on(r, c) {
                        line |= bit(r, c);
                    }
                    r += dr;
                    c += dc;
                }
                if line.count() >= 3 {
                    g.lines[d].push(line);
                }
            }
        }
        g
    }
}

/// Nodes between two additions to a solve's `seen` count (at deep nodes: one comparison each).
const PUBLISH_NODES: u64 = 1 << 16;

/// One solve: the board's geometry, the table, the node count and the stop.
struct Search<'a, F: Frame> {
    g: &'a Geometry<F>,
    table: &'a mut [Entry<F::B>],
    mask: usize,
    date: u8,
    nodes: u64,
    /// Nodes already added to `seen`, the count a caller's progress report reads.
    published: u64,
    seen: &'a AtomicU64,
    stop: &'a Stop<'a>,
    /// The evaluation that orders the moves of nodes far from the end, with the position
    /// solved (its board, for the positions the evaluation is given).
    evaluation: Option<Ordering<'a>>,
}

impl<F: Frame> Search<'_, F>
where
    F::B: TableBits,
{
    #[inline(always)]
    fn empties(&self, me: F::B, opponent: F::B) -> F::B {
        let free = !(me | opponent);
        if F::FULL {
            free
        } else {
            free & self.g.playable
        }
    }

    /// The margin of the game ended here, for the side to move.
    #[inline(always)]
    fn final_score(&self, me: F::B, opponent: F::B) -> i32 {
        let (mine, theirs) = (me.count() as i32, opponent.count() as i32);
        margin(mine, theirs, self.g.squares - mine - theirs)
    }

    /// The exact score with one empty square `x` left.
    #[inline(always)]
    fn solve1(&mut self, me: F::B, opponent: F::B, x: u32) -> i32 {
        // Mine minus theirs as the discs stand (theirs: all the other squares but x).
        let base = 2 * me.count() as i32 - (self.g.squares - 1);
        let flipped = F::flips(me, opponent, x);
        if !flipped.is_zero() {
            self.nodes += 1;
            return base + 2 * flipped.count() as i32 + 1;
        }
        let flipped = F::flips(opponent, me, x);
        if !flipped.is_zero() {
            self.nodes += 2;
            return base - 2 * flipped.count() as i32 - 1;
        }
        margin(base, 0, 1)
    }

    /// The squares of `set` whose quadrant holds an odd number of them.
    #[inline(always)]
    fn odd_quadrants(&self, set: F::B) -> F::B {
        let mut odd = F::B::ZERO;
        for q in self.g.quadrants {
            if (q & set).count() & 1 == 1 {
                odd |= q;
            }
        }
        odd
    }

    /// The neighbours of every square of `set`, in the frame (masked by the caller).
    #[inline(always)]
    fn spread(&self, set: F::B) -> F::B {
        let w = F::W;
        let left = set & self.g.not_first;
        let right = set & self.g.not_last;
        (right << 1)
            | (left >> 1)
            | (set << w)
            | (set >> w)
            | (right << (w + 1))
            | (left >> (w + 1))
            | (left << (w - 1))
            | (right >> (w - 1))
    }

    /// Discs of `discs` that can never be flipped, whatever is played (a subset, found cheaply).
    ///
    /// A disc is flipped only along a line, strictly between the square played and a disc of
    /// the player who played. So it is safe from a direction if the whole line through it in
    /// that direction has no empty square, or if next to it on that line (on either side) is a
    /// non-square (edge, hole, cut), or a disc of the same colour that can never be flipped (a
    /// flip along that line would flip that one too). A disc safe from all four directions can
    /// never be flipped: the set grows from nothing to its fixpoint.
    #[inline(always)]
    fn stable(&self, discs: F::B, empty: F::B) -> F::B {
        let g = self.g;
        let mut safe = g.walled;
        for (safe, lines) in safe.iter_mut().zip(&g.lines) {
            for &line in lines {
                if (line & empty).is_zero() {
                    *safe |= line;
                }
            }
        }
        let w = F::W;
        let steps = [1, w, w + 1, w - 1];
        let mut stable = discs & safe[0] & safe[1] & safe[2] & safe[3];
        if stable.is_zero() {
            return stable;
        }
        loop {
            // A shift may wrap a row's end onto the next row's start: those squares are on the
            // frame's first or last column, walled in every direction that crosses columns.
            let mut next = discs;
            for (&safe, &step) in safe.iter().zip(&steps) {
                next &= safe | (stable >> step) | (stable << step);
            }
            if next == stable {
                return stable;
            }
            stable = next;
        }
    }

    /// The stability cut-off: `Some(bound)` when the opponent's stable discs alone hold the
    /// mover's score to at most `bound <= alpha`.
    #[inline(always)]
    fn stability_cut(&self, opponent: F::B, empty: F::B, alpha: i32) -> Option<i32> {
        // Even if every opponent disc were stable, the bound would not reach alpha.
        if self.g.squares - 2 * (opponent.count() as i32) > alpha {
            return None;
        }
        let bound = self.g.squares - 2 * self.stable(opponent, empty).count() as i32;
        (bound <= alpha).then_some(bound)
    }

    #[inline(always)]
    fn slot(&self, me: F::B, opponent: F::B) -> usize {
        slot(self.mask, me, opponent)
    }

    #[inline(always)]
    fn probe(&self, me: F::B, opponent: F::B) -> Option<Entry<F::B>> {
        lookup(self.table, self.mask, me, opponent)
    }

    /// Asks the CPU to bring the table's bucket of a position into the cache, for a probe soon
    /// after: a probe that waits for memory stalls the search for the whole trip.
    #[inline(always)]
    fn prefetch(&self, me: F::B, opponent: F::B) {
        #[cfg(target_arch = "x86_64")]
        {
            let bucket = self.table[self.slot(me, opponent)..].as_ptr();
            // SAFETY: a prefetch is a hint that cannot fault; the address is in the table.
            #[allow(unused_unsafe)]
            unsafe {
                std::arch::x86_64::_mm_prefetch(bucket.cast::<i8>(), std::arch::x86_64::_MM_HINT_T0)
            };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (me, opponent);
    }

    /// Records what a search of window (alpha, beta) found: a lower bound, an upper bound or the
    /// exact value, merged with what the table knew of the position.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn store(&mut self, me: F::B, opponent: F::B, empties: u32, alpha: i32, beta: i32, value: i32, best: u8) {
        let squares = self.g.squares;
        let (lower, upper) = if value >= beta {
            (value, squares)
        } else if value <= alpha {
            (-squares, value)
        } else {
            (value, value)
        };
        let i = self.slot(me, opponent);
        let date = self.date;
        let bucket = &mut self.table[i..i + 2];
        if let Some(e) = bucket.iter_mut().find(|e| e.me == me && e.opponent == opponent) {
            e.lower = e.lower.max(lower as i8);
            e.upper = e.upper.min(upper as i8);
            if best != NO_MOVE {
                e.best = best;
            }
            e.date = date;
            return;
        }
        let entry = Entry { me, opponent, lower: lower as i8, upper: upper as i8, best, empties: empties as u8, date };
        // The first slot keeps the larger subtree of this solve; the second takes the rest.
        let deep = &bucket[0];
        let j = usize::from(deep.date == date && u32::from(deep.empties) > empties);
        bucket[j] = entry;
    }

    /// Scores the moves of a deep node for the ordering, best first: the table's move, then
    /// fastest-first (the opponent's mobility after the move, corners counted twice), then the
    /// corners taken, then not next to an empty corner, then the opponent's potential mobility,
    /// then quadrant parity.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn order_key(&self, me: F::B, opponent: F::B, empty: F::B, x: u32, flipped: F::B, odd: F::B, best: u8) -> u32 {
        let bit = F::B::bit(x);
        let (next_me, next_opp, next_empty) = (opponent ^ flipped, me | flipped | bit, empty ^ bit);
        let replies = F::mobility(next_me, next_opp, next_empty);
        let mobility = (replies.count() + (replies & self.g.corners).count()).min(63);
        let potential = (self.spread(next_opp) & next_empty).count().min(31);
        let mut key = (63 - mobility) << 25 | (31 - potential) << 18 | x;
        // Next to an empty corner: it gives the corner away.
        if (bit & self.spread(self.g.corners & empty)).is_zero() {
            key |= 1 << 23;
        }
        if best as u32 == x {
            key |= 1 << 31;
        }
        if !(bit & self.g.corners).is_zero() {
            key |= 1 << 24;
        }
        if !(bit & odd).is_zero() {
            key |= 1 << 17;
        }
        key
    }

    /// Empties from which moves are ordered by shallow searches.
    #[inline(always)]
    fn sort_min(&self) -> u32 {
        if self.evaluation.is_some() {
            SORT_MIN_EVALUATED
        } else {
            SORT_MIN
        }
    }

    /// The weight of a `depth`-ply shallow search's value in the ordering: a learned
    /// evaluation's counts for more as the search deepens (Edax's weights: a reply less for
    /// the opponent is worth four points of a static estimate, two of a 1-2 ply search, one of
    /// a deeper one); the rough `mid_eval`'s is fixed.
    #[inline(always)]
    fn eval_weight(&self, depth: u32) -> i32 {
        match (self.evaluation.is_some(), depth) {
            (false, _) => W_EVAL,
            (true, 0) => 1,
            (true, 1 | 2) => 2,
            (true, _) => 4,
        }
    }

    /// `mid_eval`'s units per point.
    #[inline(always)]
    fn unit(&self) -> i32 {
        if self.evaluation.is_some() {
            EVALUATED_UNIT
        } else {
            64
        }
    }

    /// The static evaluation of the ordering's shallow searches, from the mover's view, in
    /// `unit()`s: the learned evaluation given, else a cheap one of weighted mobility (corner
    /// moves twice), potential mobility and corner discs, in arbitrary units (64 a point at
    /// the end).
    #[inline(always)]
    fn mid_eval(&self, me: F::B, opponent: F::B, empty: F::B) -> i32 {
        if let Some((evaluation, root)) = self.evaluation {
            let value = evaluation.evaluate(&root.with_discs(me.to_u128(), opponent.to_u128()));
            return value * EVALUATED_UNIT / crate::search::SCALE;
        }
        let corners = self.g.corners;
        let mine = F::mobility(me, opponent, empty);
        let theirs = F::mobility(opponent, me, empty);
        let mobility =
            (mine.count() + (mine & corners).count()) as i32 - (theirs.count() + (theirs & corners).count()) as i32;
        let potential = (self.spread(opponent) & empty).count() as i32 - (self.spread(me) & empty).count() as i32;
        let discs = (me & corners).count() as i32 - (opponent & corners).count() as i32;
        let xc = self.spread(corners & empty);
        let x = (me & xc).count() as i32 - (opponent & xc).count() as i32;
        4 * mobility + potential + 16 * discs - 8 * x
    }
}

/// The depth of the shallow heuristic search that orders the moves of a node with `n` empties
/// (from `SORT_MIN`): deeper as the subtrees grow, as in Edax's `movelist_evaluate`. One ply
/// from 16 empties and two from 20 (rather than 18 and 22): with the pattern evaluation, 8%
/// fewer nodes on FForum 20-39 and 13% on 40-49, for 4-8% more time a node; together with
/// `SORT_MIN_EVALUATED` and `ETC_MIN`, FForum 20-39 fell from 128 to 111 M nodes and 40-49
/// (not tuned on) from 1.61 to 1.38 G (docs/engine.md, "The exact solver").
#[inline(always)]
fn sort_depth(n: u32) -> u32 {
    match n {
        0..=15 => 0,
        16..=19 => 1,
        20..=25 => 2,
        _ => 3,
    }
}

/// The moves of a node with their ordering keys (the square in the low byte).
struct MoveList {
    keys: [u32; 100],
    len: usize,
}

impl MoveList {
    #[inline(always)]
    fn new() -> Self {
        MoveList { keys: [0; 100], len: 0 }
    }
    #[inline(always)]
    fn push(&mut self, key: u32) {
        self.keys[self.len] = key;
        self.len += 1;
    }
    /// The best move not yet taken (selection: most nodes cut after a move or two).
    #[inline(always)]
    fn take_best(&mut self, taken: usize) -> u32 {
        let mut best = taken;
        for i in taken + 1..self.len {
            if self.keys[i] > self.keys[best] {
                best = i;
            }
        }
        self.keys.swap(taken, best);
        self.keys[taken] & 0xFF
    }
}

/// The squares of a set of four (or fewer), lowest first.
#[inline(always)]
fn squares_of<B: Bits>(set: B) -> [u32; 4] {
    let mut out = [0; 4];
    for (slot, x) in out.iter_mut().zip(set.ones()) {
        *slot = x;
    }
    out
}

/// In a small solve's move loop (null window, fail-soft): `best` raised to the move's value,
/// which is returned at once if it beats `alpha`.
macro_rules! raise_or_cut {
    ($best:ident, $value:expr, $alpha:expr) => {
        let v = $value;
        if v > $best {
            $best = v;
            if v > $alpha {
                return v;
            }
        }
    };
}

/// The moves of a solve of three or four empties, `$x`, tried in order: for each that flips
/// something (a node), `$value` is the value of the position after it for the opponent, with
/// `$i` the square's index in `$x` and `$next_me`, `$next_opp` the opponent's discs and the
/// mover's after it; the best of the moves negated, returned at once at a cut-off
/// (`raise_or_cut!`), or `-INF` when no move flips anything.
macro_rules! try_each_square {
    ($s:ident, $me:ident, $opponent:ident, $alpha:ident, $x:ident, |$i:ident, $next_me:ident, $next_opp:ident| $value:expr) => {{
        let mut best = -INF;
        for $i in 0..$x.len() {
            let flipped = F::flips($me, $opponent, $x[$i]);
            if flipped.is_zero() {
                continue;
            }
            $s.nodes += 1;
            let ($next_me, $next_opp) = ($opponent ^ flipped, $me | flipped | F::B::bit($x[$i]));
            raise_or_cut!(best, -$value, $alpha);
        }
        best
    }};
}

/// A small solve's value once its moves are tried: the best of them; with no move, the
/// opponent's turn (`$pass`, the same solve with the sides swapped and `passed` set) or, when
/// the opponent has just passed too, the final score.
macro_rules! best_or_pass {
    ($s:ident, $me:ident, $opponent:ident, $best:ident, $passed:ident, $pass:expr) => {
        if $best > -INF {
            $best
        } else if !$passed {
            $s.nodes += 1;
            -$pass
        } else {
            $s.final_score($me, $opponent)
        }
    };
}

/// The recursive search, as a macro so that it is compiled twice: for the baseline target and
/// with the x86-64-v3 features (see cpu.rs), each copy with its frames' move generation inlined.
macro_rules! search_functions {
    ($(#[$attr:meta])*) => {
        /// The root: a null-window search or a principal-variation search over the window.
        $(#[$attr])*
        pub(super) fn root<F: Frame>(s: &mut Search<'_, F>, me: F::B, opponent: F::B, alpha: i32, beta: i32) -> Result<i32>
        where
            F::B: TableBits,
        {
            s.stop.checkpoint()?;
            let n = s.empties(me, opponent).count();
            if beta == alpha + 1 {
                nws(s, me, opponent, alpha, n)
            } else if n >= MTD_MIN {
                mtd(s, me, opponent, alpha, beta, n)
            } else {
                pvs(s, me, opponent, alpha, beta, n)
            }
        }

        /// A wide window by null-window tests (MTD(f)): the value is narrowed to `[lower, upper]`
        /// from a first guess, each test's fail-soft bound giving the next.
        $(#[$attr])*
        fn mtd<F: Frame>(s: &mut Search<'_, F>, me: F::B, opponent: F::B, alpha: i32, beta: i32, n: u32) -> Result<i32>
        where
            F::B: TableBits,
        {
            let squares = s.g.squares;
            let (mut lower, mut upper) = (-squares, squares);
            let mut test = first_guess(s, me, opponent, n).clamp(alpha + 1, beta);
            loop {
                if upper <= alpha {
                    return Ok(upper);
                }
                if lower >= beta {
                    return Ok(lower);
                }
                if lower == upper {
                    return Ok(lower);
                }
                // Is the value at least `test`?
                let test_now = test.clamp(lower + 1, upper);
                let r = nws(s, me, opponent, test_now - 1, n)?;
                if r >= test_now {
                    lower = r;
                    test = r + 1;
                } else {
                    upper = r;
                    test = r;
                }
            }
        }

        /// MTD(f)'s first guess: a shallow search's estimate with an evaluation (a good guess
        /// saves a test per two points it is nearer), else a draw.
        $(#[$attr])*
        fn first_guess<F: Frame>(s: &mut Search<'_, F>, me: F::B, opponent: F::B, n: u32) -> i32
        where
            F::B: TableBits,
        {
            if s.evaluation.is_none() {
                return 0;
            }
            let depth = GUESS_DEPTH.min(n);
            let value = mid_search(s, me, opponent, depth, -i32::MAX, i32::MAX);
            let unit = s.unit();
            // Scores are even where the board has an even number of squares; elsewhere an even
            // guess is only one test away.
            2 * ((value as f32 / unit as f32 / 2.0).round() as i32)
        }

        /// Null-window search of window (alpha, alpha + 1) with `n` empties, by depth.
        $(#[$attr])*
        fn nws<F: Frame>(s: &mut Search<'_, F>, me: F::B, opponent: F::B, alpha: i32, n: u32) -> Result<i32>
        where
            F::B: TableBits,
        {
            if n > SHALLOW_MAX {
                return deep(s, me, opponent, alpha, n);
            }
            let empty = s.empties(me, opponent);
            Ok(match n {
                0 => s.final_score(me, opponent),
                1 => s.solve1(me, opponent, empty.lowest()),
                2 => {
                    let [x1, x2, ..] = squares_of(empty);
                    solve2(s, me, opponent, alpha, x1, x2, false)
                }
                3 => {
                    let [x1, x2, x3, _] = squares_of(empty);
                    solve3(s, me, opponent, alpha, [x1, x2, x3], false)
                }
                4 => solve4(s, me, opponent, alpha, squares_of(empty), false),
                _ => shallow(s, me, opponent, alpha, n),
            })
        }

        /// Two empties: both tried directly.
        $(#[$attr])*
        fn solve2<F: Frame>(s: &mut Search<'_, F>, me: F::B, opponent: F::B, alpha: i32, x1: u32, x2: u32, passed: bool) -> i32
        where
            F::B: TableBits,
        {
            let mut best = -INF;
            let flipped = F::flips(me, opponent, x1);
            if !flipped.is_zero() {
                s.nodes += 1;
                best = -s.solve1(opponent ^ flipped, me | flipped | F::B::bit(x1), x2);
                if best > alpha {
                    return best;
                }
            }
            let flipped = F::flips(me, opponent, x2);
            if !flipped.is_zero() {
                s.nodes += 1;
                return best.max(-s.solve1(opponent ^ flipped, me | flipped | F::B::bit(x2), x1));
            }
            best_or_pass!(s, me, opponent, best, passed, solve2(s, opponent, me, -alpha - 1, x1, x2, true))
        }

        /// Three empties, the one alone in its quadrant first.
        $(#[$attr])*
        fn solve3<F: Frame>(s: &mut Search<'_, F>, me: F::B, opponent: F::B, alpha: i32, x: [u32; 3], passed: bool) -> i32
        where
            F::B: TableBits,
        {
            let q = |i: usize| s.g.quadrant_of[x[i] as usize];
            let x = if q(0) == q(1) {
                [x[2], x[0], x[1]]
            } else if q(0) == q(2) {
                [x[1], x[0], x[2]]
            } else {
                x
            };
            let best = try_each_square!(s, me, opponent, alpha, x, |i, next_me, next_opp| {
                let (a, b) = match i {
                    0 => (x[1], x[2]),
                    1 => (x[0], x[2]),
                    _ => (x[0], x[1]),
                };
                solve2(s, next_me, next_opp, -alpha - 1, a, b, false)
            });
            best_or_pass!(s, me, opponent, best, passed, solve3(s, opponent, me, -alpha - 1, x, true))
        }

        /// Four empties, those of odd quadrants first.
        $(#[$attr])*
        fn solve4<F: Frame>(s: &mut Search<'_, F>, me: F::B, opponent: F::B, alpha: i32, x: [u32; 4], passed: bool) -> i32
        where
            F::B: TableBits,
        {
            let q = x.map(|sq| s.g.quadrant_of[sq as usize]);
            let parity = q[0] ^ q[1] ^ q[2] ^ q[3];
            let mut sorted = [0; 4];
            let mut k = 0;
            for odd in [true, false] {
                for i in 0..4 {
                    if (parity & q[i] != 0) == odd {
                        sorted[k] = x[i];
                        k += 1;
                    }
                }
            }
            let best = try_each_square!(s, me, opponent, alpha, sorted, |i, next_me, next_opp| {
                let rest = match i {
                    0 => [sorted[1], sorted[2], sorted[3]],
                    1 => [sorted[0], sorted[2], sorted[3]],
                    2 => [sorted[0], sorted[1], sorted[3]],
                    _ => [sorted[0], sorted[1], sorted[2]],
                };
                solve3(s, next_me, next_opp, -alpha - 1, rest, false)
            });
            best_or_pass!(s, me, opponent, best, passed, solve4(s, opponent, me, -alpha - 1, sorted, true))
        }

        /// Five to `SHALLOW_MAX` empties: parity ordering, stability cut-off, no table.
        $(#[$attr])*
        fn shallow<F: Frame>(s: &mut Search<'_, F>, me: F::B, opponent: F::B, alpha: i32, n: u32) -> i32
        where
            F::B: TableBits,
        {
            let empty = s.empties(me, opponent);
            if let Some(bound) = s.stability_cut(opponent, empty, alpha) {
                return bound;
            }
            let odd = s.odd_quadrants(empty);
            let mut best = -INF;
            for set in [empty & odd, empty & !odd] {
                for x in set.ones() {
                    if (s.g.neighbours[x as usize] & opponent).is_zero() {
                        continue;
                    }
                    let flipped = F::flips(me, opponent, x);
                    if flipped.is_zero() {
                        continue;
                    }
                    s.nodes += 1;
                    let bit = F::B::bit(x);
                    let (next_me, next_opp) = (opponent ^ flipped, me | flipped | bit);
                    let v = if n == 5 {
                        -solve4(s, next_me, next_opp, -alpha - 1, squares_of(empty ^ bit), false)
                    } else {
                        -shallow(s, next_me, next_opp, -alpha - 1, n - 1)
                    };
                    raise_or_cut!(best, v, alpha);
                }
            }
            if best > -INF {
                return best;
            }
            if F::mobility(opponent, me, empty).is_zero() {
                return s.final_score(me, opponent);
            }
            s.nodes += 1;
            -shallow(s, opponent, me, -alpha - 1, n)
        }

        /// More than `SHALLOW_MAX` empties: table, enhanced transposition cut-off, stability
        /// cut-off, fastest-first ordering.
        $(#[$attr])*
        fn deep<F: Frame>(s: &mut Search<'_, F>, me: F::B, opponent: F::B, alpha: i32, n: u32) -> Result<i32>
        where
            F::B: TableBits,
        {
            s.stop.checkpoint()?;
            if s.nodes - s.published >= PUBLISH_NODES {
                s.seen.fetch_add(s.nodes - s.published, std::sync::atomic::Ordering::Relaxed);
                s.published = s.nodes;
            }
            let beta = alpha + 1;
            let mut best_move = NO_MOVE;
            if let Some(e) = s.probe(me, opponent) {
                if i32::from(e.lower) >= beta {
                    return Ok(e.lower.into());
                }
                if i32::from(e.upper) <= alpha {
                    return Ok(e.upper.into());
                }
                best_move = e.best;
            }
            let empty = s.empties(me, opponent);
            let moves = F::mobility(me, opponent, empty);
            if moves.is_zero() {
                if F::mobility(opponent, me, empty).is_zero() {
                    return Ok(s.final_score(me, opponent));
                }
                s.nodes += 1;
                return Ok(-nws(s, opponent, me, -beta, n)?);
            }
            if let Some(bound) = s.stability_cut(opponent, empty, alpha) {
                return Ok(bound);
            }
            // The table's move first, before the ordering work: it cuts most often.
            let mut best = -INF;
            let mut moves = moves;
            if best_move != NO_MOVE && moves.has(u32::from(best_move)) {
                let x = u32::from(best_move);
                let flipped = F::flips(me, opponent, x);
                s.nodes += 1;
                best = -nws(s, opponent ^ flipped, me | flipped | F::B::bit(x), -beta, n - 1)?;
                if best >= beta {
                    s.store(me, opponent, n, alpha, beta, best, best_move);
                    return Ok(best);
                }
                moves ^= F::B::bit(x);
            }
            let odd = s.odd_quadrants(empty);
            if n >= ETC_MIN {
                // Every child's bucket is asked for at once, before the probes below wait for
                // them one by one: a quarter of the solver's time went to those waits. The flips
                // are computed again below, as the search loop does: keeping them in an array
                // measured no faster (FForum 20-39, three runs each).
                for x in moves.ones() {
                    let flipped = F::flips(me, opponent, x);
                    s.prefetch(opponent ^ flipped, me | flipped | F::B::bit(x));
                }
            }
            let mut list = MoveList::new();
            for x in moves.ones() {
                let flipped = F::flips(me, opponent, x);
                if n >= ETC_MIN {
                    let bit = F::B::bit(x);
                    if let Some(e) = s.probe(opponent ^ flipped, me | flipped | bit) {
                        let v = -i32::from(e.upper);
                        if v >= beta {
                            s.store(me, opponent, n, alpha, beta, v, x as u8);
                            return Ok(v);
                        }
                    }
                }
                list.push(if n >= s.sort_min() {
                    eval_key(s, me, opponent, empty, x, flipped, odd, n, alpha)
                } else {
                    s.order_key(me, opponent, empty, x, flipped, odd, NO_MOVE)
                });
            }
            for i in 0..list.len {
                let x = list.take_best(i);
                let flipped = F::flips(me, opponent, x);
                s.nodes += 1;
                let v = -nws(s, opponent ^ flipped, me | flipped | F::B::bit(x), -beta, n - 1)?;
                if v > best {
                    best = v;
                    best_move = x as u8;
                    if v >= beta {
                        break;
                    }
                }
            }
            s.store(me, opponent, n, alpha, beta, best, best_move);
            Ok(best)
        }

        /// A shallow fail-soft alpha-beta search of `depth` plies over `mid_eval`, for the
        /// ordering only (its nodes count).
        $(#[$attr])*
        fn mid_search<F: Frame>(s: &mut Search<'_, F>, me: F::B, opponent: F::B, depth: u32, alpha: i32, beta: i32) -> i32
        where
            F::B: TableBits,
        {
            let empty = s.empties(me, opponent);
            if depth == 0 {
                return s.mid_eval(me, opponent, empty);
            }
            let moves = F::mobility(me, opponent, empty);
            if moves.is_zero() {
                if F::mobility(opponent, me, empty).is_zero() {
                    return s.unit() * s.final_score(me, opponent);
                }
                s.nodes += 1;
                return -mid_search(s, opponent, me, depth - 1, -beta, -alpha);
            }
            let (mut best, mut a) = (-i32::MAX, alpha);
            for x in moves.ones() {
                let flipped = F::flips(me, opponent, x);
                s.nodes += 1;
                let v = -mid_search(s, opponent ^ flipped, me | flipped | F::B::bit(x), depth - 1, -beta, -a);
                if v > best {
                    best = v;
                    if v > a {
                        a = v;
                        if v >= beta {
                            break;
                        }
                    }
                }
            }
            best
        }

        /// The ordering key of move `x` (with `flipped`) at a node of `sort_min()` empties or more:
        /// fastest first and a shallow search's value, then potential mobility, corners and
        /// parity (the square in the low byte; larger is tried first).
        $(#[$attr])*
        #[allow(clippy::too_many_arguments)]
        fn eval_key<F: Frame>(s: &mut Search<'_, F>, me: F::B, opponent: F::B, empty: F::B, x: u32, flipped: F::B, odd: F::B, n: u32, alpha: i32) -> u32
        where
            F::B: TableBits,
        {
            let bit = F::B::bit(x);
            let (next_me, next_opp, next_empty) = (opponent ^ flipped, me | flipped | bit, empty ^ bit);
            let corners = s.g.corners;
            let replies = F::mobility(next_me, next_opp, next_empty);
            let mobility = (replies.count() + (replies & corners).count()) as i32;
            let potential = (s.spread(next_opp) & next_empty).count() as i32;
            let depth = sort_depth(n);
            let unit = s.unit();
            // How much worse than alpha a move is does not matter: the shallow search may cut there.
            let floor = (alpha - SORT_ALPHA_DELTA).max(-s.g.squares) * unit;
            let value = -mid_search(s, next_me, next_opp, depth, -i32::MAX, -floor);
            let mut score = -W_MOBILITY * mobility + s.eval_weight(depth) * value - W_POTENTIAL * potential;
            if !(bit & corners).is_zero() {
                score += W_CORNER;
            }
            if !(bit & odd).is_zero() {
                score += W_PARITY;
            }
            if !(bit & s.spread(corners & empty)).is_zero() {
                score -= W_X_SQUARE;
            }
            ((score + (1 << 22)).clamp(0, (1 << 23) - 1) as u32) << 8 | x
        }

        /// Principal-variation search of a window wider than a null one (any depth).
        $(#[$attr])*
        fn pvs<F: Frame>(s: &mut Search<'_, F>, me: F::B, opponent: F::B, alpha: i32, beta: i32, n: u32) -> Result<i32>
        where
            F::B: TableBits,
        {
            if beta == alpha + 1 {
                return nws(s, me, opponent, alpha, n);
            }
            s.stop.checkpoint()?;
            let empty = s.empties(me, opponent);
            let moves = F::mobility(me, opponent, empty);
            if moves.is_zero() {
                if F::mobility(opponent, me, empty).is_zero() {
                    return Ok(s.final_score(me, opponent));
                }
                s.nodes += 1;
                return Ok(-pvs(s, opponent, me, -beta, -alpha, n)?);
            }
            let mut best_move = NO_MOVE;
            if let Some(e) = s.probe(me, opponent) {
                let (lower, upper) = (i32::from(e.lower), i32::from(e.upper));
                if lower >= beta {
                    return Ok(lower);
                }
                if upper <= alpha {
                    return Ok(upper);
                }
                if lower == upper {
                    return Ok(lower);
                }
                best_move = e.best;
            }
            let odd = s.odd_quadrants(empty);
            let mut list = MoveList::new();
            for x in moves.ones() {
                let flipped = F::flips(me, opponent, x);
                list.push(if n >= s.sort_min() {
                    let key = eval_key(s, me, opponent, empty, x, flipped, odd, n, alpha);
                    if best_move as u32 == x { key | 1 << 31 } else { key }
                } else {
                    s.order_key(me, opponent, empty, x, flipped, odd, best_move)
                });
            }
            let (mut best, mut a) = (-INF, alpha);
            for i in 0..list.len {
                let x = list.take_best(i);
                let flipped = F::flips(me, opponent, x);
                let (next_me, next_opp) = (opponent ^ flipped, me | flipped | F::B::bit(x));
                s.nodes += 1;
                let v = if i == 0 {
                    -pvs(s, next_me, next_opp, -beta, -a, n - 1)?
                } else {
                    let v = -nws(s, next_me, next_opp, -a - 1, n - 1)?;
                    if v > a && v < beta {
                        -pvs(s, next_me, next_opp, -beta, -a, n - 1)?
                    } else {
                        v
                    }
                };
                if v > best {
                    best = v;
                    best_move = x as u8;
                    if v > a {
                        a = v;
                        if v >= beta {
                            break;
                        }
                    }
                }
            }
            if n > SHALLOW_MAX {
                s.store(me, opponent, n, alpha, beta, best, best_move);
            }
            Ok(best)
        }
    };
}

mod portable {
    use super::*;
    search_functions!();
}

#[cfg(target_arch = "x86_64")]
mod v3 {
    use super::*;
    search_functions!(#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reversi::{Shape, Variant};

    #[test]
    fn the_geometry_finds_corners_lines_and_walls() {
        let start = Variant::new(Shape::Square(8), vec![], 0, crate::game::Player::Black).unwrap().start();
        let Reversi::Classic(b) = start else { panic!("the 8x8 start is classic") };
        let g = Geometry::<super::super::frame::Classic8>::new(b.playable, 8);
        assert_eq!(g.corners, 0x8100_0000_0000_0081);
        // 8 rows, 8 columns, 2 * 11 diagonals of 3 squares or more in each diagonal direction.
        assert_eq!(g.lines.iter().map(Vec::len).collect::<Vec<_>>(), vec![8, 8, 11, 11]);
        assert_eq!(g.walled[0], 0x8181_8181_8181_8181);
        assert_eq!(g.quadrants[0], 0x0F0F_0F0F);
    }
}
