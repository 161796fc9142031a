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

import numpy as np

import boardcore as bc
from boardcore._games import GAMES
from boardcore.adapters import game_name, missing_extra, new_steps

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode
    from gymnasium.vector.utils import batch_space

    from boardcore.adapters import _render  # Gymnasium's too (its logger)
except ImportError as missing:
    raise missing_extra(__name__, "Gymnasium 1.1 or later", "gymnasium", missing) from missing

__all__ = ["MAX_EPISODE_STEPS", "REGISTERED", "BoardcoreEnv", "BoardcoreVectorEnv", "make", "make_vector"]

Opponent = Callable[[Any], int]
GameName = Literal["reversi", "cephalopod", "rive", "strands"]
IllegalAction = Literal["terminate", "refuse"]


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
    draw), 0 before. An illegal action gets ``illegal_reward`` (default -1) and
    ``info["illegal_action"]``; with ``illegal_action="terminate"`` (the default) it ends the
    episode, with ``"refuse"`` the position stays as it was and the agent moves again (so an agent
    without masks can learn which actions are legal; the registered environments' time limit
    bounds an episode that refuses forever). Observations are from the agent's side;
    ``info["action_mask"]`` and ``action_masks()`` give the legal actions (all False once the
    episode is over).
    """

    # Render modes as Gymnasium defines them (boardcore.adapters._render, docs/ai.md).
    metadata = {"render_modes": list(_render.RENDER_MODES), "render_fps": 4}  # noqa: RUF012 (Gymnasium's attribute)

    def __init__(
        self,
        game: GameName = "reversi",
        opponent: str | Opponent = "random",
        player: int | str = bc.BLACK,
        render_mode: str | None = None,
        *,
        illegal_reward: float = -1.0,
        illegal_action: IllegalAction = "terminate",
        **variant: Any,
    ) -> None:
        _render.checked_render_mode(render_mode, "gymnasium")
        self.illegal_reward, self.illegal_action = _checked_illegal(illegal_reward, illegal_action)
        self.player = _checked_player(player)
        self.render_mode = render_mode
        self._opponent = _opponent(opponent)
        self._start = new_steps(game, variant)
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
            # The position stays as it was: a forfeit, or a refusal the agent moves again after.
            self._ended = self.illegal_action == "terminate"
            info = {**self._info(), "illegal_action": True}
            return self._state.observation(self.player), self.illegal_reward, self._ended, False, info
        before = self._state.copy()
        try:
            self._state.apply_action(action)
            self._play_opponent()
        except BaseException:
            # An opponent that fails (an illegal action, an exception, Ctrl-C) takes the agent's
            # action back with it: a call that raises changes nothing.
            self._state = before
            raise
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


def _checked_player(player: int | str) -> int:
    """The agent's side: bc.BLACK (0, "black") or bc.WHITE (1, "white"), or a ValueError."""
    if isinstance(player, str):
        player = {"black": bc.BLACK, "white": bc.WHITE}.get(player, player)
    if player not in (bc.BLACK, bc.WHITE) or isinstance(player, (bool, str)):
        raise ValueError(f"player must be bc.BLACK (0, 'black') or bc.WHITE (1, 'white'), got {player!r}")
    return int(player)


def _checked_illegal(illegal_reward: float, illegal_action: str) -> tuple[float, IllegalAction]:
    """What an illegal action gets and does (``make()``'s and the SB3 VecEnv's), or a ValueError."""
    if illegal_action not in ("terminate", "refuse"):
        raise ValueError(f"illegal_action must be 'terminate' or 'refuse', got {illegal_action!r}")
    if (
        isinstance(illegal_reward, bool)
        or not isinstance(illegal_reward, (int, float))
        or not np.isfinite(illegal_reward)
    ):
        raise ValueError(f"illegal_reward must be a finite number, got {illegal_reward!r}")
    return float(illegal_reward), illegal_action  # type: ignore[return-value]


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
    *,
    illegal_reward: float = -1.0,
    illegal_action: IllegalAction = "terminate",
    **variant: Any,
) -> BoardcoreEnv:
    """A single-agent environment: the agent plays ``player`` (Black by default) against
    ``opponent``: ``"random"`` (a uniformly random legal action), ``"mcts:N"`` (``bc.mcts.search``
    with N iterations of random rollouts over the step state) or a callable ``f(state) -> action``
    given a copy of the step state. An illegal action gets ``illegal_reward`` and ends the
    episode (``illegal_action="terminate"``) or is refused (``"refuse"``: nothing changes and the
    agent moves again). ``variant`` are the game constructor's keyword arguments, and for Strands
    the step form's ``any_order`` (``Strands.actions(any_order=True)``).

    ``gymnasium.make("boardcore/Reversi-v0", ...)`` makes the same environment with a
    ``spec`` and a time limit, once this module is imported (``REGISTERED``)."""
    return BoardcoreEnv(
        game, opponent, player, render_mode, illegal_reward=illegal_reward, illegal_action=illegal_action, **variant
    )


