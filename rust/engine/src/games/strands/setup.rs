//! Setup, then validate: a Strands position as plain data (what the notation says, or a layout's
//! start), and the one place that says which setups are positions.
//!
//! The notation reader parses into a [`Setup`] and the layout constructor builds one; both call
//! [`Setup::validate`], the only way to a [`Strands`] besides playing moves.

use super::{Cover, Strands};
use crate::error::Error;
use crate::game::Player;
use crate::hex::{hexhex_rows, HexBoard};

/// Hexhex boards of side 2 to 7: side 7 has 127 cells, the most a `u128` holds.
pub const SIDES: std::ops::RangeInclusive<u8> = 2..=7;
/// The labels of the cells.
pub const LABELS: std::ops::RangeInclusive<u8> = 1..=6;
/// Black's opening covers one cell of this label.
pub const OPENING_LABEL: u8 = 2;

/// A cell of a setup: an empty cell shows its label, a covered one its stone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cell {
    Label(u8),
    Stone(Player),
}

/// A Strands position before it is checked.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Setup {
    pub cover: Cover,
    /// Every cell, row by row from the top.
    pub rows: Vec<Vec<Cell>>,
    pub to_move: Player,
}

/// Why a setup is not a Strands position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetupError {
    /// The number of rows is not that of a hexhex board of side 2 to 7 (3, 5, ..., 13).
    RowCount(usize),
    /// The row lengths are not those of the hexhex board of this side.
    RowLengths { side: u8, lengths: Vec<usize> },
    /// A label outside 1 to 6.
    Label(u8),
    /// A board without stones is Black's opening: Black to move, and a cell labelled 2 empty.
    Opening,
    /// The board could not be built (beyond `HexBoard`'s limits: no hexhex board of side 2-7 is).
    Board(Error),
}

impl Setup {
    /// The start of a game on rows of labels: every cell empty, Black to move.
    pub fn start(rows: &[Vec<u8>], cover: Cover) -> Setup {
        let rows = rows.iter().map(|row| row.iter().map(|&label| Cell::Label(label)).collect()).collect();
        Setup { cover, rows, to_move: Player::Black }
    }

    /// The position, or why there is none. Every validity rule of a Strands position is here.
    pub fn validate(&self) -> Result<Strands, SetupError> {
        let side = self.side()?;
        let board = HexBoard::from_rows(&hexhex_rows(side)).map_err(SetupError::Board)?;
        let (mut black, mut white, mut empty) = (0u128, 0u128, [0u128; 6]);
        for (i, &cell) in self.rows.iter().flatten().enumerate() {
            let bit = 1u128 << i;
            match cell {
                Cell::Stone(Player::Black) => black |= bit,
                Cell::Stone(Player::White) => white |= bit,
                Cell::Label(label) if LABELS.contains(&label) => empty[label as usize - 1] |= bit,
                Cell::Label(label) => return Err(SetupError::Label(label)),
            }
        }
        let opening_cells = empty[OPENING_LABEL as usize - 1];
        if black | white == 0 && (self.to_move == Player::White || opening_cells == 0) {
            return Err(SetupError::Opening);
        }
        Ok(Strands { black, white, empty, side: self.to_move, cover: self.cover, board })
    }

    /// The side of the hexhex board the rows form.
    fn side(&self) -> Result<u8, SetupError> {
        let count = self.rows.len();
        let side = u8::try_from(count.div_ceil(2)).ok().filter(|side| count % 2 == 1 && SIDES.contains(side));
        let side = side.ok_or(SetupError::RowCount(count))?;
        let lengths: Vec<usize> = self.rows.iter().map(Vec::len).collect();
        if lengths != row_lengths(side) {
            return Err(SetupError::RowLengths { side, lengths });
        }
        Ok(side)
    }
}

/// The row lengths of the hexhex board of `side`, from the top.
fn row_lengths(side: u8) -> Vec<usize> {
    hexhex_rows(side).iter().map(|&(length, _)| length as usize).collect()
}

impl SetupError {
    /// As an error of rows given as a layout: a `ValueError` naming `layout`.
    pub fn in_layout(self) -> Error {
        match self {
            SetupError::Board(error) => error,
            other => Error::invalid(other.message(false)),
        }
    }

    /// As an error of a position in notation: a `NotationError`.
    pub fn in_position(self) -> Error {
        Error::notation(format!("strands position: {}", self.message(true)))
    }

