"""Gymnasium environments for the four games (``pip install 'boardcore[gymnasium]'``).

    from boardcore.adapters.gymnasium import make, make_vector

    env = make("reversi", opponent="random", size=6)  # one agent (Black) against a fixed opponent
    obs, info = env.reset(seed=0)
    action = env.action_space.sample(mask=info["action_mask"].astype("int8"))  # Gymnasium's mask dtype
    obs, reward, terminated, truncated, info = env.step(action)

    envs = make_vector("rive", 64, board="hex3")  # a gymnasium.vector.VectorEnv, both players
    obs, infos = envs.reset(seed=0)
    obs, rewards, terminated, truncated, infos = envs.step(envs.sample_actions())

Both drive the games' step form (docs/actions.md): ``Discrete(num_actions)`` actions, ``float32``
observation planes from the side to move's view, the legal actions' mask in ``info["action_mask"]``.
How the vector environment maps onto the native ``boardcore.VectorEnv``, and its two autoreset
modes, is in docs/actions.md ("Gymnasium").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

import boardcore as bc
from boardcore.adapters import _render, new_game

__all__ = ["BoardcoreEnv", "BoardcoreVectorEnv", "make", "make_vector"]

Opponent = Callable[[Any], int]
GameName = Literal["reversi", "cephalopod", "rive", "strands"]


def _spaces(start: Any) -> tuple[spaces.Box, spaces.Discrete]:
    shape = tuple(start.observation_shape)
    # Every plane is 0/1 but Rive's last, a fraction of the board (docs/actions.md).
    return spaces.Box(0.0, 1.0, shape=shape, dtype=np.float32), spaces.Discrete(start.num_actions)


# ---------------------------------------------------------------------------------------------
# One agent against a fixed opponent


class BoardcoreEnv(gymnasium.Env):
    """One boardcore game as a single-agent ``gymnasium.Env`` (use ``make()``).

    The agent plays ``player`` (``bc.BLACK`` by default, ``bc.WHITE``; also 0 / 1, ``"black"`` /
    ``"white"``), the opponent the other side. ``step`` applies the agent's action, then the
    opponent's until the agent is to move or the game is over (a Rive capture or a Strands turn
    takes several actions in a row). The reward is the agent's result at the end (+1, -1, 0 for a
    draw), 0 before. An illegal action ends the episode with reward -1 and
    ``info["illegal_action"]``. Observations are from the agent's side; ``info["action_mask"]`` and
    ``action_masks()`` give the legal actions (all False once the episode is over).
    """

    # Render modes as Gymnasium defines them (boardcore.adapters._render, docs/ai.md).
    metadata = {"render_modes": list(_render.RENDER_MODES), "render_fps": 4}  # noqa: RUF012 (Gymnasium's attribute)

    def __init__(
        self,
        game: GameName = "reversi",
        opponent: str | Opponent = "random",
        player: int | str = bc.BLACK,
        render_mode: str | None = None,
        **variant: Any,
    ) -> None:
        player = {"black": bc.BLACK, "white": bc.WHITE}.get(player, player) if isinstance(player, str) else player
        _render.checked_render_mode(render_mode, "gymnasium")
        if player not in (bc.BLACK, bc.WHITE) or isinstance(player, (bool, str)):
            raise ValueError(f"player must be bc.BLACK (0, 'black') or bc.WHITE (1, 'white'), got {player!r}")
        self.render_mode = render_mode
        self.player = int(player)
        self._opponent = _opponent(opponent)
        self._start = new_game(game, variant).actions()
        self._state = self._start.copy()
        self._ended = False
        self.observation_space, self.action_space = _spaces(self._start)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        self._state = self._start.copy()
        self._ended = False
        self._play_opponent()
        self._ended = self._state.is_over()
        if self.render_mode == "human":
            self.render()
        return self._state.observation(self.player), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        if self._ended:
            raise RuntimeError("the episode is over: call reset()")
        action = int(action)
        if not (0 <= action < self._state.num_actions and self._state.action_mask()[action]):
            self._ended = True  # a forfeit: the position stays as it was
            info = {**self._info(), "illegal_action": True}
            return self._state.observation(self.player), -1.0, True, False, info
        self._state.apply_action(action)
        self._play_opponent()
        over = self._ended = self._state.is_over()
        reward = float(self._state.returns()[self.player]) if over else 0.0
        if self.render_mode == "human":
            self.render()
        return self._state.observation(self.player), reward, over, False, self._info()

    def action_masks(self) -> np.ndarray:
        """The legal actions' mask, ``bool (num_actions,)``, as sb3-contrib's maskable PPO asks."""
        if self._ended:
            return np.zeros(self._state.num_actions, dtype=bool)
        return self._state.action_mask()

    def render(self) -> str | np.ndarray | None:
        hint = "Choose one when making the environment: make(..., render_mode='ansi')."
        return _render.render(self._state, self.render_mode, hint)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "to_move": self._state.to_move}

    def _play_opponent(self) -> None:
        state = self._state
        while not state.is_over() and state.to_move != self.player:
            state.apply_action(int(self._opponent(state.copy(), self.np_random)))


def _opponent(opponent: str | Opponent) -> Callable[[Any, np.random.Generator], int]:
    """The opponent as ``f(state, rng) -> action``."""
    if callable(opponent):
        return lambda state, rng: opponent(state)
    if opponent == "random":
        return lambda state, rng: int(rng.choice(np.flatnonzero(state.action_mask())))
    if isinstance(opponent, str) and opponent.startswith("mcts:"):
        try:
            iterations = int(opponent[5:])
        except ValueError:
            iterations = 0
        if iterations < 1:
            raise ValueError(f"an MCTS opponent is 'mcts:N' with N >= 1 iterations, got {opponent!r}")

        def mcts(state: Any, rng: np.random.Generator) -> int:
            # Random rollouts over the step form, seeded from the environment's generator so that
            # a seeded reset replays the same games.
            seed = int(rng.integers(2**31))
            action = bc.mcts.search(state, iterations, seed=seed).action
            assert action is not None  # the opponent moves only in a live game
            return action

        return mcts
    raise ValueError(f"opponent must be 'random', 'mcts:N' or a callable f(state) -> action, got {opponent!r}")


def make(
    game: GameName = "reversi",
    opponent: str | Opponent = "random",
    player: int | str = bc.BLACK,
    render_mode: str | None = None,
    **variant: Any,
) -> BoardcoreEnv:
    """A single-agent environment: the agent plays ``player`` (Black by default) against
    ``opponent``: ``"random"`` (a uniformly random legal action), ``"mcts:N"`` (``bc.mcts.search``
    with N iterations of random rollouts over the step state) or a callable ``f(state) -> action``
    given a copy of the step state. ``variant`` are the game constructor's keyword arguments."""
    return BoardcoreEnv(game, opponent, player, render_mode, **variant)


