"""Balanced Reversi 8x8 openings: short random move sequences whose position a fixed-depth search
calls nearly even, for matches between engines (benches/bench_zebra.py).

    python tools/openings.py [--count N] [--plies P] [--seed S] [--depth D] [--window W]

prints one opening a line, its moves separated by spaces (``f5 d6 c3 ...``). The list depends
only on the arguments: the moves are drawn from ``random.Random(seed)`` and each candidate is
judged by a depth-limited ``bc.ai.analyse`` (no time limit), which is deterministic.
"""

from __future__ import annotations

import argparse
import random
import sys

import boardcore as bc


def balanced_openings(
    count: int, plies: int = 8, seed: int = 1, depth: int = 10, window: float = 4.0
) -> list[list[str]]:
    """``count`` distinct openings of ``plies`` random moves from the 8x8 start whose position
    ``bc.ai.analyse(game, depth=depth)`` scores within ``window`` discs of even (for either side).
    Passes are part of a sequence when one is forced; games that end within ``plies`` are skipped,
    and so is a sequence reaching a position already kept (by another move order)."""
    rng = random.Random(seed)
    kept: list[list[str]] = []
    seen: set[str] = set()
    attempts = 0
    while len(kept) < count:
        attempts += 1
        if attempts > 1000 * max(count, 1):
            raise RuntimeError(f"only {len(kept)} balanced openings in {attempts - 1} draws; widen the window")
        game = bc.Reversi()
        moves = []
        for _ in range(plies):
            legal = game.legal_moves()
            if not legal:
                break
            move = rng.choice(legal)
            game.play(move)
            moves.append(str(move))
        if game.is_over() or len(moves) < plies:
            continue
        position = game.position()
        if position in seen:
            continue
        seen.add(position)
        if abs(bc.ai.analyse(game, depth=depth).score) <= window:
            kept.append(moves)
    return kept


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--plies", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--depth", type=int, default=10)
    parser.add_argument("--window", type=float, default=4.0, help="discs either side of even")
    args = parser.parse_args()
    for moves in balanced_openings(args.count, args.plies, args.seed, args.depth, args.window):
        print(" ".join(moves))
    return 0


if __name__ == "__main__":
    sys.exit(main())
