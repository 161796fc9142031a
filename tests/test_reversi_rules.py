"""The rules of Reversi with blocked squares (the rule text of that name, in docs/reversi.md), one test per clause.

Every test runs against each implementation given by the ``Reversi`` fixture (conftest.py): the
pure-Python reference and, once built, the Rust engine. Colours are written 0 (Black) and 1 (White).
"""

import random

import pytest
from boardcore.reference.reversi import IllegalMoveError, NotationError
from harness import SplitMix64, assert_illegal, assert_refused, play_random, record_tags, snapshot

BLACK, WHITE = 0, 1

START_8 = "8 ......../......../......../...wb.../...bw.../......../......../........ b"
OCTAGON_ROWS = [
    "--......--",
    "-........-",
    "..........",
    "..........",
    "....wb....",
    "....bw....",
    "..........",
    "..........",
    "-........-",
    "--......--",
]
OCTAGON_CUTS = {"a1", "b1", "a2", "i1", "j1", "j2", "a9", "a10", "b10", "j9", "i10", "j10"}
# White must pass; Black then has c1 and c3, and White passes again after either.
PASS_POSITION = "4 bw../..../bw../.... w"
FULL_4X4_BLACK_WINS = "4 bbbb/bbbb/bbbb/wwww b"
# Black d1 brackets d2 downwards; leftwards the run c1 ends at the hole b1.
HOLE_IN_A_LINE = "8 b#w...../...w..../...b..../...wb.../...bw.../......../......../........ b"


# ---- helpers --------------------------------------------------------------------------------


def cell(game, name):
    """The notation character of one square, read from the position string."""
    rows = game.position().split()[1].split("/")
    return rows[int(name[1:]) - 1][ord(name[0]) - ord("a")]


def cells_of(game, char):
    """The names of the squares holding ``char``, in board order."""
    rows = game.position().split()[1].split("/")
    return [f"{chr(ord('a') + c)}{r + 1}" for r, row in enumerate(rows) for c, x in enumerate(row) if x == char]


def documented_holes(seed, allowed):
    """docs/reversi.md, holes step 3-5: k = 1 + below(4), then a partial Fisher-Yates."""
    rng = SplitMix64(seed)
    allowed = list(allowed)
    k = 1 + rng.below(4)
    for i in range(k):
        j = i + rng.below(len(allowed) - i)
        allowed[i], allowed[j] = allowed[j], allowed[i]
    return allowed[:k]


def allowed_hole_squares(size, corners=(), octagon=False):
    """Board-order names of the squares a hole may occupy."""
    low = size // 2 - 2
    names = []
    for r in range(size):
        for c in range(size):
            name = f"{chr(ord('a') + c)}{r + 1}"
            central = low <= r <= low + 3 and low <= c <= low + 3
            if not central and name not in corners and not (octagon and name in OCTAGON_CUTS):
                names.append(name)
    return names


def board_order(names):
    return sorted(names, key=lambda n: (int(n[1:]), n[0]))


def count_complete_games(game):
    """Walks the whole game tree with the public API and counts the finished games."""
    moves = game.legal_moves()
    if not moves:
        return 1
    total = 0
    for move in moves:
        game.play(move)
        total += count_complete_games(game)
        game.undo()
    return total


# ---- boards and the start -------------------------------------------------------------------


def test_start_position_has_white_on_top_left_and_bottom_right(Reversi):
    s = Reversi()
    assert (cell(s, "d4"), cell(s, "e4"), cell(s, "d5"), cell(s, "e5")) == ("w", "b", "b", "w")
    assert s.position() == START_8
    assert s.score() == (2, 2)


@pytest.mark.parametrize(
    "size, white, black",
    [
        (4, ["b2", "c3"], ["c2", "b3"]),
        (6, ["c3", "d4"], ["d3", "c4"]),
        (10, ["e5", "f6"], ["f5", "e6"]),
        ("octagon", ["e5", "f6"], ["f5", "e6"]),
    ],
)
def test_start_position_on_every_board(Reversi, size, white, black):
    s = Reversi(size)
    assert cells_of(s, "w") == white
    assert cells_of(s, "b") == black
    assert s.to_move == BLACK


