"""`boardcore play`: an interactive game, through a terminal and through plain stdin."""

import io
import sys

import pytest
from boardcore.cli import main

RESULTS = ("Black wins", "White wins", "Draw")
OPENING_MOVES = {"d3", "c4", "f5", "e6"}


def play(monkeypatch, capsys, args, typed=""):
    """Runs ``boardcore play ARGS`` reading ``typed`` as stdin: (exit code, stdout)."""
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    code = main(["play", *args])
    return code, capsys.readouterr().out


# Through a pseudo-terminal, as a person would use it.


def spawn_play(children, *args: str):
    """``boardcore play ARGS`` in a pseudo-terminal, reaped whatever the test's outcome:
    (pexpect, the child)."""
    pexpect = pytest.importorskip("pexpect")
    command = [sys.executable, "-m", "boardcore.cli", "play", *args]
    return pexpect, children.spawn(command, encoding="utf-8", timeout=30)


def spawn_reversi_against_random(children):
    return spawn_play(children, "reversi", "--black", "human", "--white", "random")


def board_before_prompt(child) -> str:
    """The last board and turn line shown before the next ``black>`` prompt."""
    child.expect_exact("black> ")
    return child.before[child.before.rindex("   a b c d e f g h") :]


def play_first_listed_move(child) -> str:
    child.sendline("moves")
    child.expect(r"legal moves \(\d+\): (.*)\r\nblack> ")
    move = child.match.group(1).split()[0]
    child.sendline(move)
    return move


