"""The protocol every game class keeps, tested once over all eight classes (the four engines and
their four pure-Python twins), in place of a copy per game: OpenSpiel-style random simulation
checking invariants at every position, undo, copies, position and record round trips, hashing,
rejected calls that change nothing, and perft's generic promises.

A game's own rules (move order, notation details, records' tags, published perft counts) stay in
its tests/test_<game>_rules.py and tests/data/perft."""

from __future__ import annotations

import copy
import itertools
import pickle
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import boardcore as bc
import boardcore.reference as ref
import pytest
from harness import assert_refused, attribute_of, snapshot

BLACK, WHITE = 0, 1


def strands_winner(score) -> int | None:
    """Strands: group sizes from the largest, compared position by position, a missing group 0."""
    black, white = (list(sizes) for sizes in score)
    length = max(len(black), len(white))
    black += [0] * (length - len(black))
    white += [0] * (length - len(white))
    return None if black == white else BLACK if black > white else WHITE


# ---- what each cell holds, read from the position notation (each game's docs/<game>.md) --------

STONES = {"b": bc.Piece(BLACK), "w": bc.Piece(WHITE)}


def reversi_board(position: str) -> list:
    """Reversi's notation writes one character per square of the grid: `.bw#-`."""
    other = {".": None, "#": bc.HOLE, "-": bc.CUT}
    return [STONES.get(c, other.get(c)) for c in position.split(" ")[1].replace("/", "")]


def cephalopod_board(position: str) -> list:
    """Cephalopod's writes `.` or a die: its pips, then its owner (`6w`)."""
    tokens = re.findall(r"\.|\d[bw]", position.split(" ")[1])
    return [None if t == "." else bc.Piece("bw".index(t[1]), int(t[0])) for t in tokens]


def hex_board(position: str) -> list:
    """Rive's and Strands' write `b`, `w`, or for an empty cell `.` (Rive) or its label (Strands)."""
    return [STONES.get(c) for c in position.split(" ")[1].replace("/", "")]


def count_winner(score) -> int | None:
    black, white = score
    return None if black == white else BLACK if black > white else WHITE


@dataclass
class Spec:
    """What the shared tests need to know of one game."""

    name: str
    # Starts: functions of the class giving a fresh game (the union of what the per-game copies
    # of these tests used: every board, variant and set-up position).
    starts: list[Callable[[Any], Any]]
    # Attributes saying how the game was set up, kept by copies and records.
    setup: tuple[str, ...]
    # The subset the position notation carries.
    in_position: tuple[str, ...]
    winner_by_score: Callable[[Any], int | None]
    # What each cell holds, in board order, read from the position notation.
    board_of: Callable[[str], list]
    # Whether legal_moves() lists the moves in their sorted order (Strands lists by label first).
    moves_sorted: bool
    # Arguments of the wrong type for play() (TypeError).
    not_moves: list[Any]
    # A move must have been undone among the random games' moves (Cephalopod and Rive: a capture).
    some_move_has: str | None = None
    # More state a take-back must restore.
    extra_state: Callable[[Any], Any] = lambda game: None
    # More calls that must leave the game unchanged.
    extra_calls: list[Callable[[Any], Any]] = field(default_factory=list)
    # Random games stop after this many plies (the Rive twin's brute-force captures are slow on
    # hex335's late, large groups; every smaller board ends well before).
    max_plies: Callable[[Any], int] = lambda game: 10_000


