//! Features of a Reversi position for the learned evaluation (`search::eval`): counts from the
//! side to move's view, computed on the bitboards of the position's own frame, so that one
//! weight file serves 4x4 to 10x10, the Octagon and every set of holes.
//!
//! The board's shape enters only through the playable mask. A square is *walled* along a line
//! direction when one of its two neighbours on that line is not playable (edge, hole or cut); a
//! square walled along all four line directions is *corner-like*: a disc there can never be
//! flipped. That generalises the corners to holes and to the Octagon (whose corner-like squares
//! are the eight next to the cuts, `c1`, `a3`, ...). X- and C-squares are the diagonal and
//! orthogonal neighbours of an empty corner-like square, edge squares those with a non-playable
//! neighbour that are not corner-like.

use super::board::Board;
use super::frame::Frame;
use super::{with_board, with_fast_board, Reversi};
use crate::bitboard::Bits;
use crate::search::eval::Features;

#[cfg(target_arch = "x86_64")]
use super::frame;

/// The features, in order (mine minus the opponent's unless said otherwise).
const NAMES: &[&str] = &[
    "discs",              // discs
    "mobility",           // placements
    "mobility_share",     // (mine - theirs) / (mine + theirs + 2)
    "potential_mobility", // empty squares next to a disc of the other side
    "frontier",           // discs next to an empty square
    "corners",            // discs on corner-like squares
    "corner_moves",       // placements on corner-like squares
    "x_squares",          // discs diagonally next to an empty corner-like square
    "c_squares",          // discs orthogonally next to an empty corner-like square
    "edges",              // discs on other squares with a non-playable neighbour
    "stable",             // discs that can never be flipped (a subset, found cheaply)
    "parity",             // 1 when the number of empty squares is odd
    "must_pass",          // 1 when the side to move has no placement
    "opponent_must_pass", // 1 when the opponent has no placement
];

/// Phases: by the share of the squares left at the start that hold a disc.
const PHASES: usize = 10;

/// Column masks of a frame: the squares not in its first column, and not in its last.
const fn columns_mask(width: u32, skip: u32) -> u128 {
    let mut mask = 0u128;
    let mut i = 0;
    while i < 128 {
        if i % width != skip {
            mask |= 1u128 << i;
        }
        i += 1;
    }
    mask
}

const NOT_FIRST_8: u128 = columns_mask(8, 0);
const NOT_LAST_8: u128 = columns_mask(8, 7);
const NOT_FIRST_10: u128 = columns_mask(10, 0);
const NOT_LAST_10: u128 = columns_mask(10, 9);

/// Single steps and line fills in the eight directions of a frame: 0-3 east, south,
/// south-east, south-west (growing the index), 4-7 their opposites (`d` and `d + 4` are one
/// line direction).
#[derive(Clone, Copy)]
struct Steps<B> {
    not_first: B,
    not_last: B,
}

impl<B: Bits> Steps<B> {
    #[inline(always)]
    fn of<F: Frame<B = B>>() -> Self {
        if F::W == 8 {
            Steps { not_first: B::from_u128(NOT_FIRST_8), not_last: B::from_u128(NOT_LAST_8) }
        } else {
            debug_assert_eq!(F::W, 10);
            Steps { not_first: B::from_u128(NOT_FIRST_10), not_last: B::from_u128(NOT_LAST_10) }
        }
    }

    /// What the shifts of direction `d` must not land on (the row wrap), as a mask to keep.
    #[inline(always)]
    fn landing(&self, d: usize) -> Option<B> {
        match d {
            0 | 2 | 7 => Some(self.not_first),
            3 | 4 | 6 => Some(self.not_last),
            _ => None,
        }
    }

    /// Every square of `x` moved `k` steps in direction `d`, unmasked (the caller masks).
    #[inline(always)]
    fn raw<const W: u32>(x: B, d: usize, k: u32) -> B {
        let step = [1, W, W + 1, W - 1][d % 4] * k;
        if d < 4 {
            x << step
        } else {
            x >> step
        }
    }

