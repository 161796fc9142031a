"""The README's tour runs as written, and the values its comments promise hold."""

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_the_tour_runs_and_its_comments_hold():
    tour = re.search(r"```python\n(.*?)```", README.read_text(), re.S).group(1)
    scope: dict = {}
    exec(compile(tour, "README.md", "exec"), scope)
    bc = scope["bc"]
    assert scope["s"].divide(3) == {"c3": 18, "e3": 22, "c5": 21}
    assert scope["h"].blocked == ("c3", "j6")
    assert scope["paths"].total() == scope["c"].perft(10)
    assert scope["big"].count_moves() == 847300
    assert scope["t"].score() == ([1], [1, 1])
    assert bc.load_record(scope["text"]) == scope["h"]
    assert scope["searcher"].game.history[-1] == scope["result"].move
    assert scope["runs"]["scores"].shape == (100, 2)
    assert (scope["a"].num_actions, scope["a"].observation_shape) == (65, (4, 8, 8))
    assert scope["obs"].shape == (256, 4, 8, 8) and scope["masks"].shape == (256, 65)
    # The Gymnasium lines (issue 14): one agent against MCTS, and the vector env.
    assert scope["first"].shape == (4, 6, 6) and scope["agent"].action_masks().shape == (37,)
    assert "a" in scope["agent"].render() and scope["batch"].shape == (64, 4, 8, 8)
    assert scope["infos"]["rewards_per_player"].shape == (64, 2) and scope["envs"].num_envs == 64
