"""Bad input: a clear error of the documented type, and the state exactly as before."""

from __future__ import annotations

import boardcore as bc
import boardcore.reference as ref
import pytest
from harness import snapshot

IMPLEMENTATIONS = [bc.Reversi, ref.Reversi]


@pytest.fixture(params=IMPLEMENTATIONS, ids=["engine", "reference"])
def Reversi(request):
    return request.param


def midgame(Reversi):
    s = Reversi(blocked=["b2", "g7"])
    for move in ["d3", "c5", "f6"]:
        s.play(move)
    return s


@pytest.mark.parametrize(
    "move,error",
    [
        ("d4", bc.IllegalMoveError),  # occupied
        ("b2", bc.IllegalMoveError),  # a hole
        ("a1", bc.IllegalMoveError),  # brackets nothing
        ("i1", bc.IllegalMoveError),  # off the 8x8 board
        ("z26", bc.IllegalMoveError),  # off the board, far
        ("pass", bc.IllegalMoveError),  # a placement exists
        ("", bc.NotationError),
        ("d", bc.NotationError),
        ("3d", bc.NotationError),
        ("d0", bc.NotationError),
        ("d33x", bc.NotationError),
        ("passs", bc.NotationError),
        ("d 3", bc.NotationError),
    ],
)
def test_illegal_and_malformed_moves_are_rejected_and_change_nothing(Reversi, move, error):
    s = midgame(Reversi)
    before = snapshot(s)
    with pytest.raises(error):
        s.play(move)
    assert snapshot(s) == before
    assert not s.is_legal(move)


def test_cut_squares_of_the_octagon_cannot_be_played(Reversi):
    s = Reversi(size="octagon")
    before = snapshot(s)
    with pytest.raises(bc.IllegalMoveError, match="cut"):
        s.play("a1")
    assert snapshot(s) == before


def test_no_move_is_legal_once_the_game_is_over(Reversi):
    s = Reversi.from_position("4 bbbb/bbbb/bbbb/bbb. w")
    assert s.is_over()
    for move in ("d4", "pass"):
        with pytest.raises(bc.IllegalMoveError):
            s.play(move)


def test_undo_with_no_history_is_an_index_error(Reversi):
    s = Reversi()
    with pytest.raises(IndexError):
        s.undo()
    assert snapshot(s) == snapshot(Reversi())


@pytest.mark.parametrize(
    "kwargs,argument",
    [
        (dict(size=7), "size"),
        (dict(size=12), "size"),
        (dict(size=0), "size"),
        (dict(size="hex"), "size"),
        (dict(size=True), "size"),
        (dict(size="8"), "size"),  # sizes are integers; only the Octagon goes by name
        (dict(handicap=True), "handicap"),
        (dict(handicap=1, handicap_color="Black"), "handicap_color"),
        (dict(handicap=1, handicap_color=True), "handicap_color"),
        (dict(size=4, blocked=["a1"]), "blocked"),
        (dict(blocked=["d4"]), "blocked"),  # centre
        (dict(blocked=["c3"]), "blocked"),  # centre 4x4 edge
        (dict(blocked=["a1"], handicap=1), "blocked"),  # on a handicap corner
        (dict(size="octagon", blocked=["a1"]), "blocked"),  # cut square
        (dict(blocked=["a1", "a2", "a3", "a4", "a5"]), "blocked"),  # more than four
        (dict(blocked=["a1", "a1"]), "blocked"),  # twice
        (dict(blocked=["i1"]), "blocked"),  # off the board
        (dict(blocked=["zz"]), "blocked"),  # not a square
        (dict(blocked="b2"), "blocked"),  # a string, not a list
        (dict(blocked=[3]), "blocked"),
        (dict(blocked="random"), "seed"),  # random without a seed
        (dict(seed=3), "seed"),  # a seed without random holes
        (dict(blocked="random", seed=-1), "seed"),
        (dict(blocked="random", seed=2**64), "seed"),
        (dict(size=4, blocked="random", seed=1), "blocked"),
        (dict(handicap=5), "handicap"),
        (dict(handicap=-1), "handicap"),
        (dict(handicap=2, handicap_color="red"), "handicap_color"),
        (dict(handicap=2, handicap_color=2), "handicap_color"),
    ],
)
def test_impossible_variants_are_value_errors_naming_the_argument(Reversi, kwargs, argument):
    with pytest.raises(ValueError, match=argument):
        Reversi(**kwargs)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "8",
        "8 ......../......../......../...wb.../...bw.../......../......../........",
        "8 ......../......../......../...wb.../...bw.../......../......../........ x",
        "8 ......../......../......../...wb.../...bw.../......../........ b",  # 7 rows
        "8 ......./......../......../...wb.../...bw.../......../......../........ b",  # short row
        "8 ......../......../......../...wx.../...bw.../......../......../........ b",  # bad char
        "7 ......./......./......./......./......./......./....... b",
        "8 ......../......../..#...../...wb.../...bw.../......../......../........ b",  # hole in centre
        "8 #......#/......../......../...wb.../...bw.../......../#......./#......# b",  # five holes
        "8 -......./......../......../...wb.../...bw.../......../......../........ b",  # cut on a square
        "octagon ........../........../........../...wb...../...bw...../........../........../........../........../.......... b",
        "8  ......../......../......../...wb.../...bw.../......../......../........ b",  # double space
        "8 ......../......../......../...wb.../...bw.../......../......../........ b extra",
    ],
)
def test_malformed_positions_are_notation_errors(Reversi, text):
    with pytest.raises(bc.NotationError):
        Reversi.from_position(text)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "d3 c5",  # no tags
        '[Game "chess"]\n\nd3',
        '[Game "reversi"]\n[Board "9"]\n\n',
        '[Game "reversi"]\n[Board "8"]\n\nd3 d3',  # second d3 is occupied
        '[Game "reversi"]\n[Board "8"]\n\nd3 zz',
        '[Game "reversi"]\n[Board "8"]\n[Result "1-0"]\n\nd3',  # wrong result
        '[Game "reversi"]\n[Board "8"]\n[Colour "x"]\n\n',  # unknown tag
        '[Game "reversi"]\n[Board "8"]\n[Blocked "d4"]\n\n',  # hole in the centre
        '[Game "reversi"]\n[Board "8"]\n[Seed "5"]\n[Blocked "a1"]\n\n',  # seed and holes disagree
        '[Game "reversi"]\n[Board "8"]\n[Handicap "x"]\n\n',
        '[Game "reversi"\n\nd3',
    ],
)
def test_malformed_records_are_notation_errors(text):
    with pytest.raises(bc.NotationError):
        bc.load_record(text)
    if "reversi" in text:
        for cls in IMPLEMENTATIONS:
            with pytest.raises(bc.NotationError):
                cls.from_record(text)


def test_bad_perft_arguments_are_value_errors(Reversi):
    s = Reversi()
    for kwargs in (dict(depth=-1), dict(depth=3, threads=0), dict(depth=True), dict(depth=2, threads=1.0)):
        with pytest.raises(ValueError):
            s.perft(**kwargs)
    with pytest.raises(ValueError):
        s.divide(0)


def test_a_move_object_of_another_board_size_is_rejected():
    small = bc.Reversi(size=6)
    move = bc.Reversi().legal_moves()[0]
    before = snapshot(small)
    with pytest.raises(ValueError):
        small.play(move)
    assert snapshot(small) == before
    with pytest.raises(TypeError):
        small.play(3)
