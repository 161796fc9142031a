"""The rules of Strands (the rule text "Strands", summarised in docs/strands.md), one test per clause.

Every test runs against each implementation given by the ``Strands`` fixture (conftest.py): the
pure-Python reference and, once built, the Rust engine. Colours are written 0 (Black) and 1 (White).
Positions use the documented notation ``RULE ROWS SIDE``: an empty cell is its label digit, a
covered one ``b`` or ``w``. Most tests use ``hex4`` (37 cells)::

       4 3 3 4          a1 a2 a3 a4
      3 2 2 2 3        b1 b2 b3 b4 b5
     3 2 2 2 2 3      c1 c2 c3 c4 c5 c6
    4 2 2 1 2 2 4    d1 d2 d3 d4 d5 d6 d7
     3 2 2 2 2 3      e1 ...
      3 2 2 2 3
       4 3 3 4
"""

import copy
import json
import pickle
import random
from collections import Counter
from itertools import combinations
from math import comb
from pathlib import Path

import pytest
from boardcore.reference._splitmix import SplitMix64
from boardcore.reference.strands import IllegalMoveError, NotationError
from harness import assert_illegal

BLACK, WHITE = 0, 1

LAYOUTS = json.loads(
    (Path(__file__).parents[1] / "python" / "boardcore" / "data" / "strands_layouts.json").read_text()
)["layouts"]
HEX4_ROWS = ["4334", "32223", "322223", "4221224", "322223", "32223", "4334"]
DOC_EXAMPLE = "up-to 4334/32223/322223/42b1224/322223/32223/4334 w"
# hex4 with the corners a1, a4 and d1 covered: label 4 has only g1 and g4 left.
TWO_FOURS_LEFT = "{} b33w/32223/322223/b2b122w/322223/32223/4334 w"


# ---- helpers (the rules written again, independently of the implementations) -----------------


def hex_places(side):
    """(name, row, x in half-cells) of every cell of the hexhex board of ``side``, board order."""
    lengths = [side + i for i in range(side)]
    lengths += lengths[-2::-1]
    places = []
    for r, length in enumerate(lengths):
        offset = abs(side - 1 - r)
        places += [(f"{chr(97 + r)}{i + 1}", r, offset + 2 * i) for i in range(length)]
    return places


def neighbours(side):
    places = hex_places(side)
    return {
        a: {b for b, s, y in places if (s == r and abs(y - x) == 2) or (abs(s - r) == 1 and abs(y - x) == 1)}
        for a, r, x in places
    }


def board_of(game):
    """name -> (label or None if covered, stone or None) from the position string."""
    rows = game.position().split()[1].replace("/", "")
    return {name: (None, ch) if ch in "bw" else (int(ch), None) for name, ch in zip(game.cells(), rows)}


def group_sizes(position, side):
    """(black sizes, white sizes), largest first, of a position string."""
    around = neighbours(side)
    colour = {name: ch for (name, _, _), ch in zip(hex_places(side), position.split()[1].replace("/", ""))}
    result = []
    for stone in "bw":
        left = {n for n, c in colour.items() if c == stone}
        sizes = []
        while left:
            frontier = [left.pop()]
            size = 1
            while frontier:
                for other in around[frontier.pop()] & left:
                    left.discard(other)
                    frontier.append(other)
                    size += 1
            sizes.append(size)
        result.append(sorted(sizes, reverse=True))
    return tuple(result)


def expected_moves(game):
    """The legal moves in documented order, from the position alone."""
    board = board_of(game)
    empty = [(name, label) for name, (label, _) in board.items() if label is not None]
    opening = all(stone is None for _, stone in board.values())
    moves = []
    for x in sorted({label for _, label in empty}):
        cells = [name for name, label in empty if label == x]
        if opening:
            sizes = [1] if x == 2 else []
        elif game.cover == "up-to":
            sizes = range(1, min(x, len(cells)) + 1)
        else:
            sizes = [min(x, len(cells))]
        for k in sizes:
            moves += [",".join(c) for c in combinations(cells, k)]
    return moves


def random_game(game, rng, plies=None):
    """Plays random legal moves (all of them, or ``plies``)."""
    while not game.is_over() and (plies is None or plies > 0):
        moves = game.legal_moves()
        game.play(moves[rng.randrange(len(moves))])
        plies = None if plies is None else plies - 1
    return game


def opened(Strands, cover="up-to", layout="hex4", cell="d3"):
    game = Strands(layout, cover)
    game.play(cell)
    return game


# ---- boards and layouts -------------------------------------------------------------------


