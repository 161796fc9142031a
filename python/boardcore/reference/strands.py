"""Strands, Nick Bentley's labelled-hexhex game, in plain Python.

This is the readable twin of the Rust engine ``boardcore.Strands``: same arguments, same notation,
same answers (docs/strands.md is the contract both follow). It is written for clarity, not speed:

- the board is a hexhex board of side N (2 <= N <= 7); the cells are in board order (row by row
  from the top, left to right), row ``r`` has its cells at ``x = offset + 2 * i`` half-cells with
  ``offset = |N - 1 - r|``; two cells are neighbours when they are in one row with ``x`` two apart,
  or in adjacent rows with ``x`` one apart;
- ``_labels`` holds the label (1-6) of every cell, covered or not (0 for a covered cell whose label
  is unknown, in a game set up from a position); ``_cells`` holds ``None`` (empty), ``BLACK`` (0)
  or ``WHITE`` (1);
- the moves of a turn are generated with ``itertools.combinations`` of the empty cells of one label,
  which yields them in exactly the documented order; they are counted with ``math.comb``;
- groups (connected stones of one colour) are found by breadth-first search.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from functools import cache
from importlib import resources
from itertools import combinations

import numpy as np

from boardcore.pieces import Color
from boardcore.reference._game import BLACK, WHITE, IllegalMoveError, NotationError, ReferenceGame, ReferenceMove
from boardcore.reference._game import CELL_PATTERN as _CELL
from boardcore.reference._game import COLOR_LETTERS as _STONE
from boardcore.reference._game import ZOBRIST_SEED as _ZOBRIST_SEED
from boardcore.reference._game import cell_key as _name_key
from boardcore.reference._game import check_length as _check_length
from boardcore.reference._game import given as _given
from boardcore.reference._game import lower as _lower
from boardcore.reference._game import position_fields as _position_fields
from boardcore.reference._game import short as _short
from boardcore.reference._game import strip as _strip

from ._actions import AxialGrid, StepState
from ._hex import HexCells
from ._splitmix import MASK64, SplitMix64

__all__ = ["BLACK", "WHITE", "IllegalMoveError", "Move", "NotationError", "Strands"]


COVERS = ("up-to", "exact")

DEFAULT_LAYOUT = "hex6"
DEFAULT_COVER = "up-to"
MIN_SIDE = 2
MAX_SIDE = 7
LABELS = range(1, 7)
OPENING_LABEL = 2

ZOBRIST_CELLS = 128

_MOVE_RE = re.compile(rf"{_CELL}(?:,{_CELL})*")
_RECORD_TAGS = ("Game", "Layout", "Cover", "Position", "Result")


# --------------------------------------------------------------------------------------------
# Cell names and geometry


def row_lengths(side: int) -> tuple[int, ...]:
    """The row lengths of the hexhex board of side ``side``: side, side+1, ..., 2*side-1, ..., side."""
    top = [side + i for i in range(side)]
    return tuple(top + top[-2::-1])


class Geometry(HexCells):
    """The cells of a hexhex board (names in board order, places, neighbours) and their ring
    distance from the centre."""

    def __init__(self, side: int) -> None:
        self.side = side
        self.lengths = row_lengths(side)
        super().__init__((length, abs(side - 1 - row)) for row, length in enumerate(self.lengths))
        # ring distance: in these doubled coordinates, |dr| + max(0, (|dx| - |dr|) / 2)
        centre_row, centre_x = side - 1, 2 * (side - 1)
        self.rings: list[int] = []
        for row, x in self.places:
            dr, dx = abs(row - centre_row), abs(x - centre_x)
            self.rings.append(dr + max(0, (dx - dr) // 2))

    def split_rows(self, values: list) -> list[list]:
        """``values`` (one per cell, board order) cut into the board's rows."""
        rows, start = [], 0
        for length in self.lengths:
            rows.append(values[start : start + length])
            start += length
        return rows


@cache
def geometry(side: int) -> Geometry:
    return Geometry(side)


_SIDE_OF_CELLS = {sum(row_lengths(n)): n for n in range(MIN_SIDE, MAX_SIDE + 1)}


