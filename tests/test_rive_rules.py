"""The rules of Rive (the rule text "Rive", summarised in docs/rive.md), one test per clause.

Every test runs against each implementation given by the ``Rive`` fixture (conftest.py): the
pure-Python reference and, once built, the Rust engine. Colours are written 0 (Black) and 1 (White).
Positions use the documented notation ``BOARD ROWS SIDE [swap] [single] [capture=CELL:N]``: ``.`` an empty
cell, ``b`` a black stone, ``w`` a white one. The seed's figures are not reproduced exactly (we only
have their captions); the positions below are small hex3 boards built to show what each caption
says. hex3, with its cells::

      a1 a2 a3
     b1 b2 b3 b4
    c1 c2 c3 c4 c5
     d1 d2 d3 d4
      e1 e2 e3
"""

import copy
import pickle
import random
from itertools import combinations

import pytest
from boardcore.reference.rive import NotationError
from harness import SplitMix64, assert_illegal, assert_not_a_move, play_random, record_tags, snapshot

BLACK, WHITE = 0, 1

HEX3 = ((3, 2), (4, 1), (5, 0), (4, 1), (3, 2))
HEX335 = ((3, 2), (4, 1), (5, 0), (5, 1), (5, 2), (4, 3), (3, 4))
HEX4 = ((4, 3), (5, 2), (6, 1), (7, 0), (6, 1), (5, 2), (4, 3))

EMPTY_HEX3 = "hex3 .../..../...../..../... b"
EMPTY_HEX335 = "hex335 .../..../...../...../...../..../... b"
DOC_EXAMPLE = "hex3 b../..../...../..../..w b"

# Figure 1: five single stones; only c1 and c5 touch none of them.
FIGURE_1 = "hex3 b.w/..../..b../..../w.b w"
# Figure 2 (White to move again after capturing with a2xa1 from the position FIGURE_1 reaches after
# c1 c5): the group a2-a3 has 2 stones, c1 c3 c5 e1 e3 are single. b1 c2 c4 d1 d2 d3 d4 e2 touch
# groups of 1 only; a1 b2 b3 b4 touch the group of 2.
FIGURE_2 = "hex3 .ww/..../w.b.b/..../w.b w"
# Figure 3a: groups a1-a2 (2), c1-c2 (2), e2-e3 (2), b4-c4-c5 (3). b1 and b2 join a1-a2 and c1-c2,
# d2 joins c1-c2 and e2-e3 (captures); d1 and e1 touch one group of 2 (plain placements at the
# bottom); a3 b3 c3 d3 d4 touch the group of 3 and are not allowed.
FIGURE_3A = "hex3 bb./...w/bw.bb/..../.bw w"
# Figure 3b/3c: White plays b1xa2,c1 (a group of 5 shrinks to a1-b1-c2) and must place again; the
# only cell left touching a group of 2 is e1.
FIGURE_3C = "hex3 b../w..w/.w.bb/..../.bw w"
# Figure 3d: three groups of 3 (a1-b1-c2, b4-c4-c5, e1-e2-e3); Black to move.
FIGURE_3D = "hex3 b../w..w/.w.bb/..../wbw b"
# Three groups of 3, all triangles: A = a1 b1 b2, B = b4 c4 c5, C = d2 e1 e2. c3 touches all three
# (through b2, c4, d2); b3 touches A and B (through b2, and b4 and c4); every empty cell touches a
# group of 3, so every empty cell is legal.
THREE_TRIANGLES = "hex3 w../bw.b/...wb/.w../bb. w"
# A row of five cells: a3 joins a1-a2 and a4-a5.
LINE = "5@0 bw.wb b"


# ---- helpers --------------------------------------------------------------------------------


def layout_cells(rows):
    """(names, x positions, row numbers) of a layout, in board order, computed here from the doc."""
    names, places = [], []
    for r, (length, offset) in enumerate(rows):
        for i in range(length):
            names.append(f"{chr(ord('a') + r)}{i + 1}")
            places.append((r, offset + 2 * i))
    return names, places


def neighbours(rows):
    """name -> set of neighbour names: same row with x two apart, adjacent rows with x one apart."""
    names, places = layout_cells(rows)
    result = {}
    for name, (r, x) in zip(names, places):
        result[name] = {
            other
            for other, (s, y) in zip(names, places)
            if (s == r and abs(y - x) == 2) or (abs(s - r) == 1 and abs(y - x) == 1)
        }
    return result


def stones(position, rows=HEX3):
    """name -> 'b' or 'w' for every stone of a position string."""
    names, _ = layout_cells(rows)
    text = position.split()[1].replace("/", "")
    return {name: c for name, c in zip(names, text) if c != "."}


def groups_of(occupied, around):
    """The groups (sets of names) of a set of occupied cells."""
    left, result = set(occupied), []
    while left:
        start = left.pop()
        group, frontier = {start}, [start]
        while frontier:
            for other in around[frontier.pop()]:
                if other in left:
                    left.discard(other)
                    group.add(other)
                    frontier.append(other)
        result.append(group)
    return result


def connected(cells, around):
    return len(groups_of(cells, around)) <= 1


def brute_force_survivors(position, cell, rows=HEX3):
    """Every connected set of t stones of the new group that keeps ``cell``: written again here."""
    around = neighbours(rows)
    occupied = set(stones(position, rows))
    joined = [g for g in groups_of(occupied, around) if g & around[cell]]
    assert len(joined) >= 2
    target = max(len(g) for g in joined) + 1
    others = sorted(set().union(*joined))
    result = set()
    for kept in combinations(others, target - 1):
        if connected(set(kept) | {cell}, around):
            result.add(frozenset(set(others) - set(kept)))
    return result


def moves_on(game, cell):
    return [str(m) for m in game.legal_moves() if m.cell == cell]


def legal_cells(game):
    """The distinct placed cells of the legal moves, in order."""
    cells = []
    for m in game.legal_moves():
        if m.cell is not None and m.cell not in cells:
            cells.append(m.cell)
    return cells


def cell_key(name):
    return name[0], int(name[1:])


def move_key(move):
    """The documented order: swap last; else the placed cell, then the removed list, in board order."""
    if move.is_swap:
        return (1,)
    if move.is_removal:
        return (0, cell_key(move.removed[0]))
    return (0, cell_key(move.cell), [cell_key(c) for c in move.removed])


