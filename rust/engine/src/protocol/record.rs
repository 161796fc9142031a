//! The PGN-like game record shared by every game: `[Tag "value"]` lines, then moves separated
//! by blanks (docs/design.md, "Text input"), and how every [`Game`] is written as one and read
//! back: the game's [`Variant`] gives its own tags, everything else is here, once.

use crate::error::truncate;
use crate::error::{Error, Result};
use crate::game::{Game, Outcome, Position, Variant};
use crate::text;
use std::collections::HashSet;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Record {
    /// Tags in the order written.
    pub tags: Vec<(String, String)>,
    pub moves: Vec<String>,
}

impl Record {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    pub fn push_tag(&mut self, name: &str, value: impl Into<String>) {
        self.tags.push((name.to_string(), value.into()));
    }

    /// The most tag lines a record may have: every game knows fewer than a dozen tags, so more
    /// is refused at once rather than read to the end.
    pub const MAX_TAGS: usize = 64;

    /// Reads the syntax: lines as `text::lines` cuts them, blank lines skipped, tag lines first,
    /// then moves separated by blanks. Linear in the text (duplicate tags are found by hashing).
    pub fn parse(text: &str) -> Result<Record> {
        let mut record = Record::default();
        let mut names = HashSet::new();
        let mut in_moves = false;
        for (number, line) in text::lines(text).enumerate() {
            let line = text::trim(line);
            if line.is_empty() {
                continue;
            }
            if line.starts_with('[') {
                if in_moves {
                    return Err(Error::notation(format!("record line {}: a tag after the moves began", number + 1)));
                }
                let (name, value) = parse_tag(line).ok_or_else(|| {
                    Error::notation(format!(
                        "record line {}: expected a tag like [Name \"value\"], got {:?}",
                        number + 1,
                        truncate(line)
                    ))
                })?;
                if !names.insert(name.clone()) {
                    return Err(Error::notation(format!("record: tag {name} given twice")));
                }
                if names.len() > Self::MAX_TAGS {
                    return Err(Error::notation(format!("record: more than {} tags", Self::MAX_TAGS)));
                }
                record.tags.push((name, value));
            } else {
                in_moves = true;
                record.moves.extend(text::words(line).map(str::to_string));
            }
        }
        Ok(record)
    }

    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for (k, v) in &self.tags {
            out.push_str(&format!("[{k} \"{v}\"]\n"));
        }
        out.push('\n');
        out.push_str(&self.moves.join(" "));
        out.push('\n');
        out
    }
}

impl<V: Variant> Game<V> {
    /// The game's record: `Game`, the board tags, then either the variant's tags or, for a game
    /// set up from a position, a `Position` tag; `Result`; the moves. `from_record` replays it.
    pub fn record(&self) -> String {
        let mut r = Record::default();
        r.push_tag("Game", V::NAME);
        for (k, v) in V::board_tags(self.start()) {
            r.push_tag(k, v);
        }
        match self.variant() {
            Some(variant) => variant.tags().into_iter().for_each(|(k, v)| r.push_tag(k, v)),
            None => r.push_tag("Position", self.start().to_notation()),
        }
        r.push_tag("Result", Outcome::result_tag(self.position().outcome()));
        let mut replay = *self.start();
        for mv in self.moves() {
            r.moves.push(replay.format_move(mv));
            replay.play_unchecked(mv);
        }
        r.to_text()
    }

    /// The game a record describes, its moves replayed. Every error is a notation error.
    pub fn from_record(text: &str) -> Result<Self> {
        let r = read::<V>(text)?;
        let mut game = match r.tag("Position") {
            Some(position) => Self::from_position(position)?,
            None => Self::new(V::from_tags(&r)?).map_err(|e| Error::notation(format!("{} record: {e}", V::NAME)))?,
        };
        for (k, v) in V::board_tags(game.start()) {
            if r.tag(k).is_some_and(|given| given != v) {
                return Err(Error::notation(format!("{} record: {k} does not match Position", V::NAME)));
            }
        }
        replay(&r, &mut game)?;
        Ok(game)
    }
}