@cache
def _zobrist_keys() -> tuple[int, ...]:
    """128 black keys, 128 white keys, the side key, then 6 x 128 empty-cell keys by label."""
    rng = SplitMix64(_ZOBRIST_SEED)
    return tuple(rng.next() for _ in range(2 * ZOBRIST_CELLS + 1 + 6 * ZOBRIST_CELLS))


# --------------------------------------------------------------------------------------------
# Layouts


@cache
def named_layouts() -> dict[str, tuple[tuple[int, ...], ...]]:
    """The named layouts of data/strands_layouts.json: name -> rows of labels."""
    text = (resources.files("boardcore") / "data" / "strands_layouts.json").read_text(encoding="utf-8")
    data = json.loads(text)["layouts"]
    return {
        name: tuple(tuple(int(c) for c in row if c != " ") for row in entry["rows"]) for name, entry in data.items()
    }


def _rows_problem(rows: tuple[tuple[int, ...], ...]) -> str | None:
    """Why rows of labels are not a Strands layout, or None if they are."""
    lengths = tuple(len(row) for row in rows)
    side = (len(rows) + 1) // 2
    if not MIN_SIDE <= side <= MAX_SIDE or lengths != row_lengths(side):
        return (
            f"the rows must form a hexhex board of side {MIN_SIDE} to {MAX_SIDE} (row lengths N, N+1, "
            f"..., 2N-1, ..., N), got row lengths {list(lengths)}"
        )
    for row in rows:
        for label in row:
            if label not in LABELS:
                return f"labels must be 1 to 6, got {label}"
    if not any(OPENING_LABEL in row for row in rows):
        return "a layout needs at least one cell labelled 2 (Black's opening)"
    return None


def _check_layout(layout: object) -> tuple[str | None, tuple[tuple[int, ...], ...]]:
    """(name or None, rows of labels) of the constructor's ``layout``; ValueError naming ``layout``."""
    allowed = (
        f"a layout name ({', '.join(sorted(named_layouts()))}) or rows of labels 1-6 (a list of digit "
        f"strings or of lists of ints) forming a hexhex board of side {MIN_SIDE} to {MAX_SIDE} with at "
        f"least one 2"
    )
    if isinstance(layout, str):
        if _lower(layout) in named_layouts():  # in any case, as moves are read
            return _lower(layout), named_layouts()[_lower(layout)]
        raise ValueError(f"layout must be {allowed}; got {_short(layout)}")
    if not isinstance(layout, (list, tuple)):
        raise ValueError(f"layout must be {allowed}; got {type(layout).__name__}")
    rows = []
    for row in layout:
        if isinstance(row, str):
            digits = row.replace(" ", "")
            if not digits.isascii() or not digits.isdigit():
                raise ValueError(f"layout must be {allowed}; got the row {_short(row)}")
            rows.append(tuple(int(c) for c in digits))
        elif isinstance(row, (list, tuple)) and all(isinstance(v, int) and not isinstance(v, bool) for v in row):
            rows.append(tuple(row))
        else:
            raise ValueError(f"layout must be {allowed}; got the row {row!r}")
    rows_t = tuple(rows)
    problem = _rows_problem(rows_t)
    if problem:
        raise ValueError(f"layout must be {allowed}; {problem}")
    return None, rows_t


def _check_cover(cover: object) -> str:
    if cover not in COVERS or not isinstance(cover, str):
        raise ValueError(f"cover must be 'up-to' or 'exact', got {_given(cover, typed_ints=True)}")
    return cover


def _rows_text(rows) -> str:
    return "/".join("".join(str(label) for label in row) for row in rows)


# --------------------------------------------------------------------------------------------
# Moves


