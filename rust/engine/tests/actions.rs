//! The step form (docs/actions.md) against the compound moves, for every game: completing one
//! turn in steps reaches exactly the positions of the legal moves (one step sequence per move for
//! Reversi, Cephalopod and Strands); masks, checks, errors and observations keep their contract;
//! VectorEnv steps, resets and samples as documented.

use boardcore_engine::cephalopod::{Cephalopod, CephalopodActions};
use boardcore_engine::hex::HexBoard;
use boardcore_engine::interrupt::Stop;
use boardcore_engine::reversi::{Reversi, ReversiActions, Shape, Variant};
use boardcore_engine::rive::{Rive, RiveActions};
use boardcore_engine::rng::SplitMix64;
use boardcore_engine::square::Coord;
use boardcore_engine::steps::{StepOutputs, Steps, VectorEnv, MAX_ENVS};
use boardcore_engine::strands::{named_layout, Cover, Strands, StrandsActions};
use boardcore_engine::{Error, Player, Position};
use std::collections::{BTreeSet, HashSet};

fn reversi(shape: Shape, holes: &[&str]) -> Reversi {
    let holes = holes.iter().map(|h| Coord::parse(h).unwrap()).collect();
    Variant::new(shape, holes, 0, Player::Black).unwrap().start()
}

fn rive(board: &str, swap: bool) -> Rive {
    Rive::new(HexBoard::named(board).unwrap(), swap, false).unwrap()
}

fn strands(rows: &[Vec<u8>], cover: Cover) -> Strands {
    Strands::new(rows, cover).unwrap()
}

fn reversi_variants() -> Vec<Reversi> {
    vec![
        reversi(Shape::Square(8), &[]),
        reversi(Shape::Square(6), &[]),
        reversi(Shape::Octagon, &[]),
        reversi(Shape::Square(8), &["b2", "g7", "a5"]),
        Variant::random(Shape::Square(10), 7, 2, Player::White).unwrap().start(),
    ]
}

fn cephalopod_variants() -> Vec<Cephalopod> {
    vec![Cephalopod::new(3, 3).unwrap(), Cephalopod::new(5, 5).unwrap(), Cephalopod::new(2, 4).unwrap()]
}

fn rive_variants() -> Vec<Rive> {
    vec![rive("hex3", false), rive("hex3", true)]
}

fn strands_variants() -> Vec<Strands> {
    let hex3 = Strands::random_layout(3, 1).unwrap();
    let hex4 = named_layout("hex4").unwrap();
    let mut all = Vec::new();
    for cover in [Cover::UpTo, Cover::Exact] {
        all.push(strands(&hex3, cover));
        all.push(strands(&hex4, cover));
    }
    all
}

/// Positions along `games` random games from `start` (compound moves).
fn positions_of_random_games<P: Position>(start: &P, games: u64, seed: u64) -> Vec<P> {
    let mut positions = Vec::new();
    for game in 0..games {
        let mut rng = SplitMix64::new(seed + game);
        let mut p = start.clone();
        positions.push(p.clone());
        while let Some(mv) = p.sample_move(&mut rng) {
            p.play_unchecked(mv);
            positions.push(p.clone());
        }
    }
    positions
}

/// Every way to finish the turn under way, one entry per sequence of legal actions (`done` says
/// when the turn is over).
fn turn_completions<S: Steps>(state: &S, done: &impl Fn(&S) -> bool) -> Vec<S> {
    let mut ends = Vec::new();
    for action in state.legal_actions() {
        let mut next = state.clone();
        next.apply_action(action).unwrap();
        if done(&next) {
            ends.push(next);
        } else {
            ends.extend(turn_completions(&next, done));
        }
    }
    ends
}

/// The positions of every turn's end, as notation, for the step state of `p`.
fn step_results<S: Steps>(p: &S::Position, done: &impl Fn(&S) -> bool) -> Vec<String> {
    turn_completions(&S::from_position(p.clone()), done).iter().map(|s| s.position().to_notation()).collect()
}

