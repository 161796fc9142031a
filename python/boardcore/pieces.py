"""What a cell of a board holds, as ``game[cell]`` and ``game.piece_at(cell)`` give it (every
game, engine and reference twin alike; docs/design.md, "Reading the board"):

- ``None``: the cell is empty;
- ``Piece(player, pips)``: a piece of ``Color.BLACK`` (0) or ``Color.WHITE`` (1); ``pips`` is a Cephalopod
  die's number (1 to 6) and None in the other games (a disc, a stone);
- ``HOLE``: a Reversi hole, a square where no disc may ever be;
- ``CUT``: one of the twelve squares the Reversi Octagon cuts from its 10x10 grid.

``Piece`` is a named tuple (``player, pips = game["c3"]``), so pieces compare, hash and pickle as
plain values; ``HOLE`` and ``CUT`` are the two members of the enum ``Blocked``, and like every
piece they are true, where an empty cell's ``None`` is false.

``Color`` is the players' type everywhere: ``game.to_move``, ``game.winner()``, a piece's
``player``, ``bc.BLACK`` and ``bc.WHITE``.

This module imports nothing compiled: the reference twins use it as the engines do.
"""

from __future__ import annotations

import enum
from typing import NamedTuple

__all__ = ["BLACK", "CUT", "HOLE", "WHITE", "Blocked", "Color", "Piece"]


class Color(enum.IntEnum):
    """A player: ``BLACK`` (0), who moves first, or ``WHITE`` (1). An ``int``, so that a colour
    compares, indexes (``game.score()[game.to_move]``), counts in numpy and pickles as 0 and 1;
    it prints as its name (``Color.WHITE``), not as a bare number."""

    BLACK = 0
    WHITE = 1

    # IntEnum prints as its number (str and format are int's since Python 3.11): say the name.
    def __str__(self) -> str:
        return f"Color.{self.name}"

    __repr__ = __str__


BLACK = Color.BLACK
WHITE = Color.WHITE


class Piece(NamedTuple):
    """A piece on a cell: its owner, ``Color.BLACK`` (0) or ``Color.WHITE`` (1), and for a
    Cephalopod die its pips (1 to 6; None in the other games)."""

    player: Color
    """``Color.BLACK`` (0) or ``Color.WHITE`` (1)."""
    pips: int | None = None
    """A Cephalopod die's pips, 1 to 6; None for a disc or a stone."""


class Blocked(enum.Enum):
    """A Reversi square no disc may ever occupy; the value is its position-notation character."""

    HOLE = "#"
    CUT = "-"

    def __repr__(self) -> str:
        return self.name


HOLE = Blocked.HOLE
CUT = Blocked.CUT
