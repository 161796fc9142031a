"""How long every parser takes to reject pathological text (docs/design.md, "Input limits").

    python benches/bench_parsers.py [--repeats N] [--size CHARS] [--cpu]

Prints a Markdown table: one row per input, the median milliseconds of the slowest entry point of
the engine (from_position, from_record, play of every game), of the twin, and of load_record.
The target is under 50 ms for a megabyte; the tests only check that nothing hangs. With --cpu the
figures are the process's CPU time instead of wall time: on a shared, overloaded machine wall time
mostly measures the wait for a core.
"""

from __future__ import annotations

import contextlib
import statistics
import time

import boardcore as bc
import boardcore.reference as ref
from _timing import bench_parser, median_time

GAMES = {
    "Reversi": lambda m: m.Reversi(),
    "Cephalopod": lambda m: m.Cephalopod(),
    "Rive": lambda m: m.Rive(board="hex3"),
    "Strands": lambda m: m.Strands("hex4"),
}


def inputs(size: int) -> dict[str, str]:
    return {
        "garbage": "".join(chr(32 + (i * 7919) % 95) for i in range(size)),
        "line feeds": "\n" * size,
        "carriage returns": "\r" * size,
        "tags": '[Game "reversi"]\n' + "".join(f'[T{i} "x"]\n' for i in range(size // 11)),
        "moves": '[Game "reversi"]\n[Board "8"]\n\n' + "d3 " * (size // 3),
        "a long tag value": '[Game "' + "x" * size,
        "repeated cells": "c3x" + ",".join(["a1"] * (size // 3)),
        "repeated rows": "8 " + "/" * size + " b",
    }


def rejecting(read, text):
    def run():
        with contextlib.suppress(ValueError):
            read(text)

    return run


def median_cpu_time(run, repeats: int) -> float:
    """The median CPU time of ``repeats`` calls of ``run()``, in seconds."""
    times = []
    for _ in range(repeats):
        started = time.process_time()
        run()
        times.append(time.process_time() - started)
    return statistics.median(times)


def slowest(readers, text, repeats, timer=median_time) -> float:
    return max(timer(rejecting(read, text), repeats) for read in readers) * 1000


def main() -> None:
    parser = bench_parser(__doc__, repeats=5)
    parser.add_argument("--size", type=int, default=1_000_000)
    parser.add_argument("--cpu", action="store_true", help="time CPU, not wall clock")
    args = parser.parse_args()
    timer = median_cpu_time if args.cpu else median_time
    readers = {"engine": [], "twin": []}
    for side, module in (("engine", bc), ("twin", ref)):
        for name, new in GAMES.items():
            cls = getattr(module, name)
            readers[side] += [cls.from_position, cls.from_record, new(module).play]
    clock = "CPU ms" if args.cpu else "ms"
    print(
        f"| input ({args.size:,} characters) | engine, slowest ({clock}) | twin, slowest ({clock}) | load_record ({clock}) |"
    )
    print("| --- | ---: | ---: | ---: |")
    for label, text in inputs(args.size).items():
        engine = slowest(readers["engine"], text, args.repeats, timer)
        twin = slowest(readers["twin"], text, args.repeats, timer)
        load = slowest([bc.load_record], text, args.repeats, timer)
        print(f"| {label} | {engine:.1f} | {twin:.1f} | {load:.1f} |")


if __name__ == "__main__":
    main()
