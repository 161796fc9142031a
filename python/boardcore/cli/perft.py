"""boardcore perft GAME [variant options] --depth D [--divide] [--threads N]: count the leaves
of the game tree, root move by root move (a progress bar over them), then the total and the
rate. Ctrl-C stops it within a moment."""

from __future__ import annotations

import argparse
import time

import boardcore as bc
from boardcore.cli.helptext import add_command
from boardcore.cli.progress import Progress
from boardcore.cli.variants import add_game_arguments, new_game

# The deepest perft the API takes (Reversi(...).perft(depth) and the others: the binding's
# `depth` argument is 0 to 64; tests/test_cli.py checks the two agree).
MAX_DEPTH = 64


def register(commands) -> None:
    parser = add_command(commands, "perft", "count the leaves of the game tree", __doc__)
    add_game_arguments(parser)
    parser.add_argument("--depth", type=depth_arg, required=True, help=f"plies to look ahead (0 to {MAX_DEPTH})")
    parser.add_argument("--threads", type=int, default=1, help="threads for each root move's subtree")
    parser.add_argument("--divide", action="store_true", help="print one count per root move")
    parser.add_argument("--free-passes", action="store_true", default=None, help="a pass uses no ply (Reversi only)")
    parser.set_defaults(run=run)


def depth_arg(text: str) -> int:
    """A perft depth, 0 to MAX_DEPTH (argparse type: errors become usage errors quoting the text)."""
    try:
        depth = int(text)
    except ValueError:
        depth = -1
    if not 0 <= depth <= MAX_DEPTH:
        raise argparse.ArgumentTypeError(f"the depth is an integer from 0 to {MAX_DEPTH}, not {text!r}")
    return depth


def run(args: argparse.Namespace) -> int:
    game = new_game(args)
    passes = not args.free_passes
    print(f"{args.game} {game.position()}", flush=True)
    started = time.perf_counter()
    moves = game.legal_moves() if args.depth > 1 else []
    if not moves:
        # Nothing to split (depth 0 or 1, or no move): the count is immediate.
        leaves = game.perft(args.depth, threads=args.threads, passes_count_as_ply=passes)
    else:
        leaves = 0
        with Progress(len(moves), f"perft({args.depth})") as bar:
            for move in moves:
                game.play(move)
                try:
                    below = _child_perft(game, args.depth, args.threads, passes, move)
                finally:
                    game.undo()
                leaves += below
                if args.divide:
                    bar.print(f"{move!s:>5} {below}")
                bar.advance(1, str(move))
    seconds = time.perf_counter() - started
    rate = leaves / seconds if seconds > 0 else float("inf")
    print(f"perft({args.depth}) = {leaves}")
    print(f"{seconds:.3f} s, {rate / 1e6:.1f} M leaves/s, {args.threads} thread(s), {bc.code_path()}")
    return 0


def _child_perft(game, depth: int, threads: int, passes: bool, move) -> int:
    """perft of the child reached by ``move``: one ply less, unless a free pass took none."""
    used = 0 if (not passes and str(move) == "pass") else 1
    return game.perft(depth - used, threads=threads, passes_count_as_ply=passes)
