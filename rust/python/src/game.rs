//! What every game's Python class shares, written once as a macro over the engine's generic
//! `Game<V>`, which it only forwards to.
//!
//! `bind_game!` declares a game's class, its move class and its searcher class, and gives the
//! first two every method of the shared protocol (docs/api.md, "The shared game protocol");
//! each game's module adds its constructor and its own properties in a second `#[pymethods]`
//! block.

/// The board a move object keeps to name itself and read the text it is compared with (the
/// engine's `naming`).
pub use boardcore_engine::naming::MoveNaming;

use crate::errors::{invalid, BcResult};
use boardcore_engine::cephalopod::Cephalopod;
pub use boardcore_engine::cephalopod::CountOptions;
use boardcore_engine::paths::{CompactKey, Frontier, Split, PIPS};
use boardcore_engine::Position;
use boardcore_engine::{Cells, Contents, Outcome, Player};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayMethods};
use pyo3::exceptions::{PyKeyError, PyTypeError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyString;

/// A player as Python sees it: `boardcore.Color.BLACK` or `.WHITE`, the IntEnum of
/// `boardcore.pieces` (0 and 1, printed by name), looked up once and then shared.
pub fn color(py: Python<'_>, player: Player) -> PyResult<Py<PyAny>> {
    static COLORS: PyOnceLock<[Py<PyAny>; 2]> = PyOnceLock::new();
    let colors = COLORS.get_or_try_init(py, || -> PyResult<_> {
        let color = py.import("boardcore.pieces")?.getattr("Color")?;
        Ok([color.getattr("BLACK")?.unbind(), color.getattr("WHITE")?.unbind()])
    })?;
    Ok(colors[player as usize].clone_ref(py))
}

/// `color` of a finished game's winner; None for a draw or a game not over.
pub fn winner(py: Python<'_>, outcome: Option<Outcome>) -> PyResult<Option<Py<PyAny>>> {
    match outcome {
        Some(Outcome::Winner(player)) => color(py, player).map(Some),
        _ => Ok(None),
    }
}

/// A cell's contents as Python sees them (`boardcore.pieces`, docs/design.md "Reading the
/// board"): a `Piece`, `HOLE`, `CUT`, or None for an empty cell.
fn contents_to_py(py: Python<'_>, contents: Contents) -> PyResult<Py<PyAny>> {
    let pieces = py.import("boardcore.pieces")?;
    Ok(match contents {
        Contents::Empty => py.None(),
        Contents::Piece { player, pips } => {
            let pips = (pips > 0).then_some(pips);
            pieces.getattr("Piece")?.call1((color(py, player)?, pips))?.unbind()
        }
        Contents::Hole => pieces.getattr("HOLE")?.unbind(),
        Contents::Cut => pieces.getattr("CUT")?.unbind(),
    })
}

/// `game[cell]` and `game.piece_at(cell)`: what the named cell holds. A name that is no cell of
/// the board (malformed or off it) is a KeyError, as a missing key of a mapping; a cell given by
/// anything but a string a TypeError (which is also what iterating over a game meets, since
/// Python iterates with `__getitem__(0)`: hence the pointer to `cells`).
pub fn read_cell(position: &impl Cells, cell: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let Ok(name) = cell.cast::<PyString>() else {
        return Err(PyTypeError::new_err(format!(
            "a cell is named by a string like 'd3' (game.cells() lists them), got {}",
            crate::args::shown_with_type(cell)
        )));
    };
    let name = name.to_str().map_err(|_| PyKeyError::new_err("a cell name cannot hold a lone surrogate"))?;
    let contents = position.contents(name).map_err(|e| PyKeyError::new_err(e.to_string()))?;
    contents_to_py(cell.py(), contents)
}

/// Pairs as an `(n, 2)` array.
pub fn rows(pairs: Vec<[i32; 2]>) -> numpy::ndarray::Array2<i32> {
    let n = pairs.len();
    numpy::ndarray::Array2::from_shape_vec((n, 2), pairs.into_iter().flatten().collect()).expect("n rows of 2")
}

/// `perft`'s `split_depth`: None or 0 (plain perft), an integer from 0 to `depth`, or `"auto"`
/// (the engine's rule, `paths::Split::Auto`).
pub fn split_depth(depth: u32, value: Option<&Bound<'_, PyAny>>) -> BcResult<Split> {
    let Some(value) = value else { return Ok(Split::At(0)) };
    if let Ok(text) = value.cast::<PyString>() {
        return match text.to_str() {
            Ok("auto") => Ok(Split::Auto),
            _ => Err(invalid(format!(
                "split_depth must be an integer from 0 to depth ({depth}) or 'auto', got {}",
                crate::args::shown_with_type(value)
            ))),
        };
    }
    Ok(Split::At(crate::args::int_in("split_depth", value, 0..=depth)?))
}

/// `perft_frontier`'s `split_depth` as the caller gave it: omitted (the default, `"auto"`: a
/// frontier is for cutting) or any object, None included, which means 0 there as in `perft`.
/// Option<&PyAny> would not do: PyO3 hands an explicit None over as an omitted argument.
pub enum FrontierSplit<'py> {
    Omitted,
    Given(Bound<'py, PyAny>),
}

impl<'a, 'py> FromPyObject<'a, 'py> for FrontierSplit<'py> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        Ok(FrontierSplit::Given(obj.to_owned()))
    }
}