def test_black_moves_first(Reversi):
    s = Reversi()
    assert s.to_move == BLACK
    assert [str(m) for m in s.legal_moves()] == ["d3", "c4", "f5", "e6"]
    s.play("d3")
    assert s.to_move == WHITE


def test_board_properties(Reversi):
    s = Reversi()
    assert (s.size, s.board_name, s.blocked) == (8, "8", ())
    assert (s.seed, s.handicap, s.handicap_color) == (None, 0, BLACK)
    o = Reversi("octagon")
    assert (o.size, o.board_name) == (10, "octagon")
    assert [Reversi(n).size for n in (4, 6, 8, 10)] == [4, 6, 8, 10]


def test_octagon_has_88_playable_squares_and_twelve_cut(Reversi):
    s = Reversi("octagon")
    assert s.position() == "octagon " + "/".join(OCTAGON_ROWS) + " b"
    assert set(cells_of(s, "-")) == OCTAGON_CUTS
    assert 100 - len(cells_of(s, "-")) == 88


def test_octagon_cut_squares_are_never_played(Reversi):
    s = play_random(Reversi("octagon"), seed=3)
    for name in OCTAGON_CUTS:
        assert cell(s, name) == "-"
    s = Reversi("octagon")
    for name in OCTAGON_CUTS:
        assert_illegal(s, name)


def test_octagon_cut_squares_end_lines(Reversi):
    # White b2 lies between c3 and the cut a1: nothing beyond the cut can bracket it.
    rows = list(OCTAGON_ROWS)
    rows[1] = "-w.......-"
    s = Reversi.from_position("octagon " + "/".join(rows) + " b")
    assert_illegal(s, "c3")
    assert "c3" not in [str(m) for m in s.legal_moves()]


# ---- placing and flipping ---------------------------------------------------------------------


def test_placement_must_bracket_at_least_one_run(Reversi):
    s = Reversi()
    for name in ["a1", "d6", "c3", "f6", "e3"]:  # empty squares next to nothing, or to own discs only
        assert_illegal(s, name)
    assert s.is_legal("d3")


def test_every_bracketed_run_is_flipped(Reversi):
    before = "8 ......../......../....b.../....wb../.bww.w../...ww.../..b.w.../....w... b"
    after = "8 ......../......../....b.../....bb../.bbbbw../...bw.../..b.w.../....w... w"
    s = Reversi.from_position(before)
    s.play("e5")  # flips c5 d5 (a run of two), e4, d6; not f5 (open end) nor e6-e8 (edge)
    assert s.position() == after
    assert s.score() == (9, 4)


def test_a_placement_flips_only_bracketed_runs(Reversi):
    s = Reversi()
    s.play("d3")
    assert cells_of(s, "b") == ["d3", "d4", "e4", "d5"]
    assert cells_of(s, "w") == ["e5"]


def test_nothing_is_flipped_across_a_hole(Reversi):
    s = Reversi.from_position("8 b#w...../......../......../...wb.../...bw.../......../......../........ b")
    assert_illegal(s, "d1")  # a1 would bracket c1 but for the hole on b1
    t = Reversi.from_position("8 bww...../......../......../...wb.../...bw.../......../......../........ b")
    t.play("d1")
    assert cell(t, "b1") == cell(t, "c1") == "b"


def test_a_line_stops_at_a_hole_while_other_lines_still_flip(Reversi):
    s = Reversi.from_position(HOLE_IN_A_LINE)
    s.play("d1")
    assert cell(s, "d2") == "b"  # bracketed downwards by d3
    assert cell(s, "c1") == "w"  # the run leftwards ends at the hole
    assert cell(s, "b1") == "#"


def test_holes_are_never_played_and_never_discs(Reversi):
    s = play_random(Reversi(blocked=["b2", "g7", "a5", "h1"]), seed=5)
    assert cells_of(s, "#") == ["h1", "b2", "a5", "g7"]
    s = Reversi(blocked=["b2"])
    assert_illegal(s, "b2")


# ---- passing and the end ----------------------------------------------------------------------


def test_pass_is_the_only_move_when_no_placement(Reversi):
    s = Reversi.from_position(PASS_POSITION)
    assert [str(m) for m in s.legal_moves()] == ["pass"]
    assert s.legal_moves()[0].is_pass
    assert s.legal_moves()[0].square is None
    assert not s.is_over()
    s.play("pass")
    assert s.to_move == BLACK
    assert s.position() == "4 bw../..../bw../.... b"
    assert [str(m) for m in s.legal_moves()] == ["c1", "c3"]


