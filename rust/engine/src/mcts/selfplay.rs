//! Self-play for training: many games at once, every decision made by a model-guided search
//! (`puct`) whose leaves are batched across all the games for one evaluator call, and the rows a
//! learner needs (observation, mask, search policy, who chose, the final result for them).
//!
//! Game `g` draws from `playout_rng(seed, g)`: the seed of each of its searches, and its action
//! choices. So the games depend on the seed and the settings (and, through the batches' virtual
//! losses, on the number of games), never on the number of threads.

use crate::error::Result;
use crate::game::{Outcome, Position};
use crate::interrupt::Stop;
use crate::puct::{self, Evaluator, Report};
use crate::rng::SplitMix64;
use crate::steps::{returns_of, Steps};

/// How to play.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// The search of every decision (its `temperature` is not used: see below).
    pub search: puct::Settings,
    pub games: usize,
    /// For the first `temperature_moves` decisions of a game (`None`: all), the action is drawn
    /// with probability proportional to `visits^(1/temperature)` (if `temperature > 0`); later
    /// ones take the most visited. With Gumbel the search's own choice is always taken (its
    /// Gumbel noise already explores).
    pub temperature: f32,
    pub temperature_moves: Option<u64>,
}

/// One game played.
#[derive(Debug, Clone, PartialEq)]
pub struct Played<M> {
    /// The position's moves, as a record writes them.
    pub moves: Vec<M>,
    pub outcome: Option<Outcome>,
}

/// The training rows (one per decision, grouped by game, in move order) and the games.
#[derive(Debug, Clone, PartialEq)]
pub struct Data<M> {
    pub observation_shape: [usize; 3],
    pub num_actions: usize,
    /// `rows * C * H * W`.
    pub observations: Vec<f32>,
    /// `rows * num_actions`.
    pub masks: Vec<bool>,
    /// `rows * num_actions`: the search policies.
    pub policies: Vec<f32>,
    /// Who chose (0 Black, 1 White).
    pub players: Vec<u8>,
    /// The game's final result for `players[row]`: 1, -1 or 0.
    pub outcomes: Vec<f32>,
    pub game_ids: Vec<i64>,
    /// The decision's index within its game.
    pub move_numbers: Vec<i64>,
    pub actions: Vec<i64>,
    pub games: Vec<Played<M>>,
}

impl<M> Default for Data<M> {
    fn default() -> Self {
        Data {
            observation_shape: [0; 3],
            num_actions: 0,
            observations: Vec::new(),
            masks: Vec::new(),
            policies: Vec::new(),
            players: Vec::new(),
            outcomes: Vec::new(),
            game_ids: Vec::new(),
            move_numbers: Vec::new(),
            actions: Vec::new(),
            games: Vec::new(),
        }
    }
}

/// A game under way.
struct Live<S: Steps> {
    state: S,
    rng: SplitMix64,
    decisions: u64,
    rows: Data<<S::Position as Position>::Move>,
    moves: Vec<<S::Position as Position>::Move>,
}

