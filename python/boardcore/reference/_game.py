"""What every reference twin shares: copying, pickling, hashing, equality, playouts.

The games keep their state in plain attributes, with the board in a list ``_cells`` and the moves
in a list ``_history`` whose entries are never mutated, so a copy only needs fresh lists.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from boardcore.pieces import Color, Piece
from boardcore.reference import _playout

try:
    from boardcore.errors import IllegalMoveError, NotationError
except ImportError:  # the compiled engine is not built: the references still work on their own

    class IllegalMoveError(ValueError):  # type: ignore[no-redef]
        """A well-formed move that the rules do not allow in this position."""

    class NotationError(ValueError):  # type: ignore[no-redef]
        """Text that cannot be parsed; the message says what was expected where."""


# The players as the engines give them (an IntEnum, 0 and 1); the twins compute with them as
# ints and hand Color back wherever a colour leaves the game (to_move, winner(), pieces).
BLACK = Color.BLACK
WHITE = Color.WHITE
COLOR_LETTERS = ("b", "w")  # COLOR_LETTERS[colour]: that colour's letter in every game's notation
COLOR_NAMES = ("black", "white")

ZOBRIST_SEED = 0x424F415244434F52  # the bytes of "BOARDCOR": every game's Zobrist keys start from it


# ---- text rules (docs/design.md, "Text input"; the engine's rust/engine/src/protocol/text.rs) ----------
# Only space, tab, CR and LF are blanks. str.strip(), str.split() and str.splitlines() also treat
# other characters as whitespace or line breaks (\x1c, \u2028, \xa0...), which the engine does
# not: so they are never used on user text here.

BLANKS = " \t\r\n"
MAX_NOTATION_CHARS = 4096  # the longest position or move accepted, in characters


def strip(text: str) -> str:
    """The text without leading and trailing blanks."""
    return text.strip(BLANKS)


_LINE_RE = re.compile(r"[^\r\n]+")


def numbered_lines(text: str):
    """``(number, line)`` for each line of a text that is not blank, trimmed of blanks; lines end
    at every CR LF, LF and CR and are numbered from 1. Blank lines are skipped by the regex, not
    one by one, so that a megabyte of line breaks costs next to nothing."""
    number, end = 1, 0
    for match in _LINE_RE.finditer(text):
        start = match.start()
        number += text.count("\n", end, start) + text.count("\r", end, start) - text.count("\r\n", end, start)
        end = start
        line = strip(match.group())
        if line:
            yield number, line


def lower(text: str) -> str:
    """ASCII text in lower case; other text unchanged (``str.lower`` would turn the Kelvin sign
    into a 'k', where the engine lowers ASCII letters only, and no notation has other letters)."""
    return text.lower() if text.isascii() else text


def words(line: str) -> list[str]:
    """The words of a line: the pieces between runs of spaces and tabs."""
    return [word for word in line.replace("\t", " ").split(" ") if word]


def check_length(what: str, text: str) -> None:
    """NotationError if a position or move is longer than MAX_NOTATION_CHARS characters."""
    if len(text) > MAX_NOTATION_CHARS:
        raise NotationError(f"a {what} has at most {MAX_NOTATION_CHARS} characters, got {len(text)}")


def position_fields(text: object, form: str, counts: range = range(3, 4)) -> list[str]:
    """The fields of a position, separated by single spaces: TypeError if ``text`` is not a
    string, NotationError if it is too long or the number of fields is not in ``counts`` (the
    message shows the expected ``form``, e.g. 'BOARD ROWS SIDE')."""
    if not isinstance(text, str):
        raise TypeError(f"a position is a string, got {type(text).__name__}")
    check_length("position", text)
    fields = strip(text).split(" ")
    if len(fields) not in counts:
        raise NotationError(f"position: expected '{form}' separated by single spaces, got {short(text)}")
    return fields


# A hex cell's name as a regular expression: a row letter, then a cell number from 1 to 99
# without a leading zero (``cell_name``'s names).
CELL_PATTERN = r"[a-z][1-9][0-9]?"


def cell_name(row: int, number: int) -> str:
    """``c3`` style name of the ``number``-th cell (from 0) of row ``row`` (from 0 at the top): how
    the hex boards (Rive, Strands) name their cells, whatever the board."""
    return f"{chr(ord('a') + row)}{number + 1}"


def cell_key(name: str) -> tuple[str, int]:
    """Sort key of a normalised hex cell name in board order: row letter, then number."""
    return name[0], int(name[1:])


def short(text: str) -> str:
    """repr of text, cut short so that a megabyte of garbage makes a short message."""
    return repr(text if len(text) <= 40 else text[:40] + "...")


def given(value: object, typed_ints: bool = False) -> str:
    """A value as shown in a refusal: its repr, and its type (`'8'` and `8` look alike) unless it
    is an int where an int was wanted, as the engine's ``args::shown_with_type``."""
    if isinstance(value, int) and not isinstance(value, bool) and not typed_ints:
        return repr(value)
    kind = type(value).__name__
    return f"{short(value) if isinstance(value, str) else repr(value)} ({'an' if kind[0] in 'aeiou' else 'a'} {kind})"