SPECS = {
    "Reversi": Spec(
        "Reversi",
        [
            lambda R: R(),
            lambda R: R(4),
            lambda R: R.random(seed=3, size=6, handicap=1),
            lambda R: R(10, blocked=["j1", "a10"], handicap=2, handicap_color="white"),
            lambda R: R.random(seed=77, size="octagon", handicap=4),
            lambda R: R("octagon", blocked=["c1", "h10"], handicap=2, handicap_color=WHITE),
            lambda R: R.random(seed=8),
            lambda R: R(6, handicap=4),
            lambda R: R(10, blocked=["a1"]),
            lambda R: R.random(seed=2, size="octagon", handicap=1),
            lambda R: R.from_position("8 b#w...../...w..../...b..../...wb.../...bw.../......../......../........ b"),
            lambda R: R.from_position("4 bw../..../bw../.... w"),  # White must pass
        ],
        setup=("blocked", "seed", "handicap", "handicap_color", "size", "board_name"),
        in_position=("blocked", "size", "board_name"),
        winner_by_score=count_winner,
        board_of=reversi_board,
        moves_sorted=True,
        not_moves=[None, 3, 3.5, ["d3"], b"d3", ("d3",), {"square": "d3"}],
    ),
    "Cephalopod": Spec(
        "Cephalopod",
        [
            lambda C: C(),
            lambda C: C(2, 2),
            lambda C: C(3, 3),
            lambda C: C(4, 4),
            lambda C: C(3, 5),
            lambda C: C(5, 3),
            lambda C: C(2, 8),
            lambda C: C.from_position("3x3 .1b./1w.1w/.1b. b"),  # eleven capture sets on b2
            lambda C: C.from_position("3x3 1b.6w/.2w./... b"),
            lambda C: C.from_position("2x2 ../6w1w b"),
        ],
        setup=("rows", "cols"),
        in_position=("rows", "cols"),
        winner_by_score=count_winner,
        board_of=cephalopod_board,
        moves_sorted=True,
        not_moves=[None, 3, 3.5, ["b2"], b"b2", ("b2",), {"square": "b2"}],
        some_move_has="x",
        extra_calls=[lambda s: s.count_paths(2) if s.rows * s.cols <= 31 else None],
    ),
    "Rive": Spec(
        "Rive",
        [
            lambda R: R("hex3"),
            lambda R: R("hex3", swap=True),
            lambda R: R("hex3", single_stones=True),
            lambda R: R("hex2", swap=True, single_stones=True),
            lambda R: R([(3, 0), (4, 1), (3, 0), (1, 1)], single_stones=True),
            lambda R: R([(5, 0)], single_stones=True),
            lambda R: R("hex335", swap=True),
            lambda R: R.from_position("hex3 bb./...w/bw.bb/..../.bw w"),  # the rules' figure 3a
            lambda R: R.from_position("hex3 w../bw.b/...wb/.w../bb. w"),  # three triangles
            lambda R: R.from_position("hex3 w../bw.b/...wb/.w../bb. w single"),
            lambda R: R.from_position("5@0 bwbwb b swap single capture=a3:2"),  # a capture under way
            lambda R: R.from_position("hex3 .../..../..b../..../... w swap"),
        ],
        setup=("board_name", "rows", "cells", "swap", "single_stones"),
        in_position=("board_name", "rows", "cells", "swap", "single_stones"),
        winner_by_score=count_winner,
        board_of=hex_board,
        moves_sorted=True,
        not_moves=[None, 3, 3.5, ["c3"], b"c3", ("c3",), {"cell": "c3"}],
        some_move_has="x",
        extra_state=lambda s: s.groups(),
        max_plies=lambda game: 45 if len(game.cells()) > 19 else 10_000,
    ),
    "Strands": Spec(
        "Strands",
        [
            lambda S: S("hex4"),
            lambda S: S("hex4", "exact"),
            lambda S: S(S.random_layout(3, 9)),
            lambda S: S.from_position("up-to b33w/32223/322223/b2b122w/322223/32223/4334 w"),
            lambda S: S.from_position("exact b33w/32223/322223/b2b122w/322223/32223/4334 w"),
        ],
        setup=("cells", "labels", "cover", "layout_name", "rows", "side"),
        in_position=("cells", "cover", "rows", "side"),  # labels under stones are not written
        winner_by_score=lambda score: strands_winner(score),
        board_of=hex_board,
        moves_sorted=False,
        not_moves=[None, 5, 3.5, ["d3"], b"d3", ("d3",), {"cells": "d3"}],
    ),
}

