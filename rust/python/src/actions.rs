//! The step form (docs/actions.md) in Python: `game.actions()` and its class for every game, and
//! `VectorEnv`. `bind_actions!` writes each game's step-state class once; `VectorEnv` reaches the
//! four engines' `VectorEnv<S>` through one object-safe trait.

use crate::args::GameName;
use crate::cephalopod::PyCephalopod;
use crate::errors::{invalid, BcError, BcResult};
use crate::reversi::PyReversi;
use crate::rive::PyRive;
use crate::strands::PyStrands;
use boardcore_engine::cephalopod::CephalopodActions;
use boardcore_engine::interrupt::Stop;
use boardcore_engine::reversi::ReversiActions;
use boardcore_engine::rive::RiveActions;
use boardcore_engine::steps::{
    out_of_range, Autoreset, ResetRequest, StepOutputs, Steps, VectorEnv, VectorEnvSnapshot, MAX_ENVS,
};
use boardcore_engine::strands::StrandsActions;
use boardcore_engine::{Error, Position};
use numpy::ndarray::{Dimension, IntoDimension};
use numpy::{Element, PyArray, PyArray1, PyArray2, PyArray3, PyArray4, PyArrayMethods};
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyString, PyTuple, PyType};
use pyo3::PyClass;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyReversiActions>()?;
    m.add_class::<PyCephalopodActions>()?;
    m.add_class::<PyRiveActions>()?;
    m.add_class::<PyStrandsActions>()?;
    m.add_class::<PyVectorEnv>()?;
    register_named_tuples(m)
}

fn engine_error(e: Error) -> PyErr {
    BcError::from(e).into()
}

/// An action: an integer (Python or numpy) in `0..num_actions`. Other types (`bool` included) are
/// a TypeError; integers out of range an IllegalMoveError, as illegal actions are.
fn action_arg(value: &Bound<'_, PyAny>, num_actions: usize) -> BcResult<usize> {
    let not_an_integer =
        || BcError::type_error(format!("an action is an integer, got {}", crate::args::type_name(value)));
    if value.is_instance_of::<PyBool>() {
        return Err(not_an_integer());
    }
    match value.extract::<i64>() {
        Ok(action) => usize::try_from(action)
            .ok()
            .filter(|&a| a < num_actions)
            .ok_or_else(|| out_of_range(action, num_actions).into()),
        Err(e) if e.is_instance_of::<PyOverflowError>(value.py()) => {
            Err(out_of_range(crate::args::shown(value), num_actions).into())
        }
        Err(_) => Err(not_an_integer()),
    }
}

/// A new numpy array of `shape`, filled through its buffer by `fill` (no per-element Python work).
fn new_array<'py, T: Element, D: Dimension>(
    py: Python<'py>,
    shape: impl IntoDimension<Dim = D>,
    fill: impl FnOnce(&mut [T]),
) -> PyResult<Bound<'py, PyArray<T, D>>> {
    let array = PyArray::zeros(py, shape, false);
    fill(array.try_readwrite()?.as_slice_mut()?);
    Ok(array)
}

/// `slf` borrowed for a change. Another thread's call may hold a borrow while the GIL is
/// released for a moment (a reader building its numpy array); then this thread lets it finish
/// rather than fail. A borrow that does not come back (this thread's own, held by an outer call
/// while a signal handler runs) is a ConcurrentUseError, never a panic.
pub fn exclusive<'py, T: PyClass<Frozen = pyo3::pyclass::boolean_struct::False>>(
    slf: &Bound<'py, T>,
    what: &str,
) -> BcResult<pyo3::PyRefMut<'py, T>> {
    for _ in 0..100_000 {
        if let Ok(borrowed) = slf.try_borrow_mut() {
            return Ok(borrowed);
        }
        slf.py().detach(std::thread::yield_now);
    }
    let busy = format!("{what} was called while another call on the same object is under way");
    Err(crate::errors::ConcurrentUseError::new_err(busy).into())
}

/// A game class whose positions have a step form.
pub trait ActionsOf: PyClass<Frozen = pyo3::pyclass::boolean_struct::False> {
    type Steps: Steps + 'static;
    /// The game's step-state class.
    type Actions: PyClass;
    /// The current position in step form.
    fn steps(&self) -> Self::Steps;
    /// The step state an object of the step-state class holds.
    fn steps_of(actions: &Self::Actions) -> Self::Steps;
    /// Plays `moves` (legal in turn, as `Steps::completed_move` gives them) into the history.
    fn extend_history(&mut self, moves: &[<<Self::Steps as Steps>::Position as Position>::Move]);
    /// A variant's keyword arguments (`VectorEnv`, `selfplay`) split into the constructor's and
    /// the step form's options (Strands' `any_order`; other games have none).
    fn split_variant<'py>(variant: Option<&Bound<'py, PyDict>>) -> PyResult<(Option<Bound<'py, PyDict>>, StepOptions)> {
        Ok((variant.cloned(), StepOptions::default()))
    }
    /// `steps` (at a game's start) with the step form's options (`split_variant`).
    fn with_options(steps: Self::Steps, _options: StepOptions) -> BcResult<Self::Steps> {
        Ok(steps)
    }
    /// What a step state's repr shows of its options beside its position (Strands:
    /// ` order=any`, as its state text), so that states that differ print differently.
    fn options_shown(_steps: &Self::Steps) -> &'static str {
        ""
    }
    /// The start of game `G(**variant)` in step form, with the variant's step-form options, and
    /// the constructor's arguments alone.
    fn start_of<'py>(
        py: Python<'py>,
        variant: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<(Self::Steps, Option<Bound<'py, PyDict>>)> {
        let (variant, options) = Self::split_variant(variant)?;
        let game = py.get_type::<Self>().call((), variant.as_ref())?;
        let steps = Self::with_options(game.cast::<Self>()?.borrow().steps(), options)?;
        Ok((steps, variant))
    }
}

