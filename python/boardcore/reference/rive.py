"""Rive, Mark Steere's hex placement game, in plain Python.

This is the readable twin of the Rust engine ``boardcore.Rive``: same arguments, same notation,
same answers (docs/rive.md is the contract both follow). It is written for clarity, not speed:

- the board is a list of cells in board order (row by row from the top, left to right), each
  ``None`` (empty), ``BLACK`` (0) or ``WHITE`` (1);
- every cell has an explicit list of its neighbours, computed from the row layout: a cell's
  horizontal position is ``x = offset + 2 * i`` (in half-cells), and two cells are neighbours when
  they are in one row with ``x`` two apart, or in adjacent rows with ``x`` one apart;
- groups (connected stones of both colours) are found by breadth-first search;
- the survivor sets of a capture are found by brute force: every combination of the new group's
  stones that keeps the placed stone and has the right size (``itertools.combinations``),
  filtered by connectivity, then sorted into the documented order. The engine enumerates
  connected subgraphs instead; this independence is the point of the twin.

Single-stone form (``single_stones=True``): a capture is a placement alone (``c3``), then single
removals (``xb2``), each keeping the new group connected, until the group has its target size. While
a capture is under way the game remembers the placed cell and how many stones remain to remove.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import cache
from itertools import combinations

import numpy as np

from boardcore.reference._game import BLACK, WHITE, IllegalMoveError, NotationError, ReferenceGame, ReferenceMove
from boardcore.reference._game import CELL_PATTERN as _CELL
from boardcore.reference._game import COLOR_LETTERS as _STONE
from boardcore.reference._game import COLOR_NAMES as _COLOR_NAMES
from boardcore.reference._game import ZOBRIST_SEED as _ZOBRIST_SEED
from boardcore.reference._game import cell_key as _name_key
from boardcore.reference._game import check_length as _check_length
from boardcore.reference._game import given as _given
from boardcore.reference._game import lower as _lower
from boardcore.reference._game import placed_cells as _placed_cells
from boardcore.reference._game import position_fields as _position_fields
from boardcore.reference._game import short as _short
from boardcore.reference._game import strip as _strip

from ._actions import AxialGrid, StepState
from ._hex import HexCells
from ._splitmix import SplitMix64

__all__ = ["BLACK", "WHITE", "IllegalMoveError", "Move", "NotationError", "Rive"]


DEFAULT_BOARD = "hex335"
MIN_HEX = 2
MAX_HEX = 7
MAX_ROWS = 26  # row letters a to z
MAX_LENGTH = 99  # cell numbers 1 to 99
MAX_OFFSET = 99
MAX_CELLS = 128  # the Zobrist keys cover 128 cells

ZOBRIST_CELLS = 128
ZOBRIST_REMAINING = 32

Cell = int | None  # BLACK, WHITE or None for an empty cell
Layout = tuple[tuple[int, int], ...]  # the rows, each (length, offset in half-cells)
MoveParts = tuple[str, int | None, tuple[int, ...]]  # (kind, placed cell, removed cells) of a move

_CELL_RE = re.compile(_CELL)
_MOVE_RE = re.compile(
    rf"(?P<cell>{_CELL})(?:x(?P<removed>{_CELL}(?:,{_CELL})*))?"  # a placement, maybe a capture
    rf"|x(?P<step>{_CELL})"  # one removal step of the single-stone form
    r"|(?P<swap>swap)"
)
_HEX_RE = re.compile(r"hex([2-9]|[1-9][0-9]+)")
_INT = r"(?:0|[1-9][0-9]?)"  # 0 to 99, without leading zeros, as the engine reads them
_CUSTOM_RE = re.compile(rf"{_INT}@{_INT}(?:,{_INT}@{_INT})*")
_CAPTURE_RE = re.compile(rf"capture=({_CELL}):([1-9][0-9]*)")


# --------------------------------------------------------------------------------------------
# Moves


class Move(ReferenceMove):
    """A Rive move: a placement (``c3``), a capture (``c3xb2,d1``: place on c3, remove the stones
    on b2 and d1), a removal step of the single-stone form (``xb2``) or the swap (``swap``).

    Parsing is case-insensitive, ignores surrounding whitespace and accepts the removed cells in
    any order; ``str()`` lists them in board order (row letter, then number). A cell listed twice,
    inner whitespace, or any other shape raises NotationError. Immutable and hashable; compares
    equal to any notation string of the same move (``Move("c3xb2,d1") == " C3xD1,B2 "``).

    ``cell`` is the placed cell, None for the swap and for a removal step; ``removed`` the removed
    cells in board order (one cell for a removal step, ``()`` for a plain placement or the swap).

    Only the shape is checked here: whether the cells are on the board, empty, in the group... is
    a question for ``Rive.play``.
    """

    __slots__ = ("_kind",)
    # Defining __eq__ below would otherwise set __hash__ to None.
    __hash__ = ReferenceMove.__hash__
    _kind: str  # "place", "remove" (a single-stone removal step) or "swap"

    def __init__(self, notation: str) -> None:
        self._check_notation(notation)
        kind, cell, removed = _parse_move(notation)
        self._set_fields(_placed_cells(cell), removed, _kind=kind)

    @classmethod
    def _of(cls, kind: str, cell: str | None, removed: tuple[str, ...] = ()) -> Move:
        """A move from normalised parts (removed cells in board order), without parsing."""
        return cls._with_fields(_placed_cells(cell), removed, _kind=kind)

    @property
    def cell(self) -> str | None:
        """The placed cell; None for the swap and for a removal step."""
        return self._placed_cell

    @property
    def is_swap(self) -> bool:
        return self._kind == "swap"

    @property
    def is_removal(self) -> bool:
        """True for a removal step of the single-stone form (``xb2``)."""
        return self._kind == "remove"

    def _parts(self) -> tuple[str, str | None, tuple[str, ...]]:
        return self._kind, self.cell, self._removed

    def __str__(self) -> str:
        if self._kind == "swap":
            return "swap"
        if self._kind == "remove":
            return f"x{self._removed[0]}"
        if not self._removed:
            return str(self.cell)
        return f"{self.cell}x{','.join(self._removed)}"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Move):
            return self._parts() == other._parts()
        if isinstance(other, str):
            try:
                return self._parts() == _parse_move(other)
            except NotationError:
                return False
        return NotImplemented


def _parse_move(notation: str) -> tuple[str, str | None, tuple[str, ...]]:
    """(kind, placed cell, removed cells in board order) of a move's notation.

    The shapes are ``CELL``, ``CELLxCELL,CELL,...``, ``xCELL`` and ``swap``, case-insensitive,
    surrounding blanks ignored; a cell is a row letter and a number from 1 to 99 without a
    leading zero. Raises NotationError for anything else, and when a removed cell is listed twice.
    """
    _check_length("move", notation)
    match = _MOVE_RE.fullmatch(_lower(_strip(notation)))
    if match is None:
        raise NotationError(
            "expected a move: a cell like 'c3', a capture like 'c3xb2,d1' (the cell, 'x', then the "
            "removed cells joined by ','), a removal step like 'xb2', or 'swap'; "
            f"got {_short(notation)}"
        )
    if match.group("swap"):
        return "swap", None, ()
    if match.group("step"):
        return "remove", None, (match.group("step"),)
    removed = match.group("removed").split(",") if match.group("removed") else []
    for i, name in enumerate(removed):
        if name in removed[:i]:
            raise NotationError(f"expected the removed cells to be distinct, got {name} twice in {_short(notation)}")
    return "place", match.group("cell"), tuple(sorted(removed, key=_name_key))


# --------------------------------------------------------------------------------------------
# Boards


def hex_layout(side: int) -> Layout:
    """The rows of the hexhex board of side ``side``: row i has side + i cells at offset
    side - 1 - i for i < side, then the rows shrink symmetrically."""
    top = [(side + i, side - 1 - i) for i in range(side)]
    return tuple(top + top[-2::-1])


NAMED_LAYOUTS: dict[str, Layout] = {f"hex{n}": hex_layout(n) for n in range(MIN_HEX, MAX_HEX + 1)}
NAMED_LAYOUTS["hex335"] = ((3, 2), (4, 1), (5, 0), (5, 1), (5, 2), (4, 3), (3, 4))
LAYOUT_NAMES: dict[Layout, str] = {layout: name for name, layout in NAMED_LAYOUTS.items()}

assert NAMED_LAYOUTS["hex3"] == ((3, 2), (4, 1), (5, 0), (4, 1), (3, 2))
assert NAMED_LAYOUTS["hex4"] == ((4, 3), (5, 2), (6, 1), (7, 0), (6, 1), (5, 2), (4, 3))


def _layout_problem(rows: Layout) -> str | None:
    """Why a row layout is not an allowed board, or None if it is."""
    if not 1 <= len(rows) <= MAX_ROWS:
        return f"a board has 1 to {MAX_ROWS} rows, got {len(rows)}"
    for number, (length, offset) in enumerate(rows, start=1):
        if not 1 <= length <= MAX_LENGTH:
            return f"row {number}: a length is 1 to {MAX_LENGTH}, got {length}"
        if not 0 <= offset <= MAX_OFFSET:
            return f"row {number}: an offset is 0 to {MAX_OFFSET}, got {offset}"
    total = sum(length for length, _ in rows)
    if total > MAX_CELLS:
        return f"a board has at most {MAX_CELLS} cells, got {total}"
    if total % 2 == 0:
        return f"a board needs an odd number of cells (no draws), got {total}"
    return None


def layout_name(rows: Layout) -> str:
    """The board's name in notation: a named layout's name, else ``L@O`` joined by ``,``."""
    return LAYOUT_NAMES.get(rows) or ",".join(f"{length}@{offset}" for length, offset in rows)


def _check_board(board: object) -> Layout:
    """The layout of the constructor's ``board`` argument; ValueError naming ``board`` if bad."""
    allowed = (
        f"a name (hex335, or hexN for {MIN_HEX} <= N <= {MAX_HEX}) or a list of (length, offset) "
        f"rows: 1 to {MAX_ROWS} rows, lengths 1 to {MAX_LENGTH}, offsets 0 to {MAX_OFFSET}, at most "
        f"{MAX_CELLS} cells, an odd number of cells"
    )
    if isinstance(board, str):
        if _lower(board) in NAMED_LAYOUTS:  # in any case, as moves are read
            return NAMED_LAYOUTS[_lower(board)]
        raise ValueError(f"board must be {allowed}; got {_short(board)}")
    if not isinstance(board, (list, tuple)):
        raise ValueError(f"board must be {allowed}; got {type(board).__name__}")
    rows = []
    for row in board:
        if (
            not isinstance(row, (list, tuple))
            or len(row) != 2
            or any(isinstance(v, bool) or not isinstance(v, int) for v in row)
        ):
            raise ValueError(f"board must be {allowed}; got the row {row!r}")
        rows.append((row[0], row[1]))
    layout = tuple(rows)
    problem = _layout_problem(layout)
    if problem:
        raise ValueError(f"board must be {allowed}; {problem}")
    return layout


