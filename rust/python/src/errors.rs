//! The Python exceptions, declared once; the one conversion from engine errors; and the one
//! path of an exception Python raised: `From<PyErr>` into `BcError`, and `Raised` to carry one
//! across engine work that runs with the GIL released.

use boardcore_engine::Error;
use pyo3::create_exception;
use pyo3::exceptions::{PyMemoryError, PyOverflowError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::PyErr;
use std::sync::{Mutex, PoisonError};

create_exception!(
    boardcore,
    IllegalMoveError,
    PyValueError,
    "A well-formed move that the rules do not allow in this position."
);
create_exception!(boardcore, NotationError, PyValueError, "Text (a move, a position, a record) that cannot be parsed.");

create_exception!(
    boardcore,
    ConcurrentUseError,
    PyRuntimeError,
    "An object used by two threads at once where it cannot wait (docs/design.md, \"Threads\")."
);

/// An engine error on its way to Python: binding methods return `Result<T, BcError>` and use
/// `?` on engine results. `Type` is for arguments of the wrong Python type; `Raised` an exception
/// Python raised (a signal handler's `KeyboardInterrupt`, an evaluator's error, a failed
/// Python call), passed on as it is: made only by `From<PyErr>`, so `?` on a `PyResult` is the
/// one way a Python exception reaches the caller.
pub enum BcError {
    Engine(Error),
    Type(String),
    Raised(PyErr),
}

impl From<PyErr> for BcError {
    fn from(e: PyErr) -> Self {
        BcError::Raised(e)
    }
}

impl BcError {
    pub fn type_error(msg: impl Into<String>) -> Self {
        BcError::Type(msg.into())
    }
}

impl From<Error> for BcError {
    fn from(e: Error) -> Self {
        BcError::Engine(e)
    }
}

impl From<BcError> for PyErr {
    fn from(e: BcError) -> PyErr {
        match e {
            BcError::Engine(Error::Notation(m)) => NotationError::new_err(m),
            BcError::Engine(Error::IllegalMove(m)) => IllegalMoveError::new_err(m),
            BcError::Engine(Error::InvalidArgument(m)) => PyValueError::new_err(m),
            BcError::Engine(Error::Overflow(m)) => PyOverflowError::new_err(m),
            BcError::Engine(Error::TooLarge(m)) => PyMemoryError::new_err(m),
            // A stop Python asked for arrives as the exception Python raised (`Raised`): an
            // `Interrupted` without one was never the user's, so it must not look like Ctrl-C.
            BcError::Engine(Error::Interrupted) => PyRuntimeError::new_err(
                "the engine stopped without being asked to (a boardcore bug: please report it with the call that did it)",
            ),
            BcError::Raised(e) => e,
            BcError::Type(m) => PyTypeError::new_err(m),
        }
    }
}

pub type BcResult<T> = Result<T, BcError>;

/// A Python exception raised while engine work runs with the GIL released (a signal handler's
/// `KeyboardInterrupt`, a Python evaluator's error). The engine cannot hold a `PyErr`: `keep`
/// stores it here and gives the engine `Error::Interrupted`, which stops its work; `take` gets it
/// back afterwards, to be raised as it is in place of the engine's result.
#[derive(Default)]
pub struct Raised(Mutex<Option<PyErr>>);

impl Raised {
    /// Keeps `e` (the first exception kept wins) and returns the error that stops the work.
    pub fn keep(&self, e: PyErr) -> Error {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).get_or_insert(e);
        Error::Interrupted
    }

    /// The exception kept, if any.
    pub fn take(&self) -> Option<PyErr> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).take()
    }

    /// The kept exception if there is one, else `result`.
    pub fn or<T>(&self, result: BcResult<T>) -> BcResult<T> {
        match self.take() {
            Some(e) => Err(e.into()),
            None => result,
        }
    }
}

/// A `ValueError` about an argument.
pub fn invalid(msg: impl Into<String>) -> BcError {
    BcError::Engine(Error::invalid(msg))
}
