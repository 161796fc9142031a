"""Render modes of the PettingZoo and Gymnasium environments, as those frameworks define them
(``boardcore.adapters._render``): ``"human"`` prints, ``"ansi"`` returns the text and prints
nothing, ``"rgb_array"`` returns pixels of a fixed shape; checked with PettingZoo's own
``render_test`` and Gymnasium's ``check_env``."""

import random
import sys
import warnings

import boardcore as bc
import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")
pytest.importorskip("resvg_py")  # the rasteriser and the pixel reader: every env offers "rgb_array"
pytest.importorskip("PIL")

from boardcore.adapters._render import board_text
from boardcore.adapters.pettingzoo import env, raw_env
from pettingzoo.test import render_test

# Every game, small and as it comes; Reversi also the Octagon (cut squares) and holes with a handicap.
VARIANTS = [
    ("reversi", {"size": 6}),
    ("reversi", {"size": "octagon"}),
    ("reversi", {"blocked": ["b2", "g7"], "handicap": 2}),
    ("cephalopod", {"rows": 3, "cols": 3}),
    ("cephalopod", {}),
    ("rive", {"board": "hex3"}),
    ("rive", {}),
    ("strands", {"layout": "hex4"}),
    ("strands", {}),
]
IDS = [f"{game}-{'-'.join(f'{k}={v}' for k, v in variant.items()) or 'default'}" for game, variant in VARIANTS]
SMALL = [
    (g, v) for g, v in VARIANTS if v in ({"size": 6}, {"rows": 3, "cols": 3}, {"board": "hex3"}, {"layout": "hex4"})
]
SMALL_IDS = [g for g, _ in SMALL]


def play(e, seed: int = 0):
    """Random legal actions to the end of the game; yields after each step."""
    rng = random.Random(seed)
    for agent in e.agent_iter():
        observation, _, termination, truncation, _ = e.last()
        if termination or truncation:
            e.step(None)
        else:
            e.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        yield agent


@pytest.mark.parametrize(("game", "variant"), VARIANTS, ids=IDS)
def test_every_game_passes_the_pettingzoo_render_test(game, variant):
    render_test(lambda render_mode=None: env(game, render_mode=render_mode, **variant))


def test_the_render_modes_are_pettingzoos_three():
    assert raw_env("reversi").metadata["render_modes"] == ["human", "ansi", "rgb_array"]


@pytest.mark.parametrize(("game", "variant"), SMALL, ids=SMALL_IDS)
def test_ansi_returns_the_text_board_and_prints_nothing(game, variant, capsys):
    e = env(game, render_mode="ansi", **variant)
    e.reset(seed=0)
    for _ in play(e):
        text = e.render()
        assert isinstance(text, str) and e.unwrapped._state.position() in text
    assert capsys.readouterr().out == ""


def test_the_text_board_says_who_moves_and_the_result():
    e = raw_env("reversi", render_mode="ansi", size=6)
    e.reset()
    start = bc.Reversi(size=6)
    assert e.render() == f"{start}\n{start.position()}\n"  # print(game)'s board and status line
    assert e.render().splitlines()[-2] == "Black (b) to move"
    for _ in play(e):
        pass
    result = {None: "a draw", bc.BLACK: "Black wins", bc.WHITE: "White wins"}[e._state.winner()]
    assert e.render().splitlines()[-2] == f"Game over: {result}"


@pytest.mark.parametrize(("game", "variant"), SMALL, ids=SMALL_IDS)
def test_human_prints_the_board_on_reset_and_after_every_step(game, variant, capsys):
    e = env(game, render_mode="human", **variant)
    e.reset(seed=0)
    assert capsys.readouterr().out == board_text(e.unwrapped._state)
    steps = 0
    rng = random.Random(0)
    while not e.unwrapped._state.is_over():
        observation, *_ = e.last()
        e.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        steps += 1
        assert capsys.readouterr().out == board_text(e.unwrapped._state), "each step prints the board it leaves"
    assert steps > 1
    assert e.render() is None and capsys.readouterr().out == board_text(e.unwrapped._state)


