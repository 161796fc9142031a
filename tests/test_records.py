"""`load_record` refuses what is not one record's text with a message that says what to do
instead (issue 14, item 13): a path, the name of a file, a text of several games."""

from __future__ import annotations

import pathlib

import boardcore as bc
import pytest


def two_records() -> str:
    first, second = bc.Reversi(), bc.Cephalopod(3, 3)
    first.play("d3")
    second.play("b2")
    return first.record() + "\n" + second.record()


def test_a_text_of_several_games_points_to_load_records():
    text = two_records()
    with pytest.raises(bc.NotationError, match=r"the text holds 2 games; load_records\(text\) reads them all"):
        bc.load_record(text)
    assert [type(game) for game in bc.load_records(text)] == [bc.Reversi, bc.Cephalopod]


def test_a_path_points_to_reading_the_file(tmp_path):
    path = tmp_path / "games.txt"
    path.write_text(two_records())
    with pytest.raises(TypeError, match=r"not a file: got the path .*games\.txt.*read_text\(\).*load_records"):
        bc.load_record(path)
    with pytest.raises(TypeError, match="not a file"):
        bc.load_record(pathlib.PurePosixPath("games.txt"))
    with pytest.raises(bc.NotationError, match=r"is the name of a file, not a record: .*load_records"):
        bc.load_record(str(path))


def test_text_that_names_no_file_is_still_a_record_without_a_game_tag(tmp_path):
    for text in [str(tmp_path / "missing.txt"), "d3 c5", str(tmp_path), "\x00", "x" * 5000]:
        with pytest.raises(bc.NotationError, match="the Game tag is missing"):
            bc.load_record(text)


def test_one_record_still_loads():
    game = bc.Rive("hex3")
    game.play("c3")
    assert bc.load_record(game.record()) == game
