"""The `boardcore` console script."""

import subprocess
import sys

from boardcore.cli import main


def test_perft_prints_the_count(capsys):
    assert main(["perft", "reversi", "--depth", "4"]) == 0
    assert "perft(4) = 244" in capsys.readouterr().out


def test_perft_of_a_variant_and_divide(capsys):
    assert main(["perft", "cephalopod", "--rows", "3", "--cols", "3", "--depth", "3", "--divide"]) == 0
    out = capsys.readouterr().out
    assert "perft(3) = 504" in out and "\n   a1 56\n" in out


def test_perft_of_rive(capsys):
    assert main(["perft", "rive", "--board", "hex3", "--depth", "3"]) == 0
    assert "perft(3) = 2340" in capsys.readouterr().out


def test_bad_input_is_an_error_on_stderr_with_exit_code_2(capsys):
    assert main(["perft", "cephalopod", "--rows", "9", "--depth", "2"]) == 2
    captured = capsys.readouterr()
    assert "rows must be" in captured.err and captured.out == ""


def test_the_module_runs_as_a_script():
    result = subprocess.run([sys.executable, "-m", "boardcore.cli", "perft", "reversi", "--depth", "3"],
                            capture_output=True, text=True)
    assert result.returncode == 0 and "perft(3) = 56" in result.stdout
