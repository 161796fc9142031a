"""The Strands engine against the pure-Python reference: random games on every layout and both
cover rules; counting, sampling and generating agree with each other and with the reference."""

from __future__ import annotations

import random

import boardcore as bc
import boardcore.reference as ref
import harness
import pytest

LAYOUTS = ["hex4", "hex5", "hex5-rings", "hex6", "hex6-edge4", "hex6-low", "hex7"]


@pytest.mark.parametrize("cover", ["up-to", "exact"])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_random_games_agree_move_by_move(layout, cover):
    rng = random.Random(layout + cover)
    games = 3 if layout == "hex4" else 1
    for _ in range(games):
        engine, reference = bc.Strands(layout, cover), ref.Strands(layout, cover)
        harness.play_random_game(engine, reference, rng, "cells", "labels", "cover")
        assert engine.score() == tuple(reference.score()) or list(engine.score()) == list(reference.score())


def test_random_layouts_are_drawn_alike():
    for side in range(2, 8):
        for seed in (0, 1, 2**64 - 1):
            rows = bc.Strands.random_layout(side, seed)
            assert rows == ref.Strands.random_layout(side, seed)
            harness.assert_same_state(bc.Strands(rows), ref.Strands(rows), "labels")


@pytest.mark.parametrize("layout,depth", [("hex4", 2), ("hex5", 2)])
@pytest.mark.parametrize("cover", ["up-to", "exact"])
def test_shallow_perft_and_divide_agree(layout, depth, cover):
    engine, reference = bc.Strands(layout, cover), ref.Strands(layout, cover)
    assert engine.perft(depth) == reference.perft(depth)
    assert engine.divide(depth) == reference.divide(depth)


@pytest.mark.parametrize("cover", ["up-to", "exact"])
def test_counting_generating_and_lazy_walking_agree(cover):
    rng = random.Random(cover)
    s = bc.Strands("hex5", cover)
    while not s.is_over():
        moves = s.legal_moves()
        assert s.count_moves() == len(moves) == sum(1 for _ in s.moves())
        assert len(set(str(m) for m in moves)) == len(moves)
        s.play(rng.choice(moves))


def test_perft_with_bulk_counting_equals_generating_the_last_ply():
    s = bc.Strands("hex4")
    s.play("b2")
    by_generation = 0
    for move in s.legal_moves():
        s.play(move)
        by_generation += len(s.legal_moves())
        s.undo()
    assert s.perft(2) == by_generation


@pytest.mark.parametrize("layout", ["hex4", "hex5"])
def test_playouts_are_reproduced_by_the_reference(layout):
    engine, reference = bc.Strands(layout), ref.Strands(layout)
    assert engine.playouts(20, seed=4) == reference.playouts(20, seed=4) == engine.playouts(20, seed=4, threads=2)
