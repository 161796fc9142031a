"""Merged path counting and merged perft on every game (issue 15, items 1 and 2).

`count_paths(depth)` gives the distinct positions `depth` plies on with their numbers of paths;
`perft(depth, split_depth=k)` multiplies each by perft of the rest. Both must agree with plain perft
everywhere: the counts of tests/data/perft, several variants of every game, positions played
into the game, and the pure-Python twins.
"""

from __future__ import annotations

import boardcore as bc
import boardcore.reference as ref
import pytest
from harness import ENGINES
from perft_data import perft_entries

CLASSES = {name: engine.__name__ for name, engine in ENGINES.items()}  # the registry's, by name

# Variants of every game (constructor keyword arguments), beyond the starts of the data files.
VARIANTS = [
    ("Reversi", {}),
    ("Reversi", {"size": 6}),
    ("Reversi", {"size": "octagon"}),
    ("Reversi", {"size": 8, "blocked": ["a1", "b6", "h7"]}),
    ("Reversi", {"size": 6, "blocked": ["a2", "f1"]}),
    ("Cephalopod", {"rows": 3, "cols": 3}),
    ("Cephalopod", {"rows": 5, "cols": 5}),
    ("Rive", {"board": "hex3"}),
    ("Rive", {"board": "hex335"}),
    ("Rive", {"board": "hex3", "swap": True}),
    ("Rive", {"board": "hex2", "swap": True, "single_stones": True}),
    ("Strands", {"layout": "hex4"}),
    ("Strands", {"layout": "hex4", "cover": "exact"}),
]


def variant_id(variant) -> str:
    name, kwargs = variant
    return name + "".join(f"-{k}={v}" for k, v in kwargs.items())


def data_cases(max_leaves: int) -> list:
    return [
        pytest.param(entry, id=entry.id)
        for entry in perft_entries()
        if entry.tier in ("", "twin") and entry.leaves <= max_leaves
    ]


