//! What Strands gives the search (`search::Searchable`): its margin, group by group.

use super::Strands;
use crate::game::Position;
use crate::search::{NoEndgame, Searchable, SCALE};

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
