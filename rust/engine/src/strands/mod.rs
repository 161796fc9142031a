//! Strands: cover cells of one label per turn; the biggest groups win (docs/strands.md).
//!
//! A position keeps the empty cells of each label as a bitboard, so a turn's moves are the
//! combinations of one label's empty cells: counted with binomials, drawn by unranking, and
//! generated one combination after another without a list.

mod actions;
mod game;
mod layouts;
mod notation;

pub use actions::StrandsSteps;
pub use game::{StrandsGame, Variant};
pub use layouts::LAYOUTS;
pub use notation::{move_name, parse_move};

use crate::bitboard::nth_bit_with;
use crate::error::{Error, Result};
use crate::game::{Outcome, Player, Position};
use crate::hex::{hexhex_rows, HexBoard};
use crate::rng::SplitMix64;

/// A turn: the cells it covers (all of one label).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    pub cells: u128,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cover {
    /// 1 to X cells of label X (fewer if fewer remain).
    UpTo,
    /// Exactly X cells, or all that remain if fewer.
    Exact,
}

impl Cover {
    pub fn parse(text: &str) -> Result<Cover> {
        match text {
            "up-to" => Ok(Cover::UpTo),
            "exact" => Ok(Cover::Exact),
            _ => Err(Error::invalid(format!(
                "cover must be 'up-to' or 'exact', got {:?}",
                crate::square::truncate(text)
            ))),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Cover::UpTo => "up-to",
            Cover::Exact => "exact",
        }
    }
}

/// Binomial coefficients C(n, k) for n <= 128, k <= 6, computed at compile time.
static BINOMIALS: [[u64; 7]; 129] = {
    let mut t = [[0u64; 7]; 129];
    let mut n = 0;
    while n < 129 {
        t[n][0] = 1;
        let mut k = 1;
        while k < 7 {
            t[n][k] = if n == 0 { 0 } else { t[n - 1][k - 1] + t[n - 1][k] };
            k += 1;
        }
        n += 1;
    }
    t
};

/// `UP_TO[n][x]`: the number of ways to cover 1 to `x` of `n` cells (sum of `C(n, k)`).
static UP_TO: [[u64; 7]; 129] = {
    let mut t = [[0u64; 7]; 129];
    let mut n = 0;
    while n < 129 {
        let mut x = 1;
        while x < 7 {
            t[n][x] = t[n][x - 1] + if x <= n { BINOMIALS[n][x] } else { 0 };
            x += 1;
        }
        n += 1;
    }
    t
};

/// `COLUMNS[k][m]` = C(m, k): one column of BINOMIALS, contiguous for the searches of
/// `unrank_combination`.
static COLUMNS: [[u64; 129]; 7] = {
    let mut t = [[0u64; 129]; 7];
    let mut k = 0;
    while k < 7 {
        let mut m = 0;
        while m < 129 {
            t[k][m] = BINOMIALS[m][k];
            m += 1;
        }
        k += 1;
    }
    t
};

/// The `index`-th `k`-subset of `set` (`n` cells) in lexicographic order of cell positions
/// (the order `Moves` generates them in).
///
/// Lexicographic rank `index` is the colexicographic rank `C(n, k) - 1 - index` of the mirrored
/// positions, so each element comes from one search in a column of binomials: with
/// `r = C(n, k) - index`, the next element sits `m` positions before the end, for the largest `m`
/// with `C(m, k) < r`; then `r -= C(m, k)` and `k -= 1` (hockey-stick identity). No branch
/// depends on the data, where walking the cells one by one mispredicts at almost every cell.
#[inline(always)]
fn unrank_combination(set: u128, n: u32, k: u32, index: u64, fast_pdep: bool) -> u128 {
    debug_assert!(index < binomial(n, k));
    let mut r = binomial(n, k) - index;
    let mut cells = 0u128;
    for k in (2..=k).rev() {
        let m = count_below(&COLUMNS[k as usize], n, r) - 1;
        r -= COLUMNS[k as usize][m as usize];
        cells |= 1u128 << nth_bit_with(set, n - 1 - m, fast_pdep);
    }
    // C(m, 1) = m: the last element needs no search.
    cells | 1u128 << nth_bit_with(set, n - r as u32, fast_pdep)
}

