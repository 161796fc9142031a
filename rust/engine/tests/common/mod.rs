//! What the integration tests share: the perft data files of `tests/data/perft` (the format is in
//! the README there; the Python tests read the same files).

// Each test crate that includes this module uses a part of it.
#![allow(dead_code)]

use std::path::Path;

/// Which tests run an entry (README: `twin`, none, `slow`, `deep`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tier {
    /// Quick enough for the pure-Python twin: always run.
    Twin,
    /// The default: run when the count is within `leaf_budget()`.
    Engine,
    /// Run by the `#[ignore]`d tests only.
    Slow,
    /// Recorded for reference; no test runs it.
    Deep,
}

#[derive(Debug, Clone)]
pub struct PerftEntry {
    /// The file name's first word: reversi, cephalopod, rive or strands.
    pub game: String,
    pub position: String,
    pub depth: u32,
    /// perft(depth) with every move one ply.
    pub leaves: u64,
    /// perft(depth) when a pass uses no ply, if the file gives it.
    pub free: Option<u64>,
    pub tier: Tier,
    /// `file:line`, for messages.
    pub location: String,
}

impl PerftEntry {
    /// Whether the default (not ignored) tests run this entry in this build.
    pub fn is_quick(&self) -> bool {
        match self.tier {
            Tier::Twin => true,
            Tier::Engine => self.leaves <= leaf_budget(),
            Tier::Slow | Tier::Deep => false,
        }
    }
}

/// The most leaves a default test walks for one entry: debug builds are many times slower.
pub fn leaf_budget() -> u64 {
    if cfg!(debug_assertions) {
        200_000
    } else {
        5_000_000
    }
}

fn parse_line(game: &str, location: String, line: &str) -> PerftEntry {
    let fields: Vec<&str> = line.split(" ; ").map(str::trim).collect();
    assert!(fields.len() >= 3, "{location}: expected `position ; depth ; leaves`");
    let number = |text: &str| text.parse::<u64>().unwrap_or_else(|_| panic!("{location}: not a count: {text}"));
    let (mut free, mut tier) = (None, Tier::Engine);
    for field in &fields[3..] {
        match *field {
            "twin" => tier = Tier::Twin,
            "slow" => tier = Tier::Slow,
            "deep" => tier = Tier::Deep,
            other => match other.strip_prefix("free ") {
                Some(count) => free = Some(number(count)),
                None => panic!("{location}: unknown field {other:?}"),
            },
        }
    }
    PerftEntry {
        game: game.to_string(),
        position: fields[0].to_string(),
        depth: number(fields[1]) as u32,
        leaves: number(fields[2]),
        free,
        tier,
        location,
    }
}

/// Every entry of every data file, in file then line order.
pub fn perft_entries() -> Vec<PerftEntry> {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/perft");
    let mut files: Vec<_> = std::fs::read_dir(&folder)
        .unwrap_or_else(|e| panic!("{}: {e}", folder.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "txt"))
        .collect();
    files.sort();
    let mut entries = Vec::new();
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let game = name.split('-').next().unwrap().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            entries.push(parse_line(&game, format!("{name}:{}", i + 1), line));
        }
    }
    entries
}
