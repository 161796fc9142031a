"""Perft of the engine against published counts and independent facts."""

from __future__ import annotations

from pathlib import Path

import boardcore as bc
import pytest

PUBLISHED = Path(__file__).parent / "data" / "reversi_perft_8x8.txt"


def published():
    """(depth, count with passes as plies, count with free passes) from the shared data file."""
    rows = []
    for line in PUBLISHED.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            depth, every, free = (int(x) for x in line.split())
            rows.append((depth, every, free))
    return rows


FAST = [r for r in published() if r[0] <= 11]
DEEP = [r for r in published() if 12 <= r[0] <= 13]


@pytest.mark.parametrize("depth,every,free", FAST)
def test_perft_matches_published_counts(depth, every, free):
    s = bc.Reversi()
    assert s.perft(depth) == every
    assert s.perft(depth, passes_count_as_ply=False) == free


@pytest.mark.slow
@pytest.mark.parametrize("depth,every,free", DEEP)
def test_deep_perft_matches_published_counts(depth, every, free):
    s = bc.Reversi()
    assert s.perft(depth, threads=2) == every
    assert s.perft(depth, threads=2, passes_count_as_ply=False) == free


def test_threaded_perft_equals_single_threaded():
    s = bc.Reversi()
    assert s.perft(10, threads=2) == s.perft(10) == 24571284
    holes = bc.Reversi(blocked=["b2", "g7"])
    assert holes.perft(8, threads=2) == holes.perft(8)


def test_divide_sums_to_perft_and_names_the_moves():
    s = bc.Reversi()
    parts = s.divide(8)
    assert list(parts) == ["d3", "c4", "f5", "e6"]
    assert sum(parts.values()) == 390216
    # The four first moves are symmetric, so each has a quarter of the tree.
    assert len(set(parts.values())) == 1


def test_four_by_four_has_exactly_60060_complete_games():
    assert bc.Reversi(size=4).perft(40) == 60060


def test_perft_zero_is_one_and_a_finished_game_is_one_leaf():
    finished = bc.Reversi.from_position("4 bbbb/bbbb/bbbb/bbbb w")
    assert finished.is_over()
    assert finished.perft(0) == finished.perft(5) == 1
    assert bc.Reversi().perft(0) == 1


def test_a_pass_uses_a_ply_only_by_default():
    # White to move has no placement, Black has one: a pass, then Black's move.
    s = bc.Reversi.from_position("4 bbbb/bbbb/bbbw/bbb. w")
    assert [str(m) for m in s.legal_moves()] == ["pass"]
    assert s.perft(1) == 1
    after = s.copy()
    after.play("pass")
    assert s.perft(1, passes_count_as_ply=False) == after.perft(1) == len(after.legal_moves())
    assert s.perft(2) == after.perft(1)
    assert s.divide(1, passes_count_as_ply=False) == {"pass": after.perft(1)}


def test_the_portable_code_path_gives_the_same_counts():
    """BOARDCORE_PORTABLE=1 forces the code compiled for baseline x86-64 (no AVX2/BMI2)."""
    import os
    import subprocess
    import sys

    script = "import boardcore as bc; s = bc.Reversi(); print(bc.code_path(), s.perft(9), s.perft(9, passes_count_as_ply=False))"
    out = subprocess.run(
        [sys.executable, "-c", script],
        env={**os.environ, "BOARDCORE_PORTABLE": "1"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert out == ["portable", "3005288", "3005320"]
