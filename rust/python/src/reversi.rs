//! `boardcore.Reversi` and its `Move`.

use crate::args;
use crate::errors::{invalid, BcError, BcResult};
use boardcore_engine::reversi::{Move, Reversi, ReversiGame, Shape, Variant};
use boardcore_engine::square::Coord;
use boardcore_engine::{Outcome, Player, Position};
use pyo3::basic::CompareOp;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple, PyType};

/// A Reversi move: a square such as `d3`, or `pass`. Compares equal to its notation string.
#[pyclass(name = "ReversiMove", module = "boardcore", frozen)]
#[derive(Clone, Copy)]
pub struct PyReversiMove {
    mv: Move,
    shape: Shape,
}

#[pymethods]
impl PyReversiMove {
    /// The square (`"d3"`), or `None` for a pass.
    #[getter]
    fn square(&self) -> Option<String> {
        self.mv.coord(self.shape).map(Coord::name)
    }

    #[getter]
    fn is_pass(&self) -> bool {
        self.mv.is_pass()
    }

    fn __str__(&self) -> String {
        self.mv.name(self.shape)
    }

    fn __repr__(&self) -> String {
        format!("Move('{}')", self.mv.name(self.shape))
    }

    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        // Equal to the hash of the notation, since a move equals its notation string.
        PyString::new(py, &self.mv.name(self.shape)).hash()
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> PyResult<Py<PyAny>> {
        let py = other.py();
        let equal = if let Ok(m) = other.cast::<PyReversiMove>() {
            let m = m.get();
            Some(m.mv == self.mv && m.shape.size() == self.shape.size())
        } else if let Ok(s) = other.cast::<PyString>() {
            Some(s.to_str()?.trim().eq_ignore_ascii_case(&self.mv.name(self.shape)))
        } else {
            None
        };
        Ok(match (equal, op) {
            (Some(e), CompareOp::Eq) => e.into_pyobject(py)?.to_owned().into_any().unbind(),
            (Some(e), CompareOp::Ne) => (!e).into_pyobject(py)?.to_owned().into_any().unbind(),
            _ => py.NotImplemented(),
        })
    }
}

/// Reversi (Othello) with blocked squares. See docs/reversi.md for every rule and notation.
#[pyclass(name = "Reversi", module = "boardcore")]
#[derive(Clone)]
pub struct PyReversi {
    inner: ReversiGame,
}

impl PyReversi {
    fn position(&self) -> &Reversi {
        self.inner.position()
    }

    fn wrap(&self, mv: Move) -> PyReversiMove {
        PyReversiMove { mv, shape: self.position().shape() }
    }

    /// A `Move` of this game, or its notation.
    fn to_move_arg(&self, mv: &Bound<'_, PyAny>) -> BcResult<Move> {
        if let Ok(m) = mv.cast::<PyReversiMove>() {
            let m = m.get();
            if m.shape.size() != self.position().shape().size() {
                return Err(invalid(format!("move {} belongs to another board size", m.__str__())));
            }
            return Ok(m.mv);
        }
        match mv.cast::<PyString>() {
            Ok(s) => Ok(self.position().parse_move(s.to_str().map_err(|_| invalid("move is not valid text"))?)?),
            Err(_) => Err(BcError::type_error(format!("move must be a Move or a string, got {}", type_name(mv)))),
        }
    }
}

fn type_name(value: &Bound<'_, PyAny>) -> String {
    value.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into())
}

fn shape_arg(size: &Bound<'_, PyAny>) -> BcResult<Shape> {
    let text = if let Ok(s) = size.cast::<PyString>() {
        // Only the Octagon goes by name: sizes are integers, not digit strings.
        s.to_str().ok().filter(|s| *s == "octagon").unwrap_or_default().to_string()
    } else {
        args::integer("size", size).map(|n| n.to_string()).unwrap_or_default()
    };
    Shape::parse(&text).map_err(|_| invalid(format!("size must be 4, 6, 8, 10 or 'octagon', got {size}")))
}

fn seed_arg(seed: &Bound<'_, PyAny>) -> BcResult<u64> {
    let is_bool = seed.is_instance_of::<pyo3::types::PyBool>();
    seed.extract::<u64>()
        .ok()
        .filter(|_| !is_bool)
        .ok_or_else(|| invalid(format!("seed must be an integer from 0 to 2**64-1, got {seed}")))
}

fn handicap_arg(handicap: &Bound<'_, PyAny>) -> BcResult<u8> {
    match args::integer("handicap", handicap) {
        Ok(h) if (0..=4).contains(&h) => Ok(h as u8),
        _ => Err(invalid(format!("handicap must be an integer from 0 to 4, got {handicap}"))),
    }
}

