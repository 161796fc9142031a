//! Rive: counting moves, and the single-stone form against the compound form (perft from the
//! empty boards: tests/data/perft, perft_data.rs).

use boardcore_engine::hex::HexBoard;
use boardcore_engine::interrupt::Stop;
use boardcore_engine::playout::random_playouts_interruptible;
use boardcore_engine::rive::Rive;
use boardcore_engine::rng::SplitMix64;
use boardcore_engine::Error;
use boardcore_engine::Position;
use std::collections::BTreeSet;

fn empty(name: &str, swap: bool, single: bool) -> Rive {
    Rive::new(HexBoard::named(name).unwrap(), swap, single).unwrap()
}

#[test]
fn counting_moves_equals_listing_them() {
    let mut rng = SplitMix64::new(5);
    for _ in 0..20 {
        let mut s = empty("hex335", true, false);
        while !s.is_over() {
            assert_eq!(s.count_moves(), s.legal_moves().count() as u64, "{s:?}");
            let mv = s.sample_move(&mut rng).unwrap();
            s.play_unchecked(mv);
        }
    }
}

/// Every position a capture can end in, playing it one stone at a time.
fn single_stone_results(start: &Rive) -> BTreeSet<String> {
    let mut results = BTreeSet::new();
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![*start];
    while let Some(p) = stack.pop() {
        if p.pending().is_none() {
            results.insert(p.to_notation().replace(" single", ""));
            continue;
        }
        for mv in p.legal_moves() {
            let mut next = p;
            next.play_unchecked(mv);
            // Removal orders transpose: visit each intermediate position once.
            if seen.insert(next.to_notation()) {
                stack.push(next);
            }
        }
    }
    results
}

#[test]
fn single_stone_captures_reach_exactly_the_compound_survivor_sets() {
    let mut rng = SplitMix64::new(11);
    let mut captures_checked = 0;
    for _ in 0..6 {
        let mut s = empty("hex335", false, false);
        while !s.is_over() {
            let moves: Vec<_> = s.legal_moves().collect();
            // For every capturing cell, compare the two forms.
            let mut cells: Vec<u8> = moves.iter().filter(|m| m.removed() != 0).filter_map(|m| m.placed()).collect();
            cells.dedup();
            for cell in cells {
                let compound: BTreeSet<String> = moves
                    .iter()
                    .filter(|m| m.placed() == Some(cell))
                    .map(|&m| {
                        let mut next = s;
                        next.play_unchecked(m);
                        next.to_notation()
                    })
                    .collect();
                let single = Rive::from_notation(&format!("{} single", s.to_notation())).unwrap();
                let mut placed = single;
                let place = single.parse_move(&s.format_move(boardcore_engine::rive::Move::place(cell))).unwrap();
                placed.play_unchecked(place);
                assert_eq!(single_stone_results(&placed), compound);
                captures_checked += 1;
            }
            let mv = s.sample_move(&mut rng).unwrap();
            s.play_unchecked(mv);
        }
    }
    assert!(captures_checked > 50, "only {captures_checked} captures seen");
}

/// A position met in a random hex7 game where one move takes hundreds of milliseconds to count
/// or draw (the frontier programme over large captures).
const HEX7_HUGE: &str = "hex7 ..wb..b/bwb.bb.w/bbbb...b./bww..w..w./w.w..b.w.w./bw....b..w.b/.bw.wwb.wb.bb/\
                         w.bw..wb..wb/....w...bb./bwbwww.wbw/bwwwbbbww/w.bwwwbw/ww.bbwb b";

/// Runs `work` with a stop requested at its second look, on a thread that remembers no capture
/// sizes (a remembered count needs no programme, hence fewer looks): work that looks only before
/// it starts (once per call, or once per playout) finishes; work that looks inside goes no
/// further than its second look. No clock: the outcome does not depend on the machine's speed.
fn stopped_at_second_look<T>(work: impl FnOnce(&Stop) -> T) -> T {
    boardcore_engine::rive::survivors::forget_remembered_sizes();
    work(&Stop::at_look(2))
}

#[test]
fn a_stop_reaches_inside_one_long_move_and_one_long_playout() {
    // Before: the stop was looked at before counting or drawing and between playouts only, so
    // these ran to the end (hundreds of milliseconds for the move, a second for the playout).
    let huge = Rive::from_notation(HEX7_HUGE).unwrap();
    assert_eq!(stopped_at_second_look(|stop| huge.count_moves_interruptible(stop)), Err(Error::Interrupted));
    let drawn = stopped_at_second_look(|stop| huge.sample_move_interruptible(&mut SplitMix64::new(1), stop));
    assert_eq!(drawn, Err(Error::Interrupted));
    assert_eq!(stopped_at_second_look(|stop| huge.list_moves(stop)).map(|m| m.len()), Err(Error::Interrupted));
    let start = empty("hex7", false, false);
    let played = stopped_at_second_look(|stop| random_playouts_interruptible(&start, 1, 0, 1, stop));
    assert_eq!(played, Err(Error::Interrupted));
    // Unstopped, the same calls agree with the plain ones.
    let never = Stop::never();
    assert_eq!(huge.count_moves_interruptible(never), Ok(huge.count_moves()));
    let drawn = huge.sample_move_interruptible(&mut SplitMix64::new(1), never);
    assert_eq!(drawn, Ok(huge.sample_move(&mut SplitMix64::new(1))));
}