/// The positions after each legal compound move, seen through the step form.
fn compound_results<S: Steps>(p: &S::Position) -> Vec<String> {
    p.legal_moves()
        .map(|mv| {
            let mut child = p.clone();
            child.play_unchecked(mv);
            S::from_position(child).position().to_notation()
        })
        .collect()
}

/// Steps and compound moves reach the same positions; with `bijection`, each exactly once.
fn assert_turns_match<S: Steps>(positions: &[S::Position], bijection: bool, done: impl Fn(&S) -> bool) {
    for p in positions {
        let steps = step_results::<S>(p, &done);
        let compound = compound_results::<S>(p);
        let (step_set, compound_set): (BTreeSet<_>, BTreeSet<_>) = (steps.iter().collect(), compound.iter().collect());
        assert_eq!(step_set, compound_set, "{}", p.to_notation());
        if bijection {
            assert_eq!(steps.len(), step_set.len(), "two step sequences reach one position: {}", p.to_notation());
            assert_eq!(steps.len(), compound.len(), "{}", p.to_notation());
        }
    }
}

#[test]
fn reversi_steps_are_the_moves() {
    for start in reversi_variants() {
        assert_turns_match::<ReversiActions>(&positions_of_random_games(&start, 8, 1), true, |_| true);
    }
}

#[test]
fn cephalopod_steps_are_the_moves_one_to_one() {
    for start in cephalopod_variants() {
        assert_turns_match::<CephalopodActions>(&positions_of_random_games(&start, 10, 2), true, |_| true);
    }
}

/// Rive's removal orders transpose, so its turns are compared as sets, walked with memory.
#[test]
fn rive_steps_reach_the_compound_moves() {
    for start in rive_variants() {
        for p in positions_of_random_games(&start, 20, 3) {
            let mut reached = BTreeSet::new();
            let mut seen = HashSet::new();
            let mut stack = vec![RiveActions::from_position(p)];
            while let Some(state) = stack.pop() {
                for action in state.legal_actions() {
                    let mut next = state;
                    next.apply_action(action).unwrap();
                    if next.position().pending().is_none() {
                        reached.insert(next.position().to_notation());
                    } else if seen.insert(next.position().to_notation()) {
                        stack.push(next);
                    }
                }
            }
            let compound: BTreeSet<String> = compound_results::<RiveActions>(&p).into_iter().collect();
            assert_eq!(reached, compound, "{}", p.to_notation());
        }
    }
}

#[test]
fn strands_steps_are_the_moves_one_to_one() {
    for start in strands_variants() {
        let positions = positions_of_random_games(&start, 10, 4);
        assert_turns_match::<StrandsActions>(&positions, true, |s: &StrandsActions| s.covered() == 0);
    }
}

/// The mask is `is_legal_action`; an illegal or out-of-range action is an `IllegalMove` error
/// that changes nothing; the observation has its shape; sampling takes `below(count)`.
fn assert_contract<S: Steps + PartialEq + std::fmt::Debug>(state: &S) {
    let n = state.num_actions();
    let mut mask = vec![true; n];
    state.legal_actions_into(&mut mask);
    for action in 0..n + 3 {
        let legal = state.is_legal_action(action);
        assert_eq!(legal, mask.get(action) == Some(&true), "action {action} of {state:?}");
        if !legal {
            let mut copy = state.clone();
            assert!(matches!(copy.apply_action(action), Err(Error::IllegalMove(_))));
            assert_eq!(&copy, state);
        }
        if action < n {
            assert!(!state.action_name(action).is_empty());
        }
    }
    assert_eq!(mask.iter().any(|&m| m), state.outcome().is_none(), "{state:?}");
    let mut observation = vec![f32::NAN; state.observation_len()];
    state.observe_into(&mut observation);
    assert!(observation.iter().all(|x| (0.0..=1.0).contains(x)));
    let legal = state.legal_actions();
    if !legal.is_empty() {
        let mut rng = SplitMix64::new(legal.len() as u64);
        let k = rng.clone().below(legal.len() as u64) as usize;
        assert_eq!(state.sample_action(&mut rng), Some(legal[k]));
    }
}

