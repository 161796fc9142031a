"""Reading game records of any game (the format: docs/reversi.md, "Game records")."""

from __future__ import annotations

import re
from typing import Union

from boardcore._boardcore import Cephalopod, NotationError, Reversi, Rive, Strands

_GAME_TAG = re.compile(r'^\s*\[Game "([^"]*)"\]\s*$', re.MULTILINE)

_GAMES = {"cephalopod": Cephalopod, "reversi": Reversi, "rive": Rive, "strands": Strands}

Game = Union[Cephalopod, Reversi, Rive, Strands]


def load_record(text: str) -> Game:
    """Replays a record of any game and returns the game in its final state.

    Raises NotationError when the record is malformed, names an unknown game, or holds a move
    that is not legal where it is played.
    """
    if not isinstance(text, str):
        raise TypeError(f"load_record expects a string, got {type(text).__name__}")
    match = _GAME_TAG.search(text)
    if match is None:
        raise NotationError('record: the Game tag is missing (expected a line like [Game "reversi"])')
    game = _GAMES.get(match.group(1))
    if game is None:
        known = ", ".join(sorted(_GAMES))
        raise NotationError(f"record: unknown game {match.group(1)!r} (known: {known})")
    return game.from_record(text)


def split_records(text: str) -> list[str]:
    """The records in a text holding several (as ``boardcore selfplay --records`` writes them):
    each starts at its ``[Game "..."]`` tag."""
    if not isinstance(text, str):
        raise TypeError(f"split_records expects a string, got {type(text).__name__}")
    starts = [m.start() for m in _GAME_TAG.finditer(text)]
    return [text[a:b].strip() + "\n" for a, b in zip(starts, starts[1:] + [len(text)])]


def load_records(text: str) -> list[Game]:
    """Replays every record of a text holding several; NotationError names the one that fails."""
    games = []
    for i, record in enumerate(split_records(text), 1):
        try:
            games.append(load_record(record))
        except NotationError as e:
            raise NotationError(f"record {i}: {e}") from None
    return games
