"""Reversi benchmarks: boardcore against its peers, as ratios measured in one run.

    python benches/bench_reversi.py            # everything whose peer is installed
    EDAX=/path/to/lEdax python benches/bench_reversi.py --only edax

Peers are installed or built outside this repository (see benches/README.md):
- Edax: set EDAX to its binary (run from its own directory, which holds data/).
- OpenSpiel: `pip install open_spiel`.
Every figure is the median of --repeats runs; the machine is shared, so read the ratios.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import boardcore as bc
import boardcore.reference as ref
from _timing import bench_parser, median_time, perft_rates, run_table

ROOT = Path(__file__).resolve().parent.parent


def row(name: str, ours: float, theirs: float | None, unit: str, note: str = "") -> None:
    if theirs:
        print(f"| {name} | {ours:,.0f} {unit} | {theirs:,.0f} {unit} | **{ours / theirs:.2f}x** | {note} |")
    else:
        print(f"| {name} | {ours:,.0f} {unit} | - | - | {note} |")


def edax_perft(binary: str, depth: int) -> tuple[int, float]:
    """Edax's console `perft D` (count_games, no hash table), single thread.

    Edax walks and times each ply 1..D separately; its `moves` column counts only sequences of
    exactly D plies, so games that ended earlier (its wins/draws/losses columns) are added to
    match the perft convention. Returns (leaves, CPU seconds of the depth-D walk).
    """
    out = subprocess.run(
        [binary, "-n", "1"],
        input=f"perft {depth}\n",
        text=True,
        capture_output=True,
        cwd=Path(binary).resolve().parent.parent,
        check=True,
    ).stdout
    ended, leaves, seconds = 0, None, None
    for line in out.splitlines():
        cols = [c.strip() for c in line.split(",")]
        if len(cols) < 9 or not cols[0].isdigit():
            continue
        ended += int(cols[3]) + int(cols[4]) + int(cols[5])
        if int(cols[0]) == depth:
            minutes, secs = cols[7].split(":")
            leaves, seconds = int(cols[1]) + ended, int(minutes) * 60 + float(secs)
    if leaves is None:
        raise RuntimeError(f"could not read Edax's output:\n{out}")
    return leaves, seconds


def bench_edax(args) -> None:
    start = bc.Reversi()
    binary = os.environ.get("EDAX")
    for depth in (11, 12):
        leaves = start.perft(depth)
        ours = leaves / median_time(lambda: start.perft(depth), args.repeats)
        theirs = None
        if binary:
            runs = [edax_perft(binary, depth) for _ in range(args.repeats)]
            assert all(n == leaves for n, _ in runs), (runs, leaves)
            theirs = leaves / statistics.median(s for _, s in runs)
        row(f"perft({depth}) 8x8, 1 thread, vs Edax (no hash)", ours, theirs, "leaves/s")


def bench_threads(args) -> None:
    start = bc.Reversi()
    one = median_time(lambda: start.perft(12), args.repeats)
    two = median_time(lambda: start.perft(12, threads=2), args.repeats)
    print(f"| perft(12), threads=2 vs threads=1 | {two:.2f} s | {one:.2f} s | **{one / two:.2f}x** | |")


def bench_merged(args) -> None:
    """perft with transpositions merged (split_depth) against plain perft, same threads, same run
    (issue 15: the target is 2x at depths 13 and 14). MERGED_DEPTH sets the depth (default 12);
    past 13 only "auto" is timed. Plain and merged runs alternate, so that the machine's load
    falls on both alike, and every run's count is checked against the others."""
    start = bc.Reversi()
    depth = int(os.environ.get("MERGED_DEPTH", "12"))
    splits = ("auto", 7, 8) if depth <= 13 else ("auto",)
    times: dict[object, list[float]] = {split: [] for split in (0, *splits)}
    counts = set()
    for _ in range(args.repeats):
        for split in times:
            began = time.perf_counter()
            counts.add(start.perft(depth, threads=2, split_depth=split))
            times[split].append(time.perf_counter() - began)
    assert len(counts) == 1, counts
    (leaves,) = counts
    plain = statistics.median(times[0])
    for split in splits:
        merged = statistics.median(times[split])
        print(
            f"| perft({depth}) 8x8 = {leaves:,}, threads=2, split_depth={split!r} vs plain "
            f"| {merged:.2f} s | {plain:.2f} s | **{plain / merged:.2f}x** | |"
        )


def bench_variant_cost(args) -> None:
    """The plain 8x8 frame against the frame that supports holes and small boards."""
    subprocess.run(["cargo", "build", "--quiet", "--release", "--example", "perft"], cwd=ROOT, check=True)
    binary = ROOT / "target" / "release" / "examples" / "perft"

    def rate(*extra: str) -> float:
        rates = []
        for _ in range(args.repeats):
            out = subprocess.run([binary, "11", *extra], capture_output=True, text=True, check=True).stdout.split()
            rates.append(float(out[out.index("leaves/s") + 1]))
        return statistics.median(rates)

    classic, generic = rate(), rate("generic")
    print(
        f"| perft(11) plain 8x8 frame vs variant frame (Rust) | {classic:,.0f} | {generic:,.0f} | "
        f"variant support costs **{(classic / generic - 1) * 100:.1f}%** | |"
    )


def walk(state, depth: int) -> int:
    """A perft driven from Python through the public API."""
    if depth == 0:
        return 1
    moves = state.legal_moves()
    if not moves:
        return 1
    leaves = 0
    for move in moves:
        state.play(move)
        leaves += walk(state, depth - 1)
        state.undo()
    return leaves


def openspiel_walk(state, depth: int) -> int:
    if depth == 0 or state.is_terminal():
        return 1
    leaves = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        leaves += openspiel_walk(child, depth - 1)
    return leaves


def bench_openspiel(args) -> None:
    depth = 7
    ours = 55092 / median_time(lambda: walk(bc.Reversi(), depth), args.repeats)
    theirs = None
    try:
        import pyspiel
    except ImportError:
        pyspiel = None
    if pyspiel is not None:
        root = pyspiel.load_game("othello").new_initial_state()
        assert openspiel_walk(root, depth) == 55092
        theirs = 55092 / median_time(lambda: openspiel_walk(root, depth), args.repeats)
    row(
        f"Python-driven tree walk, depth {depth}, vs OpenSpiel othello",
        ours,
        theirs,
        "leaves/s",
        "legal_moves/play/undo vs legal_actions/clone/apply_action",
    )


def bench_reference(args) -> None:
    depth = 6
    engine, reference = bc.Reversi(), ref.Reversi()
    _, ours, theirs = perft_rates(engine, reference, depth, args.repeats)
    row(f"perft({depth}) engine vs pure-Python reference", ours, theirs, "leaves/s")


BENCHES = {
    "edax": bench_edax,
    "threads": bench_threads,
    "merged": bench_merged,
    "variant": bench_variant_cost,
    "openspiel": bench_openspiel,
    "reference": bench_reference,
}


def main() -> int:
    parser = bench_parser(__doc__)
    parser.add_argument("--only", choices=sorted(BENCHES), action="append")
    args = parser.parse_args()
    sections = [BENCHES[name] for name in args.only or BENCHES]
    python = f"; python {sys.version.split()[0]}"
    return run_table(args, sections, "benchmark", "boardcore", "peer", "ratio", "note", code_path_note=python)


if __name__ == "__main__":
    sys.exit(main())
