"""An atheris harness over boardcore's Python entry points, each checked against its twin in
boardcore.reference (docs/reliability.md):

- mode 0, text: ``from_position`` and ``from_record`` of every game and ``load_record``: a
  success or a ``NotationError``; engine and twin accept the same texts and read the same game;
- mode 1, a move's text against a game in progress: ``is_legal``, ``play`` and ``Move == text``
  agree with the twin; a refused move changes nothing; comparison never raises;
- mode 2, a random API operation sequence on an engine game and its twin (play by index, play
  text, undo, perft, count_moves, random_move, copy, records), compared after every step.

The first byte picks the mode; the rest is text (UTF-8, invalid bytes becoming lone surrogates)
or, in mode 2, the operations. Run it with ``fuzz/run.sh`` or directly:

    python fuzz/python/fuzz_api.py -max_total_time=60 fuzz/python/corpus

``tests/test_fuzz_corpus.py`` replays the committed corpus through :func:`one_input`.
"""

from __future__ import annotations

import sys

try:
    import atheris
except ImportError:  # the corpus replay in the test suite needs no atheris
    atheris = None

if atheris is not None and __name__ == "__main__":
    import numpy  # noqa: F401  (imported first so that only boardcore is instrumented: faster)

    with atheris.instrument_imports(include=["boardcore"]):
        import boardcore as bc
        import boardcore.reference as ref
else:
    import boardcore as bc
    import boardcore.reference as ref

GAME_CLASSES = [
    (bc.Reversi, ref.Reversi),
    (bc.Cephalopod, ref.Cephalopod),
    (bc.Rive, ref.Rive),
    (bc.Strands, ref.Strands),
]

# Small variants only: the twin is pure Python, and Rive's compound captures on large groups wait
# for issue 11's defect 1.
VARIANTS = [
    (bc.Reversi, ref.Reversi, {"size": 6}),
    (bc.Reversi, ref.Reversi, {"size": 4}),
    (bc.Reversi, ref.Reversi, {"blocked": ["b2", "g7"]}),
    (bc.Cephalopod, ref.Cephalopod, {"rows": 3, "cols": 3}),
    (bc.Cephalopod, ref.Cephalopod, {"rows": 2, "cols": 3}),
    (bc.Rive, ref.Rive, {"board": "hex2"}),
    (bc.Rive, ref.Rive, {"board": "hex3", "swap": True}),
    (bc.Rive, ref.Rive, {"board": "hex3", "single_stones": True}),
    (bc.Strands, ref.Strands, {"layout": "hex4", "cover": "exact"}),
    (bc.Strands, ref.Strands, {"layout": "hex4", "cover": "up-to"}),
]

# Texts the engine and twin still split differently (issue 11, defects 5 and 6, being fixed):
# lone surrogates, and line breaks other than \n and \r\n. The harness checks them for crashes
# and unchanged state, but not yet for the engine/twin agreement or the exception's class.
# Operations of a mode-2 input past this many are ignored (the twin is slow; longer inputs only
# cost time).
MAX_OPS = 64


def outcome(call, *args):
    """``("ok", value)`` or ``("error", class)``; anything but a ValueError (NotationError,
    IllegalMoveError) or TypeError escapes, and so does a Rust panic (a BaseException)."""
    try:
        return "ok", call(*args)
    except (ValueError, TypeError) as e:
        return "error", type(e)


def state(game) -> tuple:
    """What the engine and twin must agree on, and what a refused call must not change."""
    return (
        game.position(),
        [str(m) for m in game.history],
        game.to_move,
        game.is_over(),
        game.winner(),
        [str(m) for m in game.legal_moves()],
        game.zobrist(),
        game.record(),
    )


def brief_state(game) -> tuple:
    return game.position(), len(game.history), game.to_move, game.is_over(), game.zobrist()


def check_text(text: str) -> None:
    for engine_class, twin_class in GAME_CLASSES:
        for name in ("from_position", "from_record"):
            engine = outcome(getattr(engine_class, name), text)
            twin = outcome(getattr(twin_class, name), text)
            if engine[0] == "error":
                assert issubclass(engine[1], bc.NotationError), (name, text, engine)
            assert engine[0] == twin[0], (engine_class.__name__, name, text, engine, twin)
            if engine[0] == "ok":
                assert state(engine[1]) == state(twin[1]), (name, text)
    loaded = outcome(bc.load_record, text)
    if loaded[0] == "error":
        assert issubclass(loaded[1], bc.NotationError), (text, loaded)


