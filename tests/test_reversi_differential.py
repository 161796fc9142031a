"""The Rust engine against the pure-Python reference, move by move, on every variant."""

from __future__ import annotations

import random

import boardcore as bc
import boardcore.reference as ref
import harness
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

# (constructor keywords, number of random games): every size, the Octagon, holes given and
# drawn from seeds, and every handicap in both colours.
VARIANTS = [
    (dict(size=4), 40),
    (dict(size=6), 30),
    (dict(), 30),
    (dict(size=10), 10),
    (dict(size="octagon"), 10),
    (dict(blocked=["b2", "g7"]), 20),
    (dict(blocked=["a1", "h8", "a8", "h1"]), 10),
    (dict(size=6, blocked=["a1", "f3"]), 20),
    (dict(size=10, blocked=["a1", "j5", "c9"]), 8),
    (dict(size="octagon", blocked=["c1", "j4"], handicap=4), 8),
    (dict(handicap=2), 10),
    (dict(handicap=4, handicap_color="white"), 10),
    (dict(size=6, handicap=3, handicap_color=bc.WHITE), 10),
    (dict(size="octagon", handicap=1), 6),
    (dict(blocked="random", seed=42), 10),
    (dict(size=6, blocked="random", seed=7, handicap=1), 10),
    (dict(size="octagon", blocked="random", seed=2**64 - 1), 6),
]


def variant_id(kwargs: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in kwargs.items()) or "standard"


def assert_same_state(engine, reference) -> None:
    harness.assert_same_state(engine, reference, "blocked")


def play_random_game(kwargs: dict, rng: random.Random) -> None:
    harness.play_random_game(bc.Reversi(**kwargs), ref.Reversi(**kwargs), rng, "blocked")


@pytest.mark.parametrize("kwargs,games", VARIANTS, ids=[variant_id(k) for k, _ in VARIANTS])
def test_random_games_agree_move_by_move(kwargs, games):
    rng = random.Random(variant_id(kwargs))
    for _ in range(games):
        play_random_game(kwargs, rng)


@pytest.mark.slow
@pytest.mark.parametrize("kwargs,games", VARIANTS, ids=[variant_id(k) for k, _ in VARIANTS])
def test_many_more_random_games_agree(kwargs, games):
    rng = random.Random("slow" + variant_id(kwargs))
    for _ in range(games * 10):
        play_random_game(kwargs, rng)


@pytest.mark.parametrize("kwargs", [k for k, _ in VARIANTS], ids=[variant_id(k) for k, _ in VARIANTS])
@pytest.mark.parametrize("passes_count_as_ply", [True, False])
def test_shallow_perft_agrees(kwargs, passes_count_as_ply):
    engine, reference = bc.Reversi(**kwargs), ref.Reversi(**kwargs)
    for depth in range(4):
        assert engine.perft(depth, passes_count_as_ply=passes_count_as_ply) == reference.perft(
            depth, passes_count_as_ply=passes_count_as_ply
        )
    assert engine.divide(3) == reference.divide(3)


def midgame_positions():
    """Positions well into random games, where passes and the end are near."""
    rng = random.Random(5)
    found = []
    for kwargs in (dict(size=4), dict(size=6), dict(blocked=["b2", "g7", "a5"])):
        for _ in range(6):
            s = bc.Reversi(**kwargs)
            target = rng.randint(4, 40)
            while not s.is_over() and len(s.history) < target:
                s.play(rng.choice(s.legal_moves()))
            found.append(s.position())
    return found


@pytest.mark.parametrize("position", midgame_positions())
def test_perft_agrees_from_midgame_positions(position):
    engine, reference = bc.Reversi.from_position(position), ref.Reversi.from_position(position)
    for passes in (True, False):
        assert engine.perft(4, passes_count_as_ply=passes) == reference.perft(4, passes_count_as_ply=passes)


CELLS = st.sampled_from(".....bw#")


@st.composite
def arbitrary_positions(draw):
    board = draw(st.sampled_from(["4", "6", "8", "10", "octagon"]))
    n = 10 if board == "octagon" else int(board)
    rows = ["".join(draw(st.lists(CELLS, min_size=n, max_size=n))) for _ in range(n)]
    if board == "octagon":  # cut squares are '-', always
        cut = {(0, 0), (0, 1), (1, 0), (0, 8), (0, 9), (1, 9), (8, 0), (9, 0), (9, 1), (8, 9), (9, 8), (9, 9)}
        rows = ["".join("-" if (r, c) in cut else ch for c, ch in enumerate(row)) for r, row in enumerate(rows)]
    return f"{board} {'/'.join(rows)} {draw(st.sampled_from('bw'))}"


@settings(max_examples=150, deadline=None)
@given(arbitrary_positions())
def test_any_position_is_accepted_or_rejected_alike(text):
    """Arbitrary disc and hole arrangements: same verdict, and the same game from there on."""
    engine, reference = harness.same_verdict(bc.Reversi, ref.Reversi, text)
    if engine is not None:
        assert_same_state(engine, reference)
        assert engine.perft(2) == reference.perft(2)
        assert engine.perft(2, passes_count_as_ply=False) == reference.perft(2, passes_count_as_ply=False)


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=0, max_value=2**64 - 1), st.sampled_from([6, 8, 10, "octagon"]), st.integers(0, 4))
def test_random_holes_are_drawn_alike(seed, size, handicap):
    engine = bc.Reversi.random(seed, size=size, handicap=handicap)
    reference = ref.Reversi.random(seed, size=size, handicap=handicap)
    assert engine.blocked == reference.blocked
    assert engine.position() == reference.position()
    assert 1 <= len(engine.blocked) <= 4


@pytest.mark.parametrize(
    "kwargs", [dict(size=4), dict(size=6), dict(blocked=["b2", "g7"]), dict(size="octagon")], ids=variant_id
)
def test_playouts_are_reproduced_by_the_reference(kwargs):
    engine, reference = bc.Reversi(**kwargs), ref.Reversi(**kwargs)
    n = 30 if kwargs.get("size", 8) in (4, 6) else 8
    assert engine.playouts(n, seed=3) == reference.playouts(n, seed=3) == engine.playouts(n, seed=3, threads=2)
