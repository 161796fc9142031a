"""Reversi with blocked squares, in plain Python.

This is the readable twin of the Rust engine ``boardcore.Reversi``: same arguments, same
notation, same answers (docs/reversi.md is the contract both follow). It is written for
clarity, not speed: the board is a list of one-character cells in row-major order, and a move
walks the eight directions from the square it is played on.

Cells use the position notation directly: ``.`` empty, ``b`` black, ``w`` white, ``#`` hole,
``-`` a square cut from the Octagon.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import numpy as np

from boardcore import pieces
from boardcore.pieces import Color, Piece
from boardcore.reference._game import BLACK, WHITE, IllegalMoveError, NotationError, ReferenceGame, ReferenceMove
from boardcore.reference._game import COLOR_LETTERS as _DISC
from boardcore.reference._game import COLOR_NAMES as _COLOR_NAMES
from boardcore.reference._game import ZOBRIST_SEED as _ZOBRIST_SEED
from boardcore.reference._game import check_length as _check_length
from boardcore.reference._game import given as _given
from boardcore.reference._game import lower as _lower
from boardcore.reference._game import placed_cells as _placed_cells
from boardcore.reference._game import position_fields as _position_fields
from boardcore.reference._game import short as _short
from boardcore.reference._game import square_key as _square_key
from boardcore.reference._game import strip as _strip
from boardcore.reference._game import words as _words

from ._actions import StepState
from ._splitmix import SplitMix64

__all__ = ["BLACK", "WHITE", "IllegalMoveError", "Move", "NotationError", "Reversi"]


EMPTY = "."
HOLE = "#"
CUT = "-"
# What each cell character means to piece_at (boardcore.pieces).
_CONTENTS = {EMPTY: None, "b": Piece(BLACK), "w": Piece(WHITE), HOLE: pieces.HOLE, CUT: pieces.CUT}

BOARD_SIZES = {"4": 4, "6": 6, "8": 8, "10": 10, "octagon": 10}
OCTAGON_CUTS = ("a1", "b1", "a2", "i1", "j1", "j2", "a9", "a10", "b10", "j9", "i10", "j10")
MAX_HOLES = 4

# (row step, column step); rows grow downwards, columns to the right.
DIRECTIONS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


_SQUARE_RE = re.compile(r"([a-z])([1-9][0-9]?)")


# --------------------------------------------------------------------------------------------
# Squares


def square_name(row: int, col: int) -> str:
    """``a1`` style name of a (row, column) pair, both counted from 0 at the top-left."""
    return f"{chr(ord('a') + col)}{row + 1}"


def parse_square(text: str) -> tuple[int, int]:
    """(row, column) of a square name: a column letter then a row number from 1 to 26.

    Case-insensitive, surrounding blanks ignored. Only the shape is checked, not whether the
    square is on some board. Raises NotationError if the text is not a square name.
    """
    match = _SQUARE_RE.fullmatch(_lower(_strip(text)))
    if match is None or int(match.group(2)) > 26:
        raise NotationError(
            f"expected a square name like 'd3' (a column letter, then a row number), got {_short(text)}"
        )
    return int(match.group(2)) - 1, ord(match.group(1)) - ord("a")


# --------------------------------------------------------------------------------------------
# Moves


class Move(ReferenceMove):
    """A Reversi move: a placement on a square, or a pass. Immutable and hashable.

    ``Move("d3")`` and ``Move("pass")`` parse notation (case-insensitive, whitespace ignored) and
    raise NotationError on anything else. A move compares equal to its notation string.
    """

    __slots__ = ()
    # Defining __eq__ below would otherwise set __hash__ to None.
    __hash__ = ReferenceMove.__hash__

    _cell_key = staticmethod(_square_key)  # squares sort in board order: row, then column

    def __init__(self, notation: str) -> None:
        self._check_notation(notation)
        _check_length("move", notation)
        if _lower(_strip(notation)) == "pass":
            square = None
        else:
            try:
                square = square_name(*parse_square(notation))
            except NotationError:
                raise NotationError(
                    f"expected a move: a square name like 'd3' or 'pass', got {_short(notation)}"
                ) from None
        self._set_fields(_placed_cells(square))  # it removes nothing: flipped discs stay, recoloured

    @classmethod
    def _of(cls, square: str | None) -> Move:
        """A move from an already normalised square name (None for a pass), without parsing."""
        return cls._with_fields(_placed_cells(square))

    @property
    def square(self) -> str | None:
        """The square played on, or None for a pass."""
        return self._placed_cell

    @property
    def is_pass(self) -> bool:
        return not self._placed

    def __str__(self) -> str:
        return "pass" if self._placed_cell is None else self._placed_cell

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Move):
            return self._placed == other._placed
        if isinstance(other, str):
            return _lower(_strip(other)) == str(self)
        return NotImplemented


PASS = Move._of(None)


# --------------------------------------------------------------------------------------------
# Board geometry: facts that depend only on the board name


def _check_board_name(size: object) -> str:
    """The board name for a ``size`` argument; raises ValueError if it is not allowed."""
    if isinstance(size, int) and not isinstance(size, bool) and str(size) in BOARD_SIZES:
        return str(size)
    if isinstance(size, str) and _lower(size) == "octagon":  # in any case, as moves are read
        return "octagon"
    if isinstance(size, bool) or not isinstance(size, int):  # '8' and 8 look alike: say which
        raise ValueError(f"size must be an int or 'octagon', got {size!r} (a {type(size).__name__})")
    raise ValueError(f"size must be 4, 6, 8, 10 or 'octagon', got {size!r}")


def _describe(board_name: str) -> str:
    return "octagon" if board_name == "octagon" else f"{board_name}x{board_name}"


def _is_cut(board_name: str, row: int, col: int) -> bool:
    return board_name == "octagon" and square_name(row, col) in OCTAGON_CUTS


def _on_grid(board_name: str, row: int, col: int) -> bool:
    size = BOARD_SIZES[board_name]
    return 0 <= row < size and 0 <= col < size


def _in_centre(board_name: str, row: int, col: int) -> bool:
    """Whether (row, col) is in the central 4x4, where no hole may be."""
    low = BOARD_SIZES[board_name] // 2 - 2
    return low <= row <= low + 3 and low <= col <= low + 3


def _centre_text(board_name: str) -> str:
    low = BOARD_SIZES[board_name] // 2 - 2
    return f"{square_name(low, low)}-{square_name(low + 3, low + 3)}"


def _handicap_corners(board_name: str) -> list[tuple[int, int]]:
    """The handicap squares as (row, col), in order: top-left, bottom-right, top-right, bottom-left."""
    if board_name == "octagon":
        return [(1, 1), (8, 8), (1, 8), (8, 1)]  # b2 i9 i2 b9: the tips next to the cuts
    last = BOARD_SIZES[board_name] - 1
    return [(0, 0), (last, last), (0, last), (last, 0)]


def _hole_problem(board_name: str, row: int, col: int, corners: list[tuple[int, int]]) -> str | None:
    """Why (row, col) may not be a hole on this board, or None if it may."""
    if not _on_grid(board_name, row, col):
        return f"is off the {_describe(board_name)} board"
    if _is_cut(board_name, row, col):
        return "is a cut square of the octagon"
    if _in_centre(board_name, row, col):
        return f"is in the central 4x4 ({_centre_text(board_name)}), where no hole may be"
    if (row, col) in corners:
        return "is a corner holding a handicap disc"
    return None


@cache
def _rays(size: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For each cell index, the eight lines of cell indices leading away from it to the edge."""
    rays = []
    for row in range(size):
        for col in range(size):
            lines = []
            for d_row, d_col in DIRECTIONS:
                line = []
                r, c = row + d_row, col + d_col
                while 0 <= r < size and 0 <= c < size:
                    line.append(r * size + c)
                    r, c = r + d_row, c + d_col
                if line:
                    lines.append(tuple(line))
            rays.append(tuple(lines))
    return tuple(rays)


