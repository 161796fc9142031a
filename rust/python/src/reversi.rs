//! `boardcore.Reversi` and its `Move`: the constructor and Reversi's own properties; the shared
//! protocol comes from `bind_game!`.

use crate::args;
use crate::errors::{invalid, BcError, BcResult};
use crate::game::{bind_game, MoveNaming};
use boardcore_engine::reversi::{Move, ReversiGame, Shape, Variant};
use boardcore_engine::square::Coord;
use boardcore_engine::{Player, Position};
use pyo3::basic::CompareOp;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple, PyType};

/// Reversi moves are named on a board of a given shape.
pub use boardcore_engine::reversi::ReversiNaming as Naming;

bind_game! {
    /// Reversi (Othello) with blocked squares. See docs/reversi.md for every rule and notation.
    game PyReversi = "Reversi" (ReversiGame, Variant),
    /// A Reversi move: a square such as `d3`, or `pass`. Compares equal to its notation string.
    move PyReversiMove = "ReversiMove" (Move, Naming),
    searcher PyReversiSearcher = "ReversiSearcher",
}

#[pymethods]
impl PyReversiMove {
    /// The square (`"d3"`), or `None` for a pass.
    #[getter]
    fn square(&self) -> Option<String> {
        self.mv.coord(self.naming.0).map(Coord::name)
    }

    /// Whether this move is a pass.
    #[getter]
    fn is_pass(&self) -> bool {
        self.mv.is_pass()
    }
}

crate::game::bind_move_cells! {
    PyReversiMove;
    /// The squares the move places a disc on: `(square,)`, `()` for a pass.
    placed => placed,
    /// The squares the move empties: always `()` (flipped discs stay, in the other colour).
    removed => removed,
}

fn shape_arg(size: &Bound<'_, PyAny>) -> BcResult<Shape> {
    if let Ok(s) = size.cast::<PyString>() {
        // Only the Octagon goes by name (in any case, as moves do): sizes are ints, not digits.
        return match s.to_str() {
            Ok(name) if name.eq_ignore_ascii_case("octagon") => Ok(Shape::Octagon),
            _ => Err(invalid(format!("size must be an int or 'octagon', got {}", args::shown_with_type(size)))),
        };
    }
    let refused = || invalid(format!("size must be 4, 6, 8, 10 or 'octagon', got {}", args::shown(size)));
    match args::int_in("size", size, 0u8..=10) {
        Ok(n) => Shape::parse(&n.to_string()).map_err(|_| refused()),
        Err(_) if !args::is_integer(size) => {
            Err(invalid(format!("size must be an int or 'octagon', got {}", args::shown_with_type(size))))
        }
        Err(_) => Err(refused()),
    }
}

fn handicap_arg(handicap: &Bound<'_, PyAny>) -> BcResult<u8> {
    args::int_in("handicap", handicap, 0..=4)
}

fn blocked_arg(blocked: &Bound<'_, PyAny>) -> BcResult<Vec<Coord>> {
    let bad = || invalid(format!("blocked must be a list of squares or 'random', got {}", args::shown(blocked)));
    if blocked.is_instance_of::<PyString>() {
        return Err(bad());
    }
    let mut squares = Vec::new();
    for item in blocked.try_iter().map_err(|_| bad())? {
        let item = item.map_err(|_| invalid("blocked: could not iterate"))?;
        let text = item.cast::<PyString>().ok().and_then(|s| s.to_str().ok());
        let text =
            text.ok_or_else(|| invalid(format!("blocked: squares are strings like 'b2', got {}", args::shown(&item))))?;
        squares.push(Coord::parse(text).map_err(|e| invalid(format!("blocked: {e}")))?);
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
        let random =
            blocked.is_some_and(|b| b.cast::<PyString>().is_ok_and(|s| s.to_str().is_ok_and(|s| s == "random")));
        let variant = match (random, seed) {
            (true, Some(seed)) => Variant::random(shape, args::seed(seed)?, handicap, color)?,
            (true, None) => return Err(invalid("blocked='random' needs a seed")),
            (false, Some(_)) => return Err(invalid("seed is only used with blocked='random'")),
            (false, None) => {
                let holes = blocked.filter(|b| !b.is_none()).map(blocked_arg).transpose()?.unwrap_or_default();
                Variant::new(shape, holes, handicap, color)?
            }
        };
        Ok(PyReversi { inner: ReversiGame::new(variant)? })
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

    /// The side of the board in squares: 4, 6, 8 or 10 (10 for the Octagon).
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

    /// The seed the holes were drawn from (`Reversi.random`), or None.
    #[getter]
    fn seed(&self) -> Option<u64> {
        self.inner.variant().and_then(|v| v.seed)
    }

    /// The number of handicap discs (0-4) the game started with.
    #[getter]
    fn handicap(&self) -> u8 {
        self.inner.variant().map_or(0, |v| v.handicap)
    }

    /// The squares that received the handicap discs, in the documented corner order (empty for a
    /// game set up from a position, which carries no handicap).
    #[getter]
    fn handicap_squares<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let squares = self.inner.variant().map_or(Vec::new(), Variant::corners);
        PyTuple::new(py, squares.into_iter().map(Coord::name))
    }

    /// The colour of the handicap discs: `Color.BLACK` (0) or `Color.WHITE` (1).
    #[getter]
    fn handicap_color(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        crate::game::color(py, self.inner.variant().map_or(Player::Black, |v| v.handicap_color))
    }

    /// `(black_discs, white_discs)`.
    fn score(&self) -> (u32, u32) {
        self.position().score()
    }
}

crate::registry::register_classes!(PyReversi, PyReversiMove, PyReversiSearcher);

/// Which game this is for the learned evaluations (`crate::eval`).
impl crate::eval::Learned for boardcore_engine::reversi::Reversi {
    const GAME: crate::registry::GameName = crate::registry::GameName::Reversi;

    fn solvable_within(&self, empties: u32) -> bool {
        self.empties() <= empties
    }
}