# ---------------------------------------------------------------------------------------------
# Both players, many games at once


class BoardcoreVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games as a ``gymnasium.vector.VectorEnv`` (use ``make_vector()``).

    Each env plays both sides. ``rewards[i]`` is for the player who just acted (+1, -1, 0 at the
    step ending the game), ``infos["rewards_per_player"]`` the same as ``(n, 2)`` (Black's,
    White's); ``infos["action_mask"]`` and ``infos["to_move"]`` say what may be played and by
    whom. ``max_steps`` truncates long games. ``metadata["autoreset_mode"]``: ``NEXT_STEP``
    (Gymnasium's default) or ``SAME_STEP`` (the final observation in ``infos["final_obs"]``).
    SAME_STEP without ``max_steps`` runs on the native ``VectorEnv``; the others step one state per
    env in Python (docs/actions.md, "Gymnasium").
    """

    _states: list[Any]

    def __init__(
        self,
        game: GameName,
        num_envs: int,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        max_steps: int | None = None,
        threads: int = 1,
        **variant: Any,
    ) -> None:
        self.autoreset_mode = AutoresetMode(autoreset_mode)
        if self.autoreset_mode == AutoresetMode.DISABLED:
            raise ValueError("autoreset_mode must be NEXT_STEP or SAME_STEP (the games restart by themselves)")
        if max_steps is not None and (not isinstance(max_steps, int) or isinstance(max_steps, bool) or max_steps < 1):
            raise ValueError(f"max_steps must be None or an int >= 1, got {max_steps!r}")
        self.game_name = game
        self.variant = variant
        self.threads = threads
        self.max_steps = max_steps
        # The native env checks the game, num_envs and the variant; it is also the fast path.
        self._native = bc.VectorEnv(game, num_envs, seed=0, threads=threads, **variant)
        self._use_native = self.autoreset_mode == AutoresetMode.SAME_STEP and max_steps is None
        self._start = new_game(game, variant).actions()
        self.num_envs = num_envs
        self.metadata = {"autoreset_mode": self.autoreset_mode, "render_modes": []}
        self.single_observation_space, self.single_action_space = _spaces(self._start)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._reset_all()

    # -- the Gymnasium API

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        """Restarts every env. ``seed`` rewinds the random streams: ``sample_actions`` (and the
        native env's) draw the same actions again after the same seed."""
        super().reset(seed=seed)
        if seed is not None:
            self._native = bc.VectorEnv(self.game_name, self.num_envs, seed=seed, threads=self.threads, **self.variant)
        self._reset_all()
        return self._obs.copy(), self._infos(np.zeros((self.num_envs, 2), dtype=np.float32))

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(f"actions must be {self.num_envs} integers, got shape {actions.shape} {actions.dtype}")
        actors = self._to_move.astype(np.intp)
        if self._use_native:
            rewards, terminated, truncated, extra = self._step_native(actions)
        else:
            rewards, terminated, truncated, extra = self._step_states(actions)
        per_player = np.zeros((self.num_envs, 2), dtype=np.float32)
        rows = np.arange(self.num_envs)
        per_player[rows, actors] = rewards
        per_player[rows, 1 - actors] = -rewards
        infos = self._infos(per_player)
        infos.update(extra)
        # The native env returns new arrays every step; the step states' path fills its own.
        obs = self._obs if self._use_native else self._obs.copy()
        return obs, rewards, terminated, truncated, infos

    def sample_actions(self) -> np.ndarray:
        """A uniformly random legal action for every env (any action for an env about to restart)."""
        if self._use_native:
            return self._native.sample_actions()
        counts = self._masks.sum(axis=1)
        picks = (self.np_random.random(self.num_envs) * np.maximum(counts, 1)).astype(np.int64)
        ranks = np.cumsum(self._masks, axis=1) - 1
        chosen = np.argmax((ranks == picks[:, None]) & self._masks, axis=1)
        return chosen.astype(np.int64)

    def close_extras(self, **kwargs: Any) -> None:
        self._states = []

    # -- inside

    def _reset_all(self) -> None:
        n = self.num_envs
        self._steps = np.zeros(n, dtype=np.int64)
        self._pending = np.zeros(n, dtype=bool)
        if self._use_native:
            self._obs, self._masks = self._native.reset()
            self._to_move = np.full(n, self._start.to_move, dtype=np.uint8)
            self._history = np.zeros((n, 64), dtype=np.int64)  # each env's actions, for final_obs
        else:
            self._states = [self._start.copy() for _ in range(n)]
            shape = self.single_observation_space.shape
            assert shape is not None
            self._obs = np.empty((n, *shape), dtype=np.float32)
            self._masks = np.empty((n, self._start.num_actions), dtype=bool)
            self._to_move = np.empty(n, dtype=np.uint8)
            for i in range(n):
                self._observe(i)

    def _observe(self, i: int) -> None:
        state = self._states[i]
        self._obs[i] = state.observation()
        self._masks[i] = state.action_mask()
        self._to_move[i] = state.to_move

    def _infos(self, per_player: np.ndarray) -> dict[str, Any]:
        masks, to_move = self._masks, self._to_move
        if not self._use_native:  # the step states' path fills these arrays in place
            masks, to_move = masks.copy(), to_move.copy()
        return {"action_mask": masks, "to_move": to_move, "rewards_per_player": per_player}

    def _step_native(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict]:
        self._obs, self._masks, rewards, terminated, self._to_move = self._native.step(actions)
        # The native env restarts an ended game within the step and forgets its last position:
        # each env's actions since its start are kept to replay it for final_obs.
        if int(self._steps.max()) >= self._history.shape[1]:
            self._history = np.concatenate([self._history, np.zeros_like(self._history)], axis=1)
        self._history[np.arange(self.num_envs), self._steps] = actions
        self._steps += 1
        truncated = np.zeros(self.num_envs, dtype=bool)
        if not terminated.any():
            return rewards, terminated, truncated, {}
        final = np.zeros_like(self._obs)
        for i in np.flatnonzero(terminated):
            state = self._start.copy()
            for action in self._history[i, : self._steps[i]].tolist():
                state.apply_action(action)
            final[i] = state.observation()
        self._steps[terminated] = 0
        return rewards, terminated, truncated, {"final_obs": final, "_final_obs": terminated.copy()}

    def _step_states(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict]:
        n = self.num_envs
        live = ~self._pending
        # Checked first, like the native env: an illegal action changes no env.
        for env in np.flatnonzero(live):
            action = int(actions[env])
            if not (0 <= action < self._masks.shape[1] and self._masks[env, action]):
                raise bc.IllegalMoveError(f"env {env}: action {action} is not legal here")
        rewards = np.zeros(n, dtype=np.float32)
        terminated = np.zeros(n, dtype=bool)
        truncated = np.zeros(n, dtype=bool)
        same_step = self.autoreset_mode == AutoresetMode.SAME_STEP
        final = np.zeros_like(self._obs) if same_step else None
        for i in range(n):
            if self._pending[i]:  # NEXT_STEP: the step after the end restarts, ignoring the action
                self._states[i] = self._start.copy()
                self._steps[i] = 0
                self._pending[i] = False
                self._observe(i)
                continue
            state = self._states[i]
            actor = state.to_move
            state.apply_action(int(actions[i]))
            self._steps[i] += 1
            if state.is_over():
                terminated[i] = True
                rewards[i] = state.returns()[actor]
            elif self.max_steps is not None and self._steps[i] >= self.max_steps:
                truncated[i] = True
            if not (terminated[i] or truncated[i]):
                self._observe(i)
            elif same_step:
                assert final is not None
                final[i] = state.observation()
                self._states[i] = self._start.copy()
                self._steps[i] = 0
                self._observe(i)
            else:
                self._pending[i] = True
                self._observe(i)
        ended = terminated | truncated
        if final is None or not ended.any():
            return rewards, terminated, truncated, {}
        return rewards, terminated, truncated, {"final_obs": final, "_final_obs": ended}


def make_vector(
    game: GameName,
    num_envs: int,
    autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
    max_steps: int | None = None,
    threads: int = 1,
    **variant: Any,
) -> BoardcoreVectorEnv:
    """``num_envs`` games of ``game`` (``variant``: the constructor's keyword arguments) as a
    ``gymnasium.vector.VectorEnv``; ``autoreset_mode`` NEXT_STEP (default) or SAME_STEP,
    ``max_steps`` truncation, ``threads`` for the native env (see ``BoardcoreVectorEnv``)."""
    return BoardcoreVectorEnv(game, num_envs, autoreset_mode, max_steps, threads, **variant)
