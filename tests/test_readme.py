"""The README's tour runs as written, and the values its comments promise hold."""

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_the_tour_runs_and_its_comments_hold():
    tour = re.search(r"```python\n(.*?)```", README.read_text(), re.S).group(1)
    scope: dict = {}
    exec(compile(tour, "README.md", "exec"), scope)
    bc = scope["bc"]
    game = scope["game"]
    assert game.history == ["d3"] and game.perft(9) == 6142821
    assert bc.ai.solve(bc.Reversi(size=4)).score == -10
    assert game.is_legal(scope["hint"].move) and game.is_legal(scope["move"])
    assert scope["dice"].count_paths(10).total() == scope["dice"].perft(10)
    assert scope["strands"].count_moves() == 58472
    assert (scope["steps"].num_actions, scope["steps"].observation_shape) == (37, (4, 6, 6))
    assert scope["obs"].shape == (256, 4, 8, 8) and scope["masks"].shape == (256, 65)
    # The Gymnasium lines: a registered environment, with its spec and time limit.
    assert scope["agent"].spec.id == "boardcore/Reversi-v0" and scope["agent"].spec.max_episode_steps
    assert scope["first"].shape == (4, 6, 6) and scope["info"]["action_mask"].shape == (37,)


def anchor(heading: str) -> str:
    """GitHub's anchor for a Markdown heading: lower case, punctuation dropped, spaces to dashes."""
    return re.sub(r"[^a-z0-9 -]", "", heading.lower()).replace(" ", "-")


def test_the_readme_is_an_entry_not_a_lab_notebook():
    text = README.read_text()
    assert len(text.splitlines()) <= 160
    assert text.startswith("# boardcore\n\n```sh\npip install . && boardcore bench")
    # Its figures are ratios linked to sections of the page the benchmarks write (run_all.py).
    page = (README.parent / "docs" / "performance.md").read_text()
    sections = {anchor(h) for h in re.findall(r"^## (.+)$", page, re.M)}
    links = re.findall(r"\(docs/performance\.md#([a-z0-9-]+)\)", text)
    assert links and set(links) <= sections, set(links) - sections
