//! Model-guided search and self-play (`boardcore_engine::puct`, `selfplay`) for Python:
//! `search_steps` and `selfplay`, wrapped by `boardcore/mcts.py`. This file converts arguments,
//! calls a Python evaluator for each batch (checking what it returns), and maps results to numpy.

use crate::actions::ActionsOf;
use crate::args::GameName;
use crate::errors::{invalid, BcError, BcResult, Raised};
use crate::eval::Learned;
use boardcore_engine::interrupt::Stop;
use boardcore_engine::puct::{self, Batch, Encoded, Evaluator, Gumbel, Rollouts, Settings};
use boardcore_engine::search::eval::Guide;
use boardcore_engine::steps::Steps;
use boardcore_engine::{selfplay as engine_selfplay, Error, Outcome};
use numpy::ndarray::{Array1, Array2, Array4};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArray4, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

/// The PUCT settings' defaults, from the engine (`puct::Settings::default`, `Gumbel::default`,
/// `DIRICHLET_FRACTION`): `bc.mcts`'s signatures read their defaults here, so they are set once.
#[pyfunction]
fn puct_defaults(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let (settings, gumbel) = (Settings::default(), Gumbel::default());
    let defaults = PyDict::new(py);
    defaults.set_item("iterations", settings.simulations)?;
    defaults.set_item("c_puct", settings.c_puct)?;
    defaults.set_item("dirichlet_fraction", puct::DIRICHLET_FRACTION)?;
    defaults.set_item("max_considered", gumbel.max_considered)?;
    defaults.set_item("temperature", settings.temperature)?;
    defaults.set_item("threads", settings.threads)?;
    defaults.set_item("max_nodes", settings.max_nodes)?;
    Ok(defaults)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(puct_defaults, m)?)?;
    m.add_function(wrap_pyfunction!(search_steps, m)?)?;
    m.add_function(wrap_pyfunction!(selfplay, m)?)?;
    m.add_class::<PolicyReport>()?;
    m.add_class::<SelfPlayReport>()?;
    Ok(())
}

/// The most leaves in one evaluator call.
const MAX_BATCH: usize = 1 << 16;

/// The search settings, checked (each bad value a ValueError naming it).
#[allow(clippy::too_many_arguments)]
fn settings(
    iterations: &Bound<'_, PyAny>,
    batch_size: usize,
    c_puct: &Bound<'_, PyAny>,
    dirichlet_alpha: Option<&Bound<'_, PyAny>>,
    dirichlet_fraction: &Bound<'_, PyAny>,
    gumbel: bool,
    max_considered: &Bound<'_, PyAny>,
    temperature: f32,
    threads: Option<&Bound<'_, PyAny>>,
    max_nodes: &Bound<'_, PyAny>,
) -> BcResult<Settings> {
    let simulations = crate::args::count("iterations", iterations, 0)?;
    let c_puct = crate::args::number("c_puct", c_puct)? as f32;
    let dirichlet = match dirichlet_alpha {
        Some(alpha) => Some((
            crate::args::number("dirichlet_alpha", alpha)? as f32,
            crate::args::number("dirichlet_fraction", dirichlet_fraction)? as f32,
        )),
        None => None,
    };
    let max_considered = crate::args::int_in("max_considered", max_considered, 1..=MAX_BATCH)?;
    let settings = Settings {
        simulations,
        batch_size,
        c_puct,
        dirichlet,
        gumbel: gumbel.then_some(Gumbel { max_considered, ..Gumbel::default() }),
        temperature,
        threads: threads.map(crate::args::threads).transpose()?.unwrap_or(1),
        max_nodes: crate::uct::node_budget(max_nodes)?,
        time_limit: None,
    };
    puct::check(&settings)?;
    Ok(settings)
}

fn batch_size_arg(value: &Bound<'_, PyAny>) -> BcResult<usize> {
    crate::args::int_in("batch_size", value, 1..=MAX_BATCH)
}

/// A Python evaluator: `evaluate(observations, masks) -> (logits, values)`, or a callable.
struct PyEvaluator {
    evaluate: Py<PyAny>,
    /// The exception that ended the search (the evaluator's own, or one about what it returned).
    raised: Raised,
}

