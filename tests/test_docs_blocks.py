"""Every Python code block of docs/ runs as written: each page's blocks in order, in one scope
(a block may use the names an earlier block of its page defined), in a scratch directory.

The README's tour has its own test (tests/test_readme.py), which also checks what its comments
promise; here a block passes when it runs. docs/distributed.md's blocks need a Ray cluster: the
test starts a real local one (tests/raycluster.py) and points `address="auto"` at it.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"
BLOCK = re.compile(r"```python\n(.*?)```", re.S)


# Pages whose code needs an extra that the test extra leaves out (docs/sb3.md: PyTorch, through
# Stable-Baselines3): run where it is installed.
NEEDS = {"sb3.md": ("stable_baselines3", "sb3_contrib")}


def pages_with_code() -> list[Path]:
    return sorted(page for page in DOCS.glob("*.md") if BLOCK.search(page.read_text()))


def run_page(page: Path) -> None:
    scope: dict = {"__name__": "__docs__"}
    for i, block in enumerate(BLOCK.findall(page.read_text())):
        exec(compile(block, f"{page.name} (block {i + 1})", "exec"), scope)


@pytest.mark.parametrize("page", [p for p in pages_with_code() if p.name != "distributed.md"], ids=lambda p: p.name)
def test_every_code_block_of_the_page_runs(page, tmp_path, monkeypatch, capsys):
    for module in NEEDS.get(page.name, ()):
        pytest.importorskip(module)
    monkeypatch.chdir(tmp_path)  # files the examples write (board.png, checkpoints) land here
    run_page(page)


def test_the_distributed_page_runs_on_a_real_local_cluster(tmp_path, monkeypatch, capsys):
    pytest.importorskip("ray")
    from raycluster import LocalCluster

    monkeypatch.chdir(tmp_path)
    with LocalCluster(cpus=2) as cluster:
        monkeypatch.setenv("RAY_ADDRESS", cluster.address)  # address="auto" and None find it
        run_page(DOCS / "distributed.md")
    assert (tmp_path / "perft9.ckpt").exists() or os.listdir(tmp_path)


def test_the_pages_with_code_are_the_ones_expected():
    # A page that gains code is run above; this list says which pages that is today.
    names = {p.name for p in pages_with_code()}
    assert {"actions.md", "ai.md", "api.md", "tour.md", "distributed.md", "engine.md"} <= names
