"""Every rejected call changes nothing: position, history, side to move, hash and record are
identical after any entry point refuses its arguments, on every game, engine and twin alike.

test_garbage.py throws arbitrary text at the parsers and at play; this file goes through every
other entry point that can refuse (undo, perft, divide, playouts, count_paths, random_move, MCTS,
the step form, VectorEnv) with bad arguments of every kind, and at play with moves that are
well formed but illegal, or belong to another game or another position.
"""

from __future__ import annotations

import math

import boardcore as bc
import boardcore.reference as ref
import numpy as np
import pytest
from boardcore import mcts
from harness import snapshot
from hypothesis import given, settings
from hypothesis import strategies as st

# ---- the games: a fresh one, one in mid-game, one finished; engine and twin ----------------


def reversi(lib):
    return lib.Reversi(blocked=["b2", "g7"])


def cephalopod(lib):
    return lib.Cephalopod(3, 3)


def rive(lib):
    return lib.Rive(board="hex3", swap=True, single_stones=True)


def rive_compound(lib):
    return lib.Rive(board="hex3")


def strands(lib):
    return lib.Strands("hex4", "exact")


GAMES = {"reversi": reversi, "cephalopod": cephalopod, "rive": rive, "rive-compound": rive_compound, "strands": strands}
LIBS = {"engine": bc, "twin": ref}


def played(game, plies: int):
    """``game`` after ``plies`` moves, always the first listed (the same on engine and twin)."""
    for _ in range(plies):
        if game.is_over():
            break
        game.play(str(game.legal_moves()[0]))
    return game


def states(name: str, lib_name: str):
    """The fresh, mid-game and finished games of ``name``."""
    make = lambda: GAMES[name](LIBS[lib_name])  # noqa: E731
    return {"fresh": make(), "midgame": played(make(), 5), "finished": played(make(), 10_000)}


def full_snapshot(game):
    """harness.snapshot (position, history, side to move, record, hash) and the rest of the state."""
    return snapshot(game) + (hash(game), game.is_over(), game.winner(), [str(m) for m in game.legal_moves()])


def assert_rejected_and_unchanged(game, call, *args, **kwargs):
    """``call(*args, **kwargs)`` raises an ordinary exception (never a Rust panic, which is a
    BaseException) and ``game`` is exactly as it was."""
    before = full_snapshot(game)
    with pytest.raises(Exception):  # noqa: B017 -- any ordinary exception; a Rust panic is not one
        call(*args, **kwargs)
    assert full_snapshot(game) == before


CASES = [(name, lib) for name in GAMES for lib in LIBS]
IDS = [f"{name}-{lib}" for name, lib in CASES]

# Arguments no count, depth or seed accepts: negative, or not integers at all; and for the engine,
# past 64 bits (the twins compute with Python's integers and take a huge depth as a long call).
BAD_COUNTS = [-1, -(2**63), 1.5, math.nan, "3", b"3", [1]]
BAD_SEEDS = [-1, 1.5, "0", [0]]
BAD_THREADS = [0, -1, 1.5, "2"]
TOO_BIG = [2**64, 2**70]


def bad(values: list, lib: str) -> list:
    return values + TOO_BIG if lib == "engine" else values


# ---- play --------------------------------------------------------------------------------------


def illegal_moves(game, other_games):
    """Moves that are well formed somewhere but not legal here: the moves of the history (their
    squares are taken, or it is not that move's turn any more), and every other game's moves."""
    moves = [str(m) for m in game.history] + [m for m in game.history]
    for other in other_games:
        moves += list(other.legal_moves())[:3] + [str(m) for m in other.legal_moves()[:3]]
    legal = {str(m) for m in game.legal_moves()}
    return [m for m in moves if str(m) not in legal]


@pytest.mark.parametrize("name,lib", CASES, ids=IDS)
def test_play_refuses_illegal_moves_and_garbage_and_changes_nothing(name, lib):
    games = states(name, lib)
    others = [GAMES[n](LIBS[lib]) for n in GAMES if n.split("-")[0] != name.split("-")[0]]
    for game in games.values():
        for move in illegal_moves(game, [played(o, 3) for o in others]) + [None, 3, 2.5, b"d3", ["d3"], object()]:
            assert_rejected_and_unchanged(game, game.play, move)
            if isinstance(move, str):
                assert not game.is_legal(move)