/// The step form's options beside a game's constructor arguments (`ActionsOf::split_variant`).
#[derive(Clone, Copy, Default)]
pub struct StepOptions {
    /// Strands: a turn's cells in any order (`Strands.actions(any_order=True)`).
    pub any_order: bool,
}

/// A cell of a step state's board: its name, or its `(row, col)` in the observation planes.
fn cell_arg<S: Steps>(state: &S, cell: &Bound<'_, PyAny>) -> BcResult<usize> {
    if cell.is_instance_of::<PyString>() {
        return Ok(state.parse_cell(crate::args::text("cell", cell)?)?);
    }
    let Ok((row, col)) = cell.extract::<(i64, i64)>() else {
        let got = crate::args::type_name(cell);
        return Err(BcError::type_error(format!("a cell is a name or a (row, col) pair, got {got}")));
    };
    let point = usize::try_from(row).ok().zip(usize::try_from(col).ok());
    point.and_then(|(row, col)| state.cell_at_point(row, col)).ok_or_else(|| {
        let [_, height, width] = state.observation_shape();
        invalid(format!("({row}, {col}) is no cell of the {height}x{width} grid"))
    })
}

/// The step-state class of a game, and `actions()` on the game's class.
macro_rules! bind_actions {
    ($PyActions:ident, $name:literal, $Steps:ty, $PyGame:ty) => {
        bind_actions!(@class $PyActions, $name, $Steps, $PyGame, |game: &$PyGame| <$Steps>::from_position(*game.position()));

        #[pymethods]
        impl $PyGame {
            /// A snapshot of the current position in step form (docs/actions.md).
            fn actions(&self) -> $PyActions {
                $PyActions { state: self.steps() }
            }
        }
    };
    // The step-state class without the game's `actions()` (a game with options writes its own).
    (@class $PyActions:ident, $name:literal, $Steps:ty, $PyGame:ty, $steps_of:expr $(, $options:item)*) => {
        /// A game in step form: fixed integer actions, masks and observation planes
        /// (docs/actions.md). Made by the game's `actions()`.
        #[pyclass(name = $name, module = "boardcore")]
        #[derive(Clone)]
        pub struct $PyActions {
            state: $Steps,
        }

        impl ActionsOf for $PyGame {
            type Steps = $Steps;
            type Actions = $PyActions;
            fn steps(&self) -> $Steps {
                ($steps_of)(self)
            }
            fn steps_of(actions: &$PyActions) -> $Steps {
                actions.state.clone()
            }
            fn extend_history(&mut self, moves: &[<<$Steps as Steps>::Position as Position>::Move]) {
                self.push_moves(moves)
            }
            $($options)*
        }

        #[pymethods]
        impl $PyActions {
            /// The size of the action space: actions are `0..num_actions`.
            #[getter]
            fn num_actions(&self) -> usize {
                self.state.num_actions()
            }

            /// `(planes, height, width)` of `observation()`.
            #[getter]
            fn observation_shape(&self) -> (usize, usize, usize) {
                let [c, h, w] = self.state.observation_shape();
                (c, h, w)
            }

            /// `bool` array `(num_actions,)`: which actions are legal now.
            fn action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<bool>>> {
                new_array(py, [self.state.num_actions()], |mask| self.state.legal_actions_into(mask))
            }

            /// The legal actions, in increasing order; `[]` once the game is over.
            fn legal_actions(&self) -> Vec<usize> {
                self.state.legal_actions()
            }

            /// Applies an action. Raises TypeError for a non-integer, IllegalMoveError for an
            /// action out of range or not legal here; then nothing changes.
            fn apply_action(slf: &Bound<'_, Self>, action: &Bound<'_, PyAny>) -> BcResult<()> {
                // The argument first (an `__index__` may run Python code, and other threads
                // with it), then the change, under the GIL throughout: a call is atomic.
                // (Read the size in a statement of its own: a borrow must not live while
                // `__index__` runs, or another thread's call would find it taken.)
                let num_actions = slf.borrow().state.num_actions();
                let action = action_arg(action, num_actions)?;
                Ok(exclusive(slf, concat!($name, ".apply_action"))?.state.apply_action(action)?)
            }

            /// `float32` array `(planes, height, width)`, from the side to move's perspective, or
            /// from `player`'s (`BLACK`, `WHITE`, `"black"` or `"white"`): for the other player the
            /// mover's and the opponent's planes are swapped (docs/actions.md).
            #[pyo3(signature = (player = None))]
            fn observation<'py>(
                slf: &Bound<'py, Self>,
                player: Option<&Bound<'py, PyAny>>,
            ) -> BcResult<Bound<'py, PyArray3<f32>>> {
                let player = player.map(|p| crate::args::player("player", p)).transpose()?;
                let this = slf.borrow();
                let player = player.unwrap_or_else(|| this.state.to_move());
                Ok(new_array(slf.py(), this.state.observation_shape(), |out| this.state.observe_for_into(player, out))?)
            }

            /// What each observation plane holds, by name, in plane order (docs/actions.md):
            /// `mover...` planes are the side to move's, `opponent...` the other side's.
            #[getter]
            fn observation_planes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
                PyTuple::new(py, self.state.observation_planes())
            }

            /// `Color.BLACK` (0) or `Color.WHITE` (1): who chooses the next action.
            #[getter]
            fn to_move(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
                crate::game::color(py, self.state.to_move())
            }

            /// Whether the game has ended (no legal action is left).
            fn is_over(&self) -> bool {
                self.state.outcome().is_some()
            }

            /// `Color.BLACK`, `Color.WHITE`, or None (a draw, or not over).
            fn winner(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
                crate::game::winner(py, self.state.outcome())
            }

            /// `(black, white)`: +1 for the winner, -1 for the loser, 0 for a draw; (0, 0) while
            /// the game goes on.
            fn returns(&self) -> (f32, f32) {
                let [black, white] = self.state.returns();
                (black, white)
            }

            /// A readable name of an action (`d3`, `pass`, `xc3`, `end`...). Raises ValueError
            /// for an action out of range, TypeError for a non-integer.
            fn action_name(slf: &Bound<'_, Self>, action: &Bound<'_, PyAny>) -> BcResult<String> {
                let num_actions = slf.borrow().state.num_actions();
                let action = action_arg(action, num_actions).map_err(|e| match e {
                    BcError::Engine(Error::IllegalMove(m)) => invalid(m),
                    other => other,
                })?;
                Ok(slf.borrow().state.action_name(action))
            }

            /// The board's symmetries as gather maps (docs/actions.md, "Symmetries"):
            /// `(observation_maps, action_maps)`, `int64` arrays `(K, C * H * W)` and
            /// `(K, num_actions)`, the identity first. The image of a state under symmetry `k`
            /// has observation `observation().reshape(-1)[observation_maps[k]]` (reshaped back)
            /// and mask `action_mask()[action_maps[k]]`.
            fn symmetries<'py>(
                &self,
                py: Python<'py>,
            ) -> PyResult<(Bound<'py, PyArray2<i64>>, Bound<'py, PyArray2<i64>>)> {
                let symmetries = self.state.symmetries();
                let (count, cells, actions) =
                    (symmetries.len(), self.state.observation_len(), self.state.num_actions());
                let gather =
                    |rows: &mut [i64], width: usize, row: fn(&boardcore_engine::steps::Symmetry) -> &[u32]| {
                        for (out, symmetry) in rows.chunks_mut(width).zip(&symmetries) {
                            out.iter_mut().zip(row(symmetry)).for_each(|(o, &i)| *o = i as i64);
                        }
                    };
                let observation_maps = new_array(py, [count, cells], |rows| gather(rows, cells, |s| &s.observation))?;
                let action_maps = new_array(py, [count, actions], |rows| gather(rows, actions, |s| &s.action))?;
                Ok((observation_maps, action_maps))
            }

            /// The position in the game's notation (for Strands: at the start of the turn).
            fn position(&self) -> String {
                self.state.position().to_notation()
            }

            /// Where an action is on the board (docs/actions.md, "Cells"): `(cell, row, col)`, the
            /// cell's name and its `(row, col)` in the observation planes, or None for an action at
            /// no cell (pass, swap, end). Raises ValueError for an action out of range.
            fn action_cell(
                slf: &Bound<'_, Self>,
                action: &Bound<'_, PyAny>,
            ) -> BcResult<Option<(String, usize, usize)>> {
                let num_actions = slf.borrow().state.num_actions();
                let action = action_arg(action, num_actions).map_err(|e| match e {
                    BcError::Engine(Error::IllegalMove(m)) => invalid(m),
                    other => other,
                })?;
                let state = &slf.borrow().state;
                Ok(state.action_cell(action).map(|cell| {
                    let (row, col) = state.cell_point(cell);
                    (state.cell_name(cell), row, col)
                }))
            }

            /// The actions at a cell, given by name (`"d3"`) or by `(row, col)` in the observation
            /// planes, in increasing order, legal now or not: the inverse of `action_cell` (one
            /// action, or a Cephalopod square's 16 capture choices). Raises NotationError for a
            /// name that is no cell, ValueError for a grid point that is none.
            fn cell_actions(&self, cell: &Bound<'_, PyAny>) -> BcResult<Vec<usize>> {
                Ok(self.state.cell_actions(cell_arg(&self.state, cell)?).collect())
            }

            /// An independent copy of the step state.
            fn copy(&self) -> Self {
                self.clone()
            }

            /// Pickles as the state's exact text (docs/actions.md, "Pickling"), turns under way
            /// included.
            fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
                Ok((slf.get_type().getattr("_restore")?, (slf.borrow().state.state_text(),)))
            }

            /// The step state a pickle holds (its `state_text`), checked: bad text is a
            /// NotationError.
            #[staticmethod]
            fn _restore(text: &Bound<'_, PyAny>) -> BcResult<Self> {
                let text = crate::args::text("state", text)?;
                Ok($PyActions { state: <$Steps>::from_state_text(text)? })
            }

            fn __copy__(&self) -> Self {
                self.clone()
            }

            fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
                self.clone()
            }

            fn __repr__(&self) -> String {
                let covered = self.state.turn_cells();
                let covering =
                    if covered.is_empty() { String::new() } else { format!(" covering {}", covered.join(",")) };
                let options = <$PyGame as ActionsOf>::options_shown(&self.state);
                format!("<{} '{}'{options}{covering}>", $name, self.state.position().to_notation())
            }
        }
    };
}

