//! `boardcore.Cephalopod`, its `Move`, and `PathCounts` (merged path counting as numpy arrays).

use crate::args;
use crate::errors::{invalid, BcError, BcResult};
use crate::game::{bind_game, MoveNaming};
use boardcore_engine::cephalopod::{CephalopodGame, CountOptions, Move, Variant};
use boardcore_engine::square::Rect;
use boardcore_engine::Position;
use pyo3::basic::CompareOp;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyType};

/// Cephalopod moves are named on a board of a given size.
pub use boardcore_engine::cephalopod::CephalopodNaming as Naming;

bind_game! {
    /// Cephalopod, Mark Steere's dice game. See docs/cephalopod.md for every rule and notation.
    game PyCephalopod = "Cephalopod" (CephalopodGame, Variant),
    /// A Cephalopod move: the square (`c3`), and for a capture the captured squares (`c3xc2,b3`).
    /// Compares equal to its notation string.
    move PyCephalopodMove = "CephalopodMove" (Move, Naming),
    searcher PyCephalopodSearcher = "CephalopodSearcher",
}

#[pymethods]
impl PyCephalopodMove {
    /// The square the die is placed on.
    #[getter]
    fn square(&self) -> String {
        self.naming.0.name(self.mv.square)
    }
}

crate::game::bind_move_cells! {
    PyCephalopodMove;
    /// The captured squares, in board order (empty for a plain placement).
    captures => removed,
    /// The squares the move places a die on: `(square,)`.
    placed => placed,
    /// The squares the move empties: the captured ones, in board order (as `captures`).
    removed => removed,
}

fn side_arg(name: &str, value: Option<&Bound<'_, PyAny>>) -> BcResult<u8> {
    value.map_or(Ok(5), |v| args::int_in(name, v, 2..=Rect::MAX_SIDE))
}

#[pymethods]
impl PyCephalopod {
    /// `Cephalopod(rows=5, cols=5)`: an empty board of 2 to 8 rows and columns, Black to move.
    #[new]
    #[pyo3(signature = (rows = None, cols = None))]
    fn new(rows: Option<&Bound<'_, PyAny>>, cols: Option<&Bound<'_, PyAny>>) -> BcResult<Self> {
        let (rows, cols) = (side_arg("rows", rows)?, side_arg("cols", cols)?);
        Ok(PyCephalopod { inner: CephalopodGame::new(Variant { rows, cols })? })
    }

    /// The number of rows of the board (2-8).
    #[getter]
    fn rows(&self) -> u8 {
        self.position().rect().rows
    }

    /// The number of columns of the board (2-8).
    #[getter]
    fn cols(&self) -> u8 {
        self.position().rect().cols
    }

    /// `(black_dice, white_dice)`.
    fn score(&self) -> (u32, u32) {
        self.position().score()
    }

    /// `(low, high)`: `uint64` arrays `(len(cells), 7)`, the low and high 64 bits of `T[s, p]`,
    /// the number of move sequences of `depth` plies (fewer when the board fills) whose final
    /// board shows `p` pips on square `s` (0 for empty); owners are not told apart. The same as
    /// `count_paths(depth, owners=False).square_totals()`, read off the count without listing
    /// the final boards. A linear statistic of the final boards, `sum over paths of
    /// weight(s, pips on s)` summed over squares, is `sum T[s, p] * weight(s, p)`
    /// (docs/cephalopod.md). `wrapping=True` counts modulo 2**64 (faster; `high` is then 0);
    /// `symmetry`, `max_positions` and `progress` as for `count_paths`. Releases the GIL;
    /// interruptible.
    #[pyo3(signature = (depth, *, symmetry = true, wrapping = false, max_positions = None, progress = None))]
    fn path_totals<'py>(
        slf: &Bound<'py, Self>,
        depth: &Bound<'py, PyAny>,
        symmetry: bool,
        wrapping: bool,
        max_positions: Option<&Bound<'py, PyAny>>,
        progress: Option<&Bound<'py, PyAny>>,
    ) -> BcResult<crate::game::LowHigh<'py>> {
        let depth = args::depth_unbounded(depth)?;
        let max_positions = args::max_positions(max_positions)?;
        let progress = crate::game::progress_callback(progress)?;
        // A copy of the position: no borrow of the game is held while the GIL is released (a
        // progress callback or another thread may play on it meanwhile).
        let (py, position) = (slf.py(), *slf.borrow().position());
        let options = CountOptions { symmetry, wrapping, max_positions };
        let totals = crate::interrupt::run_reporting(py, progress, depth, |stop, report| {
            boardcore_engine::cephalopod::colour_free_totals(&position, depth, options, stop, report)
        })?;
        Ok(crate::game::low_high(py, &totals, position.rect().len()))
    }
}

crate::registry::register_classes!(PyCephalopod, PyCephalopodMove, PyCephalopodSearcher);

crate::eval::learned_with_local_patterns!(Cephalopod, boardcore_engine::cephalopod::Cephalopod);