/// Random games in step form, checking the contract at every step.
fn assert_contract_along_random_games<S: Steps + PartialEq + std::fmt::Debug>(start: S, games: u64) {
    for game in 0..games {
        let mut rng = SplitMix64::new(game);
        let mut state = start.clone();
        assert_contract(&state);
        while let Some(action) = state.sample_action(&mut rng) {
            state.apply_action(action).unwrap();
            assert_contract(&state);
        }
        assert!(state.outcome().is_some());
    }
}

#[test]
fn every_game_keeps_the_step_contract() {
    for p in reversi_variants() {
        assert_contract_along_random_games(ReversiActions::from_position(p), 3);
    }
    for p in cephalopod_variants() {
        assert_contract_along_random_games(CephalopodActions::from_position(p), 3);
    }
    for p in rive_variants() {
        assert_contract_along_random_games(RiveActions::from_position(p), 3);
    }
    for p in strands_variants() {
        assert_contract_along_random_games(StrandsActions::from_position(p), 3);
    }
}

fn observation<S: Steps>(state: &S) -> Vec<f32> {
    let mut out = vec![0.0; state.observation_len()];
    state.observe_into(&mut out);
    out
}

/// The sum of plane `plane` of an observation.
fn plane_sum<S: Steps>(state: &S, plane: usize) -> f32 {
    let [_, h, w] = state.observation_shape();
    observation(state)[plane * h * w..][..h * w].iter().sum()
}

#[test]
fn reversi_observations_are_from_the_movers_side() {
    let mut s = ReversiActions::from_position(reversi(Shape::Octagon, &[]));
    assert_eq!(s.observation_shape(), [4, 10, 10]);
    assert_eq!(s.num_actions(), 101);
    assert_eq!((plane_sum(&s, 0), plane_sum(&s, 1), plane_sum(&s, 2), plane_sum(&s, 3)), (2.0, 2.0, 84.0, 12.0));
    let d3 = s.legal_actions()[0];
    assert_eq!(s.action_name(d3), "e4");
    s.apply_action(d3).unwrap();
    // White to move: its one disc is plane 0, Black's four are plane 1.
    assert_eq!((plane_sum(&s, 0), plane_sum(&s, 1)), (1.0, 4.0));
    assert_eq!(s.action_name(100), "pass");
}

#[test]
fn cephalopod_actions_name_their_compass_directions() {
    let p = Cephalopod::from_notation("3x3 .1b./2w.3b/.1w. w").unwrap();
    let s = CephalopodActions::from_position(p);
    let centre = 4 * 16;
    // b1 north (1), a2 west (2), c2 east (3), b3 south (1).
    let north_south = centre + 0b0101;
    assert!(s.is_legal_action(north_south));
    assert_eq!(s.action_name(north_south), "b2xb1,b3");
    assert!(!s.is_legal_action(centre + 0b1111), "1+2+3+1 > 6");
    assert!(!s.is_legal_action(centre), "a capture is possible on b2");
    assert_eq!(s.action_name(0b1001), "a1xNW");
    assert!(matches!(s.check_action(0b1001), Err(Error::IllegalMove(m)) if m.contains("north")));
    // White to move: its dice are planes 6..12 only from Black's side.
    assert_eq!(plane_sum(&s, 1), 1.0, "White's 2 on a2");
    assert_eq!(plane_sum(&s, 0), 1.0, "White's 1 on b3");
    assert_eq!(plane_sum(&s, 6) + plane_sum(&s, 8), 2.0, "Black's 1 and 3");
    assert_eq!(plane_sum(&s, 12), 5.0);
}

