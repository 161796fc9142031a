//! Features of a Rive position for the learned evaluation (`search::eval`): counts from the side
//! to move's view, the same on every board.
//!
//! Groups hold stones of both colours, and any stone can still be removed by a capture until
//! the board is full; so besides the counts, the features look one placement ahead: the legal
//! cells that capture now and the best change of the stone difference such a capture could
//! make.

use super::groups::Groups;
use super::Rive;
use crate::game::Player;
use crate::search::eval::{phase_by_share, Features};
use crate::search::tuples::{hexagon_contents, Family, LocalPatterns, Tuples, MAX_CELLS};

/// The features, in order (mine minus the opponent's unless said otherwise).
const NAMES: &[&str] = &[
    "stones",        // stones
    "largest_share", // stones in the largest groups (all those of the largest size)
    "liberties",     // empty cells next to a stone of mine
    "majorities",    // groups where I have more stones
    "singletons",    // stones alone in their group
    "groups",        // groups on the board (not a difference)
    "largest",       // the largest group's size (not a difference)
    "capture_cells", // legal cells that capture now (not a difference)
    "best_capture",  // the best change of the difference a legal placement can make, minus 1
    "isolated",      // empty cells next to no stone (not a difference)
    "parity",        // 1 when the number of empty cells is odd
    "pending",       // stones still to remove in a capture under way (the single-stone form)
];

/// Phases: by the share of the cells covered.
const PHASES: usize = 8;

impl LocalPatterns for Rive {
    fn family() -> &'static Family {
        Family::hexagon()
    }

    fn local_patterns(&self, out: &mut [u32; MAX_CELLS]) -> usize {
        let (mine, theirs) = match self.side {
            Player::Black => (self.black, self.white),
            Player::White => (self.white, self.black),
        };
        hexagon_contents(self.board, mine, theirs, out)
    }
}

