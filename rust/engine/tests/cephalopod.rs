//! Cephalopod merged path counting, checked against perft and against counts confirmed by the
//! pure-Python reference (perft from the empty boards: tests/data/perft, perft_data.rs).

use boardcore_engine::cephalopod::Cephalopod;
use boardcore_engine::paths::count_paths;
use boardcore_engine::perft::{perft, Plies};
use boardcore_engine::Position;

// The counts from the empty boards are in tests/data/perft (perft_data.rs).

#[test]
fn merged_path_totals_equal_perft() {
    for text in ["3x3 .../.../... b", "3x3 1b.1w/.2b./1w.. w", "2x2 ../.. b", "3x4 ..../.1b1w./.... b"] {
        let s = Cephalopod::from_notation(text).unwrap();
        for depth in 0..6 {
            let total: u128 = count_paths(&s, depth).unwrap().iter().map(|(_, n)| n).sum();
            assert_eq!(total, perft(&s, depth, Plies::EveryMove) as u128, "{text} depth {depth}");
        }
    }
}

#[test]
fn merged_counting_finds_the_distinct_positions_the_reference_finds() {
    let s = Cephalopod::new(3, 3).unwrap();
    assert_eq!(count_paths(&s, 3).unwrap().len(), 261);
    assert_eq!(count_paths(&s, 5).unwrap().len(), 2646);
}

#[test]
fn keys_round_trip() {
    use boardcore_engine::paths::CompactKey;
    let s = Cephalopod::from_notation("3x3 1b.6w/.2w./3b.. w").unwrap();
    assert_eq!(s.from_compact_key(s.compact_key()), s);
}

#[test]
fn boards_over_31_squares_have_no_key() {
    let s = Cephalopod::new(8, 8).unwrap();
    assert!(count_paths(&s, 1).is_err());
}