impl PyEvaluator {
    fn new(evaluator: &Bound<'_, PyAny>) -> PyResult<Self> {
        let evaluate = match evaluator.getattr("evaluate") {
            Ok(method) if method.is_callable() => method,
            _ if evaluator.is_callable() => evaluator.clone(),
            _ => {
                let shown = crate::args::type_name(evaluator);
                return Err(PyTypeError::new_err(format!(
                    "evaluator must have an evaluate(observations, masks) method or be callable, got {shown}"
                )));
            }
        };
        Ok(PyEvaluator { evaluate: evaluate.unbind(), raised: Raised::default() })
    }

    /// Calls the evaluator on the batch's observations and masks and checks its answer into
    /// `logits` and `values`.
    fn call(&self, py: Python<'_>, encoded: Encoded, logits: &mut [f32], values: &mut [f32]) -> PyResult<()> {
        let Encoded { observations, masks, shape, num_actions } = encoded;
        let rows = shape[0];
        let observations = Array4::from_shape_vec(shape, observations)
            .expect("the batch's observations fill their shape")
            .into_pyarray(py);
        let mask_array = Array2::from_shape_vec([rows, num_actions], masks.clone())
            .expect("the batch's masks fill their shape")
            .into_pyarray(py);
        let answer = self.evaluate.bind(py).call1((observations, mask_array))?;
        let pair = answer.cast::<PyTuple>().ok().filter(|t| t.len() == 2).map(|t| (t.get_item(0), t.get_item(1)));
        let Some((Ok(policy), Ok(value))) = pair else {
            let shown = crate::args::type_name(&answer);
            return Err(PyTypeError::new_err(format!(
                "the evaluator must return a tuple (policy_logits, values), got {shown}"
            )));
        };
        // float32 C-contiguous arrays (what a numpy model returns) are read as they are; anything
        // else goes through numpy's conversion first.
        let policy = match policy.cast::<PyArray2<f32>>() {
            Ok(array) if array.is_c_contiguous() => array.clone().into_any(),
            _ => float32_array(py, &policy, "policy_logits")?,
        };
        let policy = policy.cast_into::<PyArray2<f32>>().ok().filter(|a| a.shape() == [rows, num_actions]);
        let Some(policy) = policy else {
            return Err(PyValueError::new_err(format!(
                "the evaluator's policy_logits must have shape ({rows}, {num_actions})"
            )));
        };
        logits.copy_from_slice(policy.try_readonly()?.as_slice()?);
        match value.cast::<PyArray1<f32>>() {
            Ok(array) if array.is_c_contiguous() && array.len() == rows => {
                values.copy_from_slice(array.try_readonly()?.as_slice()?)
            }
            _ => {
                // A value head's (B, 1) is as good as (B,).
                let value = float32_array(py, &value, "values")?.call_method1("reshape", (-1,))?;
                let value = value.cast_into::<PyArray1<f32>>().ok().filter(|a| a.len() == rows);
                let Some(value) = value else {
                    return Err(PyValueError::new_err(format!("the evaluator's values must have shape ({rows},)")));
                };
                values.copy_from_slice(value.try_readonly()?.as_slice()?);
            }
        }
        check_answer(logits, values, &masks, num_actions)
    }
}

/// `np.ascontiguousarray(value, dtype=np.float32)`, or a TypeError naming `what`.
fn float32_array<'py>(py: Python<'py>, value: &Bound<'py, PyAny>, what: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("numpy")?.call_method1("ascontiguousarray", (value, "float32")).map_err(|e| {
        PyTypeError::new_err(format!(
            "the evaluator's {what} must be an array of numbers (float32), got {}: {e}",
            crate::args::type_name(value)
        ))
    })
}

/// Values in [-1, 1] and not NaN; logits of legal actions not NaN nor +inf, and not all -inf.
fn check_answer(logits: &[f32], values: &[f32], masks: &[bool], num_actions: usize) -> PyResult<()> {
    // NaN fails the range test as well.
    let in_range = |v: f32| (-1.0 - 1e-6..=1.0 + 1e-6).contains(&v);
    if let Some((row, v)) = values.iter().enumerate().find(|(_, &v)| !in_range(v)) {
        return Err(PyValueError::new_err(format!("the evaluator's values must be in [-1, 1], got {v} in row {row}")));
    }
    for (row, (logits, mask)) in logits.chunks(num_actions).zip(masks.chunks(num_actions)).enumerate() {
        let legal = || logits.iter().zip(mask).filter(|(_, &m)| m).map(|(&l, _)| l);
        if let Some(bad) = legal().find(|l| l.is_nan() || *l == f32::INFINITY) {
            return Err(PyValueError::new_err(format!(
                "the evaluator's policy_logits must be finite for legal actions, got {bad} in row {row}"
            )));
        }
        if legal().all(|l| l == f32::NEG_INFINITY) {
            return Err(PyValueError::new_err(format!(
                "the evaluator's policy_logits are -inf for every legal action in row {row}"
            )));
        }
    }
    Ok(())
}

