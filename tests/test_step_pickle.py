"""Step states and VectorEnv pickle and copy exactly (issue 14, item 7), an action's cell on the
board and its inverse, and the VectorEnv's partial resets, starting positions, next-step
autoreset and truncation (what the Gymnasium adapter runs on). docs/actions.md, "Cells",
"Pickling" and "VectorEnv"."""

from __future__ import annotations

import copy
import pickle
import random

import boardcore as bc
import numpy as np
import pytest
from harness import ENGINES, HEX3_LAYOUT, STEP_VARIANTS

IDS = [f"{game}-{i}" for i, (game, _) in enumerate(STEP_VARIANTS)]


def shown(state) -> tuple:
    """Everything a step state shows."""
    return (
        repr(state),
        state.position(),
        state.to_move,
        state.legal_actions(),
        state.is_over(),
        state.returns(),
        state.observation().tobytes(),
        state.observation(1 - state.to_move).tobytes(),
        tuple(a.tobytes() for a in state.symmetries()),
        tuple(getattr(state, "covered", ())),
    )


def random_states(game: str, variant: dict, seed: int, count: int = 6):
    """Step states at random points of a random game (mid-turn ones included), each with the
    random generator that continues the game from there."""
    rng = random.Random(seed)
    state = ENGINES[game](**variant).actions()
    stops = set(rng.sample(range(60), count))
    for ply in range(60):
        if state.is_over():
            return
        if ply in stops:
            yield state.copy(), random.Random(seed * 1000 + ply)
        state.apply_action(rng.choice(state.legal_actions()))


def play_on_together(a, b, rng: random.Random) -> None:
    while True:
        assert shown(a) == shown(b)
        if a.is_over():
            return
        action = rng.choice(a.legal_actions())
        a.apply_action(action)
        b.apply_action(action)


@pytest.mark.parametrize("how", ["pickle", "copy", "deepcopy"])
@pytest.mark.parametrize(("game", "variant"), STEP_VARIANTS, ids=IDS)
def test_step_states_pickle_and_copy_exactly_and_play_on_identically(game, variant, how):
    clone = {
        "pickle": lambda s: pickle.loads(pickle.dumps(s)),
        "copy": copy.copy,
        "deepcopy": copy.deepcopy,
    }[how]
    for seed in range(3):
        for state, rng in random_states(game, variant, seed):
            twin = clone(state)
            assert type(twin) is type(state) and twin is not state
            play_on_together(state.copy(), twin, rng)


@pytest.mark.parametrize("cover", ["up-to", "exact"])
def test_strands_mid_turn_states_and_their_labels_round_trip(cover):
    seen_mid_turn = 0
    for seed in range(20):
        for state, rng in random_states("strands", {"layout": "hex4", "cover": cover}, seed, count=10):
            seen_mid_turn += bool(state.covered)
            text = pickle.dumps(state)
            assert shown(pickle.loads(text)) == shown(state)
            play_on_together(state.copy(), pickle.loads(text), rng)
    assert seen_mid_turn > 10


@pytest.mark.parametrize("cover", ["up-to", "exact"])
def test_strands_any_order_states_keep_their_mode_through_pickles_and_copies(cover):
    """`order=any` joins the state text only in any-order mode: ordered texts are unchanged."""
    game = bc.Strands(layout="hex4", cover=cover)
    assert "order=" not in game.actions().__reduce__()[1][0]
    seen_mid_turn = 0
    for seed in range(10):
        rng = random.Random(seed)
        state = game.actions(any_order=True)
        while not state.is_over():
            text = state.__reduce__()[1][0]
            assert " order=any" in text
            seen_mid_turn += bool(state.covered)
            for twin in (pickle.loads(pickle.dumps(state)), copy.copy(state), state.copy()):
                assert twin.any_order and shown(twin) == shown(state)
            state.apply_action(rng.choice(state.legal_actions()))
    assert seen_mid_turn > 10
    with pytest.raises(bc.NotationError):
        bc.StrandsActions._restore(game.actions().__reduce__()[1][0] + " order=board")