#[test]
fn rive_observations_show_a_capture_under_way() {
    let mut s = RiveActions::from_position(rive("hex335", false));
    assert_eq!(s.observation_shape(), [6, 7, 5], "hex335 leans: its axial grid is 7 rows of 5");
    assert_eq!((s.num_actions(), plane_sum(&s, 3)), (30, 29.0));
    let mut rng = SplitMix64::new(8);
    while s.position().pending().is_none() {
        s.apply_action(s.sample_action(&mut rng).unwrap()).unwrap();
    }
    let pending = s.position().pending().unwrap();
    assert_eq!(plane_sum(&s, 4), 1.0);
    // The constant plane: stones still to remove over the number of cells, on every cell.
    assert!((plane_sum(&s, 5) - pending.remaining as f32).abs() < 1e-5);
    let placed = s.position().board().axial.points[pending.placed as usize];
    assert_eq!(observation(&s)[4 * 35 + placed], 1.0);
    assert!(s.legal_actions().iter().all(|&a| s.action_name(a).starts_with('x')));
    let mover = s.to_move();
    for _ in 0..pending.remaining {
        s.apply_action(s.sample_action(&mut rng).unwrap()).unwrap();
        assert_eq!(s.to_move(), mover, "the capturer places again");
    }
    assert_eq!(s.position().pending(), None);
    assert_eq!((plane_sum(&s, 4), plane_sum(&s, 5)), (0.0, 0.0));
}

#[test]
fn rive_swap_is_the_last_action() {
    let mut s = RiveActions::from_position(rive("hex3", true));
    s.apply_action(0).unwrap();
    assert!(s.legal_actions().contains(&19));
    assert_eq!(s.action_name(19), "swap");
    s.apply_action(19).unwrap();
    assert_eq!(s.to_move(), Player::Black);
}

#[test]
fn strands_turns_take_cells_in_board_order_and_end_as_documented() {
    let hex4 = named_layout("hex4").unwrap();
    for cover in [Cover::UpTo, Cover::Exact] {
        let mut s = StrandsActions::from_position(strands(&hex4, cover));
        let end = s.num_actions() - 1;
        // Black's opening: one 2, then White is to move.
        let first_two = s.legal_actions()[0];
        s.apply_action(first_two).unwrap();
        assert_eq!((s.to_move(), s.covered()), (Player::White, 0));
        assert!(!s.is_legal_action(end), "no turn under way");
        // White starts a turn on a 4 (a1): then only later 4s are legal, never an earlier cell.
        s.apply_action(0).unwrap();
        let legal = s.legal_actions();
        let labels: Vec<u8> =
            legal.iter().filter(|&&a| a != end).map(|&a| s.position().label(a as u8).unwrap()).collect();
        assert!(labels.iter().all(|&l| l == 4) && legal.iter().all(|&a| a > 0));
        assert_eq!(s.is_legal_action(end), cover == Cover::UpTo);
        assert_eq!(plane_sum(&s, 9), 1.0);
        assert_eq!(plane_sum(&s, 0), 1.0, "White's covered cell is its stone");
    }
}

#[test]
fn an_up_to_turn_ends_by_itself_when_no_cell_of_its_label_follows() {
    let hex4 = named_layout("hex4").unwrap();
    let mut s = StrandsActions::from_position(strands(&hex4, Cover::UpTo));
    s.apply_action(s.legal_actions()[0]).unwrap();
    let last_four = s.position().board().parse_cell("g4").unwrap() as usize;
    s.apply_action(last_four).unwrap();
    assert_eq!((s.covered(), s.to_move()), (0, Player::Black));
    // Under exact, the last 4 cannot start a turn of four.
    let mut s = StrandsActions::from_position(strands(&hex4, Cover::Exact));
    s.apply_action(s.legal_actions()[0]).unwrap();
    assert!(matches!(s.check_action(last_four), Err(Error::IllegalMove(m)) if m.contains("too few")));
}

/// What one step writes, in buffers of the right sizes.
#[derive(Debug, PartialEq)]
struct Written {
    observations: Vec<f32>,
    masks: Vec<bool>,
    rewards: Vec<f32>,
    terminated: Vec<bool>,
    to_move: Vec<u8>,
}

