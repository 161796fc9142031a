"""The Cephalopod engine against the pure-Python reference: random games, set-up positions full
of low pips (where captures of three and four dice happen), perft and merged path counts."""

from __future__ import annotations

import random

import boardcore as bc
import boardcore.reference as ref
import harness
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

SIZES = [(2, 2), (2, 5), (3, 3), (3, 5), (4, 4), (5, 5), (6, 4), (8, 8)]


@pytest.mark.parametrize("rows,cols", SIZES, ids=[f"{r}x{c}" for r, c in SIZES])
def test_random_games_agree_move_by_move(rows, cols):
    rng = random.Random(rows * 10 + cols)
    games = 12 if rows * cols <= 25 else 3
    for _ in range(games):
        harness.play_random_game(bc.Cephalopod(rows, cols), ref.Cephalopod(rows, cols), rng, "rows", "cols")


def low_pip_position(rng: random.Random, rows: int, cols: int, fill: float = 0.6) -> str:
    """Dice showing 1 or 2 on most squares: many capture sets of three and four dice."""
    lines = []
    for _ in range(rows):
        cells = []
        for _ in range(cols):
            if rng.random() < fill:
                cells.append(f"{rng.choice('1112')}{rng.choice('bw')}")
            else:
                cells.append(".")
        lines.append("".join(cells))
    return f"{rows}x{cols} {'/'.join(lines)} {rng.choice('bw')}"


def test_low_pip_positions_agree_and_have_big_captures():
    rng = random.Random(3)
    sizes_of_captures = set()
    for _ in range(150):
        rows, cols = rng.choice(SIZES[2:])
        text = low_pip_position(rng, rows, cols)
        engine, reference = bc.Cephalopod.from_position(text), ref.Cephalopod.from_position(text)
        harness.assert_same_state(engine, reference)
        sizes_of_captures.update(len(m.captures) for m in engine.legal_moves())
        if not engine.is_over():
            assert engine.perft(2) == reference.perft(2)
            harness.play_random_game(engine, reference, rng, max_moves=12)
    assert {0, 2, 3, 4} <= sizes_of_captures


@pytest.mark.parametrize("rows,cols,depth", [(2, 2, 6), (3, 3, 4), (3, 5, 3), (5, 5, 3)])
def test_shallow_perft_and_divide_agree(rows, cols, depth):
    engine, reference = bc.Cephalopod(rows, cols), ref.Cephalopod(rows, cols)
    assert engine.perft(depth) == reference.perft(depth)
    assert engine.divide(depth) == reference.divide(depth)


def assert_same_paths(a, b) -> None:
    assert len(a) == len(b)
    assert np.array_equal(a.cells, b.cells)
    assert np.array_equal(a.to_move, b.to_move)
    assert a.counts() == b.counts()
    assert np.array_equal(a.counts_low, b.counts_low) and np.array_equal(a.counts_high, b.counts_high)
    assert [a.position(i) for i in range(len(a))] == [b.position(i) for i in range(len(b))]


@pytest.mark.parametrize(
    "start,depth",
    [("2x2 ../.. b", 14), ("3x3 .../.../... b", 6), ("3x3 1b.1w/.../1w.1b w", 6), ("3x4 ..../.1b1w./.... b", 5)],
)
def test_merged_path_counts_agree_with_the_reference(start, depth):
    assert_same_paths(
        bc.Cephalopod.from_position(start).count_paths(depth), ref.Cephalopod.from_position(start).count_paths(depth)
    )


@pytest.mark.parametrize("depth", range(0, 9))
def test_merged_path_total_equals_the_tree_walk(depth):
    s = bc.Cephalopod(3, 3)
    paths = s.count_paths(depth)
    assert paths.total() == s.perft(depth) == sum(paths.counts())
    counts = [(int(h) << 64) | int(l) for h, l in zip(paths.counts_high, paths.counts_low)]
    assert counts == paths.counts()


def test_merging_keeps_one_row_per_distinct_position():
    paths = bc.Cephalopod(3, 3).count_paths(3)
    assert len(paths) == 261 and paths.total() == 504  # 9*8*7 paths, transpositions merged
    assert len(set(paths.position(i) for i in range(len(paths)))) == 261


def test_a_finished_game_ends_its_sequences_early():
    # One empty square and no capture there: every sequence ends after one move.
    s = bc.Cephalopod.from_position("2x2 6b6w/6w. b")
    paths = s.count_paths(5)
    assert len(paths) == 1 and paths.counts() == [1] and paths.position(0) == "2x2 6b6w/6w1b w"


@pytest.mark.slow
def test_totals_beyond_64_bits_are_exact():
    """At depth 25 on 3x3 the paths number more than 2**64 (spread over millions of positions;
    a single count past 2**64 is checked in the Rust tests, on a toy game)."""
    s = bc.Cephalopod(3, 3)
    paths = s.count_paths(25)
    assert paths.total() > 2**64
    assert paths.total() == sum((int(h) << 64) | int(l) for h, l in zip(paths.counts_high, paths.counts_low))
    assert paths.total() == sum(paths.counts())


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 8), st.integers(2, 8), st.data())
def test_any_position_is_accepted_or_rejected_alike(rows, cols, data):
    cells = st.sampled_from([".", ".", "1b", "2w", "3b", "6w", "1w", "7b", "0w", "2x", "b"])
    text = "/".join("".join(data.draw(st.lists(cells, min_size=cols, max_size=cols))) for _ in range(rows))
    text = f"{rows}x{cols} {text} {data.draw(st.sampled_from(['b', 'w', 'x']))}"
    engine, reference = harness.same_verdict(bc.Cephalopod, ref.Cephalopod, text)
    if engine is not None:
        harness.assert_same_state(engine, reference)


@pytest.mark.parametrize("rows,cols", [(2, 2), (3, 3), (3, 5)])
def test_playouts_are_reproduced_by_the_reference(rows, cols):
    engine, reference = bc.Cephalopod(rows, cols), ref.Cephalopod(rows, cols)
    assert engine.playouts(40, seed=7) == reference.playouts(40, seed=7) == engine.playouts(40, seed=7, threads=2)
