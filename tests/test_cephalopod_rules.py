"""The rules of Cephalopod (the rule text "Cephalopod", summarised in docs/cephalopod.md), one test per clause.

Every test runs against each implementation given by the ``Cephalopod`` fixture (conftest.py): the
pure-Python reference and, once built, the Rust engine. Colours are written 0 (Black) and 1 (White).
Positions use the documented notation ``RxC ROWS SIDE``: ``.`` an empty square, ``3b`` a black die
showing 3, ``1w`` a white die showing 1.
"""

import copy
import pickle
import random
import re
from itertools import combinations

import numpy as np
import pytest
from boardcore.reference.cephalopod import NotationError
from harness import SplitMix64, assert_illegal, assert_not_a_move, assert_refused, play_random, record_tags, snapshot

BLACK, WHITE = 0, 1

EMPTY_3X3 = "3x3 .../.../... b"
EMPTY_5X5 = "5x5 ...../...../...../...../..... b"
DOC_EXAMPLE = "3x3 1b.6w/.2w./... b"
# b2 has four neighbours showing 1: eleven capture sets; a1, c1, a3, c3 have one set each.
FOUR_ONES = "3x3 .1b./1w.1w/.1b. b"
# b2 sees 3 (b1), 3 (a2), 4 (c2): only {b1, a2} sums to 6 or less. a1 sees 3 and 3: one set.
# c1 sees 3 and 4 (7): no set. c3 (a black 1) is not next to b2.
THREES_AND_A_FOUR = "3x3 .3b./3w.4w/..1b b"
FULL_3X3_BLACK_WINS = "3x3 6w6w6w/1b1b1b/1b1b1b b"
FULL_2X2_DRAW = "2x2 1b1w/1w1b b"
# a1 and b1 are empty. a1 then b1 makes b1 capture {a1, b2}; b1 then a1 fills the board.
FILLS_ON_ONE_ORDER_ONLY = "2x2 ../6w1w b"


# ---- helpers --------------------------------------------------------------------------------


def name(index, cols):
    return f"{chr(ord('a') + index % cols)}{index // cols + 1}"


def board_index(square, cols):
    return (int(square[1:]) - 1) * cols + ord(square[0]) - ord("a")


def read_cells(position):
    """(rows, cols, cells, side) of a position string; a cell is None (".") or (owner, pips) (a
    die, written pips then owner: "6w"), row after row ("/" between rows)."""
    size, rows_text, side = position.split()
    rows, cols = map(int, size.split("x"))
    written = re.findall(r"\.|\d[bw]", rows_text)
    cells = [None if cell == "." else ("bw".index(cell[1]), int(cell[0])) for cell in written]
    return rows, cols, cells, "bw".index(side)


def die(game, square):
    """The die on a square as (owner, pips), or None, read from the position string."""
    _, cols, cells, _ = read_cells(game.position())
    return cells[board_index(square, cols)]


def moves_on(game, square):
    return [str(m) for m in game.legal_moves() if m.square == square]


def move_key(move, cols):
    """The documented legal-move order: the placed square, then the captured list, in board order."""
    return board_index(move.square, cols), [board_index(s, cols) for s in move.captures]


