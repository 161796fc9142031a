//! Features of a Strands position for the learned evaluation (`search::eval`): group sizes and
//! room to grow, from the side to move's view, the same on every layout.
//!
//! The game is decided by the largest groups, so the features are the three largest groups of
//! each side, how many groups and stones each has, the empty cells next to each side's stones
//! and largest group, and each side's *potential*: its largest group were every empty cell its
//! own (the largest connected set of its stones and the empty cells).

use super::Strands;
use crate::game::Position;
use crate::hex::HexBoard;
use crate::search::eval::{phase_by_share, Features};
use crate::search::tuples::{hexagon_contents, Family, LocalPatterns, Tuples, MAX_CELLS};

/// The features, in order (mine minus the opponent's unless said otherwise).
const NAMES: &[&str] = &[
    "largest",           // the largest group's size
    "second",            // the second largest (0 if none)
    "third",             // the third largest
    "groups",            // groups
    "stones",            // stones
    "liberties",         // empty cells next to my stones
    "largest_liberties", // empty cells next to my largest group (the first of that size)
    "potential",         // the largest connected set of my stones and the empty cells
    "singletons",        // groups of one stone
];

/// Phases: by the share of the cells covered.
const PHASES: usize = 8;

/// What the features need of one side's stones.
struct Side {
    top: [u32; 3],
    groups: u32,
    singletons: u32,
    stones: u32,
    liberties: u32,
    largest_liberties: u32,
    potential: u32,
}

impl Side {
    fn of(board: &HexBoard, stones: u128, empty: u128) -> Side {
        let mut top = [0u32; 3];
        let (mut groups, mut singletons, mut largest_group) = (0, 0, 0u128);
        for group in board.groups(stones) {
            let size = group.count_ones();
            groups += 1;
            singletons += (size == 1) as u32;
            if size > top[0] {
                largest_group = group;
            }
            // Insert into the three largest, kept sorted from the largest.
            if size > top[2] {
                top[2] = size;
                if top[2] > top[1] {
                    top.swap(1, 2);
                    if top[1] > top[0] {
                        top.swap(0, 1);
                    }
                }
            }
        }
        let potential = board.groups(stones | empty).map(u128::count_ones).max().unwrap_or(0);
        Side {
            top,
            groups,
            singletons,
            stones: stones.count_ones(),
            liberties: (board.dilate(stones) & empty).count_ones(),
            largest_liberties: (board.dilate(largest_group) & empty).count_ones(),
            potential,
        }
    }
}

impl LocalPatterns for Strands {
    fn family() -> &'static Family {
        Family::hexagon()
    }

    fn local_patterns(&self, out: &mut [u32; MAX_CELLS]) -> usize {
        let (mine, theirs) = match self.to_move() {
            crate::game::Player::Black => (self.black, self.white),
            crate::game::Player::White => (self.white, self.black),
        };
        hexagon_contents(self.board, mine, theirs, out)
    }
}

impl Features for Strands {
    const NAMES: &'static [&'static str] = NAMES;
    const PHASES: usize = PHASES;

    fn tuple_margin(&self, tuples: &Tuples) -> Option<f32> {
        Some(tuples.margin(self))
    }

    fn phase(&self) -> usize {
        phase_by_share((self.black | self.white).count_ones(), self.board.len(), PHASES)
    }

    fn features(&self, out: &mut [f32]) {
        let board = self.board;
        let mover = self.to_move();
        let empty = board.all & !(self.black | self.white);
        let me = Side::of(board, self.stones(mover), empty);
        let them = Side::of(board, self.stones(mover.other()), empty);
        let diff = |a: u32, b: u32| a as f32 - b as f32;
        out[0] = diff(me.top[0], them.top[0]);
        out[1] = diff(me.top[1], them.top[1]);
        out[2] = diff(me.top[2], them.top[2]);
        out[3] = diff(me.groups, them.groups);
        out[4] = diff(me.stones, them.stones);
        out[5] = diff(me.liberties, them.liberties);
        out[6] = diff(me.largest_liberties, them.largest_liberties);
        out[7] = diff(me.potential, them.potential);
        out[8] = diff(me.singletons, them.singletons);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::eval::testing::{assert_features, assert_named};

    #[test]
    fn features_after_blacks_opening() {
        // hex4 after Black covered d3 (an inner cell: six empty neighbours); White to move.
        // White's potential: the 36 other cells, connected; Black's: the whole board.
        let expected = [-1.0, 0.0, 0.0, -1.0, -1.0, -6.0, -6.0, -1.0, -1.0];
        assert_features::<Strands>("up-to 4334/32223/322223/42b1224/322223/32223/4334 w", &expected);
    }

    #[test]
    fn features_of_a_small_board() {
        // hex2: Black a1 a2 (a pair) and c1, White b1 and b3; b2 and c2 empty; White to move.
        // Groups: White [1, 1], Black [2, 1]. Both sides touch b2 and c2; each largest group
        // (White's b1, the first of its size, and Black's pair) touches b2 only. White with the
        // empty cells: b1 b2 b3 c2 (4); Black: all five of its stones and empties (5).
        let expected = [-1.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, -1.0, 1.0];
        assert_features::<Strands>("up-to bb/w2w/b2 w", &expected);
        let mut p = Strands::from_notation("up-to bb/w2w/b2 w").unwrap();
        assert_eq!(p.phase(), 5); // 5 of 7 covered
        let mv = p.parse_move("b2").unwrap();
        p.play_unchecked(mv);
        // White joined b1 b2 b3 into a group of 3, touching c2; Black (to move) has [2, 1], only
        // c1 touching c2. With c2: Black's best is c1 c2 (2), White's b1 b2 b3 c2 (4).
        let mut f = vec![0.0; Strands::COUNT];
        p.features(&mut f);
        assert_named::<Strands>(&f, &[-1.0, 1.0, 0.0, 1.0, 0.0, 0.0, -1.0, -2.0, 1.0]);
    }
}
