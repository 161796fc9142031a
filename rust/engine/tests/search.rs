//! The search and the solver against brute force: on boards small enough to walk every line,
//! the solver's value, margin, set of optimal moves and line of play are the game's own.

use boardcore_engine::cephalopod::Cephalopod;
use boardcore_engine::interrupt::Stop;
use boardcore_engine::reversi::Reversi;
use boardcore_engine::rive::Rive;
use boardcore_engine::rng::SplitMix64;
use boardcore_engine::search::{analyse, Limits, Material, Searchable, Threading, SCALE};
use boardcore_engine::strands::Strands;
use boardcore_engine::Position;
use std::collections::HashMap;

/// The value for the side to move by walking every line (no pruning), each position valued
/// once (`known`, by its notation: exact, unlike a hash), since Cephalopod's lines are far too
/// many to walk one by one.
fn brute_force<P: Searchable>(position: &P, known: &mut HashMap<String, i32>) -> i32 {
    let key = position.to_notation();
    if let Some(&value) = known.get(&key) {
        return value;
    }
    let moves: Vec<P::Move> = position.legal_moves().collect();
    let value = if moves.is_empty() {
        position.final_margin()
    } else {
        moves.iter().map(|&mv| child_value(position, mv, known)).max().expect("a live position has a move")
    };
    known.insert(key, value);
    value
}

fn child_value<P: Searchable>(position: &P, mv: P::Move, known: &mut HashMap<String, i32>) -> i32 {
    let mut child = position.clone();
    child.play_unchecked(mv);
    let value = brute_force(&child, known);
    if child.to_move() == position.to_move() {
        value
    } else {
        -value
    }
}

/// A solve on one thread, or on two sharing the work as `threading` says.
fn solve_limits(threads: usize, threading: Threading) -> Limits {
    Limits { solve: true, threads, threading, table_bytes: 1 << 20, ..Limits::default() }
}

/// The ways a search can run (one thread, two by a root split, two and three by lazy SMP: one
/// helper, and helpers that share their own context), taken in turn by the sampled positions.
const SOLVES: [(usize, Threading); 4] =
    [(1, Threading::RootSplit), (2, Threading::RootSplit), (2, Threading::Lazy), (3, Threading::Lazy)];

/// The solver agrees with brute force on `position`: value, margin, optimal moves, and a line
/// of play whose every move keeps the value and that ends in a finished game with that margin.
fn check_solve<P: Searchable>(position: &P, (threads, threading): (usize, Threading)) {
    let known = &mut HashMap::new();
    let value = brute_force(position, known);
    let analysis = analyse(position, &Material, &solve_limits(threads, threading), Stop::never()).expect("solves");
    let at = position.to_notation();
    assert!(analysis.exact, "{at}: a solve is exact");
    assert_eq!(analysis.score, SCALE * value, "{at}: margin");
    let optimal: Vec<P::Move> =
        position.legal_moves().filter(|&mv| child_value(position, mv, known) == value).collect();
    let mut found = analysis.best_moves.clone();
    assert!(
        found.iter().all(|mv| optimal.contains(mv)) && found.len() == optimal.len(),
        "{at}: optimal moves {found:?} vs {optimal:?}"
    );
    found.dedup();
    assert_eq!(found.len(), optimal.len(), "{at}: each optimal move once");
    assert!(optimal.contains(&analysis.best), "{at}: the move chosen is optimal");
    let mut line = position.clone();
    let mut target = value;
    for &mv in &analysis.pv {
        assert!(line.is_legal(mv), "{at}: the line is legal");
        assert_eq!(child_value(&line, mv, known), target, "{at}: every move of the line keeps the value");
        let before = line.to_move();
        line.play_unchecked(mv);
        if line.to_move() != before {
            target = -target;
        }
    }
    assert!(line.is_over(), "{at}: the line plays to the end");
    assert_eq!(line.final_margin(), target, "{at}: and ends with the margin");
}

