"""The OpenSpiel adapter with OpenSpiel's own tools (issue 14, items 5 and 6): serializing and
pickling games and states, sending a game to a spawned process, every variant by name, the
information state, undo_action, and max_game_length against long random games."""

import copy
import multiprocessing
import operator
import pickle
import random

import boardcore as bc
import pytest

pyspiel = pytest.importorskip("pyspiel")

import boardcore.adapters.openspiel  # noqa: E402  (registers the games)

# Small boards for speed, and the variants item 6 names.
VARIANTS = [
    "boardcore_reversi(size=4)",
    "boardcore_reversi(size=6)",
    "boardcore_reversi(blocked=a1 h8)",
    "boardcore_reversi(handicap=2)",
    "boardcore_reversi(size=6,blocked=random,seed=3)",
    "boardcore_reversi(board=octagon)",
    "boardcore_cephalopod(rows=3,cols=3)",
    "boardcore_cephalopod(rows=2,cols=4)",
    "boardcore_rive(board=hex3)",
    "boardcore_rive(board=hex3,swap=true)",
    "boardcore_rive(board=3@0 2@1,single_stones=false)",
    "boardcore_strands(layout=hex4)",
    "boardcore_strands(layout=hex4,cover=exact)",
]
DEFAULTS = ["boardcore_reversi", "boardcore_cephalopod", "boardcore_rive", "boardcore_strands"]


