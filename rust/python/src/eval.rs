//! Learned evaluations (`boardcore_engine::search::eval`): the `Evaluator` class holding one
//! game's weights, and the features it reads, for `boardcore/ai.py` and the training script.

use crate::args::GameName;
use crate::errors::{BcError, BcResult};
use crate::game::{not_a_game, return_for_game};
use crate::registry::with_engine;
use boardcore_engine::reversi::patterns::{Layout, Patterns, GLOBALS};
use boardcore_engine::reversi::Reversi;
use boardcore_engine::reversi::Shape;
use boardcore_engine::search::eval::{Features, Learned as Weights, Linear};
use boardcore_engine::search::tuples::Tuples;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray1};
use pyo3::prelude::*;
use std::sync::Arc;

/// Which game each position type is, for checking an evaluator against the game searched.
pub trait Learned: Features {
    const GAME: GameName;

    /// Whether a training game solves this position exactly (`label_games`' `solve_empties`):
    /// only Reversi, whose empties only fall, knows; the others play to the end.
    fn solvable_within(&self, _empties: u32) -> bool {
        false
    }

    /// The game's local-pattern weights (search/tuples.rs), or why it has none.
    fn tuples(_weights: &[f32]) -> BcResult<Tuples> {
        Err(crate::errors::invalid(format!("{} has no local patterns", Self::GAME.as_str())))
    }

    /// The local-pattern layout: `(family, cells, states, entries, phases, params)`.
    fn tuple_layout() -> BcResult<TupleLayout> {
        Err(crate::errors::invalid(format!("{} has no local patterns", Self::GAME.as_str())))
    }

    /// A position's training row: its phase, its cells' entries (written into `out`).
    fn tuple_row(&self, _out: &mut Vec<u32>) -> BcResult<usize> {
        Err(crate::errors::invalid(format!("{} has no local patterns", Self::GAME.as_str())))
    }
}

/// `impl Learned` for a game with local patterns (`$Variant` its `GameName`, `$Engine` its
/// type), forwarding to search/tuples.rs.
macro_rules! learned_with_local_patterns {
    ($Variant:ident, $Engine:ty) => {
        /// Which game this is for the learned evaluations, with its local patterns.
        impl $crate::eval::Learned for $Engine {
            const GAME: $crate::registry::GameName = $crate::registry::GameName::$Variant;

            fn tuples(weights: &[f32]) -> $crate::errors::BcResult<boardcore_engine::search::tuples::Tuples> {
                Ok(boardcore_engine::search::tuples::Tuples::new::<Self>(weights)?)
            }

            fn tuple_layout() -> $crate::errors::BcResult<$crate::eval::TupleLayout> {
                use boardcore_engine::search::eval::Features;
                use boardcore_engine::search::tuples::LocalPatterns;
                let family = <Self as LocalPatterns>::family();
                let params = boardcore_engine::search::tuples::params::<Self>();
                Ok((family.name, family.cells, family.states, family.entries, <Self as Features>::PHASES, params))
            }

            fn tuple_row(&self, out: &mut Vec<u32>) -> $crate::errors::BcResult<usize> {
                Ok(boardcore_engine::search::tuples::Tuples::row(self, out))
            }
        }
    };
}
pub(crate) use learned_with_local_patterns;

