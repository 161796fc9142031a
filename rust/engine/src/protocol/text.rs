//! The text rules every parser follows (docs/design.md, "Text input"), written once here and once
//! in the Python twin (`reference/_game.py`), so that both split and trim text the same way.
//!
//! Only four characters are blanks: space and tab separate words within a line, and a line ends
//! at `\r\n`, `\n` or `\r`. Everything else (other Unicode whitespace, the ASCII separators
//! `\x1c`-`\x1f`, `\u2028`, a byte-order mark, NUL) is an ordinary character, which no notation
//! uses, so text holding one is rejected by whatever reads it. Rust's `trim`/`lines` and Python's
//! `strip`/`splitlines` disagree on exactly those characters, which is why neither is used.

use crate::error::truncate;
use crate::error::{Error, Result};
use crate::game::Player;

/// The most characters a position or a move may have. The longest real ones are a few hundred
/// (a Rive position on a custom 128-cell board, a capture listing 127 cells); longer text is
/// rejected before it is read, whatever it holds.
pub const MAX_NOTATION_CHARS: usize = 4096;

/// Space, tab, carriage return and line feed: the only characters trimmed or split on.
pub fn is_blank(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n')
}

/// The text without its leading and trailing blanks.
pub fn trim(text: &str) -> &str {
    text.trim_matches(is_blank)
}

/// The lines of a text: it is cut at every `\r\n`, `\n` and `\r` (a trailing break leaves an
/// empty last line, which readers skip as they skip every blank line).
pub fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let current = rest?;
        match current.find(['\r', '\n']) {
            None => {
                rest = None;
                Some(current)
            }
            Some(end) => {
                let width = if current[end..].starts_with("\r\n") { 2 } else { 1 };
                rest = Some(&current[end + width..]);
                Some(&current[..end])
            }
        }
    })
}

/// The words of a line: the pieces between runs of spaces and tabs.
pub fn words(line: &str) -> impl Iterator<Item = &str> {
    line.split([' ', '\t']).filter(|w| !w.is_empty())
}

/// A notation error unless `text` has at most [`MAX_NOTATION_CHARS`] characters; `what` names
/// the kind of text ("position", "move"). Stops counting at the limit.
pub fn check_length(what: &str, text: &str) -> Result<()> {
    if text.len() > MAX_NOTATION_CHARS && text.chars().nth(MAX_NOTATION_CHARS).is_some() {
        return Err(Error::notation(format!(
            "a {what} has at most {MAX_NOTATION_CHARS} characters, got {} starting {:?}",
            text.chars().count(),
            truncate(text)
        )));
    }
    Ok(())
}

/// The three fields of a position's notation (`check_length`, `trim`, then split at single
/// spaces), or the error `bad` makes saying that the text is not of the `form` expected
/// (`BOARD ROWS SIDE`).
pub fn position_fields<'a>(text: &'a str, form: &str, bad: impl Fn(String) -> Error) -> Result<[&'a str; 3]> {
    check_length("position", text)?;
    let fields: Vec<&str> = trim(text).split(' ').collect();
    <[&str; 3]>::try_from(fields)
        .map_err(|_| bad(format!("expected '{form}' separated by single spaces, got {:?}", truncate(text))))
}

/// The side to move a position's notation names (`b` or `w`), or the error `bad` makes.
pub fn side_to_move(field: &str, bad: impl Fn(String) -> Error) -> Result<Player> {
    Player::from_letter(field).ok_or_else(|| bad(format!("side to move must be 'b' or 'w', got {:?}", truncate(field))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_end_at_crlf_lf_and_cr_only() {
        let got: Vec<&str> = lines("a\r\nb\nc\rd\u{2028}e\x1cf\u{85}g").collect();
        assert_eq!(got, ["a", "b", "c", "d\u{2028}e\x1cf\u{85}g"]);
        assert_eq!(lines("").collect::<Vec<_>>(), [""]);
        assert_eq!(lines("x\n").collect::<Vec<_>>(), ["x", ""]);
        assert_eq!(lines("\r\r\n").collect::<Vec<_>>(), ["", "", ""]);
    }

    #[test]
    fn only_space_tab_cr_and_lf_are_trimmed() {
        assert_eq!(trim(" \t\r\nd3\n "), "d3");
        for other in ["\u{a0}", "\u{3000}", "\x0b", "\x0c", "\x1c", "\u{feff}", "\0", "\u{85}"] {
            let text = format!("{other}d3{other}");
            assert_eq!(trim(&text), text, "{other:?}");
        }
    }

    #[test]
    fn words_are_split_at_spaces_and_tabs() {
        assert_eq!(words(" d3\t c5  e6\u{a0}f4 ").collect::<Vec<_>>(), ["d3", "c5", "e6\u{a0}f4"]);
    }

    #[test]
    fn the_length_limit_counts_characters() {
        assert!(check_length("move", &"é".repeat(MAX_NOTATION_CHARS)).is_ok());
        assert!(matches!(check_length("move", &"é".repeat(MAX_NOTATION_CHARS + 1)), Err(Error::Notation(_))));
    }
}
