"""The atheris harness's committed corpus (fuzz/python/corpus), replayed through the harness's
own checks (fuzz/python/fuzz_api.py, which needs no atheris for this), plus a short sweep of
random inputs. The Rust targets' corpus is replayed by `cargo test` in fuzz/ (docs/reliability.md).
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

FUZZ = Path(__file__).resolve().parent.parent / "fuzz"
CORPUS = sorted((FUZZ / "python" / "corpus").iterdir())


def load_harness():
    spec = importlib.util.spec_from_file_location("fuzz_api", FUZZ / "python" / "fuzz_api.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


harness = load_harness()


@pytest.mark.parametrize("path", CORPUS, ids=[p.name for p in CORPUS])
def test_the_committed_corpus_passes_the_harness(path):
    harness.one_input(path.read_bytes())


def test_random_inputs_pass_the_harness():
    rng = random.Random("atheris sweep")
    for _ in range(300):
        mode = rng.randrange(3)
        harness.one_input(bytes([mode]) + rng.randbytes(rng.randrange(40)))


def test_the_harness_runs_under_atheris(tmp_path):
    """A few hundred inputs under atheris itself, when it is installed (the test extra has it
    where a wheel exists)."""
    pytest.importorskip("atheris")
    import subprocess
    import sys

    result = subprocess.run(
        [
            sys.executable,
            str(FUZZ / "python" / "fuzz_api.py"),
            "-runs=50",
            "-seed=1",
            f"-artifact_prefix={tmp_path}/",
            str(tmp_path),
            str(FUZZ / "python" / "corpus"),
        ],  # new inputs go to tmp_path, not the corpus
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "Done 50 runs" in result.stderr
