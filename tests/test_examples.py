"""The examples in examples/ run (with small settings) and say what they claim."""

import pathlib
import subprocess
import sys

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
