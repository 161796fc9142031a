"""``boardcore perft GAME [variant options] --depth D [--divide] [--threads N]``: count the
leaves of the game tree, root move by root move (a progress bar over them), then the total and the
rate."""

from __future__ import annotations

import argparse
import time

import boardcore as bc
from boardcore.cli.progress import Progress
from boardcore.cli.variants import add_game_arguments, new_game


def register(commands) -> None:
    parser = commands.add_parser("perft", help="count the leaves of the game tree", description=__doc__)
    add_game_arguments(parser)
    parser.add_argument("--depth", type=int, required=True, help="plies to look ahead (>= 0)")
    parser.add_argument("--threads", type=int, default=1, help="threads for each root move's subtree")
    parser.add_argument("--divide", action="store_true", help="print one count per root move")
    parser.add_argument("--free-passes", action="store_true", help="a pass uses no ply (Reversi)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    game = new_game(args)
    passes = not args.free_passes
    print(f"{args.game} {game.position()}")
    started = time.perf_counter()
    if args.depth <= 1:
        # Nothing to split: the count is immediate (and checks the depth).
        leaves = game.perft(args.depth, threads=args.threads, passes_count_as_ply=passes)
    else:
        leaves = 0
        moves = game.legal_moves()
        with Progress(len(moves), f"perft({args.depth})") as bar:
            for move in moves:
                game.play(move)
                below = _child_perft(game, args.depth, args.threads, passes, move)
                game.undo()
                leaves += below
                if args.divide:
                    print(f"{move!s:>5} {below}", flush=True)
                bar.advance(1, str(move))
        if not moves:
            leaves = game.perft(args.depth, threads=args.threads, passes_count_as_ply=passes)
    seconds = time.perf_counter() - started
    rate = leaves / seconds if seconds > 0 else float("inf")
    print(f"perft({args.depth}) = {leaves}")
    print(f"{seconds:.3f} s, {rate / 1e6:.1f} M leaves/s, {args.threads} thread(s), {bc.code_path()}")
    return 0


def _child_perft(game, depth: int, threads: int, passes: bool, move) -> int:
    """perft of the child reached by ``move``: one ply less, unless a free pass took none."""
    used = 0 if (not passes and str(move) == "pass") else 1
    return game.perft(depth - used, threads=threads, passes_count_as_ply=passes)