/// Reads a record of game `V`: the `Game` tag must name it, every tag must be known (`Game`,
/// `Position`, `Result`, a board tag or a variant tag), and a `Position` tag excludes the
/// variant tags.
fn read<V: Variant>(text: &str) -> Result<Record> {
    let name = V::NAME;
    let r = Record::parse(text)?;
    match r.tag("Game") {
        Some(given) if given == name => {}
        Some(other) => return Err(Error::notation(format!("{name} record: Game is {other:?}, not {name:?}"))),
        None => return Err(Error::notation("record: the Game tag is missing")),
    }
    let known =
        |k: &str| ["Game", "Position", "Result"].contains(&k) || V::BOARD_TAGS.contains(&k) || V::TAGS.contains(&k);
    if let Some((k, _)) = r.tags.iter().find(|(k, _)| !known(k)) {
        return Err(Error::notation(format!("{name} record: unknown tag {k}")));
    }
    if r.tag("Position").is_some() && V::TAGS.iter().any(|t| r.tag(t).is_some()) {
        return Err(Error::notation(format!("{name} record: a Position tag excludes {}", V::TAGS.join(", "))));
    }
    Ok(r)
}

/// Plays the record's moves onto `game` (errors name the move's number) and checks `Result`.
fn replay<V: Variant>(record: &Record, game: &mut Game<V>) -> Result<()> {
    let name = V::NAME;
    for (i, text) in record.moves.iter().enumerate() {
        game.play_notation(text)
            .map_err(|e| Error::notation(format!("{name} record: move {} ({}): {e}", i + 1, truncate(text))))?;
    }
    if let Some(result) = record.tag("Result") {
        let actual = Outcome::result_tag(game.position().outcome());
        if result != actual {
            return Err(Error::notation(format!("{name} record: Result is {result:?} but the moves give {actual:?}")));
        }
    }
    Ok(())
}

fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (name, rest) = inner.split_once(' ')?;
    let value = text::trim(rest).strip_prefix('"')?.strip_suffix('"')?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric()) || value.contains('"') {
        return None;
    }
    Some((name.to_string(), value.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip() {
        let mut r = Record::default();
        r.push_tag("Game", "reversi");
        r.push_tag("Board", "8");
        r.moves = vec!["d3".into(), "c5".into()];
        assert_eq!(Record::parse(&r.to_text()).unwrap(), r);
    }

    #[test]
    fn lines_end_at_crlf_lf_or_cr_and_nothing_else() {
        let r = Record::parse("[Game \"reversi\"]\r[Board \"8\"]\r\n\rd3\tc5\n").unwrap();
        assert_eq!(r.tags.len(), 2);
        assert_eq!(r.moves, ["d3", "c5"]);
        // A Unicode line separator is an ordinary character: the tag line does not end there.
        assert!(Record::parse("[Game \"reversi\"]\u{2028}[Board \"8\"]").is_err());
        assert_eq!(Record::parse("d3\u{2028}c5").unwrap().moves, ["d3\u{2028}c5"]);
    }

    #[test]
    fn duplicate_tags_are_found_by_hashing_and_tags_are_limited() {
        let most: String = (0..Record::MAX_TAGS).map(|i| format!("[T{i} \"x\"]\n")).collect();
        assert_eq!(Record::parse(&most).unwrap().tags.len(), Record::MAX_TAGS);
        assert!(Record::parse(&format!("[T7 \"y\"]\n{most}")).is_err());
        // 200,000 distinct tags: the old check compared each with every earlier one (minutes).
        let many: String = (0..200_000).map(|i| format!("[T{i} \"x\"]\n")).collect();
        assert!(matches!(Record::parse(&many), Err(Error::Notation(m)) if m.contains("more than 64 tags")));
    }

    use crate::{cephalopod, reversi, rive, strands, Player};

    /// Plays `plies` first moves, then checks that the record reads back as the same game and
    /// writes the same text, and that the game set up from its start position does too.
    fn round_trips<V: Variant>(variant: V, plies: usize) -> String {
        let mut game = Game::new(variant).unwrap();
        for _ in 0..plies {
            let mv = game.position().legal_moves().next().unwrap();
            game.play(mv).unwrap();
        }
        let text = game.record();
        let back = Game::<V>::from_record(&text).unwrap();
        assert!(back.position() == game.position() && back.moves().eq(game.moves()));
        assert_eq!(back.record(), text);
        let from_position = Game::<V>::from_position(&game.start().to_notation()).unwrap();
        assert!(from_position.record().contains("[Position \""));
        assert!(Game::<V>::from_record(&from_position.record()).is_ok());
        text
    }

    #[test]
    fn every_variant_writes_and_reads_its_record() {
        let shape = reversi::Shape::Square(6);
        let variant = reversi::Variant::random(shape, 3, 1, Player::White).unwrap();
        let text = round_trips(variant, 4);
        assert!(text.starts_with("[Game \"reversi\"]\n[Board \"6\"]\n[Blocked \""), "{text}");
        assert!(text.contains("[Seed \"3\"]\n[Handicap \"1\"]\n[HandicapColor \"white\"]\n"), "{text}");
        let text = round_trips(cephalopod::Variant { rows: 3, cols: 4 }, 3);
        assert!(text.starts_with("[Game \"cephalopod\"]\n[Board \"3x4\"]\n[Result \"*\"]\n\n"), "{text}");
        let board = crate::hex::HexBoard::named("hex3").unwrap();
        let text = round_trips(rive::Variant::new(board, true, false), 3);
        assert!(text.starts_with("[Game \"rive\"]\n[Board \"hex3\"]\n[Swap \"yes\"]\n[Result"), "{text}");
        let rows = strands::named_layout("hex4").unwrap();
        let text = round_trips(strands::Variant { rows, name: Some("hex4".into()), cover: strands::Cover::UpTo }, 2);
        assert!(text.starts_with("[Game \"strands\"]\n[Layout \"hex4\"]\n[Cover \"up-to\"]\n"), "{text}");
    }

    #[test]
    fn board_tags_must_agree_with_a_position_and_a_position_excludes_the_variant() {
        let position = cephalopod::Cephalopod::new(3, 3).unwrap().to_notation();
        let mismatched = format!("[Game \"cephalopod\"]\n[Board \"4x4\"]\n[Position \"{position}\"]\n");
        let refused = Game::<cephalopod::Variant>::from_record(&mismatched).err();
        assert_eq!(refused, Some(Error::notation("cephalopod record: Board does not match Position")));
        let position = rive::Rive::new(crate::hex::HexBoard::named("hex3").unwrap(), false, false).unwrap();
        let both = format!("[Game \"rive\"]\n[Swap \"yes\"]\n[Position \"{}\"]\n", position.to_notation());
        let refused = Game::<rive::Variant>::from_record(&both).err();
        assert_eq!(refused, Some(Error::notation("rive record: a Position tag excludes Swap, SingleStones, Playouts")));
    }

    #[test]
    fn strands_labels_are_the_layout_s_whether_set_up_from_a_variant_or_its_position() {
        let rows = strands::named_layout("hex5").unwrap();
        let variant = strands::Variant { rows: rows.clone(), name: None, cover: strands::Cover::Exact };
        let game = Game::new(variant).unwrap();
        assert_eq!(game.labels(), rows.concat());
        let from_position = Game::<strands::Variant>::from_position(&game.start().to_notation()).unwrap();
        assert_eq!(from_position.labels(), rows.concat());
    }

    #[test]
    fn malformed_tags_are_rejected() {
        for bad in ["[Game reversi]", "[Game \"a\"b\"]", "[ \"x\"]", "[Game \"x\""] {
            assert!(Record::parse(bad).is_err(), "{bad}");
        }
    }
}
