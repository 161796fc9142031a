"""Distributed perft's overhead, scaling and parallel efficiency on real local Ray clusters (issue
15), and the unit rate the projections of docs/distributed.md start from:

    python benches/bench_distributed.py                 # perft(13) of 8x8, 3 repeats
    python benches/bench_distributed.py --depth 12      # quicker
    python benches/bench_distributed.py --unit-rate --board 10 --depth 14   # no Ray: one CPU

- Ray overhead: `boardcore.distributed.perft` of 8x8 on a local 2-CPU cluster (`ray start`, started
  and warmed up before the clock runs; the driver connected once) against the local
  `Reversi().perft(depth, threads=2, split_depth=k)` with the same split k (the auto split's), the
  two taking turns.
  The target is within 10% (ratio <= 1.10).
- Scaling: the same count on two 1-CPU nodes (`ray start --head` plus `ray start --address`, the
  two-machine simulation) against one 1-CPU node: the wall-clock speed-up, and for each the
  parallel efficiency, which does not depend on how fast the machine happens to be:
  every unit task measures its own CPU seconds (`time.process_time` in the worker) and wall
  seconds, and efficiency = (the units' CPU seconds) / (the run's wall seconds x the cluster's
  CPUs). It splits into occupancy = (the units' wall seconds) / (wall x CPUs), the share of the
  CPUs' time a unit was running (1 - occupancy is the scheduling overhead: the driver's frontier
  and unit sizing, Ray's dispatch, the last units' tail), and CPU share = (the units' CPU
  seconds) / (their wall seconds), the share of its time a running unit got a CPU (below 1 when
  other processes on the machine took it).
- Unit rate (`--unit-rate`): the frontier distributed perft uses (`perft_frontier(depth, "auto")`)
  cut into units as it cuts them (`--unit-seconds` each), and a strided sample of those units
  (unit 0, s, 2s, ...; about `--sample-seconds` of them) run here on one thread through the
  function a Ray worker runs: leaves counted (paths times the leaves below) per CPU second, and
  the whole count's CPU hours extrapolated from the sample.

Every figure is the median of --repeats runs; the machine is shared, so read the ratios.
"""

from __future__ import annotations

import importlib
import logging
import math
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import boardcore as bc
from _timing import bench_parser, median_time, table_head
from boardcore import distributed

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from raycluster import LocalCluster

# The module (the package's `perft` is the function): its units and the function workers run.
distributed_perft = importlib.import_module("boardcore.distributed.perft")


@dataclass
class RayRun:
    """One distributed count, as the driver and the unit tasks saw it."""

    wall: float  # the call's seconds, on the driver
    setup: float  # of which before the first unit was sent: frontier, sizing the units
    unit_cpu: float  # the units' CPU seconds, summed (each measured in its task)
    unit_wall: float  # the units' wall seconds, summed
    cpus: int

    @property
    def efficiency(self) -> float:
        return self.unit_cpu / (self.wall * self.cpus)

    @property
    def occupancy(self) -> float:
        return self.unit_wall / (self.wall * self.cpus)

    @property
    def cpu_share(self) -> float:
        return self.unit_cpu / self.unit_wall


def timed_ray_run(game, depth: int, split: int, unit_seconds: float, cpus: int) -> tuple[RayRun, int]:
    """distributed.perft once, with its progress reports kept: the first (sent when the units are
    planned) ends the setup, the last holds the units' CPU and wall seconds."""
    reports: list[tuple[float, distributed.ProgressInfo]] = []
    started = time.perf_counter()
    leaves = distributed.perft(
        game,
        depth,
        split_depth=split,
        unit_seconds=unit_seconds,
        progress=lambda info: reports.append((time.perf_counter(), info)),
    )
    wall = time.perf_counter() - started
    last = reports[-1][1]
    return RayRun(wall, reports[0][0] - started, last.unit_cpu_seconds, last.unit_wall_seconds, cpus), leaves


