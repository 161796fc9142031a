//! Features of a Cephalopod position for the learned evaluation (`search::eval`): counts from
//! the side to move's view, the same on every rectangle.
//!
//! Besides the dice and their pips, the features look one placement ahead through the capture
//! table: the squares where a capture is possible now, the best gain a capture offers the mover
//! (and the opponent, were it their turn), and the dice that some capture could take.

use super::captures::{self, CaptureTable, SUBSETS};
use super::Cephalopod;
use crate::game::Player;
use crate::search::eval::{phase_by_share, Features};
use crate::search::tuples::{Family, LocalPatterns, Tuples, MAX_CELLS};
use crate::square::Rect;

/// The features, in order (mine minus the opponent's unless said otherwise).
const NAMES: &[&str] = &[
    "dice",            // dice (squares covered)
    "pips",            // pips showing
    "ones",            // dice showing 1
    "twos",            // ... 2
    "threes",          // ... 3
    "fours",           // ... 4
    "fives",           // ... 5
    "sixes",           // ... 6 (never captured)
    "capture_squares", // empty squares with a capture set (not a difference)
    "best_capture",    // the mover's best capture gain over a plain placement (at least 0)
    "best_threat",     // the same for the opponent, on this board (at least 0)
    "vulnerable",      // dice in some capture set of an empty square
    "parity",          // 1 when the number of empty squares is odd
];

/// Phases: by the share of the squares covered.
const PHASES: usize = 8;

impl LocalPatterns for Cephalopod {
    fn family() -> &'static Family {
        Family::cross()
    }

    fn local_patterns(&self, out: &mut [u32; MAX_CELLS]) -> usize {
        let mine_white = self.side == Player::White;
        let state = |square: u8| -> u32 {
            if square == Rect::NONE {
                return 1;
            }
            match self.pips[square as usize] as u32 {
                0 => 0,
                pips if (self.white >> square & 1 == 1) == mine_white => 1 + pips,
                pips => 7 + pips,
            }
        };
        for (square, n) in self.rect.neighbours.iter().enumerate() {
            // Up, right, down, left: the order round the square.
            out[square] = [n[0], n[2], n[3], n[1]].iter().rev().fold(0u32, |code, &s| code * 14 + state(s)) * 14
                + state(square as u8);
        }
        self.rect.len()
    }
}

