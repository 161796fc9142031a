"""Variant options shared by the subcommands that set up a game (perft, play, selfplay)."""

from __future__ import annotations

import argparse

import boardcore as bc

GAMES = ("cephalopod", "reversi", "rive", "strands")


def add_game_command(commands, name: str, help: str, description: str) -> argparse.ArgumentParser:
    """A subcommand played on a game given by ``add_game_arguments``; its help keeps the line
    breaks of ``description`` (the command module's docstring)."""
    parser = commands.add_parser(
        name, help=help, description=description, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    add_game_arguments(parser)
    return parser


def add_game_arguments(parser: argparse.ArgumentParser) -> None:
    """The GAME argument, ``--position``, and each game's variant options."""
    parser.add_argument("game", choices=GAMES, help="the game")
    parser.add_argument("--position", help="start from a position in the game's notation")
    reversi = parser.add_argument_group("reversi variant")
    reversi.add_argument("--size", default="8", choices=["4", "6", "8", "10", "octagon"], help="board (default 8)")
    reversi.add_argument("--blocked", help="holes, comma separated (e.g. b2,g7)")
    reversi.add_argument("--holes-seed", type=int, metavar="SEED", help="draw the holes from this seed")
    reversi.add_argument("--handicap", type=int, default=0, help="handicap discs for Black (0-4)")
    cephalopod = parser.add_argument_group("cephalopod variant")
    cephalopod.add_argument("--rows", type=int, default=5, help="rows (2-8, default 5)")
    cephalopod.add_argument("--cols", type=int, default=5, help="columns (2-8, default 5)")
    rive = parser.add_argument_group("rive variant")
    rive.add_argument("--board", default="hex335", help="hex3, hex335 (default), hex4, hexN")
    rive.add_argument("--swap", action="store_true", help="White may swap on its first move")
    rive.add_argument("--single-stones", action="store_true", help="captures one stone at a time")
    strands = parser.add_argument_group("strands variant")
    layouts = ", ".join(name + " (default)" if name == "hex6" else name for name in bc.Strands.layout_names())
    strands.add_argument("--layout", default="hex6", help=layouts)
    strands.add_argument("--cover", default="up-to", choices=["up-to", "exact"], help="covering rule (default up-to)")


def new_game(args: argparse.Namespace):
    """The game the arguments describe (ValueError for an impossible variant or position)."""
    return {"cephalopod": _cephalopod, "reversi": _reversi, "rive": _rive, "strands": _strands}[args.game](args)


def _reversi(args: argparse.Namespace) -> bc.Reversi:
    if args.position:
        return bc.Reversi.from_position(args.position)
    size = args.size if args.size == "octagon" else int(args.size)
    if args.holes_seed is not None:
        return bc.Reversi.random(args.holes_seed, size=size, handicap=args.handicap)
    blocked = args.blocked.split(",") if args.blocked else None
    return bc.Reversi(size=size, blocked=blocked, handicap=args.handicap)


def _cephalopod(args: argparse.Namespace) -> bc.Cephalopod:
    if args.position:
        return bc.Cephalopod.from_position(args.position)
    return bc.Cephalopod(rows=args.rows, cols=args.cols)


def _rive(args: argparse.Namespace) -> bc.Rive:
    if args.position:
        return bc.Rive.from_position(args.position)
    return bc.Rive(board=args.board, swap=args.swap, single_stones=args.single_stones)


def _strands(args: argparse.Namespace) -> bc.Strands:
    if args.position:
        return bc.Strands.from_position(args.position)
    return bc.Strands(layout=args.layout, cover=args.cover)
