"""The four games as OpenSpiel games (``pip install 'boardcore[openspiel]'``).

    import pyspiel
    from open_spiel.python.algorithms import mcts
    import boardcore.adapters.openspiel  # registers the games

    game = pyspiel.load_game("boardcore_reversi")  # or "boardcore_reversi(size=6)"
    bot = mcts.MCTSBot(game, 2.0, 100, mcts.RandomRolloutEvaluator(1))

Registered names and their parameters, named as the constructors' keyword arguments
(docs/ai_openspiel.md has the full table): ``boardcore_reversi`` (``size``, ``board``,
``blocked``, ``seed``, ``handicap``, ``handicap_color``), ``boardcore_cephalopod`` (``rows``,
``cols``), ``boardcore_rive`` (``board``, ``swap``, ``single_stones``), ``boardcore_strands``
(``layout``, ``cover``, and the step form's ``any_order``, as in ``game.actions(any_order=True)``).
OpenSpiel separates parameters with commas, so a list is one space-separated string:
``boardcore_reversi(blocked=a1 h8)``.

States drive the games' step form (``game.actions()``, docs/actions.md): the same integer actions,
observation tensors from the player's own side, and returns +1/-1 (0 for a draw) at the end. A
player may act several times in a row (a Reversi pass is an action of its own; Rive captures and
Strands turns take several). Games and states pickle (a game as its name and parameters, a state as
its game and action history, replayed exactly), ``serialize()`` / ``deserialize_state`` round-trip,
and ``undo_action`` takes back the last action.

OpenSpiel's Python algorithms (its Python ``MCTSBot`` included) play these games. Its C++
``pyspiel.MCTSBot`` cannot: its ``step`` releases the GIL and then clones the state, which for a
game written in Python calls back into Python without the GIL and segfaults (OpenSpiel's own
``python_tic_tac_toe`` too, open_spiel 2.0.2; google-deepmind/open_spiel#480). Importing this
module puts a guard in ``pyspiel.MCTSBot``'s place that refuses a boardcore game with a
``TypeError`` saying so, and passes every other game through. boardcore's own MCTS
(``boardcore.mcts``) is the fast way to search these games.

``pyspiel.make_observation(game)`` (and the state's observation tensors) give the planes by name:
``observation.dict["mover"]``, ``["opponent"]``, ``["empty"]``, ... (the step form's
``observation_planes``), each a ``(H, W)`` view of ``observation.tensor``.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from boardcore.adapters import missing_extra, new_steps, state_text

try:
    import pyspiel
except ImportError as missing:
    raise missing_extra(__name__, "OpenSpiel", "openspiel", missing) from missing

# Each game's OpenSpiel parameters with their defaults (OpenSpiel checks the type of every
# parameter given against these). "" and -1 stand for the constructor's None.
_PARAMETERS: dict[str, dict[str, Any]] = {
    "reversi": {"size": 8, "board": "", "blocked": "", "seed": -1, "handicap": 0, "handicap_color": "black"},
    "cephalopod": {"rows": 5, "cols": 5},
    "rive": {"board": "hex335", "swap": False, "single_stones": True},
    "strands": {"layout": "hex6", "cover": "up-to", "any_order": False},
}


def _reversi_variant(params: dict[str, Any]) -> dict[str, Any]:
    variant = dict(params)
    # OpenSpiel types a parameter once: `size` is an int (size=10), so the Octagon, whose size is
    # also 10, is `board=octagon` (the board's name, as in Reversi.board_name and the notation).
    # OpenSpiel passes every parameter, defaults included: `board` wins over the default size.
    board = variant.pop("board", "").lower()
    if board:
        size = 10 if board == "octagon" else int(board) if board.isdigit() else None
        if variant.get("size", 8) not in (8, size):
            raise ValueError(f"size={variant['size']} and board={board} disagree")
        variant["size"] = board if size is None or board == "octagon" else size
    blocked = variant.pop("blocked", "")
    if blocked:
        variant["blocked"] = blocked if blocked == "random" else blocked.split()
    if variant.get("seed", -1) == -1:
        variant.pop("seed", None)
    return variant


def _rive_variant(params: dict[str, Any]) -> dict[str, Any]:
    variant = dict(params)
    board = variant.get("board", "")
    if "@" in board:  # a custom board: its rows "length@offset", space-separated
        variant["board"] = [tuple(int(n) for n in row.split("@")) for row in board.split()]
    return variant


def _strands_variant(params: dict[str, Any]) -> dict[str, Any]:
    variant = dict(params)
    layout = variant.get("layout", "")
    if layout.replace(" ", "").isdigit():  # rows of labels, space-separated
        variant["layout"] = layout.split()
    return variant


_VARIANTS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "reversi": _reversi_variant,
    "cephalopod": dict,
    "rive": _rive_variant,
    "strands": _strands_variant,
}


def variant_of(name: str, params: dict[str, Any]) -> dict[str, Any]:
    """The constructor's keyword arguments for the OpenSpiel parameters ``params`` of ``name``."""
    return _VARIANTS[name](params)