/// One more than the largest m with `column[m] < r`, for a column of binomials C(m, k) and an
/// `r <= C(upper, k)`: the number of entries below `r`, counted over whole blocks of 8 that
/// cover `0..upper` (entries from `upper` on are >= r). Independent comparisons that vectorize,
/// where a binary search is a chain of dependent loads on the critical path of a playout. (Not
/// narrowed to the previous element's bound: the varying trip count then costs more.)
/// (Binomials up to C(128, 6) fit in an i64, and signed comparisons are the ones AVX2 has.)
#[inline(always)]
fn count_below(column: &[u64; 129], upper: u32, r: u64) -> u32 {
    let mut count = 0;
    for block in column[..128].chunks_exact(8).take(upper.div_ceil(8) as usize) {
        count += block.iter().map(|&c| ((c as i64) < r as i64) as u32).sum::<u32>();
    }
    count
}

#[inline(always)]
fn binomial(n: u32, k: u32) -> u64 {
    if k > 6 {
        return 0;
    }
    BINOMIALS[n as usize][k as usize]
}

/// A Strands position.
#[derive(Clone, Copy)]
pub struct Strands {
    black: u128,
    white: u128,
    /// The empty cells of each label (index label - 1).
    empty: [u128; 6],
    side: Player,
    cover: Cover,
    board: &'static HexBoard,
}

impl PartialEq for Strands {
    fn eq(&self, other: &Self) -> bool {
        (self.black, self.white, self.empty, self.side, self.cover)
            == (other.black, other.white, other.empty, other.side, other.cover)
            && std::ptr::eq(self.board, other.board)
    }
}

impl Eq for Strands {}

impl std::fmt::Debug for Strands {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_notation())
    }
}

/// The rows of a named layout, or None.
pub fn named_layout(name: &str) -> Option<Vec<Vec<u8>>> {
    LAYOUTS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, rows)| rows.iter().map(|r| r.bytes().map(|b| b - b'0').collect()).collect())
}

/// The side of the hexhex board these rows form, or an error naming `layout`.
pub fn hexhex_side(rows: &[Vec<u8>]) -> Result<u8> {
    let n = rows.len().div_ceil(2);
    let bad = || {
        Error::invalid(format!("layout: the rows must form a hexhex board of side 2 to 7 (got {} rows)", rows.len()))
    };
    if rows.len() % 2 == 0 || !(2..=7).contains(&n) {
        return Err(bad());
    }
    let lengths: Vec<usize> = rows.iter().map(Vec::len).collect();
    let expected: Vec<usize> = hexhex_rows(n as u8).iter().map(|&(l, _)| l as usize).collect();
    if lengths != expected {
        return Err(Error::invalid(format!(
            "layout: rows of a side-{n} hexhex board have lengths {expected:?}, got {lengths:?}"
        )));
    }
    Ok(n as u8)
}

impl Strands {
    /// The start of a game on these rows of labels.
    pub fn new(rows: &[Vec<u8>], cover: Cover) -> Result<Strands> {
        let side = hexhex_side(rows)?;
        let board = HexBoard::from_rows(&hexhex_rows(side))?;
        let mut empty = [0u128; 6];
        for (i, &label) in rows.iter().flatten().enumerate() {
            if !(1..=6).contains(&label) {
                return Err(Error::invalid(format!("layout: labels are 1 to 6, got {label}")));
            }
            empty[label as usize - 1] |= 1u128 << i;
        }
        if empty[1] == 0 {
            return Err(Error::invalid("layout: there must be at least one cell labelled 2 (Black's opening)"));
        }
        Ok(Strands { black: 0, white: 0, empty, side: Player::Black, cover, board })
    }

