"""boardcore perft GAME [variant options] --depth D [--divide] [--threads N]: count the leaves
of the game tree, root move by root move (a progress bar over them), then the total and the
rate. Ctrl-C stops it within a moment.

With --ray [ADDRESS] the count runs on a Ray cluster (no address: a local Ray instance; "auto":
the cluster running here; or ray://host:port), in work units of about --unit-seconds each, with
--threads threads a unit; --checkpoint FILE records every finished unit, and the same command
with the same file resumes a run that was stopped (docs/distributed.md)."""

from __future__ import annotations

import argparse
import time

import boardcore as bc
from boardcore.cli.helptext import add_command, depth_type
from boardcore.cli.progress import Progress
from boardcore.cli.variants import add_game_arguments, new_game

# The deepest perft the API takes (Reversi(...).perft(depth) and the others: the binding's
# `depth` argument is 0 to 64; tests/test_cli.py checks the two agree).
MAX_DEPTH = 64
depth_arg = depth_type(MAX_DEPTH)


def register(commands) -> None:
    parser = add_command(commands, "perft", "count the leaves of the game tree", __doc__)
    add_game_arguments(parser)
    parser.add_argument("--depth", type=depth_arg, required=True, help=f"plies to look ahead (0 to {MAX_DEPTH})")
    parser.add_argument("--threads", type=int, default=1, help="threads for each root move's subtree")
    parser.add_argument("--divide", action="store_true", help="print one count per root move")
    parser.add_argument("--free-passes", action="store_true", default=None, help="a pass uses no ply (Reversi only)")
    parser.add_argument(
        "--split-depth",
        type=split_depth_arg,
        default=None,
        help="count the distinct positions this many plies down once each (an integer or 'auto')",
    )
    parser.add_argument(
        "--ray",
        nargs="?",
        const=LOCAL_RAY,
        default=None,
        metavar="ADDRESS",
        help="count on a Ray cluster: no ADDRESS starts a local instance, 'auto' joins the running cluster",
    )
    parser.add_argument(
        "--checkpoint", metavar="FILE", help="with --ray: record finished work units here, and resume from them"
    )
    parser.add_argument(
        "--unit-seconds", type=float, default=5.0, metavar="S", help="with --ray: about how long a work unit runs (5)"
    )
    parser.set_defaults(run=run)


# --ray given without an address: a local Ray instance (address=None).
LOCAL_RAY = ""


def split_depth_arg(text: str) -> int | str:
    """--split-depth: an integer from 0 to MAX_DEPTH, or "auto"."""
    if text == "auto":
        return text
    try:
        return depth_arg(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(
            f"the split depth is an integer from 0 to {MAX_DEPTH} or 'auto', not {text!r}"
        ) from None


def run(args: argparse.Namespace) -> int:
    if args.checkpoint is not None and args.ray is None:
        raise ValueError("--checkpoint records the work units of a --ray run: add --ray")
    if args.ray is None and args.unit_seconds != 5.0:
        raise ValueError("--unit-seconds sizes the work units of a --ray run: add --ray")
    game = new_game(args)
    if isinstance(args.split_depth, int) and args.split_depth > args.depth:
        raise ValueError(f"--split-depth is at most --depth ({args.depth}), not {args.split_depth}")
    if args.ray is not None:
        return _run_on_ray(args, game)
    passes = not args.free_passes
    print(f"{args.game} {game.position()}", flush=True)
    started = time.perf_counter()
    moves = game.legal_moves() if args.depth > 1 else []
    if not moves:
        # Nothing to split (depth 0 or 1, or no move): the count is immediate.
        leaves = game.perft(args.depth, threads=args.threads, passes_count_as_ply=passes, split_depth=args.split_depth)
    else:
        leaves = 0
        with Progress(len(moves), f"perft({args.depth})") as bar:
            for move in moves:
                game.play(move)
                try:
                    below = _child_perft(game, args.depth, args.threads, passes, move, args.split_depth)
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


def _child_perft(game, depth: int, threads: int, passes: bool, move, split_depth: int | str | None) -> int:
    """perft of the child reached by ``move``: one ply less, unless a free pass took none; a split
    depth counts from the root, so the child's is one less."""
    used = 0 if (not passes and str(move) == "pass") else 1
    split = min(max(split_depth - used, 0), depth - used) if isinstance(split_depth, int) else split_depth
    return game.perft(depth - used, threads=threads, passes_count_as_ply=passes, split_depth=split)


def _run_on_ray(args: argparse.Namespace, game) -> int:
    """perft or divide on a Ray cluster (boardcore.distributed), its progress bar on stderr."""
    from boardcore import distributed

    address = None if args.ray == LOCAL_RAY else args.ray
    options = {
        "address": address,
        "checkpoint": args.checkpoint,
        "split_depth": "auto" if args.split_depth is None else args.split_depth,
        "unit_seconds": args.unit_seconds,
        "threads_per_unit": args.threads,
        "passes_count_as_ply": not args.free_passes,
    }
    print(f"{args.game} {game.position()}", flush=True)
    started = time.perf_counter()
    if args.divide and args.depth >= 1:
        counts = distributed.divide(game, args.depth, **options)
        for move, below in counts.items():
            print(f"{move:>5} {below}")
        leaves = sum(counts.values())
    else:
        leaves = distributed.perft(game, args.depth, **options)
    seconds = time.perf_counter() - started
    rate = leaves / seconds if seconds > 0 else float("inf")
    where = "a local Ray instance" if address is None else f"Ray at {address}"
    print(f"perft({args.depth}) = {leaves}")
    print(f"{seconds:.3f} s, {rate / 1e6:.1f} M leaves/s, {where}, {args.threads} thread(s) a unit, {bc.code_path()}")
    return 0