impl Features for Cephalopod {
    const NAMES: &'static [&'static str] = NAMES;
    const PHASES: usize = PHASES;

    fn tuple_margin(&self, tuples: &Tuples) -> Option<f32> {
        Some(tuples.margin(self))
    }

    fn phase(&self) -> usize {
        phase_by_share(self.occupied.count_ones(), self.rect.len(), PHASES)
    }

    // `slot` is both a bit of a capture set and an index into the neighbours.
    #[allow(clippy::needless_range_loop)]
    fn features(&self, out: &mut [f32]) {
        let theirs_white = self.side == Player::Black;
        let white = self.white;
        let black = self.occupied & !white;
        let (mine, theirs) = if theirs_white { (black, white) } else { (white, black) };

        // Dice by pips: +1 for mine, -1 for theirs.
        let mut by_pips = [0i32; 7];
        let mut dice = self.occupied;
        while dice != 0 {
            let square = dice.trailing_zeros();
            dice &= dice - 1;
            by_pips[self.pips[square as usize] as usize] += if mine >> square & 1 == 1 { 1 } else { -1 };
        }
        let pips: i32 = (1..7).map(|p| p as i32 * by_pips[p]).sum();

        // One placement ahead.
        let table = CaptureTable::get();
        let (mut capture_squares, mut best_capture, mut best_threat) = (0, 0, 0);
        let mut vulnerable = 0u64;
        let mut empties = self.empties();
        while empties != 0 {
            let square = empties.trailing_zeros() as usize;
            empties &= empties - 1;
            let mut valid = table.valid(captures::key(self.neighbour_pips(square as u8)));
            if valid == 0 {
                continue;
            }
            capture_squares += 1;
            let n = self.rect.neighbours[square];
            // Neighbour slots holding a die of each side (a missing neighbour holds none).
            let (mut my_slots, mut their_slots) = (0u8, 0u8);
            for slot in 0..4 {
                let s = n[slot] as u32;
                if s < 64 {
                    my_slots |= ((mine >> s & 1) as u8) << slot;
                    their_slots |= ((theirs >> s & 1) as u8) << slot;
                }
            }
            let mut taken = 0u8;
            while valid != 0 {
                let subset = SUBSETS[valid.trailing_zeros() as usize];
                valid &= valid - 1;
                taken |= subset;
                let (k, o, m) = (
                    subset.count_ones() as i32,
                    (subset & their_slots).count_ones() as i32,
                    (subset & my_slots).count_ones() as i32,
                );
                // A capture of k dice, o of them theirs, changes the difference by 1 + 2o - k:
                // 2o - k more than a plain placement.
                best_capture = best_capture.max(2 * o - k);
                best_threat = best_threat.max(2 * m - k);
            }
            for slot in 0..4 {
                if taken >> slot & 1 == 1 {
                    vulnerable |= 1 << n[slot];
                }
            }
        }

        out[0] = mine.count_ones() as f32 - theirs.count_ones() as f32;
        out[1] = pips as f32;
        for p in 1..7 {
            out[1 + p] = by_pips[p] as f32;
        }
        out[8] = capture_squares as f32;
        out[9] = best_capture as f32;
        out[10] = best_threat as f32;
        out[11] = (vulnerable & mine).count_ones() as f32 - (vulnerable & theirs).count_ones() as f32;
        out[12] = (self.empties().count_ones() & 1) as f32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::eval::testing::assert_features;

    fn features(notation: &str) -> Vec<f32> {
        crate::search::eval::testing::features_of::<Cephalopod>(notation)
    }

    /// `position` with its square `i` moved to `to(i)`.
    fn mapped(position: &Cephalopod, to: impl Fn(u8) -> u8) -> Cephalopod {
        let mut image = *position;
        (image.pips, image.white, image.occupied) = ([0; 65], 0, 0);
        for square in 0..position.rect.len() as u8 {
            let t = to(square);
            image.pips[t as usize] = position.pips[square as usize];
            image.white |= (position.white >> square & 1) << t;
            image.occupied |= (position.occupied >> square & 1) << t;
        }
        image
    }

    #[test]
    fn local_patterns_value_mirrored_and_turned_positions_equally() {
        use crate::game::Position;
        use crate::rng::SplitMix64;
        let n = Cephalopod::PHASES * crate::search::tuples::params::<Cephalopod>();
        let weights: Vec<f32> = (0..n).map(|i| ((i * 7919) % 1009) as f32 / 100.0 - 5.0).collect();
        let tuples = Tuples::new::<Cephalopod>(&weights).unwrap();
        let mut game = Cephalopod::new(5, 5).unwrap();
        let mut rng = SplitMix64::new(3);
        let mut plies = 0;
        while let Some(mv) = game.sample_move(&mut rng) {
            game.play_unchecked(mv);
            plies += 1;
            let value = tuples.margin(&game);
            let mirror = mapped(&game, |s| s / 5 * 5 + (4 - s % 5));
            let transpose = mapped(&game, |s| s % 5 * 5 + s / 5);
            for image in [mirror, transpose] {
                assert!((tuples.margin(&image) - value).abs() < 1e-3, "{}", game.to_notation());
            }
        }
        assert!(plies > 10);
    }

    #[test]
    fn features_of_the_empty_board_are_zero_but_parity() {
        let mut expected = [0.0; 13];
        expected[12] = 1.0; // 25 empty squares
        assert_features::<Cephalopod>("5x5 ...../...../...../...../..... b", &expected);
    }

    #[test]
    fn features_see_a_capture_of_two_opponent_dice() {
        // 3x3: White 1 on a1 and 2 on c1, Black 3 on b2; Black to move. b1 touches a1, c1 and
        // b2: {a1,c1} = 3, {a1,b2} = 4, {c1,b2} = 5, {a1,c1,b2} = 6 are all capture sets.
        let f = features("3x3 1w.2w/.3b./... b");
        assert_eq!(f[0], 1.0 - 2.0, "dice");
        assert_eq!(f[1], 3.0 - 3.0, "pips");
        assert_eq!(&f[2..8], &[-1.0, -1.0, 1.0, 0.0, 0.0, 0.0], "by pips");
        // b1 (a1 c1 b2), a2 (a1 b2: 4), c2 (c1 b2: 5); b3, a3, c3 touch one die at most.
        assert_eq!(f[8], 3.0, "capture squares b1 a2 c2");
        assert_eq!(f[9], 2.0, "best capture: a1 and c1 at b1, 2*2 - 2");
        assert_eq!(f[10], 0.0, "White's best: taking b2 always takes one of its own as well");
        assert_eq!(f[11], 1.0 - 2.0, "vulnerable: all three dice");
        assert_eq!(f[12], 0.0, "six empty squares");
    }

    #[test]
    fn features_from_whites_view_and_sixes_are_safe() {
        // White to move: White 6 on a1, Black 1s on b1 and a2, Black 5 on c3.
        let f = features("3x3 6w1b./1b../..5b w");
        assert_eq!(f[0], 1.0 - 3.0, "dice");
        assert_eq!(f[1], 6.0 - 7.0, "pips");
        assert_eq!(&f[2..8], &[-2.0, 0.0, 0.0, 0.0, -1.0, 1.0], "by pips");
        // b2 touches b1 and a2 (1 + 1): a capture of two black dice; nothing else sums to 6
        // with two dice or more (c2 touches only c3, b3 only c3).
        assert_eq!(f[8], 1.0, "capture squares: b2");
        assert_eq!(f[9], 2.0, "White takes two black dice");
        assert_eq!(f[10], 0.0, "Black would take two of its own");
        assert_eq!(f[11], -2.0, "vulnerable: b1 and a2");
        assert_eq!(f[12], 1.0, "five empty squares");
    }
}
