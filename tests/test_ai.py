"""bc.ai: the solver against brute force over the pure-Python twins, the engine's limits and
refusals, and the players.

Brute force here walks every line of the twin (each position valued once, by its notation), with
the margins written out again from the rules: Reversi's final disc difference with the empty
squares counted for the winner, the count difference of Cephalopod and Rive, and for Strands the
first difference between the sorted group sizes."""

from __future__ import annotations

import subprocess
import sys

import boardcore as bc
import boardcore.reference as ref
import harness
import pytest
from boardcore._boardcore import SearchTable, search_position


def margin(game) -> int:
    """The final margin of a finished twin game for its side to move."""
    mover = game.to_move
    score = game.score()
    if isinstance(game, ref.Strands):
        mine, theirs = score[mover], score[1 - mover]
        width = max(len(mine), len(theirs))
        mine, theirs = mine + [0] * (width - len(mine)), theirs + [0] * (width - len(theirs))
        return next((a - b for a, b in zip(mine, theirs, strict=True) if a != b), 0)
    difference = score[mover] - score[1 - mover]
    if isinstance(game, ref.Reversi):
        board = game.position().split()[1]
        empties = board.count(".")
        difference += empties if difference > 0 else -empties if difference < 0 else 0
    return difference


def brute_force(game, known: dict[str, int]) -> int:
    """The value of the twin's position for its side to move, by walking every line."""
    key = game.position()
    if key in known:
        return known[key]
    if game.is_over():
        value = margin(game)
    else:
        value = max(child_value(game, move, known) for move in game.legal_moves())
    known[key] = value
    return value


def child_value(game, move, known: dict[str, int]) -> int:
    mover = game.to_move
    game.play(move)
    value = brute_force(game, known)
    again = game.to_move == mover
    game.undo()
    return value if again else -value


def twin_of(game):
    return getattr(ref, type(game).__name__).from_position(game.position())


def check_solved(game, known: dict[str, int] | None = None) -> None:
    """`known`: values already walked (shared by positions of one game, whose subtrees meet)."""
    twin = twin_of(game)
    known = {} if known is None else known
    value = brute_force(twin, known)
    before = game.position()
    analysis = bc.ai.solve(game)
    assert game.position() == before, "solving changes nothing"
    assert analysis.exact and analysis.score == value and isinstance(analysis.score, float)
    assert analysis.value == (value > 0) - (value < 0)
    optimal = {str(m) for m in twin.legal_moves() if child_value(twin, m, known) == value}
    assert {str(m) for m in analysis.best_moves} == optimal
    assert str(analysis.move) in optimal
    # The line of perfect play keeps the value at every move and ends the game with the margin.
    target = value
    for move in analysis.pv:
        assert child_value(twin, str(move), known) == target
        mover = twin.to_move
        twin.play(str(move))
        target = target if twin.to_move == mover else -target
    assert twin.is_over() and margin(twin) == target


def positions(start, count: int, seed: int) -> list:
    """The start and positions reached by random moves from it (all live)."""
    found = [start]
    for i in range(1, 10 * count):
        if len(found) == count:
            break
        game = start.copy()
        for ply in range(i % 9):
            move = game.random_move(seed=seed * 1000 + i * 10 + ply)
            if move is None:
                break
            game.play(move)
        if not game.is_over():
            found.append(game)
    return found


SMALL_BOARDS = [
    bc.Reversi(size=4),
    bc.Reversi.from_position("6 ....../....../..wb../..bw../#....#/...... b"),
    bc.Cephalopod(rows=2, cols=2),
    bc.Cephalopod(rows=2, cols=3),
    bc.Rive(board="hex2"),  # solved by the dense memo (search/memo.rs)
    bc.Rive(board="hex2", swap=True),
    bc.Rive(board="hex2", single_stones=True),  # no dense index: the generic search
    bc.Strands(layout=["12", "212", "22"]),
    bc.Strands(layout=["23", "323", "32"], cover="exact"),
]


@pytest.mark.parametrize("start", SMALL_BOARDS[:1] + SMALL_BOARDS[2:], ids=repr)
def test_the_solver_agrees_with_brute_force_over_the_twin(start):
    known: dict[str, int] = {}
    for game in positions(start, 6, seed=len(start.position())):
        check_solved(game, known)