    /// The rows' faults read the same wherever the rows came from; the opening's is worded for a
    /// layout (a start, Black to move) or a position (either side to move).
    fn message(&self, in_position: bool) -> String {
        match self {
            SetupError::RowCount(count) => {
                format!("layout: the rows must form a hexhex board of side 2 to 7 (got {count} rows)")
            }
            SetupError::RowLengths { side, lengths } => {
                let expected = row_lengths(*side);
                format!("layout: rows of a side-{side} hexhex board have lengths {expected:?}, got {lengths:?}")
            }
            SetupError::Label(label) => format!("layout: labels are 1 to 6, got {label}"),
            SetupError::Opening if in_position => {
                "an empty board is Black's opening, which needs a cell labelled 2".to_string()
            }
            SetupError::Opening => "layout: there must be at least one cell labelled 2 (Black's opening)".to_string(),
            SetupError::Board(error) => error.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Position;
    use crate::strands::{named_layout, parse_setup};

    const HEX2: [&str; 3] = ["22", "212", "22"];

    fn rows(text: &[&str]) -> Vec<Vec<u8>> {
        text.iter().map(|r| r.bytes().map(|b| b - b'0').collect()).collect()
    }

    fn layout_error(rows: &[Vec<u8>]) -> String {
        Strands::new(rows, Cover::UpTo).unwrap_err().to_string()
    }

    fn position_error(text: &str) -> String {
        Strands::from_notation(text).unwrap_err().to_string()
    }

    #[test]
    fn a_layout_start_is_the_setup_of_its_labels_validated() {
        let hex4 = named_layout("hex4").unwrap();
        let start = Strands::new(&hex4, Cover::Exact).unwrap();
        assert_eq!(Setup::start(&hex4, Cover::Exact).validate(), Ok(start));
        assert_eq!(parse_setup(&start.to_notation()).unwrap(), Setup::start(&hex4, Cover::Exact));
    }

    #[test]
    fn parsing_keeps_every_cell_and_validating_reads_them_back() {
        let text = "exact 2b/w12/22 w";
        let setup = parse_setup(text).unwrap();
        assert_eq!(setup.rows[0], vec![Cell::Label(2), Cell::Stone(Player::Black)]);
        assert_eq!(setup.rows[1], vec![Cell::Stone(Player::White), Cell::Label(1), Cell::Label(2)]);
        assert_eq!((setup.cover, setup.to_move), (Cover::Exact, Player::White));
        assert_eq!(setup.validate().unwrap().to_notation(), text);
    }

    #[test]
    fn a_layout_with_faults_gets_the_messages_it_always_had() {
        assert_eq!(
            layout_error(&rows(&["22", "212"])),
            "layout: the rows must form a hexhex board of side 2 to 7 (got 2 rows)"
        );
        assert_eq!(
            layout_error(&rows(&["22", "2122", "22"])),
            "layout: rows of a side-2 hexhex board have lengths [2, 3, 2], got [2, 4, 2]"
        );
        assert_eq!(layout_error(&rows(&["22", "272", "22"])), "layout: labels are 1 to 6, got 7");
        assert_eq!(
            layout_error(&rows(&["11", "111", "11"])),
            "layout: there must be at least one cell labelled 2 (Black's opening)"
        );
        assert!(matches!(Strands::new(&rows(&["11", "111", "11"]), Cover::UpTo), Err(Error::InvalidArgument(_))));
        assert!(Strands::new(&rows(&HEX2), Cover::UpTo).is_ok());
    }

    #[test]
    fn a_position_with_faults_gets_the_messages_it_always_had() {
        assert_eq!(
            position_error("up-to 22/222 b"),
            "strands position: layout: the rows must form a hexhex board of side 2 to 7 (got 2 rows)"
        );
        assert_eq!(
            position_error("up-to 22/2b22/22 b"),
            "strands position: layout: rows of a side-2 hexhex board have lengths [2, 3, 2], got [2, 4, 2]"
        );
        assert_eq!(
            position_error("up-to 22/272/22 b"),
            "strands position: unexpected '7': cells are a label 1-6, 'b' or 'w'"
        );
        assert_eq!(
            position_error("up-to 11/111/11 b"),
            "strands position: an empty board is Black's opening, which needs a cell labelled 2"
        );
        assert_eq!(
            position_error("up-to 22/212/22 w"),
            "strands position: an empty board is Black's opening, which needs a cell labelled 2"
        );
        assert_eq!(
            position_error("both 22/212/22 b"),
            "strands position: cover must be 'up-to' or 'exact', got \"both\""
        );
        assert_eq!(position_error("up-to 22/212/22 x"), "strands position: side to move must be 'b' or 'w', got \"x\"");
        assert!(matches!(Strands::from_notation("up-to 11/111/11 b"), Err(Error::Notation(_))));
        // With stones on the board, neither side nor a 2 is required.
        assert!(Strands::from_notation("up-to 11/1b1/11 w").is_ok());
    }

    #[test]
    fn a_setup_built_directly_is_held_to_the_same_rules() {
        let mut setup = parse_setup("up-to 22/2b2/22 w").unwrap();
        setup.rows[0][0] = Cell::Label(0);
        assert_eq!(setup.validate(), Err(SetupError::Label(0)));
        setup.rows = vec![vec![Cell::Label(2); 3]; 600];
        assert_eq!(setup.validate(), Err(SetupError::RowCount(600)));
    }
}
