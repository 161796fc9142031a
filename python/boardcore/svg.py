"""Pictures of positions as SVG: every game, the last move highlighted.

    import boardcore as bc

    game = bc.Rive(board="hex4")
    svg = bc.svg.render(game)  # a string; games also have _repr_svg_ for notebooks
    bc.svg.save_png(game, "board.png")  # needs the [png] extra (resvg-py)
    pixels = bc.svg.rgb_array(game)  # uint8 (height, width, 3); the [png] extra (resvg-py, Pillow)

Square boards (Reversi, Cephalopod) are drawn on a grid with coordinates; holes are crossed dark
squares, the Octagon's cut squares are left out, handicap discs carry a gold ring. Cephalopod dice
are the owner's colour with their pips. Hex boards (Rive, Strands) are pointy-top hexagons laid out
as the rows' half-cell offsets say, with their coordinates as the terminal draws them
(``boardcore show``, docs/cli.md): each row's letter left of its first cell, and the cell numbers
(counted from 1 at the left of each row) above the board, each on the diagonal running down-left
from it, and below it, on the diagonal running up-left; a board whose rows do not step one
half-cell left down to the widest row and then right (custom Rive boards) gets the letters only.
Strands' empty cells show their label. The cells of the last move are outlined in red (a
capture's removed stones or dice are marked with a red cross).

Rasterising (PNG files, pixel arrays) uses resvg (the ``resvg-py`` package: self-contained binary
wheels, no system library), or cairosvg if that is what is installed (it needs the system's cairo
library). Text (coordinates, Strands' labels) needs a system font: without any, the pictures have
no text but are otherwise whole.

The renderer reads only the public API (``position()``, ``history`` with each move's ``placed`` and
``removed`` cells, and each game's board properties), so it draws the reference twins too.
"""

from __future__ import annotations

import io
import itertools
import math
import operator
from typing import Any
from xml.sax.saxutils import escape

import numpy as np

__all__ = ["render", "rgb_array", "save_png"]

CELL = 40
MARGIN = 24
HIGHLIGHT = "#d62728"
BLACK_STONE, WHITE_STONE = "#1b1b1b", "#f5f5f5"
PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


MAX_SIZE = 16384  # the largest width in pixels: beyond what any screen or image library wants


def render(game: Any, size: int | None = None) -> str:
    """The position of ``game`` as an SVG document (``size``: the width in pixels, if given).

    Raises TypeError if ``game`` is not a game of boardcore (engine or reference twin);
    ValueError if ``size`` is not None or an integer from 1 to ``MAX_SIZE`` (as the engine's
    integer arguments: ``bool``, floats and strings are refused, numpy integers accepted)."""
    kind = type(game).__name__
    drawers = {"Reversi": _reversi, "Cephalopod": _cephalopod, "Rive": _rive, "Strands": _strands}
    if kind not in drawers:
        raise TypeError(f"cannot draw a {kind}: expected a Reversi, Cephalopod, Rive or Strands game")
    size = _checked_size(size)
    width, height, body = drawers[kind](game)
    shown = (
        f' width="{size}" height="{round(size * height / width)}"' if size else f' width="{width}" height="{height}"'
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}"{shown} '
        f'class="boardcore {kind.lower()}" font-family="sans-serif">\n'
        f'<rect class="background" width="{width}" height="{height}" fill="white"/>\n' + "\n".join(body) + "\n</svg>\n"
    )


def _checked_size(size: Any) -> int | None:
    """``size`` as an int, or None; ValueError saying what was given otherwise."""
    if size is None:
        return None
    try:  # integers only, numpy's included; a bool is not a width (numpy's refuses __index__)
        width = None if isinstance(size, bool) else operator.index(size)
    except TypeError:
        width = None
    if width is None:
        raise ValueError(
            f"size must be None or an integer from 1 to {MAX_SIZE} (pixels), got {_shown(size)} (a {type(size).__name__})"
        )
    if not 1 <= width <= MAX_SIZE:
        raise ValueError(f"size must be None or an integer from 1 to {MAX_SIZE} (pixels), got {width}")
    return width


def _shown(value: object) -> str:
    """repr of a value, cut short (a megabyte of text makes a short message)."""
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "..."