def test_a_reversi_6x6_endgame_with_holes_is_solved_as_brute_force_solves_it():
    game = SMALL_BOARDS[1]
    seed = 0
    while len(game.position().split()[1].replace("/", "").replace("#", "").replace("b", "").replace("w", "")) > 9:
        move = game.random_move(seed=seed)
        seed += 1
        game.play(move)
    if not game.is_over():
        check_solved(game)


def test_reversi_4x4_is_a_ten_disc_win_for_white():
    # docs/solved.md: 4x4 ends 11-3 for White with two squares empty, counted for the winner.
    analysis = bc.ai.solve(bc.Reversi(size=4))
    assert (analysis.value, analysis.score) == (-1, -10)
    assert sorted(str(m) for m in analysis.best_moves) == ["a2", "b1", "c4", "d3"]


@pytest.mark.parametrize(("rows", "cols", "score"), [(2, 2, 0), (2, 3, -2), (3, 2, -2)])
def test_small_cephalopod_boards_have_their_solved_values(rows, cols, score):
    assert bc.ai.solve(bc.Cephalopod(rows=rows, cols=cols)).score == score


def test_the_table_size_changes_the_work_not_the_answer():
    game = bc.Cephalopod(rows=2, cols=3)
    small, large = bc.ai.solve(game, table_mb=1), bc.ai.solve(game, table_mb=256)
    assert small.score == large.score == -2 and small.best_moves == large.best_moves
    with pytest.raises(ValueError, match="table_mb"):
        bc.ai.solve(game, table_mb=0)


def test_a_kept_table_changes_the_work_not_the_answer():
    # A second search in the table of the first starts from its entries: fewer nodes, and the
    # same value (a solve), or the same value as a fresh search of the same depth.
    game = bc.Cephalopod(rows=2, cols=3)
    table = SearchTable(table_mb=4)
    first = bc.ai._analysis(search_position(game, solve=True, table=table))
    again = bc.ai._analysis(search_position(game, solve=True, table=table))
    assert first.score == again.score == bc.ai.solve(game).score == -2
    assert again.nodes < first.nodes
    assert table.bytes == 4 << 20
    reversi, table = bc.Reversi(), SearchTable(table_mb=4)
    first, again = (bc.ai._analysis(search_position(reversi, depth=5, table=table)) for _ in range(2))
    assert first.score == again.score == bc.ai._analysis(search_position(reversi, depth=5)).score
    assert again.nodes < first.nodes


def test_a_table_is_given_as_one_table_or_a_size_not_both():
    with pytest.raises(ValueError, match="table_mb"):
        SearchTable(table_mb=0)
    with pytest.raises(ValueError, match="not both"):
        search_position(bc.Reversi(), depth=2, table=SearchTable(table_mb=1), table_mb=4)
    with pytest.raises(TypeError):
        search_position(bc.Reversi(), depth=2, table="a table")


def test_a_timed_player_keeps_its_table_between_moves_and_a_depth_player_does_not():
    timed, fixed, noisy = bc.ai.Player(time_limit=0.02), bc.ai.Player(depth=2), bc.ai.Player(level=3)
    game = bc.Reversi()
    for player in (timed, fixed, noisy, timed):
        game.play(player.move(game))
    assert timed._table is not None and timed._kept_table() is timed._table
    assert fixed._kept_table() is None and noisy._kept_table() is None


@pytest.mark.slow
def test_cephalopod_2x4_is_a_draw_solved_with_a_large_table():
    # docs/solved.md: about 30 s with 8 GB of table, which it fills only in part.
    analysis = bc.ai.solve(bc.Cephalopod(rows=2, cols=4), table_mb=8192)
    assert (analysis.value, analysis.score) == (0, 0)


@pytest.mark.slow
def test_cephalopod_3x3_is_a_one_die_win_for_black_whatever_the_first_move():
    # docs/solved.md: about 10 minutes, with up to 16 GB of table.
    analysis = bc.ai.solve(bc.Cephalopod(rows=3, cols=3), table_mb=16384)
    assert (analysis.value, analysis.score) == (1, 1)
    assert len(analysis.best_moves) == 9


