"""Perft of the engine against published counts and independent facts."""

from __future__ import annotations

import boardcore as bc
from perft_data import perft_entries

# The published counts are in tests/data/perft/reversi-8x8.txt, checked by test_perft_data.py.
START_8 = bc.Reversi().position()


def published(depth: int):
    """(count with passes as plies, count with free passes) of the 8x8 start from the data file."""
    (entry,) = [e for e in perft_entries() if e.position == START_8 and e.depth == depth]
    return entry.leaves, entry.free


def test_threaded_perft_equals_single_threaded():
    s = bc.Reversi()
    assert s.perft(10, threads=2) == s.perft(10) == published(10)[0]
    holes = bc.Reversi(blocked=["b2", "g7"])
    assert holes.perft(8, threads=2) == holes.perft(8)


def test_divide_sums_to_perft_and_names_the_moves():
    s = bc.Reversi()
    parts = s.divide(8)
    assert list(parts) == ["d3", "c4", "f5", "e6"]
    assert sum(parts.values()) == published(8)[0]
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
    assert out == ["portable", *map(str, published(9))]
