//! Perft against the published 8x8 counts (../shared/data/reversi_perft_8x8.txt), in every frame
//! and code path, plus counts checked independently of any publication.

use boardcore_engine::interrupt::Stop;
use boardcore_engine::perft::{generic_divide, generic_perft, perft, Plies};
use boardcore_engine::reversi::{Reversi, Shape, Variant};
use boardcore_engine::{Player, Position};

/// (depth, passes count as a ply, passes are free): the published table up to what a debug
/// build can walk quickly.
const PUBLISHED: [(u32, u64, u64); 9] = [
    (1, 4, 4),
    (2, 12, 12),
    (3, 56, 56),
    (4, 244, 244),
    (5, 1396, 1396),
    (6, 8200, 8200),
    (7, 55092, 55092),
    (8, 390216, 390216),
    (9, 3005288, 3005320),
];

fn start(shape: Shape) -> Reversi {
    Variant::new(shape, vec![], 0, Player::Black).unwrap().start()
}

fn max_depth() -> u32 {
    if cfg!(debug_assertions) {
        7
    } else {
        9
    }
}

#[test]
fn perft_matches_the_published_8x8_counts_in_both_conventions() {
    let s = start(Shape::Square(8));
    for &(depth, every, free) in PUBLISHED.iter().filter(|p| p.0 <= max_depth()) {
        assert_eq!(s.perft(depth, Plies::EveryMove, 1), every, "depth {depth}");
        assert_eq!(s.perft(depth, Plies::PassIsFree, 1), free, "depth {depth} (free passes)");
    }
}

#[test]
fn the_generic_frame_gives_the_same_counts_as_the_classic_one() {
    let s = start(Shape::Square(8)).in_generic_frame();
    assert!(matches!(s, Reversi::Small(_)));
    for &(depth, every, free) in PUBLISHED.iter().filter(|p| p.0 <= max_depth()) {
        assert_eq!(s.perft(depth, Plies::EveryMove, 1), every);
        assert_eq!(s.perft(depth, Plies::PassIsFree, 1), free);
    }
}

#[test]
fn the_trait_level_walk_agrees_with_the_specialised_one() {
    // `Reversi` as a whole implements `Position` by dispatch, without the bulk-counting
    // overrides of the concrete boards: an independent check of perft1/perft2. `perft` itself
    // takes Reversi's fast path (`Position::perft_interruptible`), so the generic walk is named.
    let s = start(Shape::Square(8));
    assert_eq!(generic_perft(&s, 6, Plies::EveryMove, 1, &Stop::new()), Ok(8200));
    assert_eq!(perft(&s, 6, Plies::EveryMove), 8200);
}

#[test]
fn threads_do_not_change_the_count() {
    let s = start(Shape::Square(8));
    let depth = max_depth();
    let single = s.perft(depth, Plies::EveryMove, 1);
    assert_eq!(s.perft(depth, Plies::EveryMove, 2), single);
    assert_eq!(s.perft(depth, Plies::PassIsFree, 3), s.perft(depth, Plies::PassIsFree, 1));
}

#[test]
fn divide_sums_to_perft() {
    let s = start(Shape::Square(8));
    let parts = s.divide(6, Plies::EveryMove);
    assert_eq!(parts.len(), 4);
    assert_eq!(parts.iter().map(|(_, n)| n).sum::<u64>(), 8200);
    let generic = generic_divide(&s, 6, Plies::EveryMove, &Stop::new());
    assert_eq!(Ok(parts), generic);
}

/// Counts complete games on 4x4 by walking to the end: 60,060 (a known result).
fn complete_games(p: &Reversi) -> u64 {
    let moves: Vec<_> = p.legal_moves().collect();
    if moves.is_empty() {
        return 1;
    }
    moves
        .into_iter()
        .map(|m| {
            let mut c = *p;
            c.play_unchecked(m);
            complete_games(&c)
        })
        .sum()
}

#[test]
fn four_by_four_has_exactly_60060_complete_games() {
    let s = start(Shape::Square(4));
    assert_eq!(complete_games(&s), 60060);
    // A game on 4x4 lasts at most 12 placements plus passes; perft deep enough counts games.
    assert_eq!(s.perft(30, Plies::EveryMove, 1), 60060);
}

#[test]
fn larger_boards_start_with_four_moves_by_symmetry() {
    for shape in [Shape::Square(6), Shape::Square(10), Shape::Octagon] {
        let s = start(shape);
        assert_eq!(s.perft(1, Plies::EveryMove, 1), 4, "{shape:?}");
        assert_eq!(s.perft(2, Plies::EveryMove, 1), 12, "{shape:?}");
        assert_eq!(s.perft(3, Plies::EveryMove, 1), 56, "{shape:?}");
    }
}