CLASSES = [pytest.param(impl, name, id=f"{impl.__name__}.{name}") for name in SPECS for impl in (bc, ref)]


def starts(impl, name):
    """(index, fresh game) for every start of the game."""
    cls = getattr(impl, name)
    return [(i, make(cls)) for i, make in enumerate(SPECS[name].starts)]


def moves_of(game) -> list[str]:
    return [str(m) for m in game.legal_moves()]


def full_state(spec: Spec, game):
    """Everything a take-back must restore."""
    return (
        game.position(),
        game.zobrist(),
        game.to_move,
        len(game.history),
        game.score(),
        moves_of(game),
        spec.extra_state(game),
    )


def check_position(spec: Spec, cls, game) -> None:
    """The invariants of one position."""
    moves = game.legal_moves()
    names = [str(m) for m in moves]
    assert bool(moves) == (not game.is_over())
    assert game.count_moves() == len(moves)
    assert len(set(names)) == len(names)
    if hasattr(game, "moves"):
        assert [str(m) for m in game.moves()] == names
    for name in names[:60]:
        assert game.is_legal(name)
    if game.is_over():
        assert game.winner() == spec.winner_by_score(game.score())
    else:
        assert game.winner() is None
    check_colours_and_status(game)
    # The position notation round-trips.
    text = game.position()
    again = cls.from_position(text)
    assert again == game and again.position() == text and hash(again) == hash(game)
    assert again.to_move == game.to_move and moves_of(again) == names and again.history == []
    for attribute in spec.in_position:
        assert attribute_of(again, attribute) == attribute_of(game, attribute), attribute
    check_moves_sort(spec, moves)


def check_colours_and_status(game) -> None:
    """Colours are ``bc.Color``, and ``print(game)`` ends with who moves or how the game ended."""
    status = str(game).splitlines()[-1]
    assert type(game.to_move) is bc.Color
    if game.is_over():
        winner = game.winner()
        assert winner is None or type(winner) is bc.Color
        assert status == ("Game over: a draw" if winner is None else f"Game over: {COLOUR_NAMES[winner]} wins")
    else:
        assert status == f"{COLOUR_NAMES[game.to_move]} ({'bw'[game.to_move]}) to move"


COLOUR_NAMES = ("Black", "White")


def check_board(spec: Spec, game) -> None:
    """Every cell, read by name in any case, holds what the position notation says."""
    expected = spec.board_of(game.position())
    board = [game[cell] for cell in game.cells()]
    assert board == expected
    assert [game.piece_at(cell.upper()) for cell in game.cells()] == expected
    assert all(type(piece.player) is bc.Color for piece in board if isinstance(piece, bc.Piece))


def check_moves_sort(spec: Spec, moves: list) -> None:
    """`<` is a total order consistent with `==`: distinct moves sort strictly increasing, each
    comparison agreeing with its mirror; legal_moves() is already sorted where documented."""
    ordered = sorted(moves)
    if spec.moves_sorted:
        assert ordered == moves
    for a, b in itertools.pairwise(ordered):
        assert a < b and b > a and a <= b and b >= a and a != b
        assert not (b < a or a > b or b <= a or a >= b)
    for a in moves[:5]:
        assert a <= a and a >= a and not a < a and not a > a


def check_record(spec: Spec, cls, game) -> None:
    again = cls.from_record(game.record())
    assert again == game and again.record() == game.record()
    assert [str(m) for m in again.history] == [str(m) for m in game.history]
    for attribute in spec.setup:
        assert attribute_of(again, attribute) == attribute_of(game, attribute), attribute


