"""The `boardcore` console script."""

import argparse
import os
import shutil
import subprocess
import sys
import threading

import harness
import pytest
from boardcore.cli import main
from processes import send_sigint


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
    for command in ("perft", "bench", "play", "selfplay", "show", "paths"):
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
    for game in harness.ENGINES:  # the main job runs every game of the registry
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


def test_selfplay_on_ray_plays_the_same_games(tmp_path, capsys):
    pytest.importorskip("ray")
    common = ["selfplay", "cephalopod", "--rows", "3", "--cols", "3", "--games", "3"]
    common += ["--black", "mcts:10", "--white", "random", "--seed", "5"]
    texts = []
    for extra in ([], ["--ray", "--workers", "2"]):
        path = tmp_path / f"games{len(extra)}.txt"
        assert main([*common, *extra, "--records", str(path)]) == 0
        texts.append(path.read_text())
        assert "wins" in capsys.readouterr().out
    assert texts[0] == texts[1] and texts[0].count('[Game "cephalopod"]') == 3


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["reversi", "--workers", "2"], "--workers is for --ray"),
        (["reversi", "--ray", "--workers", "0"], "--workers must be at least 1"),
        (["reversi", "--ray", "--holes-seed", "3"], "--holes-seed cannot go with --ray"),
        (["cephalopod", "--ray", "--position", "3x3 .../.../... b"], "--position cannot go with --ray"),
    ],
)
def test_selfplay_refuses_ray_options_that_cannot_apply(capsys, arguments, message):
    assert main(["selfplay", *arguments, "--games", "1", "--black", "random"]) == 2
    assert message in capsys.readouterr().err


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


# ---------------------------------------------------------------- hex coordinates, results (issue 14, item 8)


def read_cell(text: str, name: str) -> str:
    """What a person reads at cell ``name`` (row letter, number) of a hex board as the CLI draws it,
    following the rule the play greeting states: the row's line is the one starting with its letter;
    in the upper half (down to the widest row) the column is the number's column above the board
    moved one left per line down, in the lower half the number's column below moved one left per
    line up. Multi-digit numbers are read with their tens digit on the line farther out."""
    lines = text.splitlines()
    digits = [i for i, line in enumerate(lines) if line.strip() and line.strip()[0].isdigit()]
    rows = [i for i in range(len(lines)) if i not in digits]
    header = [lines[i] for i in digits if i < rows[0]]
    footer = [lines[i] for i in digits if i > rows[-1]]  # units first, then tens
    header = header[::-1]  # units first

    def columns(number_lines: list[str]) -> dict[int, int]:
        units = number_lines[0]
        tens = number_lines[1] if len(number_lines) > 1 else ""
        found = {}
        for c, ch in enumerate(units):
            if ch.isdigit():
                found[int((tens[c] if c < len(tens) and tens[c].isdigit() else "") + ch)] = c
        return found

    above, below = columns(header), columns(footer)
    letter, number = name[0], int(name[1:])
    (r,) = [i for i, line_index in enumerate(rows) if lines[line_index].strip().startswith(letter + " ")]
    widths = [len(lines[i].split()) - 1 for i in rows]
    widest = widths.index(max(widths))
    if r <= widest:
        column = above[number] - (r + 1)
    else:
        column = below[number] - (len(rows) - r)
    return lines[rows[r]][column]


def hex_rows(game) -> list[list[str]]:
    """The cells' contents row by row, from the game's own text."""
    return [line.split() for line in str(game).splitlines()[:-1]]  # the last line says who moves


@pytest.mark.parametrize(
    "game",
    [
        lambda bc: bc.Rive("hex3"),
        lambda bc: bc.Rive(),  # hex335: not symmetric
        lambda bc: bc.Rive("hex7"),  # numbers up to 13
        lambda bc: bc.Strands("hex4"),
        lambda bc: bc.Strands(),  # hex6: numbers up to 11
    ],
)
def test_every_cell_of_a_hex_board_is_read_off_its_coordinates(game):
    import boardcore as bc
    from boardcore.cli.boards import board_text

    game = game(bc)
    # Stones of both colours, so that the cells differ from one another.
    for seed in range(4):
        game.play(game.random_move(seed))
    text = board_text(game)
    for r, cells in enumerate(hex_rows(game)):
        for i, content in enumerate(cells):
            assert read_cell(text, f"{chr(97 + r)}{i + 1}") == content, (r, i)
    stone = str(game.history[-1]).split(",")[0].split("x")[0]
    assert read_cell(text, stone) in "bw"


def test_a_custom_hex_board_without_diagonals_gets_its_row_letters():
    import boardcore as bc
    from boardcore.cli.boards import board_text

    text = board_text(bc.Rive(board=[(3, 0), (2, 5), (4, 1)]))
    assert [line.split()[0] for line in text.splitlines()] == ["a", "b", "c"]
    assert text.splitlines()[1].split()[1:] == [".", "."]