bind_actions!(PyReversiActions, "ReversiActions", ReversiActions, PyReversi);
bind_actions!(PyCephalopodActions, "CephalopodActions", CephalopodActions, PyCephalopod);
bind_actions!(PyRiveActions, "RiveActions", RiveActions, PyRive);
// Strands: the game knows the start's labels, which its symmetries keep.
bind_actions!(
    @class PyStrandsActions,
    "StrandsActions",
    StrandsActions,
    PyStrands,
    PyStrands::steps_with_labels,
    fn split_variant<'py>(variant: Option<&Bound<'py, PyDict>>) -> PyResult<(Option<Bound<'py, PyDict>>, StepOptions)> {
        let Some(variant) = variant else { return Ok((None, StepOptions::default())) };
        let variant = variant.copy()?;
        let Some(flag) = variant.get_item("any_order")? else { return Ok((Some(variant), StepOptions::default())) };
        variant.del_item("any_order")?;
        Ok((Some(variant), StepOptions { any_order: any_order_arg(&flag)? }))
    },
    fn with_options(steps: StrandsActions, options: StepOptions) -> BcResult<StrandsActions> {
        Ok(steps.in_any_order(options.any_order)?)
    },
    fn options_shown(steps: &StrandsActions) -> &'static str {
        if steps.any_order() { " order=any" } else { "" }
    }
);

