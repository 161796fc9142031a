"""The board as the terminal shows it (play, show): the game's own text, with coordinates added
to the hex boards (Rive, Strands), its status line (who moves), and the result of a finished
game."""

from __future__ import annotations

import itertools

import boardcore as bc

COLOURS = ("Black", "White")


def board_text(game) -> str:
    """The board with coordinates a person can read off it, without the status line that
    ``str(game)`` ends with. Square boards (Reversi, Cephalopod) have them already; hex boards
    get them here (see ``hex_coordinates``)."""
    text = str(game).rpartition("\n")[0]
    return hex_coordinates(text) if isinstance(game, (bc.Rive, bc.Strands)) else text


def status_text(game) -> str:
    """The last line of ``str(game)``: who moves (``Black (b) to move``) or how the game ended."""
    return str(game).rpartition("\n")[2]


def hex_coordinates(text: str) -> str:
    """A hex board's text (a row per line, indented by its offset in half-cells, cells one
    half-cell apart) with its coordinates: each row's letter left of its first cell, and the cell
    numbers (counted from 1 at the left of each row) above and below the board. A number above
    marks the cells on the diagonal down-left of it, a number below the cells up-left of it (the
    widest row is reached from both); numbers from 10 on have their tens digit on a line of its
    own. That needs the rows to step one half-cell left down to the widest row, then one
    half-cell right (every named board does): other custom Rive boards get the row letters only."""
    rows = [(len(line) - len(line.lstrip(" ")), len(line.split())) for line in text.splitlines()]
    shift = 2 - min(offset for offset, _ in rows)  # room for the row letters
    lines = [
        " " * (offset + shift - 2) + chr(ord("a") + r) + " " + line.strip(" ")
        for r, (line, (offset, _)) in enumerate(zip(text.splitlines(), rows))
    ]
    steps = [b[0] - a[0] for a, b in itertools.pairwise(rows)]
    if steps != sorted(steps) or not set(steps) <= {-1, 1}:  # not: left by one, then right by one
        return "\n".join(lines)
    cells = {(r, offset + shift + 2 * i) for r, (offset, length) in enumerate(rows) for i in range(length)}
    above = _numbers(rows, shift, cells, step=-1)
    below = _numbers(rows, shift, cells, step=1)
    if above is None or below is None:
        return "\n".join(lines)
    return "\n".join([*_number_lines(above), *lines, *reversed(_number_lines(below))])


def _numbers(rows: list[tuple[int, int]], shift: int, cells: set[tuple[int, int]], step: int) -> dict[int, int] | None:
    """The column of each cell number on the line above the board (``step`` -1: the diagonal
    runs up-right from the first row having that number) or below it (``step`` 1: down-right
    from the last); None if a diagonal would cross a cell or two numbers would share a column."""
    order = range(len(rows)) if step == -1 else range(len(rows) - 1, -1, -1)
    edge = -1 if step == -1 else len(rows)
    columns: dict[int, int] = {}
    for number in range(1, max(length for _, length in rows) + 1):
        first = next(r for r in order if rows[r][1] >= number)
        column = rows[first][0] + shift + 2 * (number - 1)
        for r in range(first + step, edge, step):
            column += 1
            if (r, column) in cells:
                return None
        column += 1
        if {column - 1, column, column + 1} & columns.keys():
            return None
        columns[column] = number
    return columns


def _number_lines(columns: dict[int, int]) -> list[str]:
    """The lines that write ``columns`` (column -> number): the tens digits (if any number has
    one) on the line farther from the board, the units next to it."""
    tens = {column: str(number // 10) for column, number in columns.items() if number >= 10}
    units = {column: str(number % 10) for column, number in columns.items()}
    return [_line(texts) for texts in (tens, units) if texts]


def _line(texts: dict[int, str]) -> str:
    out = ""
    for column in sorted(texts):
        out += " " * (column - len(out)) + texts[column]
    return out


def variant_name(game) -> str:
    """The variant in a few words: Reversi's board (8, octagon), Cephalopod's size (5x5), Rive's
    board (hex335), Strands' layout (custom when it has no name) and covering rule."""
    if isinstance(game, bc.Strands):
        return f"{game.layout_name or 'custom'} {game.cover}"
    board = game.position().split()[0]
    return f"{board}x{board}" if board.isdigit() else board


def result_text(game) -> str:
    """The score and the winner of a finished game, two lines."""
    black, white = game.score()
    winner = game.winner()
    return f"Score: Black {black}, White {white}\n" + ("Draw" if winner is None else f"{COLOURS[winner]} wins")