/// Plays `settings.games` games from `start`. `Err(Interrupted)` soon after `stop` is requested;
/// an evaluator's error ends self-play with that error.
pub fn selfplay<S: Steps>(
    start: &S,
    seed: u64,
    settings: &Settings,
    evaluator: &mut dyn Evaluator<S>,
    stop: &Stop,
) -> Result<Data<<S::Position as Position>::Move>> {
    puct::check(&settings.search)?;
    // Each game's share of a batch stays what it is with every game live: as games finish, the
    // batches shrink rather than the survivors' searches taking more leaves per call (under
    // virtual loss).
    let per_game = settings.search.batch_size.div_ceil(settings.games.max(1));
    // One pool for the whole run (every decision round searches again).
    let pool = puct::thread_pool(settings.search.threads);
    let mut live: Vec<Live<S>> = (0..settings.games as u64)
        .map(|g| Live {
            state: start.clone(),
            rng: crate::playout::playout_rng(seed, g),
            decisions: 0,
            rows: Data::default(),
            moves: Vec::new(),
        })
        .collect();
    let mut finished: Vec<Option<Live<S>>> = (0..settings.games).map(|_| None).collect();
    let mut ids: Vec<usize> = (0..settings.games).collect();
    while !live.is_empty() {
        let roots: Vec<S> = live.iter().map(|g| g.state.clone()).collect();
        let seeds: Vec<u64> = live.iter_mut().map(|g| g.rng.next_u64()).collect();
        let search = puct::Settings {
            temperature: 0.0,
            batch_size: (per_game * live.len()).min(settings.search.batch_size),
            ..settings.search
        };
        let reports = puct::search_many(roots, &seeds, &search, evaluator, pool.as_ref(), stop)?;
        for (game, report) in live.iter_mut().zip(reports) {
            let action = choose(game, &report, settings);
            record(game, &report, action)?;
        }
        // Finished games leave the batch (in one pass: there may be tens of thousands).
        let (mut still, mut still_ids) = (Vec::with_capacity(live.len()), Vec::with_capacity(ids.len()));
        for (game, id) in live.drain(..).zip(ids.drain(..)) {
            if game.state.outcome().is_some() {
                finished[id] = Some(game);
            } else {
                still.push(game);
                still_ids.push(id);
            }
        }
        (live, ids) = (still, still_ids);
    }
    let mut data =
        Data { observation_shape: start.observation_shape(), num_actions: start.num_actions(), ..Data::default() };
    // The games' rows are gathered into one set of arrays: room for all of it first.
    let rows = || finished.iter().flatten().map(|game| &game.rows);
    let observations = rows().map(|r| r.observations.len()).sum();
    crate::memory::try_grow(&mut data.observations, observations, "self-play's observations")?;
    crate::memory::try_grow(&mut data.masks, rows().map(|r| r.masks.len()).sum(), "self-play's action masks")?;
    crate::memory::try_grow(&mut data.policies, rows().map(|r| r.policies.len()).sum(), "self-play's policies")?;
    for (g, game) in finished.into_iter().enumerate() {
        let game = game.expect("every game finishes");
        let outcome = game.state.outcome();
        let returns = returns_of(outcome);
        let rows = game.rows;
        data.outcomes.extend(rows.players.iter().map(|&p| returns[p as usize]));
        data.observations.extend(rows.observations);
        data.masks.extend(rows.masks);
        data.policies.extend(rows.policies);
        data.players.extend(rows.players);
        data.game_ids.extend(std::iter::repeat_n(g as i64, rows.move_numbers.len()));
        data.move_numbers.extend(rows.move_numbers);
        data.actions.extend(rows.actions);
        data.games.push(Played { moves: game.moves, outcome });
    }
    Ok(data)
}

/// The action a game plays after its search.
fn choose<S: Steps>(game: &mut Live<S>, report: &Report, settings: &Settings) -> usize {
    let action = report.action.expect("a live game has an action");
    let exploring = settings.temperature > 0.0 && settings.temperature_moves.is_none_or(|n| game.decisions < n);
    // A search with no simulation (0 asked, or a tree already at its node budget) has no visits
    // to draw from: its action is the highest prior.
    let visited = report.visits.iter().any(|&v| v > 0);
    if settings.search.gumbel.is_some() || !exploring || !visited {
        action
    } else {
        puct::draw(&report.visits, settings.temperature, &mut game.rng)
    }
}

