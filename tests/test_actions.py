"""The step form of every game and VectorEnv (docs/actions.md): the engine against its reference
twin along random action sequences, then the contract clause by clause, then a property test."""

from __future__ import annotations

import contextlib
import copy
import random
import re

import boardcore as bc
import boardcore.reference as ref
import harness
import numpy as np
import pytest
from harness import ENGINES, HEX3_LAYOUT, REFERENCES, STEP_VARIANTS
from hypothesis import given, settings
from hypothesis import strategies as st

SMALL_VARIANTS = [v for v in STEP_VARIANTS if v[1] not in ({"size": 8}, {"size": "octagon"}, {"rows": 5, "cols": 5})]


def variant_id(variant) -> str:
    game, kwargs = variant
    return game + "-" + "-".join(str(v) for k, v in kwargs.items() if k != "layout" or isinstance(v, str))


def pair(game: str, kwargs: dict, rng: random.Random | None = None, moves: int = 0, **options):
    """The step states of the engine and the reference after `moves` random compound moves
    (`options` go to `actions()`: Strands' `any_order`)."""
    engine, reference = ENGINES[game](**kwargs), REFERENCES[game](**kwargs)
    for _ in range(moves):
        if engine.is_over():
            break
        move = str(rng.choice(engine.legal_moves()))
        engine.play(move)
        reference.play(move)
    return engine.actions(**options), reference.actions(**options)


def observable(state) -> tuple:
    """Everything a step state shows, except arrays (compared apart)."""
    covered = state.covered if hasattr(state, "covered") else ()
    return (
        state.num_actions,
        tuple(state.observation_shape),
        state.legal_actions(),
        state.to_move,
        state.is_over(),
        state.winner(),
        tuple(state.returns()),
        state.position(),
        tuple(covered),
    )


def assert_same(engine, reference, names: bool = False) -> None:
    assert observable(engine) == observable(reference)
    assert np.array_equal(engine.action_mask(), reference.action_mask())
    observation = engine.observation()
    assert observation.dtype == np.float32 and observation.shape == engine.observation_shape
    assert np.array_equal(observation, reference.observation())
    if names:
        assert [engine.action_name(a) for a in range(engine.num_actions)] == [
            reference.action_name(a) for a in range(reference.num_actions)
        ]


def snapshot(state) -> tuple:
    return observable(state), state.action_mask().tobytes(), state.observation().tobytes()


# ---- the engine against the reference -----------------------------------------------------


@pytest.mark.parametrize("variant", STEP_VARIANTS, ids=variant_id)
def test_engine_and_reference_step_states_agree_along_random_games(variant):
    game, kwargs = variant
    rng = random.Random(variant_id(variant))
    for start_moves in (0, rng.randrange(1, 6), rng.randrange(6, 20)):
        play_both(*pair(game, kwargs, rng, start_moves), rng)


@pytest.mark.parametrize("variant", [v for v in STEP_VARIANTS if v[0] == "strands"], ids=variant_id)
def test_engine_and_reference_agree_on_strands_turns_in_any_order(variant):
    """The twin derives any-order steps from the compound moves (the legal cells are the other
    cells of the moves containing those covered); the engine from the label's empty cells."""
    game, kwargs = variant
    rng = random.Random("any-order " + variant_id(variant))
    mid_turn_out_of_board_order = 0
    for start_moves in (0, rng.randrange(1, 6), rng.randrange(6, 20)):
        engine, reference = pair(game, kwargs, rng, start_moves, any_order=True)
        assert engine.any_order and reference.any_order
        assert_same(engine, reference, names=True)
        turn: list[int] = []
        while not engine.is_over():
            action = rng.choice(engine.legal_actions())
            mid_turn_out_of_board_order += bool(turn) and action < max(turn)  # before a covered cell
            engine.apply_action(action)
            reference.apply_action(action)
            assert_same(engine, reference)
            turn = [*turn, action] if engine.covered else []
    assert mid_turn_out_of_board_order > 0