def save_png(game: Any, path: str, size: int = 480) -> None:
    """Writes the picture as a PNG file, ``size`` pixels wide (needs ``pip install 'boardcore[png]'``,
    i.e. resvg-py; cairosvg serves instead if it is installed and resvg-py is not). Raises as
    ``render`` does for a bad ``game`` or ``size``, before looking for either."""
    data = _png(render(game, size), "PNG output needs resvg-py (or cairosvg): pip install 'boardcore[png]'")
    with open(path, "wb") as file:
        file.write(data)


def rgb_array(game: Any, size: int = 480) -> np.ndarray:
    """The picture as pixels: a ``uint8`` array of shape ``(height, width, 3)``, ``size`` pixels
    wide (the height follows the board's shape, so it is the same for every position of a board).
    Needs resvg-py and Pillow: ``pip install 'boardcore[png]'`` (the ``pettingzoo`` and
    ``gymnasium`` extras include them)."""
    missing = "pixel pictures need resvg-py (or cairosvg) and Pillow: pip install 'boardcore[png]'"
    try:
        from PIL import Image
    except ImportError as e:
        raise ImportError(missing) from e
    with Image.open(io.BytesIO(_png(render(game, size), missing))) as picture:
        return np.array(picture.convert("RGB"), dtype=np.uint8)


# Families tried in turn for the pictures' sans-serif text when resvg draws it: resvg maps the
# generic "sans-serif" to Arial alone and leaves text out where Arial is missing (most Linux).
RASTER_FONTS = "Arial, Helvetica, DejaVu Sans, Liberation Sans, Noto Sans, sans-serif"


def _png(svg: str, missing: str) -> bytes:
    """The SVG document as PNG bytes, by resvg (or cairosvg); ``missing`` is the ImportError's
    text when neither is installed."""
    try:
        import resvg_py
    except ImportError:
        pass
    else:
        svg = svg.replace('font-family="sans-serif"', f'font-family="{RASTER_FONTS}"', 1)
        return bytes(resvg_py.svg_to_bytes(svg_string=svg))
    try:
        import cairosvg
    except ImportError as e:
        raise ImportError(missing) from e
    return bytes(cairosvg.svg2png(bytestring=svg.encode()))


# ---------------------------------------------------------------- the last move, by cells


def _last_move(game: Any) -> tuple[set[str], set[str]]:
    """(cells the last move placed on, cells it removed from), by name: every move says them
    (``placed`` and ``removed``)."""
    history = game.history
    if not history:
        return set(), set()
    last = history[-1]
    return set(last.placed), set(last.removed)


def _cross(cx: float, cy: float, r: float) -> str:
    return (
        f'<path class="removed" d="M{cx - r:.1f},{cy - r:.1f}L{cx + r:.1f},{cy + r:.1f}M{cx - r:.1f},{cy + r:.1f}'
        f'L{cx + r:.1f},{cy - r:.1f}" stroke="{HIGHLIGHT}" stroke-width="3" stroke-linecap="round"/>'
    )


def _stone(cx: float, cy: float, r: float, colour: str, cls: str) -> str:
    fill, stroke = (BLACK_STONE, "#000") if colour == "b" else (WHITE_STONE, "#555")
    return f'<circle class="{cls} {"black" if colour == "b" else "white"}" cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>'


# ---------------------------------------------------------------- square boards


def _square_grid(rows: int, cols: int, fill: str) -> tuple[int, int, list[str], Any]:
    width, height = 2 * MARGIN + cols * CELL, 2 * MARGIN + rows * CELL
    body = []
    for c in range(cols):
        x = MARGIN + (c + 0.5) * CELL
        body.append(
            f'<text class="coordinate" x="{x:.0f}" y="{MARGIN - 8}" text-anchor="middle" font-size="13" fill="#444">{chr(97 + c)}</text>'
        )
    for r in range(rows):
        y = MARGIN + (r + 0.5) * CELL + 5
        body.append(
            f'<text class="coordinate" x="{MARGIN - 8}" y="{y:.0f}" text-anchor="end" font-size="13" fill="#444">{r + 1}</text>'
        )

    def square(r: int, c: int, cls: str, colour: str = fill) -> str:
        return (
            f'<rect class="{cls}" x="{MARGIN + c * CELL}" y="{MARGIN + r * CELL}" width="{CELL}" height="{CELL}" '
            f'fill="{colour}" stroke="#222" stroke-width="1"/>'
        )

    return width, height, body, square