def test_the_default_is_hex6_up_to_with_black_to_open(Strands):
    game = Strands()
    assert (game.layout_name, game.cover, game.side, game.to_move) == ("hex6", "up-to", 6, BLACK)
    assert len(game.cells()) == 91 and game.history == [] and not game.is_over()
    assert Strands(None, None).position() == game.position()


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_named_layouts_load_with_the_json_label_counts(Strands, name):
    entry = LAYOUTS[name]
    game = Strands(layout=name)
    assert (game.layout_name, game.side, len(game.cells())) == (name, entry["side"], entry["cells"])
    assert {str(k): v for k, v in Counter(game.labels).items()} == entry["label_counts"]
    assert list(game.labels) == [int(c) for row in entry["rows"] for c in row.split()]


def test_layout_names_are_those_of_the_data_file(Strands):
    assert Strands.layout_names() == sorted(LAYOUTS)


def test_cells_are_named_by_row_letter_and_number_in_board_order(Strands):
    assert list(Strands("hex4").cells()) == [name for name, _, _ in hex_places(4)]


def test_layouts_may_be_digit_strings_or_lists_of_ints(Strands):
    spaced = ["4 3 3 4", "3 2 2 2 3", "3 2 2 2 2 3", "4 2 2 1 2 2 4", "3 2 2 2 2 3", "3 2 2 2 3", "4 3 3 4"]
    ints = [[int(c) for c in row] for row in HEX4_ROWS]
    for layout in (HEX4_ROWS, spaced, ints):
        game = Strands(layout)
        assert game.position() == Strands("hex4").position()
        assert game.layout_name is None and game.side == 4


@pytest.mark.parametrize(
    "layout",
    [
        "hex9",
        "",
        42,
        ["11", "111", "11"],  # no 2
        ["27", "222", "22"],  # label 7
        ["20", "222", "22"],  # label 0
        ["22", "222"],  # not a hexhex board
        ["222", "2222", "222"],
        ["2"],  # side 1
        ["2x", "222", "22"],
        [[2, 2], [2, True, 2], [2, 2]],
        [[2, 2], [2, 2.0, 2], [2, 2]],
        [None, "222", "22"],
    ],
)
def test_bad_layouts_raise_value_error_naming_layout(Strands, layout):
    with pytest.raises(ValueError, match="layout"):
        Strands(layout)


@pytest.mark.parametrize("cover", ["upto", "Exact", "", 1, True])
def test_bad_cover_raises_value_error_naming_cover(Strands, cover):
    with pytest.raises(ValueError, match="cover"):
        Strands("hex4", cover)


def test_hexhex_boards_have_an_odd_number_of_cells(Strands):
    for side in range(2, 8):
        game = Strands(Strands.random_layout(side, 1))
        assert len(game.cells()) == 3 * side * (side - 1) + 1
        assert len(game.cells()) % 2 == 1


# ---- random layouts -----------------------------------------------------------------------


def documented_random_layout(side, seed):
    """docs/strands.md, written again: ring distance from cube coordinates."""
    rng = SplitMix64(seed)
    labels, rings = [], []
    for r, length in enumerate([len(row) for row in _row_shapes(side)]):
        for i in range(length):
            q = i + max(0, side - 1 - r) - (side - 1)  # axial coordinates relative to the centre
            s = r - (side - 1)
            d = max(abs(q), abs(s), abs(q + s))
            rings.append(d)
            level = (5 * d) // (side - 1)
            labels.append(1 + min(5, max(0, level + rng.below(3) - 1)))
    if 2 not in labels:
        labels[rings.index(1)] = 2
    rows, start = [], 0
    for row in _row_shapes(side):
        rows.append("".join(map(str, labels[start : start + len(row)])))
        start += len(row)
    return rows


def _row_shapes(side):
    lengths = [side + i for i in range(side)]
    return [[0] * n for n in lengths + lengths[-2::-1]]


def test_random_layout_is_deterministic(Strands):
    assert Strands.random_layout(6, 7) == Strands.random_layout(side=6, seed=7)
    assert len({tuple(Strands.random_layout(6, seed)) for seed in range(10)}) == 10