def test_strands_any_order_is_off_by_default_and_keyword_only():
    game = bc.Strands(layout="hex4")
    assert not game.actions().any_order and not ref.Strands(layout="hex4").actions().any_order
    assert game.actions(any_order=True).any_order
    with pytest.raises(TypeError):
        game.actions(True)  # type: ignore[misc]


def play_both(engine, reference, rng: random.Random) -> None:
    """Random actions to the end of the game, comparing the two after every step."""
    assert_same(engine, reference, names=True)
    while not engine.is_over():
        action = rng.choice(engine.legal_actions())
        engine.apply_action(action)
        reference.apply_action(action)
        assert_same(engine, reference, names=rng.random() < 0.1)


@pytest.mark.slow
@pytest.mark.parametrize(
    "variant",
    [
        ("reversi", {"size": 10, "handicap": 2}),
        ("reversi", {"seed": 7, "blocked": "random"}),
        ("cephalopod", {"rows": 4, "cols": 6}),
        ("rive", {"board": "hex335", "swap": True}),
        ("rive", {"board": "hex4"}),
        ("strands", {"layout": "hex5", "cover": "up-to"}),
        ("strands", {"layout": "hex5", "cover": "exact"}),
    ],
    ids=variant_id,
)
def test_engine_and_reference_agree_on_larger_boards(variant):
    game, kwargs = variant
    rng = random.Random(variant_id(variant))
    for _ in range(3):
        play_both(*pair(game, kwargs, rng, rng.randrange(0, 10)), rng)


# ---- what every game shares ------------------------------------------------------------------


@pytest.mark.parametrize("variant", SMALL_VARIANTS, ids=variant_id)
@pytest.mark.parametrize("side", ["engine", "reference"])
def test_illegal_action_changes_nothing(variant, side):
    game, kwargs = variant
    rng = random.Random(variant_id(variant))
    state = pair(game, kwargs, rng, 3)[side == "reference"]
    for _ in range(6):
        before = snapshot(state)
        legal = set(state.legal_actions())
        for action in [a for a in range(state.num_actions) if a not in legal][:40] + [-1, state.num_actions, 2**70]:
            with pytest.raises(bc.IllegalMoveError):
                state.apply_action(action)
            assert snapshot(state) == before
        if state.is_over():
            break
        state.apply_action(rng.choice(sorted(legal)))


@pytest.mark.parametrize("Game", [bc.Reversi, ref.Reversi])
def test_actions_are_integers(Game):
    state = Game().actions()
    for bad in ["19", 19.0, True, None, [19]]:
        with pytest.raises(TypeError):
            state.apply_action(bad)
        with pytest.raises(TypeError):
            state.action_name(bad)
    for out_of_range in (-1, 65, 2**64):
        with pytest.raises(ValueError):
            state.action_name(out_of_range)
    assert state.action_name(np.int64(19)) == "d3"
    state.apply_action(np.uint8(19))
    assert state.to_move == bc.WHITE


@pytest.mark.parametrize("variant", SMALL_VARIANTS, ids=variant_id)
def test_returns_are_zero_until_the_end_then_plus_and_minus_one(variant):
    game, kwargs = variant
    state = ENGINES[game](**kwargs).actions()
    rng = random.Random(5)
    while not state.is_over():
        assert state.returns() == (0.0, 0.0) and state.winner() is None
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.legal_actions() == [] and not state.action_mask().any()
    expected = {bc.BLACK: (1.0, -1.0), bc.WHITE: (-1.0, 1.0), None: (0.0, 0.0)}[state.winner()]
    assert state.returns() == expected


