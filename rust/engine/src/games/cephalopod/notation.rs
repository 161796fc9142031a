//! Cephalopod notation: moves `c3` / `c3xc2,b3`, positions `RxC ROWS SIDE` (docs/cephalopod.md).

use super::{Cephalopod, Move, Setup};
use crate::error::truncate;
use crate::error::{Error, Result};
use crate::game::{Player, Position};
use crate::square::{Coord, Rect};
use crate::text;

/// Parses a move. Malformed text is a notation error; squares off the board or captured squares
/// that are not neighbours of the placed one are illegal moves.
pub fn parse_move(rect: &Rect, text: &str) -> Result<Move> {
    let bad = || {
        Error::notation(format!("expected a square like 'c3', or a capture like 'c3xc2,b3', got {:?}", truncate(text)))
    };
    text::check_length("move", text)?;
    let lower = text::trim(text).to_ascii_lowercase();
    if !lower.is_ascii() || lower.chars().any(text::is_blank) {
        return Err(bad());
    }
    // The placed square is a letter and its digits (the letter may itself be an 'x').
    let digits_end = 1 + lower.get(1..).unwrap_or("").bytes().take_while(u8::is_ascii_digit).count();
    let (placed, rest) = lower.split_at(digits_end.min(lower.len()));
    let captured: Vec<&str> = match rest.strip_prefix('x') {
        Some(list) => list.split(',').collect(),
        None if rest.is_empty() => Vec::new(),
        None => return Err(bad()),
    };
    let placed = Coord::parse(placed).map_err(|_| bad())?;
    let captured: Vec<Coord> =
        captured.into_iter().map(|c| Coord::parse(c).map_err(|_| bad())).collect::<Result<_>>()?;
    if let Some(twice) = captured.iter().enumerate().find(|(i, c)| captured[..*i].contains(c)) {
        return Err(Error::notation(format!("{} is listed twice in {:?}", twice.1.name(), truncate(text))));
    }
    let square = on_board(rect, placed)?;
    let mut capture = 0u8;
    for target in captured {
        let target = on_board(rect, target)?;
        let slot = rect.neighbours[square as usize]
            .iter()
            .position(|&n| n == target)
            .ok_or_else(|| Error::illegal(format!("{} is not next to {}", rect.name(target), rect.name(square))))?;
        capture |= 1 << slot;
    }
    Ok(Move { square, capture })
}

/// `c3`, or `c3xc2,b3` for a capture (captured squares in board order).
pub fn move_name(rect: &Rect, mv: Move) -> String {
    let mut name = rect.name(mv.square);
    let captured: Vec<String> = mv.captured(rect).into_iter().map(|s| rect.name(s)).collect();
    if !captured.is_empty() {
        name.push('x');
        name.push_str(&captured.join(","));
    }
    name
}

fn on_board(rect: &Rect, c: Coord) -> Result<u8> {
    rect.index(c).ok_or_else(|| Error::illegal(format!("{} is off the {} board", c.name(), rect.size_name())))
}

pub(super) fn write(p: &Cephalopod) -> String {
    let rect = p.rect();
    let rows: Vec<String> = (0..rect.rows)
        .map(|r| {
            (0..rect.cols)
                .map(|c| match p.die(r * rect.cols + c) {
                    None => ".".to_string(),
                    Some((owner, pips)) => format!("{pips}{}", owner.letter()),
                })
                .collect()
        })
        .collect();
    format!("{} {} {}", rect.size_name(), rows.join("/"), p.to_move().letter())
}

pub(super) fn read(text: &str) -> Result<Cephalopod> {
    let bad = |what: String| Error::notation(format!("cephalopod position: {what}"));
    let [size, row_text, side] = text::position_fields(text, "RxC ROWS SIDE", bad)?;
    let (rows, cols) =
        parse_size(size).ok_or_else(|| bad(format!("the size must look like '5x5', got {:?}", truncate(size))))?;
    let mut setup = Setup::empty(rows, cols);
    // A size the rules do not allow is reported before the rows are counted against it.
    setup.rect().map_err(|e| bad(e.to_string()))?;
    setup.to_move = text::side_to_move(side, bad)?;
    let row_texts: Vec<&str> = row_text.split('/').collect();
    if row_texts.len() != rows as usize {
        return Err(bad(format!("a {size} board has {rows} rows, got {}", row_texts.len())));
    }
    for (r, row) in row_texts.iter().enumerate() {
        let cells = split_cells(row).ok_or_else(|| {
            bad(format!("row {}: cells are '.' or pips 1-6 then 'b' or 'w', got {:?}", r + 1, truncate(row)))
        })?;
        if cells.len() != cols as usize {
            return Err(bad(format!("row {} must have {cols} squares, got {}", r + 1, cells.len())));
        }
        let start = r * cols as usize;
        setup.dice[start..start + cols as usize].copy_from_slice(&cells);
    }
    setup.validate().map_err(|e| bad(e.to_string()))
}

/// The board size as written in notation and records, `RxC` with one digit each (`5x5`); only
/// its form is checked here (the sizes allowed are `Setup::validate`'s rule).
pub fn parse_size(text: &str) -> Option<(u8, u8)> {
    let (rows, cols) = text.split_once('x')?;
    Some((small_number(rows)?, small_number(cols)?))
}

fn small_number(text: &str) -> Option<u8> {
    (text.len() == 1 && text.as_bytes()[0].is_ascii_digit()).then(|| text.as_bytes()[0] - b'0')
}

/// The cells of a row: `.` or a pip digit 1-6 then `b`/`w`.
fn split_cells(row: &str) -> Option<Vec<Option<(Player, u8)>>> {
    let bytes = row.as_bytes();
    let mut cells = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'.' => {
                cells.push(None);
                i += 1;
            }
            d @ b'1'..=b'6' => {
                let owner = Player::from_letter(std::str::from_utf8(bytes.get(i + 1..i + 2)?).ok()?)?;
                cells.push(Some((owner, d - b'0')));
                i += 2;
            }
            _ => return None,
        }
    }
    Some(cells)
}