def _name(r: int, c: int) -> str:
    return f"{chr(97 + c)}{r + 1}"


def _reversi(game: Any) -> tuple[int, int, list[str]]:
    _, rows_text, _ = game.position().split()
    rows = rows_text.split("/")
    n = len(rows)
    width, height, body, square = _square_grid(n, n, "#2e7d32")
    placed, _ = _last_move(game)
    handicap = set(game.handicap_squares)
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == "-":
                continue  # a cut square of the Octagon: not part of the board
            cx, cy = MARGIN + (c + 0.5) * CELL, MARGIN + (r + 0.5) * CELL
            if ch == "#":
                body.append(square(r, c, "hole", "#555"))
                body.append(
                    f'<path class="hole-mark" d="M{cx - 12},{cy - 12}L{cx + 12},{cy + 12}M{cx - 12},{cy + 12}L{cx + 12},{cy - 12}" stroke="#999" stroke-width="2"/>'
                )
                continue
            body.append(square(r, c, "square"))
            if ch in "bw":
                body.append(_stone(cx, cy, CELL * 0.4, ch, "disc"))
            if _name(r, c) in handicap:
                body.append(
                    f'<circle class="handicap" cx="{cx:.1f}" cy="{cy:.1f}" r="{CELL * 0.46:.1f}" fill="none" stroke="#d4a017" stroke-width="2" stroke-dasharray="4 3"/>'
                )
            if _name(r, c) in placed:
                body.append(
                    square(r, c, "last-move", "none").replace(
                        'stroke="#222" stroke-width="1"', f'stroke="{HIGHLIGHT}" stroke-width="3"'
                    )
                )
    return width, height, body


def _cephalopod(game: Any) -> tuple[int, int, list[str]]:
    _, rows_text, _ = game.position().split()
    width, height, body, square = _square_grid(game.rows, game.cols, "#e8dcc0")
    placed, removed = _last_move(game)
    for r, row in enumerate(rows_text.split("/")):
        cells: list[tuple[int, str] | None] = []
        i = 0
        while i < len(row):
            if row[i] == ".":
                cells.append(None)
                i += 1
            else:
                cells.append((int(row[i]), row[i + 1]))
                i += 2
        for c, cell in enumerate(cells):
            body.append(square(r, c, "square"))
            x, y = MARGIN + c * CELL, MARGIN + r * CELL
            if cell is not None:
                pips, owner = cell
                fill, dot = (BLACK_STONE, "#f5f5f5") if owner == "b" else (WHITE_STONE, "#1b1b1b")
                body.append(
                    f'<rect class="die {"black" if owner == "b" else "white"}" data-pips="{pips}" x="{x + 4}" y="{y + 4}" '
                    f'width="{CELL - 8}" height="{CELL - 8}" rx="6" fill="{fill}" stroke="#000" stroke-width="1.5"/>'
                )
                for dx, dy in PIPS[pips]:
                    body.append(
                        f'<circle class="pip" cx="{x + CELL / 2 + dx * 9:.1f}" cy="{y + CELL / 2 + dy * 9:.1f}" r="3" fill="{dot}"/>'
                    )
            name = _name(r, c)
            if name in placed:
                body.append(
                    f'<rect class="last-move" x="{x + 1}" y="{y + 1}" width="{CELL - 2}" height="{CELL - 2}" fill="none" stroke="{HIGHLIGHT}" stroke-width="3"/>'
                )
            if name in removed:
                body.append(_cross(x + CELL / 2, y + CELL / 2, CELL * 0.3))
    return width, height, body


# ---------------------------------------------------------------- hex boards


HEX_R = 22.0  # centre to corner