/// Writes the decision's row, then plays it; `TooLarge` (nothing written) if the rows cannot
/// grow.
fn record<S: Steps>(game: &mut Live<S>, report: &Report, action: usize) -> Result<()> {
    let rows = &mut game.rows;
    let (observation_len, num_actions) = (game.state.observation_len(), game.state.num_actions());
    crate::memory::try_grow(&mut rows.observations, observation_len, "self-play's observations")?;
    crate::memory::try_grow(&mut rows.masks, num_actions, "self-play's action masks")?;
    crate::memory::try_grow(&mut rows.policies, report.policy.len(), "self-play's policies")?;
    let start = rows.observations.len();
    rows.observations.resize(start + observation_len, 0.0);
    game.state.observe_into(&mut rows.observations[start..]);
    let start = rows.masks.len();
    rows.masks.resize(start + num_actions, false);
    game.state.legal_actions_into(&mut rows.masks[start..]);
    rows.policies.extend_from_slice(&report.policy);
    rows.players.push(game.state.to_move() as u8);
    rows.move_numbers.push(game.decisions as i64);
    rows.actions.push(action as i64);
    if let Some(mv) = game.state.completed_move(action) {
        game.moves.push(mv);
    }
    debug_assert!(game.state.is_legal_action(action), "self-play plays legal actions");
    game.state.apply_action_unchecked(action);
    game.decisions += 1;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Player;
    use crate::puct::Rollouts;
    use crate::reversi::{ReversiActions, Shape, Variant};

    fn reversi(size: u8) -> ReversiActions {
        ReversiActions::from_position(Variant::new(Shape::Square(size), Vec::new(), 0, Player::Black).unwrap().start())
    }

    fn play(games: usize, threads: usize) -> Data<crate::reversi::Move> {
        let search = puct::Settings { simulations: 20, batch_size: games, threads, ..puct::Settings::default() };
        let settings = Settings { search, games, temperature: 1.0, temperature_moves: Some(4) };
        selfplay(&reversi(4), 9, &settings, &mut Rollouts, Stop::never()).unwrap()
    }

    #[test]
    fn every_decision_is_a_row_and_the_games_replay_to_their_outcomes() {
        let data = play(6, 1);
        let rows = data.players.len();
        assert_eq!(data.observations.len(), rows * data.observation_shape.iter().product::<usize>());
        assert_eq!(data.masks.len(), rows * data.num_actions);
        assert_eq!(data.games.len(), 6);
        for (g, played) in data.games.iter().enumerate() {
            let mut state = reversi(4);
            let mut position = *state.position();
            let mine: Vec<usize> = (0..rows).filter(|&r| data.game_ids[r] == g as i64).collect();
            for (k, &r) in mine.iter().enumerate() {
                assert_eq!(data.move_numbers[r], k as i64);
                assert_eq!(data.players[r], state.to_move() as u8);
                let action = data.actions[r] as usize;
                assert!(data.masks[r * data.num_actions + action]);
                state.apply_action(action).unwrap();
            }
            for &mv in &played.moves {
                position.check_move(mv).unwrap();
                position.play_unchecked(mv);
            }
            assert_eq!(&position, state.position());
            assert_eq!(played.outcome, state.outcome());
            let returns = returns_of(played.outcome);
            assert!(mine.iter().all(|&r| data.outcomes[r] == returns[data.players[r] as usize]));
        }
    }

    #[test]
    fn self_play_without_simulations_plays_the_priors_legally() {
        for (simulations, max_nodes) in [(0, crate::mcts::DEFAULT_MAX_NODES), (50, 2)] {
            let search = puct::Settings { simulations, max_nodes, batch_size: 4, ..puct::Settings::default() };
            let settings = Settings { search, games: 4, temperature: 1.0, temperature_moves: None };
            let data = selfplay(&reversi(4), 3, &settings, &mut Rollouts, Stop::never()).unwrap();
            assert_eq!(data.games.len(), 4);
            assert!(data.actions.iter().enumerate().all(|(r, &a)| data.masks[r * data.num_actions + a as usize]));
        }
    }

    #[test]
    fn self_play_depends_on_the_seed_not_on_threads() {
        assert_eq!(play(4, 1), play(4, 2));
    }
}