/// `perft_frontier`'s split: `"auto"` when omitted, otherwise exactly `perft`'s rule (None or 0
/// plain, an integer from 0 to `depth`, or `"auto"`).
pub fn frontier_split(depth: u32, value: &FrontierSplit<'_>) -> BcResult<Split> {
    match value {
        FrontierSplit::Omitted => Ok(Split::Auto),
        FrontierSplit::Given(given) => split_depth(depth, Some(given).filter(|given| !given.is_none())),
    }
}

/// `perft_frontier`'s answer: the plies remaining below the frontier, its positions in notation
/// and their path counts; a plain count (no frontier) is the root alone, one path, every ply below.
pub fn frontier_rows<P: CompactKey>(
    root: &P,
    depth: u32,
    frontier: Option<Frontier<P>>,
) -> (u32, Vec<String>, Vec<u128>) {
    match frontier {
        Some(Frontier { positions, remaining }) => {
            let notations = positions.iter().map(|&(key, _)| root.from_compact_key(key).to_notation()).collect();
            (remaining, notations, positions.into_iter().map(|(_, paths)| paths).collect())
        }
        None => (depth, vec![root.to_notation()], vec![1]),
    }
}

/// `perft_positions`' arguments: every position parsed from its notation, each with its path count
/// (1 when `paths` is not given). Errors name the entry at fault.
pub fn weighted_positions<P: Position>(
    positions: &Bound<'_, PyAny>,
    paths: Option<&Bound<'_, PyAny>>,
) -> BcResult<Vec<(P, u128)>> {
    let mut parsed = Vec::new();
    for (i, item) in positions.try_iter()?.enumerate() {
        let item = item?;
        let text = crate::args::text(&format!("positions[{i}]"), &item)?;
        let position =
            P::from_notation(text).map_err(|e| boardcore_engine::Error::Notation(format!("positions[{i}]: {e}")))?;
        parsed.push((position, 1u128));
    }
    let Some(paths) = paths else { return Ok(parsed) };
    let mut given = 0;
    for (i, item) in paths.try_iter()?.enumerate() {
        let item = item?;
        let count = item.extract::<u128>().map_err(|_| {
            invalid(format!(
                "paths[{i}] must be an integer from 0 to 2**128 - 1, got {}",
                crate::args::shown_with_type(&item)
            ))
        })?;
        if let Some(entry) = parsed.get_mut(i) {
            entry.1 = count;
        }
        given += 1;
    }
    if given != parsed.len() {
        return Err(invalid(format!(
            "{} positions but {given} path counts: give one count per position",
            parsed.len()
        )));
    }
    Ok(parsed)
}

/// The distinct positions and their path counts of `count_paths`, as rows for `PathCounts`:
/// the keys are decoded to notation only when a row's position is asked for.
trait PathRows: Send + Sync {
    fn notation(&self, row: usize) -> String;
}

struct KeyRows<P: CompactKey> {
    root: P,
    keys: Vec<P::Key>,
}

impl<P: CompactKey> PathRows for KeyRows<P> {
    fn notation(&self, row: usize) -> String {
        self.root.from_compact_key(self.keys[row]).to_notation()
    }
}

/// The low and high 64 bits of 128-bit totals, as two `uint64` arrays of one shape.
pub type LowHigh<'py> = (Bound<'py, PyArray2<u64>>, Bound<'py, PyArray2<u64>>);

/// The result of `count_paths`, for every game: one row per distinct final position.
#[pyclass(module = "boardcore", frozen)]
pub struct PathCounts {
    /// `int8` array `(n, len(game.cells()))`: `+p` a black piece (a Cephalopod die showing `p`; 1
    /// for a disc or a stone), `-p` a white one, 0 empty (or a hole, or cut).
    #[pyo3(get)]
    cells: Py<PyArray2<i8>>,
    /// `uint8` array `(n,)`: the side to move in each position (all 0 after Cephalopod's
    /// `count_paths(depth, owners=False)`, whose rows keep no side to move).
    #[pyo3(get)]
    to_move: Py<PyArray1<u8>>,
    /// `uint64` array `(n,)`: the low 64 bits of each count.
    #[pyo3(get)]
    counts_low: Py<PyArray1<u64>>,
    /// `uint64` array `(n,)`: the high 64 bits of each count.
    #[pyo3(get)]
    counts_high: Py<PyArray1<u64>>,
    counts: Vec<u128>,
    rows: Box<dyn PathRows>,
}