@pytest.mark.parametrize("name,lib", CASES, ids=IDS)
def test_a_finished_game_refuses_every_move(name, lib):
    game = states(name, lib)["finished"]
    assert game.is_over() and game.legal_moves() == []
    fresh = GAMES[name](LIBS[lib])
    for move in fresh.legal_moves()[:10]:
        assert_rejected_and_unchanged(game, game.play, str(move))


@pytest.mark.parametrize("name,lib", CASES, ids=IDS)
def test_undo_on_an_empty_history_is_refused(name, lib):
    fresh, emptied = states(name, lib)["fresh"], states(name, lib)["midgame"]
    while emptied.history:
        emptied.undo()
    for game in (fresh, emptied):
        assert_rejected_and_unchanged(game, game.undo)


# ---- counting, sampling and searching with bad arguments ------------------------------------


@pytest.mark.parametrize("name,lib", CASES, ids=IDS)
def test_perft_divide_playouts_and_random_move_refuse_bad_arguments(name, lib):
    for game in states(name, lib).values():
        for value in bad(BAD_COUNTS, lib):
            assert_rejected_and_unchanged(game, game.perft, value)
            assert_rejected_and_unchanged(game, game.divide, value)
            assert_rejected_and_unchanged(game, game.playouts, value)
        for value in bad(BAD_SEEDS, lib):
            assert_rejected_and_unchanged(game, game.playouts, 2, seed=value)
            assert_rejected_and_unchanged(game, game.random_move, seed=value)
        for value in bad(BAD_THREADS, lib):
            assert_rejected_and_unchanged(game, game.perft, 1, threads=value)
            assert_rejected_and_unchanged(game, game.playouts, 2, threads=value)


@pytest.mark.parametrize("lib", LIBS)
def test_count_paths_refuses_bad_depths(lib):
    for game in states("cephalopod", lib).values():
        for value in bad(BAD_COUNTS, lib):
            assert_rejected_and_unchanged(game, game.count_paths, value)


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(sorted(GAMES)),
    lib=st.sampled_from(sorted(LIBS)),
    method=st.sampled_from(["perft", "divide", "playouts", "random_move", "play", "is_legal"]),
    value=st.one_of(
        st.integers(max_value=-1),
        st.integers(min_value=2**64),
        st.floats(allow_nan=True),
        st.text(max_size=5),
        st.binary(max_size=4),
        st.lists(st.integers(0, 3), max_size=2),
    ),
)
def test_any_bad_argument_to_any_entry_point_changes_nothing(name, lib, method, value):
    if lib == "twin" and isinstance(value, int) and value >= 2**64:
        value = -value  # the twin takes a huge depth as a (very) long call, not a bad one
    game = states(name, lib)["midgame"]
    before = full_snapshot(game)
    call = getattr(game, method)
    try:
        result = call(seed=value) if method == "random_move" else call(value)
    except Exception:
        pass
    else:  # accepted: only text that happens to be a legal move may be played
        if method == "play":
            game.undo()
        assert method in ("play", "is_legal", "random_move") or result is not None
    assert full_snapshot(game) == before


# ---- MCTS --------------------------------------------------------------------------------------

BAD_MCTS_SETTINGS = [
    {"iterations": 0},
    {"iterations": -1},
    {"iterations": 2**64},
    {"iterations": 1.5},
    {"iterations": 10, "time_limit": -1.0},
    {"iterations": 10, "time_limit": math.nan},
    {"iterations": 10, "exploration": math.inf},
    {"iterations": 10, "seed": 2**64},
    {"iterations": 10, "threads": -1},
    {"iterations": 10, "widening_limit": 2**64},
    {"iterations": 10, "widening_coefficient": math.nan},
]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("setting", BAD_MCTS_SETTINGS, ids=lambda s: ",".join(f"{k}={v}" for k, v in s.items()))
def test_mcts_refuses_bad_settings_and_leaves_the_game(name, setting):
    for game in states(name, "engine").values():
        settings_ = dict(setting)
        iterations = settings_.pop("iterations")
        assert_rejected_and_unchanged(game, mcts.Searcher, game, iterations, **settings_)
        assert_rejected_and_unchanged(game, mcts.best_move, game, iterations, **settings_)


