"""Cephalopod, Mark Steere's dice game, in plain Python.

This is the readable twin of the Rust engine ``boardcore.Cephalopod``: same arguments, same
notation, same answers (docs/cephalopod.md is the contract both follow). It is written for
clarity, not speed: the board is a list of cells in row-major order, each square has an explicit
list of its orthogonal neighbours, and the capture sets of a square are found by trying every
combination of its occupied neighbours (``itertools.combinations``).

A cell is ``None`` (empty) or a pair ``(owner, pips)``: owner BLACK (0) or WHITE (1), pips 1 to 6.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import cache
from itertools import combinations

import numpy as np

from boardcore.pieces import Color, Piece
from boardcore.reference._game import BLACK, WHITE, IllegalMoveError, NotationError, ReferenceGame, ReferenceMove
from boardcore.reference._game import COLOR_LETTERS as _OWNER
from boardcore.reference._game import ZOBRIST_SEED as _ZOBRIST_SEED
from boardcore.reference._game import PathCounts as _PathCounts
from boardcore.reference._game import check_length as _check_length
from boardcore.reference._game import given as _given
from boardcore.reference._game import lower as _lower
from boardcore.reference._game import position_fields as _position_fields
from boardcore.reference._game import short as _short
from boardcore.reference._game import square_key as _square_key
from boardcore.reference._game import strip as _strip
from boardcore.reference._game import wrapped_counts as _wrapped_counts

from ._actions import StepState
from ._splitmix import SplitMix64

__all__ = ["BLACK", "WHITE", "Cephalopod", "IllegalMoveError", "Move", "NotationError", "PathCounts"]


MIN_SIDE = 2
MAX_SIDE = 8
MAX_PIPS = 6  # a capture set sums to 6 or less, and a die shows at most 6
MAX_COUNT_SQUARES = 31  # count_paths keys a position in 128 bits: 4 bits a square, 1 for the side
MAX_COLOUR_FREE_SQUARES = 42  # the colour-free key: 3 bits a square (pips 0-6) in 128 bits

ZOBRIST_STRIDE = 8  # keys are indexed row * 8 + col, whatever the board's width

Cell = tuple[int, int] | None  # (owner, pips) or None for an empty square

_SQUARE = r"[a-z][1-9][0-9]?"  # a column letter, then a row number without leading zero
_SQUARE_RE = re.compile(_SQUARE)
_MOVE_RE = re.compile(rf"({_SQUARE})(?:x({_SQUARE}(?:,{_SQUARE})*))?")
_SIZE_RE = re.compile(r"([2-8])x([2-8])")
_CELL_RE = re.compile(r"\.|[1-6][bw]")


# --------------------------------------------------------------------------------------------
# Squares


def square_name(row: int, col: int) -> str:
    """``a1`` style name of a (row, column) pair, both counted from 0 at the top-left."""
    return f"{chr(ord('a') + col)}{row + 1}"


def parse_square(text: str) -> tuple[int, int]:
    """(row, column) of a square name: a column letter then a row number from 1 to 26.

    Only the shape is checked, not whether the square is on some board (that is a question of
    legality). Expects normalised text (lower case, no whitespace); raises NotationError otherwise.
    """
    if not text.isascii() or _SQUARE_RE.fullmatch(text) is None or int(text[1:]) > 26:
        raise NotationError(
            f"expected a square name like 'c3' (a column letter, then a row number), got {_short(text)}"
        )
    return int(text[1:]) - 1, ord(text[0]) - ord("a")


def _board_key(name: str) -> tuple[int, int]:
    """Sort key of a square name in board order (row-major: a1 b1 ... a2 ...)."""
    row, col = parse_square(name)
    return row, col


# --------------------------------------------------------------------------------------------
# Moves


class Move(ReferenceMove):
    """A Cephalopod move: a placement, possibly with the set of squares it captures.

    ``Move("c3")`` is a plain placement; ``Move("c3xc2,b3")`` places on c3 and captures the dice
    on c2 and b3. Parsing is case-insensitive, ignores surrounding whitespace and accepts the
    captured squares in any order; ``str()`` lists them in board order. Raises NotationError on
    text of any other shape, and when a captured square is listed twice. Immutable and hashable; compares equal to any notation string of the
    same move (``Move("c3xc2,b3") == "C3xB3,C2"``).

    Only the shape is checked here: whether the squares are on the board, adjacent, occupied... is
    a question for ``Cephalopod.play``.
    """

    __slots__ = ()
    # Defining __eq__ below would otherwise set __hash__ to None.
    __hash__ = ReferenceMove.__hash__

    _cell_key = staticmethod(_square_key)  # squares sort in board order: row, then column

    def __init__(self, notation: str) -> None:
        self._check_notation(notation)
        square, captures = _parse_move(notation)
        self._set_fields((square,), captures)

    @classmethod
    def _of(cls, square: str, captures: tuple[str, ...] = ()) -> Move:
        """A move from normalised square names (captures in board order), without parsing."""
        return cls._with_fields((square,), captures)

    @property
    def square(self) -> str:
        """The square the new die is placed on (the one cell in ``placed``)."""
        return self._placed[0]

    @property
    def captures(self) -> tuple[str, ...]:
        """The captured squares in board order (``removed``); ``()`` for a plain placement."""
        return self._removed

    def __str__(self) -> str:
        if not self._removed:
            return self.square
        return f"{self.square}x{','.join(self._removed)}"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Move):
            return (self._placed, self._removed) == (other._placed, other._removed)
        if isinstance(other, str):
            try:
                return (self.square, self._removed) == _parse_move(other)
            except NotationError:
                return False
        return NotImplemented


def _parse_move(notation: str) -> tuple[str, tuple[str, ...]]:
    """(square, captured squares in board order) of a move's notation; raises NotationError.

    The shape is ``SQUARE`` or ``SQUARExSQUARE,SQUARE,...``; nothing else is accepted (no inner
    spaces, no empty capture list). The captured squares name a set: a square listed twice is not
    of that shape either.
    """
    _check_length("move", notation)
    match = _MOVE_RE.fullmatch(_lower(_strip(notation)))
    try:
        if match is None:
            raise NotationError("not a move")
        square = square_name(*parse_square(match.group(1)))
        captured = match.group(2)
        captures = [square_name(*parse_square(part)) for part in captured.split(",")] if captured else []
    except NotationError:
        raise NotationError(
            "expected a move: a square name like 'c3', or a capture like 'c3xc2,b3' (the square, "
            f"'x', then the captured squares joined by ','), got {_short(notation)}"
        ) from None
    for i, part in enumerate(captures):
        if part in captures[:i]:
            raise NotationError(f"expected the captured squares to be distinct, got {part} twice in {_short(notation)}")
    return square, tuple(sorted(captures, key=_board_key))


# --------------------------------------------------------------------------------------------
# Board geometry and keys


def _check_side(name: str, value: object) -> int:
    """A board side (``rows`` or ``cols``); raises ValueError naming it if it is not allowed."""
    if isinstance(value, bool) or not isinstance(value, int) or not MIN_SIDE <= value <= MAX_SIDE:
        raise ValueError(f"{name} must be an integer from {MIN_SIDE} to {MAX_SIDE}, got {_given(value)}")
    return value


@cache
def _neighbours(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """For each cell index, the indices of its orthogonal neighbours, in board order."""
    result = []
    for row in range(rows):
        for col in range(cols):
            around = []
            for r, c in ((row - 1, col), (row, col - 1), (row, col + 1), (row + 1, col)):
                if 0 <= r < rows and 0 <= c < cols:
                    around.append(r * cols + c)
            result.append(tuple(around))  # up, left, right, down: already board order
    return tuple(result)


@cache
def _zobrist_keys() -> tuple[int, ...]:
    """12 x 64 die keys (code 1..12, then square row*8+col), then the side key (index 768)."""
    rng = SplitMix64(_ZOBRIST_SEED)
    return tuple(rng.next() for _ in range(12 * 64 + 1))


def _code(cell: Cell) -> int:
    """The die state code of a cell: 0 empty, 1-6 a black die showing 1-6, 7-12 a white die."""
    if cell is None:
        return 0
    owner, pips = cell
    return pips + 6 * owner


def _pips(cell: Cell) -> int:
    """The pips of an occupied cell."""
    assert cell is not None
    return cell[1]


def _placed(cells: list[Cell], to_move: int, index: int, captured: tuple[int, ...]) -> list[Cell]:
    """The cells after ``to_move`` places a die on the empty cell ``index`` capturing the dice on
    ``captured`` (a legal choice): those dice leave the board and the new die shows their pip sum,
    or 1 without a capture."""
    after = list(cells)
    for i in captured:
        after[i] = None
    after[index] = (to_move, sum(_pips(cells[i]) for i in captured) if captured else 1)
    return after


def _cell_text(cell: Cell) -> str:
    return "." if cell is None else f"{cell[1]}{_OWNER[cell[0]]}"


def _position_text(rows: int, cols: int, cells, to_move: int) -> str:
    lines = ("".join(_cell_text(c) for c in cells[r * cols : (r + 1) * cols]) for r in range(rows))
    return f"{rows}x{cols} {'/'.join(lines)} {_OWNER[to_move]}"


# --------------------------------------------------------------------------------------------
# Records


_RECORD_TAGS = ("Game", "Board", "Position", "Result")


# --------------------------------------------------------------------------------------------
# The game


class Cephalopod(ReferenceGame):
    """A game of Cephalopod on a ``rows`` x ``cols`` board, 2 to 8 each (5x5 by default).

    The board starts empty and Black moves first. Raises ValueError, naming the argument, if
    ``rows`` or ``cols`` is not an integer from 2 to 8 (``bool`` is refused).

    ``str(game)`` is a text board: a header of three spaces then the column letters, each
    right-aligned in two characters (`` a``), joined by single spaces; then one line per row: the
    row number right-aligned in two characters, a space, and the cells, each two characters
    (`` .`` for an empty square, pips then owner such as ``3b`` for a die), joined by single spaces::

            a  b  c
         1  . 1b  .
         2 2w  .  .
         3  .  . 1b
    """

    _GAME = "cephalopod"
    _RECORD_TAGS = _RECORD_TAGS
    _MOVE = Move
    _MOVE_ATTRIBUTES = ("square", "captures")

    # ---- construction ----------------------------------------------------------------------

    def __init__(self, rows: int | None = 5, cols: int | None = 5) -> None:
        # None means the default, as in the engine (whose arguments are optional objects).
        rows = _check_side("rows", 5 if rows is None else rows)
        cols = _check_side("cols", 5 if cols is None else cols)
        self._setup(rows, cols, [None] * (rows * cols), BLACK)

    @classmethod
    def from_position(cls, text: str) -> Cephalopod:
        """The game at a position given as ``RxC ROWS SIDE`` (see ``position()``).

        The game has no history. Raises NotationError if the text is not a valid position.
        """
        fields = _position_fields(text, "RxC ROWS SIDE")
        size_text, rows_text, side = fields
        size = _SIZE_RE.fullmatch(size_text)
        if size is None:
            raise NotationError(
                f"position: expected the board size 'RxC' first (rows and columns from 2 to 8, "
                f"like '5x5'), got {_short(size_text)}"
            )
        rows, cols = int(size.group(1)), int(size.group(2))
        cells = cls._parse_rows(rows, cols, rows_text)
        if side not in _OWNER:
            raise NotationError(f"position: expected the side to move ('b' or 'w') last, got {_short(side)}")
        game = cls.__new__(cls)
        game._setup(rows, cols, cells, _OWNER.index(side))
        game._start_position = game.position()
        return game

    @staticmethod
    def _parse_rows(rows: int, cols: int, rows_text: str) -> list[Cell]:
        """The cells of a position's ROWS field; raises NotationError if it is not valid."""
        lines = rows_text.split("/")
        if len(lines) != rows:
            raise NotationError(f"position: expected {rows} rows joined by '/', got {len(lines)}")
        cells: list[Cell] = []
        for row, line in enumerate(lines):
            at = 0
            row_cells: list[Cell] = []
            while at < len(line):
                match = _CELL_RE.match(line, at)
                if match is None:
                    raise NotationError(
                        f"position: expected '.' or pips 1-6 then 'b' or 'w' at "
                        f"{square_name(row, len(row_cells))} (row {row + 1}), got {_short(line[at:])}"
                    )
                token = match.group()
                row_cells.append(None if token == "." else (_OWNER.index(token[1]), int(token[0])))
                at = match.end()
            if len(row_cells) != cols:
                raise NotationError(f"position: expected row {row + 1} to have {cols} cells, got {_short(line)}")
            cells.extend(row_cells)
        return cells

    @classmethod
    def _game_from_tags(cls, tags: dict[str, str]) -> Cephalopod:
        """The starting game a record's tags describe; raises NotationError if they are bad."""
        board = tags.get("Board")
        size = _SIZE_RE.fullmatch(board) if board is not None else None
        if size is None and not (board is None and "Position" in tags):
            raise NotationError(f"record: expected the tag Board with 'RxC' (2 to 8 each, like '5x5'), got {board!r}")
        if "Position" in tags:
            try:
                game = cls.from_position(tags["Position"])
            except NotationError as error:
                raise NotationError(f"record: tag Position: {error}") from None
            if board is not None and board != f"{game.rows}x{game.cols}":
                raise NotationError(f"record: tag Board is {board} but the Position is on {game.rows}x{game.cols}")
            return game
        assert size is not None
        return cls(int(size.group(1)), int(size.group(2)))

    def _setup(self, rows: int, cols: int, cells: list[Cell], to_move: int) -> None:
        """Sets every field."""
        self._rows = rows
        self._cols = cols
        self._cells = cells
        self._to_move = to_move
        self._history: list[tuple[Move, list[Cell], int]] = []  # (move, cells before, side before)
        self._start_position: str | None = None  # set when the game began from from_position

    # ---- properties ------------------------------------------------------------------------

    @property
    def rows(self) -> int:
        return self._rows

    @property
    def cols(self) -> int:
        return self._cols

    def _name(self, index: int) -> str:
        return square_name(index // self._cols, index % self._cols)

    def cells(self) -> tuple[str, ...]:
        """Every square's name, in board order."""
        return tuple(self._name(i) for i in range(self._rows * self._cols))

    def _contents(self, index: int) -> Piece | None:
        cell = self._cells[index]
        return None if cell is None else Piece(Color(cell[0]), cell[1])

    def _index(self, name: str) -> int | None:
        """Cell index of a normalised square name, or None if it is off this board."""
        row, col = parse_square(name)
        if row < self._rows and col < self._cols:
            return row * self._cols + col
        return None

    # ---- rules -----------------------------------------------------------------------------

    def _capture_sets(self, index: int) -> list[tuple[int, ...]]:
        """The capture sets of the empty cell ``index``, each a tuple of cell indices in board
        order, sorted lexicographically (a set sorts before its extensions).

        A capture set is two or more occupied neighbours, of either colour, whose pips sum to 6 or
        less. Every distinct set of squares counts, also when two sets show equal pips.
        """
        occupied = [i for i in _neighbours(self._rows, self._cols)[index] if self._cells[i] is not None]
        sets = []
        for size in range(2, len(occupied) + 1):
            for subset in combinations(occupied, size):
                if sum(_pips(self._cells[i]) for i in subset) <= MAX_PIPS:
                    sets.append(subset)
        return sorted(sets)

    def _move_parts(self) -> Iterator[tuple[int, tuple[int, ...]]]:
        """(placed cell, captured cells) of every legal move, in legal move order."""
        for index, cell in enumerate(self._cells):
            if cell is not None:
                continue
            sets = self._capture_sets(index)
            if not sets:
                yield index, ()
            for subset in sets:
                yield index, subset

    def _make_move(self, parts: tuple[int, tuple[int, ...]]) -> Move:
        index, captured = parts
        return Move._of(self._name(index), tuple(self._name(i) for i in captured))

    def legal_moves(self) -> list[Move]:
        """Every legal move: by the placed square in board order, then by the list of captured
        squares (board order) compared lexicographically. ``[]`` once the board is full."""
        return super().legal_moves()

    def is_over(self) -> bool:
        """True when the board is full."""
        return None not in self._cells

    def score(self) -> tuple[int, int]:
        """(squares covered by black dice, squares covered by white dice)."""
        owners = [cell[0] for cell in self._cells if cell is not None]
        return owners.count(BLACK), owners.count(WHITE)

    # ---- moves -----------------------------------------------------------------------------

    def _illegality(self, move: Move) -> str | None:
        """Why ``move`` may not be played here, or None if it may: a square off the board, an
        occupied square, a plain placement where a capture is possible, a capture where none is,
        a capture set of one die, with an empty, off-board or non-adjacent square, or over 6 pips."""
        size = f"{self._rows}x{self._cols}"
        index = self._index(move.square)
        if index is None:
            return f"{move} is not allowed: {move.square} is off the {size} board"
        if self._cells[index] is not None:
            reason = "the game is over" if self.is_over() else f"{move.square} is occupied"
            return f"{move} is not allowed: {reason}"
        sets = self._capture_sets(index)
        if not move.captures:
            if sets:
                example = Move._of(move.square, tuple(self._name(i) for i in sets[0]))
                return f"{move} is not allowed: a capture is compulsory on {move.square} (e.g. {example})"
            return None
        if not sets:
            return f"{move} is not allowed: no capture is possible on {move.square}"
        if len(move.captures) < 2:
            return f"{move} is not allowed: a capture takes two or more dice"
        around = _neighbours(self._rows, self._cols)[index]
        captured = []
        for name in move.captures:
            i = self._index(name)
            if i is None:
                return f"{move} is not allowed: {name} is off the {size} board"
            if i not in around:
                return f"{move} is not allowed: {name} is not next to {move.square}"
            if self._cells[i] is None:
                return f"{move} is not allowed: {name} is empty"
            captured.append(i)
        pips = sum(_pips(self._cells[i]) for i in captured)
        if pips > MAX_PIPS:
            return f"{move} is not allowed: the captured dice show {pips} pips, more than {MAX_PIPS}"
        return None

    def _parts_of(self, move: Move) -> tuple[int, tuple[int, ...]]:
        return self._on_board(move.square), tuple(self._on_board(name) for name in move.captures)

    def _on_board(self, name: str) -> int:
        """Cell index of a square known to be on the board."""
        index = self._index(name)
        assert index is not None
        return index

    def _push(self, parts: tuple[int, tuple[int, ...]], move: Move | None = None) -> None:
        """Plays a legal move without checking it."""
        index, captured = parts
        if move is None:
            move = self._make_move(parts)
        self._history.append((move, self._cells, self._to_move))
        self._cells = _placed(self._cells, self._to_move, index, captured)
        self._to_move = 1 - self._to_move

    # ---- notation --------------------------------------------------------------------------

    def position(self) -> str:
        """The position as ``RxC ROWS SIDE``, e.g. ``3x3 1b.6w/.2w./... b``."""
        return _position_text(self._rows, self._cols, self._cells, self._to_move)

    def _board_tags(self) -> list[tuple[str, str]]:
        return [("Board", f"{self._rows}x{self._cols}")]

    def _text_board(self) -> str:
        cols = self._cols
        lines = ["   " + " ".join(f"{chr(ord('a') + col):>2}" for col in range(cols))]
        for row in range(self._rows):
            cells = self._cells[row * cols : (row + 1) * cols]
            lines.append(f"{row + 1:>2} " + " ".join(f"{_cell_text(c):>2}" for c in cells))
        return "\n".join(lines)

    # ---- hashing and equality --------------------------------------------------------------

    def zobrist(self) -> int:
        """The 64-bit Zobrist hash: XOR of the key of every die (by its code 1-12 and square
        ``row * 8 + col``) and of the side key when White is to move (docs/cephalopod.md)."""
        keys = _zobrist_keys()
        value = keys[12 * 64] if self._to_move == WHITE else 0
        for i, cell in enumerate(self._cells):
            if cell is not None:
                square = (i // self._cols) * ZOBRIST_STRIDE + i % self._cols
                value ^= keys[(_code(cell) - 1) * 64 + square]
        return value

    # ---- counting paths --------------------------------------------------------------------

    def _count_paths(self, depth: int, owners: bool, wrapping: bool, report: Callable[[int, int], bool]) -> PathCounts:
        """``count_paths`` (``depth`` moves, or fewer when the board fills) once its arguments are
        checked, ``report(ply, positions)`` called after every ply.

        Works layer by layer: a dict maps each position of the current layer, keyed exactly by
        (cells, side to move), to its path count; each non-final position passes its count on to
        every child. With ``owners=False`` the key is the pips alone: the moves never depend on
        who owns the dice or who is to move, so such positions share their futures; each key is
        held as its board with every die Black's and Black to move (what the rows then show).
        The twin never merges by symmetry (``symmetry`` changes the engine's speed, not the
        result). Raises ValueError if the board has more than 31 squares (42 with
        ``owners=False``: the engine's keys), OverflowError if a count reaches 2**128.
        """
        limit = MAX_COUNT_SQUARES if owners else MAX_COLOUR_FREE_SQUARES
        if self._rows * self._cols > limit:
            raise ValueError(
                f"count_paths{'' if owners else '(owners=False)'} needs a board of at most {limit} squares, "
                f"this one is {self._rows}x{self._cols} ({self._rows * self._cols})"
            )
        root = (tuple(self._cells), self._to_move)
        layer: dict[tuple[tuple[Cell, ...], int], int] = {root if owners else _black_pips(root[0]): 1}
        game = Cephalopod(self._rows, self._cols)  # a scratch game, to list the moves of each key
        for ply in range(1, depth + 1):
            following: dict[tuple[tuple[Cell, ...], int], int] = {}
            for (cells, side), count in layer.items():
                game._cells, game._to_move = list(cells), side
                moves = list(game._move_parts())
                if not moves:  # a full board: the sequence ended early, the position stays
                    following[(cells, side)] = following.get((cells, side), 0) + count
                    continue
                for index, captured in moves:
                    key = (tuple(_placed(game._cells, side, index, captured)), 1 - side)
                    if not owners:
                        key = _black_pips(key[0])
                    following[key] = following.get(key, 0) + count
            layer = following
            report(ply, len(layer))
        return PathCounts._of_dice(self._rows, self._cols, _wrapped_counts(layer, wrapping))

    def path_totals(
        self,
        depth: int,
        *,
        symmetry: bool = True,
        wrapping: bool = False,
        max_positions: int | None = None,
        progress: object = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """``(low, high)``: the 64-bit halves of ``T[s, p]``, the number of move sequences of
        ``depth`` moves (fewer when the board fills) whose final board shows ``p`` pips on square
        ``s`` (owners not told apart): ``count_paths(depth, owners=False).square_totals()``, as
        its definition."""
        low, high = self.count_paths(
            depth, owners=False, symmetry=symmetry, wrapping=wrapping, max_positions=max_positions, progress=progress
        ).square_totals()
        # Modulo 2**64 the totals are `low` alone (the sums of residues may carry into `high`).
        return (low, np.zeros_like(high)) if wrapping else (low, high)

    # ---- step form -------------------------------------------------------------------------

    def actions(self) -> CephalopodActions:
        """A snapshot of the current position in step form (docs/actions.md)."""
        return CephalopodActions(self)


def _black_pips(cells: tuple[Cell, ...]) -> tuple[tuple[Cell, ...], int]:
    """The key of ``count_paths(owners=False)``: the board with every die Black's, Black to move."""
    return tuple(None if cell is None else (BLACK, cell[1]) for cell in cells), BLACK


# --------------------------------------------------------------------------------------------
# The result of count_paths


class PathCounts(_PathCounts):
    """Distinct final positions and their path counts, as numpy arrays (see ``count_paths``).

    - ``cells``: ``int8`` array of shape ``(n, rows * cols)``, each row a position in board order:
      ``+p`` a black die showing ``p``, ``-p`` a white one, ``0`` an empty square;
    - ``to_move``: ``uint8`` array of shape ``(n,)`` (all 0 with ``owners=False``, whose rows
      keep pips only: ``cells`` 0 to 6, no side to move);
    - ``counts_low``, ``counts_high``: ``uint64`` arrays, the low and high 64 bits of each count.

    Rows are sorted by the side to move, then by each square's code in board order (0 empty,
    1-6 a black die, 7-12 a white die showing ``code - 6``).
    """

    cells: np.ndarray
    to_move: np.ndarray
    counts_low: np.ndarray
    counts_high: np.ndarray
    _rows: int
    _cols: int

    def __init__(self) -> None:
        raise TypeError("PathCounts objects are made by Cephalopod.count_paths()")

    @classmethod
    def _of_dice(cls, rows: int, cols: int, layer: dict) -> PathCounts:
        def order(item):
            (cells, side), _ = item
            return side, tuple(_code(cell) for cell in cells)

        entries = sorted(layer.items(), key=order)
        n = len(entries)
        result = object.__new__(cls)
        result._rows, result._cols = rows, cols
        result.cells = np.array(
            [[0 if c is None else (c[1] if c[0] == BLACK else -c[1]) for c in cells] for (cells, _), _ in entries],
            dtype=np.int8,
        ).reshape(n, rows * cols)
        result.to_move = np.array([side for (_, side), _ in entries], dtype=np.uint8)
        result._store_counts([count for _, count in entries])
        return result

    def __len__(self) -> int:
        return len(self.to_move)

    def position(self, i: int) -> str:
        """Row ``i`` as position notation (negative ``i`` counts from the end, as for lists).
        Raises IndexError if there is no such row."""
        row = self.cells[i]  # numpy raises IndexError out of range
        cells = [None if v == 0 else ((BLACK, int(v)) if v > 0 else (WHITE, -int(v))) for v in row]
        return _position_text(self._rows, self._cols, cells, int(self.to_move[i]))


# --------------------------------------------------------------------------------------------
# Step form (docs/actions.md)

COMPASS = ((-1, 0, "N"), (0, 1, "E"), (1, 0, "S"), (0, -1, "W"))  # bit d of a capture mask


class CephalopodActions(StepState):
    """Cephalopod in step form: action ``square * 16 + captured``, ``captured`` having bit d set
    when the placement captures the die in direction d (0 north, 1 east, 2 south, 3 west).
    Observation ``(13, rows, cols)``: the mover's dice showing 1-6, the opponent's, the empty
    squares."""

    def __init__(self, game: Cephalopod) -> None:
        self._game = game.copy()
        self.num_actions = game.rows * game.cols * 16
        self.observation_shape = (13, game.rows, game.cols)

    observation_planes = (*(f"mover_{p}" for p in range(1, 7)), *(f"opponent_{p}" for p in range(1, 7)), "empty")
    _player_planes = (slice(0, 6), slice(6, 12))

    def _neighbour(self, square: int, direction: int) -> int | None:
        """The square next to ``square`` in a compass direction, or None off the board."""
        cols = self._game.cols
        row, col = divmod(square, cols)
        d_row, d_col, _ = COMPASS[direction]
        row, col = row + d_row, col + d_col
        return row * cols + col if 0 <= row < self._game.rows and 0 <= col < cols else None

    def legal_actions(self) -> list[int]:
        actions = []
        for square, captured in self._game._move_parts():
            mask = sum(1 << d for d in range(4) if self._neighbour(square, d) in captured)
            actions.append(square * 16 + mask)
        return sorted(actions)

    def _directions(self, action: int) -> tuple[int, list[int]]:
        square, mask = divmod(action, 16)
        return square, [d for d in range(4) if mask >> d & 1]

    def _apply(self, action: int) -> None:
        square, directions = self._directions(action)
        captured = [n for d in directions if (n := self._neighbour(square, d)) is not None]  # all, when legal
        self._game._push((square, tuple(sorted(captured))))

    def _name(self, action: int) -> str:
        square, directions = self._directions(action)
        name = self._game._name(square)
        around = [self._neighbour(square, d) for d in directions]
        if not around:
            return name
        if None in around:
            return name + "x" + "".join(COMPASS[d][2] for d in directions)
        return name + "x" + ",".join(self._game._name(i) for i in sorted(i for i in around if i is not None))

    def _observe(self) -> np.ndarray:
        """``float32 (13, rows, cols)``, from the side to move's perspective."""
        cols = self._game.cols
        planes = np.zeros(self.observation_shape, dtype=np.float32)
        for i, cell in enumerate(self._game._cells):
            if cell is None:
                plane = 12
            else:
                owner, pips = cell
                plane = pips - 1 + (0 if owner == self._game.to_move else 6)
            planes[plane, i // cols, i % cols] = 1.0
        return planes

    def position(self) -> str:
        return self._game.position()
