"""The rules every game's records and hashes follow, as one table a game: what a bad record is,
which move of a record is named when it is not one, a position's record, and transpositions.
Each row runs against the reference twin and the engine (docs/records.md, docs/design.md).

The rules themselves are shared (one record grammar, one Zobrist scheme); only the examples are
the game's own, so they live here side by side rather than once per game file."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from boardcore.reference._game import NotationError
from conftest import implementations
from test_cephalopod_rules import FOUR_ONES
from test_reversi_rules import PASS_POSITION
from test_rive_rules import FIGURE_3A, LINE

STRANDS_OPENED = "up-to 4334/32223/322223/42b1224/322223/32223/4334 w"


@dataclass(frozen=True)
class Records:
    """A game's examples of the shared record and hashing rules."""

    tags: str
    """The tags of a small variant's record (moves follow a blank line)."""
    bad_records: dict[str, str]
    """Records that are not one, by what is wrong with them."""
    bad_moves: list[tuple[str, str]]
    """Move lists (after ``tags``) whose bad move is the numbered one."""
    from_position: tuple[str, str, str, str]
    """A position, a move played from it, the move as its record writes it, and the tags that
    come before the Position tag."""
    transposition: tuple[list[str], list[str]]
    """Two orders of the same moves, from ``tags``'s start, that reach the same position."""
    variant: dict[str, object] = field(default_factory=dict)
    """The arguments of ``tags``'s variant."""


def bad(tags: str, first_move: str, other_game: str, **records: str) -> dict[str, str]:
    """Bad records: those every game has, written with its ``tags``, a first move and another
    game's name, then the game's own, written as the lines after ``tags`` ("{tags}" where they
    must come first)."""
    game, variant = tags.split("\n")
    unquoted = variant.replace('"', "")
    every_game = {
        "unknown tag": f'{tags}\n[Colour "red"]\n\n{first_move}\n',
        "missing Game": f"{variant}\n\n{first_move}\n",
        "other game": f'[Game "{other_game}"]\n{variant}\n\n{first_move}\n',
        "bad tag": f"{game}\n{unquoted}\n\n{first_move}\n",
        "tag twice": f"{tags}\n{variant}\n\n{first_move}\n",
        "tag after moves": f'{tags}\n\n{first_move}\n[Result "*"]\n',
        "wrong result": f'{tags}\n[Result "1-0"]\n\n{first_move}\n',
        "illegal move": f"{tags}\n\n{first_move} {first_move}\n",
        "malformed move": f"{tags}\n\n{first_move} {first_move}x\n",
    }
    own = {name.replace("_", " "): text.format(tags=tags) for name, text in records.items()}
    assert not every_game.keys() & own.keys()
    return every_game | own


REVERSI = '[Game "reversi"]\n[Board "8"]'
CEPHALOPOD = '[Game "cephalopod"]\n[Board "5x5"]'
RIVE = '[Game "rive"]\n[Board "hex3"]'
STRANDS = '[Game "strands"]\n[Layout "hex4"]'