def finish_single_stone_capture(game):
    """From a capture under way in the single-stone form: every position at its end, through every
    order of removals (level by level, equal positions merged)."""
    layer = {game.position(): game.copy()}
    while all("capture=" in text for text in layer):
        following = {}
        for g in layer.values():
            for move in g.legal_moves():
                assert move.is_removal
                h = g.copy()
                h.play(move)
                following.setdefault(h.position(), h)
        layer = following
    assert all("capture=" not in text for text in layer)
    return set(layer)


def documented_zobrist(game):
    rng = SplitMix64(0x424F415244434F52)
    keys = [rng.next() for _ in range(128 + 128 + 1 + 128 + 32)]
    fields = game.position().split()
    names, _ = layout_cells(game.rows)
    index = {name: i for i, name in enumerate(names)}
    value = keys[256] if fields[2] == "w" else 0
    for name, colour in stones(game.position(), game.rows).items():
        value ^= keys[(0 if colour == "b" else 128) + index[name]]
    for field in fields[3:]:
        if field.startswith("capture="):
            cell, count = field[len("capture=") :].split(":")
            value ^= keys[257 + index[cell]] ^ keys[385 + int(count)]
    return value


# ---- boards ---------------------------------------------------------------------------------


def test_the_default_board_is_hex335_and_empty(Rive):
    s = Rive()
    assert s.board_name == "hex335" and s.rows == HEX335
    assert s.position() == EMPTY_HEX335
    assert (s.swap, s.single_stones, s.to_move) == (False, False, BLACK)
    assert s.score() == (0, 0) and s.groups() == [] and s.history == []
    assert Rive(None, swap=None, single_stones=None).position() == EMPTY_HEX335


@pytest.mark.parametrize(
    "name, rows, count",
    [
        ("hex3", HEX3, 19),
        ("hex335", HEX335, 29),
        ("hex4", HEX4, 37),
        ("hex2", ((2, 1), (3, 0), (2, 1)), 7),
        ("hex5", None, 61),
        ("hex6", None, 91),
        ("hex7", None, 127),
    ],
)
def test_named_boards_have_the_documented_rows_and_cell_counts(Rive, name, rows, count):
    s = Rive(name)
    n = int(name[3:]) if name != "hex335" else None
    if rows is None:  # hexN: row i has N + i cells at offset N - 1 - i, then the rows shrink back
        top = [(n + i, n - 1 - i) for i in range(n)]
        rows = tuple(top + top[-2::-1])
    assert s.board_name == name and s.rows == rows
    assert len(s.cells()) == count == sum(length for length, _ in rows)
    if n is not None:
        assert count == 3 * n * (n - 1) + 1
    assert s.count_moves() == count  # every cell of an empty board is isolated
    assert s.position() == f"{name} " + "/".join("." * length for length, _ in rows) + " b"


def test_cells_are_named_by_row_letter_and_number_in_board_order(Rive):
    s = Rive("hex3")
    assert s.cells() == (
        "a1",
        "a2",
        "a3",
        "b1",
        "b2",
        "b3",
        "b4",
        "c1",
        "c2",
        "c3",
        "c4",
        "c5",
        "d1",
        "d2",
        "d3",
        "d4",
        "e1",
        "e2",
        "e3",
    )
    assert [str(m) for m in s.legal_moves()] == list(s.cells())
    s.play("c3")
    assert s.position() == "hex3 .../..../..b../..../... w"
    s.play("e3")
    assert s.position() == "hex3 .../..../..b../..../..w b"


def test_custom_boards_are_rows_of_length_and_offset(Rive):
    for board in ([(3, 0), (2, 1)], ((3, 0), (2, 1)), [[3, 0], [2, 1]]):
        s = Rive(board)
        assert s.rows == ((3, 0), (2, 1)) and s.board_name == "3@0,2@1"
        assert s.cells() == ("a1", "a2", "a3", "b1", "b2")
        assert s.position() == "3@0,2@1 .../.. b"
    assert Rive([(1, 0)]).position() == "1@0 . b"
    assert Rive([(5, 0)]).board_name == "5@0"
    assert Rive([(99, 0), (28, 5)]).board_name == "99@0,28@5"  # 127 cells
    # a custom board whose rows are a named layout takes that name
    assert Rive(list(HEX3)).board_name == "hex3"
    assert Rive(list(HEX335)).board_name == "hex335"
    assert Rive([(5 + i, 4 - i) for i in range(5)] + [(8 - i, 1 + i) for i in range(4)]).board_name == "hex5"


@pytest.mark.parametrize(
    "board",
    [
        [(2, 0)],
        [(3, 0), (3, 1)],
        [(2, 1), (2, 0), (2, 1), (2, 0)],
        [(4, 0)],  # even numbers of cells
        "hex1",
        "hex8",
        "hex0",
        "hex03",
        "hex 3",
        "hex",
        "",
        "hex335 ",
        "3@0,2@1",
        "square",
        [],
        [(0, 0)],
        [(1, -1)],
        [(100, 0)],
        [(1, 100)],
        [(3, 0), (0, 1)],
        [(99, 0), (31, 0)],
        [(1, 0)] * 27,
        [(3.0, 0)],
        [(3, 0.0)],
        [(True, 0)],
        [(3, False)],
        [("3", 0)],
        [(3,)],
        [(3, 0, 1)],
        [3, 0],
        [None],
        (3, 0),
        3,
        3.5,
        True,
        {"rows": 3},
        b"hex3",
        [(2**70, 0)],
    ],
)
def test_bad_boards_raise_value_error_naming_board(Rive, board):
    with pytest.raises(ValueError, match="board"):
        Rive(board)


def test_board_names_are_read_in_any_case_like_moves(Rive):
    # Issue 14, item 13 (until then "Hex3" was refused). Position notation stays as written.
    for name in ["Hex3", "HEX5", "hEx335"]:
        assert Rive(name).board_name == name.lower()
    assert Rive("HEX5") == Rive("hex5")


@pytest.mark.parametrize(
    "kwargs, argument",
    [
        ({"swap": 1}, "swap"),
        ({"swap": "yes"}, "swap"),
        ({"single_stones": 0}, "single_stones"),
        ({"single_stones": "no"}, "single_stones"),
    ],
)
def test_bad_flags_raise_value_error_naming_the_argument(Rive, kwargs, argument):
    with pytest.raises(ValueError, match=argument):
        Rive("hex3", **kwargs)