pub(crate) type TupleLayout = (&'static str, usize, u32, usize, usize, usize);

/// A learned evaluation of one game, evaluated in Rust: pattern weights for the boards that
/// have them (Reversi's 6x6, 8x8, 10x10 and Octagon), and for every other board a linear
/// function of the game's features, with weights per phase (docs/engine.md, "Evaluations").
/// Made by `bc.ai.evaluator(game)` from the weights shipped in the package.
#[pyclass(name = "Evaluator", module = "boardcore", frozen)]
pub struct PyEvaluator {
    game: GameName,
    learned: Weights,
    source: String,
}

#[pymethods]
impl PyEvaluator {
    /// `Evaluator(game, weights, source="", patterns=(), probcut={}, tuples=None)`: `game` a
    /// name, `weights` phases x (bias + features) numbers, `patterns` (Reversi only) `(board,
    /// stages, weights)` triples, `weights` a float32 array of `stages x pattern_layout(board,
    /// stages).params` numbers; `probcut` maps a board to Multi-ProbCut's errors (points, by
    /// search depth); `tuples` (the games with local patterns) a float32 array of `phases x
    /// tuple_layout(game).params` numbers. Raises ValueError when they do not fit the game.
    #[new]
    #[pyo3(signature = (game, weights, source = String::new(), patterns = Vec::new(), probcut = std::collections::HashMap::new(), tuples = None))]
    fn new(
        game: &Bound<'_, PyAny>,
        weights: Vec<f32>,
        source: String,
        patterns: Vec<(String, usize, PyReadonlyArray1<'_, f32>)>,
        mut probcut: std::collections::HashMap<String, Vec<f32>>,
        tuples: Option<PyReadonlyArray1<'_, f32>>,
    ) -> BcResult<Self> {
        let game = crate::args::game_name(game)?;
        let linear = with_engine!(game, |G| Linear::new::<G>(weights))?;
        if !patterns.is_empty() && game != GameName::Reversi {
            return Err(crate::errors::invalid("pattern weights are for Reversi boards only"));
        }
        let mut learned = Weights::linear(linear);
        for (board, stages, weights) in patterns {
            let layout = Layout::new(Shape::parse(&board)?, stages)?;
            if learned.patterns.iter().any(|p| p.layout().shape == layout.shape) {
                return Err(crate::errors::invalid(format!("pattern weights for board {board:?} given twice")));
            }
            let weights = weights.as_slice().map_err(|e| {
                crate::errors::invalid(format!("pattern weights must be a contiguous float32 array ({e})"))
            })?;
            let sigmas = probcut.remove(&board).unwrap_or_default();
            learned.patterns.push(Arc::new(Patterns::new(layout, weights)?.with_sigmas(sigmas)?));
        }
        if let Some(board) = probcut.keys().next() {
            return Err(crate::errors::invalid(format!(
                "probcut sigmas given for board {board:?}, which has no pattern weights"
            )));
        }
        if let Some(weights) = tuples {
            let weights = weights.as_slice().map_err(|e| {
                crate::errors::invalid(format!("local-pattern weights must be a contiguous float32 array ({e})"))
            })?;
            let tuples = with_engine!(game, |G| G::tuples(weights))?;
            learned.tuples = Some(Arc::new(tuples));
        }
        Ok(PyEvaluator { game, learned, source })
    }

    /// The boards with pattern weights of their own (the others use the linear weights).
    #[getter]
    fn pattern_boards(&self) -> Vec<String> {
        self.learned.patterns.iter().map(|p| p.layout().shape.name()).collect()
    }

    /// Whether the game's local patterns are loaded (Cephalopod, Rive, Strands: search/tuples.rs).
    #[getter]
    fn has_tuples(&self) -> bool {
        self.learned.tuples.is_some()
    }

    /// The game these weights are for.
    #[getter]
    fn game(&self) -> &'static str {
        self.game.as_str()
    }

    /// Where the weights came from (a file name, or "").
    #[getter]
    fn source(&self) -> &str {
        &self.source
    }

    /// The estimated final margin, in points, of `game`'s position for its side to move.
    fn margin(&self, game: &Bound<'_, PyAny>) -> BcResult<f32> {
        return_for_game!(game, |g| {
            check(Some(self), g.position())?;
            Ok(self.learned.margin(g.position()))
        });
        Err(not_a_game(game))
    }

    fn __repr__(&self) -> String {
        format!("Evaluator({:?}, source={:?})", self.game.as_str(), self.source)
    }
}

/// `evaluator`'s weights if it is an `Evaluator` of the game of `P` (None when not given);
/// a TypeError for anything else, a ValueError for another game's evaluator.
pub fn of<P: Learned>(evaluator: Option<&Bound<'_, PyAny>>, _position: &P) -> BcResult<Option<Weights>> {
    let Some(evaluator) = evaluator else { return Ok(None) };
    let evaluator = evaluator.cast::<PyEvaluator>().map_err(|_| {
        BcError::type_error(format!(
            "evaluator must be a bc.ai.evaluator(...) (a learned evaluation), got {}",
            crate::args::type_name(evaluator)
        ))
    })?;
    Ok(check(Some(evaluator.get()), _position)?.map(|e| e.learned.clone()))
}

/// The weights and game of `evaluator` if it is a learned evaluation (`bc.ai.evaluator`).
pub fn learned(evaluator: &Bound<'_, PyAny>) -> Option<(Weights, GameName)> {
    evaluator.cast::<PyEvaluator>().ok().map(|e| (e.get().learned.clone(), e.get().game))
}

/// `Ok` when a learned evaluation of `game` fits positions of type `P`.
pub fn check_game<P: Learned>(game: GameName) -> BcResult<()> {
    if game != P::GAME {
        return Err(crate::errors::invalid(format!(
            "this evaluator is for {}, not {}",
            game.as_str(),
            P::GAME.as_str()
        )));
    }
    Ok(())
}

fn check<'e, P: Learned>(evaluator: Option<&'e PyEvaluator>, _: &P) -> BcResult<Option<&'e PyEvaluator>> {
    if let Some(e) = evaluator {
        check_game::<P>(e.game)?;
    }
    Ok(evaluator)
}