def documented_zobrist(position):
    rng = SplitMix64(0x424F415244434F52)
    keys = [rng.next() for _ in range(12 * 64 + 1)]
    _, cols, cells, side = read_cells(position)
    value = keys[12 * 64] if side == WHITE else 0
    for i, cell in enumerate(cells):
        if cell is not None:
            owner, pips = cell
            code = pips + 6 * owner
            value ^= keys[(code - 1) * 64 + (i // cols) * 8 + i % cols]
    return value


def row_code(value):
    """The sort code of a PathCounts cell value: 0 empty, 1-6 black, 7-12 white."""
    return value if value >= 0 else 6 - value


# ---- the board ------------------------------------------------------------------------------


def test_the_default_board_is_5x5_and_empty(Cephalopod):
    s = Cephalopod()
    assert (s.rows, s.cols) == (5, 5)
    assert s.position() == EMPTY_5X5
    assert s.score() == (0, 0)
    assert s.history == []


@pytest.mark.parametrize("rows, cols", [(2, 2), (3, 3), (3, 5), (5, 3), (2, 8), (8, 2), (7, 4), (8, 8)])
def test_every_board_from_2x2_to_8x8_is_accepted(Cephalopod, rows, cols):
    for s in (Cephalopod(rows, cols), Cephalopod(rows=rows, cols=cols)):
        assert (s.rows, s.cols) == (rows, cols)
        assert s.position() == f"{rows}x{cols} " + "/".join(["." * cols] * rows) + " b"
        assert len(s.legal_moves()) == rows * cols


@pytest.mark.parametrize(
    "kwargs, argument",
    [
        ({"rows": 1, "cols": 5}, "rows"),
        ({"rows": 9, "cols": 9}, "rows"),
        ({"rows": 5, "cols": 1}, "cols"),
        ({"rows": 5, "cols": 9}, "cols"),
        ({"rows": 0}, "rows"),
        ({"cols": -3}, "cols"),
        ({"rows": True}, "rows"),
        ({"cols": False}, "cols"),
        ({"rows": 5.0}, "rows"),
        ({"cols": "5"}, "cols"),
        ({"rows": [5]}, "rows"),
        ({"rows": 2**70}, "rows"),
    ],
)
def test_other_board_sizes_raise_value_error_naming_the_argument(Cephalopod, kwargs, argument):
    with pytest.raises(ValueError, match=argument):
        Cephalopod(**kwargs)


def test_squares_are_named_column_letter_then_row_number_from_the_top_left(Cephalopod):
    s = Cephalopod(rows=3, cols=5)
    names = [str(m) for m in s.legal_moves()]
    assert names == [f"{c}{r}" for r in "123" for c in "abcde"]  # board order is row-major
    s.play("e1")
    assert s.position() == "3x5 ....1b/...../..... w"
    s.play("a3")
    assert s.position() == "3x5 ....1b/...../1w.... b"


def test_black_moves_first_on_an_empty_board(Cephalopod):
    s = Cephalopod(3, 3)
    assert s.to_move == BLACK
    s.play("b2")
    assert die(s, "b2") == (BLACK, 1)
    assert s.to_move == WHITE


def test_players_alternate_and_each_places_their_own_colour(Cephalopod):
    s = Cephalopod(3, 3)
    for i, square in enumerate(["a1", "c1", "a3", "c3"]):
        assert s.to_move == i % 2
        s.play(square)
        assert die(s, square) == (i % 2, 1)
    assert s.score() == (2, 2)


def test_neighbours_are_orthogonal_only(Cephalopod):
    # The four diagonal neighbours of b2 hold dice showing 1: no capture set on b2.
    s = Cephalopod.from_position("3x3 1b.1w/.../1w.1b b")
    assert moves_on(s, "b2") == ["b2"]
    s.play("b2")
    assert die(s, "b2") == (BLACK, 1)
    assert s.score() == (3, 2)


def test_a_square_has_up_to_four_neighbours(Cephalopod):
    s = Cephalopod.from_position(FOUR_ONES)
    # centre: every subset of two or more of its four neighbours (6 + 4 + 1 sets)
    assert len(moves_on(s, "b2")) == 11
    # corners: their two neighbours; the middle of an edge has three (here a1's and c1's sets)
    assert moves_on(s, "a1") == ["a1xb1,a2"]
    assert moves_on(s, "c3") == ["c3xc2,b3"]
    t = Cephalopod.from_position("3x3 1b.1b/.1w./... w")
    assert moves_on(t, "b1") == ["b1xa1,c1", "b1xa1,c1,b2", "b1xa1,b2", "b1xc1,b2"]


# ---- a placement ----------------------------------------------------------------------------


def test_a_die_may_be_placed_on_any_empty_square(Cephalopod):
    s = Cephalopod.from_position("3x3 6b6w./.../..6w b")
    assert [m.square for m in s.legal_moves()] == ["c1", "a2", "b2", "c2", "a3", "b3"]


def test_a_die_placed_without_capture_shows_one(Cephalopod):
    s = Cephalopod.from_position("3x3 6b6w./.../..6w w")
    s.play("c1")  # next to a 6: no set
    assert die(s, "c1") == (WHITE, 1)
    s.play("b2")  # next to b1 only
    assert die(s, "b2") == (BLACK, 1)
    assert s.score() == (2, 3)


def test_a_capture_set_needs_two_or_more_dice(Cephalopod):
    s = Cephalopod.from_position("3x3 .1w./.../... b")
    assert moves_on(s, "a1") == ["a1"]  # one neighbouring die showing 1 is not a capture set
    assert_illegal(s, "a1xb1")
    s.play("a1")
    assert s.score() == (1, 1)


def test_capture_sets_sum_to_six_or_less(Cephalopod):
    s = Cephalopod.from_position(THREES_AND_A_FOUR)
    assert moves_on(s, "b2") == ["b2xb1,a2"]  # 3 + 3; 3 + 4 and 3 + 3 + 4 are over six
    assert moves_on(s, "c1") == ["c1"]  # 3 + 4 = 7: no capture set
    for bad in ["b2xb1,c2", "b2xa2,c2", "b2xb1,a2,c2", "c1xb1,c2"]:
        assert not s.is_legal(bad)
    s.play("b2xb1,a2")
    assert die(s, "b2") == (BLACK, 6)


def test_capture_is_compulsory_on_a_square_where_one_is_possible(Cephalopod):
    s = Cephalopod.from_position(THREES_AND_A_FOUR)
    for square in ["a1", "b2"]:
        assert square not in [str(m) for m in s.legal_moves()]
        assert_illegal(s, square)
    assert s.position() == THREES_AND_A_FOUR


def test_capture_is_not_compulsory_elsewhere(Cephalopod):
    s = Cephalopod.from_position(THREES_AND_A_FOUR)
    plain = [str(m) for m in s.legal_moves() if not m.captures]
    assert plain == ["c1", "a3", "b3"]
    s.play("a3")  # a capture exists on a1 and b2, but a3 has none
    assert die(s, "a3") == (BLACK, 1)
    assert s.score() == (3, 2)


def test_every_distinct_set_of_squares_is_a_distinct_move_even_with_equal_pips(Cephalopod):
    s = Cephalopod.from_position("3x3 .1b./1w.1w/... b")
    assert moves_on(s, "b2") == ["b2xb1,a2", "b2xb1,a2,c2", "b2xb1,c2", "b2xa2,c2"]
    boards = set()
    for move in ["b2xb1,a2", "b2xb1,c2", "b2xa2,c2"]:  # three sets of two 1s: each shows 2
        t = s.copy()
        t.play(move)
        assert die(t, "b2") == (BLACK, 2)
        boards.add(t.position())
    assert len(boards) == 3


def test_captured_dice_of_both_colours_are_removed(Cephalopod):
    s = Cephalopod.from_position("3x3 .2b./1w.1w/.1b. b")
    s.play("b2xb1,a2")  # a black 2 and a white 1
    assert die(s, "b1") is None and die(s, "a2") is None
    assert die(s, "c2") == (WHITE, 1) and die(s, "b3") == (BLACK, 1)  # the others stay
    assert s.position() == "3x3 .../.3b1w/.1b. w"


def test_the_new_die_shows_the_sum_of_the_captured_pips(Cephalopod):
    for move, pips in [
        ("b2xb1,a2", 3),
        ("b2xb1,c2", 5),
        ("b2xa2,b3", 2),
        ("b2xa2,c2,b3", 5),
        ("b2xb1,a2,b3", 4),
        ("b2xb1,a2,c2", 6),
    ]:
        s = Cephalopod.from_position("3x3 .2b./1w.3w/.1b. b")
        s.play(move)
        assert die(s, "b2") == (BLACK, pips)


def test_the_new_die_is_the_movers_whatever_it_captures(Cephalopod):
    s = Cephalopod.from_position("3x3 .2b./1b../... w")
    s.play("a1xb1,a2")
    assert die(s, "a1") == (WHITE, 3)
    assert s.score() == (0, 1)


def test_captures_of_three_and_four_dice(Cephalopod):
    s = Cephalopod.from_position("3x3 .1b./2w.1w/.2b. w")  # 1 + 2 + 1 + 2 = 6
    moves = moves_on(s, "b2")
    assert len(moves) == 6 + 4 + 1
    assert "b2xb1,a2,c2,b3" in moves and "b2xa2,c2,b3" in moves
    t = s.copy()
    t.play("b2xb1,a2,c2,b3")
    assert t.position() == "3x3 .../.6w./... b"
    t = s.copy()
    t.play("b2xa2,c2,b3")
    assert t.position() == "3x3 .1b./.5w./... b"
    u = Cephalopod.from_position("3x3 .2b./2w.2w/.1b. b")  # four dice sum 7: at most three
    assert "b2xb1,a2,c2,b3" not in moves_on(u, "b2")
    assert len(moves_on(u, "b2")) == 6 + 4


def test_nobody_passes_while_a_square_is_empty(Cephalopod):
    for seed in range(3):
        s = Cephalopod(3, 3)
        rng = random.Random(seed)
        while not s.is_over():
            moves = s.legal_moves()
            assert moves and all(m.square for m in moves)
            s.play(rng.choice(moves))
        assert s.legal_moves() == []
    with pytest.raises(NotationError):
        Cephalopod().play("pass")


# ---- legal move order -----------------------------------------------------------------------


def test_legal_moves_are_ordered_by_square_then_by_captured_squares(Cephalopod):
    s = Cephalopod.from_position(FOUR_ONES)
    assert [str(m) for m in s.legal_moves()] == [
        "a1xb1,a2",
        "c1xb1,c2",
        "b2xb1,a2",
        "b2xb1,a2,c2",
        "b2xb1,a2,c2,b3",
        "b2xb1,a2,b3",
        "b2xb1,c2",
        "b2xb1,c2,b3",
        "b2xb1,b3",
        "b2xa2,c2",
        "b2xa2,c2,b3",
        "b2xa2,b3",
        "b2xc2,b3",
        "a3xa2,b3",
        "c3xc2,b3",
    ]


def test_legal_moves_follow_the_documented_order_in_random_games(Cephalopod):
    for rows, cols, seed in [(3, 3, 1), (4, 4, 2), (5, 5, 3), (3, 5, 4)]:
        s = Cephalopod(rows, cols)
        rng = random.Random(seed)
        while not s.is_over():
            moves = s.legal_moves()
            keys = [move_key(m, cols) for m in moves]
            assert keys == sorted(keys) and len(set(map(str, moves))) == len(moves)
            s.play(rng.choice(moves))


def test_legal_moves_are_all_legal_and_nothing_else_is(Cephalopod):
    for seed in (8, 9):
        s = play_random(Cephalopod(4, 4), seed=seed, max_moves=20)
        legal = [str(m) for m in s.legal_moves()]
        for i in range(16):  # every placement with every subset of its neighbours, legal or not
            square = name(i, 4)
            around = [name(j, 4) for j in range(16) if abs(j // 4 - i // 4) + abs(j % 4 - i % 4) == 1]
            candidates = [square] + [
                f"{square}x{','.join(subset)}" for k in range(1, len(around) + 1) for subset in combinations(around, k)
            ]
            for text in candidates:
                assert s.is_legal(text) == (text in legal)


# ---- the end --------------------------------------------------------------------------------


def test_game_ends_when_the_board_is_full(Cephalopod):
    s = Cephalopod.from_position("2x2 1b1w/1w. b")
    assert not s.is_over()
    assert [str(m) for m in s.legal_moves()] == ["b2xb1,a2"]  # 1 + 1: the capture is compulsory
    s.play("b2xb1,a2")
    assert not s.is_over() and s.position() == "2x2 1b./.2b w"
    t = Cephalopod.from_position("2x2 1b6w/6w. b")
    t.play("b2")  # 6 + 6: no capture, the last square is filled
    assert t.is_over()
    assert t.legal_moves() == []
    assert t.position() == "2x2 1b6w/6w1b w"


def test_a_full_board_is_over_and_refuses_every_move(Cephalopod):
    s = Cephalopod.from_position(FULL_3X3_BLACK_WINS)
    assert s.is_over() and s.legal_moves() == []
    for move in ["a1", "b2", "b2xb1,a2", "d4"]:
        assert_illegal(s, move)
    assert s.position() == FULL_3X3_BLACK_WINS


def test_more_dice_wins(Cephalopod):
    s = Cephalopod.from_position(FULL_3X3_BLACK_WINS)
    assert s.score() == (6, 3)  # squares covered, not pips (White shows 18 pips, Black 6)
    assert s.winner() == BLACK
    t = Cephalopod.from_position("3x3 1w1w1w/1w6b1w/6b6b6b w")
    assert t.score() == (4, 5)
    assert t.winner() == WHITE


def test_draw_only_on_even_boards(Cephalopod):
    s = Cephalopod.from_position(FULL_2X2_DRAW)
    assert s.is_over() and s.score() == (2, 2) and s.winner() is None
    t = Cephalopod.from_position("2x3 1b1b1b/1w1w1w w")
    assert t.is_over() and t.winner() is None
    for rows, cols in [(3, 3), (3, 5)]:  # odd numbers of squares: a finished game has a winner
        for seed in range(4):
            u = play_random(Cephalopod(rows, cols), seed=seed)
            black, white = u.score()
            assert black + white == rows * cols
            assert u.winner() == (BLACK if black > white else WHITE)


def test_no_winner_before_the_end(Cephalopod):
    s = Cephalopod.from_position("3x3 1b1b1b/1b1b1b/1b1b. w")
    assert not s.is_over()
    assert s.score() == (8, 0)
    assert s.winner() is None


def test_complete_random_games_follow_the_rules(Cephalopod):
    for rows, cols, seed in [(2, 2, 1), (3, 3, 2), (4, 4, 3), (3, 5, 4), (5, 5, 5)]:
        s = play_random(Cephalopod(rows, cols), seed=seed)
        black, white = s.score()
        assert s.is_over() and s.legal_moves() == [] and black + white == rows * cols
        assert s.winner() == (BLACK if black > white else WHITE if white > black else None)
        _, _, cells, _ = read_cells(s.position())
        assert all(1 <= pips <= 6 for _, pips in cells)


# ---- move notation --------------------------------------------------------------------------


def test_moves_have_a_square_captures_in_board_order_and_notation(Cephalopod):
    s = Cephalopod.from_position(FOUR_ONES)
    plain = Cephalopod(3, 3).legal_moves()[4]
    assert (str(plain), plain.square, plain.captures, repr(plain)) == ("b2", "b2", (), "Move('b2')")
    move = s.legal_moves()[-1]
    assert (str(move), move.square, move.captures) == ("c3xc2,b3", "c3", ("c2", "b3"))
    assert repr(move) == "Move('c3xc2,b3')"
    assert hash(move) == hash("c3xc2,b3")
    assert len({move, Cephalopod.from_position(FOUR_ONES).legal_moves()[-1]}) == 1


def test_moves_compare_equal_to_their_notation_in_any_case_and_order(Cephalopod):
    move = Cephalopod.from_position(FOUR_ONES).legal_moves()[-1]
    for text in ["c3xc2,b3", "c3xb3,c2", " C3XB3,C2 ", "c3Xc2,B3\n"]:
        assert move == text
    for text in ["c3", "c3xc2", "c3xc2,b3,b2", "c3xc2 ,b3", "nonsense", ""]:
        assert move != text
    assert move == Cephalopod.from_position(FOUR_ONES).legal_moves()[-1]
    assert move != Cephalopod.from_position(FOUR_ONES).legal_moves()[-2]
    assert move != 3


def test_moves_are_immutable(Cephalopod):
    move = Cephalopod.from_position(FOUR_ONES).legal_moves()[0]
    with pytest.raises(AttributeError):
        move.square = "c3"
    with pytest.raises(AttributeError):
        move.captures = ()
    assert move == "a1xb1,a2"


def test_moves_survive_copy_and_pickle(Cephalopod):
    move = Cephalopod.from_position(FOUR_ONES).legal_moves()[3]
    for other in (copy.copy(move), copy.deepcopy(move), pickle.loads(pickle.dumps(move))):
        assert other == move and str(other) == "b2xb1,a2,c2"


def test_engine_moves_unpickle_only_boards_written_as_in_notation():
    """The binding used to read a pickled move's board with its own lenient parser ("05x3",
    "+5x3"); it now uses the engine's, the one the notation and records use."""
    import boardcore as bc

    cls = type(bc.Cephalopod(5, 3).legal_moves()[0])
    assert cls._restore("5x3", "a1") == "a1"
    for board in ["05x3", "+5x3", "5x03", "9x9", "5 x3"]:
        with pytest.raises(ValueError, match="unknown board"):
            cls._restore(board, "a1")


def test_play_accepts_a_move_or_its_notation_in_any_case_and_order(Cephalopod):
    s = Cephalopod.from_position(FOUR_ONES)
    s.play(" B2XA2,C2,B1 ")
    assert [str(m) for m in s.history] == ["b2xb1,a2,c2"]
    s.play(s.legal_moves()[0])
    s.play("C1")
    assert s.history[-1] == "c1"
    assert [str(m) for m in s.history] == ["b2xb1,a2,c2", "a1", "c1"]


@pytest.mark.parametrize(
    "text",
    [
        "",
        " ",
        "c",
        "3c",
        "c0",
        "c03",
        "cc3",
        "c3x",
        "c3x,",
        "c3xb3,",
        "c3x,b3",
        "c3xc2,,b3",
        "c3xxc2,b3",
        "c3xc2,b3x",
        "c3xc2xb3",
        "c3 xc2,b3",
        "c3x c2,b3",
        "c3xc2, b3",
        "c3xc2 b3",
        "c3xc2;b3",
        "c3-c2,b3",
        "c3:c2",
        "pass",
        "é3",
        "c3xé2,b3",
        "c27",
        "c3xc27,b3",
        "c\u00a03",
        "x",
        "x" * 1000,
        "c3x" + "c2," * 500 + "b3,",
        # the captured squares name a set: listing one twice is not of the documented shape
        "b2xb1,b1",
        "b2xb1,a2,a2",
        "B2XB1,b1",
        "b2xa1,a1",
        "a1xb1,a2,b1",
    ],
)
def test_text_that_is_not_a_move_raises_notation_error(Cephalopod, text):
    s = Cephalopod.from_position(THREES_AND_A_FOUR)
    assert_not_a_move(s, text)


@pytest.mark.parametrize(
    "text, why",
    [
        ("d1", "off the board"),
        ("a4", "off the board"),
        ("z26", "off the board"),
        ("x5", "off the board"),
        ("c3", "occupied"),
        ("b1", "occupied"),
        ("b1xa1,c1", "occupied"),
        ("a1", "a plain placement where a capture is possible"),
        ("b2", "idem, on the centre"),
        ("c1xb1,c2", "a capture where none is (3 + 4)"),
        ("a3xa2,b3", "a capture where none is (one die)"),
        ("b2xb1", "a capture set of one die"),
        ("a1xa2", "idem, on a square with a set"),
        ("b2xb1,b3", "an empty square"),
        ("b2xb1,c3", "a non-adjacent square"),
        ("b2xb1,b2", "the square itself"),
        ("a1xb1,a2,z9", "a square off the board"),
        ("a1xb1,d1", "idem, just off"),
        ("b2xb1,c2", "over six"),
        ("b2xa2,c2", "over six"),
        ("b2xb1,a2,c2", "over six"),
    ],
)
def test_well_formed_but_illegal_moves_raise_illegal_move_error(Cephalopod, text, why):
    s = Cephalopod.from_position(THREES_AND_A_FOUR)
    assert_illegal(s, text)


# ---- errors leave the state unchanged -------------------------------------------------------


def test_errors_leave_state_unchanged(Cephalopod):
    s = play_random(Cephalopod(4, 4), seed=9, max_moves=12)
    before = snapshot(s)
    occupied = next(m for m in ["a1", "b1", "c1", "d1", "a2", "b2"] if die(s, m) is not None)
    bad_moves = ["", "zz", "a0", "e1", "a5", occupied, f"{occupied}x{occupied}", "pass", "é3", "a1xb1"]
    assert_refused(s, ValueError, s.play, bad_moves)
    for call in [
        lambda: s.perft(-1),
        lambda: s.perft(1, threads=0),
        lambda: s.divide(0),
        lambda: s.count_paths(-1),
        lambda: s.play(None),
    ]:
        with pytest.raises((ValueError, TypeError)):
            call()
        assert snapshot(s) == before


# ---- undo, copies, history ------------------------------------------------------------------


def test_undo_restores_the_captured_dice(Cephalopod):
    s = Cephalopod.from_position("3x3 .1b./2w.1w/.2b. w")
    s.play("b2xb1,a2,c2,b3")
    assert s.undo() == "b2xb1,a2,c2,b3"
    assert s.position() == "3x3 .1b./2w.1w/.2b. w"


# ---- position notation ----------------------------------------------------------------------


def test_position_notation_of_the_documented_example(Cephalopod):
    s = Cephalopod.from_position(DOC_EXAMPLE)
    assert s.position() == DOC_EXAMPLE
    assert (s.rows, s.cols, s.to_move) == (3, 3, BLACK)
    assert [die(s, q) for q in ["a1", "b1", "c1", "b2"]] == [(BLACK, 1), None, (WHITE, 6), (WHITE, 2)]
    assert s.score() == (1, 2)
    assert s.history == []


def test_any_arrangement_of_dice_is_accepted(Cephalopod):
    # No game reaches these: every die a 6, or a 1 next to a 1 with White to move first.
    for text in [
        "3x3 6b6b6b/6b.6w/6w6w6w w",
        "2x2 1b1b/.. w",
        "3x5 ...../..6w../..... b",
        "8x8 " + "/".join(["1w" * 8] * 7 + ["1w" * 7 + "."]) + " b",
    ]:
        s = Cephalopod.from_position(text)
        assert s.position() == text


def test_a_full_board_position_is_a_finished_game(Cephalopod):
    s = Cephalopod.from_position("2x2 6b6b/6b6w w")
    assert s.is_over() and s.legal_moves() == [] and s.winner() == BLACK


@pytest.mark.parametrize(
    "text",
    [
        "",
        "3x3",
        "3x3 .../.../...",
        "3x3 .../.../... x",
        "3x3 .../.../... B",
        "3X3 .../.../... b",
        "3x3 .../.../... bw",
        "1x3 ... b",
        "3x1 ./././ b",
        "9x9 " + "/".join(["." * 9] * 9) + " b",
        "3x9 " + "/".join(["." * 9] * 3) + " b",
        "03x3 .../.../... b",
        "3x03 .../.../... b",
        "3 .../.../... b",
        "3x3x3 .../.../... b",
        "3x3 .../... b",
        "3x3 .../.../.../... b",
        "3x3 .../.../.../ b",
        "3x3 ..../.../... b",
        "3x3 ../.../... b",
        "3x3 7b../.../... b",
        "3x3 0b../.../... b",
        "3x3 1x../.../... b",
        "3x3 1B../.../... b",
        "3x3 b1../.../... b",
        "3x3 1../.../... b",
        "3x3 11b../.../... b",
        "3x3 ,../.../... b",
        "3x3 .../.../.1b b",
        "3x3 .../.../..1 b",
        "3x3  .../.../... b",
        "3x3 .../.../...  b",
        "3x3\t.../.../...\tb",
        "3x3 .../.../... b w",
        "3x3 .../.../... b 1",
        "3x3 ../.../... b".replace("..", "é."),
        "3x3 .../.../... é",
    ],
)
def test_malformed_positions_raise_notation_error(Cephalopod, text):
    with pytest.raises(NotationError):
        Cephalopod.from_position(text)


def test_text_board(Cephalopod):
    # The layout is each implementation's own (docs do not fix it): a header, then one line per
    # row, then who moves.
    s = Cephalopod.from_position(DOC_EXAMPLE)
    lines = str(s).splitlines()
    assert len(lines) == 5
    assert "a" in lines[0] and "c" in lines[0]
    assert "1b" in lines[1] and "6w" in lines[1] and "2w" in lines[2]
    assert lines[4] == f"{('Black (b)', 'White (w)')[s.to_move]} to move"


# ---- records --------------------------------------------------------------------------------

# What every game's records share (bad records, a bad move's number, a position's record,
# transpositions) is tested as one table in test_record_rules.py.


def test_record_of_a_plain_game(Cephalopod):
    s = Cephalopod()
    s.play("c3")
    s.play("b3")
    assert s.record() == '[Game "cephalopod"]\n[Board "5x5"]\n[Result "*"]\n\nc3 b3\n'
    assert record_tags(Cephalopod(3, 5).record()) == ['[Game "cephalopod"]', '[Board "3x5"]', '[Result "*"]']


def test_record_result_tag(Cephalopod):
    assert '[Result "1-0"]' in record_tags(Cephalopod.from_position(FULL_3X3_BLACK_WINS).record())
    assert '[Result "0-1"]' in record_tags(Cephalopod.from_position("3x3 1w1w1w/1w6b1w/6b6b6b w").record())
    assert '[Result "1/2-1/2"]' in record_tags(Cephalopod.from_position(FULL_2X2_DRAW).record())
    s = Cephalopod.from_position("2x2 1b6w/6w. b")
    s.play("b2")
    assert '[Result "1/2-1/2"]' in record_tags(s.record())


def test_record_accepts_moves_in_any_case_and_capture_order(Cephalopod):
    text = f'[Game "cephalopod"]\n[Board "3x3"]\n[Position "{FOUR_ONES}"]\n\nB2XC2,A2\n'
    assert [str(m) for m in Cephalopod.from_record(text).history] == ["b2xa2,c2"]


# ---- hashing and equality -------------------------------------------------------------------


def test_zobrist_uses_the_documented_keys(Cephalopod):
    games = [
        Cephalopod(),
        Cephalopod.from_position(DOC_EXAMPLE),
        Cephalopod.from_position(FULL_2X2_DRAW),
        Cephalopod.from_position("8x8 " + "/".join(["6b1w" * 4] * 8) + " w"),
    ]
    games += [play_random(Cephalopod(r, c), seed=r + c, max_moves=25) for r, c in [(3, 5), (5, 3), (7, 8)]]
    for s in games:
        assert s.zobrist() == documented_zobrist(s.position())
    assert Cephalopod().zobrist() == 0


def test_equality_compares_board_dice_and_side_to_move(Cephalopod):
    assert Cephalopod() == Cephalopod(5, 5)
    assert Cephalopod(3, 5) != Cephalopod(5, 3)
    assert Cephalopod.from_position(DOC_EXAMPLE) != Cephalopod.from_position(DOC_EXAMPLE.replace(" b", " w"))
    assert Cephalopod.from_position("3x3 2b../.../... b") != Cephalopod.from_position("3x3 1b../.../... b")
    assert Cephalopod.from_position("3x3 1w../.../... b") != Cephalopod.from_position("3x3 1b../.../... b")
    side = Cephalopod.from_position(EMPTY_3X3.replace(" b", " w"))
    assert side.zobrist() != Cephalopod(3, 3).zobrist()
    assert Cephalopod() != EMPTY_5X5 and Cephalopod() != 3


# ---- perft ----------------------------------------------------------------------------------


# Perft counts from the start are in tests/data/perft (test_perft_data.py).


def test_perft_counts_a_full_board_as_one_leaf(Cephalopod):
    s = Cephalopod.from_position(FULL_3X3_BLACK_WINS)
    assert [s.perft(d) for d in range(4)] == [1, 1, 1, 1]
    assert s.divide(3) == {}
    t = Cephalopod.from_position(FILLS_ON_ONE_ORDER_ONLY)
    # b1 then a1 fills the board at ply 2, which stays one leaf; a1 then b1xa1,b2 leaves a1 and b2
    # empty, both next to the 2 on b1 and the 6 on a2 only (8: no set): two plain placements, in
    # either order, fill the board at ply 4.
    assert [t.perft(d) for d in range(6)] == [1, 2, 2, 3, 3, 3]


def test_divide_of_the_2x2_start(Cephalopod):
    # Divide sums to perft in legal move order on every game: test_protocol.py.
    assert Cephalopod(2, 2).divide(3) == {"a1": 6, "b1": 6, "a2": 6, "b2": 6}


# ---- counting paths -------------------------------------------------------------------------


def test_count_paths_totals_equal_perft(Cephalopod):
    cases = [
        (Cephalopod(2, 2), 9),
        (Cephalopod(3, 3), 5),
        (Cephalopod(3, 5), 3),
        (Cephalopod(), 2),
        (Cephalopod.from_position(FOUR_ONES), 3),
        (Cephalopod.from_position(FILLS_ON_ONE_ORDER_ONLY), 6),
        (play_random(Cephalopod(4, 4), seed=5, max_moves=9), 3),
    ]
    for s, deepest in cases:
        for depth in range(deepest + 1):
            result = s.count_paths(depth)
            assert result.total() == sum(result.counts()) == s.perft(depth)
            assert len(result) <= s.perft(depth)


def test_count_paths_of_depth_zero_is_the_position_itself(Cephalopod):
    s = Cephalopod.from_position(DOC_EXAMPLE)
    result = s.count_paths(0)
    assert len(result) == 1 and result.counts() == [1] and result.total() == 1
    assert result.position(0) == DOC_EXAMPLE


def test_count_paths_keeps_positions_whose_board_filled_early(Cephalopod):
    s = Cephalopod.from_position(FULL_3X3_BLACK_WINS)
    for depth in (0, 1, 5):
        result = s.count_paths(depth)
        assert [result.position(0)] == [FULL_3X3_BLACK_WINS] and result.counts() == [1]
    # a1 then b1: b1 must capture {a1, b2} and the game goes on; b1 then a1 fills the board.
    t = Cephalopod.from_position(FILLS_ON_ONE_ORDER_ONLY)
    assert [t.count_paths(1).position(i) for i in range(2)] == ["2x2 .1b/6w1w w", "2x2 1b./6w1w w"]
    result = t.count_paths(3)
    rows = [result.position(i) for i in range(len(result))]
    assert rows == ["2x2 1w1b/6w1w b", "2x2 .2w/6w1b w", "2x2 1b2w/6w. w"]  # Black to move first
    assert result.counts() == [1, 1, 1]
    assert list(result.to_move) == [BLACK, WHITE, WHITE]


def test_count_paths_merges_transpositions(Cephalopod):
    # 3x3, two plies: a black die and a white die on two distinct squares: 9 * 8 positions, no merging.
    two = Cephalopod(3, 3).count_paths(2)
    assert (len(two), two.total()) == (72, 72) and set(two.counts()) == {1}
    # Three plies: the third die captures the first two when it is next to both (one die showing 2
    # left: 9 positions, reached once per ordered pair of its neighbours); otherwise the position is
    # a white die and two black ones: 9 * C(8, 2) = 252 positions, as a grid has no triangle.
    three = Cephalopod(3, 3).count_paths(3)
    assert (len(three), three.total()) == (261, 504)
    single = {three.position(i): c for i, c in enumerate(three.counts()) if np.count_nonzero(three.cells[i]) == 1}
    neighbours = {"a1": 2, "b1": 3, "c1": 2, "a2": 3, "b2": 4, "c2": 3, "a3": 2, "b3": 3, "c3": 2}
    expected = {}
    for square, n in neighbours.items():
        rows = [["."] * 3 for _ in range(3)]
        rows[int(square[1]) - 1][ord(square[0]) - ord("a")] = "2b"
        expected["3x3 " + "/".join("".join(r) for r in rows) + " w"] = n * (n - 1)
    assert single == expected
    # 2x2, three plies: 24 paths into 16 positions (8 of them reached twice).
    small = Cephalopod(2, 2).count_paths(3)
    assert (len(small), small.total()) == (16, 24)
    assert sorted(small.counts()) == [1] * 8 + [2] * 8


def test_path_counts_arrays(Cephalopod):
    s = Cephalopod.from_position(FILLS_ON_ONE_ORDER_ONLY)
    result = s.count_paths(3)
    assert len(result) == 3
    assert result.cells.dtype == np.int8 and result.cells.shape == (3, 4)
    assert result.to_move.dtype == np.uint8 and result.to_move.shape == (3,)
    assert result.counts_low.dtype == np.uint64 and result.counts_high.dtype == np.uint64
    assert result.counts_low.shape == result.counts_high.shape == (3,)
    # +p a black die, -p a white one, 0 empty, in board order
    assert result.cells.tolist() == [[-1, 1, -6, -1], [0, -2, -6, 1], [1, -2, -6, 0]]
    assert result.counts_low.tolist() == [1, 1, 1] and result.counts_high.tolist() == [0, 0, 0]
    assert all(type(c) is int for c in result.counts())


def test_path_counts_rows_are_sorted_by_side_then_square_codes(Cephalopod):
    for s, depth in [
        (Cephalopod(3, 3), 4),
        (Cephalopod.from_position(FOUR_ONES), 2),
        (play_random(Cephalopod(3, 5), seed=4, max_moves=8), 2),
    ]:
        result = s.count_paths(depth)
        keys = [(int(side), [row_code(int(v)) for v in row]) for side, row in zip(result.to_move, result.cells)]
        assert keys == sorted(keys) and len({str(k) for k in keys}) == len(keys)
        for i in range(len(result)):
            t = Cephalopod.from_position(result.position(i))
            _, _, cells, side = read_cells(t.position())
            assert side == result.to_move[i]
            assert [0 if c is None else (c[1] if c[0] == BLACK else -c[1]) for c in cells] == result.cells[i].tolist()


def test_path_counts_agree_with_one_more_layer(Cephalopod):
    # Each position of layer d passes its count to every child (or keeps it when the board is full).
    s = Cephalopod(3, 3)
    layer = s.count_paths(3)
    following = {}
    for i, count in enumerate(layer.counts()):
        parent = Cephalopod.from_position(layer.position(i))
        moves = parent.legal_moves()
        if not moves:
            following[parent.position()] = following.get(parent.position(), 0) + count
        for move in moves:
            parent.play(move)
            following[parent.position()] = following.get(parent.position(), 0) + count
            parent.undo()
    result = s.count_paths(4)
    assert {result.position(i): c for i, c in enumerate(result.counts())} == following


@pytest.mark.parametrize("rows, cols", [(4, 8), (8, 4), (6, 6), (5, 7), (8, 8)])
def test_count_paths_needs_at_most_31_squares(Cephalopod, rows, cols):
    s = Cephalopod(rows, cols)
    with pytest.raises(ValueError):
        s.count_paths(1)
    assert s.position() == Cephalopod(rows, cols).position()


def test_count_paths_works_on_the_largest_boards_it_accepts(Cephalopod):
    for rows, cols in [(5, 6), (6, 5), (3, 8), (4, 7)]:
        result = Cephalopod(rows, cols).count_paths(2)
        n = rows * cols
        assert (len(result), result.total()) == (n * (n - 1), n * (n - 1))


@pytest.mark.parametrize("depth", [-1, True, 1.0, "2", None])
def test_count_paths_rejects_bad_depths(Cephalopod, depth):
    with pytest.raises(ValueError):
        Cephalopod(3, 3).count_paths(depth)