def check_count(name: str, value: object, minimum: int) -> None:
    """A ValueError naming the argument unless `value` is an int (not a bool) >= `minimum`."""
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {given(value)}")


def check_bool(name: str, value: object) -> None:
    """A TypeError naming the argument unless `value` is a bool (the engine takes a Python bool
    there and nothing else: not 0 or 1, not None)."""
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be True or False, got {value!r}")


def check_progress(progress: object) -> None:
    """A TypeError unless `progress` is None or a callable ``progress(ply, depth, positions)``."""
    if progress is not None and not callable(progress):
        raise TypeError(
            f"progress must be a callable progress(ply, depth, positions) or None, got {type(progress).__name__}"
        )


def check_count_options(
    depth: object, owners: object, symmetry: object, wrapping: object, progress: object, max_positions: object = None
) -> None:
    """The checks of ``count_paths``' arguments, in the engine's order (its binding converts the
    flags before the call's body reads the depth, the cap and the callback)."""
    check_bool("owners", owners)
    check_bool("symmetry", symmetry)
    check_bool("wrapping", wrapping)
    check_count("depth", depth, 0)
    if max_positions is not None and (
        isinstance(max_positions, bool) or not isinstance(max_positions, int) or not 1 <= max_positions < 2**64
    ):
        raise ValueError(f"max_positions must be an integer from 1 to 2**64-1, got {given(max_positions)}")
    check_progress(progress)


def check_positions_held(held: int, max_positions: int | None, depth: int, ply: int) -> None:
    """The twin's memory cap: MemoryError once a count holds more than ``max_positions``
    positions (None: no cap; the twin is for small counts, and the engine's default cap is in
    bytes of its own tables)."""
    if max_positions is not None and held > max_positions:
        raise MemoryError(
            f"count_paths to depth {depth} needs more than {max_positions} positions in memory at once "
            f"(reached at depth {ply}); ask for a smaller depth or a larger max_positions"
        )


def wrapped_counts(layer: dict, wrapping: bool) -> dict:
    """``layer``'s counts modulo 2**64 when ``wrapping``, without the rows whose count is then 0."""
    if not wrapping:
        return layer
    return {key: count % 2**64 for key, count in layer.items() if count % 2**64}


def result_text(winner: Color | None, over: bool) -> str:
    """The Result tag of a record: 1-0, 0-1, 1/2-1/2, or * while the game goes on."""
    if not over:
        return "*"
    return {BLACK: "1-0", WHITE: "0-1", None: "1/2-1/2"}[winner]


def parse_tag(line: str) -> tuple[str, str] | None:
    """(name, value) of a tag line ``[Name "value"]`` (trimmed): an ASCII letters-and-digits name,
    one space, maybe more blanks, the value in quotes (holding no quote), maybe blanks, then
    ``]``; None for anything else. Plain string operations, so a long line costs one pass."""
    if not (line.startswith("[") and line.endswith("]")):
        return None
    name, space, rest = line[1:-1].partition(" ")
    rest = strip(rest)
    if not (space and name.isascii() and name.isalnum()):
        return None
    if len(rest) < 2 or rest[0] != '"' or rest[-1] != '"' or '"' in rest[1:-1]:
        return None
    return name, rest[1:-1]


def parse_record(text: str, known_tags) -> tuple[dict[str, str], list[str]]:
    """The tags and move tokens of a record (the format every game shares: `[Tag "value"]` lines,
    then moves); raises NotationError on bad syntax or a tag not in `known_tags`."""
    tags: dict[str, str] = {}
    moves: list[str] = []
    for number, line in numbered_lines(text):
        if not line.startswith("["):
            moves.extend(words(line))
            continue
        if moves:
            raise NotationError(f"record line {number}: a tag after the moves began")
        tag = parse_tag(line)
        if tag is None:
            raise NotationError(f'record line {number}: expected a tag like [Name "value"], got {short(line)}')
        name, value = tag
        if name not in known_tags:
            raise NotationError(f"record line {number}: unknown tag {name!r}")
        if name in tags:
            raise NotationError(f"record: tag {name} given twice")
        tags[name] = value
    return tags, moves


def square_key(name: str) -> tuple[int, str]:
    """Sort key of a normalised square name (Reversi, Cephalopod) in board order: row, then
    column."""
    return int(name[1:]), name[0]


def placed_cells(cell: str | None) -> tuple[str, ...]:
    """The cells a move that places at most one piece places: ``(cell,)``, or ``()`` for None."""
    return () if cell is None else (cell,)


_MoveT = TypeVar("_MoveT", bound="ReferenceMove")