def distributed_runs(
    cluster: LocalCluster, depth: int, split: int, args, local_threads: int = 0
) -> tuple[RayRun, float, int]:
    """The median run (by wall time) of distributed perft(depth) on ``cluster`` (this process
    connected first, the workers warmed up by a small count), the median seconds of the local
    perft on ``local_threads`` threads taking turns with it (0: none), and the count."""
    import ray  # here, not at the top: --unit-rate runs without Ray installed

    ray.init(address=cluster.address, log_to_driver=False, logging_level=logging.ERROR)
    try:
        game = bc.Reversi()
        cpus = int(ray.cluster_resources()["CPU"])
        distributed.perft(game, 9, unit_seconds=0.05, progress=False)  # start the workers
        counts, runs, local_times = [], [], []
        for _ in range(args.repeats):
            # The two take turns, so that the shared machine's load falls on both alike.
            run, leaves = timed_ray_run(game, depth, split, args.unit_seconds, cpus)
            runs.append(run)
            counts.append(leaves)
            if local_threads:
                local_times.append(
                    median_time(lambda: counts.append(game.perft(depth, threads=local_threads, split_depth=split)), 1)
                )
        assert len(set(counts)) == 1
        median_run = sorted(runs, key=lambda run: run.wall)[len(runs) // 2]
        return median_run, statistics.median(local_times) if local_times else 0.0, counts[0]
    finally:
        ray.shutdown()


def efficiency_row(name: str, run: RayRun) -> str:
    return (
        f"| {name} | {run.wall:.2f} s wall, units {run.unit_cpu:.2f} CPU s in {run.unit_wall:.2f} s "
        f"| setup {run.setup:.2f} s | efficiency **{run.efficiency:.3f}** | occupancy {run.occupancy:.3f}, "
        f"CPU share {run.cpu_share:.3f}, scheduling overhead {1 - run.occupancy:.3f} of {run.cpus} CPU(s) x wall |"
    )


def overhead_and_scaling(args) -> None:
    depth = args.depth
    remaining = bc.Reversi().perft_frontier(depth, "auto")[0]
    split = depth - remaining
    table_head("measure", "boardcore.distributed", "local / one node", "ratio", "note")

    with LocalCluster(cpus=2) as cluster:
        two_cpus, local_seconds, leaves = distributed_runs(cluster, depth, split, args, local_threads=2)
    print(
        f"| Ray overhead, 8x8 perft({depth}) = {leaves:,} | {two_cpus.wall:.2f} s (2-CPU cluster) "
        f"| {local_seconds:.2f} s (threads=2) | **{two_cpus.wall / local_seconds:.3f}** | split {split}, target <= 1.10 |"
    )
    print(efficiency_row("efficiency, one 2-CPU node", two_cpus))
    if args.skip_scaling:
        return
    with LocalCluster(cpus=1) as one:
        one_node, _, _ = distributed_runs(one, depth, split, args)
    with LocalCluster(cpus=1) as two:
        two.add_node(1)
        two_nodes, _, _ = distributed_runs(two, depth, split, args)
    print(
        f"| Scaling, two 1-CPU nodes vs one | {two_nodes.wall:.2f} s (2 nodes) | {one_node.wall:.2f} s (1 node) "
        f"| **{one_node.wall / two_nodes.wall:.2f}x** | speed-up, 2.00x is linear; "
        f"efficiency x CPUs: {2 * two_nodes.efficiency / one_node.efficiency:.2f}x |"
    )
    print(efficiency_row("efficiency, one 1-CPU node", one_node))
    print(efficiency_row("efficiency, two 1-CPU nodes", two_nodes))


def board_game(board: str) -> bc.Reversi:
    return bc.Reversi("octagon" if board == "octagon" else int(board))


def unit_rate(args) -> None:
    """Leaves per CPU second of a strided sample of distributed perft's units, each run here by
    the function a Ray worker runs (``_unit_task``), on one thread."""
    game = board_game(args.board)
    started = time.perf_counter()
    part = distributed_perft._Part(None, *game.perft_frontier(args.depth, "auto"))
    frontier_seconds = time.perf_counter() - started
    cpu_estimate = distributed_perft._estimate_seconds(bc.Reversi, [part], True)
    n_units = min(max(math.ceil(cpu_estimate / args.unit_seconds), 1), len(part.positions))
    plan = distributed_perft._Plan("perft", "Reversi", game.position(), args.depth, True, [part], n_units)
    sampled = min(max(round(args.sample_seconds / args.unit_seconds), 1), n_units)
    stride = n_units // sampled
    leaves = cpu = wall = 0.0
    for unit in range(0, stride * sampled, stride):
        counted, unit_cpu, unit_wall = distributed_perft._unit_task("Reversi", plan.unit(unit), 1, True, 1)
        leaves, cpu, wall = leaves + counted[0], cpu + unit_cpu, wall + unit_wall
    rate = leaves / cpu
    estimate = leaves / sampled * n_units
    table_head("board", "perft", "frontier", "units", "sample", "leaves per CPU second", "whole count (estimated)")
    print(
        f"| {args.board} | {args.depth} | {len(part.positions):,} positions at ply {args.depth - part.remaining} "
        f"(built in {frontier_seconds:.1f} s) | {n_units:,} of ~{args.unit_seconds:g} s | {sampled} units, "
        f"{cpu:.1f} CPU s in {wall:.1f} s | **{rate / 1e9:.3f} G** | {estimate:.3e} leaves, "
        f"{estimate / rate / 3600:.3f} CPU hours |"
    )


def main() -> None:
    parser = bench_parser(__doc__)
    parser.add_argument("--depth", type=int, default=13, help="perft depth (13)")
    parser.add_argument("--unit-seconds", type=float, default=5.0, help="distributed perft's unit_seconds (5)")
    parser.add_argument("--skip-scaling", action="store_true", help="the overhead only (no two-node simulation)")
    parser.add_argument("--unit-rate", action="store_true", help="the unit rate on one CPU, no Ray (below)")
    parser.add_argument("--board", choices=["8", "10", "octagon"], default="8", help="--unit-rate's board (8)")
    parser.add_argument("--sample-seconds", type=float, default=30.0, help="--unit-rate's sample, about (30)")
    args = parser.parse_args()
    if args.unit_rate:
        unit_rate(args)
    else:
        overhead_and_scaling(args)


if __name__ == "__main__":
    main()