def test_show_draws_hex_coordinates(capsys):
    assert main(["show", "hex3 .../..../..b../..../... w"]) == 0
    out = capsys.readouterr().out
    assert out.endswith("\nWhite (w) to move\n")
    board = out.split("\n", 1)[1].removesuffix("White (w) to move\n")
    assert read_cell(board, "c3") == "b" and "     1 2 3 4 5\n" in board and "\nc . . b . .\n" in board


def finished_game_record(tmp_path):
    import boardcore as bc

    game = bc.Rive("hex3")
    seed = 0
    while not game.is_over():
        game.play(game.random_move(seed))
        seed += 1
    path = tmp_path / "game.txt"
    path.write_text(game.record())
    return game, path


def test_show_prints_the_result_of_a_finished_record(capsys, tmp_path):
    game, path = finished_game_record(tmp_path)
    assert main(["show", str(path)]) == 0
    out = capsys.readouterr().out
    black, white = game.score()
    winner = ("Black", "White")[game.winner()]
    assert out.endswith(f"Score: Black {black}, White {white}\n{winner} wins\n")


def test_show_prints_no_result_while_the_game_goes_on(capsys):
    assert main(["show", "hex3 .../..../..b../..../... w"]) == 0
    assert "Score" not in capsys.readouterr().out


# ---------------------------------------------------------------- options (issue 14, item 9)


def test_an_option_of_another_game_is_an_error_naming_the_games_options():
    result = run_script("perft", "cephalopod", "--size", "6", "--depth", "2")
    assert result.returncode == 2 and result.stdout == ""
    assert "--size is not an option of cephalopod" in result.stderr and "--rows, --cols" in result.stderr


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["perft", "rive", "--free-passes", "--depth", "2"], "--free-passes is not an option of rive"),
        (["perft", "reversi", "--board", "hex3", "--depth", "2"], "--board is not an option of reversi"),
        (["play", "strands", "--swap"], "--swap is not an option of strands"),
        (["selfplay", "rive", "--cover", "exact"], "--cover is not an option of rive"),
        (["perft", "strands", "--rows", "5", "--depth", "1"], "--rows is not an option of strands"),
        (
            ["perft", "reversi", "--position", "4 ..../.wb./.bw./.... b", "--size", "6", "--depth", "1"],
            "--size cannot go with --position",
        ),
        (["perft", "reversi", "--blocked", "a1", "--holes-seed", "3", "--depth", "1"], "cannot go together"),
    ],
)
def test_options_that_would_be_ignored_are_errors(capsys, arguments, message):
    assert main(arguments) == 2
    captured = capsys.readouterr()
    assert message in captured.err and captured.out == ""


def test_an_option_of_the_game_given_at_its_default_is_fine(capsys):
    assert main(["perft", "reversi", "--size", "8", "--handicap", "0", "--depth", "2", "--free-passes"]) == 0
    assert "perft(2) = 12" in capsys.readouterr().out


@pytest.mark.parametrize("typed", ["65", "-1", "1e3", "seven", "99999999999999999999"])
def test_a_depth_out_of_range_is_a_usage_error_quoting_what_was_typed(typed):
    result = run_script("perft", "reversi", "--depth", typed)
    assert result.returncode == 2 and f"not '{typed}'" in result.stderr and "0 to 64" in result.stderr


def test_the_depth_limit_is_the_apis():
    import boardcore as bc
    from boardcore.cli.perft import MAX_DEPTH

    # A finished game: perft at any depth the API takes is 1, at once.
    full = "2x2 1b1w/1w1b b"
    game = bc.Cephalopod.from_position(full)
    assert game.is_over() and game.perft(MAX_DEPTH) == 1
    with pytest.raises(ValueError, match="depth"):
        game.perft(MAX_DEPTH + 1)
    assert main(["perft", "cephalopod", "--position", full, "--depth", str(MAX_DEPTH)]) == 0
    assert run_script("perft", "cephalopod", "--position", full, "--depth", str(MAX_DEPTH + 1)).returncode == 2


# ---------------------------------------------------------------- version and help (issue 14, item 11)


def test_version_is_the_packages():
    import importlib.metadata

    import boardcore as bc

    result = run_script("--version")
    expected = bc.__version__
    assert expected == importlib.metadata.version("boardcore")
    assert result.returncode == 0 and result.stdout == f"boardcore {expected}\n"


@pytest.mark.parametrize("command", [[], ["perft"], ["bench"], ["play"], ["selfplay"], ["show"], ["paths"]])
def test_help_has_no_markup_and_is_wrapped_to_the_terminal(command, monkeypatch):
    monkeypatch.setenv("COLUMNS", "72")
    result = subprocess.run([sys.executable, "-m", "boardcore.cli", *command, "--help"], capture_output=True, text=True)
    assert result.returncode == 0
    for markup in ("``", ":func:", ":class:", ":meth:", "`"):
        assert markup not in result.stdout
    assert max(len(line) for line in result.stdout.splitlines()) <= 72


