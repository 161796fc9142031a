"""`boardcore paths` (issue 16, item 4): the summary, --rows and --totals are exactly what
count_paths and path_totals return; bad input is a one-line error with exit code 2 that creates no
file; Ctrl-C ends a long count with exit code 130 and no traceback."""

import os
import subprocess
import sys

import boardcore as bc
import pytest
from boardcore.cli import main, paths
from processes import send_sigint

PUZZLE = "3x3 .6b./2b2b2b/1b6b1b b"
EMPTY_3X3 = "3x3 .../.../... b"
# (game, position, depth): a few plies into each game, small enough to list.
CASES = [
    ("cephalopod", EMPTY_3X3, 8),
    ("cephalopod", "3x3 1b../.1w./... w", 10),
    ("cephalopod", "start", 3),
    ("reversi", "start", 5),
    ("reversi", "6 ....../....../..wb../..bw../....../...... b", 4),
    ("rive", "hex3 .../..../..b../..../... w", 2),
    ("strands", "start", 1),
]


def run_script(*arguments: str) -> subprocess.CompletedProcess:
    """``python -m boardcore.cli ARGUMENTS`` in a process of its own (argparse's exits are seen
    from outside), its output captured as text."""
    return subprocess.run([sys.executable, "-m", "boardcore.cli", *arguments], capture_output=True, text=True)


def game_at(name: str, position: str):
    return paths.CLASSES[name]() if position == "start" else paths.CLASSES[name].from_position(position)


def summary(out: str) -> list[str]:
    """The summary's lines without the time (the one line that differs between runs)."""
    return [line for line in out.splitlines() if not line.endswith(" s")]


def read_table(out: str) -> list[list[int]]:
    """The --totals table's numbers, one list of 7 per square, from the command's output."""
    lines = out.splitlines()
    header = lines.index(next(line for line in lines if line.split()[:1] == ["square"]))
    assert lines[header].split() == ["square", *map(str, range(7))]
    return [[int(n) for n in line.split()[1:]] for line in lines[header + 1 :]]


def exact(totals) -> list[list[int]]:
    low, high = totals
    return [[int(lo) + (int(hi) << 64) for lo, hi in zip(los, his)] for los, his in zip(low, high)]


@pytest.mark.parametrize(("game", "position", "depth"), CASES)
def test_the_summary_is_count_paths(capsys, game, position, depth):
    expected = game_at(game, position).count_paths(depth)
    assert main(["paths", game, position, "--depth", str(depth), "--no-progress"]) == 0
    out = capsys.readouterr().out
    start = game_at(game, position).position()
    assert summary(out) == [
        f"{game} {start}",
        f"{len(expected)} distinct final positions",
        f"paths({depth}) = {expected.total()}",
    ]


def test_start_is_the_games_default_start(capsys):
    assert main(["paths", "cephalopod", "start", "--depth", "0"]) == 0
    assert capsys.readouterr().out.startswith(f"cephalopod {bc.Cephalopod().position()}\n1 distinct")


@pytest.mark.parametrize(("game", "position", "depth"), CASES)
def test_rows_are_the_rows_of_count_paths_in_order(tmp_path, capsys, game, position, depth):
    expected = game_at(game, position).count_paths(depth)
    rows = tmp_path / "rows.txt"
    assert main(["paths", game, position, "--depth", str(depth), "--rows", str(rows)]) == 0
    lines = rows.read_text(encoding="utf-8").splitlines()
    assert lines == [f"{n}\t{expected.position(i)}" for i, n in enumerate(expected.counts())]
    assert len(lines) == len(expected) > 0
    assert f"paths({depth}) = {expected.total()}\n" in capsys.readouterr().out


def test_colour_free_rows_and_summary(tmp_path, capsys):
    game = bc.Cephalopod.from_position(EMPTY_3X3)
    expected = game.count_paths(12, owners=False)
    rows = tmp_path / "rows.txt"
    assert main(["paths", "cephalopod", EMPTY_3X3, "--depth", "12", "--colour-free", "--rows", str(rows)]) == 0
    out = capsys.readouterr().out
    assert f"{len(expected)} distinct colour-free final positions\n" in out
    assert f"paths(12) = {expected.total()}\n" in out and expected.total() == game.count_paths(12).total()
    lines = rows.read_text(encoding="utf-8").splitlines()
    assert lines == [f"{n}\t{expected.position(i)}" for i, n in enumerate(expected.counts())]