@pytest.mark.parametrize(("game", "variant"), SMALL, ids=SMALL_IDS)
def test_rgb_array_frames_keep_their_shape_and_change_with_the_position(game, variant):
    e = env(game, render_mode="rgb_array", **variant)
    e.reset(seed=0)
    first = e.render()
    assert first.dtype == np.uint8 and first.ndim == 3 and first.shape[2] == 3
    assert first.shape[1] == 480
    assert len(np.unique(first.reshape(-1, 3), axis=0)) > 2, "a board, not a blank picture"
    previous, changed = first, 0
    for _ in play(e):
        frame = e.render()
        assert frame.shape == first.shape and frame.dtype == np.uint8
        changed += not np.array_equal(frame, previous)
        previous = frame
    assert changed > 0 and not np.array_equal(previous, first)


def test_every_stone_placed_changes_the_picture():
    """A Strands turn under way shows the cells it has covered so far (the notation keeps them
    apart until the turn ends), so each stone shows in the frame of the action that placed it."""
    e = raw_env("strands", render_mode="rgb_array", layout="hex4")
    e.reset()
    previous, placed = e.render(), 0

    def stones():
        board = e._state.position().split()[1]
        return board.count("b") + board.count("w") + len(e._state.covered)

    rng = random.Random(3)
    while not e._state.is_over():
        before = stones()
        e.step(int(rng.choice(e._state.legal_actions())))
        frame = e.render()
        if stones() > before:
            placed += 1
            assert not np.array_equal(frame, previous)
        previous = frame
    assert placed > 10


def test_a_strands_turn_under_way_shows_its_covered_cells_as_the_movers_stones():
    e = raw_env("strands", render_mode="ansi", layout="hex4")
    e.reset()
    state = e._state
    while not state.covered:
        e.step(state.legal_actions()[0])
    mover = "bw"[state.to_move]
    grid = e.render().split(" to move")[0].rsplit("\n", 1)[0]  # the board, without the lines after it
    without = str(bc.Strands.from_position(state.position())).rsplit("\n", 1)[0]  # the notation keeps them apart
    assert grid != without and grid.count(mover) - without.count(mover) == len(state.covered) > 0


def test_an_unknown_render_mode_is_a_value_error_naming_the_modes():
    with pytest.raises(ValueError, match=r"'human', 'ansi', 'rgb_array'.*got 'rgb'"):
        env("reversi", render_mode="rgb")


def test_render_without_a_mode_warns_and_returns_none():
    e = env("reversi", size=6)
    e.reset()
    with pytest.warns(UserWarning, match="without specifying any render mode"):
        assert e.render() is None


def test_rgb_array_without_the_rasteriser_names_the_extra(monkeypatch):
    for module in ("resvg_py", "cairosvg"):
        monkeypatch.setitem(sys.modules, module, None)
    with pytest.raises(ImportError, match=r"boardcore\[pettingzoo\]"):
        env("reversi", render_mode="rgb_array")


# ---------------------------------------------------------------- the Gymnasium single-agent env


@pytest.mark.parametrize("render_mode", ["human", "ansi", "rgb_array"])
def test_gymnasium_make_takes_the_same_render_modes_and_passes_check_env(render_mode, capsys):
    from boardcore.adapters.gymnasium import make
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*not having a spec")
        check_env(make("rive", render_mode=render_mode, board="hex3"))
    assert make("rive", board="hex3").metadata["render_modes"] == ["human", "ansi", "rgb_array"]


def test_gymnasium_ansi_prints_nothing_and_human_prints(capsys):
    from boardcore.adapters.gymnasium import make

    quiet, loud = make("reversi", render_mode="ansi", size=6), make("reversi", render_mode="human", size=6)
    for e in (quiet, loud):
        _, info = e.reset(seed=0)
        e.step(int(np.flatnonzero(info["action_mask"])[0]))
        if e is quiet:
            assert isinstance(e.render(), str) and capsys.readouterr().out == ""
    assert "Black (b) to move" in capsys.readouterr().out


def test_gymnasium_rgb_array_frames_keep_their_shape():
    from boardcore.adapters.gymnasium import make

    e = make("cephalopod", render_mode="rgb_array", rows=3, cols=3)
    _, info = e.reset(seed=0)
    first = e.render()
    _, _, _, _, info = e.step(int(np.flatnonzero(info["action_mask"])[0]))
    second = e.render()
    assert first.shape == second.shape and second.dtype == np.uint8 and not np.array_equal(first, second)


def test_gymnasium_unknown_render_mode_is_a_value_error():
    from boardcore.adapters.gymnasium import make

    with pytest.raises(ValueError, match="render_mode"):
        make("reversi", render_mode="rgb")
