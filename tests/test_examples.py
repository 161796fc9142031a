"""The examples in examples/ run (with small settings) and say what they claim."""

import json
import pathlib
import subprocess
import sys

import boardcore as bc
import numpy as np
import pytest
from harness import load_module

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
    return load_module(EXAMPLES / "alphazero.py", "alphazero_example")


def test_the_alphazero_example_runs_its_loop(tmp_path):
    pytest.importorskip("jax")
    out = run("alphazero.py", "--smoke", "--out", str(tmp_path))
    assert "smoke: ok" in out
    results = json.loads((tmp_path / "results.json").read_text())
    assert results["rows_seen"] > 0 and results["final"]["games"] == 2
    assert (tmp_path / "curve.csv").read_text().startswith("minutes,")
    assert (tmp_path / "network.npz").exists()


@pytest.mark.parametrize("game", ["reversi", "cephalopod"])
def test_the_alphazero_example_augments_rows_into_the_rows_of_mapped_games(game):
    """The example's augmentation of self-play rows gives the rows of the mapped game: for each
    symmetry that keeps the start (Reversi's start 4 of the 8, Cephalopod's empty board all 8),
    the rows of a self-play game, augmented, are the observations, masks and policies met when the
    mapped actions are played from the start."""
    example = load_alphazero_example()
    spec = example.GAMES[game]
    data = bc.mcts.selfplay(spec.name, spec.variant, games=3, iterations=8, seed=5)
    start = spec.make().actions()
    symmetries = start.symmetries()
    observation_maps, action_maps = symmetries
    rows = {
        "observations": data.observations,
        "masks": data.masks,
        "policies": data.policies,
        "outcomes": data.outcomes,
    }
    keeping = [
        k
        for k in range(len(action_maps))
        if np.array_equal(start.observation().reshape(-1)[observation_maps[k]], start.observation().reshape(-1))
    ]
    assert len(keeping) == (4 if game == "reversi" else 8)
    for k in keeping:
        image = example.augment(rows, symmetries, np.full(len(data), k))
        mapped_action = np.argsort(action_maps[k])
        for number in range(3):
            state = spec.make().actions()
            for row in np.flatnonzero(data.game_ids == number):
                assert np.array_equal(image["observations"][row], state.observation())
                assert np.array_equal(image["masks"][row], state.action_mask())
                assert image["policies"][row][mapped_action[data.actions[row]]] == data.policies[row][data.actions[row]]
                state.apply_action(int(mapped_action[data.actions[row]]))
            assert state.is_over()