# OpenSpiel keeps `max_game_length` in a C++ int.
OPENSPIEL_MAX_GAME_LENGTH = 2**31 - 1


def max_game_length(name: str, start: Any) -> int:
    """A proven bound on the number of actions in a game from the step state ``start`` (the
    variant's empty start), or, for Rive boards whose proven bound exceeds what OpenSpiel can hold
    (from 97 cells), ``OPENSPIEL_MAX_GAME_LENGTH``. docs/ai_openspiel.md, "Game length", has the
    proofs."""
    if name == "reversi":
        # Placements fill empty squares for good; a pass is always followed by a placement.
        return 2 * int(start.observation()[start.observation_planes.index("empty")].sum())
    if name == "cephalopod":
        # The potential sum(2 * pips - 1) over the dice grows by at least 1 per move, up to 11 a square.
        return 11 * int(np.prod(start.observation_shape[1:]))
    cells = int(start.observation(0)[start.observation_planes.index("board")].sum())  # Rive, Strands
    if name == "strands":
        # Every cell is covered once; every `end` follows a cell covered in its turn.
        return 2 * cells
    return min(rive_max_game_length(cells), OPENSPIEL_MAX_GAME_LENGTH)


@functools.cache
def rive_max_game_length(cells: int) -> int:
    """The proven bound ``2 P - N + 1`` on the step-form actions of a Rive game on ``N = cells``
    cells from the empty board, with ``P`` the number of partitions of 0..N less one.

    Every placement (with its removals) makes the group sizes, sorted from largest,
    lexicographically larger, so the placements are at most ``P``: the lists with at most N stones
    are the partitions of 0..N, and the chain starts at the empty one. The game ends only on a full
    board, so the stones removed (one action each) are the placements less N; a swap adds one.
    An exact integer, however large (it exceeds 2**31 - 1 from 97 cells)."""
    ways = [1] + [0] * cells  # ways[k]: the partitions of k into the parts seen so far
    for part in range(1, cells + 1):
        for total in range(part, cells + 1):
            ways[total] += ways[total - part]
    placements = sum(ways) - 1
    return 2 * placements - cells + 1


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
        parameter_specification=_PARAMETERS[name],
    )


def _load_game(text: str) -> pyspiel.Game:
    """``pyspiel.load_game(text)`` with the games registered (what an unpickled game calls)."""
    return pyspiel.load_game(text)


def _replay(text: str, actions: list[int]) -> pyspiel.State:
    """The state of the game ``text`` after ``actions`` (what an unpickled state calls)."""
    state = _load_game(text).new_initial_state()
    for action in actions:
        state.apply_action(action)
    return state


class _Play:
    """A step state and the actions that reached it from the start of its game. Pickles as the game
    and the actions, replayed exactly; copies (``copy.deepcopy``, OpenSpiel's ``clone``) without
    replaying."""

    def __init__(self, name: str, variant: dict[str, Any], steps: Any, actions: list[int]) -> None:
        self.name, self.variant, self.steps, self.actions = name, variant, steps, actions

    @classmethod
    def replayed(cls, name: str, variant: dict[str, Any], actions: list[int]) -> _Play:
        steps = new_steps(name, variant)
        for action in actions:
            steps.apply_action(action)
        return cls(name, variant, steps, list(actions))

    def apply(self, action: int) -> None:
        self.steps.apply_action(action)
        self.actions.append(action)

    def undo(self, action: int) -> None:
        if not self.actions or self.actions[-1] != action:
            last = self.actions[-1] if self.actions else None
            raise ValueError(f"undo_action: the last action is {last}, not {action}")
        taken_back = _Play.replayed(self.name, self.variant, self.actions[:-1])
        self.steps, self.actions = taken_back.steps, taken_back.actions

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Play.replayed, (self.name, self.variant, list(self.actions)))

    def __deepcopy__(self, memo: object) -> _Play:
        return _Play(self.name, copy.deepcopy(self.variant), self.steps.copy(), list(self.actions))


class Game(pyspiel.Game):
    """One boardcore game and variant; its subclasses (one per game) are what OpenSpiel registers."""

    game_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.params = dict(params or {})
        self.variant = variant_of(self.game_name, self.params)
        self.start = new_steps(self.game_name, self.variant)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.start.num_actions,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=max_game_length(self.game_name, self.start),
        )
        super().__init__(_game_type(self.game_name), info, self.params)

    def new_initial_state(self) -> State:
        return State(self, _Play(self.game_name, self.variant, self.start.copy(), []))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        history = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(tuple(self.start.observation_shape), tuple(self.start.observation_planes), history)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_load_game, (str(self),))


