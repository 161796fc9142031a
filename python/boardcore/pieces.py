"""What a cell of a board holds, as ``game[cell]`` and ``game.piece_at(cell)`` give it (every
game, engine and reference twin alike; docs/design.md, "Reading the board"):

- ``None``: the cell is empty;
- ``Piece(player, pips)``: a piece of ``BLACK`` (0) or ``WHITE`` (1); ``pips`` is a Cephalopod
  die's number (1 to 6) and None in the other games (a disc, a stone);
- ``HOLE``: a Reversi hole, a square where no disc may ever be;
- ``CUT``: one of the twelve squares the Reversi Octagon cuts from its 10x10 grid.

``Piece`` is a named tuple (``player, pips = game["c3"]``), so pieces compare, hash and pickle as
plain values; ``HOLE`` and ``CUT`` are the two members of the enum ``Blocked``, and like every
piece they are true, where an empty cell's ``None`` is false.

This module imports nothing compiled: the reference twins use it as the engines do.
"""

from __future__ import annotations

import enum
from typing import NamedTuple

__all__ = ["CUT", "HOLE", "Blocked", "Piece"]


class Piece(NamedTuple):
    """A piece on a cell: its owner, ``BLACK`` (0) or ``WHITE`` (1), and for a Cephalopod die its
    pips (1 to 6; None in the other games)."""

    player: int
    """``BLACK`` (0) or ``WHITE`` (1)."""
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
