//! Square-board coordinates: columns are letters from `a` on the left, rows are numbers from
//! `1` at the top (spec/api.md). Shared by Reversi and Cephalopod.

use crate::error::{Error, Result};

/// A square by (row, column), both from 0 at the top-left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Coord {
    pub row: u8,
    pub col: u8,
}

impl Coord {
    pub fn new(row: u8, col: u8) -> Self {
        Coord { row, col }
    }

    /// `a1` style name.
    pub fn name(self) -> String {
        format!("{}{}", (b'a' + self.col) as char, self.row as u32 + 1)
    }

    /// Parses a square name, case-insensitively, surrounding blanks (`text::trim`) ignored. Only the shape
    /// is checked here (a letter then a number from 1 to 26); whether the square is on a given
    /// board is the caller's business.
    pub fn parse(text: &str) -> Result<Coord> {
        let t = crate::text::trim(text);
        let bytes = t.as_bytes();
        let bad = || {
            Error::notation(format!(
                "expected a square name like 'd3' (a column letter, then a row number), got {:?}",
                truncate(text)
            ))
        };
        if bytes.len() < 2 || bytes.len() > 3 || !bytes[0].is_ascii_alphabetic() {
            return Err(bad());
        }
        let digits = &t[1..];
        if !digits.bytes().all(|b| b.is_ascii_digit()) || digits.starts_with('0') {
            return Err(bad());
        }
        let row: u32 = digits.parse().map_err(|_| bad())?;
        if row == 0 || row > 26 {
            return Err(bad());
        }
        let col = bytes[0].to_ascii_lowercase() - b'a';
        Ok(Coord::new((row - 1) as u8, col))
    }
}

/// A rectangular board of `rows` x `cols` squares indexed row-major (`row * cols + col`), with
/// each square's orthogonal neighbours precomputed.
#[derive(Debug)]
pub struct Rect {
    pub rows: u8,
    pub cols: u8,
    /// Per square, its neighbours in board order: up, left, right, down; `NONE` where the board
    /// ends.
    pub neighbours: Vec<[u8; 4]>,
}

impl Rect {
    /// The index no square has, used for a missing neighbour.
    pub const NONE: u8 = 64;
    pub const MAX_SIDE: u8 = 8;

    /// The shared geometry of a `rows` x `cols` board (2 to 8 each), built once per size.
    pub fn get(rows: u8, cols: u8) -> Result<&'static Rect> {
        use std::sync::OnceLock;
        static ALL: OnceLock<Vec<Rect>> = OnceLock::new();
        for (name, n) in [("rows", rows), ("cols", cols)] {
            if !(2..=Self::MAX_SIDE).contains(&n) {
                return Err(Error::invalid(format!("{name} must be from 2 to {}, got {n}", Self::MAX_SIDE)));
            }
        }
        let all = ALL.get_or_init(|| {
            (2..=Self::MAX_SIDE)
                .flat_map(|r| (2..=Self::MAX_SIDE).map(move |c| Rect::build(r, c)))
                .collect()
        });
        let side = (Self::MAX_SIDE - 1) as usize;
        Ok(&all[(rows - 2) as usize * side + (cols - 2) as usize])
    }

    fn build(rows: u8, cols: u8) -> Rect {
        let at = |r: i32, c: i32| {
            if r < 0 || c < 0 || r >= rows as i32 || c >= cols as i32 {
                Self::NONE
            } else {
                (r * cols as i32 + c) as u8
            }
        };
        let neighbours = (0..rows as i32)
            .flat_map(|r| (0..cols as i32).map(move |c| (r, c)))
            .map(|(r, c)| [at(r - 1, c), at(r, c - 1), at(r, c + 1), at(r + 1, c)])
            .collect();
        Rect { rows, cols, neighbours }
    }

    pub fn len(&self) -> usize {
        self.rows as usize * self.cols as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every square, as a bitboard.
    pub fn all(&self) -> u64 {
        if self.len() == 64 {
            u64::MAX
        } else {
            (1u64 << self.len()) - 1
        }
    }

    pub fn coord(&self, index: u8) -> Coord {
        Coord::new(index / self.cols, index % self.cols)
    }

    pub fn index(&self, c: Coord) -> Option<u8> {
        (c.row < self.rows && c.col < self.cols).then(|| c.row * self.cols + c.col)
    }

    pub fn name(&self, index: u8) -> String {
        self.coord(index).name()
    }

    /// The size as written in notation: `RxC`.
    pub fn size_name(&self) -> String {
        format!("{}x{}", self.rows, self.cols)
    }
}

/// Keeps error messages short when the input is a megabyte of garbage.
pub fn truncate(text: &str) -> String {
    const MAX: usize = 40;
    if text.chars().count() <= MAX {
        text.to_string()
    } else {
        let head: String = text.chars().take(MAX).collect();
        format!("{head}...")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for row in 0..10 {
            for col in 0..10 {
                let c = Coord::new(row, col);
                assert_eq!(Coord::parse(&c.name()).unwrap(), c);
            }
        }
    }

    #[test]
    fn parse_is_case_insensitive_and_trims() {
        assert_eq!(Coord::parse(" D3 ").unwrap(), Coord::new(2, 3));
    }

    #[test]
    fn malformed_names_are_notation_errors() {
        for bad in ["", "d", "3d", "d0", "d03", "dd3", "d-1", "d3x", "é3", "d100"] {
            assert!(matches!(Coord::parse(bad), Err(Error::Notation(_))), "{bad}");
        }
    }
}