/// `count` positions reached by random play from `start`, the start included, all live.
fn positions_from<P: Searchable>(start: &P, count: usize, seed: u64) -> Vec<P> {
    let mut rng = SplitMix64::new(seed);
    let mut found = vec![start.clone()];
    while found.len() < count {
        let mut position = start.clone();
        let plies = rng.below(12);
        for _ in 0..plies {
            match position.sample_move(&mut rng) {
                Some(mv) => position.play_unchecked(mv),
                None => break,
            }
        }
        if !position.is_over() {
            found.push(position);
        }
    }
    found
}

/// `check_solve` on `count` positions sampled from each start (drawn with `seed`), each of
/// `SOLVES` in turn.
fn check_solves_from<P: Searchable>(starts: &[&str], count: usize, seed: u64) {
    for start in starts {
        let start = P::from_notation(start).unwrap();
        for (i, position) in positions_from(&start, count, seed).iter().enumerate() {
            check_solve(position, SOLVES[i % SOLVES.len()]);
        }
    }
}

#[test]
fn reversi_4x4_is_solved_as_brute_force_solves_it_from_every_sampled_position() {
    check_solves_from::<Reversi>(&["4 ..../.wb./.bw./.... b"], 40, 1);
}

#[test]
fn reversi_6x6_endgames_with_a_hole_are_solved_as_brute_force_solves_them() {
    let start = Reversi::from_notation("6 ....../....../..wb../..bw../#...../...... b").unwrap();
    let mut rng = SplitMix64::new(7);
    for _ in 0..6 {
        let mut position = start;
        // Play on to 8 empties or fewer: brute force stays quick.
        while position.to_notation().matches('.').count() > 8 {
            match position.sample_move(&mut rng) {
                Some(mv) => position.play_unchecked(mv),
                None => break,
            }
        }
        if !position.is_over() {
            check_solve(&position, SOLVES[0]);
        }
    }
}

#[test]
fn cephalopod_2x2_and_2x3_are_solved_as_brute_force_solves_them() {
    check_solves_from::<Cephalopod>(&["2x2 ../.. b", "2x3 .../... b"], 12, 2);
}

#[test]
fn rive_on_seven_cells_is_solved_as_brute_force_solves_it() {
    // By the dense memo (search/memo.rs), with and without the swap.
    check_solves_from::<Rive>(&["hex2 ../.../.. b", "hex2 ../.../.. b swap"], 12, 3);
}

/// The dense memo's index (search/memo.rs) names each position of a small board once: two
/// positions met in random hex3 games share an index only if they are the same position.
#[test]
fn rive_dense_keys_tell_positions_apart() {
    use boardcore_engine::search::DenseKey;
    let mut seen: HashMap<u64, String> = HashMap::new();
    let mut rng = SplitMix64::new(7);
    for _ in 0..200 {
        let mut position = Rive::from_notation("hex3 .../..../...../..../... b").unwrap();
        while !position.is_over() {
            let (index, states) = position.dense_key().expect("hex3 has a dense index");
            assert!(index < states && states == 2 * 3u64.pow(19));
            let notation = position.to_notation();
            assert_eq!(seen.entry(index).or_insert_with(|| notation.clone()), &notation);
            let mv = position.sample_move(&mut rng).unwrap();
            position.play_unchecked(mv);
        }
    }
    let single = Rive::from_notation("hex3 .../..../...../..../... b single").unwrap();
    assert_eq!(single.dense_key(), None, "the single-stone form has captures under way");
    assert_eq!(Rive::from_notation("hex4 ..../...../....../......./....../...../.... b").unwrap().dense_key(), None);
}

#[test]
fn a_small_strands_layout_is_solved_as_brute_force_solves_it() {
    for layout in ["up-to 12/212/22 b", "exact 12/212/22 b", "up-to 23/323/32 b", "up-to 12/232/21 b"] {
        let start = Strands::from_notation(layout).unwrap();
        for position in positions_from(&start, 10, 4) {
            check_solve(&position, SOLVES[0]);
        }
    }
}

