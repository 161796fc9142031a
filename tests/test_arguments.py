"""Integer and number arguments of the binding (docs/design.md, "Input limits"): huge, negative,
bool, float, numpy integers of every width and wrong types. A refusal is a ValueError naming the
argument, what is allowed and what was given: never an OverflowError from the conversion, never a
wrapped number. (Actions and row indices follow Python's own rules: see their tests.)"""

from __future__ import annotations

import pickle

import boardcore as bc
import boardcore.reference as ref
import numpy as np
import pytest
from boardcore import mcts

NUMPY_INTEGERS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


def searcher(**settings):
    return mcts.Searcher(bc.Reversi(), settings.pop("iterations", 1), **settings)


# name -> (call taking the value, a valid value, the smallest allowed, the largest allowed)
INTEGER_ARGUMENTS = {
    "Reversi size": (lambda v: bc.Reversi(size=v), 6, None, None),
    "Reversi handicap": (lambda v: bc.Reversi(handicap=v), 2, 0, 4),
    "Reversi handicap_color": (lambda v: bc.Reversi(handicap=1, handicap_color=v), 1, 0, 1),
    "Reversi.random seed": (lambda v: bc.Reversi.random(v), 7, 0, 2**64 - 1),
    "Cephalopod rows": (lambda v: bc.Cephalopod(rows=v), 3, 2, 8),
    "Cephalopod cols": (lambda v: bc.Cephalopod(cols=v), 3, 2, 8),
    "Rive board row": (lambda v: bc.Rive(board=[(v, 0), (2, 1)]), 3, None, None),
    "Strands layout label": (lambda v: bc.Strands(layout=["12", "323", [2, v]]), 2, None, None),
    "Strands.random_layout side": (lambda v: bc.Strands.random_layout(v, 1), 3, 2, 7),
    "Strands.random_layout seed": (lambda v: bc.Strands.random_layout(3, v), 1, 0, 2**64 - 1),
    "perft depth": (lambda v: bc.Reversi(size=4).perft(v), 2, 0, 64),
    "perft threads": (lambda v: bc.Reversi(size=4).perft(1, threads=v), 2, 1, 1024),
    "divide depth": (lambda v: bc.Reversi(size=4).divide(v), 2, 1, 64),
    "playouts n": (lambda v: bc.Reversi(size=4).playouts(v), 3, 0, 2**64 - 1),
    "playouts seed": (lambda v: bc.Reversi(size=4).playouts(1, seed=v), 3, 0, 2**64 - 1),
    "playouts threads": (lambda v: bc.Reversi(size=4).playouts(1, threads=v), 2, 1, 1024),
    "random_move seed": (lambda v: bc.Reversi().random_move(seed=v), 5, 0, 2**64 - 1),
    "count_paths depth": (lambda v: bc.Cephalopod(2, 2).count_paths(v), 2, 0, 10_000),
    "Searcher iterations": (lambda v: searcher(iterations=v), 5, 1, 2**64 - 1),
    "Searcher seed": (lambda v: searcher(seed=v), 5, 0, 2**64 - 1),
    "Searcher threads": (lambda v: searcher(threads=v), 2, 1, 1024),
    "Searcher widening_limit": (lambda v: searcher(widening_limit=v), 5, 0, 2**64 - 1),
    "search iterations": (lambda v: searcher().search(iterations=v), 5, 1, 2**64 - 1),
    "VectorEnv n": (lambda v: bc.VectorEnv("reversi", v), 2, 1, 1 << 16),
    "VectorEnv seed": (lambda v: bc.VectorEnv("reversi", 1, seed=v), 2, 0, 2**64 - 1),
    "VectorEnv threads": (lambda v: bc.VectorEnv("reversi", 1, threads=v), 2, 1, 1024),
}

HUGE = [2**64, 2**64 + 1, 10**20, 2**200, -(2**64), -(2**200), 2**100_000]
NOT_INTEGERS = [True, False, 1.0, 2.5, float("nan"), "3", b"3", [3], 3j, np.float64(3.0), np.bool_(True)]


