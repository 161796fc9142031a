//! Hexagonal boards drawn in rows (pointy-top cells), shared by Rive and Strands.
//!
//! A board is a list of rows, each a length and a horizontal offset in half-cells; the `i`-th cell
//! of a row sits at `x = offset + 2 i`. Neighbours are side by side in a row (`x` two apart) or in
//! adjacent rows half a cell apart (`x` one apart). Cells are indexed row by row from the top and
//! named by row letter and number from the left (`c3`). Boards have at most 128 cells, so a set
//! of cells is a `u128`.

use crate::error::truncate;
use crate::error::{Error, Result};
use std::sync::{Mutex, OnceLock};

pub const MAX_CELLS: usize = 128;
pub const MAX_ROWS: usize = 26;

/// The six directions of [`HexBoard::around`] as (row, x) steps, anticlockwise from the right.
const DIRECTIONS: [(i32, i32); 6] = [(0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1), (1, 1)];

#[derive(Debug, PartialEq, Eq)]
pub struct HexBoard {
    /// (length, offset) per row, from the top.
    pub rows: Vec<(u8, u8)>,
    /// The named layout's name (`hex335`), or the rows written `L@O,L@O,...`.
    pub name: String,
    /// Index of the first cell of each row.
    pub row_start: Vec<u8>,
    /// Per cell, its neighbours as a set.
    pub neighbours: Vec<u128>,
    /// Per cell, its neighbour in each of the six directions, turning anticlockwise from the
    /// right (right, up right, up left, left, down left, down right); [`HexBoard::NONE`] where
    /// the board ends. Rotating a direction by 60 degrees is adding one (local patterns).
    pub around: Vec<[u8; 6]>,
    /// Every cell.
    pub all: u128,
    /// Where each cell sits in a rectangle of axial coordinates (observation planes).
    pub axial: AxialGrid,
    /// The cells read along the two other directions of lines (cells are indexed along the
    /// rows): the columns of equal axial `q`, then the lines of equal `q + r`, each line from
    /// the top. Rive's counting programme decides a group's cells along the narrowest of the three.
    pub other_lines: [LineOrder; 2],
}

/// The cells in the order of one direction of lines: line by line, each line from the top.
#[derive(Debug, PartialEq, Eq)]
pub struct LineOrder {
    /// Per cell, its position in the order.
    pub position: Vec<u8>,
    /// Per position, its cell.
    pub cell: Vec<u8>,
}

impl LineOrder {
    /// The cells sorted by `key`.
    fn by<K: Ord>(cells: usize, key: impl Fn(usize) -> K) -> LineOrder {
        let mut cell: Vec<u8> = (0..cells as u8).collect();
        cell.sort_by_key(|&c| key(c as usize));
        let mut position = vec![0u8; cells];
        for (at, &c) in cell.iter().enumerate() {
            position[c as usize] = at as u8;
        }
        LineOrder { position, cell }
    }
}

/// The axial embedding of a board into a rectangle, for observation planes: the cell at
/// `x = offset + 2 i` of row `r` goes to grid row `r`, column `q = floor((x - r) / 2)` shifted so
/// that the smallest `q` is 0. On a board whose rows alternate offset parity (every hexhex board,
/// hex335) `q` is the axial coordinate, so a cell's six neighbours sit at (r, q-1), (r, q+1),
/// (r-1, q), (r-1, q+1), (r+1, q-1), (r+1, q); on any board distinct cells get distinct points.
#[derive(Debug, PartialEq, Eq)]
pub struct AxialGrid {
    pub height: usize,
    pub width: usize,
    /// Per cell, its grid point `row * width + q`.
    pub points: Vec<usize>,
}

impl AxialGrid {
    /// `places` holds each cell's (row, x), in board order.
    fn of(places: &[(i32, i32)]) -> AxialGrid {
        let q = |&(r, x): &(i32, i32)| (x - r).div_euclid(2);
        let q_min = places.iter().map(q).min().unwrap_or(0);
        let width = places.iter().map(|p| q(p) - q_min + 1).max().unwrap_or(0) as usize;
        let height = places.iter().map(|&(r, _)| r + 1).max().unwrap_or(0) as usize;
        let points = places.iter().map(|p| p.0 as usize * width + (q(p) - q_min) as usize).collect();
        AxialGrid { height, width, points }
    }