def played(game, seed: int, actions: int | None = None):
    """A state of ``game`` after random actions (to the end, or ``actions`` of them)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal() and (actions is None or len(state.history()) < actions):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name", VARIANTS)
def test_openspiels_random_sim_test_with_serialization_passes(name):
    # Checks serialize()/deserialize_state at every step, clones, and max_game_length.
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("name", DEFAULTS)
def test_openspiels_random_sim_test_passes_on_every_default_game(name):
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("name", VARIANTS)
def test_states_round_trip_through_serialize_and_pickle(name):
    game = pyspiel.load_game(name)
    for actions in (0, 1, 7, None):
        state = played(game, seed=5, actions=actions)
        for restored in (game.deserialize_state(state.serialize()), pickle.loads(pickle.dumps(state))):
            assert str(restored) == str(state)
            assert restored.history() == state.history()
            assert restored.legal_actions() == state.legal_actions()
            assert restored.returns() == state.returns()
            assert restored.observation_tensor(0) == state.observation_tensor(0)


@pytest.mark.parametrize("name", VARIANTS + DEFAULTS)
def test_games_pickle_as_their_name_and_parameters(name):
    game = pyspiel.load_game(name)
    restored = pickle.loads(pickle.dumps(game))
    assert str(restored) == str(game)
    assert restored.max_game_length() == game.max_game_length()
    assert str(restored.new_initial_state()) == str(game.new_initial_state())


def test_a_game_and_a_state_reach_a_spawned_process():
    # OpenSpiel's AlphaZero starts its actors with the "spawn" start method: the child imports
    # nothing of boardcore until it unpickles what it is sent.
    game = pyspiel.load_game("boardcore_strands(layout=hex4)")
    state = played(game, seed=3, actions=9)
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        assert pool.apply(str, (game,)) == str(game)
        assert pool.apply(str, (state,)) == str(state)
        assert pool.apply(operator.methodcaller("legal_actions"), (state,)) == state.legal_actions()
        assert pool.apply(operator.methodcaller("max_game_length"), (game,)) == game.max_game_length()


def test_every_parameter_reaches_the_constructor():
    def start(name):
        return pyspiel.load_game(name).new_initial_state().steps.position()

    assert start("boardcore_reversi(size=10)") == bc.Reversi(size=10).position()
    assert start("boardcore_reversi(board=octagon)") == bc.Reversi(size="octagon").position()
    assert start("boardcore_reversi(blocked=a1 h8)") == bc.Reversi(blocked=["a1", "h8"]).position()
    assert start("boardcore_reversi(handicap=2)") == bc.Reversi(handicap=2).position()
    assert (
        start("boardcore_reversi(handicap=1,handicap_color=white)")
        == bc.Reversi(handicap=1, handicap_color="white").position()
    )
    assert start("boardcore_reversi(blocked=random,seed=7)") == bc.Reversi(blocked="random", seed=7).position()
    assert start("boardcore_cephalopod(rows=3,cols=4)") == bc.Cephalopod(rows=3, cols=4).position()
    assert start("boardcore_rive(board=hex4)") == bc.Rive("hex4").actions().position()
    assert start("boardcore_rive(board=3@0 2@1)") == bc.Rive([(3, 0), (2, 1)]).actions().position()
    assert start("boardcore_strands(layout=hex5,cover=exact)") == bc.Strands("hex5", "exact").position()
    assert start("boardcore_strands(layout=22 333 22)") == bc.Strands(["22", "333", "22"]).position()
    swap = pyspiel.load_game("boardcore_rive(board=hex3,swap=true)").new_initial_state()
    swap.apply_action(0)
    assert swap.legal_actions()[-1] == 19  # hex3's swap action, legal only in the swap variant


@pytest.mark.parametrize(
    "name",
    [
        "boardcore_reversi(size=5)",
        "boardcore_reversi(blocked=d4)",
        "boardcore_cephalopod(rows=0)",
        "boardcore_rive(board=hex9)",
        "boardcore_strands(cover=some)",
    ],
)
def test_a_bad_parameter_is_the_constructors_error(name):
    with pytest.raises(ValueError):
        pyspiel.load_game(name)


def test_size_and_board_must_agree():
    with pytest.raises(ValueError, match="disagree"):
        pyspiel.load_game("boardcore_reversi(size=6,board=octagon)")


def test_the_information_state_is_the_action_history():
    state = played(pyspiel.load_game("boardcore_reversi(size=6)"), seed=1, actions=3)
    assert state.information_state_string(0) == state.information_state_string(1) == state.history_str()
    assert state.history_str() == ", ".join(map(str, state.history()))
    assert pyspiel.load_game("boardcore_reversi(size=6)").new_initial_state().information_state_string() == ""


@pytest.mark.parametrize("name", VARIANTS)
def test_undo_action_takes_back_the_last_action(name):
    game = pyspiel.load_game(name)
    state = played(game, seed=2)
    while state.history():
        action = state.history()[-1]
        before = played(game, seed=2, actions=len(state.history()) - 1)
        state.undo_action(before.current_player(), action)
        assert str(state) == str(before)
        assert state.history() == before.history()
        assert state.legal_actions() == before.legal_actions()
        assert state.information_state_string(0) == before.information_state_string(0)


def test_undo_action_refuses_what_was_not_the_last_action():
    state = played(pyspiel.load_game("boardcore_reversi(size=6)"), seed=4, actions=2)
    last, mover = state.history()[-1], 1 - state.current_player()
    with pytest.raises(ValueError, match="last action"):
        state.undo_action(mover, last + 1)
    with pytest.raises(ValueError, match="player"):
        state.undo_action(1 - mover, last)
    assert state.history()[-1] == last
    assert len(state.history()) == 2


@pytest.mark.parametrize(
    ("name", "bound"),
    [
        ("boardcore_reversi", 2 * 60),
        ("boardcore_reversi(board=octagon)", 2 * 84),
        ("boardcore_reversi(blocked=b2 g7,handicap=2)", 2 * 56),
        ("boardcore_cephalopod(rows=3,cols=3)", 11 * 9),
        ("boardcore_strands(layout=hex4)", 2 * 37),
    ],
)
def test_max_game_length_is_the_documented_bound(name, bound):
    assert pyspiel.load_game(name).max_game_length() == bound


def partitions(n: int) -> int:
    """p(n) by Euler's pentagonal recurrence (not the adapter's method, so the test is independent)."""
    p = [1] + [0] * n
    for m in range(1, n + 1):
        k = 1
        while k * (3 * k - 1) // 2 <= m:
            sign = 1 if k % 2 else -1
            for pentagonal in (k * (3 * k - 1) // 2, k * (3 * k + 1) // 2):
                if pentagonal <= m:
                    p[m] += sign * p[m - pentagonal]
            k += 1
    return p[n]


def rive_bound(cells: int) -> int:
    """2 P - N + 1, P = p(0) + ... + p(N) - 1 (docs/ai_openspiel.md, "Game length")."""
    placements = sum(partitions(k) for k in range(cells + 1)) - 1
    return 2 * placements - cells + 1


def test_the_partition_recurrence_gives_the_known_values():
    assert [partitions(n) for n in range(10)] == [1, 1, 2, 3, 5, 7, 11, 15, 22, 30]
    assert partitions(100) == 190_569_292


@pytest.mark.parametrize(
    ("board", "cells", "bound"),
    [
        ("hex3", 19, 4_154),
        ("hex335", 29, 46_020),
        ("hex4", 37, 241_502),
        ("hex5", 61, 15_521_646),
        ("hex6", 91, 1_059_569_724),
        ("3@0 2@1", 5, 32),
    ],
)
def test_rives_max_game_length_is_the_proven_bound(board, cells, bound):
    assert rive_bound(cells) == bound
    for swap in ("false", "true"):
        game = pyspiel.load_game(f"boardcore_rive(board={board},swap={swap})")
        assert game.max_game_length() == bound


def test_rives_bound_is_capped_at_openspiels_int32_from_97_cells():
    # hex7 (127 cells): the proven bound does not fit OpenSpiel's int, so the largest int stands in.
    assert rive_bound(95) < 2**31 - 1 < rive_bound(97)
    assert boardcore.adapters.openspiel.rive_max_game_length(127) == rive_bound(127)
    assert pyspiel.load_game("boardcore_rive(board=hex7)").max_game_length() == 2**31 - 1


@pytest.mark.parametrize(("board", "games"), [("hex3", 200), ("hex335", 50), ("hex4", 20), ("hex5", 3)])
def test_random_rive_games_end_within_the_proven_bound(board, games):
    game = pyspiel.load_game(f"boardcore_rive(board={board},swap=true)")
    lengths = [len(played(game, seed).history()) for seed in range(games)]
    assert max(lengths) <= game.max_game_length() == rive_bound(len(bc.Rive(board=board).cells()))


@pytest.mark.parametrize("name", VARIANTS + DEFAULTS)
def test_random_games_end_within_max_game_length(name):
    game = pyspiel.load_game(name)
    games = 100 if "(" in name else 10
    lengths = [len(played(game, seed).history()) for seed in range(games)]
    assert max(lengths) <= game.max_game_length()


def test_serialize_game_and_state_and_deepcopy_round_trip():
    game = pyspiel.load_game("boardcore_rive(board=hex3,swap=true)")
    state = played(game, seed=1, actions=12)
    game_copy, state_copy = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(game_copy) == str(game)
    assert str(state_copy) == str(state) and state_copy.history() == state.history()
    assert str(copy.deepcopy(state)) == str(state)


def test_an_undone_state_clones_pickles_and_serializes_without_the_undone_action():
    game = pyspiel.load_game("boardcore_rive(board=hex3,swap=true)")
    state = played(game, seed=1, actions=12)
    before = played(game, seed=1, actions=11)
    undone = state.clone()
    undone.undo_action(before.current_player(), state.history()[-1])
    assert len(state.history()) == 12  # the original is untouched
    for copied in (undone.clone(), pickle.loads(pickle.dumps(undone)), game.deserialize_state(undone.serialize())):
        assert str(copied) == str(before)
        assert copied.history() == before.history()
        assert copied.move_number() == 11


def test_the_current_player_is_a_plain_int_as_openspiel_numbers_players():
    state = pyspiel.load_game("boardcore_reversi(size=6)").new_initial_state()
    assert type(state.current_player()) is int and state.current_player() == 0
