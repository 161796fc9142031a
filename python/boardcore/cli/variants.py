"""Variant options shared by the subcommands that set up a game (perft, play, selfplay)."""

from __future__ import annotations

import argparse

import boardcore as bc
from boardcore._games import GAMES as REGISTRY
from boardcore.cli.helptext import add_command

GAMES = tuple(sorted(REGISTRY))  # the command line lists the games alphabetically


def add_game_command(commands, name: str, help: str, description: str | None) -> argparse.ArgumentParser:
    """A subcommand played on a game given by ``add_game_arguments``."""
    parser = add_command(commands, name, help, description)
    add_game_arguments(parser)
    return parser


# Each game's variant options, as typed, and the attribute argparse stores each in. An option
# left out is None in the arguments, so that one given for another game can be refused.
OPTIONS = {
    "reversi": {"--size": "size", "--blocked": "blocked", "--holes-seed": "holes_seed", "--handicap": "handicap"},
    "cephalopod": {"--rows": "rows", "--cols": "cols"},
    "rive": {"--board": "board", "--swap": "swap", "--single-stones": "single_stones"},
    "strands": {"--layout": "layout", "--cover": "cover"},
}
# Options of one subcommand that also belong to one game only (perft's --free-passes).
EXTRA_OPTIONS = {"--free-passes": ("reversi", "free_passes")}


def add_game_arguments(parser: argparse.ArgumentParser) -> None:
    """The GAME argument, --position, and each game's variant options."""
    parser.add_argument("game", type=str.lower, choices=GAMES, help="the game (any case)")
    parser.add_argument("--position", help="start from a position in the game's notation (instead of variant options)")
    reversi = parser.add_argument_group("reversi variant (only for reversi)")
    reversi.add_argument("--size", choices=["4", "6", "8", "10", "octagon"], help="board (default 8)")
    reversi.add_argument("--blocked", help="holes, comma separated (e.g. b2,g7)")
    reversi.add_argument("--holes-seed", type=int, metavar="SEED", help="draw the holes from this seed")
    reversi.add_argument("--handicap", type=int, help="handicap discs for Black (0-4, default 0)")
    cephalopod = parser.add_argument_group("cephalopod variant (only for cephalopod)")
    cephalopod.add_argument("--rows", type=int, help="rows (2-8, default 5)")
    cephalopod.add_argument("--cols", type=int, help="columns (2-8, default 5)")
    rive = parser.add_argument_group("rive variant (only for rive)")
    rive.add_argument("--board", help="hex3, hex335 (default), hex4, hexN")
    rive.add_argument("--swap", action="store_true", default=None, help="White may swap on its first move")
    rive.add_argument("--single-stones", action="store_true", default=None, help="captures one stone at a time")
    strands = parser.add_argument_group("strands variant (only for strands)")
    layouts = ", ".join(name + " (default)" if name == "hex6" else name for name in bc.Strands.layout_names())
    strands.add_argument("--layout", help=layouts)
    strands.add_argument("--cover", choices=["up-to", "exact"], help="covering rule (default up-to)")


def check_options(args: argparse.Namespace) -> None:
    """A ValueError for an option given that does not belong to the chosen game, or that a
    --position makes meaningless (the position names its own board)."""
    options = {flag: (game, dest) for game, flags in OPTIONS.items() for flag, dest in flags.items()}
    options.update(EXTRA_OPTIONS)
    for flag, (game, dest) in options.items():
        if game != args.game and getattr(args, dest, None) is not None:
            own = [f for f, (g, d) in options.items() if g == args.game and hasattr(args, d)]
            raise ValueError(f"{flag} is not an option of {args.game} (its options: {', '.join(own)}, --position)")
    if args.position is not None:
        given = [flag for flag, dest in OPTIONS.get(args.game, {}).items() if getattr(args, dest) is not None]
        if given:
            raise ValueError(f"{given[0]} cannot go with --position: the position names its own board")
    if args.game == "reversi" and args.blocked is not None and args.holes_seed is not None:
        raise ValueError("--blocked and --holes-seed cannot go together: the seed draws the holes")


def new_game(args: argparse.Namespace):
    """The game the arguments describe (ValueError for an option of another game, an impossible
    variant or position)."""
    check_options(args)
    # A game's own options are read by its builder; a game without any starts as its class does.
    builder = {"cephalopod": _cephalopod, "reversi": _reversi, "rive": _rive, "strands": _strands}.get(args.game)
    return builder(args) if builder is not None else REGISTRY[args.game].engine()


def _given(value, default):
    return default if value is None else value


def _reversi(args: argparse.Namespace) -> bc.Reversi:
    if args.position:
        return bc.Reversi.from_position(args.position)
    size = _given(args.size, "8")
    size = size if size == "octagon" else int(size)
    handicap = _given(args.handicap, 0)
    if args.holes_seed is not None:
        return bc.Reversi.random(args.holes_seed, size=size, handicap=handicap)
    blocked = args.blocked.split(",") if args.blocked else None
    return bc.Reversi(size=size, blocked=blocked, handicap=handicap)


def _cephalopod(args: argparse.Namespace) -> bc.Cephalopod:
    if args.position:
        return bc.Cephalopod.from_position(args.position)
    return bc.Cephalopod(rows=_given(args.rows, 5), cols=_given(args.cols, 5))


def _rive(args: argparse.Namespace) -> bc.Rive:
    if args.position:
        return bc.Rive.from_position(args.position)
    return bc.Rive(board=_given(args.board, "hex335"), swap=bool(args.swap), single_stones=bool(args.single_stones))


def _strands(args: argparse.Namespace) -> bc.Strands:
    if args.position:
        return bc.Strands.from_position(args.position)
    return bc.Strands(layout=_given(args.layout, "hex6"), cover=_given(args.cover, "up-to"))