/// Strands' `any_order`, read alike wherever it is given (`actions()`, `VectorEnv`, `selfplay`):
/// what PyO3's `bool` extraction takes (`True`, `False`, numpy's booleans), nothing else.
fn any_order_arg(value: &Bound<'_, PyAny>) -> PyResult<bool> {
    value.extract::<bool>().map_err(|_| {
        let got = crate::args::shown_with_type(value);
        BcError::type_error(format!("any_order must be True or False, got {got}")).into()
    })
}

#[pymethods]
impl PyStrands {
    /// A snapshot of the current position in step form (docs/actions.md). With `any_order`, a
    /// turn covers its cells in any order (docs/actions.md, "Strands"), so the board's
    /// symmetries map every step; by default they come in board order.
    // Keywords read by `split_variant`, as `VectorEnv` and `selfplay` read them (a parameter of
    // type `bool` would refuse other values in PyO3's words, and a converter's TypeError gets a
    // note added): the text signature says what the method takes.
    #[pyo3(signature = (**options), text_signature = "($self, *, any_order=False)")]
    fn actions(&self, options: Option<&Bound<'_, PyDict>>) -> PyResult<PyStrandsActions> {
        let (others, options) = Self::split_variant(options)?;
        if let Some(name) = others.and_then(|others| others.keys().iter().next()) {
            let name = crate::args::shown(&name);
            return Err(
                BcError::type_error(format!("Strands.actions() got an unexpected keyword argument {name}")).into()
            );
        }
        // A game's position is a turn's start, where the mode always applies.
        Ok(PyStrandsActions { state: Self::with_options(self.steps(), options)? })
    }
}

#[pymethods]
impl PyStrandsActions {
    /// The cells covered so far this turn, in board order (not yet in `position()`).
    #[getter]
    fn covered<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.state.turn_cells())
    }

    /// Whether a turn's cells may come in any order (`Strands.actions(any_order=True)`).
    #[getter]
    fn any_order(&self) -> bool {
        self.state.any_order()
    }
}

/// Positions for a reset, parsed for one game (`Vec<S>` of that game's step states): the one
/// type `AnyVectorEnv` cannot name.
type AnyPositions = Box<dyn std::any::Any + Send>;

/// Reads reset positions for one game (`positions_of::<G>`).
type PositionsReader = fn(&Bound<'_, PyAny>) -> PyResult<AnyPositions>;

/// The engine's `VectorEnv<S>` for any game behind one face, so that Python has one class.
trait AnyVectorEnv: Send + Sync {
    fn n(&self) -> usize;
    fn num_actions(&self) -> usize;
    fn observation_shape(&self) -> [usize; 3];
    fn autoreset(&self) -> Autoreset;
    fn max_steps(&self) -> Option<u32>;
    fn reset(
        &mut self,
        envs: Option<Vec<bool>>,
        positions: Option<AnyPositions>,
        seed: Option<u64>,
        observations: &mut [f32],
        masks: &mut [bool],
        stop: &Stop,
    ) -> Result<(), Error>;
    fn step(&mut self, actions: &[i64], envs: Option<&[bool]>, out: StepOutputs<'_>, stop: &Stop) -> Result<(), Error>;
    fn sample_actions(&mut self, out: &mut [i64], stop: &Stop) -> Result<(), Error>;
    fn to_move_into(&self, out: &mut [u8]) -> Result<(), Error>;
    fn truncated(&self) -> Vec<bool>;
    /// Marks the envs whose game ended at the last step and writes their final observations.
    fn final_observations_into(&self, ended: &mut [bool], observations: &mut [f32]);
    fn snapshot(&self) -> VectorEnvSnapshot;
    fn duplicate(&self) -> Box<dyn AnyVectorEnv>;
}

impl<S: Steps + 'static> AnyVectorEnv for VectorEnv<S> {
    fn n(&self) -> usize {
        VectorEnv::n(self)
    }
    fn num_actions(&self) -> usize {
        VectorEnv::num_actions(self)
    }
    fn observation_shape(&self) -> [usize; 3] {
        VectorEnv::observation_shape(self)
    }
    fn autoreset(&self) -> Autoreset {
        VectorEnv::autoreset(self)
    }
    fn max_steps(&self) -> Option<u32> {
        VectorEnv::max_steps(self)
    }
    fn reset(
        &mut self,
        envs: Option<Vec<bool>>,
        positions: Option<AnyPositions>,
        seed: Option<u64>,
        observations: &mut [f32],
        masks: &mut [bool],
        stop: &Stop,
    ) -> Result<(), Error> {
        // Made by this env's own `positions_of`, so always of its game.
        let positions = positions.map(|p| p.downcast::<Vec<S>>().map(|p| *p)).transpose();
        let positions = positions.map_err(|_| Error::invalid("positions of another game"))?;
        let request = ResetRequest { envs, positions, seed };
        VectorEnv::reset_envs(self, request, observations, masks, stop)
    }
    fn step(&mut self, actions: &[i64], envs: Option<&[bool]>, out: StepOutputs<'_>, stop: &Stop) -> Result<(), Error> {
        VectorEnv::step_envs_interruptible(self, actions, envs, out, stop)
    }
    fn sample_actions(&mut self, out: &mut [i64], stop: &Stop) -> Result<(), Error> {
        VectorEnv::sample_actions_interruptible(self, out, stop)
    }
    fn to_move_into(&self, out: &mut [u8]) -> Result<(), Error> {
        VectorEnv::to_move_into(self, out)
    }
    fn truncated(&self) -> Vec<bool> {
        VectorEnv::truncated(self).to_vec()
    }
    fn final_observations_into(&self, ended: &mut [bool], observations: &mut [f32]) {
        let len = self.start().observation_len();
        for (i, state) in self.finals() {
            ended[*i] = true;
            state.observe_into(&mut observations[i * len..(i + 1) * len]);
        }
    }
    fn snapshot(&self) -> VectorEnvSnapshot {
        VectorEnv::snapshot(self)
    }
    fn duplicate(&self) -> Box<dyn AnyVectorEnv> {
        Box::new(self.clone())
    }
}

/// The step states of game class `G` that `positions` gives (a sequence of position or state
/// texts, `G` games and `G` step states), as `AnyPositions`.
fn positions_of<G: ActionsOf>(positions: &Bound<'_, PyAny>) -> PyResult<AnyPositions> {
    let py = positions.py();
    let (game, actions) = (py.get_type::<G>(), py.get_type::<G::Actions>());
    if positions.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err("positions must be a sequence of positions (one per env), not one string"));
    }
    let mut states: Vec<G::Steps> = Vec::new();
    for (k, item) in positions.try_iter()?.enumerate() {
        let item = item?;
        let state = if item.is_instance_of::<PyString>() {
            let text = crate::args::text("position", &item)?;
            G::Steps::from_state_text(text)
                .map_err(|e| PyErr::from(BcError::from(Error::notation(format!("positions[{k}]: {e}")))))?
        } else if let Ok(g) = item.cast::<G>() {
            g.borrow().steps()
        } else if let Ok(a) = item.cast::<G::Actions>() {
            G::steps_of(&a.borrow())
        } else {
            let (game, actions, got) = (game.name()?, actions.name()?, crate::args::type_name(&item));
            return Err(PyTypeError::new_err(format!(
                "positions[{k}] must be a {game}, a {actions} or a position's notation, got {got}"
            )));
        };
        states.push(state);
    }
    Ok(Box::new(states))
}

