//! Square-board coordinates: columns are letters from `a` on the left, rows are numbers from
//! `1` at the top (docs/reversi.md, "Boards and squares"). Shared by Reversi and Cephalopod.

use crate::error::{truncate, Error, Result};

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
            (2..=Self::MAX_SIDE).flat_map(|r| (2..=Self::MAX_SIDE).map(move |c| Rect::build(r, c))).collect()
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

/// One of the 8 maps of a square grid onto itself (the dihedral group D4): transpose first (swap
/// rows and columns), then mirror the rows (top to bottom), then the columns (left to right).
/// On a rectangle that is not square only the 4 maps without the transpose keep its shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GridMap {
    pub transpose: bool,
    pub flip_rows: bool,
    pub flip_cols: bool,
}

impl GridMap {
    pub const IDENTITY: GridMap = GridMap { transpose: false, flip_rows: false, flip_cols: false };

    /// All 8, the identity first, then the three that keep a rectangle's shape, then the
    /// transposing ones (the quarter turns and the diagonal mirrors).
    pub const ALL: [GridMap; 8] = {
        let mut all = [Self::IDENTITY; 8];
        let mut i = 0;
        while i < 8 {
            all[i] = GridMap { transpose: i >= 4, flip_rows: i & 2 != 0, flip_cols: i & 1 != 0 };
            i += 1;
        }
        all
    };

    /// Whether the map sends a `rows` x `cols` grid onto itself.
    pub fn fits(self, rows: u8, cols: u8) -> bool {
        !self.transpose || rows == cols
    }

    /// The image of a square of a `rows` x `cols` grid the map fits.
    pub fn apply(self, rows: u8, cols: u8, c: Coord) -> Coord {
        let (row, col) = if self.transpose { (c.col, c.row) } else { (c.row, c.col) };
        Coord::new(if self.flip_rows { rows - 1 - row } else { row }, if self.flip_cols { cols - 1 - col } else { col })
    }

    /// The image of a step `(rows down, columns right)` between squares (a direction).
    pub fn apply_step(self, (down, right): (i8, i8)) -> (i8, i8) {
        let (down, right) = if self.transpose { (right, down) } else { (down, right) };
        (if self.flip_rows { -down } else { down }, if self.flip_cols { -right } else { right })
    }

    /// The maps that send a `rows` x `cols` grid onto itself and keep `kind` of every square
    /// (`kind(image) == kind(square)`: e.g. playable or blocked), the identity first.
    pub fn keeping(rows: u8, cols: u8, kind: impl Fn(Coord) -> u8) -> Vec<GridMap> {
        let squares = || (0..rows).flat_map(move |r| (0..cols).map(move |c| Coord::new(r, c)));
        Self::ALL
            .into_iter()
            .filter(|m| m.fits(rows, cols) && squares().all(|c| kind(m.apply(rows, cols, c)) == kind(c)))
            .collect()
    }

    /// Where the map sends each square of a `rows` x `cols` grid, in board order (row-major).
    pub fn permutation(self, rows: u8, cols: u8) -> Vec<usize> {
        (0..rows as usize * cols as usize)
            .map(|i| {
                let image = self.apply(rows, cols, Coord::new((i / cols as usize) as u8, (i % cols as usize) as u8));
                image.row as usize * cols as usize + image.col as usize
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_permutation(p: &[usize]) -> bool {
        let mut seen = vec![false; p.len()];
        p.iter().all(|&i| i < p.len() && !std::mem::replace(&mut seen[i], true))
    }

    fn compose(outer: &[usize], inner: &[usize]) -> Vec<usize> {
        inner.iter().map(|&i| outer[i]).collect()
    }

    /// The maps of a grid form a group: each is a permutation, the identity is first, and
    /// composites and inverses are in the set (checked on every size a game uses).
    #[test]
    fn grid_maps_form_a_group() {
        for (rows, cols, expected) in [(4, 4, 8), (8, 8, 8), (5, 5, 8), (3, 5, 4), (2, 7, 4)] {
            let maps: Vec<Vec<usize>> =
                GridMap::keeping(rows, cols, |_| 0).iter().map(|m| m.permutation(rows, cols)).collect();
            assert_eq!(maps.len(), expected, "{rows}x{cols}");
            assert_eq!(maps[0], (0..rows as usize * cols as usize).collect::<Vec<_>>());
            for a in &maps {
                assert!(is_permutation(a));
                let identity = maps[0].clone();
                assert!(maps.iter().any(|b| compose(a, b) == identity), "inverse");
                for b in &maps {
                    assert!(maps.contains(&compose(a, b)), "closure");
                }
            }
            let mut distinct = maps.clone();
            distinct.sort();
            distinct.dedup();
            assert_eq!(distinct.len(), maps.len());
        }
    }

    /// A map sends neighbours to neighbours, and the step between them to the mapped step.
    #[test]
    fn grid_maps_carry_steps_with_squares() {
        for m in GridMap::ALL {
            for (row, col) in [(1u8, 1u8), (2, 3), (0, 4)] {
                for step in [(-1i8, 0i8), (0, 1), (1, 0), (0, -1)] {
                    let from = Coord::new(row, col);
                    let to = Coord::new((row as i8 + step.0) as u8, (col as i8 + step.1) as u8);
                    if to.row >= 5 || to.col >= 5 {
                        continue;
                    }
                    let (a, b) = (m.apply(5, 5, from), m.apply(5, 5, to));
                    assert_eq!(m.apply_step(step), (b.row as i8 - a.row as i8, b.col as i8 - a.col as i8));
                }
            }
        }
    }

    #[test]
    fn keeping_drops_the_maps_that_move_a_marked_square() {
        // One marked corner: only the identity and the diagonal mirror through it remain.
        let maps = GridMap::keeping(4, 4, |c| (c == Coord::new(0, 0)) as u8);
        assert_eq!(maps.len(), 2);
        assert!(maps.iter().all(|m| m.apply(4, 4, Coord::new(0, 0)) == Coord::new(0, 0)));
    }

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
