//! What every step form says about its observation planes (their names, which are the mover's
//! and the opponent's) and the observation from the other player's side; what a Strands turn
//! under way has covered.

use boardcore_engine::cephalopod::{Cephalopod, CephalopodActions};
use boardcore_engine::hex::HexBoard;
use boardcore_engine::reversi::{Reversi, ReversiActions};
use boardcore_engine::rive::{Rive, RiveActions};
use boardcore_engine::rng::SplitMix64;
use boardcore_engine::steps::Steps;
use boardcore_engine::strands::{named_layout, Cover, Strands, StrandsActions};
use boardcore_engine::{Player, Position};

const REVERSI_8: &str = "8 ......../......../......../...wb.../...bw.../......../......../........ b";

fn observe<S: Steps>(state: &S, player: Player) -> Vec<f32> {
    let mut out = vec![f32::NAN; state.observation_len()];
    state.observe_for_into(player, &mut out);
    out
}

/// Along random step sequences from `start`: the planes are named, the side to move sees
/// `observe_into`, the other side the same planes with the mover's and the opponent's swapped.
fn assert_views<S: Steps>(start: S, seed: u64) {
    let names = start.observation_planes();
    assert_eq!(names.len(), start.observation_shape()[0]);
    let [mover, opponent] = start.player_planes();
    assert_eq!(mover.len(), opponent.len());
    assert!(names[mover.clone()].iter().all(|n| n.starts_with("mover")));
    assert!(names[opponent.clone()].iter().all(|n| n.starts_with("opponent")));
    assert_eq!(names.iter().filter(|n| n.starts_with("mover") || n.starts_with("opponent")).count(), 2 * mover.len());
    let plane = start.observation_len() / names.len();
    let mut rng = SplitMix64::new(seed);
    let mut state = start;
    loop {
        let me = state.to_move();
        let mut own = vec![0.0; state.observation_len()];
        state.observe_into(&mut own);
        assert_eq!(observe(&state, me), own);
        let other = observe(&state, me.other());
        for p in 0..names.len() {
            let source = match p {
                p if mover.contains(&p) => opponent.start + (p - mover.start),
                p if opponent.contains(&p) => mover.start + (p - opponent.start),
                p => p,
            };
            assert_eq!(other[p * plane..(p + 1) * plane], own[source * plane..(source + 1) * plane], "plane {p}");
        }
        let Some(action) = state.sample_action(&mut rng) else { break };
        state.apply_action_unchecked(action);
    }
}

#[test]
fn every_step_form_names_its_planes_and_shows_either_side() {
    assert_views(ReversiActions::from_position(Reversi::from_notation(REVERSI_8).unwrap()), 1);
    assert_views(CephalopodActions::from_position(Cephalopod::from_notation("3x3 .../.../... b").unwrap()), 2);
    let board = HexBoard::named("hex3").unwrap();
    assert_views(RiveActions::from_position(Rive::new(board, true, false).unwrap()), 3);
    let layout = named_layout("hex4").unwrap();
    assert_views(StrandsActions::from_position(Strands::new(&layout, Cover::UpTo).unwrap()), 4);
}

#[test]
fn the_other_side_of_a_reversi_position_is_that_position_with_the_other_side_to_move() {
    let black = ReversiActions::from_position(Reversi::from_notation(REVERSI_8).unwrap());
    let white = ReversiActions::from_position(Reversi::from_notation(&REVERSI_8.replace(" b", " w")).unwrap());
    assert_eq!(observe(&black, Player::White), observe(&white, Player::White));
    assert_eq!(observe(&white, Player::Black), observe(&black, Player::Black));
}

#[test]
fn a_strands_turn_names_the_cells_it_covered_in_board_order() {
    let layout = named_layout("hex4").unwrap();
    let mut state = StrandsActions::from_position(Strands::new(&layout, Cover::UpTo).unwrap());
    assert!(state.turn_cells().is_empty());
    // Black's opening is one cell labelled 2, a turn of its own; then White covers cells of one
    // label one after another.
    let opening = state.legal_actions()[0];
    state.apply_action(opening).unwrap();
    assert!(state.turn_cells().is_empty());
    let mut covered = Vec::new();
    while let Some(&cell) = state.legal_actions().iter().find(|&&a| a < state.num_actions() - 1) {
        state.apply_action(cell).unwrap();
        if !state.turn_under_way() {
            assert!(state.turn_cells().is_empty());
            break;
        }
        covered.push(state.action_name(cell));
        assert_eq!(state.turn_cells(), covered);
    }
}
