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
    """The records in a text holding several (as ``boardcore selfplay --records`` writes them): a
    record is a block of tag lines, then its moves; a tag line after moves starts the next one.
    Anything before the first tag is a NotationError."""
    if not isinstance(text, str):
        raise TypeError(f"split_records expects a string, got {type(text).__name__}")
    records: list[list[str]] = []
    in_moves = True  # so that the first tag line starts a record
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        is_tag = stripped.startswith("[")
        if is_tag and in_moves:
            records.append([])
        if not records:
            raise NotationError(f"records: text before the first tag: {stripped[:40]!r}")
        records[-1].append(line)
        in_moves = not is_tag
    return ["\n".join(_with_blank_line(lines)) + "\n" for lines in records]


def _with_blank_line(lines: list[str]) -> list[str]:
    """A record's lines with the blank line between its tags and its moves put back."""
    tags = [line for line in lines if line.strip().startswith("[")]
    moves = lines[len(tags):]
    return tags + ([""] + moves if moves else [])


def load_records(text: str) -> list[Game]:
    """Replays every record of a text holding several; NotationError names the one that fails."""
    games = []
    for i, record in enumerate(split_records(text), 1):
        try:
            games.append(load_record(record))
        except NotationError as e:
            raise NotationError(f"record {i}: {e}") from None
    return games