/// The learned evaluation's features of `game`'s position (float32, the game's count).
#[pyfunction]
pub fn features<'py>(py: Python<'py>, game: &Bound<'py, PyAny>) -> BcResult<Bound<'py, PyArray1<f32>>> {
    return_for_game!(game, |g| Ok(g.position().feature_vector().into_pyarray(py)));
    Err(not_a_game(game))
}

/// The phase of `game`'s position (which weights the learned evaluation uses), and the number
/// of phases: `(phase, phases)`.
#[pyfunction]
pub fn phase(game: &Bound<'_, PyAny>) -> BcResult<(usize, usize)> {
    fn of<P: Features>(position: &P) -> (usize, usize) {
        (position.phase().min(P::PHASES - 1), P::PHASES)
    }
    return_for_game!(game, |g| Ok(of(g.position())));
    Err(not_a_game(game))
}

/// The names of a game's features, in order (`game` a name).
#[pyfunction]
pub fn feature_names(game: &Bound<'_, PyAny>) -> BcResult<Vec<&'static str>> {
    Ok(with_engine!(crate::args::game_name(game)?, |G| G::NAMES.to_vec()))
}

/// The pattern layout of a Reversi board (`board` "6", "8", "10" or "octagon") with `stages`
/// stages: `(classes, instances, params, globals)`, `classes` a list of `(name, squares,
/// entries)`, `params` the weights of one stage (every class's entries, then the globals).
#[pyfunction]
pub fn pattern_layout(board: &str, stages: usize) -> BcResult<PatternLayout> {
    let layout = Layout::new(Shape::parse(board)?, stages)?;
    let classes = layout.classes.iter().map(|c| (c.name.clone(), c.squares, c.entries)).collect();
    Ok((classes, layout.instances(), layout.params, GLOBALS.to_vec()))
}

/// The local-pattern layout of a game (`game` a name): `(family, cells, states, entries,
/// phases, params)`, `params` the weights of one phase (every entry, a bias, then one per
/// feature). ValueError for a game without local patterns.
#[pyfunction]
pub fn tuple_layout(game: &Bound<'_, PyAny>) -> BcResult<TupleLayout> {
    with_engine!(crate::args::game_name(game)?, |G| G::tuple_layout())
}

type TupleRows<'py> = (Bound<'py, PyArray1<u32>>, Bound<'py, PyArray2<u32>>, Bound<'py, PyArray2<f32>>);

