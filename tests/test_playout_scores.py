"""Playouts with final scores (``playouts(..., scores=True)``): the same games as the tallies,
the same numbers as the reference twins, whatever the thread count."""

import boardcore as bc
import boardcore.reference as ref
import numpy as np
import pytest

GAMES = {
    "reversi": (lambda m: m.Reversi(size=6), 30),
    "cephalopod": (lambda m: m.Cephalopod(rows=3, cols=3), 30),
    "rive": (lambda m: m.Rive("hex3"), 20),
    "strands": (lambda m: m.Strands("hex4"), 10),
}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_scored_playouts_match_the_reference_and_the_tally(name):
    make, n = GAMES[name]
    ours = make(bc).playouts(n, seed=5, scores=True)
    theirs = make(ref).playouts(n, seed=5, scores=True)
    two_threads = make(bc).playouts(n, seed=5, threads=2, scores=True)
    for result in (theirs, two_threads):
        assert {k: result[k] for k in ("black", "white", "draws")} == {k: ours[k] for k in ("black", "white", "draws")}
        assert np.array_equal(result["outcomes"], ours["outcomes"])
        assert np.array_equal(result["scores"], ours["scores"])
    assert make(bc).playouts(n, seed=5) == {k: ours[k] for k in ("black", "white", "draws")}


def test_outcomes_and_scores_are_numpy_arrays_of_the_documented_shape():
    result = bc.Reversi().playouts(7, seed=1, scores=True)
    assert result["outcomes"].dtype == np.int8 and result["outcomes"].shape == (7,)
    assert result["scores"].dtype == np.int32 and result["scores"].shape == (7, 2)
    assert set(result["outcomes"].tolist()) <= {-1, 0, 1}
    assert result["black"] == int((result["outcomes"] == 1).sum())


def test_reversi_scores_are_the_final_disc_counts_and_decide_the_winner():
    result = bc.Reversi().playouts(50, seed=2, scores=True)
    black, white = result["scores"][:, 0], result["scores"][:, 1]
    assert np.array_equal(np.sign(black - white), result["outcomes"])


def test_strands_scores_are_the_largest_groups():
    game = bc.Strands("hex4")
    result = game.playouts(1, seed=3, scores=True)
    replay = ref.Strands("hex4")
    from boardcore.reference._splitmix import SplitMix64

    rng = SplitMix64(SplitMix64(3).next())
    while not replay.is_over():
        moves = replay.legal_moves()
        replay.play(moves[rng.below(len(moves))])
    black, white = replay.score()
    assert result["scores"][0].tolist() == [black[0], white[0]]


def test_zero_playouts_give_empty_arrays():
    result = bc.Cephalopod().playouts(0, scores=True)
    assert result["outcomes"].shape == (0,) and result["scores"].shape == (0, 2)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_random_move_is_the_documented_draw_in_engine_and_reference(name):
    make, _ = GAMES[name]
    engine, reference = make(bc), make(ref)
    seed = 0
    while not engine.is_over():
        seed += 1
        ours, theirs = engine.random_move(seed), reference.random_move(seed)
        assert str(ours) == str(theirs)
        engine.play(ours)
        reference.play(str(ours))
    assert engine.random_move(1) is None and reference.random_move(1) is None


def test_random_move_refuses_a_bad_seed():
    for game in (bc.Reversi(), ref.Reversi()):
        with pytest.raises(ValueError):
            game.random_move(-1)


def test_scored_playouts_refuse_more_endings_than_fit():
    for game in (bc.Reversi(), ref.Reversi()):
        with pytest.raises(ValueError, match="at most"):
            game.playouts(2**40, scores=True)