def play_pair(engine, twin, text: str) -> None:
    """``text`` as a move on both: the same verdict; refused, nothing changed."""
    before = state(engine)
    assert before == state(twin)
    legal = engine.is_legal(text)
    assert legal == twin.is_legal(text), text
    e, t = outcome(engine.play, text), outcome(twin.play, text)
    assert (e[0] == "ok") == legal, (text, e)
    assert e[0] == t[0], (text, e, t)
    if e[0] == "error":
        assert state(engine) == before, text
    if t[0] == "error":
        assert state(twin) == before, text
    if e[0] == "ok" and t[0] == "ok":
        assert state(engine) == state(twin), text
        assert str(engine.undo()) == str(twin.undo())
        assert state(engine) == state(twin) == before


def compare_moves(engine, text: str) -> None:
    """``Move == text`` is a bool (True for the move's own notation) and never raises."""
    for move in engine.legal_moves()[:8] + engine.history[-2:]:
        assert move == str(move) and (move != str(move)) is False
        equal = outcome(lambda: move == text)
        assert equal[0] == "ok" and isinstance(equal[1], bool), (move, text, equal)
        if equal[1]:
            assert engine.is_legal(text) or move in engine.history, (move, text)
        assert (move == object()) is False and (move != 3) is True


def new_pair(index: int):
    engine_class, twin_class, kwargs = VARIANTS[index % len(VARIANTS)]
    return engine_class(**kwargs), twin_class(**kwargs)


def run_ops(ops: bytes) -> None:
    """Operation bytes on an engine game and its twin, compared after every step."""
    if not ops:
        return
    engine, twin = new_pair(ops[0])
    for i, op in enumerate(ops[1:MAX_OPS]):
        kind = op % 8
        moves = engine.legal_moves()
        if kind <= 3 and moves:
            move = moves[(op // 8) % len(moves)]
            engine.play(move)
            twin.play(str(move))
        elif kind == 4:
            if engine.history:
                assert str(engine.undo()) == str(twin.undo())
            else:  # an empty history: both refuse with IndexError, changing nothing
                for game in (engine, twin):
                    try:
                        game.undo()
                    except IndexError:
                        pass
                    else:
                        raise AssertionError(f"{type(game)} undid a move of an empty history")
        elif kind == 5:
            assert engine.count_moves() == twin.count_moves() == len(moves)
            assert engine.perft(1) == twin.perft(1) == max(len(moves), 1)
            if len(moves) <= 12:
                assert engine.perft(2) == twin.perft(2)
        elif kind == 6:
            seed = op * 1000 + i
            e, t = engine.random_move(seed=seed), twin.random_move(seed=seed)
            assert str(e) == str(t), (seed, e, t)
            copy = engine.copy()
            assert state(copy) == state(engine)
        else:
            play_pair(engine, twin, ["", "pass", "swap", "a1", "zz", "b2,c3", "-"][op // 8 % 7])
            replayed = bc.load_record(twin.record())
            assert state(replayed) == state(engine)
        if i % 8 == 7:
            assert state(engine) == state(twin), (i, op)
        else:  # the cheap part of the state after every step; all of it now and then
            assert brief_state(engine) == brief_state(twin), (i, op)
    assert state(engine) == state(twin)


def one_input(data: bytes) -> None:
    if not data:
        return
    mode, payload = data[0] % 3, data[1:]
    if mode == 2:
        run_ops(payload)
        return
    text = payload.decode("utf-8", errors="surrogateescape")
    if mode == 0:
        check_text(text)
    else:
        engine, twin = new_pair(len(text))
        for _ in range(2):
            move = engine.legal_moves()[0]
            engine.play(move)
            twin.play(str(move))
        play_pair(engine, twin, text)
        compare_moves(engine, text)


def main() -> None:
    if atheris is None:
        sys.exit("atheris is not installed: pip install atheris (a wheel for CPython 3.11 on Linux)")
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