@pytest.mark.parametrize("impl,name", CLASSES)
def test_random_games_keep_the_protocol_and_undo_back_to_the_start(impl, name):
    spec, cls = SPECS[name], getattr(impl, name)
    undone = []
    for index, game in starts(impl, name):
        start = game.copy()
        rng = random.Random(f"{name} {index}")
        states, played = [], []
        check_record(spec, cls, game)
        while True:
            check_position(spec, cls, game)
            if len(played) % 5 == 0:
                check_board(spec, game)
            if game.is_over() or len(played) >= spec.max_plies(game):
                break
            states.append(full_state(spec, game))
            move = rng.choice(game.legal_moves())
            played.append(str(move))
            game.play(move)
            if len(played) == 5:
                check_record(spec, cls, game)
        check_record(spec, cls, game)
        check_board(spec, game)
        while states:
            undone.append(str(game.undo()))
            assert undone[-1] == played.pop()
            assert full_state(spec, game) == states.pop()
        assert game == start and game.history == []
    if spec.some_move_has:
        assert any(spec.some_move_has in move for move in undone)


def played_a_little(impl, name, index=0, moves=3):
    """A start with a few seeded random moves played."""
    game = dict(starts(impl, name))[index]
    rng = random.Random(index)
    while game.legal_moves() and len(game.history) < moves:
        game.play(rng.choice(game.legal_moves()))
    return game


@pytest.mark.parametrize("impl,name", CLASSES)
def test_copies_are_independent(impl, name):
    spec = SPECS[name]
    for index in range(len(spec.starts)):
        s = played_a_little(impl, name, index)
        if s.is_over():
            continue
        history = [str(m) for m in s.history]
        for c in (s.copy(), copy.copy(s), copy.deepcopy(s), pickle.loads(pickle.dumps(s))):
            assert c == s and c.history == s.history and c.record() == s.record()
            assert moves_of(c) == moves_of(s)
            for attribute in spec.setup:
                assert attribute_of(c, attribute) == attribute_of(s, attribute), attribute
            move = c.legal_moves()[-1]
            c.play(move)
            assert c != s
            assert [str(m) for m in s.history] == history
            assert c.undo() == str(move)
            assert c == s


@pytest.mark.parametrize("impl,name", CLASSES)
def test_history_is_a_copy(impl, name):
    s = played_a_little(impl, name, moves=1)
    history = [str(m) for m in s.history]
    h = s.history
    h.append(h[0])
    h.clear()
    assert [str(m) for m in s.history] == history


@pytest.mark.parametrize("impl,name", CLASSES)
def test_undo_without_moves_raises_index_error_and_changes_nothing(impl, name):
    for _, s in starts(impl, name):
        before = snapshot(s)
        with pytest.raises(IndexError):
            s.undo()
        assert snapshot(s) == before


@pytest.mark.parametrize("impl,name", CLASSES)
def test_position_ignores_surrounding_whitespace(impl, name):
    cls = getattr(impl, name)
    for index in range(len(SPECS[name].starts)):
        s = played_a_little(impl, name, index)
        text = s.position()
        assert cls.from_position("  " + text + "\n") == s
        assert cls.from_position("\t" + text + " ").position() == text


@pytest.mark.parametrize("impl,name", CLASSES)
def test_repr_rebuilds_the_position(impl, name):
    cls = getattr(impl, name)
    for index in range(len(SPECS[name].starts)):
        s = played_a_little(impl, name, index)
        assert repr(s) == f"{name}.from_position({s.position()!r})"
        assert eval(repr(s), {name: cls}) == s


@pytest.mark.parametrize("impl,name", CLASSES)
def test_hash_is_the_zobrist_key_as_a_signed_integer(impl, name):
    for index in range(len(SPECS[name].starts)):
        s = played_a_little(impl, name, index)
        z = s.zobrist()
        assert 0 <= z < 2**64
        signed = z - 2**64 if z >= 2**63 else z
        assert hash(s) == (-2 if signed == -1 else signed)


@pytest.mark.parametrize("impl,name", CLASSES)
def test_play_refuses_anything_but_a_move_or_a_string(impl, name):
    s = played_a_little(impl, name)
    assert_refused(s, TypeError, s.play, SPECS[name].not_moves)


@pytest.mark.parametrize("impl,name", CLASSES)
def test_a_finished_game_refuses_every_move_and_changes_nothing(impl, name):
    s = played_a_little(impl, name, moves=10_000)
    assert s.is_over()
    before = snapshot(s)
    for text in ["pass", "a1", "b2", "c3", "d3", "a1,a2", "b2xb1,a2"]:
        assert not s.is_legal(text)
        with pytest.raises(ValueError):
            s.play(text)
        assert snapshot(s) == before


