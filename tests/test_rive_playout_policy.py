"""Rive's capture-cell playout policy (docs/rive.md, "Playout policies"): a legal cell (or the
swap) uniformly, then one of the chosen capture's survivor sets uniformly. The engine draws what
the reference draws, move by move and playout by playout; a record keeps the policy; it is not
a rule, so positions equal but for it are equal; bad values are refused before anything is made."""

from __future__ import annotations

import copy
import pickle
import random
from collections import Counter

import boardcore as bc
import boardcore.reference as ref
import pytest

CELL = {"playout_policy": "capture-cell"}
VARIANTS = [
    dict(board="hex2"),
    dict(board="hex3"),
    dict(board="hex3", swap=True),
    dict(board="hex3", single_stones=True),
    dict(board="hex335", swap=True),
    dict(board=[(2, 1), (3, 0), (2, 1)]),
]


def variant_id(kwargs):
    return ",".join(f"{k}={v}" for k, v in kwargs.items())


def refusal(make):
    with pytest.raises(Exception) as caught:
        make()
    return type(caught.value).__name__, str(caught.value)


@pytest.mark.parametrize("kwargs", VARIANTS, ids=variant_id)
def test_every_random_move_is_the_references_along_random_games(kwargs):
    rng = random.Random(variant_id(kwargs))
    for _ in range(3):
        engine, reference = bc.Rive(**kwargs, **CELL), ref.Rive(**kwargs, **CELL)
        while not engine.is_over():
            for seed in rng.sample(range(10**6), 4):
                assert str(engine.random_move(seed=seed)) == str(reference.random_move(seed=seed))
            move = rng.choice(engine.legal_moves())
            engine.play(move)
            reference.play(str(move))
        assert engine.random_move(seed=1) is None and reference.random_move(seed=1) is None


# hex335 is left out: the reference lists every move of a ply, and its captures run to thousands.
@pytest.mark.parametrize("kwargs", [v for v in VARIANTS if v["board"] != "hex335"], ids=variant_id)
def test_playouts_are_the_references_on_any_number_of_threads(kwargs):
    engine, reference = bc.Rive(**kwargs, **CELL), ref.Rive(**kwargs, **CELL)
    expected = reference.playouts(30, seed=5)
    assert engine.playouts(30, seed=5) == expected == engine.playouts(30, seed=5, threads=2)


def test_a_cell_is_drawn_as_often_as_any_other_however_many_captures_it_has():
    """hex3 after a few moves: the cell whose capture has the most survivor sets is drawn about
    as often as one that only places a stone, where the uniform policy draws it that many times
    more often."""
    game = best = None
    rng = random.Random(3)
    while best is None:
        game = bc.Rive(board="hex3")
        while not game.is_over():
            per_cell = Counter(m.cell for m in game.legal_moves() if not m.is_swap)
            if max(per_cell.values()) >= 8:
                best = per_cell
                break
            game.play(rng.choice(game.legal_moves()))
    assert game is not None
    draws = 4000
    capturing = max(best, key=best.get)
    policy = Counter(game_with(game, "capture-cell").random_move(seed=s).cell for s in range(draws))
    uniform = Counter(game_with(game, "uniform").random_move(seed=s).cell for s in range(draws))
    assert set(policy) == set(best)
    expected = draws / len(best)
    assert all(abs(policy[cell] - expected) < 0.3 * expected for cell in best), (policy, best)
    share = best[capturing] / sum(best.values())
    assert abs(uniform[capturing] / draws - share) < 0.05 and uniform[capturing] > 2 * policy[capturing]


def game_with(game: bc.Rive, policy: str) -> bc.Rive:
    """`game`'s moves replayed from the start of its variant, drawing by `policy`."""
    replayed = bc.Rive(board=game.board_name, swap=game.swap, single_stones=game.single_stones, playout_policy=policy)
    for move in game.history:
        replayed.play(str(move))
    return replayed


def test_the_policy_is_no_part_of_the_position():
    engine, uniform = bc.Rive(board="hex3", **CELL), bc.Rive(board="hex3")
    assert engine == uniform and hash(engine) == hash(uniform)
    assert engine.position() == uniform.position()
    assert engine.playout_policy == "capture-cell" and uniform.playout_policy == "uniform"
    assert ref.Rive(board="hex3", **CELL) == ref.Rive(board="hex3")


def test_a_record_keeps_the_policy_and_the_reference_writes_the_same_record():
    engine, reference = bc.Rive(board="hex3", swap=True, **CELL), ref.Rive(board="hex3", swap=True, **CELL)
    for _ in range(3):
        move = str(engine.random_move(seed=len(engine.history)))
        engine.play(move)
        reference.play(move)
    assert '[Playouts "capture-cell"]' in engine.record()
    assert engine.record() == reference.record()
    assert "Playouts" not in bc.Rive(board="hex3").record()
    for loaded in (bc.load_record(engine.record()), pickle.loads(pickle.dumps(engine)), copy.deepcopy(engine)):
        assert loaded.playout_policy == "capture-cell"
        assert loaded.playouts(10, seed=2) == engine.playouts(10, seed=2)
    assert ref.Rive.from_record(reference.record()).playout_policy == "capture-cell"


def test_positions_played_from_a_game_keep_its_policy():
    game = bc.Rive(board="hex3", **CELL)
    game.play(game.legal_moves()[0])
    game.undo()
    assert game.copy().playout_policy == "capture-cell"
    assert game.playouts(10, seed=4) == ref.Rive(board="hex3", **CELL).playouts(10, seed=4)


@pytest.mark.parametrize("value", ["greedy", "Uniform", "", 3, True, ["capture-cell"]])
def test_a_bad_policy_is_refused_as_the_reference_refuses_it(value):
    engine = refusal(lambda: bc.Rive(board="hex3", playout_policy=value))
    assert engine == refusal(lambda: ref.Rive(board="hex3", playout_policy=value))
    assert engine[0] == ("ValueError" if isinstance(value, str) else "TypeError")


def test_a_record_with_a_bad_playouts_tag_or_one_beside_a_position_is_refused():
    bad = '[Game "rive"]\n[Board "hex3"]\n[Playouts "greedy"]\n[Result "*"]\n\n*\n'
    assert refusal(lambda: bc.load_record(bad))[0] == refusal(lambda: ref.Rive.from_record(bad))[0] == "NotationError"
    position = bc.Rive(board="hex3").position()
    beside = f'[Game "rive"]\n[Playouts "capture-cell"]\n[Position "{position}"]\n[Result "*"]\n\n*\n'
    assert (
        refusal(lambda: bc.load_record(beside))[0]
        == refusal(lambda: ref.Rive.from_record(beside))[0]
        == "NotationError"
    )
    assert bc.Rive.from_position(position).playout_policy == "uniform"


def test_uct_rollouts_run_under_the_policy_and_a_seed_reproduces_them():
    """bc.mcts.search_moves (UCT over compound moves) plays its rollouts by the game's policy.
    (The PUCT of bc.mcts.search works on the step form, whose actions are single stones: the
    policy has nothing to choose there; docs/rive.md.)"""
    game = bc.Rive(board="hex4", **CELL)
    first = bc.mcts.search_moves(game, 300, seed=7)
    assert first.move in game.legal_moves() and first.iterations == 300
    again = bc.mcts.search_moves(game, 300, seed=7)
    assert again.moves == first.moves and (again.visits == first.visits).all()
    uniform = bc.mcts.search_moves(bc.Rive(board="hex4"), 300, seed=7)
    assert (uniform.values != first.values).any()
