"""Rive captures of any size: counted, sampled and listed in time that depends on the answer, not
on the group (docs/rive.md, "Large captures").

Before the frontier programme these positions hung: survivor sets were grown one stone at a time
and a 45-stone ring had astronomically many dead ends. Each call here runs under a hang guard
(a thread that must finish within a generous limit): it is a hang detector, not a benchmark.
"""

from __future__ import annotations

import threading

import boardcore as bc
import boardcore.reference as ref
import pytest
from harness import SplitMix64

RING_HEX4 = "hex4 bbbb/bbbbb/bb..bb/bb.w.bb/bb..bb/bbbbb/bbbb b"
# The same shape on hex5 (issue 11: "never returns"): a 56-stone ring around a white stone.
RING_HEX5 = "hex5 bbbbb/bbbbbb/bbbbbbb/bbb..bbb/bbb.w.bbb/bbb..bbb/bbbbbbb/bbbbbb/bbbbb b"
MIXED_HEX5 = "hex5 .bwb./.wbbbb/b.w.bw./b.wwb..b/wbwwbbw../bwbbbbbw/.wb.w.w/...wbb/bbbwb b"
# On hex6, two groups of 30 and 29 stones meet at 17 cells: about 16 billion moves.
BILLIONS_HEX6 = (
    "hex6 .w.ww./bbbb..w/.bww.b.b/bb.wwbb.b/.w....w.bb/wb.bwbb.www/b..b...bbw/.b.w..bww/bw.wb.ww/bb...bw/bwwwww b"
)
LARGEST_HEX335 = "hex335 wbb/wwwb/wwwbb/b..../.bbbw/wwww/bbb b"
# From a random hex7 game: about 2.3e18 moves, almost all of them one capture whose new group is
# too wide for one ranking table (listing its survivor sets instead once aborted the process).
TOO_WIDE_HEX7 = (
    "hex7 .b.b.w./.b.b.w.w/bb.b..b.b/ww...bb.ww/www.wbb.bbb/...bwbw.wbww/bbbb.wwb.bwwb/"
    "wb.wb.w.wbww/wb.ww.w.www/bb.bbb.wwb/..b.b.wbb/w.bw.wbb/w...wbw w"
)


def finishes(call, seconds=60.0):
    """The result of `call()`, failing the test if it has not returned within `seconds`."""
    result = {}

    def run():
        result["value"] = call()

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), f"still running after {seconds} s"
    return result["value"]


@pytest.mark.parametrize("text", [RING_HEX4, RING_HEX5, MIXED_HEX5])
def test_the_positions_that_hung_agree_with_the_twin(text):
    engine, twin = bc.Rive.from_position(text), ref.Rive.from_position(text)
    assert finishes(engine.count_moves) == twin.count_moves()
    assert [str(m) for m in finishes(engine.legal_moves)] == [str(m) for m in twin.legal_moves()]
    for seed in range(20):
        assert str(engine.random_move(seed=seed)) == str(twin.random_move(seed=seed))


def test_billions_of_moves_are_counted_and_sampled_without_listing():
    s = bc.Rive.from_position(BILLIONS_HEX6)
    n = finishes(s.count_moves)
    assert n == 16057524195
    # The documented draw: below(count) from SplitMix64(seed), then that entry of the move order.
    # The first moves of the lazy order are checked against the draw for small indices below.
    moves = finishes(lambda: [str(m) for _, m in zip(range(2000), s.moves())])
    assert moves == sorted(moves, key=lambda m: order_key(s, m))
    for seed in range(5):
        move = finishes(lambda: s.random_move(seed=seed))
        assert s.is_legal(move)


def test_a_capture_too_wide_for_one_ranking_table_is_drawn_without_listing_it():
    s = bc.Rive.from_position(TOO_WIDE_HEX7)
    assert finishes(s.count_moves) == 2344489985941677687
    for seed in range(5):
        move = finishes(lambda: s.random_move(seed=seed))
        # The uniform draw: nearly every move is that capture.
        assert s.is_legal(move) and len(move.removed) > 10
    # Its moves in order cannot be listed: after 16,846 moves at earlier cells (measured), a
    # capture with 8.5e15 survivor sets and no ranking table. Iterating to it is a MemoryError
    # that leaves the iterator where it was, never a crash.
    moves = s.moves()
    with pytest.raises(MemoryError, match="too wide to rank"):
        sum(1 for _ in moves)
    with pytest.raises(MemoryError):
        next(moves)


def order_key(game, name):
    """The documented move order within one placed cell: removed cells in board order, as lists."""
    cell, _, removed = name.partition("x")
    cells = [c for c in removed.split(",") if c] if removed else []
    return (board_index(game, cell), [board_index(game, c) for c in cells])


def board_index(game, cell):
    row = ord(cell[0]) - ord("a")
    return (row, int(cell[1:]))


def test_random_move_is_the_drawn_entry_of_the_move_order_on_a_large_capture():
    s = bc.Rive.from_position(LARGEST_HEX335)
    moves = finishes(lambda: [str(m) for m in s.moves()])
    assert len(moves) == s.count_moves() == 847300
    for seed in range(30):
        k = SplitMix64(seed).below(len(moves))
        assert str(s.random_move(seed=seed)) == moves[k]


@pytest.mark.parametrize("board", ["hex5", "hex6", "hex7", "hex4"])
def test_compound_playouts_finish_on_every_board_size(board):
    tally = finishes(lambda: bc.Rive(board=board).playouts(2, seed=0), seconds=120)
    assert tally["black"] + tally["white"] == 2 and tally["draws"] == 0


def test_a_playout_on_hex5_can_be_replayed_move_by_move():
    """Every move a playout-style draw makes is legal, and the game ends full."""
    s = bc.Rive(board="hex5")
    seed = 0
    while not s.is_over():
        move = s.random_move(seed=seed)
        s.play(move)
        seed += 1
    assert s.count_moves() == 0 and s.winner() is not None
    assert bc.load_record(s.record()) == s