def test_the_centre_of_hex3_has_six_neighbours(Rive):
    s = Rive.from_position("hex3 .../..../..b../..../... w")
    touching = {"b2", "b3", "c2", "c4", "d2", "d3"}
    assert legal_cells(s) == [c for c in s.cells() if c not in touching | {"c3"}]
    assert len(legal_cells(s)) == 12


@pytest.mark.parametrize("rows", [HEX3, HEX335, ((3, 0), (2, 1)), ((1, 0), (1, 2), (1, 0)), ((2, 0), (3, 3))])
def test_neighbours_are_side_by_side_or_half_a_cell_apart_in_adjacent_rows(Rive, rows):
    # One stone on each cell in turn: White's legal cells are exactly the cells it does not touch.
    around = neighbours(rows)
    names, _ = layout_cells(rows)
    for name in names:
        cells = "".join("b" if n == name else "." for n in names)
        text, at = [], 0
        for length, _ in rows:
            text.append(cells[at : at + length])
            at += length
        board = Rive(list(rows)).board_name
        s = Rive.from_position(f"{board} {'/'.join(text)} w")
        isolated = [n for n in names if n != name and n not in around[name]]
        assert legal_cells(s) == (isolated or [n for n in names if n != name])
    if rows == HEX3:
        degrees = sorted(len(v) for v in around.values())
        assert degrees == [3] * 6 + [4] * 6 + [6] * 7


# ---- groups and placements ------------------------------------------------------------------


def test_groups_are_made_of_both_colours(Rive):
    s = Rive.from_position("hex3 bw./..../...../..../... b")
    assert s.groups() == [2]
    # a3, b1, b2 and b3 touch the group of 2, so an isolated cell is required
    assert legal_cells(s) == ["b4", "c1", "c2", "c3", "c4", "c5", "d1", "d2", "d3", "d4", "e1", "e2", "e3"]
    t = Rive.from_position(FIGURE_3A)
    assert t.groups() == [3, 2, 2, 2]  # b4 w + c4 b + c5 b is one group of 3; a1 b + a2 b; c1 b + c2 w
    # a capture counts and removes stones of both colours
    u = Rive.from_position(LINE)
    assert u.groups() == [2, 2]
    assert [str(m) for m in u.legal_moves()] == ["a3xa1,a2", "a3xa1,a5", "a3xa4,a5"]
    u.play("a3xa1,a5")  # two black stones go; a white stone stays on each side of a3
    assert u.position() == "5@0 .wbw. b" and u.groups() == [3]


def test_a_stone_must_be_placed_in_isolation_while_possible(Rive):
    s = Rive.from_position(FIGURE_1)
    assert s.groups() == [1, 1, 1, 1, 1]
    assert [str(m) for m in s.legal_moves()] == ["c1", "c5"]
    for cell in ["a2", "b2", "c2", "d3", "e2"]:  # each touches a stone
        assert_illegal(s, cell)
    assert s.position() == FIGURE_1
    s.play("c1")
    assert [str(m) for m in s.legal_moves()] == ["c5"]
    s.play("c5")
    # no isolated cell is left: every empty cell now joins two single stones
    assert s.position() == "hex3 b.w/..../w.b.b/..../w.b w"
    assert len(legal_cells(s)) == 12 and all(len(m.removed) == 1 for m in s.legal_moves())


def test_the_placement_touching_the_smaller_groups_is_the_only_legal_one(Rive):
    s = Rive.from_position("hex3 b.w/..../w.b.b/..../w.b w")
    s.play("a2xa1")  # a2 joins a1 and a3 (1 and 1): t = 2, a1 goes
    assert s.position() == FIGURE_2 and s.to_move == WHITE
    assert sorted(s.groups(), reverse=True) == [2, 1, 1, 1, 1, 1]
    legal = legal_cells(s)
    assert legal == ["b1", "c2", "c4", "d1", "d2", "d3", "d4", "e2"]  # they touch groups of 1 only
    for cell in ["a1", "b2", "b3", "b4"]:  # they touch the group a2-a3
        assert_illegal(s, cell)
    assert moves_on(s, "b1") == ["b1"]  # touches c1 only: a plain placement
    assert moves_on(s, "c2") == ["c2xc1", "c2xc3"]  # joins c1 and c3
    assert s.position() == FIGURE_2


def test_capturing_and_plain_placements_are_equally_legal_and_listed_in_order(Rive):
    # Figure 3a: the captures b1 b2 d2 and the plain placements d1 e1 at the bottom all touch groups
    # of at most 2; nothing may touch the group of 3.
    s = Rive.from_position(FIGURE_3A)
    assert [str(m) for m in s.legal_moves()] == [
        "b1xa1,a2",
        "b1xa2,c1",
        "b1xa2,c2",
        "b1xc1,c2",  # b1 touches a1, c1, c2
        "b2xa1,a2",
        "b2xa1,c1",
        "b2xa2,c1",
        "b2xc1,c2",  # b2 touches a1, a2, c2
        "d1",
        "d2xc1,c2",
        "d2xc1,e3",
        "d2xe2,e3",  # d2 touches c2 and e2
        "e1",
    ]
    for cell in ["a3", "b3", "c3", "d3", "d4"]:
        assert not s.is_legal(cell)
    s.play("e1")  # no capture is compulsory
    assert s.to_move == BLACK


def test_a_capture_joining_groups_of_2_and_2_keeps_3_stones_and_the_player_moves_again(Rive):
    s = Rive.from_position(FIGURE_3A)
    s.play("b1xa2,c1")  # Figure 3b: 1 + 2 + 2 = 5 stones, back down to 2 + 1 = 3
    assert s.position() == FIGURE_3C
    assert s.to_move == WHITE  # White places again
    assert sorted(s.groups(), reverse=True) == [3, 3, 2]
    # Figure 3c: White's only move touches the group of 2, captures nothing, and ends the turn.
    assert [str(m) for m in s.legal_moves()] == ["e1"]
    s.play("e1")
    assert s.position() == FIGURE_3D and s.to_move == BLACK