class ReferenceMove:
    """What every reference game's Move shares: immutability, a hash and pickling through its
    notation (a move equals its notation string), an eval-able repr, and the order moves sort in.

    Order (docs/design.md, "Moves' order"; the engine's ``naming::MoveOrder``): first the moves
    that place a piece, by the cells placed on in board order (compared as lists), then by the
    cells removed; then the moves that place nothing (a pass, the swap, a single-stone removal),
    by the cells removed. Each game's Move says how its cells sort (``_cell_key``).

    Every move is held as those two lists of cells, ``placed`` and ``removed``; each game's Move
    reads its own properties (a square, the captures...) from them."""

    __slots__ = ("_placed", "_removed")
    _placed: tuple[str, ...]
    _removed: tuple[str, ...]

    def _set_fields(self, placed: tuple[str, ...], removed: tuple[str, ...] = (), **own: object) -> None:
        """Fills in a new move: the cells it places and removes, in board order, and any field of
        its game's ``own`` (``__setattr__`` refuses: the move is immutable)."""
        object.__setattr__(self, "_placed", placed)
        object.__setattr__(self, "_removed", removed)
        for name, value in own.items():
            object.__setattr__(self, name, value)

    @classmethod
    def _with_fields(
        cls: type[_MoveT], placed: tuple[str, ...], removed: tuple[str, ...] = (), **own: object
    ) -> _MoveT:
        """A move holding these fields (as ``_set_fields``), made without parsing any notation
        (each game's ``_of``)."""
        move = object.__new__(cls)
        move._set_fields(placed, removed, **own)
        return move

    @staticmethod
    def _check_notation(notation: object) -> None:
        """A TypeError unless ``notation`` is a string: a move is made from its notation."""
        if not isinstance(notation, str):
            raise TypeError(f"a move is given by its notation string, got {type(notation).__name__}")

    @property
    def placed(self) -> tuple[str, ...]:
        """The cells the move places a piece on, in board order: ``()`` for a move that places
        nothing (a pass, the swap, a single-stone removal)."""
        return self._placed

    @property
    def removed(self) -> tuple[str, ...]:
        """The cells the move empties, in board order (captures; ``()`` in the games that never
        remove a piece)."""
        return self._removed

    @property
    def _placed_cell(self) -> str | None:
        """The cell of a move that places at most one piece (``placed_cells``' inverse): None when
        it places nothing."""
        return self._placed[0] if self._placed else None

    @staticmethod
    def _cell_key(name: str) -> Any:
        """Sort key of a cell name in board order: a hex board's (row letter, number) unless the
        game's Move says otherwise."""
        return cell_key(name)

    def _order(self) -> tuple[bool, tuple[Any, ...], tuple[Any, ...]]:
        placed = tuple(self._cell_key(name) for name in self.placed)
        return not placed, placed, tuple(self._cell_key(name) for name in self.removed)

    def _ordered(self, other: object) -> tuple[Any, Any] | None:
        """Both moves' orders, or None when ``other`` is not a Move of this game."""
        if not isinstance(other, type(self)):
            return None
        return self._order(), other._order()

    def __lt__(self, other: object) -> bool:
        pair = self._ordered(other)
        return NotImplemented if pair is None else pair[0] < pair[1]

    def __le__(self, other: object) -> bool:
        pair = self._ordered(other)
        return NotImplemented if pair is None else pair[0] <= pair[1]

    def __gt__(self, other: object) -> bool:
        pair = self._ordered(other)
        return NotImplemented if pair is None else pair[0] > pair[1]

    def __ge__(self, other: object) -> bool:
        pair = self._ordered(other)
        return NotImplemented if pair is None else pair[0] >= pair[1]

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


AUTO_LAYER = 1 << 18  # split_depth="auto" stops merging after a layer this large (paths.rs)
AUTO_BELOW = 4  # ... or when this many plies remain below the layer


OWNERS_FOR_CEPHALOPOD_ONLY = (
    "count_paths: owners=False is for Cephalopod only (the one game whose moves never depend on who owns the pieces)"
)
SQUARE_TOTAL_PIPS = 7  # the columns of PathCounts.square_totals(): pips 0 (empty) to 6


def square_totals(cells: Any, counts: list[int]) -> tuple[Any, Any]:
    """``PathCounts.square_totals()`` of rows ``cells`` with path counts ``counts``: ``(low,
    high)``, the 64-bit halves of ``T[s, p]``, the paths whose final position shows ``p`` pips on
    cell ``s`` (owners not told apart). OverflowError if a total reaches 2**128."""
    import numpy as np

    width = cells.shape[1]
    totals = [[0] * SQUARE_TOTAL_PIPS for _ in range(width)]
    for row, count in zip(cells.tolist(), counts):
        for square, cell in enumerate(row):
            totals[square][min(abs(cell), SQUARE_TOTAL_PIPS - 1)] += count
    flat = [total for row in totals for total in row]
    if any(total >= 2**128 for total in flat):
        raise OverflowError("square_totals: a total passed 2**128")
    low = np.array([t & (2**64 - 1) for t in flat], dtype=np.uint64).reshape(width, SQUARE_TOTAL_PIPS)
    high = np.array([t >> 64 for t in flat], dtype=np.uint64).reshape(width, SQUARE_TOTAL_PIPS)
    return low, high