@pytest.mark.parametrize("side", range(2, 8))
def test_random_layout_obeys_its_documented_shape(Strands, side):
    for seed in (0, 1, 2, 12345, 2**64 - 1):
        rows = Strands.random_layout(side, seed)
        assert rows == documented_random_layout(side, seed)
        assert all(isinstance(row, str) and row.isdigit() for row in rows)
        game = Strands(rows)
        assert game.side == side and game.layout_name is None
        centre = game.labels[len(game.cells()) // 2]
        assert centre in (1, 2)  # ring 0: level 0, label 1 + max(0, below(3) - 1)
        edge = [
            (label, i)
            for i, (label, (_, r, _)) in enumerate(zip(game.labels, hex_places(side)))
            if r in (0, 2 * side - 2)
        ]  # the top and bottom rows are edge cells: level 5
        # (on side 2, a1 is also the first cell of ring 1, where a missing 2 goes)
        assert all(label in (5, 6) or (side, i, label) == (2, 0, 2) for label, i in edge)


def test_random_layout_always_has_a_2(Strands):
    fallbacks = 0
    for seed in range(60):
        rows = Strands.random_layout(2, seed)  # side 2: only the centre can draw a 2
        assert "2" in "".join(rows)
        if rows[1][1] == "1":
            fallbacks += 1
            assert rows[0][0] == "2"  # the first cell of ring 1 in board order
    assert fallbacks > 0


@pytest.mark.parametrize("kwargs", [{"side": 1, "seed": 0}, {"side": 8, "seed": 0}, {"side": True, "seed": 0}])
def test_random_layout_rejects_a_bad_side(Strands, kwargs):
    with pytest.raises(ValueError, match="side"):
        Strands.random_layout(**kwargs)


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, "1"])
def test_random_layout_rejects_a_bad_seed(Strands, seed):
    with pytest.raises(ValueError, match="seed"):
        Strands.random_layout(4, seed)


# ---- play ---------------------------------------------------------------------------------


def test_the_opening_covers_exactly_one_2(Strands):
    game = Strands("hex4")
    twos = [name for name, label in zip(game.cells(), game.labels) if label == 2]
    assert [str(m) for m in game.legal_moves()] == twos
    assert game.count_moves() == 18
    for move in ("d4", "a1", "a2", "d2,d3"):  # the 1, a 4, a 3, two 2s
        assert_illegal(game, move)
    assert game.position() == Strands("hex4").position()
    game.play("d3")
    assert game.position() == DOC_EXAMPLE


def test_white_moves_second_then_the_players_alternate(Strands):
    game = opened(Strands)
    assert game.to_move == WHITE
    game.play("a1,a4")
    assert game.to_move == BLACK
    game.play("d4")
    assert game.to_move == WHITE


@pytest.mark.parametrize("cover", ["up-to", "exact"])
def test_legal_moves_follow_the_documented_rule_and_order(Strands, cover):
    rng = random.Random(3)
    for layout in ("hex4", Strands.random_layout(3, 5)):
        game = Strands(layout, cover)
        while True:
            moves = [str(m) for m in game.legal_moves()]
            assert moves == expected_moves(game)
            assert [str(m) for m in game.moves()] == moves
            assert game.count_moves() == len(moves)
            if game.is_over():
                break
            game.play(moves[rng.randrange(len(moves))])


def test_up_to_covers_1_to_x_cells_of_one_label(Strands):
    game = opened(Strands, "up-to")
    sizes = {}
    for move in game.legal_moves():
        labels = {game.labels[game.cells().index(c)] for c in move.cells}
        assert len(labels) == 1
        sizes.setdefault(labels.pop(), set()).add(len(move.cells))
    assert sizes == {1: {1}, 2: {1, 2}, 3: {1, 2, 3}, 4: {1, 2, 3, 4}}
    assert game.count_moves() == 1 + comb(17, 1) + comb(17, 2) + sum(comb(12, k) for k in range(1, 4)) + sum(
        comb(6, k) for k in range(1, 5)
    )


def test_exact_covers_exactly_x_cells_of_one_label(Strands):
    game = opened(Strands, "exact")
    sizes = {}
    for move in game.legal_moves():
        labels = {game.labels[game.cells().index(c)] for c in move.cells}
        sizes.setdefault(labels.pop(), set()).add(len(move.cells))
    assert sizes == {1: {1}, 2: {2}, 3: {3}, 4: {4}}
    assert game.count_moves() == 1 + comb(17, 2) + comb(12, 3) + comb(6, 4)
    with pytest.raises(IllegalMoveError):
        game.play("a2")  # one 3 when three must be covered


@pytest.mark.parametrize("cover, fours", [("up-to", ["g1", "g4", "g1,g4"]), ("exact", ["g1,g4"])])
def test_fewer_cells_than_x_remain(Strands, cover, fours):
    game = Strands.from_position(TWO_FOURS_LEFT.format(cover))
    moves = [str(m) for m in game.legal_moves()]
    assert [m for m in moves if m.startswith("g") and m[:2] in ("g1", "g4")] == fours
    game.play("g4,g1")
    assert game.to_move == BLACK and "g1" not in [str(m) for m in game.legal_moves()]


