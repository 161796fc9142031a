"""Text input (docs/design.md, "Text input" and "Input limits"): every parser of every game,
engine and twin, splits text by the same rules, rejects what it cannot read with NotationError
(lone surrogates included), and is linear in its input (inputs that took seconds or minutes to
reject when a parser was quadratic now finish well inside a hang detector)."""

from __future__ import annotations

import sys
import threading

import boardcore as bc
import boardcore.reference as ref
import pytest
from boardcore import mcts
from harness import ENGINES, snapshot

GAMES = [engine.__name__ for engine in ENGINES.values()]  # the registry's games


def new_game(module, name):
    return {
        "Reversi": lambda: module.Reversi(size=6),
        "Cephalopod": lambda: module.Cephalopod(3, 3),
        "Rive": lambda: module.Rive(board="hex3", swap=True),
        "Strands": lambda: module.Strands("hex4"),
    }[name]()


def short_game(module, name):
    """A game two moves in, so that positions and records have stones and moves."""
    game = new_game(module, name)
    for _ in range(2):
        game.play(str(game.legal_moves()[0]))
    return game


def outcome(call):
    """What a call gives: ("ok", observable result) or ("error", exception type)."""
    try:
        result = call()
    except (bc.NotationError, bc.IllegalMoveError) as error:
        return ("error", type(error).__name__)
    if hasattr(result, "position"):
        return ("ok", result.position(), [str(m) for m in result.history])
    return ("ok", result)


# ---- the same rules in the engine and the twin ---------------------------------------------

# Every character Python or Rust treats as whitespace or a line break, and the usual suspects.
TRICKY = sorted(
    {chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()}
    | {chr(c) for c in range(0x20)}
    | {
        "\x7f",
        "\x85",
        "\u00a0",
        "\u1680",
        "\u180e",
        "\u200b",
        "\u2028",
        "\u2029",
        "\u202f",
        "\u205f",
        "\u3000",
        "\ufeff",
        "\x00",
    }
)


def contexts(name):
    """(label, text-from-a-character) for each place a character can sit in a record, a position
    or a move of this game."""
    game = short_game(bc, name)
    record = game.record()
    tag_lines, moves = record.split("\n\n")
    first, second = [str(m) for m in game.history]
    position = game.position()
    return [
        ("record line break", lambda c: c.join(tag_lines.split("\n")) + c + c + moves),
        ("record around", lambda c: c + record + c),
        ("between moves", lambda c: f"{tag_lines}\n\n{first}{c}{second}\n"),
        ("tag spacing", lambda c: record.replace('[Game "', f'[Game {c}"', 1)),
        ("tag end", lambda c: record.replace('"]', f'"{c}]', 1)),
        ("position around", lambda c: c + position + c),
        ("position field separator", lambda c: c.join(position.split(" "))),
    ]


@pytest.mark.parametrize("name", GAMES)
def test_engine_and_twin_read_tricky_characters_alike(name):
    """Both accept with the same result or both raise NotationError, for every tricky character
    in every place (record line breaks, blanks around and inside records, positions, moves)."""
    for label, make in contexts(name):
        reader = "position" if label.startswith("position") else "record"
        for char in TRICKY:
            text = make(char)
            results = []
            for module in (bc, ref):
                cls = getattr(module, name)
                read = cls.from_position if reader == "position" else cls.from_record
                results.append(outcome(lambda: read(text)))
            assert results[0] == results[1], (label, repr(char))
            if reader == "record":
                assert outcome(lambda: bc.load_record(text)) == results[0], (label, repr(char))


@pytest.mark.parametrize("name", GAMES)
def test_engine_and_twin_read_moves_with_tricky_characters_alike(name):
    for char in TRICKY:
        move = str(short_game(bc, name).legal_moves()[0])
        for text in (char + move, move + char, move[:1] + char + move[1:], char):
            results = []
            for module in (bc, ref):
                game = short_game(module, name)
                before = snapshot(game)
                results.append((outcome(lambda: game.play(text)), game.position(), game.is_legal(text)))
                if results[-1][0][0] == "error":
                    assert snapshot(game) == before
            assert results[0] == results[1], repr(text)
            assert (short_game(bc, name).legal_moves()[0] == text) == (short_game(ref, name).legal_moves()[0] == text)


@pytest.mark.parametrize("name", GAMES)
def test_only_crlf_lf_and_cr_end_lines(name):
    game = short_game(bc, name)
    record = game.record()
    for newline in ("\r\n", "\r", "\n"):
        for module in (bc, ref):
            replayed = getattr(module, name).from_record(record.replace("\n", newline))
            assert replayed.position() == game.position()
        assert bc.load_record(record.replace("\n", newline)) == game
        assert bc.load_records(record.replace("\n", newline) * 2) == [game, game]
    for not_a_newline in ("\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"):
        for read in (bc.load_record, getattr(bc, name).from_record, getattr(ref, name).from_record):
            with pytest.raises(bc.NotationError):
                read(record.replace("\n", not_a_newline))


# ---- lone surrogates -------------------------------------------------------------------------


