"""Cephalopod perft through the Python API: known counts, threads, divide."""

import boardcore as bc
import pytest

# Confirmed by the pure-Python reference and by an independent brute-force counter.
EMPTY_3X3 = [1, 9, 72, 504, 3256, 21096, 139856]
EMPTY_5X5 = [1, 25, 600, 13800, 304840]


@pytest.mark.parametrize("depth,count", list(enumerate(EMPTY_3X3)))
def test_empty_3x3_perft(depth, count):
    assert bc.Cephalopod(3, 3).perft(depth) == count


@pytest.mark.parametrize("depth,count", list(enumerate(EMPTY_5X5)))
def test_empty_5x5_perft(depth, count):
    assert bc.Cephalopod().perft(depth) == count


def test_threaded_perft_equals_single_threaded():
    s = bc.Cephalopod()
    assert s.perft(5, threads=2) == s.perft(5) == 6505928


def test_divide_sums_to_perft_in_move_order():
    s = bc.Cephalopod.from_position("3x3 1b1w./.2b./1w.. w")
    parts = s.divide(3)
    assert list(parts) == [str(m) for m in s.legal_moves()]
    assert sum(parts.values()) == s.perft(3)


def test_a_full_board_is_one_leaf():
    s = bc.Cephalopod.from_position("2x2 1b1w/1w1b b")
    assert s.is_over() and s.perft(4) == 1 and s.winner() is None
