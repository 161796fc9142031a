//! `boardcore.Strands`, its `Move`, and a lazy iterator over its moves.

use crate::args;
use crate::errors::{invalid, BcError, BcResult};
use crate::game::{bind_game, MoveNaming};
use boardcore_engine::strands::{
    digit_row, layout_named, layout_names, parse_digit_row, Cover, Moves, Strands, StrandsGame, Variant, DEFAULT_LAYOUT,
};
use boardcore_engine::{Player, Position};
use pyo3::basic::CompareOp;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple, PyType};

type Move = boardcore_engine::strands::Move;

/// Strands moves are named on a given hex board.
pub use boardcore_engine::strands::StrandsNaming as Naming;

bind_game! {
    /// Strands, Nick Bentley's game of labelled hexes. See docs/strands.md for every rule.
    game PyStrands = "Strands" (StrandsGame, Variant),
    /// A Strands move: the cells covered in one turn (`d4,e5`). Compares equal to its notation string.
    move PyStrandsMove = "StrandsMove" (Move, Naming),
    searcher PyStrandsSearcher = "StrandsSearcher",
}

impl PyStrands {
    /// The current position in step form, with the start's labels (for its symmetries).
    pub(crate) fn steps_with_labels(&self) -> boardcore_engine::strands::StrandsActions {
        self.inner.steps()
    }
}

crate::game::bind_move_cells! {
    PyStrandsMove;
    /// The covered cells, in board order.
    cells => placed,
    /// The cells the move places stones on: its covered cells, in board order (as `cells`).
    placed => placed,
    /// The cells the move empties: always `()`.
    removed => removed,
}

/// The legal moves of a position, produced one at a time (see `Strands.moves`).
#[pyclass(name = "StrandsMoveIterator", module = "boardcore")]
pub struct PyStrandsMoveIterator {
    moves: Moves,
    naming: Naming,
}

#[pymethods]
impl PyStrandsMoveIterator {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self) -> Option<PyStrandsMove> {
        self.moves.next().map(|mv| PyStrandsMove { mv, naming: self.naming })
    }
}

/// A layout name, or rows of labels (digit strings, spaces ignored, or lists of ints).
fn layout_arg(layout: &Bound<'_, PyAny>) -> BcResult<(Vec<Vec<u8>>, Option<String>)> {
    if let Ok(name) = layout.cast::<PyString>() {
        let name = name.to_str().map_err(|_| invalid("layout: not valid text"))?;
        let (name, rows) = layout_named(name)?;
        return Ok((rows, Some(name.to_string())));
    }
    let bad = || invalid(format!("layout must be a name or rows of labels, got {}", args::shown_with_type(layout)));
    let mut rows = Vec::new();
    for row in layout.try_iter().map_err(|_| bad())? {
        let row = row.map_err(|_| bad())?;
        let labels: Vec<u8> = if let Ok(text) = row.cast::<PyString>() {
            parse_digit_row(text.to_str().map_err(|_| bad())?)?
        } else {
            let mut labels = Vec::new();
            for v in row.try_iter().map_err(|_| bad())? {
                let v = v.map_err(|_| bad())?;
                labels.push(args::int_in("layout: a label", &v, 0u8..=255)?);
            }
            labels
        };
        rows.push(labels);
    }
    Ok((rows, None))
}

#[pymethods]
impl PyStrands {
    /// `Strands(layout="hex6", cover="up-to")`.
    #[new]
    #[pyo3(signature = (layout = None, cover = None))]
    fn new(layout: Option<&Bound<'_, PyAny>>, cover: Option<&Bound<'_, PyAny>>) -> BcResult<Self> {
        let (rows, name) = match layout {
            Some(l) => layout_arg(l)?,
            None => (layout_named(DEFAULT_LAYOUT)?.1, Some(DEFAULT_LAYOUT.to_string())),
        };
        let cover = match cover {
            None => Cover::default(),
            Some(c) => Cover::parse(&c.extract::<String>().map_err(|_| {
                invalid(format!("cover must be 'up-to' or 'exact', got {}", args::shown_with_type(c)))
            })?)?,
        };
        Ok(PyStrands { inner: StrandsGame::new(Variant { rows, name, cover })? })
    }

    /// The rows of a seeded random layout (docs/strands.md gives the algorithm).
    #[staticmethod]
    fn random_layout(side: &Bound<'_, PyAny>, seed: &Bound<'_, PyAny>) -> BcResult<Vec<String>> {
        let side = args::int_in("side", side, 2u8..=7)?;
        let rows = Strands::random_layout(side, args::seed(seed)?)?;
        Ok(rows.iter().map(|row| digit_row(row)).collect())
    }

    /// The names of the named layouts, sorted.
    #[staticmethod]
    fn layout_names() -> Vec<&'static str> {
        layout_names()
    }

    /// `"up-to"` or `"exact"`.
    #[getter]
    fn cover(&self) -> &'static str {
        self.position().cover().name()
    }

    /// The named layout's name, or None for rows given directly (or a set-up position).
    #[getter]
    fn layout_name(&self) -> Option<String> {
        self.inner.variant().and_then(|v| v.name.clone())
    }

    /// The side of the hexhex board.
    #[getter]
    fn side(&self) -> u8 {
        self.position().side()
    }

    /// The board's rows as (length, offset in half-cells) pairs, as `Rive.rows`.
    #[getter]
    fn rows<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.position().board().rows.clone())
    }

    /// Every cell's label at the start of the game, in board order (0 where a set-up position
    /// hid it under a stone).
    #[getter]
    fn labels<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.inner.labels())
    }

    /// `(black_group_sizes, white_group_sizes)`, each sorted from largest.
    fn score(&self) -> (Vec<u32>, Vec<u32>) {
        (self.position().group_sizes(Player::Black), self.position().group_sizes(Player::White))
    }

    /// A lazy iterator over the legal moves, in `legal_moves()` order.
    fn moves(&self) -> PyStrandsMoveIterator {
        PyStrandsMoveIterator { moves: self.position().legal_moves(), naming: Naming(self.position().board()) }
    }
}

crate::registry::register_classes!(PyStrands, PyStrandsMove, PyStrandsMoveIterator, PyStrandsSearcher);

crate::eval::learned_with_local_patterns!(Strands, boardcore_engine::strands::Strands);