def test_a_capture_joining_three_groups_of_3_keeps_4(Rive):
    s = Rive.from_position(THREE_TRIANGLES)
    assert s.groups() == [3, 3, 3]
    moves = moves_on(s, "c3")
    # 3 + 3 + 3 + 1 = 10 stones down to 4: six removed. c3 keeps k_A + k_B + k_C = 3 stones, each part
    # a connected piece of its triangle holding the stone next to c3: 1 way for 0, 1 or 3 stones,
    # 2 for 2 stones; 3 * 1 (3, 0, 0) + 6 * 2 (2, 1, 0) + 1 (1, 1, 1) = 16.
    assert len(moves) == 16
    for move in moves:
        t = s.copy()
        t.play(move)
        assert sorted(t.groups(), reverse=True)[0] == 4 and sum(t.score()) == 10 - 6
        assert t.to_move == WHITE  # and White places again
    # Figure 3d: Black creates a group of 4 by joining two groups of 3, and must place again.
    d = Rive.from_position(FIGURE_3D)
    assert moves_on(d, "c3") == ["c3xa1,b1,b4", "c3xa1,b1,c2", "c3xa1,b1,c5", "c3xa1,b4,c5", "c3xb4,c4,c5"]
    d.play("c3xa1,b1,c5")
    assert d.position() == "hex3 .../...w/.wbb./..../wbw b"
    assert sorted(d.groups(), reverse=True) == [4, 3] and d.to_move == BLACK


def test_survivors_stay_connected(Rive):
    s = Rive.from_position(THREE_TRIANGLES)
    around = neighbours(HEX3)
    for move in s.legal_moves():
        if move.removed:
            t = s.copy()
            t.play(move)
            new_group = [g for g in groups_of(set(stones(t.position())), around) if move.cell in g]
            assert len(new_group) == 1 and not set(move.removed) & new_group[0]
    # b3 joins a1-b1-b2 and b4-c4-c5 (7 stones down to 4). Removing b2, b4, c4 would leave a1-b1 and
    # c5 cut off from b3: not a move.
    assert len(moves_on(s, "b3")) == 9
    assert "b3xb2,b4,c4" not in moves_on(s, "b3")
    assert_illegal(s, "b3xb2,b4,c4")


def test_every_distinct_survivor_set_is_a_move(Rive):
    cases = [
        (THREE_TRIANGLES, "c3"),
        (THREE_TRIANGLES, "b3"),
        (THREE_TRIANGLES, "c2"),
        (FIGURE_3A, "b1"),
        (FIGURE_3A, "b2"),
        (FIGURE_3A, "d2"),
        (FIGURE_3D, "d3"),
    ]
    for seed in range(4):  # and the captures met in random games
        s = Rive("hex3")
        rng = random.Random(seed)
        while not s.is_over():
            moves = s.legal_moves()
            for cell in {m.cell for m in moves if m.removed}:
                cases.append((s.position(), cell))
            s.play(rng.choice(moves))
    assert len(cases) > 30
    for position, cell in cases:
        s = Rive.from_position(position)
        expected = brute_force_survivors(position, cell)
        moves = [m for m in s.legal_moves() if m.cell == cell]
        assert {frozenset(m.removed) for m in moves} == expected
        assert len(moves) == len(expected)  # each set once


def test_a_non_capturing_placement_ends_the_turn(Rive):
    s = Rive.from_position(FIGURE_3A)
    s.play("d1")
    assert s.to_move == BLACK
    for seed in range(3):
        t = Rive("hex3")
        rng = random.Random(seed)
        while not t.is_over():
            move = rng.choice(t.legal_moves())
            side = t.to_move
            t.play(move)
            assert t.to_move == (side if move.removed else 1 - side)


def test_the_board_never_fills_mid_turn(Rive):
    for board, seed in [("hex3", 1), ("hex3", 2), ("hex2", 3), ([(5, 0)], 4), ([(3, 0), (4, 1), (3, 0), (1, 1)], 5)]:
        s = Rive(board)
        rng = random.Random(seed)
        while not s.is_over():
            move = rng.choice(s.legal_moves())
            s.play(move)
            if move.removed:
                assert not s.is_over() and "." in s.position().split()[1] and s.legal_moves()
        assert s.history[-1].removed == ()  # the last placement captured nothing
    # In the single-stone form, placing on the last empty cell may start a capture: the board is full
    # but the game is not over until the removals are done.
    t = Rive.from_position(LINE + " single")
    t.play("a3")
    assert t.position() == "5@0 bwbwb b single capture=a3:2"
    assert not t.is_over() and t.winner() is None
    assert [str(m) for m in t.legal_moves()] == ["xa1", "xa5"]


def test_the_game_always_ends_and_each_placement_grows_the_sorted_group_sizes(Rive):
    for board, seed in [("hex3", 11), ("hex3", 12), ([(3, 0), (4, 1), (3, 0), (1, 1)], 13)]:
        s = Rive(board)
        rng = random.Random(seed)
        sizes = s.groups()
        while not s.is_over():
            s.play(rng.choice(s.legal_moves()))
            assert s.groups() > sizes
            sizes = s.groups()
        assert len(s.history) < 10 * len(s.cells())


# ---- swap -----------------------------------------------------------------------------------


def test_swap_turns_blacks_first_stone_white(Rive):
    s = Rive("hex3", swap=True)
    assert s.swap and s.position() == "hex3 .../..../...../..../... b swap"
    s.play("c3")
    moves = s.legal_moves()
    assert str(moves[-1]) == "swap" and moves[-1].is_swap and moves[-1].cell is None
    assert [str(m) for m in moves[:-1]] == legal_cells(s)
    s.play("swap")
    assert s.position() == "hex3 .../..../..w../..../... b swap"
    assert s.to_move == BLACK and s.score() == (0, 1)
    assert "swap" not in [str(m) for m in s.legal_moves()]
    assert s.undo() == "swap" and s.position() == "hex3 .../..../..b../..../... w swap"


def test_swap_only_as_whites_first_move(Rive):
    plain = Rive("hex3")
    plain.play("c3")
    assert "swap" not in [str(m) for m in plain.legal_moves()]
    s = Rive("hex3", swap=True)
    games = [plain, s.copy()]  # no swap variant; Black to move first
    s.play("a1")
    s.play("e3")
    games.append(s.copy())  # Black to move
    s.play("c3")
    games.append(s.copy())  # White to move, but with three stones on the board
    games.append(Rive.from_position("hex3 .../..../..w../..../... w swap"))  # the lone stone is White's
    t = Rive("hex3", swap=True)
    t.play("c3")
    t.play("swap")
    games.append(t)  # Black to move after the swap: no swap back
    for g in games:
        assert_illegal(g, "swap")
    assert Rive.from_position("hex3 .../..../..b../..../... w swap").is_legal("SWAP ")