def test_player_with_a_placement_may_not_pass(Reversi):
    s = Reversi()
    assert_illegal(s, "pass")


def test_game_ends_when_neither_can_place(Reversi):
    s = Reversi.from_position(PASS_POSITION)
    s.play("pass")
    s.play("c1")
    s.play("pass")
    s.play("c3")
    assert s.is_over()
    assert s.legal_moves() == []
    for move in ["pass", "d4", "a2"]:
        with pytest.raises(IllegalMoveError):
            s.play(move)


def test_a_full_board_is_over(Reversi):
    s = Reversi.from_position(FULL_4X4_BLACK_WINS)
    assert s.is_over() and s.legal_moves() == []


def test_holes_may_leave_unreachable_empty_squares(Reversi):
    # a1 is walled in by holes on b1, a2 and b2: no line from it reaches a disc.
    s = Reversi(blocked=["b1", "a2", "b2"])
    play_random(s, seed=11)
    assert s.is_over()
    assert cell(s, "a1") == "."
    assert sum(s.score()) == 64 - 4


def test_a_game_may_end_before_the_board_is_full(Reversi):
    s = Reversi.from_position("8 bbb...../......../......../......../......../......../......../........ w")
    assert s.is_over()
    assert s.winner() == BLACK


def test_more_discs_wins(Reversi):
    s = Reversi.from_position(FULL_4X4_BLACK_WINS)
    assert s.score() == (12, 4)
    assert s.winner() == BLACK
    s = Reversi.from_position("4 wwww/wwww/wwww/bbbb b")
    assert s.winner() == WHITE


def test_equal_counts_are_a_draw(Reversi):
    s = Reversi.from_position("4 bbbb/bbbb/wwww/wwww w")
    assert s.is_over()
    assert s.score() == (8, 8)
    assert s.winner() is None


def test_no_winner_before_the_end(Reversi):
    s = Reversi.from_position("4 .bbb/bbbb/bbbb/bbbw b")  # Black leads 14-1, but White can still play a1
    assert not s.is_over()
    assert s.winner() is None


def test_complete_random_games_follow_the_rules(Reversi):
    for size, seed in [(4, 1), (6, 2), (8, 3), (10, 4), ("octagon", 5)]:
        s = play_random(Reversi(size), seed=seed)
        black, white = s.score()
        assert s.is_over() and s.legal_moves() == []
        assert s.winner() == (BLACK if black > white else WHITE if white > black else None)


# ---- handicap -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "size, corners",
    [
        (4, ["a1", "d4", "d1", "a4"]),
        (6, ["a1", "f6", "f1", "a6"]),
        (8, ["a1", "h8", "h1", "a8"]),
        (10, ["a1", "j10", "j1", "a10"]),
        ("octagon", ["b2", "i9", "i2", "b9"]),
    ],
)
def test_handicap_corners_in_order_top_left_bottom_right_top_right_bottom_left(Reversi, size, corners):
    for k in range(5):
        s = Reversi(size, handicap=k)
        assert [cell(s, name) for name in corners] == ["b"] * k + ["."] * (4 - k)
        assert s.handicap == k
        assert s.score() == (2 + k, 2)


@pytest.mark.parametrize("color", [WHITE, "white"])
def test_handicap_discs_take_the_handicap_colour(Reversi, color):
    s = Reversi(handicap=3, handicap_color=color)
    assert [cell(s, n) for n in ["a1", "h8", "h1", "a8"]] == ["w", "w", "w", "."]
    assert s.handicap_color == WHITE
    assert Reversi(handicap=1, handicap_color="black").handicap_color == BLACK


def test_black_moves_first_even_with_a_handicap(Reversi):
    for color in (BLACK, WHITE):
        assert Reversi(handicap=4, handicap_color=color).to_move == BLACK
        assert Reversi("octagon", handicap=2, handicap_color=color).to_move == BLACK