#[test]
fn a_depth_limited_search_becomes_exact_when_the_end_is_within_its_reach() {
    let position = Cephalopod::from_notation("2x3 .../... b").unwrap();
    let limits = Limits { depth: Some(3), table_bytes: 1 << 20, ..Limits::default() };
    let shallow = analyse(&position, &Material, &limits, Stop::never()).unwrap();
    assert!(!shallow.exact && shallow.depth == 3, "three plies do not reach the end of 2x3");
    let deep = analyse(&position, &Material, &Limits { depth: None, ..limits }, Stop::never()).unwrap();
    assert!(deep.exact);
    assert_eq!(deep.score, SCALE * brute_force(&position, &mut HashMap::new()));
}

#[test]
fn a_node_limit_ends_the_search_with_a_legal_move() {
    let position =
        Reversi::from_notation("8 ......../......../......../...wb.../...bw.../......../......../........ b").unwrap();
    for nodes in [1, 100, 5_000] {
        for (threads, threading) in SOLVES {
            let limits = Limits { nodes: Some(nodes), threads, threading, table_bytes: 1 << 20, ..Limits::default() };
            let analysis = analyse(&position, &Material, &limits, Stop::never()).unwrap();
            assert!(position.is_legal(analysis.best) && !analysis.exact);
        }
    }
}

#[test]
fn a_search_cut_short_answers_a_line_that_starts_with_its_move() {
    // Every node limit cuts some iteration somewhere: after its first root move, after a later
    // move proved better (which then becomes the answer), or inside the aspiration re-search.
    let mut rng = SplitMix64::new(3);
    let mut found_by_a_cut_iteration = 0;
    for nodes in (200..40_000).step_by(97) {
        // A fresh midgame position for each limit: 10 to 19 random plies from the start.
        let mut position =
            Reversi::from_notation("8 ......../......../......../...wb.../...bw.../......../......../........ b")
                .unwrap();
        for _ in 0..10 + rng.below(10) {
            match position.sample_move(&mut rng) {
                Some(mv) if !position.is_over() => position.play_unchecked(mv),
                _ => break,
            }
        }
        if position.is_over() {
            continue;
        }
        let limits = Limits { nodes: Some(nodes), table_bytes: 1 << 20, ..Limits::default() };
        let analysis = analyse(&position, &Material, &limits, Stop::never()).unwrap();
        assert_eq!(analysis.pv.first(), Some(&analysis.best), "{nodes} nodes");
        assert_eq!(analysis.best_moves, vec![analysis.best]);
        let completed = analysis.iterations.last().expect("an iteration completes in 200 nodes");
        if completed.pv[0] != analysis.best {
            found_by_a_cut_iteration += 1;
        }
    }
    assert!(found_by_a_cut_iteration > 0, "some limit should cut an iteration after a better move");
}

#[test]
fn a_stop_requested_by_the_caller_is_an_interruption_not_an_answer() {
    // The caller's stop is looked at by the search's poll (every 25 ms): its third look stops.
    let position =
        Reversi::from_notation("8 ......../......../......../...wb.../...bw.../......../......../........ b").unwrap();
    for (threads, threading) in SOLVES {
        let limits = Limits { threads, threading, table_bytes: 1 << 20, ..Limits::default() };
        let result = analyse(&position, &Material, &limits, &Stop::at_look(3));
        assert_eq!(result.err(), Some(boardcore_engine::Error::Interrupted), "{threads} threads, {threading:?}");
    }
}

#[test]
fn a_finished_game_is_refused() {
    let finished = Cephalopod::from_notation("2x2 1b1b/1b1b w").unwrap();
    assert!(finished.is_over());
    let result = analyse(&finished, &Material, &Limits::default(), Stop::never());
    assert!(matches!(result, Err(boardcore_engine::Error::InvalidArgument(_))));
}
