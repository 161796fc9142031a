//! Fixed integer action spaces ("step form") for every game, and a vectorized environment.
//!
//! Reinforcement-learning code (OpenSpiel, PettingZoo) wants each decision to be one integer
//! from a fixed range and each state to be a tensor. A step state ([`Steps`]) is a game position
//! seen that way: Reversi and Cephalopod take one action per move, Rive one per placement or
//! removed stone (its single-stone form), Strands one per covered cell plus `end`.
//! docs/actions.md fixes every mapping. [`VectorEnv`] steps `n` copies of a game at once and is
//! written once, over the trait.

use crate::error::{Error, Result};
use crate::game::{Outcome, Player, Position};
use crate::interrupt::{every, Stop};
use crate::rng::SplitMix64;
use rayon::prelude::*;

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

    /// Calls `f` with every legal action now, in any order (search expands leaves with it,
    /// without a mask).
    fn for_each_legal_action(&self, f: impl FnMut(usize));

    /// Sets `mask[a]` to whether action `a` is legal now (`mask.len() == num_actions()`).
    fn legal_actions_into(&self, mask: &mut [bool]) {
        mask.fill(false);
        self.for_each_legal_action(|a| mask[a] = true);
    }

    /// `Ok` for a legal action, else `IllegalMove` saying why (also for an action out of range).
    fn check_action(&self, action: usize) -> Result<()>;

    /// Applies a legal action (anything else is a logic error, though never undefined behaviour).
    fn apply_action_unchecked(&mut self, action: usize);

    /// The position's move that legal `action` completes (what a record of the game writes), or
    /// `None` while the turn goes on after it (Strands).
    fn completed_move(&self, action: usize) -> Option<<Self::Position as Position>::Move>;

    /// Writes the observation planes, row-major, from the perspective of the side to move
    /// (`out.len() == C * H * W`).
    fn observe_into(&self, out: &mut [f32]);

    /// What each of the `C` observation planes holds, by name, in plane order (docs/actions.md):
    /// `mover...` and `opponent...` planes are the side to move's and the other side's.
    const PLANES: &'static [&'static str];

    /// `PLANES`, for callers holding a state.
    fn observation_planes(&self) -> &'static [&'static str] {
        Self::PLANES
    }

    /// The planes of the side to move and those of its opponent, in matching order: swapping
    /// them turns the observation into the other player's view. Read from the plane names, so
    /// that a game states which planes are whose once, in `PLANES`.
    fn player_planes(&self) -> [std::ops::Range<usize>; 2] {
        let span = |prefix: &str| {
            let first = Self::PLANES.iter().position(|name| name.starts_with(prefix)).unwrap_or(0);
            let len = Self::PLANES[first..].iter().take_while(|name| name.starts_with(prefix)).count();
            first..first + len
        };
        [span("mover"), span("opponent")]
    }

    /// The observation from `player`'s side: `observe_into` for the side to move, and for the
    /// other player the same planes with the mover's and the opponent's swapped (the planes of
    /// a turn under way, such as the cells a Strands turn covered, stay as they are).
    fn observe_for_into(&self, player: Player, out: &mut [f32]) {
        self.observe_into(out);
        if player != self.to_move() {
            let [_, height, width] = self.observation_shape();
            let [mover, opponent] = self.player_planes();
            debug_assert!(mover.end <= opponent.start && mover.len() == opponent.len());
            let plane = height * width;
            let (low, high) = out.split_at_mut(opponent.start * plane);
            low[mover.start * plane..mover.end * plane].swap_with_slice(&mut high[..opponent.len() * plane]);
        }
    }

    /// A readable name of an action in range (`d3`, `pass`, `c3xb3,c2`, `xb2`, `end`...).
    fn action_name(&self, action: usize) -> String;

    /// The variant's board symmetries (docs/actions.md, "Symmetries"): of the maps of a square
    /// (8, or the 4 that keep a rectangle's shape) or of a hexagon (12), those that send the
    /// board onto itself with what the rules look at (Reversi's holes and cut squares, Strands'
    /// labels), the identity first.
    fn symmetries(&self) -> Vec<Symmetry>;

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
        // Straight from the mask: VectorEnv draws one action per env per step, and listing the
        // legal actions would be a second allocation each time.
        let mut mask = vec![false; self.num_actions()];
        self.legal_actions_into(&mut mask);
        let count = mask.iter().filter(|&&legal| legal).count();
        if count == 0 {
            return None;
        }
        let k = rng.below(count as u64) as usize;
        mask.iter().enumerate().filter(|&(_, &legal)| legal).nth(k).map(|(action, _)| action)
    }

    /// Whether a turn is under way: actions of the side to move have been taken that do not yet
    /// make a move of the position (Strands' cells before its turn ends). `position()` is then
    /// the position at the start of the turn.
    fn turn_under_way(&self) -> bool {
        false
    }

    /// The names of the cells a turn under way has covered so far, in board order (Strands);
    /// empty when no turn is under way.
    fn turn_cells(&self) -> Vec<String> {
        Vec::new()
    }

    /// The result of one uniformly random game from here for the side to move here (1 a win,
    /// -1 a loss, 0 a draw): a turn under way is finished by random actions, then the position
    /// is played out by `playout::playout` (its random moves, its fast code path).
    fn play_out(&self, rng: &mut SplitMix64) -> f32 {
        let me = self.to_move();
        let mut state = self.clone();
        while state.turn_under_way() {
            let Some(action) = state.sample_action(rng) else { break };
            state.apply_action_unchecked(action);
        }
        let outcome = crate::playout::playout(
            state.position(),
            rng,
            #[inline(always)]
            |end| end.outcome(),
        );
        returns_of(outcome)[me as usize]
    }

    /// (Black's, White's) return: +1 for a win, -1 for a loss, 0 for a draw or a game not over.
    fn returns(&self) -> [f32; 2] {
        returns_of(self.outcome())
    }
}

