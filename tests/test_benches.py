"""A smoke run of benches/bench_search.py (boardcore's half only): the benchmark keeps up with the
search API. It measures nothing here; the figures come from full runs (benches/README.md)."""

import pathlib
import subprocess
import sys

import pytest

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


def test_the_cephalopod_paths_benchmark_reduces_boardcores_counts_to_the_puzzles_answers():
    """boardcore's half of bench_cephalopod_paths.py on its small cases and on c03, the empty board
    at depth 40 (counts past 2**64: exact and wrapping modes must both reduce to the answer); c07
    is the CodinGame puzzle's own first example (depth 20, 060/222/161), whose published answer is
    322444322; the others are the answers the public peers gave (docs in benches/README.md)."""
    done = subprocess.run(
        [sys.executable, str(BENCHES / "bench_cephalopod_paths.py"), "--repeats", "1", "--peers", ""]
        + ["--only", "c01", "c02", "c03", "c04", "c07", "c08"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    answers = {
        row.split("|")[1].strip(): int(row.split("|")[4])
        for row in done.stdout.splitlines()
        if row.startswith("| c") and not row.startswith("| case")
    }
    assert answers == {
        "c01": 902811392,
        "c02": 466474622,
        "c03": 503115192,
        "c04": 76092874,
        "c07": 322444322,
        "c08": 951223336,
    }


def test_the_light_cephalopod_paths_set_is_read_with_cases():
    """`--cases` reads the light set, whose c03 is the empty board at depth 5 (the answer every
    peer gave, benches/README.md)."""
    light = BENCHES / "data" / "cephalopod_paths_cases_light.txt"
    done = subprocess.run(
        [sys.executable, str(BENCHES / "bench_cephalopod_paths.py"), "--repeats", "1", "--peers", ""]
        + ["--cases", str(light), "--only", "c03", "c10"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    rows = [row.split("|") for row in done.stdout.splitlines() if row.startswith("| c0") or row.startswith("| c1")]
    assert {row[1].strip(): (int(row[2]), int(row[4])) for row in rows} == {
        "c03": (5, 50441886),
        "c10": (28, 765165152),
    }


@pytest.mark.parametrize("case_file", ["cephalopod_paths_cases.txt", "cephalopod_paths_cases_light.txt"])
def test_the_cephalopod_paths_cases_span_the_workload(case_file):
    """Both sets (the heavy one, c03 the empty board at depth 40, and the light one, c03 at depth
    5) hold twelve cases with depths 1 to 40, starts of 0 to 7 dice, low pips among them."""
    sys.path.insert(0, str(BENCHES))
    try:
        from bench_cephalopod_paths import read_cases
    finally:
        sys.path.remove(str(BENCHES))
    cases = read_cases(BENCHES / "data" / case_file)
    assert [name for name, _, _ in cases] == [f"c{i:02d}" for i in range(1, 13)]
    assert {depth for _, depth, _ in cases} >= {1, 40}
    assert {sum(1 for p in pips if p) for _, _, pips in cases} == set(range(8))
    assert any(0 < p <= 2 for _, _, pips in cases for p in pips)
