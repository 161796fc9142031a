"""A small speed-regression set for pytest-benchmark: perft, random playouts and one search,
one per game where it matters, each checked for its answer too (a faster wrong answer is no
improvement).

    pytest benches/regression --benchmark-autosave                      # record a baseline
    pytest benches/regression --benchmark-compare --benchmark-compare-fail=median:15%

The second run compares with the newest saved run (in .benchmarks/, not committed) and fails
when a median is 15% slower. It is a tool for a change's author on one machine, run before and
after the change: timings are never asserted in the test suite (tests/), and the test suite's
`pytest` does not collect this folder.
"""

from __future__ import annotations

from pathlib import Path

import boardcore as bc
import pytest
from boardcore._games import GAMES

PERFT_DATA = Path(__file__).resolve().parents[2] / "tests" / "data" / "perft"


def first_position(file: str, depth: int) -> tuple[object, int]:
    """The game at the first position of a perft data file (tests/data/perft, named
    ``GAME-BOARD.txt``) and its published count at ``depth``."""
    engine = GAMES[file.split("-")[0]].engine
    rows = [[f.strip() for f in line.split(";")] for line in (PERFT_DATA / file).read_text().splitlines()]
    rows = [row for row in rows if len(row) >= 3 and not row[0].startswith("#")]
    count = next(int(row[2]) for row in rows if row[0] == rows[0][0] and int(row[1]) == depth)
    return engine.from_position(rows[0][0]), count


@pytest.mark.parametrize(
    "file,depth",
    [("reversi-8x8.txt", 8), ("cephalopod-5x5.txt", 4), ("rive-hex3.txt", 3), ("strands-hex4-up-to.txt", 2)],
)
def test_perft(benchmark, file, depth):
    game, count = first_position(file, depth)
    assert benchmark(game.perft, depth) == count


@pytest.mark.parametrize("name", GAMES)
def test_random_playouts(benchmark, name):
    game = GAMES[name].engine()
    result = benchmark(game.playouts, 200, seed=1)
    assert result == game.playouts(200, seed=1)  # seeded: the same games every round


def test_alpha_beta_search_reversi_depth_7(benchmark):
    game = bc.Reversi()
    analysis = benchmark(bc.ai.analyse, game, depth=7, threads=1)
    assert analysis.depth == 7 and game.is_legal(analysis.move)
