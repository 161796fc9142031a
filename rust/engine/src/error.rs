use std::fmt;

/// Everything that can go wrong when a caller hands the engine bad input.
///
/// The three kinds map to three Python exceptions (`NotationError`, `IllegalMoveError`,
/// `ValueError`); the engine never panics on user input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// Text that cannot be parsed: the message says what was expected where.
    Notation(String),
    /// A well-formed move that the rules do not allow here.
    IllegalMove(String),
    /// A bad argument or variant (an odd board size, a hole in the centre, ...).
    InvalidArgument(String),
    /// A count too large for its exact integer type.
    Overflow(String),
    /// Work that would pass a documented memory budget (docs/design.md, "Input limits").
    TooLarge(String),
    /// A long computation stopped on request (`interrupt::Stop`); nothing was changed.
    Interrupted,
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub fn notation(msg: impl Into<String>) -> Self {
        Error::Notation(msg.into())
    }
    pub fn illegal(msg: impl Into<String>) -> Self {
        Error::IllegalMove(msg.into())
    }
    pub fn invalid(msg: impl Into<String>) -> Self {
        Error::InvalidArgument(msg.into())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Notation(m)
            | Error::IllegalMove(m)
            | Error::InvalidArgument(m)
            | Error::Overflow(m)
            | Error::TooLarge(m) => f.write_str(m),
            Error::Interrupted => f.write_str("interrupted"),
        }
    }
}

impl std::error::Error for Error {}