def test_strands_labels_of_a_game_set_up_from_a_position_round_trip():
    game = bc.Strands(layout="hex4")
    rng = random.Random(3)
    for _ in range(6):
        game.play(rng.choice(game.legal_moves()))
    later = bc.Strands.from_position(game.position()).actions()  # knows fewer labels
    for state in (game.actions(), later):
        assert shown(pickle.loads(pickle.dumps(state))) == shown(state)
    assert shown(game.actions()) != shown(later)  # the symmetries tell them apart


def test_rive_mid_capture_states_round_trip():
    seen = 0
    for seed in range(40):
        for state, rng in random_states("rive", {"board": "hex3"}, seed, count=20):
            if "capture=" in state.position():
                seen += 1
                play_on_together(state.copy(), pickle.loads(pickle.dumps(state)), rng)
    assert seen > 0


@pytest.mark.parametrize(
    ("cls", "text", "error"),
    [
        (bc.ReversiActions, "not a position", bc.NotationError),
        (bc.CephalopodActions, "9x9 ... b", bc.NotationError),
        (bc.RiveActions, "hex3 ..../...../....../...../.... b single capture=a1:3", bc.NotationError),
        (bc.StrandsActions, "garbage", bc.NotationError),
        (bc.StrandsActions, 17, TypeError),
    ],
)
def test_a_bad_pickle_payload_is_a_clear_error(cls, text, error):
    with pytest.raises(error):
        cls._restore(text)


def test_a_strands_state_text_is_checked_on_the_way_back():
    state = bc.Strands(layout="hex4").actions()
    opening = state.action_name(state.legal_actions()[0])
    state.apply_action(state.legal_actions()[0])  # Black's opening
    first = state.legal_actions()[0]
    state.apply_action(first)
    if not state.covered:
        pytest.skip("the turn ended by itself")
    good = state.__reduce__()[1][0]
    assert "covering=" in good
    assert shown(bc.StrandsActions._restore(good)) == shown(state)
    position = good.split(" covering=")[0]
    for bad in (f"{position} covering=zz9", f"{position} covering={opening}", f"{position} labels=1/2"):
        with pytest.raises(bc.NotationError):
            bc.StrandsActions._restore(bad)


# ---- cells ------------------------------------------------------------------------------------

NO_CELL = {"pass", "swap", "end"}


@pytest.mark.parametrize(("game", "variant"), STEP_VARIANTS, ids=IDS)
def test_action_cell_and_cell_actions_are_inverse_and_agree_with_names(game, variant):
    state = ENGINES[game](**variant).actions()
    _, height, width = state.observation_shape
    cells = {}
    for action in range(state.num_actions):
        name, place = state.action_name(action), state.action_cell(action)
        if place is None:
            assert name in NO_CELL
            continue
        cell, row, col = place
        assert 0 <= row < height and 0 <= col < width
        # The cell opens the action's name (Cephalopod adds its captures, `c3xb3,c2`).
        assert name == cell or name.startswith(cell + "x")
        assert action in state.cell_actions(cell)
        assert state.cell_actions(cell) == state.cell_actions((row, col)) == state.cell_actions(cell.upper())
        cells.setdefault((row, col), cell)
        assert cells[(row, col)] == cell
    assert len(set(cells.values())) == len(cells)
    if game == "cephalopod":
        assert state.cell_actions("b2") == list(range(state.cell_actions("b2")[0], state.cell_actions("b2")[0] + 16))


def test_bad_cells_are_clear_errors():
    state = bc.Reversi(size=6).actions()
    with pytest.raises(bc.NotationError):
        state.cell_actions("h8")
    with pytest.raises(ValueError, match="no cell"):
        state.cell_actions((6, 0))
    with pytest.raises(TypeError):
        state.cell_actions(3)
    with pytest.raises(ValueError):
        state.action_cell(state.num_actions)
    rive = bc.Rive(board="hex3").actions()
    with pytest.raises(ValueError, match="no cell"):
        rive.cell_actions((0, 0))  # the corner of the axial grid holds no cell