def test_colour_free_with_and_without_symmetry_agree(tmp_path, capsys):
    outputs, files = [], []
    for extra in ([], ["--no-symmetry"]):
        rows = tmp_path / f"rows{len(extra)}.txt"
        command = ["paths", "cephalopod", "3x3 1b../.1w./..2b w", "--depth", "14", "--colour-free"]
        assert main([*command, *extra, "--rows", str(rows), "--totals"]) == 0
        outputs.append(summary(capsys.readouterr().out))
        files.append(rows.read_text(encoding="utf-8"))
    assert outputs[0] == outputs[1] and files[0] == files[1] and files[0].count("\n") > 100


@pytest.mark.parametrize("extra", [[], ["--no-symmetry"], ["--colour-free"]])
def test_totals_are_path_totals_exactly(capsys, extra):
    # Depth 26 on the empty 3x3: totals past 2**64, so the high words count.
    game = bc.Cephalopod.from_position(EMPTY_3X3)
    expected = exact(game.path_totals(26, symmetry="--no-symmetry" not in extra))
    assert max(max(row) for row in expected) >= 2**64
    assert main(["paths", "cephalopod", EMPTY_3X3, "--depth", "26", "--totals", *extra]) == 0
    out = capsys.readouterr().out
    assert read_table(out) == expected
    assert f"paths(26) = {sum(expected[0])}\n" in out and sum(expected[0]) == sum(expected[4])
    # Without --rows the final positions are never listed, so their number is not printed.
    assert "distinct" not in out
    names = [line.split()[0] for line in out.splitlines()[-9:]]
    assert names == list(game.cells())


def test_totals_with_rows_agree_with_path_totals(tmp_path, capsys):
    game = bc.Cephalopod.from_position("3x3 1b../.1w./... w")
    expected, listed = exact(game.path_totals(10)), len(game.count_paths(10))
    rows = tmp_path / "rows.txt"
    assert main(["paths", "cephalopod", "3x3 1b../.1w./... w", "--depth", "10", "--totals", "--rows", str(rows)]) == 0
    out = capsys.readouterr().out
    assert read_table(out) == expected and f"{listed} distinct final positions" in out
    assert rows.read_text(encoding="utf-8").count("\n") == listed


def test_wrapping_gives_every_figure_modulo_2_64(capsys):
    game = bc.Cephalopod.from_position(EMPTY_3X3)
    exact_total = game.count_paths(26, owners=False).total()
    assert exact_total >= 2**64
    assert main(["paths", "cephalopod", EMPTY_3X3, "--depth", "26", "--colour-free", "--wrapping", "--totals"]) == 0
    out = capsys.readouterr().out
    assert f"paths(26) = {exact_total % 2**64} (mod 2**64)\n" in out
    assert read_table(out) == [[n % 2**64 for n in row] for row in exact(game.path_totals(26))]


def test_the_puzzle_example():
    result = run_script("paths", "cephalopod", PUZZLE, "--depth", "20", "--colour-free")
    expected = bc.Cephalopod.from_position(PUZZLE).count_paths(20, owners=False)
    assert result.returncode == 0 and result.stderr == ""
    assert summary(result.stdout) == [
        f"cephalopod {PUZZLE}",
        f"{len(expected)} distinct colour-free final positions",
        f"paths(20) = {expected.total()}",
    ]


