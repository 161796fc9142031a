"""Colour-free path counting, `count_paths(depth, owners=False)`, and `PathCounts.square_totals()`
(issue 16, items 1 and 3; docs/cephalopod.md).

Which Cephalopod moves exist never depends on who owns the dice or whose turn it is, so the
colour-free count must equal the owner-aware count with every row mapped to its pips and the
counts summed; the engine and its twin must agree on both.
"""

from __future__ import annotations

import random
from collections import Counter

import boardcore as bc
import boardcore.reference as ref
import numpy as np
import pytest


def random_position(rows: int, cols: int, seed: int) -> str:
    """A position of a few dice of any owners and pips (low pips more often, so that captures
    happen), with either side to move; never a full board."""
    rng = random.Random(seed)
    squares = rows * cols
    filled = set(rng.sample(range(squares), rng.randint(0, squares // 2)))
    cells = [
        f"{rng.choice([1, 1, 2, 2, 3, 4, 5, 6])}{rng.choice('bw')}" if i in filled else "." for i in range(squares)
    ]
    lines = ["".join(cells[r * cols : (r + 1) * cols]) for r in range(rows)]
    return f"{rows}x{cols} {'/'.join(lines)} {rng.choice('bw')}"


def summed_by_pips(paths) -> Counter:
    """The owner-aware rows mapped to their pips-only boards, counts summed."""
    merged: Counter = Counter()
    for cells, count in zip(np.abs(paths.cells).tolist(), paths.counts()):
        merged[tuple(cells)] += count
    return merged


def as_mapping(paths) -> dict:
    return {tuple(cells): count for cells, count in zip(paths.cells.tolist(), paths.counts())}


# Board sizes with depths small enough for the twin (2x2 to 5x5), a few random starts each.
CASES = [
    (rows, cols, depth, seed)
    for rows, cols, depth in [(2, 2, 6), (2, 3, 6), (3, 3, 6), (3, 4, 4), (4, 4, 4), (5, 5, 3)]
    for seed in range(3)
]


@pytest.mark.parametrize("rows,cols,depth,seed", CASES)
def test_colour_free_counts_are_owner_aware_counts_summed_over_owners(rows, cols, depth, seed):
    game = bc.Cephalopod.from_position(random_position(rows, cols, seed))
    free = game.count_paths(depth, owners=False)
    assert as_mapping(free) == dict(summed_by_pips(game.count_paths(depth)))
    assert free.total() == game.perft(depth)


@pytest.mark.parametrize("rows,cols,depth,seed", CASES)
def test_colour_free_counts_agree_with_the_twin(rows, cols, depth, seed):
    start = random_position(rows, cols, seed)
    engine = bc.Cephalopod.from_position(start).count_paths(depth, owners=False)
    twin = ref.Cephalopod.from_position(start).count_paths(depth, owners=False)
    # Both sort rows by the pips in board order: the arrays agree as they are.
    assert np.array_equal(engine.cells, twin.cells)
    assert np.array_equal(engine.to_move, twin.to_move)
    assert engine.counts() == twin.counts()
    assert [engine.position(i) for i in range(len(engine))] == [twin.position(i) for i in range(len(twin))]


def test_the_rows_hold_pips_only_and_black_to_move():
    game = bc.Cephalopod.from_position("3x3 1w.2b/.../3w.. w")
    free = game.count_paths(4, owners=False)
    assert free.cells.dtype == np.int8 and free.cells.min() >= 0 and free.cells.max() <= 6
    assert not free.to_move.any()  # no side to move is kept: the rows say Black (0)
    for i in range(len(free)):
        assert "w" not in free.position(i).split()[1] and free.position(i).endswith(" b")


def test_merging_owners_leaves_fewer_rows_on_the_empty_board():
    game = bc.Cephalopod(3, 3)
    aware, free = game.count_paths(8), game.count_paths(8, owners=False)
    assert len(free) < len(aware) and free.total() == aware.total() == game.perft(8)


def test_depth_zero_is_the_start_recoloured():
    free = bc.Cephalopod.from_position("2x2 2w./.3b w").count_paths(0, owners=False)
    assert free.counts() == [1] and free.position(0) == "2x2 2b./.3b b"


@pytest.mark.parametrize("game", ["Reversi", "Rive", "Strands"])
def test_other_games_refuse_owners_false(game):
    for module in (bc, ref):
        position = getattr(module, game)()
        with pytest.raises(ValueError, match="owners=False is for Cephalopod only"):
            position.count_paths(1, owners=False)
        assert len(position.count_paths(1, owners=True)) > 0


@pytest.mark.parametrize("module", [bc, ref])
def test_owners_must_be_a_bool(module):
    with pytest.raises(TypeError):
        module.Cephalopod(2, 2).count_paths(1, owners=None)


def test_boards_over_31_squares_are_refused_owner_aware_and_over_42_colour_free():
    """The owner-aware key is 4 bits a square and 1 for the side to move (31 squares in 128 bits);
    the colour-free key 3 bits a square (42 squares)."""
    for module in (bc, ref):
        with pytest.raises(ValueError, match="31 squares"):
            module.Cephalopod(4, 8).count_paths(1)
        for rows, cols in [(7, 7), (6, 8), (8, 8)]:
            with pytest.raises(ValueError, match="42 squares"):
                module.Cephalopod(rows, cols).count_paths(1, owners=False)
    with pytest.raises(ValueError, match="42 squares"):
        bc.Cephalopod(7, 7).path_totals(1)


@pytest.mark.parametrize(("rows", "cols", "depth"), [(4, 8, 3), (5, 8, 3), (6, 7, 2), (6, 7, 3)])
def test_boards_of_32_to_42_squares_are_counted_colour_free(rows, cols, depth):
    """Past the owner-aware limit the colour-free count holds the board: its total is perft's, its
    rows are the twin's, and its square totals are path_totals'."""
    engine = bc.Cephalopod(rows, cols).count_paths(depth, owners=False)
    assert engine.total() == bc.Cephalopod(rows, cols).perft(depth)
    if depth <= 2 or rows * cols <= 32:  # the twin is slow: 6x7 at depth 3 is the engine's alone
        twin = ref.Cephalopod(rows, cols).count_paths(depth, owners=False)
        assert np.array_equal(engine.cells, twin.cells)
        assert engine.counts() == twin.counts()
    low, high = bc.Cephalopod(rows, cols).path_totals(depth)
    square_low, square_high = engine.square_totals()
    assert np.array_equal(low, square_low) and np.array_equal(high, square_high)


def test_a_start_on_the_last_squares_of_6x7_is_counted_colour_free():
    """Dice on squares 39 and 40 of 42, whose pips sit in the lowest bits of the key."""
    notation = "6x7 ......./......./......./......./......./....1b2w. b"
    engine = bc.Cephalopod.from_position(notation).count_paths(2, owners=False)
    twin = ref.Cephalopod.from_position(notation).count_paths(2, owners=False)
    assert engine.total() == bc.Cephalopod.from_position(notation).perft(2)
    assert np.array_equal(engine.cells, twin.cells)
    assert engine.counts() == twin.counts()


# ---- square totals ---------------------------------------------------------------------------


def exact(low, high) -> list[list[int]]:
    return [[(int(h) << 64) | int(lo) for lo, h in zip(lows, highs)] for lows, highs in zip(low, high)]


def totals_from_rows(paths) -> list[list[int]]:
    totals = [[0] * 7 for _ in range(paths.cells.shape[1])]
    for cells, count in zip(np.abs(paths.cells).tolist(), paths.counts()):
        for square, pips in enumerate(cells):
            totals[square][pips] += count
    return totals


@pytest.mark.parametrize("owners", [True, False])
@pytest.mark.parametrize("rows,cols,depth,seed", CASES[::3])
def test_square_totals_sum_the_rows_and_agree_with_the_twin(rows, cols, depth, seed, owners):
    start = random_position(rows, cols, seed)
    engine = bc.Cephalopod.from_position(start).count_paths(depth, owners=owners)
    twin = ref.Cephalopod.from_position(start).count_paths(depth, owners=owners)
    low, high = engine.square_totals()
    assert low.dtype == high.dtype == np.uint64 and low.shape == (rows * cols, 7)
    assert exact(low, high) == totals_from_rows(engine)
    twin_low, twin_high = twin.square_totals()
    assert np.array_equal(low, twin_low) and np.array_equal(high, twin_high)
    # Every path ends with some pips (maybe none) on every square.
    assert all(sum(row) == engine.total() for row in exact(low, high))


def test_square_totals_of_other_games_count_pieces_as_one():
    paths = bc.Reversi(6).count_paths(3)
    low, high = paths.square_totals()
    assert exact(low, high) == totals_from_rows(paths)
    assert not low[:, 2:].any()


def board_hash_sum(paths) -> int:
    """The statistic of the documented example, from the explicit rows: each final board read as
    a decimal number (square 0 the most significant digit), times its paths, summed."""
    width = paths.cells.shape[1]
    return sum(
        count * sum(pips * 10 ** (width - 1 - s) for s, pips in enumerate(cells))
        for cells, count in zip(np.abs(paths.cells).tolist(), paths.counts())
    )


def test_the_documented_board_sum_example():
    """docs/cephalopod.md, "Totals without listing": the same figures as printed there."""
    paths = bc.Cephalopod.from_position("3x3 .6b./2b2b2b/1b6b1b b").count_paths(20, owners=False)
    low, high = paths.square_totals()
    weights = np.array([[p * 10 ** (8 - s) for p in range(7)] for s in range(9)], dtype=np.uint64)
    # uint64 arithmetic wraps modulo 2**64, so the residue modulo 2**30 is exact.
    residue = int((low * weights).sum() & np.uint64(2**30 - 1))
    exact_sum = sum(t * int(w) for row_t, row_w in zip(exact(low, high), weights) for t, w in zip(row_t, row_w))
    assert exact_sum == board_hash_sum(paths)
    assert residue == exact_sum % 2**30 == 322444322


# ---- symmetry, totals without listing, the wrapping mode, progress (issue 16, items 2-4) ----

SYMMETRY_CASES = [
    (rows, cols, depth, seed)
    for rows, cols, depth in [(2, 2, 7), (3, 3, 7), (2, 4, 6), (3, 4, 5), (4, 4, 4), (3, 5, 4), (4, 5, 3)]
    for seed in range(3)
]


def sorted_rows(paths) -> tuple:
    order = np.lexsort(paths.cells.T[::-1])
    return paths.cells[order], paths.counts_low[order], paths.counts_high[order]


@pytest.mark.parametrize("rows,cols,depth,seed", SYMMETRY_CASES)
def test_merging_by_symmetry_changes_nothing_in_the_result(rows, cols, depth, seed):
    """Counted over the board's symmetry orbits or position by position: identical arrays."""
    game = bc.Cephalopod.from_position(random_position(rows, cols, seed))
    with_symmetry = game.count_paths(depth, owners=False)
    without = game.count_paths(depth, owners=False, symmetry=False)
    for a, b in zip(sorted_rows(with_symmetry), sorted_rows(without)):
        np.testing.assert_array_equal(a, b)
    # Rows come sorted by board (square 0 first) either way.
    np.testing.assert_array_equal(with_symmetry.cells, without.cells)


@pytest.mark.parametrize("rows,cols,depth,seed", SYMMETRY_CASES[::2])
def test_path_totals_are_the_square_totals_of_every_count(rows, cols, depth, seed):
    """Totals without listing equal the totals of the listed rows, colour-free or owner-aware,
    with or without symmetry, and the twin's."""
    position = random_position(rows, cols, seed)
    game = bc.Cephalopod.from_position(position)
    expected = game.count_paths(depth).square_totals()
    for symmetry in (True, False):
        for got in (game.path_totals(depth, symmetry=symmetry), game.count_paths(depth, owners=False).square_totals()):
            np.testing.assert_array_equal(got[0], expected[0])
            np.testing.assert_array_equal(got[1], expected[1])
    if depth <= 5:
        twin = ref.Cephalopod.from_position(position).path_totals(depth)
        np.testing.assert_array_equal(twin[0], expected[0])
        np.testing.assert_array_equal(twin[1], expected[1])


def test_counts_past_2_to_the_64_are_exact_and_wrapping_gives_them_modulo_2_to_the_64():
    game = bc.Cephalopod(3, 3)
    exact = game.count_paths(30, owners=False)
    assert max(exact.counts()) > 2**64  # single counts pass 2**64: the exact count widens
    wrapped = game.count_paths(30, owners=False, wrapping=True)
    kept = [(cells, count % 2**64) for cells, count in zip(exact.cells.tolist(), exact.counts()) if count % 2**64]
    assert list(zip(wrapped.cells.tolist(), wrapped.counts())) == kept
    assert not wrapped.counts_high.any()
    low, high = game.path_totals(30)
    assert high.any()
    wrapped_low, wrapped_high = game.path_totals(30, wrapping=True)
    np.testing.assert_array_equal(wrapped_low, low)
    assert not wrapped_high.any()


@pytest.mark.parametrize("module", [bc, ref])
def test_the_owner_aware_count_wraps_the_same_way(module):
    game = module.Cephalopod.from_position("2x3 .1w./... b")
    exact, wrapped = game.count_paths(6), game.count_paths(6, wrapping=True)
    assert wrapped.counts() == [c % 2**64 for c in exact.counts()] == exact.counts()


@pytest.mark.parametrize("module", [bc, ref])
@pytest.mark.parametrize("owners", [True, False])
def test_progress_is_told_after_every_ply(module, owners):
    told = []
    module.Cephalopod(3, 3).count_paths(4, owners=owners, progress=lambda *args: told.append(args))
    assert [ply for ply, _, _ in told] == [1, 2, 3, 4]
    assert {depth for _, depth, _ in told} == {4}
    assert all(positions > 0 for _, _, positions in told)


@pytest.mark.parametrize("module", [bc, ref])
def test_an_exception_in_progress_stops_the_count_and_changes_nothing(module):
    game = module.Cephalopod.from_position("3x3 1b../.../... w")
    before = game.position()

    def give_up(ply, depth, positions):
        if ply == 2:
            raise KeyboardInterrupt("enough")

    with pytest.raises(KeyboardInterrupt, match="enough"):
        game.count_paths(8, owners=False, progress=give_up)
    with pytest.raises(KeyboardInterrupt, match="enough"):
        game.path_totals(8, progress=give_up)
    assert game.position() == before


@pytest.mark.parametrize("module", [bc, ref])
@pytest.mark.parametrize(
    "kwargs,error",
    [
        ({"progress": 3}, TypeError),
        ({"symmetry": 1}, TypeError),
        ({"wrapping": None}, TypeError),
    ],
)
def test_bad_count_options_are_refused_before_any_work(module, kwargs, error):
    with pytest.raises(error):
        module.Cephalopod(3, 3).count_paths(3, owners=False, **kwargs)
    with pytest.raises(error):
        module.Cephalopod(3, 3).path_totals(3, **kwargs)


def test_the_board_sum_statistic_from_path_totals_matches_the_listed_rows():
    """docs/cephalopod.md: the sum of final boards read as 9-digit numbers, from totals alone."""
    game = bc.Cephalopod.from_position("3x3 6b.1b/.../1b.6b b")
    low, _high = game.path_totals(16)
    weights = np.array([[p * 10 ** (8 - s) for p in range(7)] for s in range(9)], dtype=np.uint64)
    residue = int((low * weights).sum() & np.uint64(2**30 - 1))
    assert residue == board_hash_sum(game.count_paths(16, owners=False)) % 2**30


def test_a_progress_callback_may_play_on_the_game_being_counted():
    """The count works on a copy of the position: the game is free while the GIL is released."""
    game = bc.Cephalopod(3, 3)
    expected = game.path_totals(6)
    got = game.path_totals(6, progress=lambda ply, depth, positions: game.play(game.legal_moves()[0]))
    np.testing.assert_array_equal(got[0], expected[0])
    assert len(game.history) == 6


def test_wrapping_rows_never_hold_a_zero_count():
    for position in ("3x3 1b.1b/.../1b.1b b", "2x2 ../.. b"):
        assert 0 not in bc.Cephalopod.from_position(position).count_paths(12, owners=False, wrapping=True).counts()


@pytest.mark.parametrize("module", [bc, ref])
def test_a_bad_flag_is_reported_before_a_bad_depth_as_the_engine_does(module):
    with pytest.raises(TypeError):
        module.Cephalopod(3, 3).count_paths(-1, owners=False, symmetry=1)
    with pytest.raises(ValueError):
        module.Cephalopod(3, 3).count_paths(-1, owners=False, progress=3)


def test_the_twins_path_counts_keep_128_bits_and_refuse_more():
    """Both twin PathCounts classes store a count in two 64-bit halves, through the one helper the
    Cephalopod class inherits; 2**128 and more is an OverflowError, as in the engine."""
    from boardcore.reference import _game
    from boardcore.reference import cephalopod as twin

    empty = (None,) * 4
    largest = 2**128 - 1
    builders = [
        lambda count: twin.PathCounts._of_dice(2, 2, {(empty, 0): count}),
        lambda count: _game.PathCounts._build(ref.Reversi, {ref.Reversi(4).position(): count}),
    ]
    for build in builders:
        counts = build(largest)
        assert counts.counts() == [largest] and counts.total() == largest
        assert isinstance(counts, _game.PathCounts)
        with pytest.raises(OverflowError, match=r"2\*\*128"):
            build(largest + 1)
