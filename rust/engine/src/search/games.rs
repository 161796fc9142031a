//! What each game gives the search: its margin and its cheap estimate (docs/engine.md, "Scores").

use super::{NoEndgame, Searchable, SCALE};
use crate::game::{Player, Position};
use crate::{cephalopod::Cephalopod, reversi::Reversi, rive::Rive, strands::Strands};

/// Black's count minus White's, from the side to move's view, for the games won by the larger
/// count of `score()` (Outcome::by_count): Cephalopod's dice, Rive's stones.
fn count_difference<P: Position>(position: &P) -> i32 {
    let (black, white) = position.score();
    let difference = black as i32 - white as i32;
    match position.to_move() {
        Player::Black => difference,
        Player::White => -difference,
    }
}

impl Searchable for Reversi {
    type Endgame = NoEndgame; // TEMP until reversi::endgame lands

    /// The final disc difference with the empty squares counted for the winner (the published
    /// endgame suites' convention; holes are not squares).
    fn final_margin(&self) -> i32 {
        // TEMP: replaced by Reversi::final_margin from reversi/endgame.rs
        let d = count_difference(self);
        let mut empties = 0;
        self.for_each_cell(|_, c| empties += (c == '.') as i32);
        d + d.signum() * empties
    }

    fn material(&self) -> i32 {
        SCALE * count_difference(self)
    }
}

impl Searchable for Cephalopod {
    type Endgame = NoEndgame;

    /// Dice (squares covered) of the side to move minus the other's.
    fn final_margin(&self) -> i32 {
        count_difference(self)
    }

    fn material(&self) -> i32 {
        SCALE * count_difference(self)
    }
}

impl Searchable for Rive {
    type Endgame = NoEndgame;

    /// Stones of the side to move minus the other's.
    fn final_margin(&self) -> i32 {
        count_difference(self)
    }

    fn material(&self) -> i32 {
        SCALE * count_difference(self)
    }
}

impl Searchable for Strands {
    type Endgame = NoEndgame;

    /// At the first place where the sorted group sizes differ, the mover's minus the other's.
    fn final_margin(&self) -> i32 {
        Strands::final_margin(self)
    }

    /// The largest groups' difference so far.
    fn material(&self) -> i32 {
        let mover = self.to_move();
        SCALE * (self.largest_group(mover) as i32 - self.largest_group(mover.other()) as i32)
    }
}
