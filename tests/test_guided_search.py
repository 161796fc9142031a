"""Search guided by a model over the step form (bc.mcts.search) and self-play
(bc.mcts.selfplay): what they return, that they are reproducible, that the evaluator is
batched, and that the games they play are real games of the rules."""

from __future__ import annotations

import itertools
import random

import boardcore as bc
import numpy as np
import pytest
from harness import ENGINES, SMALL_GAMES


def uniform(observations, masks):
    """Uniform logits and zero values: a model that knows nothing."""
    return np.zeros(masks.shape, np.float32), np.zeros(len(masks), np.float32)


class Counting:
    """Uniform answers, counting calls and rows."""

    def __init__(self) -> None:
        self.calls = 0
        self.rows = 0

    def evaluate(self, observations, masks):
        self.calls += 1
        self.rows += len(masks)
        assert observations.dtype == np.float32 and masks.dtype == np.bool_
        assert masks.any(axis=1).all(), "every leaf sent to the evaluator has a legal action"
        return uniform(observations, masks)


@pytest.mark.parametrize("name", SMALL_GAMES)
@pytest.mark.parametrize("evaluator", [None, uniform])
@pytest.mark.parametrize("gumbel", [False, True])
def test_a_search_answers_with_a_policy_over_the_action_space(name, evaluator, gumbel):
    game = ENGINES[name](**SMALL_GAMES[name])
    state = game.actions()
    result = bc.mcts.search(game, iterations=64, evaluator=evaluator, gumbel=gumbel, seed=3)
    assert result.policy.shape == (state.num_actions,) and result.policy.dtype == np.float32
    assert result.visits.shape == (state.num_actions,) and result.visits.dtype == np.int64
    assert result.visits.sum() == result.simulations == 64
    assert result.policy.sum() == pytest.approx(1.0, abs=1e-5)
    legal = state.action_mask()
    assert (result.policy[~legal] == 0).all() and (result.visits[~legal] == 0).all()
    assert legal[result.action]
    assert -1.0 <= result.value <= 1.0
    if not gumbel:
        assert result.visits[result.action] == result.visits.max()
        np.testing.assert_allclose(result.policy, result.visits / 64, rtol=1e-6)


def test_a_game_and_its_step_form_search_alike():
    game = bc.Reversi(size=6)
    game.play(game.legal_moves()[0])
    a = bc.mcts.search(game, iterations=100, seed=1)
    b = bc.mcts.search(game.actions(), iterations=100, seed=1)
    assert a.action == b.action and (a.visits == b.visits).all() and a.value == b.value


@pytest.mark.parametrize("gumbel", [False, True])
def test_a_search_depends_on_its_seed_not_on_threads(gumbel):
    game = bc.Strands(layout="hex4")
    runs = [bc.mcts.search(game, iterations=80, batch_size=8, gumbel=gumbel, seed=5, threads=t) for t in (1, 2, 1)]
    for other in runs[1:]:
        assert other.action == runs[0].action
        assert (other.visits == runs[0].visits).all()
        assert other.value == runs[0].value


def test_the_evaluator_is_called_once_per_batch_not_once_per_leaf():
    counting = Counting()
    bc.mcts.search(bc.Reversi(), iterations=800, evaluator=counting, batch_size=64)
    assert counting.rows == 801  # every simulation's leaf and the root, each once
    # A fresh tree has few leaves to offer at first, so the first batches are small.
    assert counting.calls <= 3 * 800 / 64


def test_self_play_batches_the_evaluator_across_games():
    counting = Counting()
    data = bc.mcts.selfplay("reversi", {"size": 4}, evaluator=counting, games=16, iterations=8)
    rounds = data.move_numbers.max() + 1
    # Each decision round: one call for the roots, then one per simulation for all live games
    # together (fewer once games finish and the survivors share the batch of 16).
    # A root or a leaf reaches the evaluator once, unless the game is over there.
    assert len(data) <= counting.rows <= 9 * len(data)
    assert counting.rows / 16 <= counting.calls <= 9 * rounds


def test_a_finished_game_has_no_action():
    state = bc.Reversi(size=4).actions()
    while not state.is_over():
        state.apply_action(state.legal_actions()[0])
    result = bc.mcts.search(state, iterations=10)
    assert result.action is None and result.simulations == 0
    assert result.value in (-1.0, 0.0, 1.0)