def test_every_subcommand_lays_out_its_help_alike():
    from boardcore.cli import parser
    from boardcore.cli.helptext import Formatter

    top = parser()
    (commands,) = [a for a in top._actions if isinstance(a, argparse._SubParsersAction)]
    assert top.formatter_class is Formatter
    assert {name: p.formatter_class for name, p in commands.choices.items()} == dict.fromkeys(
        commands.choices, Formatter
    )


def test_a_control_character_is_quoted_as_python_writes_it(capsys):
    # The engines quote the text they refuse; an escape reads \x1b (as typed in Python), not \u{1b}.
    assert main(["show", "\x1b[A"]) == 2
    err = capsys.readouterr().err
    assert '"\\x1b[A"' in err and "\\u{1b}" not in err


def test_a_zigzag_hex_board_gets_its_row_letters_only():
    import boardcore as bc
    from boardcore.cli.boards import board_text

    # Rows stepping left, right, left: no diagonal keeps a cell number, so no numbers are drawn.
    text = board_text(bc.Rive(board=[(2, 1), (3, 0), (2, 1), (2, 0)]))
    assert [line.split()[0] for line in text.splitlines()] == ["a", "b", "c", "d"]


def test_perft_split_depth_gives_the_same_counts(capsys):
    for split in ("0", "2", "auto"):
        assert main(["perft", "reversi", "--depth", "5", "--split-depth", split, "--divide"]) == 0
        out = capsys.readouterr().out
        assert "perft(5) = 1396" in out and "\n   d3 349\n" in out, split
    assert run_script("perft", "reversi", "--depth", "3", "--split-depth", "deep").returncode == 2
    assert main(["perft", "reversi", "--depth", "3", "--split-depth", "4"]) == 2


def test_checkpoint_and_unit_seconds_need_ray(capsys, tmp_path):
    assert main(["perft", "reversi", "--depth", "3", "--checkpoint", str(tmp_path / "c.jsonl")]) == 2
    assert "add --ray" in capsys.readouterr().err
    assert main(["perft", "reversi", "--depth", "3", "--unit-seconds", "1"]) == 2
    assert not (tmp_path / "c.jsonl").exists()


def test_perft_on_a_local_ray_instance_with_a_checkpoint(tmp_path):
    """--ray with no address starts a Ray instance of its own (and stops it); the checkpoint of the
    finished run answers the same command again at once, without Ray."""
    pytest.importorskip("ray")
    import boardcore as bc

    path = tmp_path / "divide8.jsonl"
    command = ["perft", "reversi", "--depth", "8", "--divide"]
    first = run_script(*command, "--ray", "--checkpoint", str(path), "--unit-seconds", "0.05")
    assert first.returncode == 0, first.stderr[-3000:]
    expected = [f"{move:>5} {count}" for move, count in bc.Reversi().divide(8).items()] + ["perft(8) = 390216"]
    assert first.stdout.splitlines()[1:-1] == expected
    written = path.read_bytes()
    again = run_script(*command, "--checkpoint", str(path), "--ray", "127.0.0.2:1")
    assert again.returncode == 0, again.stderr[-3000:]
    assert again.stdout.splitlines()[1:-1] == expected and path.read_bytes() == written
    spoiled = tmp_path / "spoiled.jsonl"
    spoiled.write_text("not a checkpoint\n")
    refused = run_script(*command, "--checkpoint", str(spoiled), "--ray", "127.0.0.2:1")
    assert refused.returncode == 2 and "is not a boardcore perft checkpoint" in refused.stderr


@pytest.mark.parametrize("game", ["REVERSI", "Reversi"])
def test_the_game_argument_is_read_in_any_case(capsys, game):
    # Issue 14 item 13: names in any case, as bc.VectorEnv reads them (argparse refused these).
    assert main(["perft", game, "--size", "6", "--depth", "3"]) == 0
    assert "perft(3) = 56" in capsys.readouterr().out
    assert main(["paths", game.upper(), "start", "--depth", "2"]) == 0
    assert main(["play", "Cephalopod", "--rows", "3", "--cols", "3", "--black", "random", "--white", "random"]) == 0
    with pytest.raises(SystemExit) as exit_:
        main(["perft", "Othello", "--depth", "1"])
    assert exit_.value.code == 2 and "invalid choice: 'othello'" in capsys.readouterr().err


# ---------------------------------------------------------------- Ctrl-C while starting up

