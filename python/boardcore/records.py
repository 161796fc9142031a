"""Reading game records of any game (the format: docs/reversi.md, "Game records")."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator

from boardcore._boardcore import NotationError
from boardcore._games import GAMES, Game

# Text is cut into lines and trimmed by the rules of docs/design.md, "Text input": lines end at
# CR LF, LF or CR; only space, tab, CR and LF are blanks (the regexes below spell them out).
# A record has at most this many tag lines, before its moves (the engine's Record::MAX_TAGS).
_MAX_TAGS = 64


def load_record(text: str) -> Game:
    """Replays a record of any game and returns the game in its final state.

    Raises NotationError when the record is malformed, names an unknown game, or holds a move
    that is not legal where it is played; when the text holds several games (``load_records``
    reads them all) or is the name of a file (pass the file's text). Raises TypeError for
    anything but a string, a path (``pathlib.Path``) included.
    """
    if isinstance(text, os.PathLike):
        raise TypeError(
            f"load_record reads a record's text, not a file: got the path {os.fspath(text)!r}; pass the "
            "file's text (Path(...).read_text()), or load_records(text) for a file of several games"
        )
    if not isinstance(text, str):
        raise TypeError(f"load_record expects a string, got {type(text).__name__}")
    name = _game_name(text)
    if name is None:
        if _names_a_file(text):
            raise NotationError(
                f"record: {text!r} is the name of a file, not a record: pass the file's text "
                "(open(...).read()), or load_records(text) for a file of several games"
            )
        raise NotationError('record: the Game tag is missing (expected a line like [Game "reversi"])')
    records = _count_records(text)
    if records > 1:
        raise NotationError(f"record: the text holds {records} games; load_records(text) reads them all")
    entry = GAMES.get(name)
    if entry is None:
        known = ", ".join(sorted(GAMES))
        shown = name if len(name) <= 40 else name[:40] + "..."
        raise NotationError(f"record: unknown game {shown!r} (known: {known})")
    return entry.engine.from_record(text)


def _names_a_file(text: str) -> bool:
    """Whether ``text`` looks like a file name and names an existing file (the likely slip of
    passing a path where a record's text is wanted)."""
    if len(text) > 4096 or any(c in text for c in "\r\n\0"):
        return False
    try:
        return os.path.isfile(text)
    except (OSError, ValueError):
        return False


def _count_records(text: str) -> int:
    """How many records the text holds (a tag line after moves starts another one).

    Most texts hold one record whose moves hold no "[", and that is decided by two scans in C:
    the search for the first line of moves, and the search for a "[" after it. Only a text
    that may hold more records is walked line by line (a Python step per line)."""
    if not text.startswith("[", _BLANK_RUN.match(text).end()):  # type: ignore[union-attr]
        return _count_records_by_lines(text)
    moves = _MOVES_LINE.search(text)
    if moves is None or text.find("[", moves.start()) < 0:
        return 1
    return _count_records_by_lines(text)


def _count_records_by_lines(text: str) -> int:
    count, in_moves = 0, True
    for line in _lines(text):
        is_tag = line.startswith("[")
        count += is_tag and in_moves
        in_moves = not is_tag
    return count


# Each regex is one repeat of a character class with nothing after it that could make it give
# characters back, so it reads each character once: linear in the text. (Plain repeats: the
# possessive `*+` would say the same but needs Python 3.11, and boardcore supports 3.10.)
_BLANK_RUN = re.compile(r"[ \t\r\n]*")
_REST_OF_LINE = re.compile(r"[^\r\n]*")
# A line break, the line's leading spaces and tabs, and a first character that neither is blank
# nor opens a tag: the start of a line of moves after the first line. Each attempt starts at a
# line break and reads (and at worst gives back) no more than that line's leading blanks, runs
# that do not overlap, so the search is linear in the text too.
_MOVES_LINE = re.compile(r"[\r\n][ \t]*[^\[ \t\r\n]")


def _lines(text: str, tags_only: bool = False) -> Iterator[str]:
    """The lines of a text that are not blank, trimmed of blanks (lines end at every CR LF, LF
    and CR); with ``tags_only``, only those up to the first that does not open a tag. Lazy: a run
    of blank lines, however long, is skipped by one regex match, and a line that does not open a
    tag is not read at all when only tags are wanted."""
    position = 0
    while True:
        start = _BLANK_RUN.match(text, position).end()  # type: ignore[union-attr]  # always matches
        if start == len(text) or (tags_only and text[start] != "["):
            return
        position = _REST_OF_LINE.match(text, start).end()  # type: ignore[union-attr]  # always matches
        yield text[start:position].rstrip(" \t")


def _game_name(text: str) -> str | None:
    """The value of the Game tag among the record's tag lines, which come first; None if it is
    not there. Read with plain string operations (the old regex backtracked over every
    following blank line: quadratic), looking at no more lines than a record may have tags."""
    for count, line in enumerate(_lines(text, tags_only=True)):
        if count == _MAX_TAGS:
            return None
        if line.startswith("[Game ") and line.endswith("]"):
            value = line[len("[Game ") : -1].strip(" \t")
            if len(value) >= 2 and value[0] == value[-1] == '"' and '"' not in value[1:-1]:
                return value[1:-1]
    return None


def split_records(text: str) -> list[str]:
    """The records in a text holding several (as ``boardcore selfplay --records`` writes them): a
    record is a block of tag lines, then its moves; a tag line after moves starts the next one.
    Anything before the first tag is a NotationError."""
    if not isinstance(text, str):
        raise TypeError(f"split_records expects a string, got {type(text).__name__}")
    records: list[list[str]] = []
    in_moves = True  # so that the first tag line starts a record
    for line in _lines(text):
        is_tag = line.startswith("[")
        if is_tag and in_moves:
            records.append([])
        if not records:
            raise NotationError(f"records: text before the first tag: {line[:40]!r}")
        records[-1].append(line)
        in_moves = not is_tag
    return ["\n".join(_with_blank_line(lines)) + "\n" for lines in records]


def _with_blank_line(lines: list[str]) -> list[str]:
    """A record's lines with the blank line between its tags and its moves put back."""
    tags = [line for line in lines if line.startswith("[")]
    moves = lines[len(tags) :]
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