class PathCounts:
    """Distinct final positions and their path counts, as numpy arrays (see ``count_paths``).

    - ``cells``: ``int8`` array of shape ``(n, len(game.cells()))``, each row a position in the
      order of ``cells``: ``+p`` a black piece (a Cephalopod die's pips, 1 for a disc or a stone),
      ``-p`` a white one, ``0`` an empty cell (or a hole, or cut);
    - ``to_move``: ``uint8`` array of shape ``(n,)``;
    - ``counts_low``, ``counts_high``: ``uint64`` arrays, the low and high 64 bits of each count.

    Rows are sorted by position notation here; the engine sorts them by its key, so compare the
    two as mappings from ``position(i)`` to count. (Cephalopod's twin subclasses it: its rows come
    from its own layer and sort as the engine's do.)
    """

    cells: Any
    to_move: Any
    counts_low: Any
    counts_high: Any
    _positions: list[str]

    def __init__(self) -> None:
        raise TypeError("PathCounts objects are made by count_paths()")

    @classmethod
    def _build(cls, game: type, layer: dict[str, int]) -> PathCounts:
        import numpy as np

        entries = sorted(layer.items())
        rows = []
        for position, _ in entries:
            g = game.from_position(position)  # type: ignore[attr-defined]
            rows.append([_cell_value(g.piece_at(name)) for name in g.cells()])
        width = len(game.from_position(entries[0][0]).cells()) if entries else 0  # type: ignore[attr-defined]
        result = object.__new__(cls)
        result._positions = [position for position, _ in entries]
        result.cells = np.array(rows, dtype=np.int8).reshape(len(entries), width)
        result.to_move = np.array(
            [game.from_position(p).to_move for p in result._positions],  # type: ignore[attr-defined]
            dtype=np.uint8,
        )
        result._store_counts([count for _, count in entries])
        return result

    def _store_counts(self, counts: list[int]) -> None:
        """Sets ``counts_low`` and ``counts_high``; a count of 2**128 or more is an
        OverflowError, as in the engine."""
        import numpy as np

        if any(count >= 2**128 for count in counts):
            raise OverflowError("count_paths: a path count reaches 2**128")
        self.counts_low = np.array([count & (2**64 - 1) for count in counts], dtype=np.uint64)
        self.counts_high = np.array([count >> 64 for count in counts], dtype=np.uint64)

    def __len__(self) -> int:
        return len(self._positions)

    def counts(self) -> list[int]:
        """The path counts as Python ints, row by row."""
        return [(int(high) << 64) | int(low) for low, high in zip(self.counts_low, self.counts_high)]

    def total(self) -> int:
        """The number of move sequences: the sum of the counts, equal to ``perft(depth)``."""
        return sum(self.counts())

    def position(self, i: int) -> str:
        """Row ``i`` as position notation (negative ``i`` counts from the end, as for lists).
        Raises IndexError if there is no such row."""
        return self._positions[i]

    def square_totals(self) -> tuple[Any, Any]:
        """``(low, high)``: ``uint64`` arrays ``(len(game.cells()), 7)``, the 64-bit halves of
        ``T[s, p]``, the number of paths whose final position shows ``p`` pips on cell ``s`` (a
        disc or a stone counts as 1); see docs/cephalopod.md."""
        return square_totals(self.cells, self.counts())

    def __repr__(self) -> str:
        return f"<PathCounts: {len(self)} positions, {self.total()} paths>"


def _cell_value(piece: Any) -> int:
    """A cell of ``PathCounts.cells``: the piece's pips (1 for a disc or a stone), negative for
    White; 0 for an empty cell, a hole or a cut square."""
    if not isinstance(piece, Piece):
        return 0
    value = piece.pips or 1
    return value if piece.player == BLACK else -value