MAX_EPISODE_STEPS = 1000
"""The registered environments' time limit, in agent steps: far above any game's length (random
play on the default variants takes at most about 100), so that it only ends an episode whose
illegal actions are refused forever."""

REGISTERED = {f"boardcore/{name.capitalize()}-v0": name for name in GAMES}  # the registry's games
"""Gymnasium's ids of the four single-agent environments, each registered on import of this
module: ``gymnasium.make("boardcore/Reversi-v0", size=6, opponent="random")``, or in one call,
importing it, ``gymnasium.make("boardcore.adapters.gymnasium:boardcore/Reversi-v0")``."""


def _register() -> None:
    for env_id, name in REGISTERED.items():
        if env_id not in gymnasium.registry:  # a reload registers nothing twice
            gymnasium.register(
                id=env_id,
                entry_point="boardcore.adapters.gymnasium:BoardcoreEnv",
                kwargs={"game": name},
                max_episode_steps=MAX_EPISODE_STEPS,
            )


_register()


# ---------------------------------------------------------------------------------------------
# Both players, many games at once


class BoardcoreVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games as a ``gymnasium.vector.VectorEnv`` (use ``make_vector()``).

    Each env plays both sides. ``rewards[i]`` is for the player who just acted (+1, -1, 0 at the
    step ending the game), ``infos["rewards_per_player"]`` the same as ``(n, 2)`` (Black's,
    White's); ``infos["action_mask"]`` and ``infos["to_move"]`` say what may be played and by
    whom, each with Gymnasium's ``_key`` mask (``infos["_action_mask"]``, ...: all True, as every
    env has them). ``max_steps`` truncates long games. ``metadata["autoreset_mode"]``: ``NEXT_STEP``
    (Gymnasium's default) or ``SAME_STEP`` (the final observation in ``infos["final_obs"]``, the
    final infos in ``infos["final_info"]``).
    ``reset(options={"reset_mask": mask})`` restarts some envs only, ``options={"positions":
    [...]}`` starts envs from given positions. Everything runs on the native ``VectorEnv``
    (docs/actions.md, "Gymnasium").
    """

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
        self.variant = variant
        self.threads = threads
        self.max_steps = max_steps
        # The native env checks the game, num_envs and the variant, and does all the work.
        autoreset: Literal["same-step", "next-step"] = (
            "same-step" if self.autoreset_mode == AutoresetMode.SAME_STEP else "next-step"
        )
        self._native = bc.VectorEnv(
            game, num_envs, seed=0, threads=threads, autoreset=autoreset, max_steps=max_steps, **variant
        )
        self.game_name = game_name(game)  # any case, as the native env reads it
        start = new_steps(game, variant)
        self.num_envs = num_envs
        self.metadata = {"autoreset_mode": self.autoreset_mode, "render_modes": []}
        self.single_observation_space, self.single_action_space = _spaces(start)
        self._num_actions = start.num_actions
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._no_truncation = np.zeros(num_envs, dtype=bool)
        self._native.reset()
        self._to_move = self._native.to_move()

    # -- the Gymnasium API

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        """Restarts every env, or those of ``options["reset_mask"]`` (Gymnasium's partial reset: a
        ``bool`` array of shape ``(num_envs,)`` with at least one True; the other envs go on and
        keep their observations). ``options["positions"]`` starts the envs restarted from these
        positions instead (one per env restarted, in env order: position notations, games or step
        states of this game and variant). ``seed`` rewinds the random streams of the envs
        restarted: ``sample_actions`` draws the same actions again after the same seed."""
        options = dict(options or {})
        mask = options.pop("reset_mask", None)
        positions = options.pop("positions", None)
        if options:
            raise ValueError(f"unknown reset options {sorted(options)}: only 'reset_mask' and 'positions'")
        if mask is not None:
            _check_reset_mask(mask, self.num_envs)
        # The native env checks the positions: a bad one changes nothing, np_random included.
        obs, masks = self._native.reset(envs=mask, positions=positions, seed=seed)
        super().reset(seed=seed)
        self._to_move = self._native.to_move()
        return obs, self._infos(masks, self._to_move, np.zeros((self.num_envs, 2), dtype=np.float32))

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or actions.dtype.kind not in "iu":
            raise ValueError(f"actions must be {self.num_envs} integers, got shape {actions.shape} {actions.dtype}")
        actors = self._to_move
        obs, masks, rewards, terminated, to_move = self._native.step(actions)
        truncated = self._native.truncated() if self.max_steps is not None else self._no_truncation.copy()
        # Each env's reward is its actor's; the other player's is its negation (zero-sum): one
        # row of signs per actor, (Black's, White's), times the reward (two numpy calls a step).
        per_player = _SIGNS_OF_ACTOR[actors]
        per_player *= rewards[:, None]
        infos = self._infos(masks, to_move, per_player)
        if self.autoreset_mode == AutoresetMode.SAME_STEP:
            ended = terminated | truncated if self.max_steps is not None else terminated
            # As Gymnasium's own vector envs: final_obs only in a step where some env ended.
            if ended.any():
                _, infos["final_obs"] = self._native.final_observations()
                infos["_final_obs"] = ended.copy()
                infos["final_info"] = self._final_infos(ended, per_player)
                infos["_final_info"] = ended.copy()
        # Only who moves is kept: the arrays returned are the caller's, freed when it drops them.
        self._to_move = to_move
        return obs, rewards, terminated, truncated, infos

    def sample_actions(self) -> np.ndarray:
        """A uniformly random legal action for every env (0 for an env about to restart), from the
        native env's streams, which ``reset(seed=)`` rewinds."""
        return self._native.sample_actions()

    def close_extras(self, **kwargs: Any) -> None:
        pass

    # -- inside

    def _final_infos(self, ended: np.ndarray, per_player: np.ndarray) -> dict[str, Any]:
        """SAME_STEP's ``infos["final_info"]``: the last step's infos of the envs that ended (no
        legal action, the final rewards), batched with their ``_key`` masks as SyncVectorEnv does."""
        masks = np.zeros((self.num_envs, self._num_actions), dtype=np.bool_)
        final = np.where(ended[:, None], per_player, 0).astype(np.float32)
        return {
            "action_mask": masks,
            "_action_mask": ended.copy(),
            "rewards_per_player": final,
            "_rewards_per_player": ended.copy(),
        }

    def _infos(self, masks: np.ndarray, to_move: np.ndarray, per_player: np.ndarray) -> dict[str, Any]:
        # Gymnasium's vector infos: beside each key, "_key" says which envs' infos hold it (as
        # SyncVectorEnv writes them); every env has all three, every step.
        every = np.ones(self.num_envs, dtype=bool)
        return {
            "action_mask": masks,
            "_action_mask": every,
            "to_move": to_move,
            "_to_move": every.copy(),
            "rewards_per_player": per_player,
            "_rewards_per_player": every.copy(),
        }