    /// `(row, col)` of a cell's grid point.
    pub fn cell_point(&self, cell: usize) -> (usize, usize) {
        (self.points[cell] / self.width, self.points[cell] % self.width)
    }

    /// Sets the grid point of every cell of `cells` to `value` in plane `plane` of `planes`
    /// (planes of `height x width`, one after another).
    pub fn mark(&self, planes: &mut [f32], plane: usize, cells: u128, value: f32) {
        let base = plane * self.height * self.width;
        let mut rest = cells;
        while rest != 0 {
            planes[base + self.points[rest.trailing_zeros() as usize]] = value;
            rest &= rest - 1;
        }
    }
}

impl AxialGrid {
    /// The permutation of the grid points that a permutation of the cells gives (`cells[c]` is
    /// the image of cell `c`): each cell's point goes to its image's point, and the points that
    /// are no cell stay where they are (they are 0 in every plane).
    pub fn point_permutation(&self, cells: &[u8]) -> Vec<usize> {
        let mut points: Vec<usize> = (0..self.height * self.width).collect();
        for (cell, &image) in cells.iter().enumerate() {
            points[self.points[cell]] = self.points[image as usize];
        }
        points
    }
}

/// The 12 maps of the hexagonal lattice about a point (the dihedral group D6): the rotations by
/// `k` sixths of a turn, `k = 0..6` (the identity first), then the mirror `x -> -x` followed
/// by each rotation. Coordinates are (row, x) in half-cells as in [`HexBoard`]; measured with
/// `y = row * sqrt(3)`, neighbours are all at distance 2, so the maps are isometries.
const HEX_MAPS: usize = 12;

/// A sixth of a turn on centred coordinates, scaled so that they stay integers: `(x, y)` with
/// `y = row * sqrt 3` turns to `(x/2 - 3 row/2, (x + row)/2)`; None off the lattice.
fn sixth_turn((x, row): (i64, i64)) -> Option<(i64, i64)> {
    let (x2, row2) = (x - 3 * row, x + row);
    (x2 % 2 == 0 && row2 % 2 == 0).then_some((x2 / 2, row2 / 2))
}

/// Map `index` of `HEX_MAPS` applied to centred coordinates.
fn hex_map(index: usize, (x, row): (i64, i64)) -> Option<(i64, i64)> {
    let mirrored = if index >= 6 { (-x, row) } else { (x, row) };
    (0..index % 6).try_fold(mirrored, |p, _| sixth_turn(p))
}

/// The rows of the hexhex board of side `n`.
pub fn hexhex_rows(n: u8) -> Vec<(u8, u8)> {
    (0..2 * n - 1)
        .map(|i| {
            let from_middle = (i as i32 - (n as i32 - 1)).unsigned_abs() as u8;
            (2 * n - 1 - from_middle, from_middle)
        })
        .collect()
}

fn named_rows(name: &str) -> Option<Vec<(u8, u8)>> {
    if name == "hex335" {
        return Some(vec![(3, 2), (4, 1), (5, 0), (5, 1), (5, 2), (4, 3), (3, 4)]);
    }
    let digits = name.strip_prefix("hex")?;
    if digits.len() != 1 || !digits.as_bytes()[0].is_ascii_digit() {
        return None;
    }
    let n: u8 = digits.parse().ok()?;
    (2..=7).contains(&n).then(|| hexhex_rows(n))
}

fn name_of(rows: &[(u8, u8)]) -> String {
    if named_rows("hex335").as_deref() == Some(rows) {
        return "hex335".into();
    }
    for n in 2..=7 {
        if hexhex_rows(n) == rows {
            return format!("hex{n}");
        }
    }
    rows.iter().map(|(l, o)| format!("{l}@{o}")).collect::<Vec<_>>().join(",")
}