@pytest.mark.parametrize("Game", [bc.Cephalopod, ref.Cephalopod])
def test_actions_is_a_snapshot_and_copies_are_independent(Game):
    game = Game(rows=3, cols=3)
    state = game.actions()
    game.play("a1")
    assert state.legal_actions() == list(range(0, 9 * 16, 16))
    for duplicate in (state.copy(), copy.copy(state), copy.deepcopy(state)):
        duplicate.apply_action(0)
        assert state.position() == "3x3 .../.../... b"
    state.apply_action(4 * 16)
    assert (state.position(), game.position()) == ("3x3 .../.1b./... w", "3x3 1b../.../... w")


@pytest.mark.parametrize("Game", [bc.Rive, ref.Rive])
def test_observations_are_from_the_side_to_move(Game):
    state = Game(board="hex3").actions()
    state.apply_action(9)  # Black on c3, the centre
    observation = state.observation()
    assert observation[0].sum() == 0 and observation[1].sum() == 1, "White to move: Black's stone is the opponent's"
    assert observation[1, 2, 2] == 1.0


# ---- Reversi -----------------------------------------------------------------------------------


@pytest.mark.parametrize("Game", [bc.Reversi, ref.Reversi])
def test_reversi_actions_are_the_squares_in_row_major_order(Game):
    state = Game().actions()
    assert (state.num_actions, state.observation_shape) == (65, (4, 8, 8))
    assert state.legal_actions() == [19, 26, 37, 44]
    assert [state.action_name(a) for a in state.legal_actions()] == ["d3", "c4", "f5", "e6"]
    observation = state.observation()
    assert observation[0, 3, 4] == observation[0, 4, 3] == 1.0, "Black's e4, d5"
    assert observation[2].sum() == 60 and observation[3].sum() == 0


@pytest.mark.parametrize("Game", [bc.Reversi, ref.Reversi])
def test_reversi_pass_is_the_last_action(Game):
    rng = random.Random(2)
    for _ in range(200):
        game = Game(size=6)
        while not game.is_over() and str(game.legal_moves()[0]) != "pass":
            game.play(rng.choice(game.legal_moves()))
        if not game.is_over():
            break
    state = game.actions()
    assert state.legal_actions() == [36] and state.action_name(36) == "pass"
    state.apply_action(36)
    assert state.to_move != game.to_move


@pytest.mark.parametrize("Game", [bc.Reversi, ref.Reversi])
def test_reversi_holes_and_cut_squares_are_actions_never_legal(Game):
    octagon = Game(size="octagon").actions()
    assert octagon.num_actions == 101 and octagon.observation()[3].sum() == 12
    with pytest.raises(bc.IllegalMoveError):
        octagon.apply_action(0)  # a1 is cut
    holed = Game(blocked=["b2"]).actions()
    assert holed.observation()[3, 1, 1] == 1.0
    with pytest.raises(bc.IllegalMoveError):
        holed.apply_action(9)


# ---- Cephalopod --------------------------------------------------------------------------------


@pytest.mark.parametrize("Game", [bc.Cephalopod, ref.Cephalopod])
def test_cephalopod_action_is_the_square_times_16_plus_the_compass_mask_of_its_captures(Game):
    game = Game.from_position("3x3 .1b./2w.3b/.1w. w")
    state = game.actions()
    north_and_south = 4 * 16 + 0b0101
    assert state.action_name(north_and_south) == "b2xb1,b3"
    assert state.action_name(4 * 16 + 0b1010) == "b2xa2,c2"
    assert state.action_name(0b1001) == "a1xNW"
    names = sorted(state.action_name(a) for a in state.legal_actions())
    assert names == sorted(str(m) for m in game.legal_moves()), "one action per move"
    assert 4 * 16 not in state.legal_actions(), "a capture is possible on b2"
    state.apply_action(north_and_south)
    assert state.position() == "3x3 .../2w2w3b/... b"