# (Black's, White's) reward as multiples of the actor's: Black acted (+1, -1), White acted (-1, +1).
_SIGNS_OF_ACTOR = np.array([[1.0, -1.0], [-1.0, 1.0]], dtype=np.float32)


def _check_reset_mask(mask: Any, num_envs: int) -> None:
    """Gymnasium's own checks of ``options["reset_mask"]`` (as its ``SyncVectorEnv`` makes them)."""
    if not isinstance(mask, np.ndarray):
        raise TypeError(f"`options['reset_mask']` must be a numpy array, got {type(mask)}")
    if mask.shape != (num_envs,):
        raise ValueError(f"`options['reset_mask']` must have shape `({num_envs},)`, got {mask.shape}")
    if mask.dtype != np.bool_:
        raise TypeError(f"`options['reset_mask']` must have `dtype=np.bool_`, got {mask.dtype}")
    if not mask.any():
        raise ValueError("`options['reset_mask']` must contain at least one True value")


def make_vector(
    game: GameName,
    num_envs: int,
    autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
    max_steps: int | None = None,
    threads: int = 1,
    **variant: Any,
) -> BoardcoreVectorEnv:
    """``num_envs`` games of ``game`` (``variant``: the constructor's keyword arguments, and for
    Strands ``any_order``, as ``bc.VectorEnv`` takes them) as a ``gymnasium.vector.VectorEnv``;
    ``autoreset_mode`` NEXT_STEP (default) or SAME_STEP, ``max_steps`` truncation, ``threads`` for
    the native env (see ``BoardcoreVectorEnv``)."""
    return BoardcoreVectorEnv(game, num_envs, autoreset_mode, max_steps, threads, **variant)