impl PathCounts {
    /// The rows of `paths` (from `count_paths` of `root`), each position's cells in the order of
    /// the game's `cells`.
    pub fn build<P: CompactKey + 'static>(py: Python<'_>, root: &P, paths: Vec<(P::Key, u128)>) -> PathCounts {
        let n = paths.len();
        let mut cells = Vec::new();
        let mut to_move = Vec::with_capacity(n);
        for &(key, _) in &paths {
            root.key_cells(key, &mut cells);
            to_move.push(root.key_to_move(key) as u8);
        }
        let mut root_cells = Vec::new();
        root.key_cells(root.compact_key(), &mut root_cells);
        let width = root_cells.len();
        let (keys, counts): (Vec<P::Key>, Vec<u128>) = paths.into_iter().unzip();
        let low: Vec<u64> = counts.iter().map(|&c| c as u64).collect();
        let high: Vec<u64> = counts.iter().map(|&c| (c >> 64) as u64).collect();
        let cells = cells.into_pyarray(py).reshape([n, width]).expect("n rows of the same width");
        PathCounts {
            cells: cells.unbind(),
            to_move: to_move.into_pyarray(py).unbind(),
            counts_low: low.into_pyarray(py).unbind(),
            counts_high: high.into_pyarray(py).unbind(),
            counts,
            rows: Box::new(KeyRows { root: root.clone(), keys }),
        }
    }
}

#[pymethods]
impl PathCounts {
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
        let index = crate::args::index(i, self.counts.len())?;
        Ok(self.rows.notation(index))
    }

    /// `(low, high)`: `uint64` arrays `(len(game.cells()), 7)`, the low and high 64 bits of
    /// `T[s, p]`, the number of paths whose final position shows `p` pips on cell `s` (0 for an
    /// empty cell; a Reversi disc or a stone counts as 1; owners are not told apart). A linear
    /// statistic `sum over rows of weight(s, |cells[s]|) * count` is `sum T[s, p] * weight(s, p)`
    /// (docs/cephalopod.md). `low` alone is `T` modulo 2**64 (so modulo any 2**k, k <= 64), and
    /// numpy's `uint64` arithmetic keeps it so. OverflowError if a total passes 2**128.
    fn square_totals<'py>(&self, py: Python<'py>) -> BcResult<LowHigh<'py>> {
        let cells = self.cells.bind(py).readonly();
        let width = cells.as_array().ncols();
        // `build` made the array C-contiguous and nothing can replace it: read it in place.
        let totals =
            boardcore_engine::paths::square_totals(cells.as_slice().map_err(PyErr::from)?, width, &self.counts, false)?;
        Ok(low_high(py, &totals, width))
    }

    fn __len__(&self) -> usize {
        self.counts.len()
    }

    fn __repr__(&self) -> String {
        format!("<PathCounts: {} positions>", self.counts.len())
    }
}

/// `(low, high)` of totals `T[cell * 7 + pips]`, shaped `(cells, 7)`.
pub fn low_high<'py>(py: Python<'py>, totals: &[u128], cells: usize) -> LowHigh<'py> {
    let half = |shift: u32| -> Vec<u64> { totals.iter().map(|&t| (t >> shift) as u64).collect() };
    let shape = |v: Vec<u64>| v.into_pyarray(py).reshape([cells, PIPS]).expect("cells rows of 7");
    (shape(half(0)), shape(half(64)))
}

/// A `progress` argument: a callable or None (TypeError before any work for anything else).
pub fn progress_callback(progress: Option<&Bound<'_, PyAny>>) -> BcResult<Option<Py<PyAny>>> {
    match progress {
        Some(p) if p.is_none() => Ok(None),
        Some(p) if p.is_callable() => Ok(Some(p.clone().unbind())),
        Some(p) => Err(PyTypeError::new_err(format!(
            "progress must be a callable progress(ply, depth, positions) or None, got {}",
            p.get_type().name()?
        ))
        .into()),
        None => Ok(None),
    }
}

/// `count_paths(depth, owners=False)`: Cephalopod counts by pips alone, over the board's
/// symmetries (`cephalopod::colour_free_paths`, docs/cephalopod.md); the other games' moves
/// depend on who owns what, so they refuse it.
pub fn count_paths_owner_free(
    position: &dyn std::any::Any,
    py: Python<'_>,
    depth: u32,
    options: CountOptions,
    progress: Option<Py<PyAny>>,
) -> BcResult<PathCounts> {
    let Some(position) = position.downcast_ref::<Cephalopod>() else {
        return Err(invalid(
            "count_paths: owners=False is for Cephalopod only (the one game whose moves never depend on who owns the pieces)",
        ));
    };
    let paths = crate::interrupt::run_reporting(py, progress, depth, |stop, report| {
        boardcore_engine::cephalopod::colour_free_paths(position, depth, options, stop, report)
    })?;
    Ok(PathCounts::build(py, &boardcore_engine::cephalopod::PipsOnly(*position), paths))
}