@pytest.mark.parametrize("Game", [bc.Cephalopod, ref.Cephalopod])
def test_cephalopod_observation_has_a_plane_per_pip_count(Game):
    state = Game.from_position("3x3 .1b./2w.3b/.1w. w").actions()
    observation = state.observation()
    assert observation.shape == (13, 3, 3)
    assert observation[1, 1, 0] == 1.0, "White's own 2 on a2"
    assert observation[6 + 2, 1, 2] == 1.0, "Black's 3 on c2, an opponent's die"
    assert observation[12].sum() == 5


# ---- Rive --------------------------------------------------------------------------------------


@pytest.mark.parametrize("Game", [bc.Rive, ref.Rive])
def test_rive_step_form_is_the_single_stone_form(Game):
    state = Game(board="hex3").actions()
    assert state.position().endswith(" single")
    assert (state.num_actions, state.observation_shape) == (20, (6, 5, 5))


@pytest.mark.parametrize("Game", [bc.Rive, ref.Rive])
def test_rive_cells_remove_stones_while_a_capture_is_under_way(Game):
    state = Game(board="hex335").actions()
    rng = random.Random(8)
    while "capture=" not in state.position():
        state.apply_action(rng.choice(state.legal_actions()))
    mover = state.to_move
    assert all(state.action_name(a).startswith("x") for a in state.legal_actions())
    assert state.observation()[4].sum() == 1
    while "capture=" in state.position():
        assert state.to_move == mover
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.to_move == mover, "the capturer places again"


@pytest.mark.parametrize("Game", [bc.Rive, ref.Rive])
def test_rive_swap_is_the_last_action(Game):
    state = Game(board="hex3", swap=True).actions()
    state.apply_action(0)
    assert state.legal_actions()[-1] == 19 and state.action_name(19) == "swap"
    state.apply_action(19)
    assert state.to_move == bc.BLACK and state.position().startswith("hex3 w..")


@pytest.mark.parametrize("Game", [bc.Rive, ref.Rive])
def test_hex_observations_use_the_axial_grid(Game):
    on_board = Game(board="hex3").actions().observation()[3]
    expected = [[0, 0, 1, 1, 1], [0, 1, 1, 1, 1], [1, 1, 1, 1, 1], [1, 1, 1, 1, 0], [1, 1, 1, 0, 0]]
    assert on_board.tolist() == expected


# ---- Strands -----------------------------------------------------------------------------------


def strands_after_opening(Game, cover: str):
    state = Game(layout="hex4", cover=cover).actions()
    state.apply_action(state.legal_actions()[0])
    return state


@pytest.mark.parametrize("Game", [bc.Strands, ref.Strands])
def test_strands_black_opening_is_one_2_and_ends_by_itself(Game):
    state = Game(layout="hex4").actions()
    labels = Game(layout="hex4").labels
    assert {labels[a] for a in state.legal_actions()} == {2}
    state.apply_action(state.legal_actions()[0])
    assert state.to_move == bc.WHITE and state.covered == ()


@pytest.mark.parametrize("cover", ["up-to", "exact"])
@pytest.mark.parametrize("Game", [bc.Strands, ref.Strands])
def test_strands_cells_of_a_turn_come_in_increasing_order(Game, cover):
    state = strands_after_opening(Game, cover)
    labels = Game(layout="hex4").labels
    state.apply_action(7)  # b4, a 2 (the opening took b2)
    end = state.num_actions - 1
    cells = [a for a in state.legal_actions() if a != end]
    assert cells and all(a > 7 and labels[a] == 2 for a in cells)
    assert state.covered == ("b4",) and state.observation()[9].sum() == 1
    with pytest.raises(bc.IllegalMoveError):
        state.apply_action(6)  # b3 is a 2, but before b4


@pytest.mark.parametrize("Game", [bc.Strands, ref.Strands])
def test_strands_up_to_offers_end_and_exact_never_does(Game):
    up_to, exact = strands_after_opening(Game, "up-to"), strands_after_opening(Game, "exact")
    for state in (up_to, exact):
        assert state.num_actions - 1 not in state.legal_actions(), "no turn under way"
        state.apply_action(0)  # a1, a 4
    assert up_to.legal_actions()[-1] == up_to.num_actions - 1 and up_to.action_name(37) == "end"
    assert exact.num_actions - 1 not in exact.legal_actions()
    up_to.apply_action(37)
    assert up_to.to_move == bc.BLACK and up_to.position().startswith("up-to w334")