@pytest.mark.parametrize(("game", "variant"), STEP_VARIANTS, ids=IDS)
def test_playing_an_action_puts_the_movers_piece_at_its_grid_index(game, variant):
    for seed in range(3):
        rng = random.Random(seed)
        state = ENGINES[game](**variant).actions()
        while not state.is_over():
            action = rng.choice(state.legal_actions())
            place, mover, name = state.action_cell(action), state.to_move, state.action_name(action)
            before = state.observation(mover)
            state.apply_action(action)
            if place is None:
                continue
            _, row, col = place
            planes = state.observation_planes
            after = state.observation(mover)
            mover_planes = [i for i, p in enumerate(planes) if p.startswith("mover")]
            if name.startswith("x"):  # a Rive removal empties its cell
                assert before[planes.index("opponent"), row, col] + before[0, row, col] == 1
                assert after[planes.index("empty"), row, col] == 1
            else:
                assert after[mover_planes, row, col].sum() == 1, (name, state.position())


# ---- VectorEnv ---------------------------------------------------------------------------------


def trajectory(env, steps: int) -> list:
    seen = []
    for _ in range(steps):
        result = env.step(env.sample_actions())
        seen.append([np.asarray(x).tobytes() for x in result])
        seen.append([env.truncated().tobytes(), *(x.tobytes() for x in env.final_observations())])
    return seen


@pytest.mark.parametrize("how", ["pickle", "copy", "deepcopy", "method"])
@pytest.mark.parametrize(
    "settings",
    [{}, {"autoreset": "next-step"}, {"max_steps": 5}, {"autoreset": "next-step", "max_steps": 7, "threads": 2}],
)
@pytest.mark.parametrize(
    ("game", "variant"),
    [
        ("reversi", {"size": 6}),
        ("cephalopod", {"rows": 3, "cols": 3}),
        ("rive", {"board": "hex3"}),
        ("strands", {"layout": HEX3_LAYOUT, "cover": "up-to"}),
    ],
    ids=str,
)
def test_vector_env_pickles_and_copies_and_evolves_identically(game, variant, settings, how):
    env = bc.VectorEnv(game, 5, seed=3, **settings, **variant)
    env.reset()
    trajectory(env, 23)
    twin = {
        "pickle": lambda e: pickle.loads(pickle.dumps(e)),
        "copy": copy.copy,
        "deepcopy": copy.deepcopy,
        "method": lambda e: e.copy(),
    }[how](env)
    assert (twin.game, twin.n, twin.autoreset, twin.max_steps) == (env.game, env.n, env.autoreset, env.max_steps)
    if how == "pickle":  # the last step's results are not pickled: step once before comparing
        actions = env.sample_actions()
        assert np.array_equal(actions, twin.sample_actions())
        for a, b in zip(env.step(actions), twin.step(actions)):
            assert np.array_equal(a, b)
    assert trajectory(env, 40) == trajectory(twin, 40)


def test_a_bad_vector_env_pickle_payload_is_a_clear_error():
    env = bc.VectorEnv("reversi", 2, size=6)
    restore, (game, state) = env.__reduce__()
    assert pickle.loads(pickle.dumps(env)).n == 2
    bad = [
        ("chess", state, ValueError),
        (game, {**state, "envs": ["nonsense", state["envs"][1]]}, ValueError),
        (game, {**state, "envs": [bc.Reversi(size=8).position()] * 2}, ValueError),
        (game, {**state, "rngs": [1]}, ValueError),
        (game, {**state, "pending": [True, False]}, ValueError),
        (game, {**state, "autoreset": "later"}, ValueError),
        (game, {**state, "threads": 0}, ValueError),
        (game, {k: v for k, v in state.items() if k != "steps"}, ValueError),
        (game, {**state, "rngs": ["x", "y"]}, TypeError),
    ]
    for args in bad:
        with pytest.raises(args[2]):
            restore(args[0], args[1])