@pytest.mark.slow
def test_every_position_of_reversi_4x4_is_solved_as_brute_force_solves_it():
    start = bc.Reversi(size=4)
    known: dict[str, int] = {}
    brute_force(ref.Reversi(size=4), known)
    for notation, value in known.items():
        game = bc.Reversi.from_position(notation)
        if not game.is_over():
            assert bc.ai.solve(game).score == value, notation
    assert len(known) > 50_000 and start.position() in known


@pytest.mark.parametrize(
    "game", [bc.Reversi(), bc.Cephalopod(), bc.Rive(), bc.Strands()], ids=lambda g: type(g).__name__
)
def test_a_live_game_always_gets_a_legal_move_even_with_the_smallest_budget(game):
    for limits in ({"time_limit": 0.001}, {"nodes": 1}, {"depth": 1}):
        analysis = bc.ai.analyse(game, **limits)
        assert game.is_legal(analysis.move) and not analysis.exact
        assert analysis.pv[0] == analysis.move


def test_analyse_becomes_a_solve_when_the_end_is_within_reach():
    game = bc.Cephalopod(rows=2, cols=3)
    shallow = bc.ai.analyse(game, depth=3)
    assert not shallow.exact and shallow.depth == 3 and [it.depth for it in shallow.iterations] == [1, 2, 3]
    deep = bc.ai.analyse(game, depth=100)
    assert deep.exact and deep.score == -2 and deep.depth < 100
    assert {str(m) for m in deep.best_moves} == {str(m) for m in bc.ai.solve(game).best_moves}


@pytest.mark.parametrize(
    ("limits", "message"),
    [
        ({"depth": 0}, "depth"),
        ({"depth": -3}, "depth"),
        ({"depth": 2.5}, "depth"),
        ({"nodes": 0}, "nodes"),
        ({"time_limit": 0}, "time_limit"),
        ({"time_limit": -1.0}, "time_limit"),
        ({"time_limit": float("nan")}, "time_limit"),
        ({"threads": 0}, "threads"),
        ({"table_mb": 0}, "table_mb"),
        ({"table_mb": 65_537}, "table_mb"),
        ({"table_mb": 1.5}, "table_mb"),
    ],
)
def test_bad_limits_are_refused_and_change_nothing(limits, message):
    game = bc.Reversi()
    game.play("d3")
    before = (game.position(), list(game.history))
    with pytest.raises((ValueError, TypeError), match=message):
        bc.ai.analyse(game, **limits)
    assert (game.position(), list(game.history)) == before


def test_a_finished_game_is_refused_by_every_entry_point():
    game = bc.Cephalopod(rows=2, cols=2)
    while not game.is_over():
        game.play(game.legal_moves()[0])
    before = game.position()
    for call in (bc.ai.solve, bc.ai.analyse, bc.ai.Player(level=1).move):
        with pytest.raises(ValueError, match="over"):
            call(game)
    assert game.position() == before


def test_things_that_are_not_games_are_refused():
    with pytest.raises(TypeError, match="boardcore game"):
        bc.ai.solve("reversi")
    with pytest.raises(TypeError, match="boardcore game"):
        bc.ai.analyse(ref.Reversi())


def test_a_solve_past_its_time_limit_says_so_with_its_estimate():
    with pytest.raises(bc.ai.SolveTimeout) as raised:
        bc.ai.solve(bc.Reversi(), time_limit=0.05)
    assert not raised.value.analysis.exact
    assert bc.Reversi().is_legal(raised.value.analysis.move)


def test_the_dense_memo_of_rive_honours_a_time_limit_and_changes_nothing():
    game = bc.Rive(board="hex3")  # a solve from the start takes many minutes (docs/solved.md)
    with pytest.raises(bc.ai.SolveTimeout) as raised:
        bc.ai.solve(game, time_limit=0.2)  # how promptly: benches/bench_engine.py --only limits
    assert not raised.value.analysis.exact and game.is_legal(raised.value.analysis.move)
    assert game.position() == bc.Rive(board="hex3").position() and not game.history


@pytest.mark.parametrize("bad", [0, 11, -1, 2.0, True, "5"])
def test_player_levels_are_one_to_ten(bad):
    with pytest.raises(ValueError, match="level"):
        bc.ai.Player(level=bad)


