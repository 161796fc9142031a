//! The step form (docs/actions.md) in Python: `game.actions()` and its class for every game, and
//! `VectorEnv`. `bind_actions!` writes each game's step-state class once; `VectorEnv` reaches the
//! four engines' `VectorEnv<S>` through one object-safe trait.

use crate::cephalopod::PyCephalopod;
use crate::errors::{invalid, BcError, BcResult};
use crate::reversi::PyReversi;
use crate::rive::PyRive;
use crate::strands::PyStrands;
use boardcore_engine::actions::{out_of_range, StepOutputs, Steps, VectorEnv, MAX_ENVS};
use boardcore_engine::cephalopod::CephalopodActions;
use boardcore_engine::interrupt::Stop;
use boardcore_engine::reversi::ReversiActions;
use boardcore_engine::rive::RiveActions;
use boardcore_engine::strands::StrandsActions;
use boardcore_engine::{Error, Outcome, Position};
use numpy::ndarray::{Dimension, IntoDimension};
use numpy::{Element, PyArray, PyArray1, PyArray2, PyArray3, PyArray4, PyArrayMethods};
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyString, PyTuple};
use pyo3::PyClass;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyReversiActions>()?;
    m.add_class::<PyCephalopodActions>()?;
    m.add_class::<PyRiveActions>()?;
    m.add_class::<PyStrandsActions>()?;
    m.add_class::<PyVectorEnv>()?;
    Ok(())
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
}

/// The step-state class of a game, and `actions()` on the game's class.
macro_rules! bind_actions {
    ($PyActions:ident, $name:literal, $Steps:ty, $PyGame:ty) => {
        bind_actions!($PyActions, $name, $Steps, $PyGame, |game: &$PyGame| <$Steps>::from_position(*game.position()));
    };
    ($PyActions:ident, $name:literal, $Steps:ty, $PyGame:ty, $steps_of:expr) => {
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
        }

        #[pymethods]
        impl $PyGame {
            /// A snapshot of the current position in step form (docs/actions.md).
            fn actions(&self) -> $PyActions {
                $PyActions { state: self.steps() }
            }
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

            /// `BLACK` (0) or `WHITE` (1): who chooses the next action.
            #[getter]
            fn to_move(&self) -> u8 {
                self.state.to_move() as u8
            }

            /// Whether the game has ended (no legal action is left).
            fn is_over(&self) -> bool {
                self.state.outcome().is_some()
            }

            /// `BLACK`, `WHITE`, or None (a draw, or not over).
            fn winner(&self) -> Option<u8> {
                match self.state.outcome() {
                    Some(Outcome::Winner(p)) => Some(p as u8),
                    _ => None,
                }
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
                    |rows: &mut [i64], width: usize, row: fn(&boardcore_engine::actions::Symmetry) -> &[u32]| {
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

            /// An independent copy of the step state.
            fn copy(&self) -> Self {
                self.clone()
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
                format!("<{} '{}'{covering}>", $name, self.state.position().to_notation())
            }
        }
    };
}

bind_actions!(PyReversiActions, "ReversiActions", ReversiActions, PyReversi);
bind_actions!(PyCephalopodActions, "CephalopodActions", CephalopodActions, PyCephalopod);
bind_actions!(PyRiveActions, "RiveActions", RiveActions, PyRive);
// Strands: the game knows the start's labels, which its symmetries keep.
bind_actions!(PyStrandsActions, "StrandsActions", StrandsActions, PyStrands, PyStrands::steps_with_labels);

#[pymethods]
impl PyStrandsActions {
    /// The cells covered so far this turn, in board order (not yet in `position()`).
    #[getter]
    fn covered<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.state.turn_cells())
    }
}