/// A board symmetry as two gather maps (docs/actions.md, "Symmetries"): the image of a state
/// has at flat index `i` of its observation what the state has at `observation[i]`, and its
/// action `a` is the state's action `action[a]` (masks and policies are gathered the same way).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symmetry {
    /// Over the flattened `C * H * W` observation.
    pub observation: Vec<u32>,
    /// Over `0..num_actions`.
    pub action: Vec<u32>,
}

impl Symmetry {
    /// From where the symmetry sends each grid point (`points`, the same on every one of the
    /// `planes` planes) and each action (`actions`): gathering inverts these images.
    pub fn from_images(planes: usize, points: &[usize], actions: &[usize]) -> Symmetry {
        let cells = points.len();
        let mut observation = vec![0; planes * cells];
        for plane in 0..planes {
            for (point, &image) in points.iter().enumerate() {
                observation[plane * cells + image] = (plane * cells + point) as u32;
            }
        }
        let mut action = vec![0; actions.len()];
        for (a, &image) in actions.iter().enumerate() {
            action[image] = a as u32;
        }
        Symmetry { observation, action }
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

/// The most envs a `VectorEnv` holds.
pub const MAX_ENVS: usize = 1 << 16;

/// `n` copies of a game in step form, stepped together. Finished games restart at once from the
/// start state (same-step autoreset: `step` returns the observation and mask of the new game).
pub struct VectorEnv<S: Steps> {
    start: S,
    envs: Vec<S>,
    /// Env `i` draws its random actions from its own stream (docs/actions.md).
    rngs: Vec<SplitMix64>,
    /// `None` for one thread.
    pool: Option<rayon::ThreadPool>,
}

/// Where `step` writes: one row per env, in env order.
pub struct StepOutputs<'a> {
    /// `n * C * H * W` floats.
    pub observations: &'a mut [f32],
    /// `n * num_actions` flags.
    pub masks: &'a mut [bool],
    /// The reward of the player who just acted.
    pub rewards: &'a mut [f32],
    pub terminated: &'a mut [bool],
    /// The side to move next (in the new game after an autoreset).
    pub to_move: &'a mut [u8],
}

/// One env's rows of `StepOutputs`.
struct EnvRow<'a> {
    observation: &'a mut [f32],
    mask: &'a mut [bool],
    reward: &'a mut f32,
    terminated: &'a mut bool,
    to_move: &'a mut u8,
}

