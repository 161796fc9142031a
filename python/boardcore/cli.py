"""The ``boardcore`` command line: ``boardcore perft GAME --depth D [variant options]``."""

from __future__ import annotations

import argparse
import sys
import time

import boardcore as bc


def _reversi(args: argparse.Namespace) -> bc.Reversi:
    if args.position:
        return bc.Reversi.from_position(args.position)
    size = args.size if args.size == "octagon" else int(args.size)
    if args.seed is not None:
        return bc.Reversi.random(args.seed, size=size, handicap=args.handicap)
    blocked = args.blocked.split(",") if args.blocked else None
    return bc.Reversi(size=size, blocked=blocked, handicap=args.handicap)


def _cephalopod(args: argparse.Namespace) -> bc.Cephalopod:
    if args.position:
        return bc.Cephalopod.from_position(args.position)
    return bc.Cephalopod(rows=args.rows, cols=args.cols)


def _rive(args: argparse.Namespace) -> bc.Rive:
    if args.position:
        return bc.Rive.from_position(args.position)
    return bc.Rive(board=args.board, swap=args.swap)


def _strands(args: argparse.Namespace) -> bc.Strands:
    if args.position:
        return bc.Strands.from_position(args.position)
    return bc.Strands(layout=args.layout, cover=args.cover)


GAMES = {"cephalopod": _cephalopod, "reversi": _reversi, "rive": _rive, "strands": _strands}


def _perft(args: argparse.Namespace) -> int:
    state = GAMES[args.game](args)
    passes = not args.free_passes
    print(f"{args.game} {state.position()}")
    started = time.perf_counter()
    if args.divide:
        parts = state.divide(args.depth, passes_count_as_ply=passes)
        for move, count in parts.items():
            print(f"{move:>5} {count}")
        leaves = sum(parts.values())
    else:
        leaves = state.perft(args.depth, threads=args.threads, passes_count_as_ply=passes)
    seconds = time.perf_counter() - started
    rate = leaves / seconds if seconds > 0 else float("inf")
    print(f"perft({args.depth}) = {leaves}")
    print(f"{seconds:.3f} s, {rate / 1e6:.1f} M leaves/s, {args.threads} thread(s), {bc.code_path()}")
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="boardcore", description="boardcore game engines")
    commands = parser.add_subparsers(dest="command", required=True)
    perft = commands.add_parser("perft", help="count the leaves of the game tree")
    perft.add_argument("game", choices=sorted(GAMES))
    perft.add_argument("--depth", type=int, required=True)
    perft.add_argument("--threads", type=int, default=1)
    perft.add_argument("--divide", action="store_true", help="one count per root move")
    perft.add_argument("--free-passes", action="store_true", help="a pass uses no ply (Reversi)")
    perft.add_argument("--position", help="start from a position in notation")
    reversi = perft.add_argument_group("reversi variant")
    reversi.add_argument("--size", default="8", choices=["4", "6", "8", "10", "octagon"])
    reversi.add_argument("--blocked", help="holes, comma separated (e.g. b2,g7)")
    reversi.add_argument("--seed", type=int, help="draw the holes from this seed")
    reversi.add_argument("--handicap", type=int, default=0)
    cephalopod = perft.add_argument_group("cephalopod variant")
    cephalopod.add_argument("--rows", type=int, default=5)
    cephalopod.add_argument("--cols", type=int, default=5)
    rive = perft.add_argument_group("rive variant")
    rive.add_argument("--board", default="hex335", help="hex3, hex335, hex4, hexN")
    rive.add_argument("--swap", action="store_true", help="White may swap on its first move")
    strands = perft.add_argument_group("strands variant")
    strands.add_argument("--layout", default="hex6", help="hex4, hex5, hex5-rings, hex6, hex6-edge4, hex6-low, hex7")
    strands.add_argument("--cover", default="up-to", choices=["up-to", "exact"])
    perft.set_defaults(run=_perft)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return args.run(args)
    except ValueError as error:  # NotationError and IllegalMoveError are ValueErrors
        print(f"boardcore: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