def test_all_cells_of_a_turn_carry_the_same_label(Strands):
    game = opened(Strands)
    for move in ("a1,a2", "d4,d2", "b2,b1"):  # 4 and 3, 1 and 2, 2 and 3
        with pytest.raises(IllegalMoveError):
            game.play(move)
    assert game.position() == DOC_EXAMPLE


def test_the_game_ends_on_a_full_board(Strands):
    rng = random.Random(11)
    for cover in ("up-to", "exact"):
        game = Strands("hex4", cover)
        while not game.is_over():
            assert game.legal_moves() and game.winner() is None
            random_game(game, rng, plies=1)
        assert all(ch in "bw/" for ch in game.position().split()[1])
        assert game.legal_moves() == [] and game.count_moves() == 0 and list(game.moves()) == []
        assert game.winner() in (BLACK, WHITE)


# ---- end and score ------------------------------------------------------------------------


def test_score_lists_each_players_group_sizes_from_largest(Strands):
    game = Strands.from_position("up-to 4b3w/bb22w/322223/4221224/32w223/3ww23/4334 b")
    assert game.score() == ([3], [3, 2])
    assert Strands("hex4").score() == ([], [])


@pytest.mark.parametrize(
    "position, score, winner",
    [
        ("up-to bb/bww/ww b", ([3], [4]), WHITE),  # the largest group decides
        ("up-to wwb/bwbw/bwbbw/wbbw/wwb b", ([7, 2], [7, 3]), WHITE),  # tie on the first: the second
        ("up-to www/bbbw/bbwwb/bbwb/bwb b", ([8, 3], [8]), BLACK),  # a missing group counts 0
    ],
)
def test_group_sizes_are_compared_position_by_position(Strands, position, score, winner):
    game = Strands.from_position(position)
    assert game.is_over()
    assert game.score() == score
    assert game.winner() == winner


def test_a_full_board_always_has_a_winner(Strands):
    rng = random.Random(5)
    for side in (2, 3, 4):
        lengths = [len(row) for row in _row_shapes(side)]
        for _ in range(40):
            colours = "".join(rng.choice("bw") for _ in range(sum(lengths)))
            rows, start = [], 0
            for n in lengths:
                rows.append(colours[start : start + n])
                start += n
            position = f"exact {'/'.join(rows)} {rng.choice('bw')}"
            game = Strands.from_position(position)
            black, white = group_sizes(position, side)
            assert game.score() == (black, white)
            width = max(len(black), len(white))
            black, white = black + [0] * (width - len(black)), white + [0] * (width - len(white))
            assert black != white  # hexhex boards are odd: no draw
            assert game.winner() == (BLACK if black > white else WHITE)


# ---- move counts --------------------------------------------------------------------------


@pytest.mark.parametrize("cover, count", [("up-to", 58_472), ("exact", 45_125)])
def test_whites_first_turn_on_hex6(Strands, cover, count):
    game = Strands("hex6", cover)
    assert game.count_moves() == 36
    game.play(game.legal_moves()[0])
    assert game.count_moves() == count
    assert len(game.legal_moves()) == count


def test_moves_is_a_lazy_iterator(Strands):
    game = opened(Strands, layout="hex6", cell="c3")
    moves = game.moves()
    assert iter(moves) is moves
    first = [str(next(moves)) for _ in range(3)]
    assert first == [str(m) for m in game.legal_moves()[:3]] == ["f6"] + first[1:]


# ---- notation -----------------------------------------------------------------------------


def test_move_notation_round_trips(Strands):
    game = opened(Strands)
    for move in game.legal_moves()[::50]:
        assert game.legal_moves()[game.legal_moves().index(str(move))] == move
        assert move == str(move) and hash(move) == hash(str(move))
        assert list(move.cells) == str(move).split(",")
        assert pickle.loads(pickle.dumps(move)) == move and copy.deepcopy(move) == move
        assert repr(move) == f"Move({str(move)!r})"


def test_moves_compare_equal_to_their_notation_in_any_case_and_order(Strands):
    game = opened(Strands)
    move = next(m for m in game.legal_moves() if str(m) == "b2,c2")
    assert move == " C2,b2 " and move == "b2,C2" and move != "b2" and move != "b2,,c2"
    assert tuple(move.cells) == ("b2", "c2")
    with pytest.raises(AttributeError):
        move.cells = ("d2",)


def test_play_accepts_a_move_or_its_notation_in_any_case_and_order(Strands):
    a, b = opened(Strands), opened(Strands)
    a.play(" E2,B2 ")
    b.play(next(m for m in b.legal_moves() if m == "b2,e2"))
    assert a.position() == b.position()
    assert [str(m) for m in a.history] == ["d3", "b2,e2"]


