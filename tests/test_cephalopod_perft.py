"""Cephalopod perft through the Python API: threads, divide, a finished game."""

import boardcore as bc

# The counts from the empty boards are in tests/data/perft (test_perft_data.py).


def test_threaded_perft_equals_single_threaded():
    s = bc.Cephalopod()
    assert s.perft(5, threads=2) == s.perft(5)


def test_divide_sums_to_perft_in_move_order():
    s = bc.Cephalopod.from_position("3x3 1b1w./.2b./1w.. w")
    parts = s.divide(3)
    assert list(parts) == [str(m) for m in s.legal_moves()]
    assert sum(parts.values()) == s.perft(3)


def test_a_full_board_is_one_leaf():
    s = bc.Cephalopod.from_position("2x2 1b1w/1w1b b")
    assert s.is_over() and s.perft(4) == 1 and s.winner() is None
