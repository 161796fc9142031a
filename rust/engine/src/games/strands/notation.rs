//! Strands notation: moves `d4,e5`; positions `RULE ROWS SIDE` (docs/strands.md).

use super::{Cell, Cover, Move, Setup, SetupError, Strands};
use crate::error::truncate;
use crate::error::{Error, Result};
use crate::game::Player;
use crate::hex::HexBoard;
use crate::text;

pub fn parse_move(board: &HexBoard, text: &str) -> Result<Move> {
    let bad = || Error::notation(format!("expected cells like 'd4' or 'd4,e5', got {:?}", truncate(text)));
    text::check_length("move", text)?;
    let lower = text::trim(text).to_ascii_lowercase();
    if lower.is_empty() || !lower.is_ascii() || lower.chars().any(text::is_blank) {
        return Err(bad());
    }
    let names: Vec<&str> = lower.split(',').collect();
    for name in &names {
        if board.parse_cell(name).is_err_and(|e| matches!(e, Error::Notation(_))) {
            return Err(bad());
        }
    }
    let mut cells = 0u128;
    for name in names {
        let cell = board.parse_cell(name)?;
        if cells >> cell & 1 == 1 {
            return Err(Error::notation(format!("{} is listed twice in {:?}", board.cell_name(cell), truncate(text))));
        }
        cells |= 1u128 << cell;
    }
    Ok(Move { cells })
}

pub fn move_name(board: &HexBoard, mv: Move) -> String {
    (0..board.len() as u8).filter(|&c| mv.cells >> c & 1 == 1).map(|c| board.cell_name(c)).collect::<Vec<_>>().join(",")
}

pub(super) fn cell_char(p: &Strands, cell: u8) -> char {
    if p.black >> cell & 1 == 1 {
        'b'
    } else if p.white >> cell & 1 == 1 {
        'w'
    } else {
        (b'0' + p.label(cell).unwrap_or(0)) as char
    }
}

pub(super) fn write(p: &Strands) -> String {
    format!("{} {} {}", p.cover.name(), p.board.notation_rows(|cell| cell_char(p, cell)), p.side.letter())
}

/// The position a text in notation describes.
pub(super) fn read(text: &str) -> Result<Strands> {
    parse_setup(text)?.validate().map_err(SetupError::in_position)
}

/// A text in notation read as it stands: the fields and every cell, unchecked beyond their
/// syntax (whether they form a position is `Setup::validate`'s to say).
pub fn parse_setup(text: &str) -> Result<Setup> {
    let bad = |what: String| Error::notation(format!("strands position: {what}"));
    let [cover, rows, side] = text::position_fields(text, "RULE ROWS SIDE", bad)?;
    let cover = Cover::parse(cover).map_err(|e| bad(e.to_string()))?;
    let to_move = text::side_to_move(side, bad)?;
    let cell = |ch: u8| match ch {
        b'b' => Ok(Cell::Stone(Player::Black)),
        b'w' => Ok(Cell::Stone(Player::White)),
        b'1'..=b'6' => Ok(Cell::Label(ch - b'0')),
        _ => Err(bad(format!("unexpected {:?}: cells are a label 1-6, 'b' or 'w'", ch as char))),
    };
    let rows = rows.split('/').map(|row| row.bytes().map(cell).collect()).collect::<Result<_>>()?;
    Ok(Setup { cover, rows, to_move })
}