def test_handicap_discs_can_be_flipped(Reversi):
    # On the Octagon the handicap square b2 lies on the line a3-b2-c1, so it can be bracketed.
    for seed in range(50):
        s = Reversi("octagon", handicap=1, handicap_color=WHITE)
        rng = random.Random(seed)
        while s.legal_moves() and cell(s, "b2") == "w":
            s.play(rng.choice(s.legal_moves()))
        if cell(s, "b2") == "b":
            assert str(s.history[-1]) in ("a3", "c1")
            return
    pytest.fail("no random game flipped the handicap disc on b2")


def test_handicap_discs_are_ordinary_discs_in_the_position(Reversi):
    s = Reversi(handicap=2)
    t = Reversi.from_position(s.position())
    assert t == s
    assert t.handicap == 0


# ---- holes --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "size, square",
    [(8, "c3"), (8, "f6"), (8, "d4"), (6, "b2"), (6, "e5"), (10, "d4"), (10, "g7"), ("octagon", "g7")],
)
def test_holes_are_never_in_the_central_4x4(Reversi, size, square):
    with pytest.raises(ValueError, match=square):
        Reversi(size, blocked=[square])


def test_holes_just_outside_the_centre_are_allowed(Reversi):
    assert Reversi(8, blocked=["b2", "g7", "c2", "f7"]).blocked == ("b2", "c2", "f7", "g7")
    assert Reversi(6, blocked=["a1", "f6"]).blocked == ("a1", "f6")
    assert Reversi(10, blocked=["c3", "h8"]).blocked == ("c3", "h8")


def test_holes_are_never_on_a_handicap_corner(Reversi):
    with pytest.raises(ValueError, match="a1"):
        Reversi(blocked=["a1"], handicap=1)
    with pytest.raises(ValueError, match="h1"):
        Reversi(blocked=["h1"], handicap=3, handicap_color=WHITE)
    with pytest.raises(ValueError, match="b2"):
        Reversi("octagon", blocked=["b2"], handicap=1)
    assert Reversi(blocked=["h1"], handicap=2).blocked == ("h1",)  # a corner without a handicap disc


def test_holes_are_never_on_a_cut_square(Reversi):
    for name in OCTAGON_CUTS:
        with pytest.raises(ValueError, match=name):
            Reversi("octagon", blocked=[name])
    assert Reversi("octagon", blocked=["b2", "c1"]).blocked == ("c1", "b2")


def test_a_4x4_board_has_no_holes(Reversi):
    for name in ["a1", "d4", "b2"]:
        with pytest.raises(ValueError):
            Reversi(4, blocked=[name])
    with pytest.raises(ValueError):
        Reversi.random(seed=1, size=4)
    assert Reversi(4, blocked=[]).blocked == ()


def test_at_most_four_holes(Reversi):
    with pytest.raises(ValueError, match="blocked"):
        Reversi(blocked=["a1", "b1", "g1", "h1", "a8"])
    assert len(Reversi(blocked=["a1", "b1", "g1", "h1"]).blocked) == 4


def test_holes_may_not_repeat(Reversi):
    with pytest.raises(ValueError, match="b2"):
        Reversi(blocked=["b2", "b2"])
    with pytest.raises(ValueError, match="b2"):
        Reversi(blocked=["b2", "B2"])


def test_holes_must_be_on_the_board(Reversi):
    with pytest.raises(ValueError, match="i1"):
        Reversi(blocked=["i1"])
    with pytest.raises(ValueError):
        Reversi(blocked=["not a square"])


def test_holes_are_reported_in_board_order(Reversi):
    s = Reversi(blocked=["g7", "b2", "h1"])
    assert s.blocked == ("h1", "b2", "g7")
    assert cells_of(s, "#") == ["h1", "b2", "g7"]


def test_random_holes_are_deterministic(Reversi):
    for seed in [0, 1, 42, 2**64 - 1]:
        a = Reversi.random(seed=seed)
        b = Reversi(blocked="random", seed=seed)
        assert a.blocked == b.blocked == Reversi.random(seed).blocked
        assert a == b
        assert a.seed == seed


