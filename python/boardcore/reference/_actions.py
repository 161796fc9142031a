"""What the reference step states share (docs/actions.md): the checked apply, the mask, the end
of the game, copying; and the axial grid on which hex boards are observed.

A game's step state subclasses ``StepState`` and gives ``num_actions``, ``observation_shape``,
``observation_planes`` and ``_player_planes`` (the mover's and the opponent's planes), ``legal_actions()``,
``_apply(action)`` (a legal action), ``_observe()`` (from the side to move), ``_name(action)`` and
``position()``; it keeps its game in ``_game``.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from boardcore.pieces import Color
from boardcore.reference._game import BLACK, WHITE, IllegalMoveError


def _action_index(action: Any) -> int:
    """The integer an action is (a Python or numpy integer); TypeError for anything else."""
    if isinstance(action, bool):
        raise TypeError("an action is an integer, got bool")
    try:
        return operator.index(action)
    except TypeError:
        raise TypeError(f"an action is an integer, got {type(action).__name__}") from None


def out_of_range(action: int, num_actions: int) -> str:
    return f"action {action} is out of range: this game has {num_actions} actions (0 to {num_actions - 1})"


def _player(player: object) -> int:
    """BLACK or WHITE from ``BLACK``/``WHITE`` (Python or numpy integers) or ``"black"``/``"white"``."""
    if isinstance(player, str) and player in ("black", "white"):
        return BLACK if player == "black" else WHITE
    if isinstance(player, (int, np.integer)) and not isinstance(player, bool) and player in (BLACK, WHITE):
        return int(player)
    raise ValueError(f"player must be BLACK, WHITE, 'black' or 'white', got {player!r}")


class StepState:
    """A game in step form: fixed integer actions, masks and observation planes."""

    _game: Any  # the reference game this state steps through
    num_actions: int
    observation_planes: tuple[str, ...]
    _player_planes: tuple[slice, slice]

    def _observe(self) -> np.ndarray:
        raise NotImplementedError

    def observation(self, player=None) -> np.ndarray:
        """``float32`` planes from the side to move's perspective, or from ``player``'s: for the
        other player the mover's and the opponent's planes are swapped."""
        planes = self._observe()
        if player is None or _player(player) == self.to_move:
            return planes
        mover, opponent = self._player_planes
        swapped = planes.copy()
        swapped[mover], swapped[opponent] = planes[opponent], planes[mover]
        return swapped

    def action_mask(self) -> np.ndarray:
        """``bool`` array ``(num_actions,)``: which actions are legal now."""
        mask = np.zeros(self.num_actions, dtype=bool)
        mask[self.legal_actions()] = True
        return mask

    def legal_actions(self) -> list[int]:
        raise NotImplementedError

    def _apply(self, action: int) -> None:
        raise NotImplementedError

    def _name(self, action: int) -> str:
        raise NotImplementedError

    def position(self) -> str:
        raise NotImplementedError

    def apply_action(self, action) -> None:
        """Applies a legal action. Raises TypeError for a non-integer, IllegalMoveError for an
        action out of range or not legal here; then nothing changes."""
        index = _action_index(action)
        if not 0 <= index < self.num_actions:
            raise IllegalMoveError(out_of_range(index, self.num_actions))
        if index not in self.legal_actions():
            raise IllegalMoveError(f"{self._name(index)} (action {index}) is not legal here")
        self._apply(index)

    def action_name(self, action) -> str:
        """A readable name of an action; ValueError out of range, TypeError for a non-integer."""
        index = _action_index(action)
        if not 0 <= index < self.num_actions:
            raise ValueError(out_of_range(index, self.num_actions))
        return self._name(index)

    @property
    def to_move(self) -> Color:
        """BLACK (0) or WHITE (1): who chooses the next action."""
        return self._game.to_move

    def is_over(self) -> bool:
        return self._game.is_over()

    def winner(self) -> Color | None:
        return self._game.winner()

    def returns(self) -> tuple[float, float]:
        """(black, white): +1 for the winner, -1 for the loser, 0 for a draw or a game not over."""
        if not self.is_over() or self.winner() is None:
            return 0.0, 0.0
        return (1.0, -1.0) if self.winner() == BLACK else (-1.0, 1.0)

    def copy(self):
        """An independent copy (the engine's step states are values too)."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other._game = self._game.copy()
        return other

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.position()!r}>"


class AxialGrid:
    """Where the cells of a hex board sit in a rectangle of planes: the cell at ``(row, x)`` (x in
    half-cells) goes to row ``row``, column ``floor((x - row) / 2)`` shifted so that the smallest
    column is 0."""

    def __init__(self, places: list[tuple[int, int]]) -> None:
        columns = [(x - row) // 2 for row, x in places]
        low = min(columns)
        self.points = [(row, q - low) for (row, _), q in zip(places, columns)]
        self.height = max(row for row, _ in places) + 1
        self.width = max(columns) - low + 1

    def planes(self, count: int) -> np.ndarray:
        return np.zeros((count, self.height, self.width), dtype=np.float32)

    def mark(self, planes: np.ndarray, plane: int, cells, value: float = 1.0) -> None:
        """Sets the point of every cell index in ``cells`` to ``value`` in ``planes[plane]``."""
        for cell in cells:
            row, column = self.points[cell]
            planes[plane, row, column] = value
