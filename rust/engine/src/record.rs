//! The PGN-like game record shared by every game: `[Tag "value"]` lines, then moves separated
//! by whitespace. Games interpret the tags; this module only reads and writes the syntax.

use crate::error::{Error, Result};
use crate::square::truncate;

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

    pub fn parse(text: &str) -> Result<Record> {
        let mut record = Record::default();
        let mut in_moves = false;
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            if line.starts_with('[') {
                if in_moves {
                    return Err(Error::notation(format!(
                        "record line {}: a tag after the moves began",
                        number + 1
                    )));
                }
                let (name, value) = parse_tag(line)
                    .ok_or_else(|| Error::notation(format!(
                        "record line {}: expected a tag like [Name \"value\"], got {:?}",
                        number + 1,
                        truncate(line)
                    )))?;
                if record.tag(&name).is_some() {
                    return Err(Error::notation(format!("record: tag {name} given twice")));
                }
                record.tags.push((name, value));
            } else {
                in_moves = true;
                record.moves.extend(line.split_whitespace().map(str::to_string));
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

fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (name, rest) = inner.split_once(' ')?;
    let value = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
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
    fn malformed_tags_are_rejected() {
        for bad in ["[Game reversi]", "[Game \"a\"b\"]", "[ \"x\"]", "[Game \"x\""] {
            assert!(Record::parse(bad).is_err(), "{bad}");
        }
    }
}