@pytest.mark.parametrize(
    "size, handicap, octagon",
    [(8, 0, False), (8, 4, False), (6, 1, False), (10, 2, False), (10, 0, True), (10, 3, True)],
)
def test_random_holes_follow_the_documented_splitmix_draw(Reversi, size, handicap, octagon):
    board = "octagon" if octagon else size
    corners = (
        ["b2", "i9", "i2", "b9"] if octagon else ["a1", f"{chr(96 + size)}{size}", f"{chr(96 + size)}1", f"a{size}"]
    )[:handicap]
    allowed = allowed_hole_squares(size, corners, octagon)
    for seed in range(40):
        s = Reversi.random(seed=seed, size=board, handicap=handicap)
        assert list(s.blocked) == board_order(documented_holes(seed, allowed))


def test_random_holes_count_one_to_four_and_obey_the_hole_rules(Reversi):
    counts = set()
    allowed = set(allowed_hole_squares(8, ["a1", "h8"]))
    for seed in range(100):
        s = Reversi.random(seed=seed, handicap=2)
        counts.add(len(s.blocked))
        assert 1 <= len(s.blocked) <= 4
        assert set(s.blocked) <= allowed
        assert len(set(s.blocked)) == len(s.blocked)
    assert counts == {1, 2, 3, 4}


def test_seed_needs_random_holes_and_random_holes_need_a_seed(Reversi):
    with pytest.raises(ValueError, match="seed"):
        Reversi(seed=3)
    with pytest.raises(ValueError, match="seed"):
        Reversi(blocked="random")
    for bad in [-1, 2**64]:
        with pytest.raises(ValueError, match="seed"):
            Reversi(blocked="random", seed=bad)


# ---- constructor arguments ------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"size": 7}, "size"),
        ({"size": 12}, "size"),
        ({"size": 0}, "size"),
        ({"size": "hex"}, "size"),
        ({"handicap": 5}, "handicap"),
        ({"handicap": -1}, "handicap"),
        ({"handicap_color": 2}, "handicap_color"),
        ({"handicap_color": "red"}, "handicap_color"),
        ({"blocked": "b2"}, "blocked"),
    ],
)
def test_bad_arguments_raise_value_error_naming_the_argument(Reversi, kwargs, name):
    with pytest.raises(ValueError, match=name):
        Reversi(**kwargs)


# ---- move notation ----------------------------------------------------------------------------


def test_moves_are_square_names_or_pass(Reversi):
    s = Reversi()
    move = s.legal_moves()[0]
    assert str(move) == "d3" and move.square == "d3" and not move.is_pass
    assert repr(move) == "Move('d3')"
    assert move == "d3" and move == " D3 " and move != "c4"
    assert move == Reversi().legal_moves()[0]
    assert hash(move) == hash("d3")
    assert len({move, Reversi().legal_moves()[0]}) == 1
    p = Reversi.from_position(PASS_POSITION).legal_moves()[0]
    assert (str(p), p.square, p.is_pass, repr(p)) == ("pass", None, True, "Move('pass')")


def test_moves_are_immutable(Reversi):
    move = Reversi().legal_moves()[0]
    with pytest.raises(AttributeError):
        move.square = "c4"
    assert move == "d3"


def test_play_accepts_a_move_or_its_notation_in_any_case(Reversi):
    s = Reversi()
    s.play(" D3 ")
    s.play(s.legal_moves()[0])
    assert [str(m) for m in s.history] == ["d3", "c3"]
    s.play("C4")
    assert s.history[-1] == "c4"


@pytest.mark.parametrize(
    "text", ["", " ", "d", "3d", "d0", "d03", "dd3", "d3x", "d-1", "passs", "é3", "d 3", "x" * 1000]
)
def test_text_that_is_not_a_move_raises_notation_error(Reversi, text):
    s = Reversi()
    with pytest.raises(NotationError):
        s.play(text)
    with pytest.raises(ValueError):
        s.play(text)
    assert not s.is_legal(text)


@pytest.mark.parametrize(
    "size, text, why",
    [
        (8, "i1", "off the board"),
        (8, "a9", "off the board"),
        (8, "z26", "off the board"),
        (8, "d4", "occupied"),
        (8, "a1", "brackets nothing"),
        (8, "pass", "a placement exists"),
        ("octagon", "a1", "cut"),
        ("octagon", "j10", "cut"),
        (10, "k1", "off the board"),
    ],
)
def test_well_formed_but_illegal_moves_raise_illegal_move_error(Reversi, size, text, why):
    s = Reversi(size)
    assert_illegal(s, text)