/// The training rows of positions of `game` (a name) given in notation: `(phase, entries,
/// features)` arrays (N; N x the most cells of any board given, each cell's canonical entry,
/// padded with `entries` past a board's last cell; N x the game's features).
#[pyfunction]
pub fn tuple_rows<'py>(py: Python<'py>, game: &Bound<'_, PyAny>, notations: Vec<String>) -> BcResult<TupleRows<'py>> {
    let rows = with_engine!(crate::args::game_name(game)?, |G| Rows::of::<G>(&notations))?;
    let n = notations.len();
    let width = rows.cells.iter().map(Vec::len).max().unwrap_or(0);
    let mut padded = Vec::with_capacity(n * width);
    for row in &rows.cells {
        padded.extend_from_slice(row);
        padded.extend(std::iter::repeat_n(rows.entries as u32, width - row.len()));
    }
    let padded = numpy::ndarray::Array2::from_shape_vec((n, width), padded).expect("n rows of width cells");
    let features = numpy::ndarray::Array2::from_shape_vec((n, rows.count), rows.features).expect("n rows of features");
    Ok((rows.phase.into_pyarray(py), padded.into_pyarray(py), features.into_pyarray(py)))
}

/// Training rows of one game's positions, before they are padded into arrays.
struct Rows {
    phase: Vec<u32>,
    /// Each position's cells' entries.
    cells: Vec<Vec<u32>>,
    /// `count` features a position, one position after another.
    features: Vec<f32>,
    count: usize,
    /// The family's entries (the padding past a board's last cell).
    entries: usize,
}

impl Rows {
    fn of<P: Learned + boardcore_engine::Position>(notations: &[String]) -> BcResult<Rows> {
        let entries = P::tuple_layout()?.3;
        let mut rows = Rows { phase: Vec::new(), cells: Vec::new(), features: Vec::new(), count: P::COUNT, entries };
        let mut row = Vec::new();
        for text in notations {
            let position = P::from_notation(text)?;
            rows.phase.push(position.tuple_row(&mut row)? as u32);
            rows.cells.push(row.clone());
            rows.features.extend(position.feature_vector());
        }
        Ok(rows)
    }
}

type PatternLayout = (Vec<(String, usize, usize)>, usize, usize, Vec<&'static str>);
type PatternRows<'py> = (Bound<'py, PyArray1<u32>>, Bound<'py, PyArray2<u32>>, Bound<'py, PyArray2<f32>>);

/// The training rows of Reversi positions given in notation, for the pattern layout of
/// `board` with `stages` stages: `(stage, columns, globals)` arrays (N, N x instances,
/// N x 3: mobility, potential mobility, parity). A position of another board, or with holes,
/// raises ValueError.
#[pyfunction]
pub fn pattern_rows<'py>(
    py: Python<'py>,
    notations: Vec<String>,
    board: &str,
    stages: usize,
) -> BcResult<PatternRows<'py>> {
    use boardcore_engine::Position;
    let layout = Layout::new(Shape::parse(board)?, stages)?;
    let k = layout.instances();
    let (mut stage, mut columns, mut globals) = (Vec::new(), Vec::with_capacity(notations.len() * k), Vec::new());
    let mut row = Vec::with_capacity(k);
    for text in &notations {
        let position = Reversi::from_notation(text)?;
        if !layout.reads(&position) {
            return Err(crate::errors::invalid(format!("not a {board} board without holes: {text:?}")));
        }
        let (s, g) = layout.columns(&position, &mut row);
        stage.push(s as u32);
        columns.extend_from_slice(&row);
        globals.extend_from_slice(&g);
    }
    let n = notations.len();
    let columns = numpy::ndarray::Array2::from_shape_vec((n, k), columns).expect("n rows of k columns");
    let globals = numpy::ndarray::Array2::from_shape_vec((n, 3), globals).expect("n rows of 3 globals");
    Ok((stage.into_pyarray(py), columns.into_pyarray(py), globals.into_pyarray(py)))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyEvaluator>()?;
    m.add_function(wrap_pyfunction!(pattern_layout, m)?)?;
    m.add_function(wrap_pyfunction!(pattern_rows, m)?)?;
    m.add_function(wrap_pyfunction!(tuple_layout, m)?)?;
    m.add_function(wrap_pyfunction!(tuple_rows, m)?)?;
    m.add_function(wrap_pyfunction!(label_games, m)?)?;
    m.add_function(wrap_pyfunction!(features, m)?)?;
    m.add_function(wrap_pyfunction!(phase, m)?)?;
    m.add_function(wrap_pyfunction!(feature_names, m)?)?;
    Ok(())
}