def refused(call, value):
    """The message of the ValueError `call(value)` raises (anything else fails the test)."""
    with pytest.raises(ValueError) as error:
        call(value)
    assert not isinstance(error.value, OverflowError)
    return str(error.value)


@pytest.mark.parametrize("label", INTEGER_ARGUMENTS)
def test_integer_arguments_accept_numpy_integers_of_every_width(label):
    call, valid, _, _ = INTEGER_ARGUMENTS[label]
    call(valid)
    for numpy_type in NUMPY_INTEGERS:
        call(numpy_type(valid))


@pytest.mark.parametrize("label", INTEGER_ARGUMENTS)
def test_huge_integers_are_value_errors_that_show_the_number(label):
    call, _, _, _ = INTEGER_ARGUMENTS[label]
    for value in HUGE:
        message = refused(call, value)
        if abs(value) < 10**30:
            assert str(value) in message, message
        elif value == 2**100_000:
            assert "100001 bits" in message, message


@pytest.mark.parametrize("label", INTEGER_ARGUMENTS)
def test_bools_floats_and_other_types_are_value_errors_that_name_the_type(label):
    call, _, _, _ = INTEGER_ARGUMENTS[label]
    for value in NOT_INTEGERS:
        kind = type(value).__name__
        article = "an" if kind[0] in "aeiou" else "a"
        # '3' and 3 look alike in a message: the type says which was given (issue 14, item 13).
        assert f"({article} {kind})" in refused(call, value)


def test_a_string_size_says_sizes_are_ints():
    for reversi in (bc.Reversi, ref.Reversi):
        with pytest.raises(ValueError, match=r"^size must be an int or 'octagon', got '8' \(a str\)$"):
            reversi(size="8")
        with pytest.raises(ValueError, match=r"size must be 4, 6, 8, 10 or 'octagon', got 7$"):
            reversi(size=7)


@pytest.mark.parametrize("label", [k for k, v in INTEGER_ARGUMENTS.items() if v[2] is not None])
def test_the_range_is_checked_at_both_ends_and_said(label):
    call, _, low, high = INTEGER_ARGUMENTS[label]
    name = label.split(" ")[-1]
    message = refused(call, low - 1)
    assert name in message and f"got {low - 1}" in message, message
    assert (
        f"from {low} to {'2**64-1' if high == 2**64 - 1 else high}" in message or label == "Reversi handicap_color"
    ), message
    if high < 2**16:
        refused(call, high + 1)
    for numpy_type in (np.int64, np.int8):
        refused(call, numpy_type(low - 1))


def test_the_reported_cases_of_the_issue():
    assert "widening_limit must be an integer from 0 to 2**64-1, got 18446744073709551616" in refused(
        lambda v: searcher(widening_limit=v), 2**64
    )
    assert "iterations must be an integer from 1 to 2**64-1, got 100000000000000000000" in refused(
        lambda v: searcher(iterations=v), 10**20
    )
    paths = bc.Cephalopod(2, 2).count_paths(1)
    with pytest.raises(IndexError, match="row 9223372036854775808 of 4"):
        paths.position(2**63)
    env = bc.VectorEnv("reversi", 2)
    with pytest.raises(bc.IllegalMoveError, match="env 1: action 18446744073709551615 is out of range"):
        env.step(np.array([19, 2**64 - 1], dtype=np.uint64))
    with pytest.raises(bc.IllegalMoveError, match="18446744073709551615"):
        bc.Reversi().actions().apply_action(np.uint64(2**64 - 1))


NUMBER_SETTINGS = ["time_limit", "exploration", "widening_coefficient", "widening_exponent"]


@pytest.mark.parametrize("name", NUMBER_SETTINGS)
def test_number_settings_are_value_errors_for_huge_bool_and_other_types(name):
    call = lambda v: searcher(**{name: v})  # noqa: E731
    call(0.5)
    call(np.float32(0.5))
    call(1)
    for value in [10**400, -(10**400), True, "0.5", [0.5], 1j, float("nan"), float("inf")]:
        assert name in refused(call, value)


