//! Converting Python arguments shared by every game, with `ValueError`s that name the argument.

use crate::errors::{invalid, BcResult};
use boardcore_engine::perft::Plies;
use boardcore_engine::Player;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyString};

/// An integer argument; `bool` is refused even though Python counts it as an int.
pub fn integer(name: &str, value: &Bound<'_, PyAny>) -> BcResult<i64> {
    if value.is_instance_of::<PyBool>() {
        return Err(invalid(format!("{name} must be an integer, got {value}")));
    }
    value.extract::<i64>().map_err(|_| invalid(format!("{name} must be an integer, got {value}")))
}

/// `BLACK`/`WHITE` (0/1) or `"black"`/`"white"`.
pub fn player(name: &str, value: &Bound<'_, PyAny>) -> BcResult<Player> {
    let bad = || invalid(format!("{name} must be BLACK, WHITE, 'black' or 'white', got {value}"));
    if let Ok(s) = value.cast::<PyString>() {
        return match s.to_str() {
            Ok("black") => Ok(Player::Black),
            Ok("white") => Ok(Player::White),
            _ => Err(bad()),
        };
    }
    match integer(name, value) {
        Ok(0) => Ok(Player::Black),
        Ok(1) => Ok(Player::White),
        _ => Err(bad()),
    }
}

/// A perft depth: 0 to 64.
pub fn depth(value: &Bound<'_, PyAny>) -> BcResult<u32> {
    let depth = integer("depth", value)?;
    if !(0..=64).contains(&depth) {
        return Err(invalid(format!("depth must be between 0 and 64, got {depth}")));
    }
    Ok(depth as u32)
}

/// A depth for walks that merge positions (no perft-style cap): 0 to 10,000.
pub fn depth_unbounded(value: &Bound<'_, PyAny>) -> BcResult<u32> {
    let depth = integer("depth", value)?;
    if !(0..=10_000).contains(&depth) {
        return Err(invalid(format!("depth must be between 0 and 10000, got {depth}")));
    }
    Ok(depth as u32)
}

/// A thread count: 1 to 1024.
pub fn threads(value: &Bound<'_, PyAny>) -> BcResult<usize> {
    let threads = integer("threads", value)?;
    if !(1..=1024).contains(&threads) {
        return Err(invalid(format!("threads must be between 1 and 1024, got {threads}")));
    }
    Ok(threads as usize)
}

pub fn plies(passes_count_as_ply: bool) -> Plies {
    if passes_count_as_ply {
        Plies::EveryMove
    } else {
        Plies::PassIsFree
    }
}

/// The Python type name of a value, for error messages.
pub fn type_name(value: &Bound<'_, PyAny>) -> String {
    value.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into())
}

/// A seed: an integer from 0 to 2**64-1 (`bool` refused).
pub fn seed(value: &Bound<'_, PyAny>) -> BcResult<u64> {
    value
        .extract::<u64>()
        .ok()
        .filter(|_| !value.is_instance_of::<PyBool>())
        .ok_or_else(|| invalid(format!("seed must be an integer from 0 to 2**64-1, got {value}")))
}
