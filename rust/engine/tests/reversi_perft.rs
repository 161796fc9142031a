//! Perft against the published 8x8 counts (tests/data/perft/reversi-8x8.txt), in every frame
//! and code path, plus counts checked independently of any publication.

mod common;

use boardcore_engine::interrupt::Stop;
use boardcore_engine::perft::{generic_divide, generic_perft, perft, Plies};
use boardcore_engine::reversi::{Reversi, Shape, Variant};
use boardcore_engine::{Player, Position};

fn start(shape: Shape) -> Reversi {
    Variant::new(shape, vec![], 0, Player::Black).unwrap().start()
}

/// (depth, passes count as a ply, passes are free) of a start, from the data file, up to what
/// the build walks quickly.
fn published(shape: Shape) -> Vec<(u32, u64, u64)> {
    let position = start(shape).to_notation();
    let rows: Vec<_> = common::perft_entries()
        .into_iter()
        .filter(|e| e.position == position && e.is_quick())
        .map(|e| (e.depth, e.leaves, e.free.expect("Reversi counts give both conventions")))
        .collect();
    assert!(!rows.is_empty(), "no data for {position}");
    rows
}

/// The published count at `depth` with passes as plies.
fn published_at(shape: Shape, depth: u32) -> u64 {
    published(shape).into_iter().find(|r| r.0 == depth).unwrap_or_else(|| panic!("no depth {depth}")).1
}

fn max_depth() -> u32 {
    published(Shape::Square(8)).iter().map(|r| r.0).max().unwrap()
}

#[test]
fn perft_matches_the_published_8x8_counts_in_both_conventions() {
    let s = start(Shape::Square(8));
    for (depth, every, free) in published(Shape::Square(8)) {
        assert_eq!(s.perft(depth, Plies::EveryMove, 1), every, "depth {depth}");
        assert_eq!(s.perft(depth, Plies::PassIsFree, 1), free, "depth {depth} (free passes)");
    }
}

#[test]
fn the_generic_frame_gives_the_same_counts_as_the_classic_one() {
    let s = start(Shape::Square(8)).in_generic_frame();
    assert!(matches!(s, Reversi::Small(_)));
    for (depth, every, free) in published(Shape::Square(8)) {
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
    let published = published_at(Shape::Square(8), 6);
    assert_eq!(generic_perft(&s, 6, Plies::EveryMove, 1, Stop::never()), Ok(published));
    assert_eq!(perft(&s, 6, Plies::EveryMove), published);
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
    assert_eq!(parts.iter().map(|(_, n)| n).sum::<u64>(), published_at(Shape::Square(8), 6));
    let generic = generic_divide(&s, 6, Plies::EveryMove, Stop::never());
    assert_eq!(Ok(parts), generic);
}

/// Counts complete games on 4x4 by walking to the end: 60,060 (a known result, in the data file
/// as perft to depth 30: deep enough to reach every end).
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
    // A game on 4x4 lasts at most 12 placements plus passes; perft deep enough counts games.
    assert_eq!(complete_games(&s), published_at(Shape::Square(4), 30));
}
