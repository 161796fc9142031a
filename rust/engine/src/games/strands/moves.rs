//! A turn's moves: the cover rule's sizes, the count per label, where an index lies in the
//! documented order (label, then size, then combination), and the generator that walks that
//! order one combination after another without a list.

use super::combinatorics::{binomial, unrank_combination, UP_TO};
use super::{Move, Strands};
use crate::error::{Error, Result};

/// How many cells a turn on label X covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Cover {
    /// 1 to X cells of label X (fewer if fewer remain).
    #[default]
    UpTo,
    /// Exactly X cells, or all that remain if fewer.
    Exact,
}

impl Cover {
    pub fn parse(text: &str) -> Result<Cover> {
        match text {
            "up-to" => Ok(Cover::UpTo),
            "exact" => Ok(Cover::Exact),
            _ => {
                Err(Error::invalid(format!("cover must be 'up-to' or 'exact', got {:?}", crate::error::truncate(text))))
            }
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Cover::UpTo => "up-to",
            Cover::Exact => "exact",
        }
    }
}

impl Strands {
    /// How many cells a turn on a label with `n` empty cells may cover: (fewest, most).
    #[inline(always)]
    pub(super) fn sizes(&self, label: usize, n: u32) -> (u32, u32) {
        let most = (label as u32 + 1).min(n);
        match self.cover {
            Cover::UpTo => (1, most),
            Cover::Exact => (most, most),
        }
    }

    /// The number of moves on a label with `n` empty cells.
    #[inline(always)]
    pub(super) fn moves_of_label(&self, label: usize, n: u32) -> u64 {
        match self.cover {
            Cover::UpTo => UP_TO[n as usize][label + 1],
            Cover::Exact if n == 0 => 0,
            Cover::Exact => binomial(n, (label as u32 + 1).min(n)),
        }
    }

    /// The number of moves on each label, in label order (the opening: label 2's cells).
    #[inline(always)]
    pub(super) fn moves_per_label(&self) -> [u64; 6] {
        if self.opening() {
            let mut counts = [0; 6];
            counts[1] = self.empty[1].count_ones() as u64;
            return counts;
        }
        std::array::from_fn(|label| self.moves_of_label(label, self.empty[label].count_ones()))
    }

    /// The number of empty cells of each label.
    #[inline(always)]
    pub(super) fn empty_per_label(&self) -> [u32; 6] {
        std::array::from_fn(|label| self.empty[label].count_ones())
    }

    /// The `index`-th move in the documented order (index < count_moves()), or None.
    pub fn nth_move(&self, index: u64) -> Option<Move> {
        let counts = self.moves_per_label();
        (index < counts.iter().sum()).then(|| self.unrank(&counts, index))
    }

    /// The `index`-th move, given `moves_per_label()`.
    #[inline(always)]
    pub(super) fn unrank(&self, counts: &[u64; 6], index: u64) -> Move {
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
    pub(super) fn locate(
        &self,
        counts: &[u64; 6],
        empties: &[u32; 6],
        mut index: u64,
        opening: bool,
    ) -> (usize, u32, u64) {
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
    pub(super) fn new(position: Strands) -> Moves {
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
