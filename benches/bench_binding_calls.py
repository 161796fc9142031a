"""The cost of the cheapest calls across the binding: what the stable ABI (abi3) costs, if anything.

    python benches/bench_binding_calls.py [--calls N] [--repeats N]

Times each call's median (microseconds per call) for the boardcore that Python imports, and, with
valgrind on PATH, counts the instructions per call under callgrind (exact where the clock is
noisy). Run it once per build to compare them, e.g. the abi3 wheel against a build without the
`abi3-py310` feature (docs/packaging.md has the numbers).
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import timeit

import boardcore as bc

CALLS = {
    "play + undo": "s.play('c3'); s.undo()",
    "legal_moves": "s.legal_moves()",
    "from_position": "bc.Reversi.from_position(p)",
    "apply_action (copy)": "a.copy().apply_action(19)",
}
SETUP = "import boardcore as bc; s = bc.Reversi(); s.play('d3'); p = s.position(); a = bc.Reversi().actions()"


def median_microseconds(statement: str, calls: int, repeats: int) -> float:
    times = timeit.repeat(statement, SETUP, number=calls, repeat=repeats)
    return statistics.median(times) / calls * 1e6


def instructions(statement: str, calls: int) -> int:
    """Instructions for `calls` runs of `statement`, less those of the same process running none."""

    def collected(n: int) -> int:
        program = f"{SETUP}\nfor _ in range({n}):\n    {statement}"
        out = subprocess.run(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c", program],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": "0"},  # the same dict layouts in both runs
        ).stderr
        return int(out.split("Collected : ")[1].split()[0])

    return (collected(calls) - collected(0)) // calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=9)
    args = parser.parse_args()
    counting = shutil.which("valgrind") is not None
    print(
        f"boardcore {getattr(bc, '__version__', '(no version)')}, extension {bc._boardcore.__file__.rsplit('/', 1)[-1]}\n"
    )
    print("| call | median µs | instructions |" + "\n| --- | ---: | ---: |")
    for name, statement in CALLS.items():
        counted = f"{instructions(statement, args.calls):,}" if counting else "(no valgrind)"
        print(f"| {name} | {median_microseconds(statement, args.calls, args.repeats):.3f} | {counted} |")


if __name__ == "__main__":
    main()