impl Features for Rive {
    const NAMES: &'static [&'static str] = NAMES;
    const PHASES: usize = PHASES;

    fn tuple_margin(&self, tuples: &Tuples) -> Option<f32> {
        Some(tuples.margin(self))
    }

    fn phase(&self) -> usize {
        phase_by_share(self.occupied().count_ones(), self.board.len(), PHASES)
    }

    fn features(&self, out: &mut [f32]) {
        let board = self.board;
        let (mine, theirs) = match self.side {
            Player::Black => (self.black, self.white),
            Player::White => (self.white, self.black),
        };
        let occupied = mine | theirs;
        let empty = board.all & !occupied;
        let groups = Groups::of(board, occupied);

        let (mut share, mut majorities, mut singletons, mut largest, mut count) = (0i32, 0i32, 0i32, 0u32, 0u32);
        for (g, size) in groups.iter() {
            let m = (g & mine).count_ones() as i32;
            let t = size as i32 - m;
            if size > largest {
                share = 0;
            }
            if size >= largest {
                share += m - t;
            }
            majorities += (m > t) as i32 - (t > m) as i32;
            if size == 1 {
                singletons += m - t;
            }
            largest = largest.max(size);
            count += 1;
        }

        // One placement ahead (no placement while a capture is under way).
        let (mut capture_cells, mut best_capture, mut isolated) = (0u32, 0i32, 0u32);
        if self.pending.is_none() && empty != 0 {
            match self.isolated_cells() {
                Some(cells) => isolated = cells.count_ones(),
                None => {
                    let mut legal = self.legal_cells(&groups);
                    let mut best: Option<i32> = None;
                    let mut plain = false;
                    while legal != 0 {
                        let cell = legal.trailing_zeros() as u8;
                        legal &= legal - 1;
                        match self.capture_at(&groups, cell) {
                            None => plain = true,
                            Some(capture) => {
                                capture_cells += 1;
                                // Remove theirs first: each of theirs gains one, each of mine
                                // (when theirs run out) loses one. Connectivity may forbid the
                                // best choice, so this is an upper estimate.
                                let removed = capture.group.count_ones() as i32 - capture.keep as i32;
                                let theirs_in = (capture.group & theirs).count_ones() as i32;
                                let gain = removed.min(theirs_in) - (removed - theirs_in).max(0);
                                best = Some(best.map_or(gain, |b| b.max(gain)));
                            }
                        }
                    }
                    best_capture = match (best, plain) {
                        (Some(b), true) => b.max(0),
                        (Some(b), false) => b,
                        (None, _) => 0,
                    };
                }
            }
        }

        out[0] = mine.count_ones() as f32 - theirs.count_ones() as f32;
        out[1] = share as f32;
        out[2] = (board.dilate(mine) & empty).count_ones() as f32 - (board.dilate(theirs) & empty).count_ones() as f32;
        out[3] = majorities as f32;
        out[4] = singletons as f32;
        out[5] = count as f32;
        out[6] = largest as f32;
        out[7] = capture_cells as f32;
        out[8] = best_capture as f32;
        out[9] = isolated as f32;
        out[10] = (empty.count_ones() & 1) as f32;
        out[11] = self.pending.map_or(0.0, |p| p.remaining as f32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::eval::testing::assert_features;

    /// Weights that tell the entries apart (none is zero, no two alike).
    fn distinct_weights() -> Tuples {
        let n = Rive::PHASES * crate::search::tuples::params::<Rive>();
        let weights: Vec<f32> = (0..n).map(|i| ((i * 7919) % 1009) as f32 / 100.0 - 5.0).collect();
        Tuples::new::<Rive>(&weights).unwrap()
    }

    #[test]
    fn local_patterns_value_symmetric_positions_equally() {
        use crate::game::Position;
        use crate::rng::SplitMix64;
        let tuples = distinct_weights();
        let board = crate::hex::HexBoard::named("hex5").unwrap();
        let symmetries = board.symmetries(|_| 0);
        assert_eq!(symmetries.len(), 12);
        let mut game = Rive::new(board, false, false).unwrap();
        let mut rng = SplitMix64::new(5);
        let mut compared = 0;
        while let Some(mv) = game.sample_move(&mut rng) {
            game.play_unchecked(mv);
            let value = tuples.margin(&game);
            for cells in &symmetries[1..] {
                let image =
                    |set: u128| (0..board.len()).filter(|&c| set >> c & 1 == 1).fold(0u128, |s, c| s | 1 << cells[c]);
                let mut mapped = game;
                (mapped.black, mapped.white) = (image(game.black), image(game.white));
                assert!((tuples.margin(&mapped) - value).abs() < 1e-3, "{} and its image", game.to_notation());
                compared += 1;
            }
        }
        assert!(compared > 100);
    }

    #[test]
    fn a_training_row_reads_the_entries_the_evaluation_sums() {
        use crate::game::Position;
        let position = Rive::from_notation("hex3 b../.w../..b../w.../.b. w").unwrap();
        let mut row = Vec::new();
        let phase = Tuples::row(&position, &mut row);
        assert_eq!(row.len(), 19);
        let family = Family::hexagon();
        // Every cell of the empty corner reads the same entry as every other empty corner.
        let empty = Rive::from_notation("hex3 .../..../...../..../... b").unwrap();
        let mut corners = Vec::new();
        Tuples::row(&empty, &mut corners);
        assert_eq!(corners[0], corners[2]);
        assert_eq!(corners[0], corners[18]);
        assert_ne!(corners[0], corners[9]); // the centre is surrounded
        assert!(row.iter().all(|&e| (e as usize) < family.entries));
        assert_eq!(phase, position.phase());
    }

    #[test]
    fn features_of_the_empty_hex3() {
        let mut expected = [0.0; 12];
        expected[9] = 19.0; // every cell is isolated
        expected[10] = 1.0; // 19 empty cells
        assert_features::<Rive>("hex3 .../..../...../..../... b", &expected);
    }

    #[test]
    fn features_of_two_corner_stones() {
        // Black a1, White e3 (opposite corners of hex3, three neighbours each); White to move.
        let expected = [0.0, 0.0, 0.0, 0.0, 0.0, 2.0, 1.0, 0.0, 0.0, 11.0, 1.0, 0.0];
        // 17 empty cells, 6 of them next to a stone: isolation is forced, nothing captures.
        assert_features::<Rive>("hex3 b../..../...../..../..w w", &expected);
        // The top two rows: one group of 7 (Black a1-a3, White b1-b4), Black to move.
        // White's five liberties are row c; rows d and e (7 cells) touch no stone.
        let expected = [-1.0, -1.0, -5.0, -1.0, 0.0, 1.0, 7.0, 0.0, 0.0, 7.0, 0.0, 0.0];
        assert_features::<Rive>("hex3 bbb/wwww/...../..../... b", &expected);
    }

    #[test]
    fn features_see_the_best_capture() {
        // Groups {a1 b2 c1 c2 c3 d1} (3 + 3), {a3 b4} (1 + 1), {d4 e3} (1 + 1); the legal cells
        // (value 2) are c5, joining the two small groups (5 stones, keep 3: Black removes White's
        // a3 and d4, +2), and e2, next to the pair d4-e3 only. Black to move.
        let expected = [0.0, 0.0, 0.0, 0.0, 0.0, 3.0, 6.0, 1.0, 2.0, 0.0, 1.0, 0.0];
        assert_features::<Rive>("hex3 b.w/.w.b/bbw../w..w/..b b", &expected);
        // Groups {b2}, {b4}, {d4} and {d1 d2 e1 e2} (Black e1 with three white stones). Legal
        // (value 1): a1 a2 a3 b1 b3 c4 c5; b3 joins b2 and b4 (Black must remove one of its
        // own: -1), c4 and c5 join b4 and d4 (+1). Black's liberties: 9, White's: 7.
        let expected = [-1.0, -2.0, 2.0, 0.0, 1.0, 4.0, 4.0, 3.0, 1.0, 0.0, 0.0, 0.0];
        assert_features::<Rive>("hex3 .../.b.b/...../ww.w/bw. b", &expected);
    }

    #[test]
    fn features_of_the_last_empty_cell() {
        // One group of 18 around the empty centre: its only legal cell touches one group.
        let expected = [0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 18.0, 0.0, 0.0, 0.0, 1.0, 0.0];
        assert_features::<Rive>("hex3 bbb/bbbb/bb.ww/wwww/www w", &expected);
    }
}
