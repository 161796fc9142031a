"""Cephalopod benchmarks: perft speed, engine against the reference, merged path counting.

    python benches/bench_cephalopod.py [--repeats N] [--paths-depths 10 15 20]

Every figure is the median of --repeats runs; ratios are taken in the same run.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys

import boardcore as bc
import boardcore.reference as ref
from _timing import bench_parser, median_time, table_head


def bench_perft(args) -> None:
    start = bc.Cephalopod()
    for depth in (6, 7):
        leaves = start.perft(depth)
        rate = leaves / median_time(lambda: start.perft(depth), args.repeats)
        print(f"| perft({depth}) empty 5x5, 1 thread | {rate / 1e6:,.0f} M leaves/s | target 200 M | |")
    two = median_time(lambda: start.perft(7, threads=2), args.repeats)
    one = median_time(lambda: start.perft(7), args.repeats)
    print(f"| perft(7) empty 5x5, threads=2 vs 1 | | | **{one / two:.2f}x** |")


def bench_reference(args) -> None:
    depth = 4
    engine, reference = bc.Cephalopod(), ref.Cephalopod()
    leaves = engine.perft(depth)
    assert leaves == reference.perft(depth)
    ours = leaves / median_time(lambda: engine.perft(depth), max(args.repeats, 5))
    theirs = leaves / median_time(lambda: reference.perft(depth), args.repeats)
    print(
        f"| perft({depth}) empty 5x5, engine vs reference | {ours / 1e6:,.1f} M leaves/s | "
        f"{theirs / 1e3:,.1f} k leaves/s | **{ours / theirs:,.0f}x** |"
    )


CHILD = """
import json, resource, sys, time
import boardcore as bc
depth = int(sys.argv[1])
started = time.perf_counter()
try:
    paths = bc.Cephalopod(3, 3).count_paths(depth)
except MemoryError as refused:  # past the documented bound on positions held at once (docs/cephalopod.md)
    print(json.dumps({"refused": str(refused)}))
    sys.exit(0)
seconds = time.perf_counter() - started
print(json.dumps({"seconds": seconds, "distinct": len(paths), "total": str(paths.total()),
                  "peak_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))
"""


def bench_paths(args) -> None:
    """Each depth in a fresh process, so that peak memory is that depth's alone."""
    baseline = json.loads(
        subprocess.run([sys.executable, "-c", CHILD, "0"], capture_output=True, text=True, check=True).stdout
    )["peak_kib"]
    for depth in args.paths_depths:
        runs = [
            json.loads(
                subprocess.run(
                    [sys.executable, "-c", CHILD, str(depth)], capture_output=True, text=True, check=True
                ).stdout
            )
            for _ in range(args.repeats)
        ]
        if "refused" in runs[0]:
            print(f"| count_paths 3x3 from empty, depth {depth} | refused | {runs[0]['refused']} | |")
            continue
        seconds = statistics.median(r["seconds"] for r in runs)
        run = runs[0]
        per_position = (run["peak_kib"] - baseline) * 1024 / max(run["distinct"], 1)
        print(
            f"| count_paths 3x3 from empty, depth {depth} | {seconds:.2f} s | {run['distinct']:,} positions, "
            f"{int(run['total']):.3e} paths | {per_position:,.0f} bytes per distinct position (peak RSS) |"
        )


def main() -> int:
    parser = bench_parser(__doc__)
    parser.add_argument("--paths-depths", type=int, nargs="*", default=[10, 15, 20])
    args = parser.parse_args()
    table_head("benchmark", "boardcore", "peer / target", "ratio")
    bench_perft(args)
    bench_reference(args)
    bench_paths(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