def _parse_board_name(text: str) -> Layout:
    """The layout named in a position or record (``hex335``, ``hex5``, ``3@0,2@1``...);
    raises NotationError if it is not an allowed board."""
    if text in NAMED_LAYOUTS:
        return NAMED_LAYOUTS[text]
    expected = (
        f"a board name (hex335, or hexN for {MIN_HEX} <= N <= {MAX_HEX}) or rows 'L@O' joined by ',' (like '3@0,2@1')"
    )
    if _HEX_RE.fullmatch(text) or _CUSTOM_RE.fullmatch(text) is None:
        raise NotationError(f"expected {expected}, got {_short(text)}")
    layout = tuple((int(length), int(offset)) for length, offset in (part.split("@") for part in text.split(",")))
    problem = _layout_problem(layout)
    if problem:
        raise NotationError(f"expected {expected}; {problem}")
    return layout


class Geometry(HexCells):
    """The cells of a layout (names in board order, their places, their neighbours) and its name."""

    def __init__(self, rows: Layout) -> None:
        super().__init__(rows)
        self.name = layout_name(rows)


@cache
def geometry(rows: Layout) -> Geometry:
    return Geometry(rows)


@cache
def _zobrist_keys() -> tuple[int, ...]:
    """128 black keys, 128 white keys, the side key, 128 capture-cell keys, 32 remaining keys."""
    rng = SplitMix64(_ZOBRIST_SEED)
    return tuple(rng.next() for _ in range(3 * ZOBRIST_CELLS + 1 + ZOBRIST_REMAINING))