    /// The rows of a seeded random layout (docs/strands.md gives the algorithm).
    pub fn random_layout(side: u8, seed: u64) -> Result<Vec<Vec<u8>>> {
        if !(2..=7).contains(&side) {
            return Err(Error::invalid(format!("side must be 2 to 7, got {side}")));
        }
        let board = HexBoard::from_rows(&hexhex_rows(side))?;
        let mut rng = SplitMix64::new(seed);
        let mut labels: Vec<u8> = (0..board.len() as u8)
            .map(|cell| {
                let level = (5 * ring(board, side, cell) as i64) / (side as i64 - 1);
                let jitter = rng.below(3) as i64 - 1;
                1 + (level + jitter).clamp(0, 5) as u8
            })
            .collect();
        if !labels.contains(&2) {
            let first_of_ring_1 = (0..board.len() as u8).find(|&c| ring(board, side, c) == 1).unwrap_or(0);
            labels[first_of_ring_1 as usize] = 2;
        }
        let mut rows = Vec::new();
        let mut it = labels.into_iter();
        for &(length, _) in &board.rows {
            rows.push(it.by_ref().take(length as usize).collect());
        }
        Ok(rows)
    }

    pub fn board(&self) -> &'static HexBoard {
        self.board
    }

    pub fn cover(&self) -> Cover {
        self.cover
    }

    pub fn stones(&self, player: Player) -> u128 {
        match player {
            Player::Black => self.black,
            Player::White => self.white,
        }
    }

    /// The label of an empty cell (None if covered).
    pub fn label(&self, cell: u8) -> Option<u8> {
        (0..6).find(|&l| self.empty[l] >> cell & 1 == 1).map(|l| l as u8 + 1)
    }

    fn opening(&self) -> bool {
        self.black | self.white == 0
    }

    pub(crate) fn set(&mut self, black: u128, white: u128, empty: [u128; 6], side: Player) {
        (self.black, self.white, self.empty, self.side) = (black, white, empty, side);
    }

    /// How many cells a turn on a label with `n` empty cells may cover: (fewest, most).
    #[inline(always)]
    fn sizes(&self, label: usize, n: u32) -> (u32, u32) {
        let most = (label as u32 + 1).min(n);
        match self.cover {
            Cover::UpTo => (1, most),
            Cover::Exact => (most, most),
        }
    }

    /// The number of moves on a label with `n` empty cells.
    #[inline(always)]
    fn moves_of_label(&self, label: usize, n: u32) -> u64 {
        match self.cover {
            Cover::UpTo => UP_TO[n as usize][label + 1],
            Cover::Exact if n == 0 => 0,
            Cover::Exact => binomial(n, (label as u32 + 1).min(n)),
        }
    }

    /// The size of the largest group of `stones` and how many groups have that size, compared
    /// with `rival`'s (the other player's): exact when equal, and ordered like the truth when
    /// not, since the scan stops as soon as the answer to the comparison is certain.
    #[inline(always)]
    fn largest_groups(&self, stones: u128, rival: Option<(u32, u32)>) -> (u32, u32) {
        let rival_largest = rival.map_or(0, |(size, _)| size);
        let beaten = rival.map_or(u32::MAX, |(size, _)| size);
        let (mut groups, mut largest, mut count) = (self.board.groups(stones), 0, 0);
        // Stones left fewer than both the largest group so far and the rival's largest: nothing
        // left can matter.
        while groups.remaining().count_ones() >= largest.max(rival_largest).max(1) {
            let Some(group) = groups.next() else { break };
            let size = group.count_ones();
            if size > beaten {
                return (size, 1);
            }
            count = if size > largest { 1 } else { count + (size == largest) as u32 };
            largest = largest.max(size);
        }
        (largest, count)
    }

    /// Black's sorted group sizes against White's, in full. That is comparing how many groups of
    /// each size they have, from the largest size down: the first size where the counts differ
    /// goes to whoever has more groups of it. So count, don't sort.
    fn compare_all_groups(&self) -> std::cmp::Ordering {
        let mut surplus = [0i8; 128];
        for (stones, one) in [(self.black, 1), (self.white, -1)] {
            for group in self.board.groups(stones) {
                surplus[group.count_ones() as usize - 1] += one;
            }
        }
        surplus.iter().rev().find(|&&d| d != 0).map_or(std::cmp::Ordering::Equal, |d| d.cmp(&0))
    }

    /// Group sizes of a player, largest first.
    pub fn group_sizes(&self, player: Player) -> Vec<u32> {
        let mut sizes: Vec<u32> = self.board.groups(self.stones(player)).map(u128::count_ones).collect();
        sizes.sort_unstable_by(|a, b| b.cmp(a));
        sizes
    }

    /// The number of moves on each label, in label order (the opening: label 2's cells).
    #[inline(always)]
    fn moves_per_label(&self) -> [u64; 6] {
        if self.opening() {
            let mut counts = [0; 6];
            counts[1] = self.empty[1].count_ones() as u64;
            return counts;
        }
        std::array::from_fn(|label| self.moves_of_label(label, self.empty[label].count_ones()))
    }

    /// The number of empty cells of each label.
    #[inline(always)]
    fn empty_per_label(&self) -> [u32; 6] {
        std::array::from_fn(|label| self.empty[label].count_ones())
    }

    /// The `index`-th move in the documented order (index < count_moves()), or None.
    pub fn nth_move(&self, index: u64) -> Option<Move> {
        let counts = self.moves_per_label();
        (index < counts.iter().sum()).then(|| self.unrank(&counts, index))
    }

    /// The `index`-th move, given `moves_per_label()`.
    #[inline(always)]
    fn unrank(&self, counts: &[u64; 6], index: u64) -> Move {
        let (label, size, rank) = self.locate(counts, &self.empty_per_label(), index, self.opening());
        let set = self.empty[label];
        Move { cells: unrank_combination(set, set.count_ones(), size, rank, crate::cpu::has_fast_pdep()) }
    }

    /// Where the `index`-th move lies, given `moves_per_label()`: its label, its size and its rank
    /// among that label's combinations of that size (labels in order, then sizes from small to
    /// large, then combinations in lexicographic order). Label and size are found by counting the
    /// prefix sums the index has passed, not by branching on them: for a random index each such
    /// branch would be a coin flip for the predictor.
    #[inline(always)]
    fn locate(&self, counts: &[u64; 6], empties: &[u32; 6], mut index: u64, opening: bool) -> (usize, u32, u64) {
        use std::hint::select_unpredictable as pick;
        let (mut label, mut passed, mut total) = (0, 0, 0);
        for &count in counts {
            total += count;
            let past = index >= total;
            label += past as usize;
            passed = pick(past, total, passed);
        }
        index -= passed;
        let n = empties[label];
        let high = if opening { 1 } else { self.sizes(label, n).1 };
        if opening || self.cover == Cover::Exact {
            return (label, high, index);
        }
        // Up to `high` cells: sizes 1, 2, ... take the cumulative blocks UP_TO[n][1], [2], ...
        let (mut size, mut passed) = (1, 0);
        for k in 1..6 {
            let total = UP_TO[n as usize][k as usize];
            let past = k < high && index >= total;
            size += past as u32;
            passed = pick(past, total, passed);
        }
        (label, size, index - passed)
    }
}