class State(pyspiel.State):
    """A position of a boardcore game in step form (``steps``), with its action history."""

    def __init__(self, game: Game, play: _Play) -> None:
        super().__init__(game)
        self.play = play

    @property
    def steps(self) -> Any:
        """The boardcore step state (``game.actions()``, docs/actions.md) this state drives."""
        return self.play.steps

    def current_player(self) -> int:
        # OpenSpiel's players are plain ints (bc.Color is one, but prints by name in its logs).
        return pyspiel.PlayerId.TERMINAL if self.steps.is_over() else int(self.steps.to_move)

    def _legal_actions(self, player: int) -> list[int]:
        return self.steps.legal_actions()

    def _apply_action(self, action: int) -> None:
        self.play.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.steps.action_name(action)

    def is_terminal(self) -> bool:
        return self.steps.is_over()

    def returns(self) -> list[float]:
        return list(self.steps.returns())

    # OpenSpiel keeps its own history in C++, where Python cannot shorten it: after undo_action
    # these answer from the adapter's history, which is the true one.
    def undo_action(self, player: int, action: int) -> None:
        """Takes back the last action (``player`` must have played ``action``)."""
        self.play.undo(action)
        if self.steps.to_move != player:
            self.play.apply(action)
            raise ValueError(f"undo_action: the last action was not player {player}'s")

    def history(self) -> list[int]:
        return list(self.play.actions)

    def history_str(self) -> str:
        return ", ".join(map(str, self.play.actions))

    def move_number(self) -> int:
        return len(self.play.actions)

    def __str__(self) -> str:
        return state_text(self.steps)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_replay, (str(self.get_game()), list(self.play.actions)))


class Observer:
    """Observation planes from the observing player's side (docs/actions.md); as an information
    state (perfect recall), its string is the action history, as OpenSpiel's own games give it.

    ``dict`` names every plane (``"mover"``, ``"opponent"``, ``"empty"``, ... : the step form's
    ``observation_planes``), each a ``(H, W)`` view of ``tensor``, as OpenSpiel's own games name
    their observation's parts (OpenSpiel concatenates the dict's entries into the state's
    ``observation_tensor``, so they are the planes alone, in order); ``planes`` is the whole
    ``(C, H, W)`` stack."""

    def __init__(self, shape: tuple[int, ...], planes: tuple[str, ...], history: bool = False) -> None:
        self.history = history
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.planes = self.tensor.reshape(shape)
        self.dict = {name: self.planes[i] for i, name in enumerate(planes)}

    def set_from(self, state: State, player: int) -> None:
        self.planes[...] = state.steps.observation(player)

    def string_from(self, state: State, player: int) -> str:
        return state.history_str() if self.history else state_text(state.steps)


def _game_class(name: str) -> type[Game]:
    # Not a module attribute: a game pickles through Game.__reduce__, never by its class.
    return type(f"{name.capitalize()}Game", (Game,), {"game_name": name, "__module__": __name__})


class _GuardedMCTSBot(pyspiel.MCTSBot):
    """OpenSpiel's C++ ``MCTSBot``, refusing boardcore's games with a clear error instead of a
    segfault: its ``step`` releases the GIL, then clones the state, which for a game written in
    Python calls back into Python without the GIL and crashes the interpreter (every Python game
    does it, OpenSpiel's ``python_tic_tac_toe`` too). Other games pass through unchanged."""

    def __init__(self, game: Any, *args: Any, **kwargs: Any) -> None:
        if isinstance(game, Game):
            raise TypeError(
                f"pyspiel.MCTSBot cannot search {game}: OpenSpiel's C++ MCTS releases the GIL and then "
                "clones the state, which for a game written in Python (as boardcore's OpenSpiel games "
                "are, and python_tic_tac_toe) crashes the interpreter. Use OpenSpiel's Python MCTS, "
                "open_spiel.python.algorithms.mcts.MCTSBot(game, uct_c, max_simulations, evaluator), "
                "or boardcore.mcts.search on the boardcore game"
            )
        super().__init__(game, *args, **kwargs)


def _guard_cpp_mcts() -> None:
    """Puts the guard in ``pyspiel.MCTSBot``'s place (once; code that took the name before this
    module was imported keeps the unguarded class)."""
    if not issubclass(pyspiel.MCTSBot, _GuardedMCTSBot):
        pyspiel.MCTSBot = _GuardedMCTSBot


def register() -> None:
    """Registers every game with OpenSpiel (done on import; repeating it is harmless)."""
    registered = set(pyspiel.registered_names())
    for name in _PARAMETERS:
        if f"boardcore_{name}" not in registered:
            pyspiel.register_game(_game_type(name), _game_class(name))


register()
_guard_cpp_mcts()
