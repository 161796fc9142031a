"""How long every parser takes to reject pathological text (docs/design.md, "Input limits").

    python benches/bench_parsers.py [--repeats N] [--size CHARS]

Prints a Markdown table: one row per input, the median milliseconds of the slowest entry point of
the engine (from_position, from_record, play of every game), of the twin, and of load_record.
The target is under 50 ms for a megabyte; the tests only check that nothing hangs.
"""

from __future__ import annotations

import contextlib

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


def slowest(readers, text, repeats) -> float:
    return max(median_time(rejecting(read, text), repeats) for read in readers) * 1000


def main() -> None:
    parser = bench_parser(__doc__, repeats=5)
    parser.add_argument("--size", type=int, default=1_000_000)
    args = parser.parse_args()
    readers = {"engine": [], "twin": []}
    for side, module in (("engine", bc), ("twin", ref)):
        for name, new in GAMES.items():
            cls = getattr(module, name)
            readers[side] += [cls.from_position, cls.from_record, new(module).play]
    print(f"| input ({args.size:,} characters) | engine, slowest (ms) | twin, slowest (ms) | load_record (ms) |")
    print("| --- | ---: | ---: | ---: |")
    for label, text in inputs(args.size).items():
        engine = slowest(readers["engine"], text, args.repeats)
        twin = slowest(readers["twin"], text, args.repeats)
        load = slowest([bc.load_record], text, args.repeats)
        print(f"| {label} | {engine:.1f} | {twin:.1f} | {load:.1f} |")


if __name__ == "__main__":
    main()
