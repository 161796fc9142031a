//! What Rive gives the search (`search::Searchable`): its margin, the stone difference, and
//! the dense memo that solves its small boards (`search::Memo`).

use super::Rive;
use crate::error::Result;
use crate::interrupt::Stop;
use crate::search::{count_difference, Searchable, SCALE};

impl Searchable for Rive {
    /// A solve on a board of up to `rive::DENSE_CELLS` cells: a game there can last thousands
    /// of plies, past what alpha-beta can search, over few positions (search/memo.rs).
    type Endgame = crate::search::Memo;

    /// Stones of the side to move minus the other's.
    fn final_margin(&self) -> i32 {
        count_difference(self)
    }

    fn material(&self) -> i32 {
        SCALE * count_difference(self)
    }

    /// The first move may be a capture whose survivor sets take long to count or rank.
    fn quick_move(&self, stop: &Stop) -> Result<Option<Self::Move>> {
        self.uncounted_move(stop)
    }
}