class Move(ReferenceMove):
    """A Strands move: the set of cells covered in one turn, e.g. ``Move("d4,e5")``.

    Parsing is case-insensitive, ignores surrounding whitespace and accepts the cells in any order;
    ``str()`` lists them in board order (row letter, then number) joined by ``,``. A cell listed
    twice, inner whitespace, or any other shape raises NotationError. Immutable and hashable;
    compares equal to any notation string of the same move. Whether the cells are on the board,
    empty and of one label is a question for ``Strands.play``.
    """

    __slots__ = ()
    # Defining __eq__ below would otherwise set __hash__ to None.
    __hash__ = ReferenceMove.__hash__

    def __init__(self, notation: str) -> None:
        self._check_notation(notation)
        self._set_fields(_parse_move(notation))

    @classmethod
    def _of(cls, cells: tuple[str, ...]) -> Move:
        """A move from cell names already in board order, without parsing."""
        return cls._with_fields(cells)

    @property
    def cells(self) -> tuple[str, ...]:
        """The covered cells in board order (``placed``: a Strands move removes nothing)."""
        return self._placed

    def __str__(self) -> str:
        return ",".join(self._placed)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Move):
            return self._placed == other._placed
        if isinstance(other, str):
            try:
                return self._placed == _parse_move(other)
            except NotationError:
                return False
        return NotImplemented


def _parse_move(notation: str) -> tuple[str, ...]:
    """The cells of a move's notation, in board order; NotationError for anything malformed."""
    _check_length("move", notation)
    text = _lower(_strip(notation))
    if _MOVE_RE.fullmatch(text) is None:
        raise NotationError(
            "expected a move: cells like 'd4' (a row letter and a number) joined by ',' without "
            f"spaces, like 'd4,e5'; got {_short(notation)}"
        )
    cells = text.split(",")
    for i, name in enumerate(cells):
        if name in cells[:i]:
            raise NotationError(f"expected distinct cells, got {name} twice in {_short(notation)}")
    return tuple(sorted(cells, key=_name_key))


# --------------------------------------------------------------------------------------------
# Records


def _compare_sizes(black: list[int], white: list[int]) -> Color | None:
    """BLACK or WHITE, whose group sizes (largest first) win position by position, a missing group
    counting 0; None when the lists are equal."""
    for i in range(max(len(black), len(white))):
        b = black[i] if i < len(black) else 0
        w = white[i] if i < len(white) else 0
        if b != w:
            return BLACK if b > w else WHITE
    return None


# --------------------------------------------------------------------------------------------
# The game


