"""The four games as OpenSpiel games (``pip install 'boardcore[openspiel]'``).

    import pyspiel
    from open_spiel.python.algorithms import mcts
    import boardcore.adapters.openspiel  # registers the games

    game = pyspiel.load_game("boardcore_reversi")  # or "boardcore_reversi(size=6)"
    bot = mcts.MCTSBot(game, 2.0, 100, mcts.RandomRolloutEvaluator(1))

Registered names and their parameters (a subset of the constructors' keyword arguments):
``boardcore_reversi`` (``size``: 4, 6, 8, 10), ``boardcore_cephalopod`` (``rows``, ``cols``),
``boardcore_rive`` (``board``, ``swap``; always the single-stone form), ``boardcore_strands``
(``layout``, ``cover``). States drive the games' step form
(``game.actions()``, docs/actions.md): the same integer actions, observation tensors from the
player's own side, and returns +1/-1 (0 for a draw) at the end. A player may act several times in
a row (a Reversi pass is an action of its own; Rive captures and Strands turns take several).

OpenSpiel's Python algorithms (its Python ``MCTSBot`` included) play these games. Its C++
``pyspiel.MCTSBot`` does not: it crashes on every Python-registered game, OpenSpiel's own
``python_tic_tac_toe`` included (open_spiel 2.0.2), which its maintainers describe as not fully
supported (google-deepmind/open_spiel#480). boardcore's own MCTS (``boardcore.mcts``) is the fast
way to search these games.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from boardcore.adapters import new_game, state_text

# name: (default parameters, a bound on the number of actions in a game)
_GAMES: dict[str, tuple[dict[str, Any], Any]] = {
    # Every placement fills a square; a pass needs a placement before the next pass.
    "reversi": ({"size": 8}, lambda cells: 2 * cells),
    # Captures empty squares again, so no bound follows from the board: a generous one.
    "cephalopod": ({"rows": 5, "cols": 5}, lambda cells: 50 * cells),
    # Captures remove stones, so no bound follows from the board either.
    "rive": ({"board": "hex335", "swap": False}, lambda cells: 50 * cells),
    # One action per covered cell, plus at most one "end" per turn.
    "strands": ({"layout": "hex6", "cover": "up-to"}, lambda cells: 2 * cells + 1),
}


def _game_type(name: str) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=f"boardcore_{name}",
        long_name=f"boardcore {name.capitalize()}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_GAMES[name][0],
    )


def _game_class(name: str) -> type:
    defaults, length_bound = _GAMES[name]

    class Game(pyspiel.Game):
        def __init__(self, params: dict[str, Any] | None = None) -> None:
            variant = {**defaults, **(params or {})}
            if name == "rive" and not variant.get("swap"):
                variant.pop("swap", None)
            self.start = new_game(name, variant).actions()
            cells = int(np.prod(self.start.observation_shape[1:]))
            info = pyspiel.GameInfo(
                num_distinct_actions=self.start.num_actions,
                max_chance_outcomes=0,
                num_players=2,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=0.0,
                max_game_length=length_bound(cells),
            )
            super().__init__(_game_type(name), info, params or {})

        def new_initial_state(self) -> State:
            return State(self, self.start.copy())

        def make_py_observer(self, iig_obs_type=None, params=None) -> Observer:
            return Observer(self.start.observation_shape)

    class State(pyspiel.State):
        def __init__(self, game: Game, steps: Any) -> None:
            super().__init__(game)
            self.steps = steps

        def current_player(self) -> int:
            return pyspiel.PlayerId.TERMINAL if self.steps.is_over() else self.steps.to_move

        def _legal_actions(self, player: int) -> list[int]:
            return self.steps.legal_actions()

        def _apply_action(self, action: int) -> None:
            self.steps.apply_action(action)

        def _action_to_string(self, player: int, action: int) -> str:
            return self.steps.action_name(action)

        def is_terminal(self) -> bool:
            return self.steps.is_over()

        def returns(self) -> list[float]:
            return list(self.steps.returns())

        def __str__(self) -> str:
            return state_text(self.steps)

    class Observer:
        """Observation planes from the observing player's side (docs/actions.md)."""

        def __init__(self, shape: tuple[int, ...]) -> None:
            self.tensor = np.zeros(int(np.prod(shape)), np.float32)
            self.dict = {"observation": self.tensor.reshape(shape)}

        def set_from(self, state: State, player: int) -> None:
            self.dict["observation"][...] = state.steps.observation(player)

        def string_from(self, state: State, player: int) -> str:
            return state_text(state.steps)

    Game.__name__ = Game.__qualname__ = f"{name.capitalize()}Game"
    State.__name__ = State.__qualname__ = f"{name.capitalize()}State"
    return Game


def register() -> None:
    """Registers every game with OpenSpiel (done on import; repeating it is harmless)."""
    registered = set(pyspiel.registered_names())
    for name in _GAMES:
        if f"boardcore_{name}" not in registered:
            pyspiel.register_game(_game_type(name), _game_class(name))


register()
