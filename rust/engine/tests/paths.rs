//! Merged path counting (`count_paths`) for every game: totals equal perft under both ply
//! conventions, keys round-trip, transpositions merge, and `split_perft` equals perft from
//! positions played into the game (not only from the starts of tests/data/perft).

use boardcore_engine::cephalopod::Cephalopod;
use boardcore_engine::hex::HexBoard;
use boardcore_engine::interrupt::Stop;
use boardcore_engine::paths::{count_paths, count_paths_plies, split_perft, CompactKey, Split};
use boardcore_engine::perft::{perft, Plies};
use boardcore_engine::reversi::{Reversi, Shape, Variant};
use boardcore_engine::rive::Rive;
use boardcore_engine::rng::SplitMix64;
use boardcore_engine::strands::{named_layout, Cover, Strands};
use boardcore_engine::{Error, Player, Position};

fn reversi(shape: Shape, holes: &[&str]) -> Reversi {
    let holes = holes.iter().map(|h| boardcore_engine::square::Coord::parse(h).unwrap()).collect();
    Variant::new(shape, holes, 0, Player::Black).unwrap().start()
}

/// Starts of several variants of every game, and positions a few random moves into each.
fn positions<P: Position>(starts: Vec<P>, plies: u32) -> Vec<P> {
    let mut rng = SplitMix64::new(15);
    let mut all = Vec::new();
    for start in starts {
        let mut p = start.clone();
        all.push(start);
        for _ in 0..plies {
            match p.sample_move(&mut rng) {
                Some(mv) => p.play_unchecked(mv),
                None => break,
            }
        }
        all.push(p);
    }
    all
}

fn check_game<P: CompactKey>(starts: Vec<P>, played: u32, max_depth: u32) {
    for p in positions(starts, played) {
        let text = p.to_notation();
        assert_eq!(p.from_compact_key(p.compact_key()).to_notation(), text, "round trip");
        for depth in 0..=max_depth {
            for plies in [Plies::EveryMove, Plies::PassIsFree] {
                let expected = perft(&p, depth, plies) as u128;
                let paths = count_paths_plies(&p, depth, plies, Stop::never()).unwrap();
                assert_eq!(paths.iter().map(|(_, n)| n).sum::<u128>(), expected, "{text} depth {depth} {plies:?}");
                assert!(paths.windows(2).all(|w| w[0].0 < w[1].0), "sorted by key, each key once");
                let auto = split_perft(&p, depth, Split::Auto, plies, 2, Stop::never());
                assert_eq!(auto, Ok(expected), "{text} depth {depth} auto {plies:?}");
                for split in 0..=depth {
                    let leaves = split_perft(&p, depth, Split::At(split), plies, 2, Stop::never());
                    assert_eq!(leaves, Ok(expected), "{text} depth {depth} split {split} {plies:?}");
                }
            }
        }
        // Every key decodes to a position that encodes to the same key.
        for (key, _) in count_paths(&p, 2).unwrap() {
            assert_eq!(p.from_compact_key(key).compact_key(), key, "{text}");
        }
    }
}

#[test]
fn reversi_counts_equal_perft_on_every_board() {
    let starts = vec![
        reversi(Shape::Square(8), &[]),
        reversi(Shape::Square(6), &[]),
        reversi(Shape::Square(4), &[]),
        reversi(Shape::Octagon, &[]),
        reversi(Shape::Square(10), &[]),
        reversi(Shape::Square(8), &["a1", "h8", "b7"]),
    ];
    check_game(starts, 20, 4);
}

#[test]
fn reversi_passes_are_counted_as_perft_counts_them() {
    // White must pass at once, then Black has two replies, each followed by another pass.
    let p = Reversi::from_notation("4 bw../..../bw../.... w").unwrap();
    for depth in 0..6 {
        for plies in [Plies::EveryMove, Plies::PassIsFree] {
            let paths = count_paths_plies(&p, depth, plies, Stop::never()).unwrap();
            assert_eq!(paths.iter().map(|(_, n)| n).sum::<u128>(), perft(&p, depth, plies) as u128);
        }
    }
    // The pass itself is a ply by default: one position, the same discs, Black to move.
    let after_pass = count_paths(&p, 1).unwrap();
    assert_eq!(after_pass.len(), 1);
    assert_eq!(p.from_compact_key(after_pass[0].0).to_notation(), "4 bw../..../bw../.... b");
}

#[test]
fn reversi_transpositions_merge() {
    // 8x8 after 3 plies: 56 sequences; fewer distinct positions.
    let start = reversi(Shape::Square(8), &[]);
    let paths = count_paths(&start, 3).unwrap();
    assert_eq!(paths.iter().map(|(_, n)| n).sum::<u128>(), 56);
    assert!(paths.len() < 56 && paths.iter().any(|&(_, n)| n > 1));
}

#[test]
fn cephalopod_counts_equal_perft() {
    check_game(
        vec![Cephalopod::new(3, 3).unwrap(), Cephalopod::new(2, 3).unwrap(), Cephalopod::new(5, 5).unwrap()],
        6,
        4,
    );
}

#[test]
fn rive_counts_equal_perft_in_every_form() {
    let mut starts = Vec::new();
    for board in ["hex2", "hex3", "hex335"] {
        for (swap, single) in [(false, false), (true, false), (false, true), (true, true)] {
            starts.push(Rive::new(HexBoard::named(board).unwrap(), swap, single).unwrap());
        }
    }
    check_game(starts, 8, 3);
}

#[test]
fn rive_keys_keep_a_capture_under_way() {
    // Play single-stone Rive on hex2 until a capture is under way, and check its key keeps it.
    let start = Rive::new(HexBoard::named("hex2").unwrap(), false, true).unwrap();
    let mut rng = SplitMix64::new(3);
    let mut found = 0;
    for _ in 0..200 {
        let mut p = start;
        while let Some(mv) = p.sample_move(&mut rng) {
            p.play_unchecked(mv);
            if p.pending().is_some() {
                found += 1;
                assert_eq!(p.from_compact_key(p.compact_key()), p);
                assert_eq!(p.from_compact_key(p.compact_key()).pending(), p.pending());
            }
        }
    }
    assert!(found > 0, "no capture under way was reached");
}

#[test]
fn strands_counts_equal_perft_under_both_cover_rules() {
    let layout = named_layout("hex4").unwrap();
    let starts = vec![Strands::new(&layout, Cover::UpTo).unwrap(), Strands::new(&layout, Cover::Exact).unwrap()];
    check_game(starts, 6, 2);
}

#[test]
fn split_depth_past_depth_is_refused() {
    let start = Cephalopod::new(3, 3).unwrap();
    assert!(matches!(
        split_perft(&start, 2, Split::At(3), Plies::EveryMove, 1, Stop::never()),
        Err(Error::InvalidArgument(_))
    ));
}

#[test]
fn a_stopped_split_perft_is_interrupted() {
    let start = reversi(Shape::Square(8), &[]);
    let stop = Stop::new();
    stop.request();
    for threads in [1, 2] {
        assert_eq!(split_perft(&start, 9, Split::At(4), Plies::EveryMove, threads, &stop), Err(Error::Interrupted));
    }
}
