//! `boardcore.Cephalopod`, its `Move`, and `PathCounts` (merged path counting as numpy arrays).

use crate::args;
use crate::errors::{invalid, BcError, BcResult};
use crate::game::{bind_game, MoveNaming};
use boardcore_engine::cephalopod::{key_cells, key_to_move, Cephalopod, CephalopodGame, Move, Variant};
use boardcore_engine::paths::{count_paths_interruptible, CompactKey};
use boardcore_engine::square::Rect;
use boardcore_engine::{Outcome, Position};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayMethods};
use pyo3::basic::CompareOp;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple, PyType};

/// Cephalopod moves are named on a board of a given size.
pub use boardcore_engine::naming::CephalopodNaming as Naming;

/// A Cephalopod move: the square (`c3`), and for a capture the captured squares (`c3xc2,b3`).
/// Compares equal to its notation string.
#[pyclass(name = "CephalopodMove", module = "boardcore", frozen)]
#[derive(Clone, Copy)]
pub struct PyCephalopodMove {
    mv: Move,
    naming: Naming,
}

/// Cephalopod, Mark Steere's dice game. See docs/cephalopod.md for every rule and notation.
#[pyclass(name = "Cephalopod", module = "boardcore")]
#[derive(Clone)]
pub struct PyCephalopod {
    inner: CephalopodGame,
}

bind_game!(PyCephalopod, PyCephalopodMove, Variant, Naming);
crate::search::bind_searcher!(PyCephalopodSearcher, "CephalopodSearcher", PyCephalopod, PyCephalopodMove, Variant);

#[pymethods]
impl PyCephalopodMove {
    /// The square the die is placed on.
    #[getter]
    fn square(&self) -> String {
        self.naming.0.name(self.mv.square)
    }

    /// The captured squares, in board order (empty for a plain placement).
    #[getter]
    fn captures<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.naming.removed(self.mv))
    }
}

crate::game::bind_move_cells!(
    PyCephalopodMove,
    placed = "The squares the move places a die on: `(square,)`.",
    removed = "The squares the move empties: the captured ones, in board order (as `captures`)."
);

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

    /// The distinct positions at the end of every move sequence of `depth` moves (or fewer, when
    /// the board fills), with how many sequences reach each; transpositions are merged by exact
    /// position. Releases the GIL. Raises ValueError for boards over 31 squares and
    /// OverflowError if a count passes 2**128.
    /// Interruptible (Ctrl-C); MemoryError rather than hold more than
    /// `boardcore_engine::paths::MAX_POSITIONS` positions at once.
    fn count_paths(slf: &Bound<'_, Self>, depth: &Bound<'_, PyAny>) -> BcResult<PathCounts> {
        let depth = args::depth_unbounded(depth)?;
        let (py, position) = (slf.py(), *slf.borrow().position());
        let paths = crate::interrupt::run_interruptible(py, |stop| count_paths_interruptible(&position, depth, stop))?;
        Ok(PathCounts::build(py, &position, paths))
    }
}

/// The result of `Cephalopod.count_paths`: one row per distinct final position.
#[pyclass(module = "boardcore", frozen)]
pub struct PathCounts {
    cells: Py<PyArray2<i8>>,
    to_move: Py<PyArray1<u8>>,
    counts_low: Py<PyArray1<u64>>,
    counts_high: Py<PyArray1<u64>>,
    counts: Vec<u128>,
    /// The positions' keys, decoded only when a row's notation is asked for.
    keys: Vec<u128>,
    root: Cephalopod,
}

impl PathCounts {
    fn build(py: Python<'_>, root: &Cephalopod, paths: Vec<(u128, u128)>) -> PathCounts {
        let squares = root.rect().len();
        let n = paths.len();
        let mut cells = Vec::with_capacity(n * squares);
        let mut to_move = Vec::with_capacity(n);
        for &(key, _) in &paths {
            cells.extend(key_cells(key, squares));
            to_move.push(key_to_move(key) as u8);
        }
        let (keys, counts): (Vec<u128>, Vec<u128>) = paths.into_iter().unzip();
        let low: Vec<u64> = counts.iter().map(|&c| c as u64).collect();
        let high: Vec<u64> = counts.iter().map(|&c| (c >> 64) as u64).collect();
        let cells = cells.into_pyarray(py).reshape([n, squares]).expect("n * squares cells");
        PathCounts {
            cells: cells.unbind(),
            to_move: to_move.into_pyarray(py).unbind(),
            counts_low: low.into_pyarray(py).unbind(),
            counts_high: high.into_pyarray(py).unbind(),
            counts,
            keys,
            root: *root,
        }
    }
}

#[pymethods]
impl PathCounts {
    /// `int8` array `(n, rows * cols)`: `+p` a black die showing `p`, `-p` a white one, 0 empty.
    #[getter]
    fn cells(&self, py: Python<'_>) -> Py<PyArray2<i8>> {
        self.cells.clone_ref(py)
    }

    /// `uint8` array `(n,)`: the side to move in each position.
    #[getter]
    fn to_move(&self, py: Python<'_>) -> Py<PyArray1<u8>> {
        self.to_move.clone_ref(py)
    }

    /// `uint64` array `(n,)`: the low 64 bits of each count.
    #[getter]
    fn counts_low(&self, py: Python<'_>) -> Py<PyArray1<u64>> {
        self.counts_low.clone_ref(py)
    }

    /// `uint64` array `(n,)`: the high 64 bits of each count.
    #[getter]
    fn counts_high(&self, py: Python<'_>) -> Py<PyArray1<u64>> {
        self.counts_high.clone_ref(py)
    }

    /// The exact counts as Python ints.
    fn counts(&self) -> Vec<u128> {
        self.counts.clone()
    }

    /// The number of move sequences: equal to `perft(depth)` of the start.
    fn total<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self.counts.iter().try_fold(0u128, |sum, &c| sum.checked_add(c)) {
            Some(total) => Ok(total.into_pyobject(py)?.into_any()),
            // Past 2**128 the sum is left to Python's unbounded ints.
            None => py.import("builtins")?.getattr("sum")?.call1((self.counts.clone(),)),
        }
    }

    /// Row `i` as position notation (negative `i` counts from the end).
    fn position(&self, i: &Bound<'_, PyAny>) -> PyResult<String> {
        let index = args::index(i, self.keys.len())?;
        Ok(self.root.from_compact_key(self.keys[index]).to_notation())
    }

    fn __len__(&self) -> usize {
        self.keys.len()
    }

    fn __repr__(&self) -> String {
        format!("<PathCounts: {} positions>", self.keys.len())
    }
}
