//! Converting Python arguments, one function per kind of argument (docs/design.md, "Input
//! limits"). Every refusal names the argument, says what is allowed and shows what was given:
//! - integers are read through `__index__` (Python ints and numpy integers of every width);
//!   `bool`, floats and other types, and integers outside the allowed range, are a `ValueError`;
//!   a huge integer is reported as itself (never an `OverflowError`, never a wrapped number);
//! - numbers (`float` settings) accept ints and floats but not `bool`; a `ValueError` otherwise;
//! - text to parse must be a `str` (`TypeError`); a lone surrogate, which no notation can hold,
//!   is a `NotationError` like any other unreadable text.

use crate::errors::{invalid, BcError, BcResult};
use boardcore_engine::perft::Plies;
use boardcore_engine::truncate;
use boardcore_engine::{Error, Player};
use pyo3::exceptions::{PyIndexError, PyOverflowError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt, PyString};
use std::ops::RangeInclusive;

/// What an argument that should be an integer holds.
enum Integer {
    Fits(i128),
    /// Beyond `i128`: out of every range an argument allows.
    Huge,
    /// Not an integer: a `bool`, a float, another type.
    Other,
}

/// Whether `value` is a truth value, Python's `bool` or numpy's (`numpy.bool_`, which is no
/// subclass of `bool` but converts to a number all the same): never a number here.
fn is_bool(value: &Bound<'_, PyAny>) -> bool {
    if value.is_instance_of::<PyBool>() {
        return true;
    }
    // Python's ints and floats, the common case, without looking up the type's names.
    if value.is_instance_of::<PyInt>() || value.is_instance_of::<PyFloat>() {
        return false;
    }
    let kind = value.get_type();
    let module = kind.module().map(|m| m.to_string_lossy().into_owned()).unwrap_or_default();
    let name = kind.name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    module == "numpy" && (name == "bool" || name == "bool_")
}

/// Reads `value` as `operator.index` would, except that no `bool` is an integer here.
fn read_integer(value: &Bound<'_, PyAny>) -> Integer {
    if is_bool(value) {
        return Integer::Other;
    }
    match value.extract::<i128>() {
        Ok(n) => Integer::Fits(n),
        Err(e) if e.is_instance_of::<PyOverflowError>(value.py()) => Integer::Huge,
        Err(_) => Integer::Other,
    }
}

/// Whether `value` is an integer (of any size) to these conversions: `bool` is not.
pub fn is_integer(value: &Bound<'_, PyAny>) -> bool {
    !matches!(read_integer(value), Integer::Other)
}

/// `value` as shown in a message: its repr, cut short (a huge int's repr may even fail).
pub fn shown(value: &Bound<'_, PyAny>) -> String {
    match value.repr() {
        Ok(r) => truncate(&r.to_string_lossy()).into_string(),
        // str() of an int past 4300 digits raises: give its size instead.
        Err(_) => match value.call_method0("bit_length").and_then(|b| b.extract::<u64>()) {
            Ok(bits) => format!("an integer of {bits} bits"),
            Err(_) => format!("a {} that cannot be shown", type_name(value)),
        },
    }
}

/// A bound as written in messages: the largest u64 as `2**64-1`.
fn bound(n: i128) -> String {
    if n == u64::MAX as i128 {
        "2**64-1".into()
    } else {
        n.to_string()
    }
}