/// A cell's ring distance from the centre of a hexhex board of side `side`.
fn ring(board: &HexBoard, side: u8, cell: u8) -> u8 {
    let (row, i) = board.place(cell);
    let offset = board.rows[row as usize].1 as i32;
    // Cube coordinates from (row, x): r from the middle row, q from x.
    let r = row as i32 - (side as i32 - 1);
    let x = offset + 2 * i as i32 - 2 * (side as i32 - 1);
    let q = (x - r) / 2;
    let s = -q - r;
    q.abs().max(r.abs()).max(s.abs()) as u8
}

/// The legal moves, one combination after another, without a list.
#[derive(Clone)]
pub struct Moves {
    position: Strands,
    label: usize,
    size: u32,
    /// The current combination, as positions into `cells`.
    picks: [u8; 6],
    cells: [u8; 128],
    n: u32,
    started: bool,
    done: bool,
}

impl Moves {
    fn new(position: Strands) -> Moves {
        let mut m =
            Moves { position, label: 0, size: 0, picks: [0; 6], cells: [0; 128], n: 0, started: false, done: false };
        if position.black | position.white == position.board.all {
            m.done = true;
        } else if position.opening() {
            // Positions refuse an opening without a 2, but an iterator never trusts that.
            m.done = position.empty[1] == 0;
            m.enter(1, 1);
        } else {
            m.label = usize::MAX;
            m.next_group();
        }
        m
    }

