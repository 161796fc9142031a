//! The Python exceptions, declared once, and the one conversion from engine errors.

use boardcore_engine::Error;
use pyo3::create_exception;
use pyo3::exceptions::{
    PyKeyboardInterrupt, PyMemoryError, PyOverflowError, PyRuntimeError, PyTypeError, PyValueError,
};
use pyo3::PyErr;

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
/// Python raised meanwhile (a signal handler's `KeyboardInterrupt`), passed on as it is.
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
            BcError::Engine(Error::Interrupted) => PyKeyboardInterrupt::new_err("interrupted"),
            BcError::Raised(e) => e,
            BcError::Type(m) => PyTypeError::new_err(m),
        }
    }
}

pub type BcResult<T> = Result<T, BcError>;

/// A `ValueError` about an argument.
pub fn invalid(msg: impl Into<String>) -> BcError {
    BcError::Engine(Error::invalid(msg))
}