RECORDS = {
    "Reversi": Records(
        tags=REVERSI,
        bad_records=bad(
            REVERSI,
            first_move="d3",
            other_game="chess",
            bad_board='[Game "reversi"]\n[Board "7"]\n\nd3\n',
            hole_in_the_centre='{tags}\n[Blocked "d4"]\n\n\n',
            seed_and_holes_disagree='{tags}\n[Blocked "a1"]\n[Seed "1"]\n\n\n',
            bad_handicap='{tags}\n[Handicap "5"]\n\n\n',
            bad_position='[Game "reversi"]\n[Board "4"]\n[Position "4 ..../.wb. b"]\n\n\n',
        ),
        bad_moves=[("d3 c5 d3", "3"), ("d3 xx", "2"), ("pass", "1"), ("d3 c5 f6 f5 e6 e3 z9", "7")],
        from_position=(PASS_POSITION, "pass", "pass", '[Game "reversi"]\n[Board "4"]'),
        transposition=(["d3", "c3", "c4", "e3"], ["c4", "c3", "d3", "e3"]),
    ),
    "Cephalopod": Records(
        tags=CEPHALOPOD,
        bad_records=bad(
            CEPHALOPOD,
            first_move="c3",
            other_game="reversi",
            board_too_big='[Game "cephalopod"]\n[Board "9x9"]\n\nc3\n',
            board_too_small='[Game "cephalopod"]\n[Board "1x5"]\n\nc3\n',
            board_not_RxC='[Game "cephalopod"]\n[Board "5"]\n\nc3\n',
            missing_Board='[Game "cephalopod"]\n\nc3\n',
            bad_position='[Game "cephalopod"]\n[Board "3x3"]\n[Position "3x3 .../... b"]\n\n\n',
            board_and_position_disagree=f'{{tags}}\n[Position "{FOUR_ONES}"]\n\n\n',
        ),
        bad_moves=[("c3 b3 c3", "3"), ("c3 xx", "2"), ("f1", "1"), ("a1 b1 a2 b1x", "4")],
        from_position=(FOUR_ONES, "b2xa2,b1,c2", "b2xb1,a2,c2", '[Game "cephalopod"]\n[Board "3x3"]'),
        transposition=(["a1", "b2", "c3"], ["c3", "b2", "a1"]),
        variant={"rows": 3, "cols": 3},
    ),
    "Rive": Records(
        tags=RIVE,
        bad_records=bad(
            RIVE,
            first_move="c3",
            other_game="cephalopod",
            unknown_board='[Game "rive"]\n[Board "hex9"]\n\nc3\n',
            even_board='[Game "rive"]\n[Board "4@0"]\n\na1\n',
            missing_Board='[Game "rive"]\n\nc3\n',
            bad_Swap='{tags}\n[Swap "maybe"]\n\nc3\n',
            bad_SingleStones='{tags}\n[SingleStones "1"]\n\nc3\n',
            bad_position='{tags}\n[Position "hex3 .../... b"]\n\n\n',
            board_and_position_disagree=f'[Game "rive"]\n[Board "hex4"]\n[Position "{FIGURE_3A}"]\n\n\n',
            Swap_with_a_Position=f'{{tags}}\n[Swap "yes"]\n[Position "{FIGURE_3A} swap"]\n\n\n',
            SingleStones_with_a_Position=f'[Game "rive"]\n[SingleStones "yes"]\n[Position "{LINE} single"]\n\n\n',
            swap_not_allowed="{tags}\n\nc3 swap\n",
            removal_step_in_the_compound_form=f'[Game "rive"]\n[Position "{LINE}"]\n\na3xa1,a2 xa3\n',
        ),
        bad_moves=[("c3 e3 c3", "3"), ("c3 xx", "2"), ("f1", "1"), ("a1 e3 c3 a1x", "4")],
        from_position=(FIGURE_3A, "b1xa2,c1", "b1xa2,c1", RIVE),
        transposition=(["a1", "c3", "e3", "c1"], ["e3", "c1", "a1", "c3"]),
        variant={"board": "hex3"},
    ),
    "Strands": Records(
        tags=STRANDS,
        bad_records=bad(
            STRANDS,
            first_move="d3",
            other_game="rive",
            missing_Layout='[Game "strands"]\n\nd3\n',
            unknown_layout='[Game "strands"]\n[Layout "hex9"]\n\nd3\n',
            bad_layout='[Game "strands"]\n[Layout "11/111/11"]\n\nd2\n',
            bad_Cover='{tags}\n[Cover "both"]\n\nd3\n',
            opening_on_the_1="{tags}\n\nd4\n",
        ),
        bad_moves=[("d3 a1,a4 d3", "3"), ("d3 xx", "2"), ("d4", "1"), ("d3 a1,a4 d1,d7 zz", "4")],
        from_position=(STRANDS_OPENED, "a1,a4", "a1,a4", '[Game "strands"]'),
        transposition=(["d3", "a1", "d2"], ["d2", "a1", "d3"]),
        variant={"layout": "hex4"},
    ),
}


def each(rows):
    """Test cases: ``rows(name, records)`` for every game, against each of its implementations."""
    return [
        pytest.param(game, *row, id=f"{game.__module__}-{'-'.join(map(str, row))[:40]}")
        for name, records in RECORDS.items()
        for game in implementations(name)
        for row in rows(name, records)
    ]


@pytest.mark.parametrize("game, case", each(lambda _, r: [(case,) for case in r.bad_records]))
def test_bad_records_raise_notation_error(game, case):
    with pytest.raises(NotationError):
        game.from_record(RECORDS[game.__name__].bad_records[case])


@pytest.mark.parametrize("game, moves, number", each(lambda _, r: r.bad_moves))
def test_a_bad_move_in_a_record_names_its_number(game, moves, number):
    tags = RECORDS[game.__name__].tags
    with pytest.raises(NotationError, match=f"move {number} "):
        game.from_record(f"{tags}\n\n{moves}\n")


@pytest.mark.parametrize("game", each(lambda _, r: [()]))
def test_the_record_of_a_game_from_a_position_replays_it(game):
    position, move, written, tags = RECORDS[game.__name__].from_position
    s = game.from_position(position)
    s.play(move)
    assert s.record() == f'{tags}\n[Position "{position}"]\n[Result "*"]\n\n{written}\n'
    t = game.from_record(s.record())
    assert t == s and [str(m) for m in t.history] == [written]


@pytest.mark.parametrize("game", each(lambda _, r: [()]))
def test_transpositions_are_equal_and_hash_alike(game):
    records = RECORDS[game.__name__]
    first, second = game(**records.variant), game(**records.variant)
    for a, b in zip(*records.transposition):
        first.play(a)
        second.play(b)
    assert first == second and hash(first) == hash(second) and first.zobrist() == second.zobrist()
    assert first.history != second.history
