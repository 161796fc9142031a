//! The alpha-beta search and the exact solver (`boardcore_engine::search`) for every game:
//! `search_position` forwards a game and its limits, `boardcore/ai.py` is the Python face.

use crate::errors::{BcResult, Raised};
use crate::game::{not_a_game, return_for_game};
use boardcore_engine::search::table::Table;
use boardcore_engine::search::{
    analyse_in_table, analyse_reporting, Analysis, Evaluate, Limits, Material, Progress, Searchable, Threading,
};
use pyo3::prelude::*;
use std::sync::Arc;

/// A transposition table that outlives one search: `bc.ai.Player` keeps one between its moves
/// (docs/engine.md, "Tables"). Its memory is taken as the searches touch it.
#[pyclass(module = "boardcore._boardcore", name = "SearchTable", frozen)]
pub struct SearchTable(Arc<Table>);

#[pymethods]
impl SearchTable {
    #[new]
    #[pyo3(signature = (table_mb = None))]
    fn new(table_mb: Option<&Bound<'_, PyAny>>) -> BcResult<Self> {
        Ok(SearchTable(Arc::new(Table::with_bytes(table_bytes(table_mb)?)?)))
    }

    /// The table's size in bytes.
    #[getter]
    fn bytes(&self) -> usize {
        self.0.bytes()
    }
}

/// `table_mb` checked (64 when not given), in bytes.
fn table_bytes(table_mb: Option<&Bound<'_, PyAny>>) -> BcResult<usize> {
    let mb = table_mb.map(|t| crate::args::int_in("table_mb", t, 1..=65_536usize)).transpose()?.unwrap_or(64);
    Ok(mb << 20)
}

/// One completed iteration of a search, as `search_position` reports it (`SearchReport.iterations`).
#[pyclass(module = "boardcore._boardcore", name = "IterationReport", frozen, get_all)]
pub struct IterationReport {
    /// Its depth, in plies.
    depth: u32,
    /// Its score in hundredths of a point for the side to move (whole points when `exact`).
    score: i32,
    /// Whether its score is proved.
    exact: bool,
    /// Its principal variation (moves of the game's class).
    pv: Vec<Py<PyAny>>,
    /// Positions searched up to its end.
    nodes: u64,
    /// Seconds from the search's start to its end.
    seconds: f64,
}

/// What `search_position` found: `bc.ai.Analysis` is built from it (`boardcore/ai.py`).
#[pyclass(module = "boardcore._boardcore", name = "SearchReport", frozen, get_all)]
pub struct SearchReport {
    /// The score in hundredths of a point for the side to move (whole points when `exact`).
    score: i32,
    /// Whether the score is proved (a solve).
    exact: bool,
    /// One best move.
    best: Py<PyAny>,
    /// Every optimal move when exact and asked for (`every_best`); else `[best]`.
    best_moves: Vec<Py<PyAny>>,
    /// The principal variation, from `best`.
    pv: Vec<Py<PyAny>>,
    /// The deepest completed iteration.
    depth: u32,
    /// Positions searched (the endgame solver's included).
    nodes: u64,
    /// Seconds the search took.
    seconds: f64,
    /// Each completed iteration, in order.
    iterations: Vec<Py<IterationReport>>,
}

fn report<M: Copy>(py: Python<'_>, analysis: &Analysis<M>, wrap: impl Fn(M) -> Py<PyAny>) -> PyResult<SearchReport> {
    let line = |moves: &[M]| moves.iter().map(|&m| wrap(m)).collect::<Vec<_>>();
    let iterations = analysis
        .iterations
        .iter()
        .map(|it| {
            let iteration = IterationReport {
                depth: it.depth,
                score: it.score,
                exact: it.exact,
                pv: line(&it.pv),
                nodes: it.nodes,
                seconds: it.elapsed.as_secs_f64(),
            };
            Py::new(py, iteration)
        })
        .collect::<PyResult<_>>()?;
    Ok(SearchReport {
        score: analysis.score,
        exact: analysis.exact,
        best: wrap(analysis.best),
        best_moves: line(&analysis.best_moves),
        pv: line(&analysis.pv),
        depth: analysis.depth,
        nodes: analysis.nodes,
        seconds: analysis.elapsed.as_secs_f64(),
        iterations,
    })
}

/// The limits, checked: a bad value is a ValueError naming it.
#[allow(clippy::too_many_arguments)]
fn limits(
    depth: Option<&Bound<'_, PyAny>>,
    nodes: Option<&Bound<'_, PyAny>>,
    time_limit: Option<f64>,
    threads: Option<&Bound<'_, PyAny>>,
    solve: bool,
    noise: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
    table_mb: Option<&Bound<'_, PyAny>>,
) -> BcResult<Limits> {
    let max_depth = boardcore_engine::search::MAX_DEPTH;
    Ok(Limits {
        depth: depth.map(|d| crate::args::int_in("depth", d, 1..=max_depth)).transpose()?,
        nodes: nodes.map(|n| crate::args::count("nodes", n, 1)).transpose()?,
        time: time_limit.map(crate::uct::duration).transpose()?,
        threads: threads.map(crate::args::threads).transpose()?.unwrap_or(1),
        table_bytes: table_bytes(table_mb)?,
        solve,
        noise: noise.map(|n| crate::args::int_in("noise", n, 0..=1_000_000)).transpose()?.unwrap_or(0),
        seed: seed.map(crate::args::seed).transpose()?.unwrap_or(0),
        ..Limits::default()
    })
}