impl Written {
    fn new<S: Steps>(env: &VectorEnv<S>) -> Written {
        let n = env.n();
        Written {
            observations: vec![0.0; n * env.observation_shape().iter().product::<usize>()],
            masks: vec![false; n * env.num_actions()],
            rewards: vec![0.0; n],
            terminated: vec![false; n],
            to_move: vec![0; n],
        }
    }

    fn outputs(&mut self) -> StepOutputs<'_> {
        StepOutputs {
            observations: &mut self.observations,
            masks: &mut self.masks,
            rewards: &mut self.rewards,
            terminated: &mut self.terminated,
            to_move: &mut self.to_move,
        }
    }
}

/// Random actions for `steps` steps; returns everything written, step after step.
fn run_env<S: Steps>(start: S, n: usize, threads: usize, steps: usize) -> Vec<Written> {
    let mut env = VectorEnv::new(start, n, 9, threads).unwrap();
    let mut actions = vec![0i64; n];
    let mut history = Vec::new();
    for _ in 0..steps {
        let mut written = Written::new(&env);
        env.sample_actions(&mut actions).unwrap();
        env.step(&actions, written.outputs()).unwrap();
        history.push(written);
    }
    history
}

#[test]
fn vector_env_results_do_not_depend_on_the_thread_count() {
    let start = CephalopodActions::from_position(Cephalopod::new(3, 3).unwrap());
    assert_eq!(run_env(start, 13, 1, 40), run_env(start, 13, 3, 40));
    let start = StrandsActions::from_position(strands(&named_layout("hex4").unwrap(), Cover::Exact));
    assert_eq!(run_env(start, 7, 1, 60), run_env(start, 7, 2, 60));
}

#[test]
fn vector_env_scores_and_restarts_finished_games() {
    // 3x3 Cephalopod ends after at least 9 placements; 200 steps finish many games.
    let start = CephalopodActions::from_position(Cephalopod::new(3, 3).unwrap());
    let history = run_env(start, 5, 1, 200);
    let mut finished = 0;
    for step in &history {
        for i in 0..5 {
            if step.terminated[i] {
                finished += 1;
                assert!(step.rewards[i] == 1.0 || step.rewards[i] == -1.0, "3x3 has no draws");
                // Autoreset: the observation and mask are of the new, empty game.
                assert!(step.observations[i * 117 + 12 * 9..][..9].iter().all(|&x| x == 1.0));
                assert_eq!(step.masks[i * 144..][..144].iter().filter(|&&m| m).count(), 9);
                assert_eq!(step.to_move[i], 0);
            } else {
                assert_eq!(step.rewards[i], 0.0);
            }
        }
    }
    assert!(finished > 20, "{finished}");
}

#[test]
fn vector_env_checks_every_action_before_stepping() {
    let start = ReversiActions::from_position(reversi(Shape::Square(8), &[]));
    let mut env = VectorEnv::new(start, 3, 0, 1).unwrap();
    let mut written = Written::new(&env);
    let d3 = 2 * 8 + 3;
    for (bad, message) in [
        ([d3, 0, d3], "env 1: "),
        ([d3, d3, 65], "env 2: action 65 is out of range"),
        ([-1, d3, d3], "env 0: action -1"),
    ] {
        match env.step(&bad, written.outputs()) {
            Err(Error::IllegalMove(m)) => assert!(m.starts_with(message), "{m}"),
            other => panic!("{:?}", other.err()),
        }
        assert!(env.states().iter().all(|s| *s == start), "nothing changed");
    }
    written.rewards.pop();
    assert!(matches!(env.step(&[d3; 3], written.outputs()), Err(Error::InvalidArgument(_))));
}

