"""No input, however malformed, crashes the interpreter, surfaces a Rust panic, or changes a
state: every game, every entry point that reads text."""

from __future__ import annotations

import contextlib
import copy
import random
import string

import boardcore as bc
import pytest
from harness import snapshot
from hypothesis import given, settings
from hypothesis import strategies as st


def reversi_midgame():
    s = bc.Reversi(blocked=["b2", "g7"])
    for move in ["d3", "c5", "f6"]:
        s.play(move)
    return s


def cephalopod_midgame():
    s = bc.Cephalopod.from_position("3x3 1b1w./.2b./1w.. w")
    s.play("c1")
    return s


def rive_midgame():
    s = bc.Rive(board="hex3", swap=True, single_stones=True)
    for move in ["c3", "a1", "e3"]:
        s.play(move)
    return s


def strands_midgame():
    s = bc.Strands("hex4", "exact")
    for move in ["b2", "d4", "c2,c3"]:
        s.play(move)
    return s


MIDGAMES = {
    "reversi": reversi_midgame,
    "cephalopod": cephalopod_midgame,
    "rive": rive_midgame,
    "strands": strands_midgame,
}


GARBAGE = st.one_of(
    st.text(max_size=40),
    st.text(alphabet=string.ascii_letters + string.digits + ' ./#-bwx,\n[]"', max_size=120),
    st.binary(max_size=20).map(lambda b: b.decode("latin-1")),
)


@pytest.mark.parametrize("game", MIDGAMES)
@settings(max_examples=300, deadline=None)
@given(text=GARBAGE)
def test_garbage_never_crashes_and_never_changes_the_state(game, text):
    """Any string, anywhere: ValueError (NotationError, IllegalMoveError) or success, nothing else."""
    s = MIDGAMES[game]()
    cls = type(s)
    before = snapshot(s)
    for parse in (cls.from_position, cls.from_record, bc.load_record):
        with contextlib.suppress(ValueError):
            parse(text)
    s.is_legal(text)
    assert snapshot(s) == before
    try:
        s.play(text)
    except ValueError:
        assert snapshot(s) == before
    else:  # the garbage happened to be a legal move
        s.undo()
        assert snapshot(s) == before


@pytest.mark.parametrize("game", MIDGAMES)
def test_a_sweep_of_random_strings_is_survived(game):
    rng = random.Random(1)
    alphabet = string.printable + "éß€\x00"
    s = MIDGAMES[game]()
    cls = type(s)
    for _ in range(5000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
        for parse in (cls.from_position, bc.load_record):
            with pytest.raises(ValueError):
                parse(text)
        before = copy.deepcopy(s)
        try:
            s.play(text)
        except ValueError:
            assert s == before and s.history == before.history
        else:
            s.undo()
