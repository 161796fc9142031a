"""A time limit is never an interrupt (issue 36; docs/engine.md, "Limits").

KeyboardInterrupt means the user asked to quit: `bc.ai` raises it only when Python's own signal
check raised it. Any other stop is a limit, answered with the best move found so far (a live
game always gets a legal move) or, for `solve`, with `SolveTimeout`; or it is the search's real
error (a capture too large to count), raised as itself. Nothing here measures time: the bench
`benches/bench_time_limits.py` reports how far calls overshoot their limits.
"""

import itertools
import subprocess
import sys
import textwrap
import threading

import boardcore as bc
import numpy as np
import pytest

# The positions where time-limited calls once raised KeyboardInterrupt, and every game's start.
RIVE_HEX6_CAPTURES = (
    "hex6 .w.ww./bbbb..w/.bww.b.b/bb.wwbb.b/.w....w.bb/wb.bwbb.www/b..b...bbw/.b.w..bww/bw.wb.ww/bb...bw/bwwwww b"
)
TOO_WIDE_HEX7 = (
    "hex7 .b.b.w./.b.b.w.w/bb.b..b.b/ww...bb.ww/www.wbb.bbb/...bwbw.wbww/bbbb.wwb.bwwb/"
    "wb.wb.w.wbww/wb.ww.w.www/bb.bbb.wwb/..b.b.wbb/w.bw.wbb/w...wbw w"
)


def middlegame(game, plies: int, seed: int):
    for ply in range(plies):
        if game.is_over():
            break
        game.play(game.random_move(seed=seed + ply))
    return game


def positions():
    strands_hex7 = bc.Strands(layout="hex7")
    strands_hex7.play("d4")
    return [
        bc.Reversi(),
        bc.Reversi(size="octagon"),
        middlegame(bc.Reversi(size=10), 30, seed=1),
        middlegame(bc.Cephalopod(rows=5, cols=5), 12, seed=2),
        middlegame(bc.Rive(board="hex5"), 30, seed=3),
        bc.Rive.from_position(RIVE_HEX6_CAPTURES),
        middlegame(bc.Strands(layout="hex6"), 6, seed=4),
        strands_hex7,
    ]


@pytest.fixture
def busy_cpu():
    """Another thread keeps a core busy (and contends for the GIL the calls' polls take)."""
    done = threading.Event()

    def spin():
        while not done.is_set():
            sum(range(1000))

    spinner = threading.Thread(target=spin, daemon=True)
    spinner.start()
    yield
    done.set()
    spinner.join()


LIMITS = (1e-6, 1e-5, 1e-4, 1e-3)


def test_a_thousand_tiny_limits_never_raise(busy_cpu):
    tiny_limits_never_raise(1_000)


@pytest.mark.slow
def test_ten_thousand_tiny_limits_never_raise(busy_cpu):
    # Each call waits for the GIL the spinning thread holds (Python switches every 5 ms), so
    # this takes minutes: the 10,000 calls run with -m slow, a thousand in every run.
    tiny_limits_never_raise(10_000)


def tiny_limits_never_raise(calls: int) -> None:
    """`calls` time-limited calls, every game, kind, limit and thread count in turn: each
    answers with a legal move (or `SolveTimeout` holding one), none raises anything else."""
    games = positions()
    kinds = ("analyse", "player", "solve")
    plan = itertools.islice(itertools.cycle(itertools.product(games, LIMITS, (1, 2), kinds)), calls)
    answered = 0
    for game, limit, threads, kind in plan:
        if kind == "analyse":
            move = bc.ai.analyse(game, time_limit=limit, threads=threads).move
        elif kind == "player":
            move = bc.ai.Player(time_limit=limit, threads=threads, seed=answered).move(game)
        else:
            try:
                move = bc.ai.solve(game, time_limit=limit, threads=threads).move
            except bc.ai.SolveTimeout as timeout:
                move = timeout.analysis.move
        assert game.is_legal(move), (game.position(), kind, limit, threads, move)
        answered += 1
    assert answered == calls


def test_a_limit_reached_while_listing_the_root_still_answers_with_a_legal_move():
    # Listing this position's captures takes longer than the limit: the search plays a quick
    # move rather than reporting an interrupt.
    game = bc.Rive.from_position(RIVE_HEX6_CAPTURES)
    analysis = bc.ai.analyse(game, time_limit=0.05)
    assert game.is_legal(analysis.move) and analysis.depth == 0 and not analysis.exact
    with pytest.raises(bc.ai.SolveTimeout) as timeout:
        bc.ai.solve(game, time_limit=0.05)
    assert game.is_legal(timeout.value.analysis.move)
    assert game.is_legal(bc.ai.Player(level=1).move(game))