/// `n` games of one kind in step form, stepped together with the GIL released
/// (docs/actions.md). A finished game restarts within the same step, or at the next one. Calls
/// from several threads take turns: each waits for the one running.
#[pyclass(name = "VectorEnv", module = "boardcore", frozen)]
pub struct PyVectorEnv {
    game: String,
    n: usize,
    num_actions: usize,
    observation_shape: [usize; 3],
    /// Reads reset positions for this env's game.
    positions_of: PositionsReader,
    env: crate::interrupt::Shared<Box<dyn AnyVectorEnv>>,
}

/// How a game's VectorEnv is made: from its start state, or from a snapshot.
enum Making<'a, 'py> {
    New {
        variant: Option<&'a Bound<'py, PyDict>>,
        n: usize,
        seed: u64,
        threads: usize,
        autoreset: Autoreset,
        max_steps: Option<u32>,
    },
    Restore(VectorEnvSnapshot),
}

/// The VectorEnv of game class `G`, set up by `G`'s constructor from the keyword arguments, or
/// restored from a snapshot.
fn vector_env<G: ActionsOf>(py: Python<'_>, making: Making<'_, '_>) -> PyResult<Box<dyn AnyVectorEnv>> {
    let env = match making {
        Making::New { variant, n, seed, threads, autoreset, max_steps } => {
            let (start, _) = G::start_of(py, variant)?;
            VectorEnv::new(start, n, seed, threads).and_then(|e| e.with_autoreset(autoreset).with_max_steps(max_steps))
        }
        Making::Restore(snapshot) => VectorEnv::<G::Steps>::restore(snapshot),
    };
    Ok(Box::new(env.map_err(engine_error)?))
}

/// The game's VectorEnv and its reader of positions.
fn game_env(
    py: Python<'_>,
    game: GameName,
    making: Making<'_, '_>,
) -> PyResult<(Box<dyn AnyVectorEnv>, PositionsReader)> {
    Ok(crate::registry::with_class!(game, |Class| (
        vector_env::<Class>(py, making)?,
        positions_of::<Class> as PositionsReader
    )))
}

impl PyVectorEnv {
    fn of(game: String, env: Box<dyn AnyVectorEnv>, positions_of: PositionsReader) -> Self {
        let (n, num_actions, observation_shape) = (env.n(), env.num_actions(), env.observation_shape());
        PyVectorEnv { game, n, num_actions, observation_shape, positions_of, env: crate::interrupt::Shared::new(env) }
    }

    /// A new env of the same game holding `env`.
    fn with(&self, env: Box<dyn AnyVectorEnv>) -> Self {
        PyVectorEnv::of(self.game.clone(), env, self.positions_of)
    }

    /// Which envs a reset restarts: None (all), a bool mask of shape `(n,)`, or env indices.
    fn envs_arg(&self, py: Python<'_>, envs: &Bound<'_, PyAny>) -> PyResult<Vec<bool>> {
        let n = self.n;
        let array = py.import("numpy")?.call_method1("asarray", (envs,))?;
        let dtype = array.getattr("dtype")?;
        let kind: String = dtype.getattr("kind")?.extract()?;
        let shape: Vec<usize> = array.getattr("shape")?.extract()?;
        match kind.as_str() {
            "b" if shape == [n] => Ok(array.extract::<Vec<bool>>()?),
            "b" => Err(PyValueError::new_err(format!("an envs mask must have shape ({n},), got {shape:?}"))),
            "i" | "u" if shape.len() == 1 => {
                let mut flags = vec![false; n];
                for index in array.extract::<Vec<i128>>()? {
                    let i = usize::try_from(index).ok().filter(|&i| i < n);
                    let i = i.ok_or_else(|| PyValueError::new_err(format!("env index {index} is out of range 0..{n}")))?;
                    flags[i] = true;
                }
                Ok(flags)
            }
            "f" if shape == [0] => Ok(vec![false; n]),
            _ => Err(PyTypeError::new_err(format!(
                "envs must be None, a bool mask of shape ({n},) or env indices, got an array of {dtype} with shape {shape:?}"
            ))),
        }
    }
}