@pytest.mark.parametrize("entry", data_cases(3_000_000))
def test_split_perft_matches_the_data_files(entry):
    game = getattr(bc, CLASSES[entry.game]).from_position(entry.position)
    for split in sorted({1, entry.depth // 2, entry.depth}) + ["auto"]:
        split = min(split, entry.depth) if split != "auto" else split
        for threads in (1, 2):
            assert game.perft(entry.depth, threads=threads, split_depth=split) == entry.leaves, split
        if entry.free is not None:
            assert game.perft(entry.depth, passes_count_as_ply=False, split_depth=split) == entry.free, split


def test_the_data_used_covers_every_game_and_variant():
    used = {(e.game, e.position.split()[0]) for e in perft_entries() if e.leaves <= 3_000_000 and e.depth >= 2}
    assert {game for game, _ in used} == set(CLASSES)
    assert {"8", "6", "octagon"} <= {board for game, board in used if game == "reversi"}
    assert {"3x3", "5x5"} <= {board for game, board in used if game == "cephalopod"}
    assert {"hex3", "hex335"} <= {board for game, board in used if game == "rive"}
    assert {"up-to", "exact"} <= {cover for game, cover in used if game == "strands"}


def played(game, plies: int, seed: int):
    """`game` after `plies` seeded random moves (fewer if it ends)."""
    for i in range(plies):
        move = game.random_move(seed=seed + i)
        if move is None:
            break
        game.play(move)
    return game


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_every_split_and_count_paths_equal_plain_perft(variant):
    name, kwargs = variant
    depth = 2 if name == "Strands" else 4
    for game in (getattr(bc, name)(**kwargs), played(getattr(bc, name)(**kwargs), 6, 15)):
        before = game.record()
        for d in range(depth + 1):
            plain = game.perft(d)
            paths = game.count_paths(d)
            assert paths.total() == plain
            assert sum(paths.counts()) == plain
            assert len(paths) == len(set(paths.position(i) for i in range(len(paths))))
            assert paths.cells.shape == (len(paths), len(game.cells()))
            for split in [*range(d + 1), "auto", None]:
                assert game.perft(d, split_depth=split) == plain, (d, split)
                assert game.perft(d, threads=2, split_depth=split) == plain, (d, split)
        assert game.record() == before


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_path_rows_are_the_positions_they_name(variant):
    """Each row's cells and side to move are those of its position (read back from notation)."""
    name, kwargs = variant
    paths = getattr(bc, name)(**kwargs).count_paths(2)
    cls = getattr(bc, name)
    for i in range(len(paths)):
        game = cls.from_position(paths.position(i))
        assert int(paths.to_move[i]) == game.to_move
        for value, cell in zip(paths.cells[i], game.cells()):
            piece = game[cell]
            expected = 0 if not isinstance(piece, bc.pieces.Piece) else (piece.pips or 1) * (1 - 2 * piece.player)
            assert value == expected


def as_mapping(paths) -> dict[str, int]:
    return {paths.position(i): count for i, count in enumerate(paths.counts())}


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_the_engine_and_the_twin_agree(variant):
    name, kwargs = variant
    depth = 2 if name == "Strands" else 3
    for engine, twin in ((getattr(bc, name)(**kwargs), getattr(ref, name)(**kwargs)),):
        for d in range(depth + 1):
            assert as_mapping(engine.count_paths(d)) == as_mapping(twin.count_paths(d)), d
            plain = engine.perft(d)
            for split in [*range(d + 1), "auto"]:
                assert twin.perft(d, split_depth=split) == plain, (d, split)


def test_twin_count_paths_rows_match_the_engines():
    engine, twin = bc.Reversi(size=6).count_paths(3), ref.Reversi(size=6).count_paths(3)
    rows = {engine.position(i): (list(engine.cells[i]), int(engine.to_move[i])) for i in range(len(engine))}
    for i in range(len(twin)):
        assert rows[twin.position(i)] == (list(twin.cells[i]), int(twin.to_move[i]))


# White must pass at once, then Black has two replies, each followed by another pass.
PASS_POSITION = "4 bw../..../bw../.... w"


@pytest.mark.parametrize("implementation", [bc, ref], ids=["engine", "twin"])
def test_passes_are_plies_as_perft_counts_them(implementation):
    game = implementation.Reversi.from_position(PASS_POSITION)
    for passes in (True, False):
        for depth in range(6):
            plain = game.perft(depth, passes_count_as_ply=passes)
            for split in [*range(depth + 1), "auto"]:
                assert game.perft(depth, passes_count_as_ply=passes, split_depth=split) == plain
    one = game.count_paths(1)
    assert [one.position(0)] == ["4 bw../..../bw../.... b"] and one.counts() == [1]


def test_a_capture_under_way_is_part_of_the_key():
    """Single-stone Rive: positions with a capture under way are kept apart from the same stones
    without one, and the counts still sum to perft."""
    game = bc.Rive(board="hex2", single_stones=True)
    for depth in range(1, 9):
        paths = game.count_paths(depth)
        assert paths.total() == game.perft(depth)
        for i in range(len(paths)):
            assert bc.Rive.from_position(paths.position(i)).count_paths(0).position(0) == paths.position(i)
    assert game.perft(8, split_depth=4) == game.perft(8)


def test_merged_perft_of_8x8_reversi_matches_the_published_count():
    assert bc.Reversi().perft(9, threads=2, split_depth="auto") == 3_005_288
    assert bc.Reversi().perft(10, split_depth=6) == 24_571_284


@pytest.mark.parametrize("implementation", [bc, ref], ids=["engine", "twin"])
@pytest.mark.parametrize("bad", [-1, 4, "deep", 1.0, True, [1]])
def test_bad_split_depths_are_refused_and_change_nothing(implementation, bad):
    game = implementation.Reversi()
    game.play("d3")
    before = game.record()
    with pytest.raises(ValueError, match="split_depth"):
        game.perft(3, split_depth=bad)
    assert game.record() == before


def test_split_depth_on_a_board_without_a_key():
    """Cephalopod boards over 31 squares have no count_paths key: a split is refused, "auto" is
    plain perft."""
    game = bc.Cephalopod(8, 8)
    with pytest.raises(ValueError, match="31 squares"):
        game.perft(2, split_depth=1)
    assert game.perft(5, split_depth="auto") == game.perft(5)


# ---- the frontier and its work units (what distributed perft is built from) ------------------


@pytest.mark.parametrize("implementation", [bc, ref], ids=["engine", "twin"])
@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_a_frontier_counted_position_by_position_is_perft(implementation, variant):
    name, kwargs = variant
    # The twin walks in Python: shallower, but still deeper than every split below but `depth`.
    depth = (2 if name == "Strands" else 3) if implementation is ref else (3 if name == "Strands" else 5)
    cls = getattr(implementation, name)
    game = played(cls(**kwargs), 3, 7)
    before = game.record()
    plain = game.perft(depth)
    for split in [None, "auto", 0, 1, 2, depth] if name != "Strands" else [None, 0, 1, 2]:
        remaining, positions, paths = game.perft_frontier(depth, split_depth=split)
        assert len(positions) == len(paths) == len(set(positions))
        assert all(count >= 1 for count in paths)
        if split == 0:
            assert (remaining, positions, paths) == (depth, [game.position()], [1])
        elif isinstance(split, int):
            assert remaining == depth - split
        assert cls.perft_positions(positions, remaining, paths) == plain, split
        # Every cut into units adds up to the same count: one unit per stride of the frontier.
        units = [cls.perft_positions(positions[i::3], remaining, paths[i::3], threads=2) for i in range(3)]
        assert sum(units) == plain
    assert game.record() == before


def test_the_engines_frontier_of_8x8_is_merged_by_symmetry():
    """The twin merges by notation only; the engine also by the square's eight symmetries, so its
    frontier is about a quarter of the twin's (reflections of the start are the start's moves)."""
    engine = bc.Reversi().perft_frontier(6, split_depth=4)
    twin = ref.Reversi().perft_frontier(6, split_depth=4)
    assert engine[0] == twin[0] == 2
    assert sum(engine[2]) == sum(twin[2]) == bc.Reversi().perft(4)
    assert len(engine[1]) * 3 < len(twin[1])
    assert bc.Reversi.perft_positions(engine[1], 2, engine[2]) == ref.Reversi.perft_positions(twin[1], 2, twin[2])


@pytest.mark.parametrize("implementation", [bc, ref], ids=["engine", "twin"])
def test_perft_positions_takes_any_board_of_its_game(implementation):
    positions = [implementation.Reversi(6).position(), implementation.Reversi("octagon").position()]
    assert implementation.Reversi.perft_positions(positions, 3) == bc.Reversi(6).perft(3) + bc.Reversi("octagon").perft(
        3
    )
    assert implementation.Reversi.perft_positions([], 3) == 0


@pytest.mark.parametrize("implementation", [bc, ref], ids=["engine", "twin"])
@pytest.mark.parametrize(
    ("positions", "paths", "error", "match"),
    [
        (["8 ........"], None, ValueError, r"positions\[0\]"),
        ([bc.Reversi().position(), 7], None, TypeError, r"positions\[1\] must be a string"),
        ([bc.Reversi().position()], [1, 2], ValueError, "1 positions but 2 path counts"),
        ([bc.Reversi().position()], [-1], ValueError, r"paths\[0\] must be an integer"),
        ([bc.Reversi().position()], [2**128], ValueError, r"paths\[0\] must be an integer"),
        ([bc.Reversi().position()], ["1"], ValueError, r"paths\[0\] must be an integer"),
    ],
)
def test_bad_work_units_are_refused_with_the_entry_named(implementation, positions, paths, error, match):
    with pytest.raises(error, match=match):
        implementation.Reversi.perft_positions(positions, 2, paths)


@pytest.mark.parametrize("implementation", [bc, ref], ids=["engine", "twin"])
def test_a_frontier_split_of_none_is_plain_as_in_perft_and_omitted_is_auto(implementation):
    """None is plain perft's 0 in perft_frontier as in perft (it was "auto" there); leaving the
    argument out still gives the auto split."""
    game = implementation.Reversi(6)
    depth = 8 if implementation is bc else 6
    plain = (depth, [game.position()], [1])
    assert game.perft_frontier(depth, None) == game.perft_frontier(depth, split_depth=None) == plain
    assert game.perft_frontier(depth, 0) == plain
    omitted = game.perft_frontier(depth)
    assert omitted == game.perft_frontier(depth, "auto") and omitted[0] < depth  # auto did split


def test_a_frontier_without_a_key_is_the_game_itself():
    game = bc.Cephalopod(8, 8)
    assert game.perft_frontier(5) == (5, [game.position()], [1])
    with pytest.raises(ValueError, match="31 squares"):
        game.perft_frontier(3, split_depth=1)


@pytest.mark.parametrize("implementation", [bc, ref], ids=["engine", "twin"])
@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_a_memory_cap_the_count_passes_is_refused_and_a_lifted_one_counts(implementation, variant):
    # count_paths holds at most max_positions positions at once: a count that needs more is a
    # MemoryError that changes nothing, and the same count under a cap it fits gives the rows
    # of the default.
    name, kwargs = variant
    game = getattr(implementation, name)(**kwargs)
    depth = 2 if name == "Strands" else 4
    before = game.record()
    with pytest.raises(MemoryError, match="max_positions"):
        game.count_paths(depth, max_positions=1)
    assert game.record() == before
    default = game.count_paths(depth)
    # Above every game's default cap, and within any machine's memory (a cap past the machine's
    # memory is refused: tests/test_time_limits.py).
    lifted = game.count_paths(depth, max_positions=10**7)
    assert list(lifted.counts()) == list(default.counts())
    assert [lifted.position(i) for i in range(len(lifted))] == [default.position(i) for i in range(len(default))]


@pytest.mark.parametrize("implementation", [bc, ref], ids=["engine", "twin"])
def test_the_cap_bounds_cephalopods_colour_free_count_too(implementation):
    game = implementation.Cephalopod(rows=3, cols=3)
    with pytest.raises(MemoryError, match="max_positions"):
        game.count_paths(6, owners=False, max_positions=100)
    with pytest.raises(MemoryError, match="max_positions"):
        game.path_totals(6, max_positions=100)
    assert len(game.count_paths(6, owners=False, max_positions=10**6)) == len(game.count_paths(6, owners=False))


@pytest.mark.parametrize("implementation", [bc, ref], ids=["engine", "twin"])
@pytest.mark.parametrize("bad", [0, -1, True, "5", 1.5, 2**64])
def test_bad_memory_caps_are_refused(implementation, bad):
    game = implementation.Reversi()
    with pytest.raises(ValueError, match=r"max_positions must be an integer from 1 to 2\*\*64-1"):
        game.count_paths(2, max_positions=bad)