@pytest.mark.parametrize("name", GAMES)
def test_a_refused_advance_or_search_leaves_the_searcher_and_the_game(name):
    game = states(name, "engine")["midgame"]
    searcher = mcts.Searcher(game, 20, seed=1)
    searcher.search()
    before_game = full_snapshot(game)
    before = (full_snapshot(searcher.game), searcher.root_visits)
    for bad in ["", "zz99", None, 7, *[str(m) for m in game.history]]:
        with pytest.raises(Exception):  # noqa: B017 -- any ordinary exception; a Rust panic is not one
            searcher.advance(bad)
        assert (full_snapshot(searcher.game), searcher.root_visits) == before
    for bad in [0, -1, 2**64, "10"]:
        with pytest.raises(Exception):  # noqa: B017 -- any ordinary exception; a Rust panic is not one
            searcher.search(bad)
        assert (full_snapshot(searcher.game), searcher.root_visits) == before
    with pytest.raises(TypeError):
        mcts.Searcher(GAMES[name](ref), 10)
    assert full_snapshot(game) == before_game


# ---- the step form and VectorEnv ---------------------------------------------------------------


def step_snapshot(state):
    return (
        state.position(),
        state.to_move,
        state.is_over(),
        state.action_mask().tobytes(),
        state.observation().tobytes(),
    )


@pytest.mark.parametrize("name,lib", CASES, ids=IDS)
def test_step_states_refuse_bad_actions_and_change_nothing(name, lib):
    for game in states(name, lib).values():
        state = game.actions()
        before, game_before = step_snapshot(state), full_snapshot(game)
        legal = set(state.legal_actions())
        illegal = [a for a in range(state.num_actions) if a not in legal][:20]
        for bad in illegal + [-1, state.num_actions, 2**63, 2**64 - 1, 2**64, np.uint64(2**64 - 1), 1.0, "0", None]:
            with pytest.raises((TypeError, ValueError, OverflowError)):
                state.apply_action(bad)
            assert step_snapshot(state) == before
        assert full_snapshot(game) == game_before


VECTOR_GAMES = {
    "reversi": {"size": 6},
    "cephalopod": {"rows": 3, "cols": 3},
    "rive": {"board": "hex3"},
    "strands": {"layout": "hex4", "cover": "exact"},
}


@pytest.mark.parametrize("game", VECTOR_GAMES)
def test_vector_env_refuses_bad_actions_and_moves_nothing(game):
    env = bc.VectorEnv(game, 3, seed=2, **VECTOR_GAMES[game])
    _observations, masks = env.reset()
    n = env.num_actions
    illegal = [int(np.flatnonzero(~mask)[0]) if (~mask).any() else -1 for mask in masks]
    legal = env.sample_actions()
    for bad in [
        [illegal[0], legal[1], legal[2]],
        [legal[0], legal[1], n],
        [legal[0], -1, legal[2]],
        [2**64 - 1, legal[1], legal[2]],
        np.array([2**64 - 1, 0, 0], dtype=np.uint64),
        list(legal[:2]),
        list(legal) + [legal[0]],
        [[a] for a in legal],
        ["a", "b", "c"],
        None,
    ]:
        with pytest.raises((TypeError, ValueError, OverflowError)):
            env.step(bad)
    # Nothing moved: the legal actions drawn at the start still step every env from the start.
    fresh = bc.VectorEnv(game, 3, seed=2, **VECTOR_GAMES[game])
    fresh.reset()
    for one, other in zip(env.step(legal), fresh.step(legal)):
        assert np.array_equal(one, other)
