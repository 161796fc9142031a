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

    /// The number of cells of the board (docs/actions.md, "Cells"): the places actions are at,
    /// numbered `0..num_cells()` in board order (Reversi: every square of the rectangle).
    fn num_cells(&self) -> usize;

    /// The name of a cell (`d3`).
    fn cell_name(&self, cell: usize) -> String;

    /// The cell a name names (case-insensitive, as moves), or a notation error.
    fn parse_cell(&self, name: &str) -> Result<usize>;

    /// `(row, col)` of a cell in the observation planes' grid.
    fn cell_point(&self, cell: usize) -> (usize, usize);

    /// The cell an action in range is at: where it places (or, for a Rive capture under way,
    /// removes) a piece, or covers a cell; `None` for actions at no cell (pass, swap, end).
    fn action_cell(&self, action: usize) -> Option<usize>;

    /// The actions at a cell, in increasing order, legal now or not: the inverse of
    /// `action_cell`. One action per cell, but in Cephalopod the 16 of its capture choices.
    fn cell_actions(&self, cell: usize) -> std::ops::Range<usize>;

    /// The cell at grid point `(row, col)`, if a cell is there.
    fn cell_at_point(&self, row: usize, col: usize) -> Option<usize> {
        (0..self.num_cells()).find(|&cell| self.cell_point(cell) == (row, col))
    }

    /// The state exactly as text (docs/actions.md, "Pickling"): what `from_state_text` reads back
    /// into an equal state. The position's notation, and for Strands the turn under way and the
    /// labels the state knows.
    fn state_text(&self) -> String {
        self.position().to_notation()
    }

    /// The state a `state_text` describes (a position's notation is one), validated as a
    /// position is: bad text is a notation error, never a panic.
    fn from_state_text(text: &str) -> Result<Self>
    where
        Self: Sized,
    {
        Ok(Self::from_position(Self::Position::from_notation(text)?))
    }

    /// This state as one of `start`'s variant (the same board and rules; for Strands, the same
    /// labels where both know them, and the state then knows what `start` knows), or an
    /// `InvalidArgument` saying how they differ.
    fn within(self, start: &Self) -> Result<Self>
    where
        Self: Sized;

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
    /// is played out by `playout::playout_interruptible` (its random moves, its fast code path).
    /// `Err(Interrupted)` soon after `stop` is requested (as often as the game's playouts look).
    fn play_out_interruptible(&self, rng: &mut SplitMix64, stop: &Stop) -> Result<f32> {
        let me = self.to_move();
        let mut state = self.clone();
        while state.turn_under_way() {
            let Some(action) = state.sample_action(rng) else { break };
            state.apply_action_unchecked(action);
        }
        let outcome = crate::playout::playout_interruptible(
            state.position(),
            rng,
            stop,
            #[inline(always)]
            |end| end.outcome(),
        )?;
        Ok(returns_of(outcome)[me as usize])
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

/// A step form's observation planes, from one list: `PLANES`, the planes' names in plane order
/// (what `Steps::PLANES` gives), and for each entry a `usize` constant, its plane's index. An
/// entry is one plane (`EMPTY = "empty"`) or a run of planes (`THEIRS = ["opponent_1", ...]`),
/// whose constant is the index of its first; each entry's index follows from the ones before,
/// so names and indices cannot drift apart.
macro_rules! planes {
    (@entry [$($names:literal),*] $at:expr;) => {
        /// The planes' names (`Steps::observation_planes`), in plane order.
        const PLANES: &[&str] = &[$($names),*];
    };
    (@entry [$($names:literal),*] $at:expr; $(#[$doc:meta])* $index:ident = $name:literal $(, $($rest:tt)*)?) => {
        $crate::steps::planes!(@entry [$($names),*] $at; $(#[$doc])* $index = [$name] $(, $($rest)*)?);
    };
    (@entry [$($names:literal),*] $at:expr; $(#[$doc:meta])* $index:ident = [$($name:literal),+ $(,)?] $(, $($rest:tt)*)?) => {
        $(#[$doc])*
        const $index: usize = $at;
        $crate::steps::planes!(@entry [$($names,)* $($name),+] $index + [$($name),+].len(); $($($rest)*)?);
    };
    ($($entries:tt)*) => {
        $crate::steps::planes!(@entry [] 0; $($entries)*);
    };
}
pub(crate) use planes;

/// The `Steps` methods of a step form in which every action is one move of the position it
/// holds (Reversi, Cephalopod, Rive's single-stone form), written once for the three inside
/// their `impl Steps`. The type keeps its position in a field `position`, maps an action to its
/// move with `move_of(&self, action)` and a move back with `action_of(&self, mv)`. The optional
/// argument names a method `fn(&self, action) -> Result<()>` that refuses an in-range action
/// before the position judges its move, so that the error speaks of the action (a cut square,
/// a capture towards the edge) rather than of the move it maps to.
macro_rules! one_move_per_action {
    ($($refuse:ident)?) => {
        fn position(&self) -> &Self::Position {
            &self.position
        }

        fn for_each_legal_action(&self, mut f: impl FnMut(usize)) {
            for mv in self.position.legal_moves() {
                f(self.action_of(mv));
            }
        }

        fn check_action(&self, action: usize) -> $crate::error::Result<()> {
            if action >= self.num_actions() {
                return Err($crate::steps::out_of_range(action, self.num_actions()));
            }
            $(self.$refuse(action)?;)?
            self.position.check_move(self.move_of(action))
        }

        fn apply_action_unchecked(&mut self, action: usize) {
            self.position.play_unchecked(self.move_of(action));
        }

        fn completed_move(&self, action: usize) -> Option<<Self::Position as $crate::game::Position>::Move> {
            Some(self.move_of(action))
        }
    };
}
pub(crate) use one_move_per_action;

/// The error for an action outside `0..num_actions`.
pub fn out_of_range(action: impl std::fmt::Display, num_actions: usize) -> Error {
    Error::illegal(format!(
        "action {action} is out of range: this game has {num_actions} actions (0 to {})",
        num_actions - 1
    ))
}

/// The most envs a `VectorEnv` holds.
pub const MAX_ENVS: usize = 1 << 16;

/// When a `VectorEnv` restarts an env whose game ended (docs/actions.md, "VectorEnv").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Autoreset {
    /// Within the step that ends the game: the step returns the new game's observation.
    #[default]
    SameStep,
    /// At the next step, which ignores the env's action and returns the new game's observation
    /// with reward 0; the step that ends the game returns its final observation.
    NextStep,
}

impl Autoreset {
    pub fn name(self) -> &'static str {
        match self {
            Autoreset::SameStep => "same-step",
            Autoreset::NextStep => "next-step",
        }
    }

    /// `same-step` or `next-step` (also Gymnasium's `SameStep`, `next_step`...: case, `-` and
    /// `_` are ignored).
    pub fn from_name(name: &str) -> Result<Autoreset> {
        let key: String = name.chars().filter(|c| !matches!(c, '-' | '_')).collect::<String>().to_ascii_lowercase();
        match key.as_str() {
            "samestep" => Ok(Autoreset::SameStep),
            "nextstep" => Ok(Autoreset::NextStep),
            _ => Err(Error::invalid(format!(
                "autoreset must be 'same-step' or 'next-step', got {:?}",
                crate::error::truncate(name)
            ))),
        }
    }
}

/// `n` copies of a game in step form, stepped together. A game that ends (or reaches
/// `max_steps` actions) restarts from the start state within the step (`SameStep`, the default)
/// or at the next step (`NextStep`).
pub struct VectorEnv<S: Steps> {
    start: S,
    envs: Vec<S>,
    /// Env `i` draws its random actions from its own stream (docs/actions.md).
    rngs: Vec<SplitMix64>,
    /// Actions each env's game has taken (for `max_steps`).
    steps: Vec<u32>,
    /// `NextStep`: the envs whose game ended at the last step, restarted by the next.
    pending: Vec<bool>,
    autoreset: Autoreset,
    /// Games are cut (truncated) after this many actions.
    max_steps: Option<u32>,
    /// The envs whose game was truncated at the last step.
    truncated: Vec<bool>,
    /// The final states of the games that ended (terminated or truncated) at the last step.
    finals: Vec<(usize, S)>,
    threads: usize,
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

/// A pool of `threads` threads, `None` for one (the envs are then stepped on the caller's).
fn pool_of(threads: usize) -> Option<rayon::ThreadPool> {
    (threads > 1).then(|| rayon::ThreadPoolBuilder::new().num_threads(threads).build().ok()).flatten()
}

/// Everything a `VectorEnv` is, as plain data (pickling): states as `Steps::state_text`, each
/// random stream as its SplitMix64 state. `VectorEnv::restore` checks it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VectorEnvSnapshot {
    pub start: String,
    pub envs: Vec<String>,
    pub rngs: Vec<u64>,
    pub steps: Vec<u32>,
    pub pending: Vec<bool>,
    pub autoreset: Autoreset,
    pub max_steps: Option<u32>,
    pub threads: usize,
}

/// Which envs a reset restarts, and from where.
pub struct ResetRequest<S> {
    /// `None`: every env; else one flag per env.
    pub envs: Option<Vec<bool>>,
    /// `None`: the start state; else one state per env restarted, in env order.
    pub positions: Option<Vec<S>>,
    /// Restarts the streams of the envs restarted, as a new `VectorEnv` with this seed has them.
    pub seed: Option<u64>,
}

impl<S> Default for ResetRequest<S> {
    fn default() -> Self {
        ResetRequest { envs: None, positions: None, seed: None }
    }
}

impl<S: Steps> Clone for VectorEnv<S> {
    /// An independent copy (its own pool of as many threads) that evolves as the original.
    fn clone(&self) -> Self {
        VectorEnv { pool: pool_of(self.threads), ..self.clone_without_pool() }
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
        Ok(VectorEnv {
            envs: vec![start.clone(); n],
            start,
            rngs,
            steps: vec![0; n],
            pending: vec![false; n],
            autoreset: Autoreset::SameStep,
            max_steps: None,
            truncated: vec![false; n],
            finals: Vec::new(),
            threads,
            pool: pool_of(threads),
        })
    }

    /// The same env restarting games `autoreset`.
    pub fn with_autoreset(mut self, autoreset: Autoreset) -> Self {
        self.autoreset = autoreset;
        self
    }

    /// The same env cutting games after `max_steps` actions (`None`: never; at least 1).
    pub fn with_max_steps(mut self, max_steps: Option<u32>) -> Result<Self> {
        if max_steps == Some(0) {
            return Err(Error::invalid("max_steps must be at least 1"));
        }
        self.max_steps = max_steps;
        Ok(self)
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

    pub fn autoreset(&self) -> Autoreset {
        self.autoreset
    }

    pub fn max_steps(&self) -> Option<u32> {
        self.max_steps
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The state every env starts from.
    pub fn start(&self) -> &S {
        &self.start
    }

    /// The current state of every env.
    pub fn states(&self) -> &[S] {
        &self.envs
    }

    /// `NextStep`: which envs the next step restarts (their game ended at the last step).
    pub fn pending(&self) -> &[bool] {
        &self.pending
    }

    /// Which envs' games were truncated (reached `max_steps`) at the last step.
    pub fn truncated(&self) -> &[bool] {
        &self.truncated
    }

    /// The final states of the games that ended at the last step (terminated or truncated), by
    /// env, in env order.
    pub fn finals(&self) -> &[(usize, S)] {
        &self.finals
    }

    /// Every env back at the start; writes their observations and masks. The random streams go
    /// on where they were.
    pub fn reset(&mut self, observations: &mut [f32], masks: &mut [bool]) -> Result<()> {
        self.reset_interruptible(observations, masks, Stop::never())
    }

    /// `reset`; on `Err(Interrupted)` (soon after `stop` is requested) no env has changed.
    pub fn reset_interruptible(&mut self, observations: &mut [f32], masks: &mut [bool], stop: &Stop) -> Result<()> {
        self.reset_envs(ResetRequest::default(), observations, masks, stop)
    }

    /// Restarts the envs `request` names (every env by default) from the start state or from the
    /// positions given, and, with a seed, their random streams; the other envs stay as they are.
    /// Then writes every env's observation and mask (an env waiting for its `NextStep` restart
    /// has an all-False mask). Positions are checked first (`Steps::within` the start's variant,
    /// not over): an error names the position and changes nothing, as `Err(Interrupted)` does.
    pub fn reset_envs(
        &mut self,
        request: ResetRequest<S>,
        observations: &mut [f32],
        masks: &mut [bool],
        stop: &Stop,
    ) -> Result<()> {
        let n = self.n();
        check_len("observations", observations.len(), n * self.start.observation_len())?;
        check_len("masks", masks.len(), n * self.num_actions())?;
        let chosen = match request.envs {
            None => vec![true; n],
            Some(flags) => {
                check_len("envs", flags.len(), n)?;
                flags
            }
        };
        let count = chosen.iter().filter(|&&c| c).count();
        let mut positions = match request.positions {
            None => None,
            Some(positions) => {
                check_len("positions", positions.len(), count)?;
                let mut checked = Vec::with_capacity(count);
                for (k, position) in positions.into_iter().enumerate() {
                    let position =
                        position.within(&self.start).map_err(|e| Error::invalid(format!("positions[{k}]: {e}")))?;
                    if position.outcome().is_some() {
                        return Err(Error::invalid(format!("positions[{k}]: the game is already over")));
                    }
                    checked.push(position);
                }
                Some(checked.into_iter())
            }
        };
        let mut next = self.clone_without_pool();
        for i in (0..n).filter(|&i| chosen[i]) {
            next.envs[i] = positions.as_mut().and_then(Iterator::next).unwrap_or_else(|| self.start.clone());
            next.steps[i] = 0;
            next.pending[i] = false;
            if let Some(seed) = request.seed {
                next.rngs[i] = crate::playout::playout_rng(seed, i as u64);
            }
        }
        next.truncated.fill(false);
        next.finals.clear();
        next.observe_all(observations, masks, self.pool.as_ref(), stop)?;
        let pool = self.pool.take();
        *self = VectorEnv { pool, ..next };
        Ok(())
    }

    /// Everything but the pool (`reset_envs` builds the new state apart, then moves it in).
    fn clone_without_pool(&self) -> Self {
        VectorEnv {
            start: self.start.clone(),
            envs: self.envs.clone(),
            rngs: self.rngs.clone(),
            steps: self.steps.clone(),
            pending: self.pending.clone(),
            autoreset: self.autoreset,
            max_steps: self.max_steps,
            truncated: self.truncated.clone(),
            finals: self.finals.clone(),
            threads: self.threads,
            pool: None,
        }
    }

    /// Writes every env's observation and mask (all False for an env waiting to restart).
    fn observe_all(
        &self,
        observations: &mut [f32],
        masks: &mut [bool],
        pool: Option<&rayon::ThreadPool>,
        stop: &Stop,
    ) -> Result<()> {
        let (observation_len, num_actions) = (self.start.observation_len(), self.num_actions());
        let rows: Vec<_> = self
            .envs
            .iter()
            .zip(&self.pending)
            .zip(observations.chunks_mut(observation_len).zip(masks.chunks_mut(num_actions)))
            .collect();
        run(pool, stop, rows, |((env, &pending), (observation, mask))| {
            env.observe_into(observation);
            if pending {
                mask.fill(false);
            } else {
                env.legal_actions_into(mask);
            }
        })?;
        Ok(())
    }

    /// The side to move in every env.
    pub fn to_move_into(&self, out: &mut [u8]) -> Result<()> {
        check_len("out", out.len(), self.n())?;
        out.iter_mut().zip(&self.envs).for_each(|(slot, env)| *slot = env.to_move() as u8);
        Ok(())
    }

    /// Applies `actions[i]` to env `i`. Every action is checked first: if one is illegal or out
    /// of range, the error names its env and nothing changes (an env waiting for its `NextStep`
    /// restart ignores its action, which is not checked). Then writes each env's reward (for
    /// the player who just acted: +1 win, -1 loss, 0 draw at the final step, else 0) and whether
    /// its game ended; a finished or truncated game restarts from the start state (`SameStep`:
    /// the observation, mask and side to move written for it are the new game's; `NextStep`:
    /// they are the final position's, with an all-False mask, and the next step restarts it).
    pub fn step(&mut self, actions: &[i64], out: StepOutputs<'_>) -> Result<()> {
        self.step_interruptible(actions, out, Stop::never())
    }

    /// `step`; on `Err(Interrupted)` (soon after `stop` is requested) no env has changed: the
    /// envs are stepped on copies that replace them only at the end.
    pub fn step_interruptible(&mut self, actions: &[i64], out: StepOutputs<'_>, stop: &Stop) -> Result<()> {
        self.step_envs_interruptible(actions, None, out, stop)
    }

    /// `step` for the envs `envs` selects (all when `None`): the others neither act nor change,
    /// and their actions are not read; their rows are written as they stand (reward 0, not
    /// terminated), so that an opponent can move in some envs while the agent waits in the
    /// rest (the Stable-Baselines3 adapter plays its opponent so).
    pub fn step_envs_interruptible(
        &mut self,
        actions: &[i64],
        envs: Option<&[bool]>,
        out: StepOutputs<'_>,
        stop: &Stop,
    ) -> Result<()> {
        let n = self.n();
        if let Some(envs) = envs {
            check_len("envs", envs.len(), n)?;
        }
        let selected = |i: usize| envs.is_none_or(|e| e[i]);
        let (observation_len, num_actions) = (self.start.observation_len(), self.num_actions());
        check_len("actions", actions.len(), n)?;
        check_len("observations", out.observations.len(), n * observation_len)?;
        check_len("masks", out.masks.len(), n * num_actions)?;
        check_len("rewards", out.rewards.len(), n)?;
        check_len("terminated", out.terminated.len(), n)?;
        check_len("to_move", out.to_move.len(), n)?;
        let items: Vec<_> = self.envs.iter().zip(&self.pending).zip(actions).enumerate().collect();
        let checked = run(self.pool.as_ref(), stop, items, |(i, ((env, &pending), &action))| {
            if !selected(i) {
                return Ok(Act::Wait);
            }
            if pending {
                return Ok(Act::Restart);
            }
            let index = usize::try_from(action)
                .ok()
                .filter(|&a| a < num_actions)
                .ok_or_else(|| out_of_range(action, num_actions))?;
            env.check_action(index).map(|()| Act::Apply(index))
        })?;
        let mut indices = Vec::with_capacity(n);
        for (i, result) in checked.into_iter().enumerate() {
            indices.push(result.map_err(|e| Error::illegal(format!("env {i}: {e}")))?);
        }
        let rules = Rules { start: &self.start, autoreset: self.autoreset, max_steps: self.max_steps };
        let items: Vec<_> = self
            .envs
            .iter()
            .zip(&self.steps)
            .zip(indices)
            .zip(out.rows(observation_len, num_actions))
            .zip(&self.pending)
            .map(|((((env, &steps), action), row), &pending)| (env, steps, action, row, pending))
            .collect();
        let stepped = run(self.pool.as_ref(), stop, items, |(env, steps, action, row, pending)| {
            step_one(&rules, env, steps, pending, action, row)
        })?;
        self.finals.clear();
        let slots = self.envs.iter_mut().zip(&mut self.steps).zip(&mut self.pending).zip(&mut self.truncated);
        for (i, ((((env, steps), pending), truncated), (state, after))) in slots.zip(stepped).enumerate() {
            (*steps, *pending, *truncated) = (after.steps, after.pending, after.truncated);
            match after.next {
                Next::Same => *env = state,
                Next::Start => {
                    *env = self.start.clone();
                    if after.ended {
                        self.finals.push((i, state));
                    }
                }
                Next::Wait => {
                    self.finals.push((i, state.clone()));
                    *env = state;
                }
            }
        }
        Ok(())
    }

    /// A uniformly random legal action for every env, each from its own stream (0 for an env
    /// waiting for its `NextStep` restart, which draws nothing).
    pub fn sample_actions(&mut self, out: &mut [i64]) -> Result<()> {
        self.sample_actions_interruptible(out, Stop::never())
    }

    /// `sample_actions`; on `Err(Interrupted)` no stream has moved.
    pub fn sample_actions_interruptible(&mut self, out: &mut [i64], stop: &Stop) -> Result<()> {
        check_len("out", out.len(), self.n())?;
        let items: Vec<_> = self.envs.iter().zip(&self.pending).zip(self.rngs.iter()).zip(out.iter_mut()).collect();
        // An env is never over unless waiting to restart, so there is always an action to draw.
        let rngs = run(self.pool.as_ref(), stop, items, |(((env, &pending), rng), slot)| {
            let mut rng = rng.clone();
            *slot = if pending { 0 } else { env.sample_action(&mut rng).map_or(-1, |a| a as i64) };
            rng
        })?;
        self.rngs = rngs;
        Ok(())
    }

    /// Everything the env is, for pickling (`restore` reads it back). The last step's
    /// `truncated` and `finals` are not part of it.
    pub fn snapshot(&self) -> VectorEnvSnapshot {
        VectorEnvSnapshot {
            start: self.start.state_text(),
            envs: self.envs.iter().map(Steps::state_text).collect(),
            rngs: self.rngs.iter().map(SplitMix64::state).collect(),
            steps: self.steps.clone(),
            pending: self.pending.clone(),
            autoreset: self.autoreset,
            max_steps: self.max_steps,
            threads: self.threads,
        }
    }

    /// The env a snapshot describes, checked as a new env and its resets are: the states read
    /// back (`Steps::from_state_text`) within the start's variant, an env over only while it
    /// waits for its `NextStep` restart, step counts below `max_steps`.
    pub fn restore(snapshot: VectorEnvSnapshot) -> Result<Self> {
        let VectorEnvSnapshot { start, envs, rngs, steps, pending, autoreset, max_steps, threads } = snapshot;
        let n = envs.len();
        let mut env = VectorEnv::new(S::from_state_text(&start)?, n, 0, threads)?
            .with_autoreset(autoreset)
            .with_max_steps(max_steps)?;
        check_len("rngs", rngs.len(), n)?;
        check_len("steps", steps.len(), n)?;
        check_len("pending", pending.len(), n)?;
        for (i, text) in envs.iter().enumerate() {
            let bad = |e: Error| Error::invalid(format!("env {i}: {e}"));
            let state = S::from_state_text(text).map_err(bad)?.within(&env.start).map_err(bad)?;
            if pending[i] && autoreset != Autoreset::NextStep {
                return Err(bad(Error::invalid("only next-step envs wait for a restart")));
            }
            if state.outcome().is_some() && !pending[i] {
                return Err(bad(Error::invalid("the game is over but not waiting for a restart")));
            }
            if max_steps.is_some_and(|m| steps[i] > m || (steps[i] == m && !pending[i])) {
                return Err(bad(Error::invalid(format!("{} steps reach max_steps", steps[i]))));
            }
            env.envs[i] = state;
        }
        env.rngs = rngs.into_iter().map(SplitMix64::new).collect();
        env.steps = steps;
        env.pending = pending;
        Ok(env)
    }
}

/// What one env's step needs besides the env.
struct Rules<'a, S> {
    start: &'a S,
    autoreset: Autoreset,
    max_steps: Option<u32>,
}

/// What becomes of an env after its step.
enum Next {
    /// It goes on in the state returned.
    Same,
    /// It restarts from the start state (the state returned is the final one if it ended).
    Start,
    /// `NextStep`: its game ended in the state returned, which it keeps until the next step.
    Wait,
}

/// What one env does in a step.
#[derive(Clone, Copy)]
enum Act {
    /// Applies this (checked) action.
    Apply(usize),
    /// `NextStep`: restarts, its game having ended at the last step.
    Restart,
    /// Not selected by the step: stays as it is.
    Wait,
}

/// One env's step, besides its state (kept small: the step's results move through it).
struct After {
    steps: u32,
    pending: bool,
    truncated: bool,
    /// The game ended (terminated or truncated) at this step.
    ended: bool,
    next: Next,
}

/// One env's step on a copy: restart a pending env, or apply, score, cut at `max_steps`;
/// then observe the state the env goes on from (the start after a same-step restart). Returns
/// the state after the action (the final one if the game ended) and what becomes of the env.
#[inline]
fn step_one<S: Steps>(
    rules: &Rules<'_, S>,
    env: &S,
    steps: u32,
    pending: bool,
    action: Act,
    row: EnvRow<'_>,
) -> (S, After) {
    let mut env = env.clone();
    let after = match action {
        Act::Wait => {
            *row.reward = 0.0;
            *row.terminated = false;
            After { steps, pending, truncated: false, ended: false, next: Next::Same }
        }
        // NextStep: the env ended at the last step, and restarts now.
        Act::Restart => {
            *row.reward = 0.0;
            *row.terminated = false;
            After { steps: 0, pending: false, truncated: false, ended: false, next: Next::Start }
        }
        Act::Apply(action) => {
            let mover = env.to_move();
            env.apply_action_unchecked(action);
            let steps = steps + 1;
            let outcome = env.outcome();
            *row.reward = returns_of(outcome)[mover as usize];
            *row.terminated = outcome.is_some();
            let truncated = outcome.is_none() && rules.max_steps.is_some_and(|m| steps >= m);
            let ended = outcome.is_some() || truncated;
            match (ended, rules.autoreset) {
                (false, _) => After { steps, pending: false, truncated, ended, next: Next::Same },
                (true, Autoreset::SameStep) => After { steps: 0, pending: false, truncated, ended, next: Next::Start },
                (true, Autoreset::NextStep) => After { steps, pending: true, truncated, ended, next: Next::Wait },
            }
        }
    };
    // One place observes, so that the game's observation code is inlined once.
    let goes_on_from = if matches!(after.next, Next::Start) { rules.start } else { &env };
    observe_row(goes_on_from, after.pending, row);
    (env, after)
}

/// Writes the side to move, observation and mask (all False for an env waiting to restart)
/// of the state an env goes on from.
#[inline]
fn observe_row<S: Steps>(env: &S, waiting: bool, row: EnvRow<'_>) {
    *row.to_move = env.to_move() as u8;
    env.observe_into(row.observation);
    if waiting {
        row.mask.fill(false);
    } else {
        env.legal_actions_into(row.mask);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn planes_index_each_entry_by_the_planes_before_it() {
        planes! {
            FIRST = "a",
            /// A run of three planes.
            RUN = ["b_1", "b_2", "b_3"],
            LAST = "c",
        }
        assert_eq!(PLANES, ["a", "b_1", "b_2", "b_3", "c"]);
        assert_eq!((FIRST, RUN, LAST), (0, 1, 4));
    }
}