def _hex_layout(
    rows: list[tuple[int, int]],
) -> tuple[int, int, list[tuple[str, float, float]], list[tuple[int, float, float]]]:
    """Cell names and centres for rows of (length, half-cell offset), pointy-top hexagons, and
    where the cell numbers go (``_hex_numbers``)."""
    w = math.sqrt(3) * HEX_R
    margin = MARGIN + HEX_R  # room for the row letters on the left

    def centre(r: int, offset: float, i: int) -> tuple[float, float]:
        return margin + w / 2 + (offset + 2 * i) * w / 2, MARGIN + HEX_R + r * 1.5 * HEX_R

    cells = [
        (f"{chr(97 + r)}{i + 1}", *centre(r, offset, i))
        for r, (length, offset) in enumerate(rows)
        for i in range(length)
    ]
    numbers = [(number, *centre(r, offset, number - 1)) for number, r, offset in _hex_numbers(rows)]
    width = max(x for _, x, _ in cells + numbers) + w / 2 + MARGIN
    height = max(y for _, _, y in cells + numbers) + HEX_R + MARGIN
    return math.ceil(width), math.ceil(height), cells, numbers


def _hex_numbers(rows: list[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """Each cell number's place as (number, row, half-cell offset) of a cell one row past the
    board: above it, up-right of the first row (from the top) that has the number, so that the
    diagonal running down-left from it meets that cell; below it, down-right of the last row that
    has it. The terminal's rule (``boardcore.cli.boards.hex_coordinates``); none for a board whose
    rows do not step one half-cell left down to the widest row, then right."""
    steps = [b[1] - a[1] for a, b in itertools.pairwise(rows)]
    if steps != sorted(steps) or not set(steps) <= {-1, 1}:
        return []
    places = []
    for number in range(1, max(length for length, _ in rows) + 1):
        first = next(r for r in range(len(rows)) if rows[r][0] >= number)
        places.append((number, -1, rows[first][1] + first + 1))  # first + 1 rows up, as many half-cells right
        last = next(r for r in reversed(range(len(rows))) if rows[r][0] >= number)
        places.append((number, len(rows), rows[last][1] + len(rows) - last))
    return places


def _hexagon(
    name: str, x: float, y: float, fill: str, cls: str, stroke: str = "#333", stroke_width: float = 1.2
) -> str:
    points = " ".join(
        f"{x + HEX_R * math.cos(math.radians(60 * k - 30)):.1f},{y + HEX_R * math.sin(math.radians(60 * k - 30)):.1f}"
        for k in range(6)
    )
    return f'<polygon class="{cls}" data-cell="{escape(name)}" points="{points}" fill="{fill}" stroke="{stroke}" stroke-width="{stroke_width}"/>'


def _hex_board(game: Any, rows: list[tuple[int, int]], contents: list[str], fill: str) -> tuple[int, int, list[str]]:
    width, height, cells, numbers = _hex_layout(rows)
    placed, removed = _last_move(game)
    body = [
        f'<text class="coordinate" x="{x:.1f}" y="{y + 5:.1f}" text-anchor="middle" font-size="13" fill="#444">{number}</text>'
        for number, x, y in numbers
    ]
    for name, x, y in cells:
        if name[1:] == "1":  # the row's letter, left of its first cell (cells are named row + number)
            body.append(
                f'<text class="coordinate" x="{x - HEX_R * 1.35:.1f}" y="{y + 5:.1f}" text-anchor="middle" '
                f'font-size="13" fill="#444">{name[0]}</text>'
            )
    for (name, x, y), content in zip(cells, contents):
        body.append(_hexagon(name, x, y, fill, "cell"))
        if content in ("b", "w"):
            body.append(_stone(x, y, HEX_R * 0.68, content, "stone"))
        elif content.isdigit():
            body.append(
                f'<text class="label" x="{x:.1f}" y="{y + 6:.1f}" text-anchor="middle" font-size="17" fill="#6b4f1d">{content}</text>'
            )
        if name in placed:
            body.append(_hexagon(name, x, y, "none", "last-move", HIGHLIGHT, 3))
        if name in removed:
            body.append(_cross(x, y, HEX_R * 0.45))
    return width, height, body


def _rows_of(position: str) -> list[str]:
    return position.split()[1].split("/")


def _rive(game: Any) -> tuple[int, int, list[str]]:
    rows = [tuple(row) for row in game.rows]
    contents = [ch for row in _rows_of(game.position()) for ch in row]
    return _hex_board(game, rows, contents, "#f0e6cf")


def _strands(game: Any) -> tuple[int, int, list[str]]:
    contents = [ch for row in _rows_of(game.position()) for ch in row]
    return _hex_board(game, list(game.rows), contents, "#f3ead2")