def test_legal_moves_are_in_board_order(Reversi):
    for seed in range(5):
        s = play_random(Reversi(10), seed=seed, max_moves=20)
        names = [str(m) for m in s.legal_moves()]
        assert names == board_order(names)
        assert all(s.is_legal(n) for n in names)


# ---- errors leave the state unchanged ---------------------------------------------------------


def test_errors_leave_state_unchanged(Reversi):
    s = play_random(Reversi(blocked=["b2", "g7"]), seed=9, max_moves=12)
    before = snapshot(s)
    occupied = cells_of(s, "b")[0]
    assert_refused(s, ValueError, s.play, ["", "zz", "d0", "i1", "b2", occupied, "a8", "pass", "é3"])
    with pytest.raises(ValueError):
        s.perft(-1)
    with pytest.raises(ValueError):
        s.perft(1, threads=0)
    assert snapshot(s) == before


def test_errors_after_the_end_leave_state_unchanged(Reversi):
    s = play_random(Reversi(6), seed=4)
    assert_refused(s, IllegalMoveError, s.play, ["pass", "a1", "f6"])


# ---- undo, copies, history ----------------------------------------------------------------


# ---- position notation ----------------------------------------------------------------------


def test_position_carries_holes_and_side_to_move(Reversi):
    s = Reversi(blocked=["b2", "g7"])
    s.play("d3")
    assert s.position() == "8 ......../.#....../...b..../...bb.../...bw.../......../......#./........ w"
    assert Reversi.from_position(s.position()).blocked == ("b2", "g7")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "8",
        "8 b",
        START_8.replace(" b", " x"),
        START_8.replace("8 ", "12 "),
        START_8.replace("8 ", "9 "),
        START_8.replace(" b", "  b"),
        START_8.replace("/........ b", " b"),  # 7 rows
        START_8.replace("...wb...", "...wb.."),
        START_8.replace("...wb...", "...wB..."),
        START_8.replace("...wb...", "...wb..x"),
        START_8.replace("...wb...", "-..wb..."),
        START_8.replace("8 ......../", "8 #######./"),  # five holes
        START_8.replace("...wb...", "..#wb..."),  # a hole in the centre
        "4 #.../.wb./.bw./.... b",
        "4 ..../.wb./.bw./.... b x",
        # a cut square missing
        "octagon " + "/".join(OCTAGON_ROWS).replace("--......--", "........--", 1) + " b",
        "octagon " + "/".join(OCTAGON_ROWS).replace("-........-", "-.-......-", 1) + " b",  # extra cut square
    ],
)
def test_malformed_positions_raise_notation_error(Reversi, text):
    with pytest.raises(NotationError):
        Reversi.from_position(text)


def test_octagon_positions_may_hold_holes_outside_the_centre(Reversi):
    rows = list(OCTAGON_ROWS)
    rows[1] = "-#.......-"
    s = Reversi.from_position("octagon " + "/".join(rows) + " b")
    assert s.blocked == ("b2",)


def test_text_board(Reversi):
    expected = "   a b c d\n 1 . . . .\n 2 . w b .\n 3 . b w .\n 4 . . . .\nBlack (b) to move"
    assert str(Reversi(4)) == expected
    lines = str(Reversi("octagon", blocked=["c1"])).splitlines()
    assert lines[0] == "   a b c d e f g h i j"
    assert lines[1] == " 1 - - # . . . . . - -"
    assert lines[10] == "10 - - . . . . . . - -"


# ---- records --------------------------------------------------------------------------------

# What every game's records share (bad records, a bad move's number, a position's record,
# transpositions) is tested as one table in test_record_rules.py.


def test_record_of_a_plain_game(Reversi):
    s = Reversi()
    s.play("d3")
    s.play("c5")
    assert s.record() == '[Game "reversi"]\n[Board "8"]\n[Result "*"]\n\nd3 c5\n'


