//! The Python binding of boardcore: argument conversion, GIL release and error mapping only.
//! Everything the games do is in `boardcore-engine`.

use pyo3::prelude::*;

mod actions;
mod alphabeta;
mod args;
mod cephalopod;
mod errors;
mod eval;
mod game;
mod interrupt;
mod puct;
mod registry;
mod reversi;
mod rive;
mod strands;
mod uct;

#[pymodule]
fn _boardcore(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    // The one version: the Cargo workspace's, which maturin also writes into the wheel's metadata.
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("IllegalMoveError", py.get_type::<errors::IllegalMoveError>())?;
    m.add("NotationError", py.get_type::<errors::NotationError>())?;
    m.add("ConcurrentUseError", py.get_type::<errors::ConcurrentUseError>())?;
    m.add_class::<game::PathCounts>()?;
    registry::for_each_game!(registry::register_games!(m));
    m.add_function(wrap_pyfunction!(code_path, m)?)?;
    actions::register(m)?;
    puct::register(m)?;
    alphabeta::register(m)?;
    Ok(())
}

/// The machine-code path the engines use on this CPU (`x86-64-v3 ...` or `portable`).
#[pyfunction]
fn code_path() -> &'static str {
    boardcore_engine::code_path()
}