def test_no_swap_once_the_first_stone_fills_the_board(Rive):
    """On a one-cell board Black's first stone ends the game: over means no legal move, so White
    may not swap (which would hand White the win)."""
    s = Rive([(1, 0)], swap=True)
    s.play("a1")
    assert s.is_over() and s.winner() == BLACK
    assert s.legal_moves() == [] and s.count_moves() == 0 and s.random_move(seed=1) is None
    assert_illegal(s, "swap")
    with pytest.raises(ValueError, match="the game is over"):
        s.play("swap")  # the reason, as in the twin (not "only as White's first move")
    assert s.perft(1) == 1 and s.perft(2) == 1


# ---- the end --------------------------------------------------------------------------------


def test_game_ends_when_the_board_is_full(Rive):
    s = Rive.from_position("hex3 bwb/wbwb/bwbwb/wbwb/bw. w")
    assert not s.is_over() and [str(m) for m in s.legal_moves()] == ["e3"]  # it touches one group
    s.play("e3")
    assert s.is_over() and s.legal_moves() == [] and s.count_moves() == 0
    assert s.position() == "hex3 bwb/wbwb/bwbwb/wbwb/bww b"
    for move in ["e3", "a1", "swap", "xa1", "e3xa1"]:
        assert_illegal(s, move)
    for seed in range(3):
        t = play_random(Rive("hex3"), seed=seed)
        assert t.is_over() and "." not in t.position() and t.legal_moves() == []


def test_more_stones_wins(Rive):
    s = Rive.from_position("hex3 bwb/wbwb/bwbwb/wbwb/bww b")
    assert s.score() == (10, 9) and s.winner() == BLACK
    t = Rive.from_position("5@0 wwbbw b")
    assert t.is_over() and t.score() == (2, 3) and t.winner() == WHITE
    u = Rive.from_position("hex3 bwb/wbwb/bwbwb/wbwb/bw. w")
    assert u.winner() is None and not u.is_over()  # no winner before the end
    for seed in range(3):
        g = play_random(Rive("hex2"), seed=seed)
        black, white = g.score()
        assert black + white == 7 and g.winner() == (BLACK if black > white else WHITE)


# ---- legal move order -----------------------------------------------------------------------


def test_legal_moves_follow_the_documented_order_in_random_games(Rive):
    for board, seed, swap, single in [
        ("hex3", 1, True, False),
        ("hex3", 2, False, True),
        ("hex2", 3, True, True),
        ([(3, 0), (4, 1), (3, 0), (1, 1)], 4, False, False),
    ]:
        s = Rive(board, swap=swap, single_stones=single)
        rng = random.Random(seed)
        while not s.is_over():
            moves = s.legal_moves()
            keys = [move_key(m) for m in moves]
            assert keys == sorted(keys) and len(set(map(str, moves))) == len(moves)
            assert s.count_moves() == len(moves) and list(s.moves()) == moves
            s.play(rng.choice(moves))


def test_moves_is_a_lazy_iterator(Rive):
    s = Rive.from_position(THREE_TRIANGLES)
    it = s.moves()
    assert iter(it) is it
    assert [str(next(it)) for _ in range(3)] == ["a2", "a3", "b3xa1,b1,b2"]
    assert s.count_moves() == len(s.legal_moves()) == 49


# ---- move notation --------------------------------------------------------------------------


def test_moves_have_a_cell_removed_cells_in_board_order_and_notation(Rive):
    s = Rive.from_position(FIGURE_3A)
    plain = s.legal_moves()[8]
    assert (str(plain), plain.cell, plain.removed, plain.is_swap, plain.is_removal) == ("d1", "d1", (), False, False)
    assert repr(plain) == "Move('d1')"
    capture = s.legal_moves()[10]
    assert (str(capture), capture.cell, capture.removed) == ("d2xc1,e3", "d2", ("c1", "e3"))
    assert repr(capture) == "Move('d2xc1,e3')" and hash(capture) == hash("d2xc1,e3")
    assert not capture.is_swap and not capture.is_removal
    t = Rive.from_position("5@0 bwbwb b single capture=a3:2")
    step = t.legal_moves()[1]
    assert (str(step), step.cell, step.removed, step.is_removal, step.is_swap) == ("xa5", None, ("a5",), True, False)
    assert repr(step) == "Move('xa5')"
    u = Rive.from_position("hex3 .../..../..b../..../... w swap")
    swap = u.legal_moves()[-1]
    assert (str(swap), swap.cell, swap.removed, swap.is_swap, swap.is_removal) == ("swap", None, (), True, False)
    assert len({capture, Rive.from_position(FIGURE_3A).legal_moves()[10]}) == 1


def test_moves_compare_equal_to_their_notation_in_any_case_and_order(Rive):
    move = Rive.from_position(FIGURE_3A).legal_moves()[10]
    for text in ["d2xc1,e3", "d2xe3,c1", " D2XE3,C1 ", "d2Xc1,E3\n", "\td2xc1,e3"]:
        assert move == text
    for text in ["d2", "d2xc1", "d2xc1,e3,e2", "d2xc1 ,e3", "d2xc1,c1,e3", "nonsense", "", "xe3"]:
        assert move != text
    assert move != Rive.from_position(FIGURE_3A).legal_moves()[9] and move != 3
    swap = Rive.from_position("hex3 .../..../..b../..../... w swap").legal_moves()[-1]
    assert swap == "SWAP" and swap == " Swap " and swap != "swapx"
    step = Rive.from_position("5@0 bwbwb b single capture=a3:2").legal_moves()[0]
    assert step == "XA1" and step == " xa1 " and step != "a1" and step != "a3xa1"


def test_moves_are_immutable_and_survive_copy_and_pickle(Rive):
    moves = [
        Rive.from_position(FIGURE_3A).legal_moves()[3],
        Rive.from_position("5@0 bwbwb b single capture=a3:2").legal_moves()[0],
        Rive.from_position("hex3 .../..../..b../..../... w swap").legal_moves()[-1],
    ]
    for move in moves:
        with pytest.raises(AttributeError):
            move.cell = "c3"
        with pytest.raises(AttributeError):
            move.removed = ()
        for other in (copy.copy(move), copy.deepcopy(move), pickle.loads(pickle.dumps(move))):
            assert other == move and str(other) == str(move) and hash(other) == hash(move)
    assert [str(m) for m in moves] == ["b1xc1,c2", "xa1", "swap"]