@pytest.mark.parametrize("Game", [bc.Strands, ref.Strands])
def test_strands_turn_ends_by_itself_at_x_cells_or_when_no_later_cell_of_its_label_remains(Game):
    state = strands_after_opening(Game, "up-to")
    for cell in (0, 3, 15):  # a1, a4, d1: three 4s, one short of four
        state.apply_action(cell)
        assert state.to_move == bc.WHITE
    state.apply_action(21)  # d7, the fourth 4
    assert state.to_move == bc.BLACK and state.covered == ()
    state.apply_action(36)  # g4: the last 4 of the board, nothing can follow
    assert state.to_move == bc.WHITE and state.covered == ()


@pytest.mark.parametrize("Game", [bc.Strands, ref.Strands])
def test_strands_exact_turns_only_start_where_they_can_be_completed(Game):
    state = strands_after_opening(Game, "exact")
    fours = [a for a, label in enumerate(Game(layout="hex4").labels) if label == 4]
    assert [a for a in state.legal_actions() if a in fours] == fours[:3], "four 4s needed, six remain"


@pytest.mark.parametrize("cover", ["up-to", "exact"])
def test_strands_steps_and_moves_are_in_bijection(cover):
    game = bc.Strands(HEX3_LAYOUT, cover)
    rng = random.Random(cover)
    while not game.is_over():
        reached = []
        stack = [game.actions()]
        while stack:
            state = stack.pop()
            for action in state.legal_actions():
                following = state.copy()
                following.apply_action(action)
                (stack if following.covered else reached).append(following)
        moves = []
        for move in game.legal_moves():
            child = game.copy()
            child.play(move)
            moves.append(child.position())
        assert sorted(state.position() for state in reached) == sorted(moves)
        assert len(set(moves)) == len(moves)
        game.play(rng.choice(game.legal_moves()))


@pytest.mark.parametrize("cover", ["up-to", "exact"])
def test_strands_step_states_show_their_order_mode_in_their_repr(cover):
    """Two states that differ only in their mode print differently (` order=any`, as the state
    text writes it, before the turn's cells); the engine's and the twin's reprs are the same."""
    rng = random.Random(cover)
    seen_mid_turn = 0
    for start_moves in (0, 3):
        for any_order in (False, True):
            engine, reference = pair(
                "strands", {"layout": "hex4", "cover": cover}, random.Random(1), start_moves, any_order=any_order
            )
            while not engine.is_over():
                assert repr(engine) == repr(reference)
                assert (" order=any" in repr(engine)) == any_order
                seen_mid_turn += bool(engine.covered)
                if engine.covered:
                    assert repr(engine).endswith(f" covering {','.join(engine.covered)}>")
                action = rng.choice(engine.legal_actions())
                engine.apply_action(action)
                reference.apply_action(action)
    assert seen_mid_turn > 0
    game = bc.Strands(layout="hex4")
    assert repr(game.actions()) != repr(game.actions(any_order=True))
    assert repr(game.actions(any_order=True)) == f"<StrandsActions {game.position()!r} order=any>"


