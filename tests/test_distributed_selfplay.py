"""bc.distributed.selfplay on a real local Ray instance (started here, nothing mocked): the data
is the concatenation of the local chunks whatever the number of workers, on every game, with an
evaluator and without; a worker killed mid-run (SIGKILL) is replayed to the same data; a run
joining a real `ray start` cluster after this process had a local instance of its own works; bad
arguments are refused before anything starts."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading

import boardcore as bc
import harness
import numpy as np
import pytest

ray = pytest.importorskip("ray")

import boardcore.distributed  # noqa: E402 -- after the skip: it needs no Ray to import, but is Ray's
from boardcore.distributed._cluster import AUTH_MODE, restore_auth_mode  # noqa: E402
from boardcore.distributed.selfplay import chunk_seed  # noqa: E402
from raycluster import LocalCluster  # noqa: E402

GAMES = harness.SMALL_GAMES
SMALL = {"iterations": 6, "temperature_moves": 4}


class TinyNet:
    """A fixed random linear network in numpy: logits and tanh values from the flattened
    observation, its weights drawn from ``seed`` for the shapes it is given (so it needs no
    state, and every process computes the same answers)."""

    def __init__(self, seed: int = 5) -> None:
        self.seed = seed

    def __call__(self, observations, masks):
        x = observations.reshape(len(observations), -1)
        rng = np.random.default_rng(self.seed)
        weights = rng.standard_normal((x.shape[1], masks.shape[1] + 1)).astype(np.float32) * 0.1
        out = x @ weights
        return out[:, :-1], np.tanh(out[:, -1])


class KillsItsWorkerOnce(TinyNet):
    """TinyNet, except that the first call in a Ray worker process (not in this test's own)
    SIGKILLs that process, once: the marker file says it was done, and by whom."""

    def __init__(self, marker: str) -> None:
        super().__init__()
        self.marker = marker
        self.driver = os.getpid()

    def __call__(self, observations, masks):
        if os.getpid() != self.driver and not os.path.exists(self.marker):
            with open(self.marker, "w") as file:
                file.write(str(os.getpid()))
            os.kill(os.getpid(), signal.SIGKILL)
        return super().__call__(observations, masks)


def fails(observations, masks):
    raise ArithmeticError("the model failed")


@pytest.fixture(scope="module")
def local_ray():
    """A Ray instance of 2 CPUs for this module ("local": never another helper's cluster). The
    test module's evaluators travel by value: Ray's workers cannot import a test module. A local
    instance turns on token authentication for the whole process, and the later modules join
    clusters that have none: the mode is put back as boardcore's own connect() does."""
    auth_mode = os.environ.get(AUTH_MODE)
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="WARNING")
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    yield
    ray.cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
    ray.shutdown()
    restore_auth_mode(ray, auth_mode)


@pytest.fixture(scope="module")
def cluster():
    """A real 2-CPU cluster (`ray start` nodes, tests/raycluster.py) that this process never joins:
    the drivers that use it are subprocesses, each a process of its own as a user's would be."""
    with LocalCluster(cpus=2) as running:
        yield running


def local_chunks(game, variant, games, chunk_games, seed, **settings) -> bc.mcts.SelfPlayData:
    """What the distributed run must give: each chunk played here, concatenated."""
    parts = [
        bc.mcts.selfplay(game, variant, games=min(chunk_games, games - first), seed=chunk_seed(seed, chunk), **settings)
        for chunk, first in enumerate(range(0, games, chunk_games))
    ]
    return bc.mcts.SelfPlayData.concatenate(parts)


def assert_same_data(a: bc.mcts.SelfPlayData, b: bc.mcts.SelfPlayData) -> None:
    assert a.records == b.records and a.winners == b.winners
    for field in ("observations", "masks", "policies", "players", "outcomes", "game_ids", "move_numbers", "actions"):
        x, y = getattr(a, field), getattr(b, field)
        assert x.dtype == y.dtype and x.shape == y.shape, field
        np.testing.assert_array_equal(x, y, err_msg=field)


# Refusals first: they run before the module's Ray instance exists, and must not start one.


@pytest.mark.parametrize(
    ("arguments", "error", "message"),
    [
        ({"game": "chess"}, ValueError, "game must be"),
        ({"game": bc.Reversi}, TypeError, "pass the game's name"),
        ({"variant": {"size": 5}}, ValueError, "size"),
        ({"variant": {"board": "hex3"}}, TypeError, "board"),
        ({"games": 0}, ValueError, "games must be an integer from 1"),
        ({"games": 2.0}, ValueError, "games must be an integer"),
        ({"games": True}, ValueError, "games must be an integer"),
        ({"chunk_games": 0}, ValueError, "chunk_games must be an integer from 1 to 65536"),
        ({"chunk_games": 1 << 17}, ValueError, "chunk_games"),
        ({"workers": 0}, ValueError, "workers must be an integer from 1"),
        ({"workers": "2"}, ValueError, "workers must be an integer"),
        ({"threads_per_worker": 0}, ValueError, "threads_per_worker"),
        ({"seed": -1}, ValueError, "seed must be an integer from 0 to"),
        ({"iterations": -1}, ValueError, "iterations"),
        ({"c_puct": float("nan")}, ValueError, "c_puct"),
        ({"temperature": -1.0}, ValueError, "temperature"),
        ({"evaluator": 42}, TypeError, "evaluator must have an evaluate"),
        ({"player": "human"}, ValueError, "computer players"),
        ({"player": "robot"}, ValueError, "player must be"),
        ({"player": ("random",)}, ValueError, "player must be"),
        ({"player": 3}, ValueError, "player must be"),
        ({"player": "random", "iterations": 50}, ValueError, "search settings are for player='search'"),
        ({"player": "random", "evaluator": TinyNet()}, ValueError, "evaluator"),
        ({"progress": "yes"}, TypeError, "progress"),
        ({"address": 7}, TypeError, "address"),
    ],
)
def test_bad_arguments_are_refused_before_anything_starts(arguments, error, message):
    was_running = ray.is_initialized()
    call = {"game": "reversi", "variant": {"size": 6}, "games": 2, **arguments}
    with pytest.raises(error, match=message):
        bc.distributed.selfplay(call.pop("game"), call.pop("variant"), **call)
    assert ray.is_initialized() == was_running


def test_an_evaluator_cloudpickle_cannot_ship_is_refused_before_anything_starts():
    class Locked(TinyNet):
        def __init__(self) -> None:
            super().__init__()
            self.lock = threading.Lock()

    was_running = ray.is_initialized()
    with pytest.raises(TypeError, match="picklable by cloudpickle"):
        bc.distributed.selfplay("reversi", {"size": 6}, games=2, evaluator=Locked())
    assert ray.is_initialized() == was_running


def test_the_same_seed_gives_the_same_data_on_one_or_two_workers(local_ray, capsys):
    settings = {"evaluator": TinyNet(), **SMALL}
    one = bc.distributed.selfplay(
        "reversi", GAMES["reversi"], games=5, chunk_games=2, seed=11, workers=1, progress=True, **settings
    )
    bar = capsys.readouterr().err
    assert "5/5" in bar and "games/s" in bar and "ETA" in bar
    two = bc.distributed.selfplay(
        "reversi", GAMES["reversi"], games=5, chunk_games=2, seed=11, workers=2, progress=False, **settings
    )
    assert "games/s" not in capsys.readouterr().err
    assert_same_data(one, two)
    assert_same_data(one, local_chunks("reversi", GAMES["reversi"], 5, 2, 11, **settings))
    assert len(one.games) == 5 and sorted(set(one.game_ids.tolist())) == [0, 1, 2, 3, 4]
    other = bc.distributed.selfplay("reversi", GAMES["reversi"], games=5, chunk_games=2, seed=12, **settings)
    assert other.records != one.records


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("evaluator", [TinyNet(), None], ids=["numpy-net", "rollouts"])
def test_every_game_is_the_concatenation_of_its_local_chunks(local_ray, name, evaluator):
    settings = {"evaluator": evaluator, **SMALL}
    data = bc.distributed.selfplay(name, GAMES[name], games=3, chunk_games=2, seed=4, workers=2, **settings)
    assert_same_data(data, local_chunks(name, GAMES[name], 3, 2, 4, **settings))
    assert all(game.is_over() for game in data.games)


def test_a_worker_killed_mid_run_is_replayed_to_the_same_data(local_ray, tmp_path):
    marker = tmp_path / "killed"
    settings = {"evaluator": KillsItsWorkerOnce(str(marker)), **SMALL}
    data = bc.distributed.selfplay(
        "cephalopod", GAMES["cephalopod"], games=6, chunk_games=2, seed=9, workers=2, **settings
    )
    killed = int(marker.read_text())  # the kill happened, in a worker process
    assert killed != os.getpid()
    assert_same_data(
        data, local_chunks("cephalopod", GAMES["cephalopod"], 6, 2, 9, **{**settings, "evaluator": TinyNet()})
    )


# perft with no address (a local instance of its own, started and shut down), then divide and
# selfplay on the cluster, all in one driver: the local instance turned token authentication on
# for the process and left it on, and selfplay's actors on the cluster (which has none) were
# then destroyed as the driver's calls were refused ("a self-play worker died more than 4 times").
AFTER_PERFT = """
import json, os, sys
import boardcore as bc, boardcore.distributed
address = sys.argv[1]
counted = bc.distributed.perft(bc.Reversi(), 6, unit_seconds=0.05, progress=False)
auth_mode = os.environ.get("RAY_AUTH_MODE")
divided = bc.distributed.divide(bc.Reversi(), 5, unit_seconds=0.05, progress=False, address=address)
data = bc.distributed.selfplay("reversi", {"size": 6}, games=4, chunk_games=2, seed=3, workers=2,
                               iterations=6, temperature_moves=4, address=address)
print(json.dumps([counted, auth_mode, divided, data.records, data.winners]))
"""


def test_selfplay_on_a_cluster_after_perft_and_divide_in_the_same_driver(cluster, tmp_path):
    # Ray's default authentication mode (unset), as in a user's shell: the mode that changed.
    env = {key: value for key, value in os.environ.items() if key not in ("RAY_AUTH_MODE", "RAY_ADDRESS")}
    done = subprocess.run(
        [sys.executable, "-c", AFTER_PERFT, cluster.address],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        env=env,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    counted, auth_mode, divided, records, winners = json.loads(done.stdout.splitlines()[-1])
    assert counted == bc.Reversi().perft(6) and divided == bc.Reversi().divide(5)
    assert auth_mode is None  # the local instance's authentication mode ended with it
    local = local_chunks("reversi", {"size": 6}, 4, 2, 3, **SMALL)
    assert records == local.records and winners == local.winners


def test_the_evaluators_exception_is_raised_as_it_is(local_ray):
    with pytest.raises(ArithmeticError, match="the model failed"):
        bc.distributed.selfplay("reversi", GAMES["reversi"], games=2, chunk_games=1, evaluator=fails, iterations=2)


def test_the_move_players_play_the_command_lines_games_on_any_number_of_workers(local_ray):
    from boardcore.cli.players import move_seed

    runs = [
        bc.distributed.selfplay(
            "cephalopod",
            GAMES["cephalopod"],
            games=3,
            chunk_games=2,
            seed=2,
            workers=workers,
            player=("mcts:10", "random"),
        )
        for workers in (1, 2)
    ]
    assert runs[0].records == runs[1].records and len(runs[0].games) == 3
    assert len(runs[0]) == 0 and runs[0].masks.shape[1] == bc.Cephalopod(**GAMES["cephalopod"]).actions().num_actions
    # Game i is the one `boardcore selfplay` plays: each move from move_seed(seed, i, ply).
    game = bc.Cephalopod(**GAMES["cephalopod"])
    while not game.is_over():
        seed = move_seed(2, 2, len(game.history))
        game.play(bc.mcts.best_move(game, 10, seed=seed) if game.to_move == 0 else game.random_move(seed))
    assert runs[0].records[2] == game.record()


def test_chunk_seeds_are_splitmix64_outputs():
    # SplitMix64 from state 0: its first two outputs (the published test vector).
    assert [chunk_seed(0, 0), chunk_seed(0, 1)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4]
    assert chunk_seed(2**64 - 1, 3) != chunk_seed(0, 3)


def test_without_ray_the_error_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError
    with pytest.raises(ImportError, match=r"pip install 'boardcore\[ray\]'"):
        bc.distributed.selfplay("reversi", {"size": 6}, games=2)
