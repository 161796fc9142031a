//! `boardcore.Rive`, its `Move`, and a lazy iterator over its moves.

use crate::args;
use crate::errors::{invalid, BcError, BcResult};
use crate::game::{bind_game, MoveNaming};
use boardcore_engine::hex::HexBoard;
use boardcore_engine::rive::{Moves, PlayoutPolicy, RiveGame, Variant};
use boardcore_engine::Position;
use pyo3::basic::CompareOp;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple, PyType};

type Move = boardcore_engine::rive::Move;

/// Rive moves are named on a given hex board.
pub use boardcore_engine::rive::RiveNaming as Naming;

bind_game! {
    /// Rive, Mark Steere's hex territory game. See docs/rive.md for every rule and notation.
    game PyRive = "Rive" (RiveGame, Variant),
    /// A Rive move: a cell (`c3`), a capture with its removed cells (`c3xb2,d1`), a single-stone
    /// removal (`xb2`), or `swap`. Compares equal to its notation string.
    move PyRiveMove = "RiveMove" (Move, Naming),
    searcher PyRiveSearcher = "RiveSearcher",
}

#[pymethods]
impl PyRiveMove {
    /// The placed cell (None for a swap or a single-stone removal).
    #[getter]
    fn cell(&self) -> Option<String> {
        self.mv.placed().map(|cell| self.naming.0.cell_name(cell))
    }

    /// Whether this move is the swap.
    #[getter]
    fn is_swap(&self) -> bool {
        self.mv.is_swap()
    }

    /// Whether this move removes one stone of a capture under way (single-stone form).
    #[getter]
    fn is_removal(&self) -> bool {
        self.mv.is_removal()
    }
}

crate::game::bind_move_cells! {
    PyRiveMove;
    /// The cells the move places a stone on: `(cell,)`, `()` for a swap or a single-stone removal.
    placed => placed,
    /// The removed cells, in board order.
    removed => removed,
}

/// The legal moves of a position, produced one at a time (see `Rive.moves`).
#[pyclass(name = "RiveMoveIterator", module = "boardcore")]
pub struct PyRiveMoveIterator {
    moves: Moves,
    naming: Naming,
}

#[pymethods]
impl PyRiveMoveIterator {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The next move; MemoryError for a capture too large to list in order (docs/rive.md,
    /// "Large captures"), which leaves the iterator where it was.
    fn __next__(&mut self) -> BcResult<Option<PyRiveMove>> {
        let next = self.moves.next_interruptible(boardcore_engine::interrupt::Stop::never())?;
        Ok(next.map(|mv| PyRiveMove { mv, naming: self.naming }))
    }
}

fn board_arg(board: &Bound<'_, PyAny>) -> BcResult<&'static HexBoard> {
    if let Ok(name) = board.cast::<PyString>() {
        return Ok(HexBoard::by_name(name.to_str().map_err(|_| invalid("board: not valid text"))?)?);
    }
    let bad = || {
        invalid(format!(
            "board must be a name like 'hex335' or a list of (length, offset) rows, got {}",
            args::shown_with_type(board)
        ))
    };
    let mut rows = Vec::new();
    for row in board.try_iter().map_err(|_| bad())? {
        let row = row.map_err(|_| bad())?;
        let pair: Vec<Bound<'_, PyAny>> =
            row.try_iter().map_err(|_| bad())?.collect::<PyResult<_>>().map_err(|_| bad())?;
        if pair.len() != 2 {
            return Err(bad());
        }
        let number = |v: &Bound<'_, PyAny>| args::int_in("board: a row's length and offset", v, 0u8..=255);
        rows.push((number(&pair[0])?, number(&pair[1])?));
    }
    Ok(HexBoard::from_rows(&rows)?)
}

fn policy_arg(value: Option<&Bound<'_, PyAny>>) -> BcResult<PlayoutPolicy> {
    match value {
        None => Ok(PlayoutPolicy::Uniform),
        Some(v) => Ok(PlayoutPolicy::by_name(args::text("playout_policy", v)?)?),
    }
}

fn flag(name: &str, value: Option<&Bound<'_, PyAny>>) -> BcResult<bool> {
    match value {
        None => Ok(false),
        Some(v) => v
            .extract::<bool>()
            .map_err(|_| invalid(format!("{name} must be True or False, got {}", args::shown_with_type(v)))),
    }
}

#[pymethods]
impl PyRive {
    /// `Rive(board="hex335", *, swap=False, single_stones=False, playout_policy="uniform")`.
    /// `playout_policy` is how random moves are drawn (`random_move`, `playouts`, MCTS
    /// rollouts): `"uniform"` over the legal moves, or `"capture-cell"`, uniformly over the
    /// legal cells and then over the chosen capture's survivor sets (a different distribution,
    /// much cheaper on large captures; docs/rive.md, "Playout policies"). Not a rule: positions
    /// equal but for it compare equal.
    #[new]
    #[pyo3(signature = (board = None, *, swap = None, single_stones = None, playout_policy = None))]
    fn new(
        board: Option<&Bound<'_, PyAny>>,
        swap: Option<&Bound<'_, PyAny>>,
        single_stones: Option<&Bound<'_, PyAny>>,
        playout_policy: Option<&Bound<'_, PyAny>>,
    ) -> BcResult<Self> {
        let board = match board {
            Some(b) => board_arg(b)?,
            None => HexBoard::named("hex335")?,
        };
        let variant = Variant {
            board,
            swap: flag("swap", swap)?,
            single_stones: flag("single_stones", single_stones)?,
            playout_policy: policy_arg(playout_policy)?,
        };
        Ok(PyRive { inner: RiveGame::new(variant)? })
    }

    /// How this game's random moves are drawn: `"uniform"` or `"capture-cell"`.
    #[getter]
    fn playout_policy(&self) -> &'static str {
        self.position().playout_policy().name()
    }

    /// The board's name as in position notation.
    #[getter]
    fn board_name(&self) -> String {
        self.position().board().name.clone()
    }

    /// The board's rows as (length, offset) pairs.
    #[getter]
    fn rows<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.position().board().rows.clone())
    }

    /// Whether the game allows White's swap.
    #[getter]
    fn swap(&self) -> bool {
        self.position().swap_allowed()
    }

    /// Whether captures are played one stone at a time.
    #[getter]
    fn single_stones(&self) -> bool {
        self.position().single_stones()
    }

    /// `(black_stones, white_stones)`.
    fn score(&self) -> (u32, u32) {
        self.position().score()
    }

    /// The sizes of all groups (stones of both colours), largest first.
    fn groups(&self) -> Vec<u32> {
        self.position().group_sizes()
    }

    /// A lazy iterator over the legal moves, in `legal_moves()` order.
    fn moves(&self) -> PyRiveMoveIterator {
        PyRiveMoveIterator { moves: self.position().legal_moves(), naming: Naming(self.position().board()) }
    }
}

crate::registry::register_classes!(PyRive, PyRiveMove, PyRiveMoveIterator, PyRiveSearcher);

crate::eval::learned_with_local_patterns!(Rive, boardcore_engine::rive::Rive);
