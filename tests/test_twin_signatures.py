"""Every public method of an engine class has a twin with the same parameters (issue 13, item 5).

For each game the engine class (boardcore.X), its move class and its step form (X.actions()) are
compared with the pure-Python twins in boardcore.reference: the same public names, and for every
callable the same parameters in the same order with the same names, kinds (positional, keyword
only) and defaults. Return annotations are not compared (the engine's methods have none).

Defaults: the binding writes "not given" as None (its arguments are optional objects), while a twin
may write the value the engine then uses (``size=8``). Such a pair is accepted only when calling the
twin with None gives what calling it with its own default gives (checked below for each pair), so
a caller who passes None explicitly gets the same game from both.
"""

from __future__ import annotations

import inspect

import boardcore as bc
import boardcore.reference as ref
import pytest
from harness import ENGINES

GAMES = [engine.__name__ for engine in ENGINES.values()]  # the registry's games

# Public names that legitimately exist on the engine only, per kind of class. Keep each entry
# commented: the twin is the rules written plainly, not a second implementation of everything.
ENGINE_ONLY = {
    "game": set(),
    "move": set(),
    "actions": {
        "num_actions",  # the size of the action space: adapters read it from the engine only
        "observation_shape",  # numpy plane layout for learning code, engine-side only
        "symmetries",  # board symmetries of observations (test_symmetries.py tests the engine)
        "action_cell",  # actions placed on the observation planes' grid, as observation_shape
        "cell_actions",  # its inverse (test_step_pickle.py tests both on the engine)
    },
}
# Public names that exist on a twin only (none today): a twin must not grow an API of its own.
TWIN_ONLY: dict[str, set[str]] = {"game": set(), "move": set(), "actions": set()}


def classes(kind: str, game: str) -> tuple[type, type]:
    engine, twin = getattr(bc, game), getattr(ref, game)
    if kind == "game":
        return engine, twin
    if kind == "move":
        return type(engine().legal_moves()[0]), type(twin().legal_moves()[0])
    return type(engine().actions()), type(twin().actions())


def public_names(cls: type) -> set[str]:
    return {name for name in dir(cls) if not name.startswith("_")}


def parameters(function) -> list[inspect.Parameter]:
    """The parameters a caller passes: without `self` (an unbound method's first parameter)."""
    params = list(inspect.signature(function).parameters.values())
    if params and params[0].name == "self":
        params = params[1:]
    return params


def callable_members(cls: type, kind: str) -> dict[str, object]:
    """Public methods, class methods and static methods, plus a game's constructor as `__init__`.
    Move and step-form classes are made by the games only (the engine refuses `ReversiMove(...)`;
    a twin's Move takes its notation, which its pickling uses): their constructors are not API."""
    members = {}
    for name in public_names(cls):
        member = getattr(cls, name)
        if callable(member) and not isinstance(inspect.getattr_static(cls, name), property):
            members[name] = member
    if kind == "game":
        members["__init__"] = cls
    return members


# (game, method, parameter) -> a call of the twin with that argument given as a keyword; its
# result with None must equal its result with the twin's own default (see the module docstring).
NONE_MEANS_DEFAULT = {
    ("Reversi", "__init__", "size"): lambda cls, **kw: cls(**kw).record(),
    ("Reversi", "__init__", "handicap"): lambda cls, **kw: cls(**kw).record(),
    ("Reversi", "__init__", "handicap_color"): lambda cls, **kw: cls(handicap=1, **kw).record(),
    ("Reversi", "random", "size"): lambda cls, **kw: cls.random(5, **kw).record(),
    ("Reversi", "random", "handicap"): lambda cls, **kw: cls.random(5, **kw).record(),
    ("Reversi", "random", "handicap_color"): lambda cls, **kw: cls.random(5, handicap=2, **kw).record(),
    ("Cephalopod", "__init__", "rows"): lambda cls, **kw: cls(**kw).record(),
    ("Cephalopod", "__init__", "cols"): lambda cls, **kw: cls(**kw).record(),
    ("Rive", "__init__", "board"): lambda cls, **kw: cls(**kw).record(),
    ("Rive", "__init__", "swap"): lambda cls, **kw: cls(**kw).record(),
    ("Rive", "__init__", "single_stones"): lambda cls, **kw: cls(**kw).record(),
    ("Strands", "__init__", "layout"): lambda cls, **kw: cls(**kw).record(),
    ("Strands", "__init__", "cover"): lambda cls, **kw: cls(**kw).record(),
    # perft's split_depth: None and 0 are both plain perft.
    ("Reversi", "perft", "split_depth"): lambda cls, **kw: cls(size=6).perft(3, **kw),
    ("Cephalopod", "perft", "split_depth"): lambda cls, **kw: cls(3, 3).perft(3, **kw),
    ("Rive", "perft", "split_depth"): lambda cls, **kw: cls(board="hex2").perft(3, **kw),
    ("Strands", "perft", "split_depth"): lambda cls, **kw: cls(layout="hex4").perft(1, **kw),
}


def describe(params: list[inspect.Parameter]) -> list[tuple[str, str]]:
    return [(p.name, p.kind.name) for p in params]


def same_default(game: str, method: str, engine: inspect.Parameter, twin: inspect.Parameter) -> bool:
    if engine.default == twin.default:
        return True
    return engine.default is None and (game, method, engine.name) in NONE_MEANS_DEFAULT


