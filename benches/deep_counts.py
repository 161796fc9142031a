"""Deep Reversi perft counted two ways, for the counts docs/distributed.md publishes (issue 15):

    python benches/deep_counts.py --board octagon --depths 9-13                 # merged, then plain
    python benches/deep_counts.py --board 10 --depths 14 --ways merged ray      # merged, then on Ray
    python benches/deep_counts.py --board 8 --depths 15 --ways merged           # against the published

Ways (each on --threads threads or, for Ray, a local instance of that many CPUs unless --address):
  plain   game.perft(depth, threads)                              no merging at all
  merged  game.perft(depth, threads, split_depth="auto")          transpositions and symmetries merged
  ray     boardcore.distributed.perft(game, depth, split_depth=--ray-split, unit_seconds=--unit-seconds)
          another code path: the frontier cut into units, each counted by perft_positions on a worker
Every line gives the count, the seconds, the UTC time it finished and the machine's load average
(the machine may be shared: read the seconds with it). 8x8 counts are also checked against the
published ones (tests/data/perft/reversi-8x8.txt). The exit status is 1 if two ways disagree.
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
import time
from pathlib import Path

import boardcore as bc

# The tests' reader of the perft data files (as bench_distributed.py reads the tests' raycluster).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from perft_data import perft_entries


def published_8x8() -> dict[int, int]:
    """Depth -> published count from the 8x8 start (passes counting as a ply), from the test
    data (tests/data/perft/reversi-8x8.txt)."""
    start = bc.Reversi(8).position()
    return {e.depth: e.leaves for e in perft_entries() if e.game == "reversi" and e.position == start}


def depth_range(text: str) -> list[int]:
    first, _, last = text.partition("-")
    return list(range(int(first), int(last or first) + 1))


def count(way: str, game: bc.Reversi, depth: int, args: argparse.Namespace) -> int:
    if way == "plain":
        return game.perft(depth, threads=args.threads)
    if way == "merged":
        return game.perft(depth, threads=args.threads, split_depth="auto")
    from boardcore import distributed

    if args.address is None:
        import ray

        ray.init(address="local", num_cpus=args.threads, log_to_driver=False, logging_level="ERROR")
    try:
        return distributed.perft(
            game,
            depth,
            address=args.address,
            split_depth=args.ray_split,
            unit_seconds=args.unit_seconds,
            progress=False,
        )
    finally:
        if args.address is None:
            ray.shutdown()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--board", choices=["8", "10", "octagon"], required=True)
    parser.add_argument("--depths", type=depth_range, required=True, help="a depth or a range: 14, 9-13")
    parser.add_argument("--ways", nargs="+", choices=["plain", "merged", "ray"], default=["merged", "plain"])
    parser.add_argument("--threads", type=int, default=2, help="threads, or the local Ray instance's CPUs (2)")
    parser.add_argument("--ray-split", default="auto", help="the ray way's split_depth: auto or an integer")
    parser.add_argument("--unit-seconds", type=float, default=20.0, help="the ray way's unit_seconds (20)")
    parser.add_argument("--address", default=None, help="the ray way's cluster (default: a local instance)")
    args = parser.parse_args()
    if args.ray_split != "auto":
        args.ray_split = int(args.ray_split)
    game = bc.Reversi("octagon" if args.board == "octagon" else int(args.board))
    published = published_8x8() if args.board == "8" else {}
    agree = True
    for depth in args.depths:
        counts = []
        for way in args.ways:
            started = time.perf_counter()
            leaves = count(way, game, depth, args)
            seconds = time.perf_counter() - started
            counts.append(leaves)
            when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
            load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
            check = ""
            if depth in published:
                check = "  = published" if leaves == published[depth] else f"  != published {published[depth]:,}"
                agree &= leaves == published[depth]
            print(
                f"{args.board} perft({depth}) {way:6} = {leaves:,} in {seconds:.1f} s "
                f"({when}, load average {load}){check}",
                flush=True,
            )
        if len(set(counts)) > 1:
            agree = False
        if len(counts) > 1:
            print(f"{args.board} perft({depth}): {'AGREE' if len(set(counts)) == 1 else 'DISAGREE'}", flush=True)
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