/// The actions argument of `step`: integers of shape `(n,)`, as int64. Unsigned 64-bit actions
/// past the int64 range are refused as themselves (a plain cast would turn 2**64-1 into -1).
fn actions_arg(py: Python<'_>, actions: &Bound<'_, PyAny>, n: usize, num_actions: usize) -> PyResult<Vec<i64>> {
    let numpy = py.import("numpy")?;
    let array = numpy.call_method1("asarray", (actions,))?;
    let dtype = array.getattr("dtype")?;
    if !matches!(dtype.getattr("kind")?.extract::<String>()?.as_str(), "i" | "u") {
        return Err(PyTypeError::new_err(format!("actions must be integers, got an array of {dtype}")));
    }
    let shape = array.getattr("shape")?;
    if shape.extract::<Vec<usize>>()? != [n] {
        return Err(PyValueError::new_err(format!("actions must have shape ({n},), got {shape}")));
    }
    if dtype.getattr("kind")?.extract::<String>()? == "u" && dtype.getattr("itemsize")?.extract::<usize>()? == 8 {
        let unsigned = numpy.call_method1("ascontiguousarray", (&array, "uint64"))?;
        let values = unsigned.cast::<PyArray1<u64>>()?.try_readonly()?.as_slice()?.to_vec();
        if let Some((env, &action)) = values.iter().enumerate().find(|(_, &a)| a > i64::MAX as u64) {
            return Err(engine_error(Error::illegal(format!("env {env}: {}", out_of_range(action, num_actions)))));
        }
    }
    let contiguous = numpy.call_method1("ascontiguousarray", (array, "int64"))?;
    let values = contiguous.cast::<PyArray1<i64>>()?.try_readonly()?.as_slice()?.to_vec();
    Ok(values)
}

/// The named tuples `step` and `reset` return (`boardcore.VectorStep`, `boardcore.VectorReset`),
/// made once: `collections.namedtuple` classes, so that they unpack, index and pickle as tuples.
static VECTOR_STEP: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static VECTOR_RESET: PyOnceLock<Py<PyType>> = PyOnceLock::new();

fn named_tuple<'py>(
    py: Python<'py>,
    cell: &'static PyOnceLock<Py<PyType>>,
    name: &str,
    fields: &[&str],
    doc: &str,
) -> PyResult<&'py Bound<'py, PyType>> {
    cell.get_or_try_init(py, || {
        let kwargs = PyDict::new(py);
        kwargs.set_item("module", "boardcore")?;
        let class = py.import("collections")?.getattr("namedtuple")?.call((name, fields.to_vec()), Some(&kwargs))?;
        class.setattr("__doc__", doc)?;
        Ok::<_, PyErr>(class.cast_into::<PyType>()?.unbind())
    })
    .map(|class| class.bind(py))
}

const STEP_FIELDS: [&str; 5] = ["obs", "masks", "rewards", "terminated", "to_move"];

fn vector_step_class(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    named_tuple(
        py,
        &VECTOR_STEP,
        "VectorStep",
        &STEP_FIELDS,
        "What VectorEnv.step returns: (obs, masks, rewards, terminated, to_move). Not Gymnasium's \
         (obs, rewards, terminated, truncated, infos): see docs/actions.md.",
    )
}

fn vector_reset_class(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    named_tuple(py, &VECTOR_RESET, "VectorReset", &["obs", "masks"], "What VectorEnv.reset returns: (obs, masks).")
}

/// Adds `VectorStep` and `VectorReset` to the module.
pub fn register_named_tuples(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("VectorStep", vector_step_class(m.py())?)?;
    m.add("VectorReset", vector_reset_class(m.py())?)?;
    Ok(())
}

/// The autoreset argument: `"same-step"` or `"next-step"` (or Gymnasium's `AutoresetMode`).
fn autoreset_arg(value: &Bound<'_, PyAny>) -> BcResult<Autoreset> {
    let value = match value.getattr("value") {
        Ok(inner) if !value.is_instance_of::<PyString>() => inner,
        _ => value.clone(),
    };
    if !value.is_instance_of::<PyString>() {
        return Err(BcError::type_error(format!(
            "autoreset must be 'same-step' or 'next-step', got {}",
            crate::args::type_name(&value)
        )));
    }
    Ok(Autoreset::from_name(crate::args::text("autoreset", &value)?)?)
}

/// `final_observations()`: which envs ended, and their final observations.
type FinalObservations<'py> = (Bound<'py, PyArray1<bool>>, Bound<'py, PyArray4<f32>>);

