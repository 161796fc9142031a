"""A smoke run of benches/bench_search.py (boardcore's half only): the benchmark keeps up with the
search API. It measures nothing here; the figures come from full runs (benches/README.md)."""

import os
import pathlib
import subprocess
import sys

import pytest

BENCHES = pathlib.Path(__file__).resolve().parent.parent / "benches"
FFORUM = BENCHES.parent.parent / "shared" / "data" / "fforum"


def run_bench(*args: str) -> str:
    """The output of ``python *args`` (a bench script and its options), which must succeed."""
    done = subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def cephalopod_paths_answers(*args: str) -> dict[str, tuple[int, int]]:
    """boardcore's half of bench_cephalopod_paths.py (one repeat, no peers) with ``args``:
    each case's (depth, answer)."""
    output = run_bench(str(BENCHES / "bench_cephalopod_paths.py"), "--repeats", "1", "--peers", "", *args)
    rows = [row.split("|") for row in output.splitlines() if row.startswith("| c") and not row.startswith("| case")]
    return {row[1].strip(): (int(row[2]), int(row[4])) for row in rows}


def test_the_search_benchmark_runs_every_part_quickly():
    output = run_bench(str(BENCHES / "bench_search.py"), "--quick", "--skip-peers")
    rows = [line for line in output.splitlines() if line.startswith("| ") and "---" not in line]
    assert any(row.startswith("| search overhead") for row in rows)
    assert any(row.startswith("| self-play positions/s") for row in rows)
    assert sum(row.startswith("| random-rollout search") for row in rows) == 4


def test_the_time_limits_benchmark_times_every_game_call_and_limit_quickly():
    """benches/bench_time_limits.py --quick: one call of each configuration at 0.001 and 0.01 s at
    idle, and at 0.001 s under load (its busy children killed at the end)."""
    output = run_bench(str(BENCHES / "bench_time_limits.py"), "--quick")
    rows = [line.split(" | ") for line in output.splitlines() if line.startswith("| ") and "---" not in line]
    calls = ("analyse", "player", "solve", "mcts")
    summary = [row for row in rows if row[1] in ("0.001", "0.01")]
    detail = [row for row in rows if row[1] in calls]
    assert len(summary) == 7 * 2 and {row[8] for row in summary} <= {"holds", "**fails**"}
    assert len(detail) == 7 * len(calls) * 2 * 2
    # Under load only 0.001 s runs in the quick mode.
    assert all((row[9] == "-") == (row[1] == "0.01") for row in summary)


def test_the_cephalopod_paths_benchmark_reduces_boardcores_counts_to_the_puzzles_answers():
    """boardcore's half of bench_cephalopod_paths.py on its small cases and on c03, the empty board
    at depth 40 (counts past 2**64: exact and wrapping modes must both reduce to the answer); c07
    is the CodinGame puzzle's own first example (depth 20, 060/222/161), whose published answer is
    322444322; the others are the answers the public peers gave (docs in benches/README.md)."""
    answers = cephalopod_paths_answers("--only", "c01", "c02", "c03", "c04", "c07", "c08")
    assert {case: answer for case, (_, answer) in answers.items()} == {
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
    assert cephalopod_paths_answers("--cases", str(light), "--only", "c03", "c10") == {
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


def test_deep_counts_checks_two_ways_and_the_published_counts():
    """benches/deep_counts.py, which docs/distributed.md cites for every deep count, at depths
    that take milliseconds: both ways agree, and with the published 8x8 counts."""
    output = run_bench(str(BENCHES / "deep_counts.py"), "--board", "8", "--depths", "6-7")
    lines = output.splitlines()
    assert "8 perft(7) merged = 55,092 in" in output and "8 perft(7) plain  = 55,092 in" in output
    assert sum(line.endswith("= published") for line in lines) == 4
    assert lines[-1] == "8 perft(7): AGREE"


# Runs a script with `import ray` failing, as where Ray is not installed: argv[1] is the script.
WITHOUT_RAY = """
import os, runpy, sys
sys.modules["ray"] = None
sys.argv = sys.argv[1:]
sys.path.insert(0, os.path.dirname(sys.argv[0]))
runpy.run_path(sys.argv[0], run_name="__main__")
"""


def test_the_unit_rate_of_distributed_perft_is_measured_without_ray():
    """`--unit-rate` runs the units' own function here, so it needs no Ray: it runs with Ray's
    import blocked."""
    output = run_bench(
        "-c",
        WITHOUT_RAY,
        str(BENCHES / "bench_distributed.py"),
        "--unit-rate",
        *["--board", "octagon", "--depth", "9", "--unit-seconds", "0.01", "--sample-seconds", "0.05"],
    )
    row = next(line for line in output.splitlines() if line.startswith("| octagon | 9 |"))
    assert "leaves, " in row and "CPU hours" in row


def test_the_engine_benchmark_reads_the_fforum_suite_and_measures_speed():
    output = run_bench(str(BENCHES / "bench_engine.py"), "--only", "speed", "--repeats", "1")
    # Each row is printed as it is measured, then again in the final tables.
    rows = {line for line in output.splitlines() if line.startswith("| ") and "---" not in line}
    # FForum 26 is solved from the suite beside the repository (../shared/data/fforum) when it is there.
    with_fforum = FFORUM.is_dir()
    assert sum(" solve |" in row or " depth " in row for row in rows) == 5 + with_fforum
    assert any(row.startswith("| reversi FForum 26 solve") for row in rows) == with_fforum
    assert ("FForum 26 not measured: no suite in" in output) != with_fforum


def test_benchmark_pages_show_peers_by_their_variables_never_this_machines_paths():
    # The page's commands must run anywhere: a peer's path is shown as $EDAX and the like.
    shown = subprocess.run(
        [sys.executable, "-c", "from _timing import shown_command; import sys; print(shown_command(sys.argv[1:]))",
         "python", "benches/bench_engine.py", "--edax", "/opt/peer/edax", "--edax-eval", "/opt/peer/data/eval.dat",
         "--pgx-python", "/opt/venv/bin/python", "--write", "/tmp/scratch/tables.md", "--times", "0.1"],
        cwd=BENCHES, capture_output=True, text=True, timeout=60, check=True,
        env={**os.environ, "EDAX": "/opt/peer/edax", "EDAX_EVAL": "/opt/peer/data/eval.dat",
             "BOARDCORE_PEER_PYTHON": "/opt/venv/bin/python"},
    ).stdout.strip()  # fmt: skip
    assert shown == (
        "python benches/bench_engine.py --edax $EDAX --edax-eval $EDAX_EVAL "
        "--pgx-python $BOARDCORE_PEER_PYTHON --write FILE --times 0.1"
    )


def test_the_performance_page_prints_no_machine_path():
    page = (BENCHES.parent / "docs" / "performance.md").read_text()
    for prefix in ("/root/", "/work/", "/tmp/", "/home/"):
        assert prefix not in page, prefix


def test_the_speed_regression_set_runs_and_checks_its_answers():
    # benches/regression (pytest-benchmark) is run by hand before and after a change; here once,
    # untimed, so that it cannot rot.
    output = run_bench(
        "-m", "pytest", "-q", "-p", "no:cacheprovider", "--benchmark-disable", str(BENCHES / "regression")
    )
    assert "9 passed" in output
