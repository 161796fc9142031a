"""Cephalopod path counting on the 3x3 puzzle workload (issue 16), against public fastest-code peers.

    CEPHALOPOD_PEERS="name=/path/to/bin,name2=/path/to/bin2" \\
        python benches/bench_cephalopod_paths.py [--repeats N] [--cases PATH] [--only c01 c05] \\
        [--lookup-peers NAME ...]

The workload is CodinGame's Spring Challenge 2025 puzzle (Cephalopod on a 3x3 board): given a depth
and a board of pips, the sum over every sequence of at most `depth` moves (fewer when the board
fills) of the final board read as a 9-digit decimal number, modulo 2**30. The twelve cases are
benches/data/cephalopod_paths_cases.txt, in the puzzle's input format; every peer binary reads one
case on stdin and prints the answer (benches/README.md says where the peers come from and how to
build them, outside this repository).

boardcore answers each case through its Python API, timed end to end: `Cephalopod.from_position`,
`path_totals(depth)` (colour-free, over the board's symmetries, the final boards never listed:
per square and pips, the number of paths ending so), then a numpy reduction of the totals to the
answer. It is timed twice: with exact counts (the default) and with `wrapping=True` (counts modulo
2**64, the documented mode for callers who need only a residue, as the puzzle does). The puzzle's
dice have no owners; boardcore's positions do. Which moves exist never depends on owners or the
side to move, so the sequences of moves (and the pips of each final board) are the same whatever
owners the start is given: every start die is Black's and Black moves first. Every figure is the
median of --repeats runs (peers: wall time of the process, its start included); the answers must
agree. Peers named with --lookup-peers (a solution that embeds precomputed answers for some
starts) are timed and shown but not counted as the fastest peer: a table lookup measures nothing
about counting.
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import boardcore as bc
import numpy as np
from _timing import bench_parser, median_time, table_head

CASES = Path(__file__).resolve().parent / "data" / "cephalopod_paths_cases.txt"
MODULUS_MASK = (1 << 30) - 1
# Square i of the board (row-major) is digit 8 - i of the 9-digit number.
DIGIT_WEIGHTS = np.array([10 ** (8 - square) for square in range(9)], dtype=np.uint64)
PIP_VALUES = np.arange(7, dtype=np.uint64)
MODES = {"boardcore": False, "boardcore mod 2**64": True}  # column: wrapping


def read_cases(path: Path) -> list[tuple[str, int, list[int]]]:
    """(name, depth, pips in board order) per case: blocks separated by blank lines, each a depth
    line and three lines of three pips; a comment `# NAME: ...` just before a block names it."""
    cases: list[tuple[str, int, list[int]]] = []
    numbers: list[int] = []
    name = ""
    for line in path.read_text().splitlines() + [""]:
        text = line.strip()
        if text.startswith("#"):
            if ":" in text:
                name = text[1:].split(":", 1)[0].strip()
            continue
        if text:
            numbers.extend(int(token) for token in text.split())
        elif numbers:
            if len(numbers) != 10 or not all(0 <= pips <= 6 for pips in numbers[1:]):
                raise ValueError(f"{path}: case {name or len(cases) + 1} is not a depth and nine pips 0-6")
            cases.append((name or f"case{len(cases) + 1}", numbers[0], numbers[1:]))
            numbers, name = [], ""
    return cases


def puzzle_input(depth: int, pips: list[int]) -> str:
    rows = (" ".join(map(str, pips[row * 3 : row * 3 + 3])) for row in range(3))
    return f"{depth}\n" + "\n".join(rows) + "\n"


def position_text(pips: list[int]) -> str:
    """The start in boardcore's notation: every die Black's, Black to move (owners never change
    which moves exist, so they do not change the puzzle's answer)."""
    rows = ("".join(f"{p}b" if p else "." for p in pips[row * 3 : row * 3 + 3]) for row in range(3))
    return "3x3 " + "/".join(rows) + " b"


def boardcore_answer(depth: int, pips: list[int], wrapping: bool) -> int:
    """The puzzle's answer from boardcore's path totals: `T[s, p]` paths end with `p` pips on
    square `s`, so the sum of final boards read as decimal numbers is the sum of `T[s, p] * p *
    10**(8 - s)`. The low 64 bits of each total are enough, since 2**30 divides 2**64: numpy's
    uint64 products and sums wrap modulo 2**64, which keeps the residue."""
    low, _high = bc.Cephalopod.from_position(position_text(pips)).path_totals(depth, wrapping=wrapping)
    boards = (low * PIP_VALUES).sum(axis=1, dtype=np.uint64) * DIGIT_WEIGHTS
    return int(boards.sum(dtype=np.uint64) & np.uint64(MODULUS_MASK))


def peers_from(text: str) -> dict[str, Path]:
    peers = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, sep, path = item.partition("=")
        if not sep or not Path(path).is_file():
            raise SystemExit(f"CEPHALOPOD_PEERS: {item!r} is not name=/path/to/an/existing/binary")
        peers[name.strip()] = Path(path)
    return peers


def run_peer(binary: Path, stdin: str, timeout: float) -> tuple[float, int]:
    started = time.perf_counter()
    done = subprocess.run([str(binary)], input=stdin, capture_output=True, text=True, check=True, timeout=timeout)
    return time.perf_counter() - started, int(done.stdout.split()[0])


def time_peer(binary: Path, stdin: str, repeats: int, timeout: float) -> tuple[float, int] | None:
    """The median time and the answer, or None if a run takes longer than `timeout` seconds."""
    try:
        runs = [run_peer(binary, stdin, timeout) for _ in range(repeats)]
    except subprocess.TimeoutExpired:
        return None
    answers = {answer for _, answer in runs}
    if len(answers) != 1:
        raise SystemExit(f"{binary} gave different answers on the same case: {sorted(answers)}")
    return sorted(seconds for seconds, _ in runs)[len(runs) // 2], answers.pop()


def main() -> None:
    parser = bench_parser(__doc__ or "")
    parser.add_argument("--cases", type=Path, default=CASES)
    parser.add_argument("--only", nargs="*", default=None, help="case names (default: all)")
    parser.add_argument("--peers", default=os.environ.get("CEPHALOPOD_PEERS", ""), help="name=/path,...")
    parser.add_argument("--lookup-peers", nargs="*", default=[], help="peers that embed answers (not ranked)")
    parser.add_argument("--peer-timeout", type=float, default=120.0, help="seconds a peer may take on one case")
    args = parser.parse_args()
    peers = peers_from(args.peers)
    cases = [case for case in read_cases(args.cases) if args.only is None or case[0] in args.only]
    table_head(
        "case", "depth", "dice", "answer", *(f"{mode} (s)" for mode in MODES), *(f"{name} (s)" for name in peers)
    )
    totals = dict.fromkeys([*MODES, *peers], 0.0)
    for name, depth, pips in cases:
        cells, answers = [], {}
        for mode, wrapping in MODES.items():
            answers[mode] = boardcore_answer(depth, pips, wrapping)
            seconds = median_time(lambda: boardcore_answer(depth, pips, wrapping), args.repeats)
            totals[mode] += seconds
            cells.append(f"{seconds:.3f}")
        for peer, binary in peers.items():
            timed = time_peer(binary, puzzle_input(depth, pips), args.repeats, args.peer_timeout)
            if timed is None:  # too slow to wait for: the peer's total is then unknown (infinite)
                totals[peer] = float("inf")
                cells.append(f"> {args.peer_timeout:g}")
                continue
            seconds, answers[peer] = timed
            totals[peer] += seconds
            cells.append(f"{seconds:.3f}")
        if len(set(answers.values())) != 1:
            raise SystemExit(f"{name}: the answers disagree: {answers}")
        dice = sum(1 for p in pips if p)
        print(f"| {name} | {depth} | {dice} | {next(iter(answers.values()))} | " + " | ".join(cells) + " |")
    print("| total | | | | " + " | ".join(f"**{seconds:.3f}**" for seconds in totals.values()) + " |")
    print("(a peer over --peer-timeout on a case has no total: inf)")
    ranked = [peer for peer in peers if peer not in args.lookup_peers]
    if ranked:
        fastest = min(ranked, key=lambda peer: totals[peer])
        for mode in MODES:
            ratio = totals[fastest] / max(totals[mode], 1e-9)
            print(f"{mode}: **{ratio:.2f}x** the speed of the fastest computing peer ({fastest}); above 1 is faster")


if __name__ == "__main__":
    main()
