"""Objects shared between threads (issue 11, defect 9; docs/design.md, "Threads"), and the MCTS
budget rules (defects 3 and 7)."""

import contextlib
import signal
import threading
import time

import boardcore as bc
import numpy as np
import pytest

GAMES = {
    "reversi": lambda: bc.Reversi(),
    "cephalopod": lambda: bc.Cephalopod(),
    "rive": lambda: bc.Rive(board="hex3"),  # small: the test compares 300 playouts from 200 positions
    "strands": lambda: bc.Strands(layout="hex4"),
}


def run_together(*jobs):
    """Runs the jobs on threads at once; returns what each raised (None when nothing)."""
    errors = [None] * len(jobs)
    start = threading.Barrier(len(jobs))

    def run(i, job):
        try:
            start.wait()
            job()
        except BaseException as e:
            errors[i] = e

    threads = [threading.Thread(target=run, args=(i, job)) for i, job in enumerate(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    return errors


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_plays_on_while_another_thread_runs_a_long_call_on_it(name):
    game = GAMES[name]()
    start = game.position()
    results = {}

    def long_calls():
        results["perft"] = game.perft(2)
        results["playouts"] = game.playouts(300, seed=1)

    def play_and_undo():
        for i in range(200):
            game.play(game.random_move(seed=i))
            game.legal_moves()
            game.undo()

    assert run_together(long_calls, play_and_undo) == [None, None]
    assert game.position() == start
    # Each long call answers for a position the game was in when the call began: the start, or
    # the start and one of the moves played meanwhile.
    seen = [GAMES[name]()]
    for i in range(200):
        seen.append(GAMES[name]())
        seen[-1].play(seen[-1].random_move(seed=i))
    assert results["perft"] in [g.perft(2) for g in seen]
    assert results["playouts"] in [g.playouts(300, seed=1) for g in seen]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_searcher_shared_by_threads_runs_their_calls_in_turn(name):
    searcher = bc.mcts.Searcher(GAMES[name](), seed=3)
    results = []
    errors = run_together(
        lambda: results.append(searcher.search(iterations=300)),
        lambda: results.append(searcher.search(iterations=200)),
        lambda: [searcher.root_visits for _ in range(50)],
    )
    assert errors == [None, None, None]
    assert sorted(r.iterations for r in results) == [200, 300]
    assert searcher.root_visits == 500


def test_a_vector_env_shared_by_threads_steps_once_per_call():
    env = bc.VectorEnv("reversi", 64, seed=5)
    twin = bc.VectorEnv("reversi", 64, seed=5)
    pair = threading.Lock()  # drawing actions and stepping with them is the caller's transaction
    stepping = threading.Event()

    def steps():
        for _ in range(20):
            with pair:
                env.step(env.sample_actions())
        stepping.set()

    def draws_meanwhile():
        # Unsynchronised calls on the same env while it steps: they wait their turn, never fail.
        while not stepping.is_set():
            assert env.num_actions == twin.num_actions

    assert run_together(steps, steps, draws_meanwhile) == [None, None, None]
    for _ in range(40):
        twin.step(twin.sample_actions())
    # Forty whole steps each way: the same envs and streams (each step saw one consistent state).
    assert np.array_equal(env.sample_actions(), twin.sample_actions())


def test_a_step_state_shared_by_threads_applies_each_action_atomically():
    state = bc.Reversi(size=8).actions()

    class SlowIndex:
        """An action whose __index__ runs Python code, letting other threads in."""

        def __init__(self, value):
            self.value = value

        def __index__(self):
            for _ in range(1000):
                pass
            return self.value

    def apply():
        for _ in range(30):
            legal = state.legal_actions()
            if not legal:
                return
            # The other thread may have played first: an IllegalMoveError is fine, never "already borrowed".
            with contextlib.suppress(bc.IllegalMoveError):
                state.apply_action(SlowIndex(legal[0]))

    def read():
        for _ in range(300):
            state.legal_actions()
            state.observation()
            state.action_name(SlowIndex(0))

    assert run_together(apply, read, apply) == [None, None, None]


@contextlib.contextmanager
def alarm_every(seconds, handler):
    """Runs ``handler`` from SIGALRM every ``seconds`` while the block runs (in the main thread,
    whenever a running call polls for signals)."""
    previous = signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, seconds, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def reentrant_call_from_a_signal_handler(busy_probe, reentrant_call, long_call, attempts=50):
    """Runs ``long_call`` (up to ``attempts`` times) while a SIGALRM handler makes
    ``reentrant_call`` on the same object from the same thread. The handler first makes
    ``busy_probe``, a call that changes nothing: if it succeeds, the long call is not under way
    (it has not started, or it has ended) and the handler waits for the next tick. Returns the
    error the re-entrant call raised, and how many long calls ran."""
    raised = []

    def on_alarm(signum, frame):
        if raised:
            return
        try:
            busy_probe()
        except bc.ConcurrentUseError:
            pass  # inside the long call: now the real re-entrant call
        else:
            return
        try:
            reentrant_call()
        except bc.ConcurrentUseError as e:
            raised.append(e)

    calls = 0
    with alarm_every(0.01, on_alarm):
        while not raised and calls < attempts:
            long_call()
            calls += 1
    assert raised, "no signal arrived during a long call"
    return raised[0], calls


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs SIGALRM")
def test_a_searcher_called_from_a_signal_handler_during_its_search_raises_concurrent_use_error():
    game = bc.Reversi()
    searcher = bc.mcts.Searcher(game, seed=3)
    iterations = []
    error, _ = reentrant_call_from_a_signal_handler(
        busy_probe=lambda: searcher.root_visits,
        reentrant_call=lambda: searcher.search(iterations=5),
        long_call=lambda: iterations.append(searcher.search(time_limit=0.3).iterations),
    )
    assert isinstance(error, RuntimeError)
    assert "ReversiSearcher.search" in str(error) and "same object" in str(error)
    # The re-entrant search added nothing: the root saw exactly the long searches' iterations.
    assert searcher.root_visits == sum(iterations)
    assert searcher.game == game


def envs_for_a_step_of(seconds, at_most=1 << 16):
    """Reversi envs enough that one step from the start takes about ``seconds`` here, measured
    now (at least 1,024; at most ``at_most``, to bound memory)."""
    n = 1024
    env = bc.VectorEnv("reversi", n, seed=5)
    actions = env.sample_actions()
    start = time.perf_counter()
    env.step(actions)
    took = max(time.perf_counter() - start, 1e-6)
    return max(n, min(at_most, int(n * seconds / took)))


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs SIGALRM")
def test_a_vector_env_stepped_from_a_signal_handler_during_a_step_raises_concurrent_use_error():
    # The handler gets in only at a poll, which comes every 25 ms during a step: enough envs that
    # a step lasts several polls on this machine now, fast or loaded (a fixed size could end
    # before its first poll on a fast machine, and the handler never got in).
    n = envs_for_a_step_of(0.15)
    env = bc.VectorEnv("reversi", n, seed=5)
    twin = bc.VectorEnv("reversi", n, seed=5)
    first_actions = bc.VectorEnv("reversi", n, seed=5).sample_actions()
    error, steps = reentrant_call_from_a_signal_handler(
        busy_probe=env.to_move,
        reentrant_call=lambda: env.step(first_actions),
        long_call=lambda: env.step(env.sample_actions()),
    )
    assert isinstance(error, RuntimeError)
    assert "VectorEnv.step" in str(error) and "same object" in str(error)
    # The env made exactly its own steps: the twin, stepped as often without signals, matches.
    for _ in range(steps):
        twin.step(twin.sample_actions())
    assert np.array_equal(env.to_move(), twin.to_move())
    assert np.array_equal(env.sample_actions(), twin.sample_actions())


def test_concurrent_use_error_is_a_runtime_error_exported_by_the_package():
    assert issubclass(bc.ConcurrentUseError, RuntimeError)
    assert bc.errors.ConcurrentUseError is bc.ConcurrentUseError


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_tiny_time_limit_still_gives_a_legal_move(name):
    game = GAMES[name]()
    move = bc.mcts.best_move(game, time_limit=1e-9)
    assert move is not None and game.is_legal(move)
    threaded = bc.mcts.search_moves(game, time_limit=1e-9, threads=2)
    assert threaded.iterations >= 2 and game.is_legal(threaded.move)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_full_tree_stops_growing_says_so_and_still_gives_a_legal_move(name):
    game = GAMES[name]()
    searcher = bc.mcts.Searcher(game, seed=1, max_nodes=200)
    full = searcher.search(iterations=3000)
    assert full.tree_full
    assert full.iterations == 3000
    assert full.nodes <= 200
    assert game.is_legal(full.move)
    again = searcher.search(iterations=500)
    assert again.nodes == full.nodes  # no growth
    assert not bc.mcts.search_moves(game, iterations=50, seed=1).tree_full


@pytest.mark.parametrize("bad", [0, -1, 2**40, 1.5, "many", True])
def test_max_nodes_must_be_a_positive_integer(bad):
    with pytest.raises(ValueError, match="max_nodes"):
        bc.mcts.Searcher(bc.Reversi(), max_nodes=bad)