    /// Every square of `x` moved one step in direction `d` (squares leaving the frame's
    /// columns are dropped; the caller masks with the playable squares).
    #[inline(always)]
    fn go<const W: u32>(&self, x: B, d: usize) -> B {
        let moved = Self::raw::<W>(x, d, 1);
        match self.landing(d) {
            Some(keep) => moved & keep,
            None => moved,
        }
    }

    /// The squares next to a square of `x`, in any direction.
    #[inline(always)]
    fn dilate<const W: u32>(&self, x: B) -> B {
        let mut out = B::ZERO;
        for d in 0..8 {
            out |= self.go::<W>(x, d);
        }
        out
    }

    /// `from` and the squares reached from it in direction `d` through squares of `through`
    /// (Kogge-Stone occluded fill).
    #[inline(always)]
    fn fill<const W: u32>(&self, from: B, through: B, d: usize) -> B {
        let mut reached = from;
        let mut open = match self.landing(d) {
            Some(keep) => through & keep,
            None => through,
        };
        let mut k = 1;
        while k < W - 1 {
            reached |= open & Self::raw::<W>(reached, d, k);
            open &= Self::raw::<W>(open, d, k);
            k *= 2;
        }
        reached
    }
}

/// The frame width as a const parameter: the generic code below is written for `Steps::<W>`.
#[inline(always)]
fn features_of<F: Frame>(b: &Board<F>, out: &mut [f32]) {
    if F::W == 8 {
        features_in::<F, 8>(b, out)
    } else {
        features_in::<F, 10>(b, out)
    }
}

#[inline(always)]
fn count<B: Bits>(x: B) -> f32 {
    x.count() as f32
}

#[inline(always)]
fn features_in<F: Frame, const W: u32>(b: &Board<F>, out: &mut [f32]) {
    let s = Steps::<F::B>::of::<F>();
    let (me, opp, playable) = (b.me, b.opponent, b.playable);
    let occupied = me | opp;
    let empty = playable & !occupied;

    // The shape: which squares have a playable neighbour in each direction.
    let mut has = [F::B::ZERO; 8];
    for (d, has) in has.iter_mut().enumerate() {
        *has = s.go::<W>(playable, (d + 4) % 8) & playable;
    }
    let mut walled = [F::B::ZERO; 4];
    for (a, walled) in walled.iter_mut().enumerate() {
        *walled = playable & !(has[a] & has[a + 4]);
    }
    let corners = walled[0] & walled[1] & walled[2] & walled[3];
    let inner = has.iter().fold(playable, |m, &h| m & h);
    let edges = playable & !inner & !corners;
    let empty_corners = corners & empty;
    let x_squares = (s.go::<W>(empty_corners, 2)
        | s.go::<W>(empty_corners, 3)
        | s.go::<W>(empty_corners, 6)
        | s.go::<W>(empty_corners, 7))
        & playable
        & !corners;
    let c_squares = (s.go::<W>(empty_corners, 0)
        | s.go::<W>(empty_corners, 1)
        | s.go::<W>(empty_corners, 4)
        | s.go::<W>(empty_corners, 5))
        & playable
        & !corners
        & !x_squares;

    // Mobility.
    let my_moves = F::mobility(me, opp, empty);
    let their_moves = F::mobility(opp, me, empty);
    let (m1, m2) = (count(my_moves), count(their_moves));

    // Potential mobility and frontier.
    let near_empty = s.dilate::<W>(empty);
    let near_me = s.dilate::<W>(me) & empty;
    let near_opp = s.dilate::<W>(opp) & empty;

    // Stable discs: safe along a line direction when walled there, or when that line has no
    // empty square (nothing can be played on it), or next to a stable disc of the same colour.
    let mut safe = walled;
    for (a, safe) in safe.iter_mut().enumerate() {
        let open = s.fill::<W>(empty, occupied, a) | s.fill::<W>(empty, occupied, a + 4);
        *safe |= occupied & !open;
    }
    let stable = |discs: F::B| {
        let mut stable = discs & safe[0] & safe[1] & safe[2] & safe[3];
        if stable.is_zero() {
            return stable;
        }
        loop {
            let mut next = discs;
            for (a, &safe) in safe.iter().enumerate() {
                next &= safe | s.go::<W>(stable, a) | s.go::<W>(stable, a + 4);
            }
            if next == stable {
                return stable;
            }
            stable = next;
        }
    };

    let diff = |set: F::B| count(me & set) - count(opp & set);
    out[0] = count(me) - count(opp);
    out[1] = m1 - m2;
    out[2] = (m1 - m2) / (m1 + m2 + 2.0);
    out[3] = count(near_opp) - count(near_me);
    out[4] = diff(near_empty);
    out[5] = diff(corners);
    out[6] = count(my_moves & corners) - count(their_moves & corners);
    out[7] = diff(x_squares);
    out[8] = diff(c_squares);
    out[9] = diff(edges);
    out[10] = count(stable(me)) - count(stable(opp));
    out[11] = (empty.count() & 1) as f32;
    out[12] = (m1 == 0.0) as u8 as f32;
    out[13] = (m2 == 0.0) as u8 as f32;
}

