"""Stable-Baselines3: a ``VecEnv`` over the native ``bc.VectorEnv`` (the ``[sb3]`` extra)::

    from sb3_contrib import MaskablePPO
    from boardcore.adapters.sb3 import BoardcoreVecEnv

    venv = BoardcoreVecEnv("reversi", 64, opponent="random", size=6, seed=0)
    model = MaskablePPO("MlpPolicy", venv).learn(100_000)

One agent plays ``player`` in every env against an opponent, as ``boardcore.adapters.gymnasium``'s
``make()`` does for one env; every env is stepped in Rust in one call (``threads`` of them at
once), with no Python per env. sb3-contrib's ``MaskablePPO`` finds the legal actions through
``env_method("action_masks")``. docs/ai.md, "Stable-Baselines3".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

import boardcore as bc
from boardcore.adapters import missing_extra

try:
    from gymnasium import spaces
    from stable_baselines3.common.vec_env import VecEnv
except ImportError as missing:
    raise missing_extra(__name__, "Stable-Baselines3 and Gymnasium", "sb3", missing) from missing

# After the check above: without Gymnasium, the [sb3] extra (which brings it) is the one to name.
from boardcore.adapters.gymnasium import GameName, IllegalAction, _checked_illegal, _checked_player

BatchOpponent = Callable[[npt.NDArray[np.float32], npt.NDArray[np.bool_]], npt.ArrayLike]
"""``f(observations (n, C, H, W), masks (n, num_actions)) -> actions (n,)``: the opponent's
actions for a batch, from its own side's view; only the rows of the envs it moves in are read."""


