//! Position notation: `BOARD ROWS SIDE` (docs/reversi.md), e.g.
//! `8 ......../......../......../...wb.../...bw.../......../......../........ b`.

use super::board::Board;
use super::frame::Frame;
use super::setup::Setup;
use super::{Reversi, Shape};
use crate::error::truncate;
use crate::error::{Error, Result};
use crate::square::Coord;
use crate::text;

pub(super) fn write<F: Frame>(board: &Board<F>) -> String {
    let n = board.shape.size();
    let rows: Vec<String> = (0..n).map(|r| (0..n).map(|c| board.cell_char(r, c)).collect()).collect();
    format!("{} {} {}", board.shape.name(), rows.join("/"), board.side.letter())
}

pub(super) fn read(text: &str) -> Result<Reversi> {
    let bad = |what: String| Error::notation(format!("reversi position: {what}"));
    let [board, rows, side] = text::position_fields(text, "BOARD ROWS SIDE", bad)?;
    let shape = Shape::parse(board).map_err(|e| bad(e.to_string()))?;
    let side = text::side_to_move(side, bad)?;
    let n = shape.size() as usize;
    let rows: Vec<&str> = rows.split('/').collect();
    if rows.len() != n {
        return Err(bad(format!("a {} board has {n} rows, got {}", shape.name(), rows.len())));
    }
    let (mut black, mut white, mut holes) = (Vec::new(), Vec::new(), Vec::new());
    for (r, row) in rows.iter().enumerate() {
        if row.chars().count() != n {
            return Err(bad(format!("row {} must have {n} squares, got {:?}", r + 1, truncate(row))));
        }
        for (col, ch) in row.chars().enumerate() {
            let c = Coord::new(r as u8, col as u8);
            // The notation writes each cut square as '-' and nothing else as '-': its own syntax,
            // checked here; every other rule belongs to `Setup::validate`.
            let cut = shape.is_cut(c);
            match (ch, cut) {
                ('-', true) => {}
                ('-', false) => return Err(bad(format!("{} is not a cut square of this board", c.name()))),
                (_, true) => return Err(bad(format!("{} is a cut square and must be '-'", c.name()))),
                ('.', _) => {}
                ('b', _) => black.push(c),
                ('w', _) => white.push(c),
                ('#', _) => holes.push(c),
                _ => {
                    return Err(bad(format!(
                        "unexpected {ch:?} at {}: squares are '.', 'b', 'w', '#' (hole) or '-' (cut)",
                        c.name()
                    )))
                }
            }
        }
    }
    // Where holes may be (not in the centre, at most four) is the setup's rule, not the notation's.
    Setup { shape, black, white, holes, to_move: side }.validate().map_err(|e| bad(e.to_string()))
}