def test_move_notation_round_trips(Rive):
    for board, seed, single in [("hex3", 5, False), ("hex3", 6, True), ("hex335", 7, False)]:
        s = Rive(board, swap=True, single_stones=single)
        rng = random.Random(seed)
        while not s.is_over() and len(s.history) < 40:
            moves = s.legal_moves()
            for m in moves:
                assert s.is_legal(str(m)) and s.is_legal(m) and m == str(m)
            s.play(str(rng.choice(moves)))


def test_play_accepts_a_move_or_its_notation_in_any_case_and_order(Rive):
    s = Rive.from_position(FIGURE_3A)
    s.play(" B1XC1,A2 ")
    assert [str(m) for m in s.history] == ["b1xa2,c1"]
    s.play(s.legal_moves()[0])
    assert s.history[-1] == "e1"
    s.play("C3xC5,b1,A1")
    assert [str(m) for m in s.history] == ["b1xa2,c1", "e1", "c3xa1,b1,c5"]


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
        "c3xb2,",
        "c3x,b2",
        "c3xb2,,d1",
        "c3xxb2",
        "c3xb2x",
        "c3xb2xd1",
        "c3 xb2",
        "c3x b2",
        "c3xb2, d1",
        "c3xb2 d1",
        "c3xb2;d1",
        "c3-b2",
        "c3:b2",
        "pass",
        "é3",
        "c3xé2",
        "c100",
        "c3xb100",
        "c\u00a03",
        "x",
        "xx",
        "x" * 1000,
        "xb2,d1",
        "xb2x",
        "x b2",
        "swapx",
        "swap c3",
        "sw ap",
        "swapc3",
        "c3swap",
        "xswap",
        "c3x" + "b2," * 500 + "d1,",
        # removed cells name a set: one listed twice is not of the documented shape
        "c3xb2,b2",
        "c3xb2,d1,b2",
        "C3XB2,b2",
    ],
)
def test_text_that_is_not_a_move_raises_notation_error(Rive, text):
    s = Rive.from_position(THREE_TRIANGLES)
    assert_not_a_move(s, text)


@pytest.mark.parametrize(
    "text, why",
    [
        ("f1", "off the board"),
        ("a4", "off the board: row a has 3 cells"),
        ("z99", "off the board"),
        ("a1", "occupied"),
        ("c4", "occupied"),
        ("a1xb1,b2", "occupied"),
        ("b3", "a capture without removals"),
        ("c3", "idem, three groups"),
        ("b3xa1,b1", "too few removals"),
        ("b3xa1,b1,b2,b4", "too many removals"),
        ("c3xa1,b1,b2", "too few removals (6 are needed)"),
        ("b3xb2,b4,c4", "survivors split"),
        ("c3xa1,b1,b4,c4,e1,e2", "survivors split"),
        ("b3xa1,b1,b3", "removes the placed stone"),
        ("c3xa1,b1,b4,c3,c5,e1", "removes the placed stone"),
        ("b3xa1,b1,d2", "d2 is not in the new group"),
        ("b3xa1,b1,c3", "an empty cell"),
        ("b3xa1,b1,f9", "a cell off the board"),
        ("a2xa1", "removals on a plain placement"),
        ("d4xc5", "removals on a plain placement"),
        ("xb2", "no capture under way"),
        ("swap", "no swap in this game"),
    ],
)
def test_well_formed_but_illegal_moves_raise_illegal_move_error(Rive, text, why):
    s = Rive.from_position(THREE_TRIANGLES)
    assert_illegal(s, text)


def test_cells_the_min_max_rule_forbids_raise_illegal_move_error(Rive):
    for position, cells in [
        (FIGURE_1, ["a2", "b1", "d2"]),
        (FIGURE_2, ["a1", "b3", "b4"]),
        (FIGURE_3A, ["a3", "b3", "d3", "d4", "c3xb4,c4,c5"]),
    ]:
        s = Rive.from_position(position)
        before = snapshot(s)
        for cell in cells:
            assert_illegal(s, cell)
            assert snapshot(s) == before


# ---- the single-stone form ------------------------------------------------------------------


def single_stone_game(Rive, position):
    """The single-stone form of a position written without the word ``single``."""
    return Rive.from_position(position + " single")


def test_single_stone_captures_are_a_placement_then_removals(Rive):
    s = single_stone_game(Rive, LINE)
    assert s.single_stones and [str(m) for m in s.legal_moves()] == ["a3"]  # no removal sets
    s.play("a3")
    assert s.position() == "5@0 bwbwb b single capture=a3:2" and s.to_move == BLACK
    # a2 and a4 would cut a1 or a5 off; a3 is the placed stone
    assert [str(m) for m in s.legal_moves()] == ["xa1", "xa5"]
    s.play("xa5")
    assert s.position() == "5@0 bwbw. b single capture=a3:1"
    assert [str(m) for m in s.legal_moves()] == ["xa1", "xa4"]
    s.play("xa1")
    assert s.position() == "5@0 .wbw. b single" and s.to_move == BLACK  # Black places again
    assert [str(m) for m in s.legal_moves()] == ["a1", "a5"]
    assert [str(m) for m in s.history] == ["a3", "xa5", "xa1"]
    for _ in range(3):
        s.undo()
    assert s.position() == LINE + " single"


def test_the_single_stone_form_reaches_exactly_the_survivor_sets_of_the_compound_form(Rive):
    cases = [
        (THREE_TRIANGLES, "c3"),
        (THREE_TRIANGLES, "b3"),
        (FIGURE_3A, "b1"),
        (FIGURE_3A, "d2"),
        (FIGURE_3D, "d2"),
        (LINE, "a3"),
    ]
    for seed in range(2):
        s = Rive("hex3")
        rng = random.Random(40 + seed)
        while not s.is_over():
            moves = s.legal_moves()
            cases += [(s.position(), cell) for cell in {m.cell for m in moves if m.removed}]
            s.play(rng.choice(moves))
    for position, cell in cases:
        compound = Rive.from_position(position)
        expected = set()
        for move in compound.legal_moves():
            if move.cell == cell:
                compound.play(move)
                expected.add(compound.position() + " single")
                compound.undo()
        single = single_stone_game(Rive, position)
        single.play(cell)
        remaining = int(single.position().split(":")[-1])
        assert remaining == len(next(m for m in compound.legal_moves() if m.cell == cell).removed)
        assert finish_single_stone_capture(single) == expected