def test_vector_step_and_reset_are_named_tuples_in_todays_order():
    env = bc.VectorEnv("reversi", 3, size=6)
    reset = env.reset()
    assert isinstance(reset, bc.VectorReset) and reset._fields == ("obs", "masks")
    obs, masks = reset
    assert obs is reset.obs and masks is reset.masks
    step = env.step(env.sample_actions())
    assert isinstance(step, bc.VectorStep) and isinstance(step, tuple)
    assert step._fields == ("obs", "masks", "rewards", "terminated", "to_move")
    obs, masks, rewards, terminated, to_move = step  # today's unpacking works as before
    assert terminated.dtype == bool and to_move.dtype == np.uint8 and obs.dtype == np.float32
    assert masks.dtype == bool and masks.shape == (3, env.num_actions) and rewards.dtype == np.float32
    assert "masks=" in repr(step)  # a Gymnasium-style unpacking reads the fields it takes
    assert pickle.loads(pickle.dumps(step))._fields == step._fields


def test_reset_restarts_only_the_chosen_envs():
    env = bc.VectorEnv("cephalopod", 6, seed=2, rows=3, cols=3)
    env.reset()
    for _ in range(4):
        obs, *_ = env.step(env.sample_actions())
    start = bc.Cephalopod(rows=3, cols=3).actions()
    untouched = env.copy()
    mask = np.array([True, False, True, False, False, False])
    for chosen in (mask, [0, 2], np.array([2, 0], dtype=np.uint8)):
        twin = untouched.copy()
        new_obs, new_masks = twin.reset(envs=chosen)
        for i in range(6):
            if mask[i]:
                assert np.array_equal(new_obs[i], start.observation())
                assert np.array_equal(new_masks[i], start.action_mask())
            else:
                assert np.array_equal(new_obs[i], obs[i])
    # The others go on as they would have: their streams and states are untouched.
    env.reset(envs=mask)
    actions, expected = env.sample_actions(), untouched.sample_actions()
    assert np.array_equal(actions[~mask], expected[~mask])


def test_reset_starts_envs_from_positions_of_every_kind():
    game = bc.Rive(board="hex3")
    rng = random.Random(1)
    for _ in range(5):
        game.play(rng.choice(game.legal_moves()))
    mid_capture = None
    for seed in range(60):
        for state, _ in random_states("rive", {"board": "hex3"}, seed, count=20):
            if "capture=" in state.position():
                mid_capture = state
    assert mid_capture is not None
    env = bc.VectorEnv("rive", 4, board="hex3")
    positions = [game.position(), game, mid_capture, game.actions()]
    obs, masks = env.reset(positions=positions)
    for i, state in enumerate([game.actions(), game.actions(), mid_capture, game.actions()]):
        assert np.array_equal(obs[i], state.observation())
        assert np.array_equal(masks[i], state.action_mask())
    assert list(env.to_move()) == [game.to_move, game.to_move, mid_capture.to_move, game.to_move]
    obs, _ = env.reset(envs=[1], positions=[mid_capture])
    assert np.array_equal(obs[1], mid_capture.observation())


def test_reset_refuses_other_games_variants_and_finished_positions_changing_nothing():
    env = bc.VectorEnv("reversi", 2, seed=5, size=6)
    env.reset()
    env.step(env.sample_actions())
    before = pickle.dumps(env)
    over = bc.Reversi(size=6)
    while not over.is_over():
        over.play(over.legal_moves()[0])
    cases = [
        ({"positions": [bc.Cephalopod(), bc.Reversi(size=6)]}, TypeError, "positions\\[0\\]"),
        ({"positions": [bc.Reversi(size=6), bc.Reversi(size=8)]}, ValueError, "positions\\[1\\].*board"),
        ({"positions": [bc.Reversi(size=6, blocked=["a1"])] * 2}, ValueError, "blocked"),
        ({"positions": [over, bc.Reversi(size=6)]}, ValueError, "over"),
        ({"positions": [bc.Reversi(size=6)]}, ValueError, "positions"),
        ({"positions": ["nonsense", "nonsense"]}, bc.NotationError, "positions\\[0\\]"),
        ({"positions": bc.Reversi(size=6).position()}, TypeError, "one string"),
        ({"envs": [2]}, ValueError, "out of range"),
        ({"envs": np.array([True])}, ValueError, "shape"),
        ({"envs": np.array([0.5, 1.5])}, TypeError, "envs"),
    ]
    for kwargs, error, match in cases:
        with pytest.raises(error, match=match):
            env.reset(**kwargs)
        assert pickle.dumps(env) == before