/// The engine's `VectorEnv<S>` for any game behind one face, so that Python has one class.
trait AnyVectorEnv: Send + Sync {
    fn n(&self) -> usize;
    fn num_actions(&self) -> usize;
    fn observation_shape(&self) -> [usize; 3];
    fn reset(&mut self, observations: &mut [f32], masks: &mut [bool], stop: &Stop) -> Result<(), Error>;
    fn step(&mut self, actions: &[i64], out: StepOutputs<'_>, stop: &Stop) -> Result<(), Error>;
    fn sample_actions(&mut self, out: &mut [i64], stop: &Stop) -> Result<(), Error>;
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
    fn reset(&mut self, observations: &mut [f32], masks: &mut [bool], stop: &Stop) -> Result<(), Error> {
        VectorEnv::reset_interruptible(self, observations, masks, stop)
    }
    fn step(&mut self, actions: &[i64], out: StepOutputs<'_>, stop: &Stop) -> Result<(), Error> {
        VectorEnv::step_interruptible(self, actions, out, stop)
    }
    fn sample_actions(&mut self, out: &mut [i64], stop: &Stop) -> Result<(), Error> {
        VectorEnv::sample_actions_interruptible(self, out, stop)
    }
}

/// `n` games of one kind in step form, stepped together with the GIL released
/// (docs/actions.md). A finished game restarts within the same step. Calls from several threads
/// take turns: each waits for the one running.
#[pyclass(name = "VectorEnv", module = "boardcore", frozen)]
pub struct PyVectorEnv {
    game: String,
    n: usize,
    num_actions: usize,
    observation_shape: [usize; 3],
    env: crate::interrupt::Shared<Box<dyn AnyVectorEnv>>,
}

/// The VectorEnv of game class `G`, set up by `G`'s constructor from the keyword arguments.
fn vector_env<G: ActionsOf>(
    py: Python<'_>,
    variant: Option<&Bound<'_, PyDict>>,
    n: usize,
    seed: u64,
    threads: usize,
) -> PyResult<Box<dyn AnyVectorEnv>> {
    let game = py.get_type::<G>().call((), variant)?;
    let start = game.cast::<G>()?.borrow().steps();
    Ok(Box::new(VectorEnv::new(start, n, seed, threads).map_err(engine_error)?))
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

type ResetResult<'py> = (Bound<'py, PyArray4<f32>>, Bound<'py, PyArray2<bool>>);

type StepResult<'py> = (
    Bound<'py, PyArray4<f32>>,
    Bound<'py, PyArray2<bool>>,
    Bound<'py, PyArray1<f32>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<u8>>,
);

#[pymethods]
impl PyVectorEnv {
    /// `VectorEnv(game, n, seed=0, threads=1, **variant)`: `n` games of `game` ("reversi",
    /// "cephalopod", "rive" or "strands"), set up by the game's constructor from `variant`
    /// (`size=6`, `board="hex3"`, `layout="hex4", cover="exact"`...). Env `i` samples from
    /// `SplitMix64(SplitMix64(seed + i).next())`; `threads` steps the envs in parallel, with the
    /// same results. Raises ValueError naming a bad argument.
    #[new]
    #[pyo3(signature = (game, n, seed = None, threads = None, **variant))]
    fn new(
        py: Python<'_>,
        game: &Bound<'_, PyAny>,
        n: &Bound<'_, PyAny>,
        seed: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
        variant: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let n = crate::args::int_in("n", n, 1..=MAX_ENVS)?;
        let seed = seed.map(crate::args::seed).transpose()?.unwrap_or(0);
        let threads = threads.map(crate::args::threads).transpose()?.unwrap_or(1);
        let Ok(name) = game.cast::<PyString>() else {
            return Err(crate::args::not_a_game_name(game).into());
        };
        let env = match name.to_str() {
            Ok("reversi") => vector_env::<PyReversi>(py, variant, n, seed, threads)?,
            Ok("cephalopod") => vector_env::<PyCephalopod>(py, variant, n, seed, threads)?,
            Ok("rive") => vector_env::<PyRive>(py, variant, n, seed, threads)?,
            Ok("strands") => vector_env::<PyStrands>(py, variant, n, seed, threads)?,
            _ => {
                let shown = crate::args::shown(game);
                return Err(
                    invalid(format!("game must be 'reversi', 'cephalopod', 'rive' or 'strands', got {shown}")).into()
                );
            }
        };
        let (n, num_actions, observation_shape) = (env.n(), env.num_actions(), env.observation_shape());
        let game = name.to_string_lossy().into_owned();
        Ok(PyVectorEnv { game, n, num_actions, observation_shape, env: crate::interrupt::Shared::new(env) })
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

    /// Every env back at the start: `(observations, masks)`, `float32 (n, C, H, W)` and
    /// `bool (n, num_actions)`. Interruptible: then no env changes.
    fn reset<'py>(&self, py: Python<'py>) -> PyResult<ResetResult<'py>> {
        let [c, h, w] = self.observation_shape;
        let observations = PyArray4::<f32>::zeros(py, [self.n, c, h, w], false);
        let masks = PyArray2::<bool>::zeros(py, [self.n, self.num_actions], false);
        {
            let (mut observations, mut masks) = (observations.try_readwrite()?, masks.try_readwrite()?);
            let (observations, masks) = (observations.as_slice_mut()?, masks.as_slice_mut()?);
            let mut env = self.env.take(py, "VectorEnv.reset")?;
            let env = &mut *env;
            crate::interrupt::run_interruptible(py, |stop| env.reset(observations, masks, stop))?;
        }
        Ok((observations, masks))
    }

    /// Applies one action per env (integers of shape `(n,)`), with the GIL released:
    /// `(observations, masks, rewards, terminated, to_move)`. A finished game restarts at once:
    /// its row holds the new game's observation, mask and side to move, with the reward of the
    /// final step for the player who made it. Raises IllegalMoveError naming the first env
    /// whose action is illegal (then no env changes), TypeError or ValueError for a bad array.
    /// Interruptible: then no env changes.
    fn step<'py>(&self, py: Python<'py>, actions: &Bound<'py, PyAny>) -> PyResult<StepResult<'py>> {
        let n = self.n;
        let actions = actions_arg(py, actions, n, self.num_actions)?;
        let [c, h, w] = self.observation_shape;
        let result: StepResult<'py> = (
            PyArray4::zeros(py, [n, c, h, w], false),
            PyArray2::zeros(py, [n, self.num_actions], false),
            PyArray1::zeros(py, [n], false),
            PyArray1::zeros(py, [n], false),
            PyArray1::zeros(py, [n], false),
        );
        {
            let mut guards = (
                result.0.try_readwrite()?,
                result.1.try_readwrite()?,
                result.2.try_readwrite()?,
                result.3.try_readwrite()?,
                result.4.try_readwrite()?,
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
            crate::interrupt::run_interruptible(py, |stop| env.step(&actions, out, stop))?;
        }
        Ok(result)
    }

    /// `int64` array `(n,)`: a uniformly random legal action for every env, each drawn from the
    /// env's own stream. Interruptible: then no stream moves.
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

    fn __repr__(&self) -> String {
        format!("<VectorEnv '{}', n={}>", self.game, self.n)
    }
}