@pytest.mark.parametrize("kind", ["game", "move", "actions"])
@pytest.mark.parametrize("game", GAMES)
def test_the_twin_has_the_engines_public_names(game, kind):
    engine, twin = classes(kind, game)
    assert public_names(engine) - public_names(twin) == ENGINE_ONLY[kind]
    assert public_names(twin) - public_names(engine) == TWIN_ONLY[kind]


@pytest.mark.parametrize("kind", ["game", "move", "actions"])
@pytest.mark.parametrize("game", GAMES)
def test_every_method_has_a_twin_with_the_same_parameters(game, kind):
    engine, twin = classes(kind, game)
    twin_members = callable_members(twin, kind)
    for name, member in callable_members(engine, kind).items():
        if name in ENGINE_ONLY[kind]:
            continue
        assert name in twin_members, f"{game}.{name}: no twin method"
        ours, theirs = parameters(member), parameters(twin_members[name])
        assert describe(ours) == describe(theirs), f"{game}.{name}"
        for e, t in zip(ours, theirs):
            assert same_default(game, name, e, t), f"{game}.{name}({e.name}): {e.default!r} vs {t.default!r}"


def test_properties_are_properties_on_both():
    for game in GAMES:
        engine, twin = getattr(bc, game), getattr(ref, game)
        for name in public_names(engine):
            engine_is_data = inspect.isdatadescriptor(inspect.getattr_static(engine, name))
            assert engine_is_data == isinstance(inspect.getattr_static(twin, name), property), f"{game}.{name}"


@pytest.mark.parametrize("key", list(NONE_MEANS_DEFAULT), ids=lambda k: ".".join(k))
def test_none_means_the_default_on_the_twin_as_on_the_engine(key):
    game, method, name = key
    twin = getattr(ref, game)
    member = twin if method == "__init__" else getattr(twin, method)
    default = inspect.signature(member).parameters[name].default
    call = NONE_MEANS_DEFAULT[key]
    assert call(twin, **{name: None}) == call(twin, **{name: default}) == call(twin)
    assert call(getattr(bc, game), **{name: None}) == call(twin, **{name: None})


# ---- passes_count_as_ply: the flag the twins lacked -------------------------------------------

# White must pass at once, then Black has two replies, each followed by another pass.
PASS_POSITION = "4 bw../..../bw../.... w"


def conventions_differ(position: str) -> bool:
    s = bc.Reversi.from_position(position)
    return any(s.perft(d) != s.perft(d, passes_count_as_ply=False) for d in range(1, 6))


def positions_with_passes() -> list[str]:
    """PASS_POSITION plus positions a few plies before a pass in seeded random games on 4x4 and
    6x6, kept when the two conventions give different counts within five plies."""
    import random

    rng = random.Random(13)
    found = [PASS_POSITION]
    for _ in range(2000):
        game = bc.Reversi(size=rng.choice([4, 6]))
        seen = []
        while not game.is_over():
            seen.append(game.position())
            move = rng.choice(game.legal_moves())
            if move.is_pass and len(seen) >= 4:
                if conventions_differ(seen[-4]):
                    found.append(seen[-4])
                break
            game.play(move)
        if len(found) == 10:
            break
    return found


def test_the_positions_with_passes_do_tell_the_conventions_apart():
    assert conventions_differ(PASS_POSITION)
    assert len(positions_with_passes()) == 10


@pytest.mark.parametrize("position", positions_with_passes())
def test_reversi_passes_count_as_ply_agrees_with_the_engine(position):
    engine, twin = bc.Reversi.from_position(position), ref.Reversi.from_position(position)
    for passes in (True, False):
        for depth in range(6):
            assert twin.perft(depth, passes_count_as_ply=passes) == engine.perft(depth, passes_count_as_ply=passes)
        for depth in range(1, 5):
            assert twin.divide(depth, passes_count_as_ply=passes) == engine.divide(depth, passes_count_as_ply=passes)


@pytest.mark.parametrize(
    "game,kwargs",
    [("Cephalopod", {"rows": 3, "cols": 3}), ("Rive", {"board": "hex2"}), ("Strands", {"layout": "hex4"})],
)
def test_passes_count_as_ply_changes_nothing_in_games_without_passes(game, kwargs):
    engine, twin = getattr(bc, game)(**kwargs), getattr(ref, game)(**kwargs)
    for implementation in (engine, twin):
        for passes in (True, False):
            assert implementation.perft(2, passes_count_as_ply=passes) == engine.perft(2)
            assert implementation.divide(2, passes_count_as_ply=passes) == engine.divide(2)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("flag", [1, 0, None, "yes"])
def test_passes_count_as_ply_must_be_a_bool_on_both(game, flag):
    for cls in (getattr(bc, game), getattr(ref, game)):
        s = cls()
        with pytest.raises(TypeError):
            s.perft(1, passes_count_as_ply=flag)
        with pytest.raises(TypeError):
            s.divide(1, passes_count_as_ply=flag)


@pytest.mark.parametrize("game", GAMES)
def test_threads_none_is_one_thread_on_both(game):
    for cls in (getattr(bc, game), getattr(ref, game)):
        assert cls().perft(1, threads=None) == cls().perft(1, threads=1) == cls().perft(1)