@pytest.mark.parametrize("level", sorted(bc.ai.LEVELS))
def test_no_level_thinks_past_the_cap(level):
    assert bc.ai.Player(level=level).time_limit == bc.ai.LEVEL_TIME_CAP
    assert bc.ai.Player(level=level, time_limit=0.3).time_limit == 0.3  # a given limit replaces it
    assert bc.ai.Player(depth=3).time_limit is None  # an explicit depth is searched in full


def test_the_cap_stops_a_level_whose_depth_is_out_of_reach():
    # Depth 8 over Strands' compound moves would take hours: level 9 answers within its cap.
    game = bc.Strands()
    analysis = bc.ai.Player(level=9).analyse(game)
    assert analysis.depth < 8
    assert game.is_legal(analysis.move)


def play_game(black, white, game):
    players = (black, white)
    while not game.is_over():
        game.play(players[game.to_move].move(game))
    return game


def test_a_seed_makes_a_game_between_players_reproducible():
    first = play_game(bc.ai.Player(level=2, seed=3), bc.ai.Player(level=4, seed=4), bc.Reversi(size=6))
    again = play_game(bc.ai.Player(level=2, seed=3), bc.ai.Player(level=4, seed=4), bc.Reversi(size=6))
    other = play_game(bc.ai.Player(level=2, seed=5), bc.ai.Player(level=4, seed=4), bc.Reversi(size=6))
    assert first.history == again.history
    assert first.history != other.history  # the seed is what the noise is drawn from


def test_the_lowest_level_plays_plausibly_not_randomly():
    # Level 1 against uniformly random moves on Reversi 6x6, colours alternating.
    wins = 0
    for g in range(10):
        level = bc.ai.Player(level=1, seed=g)
        game = bc.Reversi(size=6)
        while not game.is_over():
            if game.to_move == g % 2:
                game.play(level.move(game))
            else:
                game.play(game.random_move(seed=1000 + g * 100 + len(game.history)))
        black, white = game.score()
        wins += (black > white) if g % 2 == 0 else (white > black)
    assert wins >= 8


def test_threads_find_the_same_exact_value():
    game = bc.Cephalopod(rows=2, cols=3)
    assert bc.ai.solve(game, threads=2).score == bc.ai.solve(game).score == -2


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "boardcore.cli", *args], capture_output=True, text=True, timeout=120)


def test_the_command_line_solves_and_analyses():
    solved = run_cli("solve", "reversi", "4 ..../.wb./.bw./.... b")
    assert solved.returncode == 0, solved.stderr
    assert "Black to move: loss by 10 (-10)" in solved.stdout
    assert "optimal moves: b1 a2 d3 c4" in solved.stdout
    sized = run_cli("solve", "cephalopod", "2x3 .../... b", "--table-mb", "2")
    assert sized.returncode == 0 and "White to move" not in sized.stdout and "loss by 2 (-2)" in sized.stdout
    drawn = run_cli("solve", "cephalopod", "2x2 ../.. b")
    assert "Black to move: draw (+0)" in drawn.stdout
    refused = run_cli("solve", "cephalopod", "2x3 .../... b", "--table-mb", "0")
    assert refused.returncode == 2 and "--table-mb" in refused.stderr
    analysed = run_cli("analyse", "cephalopod", "2x3 .../... b", "--depth", "2")
    assert analysed.returncode == 0, analysed.stderr
    lines = analysed.stdout.splitlines()
    assert lines[0].startswith("depth   1") and lines[1].startswith("depth   2") and lines[-1].startswith("best move")


def test_the_command_line_refuses_a_finished_position():
    finished = run_cli("solve", "cephalopod", "2x2 1b1b/1b1b w")
    assert finished.returncode == 2 and "over" in finished.stderr


def test_engine_players_play_from_the_command_line():
    played = run_cli("selfplay", "reversi", "--size", "4", "--games", "2", "--black", "engine:2", "--white", "engine:1")
    assert played.returncode == 0, played.stderr
    assert "engine:2" in played.stdout and "engine:1" in played.stdout