fn blocked_arg(blocked: &Bound<'_, PyAny>) -> BcResult<Vec<Coord>> {
    if blocked.is_instance_of::<PyString>() {
        return Err(invalid(format!("blocked must be a list of squares or 'random', got {blocked}")));
    }
    let items = blocked
        .try_iter()
        .map_err(|_| invalid(format!("blocked must be a list of squares or 'random', got {}", type_name(blocked))))?;
    let mut squares = Vec::new();
    for item in items {
        let item = item.map_err(|_| invalid("blocked: could not iterate"))?;
        let text: String = item
            .extract()
            .map_err(|_| invalid(format!("blocked: squares are strings like 'b2', got {item}")))?;
        squares.push(Coord::parse(&text).map_err(|e| invalid(format!("blocked: {e}")))?);
    }
    Ok(squares)
}

#[pymethods]
impl PyReversi {
    /// `Reversi(size=8, *, blocked=None, seed=None, handicap=0, handicap_color=BLACK)`.
    ///
    /// `size` is 4, 6, 8, 10 or `"octagon"`; `blocked` a list of squares, or `"random"` with a
    /// `seed`. Raises ValueError naming the argument when the variant is impossible.
    #[new]
    #[pyo3(signature = (size = None, *, blocked = None, seed = None, handicap = None, handicap_color = None))]
    fn new(
        size: Option<&Bound<'_, PyAny>>,
        blocked: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        handicap: Option<&Bound<'_, PyAny>>,
        handicap_color: Option<&Bound<'_, PyAny>>,
    ) -> BcResult<Self> {
        let shape = size.map(shape_arg).transpose()?.unwrap_or(Shape::Square(8));
        let handicap = handicap.map(handicap_arg).transpose()?.unwrap_or(0);
        let color = handicap_color.map(|c| args::player("handicap_color", c)).transpose()?.unwrap_or(Player::Black);
        let random = blocked.is_some_and(|b| b.cast::<PyString>().is_ok_and(|s| s.to_str().is_ok_and(|s| s == "random")));
        let variant = match (random, seed) {
            (true, Some(seed)) => Variant::random(shape, seed_arg(seed)?, handicap, color)?,
            (true, None) => return Err(invalid("blocked='random' needs a seed")),
            (false, Some(_)) => return Err(invalid("seed is only used with blocked='random'")),
            (false, None) => {
                let holes = blocked.filter(|b| !b.is_none()).map(blocked_arg).transpose()?.unwrap_or_default();
                Variant::new(shape, holes, handicap, color)?
            }
        };
        Ok(PyReversi { inner: ReversiGame::new(variant) })
    }

    /// A game whose holes are drawn from `seed` (docs/reversi.md gives the exact algorithm).
    #[classmethod]
    #[pyo3(signature = (seed, *, size = None, handicap = None, handicap_color = None))]
    fn random(
        _cls: &Bound<'_, PyType>,
        seed: &Bound<'_, PyAny>,
        size: Option<&Bound<'_, PyAny>>,
        handicap: Option<&Bound<'_, PyAny>>,
        handicap_color: Option<&Bound<'_, PyAny>>,
    ) -> BcResult<Self> {
        let blocked = PyString::new(seed.py(), "random");
        Self::new(size, Some(blocked.as_any()), Some(seed), handicap, handicap_color)
    }

    /// The game from a position in notation (raises NotationError).
    #[classmethod]
    fn from_position(_cls: &Bound<'_, PyType>, text: &str) -> BcResult<Self> {
        Ok(PyReversi { inner: ReversiGame::from_position(text)? })
    }

    /// The game replayed from a record (raises NotationError).
    #[classmethod]
    fn from_record(_cls: &Bound<'_, PyType>, text: &str) -> BcResult<Self> {
        Ok(PyReversi { inner: ReversiGame::from_record(text)? })
    }

    #[getter]
    fn to_move(&self) -> u8 {
        self.position().to_move() as u8
    }

    /// 10 for the Octagon.
    #[getter]
    fn size(&self) -> u8 {
        self.position().shape().size()
    }

    /// `"4"`, `"6"`, `"8"`, `"10"` or `"octagon"`, as in the position notation.
    #[getter]
    fn board_name(&self) -> String {
        self.position().shape().name()
    }

