"""Render modes shared by the PettingZoo and Gymnasium environments, as those frameworks define them:

- ``"human"``: ``render()`` prints the text board and returns None; the environment also renders
  after ``reset`` and after every ``step``;
- ``"ansi"``: ``render()`` returns the text board and prints nothing;
- ``"rgb_array"``: ``render()`` returns the SVG picture (``boardcore.svg``) as pixels, a ``uint8``
  array ``(height, width, 3)`` whose shape is fixed for the environment (``PICTURE_WIDTH`` wide,
  the height by the board's shape).

The pictures come from the position alone (``from_position``): the step form keeps no history, so
the last move is not outlined.
"""

from __future__ import annotations

import importlib
from typing import Any

import gymnasium
import numpy as np

import boardcore as bc
from boardcore._games import GAMES
from boardcore.adapters import state_text

RENDER_MODES = ["human", "ansi", "rgb_array"]
PICTURE_WIDTH = 480
AGENTS = ("black", "white")


def checked_render_mode(render_mode: str | None, extra: str) -> str | None:
    """``render_mode`` if it is None or one of ``RENDER_MODES``, else a ValueError; for
    ``"rgb_array"`` without a rasteriser, an ImportError naming ``extra`` at once rather than at
    the first frame."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        modes = ", ".join(repr(m) for m in RENDER_MODES)
        raise ValueError(f"render_mode must be None or one of {modes}, got {render_mode!r}")
    if render_mode == "rgb_array" and not (_importable("PIL") and (_importable("resvg_py") or _importable("cairosvg"))):
        raise ImportError(f"render_mode='rgb_array' needs resvg-py and Pillow: pip install 'boardcore[{extra}]'")
    return render_mode


def _importable(module: str) -> bool:
    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True


def game_of(state: Any) -> Any:
    """The game (a ``bc.Reversi``, ...) in the step state's position."""
    name = type(state).__name__
    entry = GAMES.get(name.removesuffix("Actions").lower()) if name.endswith("Actions") else None
    if entry is None:
        raise TypeError(f"cannot render a {name}: expected a step state (game.actions())")
    return entry.engine.from_position(_with_covered_cells(state))


def _with_covered_cells(state: Any) -> str:
    """The step state's position, with the cells a Strands turn under way has covered so far shown
    as the mover's stones (the notation keeps them apart, as ``covered``, until the turn ends)."""
    covered = getattr(state, "covered", ())
    if not covered:
        return state.position()
    fields = state.position().split()
    rows = [list(row) for row in fields[1].split("/")]  # one character a cell: a label, b or w
    for cell in covered:
        rows[ord(cell[0]) - ord("a")][int(cell[1:]) - 1] = "bw"[state.to_move]
    fields[1] = "/".join("".join(row) for row in rows)
    return " ".join(fields)


def board_text(state: Any) -> str:
    """The game as ``print(game)`` shows it (the text board, then who moves or the result), then
    the position's notation."""
    return f"{game_of(state)}\n{state_text(state)}\n"


def render(state: Any, render_mode: str | None, hint: str) -> str | np.ndarray | None:
    """What ``render()`` gives in ``render_mode`` (printing the board for ``"human"``); with no
    mode, a warning as the frameworks' own environments give (``hint`` says how to choose one)."""
    if render_mode is None:
        gymnasium.logger.warn(f"You are calling render method without specifying any render mode. {hint}")
        return None
    if render_mode == "rgb_array":
        return bc.svg.rgb_array(game_of(state), PICTURE_WIDTH)
    text = board_text(state)
    if render_mode == "ansi":
        return text
    print(text, end="", flush=True)
    return None
