"""Cephalopod benchmarks: perft speed, engine against the reference, merged path counting.

    python benches/bench_cephalopod.py [--repeats N] [--paths-depths 10 15 20] [--colour-free-depth 40]
        [--parts perft reference paths colour-free]

Every figure is the median of --repeats runs; ratios are taken in the same run. The path counts
(`paths`: owner-aware `count_paths` on the empty 3x3 board; `colour-free`: `count_paths(depth,
owners=False)`, `path_totals(depth)` and `path_totals(depth, wrapping=True)` on the same board) run
each measurement in a fresh process, so that its peak resident memory is its own; the interpreter
with boardcore imported (the child at depth 0) is reported as the baseline it includes.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys

import boardcore as bc
import boardcore.reference as ref
from _timing import bench_parser, median_time, perft_rates, run_table


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
    _, ours, theirs = perft_rates(engine, reference, depth, args.repeats)
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

# The colour-free counts (issue 16): argv is the depth and what to run, one of COLOUR_FREE.
COLOUR_FREE_CHILD = """
import json, resource, sys, time
import boardcore as bc
depth, what = int(sys.argv[1]), sys.argv[2]
board = bc.Cephalopod(3, 3)
cpu_before = sum(resource.getrusage(resource.RUSAGE_SELF)[:2])
started = time.perf_counter()
if what == "count_paths":
    rows = len(board.count_paths(depth, owners=False))
else:
    board.path_totals(depth, wrapping=what == "path_totals_wrapping")
    rows = None
usage = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"seconds": time.perf_counter() - started, "rows": rows, "peak_kib": usage.ru_maxrss,
                  "cpu_seconds": usage.ru_utime + usage.ru_stime - cpu_before}))
"""
COLOUR_FREE = {
    "count_paths": "count_paths({depth}, owners=False)",
    "path_totals": "path_totals({depth})",
    "path_totals_wrapping": "path_totals({depth}, wrapping=True)",
}


def child_run(script: str, *argv: object) -> dict:
    """The JSON line a fresh interpreter running `script` with `argv` prints."""
    done = subprocess.run([sys.executable, "-c", script, *map(str, argv)], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def bench_paths(args) -> None:
    """Each depth in a fresh process, so that peak memory is that depth's alone."""
    baseline = child_run(CHILD, 0)["peak_kib"]
    for depth in args.paths_depths:
        runs = [child_run(CHILD, depth) for _ in range(args.repeats)]
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


def bench_colour_free(args) -> None:
    """The empty 3x3 board to --colour-free-depth, colour-free: median time, rows listed (for
    `count_paths`) and peak resident memory (the largest over the runs), each run a fresh process.
    The median CPU time (user + system) is printed too: on a loaded machine it is the figure that
    moves least with the load."""
    depth = args.colour_free_depth
    baseline = child_run(COLOUR_FREE_CHILD, 0, "count_paths")["peak_kib"]
    for what, call in COLOUR_FREE.items():
        runs = [child_run(COLOUR_FREE_CHILD, depth, what) for _ in range(args.repeats)]
        seconds = statistics.median(run["seconds"] for run in runs)
        cpu_seconds = statistics.median(run["cpu_seconds"] for run in runs)
        peak_mb = max(run["peak_kib"] for run in runs) / 1024
        rows = "not listed" if runs[0]["rows"] is None else f"{runs[0]['rows']:,} rows"
        print(
            f"| `{call.format(depth=depth)}` empty 3x3 | {seconds:.2f} s ({cpu_seconds:.2f} s CPU) | {rows} | "
            f"{peak_mb:.0f} MB peak RSS (of which {baseline / 1024:.0f} MB the interpreter with boardcore) |"
        )


PARTS = {"perft": bench_perft, "reference": bench_reference, "paths": bench_paths, "colour-free": bench_colour_free}


def main() -> int:
    parser = bench_parser(__doc__)
    parser.add_argument("--paths-depths", type=int, nargs="*", default=[10, 15, 20])
    parser.add_argument("--colour-free-depth", type=int, default=40)
    parser.add_argument("--parts", nargs="*", choices=PARTS, default=list(PARTS), help="what to run (default: all)")
    args = parser.parse_args()
    return run_table(args, [PARTS[part] for part in args.parts], "benchmark", "boardcore", "peer / target", "ratio")


if __name__ == "__main__":
    sys.exit(main())
