//! Strands notation: moves `d4,e5`; positions `RULE ROWS SIDE` (docs/strands.md).

use super::{hexhex_side, Cover, Move, Strands};
use crate::error::{Error, Result};
use crate::game::Player;
use crate::hex::HexBoard;
use crate::square::truncate;
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

pub(super) fn read(text: &str) -> Result<Strands> {
    let bad = |what: String| Error::notation(format!("strands position: {what}"));
    text::check_length("position", text)?;
    let fields: Vec<&str> = text::trim(text).split(' ').collect();
    if fields.len() != 3 {
        return Err(bad(format!("expected 'RULE ROWS SIDE' separated by single spaces, got {:?}", truncate(text))));
    }
    let cover = Cover::parse(fields[0]).map_err(|e| bad(e.to_string()))?;
    let side = Player::from_letter(fields[2])
        .ok_or_else(|| bad(format!("side to move must be 'b' or 'w', got {:?}", truncate(fields[2]))))?;
    let rows: Vec<&str> = fields[1].split('/').collect();
    // Covered cells stand in for a label (2) while the board's shape is checked.
    let shape: Vec<Vec<u8>> = rows.iter().map(|r| r.bytes().map(|_| 2).collect()).collect();
    hexhex_side(&shape).map_err(|e| bad(e.to_string()))?;
    let mut template = Strands::new(&shape, cover).map_err(|e| bad(e.to_string()))?;
    let (mut black, mut white, mut empty) = (0u128, 0u128, [0u128; 6]);
    for (i, ch) in rows.iter().flat_map(|r| r.bytes()).enumerate() {
        let bit = 1u128 << i;
        match ch {
            b'b' => black |= bit,
            b'w' => white |= bit,
            b'1'..=b'6' => empty[(ch - b'1') as usize] |= bit,
            _ => return Err(bad(format!("unexpected {:?}: cells are a label 1-6, 'b' or 'w'", ch as char))),
        }
    }
    if black | white == 0 && (side == Player::White || empty[1] == 0) {
        return Err(bad("an empty board is Black's opening, which needs a cell labelled 2".into()));
    }
    template.set(black, white, empty, side);
    Ok(template)
}
