"""Distributed self-play (issue 15 item 4): games per second of `bc.distributed.selfplay` on a
local Ray instance with 1 and 2 workers, against `bc.mcts.selfplay` in this process.

    python benches/bench_distributed_selfplay.py [--repeats N] [--games N] [--chunk-games N]
                                                 [--iterations N] [--game NAME] [--cpus N] [--net]

Reversi 8x8 by default, random-rollout search (`--net`: a small numpy network as the evaluator,
one BLAS thread), `--iterations` simulations per decision. One local Ray instance of `--cpus`
CPUs is started for the whole run (its start-up, about ten seconds, is not counted); each
distributed run pays for its actors' start (a second or so) and is timed whole, as a user sees
it. Rows: local one thread, local two threads (one call, all games at once), distributed with 1
and 2 workers (one engine thread each). Every rate is the median of --repeats runs; the ratio
of 2 workers to 1 is taken in the same run.
"""

from __future__ import annotations

import os

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import statistics  # noqa: E402
import time  # noqa: E402

import boardcore as bc  # noqa: E402
import boardcore.distributed  # noqa: E402
import numpy as np  # noqa: E402
import ray  # noqa: E402
from _timing import bench_parser, table_head  # noqa: E402

VARIANTS = {"reversi": {"size": 8}, "cephalopod": {"rows": 3, "cols": 3}, "rive": {"board": "hex3"}, "strands": {}}


class SmallNet:
    """A fixed random two-layer network in numpy (weights drawn for the shapes it meets)."""

    def __call__(self, observations, masks):
        x = observations.reshape(len(observations), -1)
        rng = np.random.default_rng(0)
        hidden = rng.standard_normal((x.shape[1], 64)).astype(np.float32) * 0.1
        out = rng.standard_normal((64, masks.shape[1] + 1)).astype(np.float32) * 0.1
        y = np.maximum(x @ hidden, 0) @ out
        return y[:, :-1], np.tanh(y[:, -1])


def rate(run, games: int, repeats: int) -> float:
    """Median games per second of ``run()``."""
    seconds = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        seconds.append(time.perf_counter() - start)
    return games / statistics.median(seconds)


def main() -> None:
    parser = bench_parser(__doc__, repeats=3)
    parser.add_argument("--games", type=int, default=64)
    parser.add_argument("--chunk-games", type=int, default=8)
    parser.add_argument("--iterations", type=int, default=32)
    parser.add_argument("--game", default="reversi", choices=list(VARIANTS))
    parser.add_argument("--cpus", type=int, default=2)
    parser.add_argument("--net", action="store_true", help="a small numpy network instead of random rollouts")
    args = parser.parse_args()
    settings = {"iterations": args.iterations, "evaluator": SmallNet() if args.net else None}
    game, variant = args.game, VARIANTS[args.game]

    ray.init(address="local", num_cpus=args.cpus, include_dashboard=False, log_to_driver=False, logging_level="WARNING")
    try:
        rows = {}
        for threads in (1, 2):
            rows[f"local, {threads} thread(s)"] = rate(
                lambda threads=threads: bc.mcts.selfplay(game, variant, games=args.games, threads=threads, **settings),
                args.games,
                args.repeats,
            )
        for workers in (1, 2):
            rows[f"distributed, {workers} worker(s)"] = rate(
                lambda workers=workers: boardcore.distributed.selfplay(
                    game,
                    variant,
                    games=args.games,
                    chunk_games=args.chunk_games,
                    workers=workers,
                    progress=False,
                    **settings,
                ),
                args.games,
                args.repeats,
            )
    finally:
        ray.shutdown()
    evaluator = "numpy net" if args.net else "random rollouts"
    print(
        f"{game} {variant}, {args.games} games, {args.iterations} simulations, {evaluator}, chunks of {args.chunk_games}"
    )
    table_head("run", "games/s")
    for name, value in rows.items():
        print(f"| {name} | {value:,.2f} |")
    print(f"| 2 workers / 1 worker | {rows['distributed, 2 worker(s)'] / rows['distributed, 1 worker(s)']:.2f}x |")


if __name__ == "__main__":
    main()
