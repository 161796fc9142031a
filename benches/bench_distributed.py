"""Distributed perft's overhead and scaling on real local Ray clusters (issue 15), as ratios
measured in one run:

    python benches/bench_distributed.py                 # perft(13) of 8x8, 3 repeats
    python benches/bench_distributed.py --depth 12      # quicker

- Ray overhead: `boardcore.distributed.perft` of 8x8 on a local 2-CPU cluster (`ray start`, started
  and warmed up before the clock runs; the driver connected once) against the local
  `Reversi().perft(depth, threads=2, split_depth=k)` with the same split k (the auto split's), the
  two taking turns.
  The target is within 10% (ratio <= 1.10).
- Scaling: the same count on two 1-CPU nodes (`ray start --head` plus `ray start --address`, the
  two-machine simulation) against one 1-CPU node.

Every figure is the median of --repeats runs; the machine is shared, so read the ratios.
"""

from __future__ import annotations

import logging
import statistics
import sys
from pathlib import Path

import boardcore as bc
import ray
from _timing import bench_parser, median_time, table_head
from boardcore import distributed

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from raycluster import LocalCluster


def distributed_seconds(
    cluster: LocalCluster, depth: int, split: int, args, local_threads: int = 0
) -> tuple[float, float, int]:
    """Median seconds of distributed perft(depth) on ``cluster`` (this process connected first, the
    workers warmed up by a small count), of the local perft on ``local_threads`` threads taking
    turns with it (0: none), and the count."""
    ray.init(address=cluster.address, log_to_driver=False, logging_level=logging.ERROR)
    try:
        game = bc.Reversi()
        distributed.perft(game, 9, unit_seconds=0.05, progress=False)  # start the workers
        counts, ray_times, local_times = [], [], []
        for _ in range(args.repeats):
            # The two take turns, so that the shared machine's load falls on both alike.
            ray_times.append(
                median_time(
                    lambda: counts.append(
                        distributed.perft(
                            game, depth, split_depth=split, unit_seconds=args.unit_seconds, progress=False
                        )
                    ),
                    1,
                )
            )
            if local_threads:
                local_times.append(
                    median_time(lambda: counts.append(game.perft(depth, threads=local_threads, split_depth=split)), 1)
                )
        assert len(set(counts)) == 1
        return statistics.median(ray_times), statistics.median(local_times) if local_times else 0.0, counts[0]
    finally:
        ray.shutdown()


def main() -> None:
    parser = bench_parser(__doc__)
    parser.add_argument("--depth", type=int, default=13, help="perft depth of 8x8 (13)")
    parser.add_argument("--unit-seconds", type=float, default=5.0, help="distributed perft's unit_seconds (5)")
    parser.add_argument("--skip-scaling", action="store_true", help="the overhead only (no two-node simulation)")
    args = parser.parse_args()
    depth = args.depth
    remaining = bc.Reversi().perft_frontier(depth, "auto")[0]
    split = depth - remaining
    table_head("measure", "boardcore.distributed", "local / one node", "ratio", "note")

    with LocalCluster(cpus=2) as cluster:
        ray_seconds, local_seconds, leaves = distributed_seconds(cluster, depth, split, args, local_threads=2)
    print(
        f"| Ray overhead, 8x8 perft({depth}) = {leaves:,} | {ray_seconds:.2f} s (2-CPU cluster) "
        f"| {local_seconds:.2f} s (threads=2) | **{ray_seconds / local_seconds:.3f}** | split {split}, target <= 1.10 |"
    )
    if args.skip_scaling:
        return
    with LocalCluster(cpus=1) as one:
        one_seconds, _, _ = distributed_seconds(one, depth, split, args)
    with LocalCluster(cpus=1) as two:
        two.add_node(1)
        two_seconds, _, _ = distributed_seconds(two, depth, split, args)
    print(
        f"| Scaling, two 1-CPU nodes vs one | {two_seconds:.2f} s (2 nodes) | {one_seconds:.2f} s (1 node) "
        f"| **{one_seconds / two_seconds:.2f}x** | speed-up, 2.00x is linear |"
    )


if __name__ == "__main__":
    main()
