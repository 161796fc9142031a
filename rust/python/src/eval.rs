//! Learned evaluations (`boardcore_engine::search::eval`): the `Evaluator` class holding one
//! game's weights, and the features it reads, for `boardcore/ai.py` and the training script.

use crate::args::GameName;
use crate::errors::{BcError, BcResult};
use crate::game::{not_a_game, return_for_game};
use boardcore_engine::search::eval::{Features, Linear};
use boardcore_engine::{cephalopod::Cephalopod, reversi::Reversi, rive::Rive, strands::Strands};
use numpy::{IntoPyArray, PyArray1};
use pyo3::prelude::*;

/// Which game each position type is, for checking an evaluator against the game searched.
pub trait Learned: Features {
    const GAME: GameName;
}

impl Learned for Reversi {
    const GAME: GameName = GameName::Reversi;
}
impl Learned for Cephalopod {
    const GAME: GameName = GameName::Cephalopod;
}
impl Learned for Rive {
    const GAME: GameName = GameName::Rive;
}
impl Learned for Strands {
    const GAME: GameName = GameName::Strands;
}

/// A learned evaluation of one game, evaluated in Rust: a linear function of the game's
/// features, with weights per phase (docs/engine.md, "Evaluations"). Made by
/// `bc.ai.evaluator(game)` from the weights shipped in the package.
#[pyclass(name = "Evaluator", module = "boardcore", frozen)]
pub struct PyEvaluator {
    game: GameName,
    linear: Linear,
    source: String,
}

#[pymethods]
impl PyEvaluator {
    /// `Evaluator(game, weights, source="")`: `game` a name, `weights` phases x (bias +
    /// features) numbers. Raises ValueError when they do not fit the game.
    #[new]
    #[pyo3(signature = (game, weights, source = String::new()))]
    fn new(game: &Bound<'_, PyAny>, weights: Vec<f32>, source: String) -> BcResult<Self> {
        let game = crate::args::game_name(game)?;
        let linear = match game {
            GameName::Reversi => Linear::new::<Reversi>(weights),
            GameName::Cephalopod => Linear::new::<Cephalopod>(weights),
            GameName::Rive => Linear::new::<Rive>(weights),
            GameName::Strands => Linear::new::<Strands>(weights),
        }?;
        Ok(PyEvaluator { game, linear, source })
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
            Ok(self.linear.margin(g.position()))
        });
        Err(not_a_game(game))
    }

    fn __repr__(&self) -> String {
        format!("Evaluator({:?}, source={:?})", self.game.as_str(), self.source)
    }
}

/// `evaluator`'s weights if it is an `Evaluator` of the game of `P` (None when not given);
/// a TypeError for anything else, a ValueError for another game's evaluator.
pub fn of<P: Learned>(evaluator: Option<&Bound<'_, PyAny>>, _position: &P) -> BcResult<Option<Linear>> {
    let Some(evaluator) = evaluator else { return Ok(None) };
    let evaluator = evaluator.cast::<PyEvaluator>().map_err(|_| {
        BcError::type_error(format!(
            "evaluator must be a bc.ai.evaluator(...) (a learned evaluation), got {}",
            crate::args::type_name(evaluator)
        ))
    })?;
    Ok(check(Some(evaluator.get()), _position)?.map(|e| e.linear.clone()))
}

/// The weights and game of `evaluator` if it is a learned evaluation (`bc.ai.evaluator`).
pub fn learned(evaluator: &Bound<'_, PyAny>) -> Option<(Linear, GameName)> {
    evaluator.cast::<PyEvaluator>().ok().map(|e| (e.get().linear.clone(), e.get().game))
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
    Ok(match crate::args::game_name(game)? {
        GameName::Reversi => Reversi::NAMES.to_vec(),
        GameName::Cephalopod => Cephalopod::NAMES.to_vec(),
        GameName::Rive => Rive::NAMES.to_vec(),
        GameName::Strands => Strands::NAMES.to_vec(),
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyEvaluator>()?;
    m.add_function(wrap_pyfunction!(features, m)?)?;
    m.add_function(wrap_pyfunction!(phase, m)?)?;
    m.add_function(wrap_pyfunction!(feature_names, m)?)?;
    Ok(())
}