impl<S: Steps> Evaluator<S> for PyEvaluator {
    fn evaluate(
        &mut self,
        batch: &Batch<'_, S>,
        logits: &mut [f32],
        values: &mut [f32],
        stop: &Stop,
    ) -> Result<(), Error> {
        stop.check()?;
        let Some(encoded) = puct::encode(batch) else { return Ok(()) };
        let result = Python::attach(|py| self.call(py, encoded, logits, values));
        result.map_err(|e| self.raised.keep(e))
    }
}

/// The evaluator of a call: rollouts in Rust for None, a learned evaluation in Rust for a
/// `bc.ai.evaluator(...)`, else the Python one.
enum AnyEvaluator {
    Rollouts(Rollouts),
    Learned(Guide, GameName),
    Python(PyEvaluator),
}

impl AnyEvaluator {
    fn new(evaluator: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        Ok(match evaluator {
            Some(e) if !e.is_none() => match crate::eval::learned(e) {
                Some((learned, game)) => AnyEvaluator::Learned(Guide::new(learned), game),
                None => AnyEvaluator::Python(PyEvaluator::new(e)?),
            },
            _ => AnyEvaluator::Rollouts(Rollouts),
        })
    }

    /// Runs `work` with the evaluator, the GIL released and Ctrl-C heard; an exception from the
    /// evaluator is raised as it is. A learned evaluation of another game is refused first.
    fn run<S: Steps, T: Send>(
        &mut self,
        py: Python<'_>,
        work: impl FnOnce(&mut dyn Evaluator<S>, &Stop) -> Result<T, Error> + Send,
    ) -> BcResult<T>
    where
        S::Position: Learned,
    {
        match self {
            AnyEvaluator::Rollouts(rollouts) => crate::interrupt::run_interruptible(py, |stop| work(rollouts, stop)),
            AnyEvaluator::Learned(guide, game) => {
                crate::eval::check_game::<S::Position>(*game)?;
                crate::interrupt::run_interruptible(py, |stop| work(guide, stop))
            }
            AnyEvaluator::Python(evaluator) => {
                let result = crate::interrupt::run_interruptible(py, |stop| work(evaluator, stop));
                // The evaluator's exception ended the engine's work (as an interruption would):
                // it is what the caller sees.
                evaluator.raised.or(result)
            }
        }
    }
}

/// What one search of `search_steps` found: `bc.mcts.PolicyResult` is built from it.
#[pyclass(module = "boardcore._boardcore", name = "PolicyReport", frozen, get_all)]
pub struct PolicyReport {
    /// The chosen action (None when the game is over).
    action: Option<usize>,
    /// The search policy over every action (float32).
    policy: Py<PyArray1<f32>>,
    /// The root's value for the player to move, in [-1, 1].
    value: f32,
    /// Visits per action (int64).
    visits: Py<PyArray1<i64>>,
    /// Simulations run (the root's own evaluation not counted).
    simulations: u64,
    /// Nodes in the tree.
    nodes: usize,
    /// Whether the tree reached its node budget.
    tree_full: bool,
    /// The root player's turn along the most visited line, from `action`.
    turn: Vec<usize>,
}

/// The rows of `selfplay`: `bc.mcts.SelfPlayData` is built from them (its fields say what each is).
#[pyclass(module = "boardcore._boardcore", name = "SelfPlayReport", frozen, get_all)]
pub struct SelfPlayReport {
    observations: Py<PyArray4<f32>>,
    masks: Py<PyArray2<bool>>,
    policies: Py<PyArray2<f32>>,
    players: Py<PyArray1<u8>>,
    outcomes: Py<PyArray1<f32>>,
    game_ids: Py<PyArray1<i64>>,
    move_numbers: Py<PyArray1<i64>>,
    actions: Py<PyArray1<i64>>,
    games: Vec<Py<PyAny>>,
    winners: Vec<Option<u8>>,
}