def test_single_stone_errors_leave_the_state_unchanged(Rive):
    s = single_stone_game(Rive, THREE_TRIANGLES)
    for bad in ["c3xa1,b1,b2,b4,c4,c5", "b3xa1,b1,b2", "xa1", "swap"]:  # no compound capture, no capture under way
        assert_illegal(s, bad)
    s.play("c3")
    assert s.position() == "hex3 w../bw.b/..wwb/.w../bb. w single capture=c3:6" and not s.is_over()
    # c3 is the placed stone; b2, c4 and d2 would cut their triangle off; c1 is empty; f1 is off the
    # board; placements wait until the capture is done
    assert [str(m) for m in s.legal_moves()] == ["xa1", "xb1", "xb4", "xc5", "xe1", "xe2"]
    for bad in ["xc3", "xb2", "xc4", "xd2", "xc1", "xf1", "a2", "d1", "c2xb1", "swap"]:
        assert_illegal(s, bad)


# ---- undo, copies, history ------------------------------------------------------------------


# ---- position notation ----------------------------------------------------------------------


def test_position_notation_of_the_documented_example(Rive):
    s = Rive.from_position(DOC_EXAMPLE)
    assert s.position() == DOC_EXAMPLE
    assert (s.board_name, s.to_move, s.score(), s.history) == ("hex3", BLACK, (1, 1), [])
    assert stones(s.position()) == {"a1": "b", "e3": "w"}
    assert (s.swap, s.single_stones) == (False, False)


def test_position_fields_for_swap_capture_and_custom_boards(Rive):
    for text in [
        "hex3 .../..../..b../..../... w swap",
        "hex3 .../..../..b../..../... w single",
        "hex3 .../..../..b../..../... w swap single",
        "5@0 bwbwb b single capture=a3:2",
        "5@0 bwbwb b swap single capture=a3:2",
        "5@0 bwbwb b single capture=a3:4",
        "3@0,2@1 b.w/.. b",
        "hex4 " + "/".join("." * n for n, _ in HEX4) + " w",
    ]:
        s = Rive.from_position(text)
        assert s.position() == text
        assert (s.swap, s.single_stones) == (" swap" in text, " single" in text)
    assert Rive("hex3", swap=True, single_stones=True).position() == EMPTY_HEX3 + " swap single"
    assert Rive("hex3", single_stones=True).position() == EMPTY_HEX3 + " single"
    # a layout written as rows that equals a named one is read, and written back by its name
    assert Rive.from_position("3@2,4@1,5@0,4@1,3@2 .../..../...../..../... b").position() == EMPTY_HEX3


@pytest.mark.parametrize(
    "text",
    [
        "",
        "hex3",
        "hex3 .../..../...../..../...",
        "hex3 .../..../...../..../... x",
        "hex3 .../..../...../..../... B",
        "Hex3 .../..../...../..../... b",
        "HEX3 .../..../...../..../... b",
        "hex3 .../..../...../..../... bw",
        "hex8 .../..../...../..../... b",
        "hex1 . b",
        "hex03 .../..../...../..../... b",
        "hex .../... b",
        "hex3 .../..../...../.... b",
        "hex3 .../..../...../..../.../... b",
        "hex3 .../..../...../..../.../ b",
        "hex3 ..../..../...../..../... b",
        "hex3 ../..../...../..../... b",
        "hex3 x../..../...../..../... b",
        "hex3 B../..../...../..../... b",
        "hex3 1../..../...../..../... b",
        "hex3 .../..../...../..../... b swap swap",
        "hex3  .../..../...../..../... b",
        "hex3 .../..../...../..../...  b",
        "hex3\t.../..../...../..../...\tb",
        "hex3 .../..../...../..../... b w",
        "hex3 .../..../...../..../... b SWAP",
        "hex3 .../..../...../..../... b 1",
        "hex3 .../..../..b../..../... w capture=c3:0",
        "5@0 bwbwb b single capture=a3:02",
        "5@0 bwbwb b capture=a3",
        "5@0 bwbwb b single capture=a3:",
        "5@0 bwbwb b capture=:2",
        "5@0 bwbwb b capture a3:2",
        "5@0 bwbwb b capture=A3:2",
        "5@0 bwbwb b single capture=a3:2 swap",
        "5@0 bwbwb b single capture=a3:2 capture=a3:2",
        "5@0 bwbwb b single capture=a3:5",
        "5@0 bwbwb b single capture=a3:6",
        "5@0 bwbwb b capture=a3:2",
        "5@0 bwbwb b swap capture=a3:2",
        "5@0 bwbwb b single swap",
        "5@0 bwbwb b single single",
        "5@0 bwbwb b SINGLE",
        "5@0 bwbwb b singles",
        "5@0 bwbwb b capture=a3:2 single",
        "5@0 bwbwb b  single",
        "5@0 bwbwb b single capture=a3:2 single",
        "5@0 bwbwb b capture=a2:2",
        "5@0 bw.wb b single capture=a3:2",
        "5@0 bwbwb b capture=a6:2",
        "5@0 bwbwb b capture=b1:2",
        "5@0 bwbwb b single capture=a3:-1",
        "4@0 .... b",
        "2@0,2@1 ../.. b",
        "5@0,0@1 ...../ b",
        "5@00 ..... b",
        "05@0 ..... b",
        "5@-1 ..... b",
        "5@0, ..... b",
        "5@0;3@1 ...../... b",
        "5 ..... b",
        "5@0@1 ..... b",
        "129@0 " + "." * 129 + " b",
        "hex3 é../..../...../..../... b",
        "hex3 .../..../...../..../... é",
        "é",
    ],
)
def test_malformed_positions_raise_notation_error(Rive, text):
    with pytest.raises(NotationError):
        Rive.from_position(text)


@pytest.mark.parametrize("value", [None, 3, b"hex3 .../..../...../..../... b"])
def test_from_position_refuses_anything_but_a_string(Rive, value):
    with pytest.raises(TypeError):
        Rive.from_position(value)


def test_any_arrangement_of_stones_is_accepted(Rive):
    for text in ["hex3 bbb/bbbb/bbbbb/bbbb/bb. w", "hex3 www/wwww/wwwww/wwww/www b", "5@0 b.b.b w"]:
        assert Rive.from_position(text).position() == text


