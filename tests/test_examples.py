"""The examples in examples/ run (with small settings) and say what they claim."""

import importlib.util
import json
import pathlib
import subprocess
import sys

import numpy as np
import pytest

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples"


def run(script: str, *args: str) -> str:
    done = subprocess.run([sys.executable, str(EXAMPLES / script), *args], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_alphabeta_example_finishes_its_games():
    out = run("alphabeta_reversi.py", "--games", "2", "--depth", "2", "--size", "6", "--mcts-iterations", "50")
    assert "game 2:" in out and "'alpha-beta'" in out


def test_the_mcts_example_beats_random_play_on_every_game():
    out = run("mcts_vs_random.py", "--games", "2", "--iterations", "200")
    for game in ("reversi", "cephalopod", "rive", "strands"):
        assert f"{game}: MCTS (200 iterations) won 2 of 2" in out


@pytest.mark.parametrize("game", ["reversi", "strands"])
def test_the_pettingzoo_example_runs_episodes(game):
    pytest.importorskip("pettingzoo")
    out = run("pettingzoo_random.py", "--game", game, "--episodes", "2")
    assert "episode 2:" in out


def load_alphazero_example():
    """examples/alphazero.py as a module (it needs JAX, which the test extra installs)."""
    pytest.importorskip("jax")
    spec = importlib.util.spec_from_file_location("alphazero_example", EXAMPLES / "alphazero.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module


def test_the_alphazero_example_runs_its_loop(tmp_path):
    pytest.importorskip("jax")
    out = run("alphazero.py", "--smoke", "--out", str(tmp_path))
    assert "smoke: ok" in out
    results = json.loads((tmp_path / "results.json").read_text())
    assert results["rows_seen"] > 0 and results["final"]["games"] == 2
    assert (tmp_path / "curve.csv").read_text().startswith("minutes,")


@pytest.mark.parametrize("game", ["reversi", "cephalopod"])
def test_the_alphazero_example_augments_with_true_symmetries(game):
    """Mapping a position and then playing the mapped action equals playing and then mapping, for
    every map of the example's augmentation that fixes the start (Reversi's start is symmetric under
    4 of the 8, Cephalopod's empty board under all 8): observations and masks agree at every step of
    random games, and so do the winners."""
    example = load_alphazero_example()
    make = example.GAMES[game].make
    cells, actions = example.board_symmetries(make())
    forward_actions = np.argsort(actions, axis=1)  # original action -> mapped action

    def mapped(observation, k):
        return observation.reshape(observation.shape[0], -1)[:, cells[k]].reshape(observation.shape)

    start = make().actions()
    fixing = [k for k in range(len(cells)) if np.array_equal(mapped(start.observation(), k), start.observation())]
    assert len(fixing) == (4 if game == "reversi" else 8)
    for k in fixing:
        for seed in range(10):
            rng = np.random.default_rng(seed)
            original, image = make().actions(), make().actions()
            while not original.is_over():
                assert np.array_equal(mapped(original.observation(), k), image.observation())
                assert np.array_equal(original.action_mask()[actions[k]], image.action_mask())
                action = int(rng.choice(original.legal_actions()))
                original.apply_action(action)
                image.apply_action(int(forward_actions[k][action]))
            assert image.is_over() and original.winner() == image.winner()