def test_a_person_plays_undoes_and_asks_for_a_hint_in_a_terminal(children):
    pexpect, child = spawn_reversi_against_random(children)
    start = board_before_prompt(child)
    assert "Black (b) to move" in start

    child.sendline("a1")
    child.expect_exact("illegal move: a1")
    child.expect_exact("black> ")
    assert "a b c" not in child.before  # rejected: no move, so no new board

    play_first_listed_move(child)
    after_one = board_before_prompt(child)
    assert "White plays" in child.before and "last move" in after_one
    play_first_listed_move(child)
    assert board_before_prompt(child) != after_one

    child.sendline("undo")  # back before our second move and White's reply to it
    assert board_before_prompt(child) == after_one
    child.sendline("undo")
    assert board_before_prompt(child) == start
    child.sendline("undo")
    child.expect_exact("nothing to undo")

    child.sendline("hint")
    child.expect(r"hint: (\S+)\r\n")
    assert child.match.group(1) in OPENING_MOVES

    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_your_move_is_drawn_before_the_computer_starts_thinking(children):
    # Against an engine that thinks for a while, the board with our move is on the screen
    # before its reply: "White plays" comes after the board showing "last move d3".
    pexpect, child = spawn_play(children, "reversi", "--black", "human", "--white", "mcts:20000")
    child.expect_exact("black> ")
    child.sendline("d3")
    child.expect_exact("White (w) to move, last move d3")
    assert "   a b c d e f g h" in child.before and "White plays" not in child.before
    child.expect(r"White plays (\S+)\r\n")
    child.expect_exact("black> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()


def test_a_person_resigns_and_the_other_side_wins(children):
    pexpect, child = spawn_reversi_against_random(children)
    child.expect_exact("black> ")
    child.sendline("resign")
    child.expect_exact("Black resigns: White wins")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_a_strands_move_may_separate_its_cells_by_spaces_in_a_terminal(children):
    import boardcore as bc

    game = bc.Strands("hex4")
    game.play("b2")
    move = next(str(m) for m in game.legal_moves() if "," in str(m))  # White's first, two cells or more
    pexpect, child = spawn_play(children, "strands", "--layout", "hex4", "--black", "human", "--white", "human")
    child.expect_exact("black> ")
    child.sendline("b2")
    child.expect_exact("white> ")
    child.sendline(move.replace(",", " "))
    child.expect_exact(f"Black (b) to move, last move {move}")
    child.expect_exact("black> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()


def test_the_rive_help_shows_a_capture_in_a_terminal(children):
    pexpect, child = spawn_play(children, "rive", "--board", "hex3", "--black", "human", "--white", "random")
    child.expect_exact("A move is a cell (c3); a capture is the cell, x, the removed cells (c3xb2,d1)")
    child.expect_exact("black> ")
    child.sendline("help")
    child.expect_exact("a capture is the cell, x, the removed cells (c3xb2,d1)")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()


# Through plain stdin.


def test_two_random_players_play_a_whole_game_to_a_result(monkeypatch, capsys):
    code, out = play(monkeypatch, capsys, ["reversi", "--black", "random", "--white", "random"])
    lines = out.splitlines()
    assert code == 0 and lines[-1] in RESULTS and lines[-2].startswith("Score: Black ")
    assert "Black plays" in out and "White plays" in out


def test_mcts_against_random_finishes_on_a_small_board(monkeypatch, capsys):
    code, out = play(monkeypatch, capsys, ["reversi", "--size", "6", "--black", "mcts:50", "--white", "random"])
    assert code == 0 and out.splitlines()[-1] in RESULTS


def test_the_same_seed_replays_the_same_game(monkeypatch, capsys):
    args = ["reversi", "--size", "6", "--black", "random", "--white", "random"]
    first = play(monkeypatch, capsys, [*args, "--seed", "5"])
    assert play(monkeypatch, capsys, [*args, "--seed", "5"]) == first
    assert play(monkeypatch, capsys, [*args, "--seed", "6"]) != first


def test_an_unknown_player_is_a_usage_error_on_stderr(capsys):
    with pytest.raises(SystemExit) as exit:
        main(["play", "reversi", "--black", "robot"])
    captured = capsys.readouterr()
    assert exit.value.code == 2 and "robot" in captured.err and captured.out == ""


def test_end_of_input_quits_at_once_with_exit_code_0(monkeypatch, capsys):
    code, out = play(monkeypatch, capsys, ["reversi"])
    assert code == 0 and out.count("black> ") == 1
    assert not any(result in out for result in RESULTS)


def test_quit_leaves_the_game_with_exit_code_0(monkeypatch, capsys):
    code, out = play(monkeypatch, capsys, ["reversi"], "quit\nd3\n")
    assert code == 0 and "White plays" not in out


def test_undo_with_nothing_to_undo_says_so(monkeypatch, capsys):
    code, out = play(monkeypatch, capsys, ["reversi"], "undo\n")
    assert code == 0 and "nothing to undo" in out


def test_bad_input_gets_a_one_line_message_and_changes_nothing(monkeypatch, capsys):
    typed = "d9\nd3 d4\nhello\n\nquit\n"
    code, out = play(monkeypatch, capsys, ["reversi", "--black", "human", "--white", "human"], typed)
    assert code == 0
    assert "black> illegal move: d9 is off the 8x8 board\n" in out
    assert "black> not a move: expected a square like 'd3' or 'pass', got \"d3 d4\"\n" in out
    assert "black> unknown command: hello" in out
    # Nothing was played: the board is shown once and White never gets a turn (after the greeting).
    assert out.count("Black (b) to move") == 1 and "White" not in out[out.index("black> ") :]


def test_help_lists_the_commands(monkeypatch, capsys):
    _code, out = play(monkeypatch, capsys, ["reversi"], "help\n")
    assert all(f"  {command} " in out for command in ("moves", "undo", "hint", "resign", "help", "quit"))


@pytest.mark.parametrize(
    "game, example",
    [
        ("reversi", "a square (d3), or pass"),
        ("cephalopod", "a capture is the square, x, the captured squares (c3xc2,b3)"),
        ("rive", "a capture is the cell, x, the removed cells (c3xb2,d1)"),
        ("strands", "with commas or spaces between them (a1,a6 or a1 a6)"),
    ],
)
def test_the_greeting_and_help_show_every_kind_of_move(monkeypatch, capsys, game, example):
    _code, out = play(monkeypatch, capsys, [game], "help\n")
    greeting, help_text = out.split("black> ", 1)
    assert example in greeting and example in help_text


def test_resign_ends_the_game_with_the_other_side_winning(monkeypatch, capsys):
    code, out = play(monkeypatch, capsys, ["reversi", "--black", "human", "--white", "human"], "d3\nresign\n")
    assert code == 0 and out.endswith("white> White resigns: Black wins\n")


def test_the_board_with_your_move_comes_before_the_computers_reply(monkeypatch, capsys):
    _code, out = play(monkeypatch, capsys, ["reversi", "--white", "random"], "d3\n")
    assert out.index("White (w) to move, last move d3\n") < out.index("White plays ")


def test_a_huge_move_list_shows_its_count_and_the_first_20(monkeypatch, capsys):
    args = ["strands", "--black", "human", "--white", "human"]
    code, out = play(monkeypatch, capsys, args, "c3\nmoves\n")
    listed = out.split("legal moves (58472, the first 20): ")[1].splitlines()[0].split()
    assert code == 0 and len(listed) == 20


@pytest.mark.parametrize(
    "game, variant, move",
    [
        ("cephalopod", ["--rows", "3", "--cols", "3"], "b2"),
        ("reversi", [], "d3"),
        ("rive", ["--board", "hex3"], "a1"),
        ("strands", ["--layout", "hex4"], "b2"),
    ],
)
def test_a_person_plays_the_first_move_by_notation(monkeypatch, capsys, game, variant, move):
    args = [game, *variant, "--black", "human", "--white", "human"]
    code, out = play(monkeypatch, capsys, args, f"{move}\n")
    assert code == 0 and f"White (w) to move, last move {move}\nwhite> " in out


# Greeting, undo, typing (issue 14, items 8 and 11).


def test_the_greeting_says_who_is_who_who_moves_first_and_where_help_is(monkeypatch, capsys):
    _code, out = play(monkeypatch, capsys, ["reversi", "--black", "human", "--white", "mcts:50"])
    first, second = out.splitlines()[:2]
    assert first == "Reversi 8x8: Black (b) is human, White (w) is the computer (mcts:50). Black moves first."
    assert "help lists them" in second and "type a move (like d3)" in second
    assert out.splitlines()[2] == "A move is a square (d3), or pass when you have no square."


def test_the_greeting_of_a_position_says_who_moves_next(monkeypatch, capsys):
    position = "4 ..../.wb./.bw./.... w"
    _code, out = play(monkeypatch, capsys, ["reversi", "--position", position, "--white", "human", "--black", "random"])
    assert "Black (b) is the computer (random), White (w) is human. White moves first." in out.splitlines()[0]


def test_a_hex_game_shows_its_coordinates_and_says_how_to_read_them(monkeypatch, capsys):
    _code, out = play(monkeypatch, capsys, ["rive", "--board", "hex3", "--white", "human"])
    assert "row's letter and its number from the left of the row" in out
    assert "\n     1 2 3 4 5\n  a . . .\n b . . . .\nc . . . . .\n" in out


def test_undo_says_which_moves_it_took_back(monkeypatch, capsys):
    _code, out = play(monkeypatch, capsys, ["reversi", "--white", "random"], "d3\nundo\n")
    reply = out.split("White plays ")[1].split()[0]
    assert f"black> took back Black d3, White {reply}\n" in out


def test_cells_of_a_move_may_be_separated_by_a_comma_and_blanks(monkeypatch, capsys):
    import boardcore as bc

    game = bc.Strands("hex4")
    game.play("b2")
    move = next(str(m) for m in game.legal_moves() if "," in str(m))
    typed = "b2\n" + move.replace(",", " , ").replace(" , ", ", ", 1) + "\n"
    code, out = play(monkeypatch, capsys, ["strands", "--layout", "hex4", "--white", "human"], typed)
    assert code == 0 and f"Black (b) to move, last move {move}\n" in out


def test_the_cells_of_a_strands_move_may_be_separated_by_spaces_alone(monkeypatch, capsys):
    import boardcore as bc

    game = bc.Strands("hex4")
    game.play("b2")
    move = next(str(m) for m in game.legal_moves() if "," in str(m))
    typed = "b2\n" + move.replace(",", "  ") + "\n"
    code, out = play(monkeypatch, capsys, ["strands", "--layout", "hex4", "--white", "human"], typed)
    assert code == 0 and f"Black (b) to move, last move {move}\n" in out


def test_a_control_key_is_shown_as_typed(monkeypatch, capsys):
    _code, out = play(monkeypatch, capsys, ["reversi"], "\x1b[A\n")
    assert 'black> not a move: "^[[A" holds control characters' in out
    assert "\\u{1b}" not in out and "\x1b" not in out
