"""Every move says which cells it placed on and which it removed from (``placed``, ``removed``:
tuples of cell names in board order, the same in every game), the engine as its twin; the step
form names its observation planes and shows them from either player's side. docs/actions.md
and docs/api.md document both."""

from __future__ import annotations

import random

import boardcore as bc
import boardcore.reference as ref
import numpy as np
import pytest
from harness import ENGINES, REFERENCES

VARIANTS = [
    ("reversi", {"size": 6}),
    ("reversi", {"size": 8, "blocked": ["b2", "g7"]}),
    ("cephalopod", {"rows": 3, "cols": 3}),
    ("cephalopod", {"rows": 2, "cols": 4}),
    ("rive", {"board": "hex3"}),
    ("rive", {"board": "hex3", "swap": True, "single_stones": True}),
    ("strands", {"layout": "hex4", "cover": "up-to"}),
    ("strands", {"layout": "hex4", "cover": "exact"}),
]


def variant_id(variant) -> str:
    game, kwargs = variant
    return game + "-" + "-".join(str(v) for v in kwargs.values())


def cells(move) -> tuple[tuple[str, ...], tuple[str, ...]]:
    placed, removed = move.placed, move.removed
    assert isinstance(placed, tuple) and isinstance(removed, tuple)
    assert all(isinstance(c, str) for c in placed + removed)
    return placed, removed


def own_view(move) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """What `placed` and `removed` must be, from each game's own attributes."""
    if hasattr(move, "is_pass"):  # Reversi
        return (() if move.is_pass else (move.square,)), ()
    if hasattr(move, "captures"):  # Cephalopod
        return (move.square,), move.captures
    if hasattr(move, "is_swap"):  # Rive
        return (() if move.cell is None else (move.cell,)), move.removed
    return move.cells, ()  # Strands


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_engine_and_twin_moves_place_and_remove_the_same_cells_along_random_games(variant):
    game, kwargs = variant
    rng = random.Random(variant_id(variant))
    for _ in range(3):
        engine, twin = ENGINES[game](**kwargs), REFERENCES[game](**kwargs)
        while not engine.is_over():
            moves, twin_moves = engine.legal_moves(), twin.legal_moves()
            assert [cells(m) for m in moves] == [cells(m) for m in twin_moves]
            assert [cells(m) for m in moves] == [own_view(m) for m in moves]
            move = rng.choice(moves)
            engine.play(move)
            twin.play(str(move))
        assert [cells(m) for m in engine.history] == [cells(m) for m in twin.history]


@pytest.mark.parametrize(
    ("game", "kwargs", "setup", "move", "placed", "removed"),
    [
        ("reversi", {}, [], "d3", ("d3",), ()),
        ("cephalopod", {"rows": 3, "cols": 3}, ["b1", "a2", "c2"], "b2xc2,a2,b1", ("b2",), ("b1", "a2", "c2")),
        ("cephalopod", {"rows": 3, "cols": 3}, [], "a1", ("a1",), ()),
        ("rive", {"board": "hex3", "swap": True}, ["c3"], "swap", (), ()),
        ("strands", {"layout": "hex4"}, [], None, None, ()),
    ],
)
def test_a_move_says_what_it_placed_and_removed(game, kwargs, setup, move, placed, removed):
    for make in (ENGINES[game], REFERENCES[game]):
        g = make(**kwargs)
        for m in setup:
            g.play(m)
        m = g.legal_moves()[0] if move is None else next(x for x in g.legal_moves() if x == move)
        assert cells(m) == ((m.cells if placed is None else placed), removed)


def test_a_pass_places_and_removes_nothing():
    # White to move with no placement, Black with one (d4): White's one move is the pass.
    position = "4 bbbb/bbbb/bbw./bbb. w"
    for make in (bc.Reversi, ref.Reversi):
        game = make.from_position(position)
        (only,) = game.legal_moves()
        assert only.is_pass and cells(only) == ((), ())


def test_rive_single_stone_removals_remove_their_one_stone():
    """A capture in the single-stone form: the placement alone, then one removal per stone."""
    for make in (bc.Rive, ref.Rive):
        rng = random.Random(7)
        game = make(board="hex3", single_stones=True)
        seen = False
        for _ in range(400):
            if game.is_over():
                game = make(board="hex3", single_stones=True)
            moves = game.legal_moves()
            for m in moves:
                if m.is_removal:
                    assert cells(m) == ((), (str(m)[1:],))
                    seen = True
            game.play(rng.choice(moves))
        assert seen


# ---- the step form: plane names and the other player's view -----------------------------


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_step_forms_name_their_planes_and_show_either_side_as_the_twin(variant):
    game, kwargs = variant
    rng = random.Random(variant_id(variant))
    engine, twin = ENGINES[game](**kwargs).actions(), REFERENCES[game](**kwargs).actions()
    names = engine.observation_planes
    assert names == twin.observation_planes and len(names) == engine.observation_shape[0]
    mover = [i for i, n in enumerate(names) if n.startswith("mover")]
    opponent = [i for i, n in enumerate(names) if n.startswith("opponent")]
    assert mover and len(mover) == len(opponent)
    while True:
        own = engine.observation()
        for player in (bc.BLACK, bc.WHITE, "black", "white"):
            view = engine.observation(player)
            assert np.array_equal(view, twin.observation(player))
            side = player if isinstance(player, int) else ["black", "white"].index(player)
            if side == engine.to_move:
                assert np.array_equal(view, own)
            else:
                assert np.array_equal(view[mover], own[opponent]) and np.array_equal(view[opponent], own[mover])
                rest = [i for i in range(len(names)) if i not in mover + opponent]
                assert np.array_equal(view[rest], own[rest])
        if engine.is_over():
            break
        action = rng.choice(engine.legal_actions())
        engine.apply_action(action)
        twin.apply_action(action)


@pytest.mark.parametrize("bad", [2, -1, "red", "BLACK", 1.0, True])
def test_observing_from_a_player_who_is_not_one_is_a_value_error(bad):
    for state in (bc.Reversi().actions(), ref.Reversi().actions()):
        with pytest.raises(ValueError, match="player must be"):
            state.observation(bad)


def test_the_other_side_of_a_reversi_position_is_that_position_with_the_other_side_to_move():
    black = bc.Reversi().actions()
    white = bc.Reversi.from_position(bc.Reversi().position()[:-1] + "w").actions()
    assert np.array_equal(black.observation(bc.WHITE), white.observation())
    assert np.array_equal(white.observation("black"), black.observation())


# ---- pictures read the attributes --------------------------------------------------------


class _Opaque:
    """A move whose text says nothing: only its attributes do."""

    def __init__(self, move) -> None:
        self.placed, self.removed = move.placed, move.removed

    def __str__(self) -> str:
        return "?"


class Cephalopod(ref.Cephalopod):
    @property
    def history(self):
        return [_Opaque(m) for m in super().history]


def test_pictures_mark_the_cells_the_last_move_says_not_its_text():
    import xml.etree.ElementTree as ET

    game = Cephalopod(rows=3, cols=3)
    for move in ("b1", "a2", "c2", "b2xb1,a2,c2"):
        game.play(move)
    root = ET.fromstring(bc.svg.render(game))
    marked = [e for e in root.iter() if (e.get("class") or "") in ("last-move", "removed")]
    assert sorted(e.get("class") for e in marked) == ["last-move", "removed", "removed", "removed"]