@pytest.mark.parametrize("name", SMALL_GAMES)
def test_self_play_rows_are_the_games_played(name):
    data = bc.mcts.selfplay(name, SMALL_GAMES[name], games=3, iterations=8, temperature_moves=4, seed=2)
    n = len(data)
    state0 = ENGINES[name](**SMALL_GAMES[name]).actions()
    assert data.observations.shape == (n, *state0.observation_shape)
    assert data.masks.shape == data.policies.shape == (n, state0.num_actions)
    assert sorted(set(data.game_ids.tolist())) == [0, 1, 2]
    for g, (game, winner) in enumerate(zip(data.games, data.winners)):
        rows = np.flatnonzero(data.game_ids == g)
        assert (data.move_numbers[rows] == np.arange(len(rows))).all()
        state = ENGINES[name](**SMALL_GAMES[name], **({"single_stones": True} if name == "rive" else {})).actions()
        for r in rows:
            assert state.to_move == data.players[r]
            np.testing.assert_array_equal(state.observation(), data.observations[r])
            np.testing.assert_array_equal(state.action_mask(), data.masks[r])
            assert data.policies[r].sum() == pytest.approx(1.0, abs=1e-5)
            state.apply_action(int(data.actions[r]))
        assert state.is_over() and state.winner() == winner == game.winner()
        expected = [0.0 if winner is None else (1.0 if p == winner else -1.0) for p in data.players[rows]]
        assert data.outcomes[rows].tolist() == expected
        # The record reads back as the same game.
        again = bc.load_record(data.records[g])
        assert again.winner() == winner and [str(m) for m in again.history] == [str(m) for m in game.history]


@pytest.mark.parametrize("cover", ["up-to", "exact"])
def test_strands_self_play_in_any_order_plays_the_any_order_step_form(cover):
    """`any_order=True` among the variant's arguments: the rows replay on an any-order state
    (masks included, turns under way whose cells came out of board order among them), and the
    records are ordinary Strands games."""
    variant = {"layout": "hex4", "cover": cover}
    data = bc.mcts.selfplay("strands", {**variant, "any_order": True}, games=3, iterations=8, seed=5)
    out_of_order = 0
    for g, game in enumerate(data.games):
        state = bc.Strands(**variant).actions(any_order=True)
        turn: list[int] = []
        for r in np.flatnonzero(data.game_ids == g):
            np.testing.assert_array_equal(state.action_mask(), data.masks[r])
            np.testing.assert_array_equal(state.observation(), data.observations[r])
            action = int(data.actions[r])
            out_of_order += bool(turn) and action < max(turn)
            state.apply_action(action)
            turn = [*turn, action] if state.covered else []
        assert state.is_over() and state.position() == game.position()
    assert out_of_order > 0
    with pytest.raises(TypeError, match="any_order"):
        bc.mcts.selfplay("strands", {**variant, "any_order": "yes"}, games=1, iterations=1)
    with pytest.raises(TypeError):
        bc.mcts.selfplay("reversi", {"size": 4, "any_order": True}, games=1, iterations=1)


def test_self_play_is_reproducible_whatever_the_threads():
    a = bc.mcts.selfplay("cephalopod", {"rows": 3, "cols": 3}, evaluator=uniform, games=4, iterations=16, seed=7)
    b = bc.mcts.selfplay(
        "cephalopod", {"rows": 3, "cols": 3}, evaluator=uniform, games=4, iterations=16, seed=7, threads=2
    )
    c = bc.mcts.selfplay("cephalopod", {"rows": 3, "cols": 3}, evaluator=uniform, games=4, iterations=16, seed=8)
    assert a.records == b.records and (a.policies == b.policies).all()
    assert a.records != c.records


def test_a_player_moving_several_times_in_a_row_is_credited_correctly():
    # Strands turns are several actions by one player: rows by one player come in runs, and
    # each row's outcome is its own player's.
    data = bc.mcts.selfplay("strands", {"layout": "hex4"}, games=2, iterations=16, seed=1)
    players = data.players[data.game_ids == 0]
    assert any(a == b for a, b in itertools.pairwise(players))


