//! The layouts: the named ones (rows of labels from the top, as in
//! `python/boardcore/data/strands_layouts.json`; a test checks them against the JSON file in
//! tests/data), their names, the written form of rows (digit strings), and the seeded random
//! layout. Which rows form a valid board is `Setup::validate`'s to say (setup.rs).

use super::Strands;
use crate::error::{Error, Result};
use crate::hex::{hexhex_rows, HexBoard};
use crate::rng::SplitMix64;

/// The layout of a game set up without one.
pub const DEFAULT_LAYOUT: &str = "hex6";

/// The rows of a named layout, or None.
pub fn named_layout(name: &str) -> Option<Vec<Vec<u8>>> {
    LAYOUTS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, rows)| rows.iter().map(|r| r.bytes().map(|b| b - b'0').collect()).collect())
}

/// The names of the named layouts, sorted.
pub fn layout_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = LAYOUTS.iter().map(|&(name, _)| name).collect();
    names.sort_unstable();
    names
}

/// The layout called `name` in any case (as moves are read), as its name in lower case and its
/// rows; or an error listing the names. For the constructors: notation is read as written.
pub fn layout_named(name: &str) -> Result<(&'static str, Vec<Vec<u8>>)> {
    let canonical = layout_names().into_iter().find(|known| known.eq_ignore_ascii_case(name));
    canonical.and_then(|known| Some((known, named_layout(known)?))).ok_or_else(|| {
        Error::invalid(format!(
            "layout must be {} or rows of labels, got {:?}",
            layout_names().join(", "),
            crate::error::truncate(name)
        ))
    })
}

/// A row of labels written as digits, spaces ignored (`"6446"` or `"6 4 4 6"`).
pub fn parse_digit_row(text: &str) -> Result<Vec<u8>> {
    let digits: Vec<u8> = text.bytes().filter(|b| *b != b' ').collect();
    if !digits.iter().all(u8::is_ascii_digit) {
        return Err(Error::invalid(format!("layout: rows are digits 1-6, got {text:?}")));
    }
    Ok(digits.into_iter().map(|b| b - b'0').collect())
}

/// A row of labels written as digits.
pub fn digit_row(row: &[u8]) -> String {
    row.iter().map(|&label| (b'0' + label) as char).collect()
}

impl Strands {
    /// The rows of a seeded random layout (docs/strands.md gives the algorithm).
    pub fn random_layout(side: u8, seed: u64) -> Result<Vec<Vec<u8>>> {
        if !super::setup::SIDES.contains(&side) {
            return Err(Error::invalid(format!("side must be 2 to 7, got {side}")));
        }
        let board = HexBoard::from_rows(&hexhex_rows(side))?;
        let mut rng = SplitMix64::new(seed);
        let mut labels: Vec<u8> = (0..board.len() as u8)
            .map(|cell| {
                let level = (5 * ring(board, side, cell) as i64) / (side as i64 - 1);
                let jitter = rng.below(3) as i64 - 1;
                1 + (level + jitter).clamp(0, 5) as u8
            })
            .collect();
        if !labels.contains(&super::setup::OPENING_LABEL) {
            let first_of_ring_1 = (0..board.len() as u8).find(|&c| ring(board, side, c) == 1).unwrap_or(0);
            labels[first_of_ring_1 as usize] = super::setup::OPENING_LABEL;
        }
        let mut rows = Vec::new();
        let mut it = labels.into_iter();
        for &(length, _) in &board.rows {
            rows.push(it.by_ref().take(length as usize).collect());
        }
        Ok(rows)
    }
}

/// A cell's ring distance from the centre of a hexhex board of side `side`.
fn ring(board: &HexBoard, side: u8, cell: u8) -> u8 {
    let (row, i) = board.place(cell);
    let offset = board.rows[row as usize].1 as i32;
    // Cube coordinates from (row, x): r from the middle row, q from x.
    let r = row as i32 - (side as i32 - 1);
    let x = offset + 2 * i as i32 - 2 * (side as i32 - 1);
    let q = (x - r) / 2;
    let s = -q - r;
    q.abs().max(r.abs()).max(s.abs()) as u8
}

pub const LAYOUTS: &[(&str, &[&str])] = &[
    ("hex5", &["64446", "433334", "4222224", "43222234", "632212236", "43222234", "4222224", "433334", "64446"]),
    (
        "hex6-edge4",
        &[
            "644446",
            "4333334",
            "43222234",
            "432222234",
            "4322222234",
            "63222122236",
            "4322222234",
            "432222234",
            "43222234",
            "4333334",
            "644446",
        ],
    ),
    (
        "hex6-low",
        &[
            "333333",
            "3222223",
            "32222223",
            "322222223",
            "3222222223",
            "32222122223",
            "3222222223",
            "322222223",
            "32222223",
            "3222223",
            "333333",
        ],
    ),
    (
        "hex7",
        &[
            "6655566",
            "64333346",
            "533222335",
            "5322222235",
            "53222222235",
            "632222122246",
            "6432211122346",
            "642221222236",
            "53222222235",
            "5322222235",
            "533222335",
            "64333346",
            "6655566",
        ],
    ),
    ("hex4", &["4334", "32223", "322223", "4221224", "322223", "32223", "4334"]),
    ("hex5-rings", &["64446", "433334", "4322234", "43222234", "632212236", "43222234", "4322234", "433334", "64446"]),
    (
        "hex6",
        &[
            "655556",
            "5333335",
            "53222235",
            "532222235",
            "5322222235",
            "63222122236",
            "5322222235",
            "532222235",
            "53222235",
            "5333335",
            "655556",
        ],
    ),
];