# --------------------------------------------------------------------------------------------
# Records


_RECORD_TAGS = ("Game", "Board", "Swap", "SingleStones", "Playouts", "Position", "Result")
PLAYOUT_POLICIES = ("uniform", "capture-cell")


def _check_playout_policy(policy: object) -> str:
    """``policy`` ("uniform" for None), or the engine's TypeError / ValueError."""
    if policy is None:
        return "uniform"
    if not isinstance(policy, str):
        raise TypeError(f"playout_policy must be a string, got {type(policy).__name__}")
    if policy not in PLAYOUT_POLICIES:
        raise ValueError(f"playout_policy must be 'uniform' or 'capture-cell', got \"{policy}\"")
    return policy


_YES_NO = {"yes": True, "no": False}


def _yes_no(tags: dict[str, str], name: str) -> bool | None:
    """The value of a yes/no tag, None when absent; raises NotationError for another value."""
    if name not in tags:
        return None
    if tags[name] not in _YES_NO:
        raise NotationError(f'record: tag {name} must be "yes" or "no", got {tags[name]!r}')
    return _YES_NO[tags[name]]


def _check_flag(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be True or False, got {_given(value, typed_ints=True)}")
    return value


# --------------------------------------------------------------------------------------------
# The game


class Rive(ReferenceGame):
    """A game of Rive on a hex board (``hex335`` by default), Black to move on an empty board.

    ``board`` is a name (``hex3``, ``hex335``, ``hex4``, ``hexN`` for 2 <= N <= 7) or a list of rows,
    each a ``(length, offset)`` pair (offset in half-cells); ``swap=True`` lets White swap as its
    first move; ``single_stones=True`` plays captures one stone at a time. None means the default.
    Raises ValueError naming the argument when one is not allowed (docs/rive.md, "Boards").

    ``str(game)`` is a text board: one line per row, indented by the row's offset in spaces, the
    cells (``.`` empty, ``b`` black, ``w`` white) separated by single spaces, so that neighbours in
    adjacent rows sit one column apart::

          b . .
         . . . .
        . . . . .
         . . . .
          . . w
    """

    _GAME = "rive"
    _RECORD_TAGS = _RECORD_TAGS
    _MOVE = Move
    _MOVE_ATTRIBUTES = ("cell", "removed", "is_swap")

    # ---- construction ----------------------------------------------------------------------

    def __init__(self, board=DEFAULT_BOARD, *, swap=False, single_stones=False, playout_policy=None) -> None:
        rows = _check_board(DEFAULT_BOARD if board is None else board)
        swap = _check_flag("swap", False if swap is None else swap)
        single_stones = _check_flag("single_stones", False if single_stones is None else single_stones)
        policy = _check_playout_policy(playout_policy)
        geo = geometry(rows)
        self._setup(geo, [None] * geo.size, BLACK, swap, single_stones, None)
        self._playout_policy = policy

    def _setup(
        self,
        geo: Geometry,
        cells: list[Cell],
        to_move: int,
        swap: bool,
        single_stones: bool,
        capture: tuple[int, int] | None,
    ) -> None:
        """Sets every field."""
        self._geo = geo
        self._cells = cells
        self._to_move = to_move
        self._swap = swap
        self._single_stones = single_stones
        # The capture under way in the single-stone form: (placed cell index, stones still to remove).
        self._capture = capture
        # (move, cells before, side before, capture before) for every move played
        self._history: list[tuple[Move, list[Cell], int, tuple[int, int] | None]] = []
        self._start_position: str | None = None  # set when the game began from from_position
        # How random moves are drawn (not a rule: no part of the position or its equality).
        self._playout_policy = "uniform"

    @classmethod
    def from_position(cls, text: str) -> Rive:
        """The game at a position given as ``BOARD ROWS SIDE [swap] [single] [capture=CELL:N]``
        (see ``position()``). The game has no history. Raises NotationError if the text is not a
        valid position.
        """
        fields = _position_fields(text, "BOARD ROWS SIDE [swap] [single] [capture=CELL:N]", range(3, 7))
        board_text, rows_text, side, *extras = fields
        try:
            rows = _parse_board_name(board_text)
        except NotationError as error:
            raise NotationError(f"position: board: {error}") from None
        geo = geometry(rows)
        cells = cls._parse_rows(geo, rows_text)
        if side not in _STONE:
            raise NotationError(f"position: expected the side to move ('b' or 'w') third, got {_short(side)}")
        to_move = _STONE.index(side)
        # the optional words, each at most once, in this order: swap, single, capture=CELL:N
        swap = bool(extras) and extras[0] == "swap"
        extras = extras[swap:]
        single = bool(extras) and extras[0] == "single"
        extras = extras[single:]
        capture = None
        if extras:
            match = _CAPTURE_RE.fullmatch(extras[0])
            if match is None or len(extras) > 1 or not single:
                raise NotationError(
                    "position: after the side to move, expected the optional words 'swap', 'single' "
                    "and (single-stone form only) 'capture=CELL:N', in that order, got "
                    f"{_short(' '.join(extras))}"
                )
            capture = cls._parse_capture(geo, cells, to_move, match.group(1), match.group(2))
        game = cls.__new__(cls)
        game._setup(geo, cells, to_move, swap, single, capture)
        game._start_position = game.position()
        return game

    @staticmethod
    def _parse_rows(geo: Geometry, rows_text: str) -> list[Cell]:
        """The cells of a position's ROWS field; raises NotationError if it is not valid."""
        lines = rows_text.split("/")
        if len(lines) != len(geo.rows):
            raise NotationError(
                f"position: expected {len(geo.rows)} rows joined by '/' on {geo.name}, got {len(lines)}"
            )
        cells: list[Cell] = []
        for row, (line, (length, _)) in enumerate(zip(lines, geo.rows)):
            if len(line) != length or any(c not in ".bw" for c in line):
                raise NotationError(
                    f"position: expected row {chr(ord('a') + row)} to be {length} cells, each '.', 'b' "
                    f"or 'w', got {_short(line)}"
                )
            cells.extend(None if c == "." else _STONE.index(c) for c in line)
        return cells

    @staticmethod
    def _parse_capture(geo: Geometry, cells: list[Cell], to_move: int, name: str, count: str) -> tuple[int, int]:
        """The capture under way of a ``capture=CELL:N`` field; raises NotationError if the placed
        cell is off the board or not the mover's stone, or if N is not fewer than the stones of
        its group."""
        index = geo.index.get(name)
        if index is None:
            raise NotationError(f"position: capture: {name} is off the {geo.name} board")
        if cells[index] != to_move:
            raise NotationError(
                f"position: capture: {name} must hold a stone of the side to move ({_COLOR_NAMES[to_move]})"
            )
        remaining = int(count)
        size = len(_group_of(geo, cells, index))
        if remaining >= size:
            raise NotationError(
                f"position: capture: the group of {name} has {size} stones, too few to remove {remaining}"
            )
        return index, remaining

    @classmethod
    def _game_from_tags(cls, tags: dict[str, str]) -> Rive:
        """The starting game a record's tags describe; raises NotationError if they are bad."""
        board = tags.get("Board")
        rows = None
        if board is not None:
            try:
                rows = _parse_board_name(board)
            except NotationError as error:
                raise NotationError(f"record: tag Board: {error}") from None
        elif "Position" not in tags:
            raise NotationError('record: the tag Board is missing (expected a line like [Board "hex335"])')
        swap = _yes_no(tags, "Swap")
        single_stones = _yes_no(tags, "SingleStones")
        policy = tags.get("Playouts")
        if policy is not None and policy not in PLAYOUT_POLICIES:
            raise NotationError(f"record: tag Playouts must be 'uniform' or 'capture-cell', got {_short(policy)}")
        if "Position" not in tags:
            assert rows is not None
            return cls(list(rows), swap=bool(swap), single_stones=bool(single_stones), playout_policy=policy)
        if swap is not None or single_stones is not None or policy is not None:
            raise NotationError(
                "record: a Position tag excludes the tags Swap, SingleStones and Playouts (the position says "
                "the first two; a game set up from a position draws its random moves uniformly)"
            )
        try:
            game = cls.from_position(tags["Position"])
        except NotationError as error:
            raise NotationError(f"record: tag Position: {error}") from None
        if rows is not None and rows != game.rows:
            raise NotationError(f"record: tag Board is {board} but the Position is on {game.board_name}")
        return game

    # ---- properties ------------------------------------------------------------------------

    @property
    def playout_policy(self) -> str:
        """How this game's random moves are drawn: "uniform" or "capture-cell"."""
        return self._playout_policy

    @property
    def board_name(self) -> str:
        """The board's name in notation: ``hex335``, ``hex5``... or ``L@O`` rows joined by ``,``."""
        return self._geo.name

    @property
    def rows(self) -> Layout:
        """The rows from the top, each (length, offset in half-cells)."""
        return self._geo.rows

    @property
    def swap(self) -> bool:
        """Whether this game allows White to swap as its first move."""
        return self._swap

    @property
    def single_stones(self) -> bool:
        """Whether captures are played one stone at a time."""
        return self._single_stones

    def cells(self) -> tuple[str, ...]:
        """The names of all cells in board order."""
        return tuple(self._geo.names)

    # ---- groups ----------------------------------------------------------------------------

    def _groups(self) -> tuple[list[int | None], list[int]]:
        """(group id of every cell, None when empty; the size of every group by id)."""
        return _label_groups(self._geo, self._cells)

    def groups(self) -> list[int]:
        """The sizes of all groups (stones of both colours), largest first."""
        return sorted(self._groups()[1], reverse=True)

    # ---- placements ------------------------------------------------------------------------

    def _cell_values(self) -> dict[int, tuple[int, tuple[int, ...]]]:
        """For every empty cell: (size of the largest adjacent group or 0, ids of the distinct
        adjacent groups in board order of first contact)."""
        label, sizes = self._groups()
        values = {}
        for i, cell in enumerate(self._cells):
            if cell is not None:
                continue
            touched: list[int] = []
            for j in self._geo.neighbours[i]:
                g = label[j]
                if g is not None and g not in touched:
                    touched.append(g)
            values[i] = (max((sizes[g] for g in touched), default=0), tuple(touched))
        return values

    def _legal_cells(self) -> list[tuple[int, tuple[int, ...]]]:
        """The cells the min-max rule allows, in board order, each with the ids of the groups it
        touches. Empty when the board is full or a capture is under way."""
        if self._capture is not None:
            return []
        values = self._cell_values()
        if not values:
            return []
        m = min(value for value, _ in values.values())
        return [(i, touched) for i, (value, touched) in values.items() if value == m]

    def _new_group(self, index: int, touched: tuple[int, ...]) -> list[int]:
        """The stones of the group a placement on ``index`` makes, placed cell included, in board order."""
        label, _ = self._groups()
        return [i for i in range(self._geo.size) if i == index or label[i] in touched]

    def _survivor_sets(self, index: int, touched: tuple[int, ...]) -> list[tuple[int, ...]]:
        """The removal sets of a capture on ``index``, each a tuple of cell indices in board order,
        sorted lexicographically.

        Brute force: every choice of t - 1 of the new group's other stones, kept with the placed
        stone, is a candidate survivor set; it counts when those t stones are connected.
        """
        sizes = self._groups()[1]
        target = max(sizes[g] for g in touched) + 1
        stones = self._new_group(index, touched)
        others = [i for i in stones if i != index]
        removal_sets = []
        for kept in combinations(others, target - 1):
            survivors = {index, *kept}
            if _connected(self._geo, survivors):
                removal_sets.append(tuple(i for i in others if i not in survivors))
        return sorted(removal_sets)

    def _removable(self) -> list[int]:
        """In the single-stone form with a capture under way: the stones of the placed stone's group,
        in board order, whose removal leaves the rest of the group connected."""
        assert self._capture is not None
        placed, _ = self._capture
        group = _group_of(self._geo, self._cells, placed)
        return [i for i in sorted(group) if i != placed and _connected(self._geo, group - {i})]

    def _swap_legal(self) -> bool:
        """The swap: allowed by the variant, White to move with exactly one stone, Black's, on the board,
        and the game not over (on a one-cell board that stone fills it: the game is over, and over
        means no legal move, the swap included)."""
        stones = [c for c in self._cells if c is not None]
        return (
            self._swap and self._capture is None and self._to_move == WHITE and stones == [BLACK] and not self.is_over()
        )

    def _move_parts(self) -> Iterator[MoveParts]:
        """(kind, placed cell, removed cells) of every legal move, in legal move order."""
        if self._capture is not None:
            for i in self._removable():
                yield "remove", None, (i,)
            return
        for index, touched in self._legal_cells():
            if len(touched) < 2 or self._single_stones:
                yield "place", index, ()
            else:
                for removed in self._survivor_sets(index, touched):
                    yield "place", index, removed
        if self._swap_legal():
            yield "swap", None, ()

    def _make_move(self, parts: MoveParts) -> Move:
        kind, index, removed = parts
        names = self._geo.names
        return Move._of(kind, None if index is None else names[index], tuple(names[i] for i in removed))

    def moves(self) -> Iterator[Move]:
        """The legal moves, lazily, in the order of ``legal_moves()``."""
        for parts in self._move_parts():
            yield self._make_move(parts)

    def _draw(self, rng) -> Move | None:
        """A random move drawn as the engine draws it (rust/engine/src/games/rive/moves.rs, ``sample``):
        uniformly over the legal moves, or with the capture-cell policy a legal cell (or the
        swap) uniformly and then one of its capture's survivor sets uniformly. Where no cell
        captures (isolation, a single-stone removal) the two are the same draw."""
        moves = self.legal_moves()
        if not moves or self._playout_policy == "uniform" or self._capture is not None:
            return super()._draw(rng) if moves else None
        cells = list(dict.fromkeys(m.cell for m in moves if not m.is_swap))
        k = rng.below(len(cells) + any(m.is_swap for m in moves))
        if k == len(cells):
            return next(m for m in moves if m.is_swap)
        at_cell = [m for m in moves if m.cell == cells[k] and not m.is_swap]
        if not at_cell[0].removed:
            return at_cell[0]
        index = self._geo.index[cells[k]]
        touched = dict(self._legal_cells())[index]
        return self._make_move(("place", index, self._removal_by_groups(index, touched, rng.below(len(at_cell)))))

    def _removal_by_groups(self, index: int, touched: tuple[int, ...], rank: int) -> tuple[int, ...]:
        """The capture-cell policy's removal set of ``rank`` for a capture on ``index``, ranked
        group by group as the engine ranks it (rust/engine/src/games/rive/survivors.rs,
        ``nth_by_groups``): the joined groups in board order of their first cell; the rank read
        in mixed radix as how many stones each group keeps (fewer first), then each group's
        removals in move order."""
        label, sizes = self._groups()
        left = max(sizes[g] for g in touched)  # the stones kept besides the placed one
        parts = sorted([i for i in range(self._geo.size) if label[i] == g] for g in touched)
        # shares[i][b]: part i's removal sets when b - 1 of its stones stay with the placed one.
        shares = []
        for part in parts:
            by_size: list[list[tuple[int, ...]]] = [[] for _ in range(len(part) + 2)]
            for kept_count in range(min(len(part), left) + 1):  # no group keeps more than `left`
                for kept in combinations(part, kept_count):
                    if _connected(self._geo, {index, *kept}):
                        by_size[kept_count + 1].append(tuple(i for i in part if i not in kept))
            shares.append([sorted(sets) for sets in by_size])
        # after[i][t]: the ways for the parts from i on to keep t stones.
        after = [[0] * (left + 1) for _ in range(len(parts) + 1)]
        after[len(parts)][0] = 1
        for i in reversed(range(len(parts))):
            for t in range(left + 1):
                after[i][t] = sum(
                    len(shares[i][b]) * after[i + 1][t + 1 - b] for b in range(1, min(len(shares[i]), t + 2))
                )
        removed: list[int] = []
        for i in range(len(parts)):
            for b in range(1, min(len(shares[i]), left + 2)):
                rest = after[i + 1][left + 1 - b]
                ways = len(shares[i][b]) * rest
                if rank >= ways:
                    rank -= ways
                    continue
                removed += shares[i][b][rank // rest]
                rank, left = rank % rest, left + 1 - b
                break
        return tuple(sorted(removed))

    def legal_moves(self) -> list[Move]:
        """Every legal move: placements by cell in board order, the captures on one cell ordered by
        their lists of removed cells (board order) compared lexicographically, then ``swap`` when
        legal. While a capture is under way (single-stone form): the removable stones in board
        order. ``[]`` once the game is over."""
        return list(self.moves())

    def is_over(self) -> bool:
        """True when the board is full (and no capture is under way)."""
        return self._capture is None and None not in self._cells

    def score(self) -> tuple[int, int]:
        """(black stones, white stones) on the board."""
        return self._cells.count(BLACK), self._cells.count(WHITE)

    # ---- moves -----------------------------------------------------------------------------

    def _illegality(self, move: Move) -> str | None:
        """Why ``move`` may not be played here, or None if it may."""
        if self.is_over():
            return f"{move} is not allowed: the game is over"
        if move.is_swap:
            return None if self._swap_legal() else self._swap_problem()
        if move.is_removal:
            return self._removal_problem(move)
        if self._capture is not None:
            placed, remaining = self._capture
            return (
                f"{move} is not allowed: a capture on {self._geo.names[placed]} is under way, "
                f"{remaining} more stone(s) to remove (moves like 'xb2')"
            )
        assert move.cell is not None
        index = self._geo.index.get(move.cell)
        if index is None:
            return f"{move} is not allowed: {move.cell} is off the {self._geo.name} board"
        if self._cells[index] is not None:
            return f"{move} is not allowed: {move.cell} is occupied"
        values = self._cell_values()
        m = min(value for value, _ in values.values())
        value, touched = values[index]
        if value != m:
            return f"{move} is not allowed: {move.cell} touches a group of {value}, but a placement " + (
                "in isolation is possible" if m == 0 else f"touching groups of at most {m} is possible"
            )
        if len(touched) < 2:
            if move.removed:
                return f"{move} is not allowed: {move.cell} captures nothing, no stone may be removed"
            return None
        if self._single_stones:
            if move.removed:
                return f"{move} is not allowed: in the single-stone form, place first, then remove one stone at a time"
            return None
        sizes = self._groups()[1]
        target = max(sizes[g] for g in touched) + 1
        stones = self._new_group(index, touched)
        count = len(stones) - target
        if not move.removed:
            return f"{move} is not allowed: it is a capture, {count} stones must be removed (like {move.cell}x...)"
        if len(move.removed) != count:
            return f"{move} is not allowed: the capture must remove {count} stones, not {len(move.removed)}"
        removed = set()
        for name in move.removed:
            i = self._geo.index.get(name)
            if i is None:
                return f"{move} is not allowed: {name} is off the {self._geo.name} board"
            if i == index:
                return f"{move} is not allowed: the placed stone always survives"
            if i not in stones:
                return f"{move} is not allowed: {name} is not in the new group"
            removed.add(i)
        if not _connected(self._geo, set(stones) - removed):
            return f"{move} is not allowed: the stones left would not be one connected group"
        return None

    def _swap_problem(self) -> str:
        if not self._swap:
            return "swap is not allowed: this game was set up without the swap"
        return "swap is not allowed: only as White's first move, with Black's first stone alone on the board"

    def _removal_problem(self, move: Move) -> str | None:
        if self._capture is None:
            return f"{move} is not allowed: no capture is under way"
        name = move.removed[0]
        placed, _ = self._capture
        i = self._geo.index.get(name)
        if i is None:
            return f"{move} is not allowed: {name} is off the {self._geo.name} board"
        if i == placed:
            return f"{move} is not allowed: the placed stone always survives"
        group = _group_of(self._geo, self._cells, placed)
        if i not in group:
            return f"{move} is not allowed: {name} is not in the group of {self._geo.names[placed]}"
        if not _connected(self._geo, group - {i}):
            return f"{move} is not allowed: removing {name} would split the group"
        return None

    def _parts_of(self, move: Move) -> MoveParts:
        index = self._geo.index[move.cell] if move.cell is not None else None
        return move._kind, index, tuple(self._geo.index[name] for name in move.removed)

    def _push(self, parts: MoveParts, move: Move | None = None) -> None:
        """Plays a legal move without checking it."""
        kind, index, removed = parts
        if move is None:
            move = self._make_move(parts)
        self._history.append((move, self._cells, self._to_move, self._capture))
        cells = list(self._cells)
        mover = self._to_move
        if kind == "swap":
            cells = [None if c is None else WHITE for c in cells]
            self._to_move = BLACK
        elif kind == "remove":
            assert self._capture is not None
            cells[removed[0]] = None
            placed, remaining = self._capture
            self._capture = (placed, remaining - 1) if remaining > 1 else None
            # the same player places again afterwards: to_move does not change
        else:
            assert index is not None
            label, sizes = self._groups()
            touched = {g for g in (label[j] for j in self._geo.neighbours[index]) if g is not None}
            cells[index] = mover
            for i in removed:
                cells[i] = None
            if len(touched) >= 2 and self._single_stones:
                new_size = 1 + sum(sizes[g] for g in touched)
                self._capture = (index, new_size - (max(sizes[g] for g in touched) + 1))
            elif len(touched) < 2:
                self._to_move = 1 - mover  # a non-capturing placement ends the turn
        self._cells = cells

    def undo(self) -> Move:
        """Takes back the last move and returns it; raises IndexError if no move was played."""
        if not self._history:
            raise IndexError("undo: no move to take back")
        move, self._cells, self._to_move, self._capture = self._history.pop()
        return move

    # ---- notation --------------------------------------------------------------------------

    def position(self) -> str:
        """The position as ``BOARD ROWS SIDE [swap] [single] [capture=CELL:N]``, e.g.
        ``hex3 b../..../...../..../..w b``: ``swap`` when the game allows the swap, ``single`` for
        the single-stone form, ``capture=c3:2`` while a capture is under way in that form (the
        placed cell and the number of stones still to remove)."""
        text = [self._geo.name, self._rows_text(), _STONE[self._to_move]]
        if self._swap:
            text.append("swap")
        if self._single_stones:
            text.append("single")
        if self._capture is not None:
            placed, remaining = self._capture
            text.append(f"capture={self._geo.names[placed]}:{remaining}")
        return " ".join(text)

    def _row_cells(self) -> list[list[Cell]]:
        rows, start = [], 0
        for length, _ in self._geo.rows:
            rows.append(self._cells[start : start + length])
            start += length
        return rows

    def _rows_text(self) -> str:
        return "/".join("".join("." if c is None else _STONE[c] for c in row) for row in self._row_cells())

    def _board_tags(self) -> list[tuple[str, str]]:
        return [("Board", self._geo.name)]

    def _variant_tags(self) -> list[tuple[str, str]]:
        """Swap "yes" when the swap is allowed, SingleStones "yes" for the single-stone form (a
        game set up from a position has its Position tag instead, which says both)."""
        tags = []
        if self._swap:
            tags.append(("Swap", "yes"))
        if self._single_stones:
            tags.append(("SingleStones", "yes"))
        if self._playout_policy != "uniform":
            tags.append(("Playouts", self._playout_policy))
        return tags

    def _text_board(self) -> str:
        lines = []
        for (_, offset), row in zip(self._geo.rows, self._row_cells()):
            lines.append(" " * offset + " ".join("." if c is None else _STONE[c] for c in row))
        return "\n".join(lines)

    # ---- hashing and equality --------------------------------------------------------------

    def zobrist(self) -> int:
        """The 64-bit Zobrist hash (docs/rive.md): the keys of every stone by colour and cell index,
        the side key when White is to move and, while a capture is under way, the keys of its
        placed cell and of the number of stones still to remove (index min(N, 31): the contract
        draws 32 of them)."""
        keys = _zobrist_keys()
        value = keys[2 * ZOBRIST_CELLS] if self._to_move == WHITE else 0
        for i, cell in enumerate(self._cells):
            if cell is not None:
                value ^= keys[cell * ZOBRIST_CELLS + i]
        if self._capture is not None:
            placed, remaining = self._capture
            value ^= keys[2 * ZOBRIST_CELLS + 1 + placed]
            value ^= keys[3 * ZOBRIST_CELLS + 1 + min(remaining, ZOBRIST_REMAINING - 1)]
        return value

    # ---- step form -------------------------------------------------------------------------

    def actions(self) -> RiveActions:
        """A snapshot of the current position in step form (docs/actions.md): the single-stone
        form of this position."""
        return RiveActions(self)


# --------------------------------------------------------------------------------------------
# Graph helpers


def _label_groups(geo: Geometry, cells: Sequence[Cell]) -> tuple[list[int | None], list[int]]:
    """(group id per cell, size per group id), a group being connected stones of both colours.
    Group ids follow the board order of each group's first stone."""
    label: list[int | None] = [None] * geo.size
    sizes: list[int] = []
    for group_id, group in enumerate(geo.groups(lambda i: cells[i] is not None)):
        for i in group:
            label[i] = group_id
        sizes.append(len(group))
    return label, sizes


def _group_of(geo: Geometry, cells: Sequence[Cell], start: int) -> set[int]:
    """The stones connected to the stone on ``start``."""
    return geo.reach(start, lambda i: cells[i] is not None)


def _connected(geo: Geometry, stones: set[int]) -> bool:
    """Whether a set of cells is connected through neighbours inside the set."""
    return not stones or len(geo.reach(next(iter(stones)), stones.__contains__)) == len(stones)


# --------------------------------------------------------------------------------------------
# Step form (docs/actions.md)


class RiveActions(StepState):
    """Rive in step form, which is its single-stone form: action ``cell`` places a stone there or,
    while a capture is under way, removes the stone there; action ``N`` (the number of cells) is
    the swap. Observation ``(6, H, W)`` on the axial grid: the mover's stones, the opponent's, the
    empty cells, the board, the placed stone of a capture under way, and the stones it must still
    remove over N, on every cell."""

    def __init__(self, game: Rive) -> None:
        self._game = game.copy()
        self._game._single_stones = True
        geo = game._geo
        self._grid = AxialGrid(geo.places)
        self.num_actions = geo.size + 1
        self.observation_shape = (6, self._grid.height, self._grid.width)

    observation_planes = ("mover", "opponent", "empty", "board", "capture_placed", "capture_to_remove")
    _player_planes = (slice(0, 1), slice(1, 2))

    def _parts(self, action: int) -> MoveParts:
        """(kind, placed cell, removed cells) of the move an action stands for."""
        if action == self.num_actions - 1:
            return "swap", None, ()
        if self._game._capture is not None:
            return "remove", None, (action,)
        return "place", action, ()

    def _action(self, parts: MoveParts) -> int:
        """The action of a move of the single-stone form."""
        kind, index, removed = parts
        if kind == "swap":
            return self.num_actions - 1
        if kind == "remove":
            return removed[0]
        assert index is not None
        return index

    def legal_actions(self) -> list[int]:
        return sorted(self._action(parts) for parts in self._game._move_parts())

    def _apply(self, action: int) -> None:
        self._game._push(self._parts(action))

    def _name(self, action: int) -> str:
        return str(self._game._make_move(self._parts(action)))

    def _observe(self) -> np.ndarray:
        """``float32 (6, H, W)``, from the side to move's perspective."""
        cells = self._game._cells
        mover = self._game.to_move
        planes = self._grid.planes(6)
        self._grid.mark(planes, 0, [i for i, c in enumerate(cells) if c == mover])
        self._grid.mark(planes, 1, [i for i, c in enumerate(cells) if c == 1 - mover])
        self._grid.mark(planes, 2, [i for i, c in enumerate(cells) if c is None])
        self._grid.mark(planes, 3, range(len(cells)))
        if self._game._capture is not None:
            placed, remaining = self._game._capture
            self._grid.mark(planes, 4, [placed])
            self._grid.mark(planes, 5, range(len(cells)), remaining / len(cells))
        return planes

    def position(self) -> str:
        return self._game.position()