def test_text_board(Rive):
    s = Rive.from_position(DOC_EXAMPLE)
    assert str(s) == "  b . .\n . . . .\n. . . . .\n . . . .\n  . . w\nBlack (b) to move"
    t = Rive.from_position("3@0,2@1 b.w/.b b")
    assert str(t) == "b . w\n . b\nBlack (b) to move"


# ---- records --------------------------------------------------------------------------------

# What every game's records share (bad records, a bad move's number, a position's record,
# transpositions) is tested as one table in test_record_rules.py.


def test_record_of_a_plain_game(Rive):
    s = Rive("hex3")
    s.play("c3")
    s.play("e3")
    assert s.record() == '[Game "rive"]\n[Board "hex3"]\n[Result "*"]\n\nc3 e3\n'
    assert record_tags(Rive().record()) == ['[Game "rive"]', '[Board "hex335"]', '[Result "*"]']
    assert record_tags(Rive([(3, 0), (2, 1)]).record())[1] == '[Board "3@0,2@1"]'


def test_record_tags_for_swap_single_stones_and_positions(Rive):
    s = Rive("hex3", swap=True, single_stones=True)
    s.play("c3")
    s.play("swap")
    assert s.record() == (
        '[Game "rive"]\n[Board "hex3"]\n[Swap "yes"]\n[SingleStones "yes"]\n[Result "*"]\n\nc3 swap\n'
    )
    assert record_tags(Rive("hex3", single_stones=True).record())[2] == '[SingleStones "yes"]'
    # a game set up from a position: the position carries the swap and single-stone fields
    t = Rive.from_position(FIGURE_3A)
    t.play("b1xa2,c1")
    assert t.record() == f'[Game "rive"]\n[Board "hex3"]\n[Position "{FIGURE_3A}"]\n[Result "*"]\n\nb1xa2,c1\n'
    u = single_stone_game(Rive, LINE)
    u.play("a3")
    assert record_tags(u.record()) == ['[Game "rive"]', '[Board "5@0"]', f'[Position "{LINE} single"]', '[Result "*"]']
    assert Rive.from_record(u.record()).position() == "5@0 bwbwb b single capture=a3:2"


def test_record_result_tag(Rive):
    assert '[Result "1-0"]' in record_tags(Rive.from_position("hex3 bwb/wbwb/bwbwb/wbwb/bww b").record())
    assert '[Result "0-1"]' in record_tags(Rive.from_position("5@0 wwbbw b").record())
    s = play_random(Rive("hex3"), seed=3)
    assert f'[Result "{"1-0" if s.winner() == BLACK else "0-1"}"]' in record_tags(s.record())


def test_record_accepts_moves_in_any_case_and_removal_order(Rive):
    text = f'[Game "rive"]\n[Board "hex3"]\n[Position "{FIGURE_3A}"]\n\nB1XC1,A2 E1\n'
    assert [str(m) for m in Rive.from_record(text).history] == ["b1xa2,c1", "e1"]


# ---- hashing and equality -------------------------------------------------------------------


def test_zobrist_uses_the_documented_keys(Rive):
    games = [
        Rive(),
        Rive("hex3"),
        Rive.from_position(DOC_EXAMPLE),
        Rive.from_position(FIGURE_3D),
        Rive.from_position("5@0 bwbwb b single capture=a3:2"),
        Rive.from_position("5@0 bwbw. b single capture=a3:1"),
        Rive.from_position("hex7 " + "/".join("w" * n for n, _ in Rive("hex7").rows) + " w"),
        play_random(Rive("hex3", single_stones=True), seed=8, max_moves=14),
        play_random(Rive("hex335", swap=True), seed=9, max_moves=12),
    ]
    for s in games:
        assert s.zobrist() == documented_zobrist(s)
    assert Rive().zobrist() == Rive("hex3").zobrist() == 0


def test_equality_compares_positions_only(Rive):
    assert Rive() == Rive("hex335") and Rive("hex3") != Rive("hex335")
    assert Rive("hex3") != Rive("hex3", swap=True)  # the swap field is part of the position
    assert Rive("hex3") != Rive("hex3", single_stones=True)  # so is the single-stone field
    assert Rive.from_position(DOC_EXAMPLE) != Rive.from_position(DOC_EXAMPLE.replace(" b", " w"))
    assert Rive.from_position("5@0 bwbwb b single capture=a3:2") != Rive.from_position("5@0 bwbwb b single")
    assert Rive.from_position("5@0 bwbwb b single capture=a3:2") != Rive.from_position(
        "5@0 bwbwb b single capture=a3:1"
    )
    assert (
        Rive.from_position("5@0 bwbwb b single capture=a3:2").zobrist()
        != Rive.from_position("5@0 bwbwb b single").zobrist()
    )
    # the hash covers stones, side and capture under way only: the variant fields do not change it
    assert Rive("hex3", swap=True, single_stones=True).zobrist() == Rive("hex3").zobrist() == 0
    assert Rive("hex3") != EMPTY_HEX3 and Rive() != 3


# ---- perft ----------------------------------------------------------------------------------


# Perft counts from the start are in tests/data/perft (test_perft_data.py).


def test_perft_counts_plies_of_every_kind(Rive):
    # compound: the three removal sets of a3; then Black places again: after a3xa1,a2 only a1 is
    # isolated, after a3xa4,a5 only a5; after a3xa1,a5 both a1 and a5 touch the group of 3
    s = Rive.from_position(LINE)
    assert [s.perft(d) for d in range(3)] == [1, 3, 1 + 2 + 1]
    # single-stone: the placement, then one removal at a time (xa1 or xa5, then two choices again)
    t = single_stone_game(Rive, LINE)
    assert [t.perft(d) for d in range(4)] == [1, 1, 2, 4]
    # swap: one more reply to Black's first stone
    assert Rive("hex3", swap=True).perft(2) == 258 + 19
    assert Rive("hex3", swap=True).divide(2)["c3"] == 13


def test_perft_counts_a_finished_game_as_one_leaf(Rive):
    s = Rive.from_position("hex3 bwb/wbwb/bwbwb/wbwb/bww b")
    assert [s.perft(d) for d in range(4)] == [1, 1, 1, 1] and s.divide(3) == {}
    t = Rive.from_position("5@0 wwbb. b")
    assert [t.perft(d) for d in range(4)] == [1, 1, 1, 1] and t.divide(2) == {"a5": 1}