@pytest.mark.parametrize(
    ("settings", "error"),
    [
        ({"iterations": -1}, ValueError),
        ({"batch_size": 0}, ValueError),
        ({"c_puct": float("nan")}, ValueError),
        ({"dirichlet_alpha": 0.0}, ValueError),
        ({"dirichlet_alpha": 0.3, "dirichlet_fraction": 2.0}, ValueError),
        ({"temperature": -1.0}, ValueError),
        ({"max_considered": 0}, ValueError),
        ({"evaluator": 42}, TypeError),
    ],
)
def test_bad_settings_are_refused_with_a_clear_error(settings, error):
    game = bc.Reversi(size=4)
    with pytest.raises(error):
        bc.mcts.search(game, **{"iterations": 10, **settings})
    assert str(game) == str(bc.Reversi(size=4))


def test_a_state_that_is_not_a_game_is_refused():
    with pytest.raises(TypeError, match="step form"):
        bc.mcts.search("reversi", iterations=10)
    with pytest.raises(ValueError, match="game must be"):
        bc.mcts.selfplay("chess", games=1)


def test_dirichlet_noise_and_temperature_explore():
    game = bc.Reversi(size=6)
    plain = bc.mcts.search(game, iterations=200, seed=1)
    noisy = bc.mcts.search(game, iterations=200, seed=1, dirichlet_alpha=0.3)
    assert (plain.visits != noisy.visits).any()
    actions = {bc.mcts.search(game, iterations=50, temperature=1.0, seed=s).action for s in range(20)}
    assert len(actions) > 1


def test_self_play_without_simulations_plays_its_priors_and_only_legal_actions():
    for settings in ({"iterations": 0}, {"iterations": 50, "max_nodes": 2}):
        data = bc.mcts.selfplay("reversi", {"size": 4}, games=2, temperature=1.0, **settings)
        assert data.masks[np.arange(len(data)), data.actions].all()


@pytest.mark.parametrize("setting", [{"dirichlet_alpha": 0.3}, {"temperature": 1.0}])
def test_settings_gumbel_would_ignore_are_refused(setting):
    with pytest.raises(ValueError, match="gumbel"):
        bc.mcts.search(bc.Reversi(size=4), iterations=8, gumbel=True, **setting)


def test_rive_self_play_is_in_the_single_stone_form():
    with pytest.raises(ValueError, match="single_stones"):
        bc.mcts.selfplay("rive", {"board": "hex3", "single_stones": False}, games=1, iterations=2)


@pytest.mark.parametrize("name", ["Rive", "RIVE"])
def test_rive_self_play_is_in_the_single_stone_form_whatever_the_names_case(name):
    # The engine reads the name in any ASCII case; the single-stone rule once read only "rive",
    # so "Rive" recorded single-stone games as full-Rive records (that replay differently).
    with pytest.raises(ValueError, match="single_stones"):
        bc.mcts.selfplay(name, {"board": "hex3", "single_stones": False}, games=1, iterations=2)
    data = bc.mcts.selfplay(name, {"board": "hex3"}, games=1, iterations=2, seed=3)
    same = bc.mcts.selfplay("rive", {"board": "hex3"}, games=1, iterations=2, seed=3)
    assert data.records == same.records and '[SingleStones "yes"]' in data.records[0]
    assert bc.load_record(data.records[0]).winner() == data.winners[0]


SMALL = {
    "reversi": lambda: bc.Reversi(size=6),
    "cephalopod": lambda: bc.Cephalopod(rows=3, cols=3),
    "rive": lambda: bc.Rive(board="hex3"),
    "strands": lambda: bc.Strands(layout="hex4"),
}


@pytest.mark.parametrize("name", sorted(SMALL))
def test_the_step_form_search_beats_random_actions(name):
    # Deterministic (seeded); the full measurement (200 games, 1,000 simulations, default
    # variants) is benches/bench_mcts.py --search steps.
    rng = random.Random(5)
    wins = 0
    for g in range(6):
        state = SMALL[name]().actions()
        mine = g % 2
        while not state.is_over():
            if state.to_move == mine:
                state.apply_action(bc.mcts.search(state, 200, seed=rng.randrange(2**32)).action)
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        wins += state.winner() == mine
    assert wins >= 5