    /// Moves to label `label` and combination size `size`, at its first combination.
    fn enter(&mut self, label: usize, size: u32) {
        self.label = label;
        self.size = size;
        let set = self.position.empty[label];
        self.n = set.count_ones();
        let mut rest = set;
        for i in 0..self.n as usize {
            self.cells[i] = rest.trailing_zeros() as u8;
            rest &= rest - 1;
        }
        for i in 0..size as usize {
            self.picks[i] = i as u8;
        }
        self.started = false;
    }

    /// The next (label, size) with moves, in order; marks the end when there is none.
    fn next_group(&mut self) {
        let p = self.position;
        if self.label != usize::MAX && !p.opening() {
            let n = p.empty[self.label].count_ones();
            if self.size < p.sizes(self.label, n).1 {
                let size = self.size + 1;
                self.enter(self.label, size);
                return;
            }
        }
        let start = if self.label == usize::MAX { 0 } else { self.label + 1 };
        if p.opening() {
            self.done = true;
            return;
        }
        match (start..6).find(|&l| p.empty[l] != 0) {
            Some(label) => {
                let low = p.sizes(label, p.empty[label].count_ones()).0;
                self.enter(label, low);
            }
            None => self.done = true,
        }
    }
}

impl Iterator for Moves {
    type Item = Move;
    fn next(&mut self) -> Option<Move> {
        loop {
            if self.done {
                return None;
            }
            let k = self.size as usize;
            if self.started {
                // Advance to the next combination in lexicographic order.
                let n = self.n as usize;
                match (0..k).rev().find(|&i| (self.picks[i] as usize) < n - k + i) {
                    Some(i) => {
                        self.picks[i] += 1;
                        for j in i + 1..k {
                            self.picks[j] = self.picks[j - 1] + 1;
                        }
                    }
                    None => {
                        self.next_group();
                        continue;
                    }
                }
            }
            self.started = true;
            let cells = self.picks[..k].iter().fold(0u128, |set, &i| set | 1u128 << self.cells[i as usize]);
            return Some(Move { cells });
        }
    }
}

impl Position for Strands {
    type Move = Move;
    type Moves<'a> = Moves;

    fn to_move(&self) -> Player {
        self.side
    }

    fn legal_moves(&self) -> Moves {
        Moves::new(*self)
    }

    #[inline(always)]
    fn play_unchecked(&mut self, mv: Move) {
        match self.side {
            Player::Black => self.black |= mv.cells,
            Player::White => self.white |= mv.cells,
        }
        // A turn's cells share one label, so clearing them from every label's set changes only
        // that one: cheaper than finding it.
        for set in &mut self.empty {
            *set &= !mv.cells;
        }
        self.side = self.side.other();
    }

    /// The size of each player's largest group.
    fn points(&self) -> (u32, u32) {
        let largest = |player| self.group_sizes(player).first().copied().unwrap_or(0);
        (largest(Player::Black), largest(Player::White))
    }

