"""What the tests share: the differential harness of every game (the engine and its reference
twin, compared step by step: OpenSpiel's random-simulation test, with the twin as the oracle),
and a loader for the repository's scripts."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import boardcore as bc
import pytest
from boardcore._games import GAMES
from boardcore.reference._game import IllegalMoveError, NotationError

# From the game registry (python/boardcore/_games.py): a small variant of every game, quick to
# play to the end, each with its real rules; each game's engine class and reference twin by the
# name VectorEnv knows it by.
SMALL_GAMES = {name: dict(entry.small) for name, entry in GAMES.items()}
ENGINES = {name: entry.engine for name, entry in GAMES.items()}
REFERENCES = {name: entry.twin_class() for name, entry in GAMES.items()}

# A random Strands layout of side 3 (seed 1): small, and not one of the named layouts.
HEX3_LAYOUT = bc.Strands.random_layout(3, 1)

# The variants the step form (``actions()``) is tested on: every game with each board shape and
# option that changes its actions (holes, an octagon, a board not square, a swap, a random layout,
# both covers).
STEP_VARIANTS = [
    ("reversi", {"size": 8}),
    ("reversi", {"size": 6}),
    ("reversi", {"size": "octagon"}),
    ("reversi", {"size": 8, "blocked": ["b2", "g7"]}),
    ("cephalopod", {"rows": 3, "cols": 3}),
    ("cephalopod", {"rows": 3, "cols": 4}),
    ("cephalopod", {"rows": 5, "cols": 5}),
    ("rive", {"board": "hex3"}),
    ("rive", {"board": "hex3", "swap": True}),
    ("rive", {"board": "hex335"}),
    ("strands", {"layout": HEX3_LAYOUT, "cover": "up-to"}),
    ("strands", {"layout": HEX3_LAYOUT, "cover": "exact"}),
    ("strands", {"layout": "hex4", "cover": "up-to"}),
    ("strands", {"layout": "hex4", "cover": "exact"}),
]


def assert_same_state(engine, reference, *attributes: str) -> None:
    """Everything observable about the two states is equal (plus the game's own attributes)."""
    assert engine.position() == reference.position()
    assert [str(m) for m in engine.legal_moves()] == [str(m) for m in reference.legal_moves()]
    assert engine.to_move == reference.to_move
    assert engine.is_over() == reference.is_over()
    assert engine.winner() == reference.winner()
    assert tuple(engine.score()) == tuple(reference.score())
    assert engine.zobrist() == reference.zobrist()
    assert hash(engine) == hash(reference)
    for name in attributes:
        assert attribute_of(engine, name) == attribute_of(reference, name), name


def play_random_game(engine, reference, rng: random.Random, *attributes: str, max_moves: int = 10_000) -> None:
    """Plays one random game on both, comparing after every move; takes moves back now and then;
    checks the records agree and replay."""
    assert_same_state(engine, reference, *attributes)
    while not engine.is_over() and len(engine.history) < max_moves:
        move = rng.choice(engine.legal_moves())
        engine.play(move)
        reference.play(str(move))
        assert_same_state(engine, reference, *attributes)
        if rng.random() < 0.05:
            assert str(engine.undo()) == str(reference.undo())
            assert_same_state(engine, reference, *attributes)
            engine.play(str(move))
            reference.play(str(move))
    assert engine.record() == reference.record()
    replayed = bc.load_record(reference.record())
    assert replayed == engine
    assert [str(m) for m in replayed.history] == [str(m) for m in engine.history]


def same_verdict(engine_class, twin_class, text: str):
    """Both classes read a position: (engine game, twin game), or (None, None) when both refuse
    it with NotationError; fails when only one accepts it."""
    games = []
    for cls in (engine_class, twin_class):
        try:
            games.append(cls.from_position(text))
        except bc.NotationError:
            games.append(None)
    engine, twin = games
    assert (engine is None) == (twin is None), text
    return engine, twin


def snapshot(game):
    """Everything a rejected call must leave as it was."""
    return game.position(), [str(m) for m in game.history], game.to_move, game.record(), game.zobrist()


def assert_refused(game, error, call, arguments) -> None:
    """``call(argument)`` raises ``error`` for each argument and leaves the game exactly as it was."""
    before = snapshot(game)
    for argument in arguments:
        with pytest.raises(error):
            call(argument)
        assert snapshot(game) == before, argument


def assert_illegal(game, move: str) -> None:
    """A well-formed move the rules refuse here: ``is_legal`` says no, ``play`` raises
    IllegalMoveError (a ValueError), and the game is left exactly as it was."""
    before = snapshot(game)
    assert not game.is_legal(move)
    with pytest.raises(IllegalMoveError) as refused:
        game.play(move)
    assert isinstance(refused.value, ValueError)
    assert snapshot(game) == before


def assert_not_a_move(game, text: str) -> None:
    """Text that is not a move of the game: ``play`` raises NotationError (a ValueError),
    ``is_legal`` says no, and the game is left exactly as it was."""
    before = snapshot(game)
    with pytest.raises(NotationError) as refused:
        game.play(text)
    assert isinstance(refused.value, ValueError)
    assert not game.is_legal(text)
    assert snapshot(game) == before


def play_random(game, seed, max_moves=None):
    """Plays random legal moves (to the end, or ``max_moves``); the same choices for every
    implementation of the game, since both list the same moves in the same order."""
    rng = random.Random(seed)
    while not game.is_over() and (max_moves is None or len(game.history) < max_moves):
        game.play(rng.choice(game.legal_moves()))
    return game


def record_tags(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("[")]


class SplitMix64:
    """The documented generator (docs/reversi.md), written out again here so that the tests pin
    the algorithm itself rather than trust the reference's copy."""

    def __init__(self, state):
        self.state = state

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) % 2**64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
        return z ^ (z >> 31)

    def below(self, n):
        zone = 2**64 - (2**64 % n)
        while True:
            x = self.next()
            if x < zone:
                return x % n


def load_module(path: Path, name: str) -> ModuleType:
    """A script of the repository (docs/make_api.py, an example) imported as module `name`."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclasses look their module up there
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]
    return module


def attribute_of(game, name: str):
    """An attribute's value: a property's, or a method's answer (``cells()``), so that engine and
    twin compare by what they hold, not by bound methods."""
    value = getattr(game, name)
    return value() if callable(value) else value