def test_a_player_acting_several_times_in_a_row_is_credited_correctly_near_the_end():
    """Strands turns are several actions by one player, so values must reach the right player
    through runs of one player's nodes: with random rollouts, the search picks an action of
    optimal value (by plain minimax) in end positions of hex4 games."""
    from exact import TreeTooLarge, child, minimax, value_seen_by

    rng = random.Random(3)
    checked = optimal = 0
    while checked < 20:
        state = bc.Strands(layout="hex4").actions()
        line = []
        while not state.is_over():
            line.append(state)
            state = child(state, rng.choice(state.legal_actions()))
        position = line[-rng.randint(2, min(8, len(line)))]
        try:
            values = {
                a: value_seen_by(position, after := child(position, a), minimax(after, 200_000))
                for a in position.legal_actions()
            }
        except TreeTooLarge:
            continue
        if len(set(values.values())) < 2:
            continue  # every action is as good: nothing to check
        checked += 1
        chosen = bc.mcts.search(position, 400, seed=checked).action
        optimal += values[chosen] == max(values.values())
    assert optimal >= 18


def test_many_states_are_searched_together_one_leaf_each_per_call():
    env_states = [bc.Reversi(size=6).actions() for _ in range(5)]
    for k, state in enumerate(env_states):  # state k is k actions into its game
        for _ in range(k):
            state.apply_action(state.legal_actions()[0])
    counting = Counting()
    results = bc.mcts.search_many(env_states, iterations=20, evaluator=counting, seed=4)
    assert len(results) == 5
    for state, result in zip(env_states, results):
        assert state.action_mask()[result.action] and result.visits.sum() == 20
    assert counting.calls == 21  # the roots, then one leaf of every tree per call
    again = bc.mcts.search_many(env_states, iterations=20, evaluator=uniform, seed=4, threads=2)
    assert [r.action for r in again] == [r.action for r in results]
    assert all((a.visits == b.visits).all() for a, b in zip(again, results))


def test_many_states_must_be_of_one_variant():
    with pytest.raises(TypeError, match="one game"):
        bc.mcts.search_many([bc.Reversi(size=6), bc.Cephalopod()], iterations=4)
    with pytest.raises(ValueError, match="variant"):
        bc.mcts.search_many([bc.Reversi(size=6), bc.Reversi(size=8)], iterations=4)
    assert bc.mcts.search_many([], iterations=4) == []


def test_self_play_data_concatenates_in_order_with_game_ids_shifted():
    settings = {"evaluator": uniform, "iterations": 4}
    first = bc.mcts.selfplay("cephalopod", {"rows": 3, "cols": 3}, games=2, seed=1, **settings)
    second = bc.mcts.selfplay("cephalopod", {"rows": 3, "cols": 3}, games=3, seed=2, **settings)
    both = bc.mcts.SelfPlayData.concatenate([first, second])
    assert both.records == first.records + second.records and both.winners == first.winners + second.winners
    assert len(both) == len(first) + len(second)
    np.testing.assert_array_equal(both.game_ids, np.concatenate([first.game_ids, second.game_ids + 2]))
    for field in ("observations", "masks", "policies", "players", "outcomes", "move_numbers", "actions"):
        a, b, joined = getattr(first, field), getattr(second, field), getattr(both, field)
        assert joined.dtype == a.dtype
        np.testing.assert_array_equal(joined, np.concatenate([a, b]))
    # One part is itself; none, or parts of different variants, are refused.
    assert bc.mcts.SelfPlayData.concatenate([first]).records == first.records
    with pytest.raises(ValueError, match="at least one"):
        bc.mcts.SelfPlayData.concatenate([])
    other = bc.mcts.selfplay("cephalopod", {"rows": 3, "cols": 4}, games=1, seed=1, **settings)
    with pytest.raises(ValueError, match="one game and variant"):
        bc.mcts.SelfPlayData.concatenate([first, other])


def test_the_searches_defaults_are_the_engines_own():
    # Each PUCT default is set once, in Rust (puct::Settings::default): the Python signatures
    # read theirs from it.
    import inspect

    assert bc.mcts.PUCT_DEFAULTS == {
        "iterations": 800, "c_puct": 1.25, "dirichlet_fraction": 0.25, "max_considered": 16,
        "temperature": 0.0, "threads": 1, "max_nodes": bc.mcts.DEFAULT_MAX_NODES,
    }  # fmt: skip
    for function in (bc.mcts.search, bc.mcts.search_many, bc.mcts.selfplay):
        parameters = inspect.signature(function).parameters
        for name in ("c_puct", "dirichlet_fraction", "max_considered", "max_nodes"):
            assert parameters[name].default == bc.mcts.PUCT_DEFAULTS[name], (function.__name__, name)