impl HexBoard {
    /// A named layout only: `hex3`, `hex335`, `hex4`, `hexN` (2 <= N <= 7).
    pub fn by_name(name: &str) -> Result<&'static HexBoard> {
        // In any case, as moves are read (`HEX5`); notation is read as written.
        match named_rows(&name.to_ascii_lowercase()) {
            Some(rows) => Self::from_rows(&rows),
            None => Err(Error::invalid(format!(
                "board must be hex3, hex335, hex4 or hexN (2 <= N <= 7), or a list of (length, offset) rows; got {:?}",
                truncate(name)
            ))),
        }
    }

    /// A board as named in position notation: a named layout, or a custom one written
    /// `L@O,L@O,...`.
    pub fn named(name: &str) -> Result<&'static HexBoard> {
        if let Some(rows) = named_rows(name) {
            return Self::from_rows(&rows);
        }
        let rows: Option<Vec<(u8, u8)>> = name
            .split(',')
            .map(|row| {
                let (l, o) = row.split_once('@')?;
                // Canonical numbers only (no leading zeros), so that a board has one name.
                let canonical = |t: &str| {
                    !t.is_empty()
                        && t.len() <= 2
                        && t.bytes().all(|b| b.is_ascii_digit())
                        && (t == "0" || !t.starts_with('0'))
                };
                let number = |t: &str| canonical(t).then(|| t.parse::<u8>().ok()).flatten();
                Some((number(l)?, number(o)?))
            })
            .collect();
        match rows {
            Some(rows) => Self::from_rows(&rows),
            None => Err(Error::invalid(format!(
                "board must be hex3, hex335, hex4, hexN (2 <= N <= 7) or rows like '3@2,4@1', got {:?}",
                truncate(name)
            ))),
        }
    }

    /// The board with these rows, built once and shared (boards are interned, never freed).
    pub fn from_rows(rows: &[(u8, u8)]) -> Result<&'static HexBoard> {
        let bad = |why: String| Err(Error::invalid(format!("board: {why}")));
        if rows.is_empty() || rows.len() > MAX_ROWS {
            return bad(format!("a board has 1 to {MAX_ROWS} rows, got {}", rows.len()));
        }
        if let Some((l, o)) = rows.iter().find(|(l, o)| !(1..=99).contains(l) || *o > 99) {
            return bad(format!("row {l}@{o}: lengths are 1 to 99 and offsets 0 to 99"));
        }
        let cells: usize = rows.iter().map(|&(l, _)| l as usize).sum();
        if cells > MAX_CELLS {
            return bad(format!("at most {MAX_CELLS} cells, got {cells}"));
        }
        static BOARDS: OnceLock<Mutex<Vec<&'static HexBoard>>> = OnceLock::new();
        let mut boards = BOARDS.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
        if let Some(board) = boards.iter().find(|b| b.rows == rows) {
            return Ok(board);
        }
        let board: &'static HexBoard = Box::leak(Box::new(Self::build(rows)));
        boards.push(board);
        Ok(board)
    }

    fn build(rows: &[(u8, u8)]) -> HexBoard {
        let mut row_start = Vec::new();
        let mut places = Vec::new(); // (row, x) per cell
        for (r, &(length, offset)) in rows.iter().enumerate() {
            row_start.push(places.len() as u8);
            places.extend((0..length as i32).map(|i| (r as i32, offset as i32 + 2 * i)));
        }
        let neighbours = places
            .iter()
            .map(|&(r, x)| {
                places.iter().enumerate().fold(0u128, |set, (j, &(r2, x2))| {
                    let adjacent = (r == r2 && (x - x2).abs() == 2) || ((r - r2).abs() == 1 && (x - x2).abs() == 1);
                    if adjacent {
                        set | 1u128 << j
                    } else {
                        set
                    }
                })
            })
            .collect();
        let around = places
            .iter()
            .map(|&(r, x)| {
                DIRECTIONS.map(|(dr, dx)| {
                    let at = places.iter().position(|&p| p == (r + dr, x + dx));
                    at.map_or(Self::NONE, |j| j as u8)
                })
            })
            .collect();
        let all = if places.len() == 128 { u128::MAX } else { (1u128 << places.len()) - 1 };
        let axial = AxialGrid::of(&places);
        let point = |c: usize| axial.cell_point(c); // (r, q)
        let other_lines = [
            LineOrder::by(places.len(), |c| (point(c).1, point(c).0)),
            LineOrder::by(places.len(), |c| (point(c).1 + point(c).0, point(c).0)),
        ];
        HexBoard { rows: rows.to_vec(), name: name_of(rows), row_start, neighbours, around, all, axial, other_lines }
    }

    /// The index no cell has, for a neighbour off the board.
    pub const NONE: u8 = u8::MAX;

    pub fn len(&self) -> usize {
        self.neighbours.len()
    }

    pub fn is_empty(&self) -> bool {
        self.neighbours.is_empty()
    }

    /// (row, number from 0) of a cell.
    pub fn place(&self, cell: u8) -> (u8, u8) {
        let row = self.row_start.iter().rposition(|&s| s <= cell).unwrap_or(0);
        (row as u8, cell - self.row_start[row])
    }

    pub fn cell_name(&self, cell: u8) -> String {
        let (row, i) = self.place(cell);
        format!("{}{}", (b'a' + row) as char, i + 1)
    }

    /// The names of the cells of `set`, in board order.
    pub fn cell_names(&self, set: u128) -> Vec<String> {
        (0..self.len() as u8).filter(|&cell| set >> cell & 1 == 1).map(|cell| self.cell_name(cell)).collect()
    }

    /// The side of a hexhex board (its middle row is the longest, `2 * side - 1` rows in all).
    pub fn side(&self) -> u8 {
        self.rows.len().div_ceil(2) as u8
    }

    /// Parses a cell name: malformed text is a notation error, a cell not on this board an
    /// illegal move.
    pub fn parse_cell(&self, text: &str) -> Result<u8> {
        let t = crate::text::trim(text).to_ascii_lowercase();
        let bytes = t.as_bytes();
        let well_formed = bytes.len() >= 2
            && bytes.len() <= 3
            && bytes[0].is_ascii_lowercase()
            && bytes[1..].iter().all(u8::is_ascii_digit)
            && bytes[1] != b'0';
        if !well_formed {
            return Err(Error::notation(format!("expected a cell like 'c3', got {:?}", truncate(text))));
        }
        let row = (bytes[0] - b'a') as usize;
        let number: usize = t[1..].parse().unwrap_or(0);
        match self.rows.get(row) {
            Some(&(length, _)) if number <= length as usize => Ok(self.row_start[row] + number as u8 - 1),
            _ => Err(Error::illegal(format!("{t} is not a cell of {}", self.name))),
        }
    }

    /// A readable picture: each row indented by its offset, its cells drawn by `cell` and
    /// separated by spaces, so that neighbours sit diagonally next to each other.
    /// The rows as in position notation: one character per cell, rows joined by `/`.
    pub fn notation_rows(&self, cell: impl Fn(u8) -> char) -> String {
        let rows: Vec<String> = self
            .rows
            .iter()
            .enumerate()
            .map(|(r, &(length, _))| (0..length).map(|i| cell(self.row_start[r] + i)).collect())
            .collect();
        rows.join("/")
    }

    pub fn draw(&self, cell: impl Fn(u8) -> char) -> String {
        self.rows
            .iter()
            .enumerate()
            .map(|(r, &(length, offset))| {
                let cells: Vec<String> = (0..length).map(|i| cell(self.row_start[r] + i).to_string()).collect();
                format!("{}{}", " ".repeat(offset as usize), cells.join(" "))
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The board's symmetries: of the 12 maps of a hexagon about the board's centre (`HEX_MAPS`,
    /// identity first), those that send every cell onto a cell with the same `kind` (e.g. a
    /// Strands label), each as the image of every cell in board order. They keep neighbours.
    pub fn symmetries(&self, kind: impl Fn(u8) -> u8) -> Vec<Vec<u8>> {
        let places: Vec<(i64, i64)> = (0..self.len() as u8)
            .map(|cell| {
                let (row, i) = self.place(cell);
                (self.rows[row as usize].1 as i64 + 2 * i as i64, row as i64)
            })
            .collect();
        // Centred on the centroid (which every symmetry fixes), scaled by the number of cells.
        let n = places.len() as i64;
        let (sum_x, sum_row) = places.iter().fold((0, 0), |(a, b), &(x, r)| (a + x, b + r));
        let centred = |(x, r): (i64, i64)| (n * x - sum_x, n * r - sum_row);
        let cell_at: std::collections::HashMap<(i64, i64), u8> =
            places.iter().enumerate().map(|(cell, &p)| (centred(p), cell as u8)).collect();
        (0..HEX_MAPS)
            .filter_map(|index| {
                let image = |cell: usize| hex_map(index, centred(places[cell])).and_then(|p| cell_at.get(&p).copied());
                (0..places.len())
                    .map(|cell| image(cell).filter(|&to| kind(to) == kind(cell as u8)))
                    .collect::<Option<Vec<u8>>>()
            })
            .collect()
    }

    /// The cells next to any cell of `set`.
    #[inline]
    pub fn dilate(&self, set: u128) -> u128 {
        let mut out = 0;
        let mut rest = set;
        while rest != 0 {
            out |= self.neighbours[rest.trailing_zeros() as usize];
            rest &= rest - 1;
        }
        out
    }

    /// The groups (connected parts) of `stones`, each as a cell set, in the order of their lowest
    /// cell: the one group finder of both hex games.
    #[inline]
    pub fn groups(&self, stones: u128) -> Groups<'_> {
        Groups { board: self, stones, rest: stones }
    }

    /// The connected part of `within` that contains `seed`.
    #[inline]
    pub fn component(&self, seed: u128, within: u128) -> u128 {
        let mut group = seed & within;
        if group == 0 {
            return 0;
        }
        // Callers mostly grow from one cell: its first ring is one lookup, with no loop over a
        // frontier of one (groups of one are common at the end of a Strands game).
        let mut frontier = if group.is_power_of_two() {
            self.neighbours[group.trailing_zeros() as usize] & within & !group
        } else {
            group
        };
        group |= frontier;
        while frontier != 0 {
            let grown = self.dilate(frontier) & within & !group;
            group |= grown;
            frontier = grown;
        }
        group
    }
}

/// The groups of a cell set, found one flood fill at a time (`HexBoard::groups`).
pub struct Groups<'a> {
    board: &'a HexBoard,
    stones: u128,
    rest: u128,
}

impl Groups<'_> {
    /// The stones not yet in a group returned so far (callers stop early once too few are left
    /// to matter).
    #[inline]
    pub fn remaining(&self) -> u128 {
        self.rest
    }
}