@cache
def _square_moves(size: int) -> tuple[Move, ...]:
    """The placement Move of each cell index of a size x size grid (made once, then shared)."""
    return tuple(Move._of(square_name(i // size, i % size)) for i in range(size * size))


@cache
def _square_indices(size: int) -> dict[str, int]:
    """Cell index of each square name of a size x size grid."""
    return {str(move): i for i, move in enumerate(_square_moves(size))}


@cache
def _zobrist_keys() -> tuple[int, ...]:
    """300 square keys (Black, then White, then holes, each indexed row*10+col), then the side key."""
    rng = SplitMix64(_ZOBRIST_SEED)
    return tuple(rng.next() for _ in range(301))


# --------------------------------------------------------------------------------------------
# Constructor arguments


def _check_handicap(handicap: object) -> int:
    if isinstance(handicap, int) and not isinstance(handicap, bool) and 0 <= handicap <= 4:
        return handicap
    raise ValueError(f"handicap must be an integer from 0 to 4, got {_given(handicap)}")


def _check_handicap_color(color: object) -> int:
    if color in ("black", "white"):
        return _COLOR_NAMES.index(color)
    if isinstance(color, int) and not isinstance(color, bool) and color in (BLACK, WHITE):
        return color
    raise ValueError(f"handicap_color must be BLACK (0), WHITE (1), 'black' or 'white', got {_given(color)}")


def _check_seed(seed: object) -> int:
    if isinstance(seed, int) and not isinstance(seed, bool) and 0 <= seed < 2**64:
        return seed
    raise ValueError(f"seed must be an integer with 0 <= seed < 2**64, got {_given(seed)}")


def _explicit_holes(board_name: str, blocked: object, corners) -> list[tuple[int, int]]:
    """The holes of ``blocked=[...]``; raises ValueError naming the bad square and the reason."""
    if isinstance(blocked, (str, bytes)) or not hasattr(blocked, "__iter__"):
        raise ValueError(f"blocked must be None, 'random' or a list of square names, got {blocked!r}")
    holes: list[tuple[int, int]] = []
    for name in blocked:
        if not isinstance(name, str):
            raise ValueError(f"blocked must list square names like 'b2', got {name!r}")
        try:
            row, col = parse_square(name)
        except NotationError:
            raise ValueError(f"blocked must list square names like 'b2', got {_short(name)}") from None
        problem = _hole_problem(board_name, row, col, corners)
        if problem:
            raise ValueError(f"blocked: {square_name(row, col)} {problem}")
        if (row, col) in holes:
            raise ValueError(f"blocked: {square_name(row, col)} is given twice")
        holes.append((row, col))
    if len(holes) > MAX_HOLES:
        raise ValueError(f"blocked may list at most {MAX_HOLES} squares, got {len(holes)}")
    return holes


def _random_holes(board_name: str, seed: int, corners) -> list[tuple[int, int]]:
    """The holes drawn from ``seed`` by the algorithm of docs/reversi.md.

    Raises ValueError if the board has no square where a hole may be (4x4).
    """
    size = BOARD_SIZES[board_name]
    allowed = [
        (row, col) for row in range(size) for col in range(size) if _hole_problem(board_name, row, col, corners) is None
    ]
    if not allowed:
        raise ValueError(f"blocked='random': the {_describe(board_name)} board has no square where a hole may be")
    rng = SplitMix64(seed)
    count = 1 + rng.below(MAX_HOLES)
    for i in range(count):  # partial Fisher-Yates
        j = i + rng.below(len(allowed) - i)
        allowed[i], allowed[j] = allowed[j], allowed[i]
    return sorted(allowed[:count])


def _choose_holes(board_name: str, blocked: object, seed: object, corners) -> list[tuple[int, int]]:
    """The holes for the constructor's ``blocked`` and ``seed``; raises ValueError if they are bad."""
    if blocked == "random":
        if seed is None:
            raise ValueError("blocked='random' needs a seed (seed=...)")
        return _random_holes(board_name, _check_seed(seed), corners)
    if seed is not None:
        raise ValueError("seed is only used with blocked='random'")
    if blocked is None:
        return []
    return _explicit_holes(board_name, blocked, corners)


# --------------------------------------------------------------------------------------------
# Records


_RECORD_TAGS = ("Game", "Board", "Blocked", "Seed", "Handicap", "HandicapColor", "Position", "Result")
_VARIANT_TAGS = ("Blocked", "Seed", "Handicap", "HandicapColor")


def _tag_number(tags: dict[str, str], name: str, default: int) -> int:
    value = tags.get(name)
    if value is None:
        return default
    if not value.isascii() or not value.isdigit():
        raise NotationError(f"record: tag {name} must be a decimal number, got {_short(value)}")
    return int(value)


# --------------------------------------------------------------------------------------------
# The game


class Reversi(ReferenceGame):
    """A game of Reversi (Othello) on a square board or the Octagon, possibly with holes.

    ``Reversi(size=8, *, blocked=None, seed=None, handicap=0, handicap_color=BLACK)``

    - ``size``: 4, 6, 8, 10 or ``"octagon"``.
    - ``blocked``: None, a list of 0 to 4 square names, or ``"random"`` (then ``seed`` is needed).
    - ``handicap``: 0 to 4 discs of ``handicap_color`` on the corners before the first move.

    Raises ValueError, naming the argument, if an argument is not allowed.
    """

    _GAME = "reversi"
    _RECORD_TAGS = _RECORD_TAGS
    _MOVE = Move
    _MOVE_ATTRIBUTES = ("is_pass", "square")

    # ---- construction ----------------------------------------------------------------------

    def __init__(self, size=8, *, blocked=None, seed=None, handicap=0, handicap_color=BLACK):
        # None means the default, as in the engine (whose arguments are optional objects).
        board_name = _check_board_name(8 if size is None else size)
        handicap = _check_handicap(0 if handicap is None else handicap)
        handicap_color = _check_handicap_color(BLACK if handicap_color is None else handicap_color)
        corners = _handicap_corners(board_name)[:handicap]
        holes = _choose_holes(board_name, blocked, seed, corners)

        self._setup(board_name, self._start_cells(board_name), BLACK)
        for row, col in corners:
            self._set(row, col, _DISC[handicap_color])
        for row, col in holes:
            self._set(row, col, HOLE)
        self._seed = seed
        self._handicap = handicap
        self._handicap_color = handicap_color

    @classmethod
    def random(cls, seed, *, size=8, handicap=0, handicap_color=BLACK) -> Reversi:
        """A game with 1 to 4 holes drawn from ``seed``; raises ValueError like the constructor."""
        return cls(size, blocked="random", seed=seed, handicap=handicap, handicap_color=handicap_color)

    @classmethod
    def from_position(cls, text: str) -> Reversi:
        """The game at a position given as ``BOARD ROWS SIDE`` (see ``position()``).

        The game has no history, no seed and no handicap. Raises NotationError if the text is not
        a valid position (including holes that break the hole rules).
        """
        fields = _position_fields(text, "BOARD ROWS SIDE")
        board_name, rows_text, side = fields
        if board_name not in BOARD_SIZES:
            raise NotationError(
                f"position: expected the board (4, 6, 8, 10 or octagon) first, got {_short(board_name)}"
            )
        cells = cls._parse_rows(board_name, rows_text)
        if side not in _DISC:
            raise NotationError(f"position: expected the side to move ('b' or 'w') last, got {_short(side)}")
        game = cls.__new__(cls)
        game._setup(board_name, cells, _DISC.index(side))
        game._start_position = game.position()
        return game

    @classmethod
    def _game_from_tags(cls, tags: dict[str, str]) -> Reversi:
        """The starting game a record's tags describe; raises NotationError if they are bad."""
        board_name = tags.get("Board")
        if board_name not in BOARD_SIZES and not (board_name is None and "Position" in tags):
            raise NotationError(f"record: expected the tag Board with 4, 6, 8, 10 or octagon, got {board_name!r}")
        if "Position" in tags:
            extra = [name for name in _VARIANT_TAGS if name in tags]
            if extra:
                raise NotationError(f"record: tag {extra[0]} cannot be given with a Position")
            try:
                game = cls.from_position(tags["Position"])
            except NotationError as error:
                raise NotationError(f"record: tag Position: {error}") from None
            if board_name is not None and game.board_name != board_name:
                raise NotationError(f"record: tag Board is {board_name} but the Position is on {game.board_name}")
            return game
        color = tags.get("HandicapColor", "black")
        if color not in _COLOR_NAMES:
            raise NotationError(f"record: tag HandicapColor must be 'black' or 'white', got {_short(color)}")
        assert board_name is not None  # checked above: only a Position may come without a Board
        size = board_name if board_name == "octagon" else int(board_name)
        options = {"handicap": _tag_number(tags, "Handicap", 0), "handicap_color": color}
        try:
            if "Seed" in tags:
                game = cls(size, blocked="random", seed=_tag_number(tags, "Seed", 0), **options)
                if "Blocked" in tags and sorted(_words(_lower(tags["Blocked"]))) != sorted(game.blocked):
                    raise NotationError(
                        f"record: seed {game.seed} gives the holes {' '.join(game.blocked)!r}, "
                        f"not the Blocked {tags['Blocked']!r}"
                    )
                return game
            return cls(size, blocked=_words(tags.get("Blocked", "")), **options)
        except NotationError:
            raise
        except ValueError as error:
            raise NotationError(f"record: {error}") from None

    @staticmethod
    def _start_cells(board_name: str) -> list[str]:
        """The empty board (cut squares marked) with the four starting discs in the centre."""
        size = BOARD_SIZES[board_name]
        cells = [CUT if _is_cut(board_name, row, col) else EMPTY for row in range(size) for col in range(size)]
        mid = size // 2
        centre = {(mid - 1, mid - 1): WHITE, (mid - 1, mid): BLACK, (mid, mid - 1): BLACK, (mid, mid): WHITE}
        for (row, col), color in centre.items():
            cells[row * size + col] = _DISC[color]
        return cells

    @staticmethod
    def _parse_rows(board_name: str, rows_text: str) -> list[str]:
        """The cells of a position's ROWS field; raises NotationError if it is not valid."""
        size = BOARD_SIZES[board_name]
        rows = rows_text.split("/")
        if len(rows) != size:
            raise NotationError(f"position: expected {size} rows joined by '/', got {len(rows)}")
        cells: list[str] = []
        for row, line in enumerate(rows):
            if len(line) != size:
                raise NotationError(f"position: expected row {row + 1} to have {size} cells, got {_short(line)}")
            for col, cell in enumerate(line):
                cells.append(Reversi._check_cell(board_name, row, col, cell))
        holes = [i for i, cell in enumerate(cells) if cell == HOLE]
        if len(holes) > MAX_HOLES:
            raise NotationError(f"position: at most {MAX_HOLES} holes are allowed, got {len(holes)}")
        for i in holes:
            problem = _hole_problem(board_name, i // size, i % size, [])
            if problem:
                raise NotationError(f"position: the hole at {square_name(i // size, i % size)} {problem}")
        return cells

    @staticmethod
    def _check_cell(board_name: str, row: int, col: int, cell: str) -> str:
        """One cell of a position; raises NotationError if it is not allowed there."""
        name = square_name(row, col)
        if _is_cut(board_name, row, col):
            if cell != CUT:
                raise NotationError(f"position: expected '-' at the octagon's cut square {name}, got {cell!r}")
        elif cell not in (EMPTY, HOLE, *_DISC):
            allowed = "'.', 'b', 'w' or '#'"
            raise NotationError(f"position: expected one of {allowed} at {name}, got {cell!r}")
        return cell

    def _setup(self, board_name: str, cells: list[str], to_move: int) -> None:
        """Sets every field; the variant fields get the values of a game without variant."""
        self._board_name = board_name
        self._size = BOARD_SIZES[board_name]
        self._cells = cells
        self._to_move = to_move
        self._history: list[tuple[Move, list[str], int]] = []  # (move, cells before, side before)
        self._seed = None
        self._handicap = 0
        self._handicap_color = BLACK
        self._start_position: str | None = None  # set when the game began from from_position

    def _set(self, row: int, col: int, cell: str) -> None:
        self._cells[row * self._size + col] = cell

    # ---- properties ------------------------------------------------------------------------

    @property
    def size(self) -> int:
        """The board's width: 4, 6, 8 or 10 (10 for the Octagon)."""
        return self._size

    @property
    def board_name(self) -> str:
        """'4', '6', '8', '10' or 'octagon'."""
        return self._board_name

    def cells(self) -> tuple[str, ...]:
        """Every square of the ``size x size`` grid in board order: holes and the Octagon's cut
        squares included, as on the text board and in the observation planes."""
        return tuple(self._name(i) for i in range(self._size * self._size))

    def _contents(self, index: int) -> Any:
        return _CONTENTS[self._cells[index]]

    @property
    def blocked(self) -> tuple[str, ...]:
        """The holes' square names, in board order."""
        return tuple(self._name(i) for i, cell in enumerate(self._cells) if cell == HOLE)

    @property
    def seed(self) -> int | None:
        return self._seed

    @property
    def handicap(self) -> int:
        return self._handicap

    @property
    def handicap_color(self) -> Color:
        return Color(self._handicap_color)

    @property
    def handicap_squares(self) -> tuple[str, ...]:
        """The squares that received the handicap discs, in the documented corner order."""
        return tuple(square_name(r, c) for r, c in _handicap_corners(self._board_name)[: self._handicap])

    def _name(self, index: int) -> str:
        return square_name(index // self._size, index % self._size)

    # ---- rules -----------------------------------------------------------------------------

    def _flips(self, index: int, color: int) -> list[int]:
        """The discs a disc of ``color`` placed on the empty cell ``index`` would flip.

        Along each direction, a run of one or more opponent discs followed by one of the mover's
        discs is flipped. Anything else ends the line: an empty square, a hole, a cut square, the edge.
        """
        mine, theirs = _DISC[color], _DISC[1 - color]
        flips: list[int] = []
        for line in _rays(self._size)[index]:
            run: list[int] = []
            for i in line:
                if self._cells[i] != theirs:
                    if self._cells[i] == mine:
                        flips.extend(run)
                    break
                run.append(i)
        return flips

    def _brackets(self, index: int, color: int) -> bool:
        """Whether a disc of ``color`` on the empty cell ``index`` would flip anything (the same
        walk as ``_flips``, stopping at the first bracketed run)."""
        mine, theirs = _DISC[color], _DISC[1 - color]
        for line in _rays(self._size)[index]:
            if self._cells[line[0]] != theirs:
                continue
            for i in line[1:]:
                if self._cells[i] != theirs:
                    if self._cells[i] == mine:
                        return True
                    break
        return False

    def _placements(self, color: int) -> list[int]:
        """The cells where ``color`` may place a disc, in board order."""
        return [i for i, cell in enumerate(self._cells) if cell == EMPTY and self._brackets(i, color)]

    def legal_moves(self) -> list[Move]:
        """The placements in board order; ``[pass]`` if the mover has none but the opponent has
        one; ``[]`` when the game is over."""
        mine = self._placements(self._to_move)
        if mine:
            moves = _square_moves(self._size)
            return [moves[i] for i in mine]
        if self._placements(1 - self._to_move):
            return [PASS]
        return []

    # A Reversi move is its own parts: the cached, immutable Move (a pass included).

    def _move_parts(self) -> list[Move]:
        return self.legal_moves()

    def _make_move(self, parts: Move) -> Move:
        return parts

    def _parts_of(self, move: Move) -> Move:
        return move

    def _is_pass(self, parts: Move) -> bool:
        return parts.is_pass

    def is_over(self) -> bool:
        """True when neither player can place a disc."""
        return not self._placements(BLACK) and not self._placements(WHITE)

    def score(self) -> tuple[int, int]:
        """(black discs, white discs)."""
        return self._cells.count(_DISC[BLACK]), self._cells.count(_DISC[WHITE])

    # ---- moves -----------------------------------------------------------------------------

    def _illegality(self, move: Move) -> str | None:
        """Why ``move`` may not be played here, or None if it may: off the board, cut, a hole,
        occupied, bracketing nothing, a pass while a placement exists, any move once the game is
        over."""
        if move.square is None:  # a pass
            return self._pass_illegality()
        index = _square_indices(self._size).get(move.square)
        if index is not None and self._cells[index] == EMPTY and self._brackets(index, self._to_move):
            return None
        if self.is_over():
            return f"{move} is not allowed: the game is over"
        if index is None:
            return f"{move} is off the {_describe(self._board_name)} board"
        cell = self._cells[index]
        if cell == CUT:
            return f"{move} is a cut square of the octagon"
        if cell == HOLE:
            return f"{move} is a hole"
        if cell != EMPTY:
            return f"{move} is occupied"
        side, other = _COLOR_NAMES[self._to_move], _COLOR_NAMES[1 - self._to_move]
        return f"{move} brackets no {other} disc for {side}"

    def _pass_illegality(self) -> str | None:
        """Why passing is not allowed here, or None if it is."""
        placements = self._placements(self._to_move)
        if placements:
            side = _COLOR_NAMES[self._to_move]
            return f"{side} may not pass while a placement exists (e.g. {self._name(placements[0])})"
        if not self._placements(1 - self._to_move):
            return "pass is not allowed: the game is over"
        return None

    def _push(self, parts: Move, move: Move | None = None) -> None:
        """Plays a legal move without checking it; ``parts`` is the Move (``move`` is the same)."""
        self._history.append((parts, list(self._cells), self._to_move))
        if parts.square is not None:  # not a pass
            index = _square_indices(self._size)[parts.square]
            for i in self._flips(index, self._to_move):
                self._cells[i] = _DISC[self._to_move]
            self._cells[index] = _DISC[self._to_move]
        self._to_move = 1 - self._to_move

    # ---- notation --------------------------------------------------------------------------

    def position(self) -> str:
        """The position as ``BOARD ROWS SIDE``, e.g. the 8x8 start
        ``8 ......../......../......../...wb.../...bw.../......../......../........ b``."""
        size = self._size
        rows = ("".join(self._cells[row * size : (row + 1) * size]) for row in range(size))
        return f"{self._board_name} {'/'.join(rows)} {_DISC[self._to_move]}"

    def _board_tags(self) -> list[tuple[str, str]]:
        return [("Board", self._board_name)]

    def _variant_tags(self) -> list[tuple[str, str]]:
        tags = []
        if self.blocked:
            tags.append(("Blocked", " ".join(self.blocked)))
        if self._seed is not None:
            tags.append(("Seed", str(self._seed)))
        if self._handicap:
            tags.append(("Handicap", str(self._handicap)))
            if self._handicap_color == WHITE:
                tags.append(("HandicapColor", "white"))
        return tags

    def _text_board(self) -> str:
        size = self._size
        lines = ["   " + " ".join(chr(ord("a") + col) for col in range(size))]
        for row in range(size):
            lines.append(f"{row + 1:>2} " + " ".join(self._cells[row * size : (row + 1) * size]))
        return "\n".join(lines)

    # ---- hashing and equality --------------------------------------------------------------

    def zobrist(self) -> int:
        """The 64-bit Zobrist hash: XOR of the keys of every disc and hole, and of the side key
        when White is to move (keys as in docs/reversi.md)."""
        keys = _zobrist_keys()
        offsets = {_DISC[BLACK]: 0, _DISC[WHITE]: 100, HOLE: 200}
        value = keys[300] if self._to_move == WHITE else 0
        for i, cell in enumerate(self._cells):
            if cell in offsets:
                value ^= keys[offsets[cell] + (i // self._size) * 10 + i % self._size]
        return value

    # ---- step form -------------------------------------------------------------------------

    def actions(self) -> ReversiActions:
        """A snapshot of the current position in step form (docs/actions.md)."""
        return ReversiActions(self)


# --------------------------------------------------------------------------------------------
# Step form (docs/actions.md)


class ReversiActions(StepState):
    """Reversi in step form: action ``row * size + col`` places a disc on that square (every
    square of the rectangle has one, holes and cut squares included), action ``size * size``
    passes. Observation ``(4, size, size)``: the mover's discs, the opponent's, the empty squares,
    the holes and cut squares."""

    def __init__(self, game: Reversi) -> None:
        self._game = game.copy()
        size = game.size
        self.num_actions = size * size + 1
        self.observation_shape = (4, size, size)

    observation_planes = ("mover", "opponent", "empty", "blocked")
    _player_planes = (slice(0, 1), slice(1, 2))

    def _move(self, action: int) -> Move:
        if action == self.num_actions - 1:
            return PASS
        return _square_moves(self._game.size)[action]

    def legal_actions(self) -> list[int]:
        squares = _square_indices(self._game.size)
        return sorted(
            self.num_actions - 1 if move.is_pass else squares[move.square] for move in self._game.legal_moves()
        )

    def _apply(self, action: int) -> None:
        self._game._push(self._move(action))

    def _name(self, action: int) -> str:
        return str(self._move(action))

    def _observe(self) -> np.ndarray:
        """``float32 (4, size, size)``, from the side to move's perspective."""
        size = self._game.size
        planes = np.zeros(self.observation_shape, dtype=np.float32)
        plane_of = {_DISC[self._game.to_move]: 0, _DISC[1 - self._game.to_move]: 1, EMPTY: 2, HOLE: 3, CUT: 3}
        for i, cell in enumerate(self._game._cells):
            planes[plane_of[cell], i // size, i % size] = 1.0
        return planes

    def position(self) -> str:
        return self._game.position()