/// When `$game` (a `&Bound<PyAny>`) is one of the games, returns `$body` evaluated with `$g`
/// bound to it borrowed as its own class (`PyReversi`, ...); falls through otherwise, so that the
/// caller says what else it takes or what it raises. The games are the registry's.
macro_rules! return_for_game {
    ($game:expr, |$g:ident| $body:expr) => {
        $crate::registry::each_class!(|Class| {
            if let Ok(cell) = $game.cast::<Class>() {
                let $g = cell.borrow();
                return $body;
            }
        })
    };
}
pub(crate) use return_for_game;

/// The TypeError of a function that takes any game (`return_for_game!`) given something else.
pub(crate) fn not_a_game(game: &Bound<'_, PyAny>) -> crate::errors::BcError {
    crate::errors::BcError::type_error(format!("game must be a boardcore game, got {}", crate::args::type_name(game)))
}

/// A game's three Python classes: the game (`$Py`, holding the engine's `$Game`, a
/// `Game<$Variant>`), its move (`$PyMove`, a `$Move` and the `$Naming` of its board) and its
/// searcher (`uct::bind_searcher!`), each with its Python name and, for the first two, its
/// docstring; then the shared protocol's methods of the first two.
macro_rules! bind_game {
    (
        $(#[$game_doc:meta])*
        game $Py:ident = $name:literal ($Game:ty, $Variant:ty),
        $(#[$move_doc:meta])*
        move $PyMove:ident = $move_name:literal ($Move:ty, $Naming:ty),
        searcher $Searcher:ident = $searcher_name:literal $(,)?
    ) => {
        $(#[$move_doc])*
        #[pyclass(name = $move_name, module = "boardcore", frozen)]
        #[derive(Clone, Copy)]
        pub struct $PyMove {
            mv: $Move,
            naming: $Naming,
        }

        $(#[$game_doc])*
        #[pyclass(name = $name, module = "boardcore")]
        #[derive(Clone)]
        pub struct $Py {
            inner: $Game,
        }

        $crate::game::bind_game!(@protocol $Py, $PyMove, $Variant, $Naming);
        $crate::uct::bind_searcher!($Searcher, $searcher_name, $Py, $PyMove, $Variant);
    };
    (@protocol $Py:ident, $PyMove:ident, $Variant:ty, $Naming:ty) => {
        #[pymethods]
        impl $PyMove {
            fn __str__(&self) -> String {
                self.naming.name(self.mv)
            }

            fn __repr__(&self) -> String {
                format!("Move('{}')", self.naming.name(self.mv))
            }

            fn __copy__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
                slf
            }

            fn __deepcopy__<'py>(slf: PyRef<'py, Self>, _memo: &Bound<'py, PyAny>) -> PyRef<'py, Self> {
                slf
            }

            /// Pickles as the board and the notation.
            fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String, String))> {
                let this = slf.get();
                Ok((slf.get_type().getattr("_restore")?, (this.naming.board(), this.naming.name(this.mv))))
            }

            #[staticmethod]
            fn _restore(board: &Bound<'_, PyAny>, notation: &Bound<'_, PyAny>) -> BcResult<Self> {
                let (board, notation) = (crate::args::text("board", board)?, crate::args::text("move", notation)?);
                let naming = <$Naming>::from_board(board)
                    .ok_or_else(|| invalid(format!("unknown board {:?}", boardcore_engine::truncate(board))))?;
                let mv = naming.parse(notation).ok_or_else(|| {
                    BcError::from(boardcore_engine::Error::notation(format!(
                        "bad move {:?}",
                        boardcore_engine::truncate(notation)
                    )))
                })?;
                Ok($PyMove { mv, naming })
            }

            /// The hash of the notation, since a move equals its notation string.
            fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
                PyString::new(py, &self.naming.name(self.mv)).hash()
            }

            /// `==` with a move or its notation; `<` and the other orders with moves of the same
            /// board only (docs/design.md, "Moves' order").
            fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> PyResult<Py<PyAny>> {
                let py = other.py();
                if !matches!(op, CompareOp::Eq | CompareOp::Ne) {
                    let Ok(m) = other.cast::<$PyMove>() else { return Ok(py.NotImplemented()) };
                    let m = m.get();
                    if m.naming != self.naming {
                        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                            "moves of different boards ({} and {}) do not compare",
                            self.naming.board(),
                            m.naming.board()
                        )));
                    }
                    let ordering = self.naming.order(self.mv).cmp(&m.naming.order(m.mv));
                    return Ok(op.matches(ordering).into_pyobject(py)?.to_owned().into_any().unbind());
                }
                let equal = if let Ok(m) = other.cast::<$PyMove>() {
                    let m = m.get();
                    Some(m.mv == self.mv && m.naming == self.naming)
                } else if let Ok(s) = other.cast::<PyString>() {
                    // Text that is not valid Unicode (a lone surrogate) names no move.
                    Some(s.to_str().is_ok_and(|text| self.naming.parse(text) == Some(self.mv)))
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

        impl $Py {
            pub(crate) fn position(&self) -> &<$Variant as boardcore_engine::Variant>::Position {
                self.inner.position()
            }

            /// Plays moves legal in turn (from the engine, unchecked) into the history.
            pub(crate) fn push_moves(
                &mut self,
                moves: &[<<$Variant as boardcore_engine::Variant>::Position as Position>::Move],
            ) {
                for &mv in moves {
                    self.inner.push_unchecked(mv);
                }
            }

            pub(crate) fn wrap(&self, mv: <<$Variant as boardcore_engine::Variant>::Position as Position>::Move) -> $PyMove {
                $PyMove { mv, naming: <$Naming>::of(self.position()) }
            }

            /// A move of this game, or its notation.
            fn to_move_arg(
                &self,
                mv: &Bound<'_, PyAny>,
            ) -> BcResult<<<$Variant as boardcore_engine::Variant>::Position as Position>::Move> {
                if let Ok(m) = mv.cast::<$PyMove>() {
                    let m = m.get();
                    if m.naming != <$Naming>::of(self.position()) {
                        return Err(invalid(format!("move {} belongs to another board", m.__str__())));
                    }
                    return Ok(m.mv);
                }
                if !mv.is_instance_of::<PyString>() {
                    return Err(BcError::type_error(format!(
                        "move must be a Move or a string, got {}",
                        crate::args::type_name(mv)
                    )));
                }
                Ok(self.position().parse_move(crate::args::text("move", mv)?)?)
            }
        }

        #[pymethods]
        impl $Py {
            /// The game from a position in notation (raises NotationError).
            #[classmethod]
            fn from_position(_cls: &Bound<'_, PyType>, text: &Bound<'_, PyAny>) -> BcResult<Self> {
                let text = crate::args::text("position", text)?;
                Ok($Py { inner: boardcore_engine::Game::<$Variant>::from_position(text)? })
            }

            /// The game replayed from a record (raises NotationError).
            #[classmethod]
            fn from_record(_cls: &Bound<'_, PyType>, text: &Bound<'_, PyAny>) -> BcResult<Self> {
                let text = crate::args::text("record", text)?;
                Ok($Py { inner: boardcore_engine::Game::<$Variant>::from_record(text)? })
            }

            /// `game.cells()`: every cell's name, in board order (docs/design.md, "Reading the
            /// board").
            fn cells<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
                pyo3::types::PyTuple::new(py, boardcore_engine::Cells::cell_names(self.position()))
            }

            /// What the cell holds: a `Piece(player, pips)`, `HOLE` or `CUT` (Reversi), or None
            /// when it is empty. Raises KeyError for a name that is not a cell of this board,
            /// TypeError for anything but a string.
            fn piece_at(&self, cell: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
                crate::game::read_cell(self.position(), cell)
            }

            /// `game[cell]`: `piece_at(cell)`.
            fn __getitem__(&self, cell: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
                crate::game::read_cell(self.position(), cell)
            }

            /// `Color.BLACK` (0) or `Color.WHITE` (1).
            #[getter]
            fn to_move(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
                crate::game::color(py, self.position().to_move())
            }

            /// The moves played so far.
            #[getter]
            fn history(&self) -> Vec<$PyMove> {
                self.inner.moves().map(|m| self.wrap(m)).collect()
            }

            /// The legal moves in the game's documented order; `[]` once the game is over.
            /// Interruptible, with the GIL released, for games with huge move lists.
            fn legal_moves<'py>(slf: &Bound<'py, Self>) -> BcResult<Bound<'py, pyo3::types::PyList>> {
                let (py, position) = (slf.py(), *slf.borrow().position());
                let naming = <$Naming>::of(&position);
                if !<$Variant as boardcore_engine::Variant>::HUGE_MOVE_LISTS {
                    return Ok(pyo3::types::PyList::new(py, position.legal_moves().map(|mv| $PyMove { mv, naming }))?);
                }
                let moves = crate::interrupt::run_interruptible(py, |stop| position.list_moves(stop))?;
                // Millions of Python objects take a while too: hear Ctrl-C while making them.
                let list = pyo3::types::PyList::empty(py);
                for (i, mv) in moves.into_iter().enumerate() {
                    if i % (1 << 16) == 0 {
                        py.check_signals()?;
                    }
                    list.append($PyMove { mv, naming })?;
                }
                Ok(list)
            }

            /// Whether a move (or its notation) is legal here; malformed text is simply not legal.
            fn is_legal(&self, mv: &Bound<'_, PyAny>) -> bool {
                self.to_move_arg(mv).is_ok_and(|m| self.position().check_move(m).is_ok())
            }

            /// Plays a move or its notation. Raises NotationError or IllegalMoveError, changing
            /// nothing.
            fn play(&mut self, mv: &Bound<'_, PyAny>) -> BcResult<()> {
                let mv = self.to_move_arg(mv)?;
                self.inner.play(mv)?;
                Ok(())
            }

            /// Takes back the last move and returns it; IndexError when there is none.
            fn undo(&mut self) -> PyResult<$PyMove> {
                let naming = <$Naming>::of(self.position());
                match self.inner.undo() {
                    Some(mv) => Ok($PyMove { mv, naming }),
                    None => Err(pyo3::exceptions::PyIndexError::new_err("no move to undo")),
                }
            }

            /// An independent copy of the game, history included.
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

            /// Whether the game has ended (no legal move is left).
            fn is_over(&self) -> bool {
                self.position().is_over()
            }

            /// `Color.BLACK`, `Color.WHITE`, or None (a draw, or not over).
            fn winner(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
                crate::game::winner(py, self.position().outcome())
            }

            /// The position in notation.
            #[pyo3(name = "position")]
            fn position_notation(&self) -> String {
                self.position().to_notation()
            }

            /// The whole game as a record that `load_record` replays exactly.
            fn record(&self) -> String {
                self.inner.record()
            }

            /// The 64-bit Zobrist hash of the position (the game's docs give the keys).
            fn zobrist(&self) -> u64 {
                self.position().zobrist()
            }

            fn __hash__(&self) -> isize {
                match self.position().zobrist() as i64 {
                    -1 => -2,
                    h => h as isize,
                }
            }

            /// Positions are equal when the boards and the side to move are; history is ignored.
            fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> PyResult<Py<PyAny>> {
                let py = other.py();
                let Ok(other) = other.cast::<$Py>() else { return Ok(py.NotImplemented()) };
                let equal = self.position() == other.borrow().position();
                Ok(match op {
                    CompareOp::Eq => equal.into_pyobject(py)?.to_owned().into_any().unbind(),
                    CompareOp::Ne => (!equal).into_pyobject(py)?.to_owned().into_any().unbind(),
                    _ => py.NotImplemented(),
                })
            }

            /// Leaves of the game tree `depth` plies deep (a finished game is one leaf; with
            /// `passes_count_as_ply=False` a Reversi pass uses no ply). Releases the GIL.
            /// Interruptible (Ctrl-C), like every long call: see docs/design.md.
            ///
            /// `split_depth=k` (0 to `depth`) counts with transpositions merged: the distinct
            /// positions `k` plies down and their path counts (`count_paths`), then perft of
            /// `depth - k` of each on `threads` threads, multiplied and summed exactly; `"auto"`
            /// picks `k` (docs/design.md, "Merged perft"). Always equal to plain perft (0).
            #[pyo3(signature = (depth, threads = None, passes_count_as_ply = true, split_depth = None))]
            fn perft(
                slf: &Bound<'_, Self>,
                depth: &Bound<'_, PyAny>,
                threads: Option<&Bound<'_, PyAny>>,
                passes_count_as_ply: bool,
                split_depth: Option<&Bound<'_, PyAny>>,
            ) -> BcResult<u128> {
                let depth = crate::args::depth(depth)?;
                let threads = threads.map(crate::args::threads).transpose()?.unwrap_or(1);
                // A copy, taken after the arguments (which may run Python code) and without
                // keeping the game borrowed: other threads may play on while this counts.
                let position = *slf.borrow().position();
                let split = crate::game::split_depth(depth, split_depth)?;
                let plies = crate::args::plies(passes_count_as_ply);
                crate::interrupt::run_interruptible(slf.py(), |stop| {
                    boardcore_engine::paths::split_perft(&position, depth, split, plies, threads, stop)
                })
            }

            /// Where `perft(depth, split_depth=...)` counts below: `(remaining, positions, paths)`,
            /// the distinct positions (in notation; merged by symmetry too where the board has
            /// symmetries) with how many move sequences reach each, and the plies left below them.
            /// `sum(paths[i] * perft(remaining) of positions[i]) == perft(depth)`. `split_depth`
            /// as in perft (None or 0: plain, the game itself with every ply below), but
            /// `"auto"` when omitted.
            /// Distributed perft cuts it into work units (docs/distributed.md). Releases the GIL;
            /// interruptible.
            #[pyo3(
                signature = (depth, split_depth = crate::game::FrontierSplit::Omitted, passes_count_as_ply = true),
                text_signature = "($self, depth, split_depth='auto', passes_count_as_ply=True)"
            )]
            fn perft_frontier(
                slf: &Bound<'_, Self>,
                depth: &Bound<'_, PyAny>,
                split_depth: crate::game::FrontierSplit<'_>,
                passes_count_as_ply: bool,
            ) -> BcResult<(u32, Vec<String>, Vec<u128>)> {
                let depth = crate::args::depth(depth)?;
                let position = *slf.borrow().position();
                let split = crate::game::frontier_split(depth, &split_depth)?;
                let plies = crate::args::plies(passes_count_as_ply);
                let frontier = crate::interrupt::run_interruptible(slf.py(), |stop| {
                    boardcore_engine::paths::perft_frontier(&position, depth, split, plies, stop)
                })?;
                Ok(crate::game::frontier_rows(&position, depth, frontier))
            }

            /// `sum(paths[i] * perft(depth) of positions[i])` (each `paths[i]` 1 when `paths` is
            /// None) for positions in this game's notation (any board or variant of it), on
            /// `threads` threads: a work unit of distributed perft. Exact (a Python int;
            /// OverflowError past 2**128). Releases the GIL; interruptible.
            #[classmethod]
            #[pyo3(signature = (positions, depth, paths = None, threads = None, passes_count_as_ply = true))]
            fn perft_positions(
                _cls: &Bound<'_, PyType>,
                positions: &Bound<'_, PyAny>,
                depth: &Bound<'_, PyAny>,
                paths: Option<&Bound<'_, PyAny>>,
                threads: Option<&Bound<'_, PyAny>>,
                passes_count_as_ply: bool,
            ) -> BcResult<u128> {
                let depth = crate::args::depth(depth)?;
                let threads = threads.map(crate::args::threads).transpose()?.unwrap_or(1);
                let weighted = crate::game::weighted_positions::<<$Variant as boardcore_engine::Variant>::Position>(
                    positions, paths,
                )?;
                let plies = crate::args::plies(passes_count_as_ply);
                crate::interrupt::run_interruptible(positions.py(), |stop| {
                    boardcore_engine::paths::weighted_perft(&weighted, depth, plies, threads, stop)
                })
            }

            /// The distinct positions at the end of every move sequence of `depth` plies (or
            /// fewer, when the game ends), with how many sequences reach each; transpositions are
            /// merged by the position's exact key (the game's docs say what it holds). The counts
            /// sum to `perft(depth)`. Releases the GIL. Interruptible (Ctrl-C); MemoryError rather
            /// than hold more than `max_positions` positions at once (default None: about 1 GB of
            /// them, 2**23 of Cephalopod's and 4 to 5.6 million of the other games' larger ones;
            /// docs/design.md; raise it on a machine with more memory to count deeper); ValueError
            /// for Cephalopod boards over 31 squares (42 with `owners=False`); OverflowError if a
            /// count passes 2**128.
            /// `owners=False` (Cephalopod only; ValueError for the other games) merges positions
            /// that differ only in the dice's owners and the side to move: rows hold pips alone,
            /// counted over the board's symmetries unless `symmetry=False` (the same rows either
            /// way; the owner-aware count never merges by symmetry). `wrapping=True` gives the
            /// counts modulo 2**64, leaving out rows whose count is then 0. `progress(ply, depth,
            /// positions)` is called after every ply (an exception it raises stops the count).
            #[pyo3(signature = (depth, owners = true, *, symmetry = true, wrapping = false, max_positions = None, progress = None))]
            fn count_paths(
                slf: &Bound<'_, Self>,
                depth: &Bound<'_, PyAny>,
                owners: bool,
                symmetry: bool,
                wrapping: bool,
                max_positions: Option<&Bound<'_, PyAny>>,
                progress: Option<&Bound<'_, PyAny>>,
            ) -> BcResult<crate::game::PathCounts> {
                let depth = crate::args::depth_unbounded(depth)?;
                let max_positions = crate::args::max_positions(max_positions)?;
                let progress = crate::game::progress_callback(progress)?;
                let (py, position) = (slf.py(), *slf.borrow().position());
                if !owners {
                    let options = crate::game::CountOptions { symmetry, wrapping, max_positions };
                    return crate::game::count_paths_owner_free(&position, py, depth, options, progress);
                }
                let paths = crate::interrupt::run_reporting(py, progress, depth, |stop, report| {
                    boardcore_engine::paths::count_paths_reporting(&position, depth, max_positions, stop, report)
                })?;
                Ok(crate::game::PathCounts::build(py, &position, boardcore_engine::paths::wrapped(paths, wrapping)))
            }

            /// `{move notation: perft(depth - 1) of the child}` in move order. Releases the GIL.
            #[pyo3(signature = (depth, passes_count_as_ply = true))]
            fn divide<'py>(
                slf: &Bound<'py, Self>,
                depth: &Bound<'py, PyAny>,
                passes_count_as_ply: bool,
            ) -> BcResult<Bound<'py, PyDict>> {
                let py = slf.py();
                let depth = crate::args::depth(depth)?;
                if depth == 0 {
                    return Err(invalid("divide: depth must be an integer from 1 to 64, got 0"));
                }
                let position = *slf.borrow().position();
                let plies = crate::args::plies(passes_count_as_ply);
                let parts =
                    crate::interrupt::run_interruptible(py, |stop| position.divide_interruptible(depth, plies, stop))?;
                let dict = PyDict::new(py);
                for (mv, n) in parts {
                    dict.set_item(position.format_move(mv), n)?;
                }
                Ok(dict)
            }

            /// `n` uniformly random playouts to the end (seeded, reproducible, independent of the
            /// thread count): `{"black": wins, "white": wins, "draws": n}`; with `scores=True`
            /// also `"outcomes"` (int8, 1 Black won, -1 White won, 0 draw) and `"scores"` (int32,
            /// shape (n, 2): each playout's final points), as numpy arrays. Releases the GIL.
            #[pyo3(signature = (n, seed = None, threads = None, scores = false))]
            fn playouts<'py>(
                slf: &Bound<'py, Self>,
                n: &Bound<'py, PyAny>,
                seed: Option<&Bound<'py, PyAny>>,
                threads: Option<&Bound<'py, PyAny>>,
                scores: bool,
            ) -> BcResult<Bound<'py, PyDict>> {
                let n = crate::args::count("n", n, 0)?;
                let seed = seed.map(crate::args::seed).transpose()?.unwrap_or(0);
                let threads = threads.map(crate::args::threads).transpose()?.unwrap_or(1);
                let (py, position) = (slf.py(), *slf.borrow().position());
                let dict = PyDict::new(py);
                let (tally, endings) = crate::interrupt::run_interruptible(py, |stop| {
                    use boardcore_engine::playout::{random_playouts_interruptible, scored_playouts_interruptible};
                    if !scores {
                        return Ok((random_playouts_interruptible(&position, n, seed, threads, stop)?, None));
                    }
                    let scored = scored_playouts_interruptible(&position, n, seed, threads, stop)?;
                    Ok((scored.tally, Some((scored.outcomes, scored.scores))))
                })?;
                for (key, value) in [("black", tally.black), ("white", tally.white), ("draws", tally.draws)] {
                    dict.set_item(key, value)?;
                }
                if let Some((outcomes, scores)) = endings {
                    dict.set_item("outcomes", numpy::PyArray1::from_vec(py, outcomes))?;
                    dict.set_item("scores", numpy::PyArray2::from_owned_array(py, crate::game::rows(scores)))?;
                }
                Ok(dict)
            }

            /// A uniformly random legal move (None once the game is over): the documented draw,
            /// `below(count_moves())` from SplitMix64(seed), then that entry of the move order,
            /// found without listing the moves where the game can.
            #[pyo3(signature = (seed = None))]
            fn random_move(slf: &Bound<'_, Self>, seed: Option<&Bound<'_, PyAny>>) -> BcResult<Option<$PyMove>> {
                let seed = seed.map(crate::args::seed).transpose()?.unwrap_or(0);
                let mut rng = boardcore_engine::rng::SplitMix64::new(seed);
                let position = *slf.borrow().position();
                let mv = if <$Variant as boardcore_engine::Variant>::HUGE_MOVE_LISTS {
                    crate::interrupt::run_interruptible(slf.py(), |stop| {
                        position.sample_move_interruptible(&mut rng, stop)
                    })?
                } else {
                    position.sample_move(&mut rng)
                };
                Ok(mv.map(|mv| $PyMove { mv, naming: <$Naming>::of(&position) }))
            }

            /// The number of legal moves, counted without building them where the game can.
            fn count_moves(slf: &Bound<'_, Self>) -> BcResult<u64> {
                let position = *slf.borrow().position();
                if <$Variant as boardcore_engine::Variant>::HUGE_MOVE_LISTS {
                    return crate::interrupt::run_interruptible(slf.py(), |stop| {
                        position.count_moves_interruptible(stop)
                    });
                }
                Ok(position.count_moves())
            }

            /// The text board, then who moves or how the game ended (`Game::text`).
            fn __str__(&self) -> String {
                self.inner.text()
            }

            /// The position as SVG (`boardcore.svg.render`), for notebooks.
            fn _repr_svg_(slf: &Bound<'_, Self>) -> PyResult<String> {
                slf.py().import("boardcore.svg")?.call_method1("render", (slf,))?.extract()
            }

            fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
                let name = slf.get_type().name()?;
                Ok(format!("{name}.from_position('{}')", slf.borrow().position().to_notation()))
            }
        }
    };
}

pub(crate) use bind_game;

/// A move class's getters of cells (docs/design.md, "Moves' cells"): `name => placed`, the
/// cells the move places a piece on, or `name => removed`, the cells it empties, as a tuple of
/// names in board order, from the engine's naming. Every game has `placed` and `removed`; some
/// also call one of them by their own name (Cephalopod's `captures`, Strands' `cells`). Each
/// getter's doc comment is its docstring.
macro_rules! bind_move_cells {
    ($PyMove:ty; $($(#[$doc:meta])* $name:ident => $cells:ident),+ $(,)?) => {
        #[pymethods]
        impl $PyMove {
            $(
                $(#[$doc])*
                #[getter]
                fn $name<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
                    pyo3::types::PyTuple::new(py, crate::game::MoveNaming::$cells(self.naming, self.mv))
                }
            )+
        }
    };
}
pub(crate) use bind_move_cells;