impl Iterator for Groups<'_> {
    type Item = u128;

    #[inline]
    fn next(&mut self) -> Option<u128> {
        if self.rest == 0 {
            return None;
        }
        let group = self.board.component(self.rest & self.rest.wrapping_neg(), self.stones);
        self.rest &= !group;
        Some(group)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compose(outer: &[u8], inner: &[u8]) -> Vec<u8> {
        inner.iter().map(|&i| outer[i as usize]).collect()
    }

    #[test]
    fn the_other_lines_read_every_cell_once_along_lines_of_neighbours() {
        for name in ["hex3", "hex5", "hex7", "hex335"] {
            let board = HexBoard::named(name).unwrap();
            // The lines of each order: columns of equal axial q, then lines of equal q + r.
            let line_of = |order: usize, cell: usize| {
                let (r, q) = board.axial.cell_point(cell);
                if order == 0 {
                    q
                } else {
                    q + r
                }
            };
            for (order, lines) in board.other_lines.iter().enumerate() {
                let mut seen = 0u128;
                for (at, &cell) in lines.cell.iter().enumerate() {
                    assert_eq!(lines.position[cell as usize] as usize, at);
                    seen |= 1u128 << cell;
                }
                assert_eq!(seen, board.all);
                // Within a line consecutive cells are neighbours; a new line starts elsewhere.
                for pair in lines.cell.windows(2) {
                    let (a, b) = (pair[0] as usize, pair[1] as usize);
                    let same_line = line_of(order, a) == line_of(order, b);
                    assert_eq!(board.neighbours[a] >> b & 1 == 1, same_line, "{name} order {order}: {a} {b}");
                }
            }
        }
    }

    /// Every hexhex board and hex335 have the symmetries their shape promises, each a
    /// permutation keeping neighbours; the set is closed under composition and inverses.
    #[test]
    fn hex_symmetries_form_a_group_that_keeps_neighbours() {
        let boards = ["hex2", "hex3", "hex4", "hex5", "hex7", "hex335", "3@0,2@1", "2@1,3@0", "3@0,2@0"];
        for (name, expected) in boards.into_iter().zip([12, 12, 12, 12, 12, 4, 2, 2, 1]) {
            let b = HexBoard::named(name).unwrap();
            let maps = b.symmetries(|_| 0);
            assert_eq!(maps.len(), expected, "{name}");
            let identity: Vec<u8> = (0..b.len() as u8).collect();
            assert_eq!(maps[0], identity);
            for m in &maps {
                let mut sorted = m.clone();
                sorted.sort_unstable();
                assert_eq!(sorted, identity, "a permutation");
                for cell in 0..b.len() {
                    for other in 0..b.len() {
                        let adjacent = |a: usize, c: usize| b.neighbours[a] >> c & 1 == 1;
                        assert_eq!(adjacent(cell, other), adjacent(m[cell] as usize, m[other] as usize));
                    }
                }
                assert!(maps.iter().any(|n| compose(m, n) == identity), "inverse");
                for n in &maps {
                    assert!(maps.contains(&compose(m, n)), "closure");
                }
            }
        }
    }

    #[test]
    fn a_kind_on_one_cell_leaves_the_maps_that_fix_it() {
        let b = HexBoard::named("hex3").unwrap();
        let a1 = b.parse_cell("a1").unwrap();
        let maps = b.symmetries(|cell| (cell == a1) as u8);
        // A corner lies on one mirror line through the centre.
        assert_eq!(maps.len(), 2);
        assert!(maps.iter().all(|m| m[a1 as usize] == a1));
        let centre = b.parse_cell("c3").unwrap();
        assert_eq!(b.symmetries(|cell| (cell == centre) as u8).len(), 12);
    }

    #[test]
    fn point_permutations_follow_the_cells_and_fix_the_rest() {
        let b = HexBoard::named("hex3").unwrap();
        for m in b.symmetries(|_| 0) {
            let points = b.axial.point_permutation(&m);
            for cell in 0..b.len() {
                assert_eq!(points[b.axial.points[cell]], b.axial.points[m[cell] as usize]);
            }
            let mut sorted = points.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..25).collect::<Vec<_>>());
        }
    }

    #[test]
    fn named_boards_have_the_documented_sizes() {
        assert_eq!(HexBoard::named("hex3").unwrap().len(), 19);
        assert_eq!(HexBoard::named("hex335").unwrap().len(), 29);
        assert_eq!(HexBoard::named("hex4").unwrap().len(), 37);
        for n in 2..=7u32 {
            assert_eq!(HexBoard::named(&format!("hex{n}")).unwrap().len() as u32, 3 * n * (n - 1) + 1);
        }
    }

    #[test]
    fn the_centre_of_hex3_has_six_neighbours_and_corners_three() {
        let b = HexBoard::named("hex3").unwrap();
        let centre = b.parse_cell("c3").unwrap();
        assert_eq!(b.neighbours[centre as usize].count_ones(), 6);
        assert_eq!(b.neighbours[b.parse_cell("a1").unwrap() as usize].count_ones(), 3);
    }

    #[test]
    fn custom_rows_equal_to_a_named_layout_take_its_name() {
        assert_eq!(HexBoard::named("3@2,4@1,5@0,4@1,3@2").unwrap().name, "hex3");
        assert_eq!(HexBoard::named("3@0,2@1").unwrap().name, "3@0,2@1");
    }

    #[test]
    fn the_axial_grid_of_hex3_is_five_by_five_and_keeps_neighbours_adjacent() {
        let b = HexBoard::named("hex3").unwrap();
        assert_eq!((b.axial.height, b.axial.width), (5, 5));
        let point = |cell: u8| (b.axial.points[cell as usize] / 5, b.axial.points[cell as usize] % 5);
        assert_eq!(point(b.parse_cell("a1").unwrap()), (0, 2));
        assert_eq!(point(b.parse_cell("c1").unwrap()), (2, 0));
        assert_eq!(point(b.parse_cell("e3").unwrap()), (4, 2));
        let offsets = [(0, -1), (0, 1), (-1, 0), (-1, 1), (1, -1), (1, 0)];
        for cell in 0..b.len() as u8 {
            let (r, q) = point(cell);
            for n in (0..b.len() as u8).filter(|&n| b.neighbours[cell as usize] >> n & 1 == 1) {
                let (nr, nq) = point(n);
                assert!(offsets.contains(&(nr as i32 - r as i32, nq as i32 - q as i32)));
            }
        }
    }

    #[test]
    fn rows_of_one_parity_still_get_distinct_points() {
        let b = HexBoard::named("3@0,2@0").unwrap();
        let mut points = b.axial.points.clone();
        points.sort_unstable();
        points.dedup();
        assert_eq!(points.len(), 5);
        assert!(points.iter().all(|&p| p < b.axial.height * b.axial.width));
    }

    #[test]
    fn cell_names_round_trip() {
        let b = HexBoard::named("hex335").unwrap();
        for cell in 0..b.len() as u8 {
            assert_eq!(b.parse_cell(&b.cell_name(cell)).unwrap(), cell);
        }
    }
}