#[test]
fn a_step_of_some_envs_leaves_the_others_as_they_were() {
    let start = CephalopodActions::from_position(Cephalopod::new(2, 2).unwrap());
    let mut env = VectorEnv::new(start, 3, 4, 1).unwrap();
    let mut written = Written::new(&env);
    let mut actions = vec![0i64; 3];
    for _ in 0..30 {
        let before = env.states().to_vec();
        env.sample_actions(&mut actions).unwrap();
        actions[1] = i64::MAX; // not read: env 1 waits
        env.step_envs_interruptible(&actions, Some(&[true, false, true]), written.outputs(), Stop::never()).unwrap();
        assert_eq!(env.states()[1], before[1], "the waiting env is as it was");
        assert_eq!((written.rewards[1], written.terminated[1]), (0.0, false));
        let waiting = &before[1];
        let mut row = vec![false; env.num_actions()];
        waiting.legal_actions_into(&mut row);
        assert_eq!(&written.masks[env.num_actions()..2 * env.num_actions()], &row[..]);
        assert!(env.states()[0] != before[0] || env.states()[0] == start, "env 0 moved or restarted");
    }
    let refused = env.step_envs_interruptible(&actions, Some(&[true, true]), written.outputs(), Stop::never());
    assert!(matches!(refused, Err(Error::InvalidArgument(_))), "a mask of the wrong length");
}

#[test]
fn vector_env_samples_env_i_from_its_documented_stream() {
    let start = RiveActions::from_position(rive("hex3", true));
    let mut env = VectorEnv::new(start, 4, 100, 1).unwrap();
    let mut actions = vec![0i64; 4];
    env.sample_actions(&mut actions).unwrap();
    for (i, &action) in actions.iter().enumerate() {
        let mut rng = SplitMix64::new(SplitMix64::new(100 + i as u64).next_u64());
        assert_eq!(start.sample_action(&mut rng), Some(action as usize));
    }
}

#[test]
fn vector_env_refuses_a_finished_start_and_bad_sizes() {
    let over = CephalopodActions::from_position(Cephalopod::from_notation("2x2 1b1w/1b1w b").unwrap());
    assert!(VectorEnv::new(over, 1, 0, 1).is_err());
    let start = CephalopodActions::from_position(Cephalopod::new(2, 2).unwrap());
    assert!(VectorEnv::new(start, 0, 0, 1).is_err());
    assert!(VectorEnv::new(start, MAX_ENVS + 1, 0, 1).is_err());
}

/// Every state along `games` random step-form games from `start` (turns under way included).
fn states_of_random_games<S: Steps>(start: &S, games: u64) -> Vec<S> {
    let mut all = Vec::new();
    for seed in 0..games {
        let (mut state, mut rng) = (start.clone(), SplitMix64::new(seed));
        all.push(state.clone());
        while let Some(action) = state.sample_action(&mut rng) {
            state.apply_action_unchecked(action);
            all.push(state.clone());
        }
    }
    all
}