/// Runs the search on `position` with the GIL released, interruptible; `progress` (a Python
/// callable) is called with `(depth, solving, nodes, seconds, score, lower_bound)` every
/// `REPORT_INTERVAL`, with the GIL held: an exception it raises stops the search and is raised.
fn run<P: Searchable, E: Evaluate<P>>(
    py: Python<'_>,
    position: &P,
    evaluator: &E,
    limits: &Limits,
    progress: Option<&Py<PyAny>>,
    table: Option<&Table>,
) -> BcResult<Analysis<P::Move>> {
    let raised = Raised::default();
    let report = progress.map(|callback| {
        |p: &Progress| {
            let row = (p.depth, p.solving, p.nodes, p.elapsed.as_secs_f64(), p.score, p.lower_bound);
            Python::attach(|py| callback.call1(py, row).map(drop).map_err(|e| raised.keep(e)).is_ok())
        }
    });
    let result = crate::interrupt::run_interruptible(py, |stop| {
        let report = report.as_ref().map(|r| r as _);
        match table {
            Some(table) => analyse_in_table(position, evaluator, limits, stop, report, table),
            None => analyse_reporting(position, evaluator, limits, stop, report),
        }
    });
    raised.or(result)
}

/// Searches `game` (a game object, not changed) within the limits and returns a
/// `SearchReport`: `solve=True`
/// searches until the value is exact; `every_best=False` proves no other optimal move once it
/// is (`best_moves` is the first found); `table`, a `SearchTable`, is searched in instead of a
/// fresh table of `table_mb` (not both); `threading` shares the threads' work out by splitting
/// the root (`"split"`, the default) or by lazy SMP (`"lazy"`). Raises ValueError for a finished
/// game or a bad limit; releases the GIL; Ctrl-C interrupts.
#[pyfunction]
#[pyo3(signature = (game, *, depth = None, nodes = None, time_limit = None, threads = None, solve = false, noise = None, seed = None, table_mb = None, evaluator = None, progress = None, every_best = true, table = None, threading = None))]
#[allow(clippy::too_many_arguments)]
pub fn search_position(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    depth: Option<&Bound<'_, PyAny>>,
    nodes: Option<&Bound<'_, PyAny>>,
    #[pyo3(from_py_with = crate::args::setting::time_limit)] time_limit: Option<f64>,
    threads: Option<&Bound<'_, PyAny>>,
    solve: bool,
    noise: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
    table_mb: Option<&Bound<'_, PyAny>>,
    evaluator: Option<&Bound<'_, PyAny>>,
    progress: Option<Py<PyAny>>,
    every_best: bool,
    table: Option<PyRef<'_, SearchTable>>,
    threading: Option<&Bound<'_, PyAny>>,
) -> BcResult<SearchReport> {
    if table.is_some() && table_mb.is_some_and(|t| !t.is_none()) {
        return Err(crate::errors::invalid("give table or table_mb, not both"));
    }
    let table = table.map(|t| Arc::clone(&t.0));
    let progress = progress.filter(|p| !p.is_none(py));
    let threading = threading.filter(|t| !t.is_none()).map(threading_arg).transpose()?.unwrap_or_default();
    let limits =
        Limits { every_best, threading, ..limits(depth, nodes, time_limit, threads, solve, noise, seed, table_mb)? };
    return_for_game!(game, |g| {
        // A copy, not a borrow held through the search: other threads may play on the game
        // meanwhile (docs/design.md, "Threads"); the search answers for the position it got.
        let g = {
            let borrowed = g;
            (*borrowed).clone()
        };
        let analysis = match crate::eval::of(evaluator, g.position())? {
            Some(learned) => run(py, g.position(), &learned, &limits, progress.as_ref(), table.as_deref())?,
            None => run(py, g.position(), &Material, &limits, progress.as_ref(), table.as_deref())?,
        };
        let wrap = |mv| g.wrap(mv).into_pyobject(py).map(|m| m.into_any().unbind());
        Ok(report(py, &analysis, |mv| wrap(mv).expect("a move converts"))?)
    });
    Err(not_a_game(game))
}

/// `threading`: `"split"` (the root split) or `"lazy"` (lazy SMP); anything else a ValueError.
fn threading_arg(value: &Bound<'_, PyAny>) -> BcResult<Threading> {
    match value.extract::<String>().ok().as_deref() {
        Some("split") => Ok(Threading::RootSplit),
        Some("lazy") => Ok(Threading::Lazy),
        _ => Err(crate::errors::invalid(format!(
            "threading must be 'split' or 'lazy', got {}",
            crate::args::shown_with_type(value)
        ))),
    }
}

/// Output number `n` (from 1) of SplitMix64 started from `seed` (`rng::SplitMix64::output`):
/// the seeds Python derives for a ply, a game or a chunk, drawn as the engine draws them.
#[pyfunction]
fn splitmix64(seed: &Bound<'_, PyAny>, n: &Bound<'_, PyAny>) -> BcResult<u64> {
    let (seed, n) = (crate::args::seed(seed)?, crate::args::count("n", n, 0)?);
    Ok(boardcore_engine::rng::SplitMix64::output(seed, n))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(search_position, m)?)?;
    m.add_function(wrap_pyfunction!(splitmix64, m)?)?;
    m.add_class::<SearchReport>()?;
    m.add_class::<IterationReport>()?;
    m.add_class::<SearchTable>()?;
    crate::eval::register(m)
}
