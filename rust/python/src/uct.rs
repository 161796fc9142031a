//! Monte Carlo tree search for every game: `bind_searcher!` makes one `XSearcher` class per game
//! over `boardcore_engine::mcts`. `boardcore/mcts.py` is the Python face (`best_move`, `Searcher`).

use crate::errors::{invalid, BcResult};
use boardcore_engine::mcts::{Config, Widening};
use pyo3::prelude::*;
use std::time::Duration;

/// The search settings, checked: a bad value is a ValueError naming it.
#[allow(clippy::too_many_arguments)]
pub fn config(
    iterations: Option<&Bound<'_, PyAny>>,
    time_limit: Option<f64>,
    exploration: f64,
    seed: Option<&Bound<'_, PyAny>>,
    threads: Option<&Bound<'_, PyAny>>,
    widening_limit: u64,
    widening_coefficient: f64,
    widening_exponent: f64,
    max_nodes: Option<&Bound<'_, PyAny>>,
) -> BcResult<Config> {
    let iterations = iterations.map(positive_iterations).transpose()?;
    let time_limit = time_limit.map(duration).transpose()?;
    if iterations.is_none() && time_limit.is_none() {
        return Err(invalid("give iterations, time_limit, or both"));
    }
    if !(exploration.is_finite() && exploration >= 0.0) {
        return Err(invalid(format!("exploration must be a finite number >= 0, got {exploration}")));
    }
    if !(widening_coefficient.is_finite() && widening_coefficient > 0.0) {
        return Err(invalid(format!("widening_coefficient must be a finite number > 0, got {widening_coefficient}")));
    }
    if !(widening_exponent > 0.0 && widening_exponent <= 1.0) {
        return Err(invalid(format!("widening_exponent must be in (0, 1], got {widening_exponent}")));
    }
    Ok(Config {
        exploration,
        iterations,
        time_limit,
        seed: seed.map(crate::args::seed).transpose()?.unwrap_or(0),
        threads: threads.map(crate::args::threads).transpose()?.unwrap_or(1),
        widening: Widening { limit: widening_limit, coefficient: widening_coefficient, exponent: widening_exponent },
        max_nodes: max_nodes.map(node_budget).transpose()?.unwrap_or(boardcore_engine::mcts::DEFAULT_MAX_NODES),
    })
}

pub fn positive_iterations(value: &Bound<'_, PyAny>) -> BcResult<u64> {
    crate::args::count("iterations", value, 1)
}

/// The most node ids a tree can give (they are 32-bit).
const MAX_NODE_BUDGET: u64 = 4_000_000_000;

pub fn node_budget(value: &Bound<'_, PyAny>) -> BcResult<u64> {
    let asked = crate::args::int_in("max_nodes", value, 1..=MAX_NODE_BUDGET)?;
    Ok(boardcore_engine::mcts::checked_max_nodes(asked)?)
}

pub fn duration(seconds: f64) -> BcResult<Duration> {
    if !(seconds.is_finite() && seconds > 0.0 && seconds < 1e9) {
        return Err(invalid(format!("time_limit must be a number of seconds > 0, got {seconds}")));
    }
    Ok(Duration::from_secs_f64(seconds))
}

