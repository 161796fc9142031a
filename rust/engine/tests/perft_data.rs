//! Perft of every game against the counts in `tests/data/perft` (the files the Python tests read
//! too), through `perft::perft`, which forwards to `Position::perft`: that is the generic walk of
//! perft.rs for Cephalopod, Rive and Strands, and Reversi's frame walk (its override) for Reversi.
//! Reversi's quick entries also go through the generic walk itself (`generic_perft`), so that
//! both of its walks are held to the same counts.

mod common;

use boardcore_engine::cephalopod::Cephalopod;
use boardcore_engine::interrupt::Stop;
use boardcore_engine::perft::{generic_perft, perft, Plies};
use boardcore_engine::reversi::Reversi;
use boardcore_engine::rive::Rive;
use boardcore_engine::strands::Strands;
use boardcore_engine::Position;
use common::{perft_entries, PerftEntry, Tier};

/// Checks one entry: `count(position, depth, plies)` is the perft to trust.
fn check<P: Position>(entry: &PerftEntry, count: impl Fn(&P, u32, Plies) -> u64) {
    let position = P::from_notation(&entry.position).unwrap_or_else(|e| panic!("{}: {e:?}", entry.location));
    assert_eq!(count(&position, entry.depth, Plies::EveryMove), entry.leaves, "{}", entry.location);
    if let Some(free) = entry.free {
        assert_eq!(count(&position, entry.depth, Plies::PassIsFree), free, "{} (free passes)", entry.location);
    }
}

fn check_entry(entry: &PerftEntry, threads: usize) {
    match entry.game.as_str() {
        "reversi" => {
            check::<Reversi>(entry, |p, depth, plies| p.perft(depth, plies, threads));
            if entry.is_quick() {
                check::<Reversi>(entry, perft);
                check::<Reversi>(entry, |p, depth, plies| generic_perft(p, depth, plies, 1, Stop::never()).unwrap());
            }
        }
        "cephalopod" => check::<Cephalopod>(entry, perft),
        "rive" => check::<Rive>(entry, perft),
        "strands" => check::<Strands>(entry, perft),
        other => panic!("{}: no game {other}", entry.location),
    }
}

#[test]
fn perft_matches_the_data_files() {
    let quick: Vec<_> = perft_entries().into_iter().filter(PerftEntry::is_quick).collect();
    assert!(quick.len() > 40, "only {} entries", quick.len());
    for entry in &quick {
        check_entry(entry, 1);
    }
}

/// The entries past the build's budget and the `slow` ones: `cargo test --release -- --ignored`.
#[test]
#[ignore]
fn perft_matches_the_data_files_deep_entries() {
    for entry in perft_entries().iter().filter(|e| !e.is_quick() && e.tier != Tier::Deep) {
        check_entry(entry, 2);
    }
}

#[test]
fn every_game_has_data_the_twin_runs_too() {
    let entries = perft_entries();
    for game in ["reversi", "cephalopod", "rive", "strands"] {
        assert!(entries.iter().any(|e| e.game == game && e.tier == Tier::Twin), "{game}");
    }
}

/// `split_perft` (transpositions merged at `split` plies) equals the count for several splits.
fn check_split<P: boardcore_engine::paths::CompactKey>(entry: &PerftEntry) {
    use boardcore_engine::paths::{split_perft, Split};
    let position = P::from_notation(&entry.position).unwrap_or_else(|e| panic!("{}: {e:?}", entry.location));
    let depth = entry.depth;
    for split in [1, depth / 2, depth.saturating_sub(1), depth] {
        for threads in [1, 2] {
            let leaves =
                split_perft(&position, depth, Split::At(split.min(depth)), Plies::EveryMove, threads, Stop::never());
            assert_eq!(leaves, Ok(entry.leaves as u128), "{} split {split}", entry.location);
            if let Some(free) = entry.free {
                let leaves = split_perft(
                    &position,
                    depth,
                    Split::At(split.min(depth)),
                    Plies::PassIsFree,
                    threads,
                    Stop::never(),
                );
                assert_eq!(leaves, Ok(free as u128), "{} split {split} (free passes)", entry.location);
            }
        }
    }
}

#[test]
fn split_perft_matches_the_data_files() {
    let budget = common::leaf_budget() / 20;
    let entries: Vec<_> = perft_entries().into_iter().filter(|e| e.is_quick() && e.leaves <= budget).collect();
    for game in ["reversi", "cephalopod", "rive", "strands"] {
        assert!(entries.iter().any(|e| e.game == game && e.depth >= 2), "{game}");
    }
    for entry in &entries {
        match entry.game.as_str() {
            "reversi" => check_split::<Reversi>(entry),
            "cephalopod" => check_split::<Cephalopod>(entry),
            "rive" => check_split::<Rive>(entry),
            "strands" => check_split::<Strands>(entry),
            other => panic!("{}: no game {other}", entry.location),
        }
    }
}
