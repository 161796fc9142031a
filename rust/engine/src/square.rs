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

    /// Parses a square name, case-insensitively, surrounding whitespace ignored. Only the shape
    /// is checked here (a letter then a number from 1 to 26); whether the square is on a given
    /// board is the caller's business.
    pub fn parse(text: &str) -> Result<Coord> {
        let t = text.trim();
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