class BoardcoreVecEnv(VecEnv):
    """``n`` games of ``game`` (``**variant`` as for its constructor) as a Stable-Baselines3
    ``VecEnv``: the agent plays ``player`` (``bc.BLACK`` by default, ``bc.WHITE``; also 0 / 1,
    ``"black"`` / ``"white"``) in every env, the opponent the other side.

    - ``opponent``: ``"random"`` (a uniformly random legal action, drawn in Rust from each env's
      own stream: reproducible for a ``seed``) or a batched callable ``f(observations, masks) ->
      actions`` (for example a frozen copy of the agent's own policy, for self-play leagues).
    - ``step`` applies the agent's actions, then the opponent's in the envs where it is to move
      (several in a row for a Rive capture or a Strands turn), until the agent is to move in every
      env. A finished game restarts at once (the opponent opening for it when the agent plays
      White). Rewards are the agent's result at the end of a game (+1, -1, 0 for a draw), 0 before.
    - ``infos[i]`` of an env whose episode ended holds ``terminal_observation`` (the final position
      from its side to move's view, as ``bc.VectorEnv.final_observations`` gives it) and
      ``TimeLimit.truncated`` (True when ``max_steps``, counted over both players' actions, cut it).
    - An illegal action gets ``illegal_reward`` and ``infos[i]["illegal_action"]``: with
      ``illegal_action="terminate"`` (the default) the episode ends there and the env restarts,
      with ``"refuse"`` it is not played and the agent moves again from the same position.
    - ``env_method("action_masks")`` returns each env's legal actions (what ``MaskablePPO`` asks);
      ``action_masks()`` gives them as one ``bool (n, num_actions)`` array.
    """

    def __init__(
        self,
        game: GameName = "reversi",
        n: int = 8,
        *,
        opponent: str | BatchOpponent = "random",
        player: int | str = bc.BLACK,
        seed: int | None = None,
        threads: int | None = None,
        max_steps: int | None = None,
        illegal_reward: float = -1.0,
        illegal_action: IllegalAction = "terminate",
        **variant: Any,
    ) -> None:
        self.player = _checked_player(player)
        if not (opponent == "random" or callable(opponent)):
            raise ValueError(
                f"opponent must be 'random' or a callable f(observations, masks) -> actions, got {opponent!r}"
            )
        self.opponent = opponent
        self.illegal_reward, self.illegal_action = _checked_illegal(illegal_reward, illegal_action)
        self.render_mode = None
        self.native = bc.VectorEnv(
            game, n, seed=seed, threads=threads, autoreset="same-step", max_steps=max_steps, **variant
        )
        observation_space = spaces.Box(0.0, 1.0, shape=self.native.observation_shape, dtype=np.float32)
        super().__init__(n, observation_space, spaces.Discrete(self.native.num_actions))
        self._observations, self._masks = self.native.reset()
        self._actions: npt.NDArray[np.int64] = np.zeros(n, dtype=np.int64)

    # ---- the VecEnv protocol ---------------------------------------------------------------

    def reset(self) -> npt.NDArray[np.float32]:
        seed = self._seeds[0]
        self._observations, self._masks = self.native.reset(seed=seed)
        self._reset_seeds()
        self._reset_options()
        rewards, dones = np.zeros(self.num_envs, np.float32), np.zeros(self.num_envs, bool)
        self._play_opponent(self.native.to_move(), rewards, dones, [{} for _ in range(self.num_envs)])
        return self._observations.copy()

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions).reshape(self.num_envs).astype(np.int64, copy=False)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        n, actions = self.num_envs, self._actions
        infos: list[dict[str, Any]] = [{} for _ in range(n)]
        rewards, dones = np.zeros(n, np.float32), np.zeros(n, bool)
        in_range = (actions >= 0) & (actions < self.native.num_actions)
        legal = in_range & self._masks[np.arange(n), np.where(in_range, actions, 0)]
        for i in np.flatnonzero(~legal):
            infos[i]["illegal_action"] = True
        rewards[~legal] = self.illegal_reward
        step = self.native.step(np.where(legal, actions, 0), envs=legal)
        rewards[legal] += step.rewards[legal]
        self._observations, self._masks = step.obs, step.masks
        self._note_ends(legal, step.terminated, rewards, dones, infos)
        if self.illegal_action == "terminate" and not legal.all():
            forfeit = ~legal
            for i in np.flatnonzero(forfeit):
                infos[i].update(terminal_observation=self._observations[i].copy(), **{"TimeLimit.truncated": False})
            dones |= forfeit
            self._observations, self._masks = self.native.reset(envs=forfeit)
        self._play_opponent(self.native.to_move(), rewards, dones, infos)
        return self._observations.copy(), rewards, dones, infos

    def close(self) -> None:
        """Nothing to release: the envs live in this process."""

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        count = len(list(self._get_indices(indices)))
        if attr_name == "action_masks":
            return [self._env_action_masks(i) for i in self._get_indices(indices)]
        if attr_name not in ("render_mode", "player", "opponent", "illegal_reward", "illegal_action"):
            raise AttributeError(f"BoardcoreVecEnv's envs have no attribute {attr_name!r}")
        return [getattr(self, attr_name)] * count

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        raise AttributeError(f"BoardcoreVecEnv's envs share their settings: make a new one to change {attr_name!r}")

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any) -> list[Any]:
        if method_name != "action_masks" or method_args or method_kwargs:
            raise AttributeError(f"BoardcoreVecEnv's envs have one method, action_masks(), not {method_name!r}")
        return [self._masks[i].copy() for i in self._get_indices(indices)]

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False] * len(list(self._get_indices(indices)))

    # ---- beyond the protocol ---------------------------------------------------------------

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Every env's legal actions, ``bool (n, num_actions)``."""
        return self._masks.copy()

    def _env_action_masks(self, i: int) -> Callable[[], npt.NDArray[np.bool_]]:
        return lambda: self._masks[i].copy()

    def _play_opponent(
        self, to_move: npt.NDArray[np.uint8], rewards: np.ndarray, dones: np.ndarray, infos: list[dict[str, Any]]
    ) -> None:
        """The opponent's actions in every env where it is to move, until the agent is to move in
        all. Its moves in an episode that ended in this call belong to the next one: no reward."""
        while (waiting := to_move != self.player).any():
            if callable(self.opponent):
                actions = np.asarray(self.opponent(self._observations, self._masks), dtype=np.int64).reshape(-1)
            else:  # "random"
                actions = self.native.sample_actions()
            step = self.native.step(actions, envs=waiting)
            this_episode = waiting & ~dones
            rewards[this_episode] -= step.rewards[this_episode]  # the opponent's result, negated
            self._observations, self._masks, to_move = step.obs, step.masks, step.to_move
            self._note_ends(this_episode, step.terminated, rewards, dones, infos)

    def _note_ends(
        self,
        stepped: np.ndarray,
        terminated: np.ndarray,
        rewards: np.ndarray,
        dones: np.ndarray,
        infos: list[dict[str, Any]],
    ) -> None:
        """Marks the episodes among ``stepped`` that the last native step ended, with their final
        observation and whether a time limit cut them."""
        truncated = self.native.truncated() & stepped
        ended = (terminated & stepped) | truncated
        if not ended.any():
            return
        _, finals = self.native.final_observations()
        for i in np.flatnonzero(ended):
            infos[i]["terminal_observation"] = finals[i]
            infos[i]["TimeLimit.truncated"] = bool(truncated[i])
        dones |= ended


__all__: Sequence[str] = ["BatchOpponent", "BoardcoreVecEnv"]