fn assert_state_texts_round_trip<S: Steps + PartialEq + std::fmt::Debug>(start: S) {
    for state in states_of_random_games(&start, 4) {
        let text = state.state_text();
        let back = S::from_state_text(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(back, state, "{text}");
        assert_eq!(back.within(&start), Ok(state.clone()));
    }
}

#[test]
fn state_texts_read_back_every_state_exactly() {
    reversi_variants().into_iter().for_each(|p| assert_state_texts_round_trip(ReversiActions::from_position(p)));
    cephalopod_variants().into_iter().for_each(|p| assert_state_texts_round_trip(CephalopodActions::from_position(p)));
    rive_variants().into_iter().for_each(|p| assert_state_texts_round_trip(RiveActions::from_position(p)));
    strands_variants().into_iter().for_each(|p| assert_state_texts_round_trip(StrandsActions::from_position(p)));
}

#[test]
fn state_texts_include_turns_under_way() {
    let start = StrandsActions::from_position(strands(&named_layout("hex4").unwrap(), Cover::UpTo));
    let mid_turn = states_of_random_games(&start, 4).into_iter().filter(|s| s.turn_under_way()).count();
    assert!(mid_turn > 10, "{mid_turn}");
    let start = RiveActions::from_position(rive("hex3", false));
    assert!(states_of_random_games(&start, 20).iter().any(|s| s.state_text().contains("capture=")));
}

#[test]
fn bad_state_texts_are_errors() {
    let start = StrandsActions::from_position(strands(&named_layout("hex4").unwrap(), Cover::Exact));
    let text = start.state_text();
    for bad in
        ["", "x", &format!("{text} covering=a1,a1,zz"), &format!("{text} labels=7"), &format!("{text} covering=")]
    {
        assert!(StrandsActions::from_state_text(bad).is_err(), "{bad:?}");
    }
    assert!(ReversiActions::from_state_text("nonsense").is_err());
}

#[test]
fn within_refuses_other_variants() {
    let six = ReversiActions::from_position(reversi(Shape::Square(6), &[]));
    let eight = ReversiActions::from_position(reversi(Shape::Square(8), &[]));
    let holed = ReversiActions::from_position(reversi(Shape::Square(8), &["b2"]));
    assert!(matches!(six.within(&eight), Err(Error::InvalidArgument(_))));
    assert!(matches!(holed.within(&eight), Err(Error::InvalidArgument(_))));
    let (plain, swap) =
        (RiveActions::from_position(rive("hex3", false)), RiveActions::from_position(rive("hex3", true)));
    assert!(matches!(plain.within(&swap), Err(Error::InvalidArgument(_))));
    let hex4 = named_layout("hex4").unwrap();
    let (up_to, exact) = (strands(&hex4, Cover::UpTo), strands(&hex4, Cover::Exact));
    let (up_to, exact) = (StrandsActions::from_position(up_to), StrandsActions::from_position(exact));
    assert!(matches!(up_to.within(&exact), Err(Error::InvalidArgument(_))));
}

#[test]
fn cells_and_actions_are_inverse() {
    fn check<S: Steps>(state: S) {
        for action in 0..state.num_actions() {
            if let Some(cell) = state.action_cell(action) {
                assert!(state.cell_actions(cell).contains(&action));
                let (row, col) = state.cell_point(cell);
                assert_eq!(state.cell_at_point(row, col), Some(cell));
                assert_eq!(state.parse_cell(&state.cell_name(cell)), Ok(cell));
            }
        }
        for cell in 0..state.num_cells() {
            assert!(state.cell_actions(cell).all(|a| state.action_cell(a) == Some(cell)));
        }
    }
    check(ReversiActions::from_position(reversi(Shape::Octagon, &[])));
    check(CephalopodActions::from_position(Cephalopod::new(2, 4).unwrap()));
    check(RiveActions::from_position(rive("hex335", false)));
    check(StrandsActions::from_position(strands(&named_layout("hex4").unwrap(), Cover::UpTo)));
}

#[test]
fn a_restored_snapshot_evolves_as_the_original() {
    use boardcore_engine::steps::Autoreset;
    let start = StrandsActions::from_position(strands(&named_layout("hex4").unwrap(), Cover::UpTo));
    for autoreset in [Autoreset::SameStep, Autoreset::NextStep] {
        let mut env =
            VectorEnv::new(start, 5, 3, 1).unwrap().with_autoreset(autoreset).with_max_steps(Some(9)).unwrap();
        let mut actions = vec![0i64; 5];
        for _ in 0..13 {
            env.sample_actions(&mut actions).unwrap();
            env.step(&actions, Written::new(&env).outputs()).unwrap();
        }
        let mut copy = VectorEnv::<StrandsActions>::restore(env.snapshot()).unwrap();
        assert_eq!(copy.snapshot(), env.snapshot());
        for _ in 0..40 {
            let (mut mine, mut theirs) = (Written::new(&env), Written::new(&copy));
            env.sample_actions(&mut actions).unwrap();
            env.step(&actions, mine.outputs()).unwrap();
            copy.sample_actions(&mut actions).unwrap();
            copy.step(&actions, theirs.outputs()).unwrap();
            assert_eq!(mine, theirs);
            assert_eq!(env.truncated(), copy.truncated());
        }
        let mut bad = env.snapshot();
        bad.envs[2] = "nonsense".into();
        assert!(VectorEnv::<StrandsActions>::restore(bad).is_err());
    }
}