def test_the_guided_search_takes_a_time_limit_like_the_other_searches():
    result = bc.mcts.search(bc.Reversi(size=6), iterations=10**12, time_limit=0.05)
    assert 0 < result.simulations < 10**12 and result.action is not None
    for bad in (0, -1.0, float("inf")):
        with pytest.raises(ValueError, match="time_limit"):
            bc.mcts.search(bc.Reversi(size=6), iterations=10, time_limit=bad)


@pytest.mark.parametrize("name", harness.ENGINES)
def test_each_game_ships_a_learned_evaluation_that_the_search_uses(name):
    learned = bc.ai.evaluator(name)
    game = harness.ENGINES[name]()
    assert learned.game == name and len(bc.ai.features(game)) == len(bc.ai.feature_names(name))
    analysis = bc.ai.analyse(game, depth=2, evaluator=learned)
    assert game.is_legal(analysis.move)
    # The search's estimate at depth 1 is the best child's evaluation, in points.
    best = max(-learned.margin(child) for child in children(game))
    assert bc.ai.analyse(game, depth=1, evaluator=learned).score == pytest.approx(best, abs=0.011)


def test_analyse_solve_and_player_share_one_default_evaluation():
    # After f5 d6 c3 d3 c4 at depth 8 the piece count says -1.0 and b3, the shipped evaluation
    # -1.08 and b5: analyse once searched by the piece count while documented to use the latter.
    game = bc.Reversi()
    for move in ["f5", "d6", "c3", "d3", "c4"]:
        game.play(move)
    shipped = bc.ai.analyse(game, depth=8, evaluator=bc.ai.evaluator(game))
    default = bc.ai.analyse(game, depth=8)
    assert (default.score, default.move) == (shipped.score, shipped.move)
    assert bc.ai.Player(depth=8).analyse(game).score == shipped.score
    material = bc.ai.analyse(game, depth=8, evaluator="material")
    assert material.score == float(round(material.score))  # a disc count: whole points
    assert bc.ai._resolved(game, None) is bc.ai._resolved(game.copy(), None)


def test_an_unknown_evaluator_name_is_refused_by_every_search():
    for call in (
        lambda: bc.ai.analyse(bc.Reversi(), depth=1, evaluator="materal"),
        lambda: bc.ai.Player(depth=1, evaluator="materal"),
    ):
        with pytest.raises(ValueError, match="material"):
            call()


def children(game):
    for move in game.legal_moves()[:200]:
        child = game.copy()
        child.play(move)
        yield child


def test_an_evaluator_is_refused_for_another_game_and_bad_weights_are_refused():
    with pytest.raises(ValueError, match="for reversi, not rive"):
        bc.ai.analyse(bc.Rive(), depth=1, evaluator=bc.ai.evaluator("reversi"))
    with pytest.raises(ValueError, match="weights"):
        bc.ai.Evaluator("reversi", [1.0, 2.0])
    with pytest.raises(ValueError, match="finite"):
        phases = bc._boardcore.phase(bc.Cephalopod())[1]
        bc.ai.Evaluator("cephalopod", [float("nan")] * phases * (len(bc.ai.feature_names("cephalopod")) + 1))
    with pytest.raises(TypeError, match="evaluator"):
        bc.ai.analyse(bc.Reversi(), depth=1, evaluator=lambda obs, masks: None)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("position", "score", "best"),
    [
        ("exact 122/2332/23132/2332/221 b", -2, {"b4", "d1"}),
        ("up-to 112/1221/12121/1221/211 b", -2, {"a3", "b2", "b3", "c2", "c4", "d2", "d3", "e1"}),
    ],
)
def test_nineteen_cell_strands_layouts_have_their_solved_values(position, score, best):
    analysis = bc.ai.solve(bc.Strands.from_position(position))
    assert analysis.score == score and {str(m) for m in analysis.best_moves} == best


@pytest.mark.slow
def test_reversi_6x6_with_a_corner_hole_is_a_one_disc_win_for_black():
    analysis = bc.ai.solve(bc.Reversi(size=6, blocked=["a1"]))  # about 8 minutes (docs/solved.md)
    assert analysis.score == 1 and {str(m) for m in analysis.best_moves} == {"d5", "e4"}


