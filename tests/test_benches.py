"""A smoke run of benches/bench_search.py (boardcore's half only): the benchmark keeps up with the
search API. It measures nothing here; the figures come from full runs (benches/README.md)."""

import pathlib
import subprocess
import sys

BENCHES = pathlib.Path(__file__).resolve().parent.parent / "benches"


def test_the_search_benchmark_runs_every_part_quickly():
    done = subprocess.run(
        [sys.executable, str(BENCHES / "bench_search.py"), "--quick", "--skip-peers"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("| ") and "---" not in line]
    assert any(row.startswith("| search overhead") for row in rows)
    assert any(row.startswith("| self-play positions/s") for row in rows)
    assert sum(row.startswith("| random-rollout search") for row in rows) == 4
