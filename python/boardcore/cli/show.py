"""boardcore show [GAME] POSITION_OR_RECORD [--svg FILE | --png FILE]: draw a position (any
game's notation) or the end of a record (the text itself, or a file; of a file of several
records, the last game) as text, or as a picture. POSITION may be "start", the game's default
start, as in solve, analyse and paths; "start" without a game draws the start of every game. As
text, hex boards (Rive, Strands) have their cell coordinates around them, then who moves, or a
finished game's score and winner."""

from __future__ import annotations

import argparse
import os

import boardcore as bc
from boardcore import svg
from boardcore._games import GAMES
from boardcore.cli.boards import board_text, result_text, status_text
from boardcore.cli.helptext import add_command
from boardcore.cli.paths import CLASSES, START, new_game


def register(commands) -> None:
    parser = add_command(commands, "show", "draw a position or the end of a record", __doc__)
    parser.add_argument(
        "what",
        nargs="+",
        metavar="[GAME] POSITION_OR_RECORD",
        help=f"the game (any case; optional), then a position in notation or '{START}', a record, or a record file",
    )
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--svg", metavar="FILE", help="write an SVG picture")
    output.add_argument("--png", metavar="FILE", help="write a PNG picture (needs the [png] extra)")
    parser.add_argument("--size", type=_pixels, default=480, help="picture width in pixels (default 480)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if len(args.what) > 2:
        raise ValueError(f"show takes a game and a position or record, or one of them; got {len(args.what)} arguments")
    name, text = args.what if len(args.what) == 2 else (None, args.what[0])
    if name is None and text == START:
        if args.svg or args.png:
            raise ValueError(f"a picture of {START!r} needs the game: boardcore show reversi {START} ...")
        for i, every in enumerate(CLASSES):
            if i:
                print()  # a blank line between the games
            show_text(new_game(every, START))
        return 0
    game = load(text, name)
    if args.svg:
        with open(args.svg, "w", encoding="utf-8") as out:
            out.write(svg.render(game, args.size))
    elif args.png:
        svg.save_png(game, args.png, args.size)
    else:
        show_text(game)
    return 0


def show_text(game) -> None:
    """The game's name and position, the board, then who moves or the result."""
    print(f"{type(game).__name__} {game.position()}")
    print(board_text(game))
    print(result_text(game) if game.is_over() else status_text(game))


def _pixels(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 100_000:
        raise argparse.ArgumentTypeError(f"a picture width is 1 to 100000 pixels, not {text!r}")
    return int(text)


def load(text: str, name: str | None = None):
    """The game a position, a record, or a record file describes (NotationError if none); with
    the game's ``name``, a game of that game only, and ``start`` is its default start."""
    if name is not None:
        if name.lower() not in CLASSES:
            raise ValueError(f"unknown game {name!r}: the games are {', '.join(CLASSES)}")
        name = name.lower()
        if text == START:
            return new_game(name, START)
        game = load(text)
        if type(game) is not CLASSES[name]:
            raise bc.NotationError(f"not a {name} position or record: this is {type(game).__name__}'s")
        return game
    if os.path.isdir(text):
        raise IsADirectoryError(f"{text} is a directory, not a position or a record file")
    if os.path.isfile(text):
        with open(text, encoding="utf-8") as f:
            text = f.read()
    if text.lstrip().startswith("["):
        games = bc.load_records(text)
        if not games:
            raise bc.NotationError("record: the Game tag is missing")
        return games[-1]  # a file of several records (selfplay --records): the last game
    errors = []
    for game in (entry.engine for entry in GAMES.values()):  # in the registry's order
        try:
            return game.from_position(text)
        except ValueError as e:
            errors.append(f"{game.__name__}: {e}")
    raise bc.NotationError("not a position of any game, nor a record (" + "; ".join(errors) + ")")