impl<'a> StepOutputs<'a> {
    fn rows(self, observation_len: usize, num_actions: usize) -> Vec<EnvRow<'a>> {
        let StepOutputs { observations, masks, rewards, terminated, to_move } = self;
        observations
            .chunks_mut(observation_len)
            .zip(masks.chunks_mut(num_actions))
            .zip(rewards.iter_mut().zip(terminated.iter_mut()).zip(to_move.iter_mut()))
            .map(|((observation, mask), ((reward, terminated), to_move))| EnvRow {
                observation,
                mask,
                reward,
                terminated,
                to_move,
            })
            .collect()
    }
}

/// An `InvalidArgument` unless a buffer has the expected length.
fn check_len(name: &str, actual: usize, expected: usize) -> Result<()> {
    if actual == expected {
        Ok(())
    } else {
        Err(Error::invalid(format!("{name} must hold {expected} values, got {actual}")))
    }
}

/// Applies `f` to every item, on the pool when there is one. Results keep the items' order, and
/// every item owns its env and its generator, so nothing depends on the number of threads.
/// `Err(Interrupted)` soon after `stop` is requested (items are checked in turn, every 64th
/// looks at the stop).
fn run<T: Send, R: Send>(
    pool: Option<&rayon::ThreadPool>,
    stop: &Stop,
    items: Vec<T>,
    f: impl Fn(T) -> R + Sync + Send,
) -> Result<Vec<R>> {
    let one = |(i, item): (usize, T)| {
        if every(i as u64, 64) {
            stop.check()?;
        }
        Ok(f(item))
    };
    match pool {
        None => items.into_iter().enumerate().map(one).collect(),
        Some(pool) => stop.install(pool, || items.into_par_iter().enumerate().map(one).collect())?,
    }
}

impl<S: Steps> VectorEnv<S> {
    /// `n` copies of `start` (1 to `MAX_ENVS`); env `i` samples from
    /// `SplitMix64(SplitMix64(seed + i).next_u64())`; `threads > 1` steps the envs on a pool.
    pub fn new(start: S, n: usize, seed: u64, threads: usize) -> Result<Self> {
        if !(1..=MAX_ENVS).contains(&n) {
            return Err(Error::invalid(format!("n must be from 1 to {}, got {n}", MAX_ENVS)));
        }
        if start.outcome().is_some() {
            return Err(Error::invalid("the start position is already over"));
        }
        let rngs = (0..n as u64).map(|i| crate::playout::playout_rng(seed, i)).collect();
        // Without a pool the envs are simply stepped on the calling thread.
        let pool = (threads > 1).then(|| rayon::ThreadPoolBuilder::new().num_threads(threads).build().ok()).flatten();
        Ok(VectorEnv { envs: vec![start.clone(); n], start, rngs, pool })
    }

    pub fn n(&self) -> usize {
        self.envs.len()
    }

    pub fn num_actions(&self) -> usize {
        self.start.num_actions()
    }

    pub fn observation_shape(&self) -> [usize; 3] {
        self.start.observation_shape()
    }

    /// The current state of every env.
    pub fn states(&self) -> &[S] {
        &self.envs
    }

    /// Every env back at the start; writes their observations and masks. The random streams go
    /// on where they were.
    pub fn reset(&mut self, observations: &mut [f32], masks: &mut [bool]) -> Result<()> {
        self.reset_interruptible(observations, masks, &Stop::new())
    }

    /// `reset`; on `Err(Interrupted)` (soon after `stop` is requested) no env has changed.
    pub fn reset_interruptible(&mut self, observations: &mut [f32], masks: &mut [bool], stop: &Stop) -> Result<()> {
        let (observation_len, num_actions) = (self.start.observation_len(), self.num_actions());
        check_len("observations", observations.len(), self.n() * observation_len)?;
        check_len("masks", masks.len(), self.n() * num_actions)?;
        // Every env is the start: observe it once and copy its rows.
        let (mut observation, mut mask) = (vec![0.0; observation_len], vec![false; num_actions]);
        self.start.observe_into(&mut observation);
        self.start.legal_actions_into(&mut mask);
        let rows: Vec<_> = observations.chunks_mut(observation_len).zip(masks.chunks_mut(num_actions)).collect();
        run(self.pool.as_ref(), stop, rows, |(observation_row, mask_row)| {
            observation_row.copy_from_slice(&observation);
            mask_row.copy_from_slice(&mask);
        })?;
        self.envs.fill(self.start.clone());
        Ok(())
    }

