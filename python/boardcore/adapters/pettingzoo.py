"""PettingZoo AEC environments for the four games (``pip install 'boardcore[pettingzoo]'``).

    from boardcore.adapters.pettingzoo import env

    e = env("reversi", size=8)
    e.reset(seed=0)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else e.action_space(agent).sample(observation["action_mask"])
        e.step(action)

Agents are ``"player_0"`` (the first player: Black) and ``"player_1"`` (White), the names of
PettingZoo's classic environments; ``env(game, agent_names="colours")`` names them ``"black"``
and ``"white"`` instead. The agent to act is whoever the game says moves next: a Reversi pass is
an action of its own, and a Rive capture or a Strands turn takes several actions by the same
agent in a row. Observations are ``{"observation": float32 planes from the agent's own side,
"action_mask": int8}`` (docs/actions.md; the planes' names are the environment's
``observation_planes``); rewards are +1/-1 (0 for a draw) at the end.

``max_cycles=n`` truncates a game that has not ended after ``n`` cycles, a cycle being one
action of each agent (so ``2 * n`` actions in all, whoever took them), as the truncation of
PettingZoo's other families; None (the default) never truncates, since every game here ends on
its own. ``parallel_env(...)`` is the same game under PettingZoo's Parallel API: every live agent
submits an action each step and the mover's is played (the others' masks are all zeros and
their actions are ignored), one step a cycle for ``max_cycles``.

Render modes, as PettingZoo defines them: ``env(game, render_mode="human")`` prints the text board
after ``reset`` and every ``step`` (``render()`` prints it and returns None); ``"ansi"``: ``render()``
returns the text board and prints nothing; ``"rgb_array"``: ``render()`` returns the SVG picture
(``boardcore.svg``) as a ``uint8`` array ``(height, width, 3)``, 480 pixels wide, of the same shape
for every step of an environment (drawn by resvg-py and Pillow, both in this extra). Without a
render mode, ``render()`` warns and returns None.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardcore.adapters import game_name, missing_extra, new_steps

try:
    import gymnasium
    from gymnasium import spaces
    from pettingzoo import AECEnv, ParallelEnv
    from pettingzoo.utils import wrappers

    from boardcore.adapters import _render  # Gymnasium's too (its logger)
except ImportError as missing:
    raise missing_extra(__name__, "PettingZoo and Gymnasium", "pettingzoo", missing) from missing

AGENT_NAMES = {"players": ("player_0", "player_1"), "colours": ("black", "white")}
"""The agents' names, by ``agent_names``: the first player's (Black's) first."""


def _agents_named(agent_names: str) -> list[str]:
    if agent_names not in AGENT_NAMES:
        raise ValueError(f"agent_names must be one of {sorted(AGENT_NAMES)}, got {agent_names!r}")
    return list(AGENT_NAMES[agent_names])


def _checked_max_cycles(max_cycles: object) -> int | None:
    if max_cycles is not None and (isinstance(max_cycles, bool) or not isinstance(max_cycles, int) or max_cycles < 1):
        raise ValueError(f"max_cycles must be None or an integer >= 1, got {max_cycles!r}")
    return max_cycles


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

    def __init__(
        self,
        game: str = "reversi",
        render_mode: str | None = None,
        *,
        agent_names: str = "players",
        max_cycles: int | None = None,
        **variant: Any,
    ) -> None:
        super().__init__()
        _render.checked_render_mode(render_mode, "pettingzoo")
        agents = _agents_named(agent_names)
        self.max_cycles = _checked_max_cycles(max_cycles)
        game = game_name(game)  # any case, as bc.VectorEnv reads it
        self.game_name = game
        self.variant = variant
        self.render_mode = render_mode
        self._start = new_steps(game, variant)
        self._state = self._start.copy()
        self.metadata = {**self.metadata, "name": f"boardcore_{game}_v0"}
        self.possible_agents = agents[:]
        self.agents = agents[:]
        n, shape = self._start.num_actions, tuple(self._start.observation_shape)
        # What each plane holds, by name (docs/actions.md): the step form says it.
        self.observation_planes: tuple[str, ...] = tuple(self._start.observation_planes)
        self.action_spaces = {a: spaces.Discrete(n) for a in agents}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low=0.0, high=1.0, shape=shape, dtype=np.float32),
                    "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
                }
            )
            for a in agents
        }
        self._actions_taken = 0

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        player = self.possible_agents.index(agent)
        mask = np.zeros(self._state.num_actions, dtype=np.int8)
        if player == self._state.to_move and not self._state.is_over():
            mask[self._state.action_mask()] = 1
        planes = self._state.observation(player)
        return {"observation": planes, "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        agents = self.possible_agents
        self._state = self._start.copy()
        self._actions_taken = 0
        self.agents = agents[:]
        self.rewards = dict.fromkeys(agents, 0)
        self._cumulative_rewards = dict.fromkeys(agents, 0)
        self.terminations = dict.fromkeys(agents, False)
        self.truncations = dict.fromkeys(agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in agents}
        self.agent_selection = agents[self._state.to_move]
        if self.render_mode == "human":
            self.render()

    def step(self, action: int | None) -> None:
        agent, agents = self.agent_selection, self.possible_agents
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise TypeError("an action is an integer, got None (None is for an agent whose game is over)")
        self._state.apply_action(int(action))  # IllegalMoveError for an illegal action
        self._actions_taken += 1
        self._cumulative_rewards[agent] = 0
        self.rewards = dict.fromkeys(agents, 0)
        if self._state.is_over():
            self.rewards = dict(zip(agents, self._state.returns()))
            self.terminations = dict.fromkeys(agents, True)
        else:
            self.agent_selection = agents[self._state.to_move]
            if self.max_cycles is not None and self._actions_taken >= len(agents) * self.max_cycles:
                self.truncations = dict.fromkeys(agents, True)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | np.ndarray | None:
        hint = f"Choose one when making the environment: env({self.game_name!r}, render_mode='ansi')."
        return _render.render(self._state, self.render_mode, hint)

    def close(self) -> None:
        pass


def raw_env(game: str = "reversi", render_mode: str | None = None, **options: Any) -> BoardcoreEnv:
    """The environment without wrappers (``options`` as for ``env``)."""
    return BoardcoreEnv(game, render_mode, **options)


def env(game: str = "reversi", render_mode: str | None = None, **options: Any) -> AECEnv:
    """The environment with PettingZoo's usual wrappers for board games (an illegal action ends
    the game with a penalty for the agent that took it; order and bounds are enforced).
    ``options``: ``agent_names`` (``"players"``, the default, or ``"colours"``), ``max_cycles``
    (None or the cycles before truncation), and the game constructor's keyword arguments, with,
    for Strands, the step form's ``any_order`` (``Strands.actions(any_order=True)``)."""
    wrapped = raw_env(game, render_mode, **options)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class BoardcoreParallelEnv(ParallelEnv):
    """One boardcore game under PettingZoo's Parallel API (use ``parallel_env()``): each step,
    the mover's action is played and the other agents' are ignored. An illegal action ends the
    game with -1 for the agent that took it and 0 for the other (as ``env``'s wrapper does)."""

    def __init__(self, game: str = "reversi", render_mode: str | None = None, **options: Any) -> None:
        self._aec = BoardcoreEnv(game, render_mode, **options)
        self.possible_agents = self._aec.possible_agents[:]
        self.agents = self.possible_agents[:]
        self.metadata = self._aec.metadata
        self.render_mode = render_mode
        self.observation_planes = self._aec.observation_planes

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self._aec.observation_space(agent)

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self._aec.action_space(agent)

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        return {agent: self._aec.observe(agent) for agent in self.agents}

    def reset(self, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        self._aec.reset(seed=seed, options=options)
        self._cycles = 0
        self.agents = self.possible_agents[:]
        return self._observations(), {agent: {} for agent in self.agents}

    def step(self, actions: dict[str, int]) -> tuple[dict, dict, dict, dict, dict]:
        mover, aec = self._aec.agent_selection, self._aec
        if mover not in actions:
            raise ValueError(f"{mover} is to move: its action is missing from {sorted(actions)}")
        self._cycles += 1
        state = aec._state
        action, mask, agents = int(actions[mover]), state.action_mask(), self.agents
        if not (0 <= action < len(mask) and mask[action]):
            rewards = {agent: (-1 if agent == mover else 0) for agent in agents}
            terminations = dict.fromkeys(agents, True)
            truncations = dict.fromkeys(agents, False)
            infos: dict[str, dict[str, Any]] = {agent: {"illegal_action": agent == mover} for agent in agents}
        else:
            state.apply_action(action)
            over = state.is_over()
            rewards = dict(zip(agents, state.returns())) if over else dict.fromkeys(agents, 0)
            terminations = dict.fromkeys(agents, over)
            cut = not over and aec.max_cycles is not None and self._cycles >= aec.max_cycles
            truncations = dict.fromkeys(agents, cut)
            infos = {agent: {} for agent in agents}
            aec.agent_selection = agents[state.to_move]
        observations = self._observations()
        if aec.render_mode == "human":
            aec.render()
        if any(terminations.values()) or any(truncations.values()):
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | np.ndarray | None:
        return self._aec.render()

    def close(self) -> None:
        pass


def parallel_env(game: str = "reversi", render_mode: str | None = None, **options: Any) -> ParallelEnv:
    """The game under PettingZoo's Parallel API (``options`` as for ``env``)."""
    return BoardcoreParallelEnv(game, render_mode, **options)