def test_the_progress_bar_shows_plies_and_positions_on_stderr_only(capsys, monkeypatch):
    monkeypatch.setenv("BOARDCORE_PROGRESS", "1")
    assert main(["paths", "cephalopod", EMPTY_3X3, "--depth", "6"]) == 0
    captured = capsys.readouterr()
    held = len(bc.Cephalopod.from_position(EMPTY_3X3).count_paths(6))
    assert "paths(6) [" in captured.err and "6/6 " in captured.err and f"{held:,} positions" in captured.err
    assert "[" not in captured.out
    assert main(["paths", "cephalopod", EMPTY_3X3, "--depth", "6", "--no-progress"]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["reversi", "start", "--depth", "2", "--totals"], "--totals is an option of cephalopod only"),
        (["rive", "start", "--depth", "2", "--colour-free"], "--colour-free is an option of cephalopod only"),
        (["cephalopod", "start", "--depth", "2", "--no-symmetry"], "--no-symmetry goes with --colour-free or --totals"),
        (["cephalopod", "3x3 .../... b", "--depth", "2"], "cephalopod position"),
        (["reversi", EMPTY_3X3, "--depth", "2"], "reversi position"),
        (["cephalopod", "6x6 ....../....../....../....../....../...... b", "--depth", "2"], "31"),
        (["cephalopod", "7x7 " + "/".join(["......."] * 7) + " b", "--depth", "2", "--colour-free"], "42"),
    ],
)
def test_bad_input_is_one_line_with_exit_code_2_and_writes_nothing(tmp_path, capsys, arguments, message):
    rows = tmp_path / "rows.txt"
    assert main(["paths", *arguments, "--rows", str(rows)]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and captured.err.count("\n") == 1 and captured.err.startswith("boardcore: error:")
    assert not rows.exists()


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["chess", "start", "--depth", "2"], "invalid choice: 'chess'"),
        (["cephalopod", "start", "--depth", "-1"], "not '-1'"),
        (["cephalopod", "start", "--depth", "deep"], "not 'deep'"),
        (["cephalopod", "start", "--depth", str(paths.MAX_DEPTH + 1)], f"0 to {paths.MAX_DEPTH}"),
        (["cephalopod", "start"], "--depth"),
    ],
)
def test_bad_arguments_are_usage_errors(arguments, message):
    result = run_script("paths", *arguments)
    assert result.returncode == 2 and message in result.stderr and "Traceback" not in result.stderr
    assert result.stdout == ""


def test_the_depth_limit_is_the_apis():
    finished = bc.Cephalopod.from_position("2x2 1b1w/1w1b b")
    assert finished.count_paths(paths.MAX_DEPTH).total() == 1
    for count in (finished.count_paths, finished.path_totals):
        with pytest.raises(ValueError, match="depth"):
            count(paths.MAX_DEPTH + 1)
    assert main(["paths", "cephalopod", "2x2 1b1w/1w1b b", "--depth", str(paths.MAX_DEPTH), "--totals"]) == 0


def test_a_count_too_big_to_hold_is_a_one_line_failure(capsys):
    # A real count past a real cap (--max-positions moves the default of about 1 GB).
    assert main(["paths", "reversi", "start", "--depth", "4", "--max-positions", "10", "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("boardcore: error: count_paths to depth 4 needs more than 10 positions in memory at once")
    assert err.count("\n") == 1


def test_a_lifted_cap_counts(capsys):
    assert main(["paths", "reversi", "start", "--depth", "4", "--max-positions", "100000", "--no-progress"]) == 0
    assert "paths(4) = 244" in capsys.readouterr().out


@pytest.mark.parametrize("bad", ["0", "-3", "many"])
def test_a_bad_cap_is_a_usage_error(bad, capsys):
    with pytest.raises(SystemExit):
        main(["paths", "reversi", "start", "--depth", "4", "--max-positions", bad])
    assert "--max-positions" in capsys.readouterr().err


def test_an_unwritable_rows_file_fails_before_counting(tmp_path, capsys):
    assert main(["paths", "cephalopod", "start", "--depth", "3", "--rows", str(tmp_path / "no" / "rows.txt")]) == 1
    captured = capsys.readouterr()
    assert "No such file" in captured.err and captured.out == ""


@pytest.mark.skipif(os.name != "posix", reason="needs a pseudo-terminal and POSIX signals")
def test_ctrl_c_stops_a_long_count_with_exit_code_130_and_no_traceback(children):
    pexpect = pytest.importorskip("pexpect")
    # The 5x5 start, colour-free, 25 plies: many seconds of counting after ply 5.
    command = [sys.executable, "-m", "boardcore.cli", "paths", "cephalopod", "start", "--depth", "25", "--colour-free"]
    child = children.spawn(command, encoding="utf-8", timeout=60, echo=False)
    child.expect(r"paths\(25\) \[#*-+\] 5/25 ")
    send_sigint(child.pid)
    child.expect(pexpect.EOF, timeout=10)
    child.close()
    assert child.exitstatus == 130 and child.signalstatus is None
    assert "Traceback" not in child.before and "boardcore: interrupted" in child.before