/// `XSearcher` for one game: `bind_searcher!(PyXSearcher, "XSearcher", PyX, PyXMove, x::Variant)`,
/// invoked in the game's module (it uses the game class's private helpers).
macro_rules! bind_searcher {
    ($Searcher:ident, $name:literal, $Py:ident, $PyMove:ident, $Variant:ty) => {
        /// A reusable Monte Carlo tree search on this game (see boardcore.mcts). Calls from
        /// several threads take turns: each waits for the one running.
        #[pyclass(name = $name, module = "boardcore", frozen)]
        pub struct $Searcher {
            state: crate::interrupt::Shared<(
                // The game at the root (its history grows with `advance`), for naming moves.
                $Py,
                boardcore_engine::mcts::Searcher<<$Variant as boardcore_engine::Variant>::Position>,
            )>,
        }

        #[pymethods]
        impl $Searcher {
            #[new]
            #[pyo3(signature = (game, *, iterations = None, time_limit = None, exploration = std::f64::consts::SQRT_2,
                                        seed = None, threads = None, widening_limit = 512, widening_coefficient = 2.0,
                                        widening_exponent = 0.5, max_nodes = None))]
            #[allow(clippy::too_many_arguments)]
            fn new(
                game: &Bound<'_, $Py>,
                iterations: Option<&Bound<'_, PyAny>>,
                #[pyo3(from_py_with = crate::args::setting::time_limit)] time_limit: Option<f64>,
                #[pyo3(from_py_with = crate::args::setting::exploration)] exploration: f64,
                seed: Option<&Bound<'_, PyAny>>,
                threads: Option<&Bound<'_, PyAny>>,
                #[pyo3(from_py_with = crate::args::setting::widening_limit)] widening_limit: u64,
                #[pyo3(from_py_with = crate::args::setting::widening_coefficient)] widening_coefficient: f64,
                #[pyo3(from_py_with = crate::args::setting::widening_exponent)] widening_exponent: f64,
                max_nodes: Option<&Bound<'_, PyAny>>,
            ) -> BcResult<Self> {
                let config = crate::uct::config(
                    iterations,
                    time_limit,
                    exploration,
                    seed,
                    threads,
                    widening_limit,
                    widening_coefficient,
                    widening_exponent,
                    max_nodes,
                )?;
                let game = game.borrow().clone();
                let search = boardcore_engine::mcts::Searcher::new(*game.position(), config);
                Ok($Searcher { state: crate::interrupt::Shared::new((game, search)) })
            }

            /// Searches (the configured budget unless given) and returns
            /// `(best, moves, visits, values, iterations, nodes, tree_full)`. Releases the GIL;
            /// interruptible (the tree keeps the iterations completed).
            #[pyo3(signature = (iterations = None, time_limit = None))]
            #[allow(clippy::type_complexity)]
            fn search<'py>(
                &self,
                py: Python<'py>,
                iterations: Option<&Bound<'py, PyAny>>,
                #[pyo3(from_py_with = crate::args::setting::time_limit)] time_limit: Option<f64>,
            ) -> BcResult<(
                Option<$PyMove>,
                Vec<$PyMove>,
                Bound<'py, numpy::PyArray1<u64>>,
                Bound<'py, numpy::PyArray1<f64>>,
                u64,
                usize,
                bool,
            )> {
                let iterations = iterations.map(crate::uct::positive_iterations).transpose()?;
                let time_limit = time_limit.map(crate::uct::duration).transpose()?;
                let mut state = self.state.take(py, concat!($name, ".search"))?;
                let (game, search) = &mut *state;
                let report = crate::interrupt::run_interruptible(py, |stop| {
                    search.search_interruptible(iterations, time_limit, stop)
                })?;
                let visits: Vec<u64> = report.moves.iter().map(|m| m.visits).collect();
                let values: Vec<f64> = report.moves.iter().map(|m| m.value).collect();
                Ok((
                    report.best.map(|mv| game.wrap(mv)),
                    report.moves.iter().map(|m| game.wrap(m.mv)).collect(),
                    numpy::PyArray1::from_vec(py, visits),
                    numpy::PyArray1::from_vec(py, values),
                    report.iterations,
                    report.nodes,
                    report.tree_full,
                ))
            }

            /// Plays a move (or its notation) at the root, by either player, keeping its
            /// subtree. Raises NotationError or IllegalMoveError, changing nothing.
            fn advance(&self, py: Python<'_>, mv: &Bound<'_, PyAny>) -> BcResult<()> {
                let mut state = self.state.take(py, concat!($name, ".advance"))?;
                let (game, search) = &mut *state;
                let mv = game.to_move_arg(mv)?;
                search.advance(mv)?;
                game.inner.push_unchecked(mv);
                Ok(())
            }

            /// The game at the root: the searcher's game with the advanced moves.
            #[getter]
            fn game(&self, py: Python<'_>) -> BcResult<$Py> {
                Ok(self.state.take(py, concat!($name, ".game"))?.0.clone())
            }

            /// Visits recorded at the root so far (kept across `advance`).
            #[getter]
            fn root_visits(&self, py: Python<'_>) -> BcResult<u64> {
                Ok(self.state.take(py, concat!($name, ".root_visits"))?.1.root_visits())
            }
        }
    };
}

pub(crate) use bind_searcher;