def test_moves_too_many_to_list_still_give_a_timed_call_a_move():
    game = bc.Rive.from_position(TOO_WIDE_HEX7)
    for threads in (1, 2):
        assert game.is_legal(bc.ai.analyse(game, time_limit=0.1, threads=threads).move)
        assert game.is_legal(bc.ai.Player(time_limit=0.1, threads=threads).move(game))
    # Without a time limit there is no best-so-far to fall back on: the real error, not an interrupt.
    with pytest.raises(MemoryError, match="too wide to rank"):
        bc.ai.analyse(game, depth=1, threads=2)
    with pytest.raises(MemoryError, match="too wide to rank"):
        bc.ai.solve(game)


def test_a_timed_out_solve_reports_its_deepest_estimate():
    with pytest.raises(bc.ai.SolveTimeout) as timeout:
        bc.ai.solve(bc.Reversi(), time_limit=0.5)
    estimate = timeout.value.analysis
    assert estimate.depth >= 1 and estimate.iterations and estimate.nodes > 0
    assert isinstance(estimate.score, float) and not estimate.exact


def test_a_solve_reports_the_length_of_its_perfect_line_as_its_depth():
    solved = bc.ai.solve(bc.Reversi(size=4))
    assert solved.depth == len(solved.pv) <= 12
    assert solved.score == -10.0 and isinstance(solved.score, float)