class ReferenceGame:
    """Mixin for the reference games: what the four games do alike, written once over the hooks
    each game provides.

    Each game provides position(), zobrist(), is_over(), score(), the class attributes _GAME (the
    record's game name), _RECORD_TAGS, _MOVE (its Move class) and _MOVE_ATTRIBUTES (the attributes
    that mark another implementation's Move of the game), the classmethod _game_from_tags() that
    builds a record's start, and the move hooks:

    - ``_move_parts()``: every legal move as the value ``_push`` takes (its "parts": cell indices,
      or for Reversi the cached Move itself), in legal move order;
    - ``_push(parts, move=None)``: plays a legal move without checking it (``move`` is its Move
      when the caller has it, so that the history keeps the Move the player gave);
    - ``_parts_of(move)``: the parts of a Move that ``_illegality`` accepted;
    - ``_make_move(parts)``: the Move of some parts;
    - ``_illegality(move)``: why a Move may not be played here, or None if it may.
    """

    if TYPE_CHECKING:  # what each game provides, declared for the type checker only
        _GAME: ClassVar[str]
        _RECORD_TAGS: ClassVar[tuple[str, ...]]
        _MOVE: ClassVar[type]
        _MOVE_ATTRIBUTES: ClassVar[tuple[str, ...]]
        _to_move: int
        _history: list[tuple[Any, ...]]
        _start_position: str | None

        @classmethod
        def _game_from_tags(cls, tags: dict[str, str]) -> Any: ...
        def position(self) -> str: ...
        def zobrist(self) -> int: ...
        def is_over(self) -> bool: ...
        def score(self) -> Any: ...  # counts (discs, dice, stones); Strands: its group sizes
        def _move_parts(self) -> Iterable[Any]: ...
        def _push(self, parts: Any, move: Any = None) -> None: ...
        def _parts_of(self, move: Any) -> Any: ...
        def _make_move(self, parts: Any) -> Any: ...
        def _illegality(self, move: Any) -> str | None: ...
        def cells(self) -> tuple[str, ...]: ...

    # ---- reading the board (docs/design.md, "Reading the board") ------------------------------

    def piece_at(self, cell: str) -> Any:
        """What the cell named ``cell`` holds (``boardcore.pieces``): a ``Piece(player, pips)``,
        ``HOLE`` or ``CUT`` (Reversi), or None when it is empty. The name is read as in moves (any
        case, blanks around ignored). Raises KeyError for a name that is not one of ``cells()``,
        TypeError for anything but a string."""
        if not isinstance(cell, str):
            raise TypeError(f"a cell is named by a string like 'd3' (game.cells() lists them), got {given(cell, True)}")
        name = lower(strip(cell))
        cells = self.cells()
        if name not in cells:
            raise KeyError(f"{short(cell)} is not a cell of this board")
        return self._contents(cells.index(name))

    def __getitem__(self, cell: str) -> Any:
        """``game[cell]``: ``piece_at(cell)``."""
        return self.piece_at(cell)

    def _contents(self, index: int) -> Any:
        """What cell ``index`` of ``cells`` holds. Rive and Strands keep BLACK, WHITE or None per
        cell; Reversi and Cephalopod override this."""
        owner = self._cells[index]
        return None if owner is None else Piece(Color(owner))

    @property
    def to_move(self) -> Color:
        """BLACK (0) or WHITE (1): the player to move next (in Rive, the same through the
        placements of one turn)."""
        return Color(self._to_move)

    def winner(self) -> Color | None:
        """BLACK or WHITE once the game is over and that side has more points (discs, squares or
        stones: ``score()``); None before the end and for a draw. Strands overrides it."""
        if not self.is_over():
            return None
        black, white = self.score()
        if black == white:
            return None
        return BLACK if black > white else WHITE

    @property
    def history(self) -> list[Any]:
        """The moves played since the start (a copy)."""
        return [entry[0] for entry in self._history]

    # ---- moves: checked through each game's _illegality, played by its _push -------------------

    @classmethod
    def _coerce(cls, move) -> Any:
        """A Move from a Move or its notation; raises NotationError for text that is not a move,
        TypeError for anything else. Another implementation's Move (one with every attribute in
        ``_MOVE_ATTRIBUTES``; a game is never one) is read through its notation."""
        if isinstance(move, cls._MOVE):
            return move
        if isinstance(move, str):
            return cls._MOVE(move)
        if all(hasattr(move, name) for name in cls._MOVE_ATTRIBUTES) and not isinstance(move, ReferenceGame):
            return cls._MOVE(str(move))
        raise TypeError(f"expected a Move or its notation string, got {type(move).__name__}")

    def is_legal(self, mv) -> bool:
        """Whether ``mv`` (a Move or its notation) may be played now; False for text that is
        not a move at all. Raises TypeError for anything but a Move or a string."""
        try:
            move = self._coerce(mv)
        except NotationError:
            return False
        return self._illegality(move) is None

    def play(self, mv) -> None:
        """Plays ``mv``, a Move or its notation string.

        Raises TypeError for anything else, NotationError if the text is not a move's shape (see
        the game's Move), IllegalMoveError if the move is not legal here, with the reason (each
        game's ``_illegality`` lists them). On error nothing changes.
        """
        move = self._coerce(mv)
        problem = self._illegality(move)
        if problem:
            raise IllegalMoveError(problem)
        self._push(self._parts_of(move), move)

    def legal_moves(self) -> list[Any]:
        """Every legal move, in legal move order (each game's ``_move_parts``); ``[]`` once the
        game is over."""
        return [self._make_move(parts) for parts in self._move_parts()]

    def count_moves(self) -> int:
        """The number of legal moves."""
        return sum(1 for _ in self._move_parts())

    def _is_pass(self, parts) -> bool:
        """Whether the move of these parts is a pass (only Reversi has passes)."""
        return False

    # ---- perft -------------------------------------------------------------------------------

    def perft(
        self,
        depth: int,
        threads: int | None = None,
        passes_count_as_ply: bool = True,
        split_depth: int | str | None = 0,
    ) -> int:
        """The number of leaves of the game tree ``depth`` plies deep.

        One ply is one entry of ``legal_moves()``; ``perft(0) == 1``; a finished game is one leaf
        even when depth remains. ``threads`` is accepted for compatibility (this reference is
        single-threaded; None is one thread). With ``passes_count_as_ply=False`` a pass uses no
        ply, as in the engine (only Reversi has passes: elsewhere the flag changes nothing).

        ``split_depth=k`` (0 to ``depth``; None is 0) counts with transpositions merged: the
        distinct positions ``k`` plies down with their path counts (``_path_layers``), then perft
        of ``depth - k`` of each, multiplied and summed; ``"auto"`` merges layer after layer as the
        engine does (``AUTO_LAYER``, ``AUTO_BELOW``). The count is the same for every ``k``.

        Raises ValueError if ``depth`` is not an integer >= 0, ``threads`` not an integer >= 1 or
        ``split_depth`` neither an integer from 0 to ``depth`` nor "auto", TypeError if the flag
        is not a bool.
        """
        check_count("depth", depth, 0)
        check_count("threads", 1 if threads is None else threads, 1)
        check_bool("passes_count_as_ply", passes_count_as_ply)
        if split_depth is None or (
            isinstance(split_depth, int) and not isinstance(split_depth, bool) and split_depth == 0
        ):
            return self.copy()._perft(depth, passes_count_as_ply)
        if split_depth == "auto":
            if depth <= AUTO_BELOW:
                return self.copy()._perft(depth, passes_count_as_ply)
            layer, reached = self._path_layers(
                depth, passes_count_as_ply, lambda done, held: held >= AUTO_LAYER or depth - done <= AUTO_BELOW
            )
        else:
            if isinstance(split_depth, bool) or not isinstance(split_depth, int) or not 0 <= split_depth <= depth:
                raise ValueError(
                    f"split_depth must be an integer from 0 to depth ({depth}) or 'auto', got {given(split_depth)}"
                )
            layer, reached = self._path_layers(split_depth, passes_count_as_ply)
        below = depth - reached
        return sum(
            count * type(self).from_position(position)._perft(below, passes_count_as_ply)  # type: ignore[attr-defined]
            for position, count in layer.items()
        )

    def perft_frontier(
        self, depth: int, split_depth: int | str | None = "auto", passes_count_as_ply: bool = True
    ) -> tuple[int, list[str], list[int]]:
        """Where ``perft(depth, split_depth=...)`` counts below: ``(remaining, positions, paths)``,
        the distinct positions by notation (sorted; no symmetry merging here) with the number of
        move sequences reaching each, and the plies left below them. ``split_depth`` as in
        ``perft`` (None or 0: plain, the frontier is the game itself), "auto" when omitted.
        Raises as ``perft``."""
        check_count("depth", depth, 0)
        check_bool("passes_count_as_ply", passes_count_as_ply)
        split = 0 if split_depth is None else split_depth
        plain = split == 0 and not isinstance(split, bool)
        if split == "auto":
            plain = depth <= AUTO_BELOW
            if not plain:
                layer, reached = self._path_layers(
                    depth, passes_count_as_ply, lambda done, held: held >= AUTO_LAYER or depth - done <= AUTO_BELOW
                )
        elif isinstance(split, bool) or not isinstance(split, int) or not 0 <= split <= depth:
            raise ValueError(f"split_depth must be an integer from 0 to depth ({depth}) or 'auto', got {given(split)}")
        elif not plain:
            layer, reached = self._path_layers(split, passes_count_as_ply)
        if plain:
            return depth, [self.position()], [1]
        positions = sorted(layer)
        return depth - reached, positions, [layer[position] for position in positions]

    @classmethod
    def perft_positions(
        cls,
        positions: Any,
        depth: int,
        paths: Any = None,
        threads: int | None = None,
        passes_count_as_ply: bool = True,
    ) -> int:
        """``sum(paths[i] * perft(depth) of positions[i])`` (each count 1 when ``paths`` is None)
        for positions in this game's notation. Raises NotationError naming a bad position,
        ValueError for a bad count or a length mismatch, and as ``perft``."""
        check_count("depth", depth, 0)
        check_count("threads", 1 if threads is None else threads, 1)
        check_bool("passes_count_as_ply", passes_count_as_ply)
        games = []
        for i, text in enumerate(positions):
            if not isinstance(text, str):
                raise TypeError(f"positions[{i}] must be a string, got {type(text).__name__}")
            try:
                games.append(cls.from_position(text))  # type: ignore[attr-defined]
            except NotationError as e:
                raise NotationError(f"positions[{i}]: {e}") from None
        counts = [1] * len(games) if paths is None else list(paths)
        for i, count in enumerate(counts):
            if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count < 2**128:
                raise ValueError(f"paths[{i}] must be an integer from 0 to 2**128 - 1, got {given(count)}")
        if len(counts) != len(games):
            raise ValueError(f"{len(games)} positions but {len(counts)} path counts: give one count per position")
        return sum(count * game._perft(depth, passes_count_as_ply) for game, count in zip(games, counts))

    def count_paths(
        self,
        depth: int,
        owners: bool = True,
        *,
        symmetry: bool = True,
        wrapping: bool = False,
        max_positions: int | None = None,
        progress: Any = None,
    ) -> Any:
        """For every distinct position at the end of the move sequences from here (``depth``
        plies, or fewer when the game ends), the number of sequences reaching it, as a
        ``PathCounts``; the counts sum to ``perft(depth)``. Positions are merged exactly, never
        by symmetry (``symmetry`` changes the engine's speed, not the result). ``owners=False``
        merges positions that differ only in who owns the pieces: Cephalopod only, the one game
        whose moves never depend on it. ``wrapping=True`` gives the counts modulo 2**64, without
        the rows whose count is then 0; ``progress(ply, depth, positions)`` is called after every
        ply. MemoryError once more than ``max_positions`` positions are held (None: no cap).
        Raises ValueError if ``depth`` is not an integer >= 0, or for what a game's
        ``_count_paths`` refuses (``owners=False`` in every game but Cephalopod)."""
        check_count_options(depth, owners, symmetry, wrapping, progress, max_positions)

        def report(ply: int, positions: int) -> bool:
            """After each ply: the memory cap, then the caller's ``progress``."""
            check_positions_held(positions, max_positions, depth, ply)
            if progress is not None:
                progress(ply, depth, positions)
            return False

        return self._count_paths(depth, owners, wrapping, report)

    def _count_paths(self, depth: int, owners: bool, wrapping: bool, report: Callable[[int, int], bool]) -> Any:
        """``count_paths`` once its arguments are checked, ``report(ply, positions)`` called after
        every ply: positions merged by their notation. Cephalopod counts its own way."""
        if not owners:
            raise ValueError(OWNERS_FOR_CEPHALOPOD_ONLY)
        layer, _ = self._path_layers(depth, True, report)
        return PathCounts._build(type(self), wrapped_counts(layer, wrapping))

    def _path_layers(self, depth: int, passes_count_as_ply: bool, enough=None) -> tuple[dict[str, int], int]:
        """The distinct positions ``depth`` plies on, by notation, with the number of move
        sequences reaching each (a sequence that ends early keeps its last position), and the ply
        reached: ``depth``, or the first ply after which ``enough(plies done, positions held)``.
        With free passes, a position whose only move is a pass is passed first (as perft does)."""
        layer = {self.position(): 1}
        reached = 0
        while reached < depth:
            following: dict[str, int] = {}
            for position, count in layer.items():
                game = type(self).from_position(position)  # type: ignore[attr-defined]
                moves = list(game._move_parts())
                if not passes_count_as_ply and len(moves) == 1 and game._is_pass(moves[0]):
                    game._push(moves[0])
                    moves = list(game._move_parts())
                if not moves:  # the game is over: the sequence ends here, the position stays
                    following[position] = following.get(position, 0) + count
                    continue
                for parts in moves:
                    game._push(parts)
                    child = game.position()
                    following[child] = following.get(child, 0) + count
                    game.undo()
            layer = following
            reached += 1
            if enough is not None and enough(reached, len(layer)):
                break
        return layer, reached

    def divide(self, depth: int, passes_count_as_ply: bool = True) -> dict[str, int]:
        """Each legal move's notation mapped to the perft of its child (``depth - 1`` plies, or
        ``depth`` for a pass that uses no ply), in legal move order. Raises ValueError if
        ``depth`` is not an integer >= 1, TypeError if ``passes_count_as_ply`` is not a bool."""
        check_count("depth", depth, 1)
        check_bool("passes_count_as_ply", passes_count_as_ply)
        game = self.copy()
        counts = {}
        for parts in list(game._move_parts()):
            game._push(parts)
            free = not passes_count_as_ply and game._is_pass(parts)  # a pass that uses no ply
            counts[str(game._history[-1][0])] = game._perft(depth if free else depth - 1, passes_count_as_ply)
            game.undo()
        return counts

    def _perft(self, depth: int, passes_count_as_ply: bool) -> int:
        # As the engine's walk: a position without legal moves is one leaf; when every move is a
        # ply, the last ply is counted without playing it (count_moves).
        if depth == 0:
            return 1
        if depth == 1 and passes_count_as_ply:
            return self.count_moves() or 1
        moves = list(self._move_parts())
        if not moves:
            return 1
        total = 0
        for parts in moves:
            self._push(parts)
            free = not passes_count_as_ply and self._is_pass(parts)
            total += self._perft(depth if free else depth - 1, passes_count_as_ply)
            self.undo()
        return total

    def undo(self):
        """Takes back the last move and returns it; raises IndexError if no move was played.

        History entries are ``(move, cells, to_move)`` as they were before the move; a game whose
        entries hold more state overrides this."""
        if not self._history:
            raise IndexError("undo: no move to take back")
        move, self._cells, self._to_move = self._history.pop()
        return move

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

    def playouts(self, n, seed=None, threads=None, scores=False) -> dict:
        """``n`` uniformly random playouts, reproducing the engine's exactly (see _playout.py)."""
        return _playout.playouts(self, n, seed, threads, scores)

    def _repr_svg_(self) -> str:
        """The position as SVG (``boardcore.svg.render``), for notebooks."""
        from boardcore.svg import render

        return render(self)

    def random_move(self, seed=None):
        """A uniformly random legal move, drawn like the engine's (``below(count)`` from
        ``SplitMix64(seed)``, then that entry of ``legal_moves()``); None once the game is over."""
        from boardcore.reference._playout import checked_seed
        from boardcore.reference._splitmix import SplitMix64

        rng = SplitMix64(checked_seed(seed))  # a bad seed is refused on a finished game too
        return self._draw(rng)

    def _draw(self, rng):
        """The engine's random move from ``rng``: ``below(count)``, then that entry of
        ``legal_moves()``; None once the game is over. (Rive overrides it for its capture-cell
        playout policy.)"""
        moves = self.legal_moves()
        if not moves:
            return None
        return moves[rng.below(len(moves))]

    def _score(self) -> tuple[int, int]:
        """Black's and White's score as two numbers, what scored playouts report (the engine's
        ``Position::score``): ``score()`` itself, but for Strands."""
        return self.score()

    def record(self) -> str:
        """The game as a PGN-like record: tag lines, a blank line, the moves on one line.

        Tags: Game; the game's board tags; then Position for a game set up from a position, else
        the tags of its variant (each game's ``_board_tags`` and ``_variant_tags``); Result."""
        tags = [("Game", self._GAME), *self._board_tags()]
        if self._start_position is not None:
            tags.append(("Position", self._start_position))
        else:
            tags.extend(self._variant_tags())
        tags.append(("Result", result_text(self.winner(), self.is_over())))
        head = "".join(f'[{name} "{value}"]\n' for name, value in tags)
        return head + "\n" + " ".join(str(move) for move in self.history) + "\n"

    def _board_tags(self) -> list[tuple[str, str]]:
        """The record's tags after Game that every game of this kind has (its board)."""
        return []

    def _variant_tags(self) -> list[tuple[str, str]]:
        """The record's tags that say how a game not set up from a position was set up."""
        return []

    def __repr__(self) -> str:
        return f"{type(self).__name__}.from_position({self.position()!r})"

    def __str__(self) -> str:
        """The text board, then who moves (``Black (b) to move``, the letter the board draws) or
        how the game ended (``Game over: White wins``, ``Game over: a draw``)."""
        if not self.is_over():
            status = f"{COLOR_NAMES[self._to_move].capitalize()} ({COLOR_LETTERS[self._to_move]}) to move"
        else:
            winner = self.winner()
            status = "Game over: a draw" if winner is None else f"Game over: {COLOR_NAMES[winner].capitalize()} wins"
        return f"{self._text_board()}\n{status}"

    def _text_board(self) -> str:
        """The board drawn as text, a row a line (each game draws its own)."""
        raise NotImplementedError

    @classmethod
    def from_record(cls, text: str):
        """The game replayed from a record (docs/reversi.md, "Game records").

        Raises NotationError for bad syntax, an unknown tag, a missing or wrong Game tag, bad
        variant or Position tags, a bad move (its number is in the message) or a Result that does
        not match the replayed game; TypeError if ``text`` is not a string.
        """
        if not isinstance(text, str):
            raise TypeError(f"a record is a string, got {type(text).__name__}")
        tags, moves = parse_record(text, cls._RECORD_TAGS)
        if tags.get("Game") != cls._GAME:
            raise NotationError(f'record: expected the tag [Game "{cls._GAME}"], got {tags.get("Game")!r}')
        game = cls._game_from_tags(tags)
        for number, token in enumerate(moves, start=1):
            try:
                game.play(token)
            except ValueError as error:
                raise NotationError(f"record: move {number} ({short(token)}): {error}") from None
        result = result_text(game.winner(), game.is_over())
        if tags.get("Result", result) != result:
            raise NotationError(f"record: the tag Result is {tags['Result']!r} but the game gives {result!r}")
        return game