class Strands(ReferenceGame):
    """A game of Strands on a labelled hexhex board (``hex6`` by default), Black to open.

    ``layout`` is a named layout of data/strands_layouts.json or rows of labels (digit strings,
    spaces ignored, or lists of ints); ``cover`` is ``"up-to"`` (default) or ``"exact"``. None means
    the default. Raises ValueError naming the argument when one is not allowed.

    ``str(game)`` is a text board: one line per row, indented by the row's offset in spaces, the
    cells (the label digit when empty, ``b`` black, ``w`` white) separated by single spaces::

           4 3 3 4
          3 2 2 2 3
         3 2 2 2 2 3
        4 2 b 1 2 2 4
        ...
    """

    _GAME = "strands"
    _RECORD_TAGS = _RECORD_TAGS
    _MOVE = Move
    _MOVE_ATTRIBUTES = ("cells",)

    # ---- construction ----------------------------------------------------------------------

    def __init__(self, layout=DEFAULT_LAYOUT, cover=DEFAULT_COVER) -> None:
        name, rows = _check_layout(DEFAULT_LAYOUT if layout is None else layout)
        cover = _check_cover(DEFAULT_COVER if cover is None else cover)
        geo = geometry(len(rows) // 2 + 1)
        labels = [label for row in rows for label in row]
        self._setup(geo, labels, [None] * geo.size, BLACK, cover, name)

    def _setup(self, geo: Geometry, labels: list[int], cells: list, to_move: int, cover: str, name: str | None) -> None:
        """Sets every field."""
        self._geo = geo
        self._labels = labels  # never mutated: shared by copies
        self._cells = cells
        self._to_move = to_move
        self._cover = cover
        self._layout_name = name
        self._history: list[tuple[Move, list, int]] = []  # (move, cells before, side before)
        self._start_position: str | None = None  # set when the game began from from_position

    @staticmethod
    def layout_names() -> list[str]:
        """The names of the named layouts, sorted."""
        return sorted(named_layouts())

    @staticmethod
    def random_layout(side: int, seed: int) -> list[str]:
        """The rows (digit strings) of the seeded random layout of docs/strands.md.

        SplitMix64 with state ``seed``; for each cell in board order, ``d`` its ring distance from
        the centre: ``level = (5 * d) // (side - 1)``, ``label = 1 + min(5, max(0, level +
        below(3) - 1))``. If no cell got a 2, the first cell of ring 1 in board order becomes a 2.
        Raises ValueError naming ``side`` (2 to 7) or ``seed`` (0 to 2**64-1).
        """
        if isinstance(side, bool) or not isinstance(side, int) or not MIN_SIDE <= side <= MAX_SIDE:
            raise ValueError(f"side must be an integer from {MIN_SIDE} to {MAX_SIDE}, got {_given(side)}")
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MASK64:
            raise ValueError(f"seed must be an integer from 0 to 2**64-1, got {_given(seed)}")
        geo = geometry(side)
        rng = SplitMix64(seed)
        labels = []
        for d in geo.rings:
            level = (5 * d) // (side - 1)
            labels.append(1 + min(5, max(0, level + rng.below(3) - 1)))
        if OPENING_LABEL not in labels:
            labels[geo.rings.index(1)] = OPENING_LABEL
        return ["".join(str(label) for label in row) for row in geo.split_rows(labels)]

    @classmethod
    def from_position(cls, text: str) -> Strands:
        """The game at a position ``RULE ROWS SIDE`` (see ``position()``), without history.

        The labels of covered cells are not in the notation: ``labels`` gives 0 for them, and
        ``layout_name`` is None. A board without stones is the opening: it must have Black to move
        and an empty 2. Raises NotationError if the text is not a valid position.
        """
        fields = _position_fields(text, "RULE ROWS SIDE")
        cover, rows_text, side = fields
        if cover not in COVERS:
            raise NotationError(f"position: expected the rule 'up-to' or 'exact' first, got {_short(cover)}")
        lines = rows_text.split("/")
        n = (len(lines) + 1) // 2
        if not MIN_SIDE <= n <= MAX_SIDE or tuple(len(line) for line in lines) != row_lengths(n):
            raise NotationError(
                f"position: expected the rows of a hexhex board of side {MIN_SIDE} to {MAX_SIDE} joined "
                f"by '/' (row lengths N, N+1, ..., 2N-1, ..., N), got {_short(rows_text)}"
            )
        labels: list[int] = []
        cells: list[int | None] = []
        for row, line in enumerate(lines):
            for c in line:
                if c in "bw":
                    labels.append(0)
                    cells.append(_STONE.index(c))
                elif c in "123456":
                    labels.append(int(c))
                    cells.append(None)
                else:
                    raise NotationError(
                        f"position: expected row {chr(ord('a') + row)} to hold label digits 1-6, 'b' "
                        f"or 'w', got {_short(line)}"
                    )
        if side not in _STONE:
            raise NotationError(f"position: expected the side to move ('b' or 'w') third, got {_short(side)}")
        to_move = _STONE.index(side)
        if all(c is None for c in cells) and (to_move != BLACK or OPENING_LABEL not in labels):
            raise NotationError(
                "position: a board without stones is the opening: Black must be to move and a cell "
                "labelled 2 must be empty"
            )
        game = cls.__new__(cls)
        game._setup(geometry(n), labels, cells, to_move, cover, None)
        game._start_position = game.position()
        return game

    @classmethod
    def _game_from_tags(cls, tags: dict[str, str]) -> Strands:
        if "Position" in tags:
            if "Layout" in tags or "Cover" in tags:
                raise NotationError(
                    "record: a Position tag excludes the tags Layout and Cover (the position says both)"
                )
            try:
                return cls.from_position(tags["Position"])
            except NotationError as error:
                raise NotationError(f"record: tag Position: {error}") from None
        if "Layout" not in tags:
            raise NotationError('record: the tag Layout is missing (expected a line like [Layout "hex6"])')
        cover = tags.get("Cover", DEFAULT_COVER)
        if cover not in COVERS:
            raise NotationError(f"record: tag Cover must be 'up-to' or 'exact', got {_short(cover)}")
        value = tags["Layout"]
        if value in named_layouts():
            return cls(value, cover)
        rows = value.split("/")
        if not all(row.isascii() and row.isdigit() for row in rows):
            raise NotationError(
                f"record: tag Layout: expected a layout name or digit rows joined by '/', got {_short(value)}"
            )
        try:
            return cls(rows, cover)
        except ValueError as error:
            raise NotationError(f"record: tag Layout: {error}") from None

    # ---- properties ------------------------------------------------------------------------

    @property
    def rows(self) -> tuple[tuple[int, int], ...]:
        """The board's rows as (length, offset in half-cells) pairs."""
        return self._geo.rows

    @property
    def cover(self) -> str:
        """``"up-to"`` or ``"exact"``."""
        return self._cover

    @property
    def layout_name(self) -> str | None:
        """The named layout's name; None for custom or random rows and for games from a position."""
        return self._layout_name

    @property
    def side(self) -> int:
        """The side of the hexhex board."""
        return self._geo.side

    def cells(self) -> tuple[str, ...]:
        """The names of all cells in board order."""
        return tuple(self._geo.names)

    @property
    def labels(self) -> tuple[int, ...]:
        """The label of every cell in board order, covered ones included (0 when unknown: a covered
        cell of a game set up from a position)."""
        return tuple(self._labels)

    # ---- moves -----------------------------------------------------------------------------

    def _is_opening(self) -> bool:
        """Black's first turn: no stone on the board."""
        return all(c is None for c in self._cells)

    def _empty_by_label(self) -> dict[int, list[int]]:
        """Label -> the empty cells carrying it, in board order; labels without empty cells omitted."""
        groups: dict[int, list[int]] = {}
        for i, cell in enumerate(self._cells):
            if cell is None:
                groups.setdefault(self._labels[i], []).append(i)
        return dict(sorted(groups.items()))

    def _sizes(self, label: int, remaining: int) -> range:
        """The allowed numbers of cells for a label with ``remaining`` empty cells."""
        if self._is_opening():
            return range(1, 2) if label == OPENING_LABEL else range(0)
        top = min(label, remaining)
        return range(1, top + 1) if self._cover == "up-to" else range(top, top + 1)

    def _move_parts(self) -> Iterator[tuple[int, ...]]:
        """The cell indices of every legal move, in legal move order: by label, by number of
        cells, then lexicographically (``combinations`` yields that order)."""
        for label, empty in self._empty_by_label().items():
            for k in self._sizes(label, len(empty)):
                yield from combinations(empty, k)

    def _make_move(self, indices: tuple[int, ...]) -> Move:
        return Move._of(tuple(self._geo.names[i] for i in indices))

    def moves(self) -> Iterator[Move]:
        """The legal moves, lazily, in the order of ``legal_moves()``."""
        for indices in self._move_parts():
            yield self._make_move(indices)

    def legal_moves(self) -> list[Move]:
        """Every legal move: by label ascending, then number of cells ascending, then the sets of
        cells in lexicographic (board) order. ``[]`` once the board is full."""
        return list(self.moves())

    def count_moves(self) -> int:
        """The number of legal moves, counted with binomials (no generation)."""
        return sum(
            math.comb(len(empty), k)
            for label, empty in self._empty_by_label().items()
            for k in self._sizes(label, len(empty))
        )

    def _illegality(self, move: Move) -> str | None:
        """Why ``move`` may not be played here, or None if it may."""
        if self.is_over():
            return f"{move} is not allowed: the game is over"
        indices = []
        for name in move.cells:
            i = self._geo.index.get(name)
            if i is None:
                return f"{move} is not allowed: {name} is off the board (side {self._geo.side})"
            if self._cells[i] is not None:
                return f"{move} is not allowed: {name} is covered"
            indices.append(i)
        labels = {self._labels[i] for i in indices}
        if len(labels) > 1:
            return f"{move} is not allowed: all cells of a turn must carry the same label, got {sorted(labels)}"
        label = labels.pop()
        if self._is_opening():
            if label != OPENING_LABEL or len(indices) != 1:
                return f"{move} is not allowed: Black's opening covers exactly one cell labelled 2"
            return None
        remaining = sum(1 for i, c in enumerate(self._cells) if c is None and self._labels[i] == label)
        sizes = self._sizes(label, remaining)
        if len(indices) not in sizes:
            rule = f"1 to {sizes[-1]}" if self._cover == "up-to" else f"exactly {sizes[0]}"
            return (
                f"{move} is not allowed: {len(indices)} cells labelled {label}, the rule {self._cover} "
                f"allows {rule} ({remaining} empty)"
            )
        return None

    def _parts_of(self, move: Move) -> tuple[int, ...]:
        return tuple(self._geo.index[name] for name in move.cells)

    def _push(self, indices: tuple[int, ...], move: Move | None = None) -> None:
        """Plays a legal move without checking it."""
        if move is None:
            move = self._make_move(indices)
        self._history.append((move, self._cells, self._to_move))
        cells = list(self._cells)
        for i in indices:
            cells[i] = self._to_move
        self._cells = cells
        self._to_move = 1 - self._to_move

    # ---- end and score ---------------------------------------------------------------------

    def is_over(self) -> bool:
        """True when every cell is covered."""
        return None not in self._cells

    def _group_sizes(self, colour: int) -> list[int]:
        """The sizes of ``colour``'s groups (connected stones of that colour), largest first."""
        groups = self._geo.groups(lambda i: self._cells[i] == colour)
        return sorted((len(group) for group in groups), reverse=True)

    def _score(self) -> tuple[int, int]:
        """The size of each player's largest group (the engine's ``Position::score``)."""
        black, white = self.score()
        return (black[0] if black else 0), (white[0] if white else 0)

    def score(self) -> tuple[list[int], list[int]]:
        """(black group sizes, white group sizes), each sorted from largest."""
        return self._group_sizes(BLACK), self._group_sizes(WHITE)

    def winner(self) -> Color | None:
        """BLACK or WHITE once the board is full: the group sizes compared position by position,
        a missing group counting 0, the first difference decides. None before the end (and for a
        complete tie, impossible on the odd hexhex boards)."""
        if not self.is_over():
            return None
        return _compare_sizes(*self.score())

    # ---- notation --------------------------------------------------------------------------

    def _row_texts(self) -> list[list[str]]:
        return self._geo.split_rows(
            [str(label) if cell is None else _STONE[cell] for label, cell in zip(self._labels, self._cells)]
        )

    def position(self) -> str:
        """``RULE ROWS SIDE``, e.g. ``up-to 4334/32223/322223/42b1224/322223/32223/4334 w``."""
        rows = "/".join("".join(row) for row in self._row_texts())
        return f"{self._cover} {rows} {_STONE[self._to_move]}"

    def _variant_tags(self) -> list[tuple[str, str]]:
        """Layout (a name or digit rows joined by '/') and Cover."""
        rows = self._geo.split_rows(self._labels)
        return [("Layout", self._layout_name or _rows_text(rows)), ("Cover", self._cover)]

    def _text_board(self) -> str:
        side = self._geo.side
        return "\n".join(" " * abs(side - 1 - r) + " ".join(row) for r, row in enumerate(self._row_texts()))

    # ---- hashing ---------------------------------------------------------------------------

    def zobrist(self) -> int:
        """The 64-bit Zobrist hash: the keys of every stone by colour and cell, of every empty cell
        by label (``(label - 1) * 128 + cell``), and the side key when White is to move."""
        keys = _zobrist_keys()
        value = keys[2 * ZOBRIST_CELLS] if self._to_move == WHITE else 0
        empty_base = 2 * ZOBRIST_CELLS + 1
        for i, cell in enumerate(self._cells):
            if cell is None:
                value ^= keys[empty_base + (self._labels[i] - 1) * ZOBRIST_CELLS + i]
            else:
                value ^= keys[cell * ZOBRIST_CELLS + i]
        return value

    # ---- step form -------------------------------------------------------------------------

    def actions(self, *, any_order: bool = False) -> StrandsActions:
        """A snapshot of the current position in step form (docs/actions.md); with
        ``any_order``, a turn covers its cells in any order, not only in board order."""
        return StrandsActions(self, any_order=any_order)


# --------------------------------------------------------------------------------------------
# Step form (docs/actions.md)


class StrandsActions(StepState):
    """Strands in step form: action ``cell`` covers that cell this turn, action ``N`` (the number
    of cells) ends the turn.

    Written from the bijection docs/actions.md states: a turn's steps are the cells of a legal
    move in board order, then ``end`` unless the turn ended by itself. So the legal cells are the
    next cells of the legal moves that begin with the cells covered so far; ``end`` is legal when
    those cells are a move themselves; and the turn ends by itself when no move is longer.

    With ``any_order`` the turn's steps are the cells of a legal move in any order: the legal
    cells are the other cells of the legal moves that contain the cells covered so far; ``end``
    is legal when those cells are a move and a longer one contains them; the turn ends by itself
    when none does.

    Observation ``(10, H, W)`` on the axial grid: the mover's stones (with the cells covered this
    turn), the opponent's, the empty cells labelled 1 to 6, the board, the cells covered this turn.
    """

    def __init__(self, game: Strands, *, any_order: bool = False) -> None:
        self._game: Strands = game.copy()  # the position at the start of the turn
        self._covered: tuple[int, ...] = ()  # this turn's cells so far, in board order
        if not isinstance(any_order, (bool, np.bool_)):  # what the engine's bool extraction takes
            raise TypeError(f"any_order must be True or False, got {_given(any_order, typed_ints=True)}")
        self._any_order = bool(any_order)
        geo = game._geo
        self._grid = AxialGrid(geo.places)
        self.num_actions = geo.size + 1
        self.observation_shape = (10, self._grid.height, self._grid.width)

    observation_planes = ("mover", "opponent", *(f"empty_{label}" for label in range(1, 7)), "board", "covered")
    _player_planes = (slice(0, 1), slice(1, 2))

    @property
    def _end(self) -> int:
        return self.num_actions - 1

    @property
    def any_order(self) -> bool:
        """Whether a turn's cells may come in any order (``Strands.actions(any_order=True)``)."""
        return self._any_order

    @property
    def covered(self) -> tuple[str, ...]:
        """The cells covered so far this turn, in board order (not yet in ``position()``)."""
        return tuple(self._game._geo.names[i] for i in self._covered)

    def _moves_from_here(self) -> list[tuple[int, ...]]:
        """The legal moves (cells in board order) that begin with the cells covered so far, or
        in any order, that contain them."""
        k = len(self._covered)
        if self._any_order:
            covered = set(self._covered)
            return [cells for cells in self._game._move_parts() if covered <= set(cells)]
        return [cells for cells in self._game._move_parts() if cells[:k] == self._covered]

    def legal_actions(self) -> list[int]:
        k = len(self._covered)
        moves = self._moves_from_here()
        if self._any_order:
            actions = {cell for cells in moves for cell in cells if cell not in self._covered}
        else:
            actions = {cells[k] for cells in moves if len(cells) > k}
        if k and self._covered in moves:
            actions.add(self._end)
        return sorted(actions)

    def _apply(self, action: int) -> None:
        if action != self._end:
            self._covered = tuple(sorted((*self._covered, action)))
            if any(len(cells) > len(self._covered) for cells in self._moves_from_here()):
                return
        self._game._push(self._covered)
        self._covered = ()

    def _name(self, action: int) -> str:
        return "end" if action == self._end else self._game._geo.names[action]

    def _observe(self) -> np.ndarray:
        """``float32 (10, H, W)``, from the side to move's perspective."""
        game = self._game
        mover = game.to_move
        empty = [i for i, c in enumerate(game._cells) if c is None and i not in self._covered]
        planes = self._grid.planes(10)
        self._grid.mark(planes, 0, [i for i, c in enumerate(game._cells) if c == mover] + list(self._covered))
        self._grid.mark(planes, 1, [i for i, c in enumerate(game._cells) if c == 1 - mover])
        for label in LABELS:
            self._grid.mark(planes, 1 + label, [i for i in empty if game._labels[i] == label])
        self._grid.mark(planes, 8, range(game._geo.size))
        self._grid.mark(planes, 9, self._covered)
        return planes

    def position(self) -> str:
        """The position at the start of the turn under way."""
        return self._game.position()

    def __repr__(self) -> str:
        order = " order=any" if self._any_order else ""  # as the state text shows the mode
        turn = f" covering {','.join(self.covered)}" if self._covered else ""
        return f"<StrandsActions {self.position()!r}{order}{turn}>"
