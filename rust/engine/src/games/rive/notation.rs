//! Rive notation: moves `c3`, `c3xb2,d1`, `xb2`, `swap`; positions
//! `BOARD ROWS SIDE [swap] [single] [capture=CELL:N]` (docs/rive.md). A position is read into a
//! `Setup` (only its grammar is checked here) and validated there: every rule of what a position
//! may hold lives in `setup.rs`.

use super::{Move, Pending, Rive, Setup};
use crate::error::truncate;
use crate::error::{Error, Result};
use crate::hex::HexBoard;
use crate::text;

pub fn parse_move(board: &HexBoard, text: &str) -> Result<Move> {
    let bad = || {
        Error::notation(format!(
            "expected a cell like 'c3', a capture like 'c3xb2,d1', a removal like 'xb2', or 'swap'; got {:?}",
            truncate(text)
        ))
    };
    text::check_length("move", text)?;
    let lower = text::trim(text).to_ascii_lowercase();
    if !lower.is_ascii() || lower.chars().any(text::is_blank) {
        return Err(bad());
    }
    if lower == "swap" {
        return Ok(Move::Swap);
    }
    let (placed, list) = match lower.split_once('x') {
        Some((placed, list)) => (placed, Some(list)),
        None => (lower.as_str(), None),
    };
    let mut removed = 0u128;
    let names: Vec<&str> = list.map(|l| l.split(',').collect()).unwrap_or_default();
    // Check every name's shape before any cell's place on the board.
    for name in placed_and(placed, &names) {
        if board.parse_cell(name).is_err_and(|e| matches!(e, Error::Notation(_))) {
            return Err(bad());
        }
    }
    for name in &names {
        let cell = board.parse_cell(name)?;
        if removed >> cell & 1 == 1 {
            return Err(Error::notation(format!("{} is listed twice in {:?}", board.cell_name(cell), truncate(text))));
        }
        removed |= 1u128 << cell;
    }
    if placed.is_empty() {
        return match names.len() {
            1 => Ok(Move::Remove { cell: removed.trailing_zeros() as u8 }),
            _ => Err(bad()),
        };
    }
    Ok(Move::Place { cell: board.parse_cell(placed)?, removed })
}

fn placed_and<'a>(placed: &'a str, names: &'a [&'a str]) -> impl Iterator<Item = &'a str> {
    (!placed.is_empty()).then_some(placed).into_iter().chain(names.iter().copied())
}

pub fn move_name(board: &HexBoard, mv: Move) -> String {
    let removed = || -> Vec<String> {
        (0..board.len() as u8).filter(|&c| mv.removed() >> c & 1 == 1).map(|c| board.cell_name(c)).collect()
    };
    match mv {
        Move::Swap => "swap".into(),
        Move::Remove { .. } => format!("x{}", removed().join(",")),
        Move::Place { cell, removed: 0 } => board.cell_name(cell),
        Move::Place { cell, .. } => format!("{}x{}", board.cell_name(cell), removed().join(",")),
    }
}

pub(super) fn write(p: &Setup) -> String {
    let b = p.board;
    let mut text = format!("{} {} {}", b.name, b.notation_rows(|cell| p.cell_char(cell)), p.to_move.letter());
    if p.swap {
        text.push_str(" swap");
    }
    if p.single_stones {
        text.push_str(" single");
    }
    if let Some(pending) = p.capture {
        text.push_str(&format!(" capture={}:{}", b.cell_name(pending.placed), pending.remaining));
    }
    text
}

pub(super) fn read(text: &str) -> Result<Rive> {
    let bad = |what: String| Error::notation(format!("rive position: {what}"));
    text::check_length("position", text)?;
    let fields: Vec<&str> = text::trim(text).split(' ').collect();
    if !(3..=6).contains(&fields.len()) {
        return Err(bad(format!(
            "expected 'BOARD ROWS SIDE [swap] [single] [capture=CELL:N]', got {:?}",
            truncate(text)
        )));
    }
    let board = HexBoard::named(fields[0]).map_err(|e| bad(e.to_string()))?;
    let side = text::side_to_move(fields[2], bad)?;
    let mut extras = fields[3..].iter().peekable();
    let swap = extras.next_if(|w| **w == "swap").is_some();
    let single = extras.next_if(|w| **w == "single").is_some();
    let capture = extras.next_if(|w| single && w.starts_with("capture=")).map(|w| &w["capture=".len()..]);
    if let Some(extra) = extras.next() {
        return Err(bad(format!(
            "unexpected {:?}: only 'swap', 'single', then (single-stone form) 'capture=CELL:N' may follow the side",
            truncate(extra)
        )));
    }
    let rows: Vec<&str> = fields[1].split('/').collect();
    if rows.len() != board.rows.len() {
        return Err(bad(format!("{} has {} rows, got {}", board.name, board.rows.len(), rows.len())));
    }
    let (mut black, mut white) = (0u128, 0u128);
    for (r, row) in rows.iter().enumerate() {
        let length = board.rows[r].0 as usize;
        if row.len() != length || !row.is_ascii() {
            return Err(bad(format!("row {} must have {length} cells, got {:?}", r + 1, truncate(row))));
        }
        for (i, ch) in row.bytes().enumerate() {
            let bit = 1u128 << (board.row_start[r] as usize + i);
            match ch {
                b'.' => {}
                b'b' => black |= bit,
                b'w' => white |= bit,
                _ => {
                    return Err(bad(format!("unexpected {:?} in row {}: cells are '.', 'b' or 'w'", ch as char, r + 1)))
                }
            }
        }
    }
    let pending = match capture {
        None => None,
        Some(spec) => {
            let (cell, remaining) = spec
                .split_once(':')
                .ok_or_else(|| bad(format!("capture must look like 'capture=c3:2', got {spec:?}")))?;
            let placed = board
                .parse_cell(cell)
                .map_err(|_| bad(format!("capture: {cell:?} is not a cell of {}", board.name)))?;
            let remaining: u8 = remaining
                .parse()
                .ok()
                .filter(|n| {
                    (1..=127).contains(n)
                        && remaining.bytes().all(|b| b.is_ascii_digit())
                        && !remaining.starts_with('0')
                })
                .ok_or_else(|| bad(format!("capture: {remaining:?} is not a number of stones from 1")))?;
            Some(Pending { placed, remaining })
        }
    };
    let setup = Setup { board, black, white, to_move: side, swap, single_stones: single, capture: pending };
    setup.validate().map_err(|e| bad(e.to_string()))
}
