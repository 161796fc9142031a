"""What every reference twin shares: copying, pickling, hashing, equality, playouts.

The games keep their state in plain attributes, with the board in a list ``_cells`` and the moves
in a list ``_history`` whose entries are never mutated, so a copy only needs fresh lists.
"""

from __future__ import annotations

import re

from boardcore.reference import _playout

try:
    from boardcore.errors import IllegalMoveError, NotationError
except ImportError:  # the compiled engine is not built: the references still work on their own

    class IllegalMoveError(ValueError):  # type: ignore[no-redef]
        """A well-formed move that the rules do not allow in this position."""

    class NotationError(ValueError):  # type: ignore[no-redef]
        """Text that cannot be parsed; the message says what was expected where."""


BLACK = 0
WHITE = 1

TAG_RE = re.compile(r'\[([A-Za-z0-9]+) \s*"([^"]*)"\s*\]')


def short(text: str) -> str:
    """repr of text, cut short so that a megabyte of garbage makes a short message."""
    return repr(text if len(text) <= 40 else text[:40] + "...")


def check_count(name: str, value: object, minimum: int) -> None:
    """A ValueError naming the argument unless `value` is an int (not a bool) >= `minimum`."""
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")


def parse_record(text: str, known_tags) -> tuple[dict[str, str], list[str]]:
    """The tags and move tokens of a record (the format every game shares: `[Tag "value"]` lines,
    then moves); raises NotationError on bad syntax or a tag not in `known_tags`."""
    tags: dict[str, str] = {}
    moves: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line:
            continue
        if not line.startswith("["):
            moves.extend(line.split())
            continue
        if moves:
            raise NotationError(f"record line {number}: a tag after the moves began")
        match = TAG_RE.fullmatch(line)
        if match is None:
            raise NotationError(f'record line {number}: expected a tag like [Name "value"], got {short(line)}')
        name, value = match.groups()
        if name not in known_tags:
            raise NotationError(f"record line {number}: unknown tag {name!r}")
        if name in tags:
            raise NotationError(f"record: tag {name} given twice")
        tags[name] = value
    return tags, moves


class ReferenceMove:
    """What every reference game's Move shares: immutability, a hash and pickling through its
    notation (a move equals its notation string), and an eval-able repr."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"Move({str(self)!r})"

    def __hash__(self) -> int:
        return hash(str(self))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Move is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Move is immutable")

    def __reduce__(self):
        return (type(self), (str(self),))


class ReferenceGame:
    """Mixin for the reference games; each provides position(), record(), zobrist(),
    legal_moves(), play(), winner() and the classmethod from_record()."""

    def copy(self):
        """An independent copy, history included."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other._cells = list(self._cells)
        other._history = list(self._history)
        return other

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __reduce__(self):
        return (type(self).from_record, (self.record(),))

    def __hash__(self) -> int:
        """The Zobrist hash as a signed 64-bit integer, as the engine gives it to Python."""
        value = self.zobrist()
        if value >= 2**63:
            value -= 2**64
        return -2 if value == -1 else value

    def __eq__(self, other: object) -> bool:
        """Equal positions (their notation), not the history."""
        if not isinstance(other, type(self)):
            return NotImplemented
        return self.position() == other.position()

    def playouts(self, n, seed=None, threads=None) -> dict[str, int]:
        """``n`` uniformly random playouts, reproducing the engine's exactly (see _playout.py)."""
        return _playout.playouts(self, n, seed, threads)

    def count_moves(self) -> int:
        """The number of legal moves."""
        return len(self.legal_moves())