/// A search from each of `states` (games or step states, all of one variant), batched together:
/// a `PolicyReport` for each. State `i` draws
/// from `seed + i`. Releases the GIL (but to call a Python evaluator); interruptible.
#[pyfunction]
#[pyo3(signature = (states, *, iterations, evaluator, batch_size, c_puct, dirichlet_alpha, dirichlet_fraction, gumbel, max_considered, temperature, seed, threads, max_nodes, time_limit = None))]
#[allow(clippy::too_many_arguments)]
fn search_steps<'py>(
    py: Python<'py>,
    states: Vec<Bound<'py, PyAny>>,
    iterations: &Bound<'py, PyAny>,
    evaluator: Option<&Bound<'py, PyAny>>,
    batch_size: &Bound<'py, PyAny>,
    c_puct: &Bound<'py, PyAny>,
    dirichlet_alpha: Option<&Bound<'py, PyAny>>,
    dirichlet_fraction: &Bound<'py, PyAny>,
    gumbel: bool,
    max_considered: &Bound<'py, PyAny>,
    temperature: &Bound<'py, PyAny>,
    seed: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    max_nodes: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = crate::args::setting::time_limit)] time_limit: Option<f64>,
) -> BcResult<Vec<PolicyReport>> {
    let mut evaluator = AnyEvaluator::new(evaluator)?;
    let temperature = crate::args::number("temperature", temperature)? as f32;
    let time_limit = time_limit.map(crate::uct::duration).transpose()?;
    let mut settings = settings(
        iterations,
        batch_size_arg(batch_size)?,
        c_puct,
        dirichlet_alpha,
        dirichlet_fraction,
        gumbel,
        max_considered,
        temperature,
        threads,
        max_nodes,
    )?;
    settings.time_limit = time_limit;
    let seed = seed.map(crate::args::seed).transpose()?.unwrap_or(0);
    let Some(first) = states.first() else { return Ok(Vec::new()) };
    macro_rules! search_game {
        ($Game:ty) => {
            if root_of::<$Game>(first).is_some() {
                let roots = roots_of::<$Game>(&states)?;
                let seeds: Vec<u64> = (0..roots.len() as u64).map(|i| seed.wrapping_add(i)).collect();
                let pool = puct::thread_pool(settings.threads);
                let reports =
                    evaluator.run(py, |e, stop| puct::search_many(roots, &seeds, &settings, e, pool.as_ref(), stop))?;
                return Ok(reports
                    .into_iter()
                    .map(|report| {
                        let visits: Vec<i64> = report.visits.iter().map(|&v| v as i64).collect();
                        PolicyReport {
                            action: report.action,
                            policy: report.policy.into_pyarray(py).unbind(),
                            value: report.value,
                            visits: visits.into_pyarray(py).unbind(),
                            simulations: report.simulations,
                            nodes: report.nodes,
                            tree_full: report.tree_full,
                            turn: report.turn,
                        }
                    })
                    .collect());
            }
        };
    }
    crate::registry::each_class!(|Class| {
        search_game!(Class);
    });
    Err(BcError::type_error(format!(
        "a state must be a boardcore game or its step form (game.actions()), got {}",
        crate::args::type_name(first)
    )))
}