@pytest.mark.parametrize("flag", [True, False, np.True_, np.False_], ids=repr)
def test_any_order_takes_the_same_values_wherever_it_is_given(flag):
    """`actions()`, `VectorEnv`, `selfplay` and the twin read `any_order` alike: a Python or a
    numpy boolean (what the engine's bool extraction takes)."""
    variant = {"layout": "hex4", "cover": "exact"}
    expected = bc.Strands(**variant).actions(any_order=bool(flag))
    assert bc.Strands(**variant).actions(any_order=flag).any_order == bool(flag)
    assert ref.Strands(**variant).actions(any_order=flag).any_order == bool(flag)
    env = bc.VectorEnv("strands", 1, seed=2, **variant, any_order=flag)
    state = expected.copy()
    for _ in range(12):
        action = int(env.sample_actions()[0])
        step = env.step([action])
        state.apply_action(action)
        if step.terminated[0]:
            break
        np.testing.assert_array_equal(step.masks[0], state.action_mask())
    data = bc.mcts.selfplay("strands", {**variant, "any_order": flag}, games=1, iterations=2, seed=1)
    replay = expected.copy()
    for row, action in enumerate(data.actions):
        np.testing.assert_array_equal(data.masks[row], replay.action_mask())
        replay.apply_action(int(action))


@pytest.mark.parametrize(("bad", "shown"), [(1, "1 (an int)"), ("yes", "'yes' (a str)"), (None, "None (a NoneType)")])
def test_any_order_refuses_anything_but_a_boolean_alike_everywhere(bad, shown):
    message = f"any_order must be True or False, got {shown}"
    calls = [
        lambda: bc.Strands(layout="hex4").actions(any_order=bad),
        lambda: ref.Strands(layout="hex4").actions(any_order=bad),
        lambda: bc.VectorEnv("strands", 1, layout="hex4", any_order=bad),
        lambda: bc.mcts.selfplay("strands", {"layout": "hex4", "any_order": bad}, games=1, iterations=1),
    ]
    for call in calls:
        with pytest.raises(TypeError, match=re.escape(message) + "$"):
            call()


# ---- VectorEnv ---------------------------------------------------------------------------------


def test_vector_env_has_the_games_variants_and_shapes():
    assert bc.VectorEnv("reversi", 2, size=6).observation_shape == (4, 6, 6)
    assert bc.VectorEnv("cephalopod", 2, rows=3, cols=4).num_actions == 192
    assert bc.VectorEnv("rive", 2, board="hex3", swap=True).num_actions == 20
    env = bc.VectorEnv("strands", 3, layout="hex4", cover="exact")
    assert (env.n, env.num_actions, env.observation_shape) == (3, 38, (10, 7, 7))
    observations, masks = env.reset()
    start = bc.Strands(layout="hex4", cover="exact").actions()
    assert observations.dtype == np.float32 and observations.shape == (3, 10, 7, 7)
    assert masks.dtype == np.bool_ and (masks == start.action_mask()).all()
    assert (observations == start.observation()).all()


def test_a_strands_vector_env_takes_the_any_order_step_form():
    env = bc.VectorEnv("strands", 2, seed=3, layout="hex4", cover="exact", any_order=True)
    states = [bc.Strands(layout="hex4", cover="exact").actions(any_order=True) for _ in range(2)]
    observations, masks = env.reset()
    for _ in range(60):
        assert (masks == [s.action_mask() for s in states]).all()
        assert (observations == [s.observation() for s in states]).all()
        actions = env.sample_actions()
        for state, action in zip(states, actions):
            state.apply_action(int(action))
        step = env.step(actions)
        if step.terminated.any():
            break
        observations, masks = step.obs, step.masks
    # Positions given at a reset take the env's mode (under `exact` its masks differ at once).
    game = bc.Strands(layout="hex4", cover="exact")
    game.play(game.legal_moves()[0])
    masks = env.reset(positions=[game, game.actions()]).masks
    assert (masks == game.actions(any_order=True).action_mask()).all()
    assert (masks != game.actions().action_mask()).any()
    with pytest.raises(TypeError, match="any_order"):
        bc.VectorEnv("strands", 2, layout="hex4", any_order=1)