/// The pattern evaluation's global terms (reversi/patterns.rs), mine minus theirs: mobility,
/// potential mobility, and parity (1 when the empties are odd).
#[inline(always)]
pub(super) fn pattern_globals<F: Frame>(b: &Board<F>) -> [f32; 3] {
    if F::W == 8 {
        globals_in::<F, 8>(b)
    } else {
        globals_in::<F, 10>(b)
    }
}

#[inline(always)]
fn globals_in<F: Frame, const W: u32>(b: &Board<F>) -> [f32; 3] {
    let s = Steps::<F::B>::of::<F>();
    let (me, opp) = (b.me, b.opponent);
    let empty = b.playable & !(me | opp);
    let mobility = count(F::mobility(me, opp, empty)) - count(F::mobility(opp, me, empty));
    let potential = count(s.dilate::<W>(opp) & empty) - count(s.dilate::<W>(me) & empty);
    [mobility, potential, (empty.count() & 1) as f32]
}

impl<F: Frame> Board<F> {
    /// The phase: discs placed since the start (4 discs) over the squares there were to fill.
    fn phase(&self) -> usize {
        let discs = (self.me | self.opponent).count() as usize;
        let squares = (self.playable.count() as usize).max(5);
        (discs.saturating_sub(4) * PHASES / (squares - 4)).min(PHASES - 1)
    }
}