/// The step states of `states`, every one of game class `G` (or its step form).
fn roots_of<G: ActionsOf>(states: &[Bound<'_, PyAny>]) -> BcResult<Vec<G::Steps>> {
    states
        .iter()
        .enumerate()
        .map(|(i, state)| {
            root_of::<G>(state).ok_or_else(|| {
                BcError::type_error(format!(
                    "the states must all be of one game: state {i} is {}",
                    crate::args::type_name(state)
                ))
            })
        })
        .collect()
}

/// The step state of `state` if it is game class `G` or `G`'s step-state class.
fn root_of<G: ActionsOf>(state: &Bound<'_, PyAny>) -> Option<G::Steps> {
    if let Ok(game) = state.cast::<G>() {
        return Some(game.borrow().steps());
    }
    state.cast::<G::Actions>().ok().map(|actions| G::steps_of(&actions.borrow()))
}

/// Self-play of `games` games of `game` (a name), set up by its constructor from `variant`: a
/// `SelfPlayReport` of the rows, with the games as game objects with their moves. Releases the
/// GIL (but to call a Python evaluator); interruptible.
#[pyfunction]
#[pyo3(signature = (game, variant, *, evaluator, games, iterations, batch_size, temperature, temperature_moves, c_puct, dirichlet_alpha, dirichlet_fraction, gumbel, max_considered, seed, threads, max_nodes))]
#[allow(clippy::too_many_arguments)]
fn selfplay<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    variant: Option<&Bound<'py, PyDict>>,
    evaluator: Option<&Bound<'py, PyAny>>,
    games: &Bound<'py, PyAny>,
    iterations: &Bound<'py, PyAny>,
    batch_size: &Bound<'py, PyAny>,
    temperature: &Bound<'py, PyAny>,
    temperature_moves: Option<&Bound<'py, PyAny>>,
    c_puct: &Bound<'py, PyAny>,
    dirichlet_alpha: Option<&Bound<'py, PyAny>>,
    dirichlet_fraction: &Bound<'py, PyAny>,
    gumbel: bool,
    max_considered: &Bound<'py, PyAny>,
    seed: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    max_nodes: &Bound<'py, PyAny>,
) -> BcResult<SelfPlayReport> {
    let games = crate::args::int_in("games", games, 1..=boardcore_engine::steps::MAX_ENVS)?;
    let mut evaluator = AnyEvaluator::new(evaluator)?;
    let temperature = crate::args::number("temperature", temperature)? as f32;
    // The search's own temperature is not used in self-play (which draws by its own rule).
    let search = settings(
        iterations,
        batch_size_arg(batch_size)?,
        c_puct,
        dirichlet_alpha,
        dirichlet_fraction,
        gumbel,
        max_considered,
        0.0,
        threads,
        max_nodes,
    )?;
    if !(temperature.is_finite() && temperature >= 0.0) {
        return Err(invalid(format!("temperature must be a finite number >= 0, got {temperature}")));
    }
    let temperature_moves = temperature_moves.map(|n| crate::args::count("temperature_moves", n, 0)).transpose()?;
    let settings = engine_selfplay::Settings { search, games, temperature, temperature_moves };
    let seed = seed.map(crate::args::seed).transpose()?.unwrap_or(0);
    crate::registry::with_class!(crate::args::game_name(game)?, |Class| {
        play::<Class>(py, variant, &settings, seed, &mut evaluator)
    })
}

/// Self-play of game class `G`, set up by its constructor from `variant`.
fn play<'py, G: ActionsOf>(
    py: Python<'py>,
    variant: Option<&Bound<'py, PyDict>>,
    settings: &engine_selfplay::Settings,
    seed: u64,
    evaluator: &mut AnyEvaluator,
) -> BcResult<SelfPlayReport>
where
    <G::Steps as Steps>::Position: Learned,
{
    // The step form's options (Strands' `any_order`) apply to the searches, not to the records.
    let (start, variant) = G::start_of(py, variant)?;
    let new_game =
        || -> PyResult<Bound<'py, G>> { Ok(py.get_type::<G>().call((), variant.as_ref())?.cast_into::<G>()?) };
    if start.outcome().is_some() {
        return Err(invalid("the start position is already over"));
    }
    let data = evaluator.run(py, |e, stop| engine_selfplay::selfplay(&start, seed, settings, e, stop))?;
    let rows = data.players.len();
    let [c, h, w] = data.observation_shape;
    let a = data.num_actions;
    let mut games = Vec::with_capacity(data.games.len());
    let mut winners = Vec::with_capacity(data.games.len());
    for played in &data.games {
        let game = new_game()?;
        game.borrow_mut().extend_history(&played.moves);
        games.push(game.into_any().unbind());
        winners.push(match played.outcome {
            Some(Outcome::Winner(p)) => Some(p as u8),
            _ => None,
        });
    }
    let shape_error = |_| invalid("self-play rows do not fill their shape");
    Ok(SelfPlayReport {
        observations: Array4::from_shape_vec([rows, c, h, w], data.observations)
            .map_err(shape_error)?
            .into_pyarray(py)
            .unbind(),
        masks: Array2::from_shape_vec([rows, a], data.masks).map_err(shape_error)?.into_pyarray(py).unbind(),
        policies: Array2::from_shape_vec([rows, a], data.policies).map_err(shape_error)?.into_pyarray(py).unbind(),
        players: Array1::from_vec(data.players).into_pyarray(py).unbind(),
        outcomes: Array1::from_vec(data.outcomes).into_pyarray(py).unbind(),
        game_ids: Array1::from_vec(data.game_ids).into_pyarray(py).unbind(),
        move_numbers: Array1::from_vec(data.move_numbers).into_pyarray(py).unbind(),
        actions: Array1::from_vec(data.actions).into_pyarray(py).unbind(),
        games,
        winners,
    })
}