# ---- perft's generic promises ---------------------------------------------------------------------


@pytest.mark.parametrize("impl,name", CLASSES)
def test_divide_sums_to_perft_in_legal_move_order(impl, name):
    for index in range(len(SPECS[name].starts)):
        s = played_a_little(impl, name, index, moves=index % 4)
        if name == "Strands" and index == 0 and not s.history:
            depth = 2
        else:
            depth = 2 if name in ("Rive", "Strands") else 3
        d = s.divide(depth)
        assert list(d) == moves_of(s)
        assert sum(d.values()) == s.perft(depth)


@pytest.mark.parametrize("impl,name", CLASSES)
def test_perft_of_depth_zero_is_one_and_a_finished_game_is_one_leaf(impl, name):
    assert played_a_little(impl, name).perft(0) == 1
    over = played_a_little(impl, name, moves=10_000)
    assert [over.perft(d) for d in range(4)] == [1, 1, 1, 1]
    assert over.divide(3) == {}


@pytest.mark.parametrize("impl,name", CLASSES)
def test_perft_threads_give_the_same_count(impl, name):
    s = played_a_little(impl, name, moves=5)
    depth = {"Reversi": 4, "Strands": 2}.get(name, 3)
    assert s.perft(depth, threads=2) == s.perft(depth, threads=1) == s.perft(depth)


BAD_PERFT_ARGUMENTS = [
    {"depth": -1},
    {"depth": True},
    {"depth": 1.0},
    {"depth": "2"},
    {"depth": None},
    {"depth": 2, "threads": 0},
    {"depth": 2, "threads": -3},
    {"depth": 2, "threads": True},
    {"depth": 2, "threads": 2.0},
]


@pytest.mark.parametrize("impl,name", CLASSES)
def test_perft_and_divide_reject_bad_arguments_and_change_nothing(impl, name):
    s = played_a_little(impl, name)
    assert_refused(s, ValueError, lambda kwargs: s.perft(**kwargs), BAD_PERFT_ARGUMENTS)
    assert_refused(s, ValueError, s.divide, [0, -1, True, 1.0, "1"])


@pytest.mark.parametrize("impl,name", CLASSES)
def test_perft_leaves_the_game_unchanged(impl, name):
    for index in range(len(SPECS[name].starts)):
        s = played_a_little(impl, name, index, moves=8)
        before = snapshot(s)
        s.perft(2 if name == "Strands" else 3)
        s.divide(2)
        for call in SPECS[name].extra_calls:
            call(s)
        assert snapshot(s) == before


# ---- reading the board and sorting moves (issue 14, item 12; docs/design.md) --------------------

NOT_CELLS = ["z1", "a27", "a0", "a01", "", "  ", "pass", "swap", "d3,e5", "c3xb2", "1a", "\ud800", "d3" * 3000]


@pytest.mark.parametrize("impl,name", CLASSES)
def test_a_name_that_is_no_cell_is_a_key_error_and_changes_nothing(impl, name):
    for _, game in starts(impl, name):
        before = snapshot(game)
        for text in NOT_CELLS:
            with pytest.raises(KeyError):
                game[text]
            with pytest.raises(KeyError):
                game.piece_at(text)
        for value in [None, 3, 3.5, b"a1", ("a1",), ["a1"]]:
            with pytest.raises(TypeError, match="a cell is named by a string"):
                game[value]
        assert game["  " + game.cells()[0].upper() + "\t"] == game[game.cells()[0]]
        assert snapshot(game) == before


@pytest.mark.parametrize("name", SPECS)
def test_engine_and_twin_moves_sort_alike(name):
    for (index, engine), (_, twin) in zip(starts(bc, name), starts(ref, name)):
        rng = random.Random(index)
        while not engine.is_over() and len(engine.history) < 8:
            ordered = [str(m) for m in sorted(engine.legal_moves())]
            assert ordered == [str(m) for m in sorted(twin.legal_moves())]
            move = rng.choice(ordered)
            engine.play(move)
            twin.play(move)


