//! What Cephalopod gives the search (`search::Searchable`): its margin, the dice difference.

use super::Cephalopod;
use crate::search::{count_difference, NoEndgame, Searchable, SCALE};

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
