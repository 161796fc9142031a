//! A Strands game (its layout, cover rule and moves) and its records.

use super::{named_layout, Cover, Strands};
use crate::error::{Error, Result};
use crate::game::{Game, Position, RecordedGame};
use crate::record;

#[derive(Clone)]
pub struct StrandsGame {
    /// The layout's name, or its rows as digits joined by `/`; None when set up from a position.
    pub layout: Option<String>,
    /// Every cell's label at the start (covered cells' labels are not in later positions).
    pub labels: Vec<u8>,
    pub game: Game<Strands>,
}

/// Rows written as digits joined by `/`.
pub fn rows_text(rows: &[Vec<u8>]) -> String {
    rows.iter().map(|r| r.iter().map(|l| (b'0' + l) as char).collect::<String>()).collect::<Vec<_>>().join("/")
}

/// Reads `hex6` (a named layout) or digit rows joined by `/`.
pub fn layout_rows(layout: &str) -> Result<Vec<Vec<u8>>> {
    if let Some(rows) = named_layout(layout) {
        return Ok(rows);
    }
    let rows: Vec<Vec<u8>> = layout.split('/').map(|r| r.bytes().map(|b| b.wrapping_sub(b'0')).collect()).collect();
    if rows.iter().flatten().any(|&l| l > 9) {
        return Err(Error::invalid(format!(
            "layout must be a known name (hex4, hex5, hex5-rings, hex6, hex6-edge4, hex6-low, hex7) or rows of digits, got {:?}",
            crate::square::truncate(layout)
        )));
    }
    Ok(rows)
}

impl StrandsGame {
    /// The current position in step form, knowing the start's labels (docs/actions.md,
    /// "Symmetries": they are the layout's, not those left on the empty cells).
    pub fn steps(&self) -> super::StrandsSteps {
        super::StrandsSteps::with_labels(*self.game.position(), &self.labels)
    }

    /// A new game: `name` is the layout's name when it is a named one.
    pub fn new(rows: &[Vec<u8>], name: Option<&str>, cover: Cover) -> Result<Self> {
        let start = Strands::new(rows, cover)?;
        let layout = Some(name.map_or_else(|| rows_text(rows), str::to_string));
        Ok(StrandsGame { layout, labels: rows.iter().flatten().copied().collect(), game: Game::new(start) })
    }
}

impl RecordedGame for StrandsGame {
    type P = Strands;
    const NAME: &'static str = "strands";
    const HUGE_MOVE_LISTS: bool = true;

    fn game(&self) -> &Game<Strands> {
        &self.game
    }

    fn game_mut(&mut self) -> &mut Game<Strands> {
        &mut self.game
    }

    fn from_position(text: &str) -> Result<Self> {
        let start = Strands::from_notation(text)?;
        let labels = (0..start.board().len() as u8).map(|c| start.label(c).unwrap_or(0)).collect();
        Ok(StrandsGame { layout: None, labels, game: Game::new(start) })
    }

    fn text_board(position: &Strands) -> String {
        position.text_board()
    }

    fn record(&self) -> String {
        let variant = self
            .layout
            .as_ref()
            .map(|layout| vec![("Layout", layout.clone()), ("Cover", self.game.start().cover().name().to_string())]);
        record::write("strands", Vec::new(), variant, &self.game)
    }

    fn from_record(text: &str) -> Result<Self> {
        let r = record::read(text, "strands", &[], &["Layout", "Cover"])?;
        let as_notation = |e: Error| Error::notation(format!("strands record: {e}"));
        let mut game = match r.tag("Position") {
            Some(position) => Self::from_position(position)?,
            None => {
                let layout =
                    r.tag("Layout").ok_or_else(|| Error::notation("strands record: the Layout tag is missing"))?;
                let cover = Cover::parse(r.tag("Cover").unwrap_or("up-to")).map_err(as_notation)?;
                let rows = layout_rows(layout).map_err(as_notation)?;
                let name = named_layout(layout).map(|_| layout);
                Self::new(&rows, name, cover).map_err(as_notation)?
            }
        };
        record::replay(&r, &mut game.game, "strands")?;
        Ok(game)
    }
}