impl Features for Reversi {
    const NAMES: &'static [&'static str] = NAMES;
    const PHASES: usize = PHASES;

    fn phase(&self) -> usize {
        with_board!(self, b => b.phase())
    }

    fn features(&self, out: &mut [f32]) {
        with_fast_board!(self, b => features_of(&b, out))
    }

    fn pattern_margin(&self, patterns: &[std::sync::Arc<super::patterns::Patterns>]) -> Option<f32> {
        let patterns = patterns.iter().find(|p| p.layout().reads(self))?;
        Some(patterns.margin(self))
    }

    fn probcut_sigma(&self, patterns: &[std::sync::Arc<super::patterns::Patterns>], depth: i32) -> Option<i32> {
        patterns.iter().find(|p| p.layout().reads(self))?.probcut_sigma(depth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Position;

    const START_8: &str = "8 ......../......../......../...wb.../...bw.../......../......../........ b";

    fn features(notation: &str) -> Vec<f32> {
        let out = crate::search::eval::testing::features_of::<Reversi>(notation);
        let p = Reversi::from_notation(notation).unwrap();
        // The generic frame (and the AVX2 one, where the CPU has it) agree with the plain one.
        let mut generic = vec![f32::NAN; Reversi::COUNT];
        p.in_generic_frame().features(&mut generic);
        assert_eq!(out, generic);
        out
    }

    fn named(values: &[f32]) -> Vec<(&'static str, f32)> {
        crate::search::eval::testing::named::<Reversi>(values)
    }

    #[test]
    fn features_of_the_8x8_start_are_even() {
        // Four moves each, every disc on the frontier, 60 empty squares.
        let f = features(START_8);
        let expected = [0.0; 14];
        assert_eq!(named(&f), named(&expected));
    }

    #[test]
    fn features_after_d3_are_from_whites_view() {
        // Black played d3, flipping d4: Black d3 d4 e4 d5, White e5; White to move.
        let f = features("8 ......../......../...b..../...bb.../...bw.../......../......../........ w");
        assert_eq!(f[0], -3.0, "discs");
        assert_eq!(f[1], 0.0, "mobility: White c3 e3 c5, Black f4 f5 f6");
        assert_eq!(f[2], 0.0, "mobility share");
        // Empty squares next to a black disc: c2 d2 e2 c3 e3 f3 c4 f4 c5 f5 c6 d6 e6 (13); next
        // to White's e5: f4 f5 f6 d6 e6 (5).
        assert_eq!(f[3], 13.0 - 5.0, "potential mobility");
        assert_eq!(f[4], 1.0 - 4.0, "frontier: every disc touches an empty square");
        assert_eq!(f[11], 1.0, "parity: 59 empty squares");
        assert_eq!(&f[12..], &[0.0, 0.0]);
    }

    #[test]
    fn features_of_corners_x_and_c_squares_on_8x8() {
        // Black on a1 (a corner) and b2 (no X-square: its corner is taken); White on g7 (the
        // X-square of the empty h8) and h7 (a C-square of h8). Black to move.
        let f = features("8 b......./.b....../......../...wb.../...bw.../......../......ww/........ b");
        assert_eq!(f[0], 0.0, "discs: 4 each");
        assert_eq!(f[5], 1.0, "corners: a1");
        assert_eq!(f[6], 0.0, "corner moves: none");
        assert_eq!(f[7], -1.0, "x-squares: g7");
        assert_eq!(f[8], -1.0, "c-squares: h7");
        assert_eq!(f[9], -1.0, "edges: h7 (a C-square is an edge square too)");
        assert_eq!(f[10], 1.0, "stable: a1");
    }

    #[test]
    fn features_count_a_full_edge_as_stable() {
        // The top row full of Black, White to move: a1 and h1 are corners, b1-g1 edges, and all
        // eight are stable (the row has no empty square; each is walled north).
        let f = features("8 bbbbbbbb/......../......../...wb.../...bw.../......../......../........ w");
        assert_eq!(f[5], -2.0, "corners");
        assert_eq!(f[9], -6.0, "edges");
        assert_eq!(f[10], -8.0, "stable");
        // Without h1 the row has an empty square: only a1 and what it protects along the row
        // (b1..g1 are each next to a stable black disc to the west, and walled north) stay.
        let f = features("8 bbbbbbb./......../......../...wb.../...bw.../......../......../........ w");
        assert_eq!(f[10], -7.0, "a1 and, leaning on it, b1-g1");
        assert_eq!(f[7], 0.0, "x-squares: g2 is empty");
        assert_eq!(f[8], -1.0, "c-squares: g1 next to the empty h1");
    }

    #[test]
    fn features_treat_squares_walled_by_holes_as_corners() {
        // a1 is a hole: b1 (walled west by the hole, and by the edge along every other line)
        // and a2 become corner-like. Black holds both; both are stable.
        let f = features("8 #b....../b......./......../...wb.../...bw.../......../......../........ b");
        assert_eq!(f[5], 2.0, "corners b1, a2 (and h1, a8, h8 are empty)");
        assert_eq!(f[10], 2.0, "stable");
        assert_eq!(f[7], 0.0, "b2 is empty");
    }

    #[test]
    fn features_of_the_octagon_find_the_squares_next_to_its_cuts() {
        // c1 and a3 are corner-like (the cuts a1 b1 a2 wall them in), so is h1 (cuts i1 j1 j2).
        let f = features(
            "octagon --b....w--/-........-/b........./........../....wb..../....bw..../........../........../-........-/--......-- b",
        );
        assert_eq!(f[0], 4.0 - 3.0, "discs");
        assert_eq!(f[5], 2.0 - 1.0, "corners: c1 a3 against h1");
        assert_eq!(f[10], 2.0 - 1.0, "stable: the same three");
    }

    #[test]
    fn features_flag_a_side_that_must_pass() {
        // White's only disc is b1; no line from the empty d4 reaches it, so neither side can
        // place there.
        let f = features("4 bwbb/bbbb/bbbb/bbb. w");
        assert_eq!(f[0], 1.0 - 14.0, "discs");
        assert_eq!(f[11], 1.0, "one empty square");
        assert_eq!(&f[12..], &[1.0, 1.0], "no placement for either side");
    }

    #[test]
    fn features_phases_run_from_the_start_to_the_full_board() {
        let phase = |n: &str| Reversi::from_notation(n).unwrap().phase();
        assert_eq!(phase(START_8), 0);
        assert_eq!(phase("8 ......../......../...b..../...bb.../...bw.../......../......../........ w"), 0);
        assert_eq!(phase("4 bwbb/bbbb/bbbb/bbb. w"), PHASES - 1);
        // 6x6 half full: 20 discs, 16 of the 32 to place.
        assert_eq!(phase("6 bbbbbb/bbbbbb/bbwbbb/bb..../....../...... b"), 5);
    }

    /// The features counted square by square from the notation characters, with none of the
    /// bit tricks: what the bitboard code must agree with.
    fn direct(p: &Reversi) -> Vec<f32> {
        use crate::square::Coord;
        let n = p.shape().size() as i32;
        let at = |r: i32, c: i32| {
            if r < 0 || c < 0 || r >= n || c >= n {
                '-'
            } else {
                p.cell_char(Coord::new(r as u8, c as u8))
            }
        };
        let on = |r: i32, c: i32| !matches!(at(r, c), '-' | '#');
        let me = if p.to_move() == crate::game::Player::Black { 'b' } else { 'w' };
        let them = if me == 'b' { 'w' } else { 'b' };
        const LINES: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];
        const AROUND: [(i32, i32); 8] = [(0, 1), (1, 0), (1, 1), (1, -1), (0, -1), (-1, 0), (-1, -1), (-1, 1)];
        let walled = |r: i32, c: i32, (dr, dc): (i32, i32)| !on(r + dr, c + dc) || !on(r - dr, c - dc);
        let corner = |r: i32, c: i32| on(r, c) && LINES.iter().all(|&l| walled(r, c, l));
        let squares: Vec<(i32, i32)> =
            (0..n).flat_map(|r| (0..n).map(move |c| (r, c))).filter(|&(r, c)| on(r, c)).collect();
        let near = |r: i32, c: i32, what: char| {
            AROUND.iter().any(|&(dr, dc)| on(r + dr, c + dc) && at(r + dr, c + dc) == what)
        };
        let x_square = |r: i32, c: i32| {
            !corner(r, c)
                && [(1, 1), (1, -1), (-1, 1), (-1, -1)]
                    .iter()
                    .any(|&(dr, dc)| corner(r + dr, c + dc) && at(r + dr, c + dc) == '.')
        };
        let c_square = |r: i32, c: i32| {
            !corner(r, c)
                && !x_square(r, c)
                && [(0, 1), (1, 0), (0, -1), (-1, 0)]
                    .iter()
                    .any(|&(dr, dc)| corner(r + dr, c + dc) && at(r + dr, c + dc) == '.')
        };
        let edge = |r: i32, c: i32| !corner(r, c) && AROUND.iter().any(|&(dr, dc)| !on(r + dr, c + dc));
        let full_line = |r: i32, c: i32, (dr, dc): (i32, i32)| {
            [1, -1].iter().all(|&k| {
                let (mut rr, mut cc) = (r + k * dr, c + k * dc);
                while on(rr, cc) {
                    if at(rr, cc) == '.' {
                        return false;
                    }
                    rr += k * dr;
                    cc += k * dc;
                }
                true
            })
        };
        let stable = |colour: char| {
            let mut set = std::collections::HashSet::new();
            loop {
                let next: std::collections::HashSet<(i32, i32)> = squares
                    .iter()
                    .copied()
                    .filter(|&(r, c)| at(r, c) == colour)
                    .filter(|&(r, c)| {
                        LINES.iter().all(|&(dr, dc)| {
                            walled(r, c, (dr, dc))
                                || full_line(r, c, (dr, dc))
                                || set.contains(&(r + dr, c + dc))
                                || set.contains(&(r - dr, c - dc))
                        })
                    })
                    .collect();
                if next == set {
                    return set.len() as f32;
                }
                set = next;
            }
        };
        let count = |f: &dyn Fn(i32, i32) -> bool| squares.iter().filter(|&&(r, c)| f(r, c)).count() as f32;
        let diff = |f: &dyn Fn(i32, i32) -> bool| {
            count(&|r, c| at(r, c) == me && f(r, c)) - count(&|r, c| at(r, c) == them && f(r, c))
        };
        let placements = |q: &Reversi| q.legal_moves().filter(|m| !m.is_pass()).collect::<Vec<_>>();
        let mut swapped = p.to_notation();
        swapped.pop();
        swapped.push(them);
        let other = Reversi::from_notation(&swapped).unwrap();
        let (mine, theirs) = (placements(p), placements(&other));
        let corner_moves = |moves: &[super::super::Move]| {
            moves.iter().filter(|m| m.coord(p.shape()).is_some_and(|c| corner(c.row as i32, c.col as i32))).count()
                as f32
        };
        let (m1, m2) = (mine.len() as f32, theirs.len() as f32);
        vec![
            diff(&|_, _| true),
            m1 - m2,
            (m1 - m2) / (m1 + m2 + 2.0),
            count(&|r, c| at(r, c) == '.' && near(r, c, them)) - count(&|r, c| at(r, c) == '.' && near(r, c, me)),
            diff(&|r, c| near(r, c, '.')),
            diff(&corner),
            corner_moves(&mine) - corner_moves(&theirs),
            diff(&x_square),
            diff(&c_square),
            diff(&edge),
            stable(me) - stable(them),
            (count(&|r, c| at(r, c) == '.') as u32 % 2) as f32,
            (m1 == 0.0) as u8 as f32,
            (m2 == 0.0) as u8 as f32,
        ]
    }

    #[test]
    fn features_match_a_direct_count_on_random_games() {
        use crate::rng::SplitMix64;
        let starts = [
            START_8,
            "8 ......../.#....../......#./...wb.../...bw.../.#....../......../....#... b",
            "6 ....../....../..wb../..bw../....../...... b",
            "6 ....#./#...../..wb../..bw../....../...... b",
            "10 ........../........../........../........../....wb..../....bw..../........../........../........../.......... b",
            "10 ........../.#......../........../........../....wb..../....bw..../........../........#./........../.......... b",
            "octagon --......--/-........-/........../........../....wb..../....bw..../........../........../-........-/--......-- b",
        ];
        let mut rng = SplitMix64::new(11);
        let mut checked = 0;
        for start in starts {
            for _ in 0..6 {
                let mut p = Reversi::from_notation(start).unwrap();
                while !p.is_over() {
                    let mut got = vec![f32::NAN; Reversi::COUNT];
                    p.features(&mut got);
                    assert_eq!(named(&got), named(&direct(&p)), "{}", p.to_notation());
                    checked += 1;
                    let mv = p.sample_move(&mut rng).unwrap();
                    p.play_unchecked(mv);
                }
            }
        }
        assert!(checked > 1000);
    }
}
