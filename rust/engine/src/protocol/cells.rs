//! Reading a position cell by cell, the cells named as moves name them (Python's `game[cell]`,
//! `piece_at` and `cells`; docs/design.md, "Reading the board").
//!
//! Every game answers the same two questions: which cells the board has, in board order, and
//! what one of them holds. A cell is named in any case with blanks around ignored, as in moves;
//! a name that is malformed or not on the board is an error saying which.

use crate::error::Result;
use crate::game::Player;

/// What a cell holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Contents {
    Empty,
    /// A disc or a stone (`pips` 0), or a Cephalopod die showing `pips` (1 to 6).
    Piece {
        player: Player,
        pips: u8,
    },
    /// A Reversi hole: a square of the board where no disc may ever be.
    Hole,
    /// One of the twelve squares the Octagon cuts from its 10x10 grid.
    Cut,
}

impl Contents {
    /// A disc or a stone: a piece without pips.
    pub fn stone(player: Player) -> Contents {
        Contents::Piece { player, pips: 0 }
    }
}

/// A position read cell by cell.
pub trait Cells {
    /// Every cell's name, in board order: the squares of the text board and of the observation
    /// grid for Reversi (holes and the Octagon's cut squares included) and Cephalopod, the cells
    /// of the hex board for Rive and Strands.
    fn cell_names(&self) -> Vec<String>;

    /// What the cell `name` holds. A malformed name is a notation error, a well-formed one that
    /// is not among `cell_names` an invalid argument; both say what was given.
    fn contents(&self, name: &str) -> Result<Contents>;
}

/// The hex games' cells (invoked in each game's module, which owns the fields): a board's cells, each holding a stone of `black` or `white`, or none.
macro_rules! hex_cells {
    ($Pos:ty) => {
        impl $crate::cells::Cells for $Pos {
            fn cell_names(&self) -> Vec<String> {
                self.board.cell_names(self.board.all)
            }

            fn contents(&self, name: &str) -> $crate::error::Result<$crate::cells::Contents> {
                // A name that is no cell is a bad argument here, not an illegal move.
                let cell = self.board.parse_cell(name).map_err(|e| match e {
                    $crate::error::Error::IllegalMove(why) => $crate::error::Error::invalid(why),
                    other => other,
                })?;
                Ok(match (self.black >> cell & 1, self.white >> cell & 1) {
                    (1, _) => $crate::cells::Contents::stone($crate::game::Player::Black),
                    (_, 1) => $crate::cells::Contents::stone($crate::game::Player::White),
                    _ => $crate::cells::Contents::Empty,
                })
            }
        }
    };
}

pub(crate) use hex_cells;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cephalopod::Cephalopod;
    use crate::error::Error;
    use crate::game::Position;
    use crate::reversi::Reversi;
    use crate::rive::Rive;
    use crate::strands::Strands;

    fn black() -> Contents {
        Contents::stone(Player::Black)
    }

    fn white() -> Contents {
        Contents::stone(Player::White)
    }

    #[test]
    fn reversi_tells_holes_and_cut_squares_from_empty_squares() {
        let start =
            Reversi::from_notation("8 b#w...../...w..../...b..../...wb.../...bw.../......../......../........ b")
                .unwrap();
        let read = |name| start.contents(name).unwrap();
        assert_eq!(
            [read("a1"), read("b1"), read("c1"), read("d1")],
            [black(), Contents::Hole, white(), Contents::Empty]
        );
        assert_eq!(read(" D4\t"), white());
        assert_eq!(start.cell_names().len(), 64);
        assert!(start.contents("i1").is_err() && start.contents("d").is_err() && start.contents("a0").is_err());

        let octagon =
            crate::reversi::Variant::new(crate::reversi::Shape::Octagon, vec![], 0, Player::Black).unwrap().start();
        let names = octagon.cell_names();
        assert_eq!(
            (names.len(), &names[..2], &names[99]),
            (100, &["a1".to_string(), "b1".into()][..], &"j10".to_string())
        );
        assert_eq!(octagon.contents("a1").unwrap(), Contents::Cut);
        assert_eq!(octagon.contents("b2").unwrap(), Contents::Empty);
    }

    #[test]
    fn cephalopod_dice_have_owners_and_pips() {
        let p = Cephalopod::from_notation("3x3 1b.6w/.2w./... b").unwrap();
        assert_eq!(p.contents("a1").unwrap(), Contents::Piece { player: Player::Black, pips: 1 });
        assert_eq!(p.contents("C1").unwrap(), Contents::Piece { player: Player::White, pips: 6 });
        assert_eq!(p.contents("a3").unwrap(), Contents::Empty);
        assert!(p.contents("d1").is_err() && p.contents("a4").is_err());
        assert_eq!(p.cell_names(), ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]);
    }

    #[test]
    fn hex_boards_read_stones_by_cell_name() {
        let rive = Rive::from_notation("hex3 bb./...w/bw.bb/..../.bw w").unwrap();
        assert_eq!([rive.contents("a1").unwrap(), rive.contents("B4").unwrap()], [black(), white()]);
        assert_eq!(rive.contents("a3").unwrap(), Contents::Empty);
        assert!(matches!(rive.contents("a4"), Err(Error::InvalidArgument(_))));
        assert!(matches!(rive.contents("4a"), Err(Error::Notation(_))));
        assert_eq!(rive.cell_names().len(), 19);

        let strands = Strands::from_notation("up-to b33w/32223/322223/b2b122w/322223/32223/4334 w").unwrap();
        assert_eq!([strands.contents("a1").unwrap(), strands.contents("a4").unwrap()], [black(), white()]);
        assert_eq!(strands.contents("a2").unwrap(), Contents::Empty);
    }
}
