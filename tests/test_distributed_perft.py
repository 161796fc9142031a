"""Distributed perft on a real local Ray cluster (issue 15, items 3 and 5): `ray start` nodes run
as child processes of the tests (tests/raycluster.py), nothing mocked. Distributed perft and
divide equal the local counts on every game; a worker killed mid-run, a driver killed mid-run and
resumed, a torn last checkpoint line, and two nodes instead of one all give the exact count;
corrupted, foreign and non-checkpoint files are refused and left as they were."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import boardcore as bc
import pytest

ray = pytest.importorskip("ray")

import boardcore.distributed as distributed  # noqa: E402
from boardcore.distributed import checkpoint as ckpt  # noqa: E402
from processes import send_sigint  # noqa: E402
from raycluster import LocalCluster  # noqa: E402

# Units of about 50 ms: many units even in these small counts.
QUICK = {"unit_seconds": 0.05, "progress": False}


@pytest.fixture(scope="module")
def cluster():
    """A 2-CPU cluster, and this process connected to it: the calls below find Ray initialised
    and use that connection (connecting anew takes seconds a call); the driver subprocesses and
    the CLI connect by address."""
    with LocalCluster(cpus=2) as running:
        ray.init(address=running.address, log_to_driver=False, logging_level="ERROR")
        try:
            yield running
        finally:
            ray.shutdown()


def lines_of(path) -> list[dict]:
    with open(path) as file:
        return [json.loads(line) for line in file]


def units_of(path) -> list[int]:
    return [line["unit"] for line in lines_of(path)[1:]]


# (class, constructor arguments, depth, split): every game, several variants, each under a
# second locally; Strands' auto split would not split at depth 4 (one unit), so it is fixed there.
CASES = [
    ("Reversi", {}, 9, "auto"),
    ("Reversi", {"size": 6, "blocked": ["a2", "f1"]}, 8, "auto"),
    ("Cephalopod", {"rows": 3, "cols": 3}, 8, "auto"),
    ("Cephalopod", {"rows": 5, "cols": 5}, 5, "auto"),
    ("Rive", {"board": "hex3"}, 6, "auto"),
    ("Strands", {"layout": "hex4"}, 4, 2),
]


def case_id(case) -> str:
    name, kwargs, depth, split = case
    return name + "".join(f"-{k}={v}" for k, v in kwargs.items()) + f"-d{depth}-split{split}"


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_distributed_perft_and_divide_equal_the_local_counts(cluster, case):
    name, kwargs, depth, split = case
    game = getattr(bc, name)(**kwargs)
    assert distributed.perft(game, depth, address=cluster.address, split_depth=split, **QUICK) == game.perft(depth)
    divided = distributed.divide(game, depth, address=cluster.address, split_depth=split, **QUICK)
    assert divided == game.divide(depth)
    assert list(divided) == list(game.divide(depth))  # in move order


def test_free_passes_fixed_splits_and_several_threads(cluster):
    game = bc.Reversi(size=6)
    for move in ("d5", "e5", "f4"):  # towards positions where passes happen sooner
        if game.is_legal(move):
            game.play(move)
    for split in (0, 2, "auto"):
        for passes in (True, False):
            expected = game.perft(7, passes_count_as_ply=passes)
            counted = distributed.perft(
                game,
                7,
                address=cluster.address,
                split_depth=split,
                passes_count_as_ply=passes,
                threads_per_unit=2,
                **QUICK,
            )
            assert counted == expected, (split, passes)
    assert distributed.divide(game, 6, address=cluster.address, passes_count_as_ply=False, **QUICK) == game.divide(
        6, passes_count_as_ply=False
    )


def test_a_checkpointed_run_writes_every_unit_once_and_answers_again_from_the_file(cluster, tmp_path):
    path = tmp_path / "run.jsonl"
    game = bc.Reversi()
    seen = []
    assert (
        distributed.perft(game, 9, address=cluster.address, checkpoint=path, progress=seen.append, unit_seconds=0.05)
        == 3005288
    )
    header, *units = lines_of(path)
    assert header["format"] == ckpt.FORMAT and header["kind"] == "perft" and header["game"] == "Reversi"
    assert sorted(line["unit"] for line in units) == list(range(header["n_units"]))
    assert sum(line["leaves"][0] for line in units) == 3005288
    assert seen[-1].units_done == seen[-1].units_total == header["n_units"] and seen[-1].leaves == 3005288
    # Complete: the answer comes from the file, without a cluster (this address has none).
    before = path.read_bytes()
    assert distributed.perft(game, 9, address="127.0.0.2:1", checkpoint=path) == 3005288
    assert path.read_bytes() == before


def test_the_progress_bar_shows_units_of_the_total_leaves_per_second_and_an_eta(cluster, tmp_path, capsys):
    path = tmp_path / "bar.jsonl"
    game = bc.Reversi()
    assert distributed.perft(game, 9, address=cluster.address, checkpoint=path, unit_seconds=0.05, progress=True) == (
        3005288
    )
    n_units = lines_of(path)[0]["n_units"]
    bar = capsys.readouterr().err
    assert "\rperft(9) [" in bar and bar.endswith("\n")
    assert f" 0/{n_units} " in bar and f" {n_units}/{n_units} " in bar  # units done, of the total
    last = bar.rstrip("\n").split("\r")[-1]
    assert "M leaves/s" in last and ", ETA 0s" in last
    # Hidden with progress=False, whatever the environment asks.
    distributed.perft(game, 7, address=cluster.address, unit_seconds=0.05, progress=False)
    assert "perft(7)" not in capsys.readouterr().err


def test_split_depth_none_is_plain_perft_as_in_game_perft(cluster):
    """None meant "auto" here but plain perft (0) in game.perft: now it means 0 everywhere, so one
    unit (the game itself) for perft and one per root move for divide; "auto" stays the default."""
    game = bc.Reversi()
    seen = []
    assert distributed.perft(game, 7, address=cluster.address, split_depth=None, progress=seen.append) == 55092
    assert seen[-1].units_total == 1
    divided = []
    assert distributed.divide(game, 7, address=cluster.address, split_depth=None, progress=divided.append) == (
        game.divide(7)
    )
    assert divided[-1].units_total == len(game.legal_moves())
    auto = []
    distributed.perft(game, 9, address=cluster.address, progress=auto.append, unit_seconds=0.05)
    assert auto[-1].units_total > 1  # the default still splits
    assert auto[-1].unit_cpu_seconds > 0 and auto[-1].unit_wall_seconds > 0  # the units' own clocks


def test_a_worker_killed_mid_run_still_gives_the_exact_count(cluster, tmp_path):
    path = tmp_path / "run.jsonl"
    killed = []

    def kill_a_worker(info):
        # After the first unit is in the checkpoint, SIGKILL a worker that is running a unit.
        if info.units_done >= 1 and not killed:
            for pid in cluster.worker_pids("ray::_unit_task"):
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
                break

    game = bc.Reversi()
    counted = distributed.perft(
        game, 11, address=cluster.address, checkpoint=path, unit_seconds=0.05, progress=kill_a_worker
    )
    assert killed, "no worker was running a unit when the first unit finished"
    assert counted == game.perft(11, split_depth="auto", threads=2)
    units = units_of(path)
    assert sorted(units) == list(range(lines_of(path)[0]["n_units"]))


DRIVER = """
import sys, boardcore as bc, boardcore.distributed as d
print(d.perft(bc.Reversi(), 11, address=sys.argv[1], checkpoint=sys.argv[2], unit_seconds=0.02, progress=False))
"""


@pytest.mark.parametrize("stop", [signal.SIGKILL, signal.SIGINT], ids=["SIGKILL", "Ctrl-C"])
def test_a_driver_stopped_mid_run_resumes_from_its_checkpoint(cluster, children, tmp_path, stop):
    path = tmp_path / "run.jsonl"
    # Started with SIGINT at its default action, so that the Ctrl-C below arrives even where the
    # suite runs with SIGINT ignored; the children fixture ends the driver whatever the outcome.
    driver = children.start([sys.executable, "-c", DRIVER, cluster.address, str(path)], stdout=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while not (path.exists() and path.read_bytes().count(b"\n") >= 3):  # the header and two units
        assert driver.poll() is None, "the driver ended before it could be killed"
        assert time.monotonic() < deadline
        time.sleep(0.005)
    if stop == signal.SIGINT:  # Ctrl-C: the driver cancels its tasks and stops by itself
        send_sigint(driver.pid)
        assert driver.wait(timeout=60) != 0
    else:
        driver.send_signal(stop)
        driver.wait()
    header, *finished = lines_of(path) if path.read_bytes().endswith(b"\n") else lines_of_complete(path)
    assert 1 <= len(finished) < header["n_units"], "the driver was killed too late to test a resume"
    counted = distributed.perft(
        bc.Reversi(), 11, address=cluster.address, checkpoint=path, unit_seconds=0.02, progress=False
    )
    assert counted == bc.Reversi().perft(11, split_depth="auto", threads=2)
    assert sorted(units_of(path)) == list(range(header["n_units"]))


def lines_of_complete(path) -> list[dict]:
    """The complete lines of a checkpoint whose last line may be torn."""
    text = path.read_bytes()
    return [json.loads(line) for line in text[: text.rindex(b"\n") + 1].splitlines()]


@pytest.fixture(scope="module")
def finished(cluster, tmp_path_factory):
    """A complete checkpoint of divide(6) of 8x8 and the counts: the files the refusal tests spoil."""
    path = tmp_path_factory.mktemp("finished") / "divide.jsonl"
    counts = distributed.divide(bc.Reversi(), 6, address=cluster.address, checkpoint=path, **QUICK)
    return path.read_bytes(), counts


def test_a_torn_last_line_or_header_is_dropped_and_its_unit_counted_once(cluster, finished, tmp_path):
    text, counts = finished
    complete = text.splitlines(keepends=True)
    path = tmp_path / "torn.jsonl"
    path.write_bytes(b"".join(complete[:-1]) + complete[-1][:20])  # killed while writing the last line
    assert distributed.divide(bc.Reversi(), 6, address=cluster.address, checkpoint=path, **QUICK) == counts
    lines = lines_of(path)
    assert sorted(line["unit"] for line in lines[1:]) == list(range(lines[0]["n_units"]))
    for cut in (20, complete[0].index(b'"n_units"') + 5):  # killed while writing the header
        path.write_bytes(complete[0][:cut])
        assert distributed.divide(bc.Reversi(), 6, address=cluster.address, checkpoint=path, **QUICK) == counts
        lines = lines_of(path)
        assert sorted(line["unit"] for line in lines[1:]) == list(range(lines[0]["n_units"]))
    # A torn header of another run is not this run's to take over.
    other = tmp_path / "other.jsonl"
    foreign = complete[0].replace(b'"depth":6', b'"depth":5')
    other.write_bytes(foreign[: foreign.index(b'"depth":5') + 20])
    with pytest.raises(ValueError, match="not a boardcore perft checkpoint"):
        distributed.divide(bc.Reversi(), 6, address=cluster.address, checkpoint=other, **QUICK)


def spoiled(text: bytes, number: int, replace) -> bytes:
    """``text`` with its line ``number`` (1-based) replaced by ``replace(line as dict)`` (bytes)."""
    lines = text.splitlines(keepends=True)
    lines[number - 1] = replace(json.loads(lines[number - 1])) + b"\n"
    return b"".join(lines)


def with_check(record: dict, digest: str) -> bytes:
    record = dict(record, check=ckpt.line_check(digest, record["unit"], record["leaves"]))
    return json.dumps(record).encode()


@pytest.mark.parametrize(
    "spoil, message",
    [
        (lambda text, digest: spoiled(text, 3, lambda r: b"{not json"), "line 3 is corrupted: not a JSON line"),
        (
            lambda text, digest: spoiled(
                text, 2, lambda r: json.dumps(dict(r, leaves=[n + 1 for n in r["leaves"]])).encode()
            ),
            "line 2 is corrupted: its check",
        ),
        (
            lambda text, digest: spoiled(text, 4, lambda r: with_check(dict(r, unit=10**6), digest)),
            "line 4 is corrupted: unit 1000000 is not one",
        ),
        (
            lambda text, digest: spoiled(
                text,
                3,
                lambda r: with_check(
                    dict(r, leaves=[1] * len(r["leaves"]), unit=json.loads(text.splitlines()[1])["unit"]), digest
                ),
            ),
            "line 3: unit",
        ),
        (lambda text, digest: text.replace(b'"kind":"divide"', b'"kind":"perft"', 1), "its kind is 'perft'"),
        (lambda text, digest: text.replace(b'"depth":6', b'"depth":7', 1), "its depth is 7"),
        (lambda text, digest: text.replace(b'"game":"Reversi"', b'"game":"Rive"', 1), "its game is 'Rive'"),
        (
            lambda text, digest: spoiled(
                text, 1, lambda r: json.dumps(dict(r, n_units=r["n_units"] - 1), separators=(",", ":")).encode()
            ),
            "another plan: its plan is",
        ),
        (lambda text, digest: b"perft(6) = 8200\n", "is not a boardcore perft checkpoint"),
        (lambda text, digest: text.replace(b'"version":1', b'"version":99', 1), "version 99"),
    ],
    ids=[
        "bad-json",
        "bad-check",
        "unit-out-of-range",
        "unit-twice",
        "kind",
        "depth",
        "game",
        "plan",
        "not-a-checkpoint",
        "version",
    ],
)
def test_spoiled_or_foreign_checkpoints_are_refused_and_left_untouched(finished, tmp_path, spoil, message):
    text, _ = finished
    digest = json.loads(text.splitlines()[0])["plan"]
    path = tmp_path / "spoiled.jsonl"
    path.write_bytes(spoil(text, digest))
    before = path.read_bytes()
    with pytest.raises(ValueError, match=message) as caught:
        # No cluster at this address: the refusal comes before any connection.
        distributed.divide(bc.Reversi(), 6, address="127.0.0.2:1", checkpoint=path, **QUICK)
    assert str(path) in str(caught.value)
    assert path.read_bytes() == before


def test_another_position_or_split_is_refused(finished, tmp_path):
    text, _ = finished
    path = tmp_path / "other.jsonl"
    path.write_bytes(text)
    moved = bc.Reversi()
    moved.play("d3")
    with pytest.raises(ValueError, match="its position is"):
        distributed.divide(moved, 6, address="127.0.0.2:1", checkpoint=path, **QUICK)
    with pytest.raises(ValueError, match="its remaining is"):
        distributed.divide(bc.Reversi(), 6, address="127.0.0.2:1", checkpoint=path, split_depth=1, **QUICK)
    assert path.read_bytes() == text


TWO_NODES = """
import sys, boardcore as bc, boardcore.distributed as d, ray
game = bc.Cephalopod(rows=3, cols=3)
ray.init(address=sys.argv[1], log_to_driver=False, logging_level="ERROR")
print(sum(node["Alive"] for node in ray.nodes()))
print(d.perft(game, 9, unit_seconds=0.05, progress=False))
print(d.divide(game, 8, unit_seconds=0.05, progress=False) == game.divide(8))
"""


def test_two_nodes_give_the_same_count_as_one(cluster):
    game = bc.Cephalopod(rows=3, cols=3)
    one_node = distributed.perft(game, 9, address=cluster.address, **QUICK)
    with LocalCluster(cpus=1) as two:
        two.add_node(1)
        done = subprocess.run(
            [sys.executable, "-c", TWO_NODES, two.address], capture_output=True, text=True, timeout=300
        )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == ["2", str(one_node), "True"]
    assert one_node == game.perft(9)


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({"game": "8x8"}, TypeError, "boardcore engine game"),
        ({"depth": -1}, ValueError, "depth"),
        ({"depth": 65}, ValueError, "depth"),
        ({"depth": 2.0}, TypeError, "depth"),
        ({"unit_seconds": 0}, ValueError, "unit_seconds"),
        ({"unit_seconds": float("nan")}, ValueError, "unit_seconds"),
        ({"unit_seconds": "5"}, TypeError, "unit_seconds"),
        ({"threads_per_unit": 0}, ValueError, "threads_per_unit"),
        ({"max_retries": -1}, ValueError, "max_retries"),
        ({"split_depth": 9}, ValueError, "split_depth"),
        ({"split_depth": "deep"}, TypeError, "split_depth"),
        ({"address": 6379}, TypeError, "address"),
        ({"checkpoint": 3}, TypeError, "checkpoint"),
        ({"passes_count_as_ply": 1}, TypeError, "passes_count_as_ply"),
        ({"progress": "yes"}, TypeError, "progress"),
    ],
)
def test_bad_arguments_are_refused_before_anything_starts(tmp_path, kwargs, error, message):
    arguments = {"game": bc.Reversi(), "depth": 4, "checkpoint": tmp_path / "never.jsonl", **kwargs}
    for entry in (distributed.perft, distributed.divide):
        with pytest.raises(error, match=message):
            entry(
                arguments["game"],
                arguments["depth"],
                **{k: v for k, v in arguments.items() if k not in ("game", "depth")},
            )
    assert not (tmp_path / "never.jsonl").exists()


def test_a_reference_twin_is_refused():
    import boardcore.reference as ref

    with pytest.raises(TypeError, match="boardcore engine game"):
        distributed.perft(ref.Reversi(), 3)


def test_without_ray_the_error_says_how_to_install_it():
    script = "import sys; sys.modules['ray'] = None\nimport boardcore as bc, boardcore.distributed as d\nd.perft(bc.Reversi(), 3)"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode != 0
    assert "pip install 'boardcore[ray]'" in done.stderr


@pytest.mark.slow
def test_no_address_starts_a_local_instance_of_its_own(tmp_path):
    script = "import boardcore as bc, boardcore.distributed as d, ray\nprint(d.perft(bc.Reversi(), 8, unit_seconds=0.05), ray.is_initialized())"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == ["390216", "False"]  # the instance it started is shut down again
