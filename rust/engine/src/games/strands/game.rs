//! A Strands game's setup as records know it: layout and cover rule, as a [`crate::Variant`].
//! Everything else about a game is [`Game`]'s.

use super::{digit_row, layout_names, named_layout, Cover, Strands, StrandsActions};
use crate::error::{Error, Result};
use crate::game::{self, Game};
use crate::record::Record;

/// A Strands game: position, history, and how it was set up.
pub type StrandsGame = Game<Variant>;

/// The empty board of a layout (rows of labels forming a hexhex board), Black to move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variant {
    pub rows: Vec<Vec<u8>>,
    /// The layout's name when it is a named one (`hex6`); records then write the name.
    pub name: Option<String>,
    pub cover: Cover,
}

impl Variant {
    /// The layout as its record tag writes it: the name, or the rows as digits joined by `/`.
    pub fn layout(&self) -> String {
        self.name.clone().unwrap_or_else(|| rows_text(&self.rows))
    }
}

/// Rows written as digits joined by `/`.
pub fn rows_text(rows: &[Vec<u8>]) -> String {
    rows.iter().map(|row| digit_row(row)).collect::<Vec<_>>().join("/")
}

/// Reads `hex6` (a named layout) or digit rows joined by `/`.
pub fn layout_rows(layout: &str) -> Result<Vec<Vec<u8>>> {
    if let Some(rows) = named_layout(layout) {
        return Ok(rows);
    }
    let rows: Vec<Vec<u8>> = layout.split('/').map(|r| r.bytes().map(|b| b.wrapping_sub(b'0')).collect()).collect();
    if rows.iter().flatten().any(|&l| l > 9) {
        return Err(Error::invalid(format!(
            "layout must be a known name ({}) or rows of digits, got {:?}",
            layout_names().join(", "),
            crate::error::truncate(layout)
        )));
    }
    Ok(rows)
}

impl game::Variant for Variant {
    type Position = Strands;
    const NAME: &'static str = "strands";
    const HUGE_MOVE_LISTS: bool = true;
    const BOARD_TAGS: &'static [&'static str] = &[];
    const TAGS: &'static [&'static str] = &["Layout", "Cover"];

    fn start(&self) -> Result<Strands> {
        Strands::new(&self.rows, self.cover)
    }

    /// The layout names the board: no tag of its own.
    fn board_tags(_position: &Strands) -> Vec<(&'static str, String)> {
        Vec::new()
    }

    fn tags(&self) -> Vec<(&'static str, String)> {
        vec![("Layout", self.layout()), ("Cover", self.cover.name().to_string())]
    }

    fn from_tags(r: &Record) -> Result<Variant> {
        let as_notation = |e: Error| Error::notation(format!("strands record: {e}"));
        let layout = r.tag("Layout").ok_or_else(|| Error::notation("strands record: the Layout tag is missing"))?;
        let cover = Cover::parse(r.tag("Cover").unwrap_or("up-to")).map_err(as_notation)?;
        let rows = layout_rows(layout).map_err(as_notation)?;
        let name = named_layout(layout).map(|_| layout.to_string());
        Ok(Variant { rows, name, cover })
    }

    fn text_board(position: &Strands) -> String {
        position.text_board()
    }
}

impl Game<Variant> {
    /// Every cell's label at the start (covered cells' labels are not in later positions; a
    /// cell covered already in a position the game was set up from is 0).
    pub fn labels(&self) -> Vec<u8> {
        let start = self.start();
        (0..start.board().len() as u8).map(|c| start.label(c).unwrap_or(0)).collect()
    }

    /// The current position in step form, knowing the start's labels (docs/actions.md,
    /// "Symmetries": they are the layout's, not those left on the empty cells).
    pub fn steps(&self) -> StrandsActions {
        StrandsActions::with_labels(*self.position(), &self.labels())
    }
}