    /// The holes, in board order.
    #[getter]
    fn blocked<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.position().holes().into_iter().map(Coord::name))
    }

    #[getter]
    fn seed(&self) -> Option<u64> {
        self.inner.variant.as_ref().and_then(|v| v.seed)
    }

    #[getter]
    fn handicap(&self) -> u8 {
        self.inner.variant.as_ref().map_or(0, |v| v.handicap)
    }

    #[getter]
    fn handicap_color(&self) -> u8 {
        self.inner.variant.as_ref().map_or(0, |v| v.handicap_color as u8)
    }

    /// The moves played so far.
    #[getter]
    fn history(&self) -> Vec<PyReversiMove> {
        self.inner.game.moves().map(|m| self.wrap(m)).collect()
    }

    /// Placements in board order; `[pass]` when only a pass is possible; `[]` when over.
    fn legal_moves(&self) -> Vec<PyReversiMove> {
        let shape = self.position().shape();
        self.position().legal_moves().map(|mv| PyReversiMove { mv, shape }).collect()
    }

    fn is_legal(&self, mv: &Bound<'_, PyAny>) -> bool {
        self.to_move_arg(mv).is_ok_and(|m| self.position().check_move(m).is_ok())
    }

    /// Plays a `Move` or its notation. Raises NotationError or IllegalMoveError, changing nothing.
    fn play(&mut self, mv: &Bound<'_, PyAny>) -> BcResult<()> {
        let mv = self.to_move_arg(mv)?;
        self.inner.game.play(mv)?;
        Ok(())
    }

    /// Takes back the last move and returns it; IndexError when there is none.
    fn undo(&mut self) -> PyResult<PyReversiMove> {
        let shape = self.position().shape();
        match self.inner.game.undo() {
            Some(mv) => Ok(PyReversiMove { mv, shape }),
            None => Err(pyo3::exceptions::PyIndexError::new_err("no move to undo")),
        }
    }

    fn copy(&self) -> Self {
        self.clone()
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let from_record = slf.get_type().getattr("from_record")?;
        Ok((from_record, (slf.borrow().inner.record(),)))
    }

    fn is_over(&self) -> bool {
        self.position().is_over()
    }

    /// `BLACK`, `WHITE`, or None (a draw, or not over).
    fn winner(&self) -> Option<u8> {
        match self.position().outcome() {
            Some(Outcome::Winner(p)) => Some(p as u8),
            _ => None,
        }
    }

    /// `(black_discs, white_discs)`.
    fn score(&self) -> (u32, u32) {
        self.position().score()
    }

    /// The position in notation: `BOARD ROWS SIDE`.
    #[pyo3(name = "position")]
    fn position_str(&self) -> String {
        self.position().to_notation()
    }

    fn record(&self) -> String {
        self.inner.record()
    }

    /// The 64-bit Zobrist hash of the position (docs/reversi.md gives the keys).
    fn zobrist(&self) -> u64 {
        self.position().zobrist()
    }

    fn __hash__(&self) -> isize {
        match self.position().zobrist() as i64 {
            -1 => -2,
            h => h as isize,
        }
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> Py<PyAny> {
        let py = other.py();
        let Ok(other) = other.cast::<PyReversi>() else { return py.NotImplemented() };
        let equal = self.position() == other.borrow().position();
        match op {
            CompareOp::Eq => equal.into_pyobject(py).unwrap().to_owned().into_any().unbind(),
            CompareOp::Ne => (!equal).into_pyobject(py).unwrap().to_owned().into_any().unbind(),
            _ => py.NotImplemented(),
        }
    }

    /// Leaves of the game tree `depth` plies deep (spec/api.md). Releases the GIL.
    #[pyo3(signature = (depth, threads = None, passes_count_as_ply = true))]
    fn perft(
        &self,
        py: Python<'_>,
        depth: &Bound<'_, PyAny>,
        threads: Option<&Bound<'_, PyAny>>,
        passes_count_as_ply: bool,
    ) -> BcResult<u64> {
        let depth = args::depth(depth)?;
        let threads = threads.map(args::threads).transpose()?.unwrap_or(1);
        let position = *self.position();
        Ok(py.detach(|| position.perft(depth, args::plies(passes_count_as_ply), threads)))
    }

    /// `{move notation: perft(depth - 1) of the child}` in move order. Releases the GIL.
    #[pyo3(signature = (depth, passes_count_as_ply = true))]
    fn divide<'py>(&self, py: Python<'py>, depth: &Bound<'py, PyAny>, passes_count_as_ply: bool) -> BcResult<Bound<'py, PyDict>> {
        let depth = args::depth(depth)?;
        if depth == 0 {
            return Err(invalid("divide needs depth >= 1"));
        }
        let position = *self.position();
        let parts = py.detach(|| position.divide(depth, args::plies(passes_count_as_ply)));
        let dict = PyDict::new(py);
        for (mv, n) in parts {
            dict.set_item(position.format_move(mv), n).map_err(|_| invalid("divide: internal error"))?;
        }
        Ok(dict)
    }

    fn __str__(&self) -> String {
        self.position().text_board()
    }

    fn __repr__(&self) -> String {
        format!("Reversi.from_position('{}')", self.position().to_notation())
    }
}
