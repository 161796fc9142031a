"""The `boardcore` console script."""

import subprocess
import sys

import pytest
from boardcore.cli import main


def run_script(*arguments: str) -> subprocess.CompletedProcess:
    """``python -m boardcore.cli ARGUMENTS`` in a process of its own (what argparse's exits and the
    console script do can only be seen from outside), its output captured as text."""
    return subprocess.run([sys.executable, "-m", "boardcore.cli", *arguments], capture_output=True, text=True)


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
    result = run_script("perft", "reversi", "--depth", "3")
    assert result.returncode == 0 and "perft(3) = 56" in result.stdout


# ---------------------------------------------------------------- every subcommand


def test_every_subcommand_has_help():
    for command in ("perft", "bench", "play", "selfplay", "show"):
        result = run_script(command, "--help")
        assert result.returncode == 0 and "usage: boardcore " + command in result.stdout


def test_perft_divide_lists_every_root_move_then_the_total(capsys):
    assert main(["perft", "reversi", "--depth", "3", "--divide"]) == 0
    out = capsys.readouterr().out
    assert "\n   d3 14\n" in out and "perft(3) = 56" in out


def test_perft_shows_a_progress_bar_on_stderr_only(capsys, monkeypatch):
    monkeypatch.setenv("BOARDCORE_PROGRESS", "1")
    assert main(["perft", "reversi", "--depth", "3"]) == 0
    captured = capsys.readouterr()
    assert "perft(3) [" in captured.err and "4/4" in captured.err
    assert "[" not in captured.out.replace("reversi ", "")


def test_perft_counts_a_pass_as_a_ply_unless_told_otherwise(capsys):
    # White has no placement here but Black has: White's only move is a pass.
    position = "4 bbbb/bbbb/bbbw/bb.. w"
    import boardcore as bc

    game = bc.Reversi.from_position(position)
    assert [str(m) for m in game.legal_moves()] == ["pass"]
    assert main(["perft", "reversi", "--position", position, "--depth", "2"]) == 0
    assert f"perft(2) = {game.perft(2)}" in capsys.readouterr().out
    assert main(["perft", "reversi", "--position", position, "--depth", "2", "--free-passes"]) == 0
    assert f"perft(2) = {game.perft(2, passes_count_as_ply=False)}" in capsys.readouterr().out


def test_bench_prints_one_row_per_game(capsys):
    assert main(["bench", "--quick", "--repeats", "1"]) == 0
    out = capsys.readouterr().out
    for game in ("reversi", "cephalopod", "rive", "strands"):
        assert f"| {game} |" in out


def test_selfplay_summarises_and_writes_records_that_replay(capsys, tmp_path):
    import boardcore as bc

    records = tmp_path / "games.txt"
    assert (
        main(
            [
                "selfplay",
                "reversi",
                "--size",
                "6",
                "--games",
                "4",
                "--black",
                "random",
                "--white",
                "mcts:20",
                "--records",
                str(records),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "wins" in out and "moves/s" in out and "average length" in out
    games = bc.load_records(records.read_text())
    assert len(games) == 4 and all(g.is_over() for g in games)


def test_selfplay_is_the_same_on_any_number_of_threads(tmp_path):
    texts = []
    for threads in ("1", "2"):
        path = tmp_path / f"games{threads}.txt"
        assert (
            main(
                [
                    "selfplay",
                    "cephalopod",
                    "--rows",
                    "3",
                    "--cols",
                    "3",
                    "--games",
                    "3",
                    "--black",
                    "mcts:30",
                    "--white",
                    "random",
                    "--threads",
                    threads,
                    "--records",
                    str(path),
                ]
            )
            == 0
        )
        texts.append(path.read_text())
    assert texts[0] == texts[1]


def test_selfplay_refuses_a_human_player(capsys):
    assert main(["selfplay", "reversi", "--black", "human", "--games", "1"]) == 2
    assert "computer players" in capsys.readouterr().err


def test_a_bad_player_spec_is_a_usage_error():
    result = run_script("selfplay", "reversi", "--black", "robot")
    assert result.returncode == 2 and "robot" in result.stderr


def test_show_draws_a_position_of_any_game(capsys):
    assert main(["show", "hex3 .../..../..b../..../... w"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Rive hex3") and "b" in out


def test_show_writes_an_svg_of_the_end_of_a_record_file(tmp_path):
    import boardcore as bc

    game = bc.Strands("hex4")
    for seed in range(6):
        game.play(game.random_move(seed))
    record = tmp_path / "game.txt"
    record.write_text(game.record())
    picture = tmp_path / "end.svg"
    assert main(["show", str(record), "--svg", str(picture)]) == 0
    assert picture.read_text().startswith("<svg") and 'class="boardcore strands"' in picture.read_text()


def test_show_writes_a_png(tmp_path):
    pytest.importorskip("resvg_py")  # the [png] extra
    picture = tmp_path / "start.png"
    assert (
        main(
            [
                "show",
                "8 ......../......../......../...wb.../...bw.../......../......../........ b",
                "--png",
                str(picture),
            ]
        )
        == 0
    )
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_show_refuses_text_that_is_no_position(capsys):
    assert main(["show", "not a position"]) == 2
    err = capsys.readouterr().err
    assert "not a position of any game" in err and err.count("\n") == 1


def test_load_records_reads_a_file_of_records_whatever_their_tag_order():
    import boardcore as bc

    one = '[Board "4"]\n[Game "reversi"]\n\nd3\n'
    games = bc.load_records(one + "\n" + one)
    assert len(games) == 2 and all(str(g.history[-1]) == "d3" for g in games)
    with pytest.raises(bc.NotationError, match="before the first tag"):
        bc.load_records("d3\n" + one)


def test_selfplay_fails_before_playing_when_the_records_file_cannot_be_written(capsys, tmp_path):
    assert (
        main(
            ["selfplay", "reversi", "--games", "1", "--black", "random", "--records", str(tmp_path / "no" / "such.txt")]
        )
        == 1
    )
    captured = capsys.readouterr()
    assert "No such file" in captured.err and "games" not in captured.out


def test_seeds_out_of_range_are_usage_errors():
    for command in (["play", "reversi"], ["selfplay", "reversi"]):
        result = run_script(*command, "--seed", "-1")
        assert result.returncode == 2 and "seed" in result.stderr


def test_show_without_the_png_extra_is_a_one_line_error(capsys, monkeypatch, tmp_path):
    for rasteriser in ("resvg_py", "cairosvg"):  # either serves boardcore.svg.save_png
        monkeypatch.setitem(sys.modules, rasteriser, None)
    assert (
        main(
            [
                "show",
                "8 ......../......../......../...wb.../...bw.../......../......../........ b",
                "--png",
                str(tmp_path / "x.png"),
            ]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "[png]" in err


def test_show_refuses_a_width_that_is_no_width():
    result = run_script("show", "hex3 .../..../...../..../... b", "--size", "-5")
    assert result.returncode == 2 and "width" in result.stderr
