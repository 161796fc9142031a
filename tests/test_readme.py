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


def test_the_readme_says_how_to_install_today_and_promises_no_index_install():
    text = README.read_text()
    assert "not on PyPI yet" in text and "maturin build --release" in text
    assert "`pip install boardcore` needs no Rust" not in text  # a release step, docs/packaging.md
    tour = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    before_gymnasium = tour.split("import gymnasium")[0].splitlines()[-1]
    assert "pip install '.[gymnasium]'" in before_gymnasium  # the tour says which extra it needs


def anchor(heading: str) -> str:
    """GitHub's anchor for a Markdown heading: lower case, punctuation dropped, spaces to dashes."""
    return re.sub(r"[^a-z0-9 -]", "", heading.lower()).replace(" ", "-")


def test_the_readme_is_an_entry_not_a_lab_notebook():
    text = README.read_text()
    assert len(text.splitlines()) <= 160
    # The front door: where to run it (a virtual environment, a clone, which Rust), then the two
    # commands, before anything else.
    intro, commands = text.split("```sh\n", 1)
    assert intro.startswith("# boardcore\n\nIn a virtual environment") and "Rust 1." in intro
    assert len(intro.splitlines()) <= 5
    assert commands.startswith("pip install . && boardcore bench")
    assert commands.splitlines()[1].startswith("pip install '.[test]' && pytest")
    # Its figures are ratios linked to sections of the page the benchmarks write (run_all.py).
    page = (README.parent / "docs" / "performance.md").read_text()
    sections = {anchor(h) for h in re.findall(r"^## (.+)$", page, re.M)}
    links = re.findall(r"\(docs/performance\.md#([a-z0-9-]+)\)", text)
    assert links and set(links) <= sections, set(links) - sections