def test_record_keeps_the_variant(Reversi):
    s = Reversi.random(seed=42, handicap=2, handicap_color=WHITE)
    tags = record_tags(s.record())
    assert '[Game "reversi"]' in tags and '[Board "8"]' in tags
    assert f'[Blocked "{" ".join(s.blocked)}"]' in tags
    assert '[Seed "42"]' in tags and '[Handicap "2"]' in tags and '[HandicapColor "white"]' in tags
    assert record_tags(Reversi(handicap=1).record()) == [
        '[Game "reversi"]',
        '[Board "8"]',
        '[Handicap "1"]',
        '[Result "*"]',
    ]
    assert '[Blocked "b2 h8"]' in record_tags(Reversi("octagon", blocked=["h8", "b2"]).record())


def test_record_result_tag(Reversi):
    s = Reversi.from_position(PASS_POSITION)
    for move in ["pass", "c1", "pass", "c3"]:
        s.play(move)
    assert '[Result "1-0"]' in record_tags(s.record())
    draw = "4 bbbb/bbbb/wwww/wwww b"
    assert '[Result "1/2-1/2"]' in record_tags(Reversi.from_position(draw).record())
    assert '[Result "0-1"]' in record_tags(Reversi.from_position("4 wwww/wwww/wwww/bbbb b").record())


def test_seeded_record_replays_the_seed(Reversi):
    s = Reversi.random(seed=1234)
    text = '[Game "reversi"]\n[Board "8"]\n[Seed "1234"]\n[Result "*"]\n\n'
    t = Reversi.from_record(text)
    assert t.blocked == s.blocked and t.seed == 1234


# ---- hashing and equality -------------------------------------------------------------------


def documented_zobrist(position_text):
    rng = SplitMix64(0x424F415244434F52)
    keys = [rng.next() for _ in range(301)]
    _, rows, side = position_text.split()
    value = keys[300] if side == "w" else 0
    for r, row in enumerate(rows.split("/")):
        for c, x in enumerate(row):
            if x in "bw#":
                value ^= keys["bw#".index(x) * 100 + r * 10 + c]
    return value


def test_zobrist_uses_the_documented_keys(Reversi):
    games = [Reversi(), Reversi.random(seed=3, size="octagon", handicap=2)]
    games.append(play_random(Reversi(6), seed=1, max_moves=9))
    for s in games:
        assert s.zobrist() == documented_zobrist(s.position())
    s = Reversi.from_position(PASS_POSITION)
    assert s.zobrist() == documented_zobrist(PASS_POSITION)


def test_equality_compares_board_holes_and_side_to_move(Reversi):
    assert Reversi() == Reversi()
    assert Reversi() != Reversi(blocked=["a1"])
    assert Reversi(8) != Reversi(10)
    assert Reversi(10) != Reversi("octagon")
    s = Reversi.from_position(START_8.replace(" b", " w"))
    assert s != Reversi() and s.zobrist() != Reversi().zobrist()
    assert Reversi.random(seed=4) == Reversi(blocked=list(Reversi.random(seed=4).blocked))  # not the seed
    assert Reversi() != START_8 and Reversi() != 3


# ---- perft ----------------------------------------------------------------------------------


# The published counts (8x8, 4x4 to the end, ...) are in tests/data/perft, run by test_perft_data.py.


def test_walking_the_4x4_tree_counts_the_complete_games_perft_counts(Reversi):
    s = Reversi(4)
    assert count_complete_games(s.copy()) == s.perft(30) == 60060


def test_perft_counts_a_pass_as_a_ply_by_default(Reversi):
    s = Reversi.from_position(PASS_POSITION)
    assert [s.perft(d) for d in range(6)] == [1, 1, 2, 2, 2, 2]
    assert [s.perft(d, passes_count_as_ply=False) for d in range(4)] == [1, 2, 2, 2]
    assert s.divide(1) == {"pass": 1}
    assert s.divide(1, passes_count_as_ply=False) == {"pass": 2}


def test_divide_of_the_start(Reversi):
    # Divide sums to perft in legal move order on every game: test_protocol.py.
    assert Reversi().divide(3) == {"d3": 14, "c4": 14, "f5": 14, "e6": 14}


def test_the_octagon_is_named_in_any_case_like_moves(Reversi):
    # Issue 14, item 13: `size="OCTAGON"` is the Octagon; sizes stay ints (see test_arguments.py).
    for name in ["OCTAGON", "Octagon"]:
        game = Reversi(size=name)
        assert game.board_name == "octagon" and game == Reversi("octagon")
    assert Reversi.random(5, size="OcTaGoN").board_name == "octagon"