type LabelRows<'py> = (
    Vec<String>,
    Bound<'py, PyArray1<f32>>,
    Bound<'py, PyArray1<f32>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<u32>>,
);

/// Labelled positions for training (`boardcore_engine::search::label`): `games` self-play
/// games from `game`'s position, `opening` random plies (an inclusive range) then moves of a
/// depth-`depth` search with `evaluator` (None: the piece count), a random move with chance
/// `epsilon`, solved exactly from `solve_empties` empty squares (Reversi; other games play to
/// the end). Returns `(notations, labels, searches, exact, games)`: labels and searches in
/// points for each position's side to move. Releases the GIL on `threads` threads; Ctrl-C
/// interrupts.
#[pyfunction]
#[pyo3(signature = (game, *, games, seed = 0, opening = (2, 10), depth = 4, epsilon = 0.1, threads = 1, solve_empties = None, evaluator = None))]
#[allow(clippy::too_many_arguments)]
pub fn label_games<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    games: usize,
    seed: u64,
    opening: (u32, u32),
    depth: u32,
    epsilon: f64,
    threads: usize,
    solve_empties: Option<u32>,
    evaluator: Option<&Bound<'py, PyAny>>,
) -> BcResult<LabelRows<'py>> {
    use boardcore_engine::search::label::{label_games as label, Labelled, Labelling};
    use boardcore_engine::search::{Evaluate, Material};
    if !(1..=64).contains(&depth)
        || !(0.0..=1.0).contains(&epsilon)
        || opening.0 > opening.1
        || !(1..=256).contains(&threads)
    {
        return Err(crate::errors::invalid(
            "label_games needs depth 1-64, epsilon in [0, 1], opening (lo, hi) with lo <= hi and threads 1-256",
        ));
    }
    let settings = Labelling { games, seed, opening, depth, epsilon, threads, table_bytes: 1 << 20 };
    fn rows<'py, P: Learned + Send + Sync, E: Evaluate<P>>(
        py: Python<'py>,
        start: &P,
        evaluator: &E,
        settings: &Labelling,
        solve_empties: Option<u32>,
    ) -> BcResult<LabelRows<'py>> {
        let solve_at = |p: &P| solve_empties.is_some_and(|e| p.solvable_within(e));
        let rows: Vec<Labelled<P>> =
            crate::interrupt::run_interruptible(py, |stop| label(start, evaluator, settings, &solve_at, stop))?;
        let scale = boardcore_engine::search::SCALE as f32;
        Ok((
            rows.iter().map(|r| r.position.to_notation()).collect(),
            rows.iter().map(|r| r.label as f32 / scale).collect::<Vec<_>>().into_pyarray(py),
            rows.iter().map(|r| r.search as f32 / scale).collect::<Vec<_>>().into_pyarray(py),
            rows.iter().map(|r| r.exact).collect::<Vec<_>>().into_pyarray(py),
            rows.iter().map(|r| r.game).collect::<Vec<_>>().into_pyarray(py),
        ))
    }
    return_for_game!(game, |g| {
        let start = *g.position();
        match of(evaluator, &start)? {
            Some(learned) => rows(py, &start, &learned, &settings, solve_empties),
            None => rows(py, &start, &Material, &settings, solve_empties),
        }
    });
    Err(not_a_game(game))
}