def test_the_command_line_reports_an_unsolved_position_as_a_timeout_not_an_interrupt():
    ran = subprocess.run(
        [sys.executable, "-m", "boardcore.cli", "solve", "rive", RIVE_HEX6_CAPTURES, "--time", "0.2"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ran.returncode == 1, ran.stderr
    assert "not solved in 0.2 s" in ran.stdout and "interrupted" not in ran.stderr


def test_a_table_larger_than_the_machine_is_a_memory_error_and_the_interpreter_lives_on():
    child = textwrap.dedent(
        """
        import boardcore as bc
        for table_mb in (32769, 65536):
            try:
                bc.ai.solve(bc.Reversi(size=4), table_mb=table_mb)
            except MemoryError as e:
                print("refused:", e)
            else:
                print("solved")
        print("alive")
        """
    )
    ran = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    lines = ran.stdout.splitlines()
    assert lines[-1] == "alive"
    machine_bytes = _machine_bytes()
    if machine_bytes is None or machine_bytes >= 64 << 30:
        pytest.skip("this machine has 64 GiB or more: the largest table fits")
    # The size asked for, the size tried (rounded down to a power of two) and the machine's.
    assert lines[0].startswith("refused: the transposition table: 32769 MiB asked for, which may need 32 GiB"), lines
    assert lines[1].startswith("refused: the transposition table: 64 GiB asked for, which may need 64 GiB"), lines
    assert all("this machine's memory" in line for line in lines[:2])


def test_the_command_line_refuses_a_table_past_the_machine_with_a_message():
    if (_machine_bytes() or 1 << 62) >= 64 << 30:
        pytest.skip("the machine's memory is unknown or holds the largest table")
    ran = subprocess.run(
        [sys.executable, "-m", "boardcore.cli", "solve", "reversi", "4 ..../.wb./.bw./.... b", "--table-mb", "65536"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ran.returncode == 1 and "Traceback" not in ran.stderr, ran.stderr
    assert "boardcore: error: the transposition table: 64 GiB asked for" in ran.stderr


def test_a_path_count_capped_past_the_machine_is_refused_before_it_starts():
    game = bc.Cephalopod(rows=2, cols=2)
    if (_machine_bytes() or 1 << 62) >= 1 << 60:
        pytest.skip("the machine's memory is unknown or beyond any cap")
    for count in (lambda: game.count_paths(3, max_positions=2**60), lambda: game.path_totals(3, max_positions=2**60)):
        with pytest.raises(MemoryError, match=r"max_positions=1152921504606846976 asked for.*this machine's memory"):
            count()
    assert game.count_paths(3, max_positions=10**6).total() == game.perft(3)


def _machine_bytes():
    try:
        with open("/proc/meminfo") as info:
            for line in info:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def test_a_game_searched_in_one_thread_can_be_played_in_another():
    game = middlegame(bc.Reversi(), 10, seed=5)
    failures = []
    done = threading.Event()

    def play_and_undo():
        while not done.is_set():
            try:
                game.play(game.legal_moves()[0])
                game.undo()
            except Exception as e:  # "Already borrowed" was a RuntimeError
                failures.append(repr(e))

    player = threading.Thread(target=play_and_undo)
    player.start()
    try:
        for _ in range(20):
            bc.ai.analyse(game, time_limit=0.01)
            with pytest.raises(bc.ai.SolveTimeout):
                bc.ai.solve(game, time_limit=0.01)
    finally:
        done.set()
        player.join()
    assert failures == []


def test_more_threads_than_cores_still_answer_within_a_time_limit():
    game = middlegame(bc.Strands(layout="hex6"), 6, seed=6)
    for threads in (64, 1024):
        assert game.is_legal(bc.ai.analyse(game, time_limit=0.05, threads=threads).move)


def test_threads_none_is_the_default_of_one_thread():
    game = bc.Reversi(size=6)
    assert bc.mcts.search(game.actions(), 50, threads=None, seed=1).policy.tolist() == (
        bc.mcts.search(game.actions(), 50, seed=1).policy.tolist()
    )
    assert bc.ai.Player(threads=None).threads == 1


@pytest.mark.parametrize(
    "call, named",
    [
        (lambda g: bc.mcts.search(g.actions(), 50, threads="2"), "threads"),
        (lambda g: bc.mcts.search(g.actions(), 50, threads=0), "threads"),
        (lambda g: bc.ai.analyse(g, time_limit=np.bool_(True)), "time_limit"),
        (lambda g: bc.ai.analyse(g, time_limit=True), "time_limit"),
        (lambda g: bc.ai.Player(level=10**5000), "level"),
        (lambda g: bc.ai.Player(seed=10**5000), "seed"),
        (lambda g: bc.ai.Player(threads=0), "threads"),
        (lambda g: bc.ai.Player(time_limit=True), "time_limit"),
        (lambda g: bc.ai.Player(time_limit=np.bool_(True)), "time_limit"),
        (lambda g: bc.ai.Player(time_limit="1"), "time_limit"),
        (lambda g: bc.ai.Player(time_limit=10**400), "time_limit"),
    ],
)
def test_a_bad_argument_is_refused_by_name(call, named):
    game = bc.Reversi(size=6)
    before = game.position()
    with pytest.raises(ValueError, match=named):
        call(game)
    assert game.position() == before


def test_a_long_solve_reports_its_progress_and_a_report_can_stop_it():
    reports = []
    with pytest.raises(bc.ai.SolveTimeout):
        bc.ai.solve(bc.Reversi(), time_limit=1.6, progress=reports.append)
    assert reports, "a solve of more than a second reports every half second"
    solving = [r for r in reports if r.solving]
    assert solving and all(r.depth is None for r in solving)
    # The endgame solver's nodes count as it goes, not only when a root move is done.
    assert solving[-1].nodes > 0 and [r.nodes for r in reports] == sorted(r.nodes for r in reports)

    class Enough(Exception):
        pass

    def enough(report):
        raise Enough(report.seconds)

    game = bc.Reversi()
    with pytest.raises(Enough):
        bc.ai.solve(game, progress=enough)
    assert game.position() == bc.Reversi().position()
    with pytest.raises(TypeError, match="progress"):
        bc.ai.analyse(game, depth=1, progress="not callable")


def test_a_solve_at_the_terminal_warns_when_it_is_far_from_the_end_and_shows_its_progress(children):
    pytest.importorskip("pexpect")
    child = children.spawn(
        [sys.executable, "-m", "boardcore.cli", "solve", "reversi", "start"], encoding="utf-8", timeout=60, echo=False
    )
    child.expect(r"60 empty squares is far from the end.*--time")
    child.expect(r"solving: [\d,]+ nodes, \d+\.\d s")
    # Near the end it says nothing of the kind, and prints the answer.
    near = subprocess.run(
        [sys.executable, "-m", "boardcore.cli", "solve", "reversi", "4 ..../.wb./.bw./.... b"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert near.returncode == 0 and "far from the end" not in near.stderr
    assert "loss by 10 (-10)" in near.stdout


def test_a_tree_budget_past_the_machine_is_refused_before_the_search():
    if (_machine_bytes() or 1 << 62) >= 100 * 4_000_000_000:
        pytest.skip("the machine's memory is unknown or holds the largest budget")
    state = bc.Reversi(size=6).actions()
    with pytest.raises(MemoryError, match=r"max_nodes=4000000000 asked for.*this machine's memory"):
        bc.mcts.search(state, 10, max_nodes=4_000_000_000)
    with pytest.raises(MemoryError, match="max_nodes=4000000000"):
        bc.mcts.Searcher(bc.Reversi(size=6), iterations=10, max_nodes=4_000_000_000)
    assert bc.mcts.search(state, 10, max_nodes=1000).simulations == 10