/// An integer argument within `allowed`; anything else is a ValueError saying so.
pub fn int_in<T>(name: &str, value: &Bound<'_, PyAny>, allowed: RangeInclusive<T>) -> BcResult<T>
where
    T: Copy + TryFrom<i128> + TryInto<i128>,
{
    let (Ok(low), Ok(high)) = ((*allowed.start()).try_into(), (*allowed.end()).try_into()) else {
        return Err(invalid(format!("{name}: range not representable")));
    };
    let refused =
        || invalid(format!("{name} must be an integer from {} to {}, got {}", bound(low), bound(high), shown(value)));
    match read_integer(value) {
        Integer::Fits(n) if (low..=high).contains(&n) => T::try_from(n).map_err(|_| refused()),
        Integer::Fits(_) | Integer::Huge => Err(refused()),
        // `'8'` and `8` look alike in a message: say what the value is.
        Integer::Other => Err(invalid(format!(
            "{name} must be an integer from {} to {}, got {}",
            bound(low),
            bound(high),
            shown_with_type(value)
        ))),
    }
}

/// `value` as shown in a message, with its type when that is what is wrong: `'8' (a str)`.
pub fn shown_with_type(value: &Bound<'_, PyAny>) -> String {
    let kind = type_name(value);
    let article = if kind.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
    format!("{} ({article} {kind})", shown(value))
}

pub use crate::registry::GameName;

/// A game's name (`VectorEnv`, `selfplay`, a pickled `VectorEnv`), read in any case as board
/// names are. A class where the name belongs, or another type, is a TypeError; an unknown name
/// quotes what was typed.
pub fn game_name(game: &Bound<'_, PyAny>) -> BcResult<GameName> {
    let Ok(name) = game.cast::<PyString>() else {
        return Err(not_a_game_name(game));
    };
    let name = name.to_string_lossy();
    GameName::ALL.iter().copied().find(|known| known.as_str().eq_ignore_ascii_case(&name)).ok_or_else(|| {
        // As Python's registry words it (python/boardcore/_games.py, `game_name`).
        let mut known: Vec<&str> = GameName::ALL.iter().map(|g| g.as_str()).collect();
        known.sort_unstable();
        invalid(format!("game must be one of {}, got {}", known.join(", "), shown(game)))
    })
}

/// The refusal of a `game` argument that is not a string. A game's class (the engine's or a
/// reference twin's), the likely slip, is told the name to pass instead.
fn not_a_game_name(game: &Bound<'_, PyAny>) -> BcError {
    let class_name = game
        .cast::<pyo3::types::PyType>()
        .ok()
        .and_then(|class| class.name().ok())
        .map(|name| name.to_string().to_ascii_lowercase())
        .filter(|name| GameName::ALL.iter().any(|known| known.as_str() == name));
    match class_name {
        Some(name) => {
            BcError::type_error(format!("game must be a string: pass the game's name, '{name}', not the class"))
        }
        None => BcError::type_error(format!("game must be a string, got {}", type_name(game))),
    }
}

/// `max_steps` (VectorEnv's constructor and its pickle): None, or an int in `1..=u32::MAX`.
pub fn max_steps(value: Option<&Bound<'_, PyAny>>) -> BcResult<Option<u32>> {
    value.filter(|v| !v.is_none()).map(|v| int_in("max_steps", v, 1..=u32::MAX)).transpose()
}

/// `max_positions` (`count_paths`, `path_totals`): None (the default cap), or an int from 1 on.
pub fn max_positions(value: Option<&Bound<'_, PyAny>>) -> BcResult<Option<usize>> {
    let asked = value.filter(|v| !v.is_none()).map(|v| int_in("max_positions", v, 1..=usize::MAX)).transpose()?;
    Ok(asked.map(boardcore_engine::paths::checked_cap).transpose()?)
}

/// A real-number argument (an int or a float, not a bool), as a finite or infinite f64; the
/// caller checks the range, since each setting has its own.
pub fn number(name: &str, value: &Bound<'_, PyAny>) -> BcResult<f64> {
    let refused = || invalid(format!("{name} must be a number, got {}", shown_with_type(value)));
    if is_bool(value) {
        return Err(refused());
    }
    match value.extract::<f64>() {
        Ok(x) => Ok(x),
        // An int beyond the largest float: out of range of every setting, say it as a number.
        Err(e) if e.is_instance_of::<PyOverflowError>(value.py()) => {
            Err(invalid(format!("{name} must be a finite number, got {}", shown(value))))
        }
        Err(_) => Err(refused()),
    }
}

/// A row index into a sequence of `len` rows, negative from the end: IndexError when out of
/// range (huge ones included), TypeError when not an integer, as Python's own sequences do.
pub fn index(value: &Bound<'_, PyAny>, len: usize) -> PyResult<usize> {
    let len = len as i128;
    match read_integer(value) {
        Integer::Fits(i) if (-len..len).contains(&i) => Ok((if i < 0 { i + len } else { i }) as usize),
        Integer::Fits(_) | Integer::Huge => Err(PyIndexError::new_err(format!("row {} of {len}", shown(value)))),
        Integer::Other => {
            Err(pyo3::exceptions::PyTypeError::new_err(format!("a row index is an integer, got {}", shown(value))))
        }
    }
}

/// Text for a parser (a position, a record, a move): TypeError unless a `str`; NotationError if
/// it cannot be read as Unicode text (a lone surrogate).
pub fn text<'a>(what: &str, value: &'a Bound<'_, PyAny>) -> BcResult<&'a str> {
    let Ok(s) = value.cast::<PyString>() else {
        return Err(BcError::type_error(format!("{what} must be a string, got {}", type_name(value))));
    };
    s.to_str().map_err(|_| unreadable(what))
}

/// The NotationError for a `str` that holds a lone surrogate (it has no UTF-8 form).
pub fn unreadable(what: &str) -> BcError {
    BcError::Engine(Error::notation(format!("{what} is not valid text: it holds a lone surrogate")))
}

/// `BLACK`/`WHITE` (0/1) or `"black"`/`"white"`.
pub fn player(name: &str, value: &Bound<'_, PyAny>) -> BcResult<Player> {
    let given = if is_integer(value) { shown(value) } else { shown_with_type(value) };
    let bad = || invalid(format!("{name} must be BLACK, WHITE, 'black' or 'white', got {given}"));
    if let Ok(s) = value.cast::<PyString>() {
        return match s.to_str() {
            Ok("black") => Ok(Player::Black),
            Ok("white") => Ok(Player::White),
            _ => Err(bad()),
        };
    }
    match int_in(name, value, 0u8..=1) {
        Ok(0) => Ok(Player::Black),
        Ok(_) => Ok(Player::White),
        Err(_) => Err(bad()),
    }
}

/// A perft depth: 0 to 64.
pub fn depth(value: &Bound<'_, PyAny>) -> BcResult<u32> {
    int_in("depth", value, 0..=64)
}

/// A depth for walks that merge positions (no perft-style cap): 0 to 10,000.
pub fn depth_unbounded(value: &Bound<'_, PyAny>) -> BcResult<u32> {
    int_in("depth", value, 0..=10_000)
}

/// A thread count: 1 to 1024.
pub fn threads(value: &Bound<'_, PyAny>) -> BcResult<usize> {
    int_in("threads", value, 1..=1024)
}

/// A count of things to do (playouts, iterations): from `min` to 2**64-1.
pub fn count(name: &str, value: &Bound<'_, PyAny>, min: u64) -> BcResult<u64> {
    int_in(name, value, min..=u64::MAX)
}

/// A seed: an integer from 0 to 2**64-1.
pub fn seed(value: &Bound<'_, PyAny>) -> BcResult<u64> {
    count("seed", value, 0)
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

/// `from_py_with` converters for settings read in a signature, so that their defaults stay
/// visible to `inspect.signature` (and so to the stub test).
pub mod setting {
    use super::*;

    pub fn widening_limit(value: &Bound<'_, PyAny>) -> PyResult<u64> {
        Ok(count("widening_limit", value, 0)?)
    }

    pub fn exploration(value: &Bound<'_, PyAny>) -> PyResult<f64> {
        Ok(number("exploration", value)?)
    }

    pub fn widening_coefficient(value: &Bound<'_, PyAny>) -> PyResult<f64> {
        Ok(number("widening_coefficient", value)?)
    }

    pub fn widening_exponent(value: &Bound<'_, PyAny>) -> PyResult<f64> {
        Ok(number("widening_exponent", value)?)
    }

    /// `None` or a number of seconds.
    pub fn time_limit(value: &Bound<'_, PyAny>) -> PyResult<Option<f64>> {
        if value.is_none() {
            return Ok(None);
        }
        Ok(Some(number("time_limit", value)?))
    }
}