@pytest.mark.parametrize(
    "text",
    [
        "",
        " ",
        "d4,,e5",
        "d4, e5",
        "d4 ,e5",
        "d4,d4",
        "D4,d4",
        "d 4",
        "4d",
        "d04",
        "d0",
        "d4,",
        ",d4",
        "d4;e5",
        "dé",
        "pass",
        "d4-e5",
    ],
)
def test_text_that_is_not_a_move_raises_notation_error(Strands, text):
    game = opened(Strands)
    assert not game.is_legal(text)
    with pytest.raises(NotationError):
        game.play(text)
    assert game.position() == DOC_EXAMPLE and len(game.history) == 1


@pytest.mark.parametrize(
    "text",
    [
        "z9",  # off the board
        "d8",  # off the board
        "d3",  # covered
        "d2,d3",  # one covered
        "a1,a2",  # mixed labels
        "b2,b3,b4",  # three 2s
        "a1,a4,d1,d7,g1",  # five 4s
    ],
)
def test_illegal_moves_raise_illegal_move_error_and_change_nothing(Strands, text):
    game = opened(Strands)
    before = (game.position(), game.zobrist(), len(game.history))
    assert_illegal(game, text)
    assert (game.position(), game.zobrist(), len(game.history)) == before


def test_position_notation_of_the_documented_example(Strands):
    game = opened(Strands)
    assert game.position() == DOC_EXAMPLE
    assert Strands("hex4", "exact").position() == "exact " + "/".join(HEX4_ROWS) + " b"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "up-to",
        "up-to 22/222/22",
        "upto 22/222/22 b",
        "up-to 22/222/22 x",
        "up-to 22/222/22 b extra",
        "up-to  22/222/22 b",
        "up-to 22/222 b",  # not hexhex
        "up-to 2/2 b",
        "up-to 22/272/22 b",  # label 7
        "up-to 22/202/22 b",  # label 0
        "up-to 22/2.2/22 b",
        "up-to 22/2B2/22 b",
        "up-to 11/111/11 b",  # the opening without a 2
        "up-to 22/212/22 w",  # an empty board with White to move
    ],
)
def test_malformed_positions_raise_notation_error(Strands, text):
    with pytest.raises(NotationError):
        Strands.from_position(text)


def test_text_board(Strands):
    assert str(opened(Strands)) == "\n".join(
        ["   4 3 3 4", "  3 2 2 2 3", " 3 2 2 2 2 3", "4 2 b 1 2 2 4", " 3 2 2 2 2 3", "  3 2 2 2 3", "   4 3 3 4"]
        + ["White (w) to move"]
    )


# ---- records ------------------------------------------------------------------------------

# What every game's records share (bad records, a bad move's number, a position's record,
# transpositions) is tested as one table in test_record_rules.py.


def test_record_of_a_game(Strands):
    game = opened(Strands, "exact")
    game.play("a1,a4,d1,d7")
    assert game.record() == '[Game "strands"]\n[Layout "hex4"]\n[Cover "exact"]\n[Result "*"]\n\nd3 a1,a4,d1,d7\n'
    custom = Strands(HEX4_ROWS)
    assert '[Layout "4334/32223/322223/4221224/322223/32223/4334"]' in custom.record()


# ---- undo, copies, hashing ----------------------------------------------------------------


def test_zobrist_uses_the_documented_keys(Strands):
    rng = SplitMix64(0x424F415244434F52)
    keys = [rng.next() for _ in range(2 * 128 + 1 + 6 * 128)]
    game = opened(Strands)
    game.play("a1,a4")
    expected = 0  # Black to move: no side key
    for i, (_name, (label, stone)) in enumerate(board_of(game).items()):
        expected ^= keys[257 + (label - 1) * 128 + i] if stone is None else keys["bw".index(stone) * 128 + i]
    assert game.zobrist() == expected
    game.undo()
    assert (
        game.zobrist() == expected ^ keys[256] ^ keys[128] ^ keys[131] ^ keys[257 + 3 * 128] ^ keys[257 + 3 * 128 + 3]
    )


# ---- perft --------------------------------------------------------------------------------


# Perft counts from the start are in tests/data/perft (test_perft_data.py).


def test_layout_names_are_read_in_any_case_like_moves(Strands):
    # Issue 14, item 13: `layout="Hex4"` is the layout hex4, and says so by its lower-case name.
    for name in ["Hex4", "HEX6"]:
        game = Strands(name)
        assert game.layout_name == name.lower() and game == Strands(name.lower())
    with pytest.raises(ValueError, match="layout"):
        Strands("hex 4")