    /// Applies `actions[i]` to env `i`. Every action is checked first: if one is illegal or out
    /// of range, the error names its env and nothing changes. Then writes each env's reward (for
    /// the player who just acted: +1 win, -1 loss, 0 draw at the final step, else 0) and whether
    /// its game ended; a finished game restarts from the start state, and the observation, mask
    /// and side to move written for it are those of the new game.
    pub fn step(&mut self, actions: &[i64], out: StepOutputs<'_>) -> Result<()> {
        self.step_interruptible(actions, out, &Stop::new())
    }

    /// `step`; on `Err(Interrupted)` (soon after `stop` is requested) no env has changed: the
    /// envs are stepped on copies that replace them only at the end.
    pub fn step_interruptible(&mut self, actions: &[i64], out: StepOutputs<'_>, stop: &Stop) -> Result<()> {
        let n = self.n();
        let (observation_len, num_actions) = (self.start.observation_len(), self.num_actions());
        check_len("actions", actions.len(), n)?;
        check_len("observations", out.observations.len(), n * observation_len)?;
        check_len("masks", out.masks.len(), n * num_actions)?;
        check_len("rewards", out.rewards.len(), n)?;
        check_len("terminated", out.terminated.len(), n)?;
        check_len("to_move", out.to_move.len(), n)?;
        let checked = run(self.pool.as_ref(), stop, self.envs.iter().zip(actions).collect(), |(env, &action)| {
            let index = usize::try_from(action)
                .ok()
                .filter(|&a| a < num_actions)
                .ok_or_else(|| out_of_range(action, num_actions))?;
            env.check_action(index).map(|()| index)
        })?;
        let mut indices = Vec::with_capacity(n);
        for (i, result) in checked.into_iter().enumerate() {
            indices.push(result.map_err(|e| Error::illegal(format!("env {i}: {e}")))?);
        }
        let start = &self.start;
        let items: Vec<_> = self.envs.iter().zip(indices).zip(out.rows(observation_len, num_actions)).collect();
        let stepped = run(self.pool.as_ref(), stop, items, |((env, action), row)| step_one(env, start, action, row))?;
        self.envs = stepped;
        Ok(())
    }

    /// A uniformly random legal action for every env, each from its own stream.
    pub fn sample_actions(&mut self, out: &mut [i64]) -> Result<()> {
        self.sample_actions_interruptible(out, &Stop::new())
    }

    /// `sample_actions`; on `Err(Interrupted)` no stream has moved.
    pub fn sample_actions_interruptible(&mut self, out: &mut [i64], stop: &Stop) -> Result<()> {
        check_len("out", out.len(), self.n())?;
        let items: Vec<_> = self.envs.iter().zip(self.rngs.iter()).zip(out.iter_mut()).collect();
        // Envs are never over (they restart at once), so there is always an action to draw.
        let rngs = run(self.pool.as_ref(), stop, items, |((env, rng), slot)| {
            let mut rng = rng.clone();
            *slot = env.sample_action(&mut rng).map_or(-1, |a| a as i64);
            rng
        })?;
        self.rngs = rngs;
        Ok(())
    }
}

/// One env's step on a copy: apply, score, restart a finished game, then observe.
fn step_one<S: Steps>(env: &S, start: &S, action: usize, row: EnvRow<'_>) -> S {
    let mut env = env.clone();
    let mover = env.to_move();
    env.apply_action_unchecked(action);
    let outcome = env.outcome();
    *row.reward = returns_of(outcome)[mover as usize];
    *row.terminated = outcome.is_some();
    if outcome.is_some() {
        env = start.clone();
    }
    *row.to_move = env.to_move() as u8;
    env.observe_into(row.observation);
    env.legal_actions_into(row.mask);
    env
}