def test_vector_env_checks_its_arguments():
    for args, kwargs, error in [
        (("chess", 2), {}, ValueError),
        (("reversi", 0), {}, ValueError),
        (("reversi", 2**17), {}, ValueError),
        (("reversi", "2"), {}, ValueError),
        (("reversi", 2), {"threads": 0}, ValueError),
        (("reversi", 2), {"seed": -1}, ValueError),
        (("reversi", 2), {"size": 7}, ValueError),
        (("reversi", 2), {"sise": 6}, TypeError),
    ]:
        with pytest.raises(error):
            bc.VectorEnv(*args, **kwargs)
    env = bc.VectorEnv("reversi", 2)
    for bad, error in [
        ([19], ValueError),
        ([19.0, 19.0], TypeError),
        (["d3", "d3"], TypeError),
        ([[19, 19]], ValueError),
    ]:
        with pytest.raises(error):
            env.step(bad)


def test_vector_env_rejects_an_illegal_action_naming_its_env_and_changes_nothing():
    env, twin = bc.VectorEnv("reversi", 3, seed=4), bc.VectorEnv("reversi", 3, seed=4)
    with pytest.raises(bc.IllegalMoveError, match=r"^env 2: "):
        env.step(np.array([19, 19, 0]))
    with pytest.raises(bc.IllegalMoveError, match=r"^env 0: action 65 is out of range"):
        env.step(np.array([65, 19, 19]))
    for one, other in zip(env.step([19, 26, 37]), twin.step([19, 26, 37])):
        assert np.array_equal(one, other)


def test_vector_env_auto_resets_a_finished_game():
    env = bc.VectorEnv("cephalopod", 4, seed=1, rows=2, cols=2)
    start = bc.Cephalopod(rows=2, cols=2).actions()
    finished = 0
    for _ in range(100):
        observations, masks, rewards, terminated, to_move = env.step(env.sample_actions())
        for i in np.flatnonzero(terminated):
            finished += 1
            assert np.array_equal(observations[i], start.observation())
            assert np.array_equal(masks[i], start.action_mask())
            assert to_move[i] == bc.BLACK
        assert not rewards[~terminated].any()
    assert finished >= 10


@pytest.mark.parametrize("variant", SMALL_VARIANTS, ids=variant_id)
def test_vector_env_steps_like_the_reference_step_states(variant):
    """Env i mirrored by a reference step state: the documented stream draws its actions, the
    reward goes to the player who acted, a finished game restarts at once."""
    game, kwargs = variant
    seed, n = 11, 3
    env = bc.VectorEnv(game, n, seed=seed, **kwargs)
    mirrors = [REFERENCES[game](**kwargs).actions() for _ in range(n)]
    streams = [harness.SplitMix64(harness.SplitMix64(seed + i).next()) for i in range(n)]
    for _ in range(30):
        actions = env.sample_actions()
        assert actions.dtype == np.int64
        observations, masks, rewards, terminated, to_move = env.step(actions)
        for i, mirror in enumerate(mirrors):
            legal = mirror.legal_actions()
            assert actions[i] == legal[streams[i].below(len(legal))]
            mover = mirror.to_move
            mirror.apply_action(int(actions[i]))
            assert terminated[i] == mirror.is_over()
            assert rewards[i] == mirror.returns()[mover]
            if mirror.is_over():
                mirrors[i] = mirror = REFERENCES[game](**kwargs).actions()
            assert np.array_equal(observations[i], mirror.observation())
            assert np.array_equal(masks[i], mirror.action_mask())
            assert to_move[i] == mirror.to_move