def test_reset_with_a_seed_rewinds_the_chosen_streams():
    env = bc.VectorEnv("strands", 4, seed=9, layout="hex4")
    fresh = bc.VectorEnv("strands", 4, seed=11, layout="hex4")
    env.sample_actions()
    env.reset(seed=11)
    assert np.array_equal(env.sample_actions(), fresh.sample_actions())


def test_next_step_autoreset_returns_the_final_observation_then_restarts():
    env = bc.VectorEnv("cephalopod", 3, seed=1, autoreset="next-step", rows=2, cols=2)
    start = bc.Cephalopod(rows=2, cols=2).actions()
    mirrors = [start.copy() for _ in range(3)]
    pending = np.zeros(3, dtype=bool)
    env.reset()
    restarts = 0
    for _ in range(40):
        actions = env.sample_actions()
        obs, masks, rewards, terminated, to_move = env.step(actions)
        ended, finals = env.final_observations()
        for i in range(3):
            if pending[i]:
                assert actions[i] == 0  # sample_actions draws nothing for an env about to restart
                mirrors[i] = start.copy()
                assert (rewards[i], terminated[i]) == (0.0, False)
                restarts += 1
            else:
                actor = mirrors[i].to_move
                mirrors[i].apply_action(int(actions[i]))
                assert terminated[i] == mirrors[i].is_over()
                assert rewards[i] == (mirrors[i].returns()[actor] if terminated[i] else 0.0)
            assert np.array_equal(obs[i], mirrors[i].observation())
            assert to_move[i] == mirrors[i].to_move
            assert masks[i].any() == (not mirrors[i].is_over())
            assert ended[i] == terminated[i]
            if ended[i]:
                assert np.array_equal(finals[i], obs[i])
        pending = terminated.copy()
    assert restarts > 0


@pytest.mark.parametrize("autoreset", ["same-step", "next-step"])
def test_max_steps_truncates_games(autoreset):
    env = bc.VectorEnv("strands", 3, seed=4, autoreset=autoreset, max_steps=4, layout="hex4")
    obs, _ = env.reset()
    steps = np.zeros(3, dtype=int)
    pending = np.zeros(3, dtype=bool)
    for _ in range(20):
        before = obs
        obs, masks, _, terminated, _ = env.step(env.sample_actions())
        truncated = env.truncated()
        ended, finals = env.final_observations()
        steps = np.where(pending, 0, steps + 1)
        assert np.array_equal(truncated, (steps >= 4) & ~terminated & ~pending)
        assert np.array_equal(ended, terminated | truncated)
        if autoreset == "same-step":
            steps[truncated | terminated] = 0
            assert not np.any(masks.sum(axis=1) == 0)
        else:
            assert np.array_equal(masks.any(axis=1), ~(terminated | truncated))
            pending = terminated | truncated
        assert before.shape == finals.shape
    assert env.max_steps == 4


def test_vector_env_settings_are_checked():
    for kwargs, error in [
        ({"autoreset": "later"}, ValueError),
        ({"autoreset": 3}, TypeError),
        ({"max_steps": 0}, ValueError),
        ({"max_steps": "5"}, (TypeError, ValueError)),  # as every int argument (args.rs) says it
    ]:
        with pytest.raises(error, match=r"autoreset|max_steps"):
            bc.VectorEnv("reversi", 2, **kwargs)
    assert bc.VectorEnv("reversi", 2, autoreset="NextStep").autoreset == "next-step"
