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

/// Keeps error messages short when the input is a megabyte of garbage: the text, cut after 40
/// characters (`...` marks the cut). Messages quote it with `{:?}`, see [`Excerpt`].
pub fn truncate(text: &str) -> Excerpt {
    const MAX: usize = 40;
    if text.chars().count() <= MAX {
        Excerpt(text.to_string())
    } else {
        let head: String = text.chars().take(MAX).collect();
        Excerpt(format!("{head}..."))
    }
}

/// Input text as an error message shows it. `{}` writes it as it is; `{:?}` quotes it as Rust
/// quotes a string (double quotes, `\"`, `\\`, `\n`, `\t`, `\r`), except that a character
/// Rust would write as `\u{1b}` is written as Python writes it (`\x1b`, `\u2028`, `\U0001f600`):
/// the messages are read in Python, where a stray escape key (an arrow key sends ESC [ A) then
/// reads `"\x1b[A"`, which Python users can type back.
#[derive(Clone, PartialEq, Eq)]
pub struct Excerpt(String);

impl Excerpt {
    pub fn into_string(self) -> String {
        self.0
    }
}

impl std::fmt::Display for Excerpt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::fmt::Debug for Excerpt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Rust's quoting, then each `\u{HEX}` rewritten: a backslash in the quoted text always
        // starts an escape (a backslash itself is `\\`), so the rewrite cannot misread the text.
        let rust = format!("{:?}", self.0);
        let mut rest = rust.as_str();
        while let Some(at) = rest.find('\\') {
            f.write_str(&rest[..at])?;
            let escape = &rest[at..];
            match escape.strip_prefix("\\u{").and_then(|tail| tail.split_once('}')) {
                Some((hex, after)) => {
                    let code = u32::from_str_radix(hex, 16).map_err(|_| std::fmt::Error)?;
                    match code {
                        0..=0xff => write!(f, "\\x{code:02x}")?,
                        0x100..=0xffff => write!(f, "\\u{code:04x}")?,
                        _ => write!(f, "\\U{code:08x}")?,
                    }
                    rest = after;
                }
                None => {
                    // Any other escape is two characters: the backslash and the one it escapes.
                    let width = escape[1..].chars().next().map_or(0, char::len_utf8);
                    f.write_str(&escape[..1 + width])?;
                    rest = &escape[1 + width..];
                }
            }
        }
        f.write_str(rest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excerpts_quote_control_characters_as_python_writes_them() {
        assert_eq!(format!("{:?}", truncate("\x1b[A")), r#""\x1b[A""#);
        assert_eq!(format!("{:?}", truncate("a\u{2028}b\u{feff}")), r#""a\u2028b\ufeff""#);
        assert_eq!(format!("{:?}", truncate("d3\u{e0001}")), r#""d3\U000e0001""#);
        // Rust's own escapes, quotes, backslashes and printable text are as before.
        assert_eq!(format!("{:?}", truncate("a\\u{1b}\"b\n\t\r'é")), r#""a\\u{1b}\"b\n\t\r'é""#);
        assert_eq!(format!("{}", truncate("\x1b[A")), "\x1b[A");
        let long = "x".repeat(50);
        assert_eq!(format!("{:?}", truncate(&long)), format!("\"{}...\"", "x".repeat(40)));
    }
}
