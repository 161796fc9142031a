"""PettingZoo AEC environments for the four games (``pip install 'boardcore[pettingzoo]'``).

    from boardcore.adapters.pettingzoo import env

    e = env("reversi", size=8)
    e.reset(seed=0)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else e.action_space(agent).sample(observation["action_mask"])
        e.step(action)

Agents are ``"black"`` and ``"white"``. The agent to act is whoever the game says moves next: a
Reversi pass is an action of its own, and a Rive capture or a Strands turn takes several actions
by the same agent in a row. Observations are ``{"observation": float32 planes from the agent's own
side, "action_mask": int8}`` (docs/actions.md; the planes' names are the environment's
``observation_planes``); rewards are +1/-1 (0 for a draw) at the end.

Render modes, as PettingZoo defines them: ``env(game, render_mode="human")`` prints the text board
after ``reset`` and every ``step`` (``render()`` prints it and returns None); ``"ansi"``: ``render()``
returns the text board and prints nothing; ``"rgb_array"``: ``render()`` returns the SVG picture
(``boardcore.svg``) as a ``uint8`` array ``(height, width, 3)``, 480 pixels wide, of the same shape
for every step of an environment (drawn by resvg-py and Pillow, both in this extra). Without a
render mode, ``render()`` warns and returns None.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from boardcore.adapters import _render, game_name, new_steps

AGENTS = ["black", "white"]


class BoardcoreEnv(AECEnv):
    """One boardcore game as a PettingZoo AEC environment (use ``env()``, which adds the usual
    wrappers)."""

    # PettingZoo's own attribute, a dict by its API; each environment sets its own copy.
    metadata = {  # noqa: RUF012
        "render_modes": list(_render.RENDER_MODES),
        "name": "boardcore_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(self, game: str = "reversi", render_mode: str | None = None, **variant: Any) -> None:
        super().__init__()
        _render.checked_render_mode(render_mode, "pettingzoo")
        game = game_name(game)  # any case, as bc.VectorEnv reads it
        self.game_name = game
        self.variant = variant
        self.render_mode = render_mode
        self._start = new_steps(game, variant)
        self._state = self._start.copy()
        self.metadata = {**self.metadata, "name": f"boardcore_{game}_v0"}
        self.possible_agents = AGENTS[:]
        self.agents = AGENTS[:]
        n, shape = self._start.num_actions, tuple(self._start.observation_shape)
        # What each plane holds, by name (docs/actions.md): the step form says it.
        self.observation_planes: tuple[str, ...] = tuple(self._start.observation_planes)
        self.action_spaces = {a: spaces.Discrete(n) for a in AGENTS}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low=0.0, high=1.0, shape=shape, dtype=np.float32),
                    "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
                }
            )
            for a in AGENTS
        }

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        player = AGENTS.index(agent)
        mask = np.zeros(self._state.num_actions, dtype=np.int8)
        if player == self._state.to_move and not self._state.is_over():
            mask[self._state.action_mask()] = 1
        planes = self._state.observation(player)
        return {"observation": planes, "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self._state = self._start.copy()
        self.agents = AGENTS[:]
        self.rewards = dict.fromkeys(AGENTS, 0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[self._state.to_move]
        if self.render_mode == "human":
            self.render()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise TypeError("an action is an integer, got None (None is for an agent whose game is over)")
        self._state.apply_action(int(action))  # IllegalMoveError for an illegal action
        self._cumulative_rewards[agent] = 0
        self.rewards = dict.fromkeys(AGENTS, 0)
        if self._state.is_over():
            black, white = self._state.returns()
            self.rewards = {"black": black, "white": white}
            self.terminations = dict.fromkeys(AGENTS, True)
        else:
            self.agent_selection = AGENTS[self._state.to_move]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | np.ndarray | None:
        hint = f"Choose one when making the environment: env({self.game_name!r}, render_mode='ansi')."
        return _render.render(self._state, self.render_mode, hint)

    def close(self) -> None:
        pass


def raw_env(game: str = "reversi", render_mode: str | None = None, **variant: Any) -> BoardcoreEnv:
    """The environment without wrappers."""
    return BoardcoreEnv(game, render_mode, **variant)


def env(game: str = "reversi", render_mode: str | None = None, **variant: Any) -> AECEnv:
    """The environment with PettingZoo's usual wrappers for board games (an illegal action ends
    the game with a penalty for the agent that took it; order and bounds are enforced).
    ``variant`` are the game constructor's keyword arguments, and for Strands the step form's
    ``any_order`` (``Strands.actions(any_order=True)``)."""
    wrapped = raw_env(game, render_mode, **variant)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