def test_moves_of_different_boards_do_not_compare():
    six, eight = bc.Reversi(6).legal_moves()[0], bc.Reversi(8).legal_moves()[0]
    with pytest.raises(TypeError, match=r"moves of different boards \(6 and 8\) do not compare"):
        six < eight  # noqa: B015
    with pytest.raises(TypeError):
        sorted([six, "d3"])
    assert six != eight


def board_order(name: str, game) -> list[str]:
    """Every cell's name in board order, from the documented geometry: Reversi and Cephalopod
    row-major (`a1 b1 ... a2`), Rive and Strands row by row from the top, left to right."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    if name == "Reversi":
        return [f"{letters[col]}{row + 1}" for row in range(game.size) for col in range(game.size)]
    if name == "Cephalopod":
        return [f"{letters[col]}{row + 1}" for row in range(game.rows) for col in range(game.cols)]
    return [f"{letters[row]}{i + 1}" for row, (length, _) in enumerate(game.rows) for i in range(length)]


@pytest.mark.parametrize("impl,name", CLASSES)
def test_cells_is_a_method_listing_every_cell_in_board_order(impl, name):
    # Issue 14 item 12 spells it `game.cells()`: a call, returning a tuple of names.
    for _, game in starts(impl, name):
        cells = game.cells()
        assert isinstance(cells, tuple) and list(cells) == board_order(name, game)
        assert game.cells() == cells
        assert all(game[cell] == game.piece_at(cell) for cell in cells)


@pytest.mark.parametrize("impl,name", CLASSES)
def test_iterating_over_a_game_points_to_its_cells(impl, name):
    # A game is not a sequence: Python's fallback iteration (game[0], game[1]...) meets the
    # TypeError of a cell given by number, which says where the cells are.
    game = getattr(impl, name)()
    with pytest.raises(TypeError, match=r"game\.cells\(\) lists them"):
        list(game)


@pytest.mark.parametrize("impl,name", CLASSES)
def test_a_winner_prints_as_its_colour_and_still_counts_as_an_int(impl, name):
    game = played_a_little(impl, name, moves=10_000)  # to the end
    assert game.is_over()
    for colour in (game.winner(), game.to_move):  # the winner is None after a draw
        if colour is not None:
            assert str(colour) == repr(colour) == f"{colour}" == ("Color.BLACK", "Color.WHITE")[colour]
            assert colour in (0, 1) and {0: "Black", 1: "White"}[colour] == COLOUR_NAMES[colour]
            assert pickle.loads(pickle.dumps(colour)) is colour


def test_the_colours_are_one_int_enum_everywhere():
    assert (bc.BLACK, bc.WHITE) == (bc.Color.BLACK, bc.Color.WHITE) == (0, 1)
    assert bc.Color is bc.pieces.Color and isinstance(bc.WHITE, int) and 1 - bc.WHITE == bc.BLACK
    assert bc.Reversi(handicap=1).handicap_color is bc.BLACK and ref.Reversi(handicap=1).handicap_color is bc.BLACK
    assert bc.Reversi().actions().to_move is bc.BLACK and ref.Reversi().actions().to_move is bc.BLACK
    assert bc.Reversi()["d4"] == bc.Piece(bc.WHITE) and str(bc.Reversi()["d4"].player) == "Color.WHITE"


def test_the_package_namespace_holds_the_library_alone():
    public = {name for name in dir(bc) if not name.startswith("_")}
    assert {"Any", "TYPE_CHECKING", "annotations", "typing"}.isdisjoint(dir(bc))
    submodules = {name for name in public if type(getattr(bc, name)).__name__ == "module"}
    assert public - submodules == set(bc.__all__) - {"__version__"} - submodules
    namespace: dict = {}
    exec("from boardcore import *", namespace)
    assert set(namespace) - {"__builtins__"} == set(bc.__all__)