/// `__reduce__`: the restoring function, and its arguments (the game and a snapshot).
type Reduced<'py> = (Bound<'py, PyAny>, (String, Bound<'py, PyDict>));

#[pymethods]
impl PyVectorEnv {
    /// `VectorEnv(game, n, seed=0, threads=1, autoreset="same-step", max_steps=None,
    /// **variant)`: `n` games of `game` ("reversi", "cephalopod", "rive" or "strands"), set up by
    /// the game's constructor from `variant` (`size=6`, `board="hex3"`, `layout="hex4",
    /// cover="exact"`...; for Strands also `any_order=True`, the any-order step form). Env `i` samples from `SplitMix64(SplitMix64(seed + i).next())`;
    /// `threads` steps the envs in parallel, with the same results. A game that ends restarts
    /// within the step (`"same-step"`) or at the next one (`"next-step"`); `max_steps` cuts games
    /// after that many actions (`truncated()`). Raises ValueError naming a bad argument.
    #[new]
    #[pyo3(signature = (game, n, seed = None, threads = None, autoreset = None, max_steps = None, **variant))]
    #[allow(clippy::too_many_arguments)] // the Python constructor's parameters, one each
    fn new(
        py: Python<'_>,
        game: &Bound<'_, PyAny>,
        n: &Bound<'_, PyAny>,
        seed: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
        autoreset: Option<&Bound<'_, PyAny>>,
        max_steps: Option<&Bound<'_, PyAny>>,
        variant: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let n = crate::args::int_in("n", n, 1..=MAX_ENVS)?;
        let seed = seed.map(crate::args::seed).transpose()?.unwrap_or(0);
        let threads = threads.map(crate::args::threads).transpose()?.unwrap_or(1);
        let autoreset = autoreset.map(autoreset_arg).transpose()?.unwrap_or_default();
        let max_steps = crate::args::max_steps(max_steps)?;
        let game = crate::args::game_name(game)?;
        let making = Making::New { variant, n, seed, threads, autoreset, max_steps };
        let (env, positions_of) = game_env(py, game, making)?;
        Ok(PyVectorEnv::of(game.as_str().to_string(), env, positions_of))
    }

    /// The game's name.
    #[getter]
    fn game(&self) -> &str {
        &self.game
    }

    /// The number of envs.
    #[getter]
    fn n(&self) -> usize {
        self.n
    }

    /// The size of the action space: actions are `0..num_actions`.
    #[getter]
    fn num_actions(&self) -> usize {
        self.num_actions
    }

    /// `(planes, height, width)` of one env's observation.
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        let [c, h, w] = self.observation_shape;
        (c, h, w)
    }

    /// `"same-step"` or `"next-step"`: when a game that ended restarts.
    #[getter]
    fn autoreset(&self, py: Python<'_>) -> BcResult<&'static str> {
        Ok(self.env.take(py, "VectorEnv.autoreset")?.autoreset().name())
    }

    /// Games are truncated after this many actions (None: never).
    #[getter]
    fn max_steps(&self, py: Python<'_>) -> BcResult<Option<u32>> {
        Ok(self.env.take(py, "VectorEnv.max_steps")?.max_steps())
    }

    /// Restarts envs: `VectorReset(obs, masks)` of every env, `float32 (n, C, H, W)` and
    /// `bool (n, num_actions)`. `envs` chooses which (None: all; a bool mask of shape `(n,)`;
    /// or env indices), the others stay as they are. `positions` (one per env restarted, in env
    /// order: position notations, games or step states of this game and variant) are where
    /// they start instead of the start; `seed` restarts their random streams as
    /// `VectorEnv(..., seed=seed)` has them (else the streams go on). Raises TypeError or
    /// ValueError for a bad argument, a position of another game or variant, or one already
    /// over; then, or when interrupted, no env changes.
    #[pyo3(signature = (envs = None, positions = None, seed = None))]
    fn reset<'py>(
        &self,
        py: Python<'py>,
        envs: Option<&Bound<'py, PyAny>>,
        positions: Option<&Bound<'py, PyAny>>,
        seed: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let envs = envs.filter(|e| !e.is_none()).map(|e| self.envs_arg(py, e)).transpose()?;
        let positions = positions.filter(|p| !p.is_none()).map(|p| (self.positions_of)(p)).transpose()?;
        let seed = seed.filter(|s| !s.is_none()).map(crate::args::seed).transpose()?;
        let [c, h, w] = self.observation_shape;
        let observations = PyArray4::<f32>::zeros(py, [self.n, c, h, w], false);
        let masks = PyArray2::<bool>::zeros(py, [self.n, self.num_actions], false);
        {
            let (mut observations, mut masks) = (observations.try_readwrite()?, masks.try_readwrite()?);
            let (observations, masks) = (observations.as_slice_mut()?, masks.as_slice_mut()?);
            let mut env = self.env.take(py, "VectorEnv.reset")?;
            let env = &mut *env;
            crate::interrupt::run_interruptible(py, |stop| {
                env.reset(envs, positions, seed, observations, masks, stop)
            })?;
        }
        vector_reset_class(py)?.call1((observations, masks))
    }

    /// Applies one action per env (integers of shape `(n,)`), with the GIL released:
    /// `VectorStep(obs, masks, rewards, terminated, to_move)` (not Gymnasium's order: see
    /// docs/actions.md). A finished game restarts: with `"same-step"` at once, its row holding
    /// the new game's observation, mask and side to move, with the reward of the final step for
    /// the player who made it; with `"next-step"` its row is the final position's (an all-False
    /// mask) and the next step restarts it, ignoring its action (reward 0, not terminated).
    /// `envs` (a bool mask or env indices, as for `reset`) steps only those envs: the others
    /// neither act nor change (their actions are not read), and their rows are written as they
    /// stand, with reward 0, not terminated.
    /// Raises IllegalMoveError naming the first env whose action is illegal (then no env
    /// changes), TypeError or ValueError for a bad array. Interruptible: then no env changes.
    #[pyo3(signature = (actions, envs = None))]
    fn step<'py>(
        &self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
        envs: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let n = self.n;
        let actions = actions_arg(py, actions, n, self.num_actions)?;
        let envs = envs.filter(|e| !e.is_none()).map(|e| self.envs_arg(py, e)).transpose()?;
        let [c, h, w] = self.observation_shape;
        let observations = PyArray4::<f32>::zeros(py, [n, c, h, w], false);
        let masks = PyArray2::<bool>::zeros(py, [n, self.num_actions], false);
        let rewards = PyArray1::<f32>::zeros(py, [n], false);
        let terminated = PyArray1::<bool>::zeros(py, [n], false);
        let to_move = PyArray1::<u8>::zeros(py, [n], false);
        {
            let mut guards = (
                observations.try_readwrite()?,
                masks.try_readwrite()?,
                rewards.try_readwrite()?,
                terminated.try_readwrite()?,
                to_move.try_readwrite()?,
            );
            let out = StepOutputs {
                observations: guards.0.as_slice_mut()?,
                masks: guards.1.as_slice_mut()?,
                rewards: guards.2.as_slice_mut()?,
                terminated: guards.3.as_slice_mut()?,
                to_move: guards.4.as_slice_mut()?,
            };
            let mut env = self.env.take(py, "VectorEnv.step")?;
            let env = &mut *env;
            crate::interrupt::run_interruptible(py, |stop| env.step(&actions, envs.as_deref(), out, stop))?;
        }
        vector_step_class(py)?.call1((observations, masks, rewards, terminated, to_move))
    }

    /// `int64` array `(n,)`: a uniformly random legal action for every env, each drawn from the
    /// env's own stream (0 for an env waiting for its next-step restart). Interruptible: then no
    /// stream moves.
    fn sample_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let actions = PyArray1::<i64>::zeros(py, [self.n], false);
        {
            let mut guard = actions.try_readwrite()?;
            let out = guard.as_slice_mut()?;
            let mut env = self.env.take(py, "VectorEnv.sample_actions")?;
            let env = &mut *env;
            crate::interrupt::run_interruptible(py, |stop| env.sample_actions(out, stop))?;
        }
        Ok(actions)
    }

    /// `uint8` array `(n,)`: the side to move in every env now.
    fn to_move<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<u8>>> {
        let env = self.env.take(py, "VectorEnv.to_move")?;
        let mut to_move = vec![0; self.n];
        env.to_move_into(&mut to_move).map_err(engine_error)?;
        Ok(PyArray1::from_vec(py, to_move))
    }

    /// `bool` array `(n,)`: the envs whose game reached `max_steps` actions at the last step
    /// without ending (truncated, restarted as a finished game is).
    fn truncated<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let truncated = self.env.take(py, "VectorEnv.truncated")?.truncated();
        Ok(PyArray1::from_vec(py, truncated))
    }

    /// `(ended, obs)`: `bool (n,)`, the envs whose game ended (terminated or truncated) at the
    /// last step, and `float32 (n, C, H, W)`, their final observations (zeros for the others),
    /// which a same-step restart replaced in the step's own result.
    fn final_observations<'py>(&self, py: Python<'py>) -> PyResult<FinalObservations<'py>> {
        let [c, h, w] = self.observation_shape;
        let ended = PyArray1::<bool>::zeros(py, [self.n], false);
        let observations = PyArray4::<f32>::zeros(py, [self.n, c, h, w], false);
        {
            let env = self.env.take(py, "VectorEnv.final_observations")?;
            let (mut e, mut o) = (ended.try_readwrite()?, observations.try_readwrite()?);
            env.final_observations_into(e.as_slice_mut()?, o.as_slice_mut()?);
        }
        Ok((ended, observations))
    }

    /// An independent copy: every env's state, random stream and step count, the settings,
    /// and the last step's `truncated` and `final_observations`. Given the same actions it
    /// evolves as the original.
    fn copy(&self, py: Python<'_>) -> BcResult<Self> {
        let env = self.env.take(py, "VectorEnv.copy")?;
        Ok(self.with(env.duplicate()))
    }

    fn __copy__(&self, py: Python<'_>) -> BcResult<Self> {
        self.copy(py)
    }

    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> BcResult<Self> {
        self.copy(py)
    }

    /// Pickles as the game and a snapshot: every env's exact state (`state_text`), random
    /// stream and step count, and the settings (docs/actions.md, "Pickling"). The last step's
    /// `truncated` and `final_observations` are not kept.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py>> {
        let py = slf.py();
        let this = slf.get();
        let snapshot = this.env.take(py, "VectorEnv.__reduce__")?.snapshot();
        let state = PyDict::new(py);
        state.set_item("start", snapshot.start)?;
        state.set_item("envs", snapshot.envs)?;
        state.set_item("rngs", snapshot.rngs)?;
        state.set_item("steps", snapshot.steps)?;
        state.set_item("pending", snapshot.pending)?;
        state.set_item("autoreset", snapshot.autoreset.name())?;
        state.set_item("max_steps", snapshot.max_steps)?;
        state.set_item("threads", snapshot.threads)?;
        Ok((slf.get_type().getattr("_restore")?, (this.game.clone(), state)))
    }

    /// The VectorEnv a pickle holds, checked (`VectorEnv::restore`): a bad payload is a
    /// ValueError, TypeError or NotationError, never a crash.
    #[staticmethod]
    fn _restore(py: Python<'_>, game: &Bound<'_, PyAny>, state: &Bound<'_, PyDict>) -> PyResult<Self> {
        let game = crate::args::game_name(game)?;
        let item = |key: &str| -> PyResult<Bound<'_, PyAny>> {
            state.get_item(key)?.ok_or_else(|| PyValueError::new_err(format!("a VectorEnv pickle has no {key:?}")))
        };
        let snapshot = VectorEnvSnapshot {
            start: item("start")?.extract()?,
            envs: item("envs")?.extract()?,
            rngs: item("rngs")?.extract()?,
            steps: item("steps")?.extract()?,
            pending: item("pending")?.extract()?,
            autoreset: autoreset_arg(&item("autoreset")?)?,
            max_steps: crate::args::max_steps(Some(&item("max_steps")?))?,
            threads: crate::args::threads(&item("threads")?)?,
        };
        let (env, positions_of) = game_env(py, game, Making::Restore(snapshot))?;
        Ok(PyVectorEnv::of(game.as_str().to_string(), env, positions_of))
    }

    fn __repr__(&self) -> String {
        format!("<VectorEnv '{}', n={}>", self.game, self.n)
    }
}
