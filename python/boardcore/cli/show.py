"""boardcore show POSITION_OR_RECORD [--svg FILE | --png FILE]: draw a position (any game's
notation) or the end of a record (the text itself, or a file; of a file of several records, the
last game) as text, or as a picture. As text, hex boards (Rive, Strands) have their cell
coordinates around them, and a finished game's score and winner follow the board."""

from __future__ import annotations

import argparse
import os

import boardcore as bc
from boardcore import svg
from boardcore.cli.boards import board_text, result_text
from boardcore.cli.helptext import add_command


def register(commands) -> None:
    parser = add_command(commands, "show", "draw a position or the end of a record", __doc__)
    parser.add_argument("what", metavar="POSITION_OR_RECORD", help="a position in notation, a record, or a record file")
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--svg", metavar="FILE", help="write an SVG picture")
    output.add_argument("--png", metavar="FILE", help="write a PNG picture (needs the [png] extra)")
    parser.add_argument("--size", type=_pixels, default=480, help="picture width in pixels (default 480)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    game = load(args.what)
    if args.svg:
        with open(args.svg, "w", encoding="utf-8") as out:
            out.write(svg.render(game, args.size))
    elif args.png:
        svg.save_png(game, args.png, args.size)
    else:
        print(f"{type(game).__name__} {game.position()}")
        print(board_text(game))
        if game.is_over():
            print(result_text(game))
    return 0


def _pixels(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 100_000:
        raise argparse.ArgumentTypeError(f"a picture width is 1 to 100000 pixels, not {text!r}")
    return int(text)


def load(text: str):
    """The game a position, a record, or a record file describes (NotationError if none)."""
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
    for game in (bc.Reversi, bc.Cephalopod, bc.Rive, bc.Strands):
        try:
            return game.from_position(text)
        except ValueError as e:
            errors.append(f"{game.__name__}: {e}")
    raise bc.NotationError("not a position of any game, nor a record (" + "; ".join(errors) + ")")
