//! Fixed integer action spaces ("step form") for every game.
//!
//! Reinforcement-learning code (OpenSpiel, PettingZoo) wants each decision to be one integer
//! from a fixed range and each state to be a tensor. A step state ([`Steps`]) is a game position
//! seen that way: Reversi and Cephalopod take one action per move, Rive one per placement or
//! removed stone (its single-stone form), Strands one per covered cell plus `end`.
//! docs/actions.md fixes every mapping.

use crate::error::{Error, Result};
use crate::game::{Outcome, Player, Position};
use crate::rng::SplitMix64;

/// A game state in step form. Each game writes only the mapping between actions and its moves,
/// and its observation planes; checking, sampling and returns are shared.
pub trait Steps: Clone + Send + Sync {
    /// The position a step state is built from and gives back.
    type Position: Position;

    /// The step state of `position`.
    fn from_position(position: Self::Position) -> Self;

    /// The position. A Strands turn under way is not a position: there it is the position at
    /// the start of the turn, and the cells covered so far are apart.
    fn position(&self) -> &Self::Position;

    /// The size of the action space; actions are `0..num_actions()`.
    fn num_actions(&self) -> usize;

    /// (planes, height, width) of an observation.
    fn observation_shape(&self) -> [usize; 3];

    /// Sets `mask[a]` to whether action `a` is legal now (`mask.len() == num_actions()`).
    fn legal_actions_into(&self, mask: &mut [bool]);

    /// `Ok` for a legal action, else `IllegalMove` saying why (also for an action out of range).
    fn check_action(&self, action: usize) -> Result<()>;

    /// Applies a legal action (anything else is a logic error, though never undefined behaviour).
    fn apply_action_unchecked(&mut self, action: usize);

    /// Writes the observation planes, row-major, from the perspective of the side to move
    /// (`out.len() == C * H * W`).
    fn observe_into(&self, out: &mut [f32]);

    /// A readable name of an action in range (`d3`, `pass`, `c3xb3,c2`, `xb2`, `end`...).
    fn action_name(&self, action: usize) -> String;

    fn to_move(&self) -> Player {
        self.position().to_move()
    }

    /// `Some` once the game is over.
    fn outcome(&self) -> Option<Outcome> {
        self.position().outcome()
    }

    fn observation_len(&self) -> usize {
        self.observation_shape().iter().product()
    }

    fn is_legal_action(&self, action: usize) -> bool {
        self.check_action(action).is_ok()
    }

    /// Applies a legal action, or returns `IllegalMove` and changes nothing.
    fn apply_action(&mut self, action: usize) -> Result<()> {
        self.check_action(action)?;
        self.apply_action_unchecked(action);
        Ok(())
    }

    /// The legal actions, in increasing order.
    fn legal_actions(&self) -> Vec<usize> {
        let mut mask = vec![false; self.num_actions()];
        self.legal_actions_into(&mut mask);
        (0..mask.len()).filter(|&a| mask[a]).collect()
    }

    /// A legal action drawn uniformly: `rng.below(count)`, then that entry of `legal_actions()`.
    /// `None` once the game is over.
    fn sample_action(&self, rng: &mut SplitMix64) -> Option<usize> {
        let legal = self.legal_actions();
        match legal.len() {
            0 => None,
            count => Some(legal[rng.below(count as u64) as usize]),
        }
    }

    /// (Black's, White's) return: +1 for a win, -1 for a loss, 0 for a draw or a game not over.
    fn returns(&self) -> [f32; 2] {
        returns_of(self.outcome())
    }
}

/// (Black's, White's) return of an outcome; (0, 0) while the game goes on.
pub fn returns_of(outcome: Option<Outcome>) -> [f32; 2] {
    match outcome {
        Some(Outcome::Winner(Player::Black)) => [1.0, -1.0],
        Some(Outcome::Winner(Player::White)) => [-1.0, 1.0],
        Some(Outcome::Draw) | None => [0.0, 0.0],
    }
}

/// The error for an action outside `0..num_actions`.
pub fn out_of_range(action: impl std::fmt::Display, num_actions: usize) -> Error {
    Error::illegal(format!(
        "action {action} is out of range: this game has {num_actions} actions (0 to {})",
        num_actions - 1
    ))
}
