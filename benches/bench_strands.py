"""Strands benchmarks: random playouts and perft, against the reference.

    python benches/bench_strands.py [--repeats N] [--playouts N]

Every figure is the median of --repeats runs; ratios are taken in the same run. For scale, the
Ai Ai engine reports about 89,000 playouts per second for this game (a published figure, not
measured here).
"""

from __future__ import annotations

import sys

import boardcore as bc
import boardcore.reference as ref
from _timing import bench_parser, median_time, perft_rates, run_table


def bench_playouts(args) -> None:
    engine, reference = bc.Strands(), ref.Strands()
    n = args.playouts
    ours = n / median_time(lambda: engine.playouts(n, seed=1), args.repeats)
    few = 3
    theirs = few / median_time(lambda: reference.playouts(few, seed=1), args.repeats)
    assert engine.playouts(few, seed=1) == reference.playouts(few, seed=1)
    print(
        f"| uniform random playouts from the hex6 start, 1 thread | {ours:,.0f} /s | {theirs:,.1f} /s | "
        f"**{ours / theirs:,.0f}x** (target 500,000 /s) |"
    )
    two = n / median_time(lambda: engine.playouts(n, seed=1, threads=2), args.repeats)
    print(f"| random playouts, threads=2 vs 1 | {two:,.0f} /s | | **{two / ours:.2f}x** |")


def bench_perft(args) -> None:
    engine, reference = bc.Strands("hex5"), ref.Strands("hex5")
    depth = 2
    leaves, ours, theirs = perft_rates(engine, reference, depth, args.repeats)
    print(
        f"| perft({depth}) hex5 ({leaves:,} leaves) | {ours / 1e6:,.1f} M leaves/s | {theirs / 1e3:,.1f} k leaves/s | "
        f"**{ours / theirs:,.0f}x** |"
    )
    s = bc.Strands()
    s.play(s.legal_moves()[0])
    count = median_time(s.count_moves, 7)
    listed = median_time(s.legal_moves, args.repeats)
    print(
        f"| White's first turn on hex6 ({s.count_moves():,} moves) | counted in {count * 1e6:.1f} us | "
        f"listed as Python objects in {listed * 1e3:.0f} ms | |"
    )


def main() -> int:
    parser = bench_parser(__doc__)
    parser.add_argument("--playouts", type=int, default=50_000)
    return run_table(parser.parse_args(), [bench_playouts, bench_perft], "benchmark", "boardcore", "reference", "ratio")


if __name__ == "__main__":
    sys.exit(main())