@pytest.mark.parametrize("autoreset", ["same-step", "next-step"])
def test_a_step_of_some_envs_leaves_the_others_as_they_stand(autoreset):
    """step(actions, envs=...): the envs left out neither act nor change (their actions, even
    illegal or out of range, are not read); their rows are written as they stand, reward 0."""
    env = bc.VectorEnv("cephalopod", 4, seed=5, autoreset=autoreset, rows=2, cols=2)
    mirror = bc.VectorEnv("cephalopod", 2, seed=5, autoreset=autoreset, rows=2, cols=2)
    before = env.reset()
    mirror.reset()
    for _ in range(40):
        actions = env.sample_actions()
        mirrored = mirror.sample_actions()
        actions[:2] = mirrored
        actions[2:] = 10_000  # never read
        step = env.step(actions, envs=[0, 1])
        alone = mirror.step(mirrored)
        for ours, theirs in zip(step, alone):
            assert np.array_equal(ours[:2], theirs)
        assert np.array_equal(step.obs[2:], before.obs[2:]) and np.array_equal(step.masks[2:], before.masks[2:])
        assert not step.rewards[2:].any() and not step.terminated[2:].any() and not env.truncated()[2:].any()
    with pytest.raises(ValueError, match="envs mask must have shape"):
        env.step(actions, envs=np.ones(3, dtype=bool))
    with pytest.raises(bc.IllegalMoveError, match=r"^env 2: "):
        env.step(actions, envs=[2])


def test_vector_env_results_do_not_depend_on_threads():
    runs = []
    for threads in (1, 2):
        env = bc.VectorEnv("rive", 9, seed=3, threads=threads, board="hex3", swap=True)
        runs.append([env.step(env.sample_actions()) for _ in range(50)])
    for one, other in zip(*runs):
        for a, b in zip(one, other):
            assert np.array_equal(a, b)


# ---- malformed arguments -----------------------------------------------------------------------

ANYTHING = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(max_size=6),
    st.lists(st.integers(-2, 40), max_size=4),
    st.integers(-300, 300).map(np.int32),
    st.integers(0, 300).map(np.uint16),
)


@settings(max_examples=200, deadline=None)
@given(value=ANYTHING)
def test_any_argument_is_an_action_or_a_clean_error(value):
    """TypeError or ValueError (IllegalMoveError) and nothing changed, or a legal action."""
    for state in (bc.Rive(board="hex3", swap=True).actions(), bc.Strands("hex4", "exact").actions()):
        before = snapshot(state)
        with contextlib.suppress(TypeError, ValueError):
            state.action_name(value)
        try:
            state.apply_action(value)
        except (TypeError, ValueError):
            assert snapshot(state) == before


@settings(max_examples=100, deadline=None)
@given(value=st.one_of(ANYTHING, st.lists(ANYTHING, max_size=3), st.lists(st.integers(), min_size=2, max_size=2)))
def test_any_actions_argument_is_stepped_or_a_clean_error(value):
    env = bc.VectorEnv("cephalopod", 2, rows=2, cols=2)
    env.reset()
    legal = env.sample_actions()
    try:
        env.step(value)
    except (TypeError, ValueError):
        # Nothing moved: the same legal actions still step both envs from the start.
        observations = env.step(legal)[0]
        fresh = bc.VectorEnv("cephalopod", 2, rows=2, cols=2)
        fresh.reset()
        assert np.array_equal(observations, fresh.step(legal)[0])


# ---- a property test -------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(
    variant=st.sampled_from(SMALL_VARIANTS),
    picks=st.lists(st.integers(0, 2**16), max_size=25),
    probes=st.lists(st.integers(-3, 400), max_size=4),
)
def test_any_action_sequence_keeps_engine_and_reference_together(variant, picks, probes):
    """Whatever actions are tried, legal or not, the two agree on which succeed and on where
    that leads; the mask is exactly the set of actions that apply."""
    engine, reference = pair(*variant)
    for pick in picks:
        for probe in probes:
            outcomes = []
            for state in (engine.copy(), reference.copy()):
                try:
                    state.apply_action(probe)
                    outcomes.append(True)
                except bc.IllegalMoveError:
                    outcomes.append(False)
            assert outcomes[0] == outcomes[1] == (0 <= probe < engine.num_actions and engine.action_mask()[probe])
        legal = engine.legal_actions()
        if not legal:
            break
        engine.apply_action(legal[pick % len(legal)])
        reference.apply_action(legal[pick % len(legal)])
        assert_same(engine, reference)