def test_search_time_limit_is_checked_the_same_way():
    s = searcher()
    for value in [10**400, True, "1", 0, -1.0]:
        assert "time_limit" in refused(lambda v: s.search(time_limit=v), value)


def test_row_indices_follow_python_sequences():
    paths = bc.Cephalopod(2, 2).count_paths(1)
    assert paths.position(np.int8(-1)) == paths.position(len(paths) - 1)
    assert paths.position(np.uint64(0)) == paths.position(0)
    for value in [len(paths), -len(paths) - 1, 2**63, -(2**63) - 1, 2**100_000]:
        with pytest.raises(IndexError):
            paths.position(value)
    for value in [True, 1.0, "1", None]:
        with pytest.raises(TypeError):
            paths.position(value)


def test_actions_of_every_numpy_width_are_read_exactly():
    for numpy_type in NUMPY_INTEGERS:
        state = bc.Reversi().actions()
        state.apply_action(numpy_type(19))
        env = bc.VectorEnv("reversi", 2)
        env.step(np.array([19, 19], dtype=numpy_type))
    for numpy_type in (np.int8, np.int16, np.int32, np.int64):
        env = bc.VectorEnv("reversi", 1)
        with pytest.raises(bc.IllegalMoveError, match="action -1 "):
            env.step(np.array([-1], dtype=numpy_type))


def test_vector_env_given_a_game_class_says_to_pass_its_name():
    # Issue 14, item 13: it said only "game must be a string, got type".
    for cls, name in [(bc.Reversi, "reversi"), (ref.Strands, "strands"), (bc.Cephalopod, "cephalopod")]:
        with pytest.raises(TypeError, match=f"pass the game's name, '{name}', not the class"):
            bc.VectorEnv(cls, 4)
    with pytest.raises(TypeError, match="game must be a string, got int"):
        bc.VectorEnv(3, 4)


def test_vector_env_game_names_are_read_in_any_case_as_board_names_are():
    env = bc.VectorEnv("Reversi", 2, size=6)
    assert env.game == "reversi"
    assert pickle.loads(pickle.dumps(env)).game == "reversi"
    with pytest.raises(ValueError, match="got 'Othello'"):  # what was typed
        bc.VectorEnv("Othello", 2)


# Constructor arguments of both implementations, given a value of the wrong type: the message
# names the argument and the type given (issue 14, item 13).
WRONG_TYPES = {
    "Reversi size": (lambda m: m.Reversi(size="8"), "size", "'8' (a str)"),
    "Reversi handicap": (lambda m: m.Reversi(handicap="1"), "handicap", "'1' (a str)"),
    "Reversi handicap_color": (lambda m: m.Reversi(handicap=1, handicap_color=1.0), "handicap_color", "(a float)"),
    "Reversi.random seed": (lambda m: m.Reversi.random("3"), "seed", "'3' (a str)"),
    "Cephalopod rows": (lambda m: m.Cephalopod(rows="3"), "rows", "'3' (a str)"),
    "Cephalopod cols": (lambda m: m.Cephalopod(cols=3.0), "cols", "3.0 (a float)"),
    "Rive swap": (lambda m: m.Rive(swap="yes"), "swap", "'yes' (a str)"),
    "Rive single_stones": (lambda m: m.Rive(single_stones=1), "single_stones", "1 (an int)"),
    "Strands cover": (lambda m: m.Strands(cover=1), "cover", "1 (an int)"),
    "Strands.random_layout side": (lambda m: m.Strands.random_layout("3", 1), "side", "'3' (a str)"),
}


@pytest.mark.parametrize("label", WRONG_TYPES)
@pytest.mark.parametrize("impl", [bc, ref], ids=["engine", "twin"])
def test_a_constructor_argument_of_the_wrong_type_names_the_type(label, impl):
    call, name, shown = WRONG_TYPES[label]
    message = refused(lambda _: call(impl), None)
    assert message.startswith(f"{name} must be") and shown in message, message