    #[inline(always)]
    fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        // The sorted lists of group sizes (a missing group counts 0) are compared from the
        // front: most games are decided by the largest groups alone, and those are known once
        // the stones not yet grouped are too few to form another as large.
        let black = self.largest_groups(self.black, None);
        let white = self.largest_groups(self.white, Some(black));
        let decided = if black != white { black.cmp(&white) } else { self.compare_all_groups() };
        Some(match decided {
            std::cmp::Ordering::Greater => Outcome::Winner(Player::Black),
            std::cmp::Ordering::Less => Outcome::Winner(Player::White),
            std::cmp::Ordering::Equal => Outcome::Draw,
        })
    }

    fn zobrist(&self) -> u64 {
        let keys = zobrist_keys();
        let mut hash = if self.side == Player::White { keys[256] } else { 0 };
        let layers =
            [(0usize, self.black), (128, self.white)].into_iter().chain((0..6).map(|l| (257 + l * 128, self.empty[l])));
        for (base, set) in layers {
            let mut rest = set;
            while rest != 0 {
                hash ^= keys[base + rest.trailing_zeros() as usize];
                rest &= rest - 1;
            }
        }
        hash
    }

    fn is_over(&self) -> bool {
        self.black | self.white == self.board.all
    }

    fn why_illegal(&self, mv: Move) -> Option<String> {
        let b = self.board;
        let names = |set: u128| {
            (0..b.len() as u8).filter(|&c| set >> c & 1 == 1).map(|c| b.cell_name(c)).collect::<Vec<_>>().join(",")
        };
        let covered = mv.cells & (self.black | self.white);
        if mv.cells == 0 {
            return Some("a turn covers at least one cell".into());
        }
        if covered != 0 {
            return Some(format!("{} is already covered", names(covered)));
        }
        let label = match (0..6).find(|&l| self.empty[l] & mv.cells == mv.cells) {
            Some(l) => l,
            None => return Some("all cells of a turn must carry the same label".into()),
        };
        if self.opening() {
            return (label != 1 || mv.cells.count_ones() != 1)
                .then(|| "Black's opening covers exactly one cell labelled 2".into());
        }
        let (low, high) = self.sizes(label, self.empty[label].count_ones());
        let k = mv.cells.count_ones();
        (!(low..=high).contains(&k)).then(|| match self.cover {
            Cover::UpTo => format!("a turn on label {} covers 1 to {high} cells, not {k}", label + 1),
            Cover::Exact => format!("a turn on label {} covers exactly {high} cells, not {k}", label + 1),
        })
    }

    /// Sums of binomials: no move is built.
    #[inline(always)]
    fn count_moves(&self) -> u64 {
        self.moves_per_label().iter().sum()
    }

    /// The draws of `sample_move`, with the moves per label kept up to date: a turn changes
    /// only its own label's count.
    #[inline(always)]
    fn play_out(&mut self, rng: &mut SplitMix64) {
        if self.opening() {
            match self.sample_move(rng) {
                Some(mv) => self.play_unchecked(mv),
                None => return,
            }
        }
        // The next turn's draw needs only how many cells this one covers, not which: keeping the
        // counts apart from the cells lets the unranking of one turn overlap the next draw.
        let fast_pdep = crate::cpu::has_fast_pdep();
        let mut empties = self.empty_per_label();
        let mut counts = self.moves_per_label();
        let mut total: u64 = counts.iter().sum();
        while total != 0 {
            let (label, size, rank) = self.locate(&counts, &empties, rng.below(total), false);
            let n = empties[label];
            empties[label] = n - size;
            let now = self.moves_of_label(label, n - size);
            total = total - counts[label] + now;
            counts[label] = now;
            let set = self.empty[label];
            let cells = unrank_combination(set, n, size, rank, fast_pdep);
            self.empty[label] = set & !cells;
            // Alternating sides is a pattern, but a branch on it still mispredicts: select instead.
            let black = self.side == Player::Black;
            self.black |= std::hint::select_unpredictable(black, cells, 0);
            self.white |= std::hint::select_unpredictable(black, 0, cells);
            self.side = self.side.other();
        }
    }

    /// Draws `below(count_moves())` and unranks it: the list is never built.
    #[inline(always)]
    fn sample_move(&self, rng: &mut SplitMix64) -> Option<Move> {
        let counts = self.moves_per_label();
        match counts.iter().sum() {
            0 => None,
            n => Some(self.unrank(&counts, rng.below(n))),
        }
    }

    fn parse_move(&self, text: &str) -> Result<Move> {
        notation::parse_move(self.board, text)
    }

    fn format_move(&self, mv: Move) -> String {
        notation::move_name(self.board, mv)
    }

    fn to_notation(&self) -> String {
        notation::write(self)
    }

    fn from_notation(text: &str) -> Result<Self> {
        notation::read(text)
    }
}

fn zobrist_keys() -> &'static [u64; 257 + 6 * 128] {
    crate::rng::zobrist_keys()
}

impl Strands {
    /// A readable board: each row indented by its offset; empty cells as their label.
    pub fn text_board(&self) -> String {
        self.board.draw(|cell| notation::cell_char(self, cell))
    }
}
