"""The Rive engine against the pure-Python reference: random games on every named board and on
custom ones, with the swap and in the single-stone form; perft; counting and lazy moves."""

from __future__ import annotations

import random

import boardcore as bc
import boardcore.reference as ref
import harness
import pytest

VARIANTS = [
    (dict(board="hex3"), 15),
    (dict(board="hex335"), 6),
    (dict(board="hex2"), 20),
    (dict(board="hex3", swap=True), 10),
    (dict(board="hex3", single_stones=True), 8),
    (dict(board="hex335", swap=True, single_stones=True), 2),
    (dict(board=[(3, 0), (4, 1), (3, 0), (4, 1), (3, 0)]), 6),  # a custom 17-cell board
    (dict(board=[(2, 1), (3, 0), (2, 1)]), 20),  # a 7-cell custom board
]


def variant_id(kwargs):
    return ",".join(f"{k}={v}" for k, v in kwargs.items())


@pytest.mark.parametrize("kwargs,games", VARIANTS, ids=[variant_id(k) for k, _ in VARIANTS])
def test_random_games_agree_move_by_move(kwargs, games):
    rng = random.Random(variant_id(kwargs))
    for _ in range(games):
        engine, reference = bc.Rive(**kwargs), ref.Rive(**kwargs)
        harness.play_random_game(engine, reference, rng, "board_name", "cells", "swap", "single_stones")
        assert engine.groups() == reference.groups()


@pytest.mark.slow
@pytest.mark.parametrize("kwargs,games", VARIANTS, ids=[variant_id(k) for k, _ in VARIANTS])
def test_many_more_random_games_agree(kwargs, games):
    rng = random.Random("slow" + variant_id(kwargs))
    for _ in range(games * 5):
        harness.play_random_game(bc.Rive(**kwargs), ref.Rive(**kwargs), rng, "board_name", "swap", "single_stones")


def test_the_opening_of_hex4_agrees():
    """The reference finds survivor sets by brute force, which is slow on hex4's late captures: CI
    compares openings; the slow suite plays whole games."""
    rng = random.Random("hex4")
    for _ in range(5):
        harness.play_random_game(bc.Rive(board="hex4"), ref.Rive(board="hex4"), rng, "board_name", max_moves=24)


@pytest.mark.slow
def test_whole_hex4_games_agree():
    rng = random.Random("hex4 slow")
    for _ in range(3):
        harness.play_random_game(bc.Rive(board="hex4"), ref.Rive(board="hex4"), rng, "board_name")


@pytest.mark.parametrize("board,depth", [("hex2", 5), ("hex3", 3), ("hex335", 2)])
def test_shallow_perft_and_divide_agree(board, depth):
    engine, reference = bc.Rive(board=board), ref.Rive(board=board)
    assert engine.perft(depth) == reference.perft(depth)
    assert engine.divide(depth) == reference.divide(depth)


def refusal(game, move: str) -> tuple[str, str, bool]:
    """How ``game`` refuses ``move``: the exception's class name and message, and ``is_legal``
    (the game left as it was)."""
    before = harness.snapshot(game)
    with pytest.raises(ValueError) as refused:
        game.play(move)
    assert harness.snapshot(game) == before
    return type(refused.value).__name__, str(refused.value), game.is_legal(move)


@pytest.mark.parametrize(
    "start, moves",
    [
        # The one-cell board, full after Black's first stone: White may not swap.
        ((dict(board=[(1, 0)], swap=True), ["a1"]), ["swap", "a1", "xa1", "SWAP"]),
        # A full hex3 board: placements, captures, removals and the swap are all refused as over.
        (("hex3 bwb/wbwb/bwbwb/wbwb/bw. w", ["e3"]), ["a1", "e3", "c3xa1,b1", "xa1", "swap"]),
    ],
    ids=["one-cell", "hex3"],
)
def test_a_finished_game_refuses_every_move_as_over_as_the_twin_does(start, moves):
    """The reason is that the game is over, whatever the move: the engine once said "a1 is
    occupied" where the twin said "a1 is not allowed: the game is over" (it checked the end first
    only for the swap)."""
    setup, played = start
    games = []
    for cls in (bc.Rive, ref.Rive):
        game = cls(**setup) if isinstance(setup, dict) else cls.from_position(setup)
        for move in played:
            game.play(move)
        assert game.is_over()
        games.append(game)
    engine, reference = games
    for move in moves:
        expected = ("IllegalMoveError", f"{move.lower()} is not allowed: the game is over", False)
        assert refusal(engine, move) == refusal(reference, move) == expected, move


def test_counting_and_lazy_moves_agree_with_the_list():
    rng = random.Random(4)
    for _ in range(5):
        s = bc.Rive()
        while not s.is_over():
            moves = s.legal_moves()
            assert s.count_moves() == len(moves)
            assert [str(m) for m in s.moves()] == [str(m) for m in moves]
            s.play(rng.choice(moves))


def test_playouts_are_reproduced_by_the_reference():
    for kwargs in (dict(board="hex2"), dict(board="hex3", swap=True)):
        engine, reference = bc.Rive(**kwargs), ref.Rive(**kwargs)
        assert engine.playouts(40, seed=9) == reference.playouts(40, seed=9) == engine.playouts(40, seed=9, threads=2)