def text_entry_points(module, name):
    """(label, call taking one text) for every entry point of a game that reads text."""
    game = short_game(module, name)
    cls = type(game)
    move = game.legal_moves()[0]
    points = [
        ("from_position", cls.from_position),
        ("from_record", cls.from_record),
        ("play", lambda text: game.copy().play(text)),
    ]
    if module is bc:
        points += [
            ("load_record", bc.load_record),
            ("load_records", bc.load_records),
            ("Move._restore", lambda text: type(move)._restore(move.__reduce__()[1][0], text)),
            ("Searcher.advance", lambda text: mcts.Searcher(game, 1).advance(text)),
        ]
    return game, move, points


@pytest.mark.parametrize("module", [bc, ref], ids=["engine", "twin"])
@pytest.mark.parametrize("name", GAMES)
def test_lone_surrogates_are_notation_errors(module, name):
    game, move, points = text_entry_points(module, name)
    before = snapshot(game)
    valid = {
        "from_position": game.position(),
        "from_record": game.record(),
        "play": str(move),
        "load_record": game.record(),
        "load_records": game.record(),
        "Move._restore": str(move),
        "Searcher.advance": str(move),
    }
    for label, call in points:
        text = valid[label]
        for surrogate in ("\ud800", "\udfff", "\udc80"):
            for bad in (surrogate, surrogate + text, text + surrogate, text[:2] + surrogate + text[2:]):
                with pytest.raises(bc.NotationError):
                    call(bad)
    for surrogate in ("\ud800", str(move) + "\udfff"):
        assert not game.is_legal(surrogate)
        assert (move == surrogate) is False
        assert (move != surrogate) is True
    assert snapshot(game) == before


def test_other_text_arguments_with_surrogates_are_value_errors():
    for call in (
        lambda: bc.Reversi(size="\ud800"),
        lambda: bc.Reversi(blocked=["\ud800"]),
        lambda: bc.Reversi(handicap_color="\ud800"),
        lambda: bc.Rive(board="\ud800"),
        lambda: bc.Strands(layout="\ud800"),
        lambda: bc.Strands(cover="\ud800"),
        lambda: bc.VectorEnv("\ud800", 1),
    ):
        with pytest.raises(ValueError):
            call()


# ---- linear time ------------------------------------------------------------------------------


def within_seconds(call, seconds=20.0):
    """Runs `call` in a thread and returns what it returned or raised (as `outcome` does); fails
    if it has not finished within `seconds`. A hang detector (the quadratic parsers took minutes
    on these inputs), not a benchmark."""
    result = []
    thread = threading.Thread(target=lambda: result.append(outcome(call)), daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still running after {seconds} s"
    assert result, "the call raised something other than NotationError or IllegalMoveError"
    return result[0]


def pathological_inputs():
    size = 300_000
    return {
        "line feeds": "\n" * size,  # 80,000 took 8 s in load_record's regex
        "carriage returns": "\r" * size,
        "blank lines with spaces": " \t\n" * (size // 3),
        "many tags": '[Game "reversi"]\n' + "".join(f'[T{i} "x"]\n' for i in range(200_000)),  # 90,000 took 8-11 s
        "a repeated tag": '[Game "reversi"]\n' * 90_000,
        "a long line": "a" * size,
        "a long tag value": '[Game "' + "x" * size,
        "long digits": "hex" + "9" * size,
        "repeated cells": "c3x" + ",".join(["a1"] * (size // 3)),
        "repeated rows": "8 " + "/" * size + " b",
        "repeated board rows": ",".join(["1@0"] * (size // 4)) + " ... b",
        "repeated moves": '[Game "reversi"]\n[Board "8"]\n\n' + "d3 " * (size // 3),
        "repeated words": "hex3 ...../ b " + "swap " * (size // 5),
        "a megabyte of garbage": "".join(chr(32 + (i * 7919) % 95) for i in range(1_000_000)),
    }


def test_pathological_inputs_are_rejected_quickly_everywhere():
    inputs = pathological_inputs()
    readers = [bc.load_record, bc.load_records]
    for name in GAMES:
        for module in (bc, ref):
            cls = getattr(module, name)
            game = new_game(module, name)
            readers += [cls.from_position, cls.from_record, game.play]
    for label, text in inputs.items():
        for read in readers:
            result = within_seconds(lambda: read(text))
            if read is bc.load_records and not text.strip():
                assert result == ("ok", []), label  # blank text holds no record
            else:
                assert result == ("error", "NotationError"), (label, read)


def test_a_record_has_at_most_64_tags():
    tags = "".join(f'[T{i} "x"]\n' for i in range(64))
    with pytest.raises(bc.NotationError, match="more than 64 tags"):
        bc.Reversi.from_record('[Game "reversi"]\n' + tags)


@pytest.mark.parametrize("module", [bc, ref], ids=["engine", "twin"])
@pytest.mark.parametrize("name", GAMES)
def test_positions_and_moves_longer_than_4096_characters_are_refused(module, name):
    game = short_game(module, name)
    position = game.position()
    move = str(game.legal_moves()[0])
    assert type(game).from_position(position + " " * (4096 - len(position))) == game
    with pytest.raises(bc.NotationError, match="at most 4096 characters"):
        type(game).from_position(position + " " * (4097 - len(position)))
    game.copy().play(" " * (4096 - len(move)) + move)
    with pytest.raises(bc.NotationError, match="at most 4096 characters"):
        game.play(" " * (4097 - len(move)) + move)