# The console script's own code (what pip writes for `_boardcore_cli:main`), with an import hook
# that holds the import of `boardcore` until the test interrupts it: the interrupt then lands
# inside that import, every time.
HELD_IMPORT = """
import sys, time
import _boardcore_cli

class HoldBoardcore:
    def find_spec(self, name, path=None, target=None):
        if name == "boardcore":
            print("importing boardcore", file=sys.stderr, flush=True)
            time.sleep(120)
        return None

sys.meta_path.insert(0, HoldBoardcore())
sys.exit(_boardcore_cli.main())
"""


def interrupted(children, command: list[str], ready: str, env: dict | None = None) -> tuple[int, str]:
    """Starts ``command`` (with SIGINT at its default action, whatever the suite inherited), sends
    it SIGINT once a line of its stderr contains ``ready``, and returns its exit code and whole
    stderr (generous limits: the machine may be busy). The children fixture ends it in any case."""
    child = children.start(command, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env)
    # A ready line that never comes would leave the loop reading forever: the child is killed
    # after two minutes instead, and the test fails on its exit code with the stderr it wrote.
    watchdog = threading.Timer(120, child.kill)
    watchdog.start()
    lines = []
    try:
        for line in child.stderr:
            lines.append(line)
            if ready in line:
                send_sigint(child.pid)
                break
        rest = child.communicate(timeout=60)[1]
    finally:
        watchdog.cancel()
    return child.returncode, "".join(lines) + rest


@pytest.mark.skipif(os.name != "posix", reason="POSIX signals")
def test_ctrl_c_while_boardcore_is_imported_exits_130_without_a_traceback(children):
    code, err = interrupted(
        children, [sys.executable, "-c", HELD_IMPORT, "perft", "reversi", "--depth", "3"], "importing boardcore"
    )
    assert code == 130, err
    assert "Traceback" not in err and err.endswith("boardcore: interrupted\n")


@pytest.mark.skipif(os.name != "posix", reason="POSIX signals")
def test_ctrl_c_right_after_the_console_script_starts_exits_130_without_a_traceback(children):
    # The installed script as a person runs it, interrupted early: once Python's import-time
    # report shows numpy imported, which only boardcore's own import does. Wherever the signal
    # lands from there (the rest of the import, reading the arguments, the count), the command
    # ends the same way. The test above pins the interrupt inside the import itself. The line
    # waited for is numpy's own (the report's last column exactly `numpy`): its submodules' lines
    # come first, while numpy is still importing, and numpy turns an interrupt inside its C
    # extension's import into an ImportError of its own.
    script = shutil.which("boardcore", path=os.path.dirname(sys.executable))
    if script is None:
        pytest.skip("the boardcore console script is not installed beside this Python")
    env = {**os.environ, "PYTHONPROFILEIMPORTTIME": "1"}
    code, err = interrupted(children, [script, "perft", "reversi", "--depth", "20"], " numpy\n", env)
    assert code == 130, err
    assert "Traceback" not in err and "boardcore: interrupted" in err


def test_importing_boardcore_leaves_distributed_for_first_use():
    # The largest subpackage, for Ray runs only: imported when first used (a quicker start).
    check = (
        "import sys, boardcore as bc; assert 'boardcore.distributed' not in sys.modules;"
        "from boardcore.distributed import perft; assert bc.distributed.perft is perft;"
        "assert 'distributed' in dir(bc) and 'distributed' in bc.__all__;"
        "import pytest; pytest.raises(AttributeError, getattr, bc, 'no_such_name')"
    )
    result = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


# ---------------------------------------------------------------- the first hour (issue 36, item 5)


def test_show_start_draws_the_start_of_every_game(capsys):
    import boardcore as bc

    assert main(["show", "start"]) == 0
    out = capsys.readouterr().out
    for game in (bc.Reversi(), bc.Cephalopod(), bc.Rive(), bc.Strands()):
        assert f"{type(game).__name__} {game.position()}\n" in out
    assert out.count("Black (b) to move\n") == 4


def test_show_takes_the_game_before_start_as_solve_analyse_and_paths_do(capsys):
    import boardcore as bc

    assert main(["show", "Reversi", "start"]) == 0
    start = bc.Reversi()
    assert capsys.readouterr().out == f"Reversi {start.position()}\n{start}\n"  # print(game), under its name


def test_show_with_a_game_refuses_another_games_position(capsys):
    assert main(["show", "strands", "hex3 .../..../..b../..../... w"]) == 2
    assert "not a strands position or record" in capsys.readouterr().err


def test_a_picture_of_start_needs_the_game(tmp_path, capsys):
    assert main(["show", "start", "--svg", str(tmp_path / "start.svg")]) == 2
    assert "boardcore show reversi start" in capsys.readouterr().err
    assert main(["show", "rive", "start", "--svg", str(tmp_path / "start.svg")]) == 0
    assert 'class="boardcore rive"' in (tmp_path / "start.svg").read_text()