@pytest.mark.parametrize("game", [bc.Reversi(size=6), bc.Cephalopod(), bc.Rive(), bc.Strands()], ids=repr)
def test_the_learned_evaluation_guides_mcts_natively(game):
    learned = bc.ai.evaluator(game)
    result = bc.mcts.search(game, 64, evaluator=learned, seed=3)
    assert result.action in game.actions().legal_actions()
    assert -1 <= result.value <= 1 and result.simulations == 64
    # Reproducible, and its own search: the priors and values differ from random rollouts'.
    assert bc.mcts.search(game, 64, evaluator=learned, seed=3).visits.tolist() == result.visits.tolist()
    assert bc.mcts.search(game, 64, seed=3).visits.tolist() != result.visits.tolist()


def test_mcts_refuses_another_games_learned_evaluation_and_changes_nothing():
    game = bc.Reversi()
    game.play("d3")
    before = game.copy()
    with pytest.raises(ValueError, match="for rive, not reversi"):
        bc.mcts.search(game, 8, evaluator=bc.ai.evaluator("rive"))
    assert game == before and len(game.history) == 1


def test_selfplay_takes_the_native_evaluator():
    data = bc.mcts.selfplay("reversi", {"size": 6}, evaluator=bc.ai.evaluator("reversi"), games=2, iterations=16)
    assert len(data.games) == 2 and all(g.is_over() for g in data.games)


def test_the_strongest_strands_player_builds_its_turn_over_the_step_form():
    # Alpha-beta over Strands' compound turns loses to a rollout search cell by cell
    # (docs/design.md), so the timed player's turn comes from the step form.
    for game, seed in zip(positions(bc.Strands(), 3, seed=11), (0, 7, 2**64 - 1), strict=True):
        before = game.position()
        analysis = bc.ai.Player(time_limit=0.05, seed=seed).analyse(game)
        assert game.is_legal(analysis.move) and analysis.pv == [analysis.move] == analysis.best_moves
        assert not analysis.exact and game.position() == before


def test_near_the_end_the_strongest_strands_player_plays_a_proved_move():
    game = bc.Strands(layout="hex4")
    while len(game.cells()) - len([c for c in game.cells() if game.piece_at(c) is not None]) > 8:
        game.play(game.random_move(seed=len(game.history)))
    analysis = bc.ai.Player(time_limit=2.0).analyse(game)
    solved = bc.ai.solve(game)
    assert analysis.exact and analysis.score == solved.score
    assert str(analysis.move) in {str(m) for m in solved.best_moves}


@pytest.mark.parametrize("threading", ["split", "lazy"])
def test_both_ways_of_sharing_the_threads_solve_to_the_same_value(threading):
    game = bc.Reversi(size=6)
    for ply in range(4):
        game.play(game.random_move(seed=ply))
    one = bc.ai.analyse(game, depth=6, threads=1)
    two = bc.ai.analyse(game, depth=6, threads=2, threading=threading)
    assert two.depth == 6 and game.is_legal(two.move)
    if threading == "split":
        # The root split's values do not depend on the threads (docs/engine.md, "Threads"); lazy
        # SMP's helpers search deeper and share the table, so its depth-6 estimate may differ.
        assert two.score == one.score
    near_end = harness_endgame()
    assert bc.ai.solve(near_end, threads=2, threading=threading).score == bc.ai.solve(near_end).score


def harness_endgame():
    """A Reversi 6x6 position 14 empties from the end, reached by a seeded random game."""
    game = bc.Reversi(size=6)
    while sum(game.piece_at(cell) is None for cell in game.cells()) > 14:
        game.play(game.random_move(seed=len(game.history)))
    return game


def test_an_unknown_way_of_sharing_the_threads_is_refused():
    with pytest.raises(ValueError, match="threading must be 'split' or 'lazy', got 'smp'"):
        bc.ai.analyse(bc.Reversi(), depth=2, threads=2, threading="smp")


def test_a_search_reports_its_results_by_name():
    from boardcore._boardcore import search_position

    report = search_position(bc.Reversi(size=6), depth=3)
    assert report.depth == 3 and report.best == report.pv[0] and report.best_moves == [report.best]
    assert [it.depth for it in report.iterations] == [1, 2, 3] and report.iterations[-1].nodes <= report.nodes
