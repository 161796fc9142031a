"""The Gymnasium adapter, checked with Gymnasium's own tools: ``check_env`` for the single-agent
environment, and for the vector environment (Gymnasium ships no vector checker) its spaces'
checks, its ``RecordEpisodeStatistics`` wrapper, and step-by-step agreement with Gymnasium's own
``SyncVectorEnv`` in both autoreset modes."""

import random
import warnings

import boardcore as bc
import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from boardcore.adapters import new_steps  # noqa: E402
from boardcore.adapters.gymnasium import make, make_vector  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from gymnasium.utils.passive_env_checker import check_action_space, check_observation_space  # noqa: E402
from gymnasium.vector import AutoresetMode, SyncVectorEnv  # noqa: E402

# Small variants where play is slow.
VARIANTS = {
    "reversi": {"size": 6},
    "cephalopod": {"rows": 3, "cols": 3},
    "rive": {"board": "hex3"},
    "strands": {},
}
MODES = [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP]


def first_legal(state):
    return state.legal_actions()[0]


@pytest.mark.parametrize("opponent", ["random", "mcts:4", first_legal], ids=["random", "mcts", "callable"])
@pytest.mark.parametrize("player", [bc.BLACK, bc.WHITE])
@pytest.mark.parametrize("game", sorted(VARIANTS))
def test_single_agent_env_passes_check_env(game, player, opponent):
    check_env(make(game, opponent, player=player, **VARIANTS[game]), skip_render_check=True)


@pytest.mark.parametrize("cover", ["up-to", "exact"])
def test_a_strands_agent_in_any_order_passes_check_env_and_plays_the_any_order_step_form(cover):
    """`make("strands", any_order=True)`: the agent's turns take their cells in any order."""
    variant = {"layout": "hex4", "cover": cover}
    check_env(make("strands", first_legal, **variant, any_order=True), skip_render_check=True)
    env = make("strands", first_legal, **variant, any_order=True)
    mirror = bc.Strands(**variant).actions(any_order=True)
    obs, info = env.reset(seed=0)
    rng = random.Random(cover)
    out_of_order = 0
    while not mirror.is_over():
        assert np.array_equal(info["action_mask"], mirror.action_mask())
        assert np.array_equal(obs, mirror.observation(env.player))
        covered = [mirror.cell_actions(cell)[0] for cell in mirror.covered]
        earlier = [a for a in mirror.legal_actions() if covered and a < max(covered)]  # only in any order
        action = earlier[0] if earlier else rng.choice(mirror.legal_actions())
        out_of_order += bool(earlier)
        obs, _, terminated, _, info = env.step(action)
        mirror.apply_action(action)
        while not mirror.is_over() and mirror.to_move != env.player:
            mirror.apply_action(first_legal(mirror))
        assert terminated == mirror.is_over()
    assert not info["action_mask"].any() and np.array_equal(obs, mirror.observation(env.player))
    assert out_of_order > 0


def test_ansi_render_passes_check_env(capsys):
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*not having a spec")
        check_env(make("reversi", render_mode="ansi", size=4))
    env = make("reversi", render_mode="ansi", size=4)
    env.reset(seed=0)
    start = bc.Reversi(size=4)
    assert env.render() == f"{start}\n{start.position()}\n"  # print(game): the board, then who moves


@pytest.mark.parametrize("player", [bc.BLACK, bc.WHITE])
@pytest.mark.parametrize("game", sorted(VARIANTS))
def test_single_agent_plays_whole_games(game, player):
    env = make(game, "random", player=player, **VARIANTS[game])
    for seed in range(3):
        obs, info = env.reset(seed=seed)
        terminated, reward = False, 0.0
        while not terminated:
            assert env.observation_space.contains(obs)
            assert info["to_move"] == player
            mask = env.action_masks()
            assert mask.dtype == bool and mask.any() and np.array_equal(mask, info["action_mask"])
            assert reward == 0.0
            obs, reward, terminated, truncated, info = env.step(env.action_space.sample(mask=mask.astype(np.int8)))
            assert not truncated
        assert reward in (-1.0, 0.0, 1.0)
        assert "illegal_action" not in info
        assert not env.action_masks().any()


def test_the_agent_moves_second_as_white_and_the_reward_is_its_own():
    first = bc.Reversi(size=4).actions().legal_actions()[0]
    env = make("reversi", first_legal, player=bc.WHITE, size=4)
    obs, _ = env.reset(seed=0)
    expected = bc.Reversi(size=4).actions()
    expected.apply_action(first)  # the opponent, Black, moved first
    assert np.array_equal(obs, expected.observation(bc.WHITE))
    terminated = False
    while not terminated:
        _, reward, terminated, _, _ = env.step(int(np.flatnonzero(env.action_masks())[-1]))
        assert reward == 0.0 or terminated
    assert reward == env.unwrapped._state.returns()[bc.WHITE]


def test_an_illegal_action_forfeits_and_then_asks_for_reset():
    env = make("reversi", size=4)
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    env.reset()
    assert env.action_masks().any()


def test_an_illegal_action_can_be_refused_with_a_chosen_reward():
    env = make("reversi", size=4, illegal_action="refuse", illegal_reward=-0.25)
    obs, _ = env.reset(seed=0)
    before = env.unwrapped._state.copy()
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    after, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-0.25, False, False, True)
    assert np.array_equal(after, obs) and env.unwrapped._state.observation().tolist() == before.observation().tolist()
    legal = int(np.flatnonzero(env.action_masks())[0])
    _, reward, terminated, _, info = env.step(legal)  # the agent moves again, as if nothing happened
    assert reward == 0.0 and "illegal_action" not in info


@pytest.mark.parametrize(
    "bad", [{"illegal_action": "ignore"}, {"illegal_reward": float("nan")}, {"illegal_reward": "-1"}]
)
def test_bad_illegal_action_settings_are_errors(bad):
    with pytest.raises(ValueError, match="illegal_"):
        make("reversi", **bad)


@pytest.mark.parametrize(
    "env_id", ["boardcore/Reversi-v0", "boardcore/Cephalopod-v0", "boardcore/Rive-v0", "boardcore/Strands-v0"]
)
@pytest.mark.parametrize("render_mode", [None, "ansi", "rgb_array", "human"])
def test_registered_environments_pass_check_env_in_every_render_mode(env_id, render_mode, capsys):
    from boardcore.adapters.gymnasium import MAX_EPISODE_STEPS, REGISTERED

    variant = VARIANTS[REGISTERED[env_id]]
    env = gymnasium.make(env_id, render_mode=render_mode, opponent="random", **variant)
    assert env.spec.id == env_id and env.spec.max_episode_steps == MAX_EPISODE_STEPS
    assert env.render_mode == render_mode
    check_env(env.unwrapped, skip_render_check=render_mode is None)
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs) and info["action_mask"].any()


def test_a_registered_environment_takes_variants_and_the_time_limit_cuts_refusals():
    env = gymnasium.make(
        "boardcore/Reversi-v0", size=6, opponent="random", illegal_action="refuse", max_episode_steps=5
    )
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.unwrapped.action_masks())[0])
    for step in range(5):
        _, reward, terminated, truncated, _ = env.step(illegal)
        assert not terminated and reward == -1.0 and truncated == (step == 4)


def test_one_call_imports_and_registers(tmp_path):
    import subprocess
    import sys

    code = (
        "import gymnasium\n"
        "env = gymnasium.make('boardcore.adapters.gymnasium:boardcore/Strands-v0', layout='hex4')\n"
        "print(env.spec.id, env.reset(seed=0)[0].shape)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.startswith("boardcore/Strands-v0 (")


def test_a_seeded_reset_replays_the_same_mcts_game():
    def play(seed):
        env = make("cephalopod", "mcts:8", rows=3, cols=3)
        obs, info = env.reset(seed=seed)
        seen, terminated = [obs], False
        while not terminated:
            obs, _, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            seen.append(obs)
        return np.stack(seen)

    assert np.array_equal(play(5), play(5))


@pytest.mark.parametrize("bad", ["mcts:0", "mcts:x", "alphabeta", 3])
def test_a_bad_opponent_is_an_error(bad):
    with pytest.raises(ValueError, match="opponent"):
        make("reversi", bad)


def test_an_opponent_that_fails_takes_the_agents_action_back():
    answers = iter([10**6])  # out of range once, then legal moves

    def opponent(state):
        return next(answers, None) or int(np.flatnonzero(state.action_mask())[0])

    env = make("reversi", opponent, size=4)
    _, info = env.reset(seed=0)
    action = int(np.flatnonzero(info["action_mask"])[0])
    with pytest.raises(bc.IllegalMoveError):
        env.step(action)
    # Nothing changed: still the agent's turn at the same position, and the step can be retried.
    assert np.array_equal(env.action_masks(), info["action_mask"])
    assert env.unwrapped._state.to_move == env.player
    _, _, _, _, info_after = env.step(action)
    assert info_after["to_move"] == env.player


@pytest.mark.parametrize("bad", [2, True, "red"])
def test_a_bad_player_is_an_error(bad):
    with pytest.raises(ValueError, match="player"):
        make("reversi", player=bad)


def test_the_player_may_be_named():
    assert make("reversi", player="white", size=4).player == bc.WHITE
    assert make("reversi", player="black", size=4).player == bc.BLACK


# ---------------------------------------------------------------------------------------------
# The vector environment


class SelfPlay(gymnasium.Env):
    """The plain single-env self-play the vector env must match: one step state, both sides."""

    def __init__(self, game, max_steps=None, **variant):
        self.start = new_steps(game, variant)  # the registry's way, step options included
        shape = tuple(self.start.observation_shape)
        self.observation_space = gymnasium.spaces.Box(0.0, 1.0, shape=shape, dtype=np.float32)
        self.action_space = gymnasium.spaces.Discrete(self.start.num_actions)
        self.max_steps = max_steps

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.state, self.steps = self.start.copy(), 0
        return self.state.observation(), {}

    def step(self, action):
        actor = self.state.to_move
        self.state.apply_action(int(action))
        self.steps += 1
        over = self.state.is_over()
        reward = float(self.state.returns()[actor]) if over else 0.0
        truncated = not over and self.max_steps is not None and self.steps >= self.max_steps
        return self.state.observation(), reward, over, truncated, {}


def step_both(ours, theirs, infos, rng):
    """One step of both vector envs with the same random legal actions (any action for an env
    about to restart: NEXT_STEP ignores it); they must agree on everything but the infos.
    Returns ``terminated``, ``truncated`` and both infos."""
    actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in infos["action_mask"]])
    obs, rewards, terminated, truncated, infos = ours.step(actions)
    expected, expected_rewards, expected_terminated, expected_truncated, their_infos = theirs.step(actions)
    assert np.array_equal(obs, expected)
    assert np.array_equal(rewards, expected_rewards)
    assert np.array_equal(terminated, expected_terminated)
    assert np.array_equal(truncated, expected_truncated)
    return terminated, truncated, infos, their_infos


def run_both(game, mode, max_steps, steps, seed=0, variant=None):
    n = 3
    variant = VARIANTS[game] if variant is None else variant
    ours = make_vector(game, n, autoreset_mode=mode, max_steps=max_steps, **variant)
    theirs = SyncVectorEnv([lambda: SelfPlay(game, max_steps, **variant) for _ in range(n)], autoreset_mode=mode)
    obs, infos = ours.reset(seed=seed)
    expected, _ = theirs.reset(seed=seed)
    assert np.array_equal(obs, expected)
    rng = np.random.default_rng(seed)
    ended_any = False
    for _ in range(steps):
        terminated, truncated, infos, their_infos = step_both(ours, theirs, infos, rng)
        ended = terminated | truncated
        for i, env in enumerate(theirs.envs):
            if not (ended[i] and mode == AutoresetMode.NEXT_STEP):  # an env about to restart has no mask
                assert np.array_equal(infos["action_mask"][i], env.unwrapped.state.action_mask())
        ended_any |= ended.any()
        # As Gymnasium's own vector envs: final_obs only in a step where some env ended.
        assert ("final_obs" in infos) == ("final_obs" in their_infos)
        if mode == AutoresetMode.SAME_STEP and ended.any():
            assert np.array_equal(infos["_final_obs"], ended)
            for i in np.flatnonzero(ended):
                assert np.array_equal(infos["final_obs"][i], their_infos["final_obs"][i])
    ours.close()
    assert ended_any
    return ours


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.value)
@pytest.mark.parametrize("game", sorted(VARIANTS))
def test_vector_env_steps_as_gymnasiums_own_sync_vector_env(game, mode):
    run_both(game, mode, None, 120)


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.value)
@pytest.mark.parametrize("cover", ["up-to", "exact"])
def test_a_strands_vector_env_in_any_order_steps_as_gymnasiums_own_sync_vector_env(cover, mode):
    """`any_order` beside the constructor's arguments goes to the step form (it once reached
    `Strands()` and raised TypeError); masks and observations are the any-order states'."""
    envs = run_both("strands", mode, None, 150, variant={"layout": "hex4", "cover": cover, "any_order": True})
    assert envs.variant["any_order"] is True


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.value)
def test_max_steps_truncates_as_gymnasiums_own_sync_vector_env(mode):
    run_both("rive", mode, 7, 40)


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.value)
@pytest.mark.parametrize("game", sorted(VARIANTS))
def test_vector_env_spaces_and_metadata(game, mode):
    envs = make_vector(game, 5, autoreset_mode=mode, **VARIANTS[game])
    start = bc.VectorEnv(game, 1, **VARIANTS[game])
    check_observation_space(envs.single_observation_space)
    check_action_space(envs.single_action_space)
    assert isinstance(envs, gymnasium.vector.VectorEnv)
    assert envs.num_envs == 5
    assert envs.metadata["autoreset_mode"] == mode
    assert envs.single_observation_space.shape == start.observation_shape
    assert envs.single_observation_space.dtype == np.float32
    assert envs.single_action_space == gymnasium.spaces.Discrete(start.num_actions)
    assert envs.observation_space.shape == (5, *start.observation_shape)
    assert envs.action_space == gymnasium.spaces.MultiDiscrete([start.num_actions] * 5)
    obs, infos = envs.reset(seed=1)
    for _ in range(30):
        assert obs in envs.observation_space
        assert infos["action_mask"].shape == (5, start.num_actions)
        assert infos["to_move"].shape == (5,)
        actions = envs.sample_actions()
        assert actions in envs.action_space
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        assert rewards.shape == terminated.shape == truncated.shape == (5,)
    envs.close()
    envs.close()  # a second close is allowed, as Gymnasium asks


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.value)
def test_masks_and_to_move_are_the_states(mode):
    envs = make_vector("strands", 4, autoreset_mode=mode)
    mirror = [bc.Strands().actions() for _ in range(4)]
    _, infos = envs.reset(seed=0)
    for _ in range(150):
        restarting = [not infos["action_mask"][i].any() for i in range(4)]
        for i, state in enumerate(mirror):
            if not restarting[i]:
                assert np.array_equal(infos["action_mask"][i], state.action_mask())
                assert infos["to_move"][i] == state.to_move
        actions = envs.sample_actions()
        _, rewards, terminated, _, infos = envs.step(actions)
        for i in range(4):
            if restarting[i]:
                mirror[i] = bc.Strands().actions()
                continue
            actor = mirror[i].to_move
            mirror[i].apply_action(int(actions[i]))
            per_player = infos["rewards_per_player"][i]
            assert per_player[actor] == rewards[i] and per_player[1 - actor] == -rewards[i]
            if mirror[i].is_over():
                assert terminated[i]
                assert tuple(per_player) == mirror[i].returns()
                if mode == AutoresetMode.SAME_STEP:
                    mirror[i] = bc.Strands().actions()


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.value)
def test_a_seeded_reset_rewinds_the_random_stream(mode):
    envs = make_vector("reversi", 6, autoreset_mode=mode, size=6)

    def trajectory(seed):
        obs, _ = envs.reset(seed=seed)
        seen = [obs]
        for _ in range(40):
            seen.append(envs.step(envs.sample_actions())[0])
        return np.stack(seen)

    first = trajectory(7)
    assert np.array_equal(trajectory(7), first)
    assert not np.array_equal(trajectory(8), first)


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.value)
def test_an_illegal_action_names_its_env_and_changes_nothing(mode):
    envs = make_vector("reversi", 3, autoreset_mode=mode, size=4)
    _obs, infos = envs.reset(seed=0)
    actions = envs.sample_actions()
    actions[1] = int(np.flatnonzero(~infos["action_mask"][1])[0])
    with pytest.raises(bc.IllegalMoveError, match="env 1"):
        envs.step(actions)
    actions[1] = int(np.flatnonzero(infos["action_mask"][1])[0])
    after, *_ = envs.step(actions)
    expected = make_vector("reversi", 3, autoreset_mode=mode, size=4)
    expected.reset(seed=0)
    assert np.array_equal(after, expected.step(actions)[0])


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.value)
def test_record_episode_statistics_counts_whole_games(mode):
    envs = gymnasium.wrappers.vector.RecordEpisodeStatistics(
        make_vector("cephalopod", 4, autoreset_mode=mode, rows=3, cols=3)
    )
    envs.reset(seed=0)
    episodes = 0
    for _ in range(200):
        _, _, terminated, _, infos = envs.step(envs.unwrapped.sample_actions())
        if "episode" in infos:
            for i in np.flatnonzero(infos["_episode"]):
                assert terminated[i]
                # A 3x3 Cephalopod game fills the board: at least 9 placements.
                assert infos["episode"]["l"][i] >= 9
                episodes += 1
    assert episodes > 0


def test_reset_and_step_build_their_infos_in_one_place():
    """Both go through `_infos`, so what they hold cannot drift apart."""
    from boardcore.adapters.gymnasium import BoardcoreVectorEnv

    class Tagged(BoardcoreVectorEnv):
        def _infos(self, masks, to_move, per_player):
            return {**super()._infos(masks, to_move, per_player), "tagged": True}

    keys = ["action_mask", "rewards_per_player", "tagged", "to_move"]
    for mode in MODES:
        envs = Tagged("reversi", 2, autoreset_mode=mode, size=4)
        _, infos = envs.reset(seed=0)
        assert infos["tagged"]
        _, _, _, _, infos = envs.step(envs.sample_actions())
        assert infos["tagged"] and sorted(k for k in infos if not k.startswith("_")) == keys


class SelfPlayWithInfos(gymnasium.Env):
    """SelfPlay whose infos hold what the vector env's hold, for SyncVectorEnv to batch."""

    def __init__(self, game, **variant):
        self.inner = SelfPlay(game, **variant)
        self.observation_space, self.action_space = self.inner.observation_space, self.inner.action_space

    def info(self, per_player):
        state = self.inner.state
        return {"action_mask": state.action_mask(), "to_move": state.to_move, "rewards_per_player": per_player}

    def reset(self, *, seed=None, options=None):
        obs, _ = self.inner.reset(seed=seed)
        return obs, self.info(np.zeros(2, dtype=np.float32))

    def step(self, action):
        actor = self.inner.state.to_move
        obs, reward, over, truncated, _ = self.inner.step(action)
        per_player = np.array([reward, -reward] if actor == 0 else [-reward, reward], dtype=np.float32)
        return obs, reward, over, truncated, self.info(per_player)


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.value)
def test_vector_infos_carry_gymnasiums_key_masks_as_sync_vector_env_writes_them(mode):
    n = 3
    ours = make_vector("reversi", n, autoreset_mode=mode, size=4)
    theirs = SyncVectorEnv([lambda: SelfPlayWithInfos("reversi", size=4) for _ in range(n)], autoreset_mode=mode)
    infos, their_infos = ours.reset(seed=0)[1], theirs.reset(seed=0)[1]
    rng = np.random.default_rng(0)
    for _ in range(30):
        assert sorted(infos) == sorted(their_infos)
        for key in ("_action_mask", "_to_move", "_rewards_per_player"):
            assert infos[key].dtype == bool and np.array_equal(infos[key], their_infos[key]), key
        if "final_info" in infos:  # SAME_STEP, a step where some env ended
            ours_final, their_final = infos["final_info"], their_infos["final_info"]
            assert np.array_equal(infos["_final_info"], their_infos["_final_info"])
            for key in ("_action_mask", "_rewards_per_player"):
                assert np.array_equal(ours_final[key], their_final[key]), key
            ended = infos["_final_info"]
            assert np.array_equal(ours_final["rewards_per_player"][ended], their_final["rewards_per_player"][ended])
            assert not ours_final["action_mask"].any()
        masks = infos["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        _, _, terminated, truncated, infos = ours.step(actions)
        *_, their_infos = theirs.step(actions)
        if mode == AutoresetMode.NEXT_STEP or not (terminated | truncated).any():
            assert np.array_equal(infos["rewards_per_player"], their_infos["rewards_per_player"])


def test_threads_change_no_result_of_the_native_path():
    def trajectory(threads):
        envs = make_vector("rive", 8, autoreset_mode=AutoresetMode.SAME_STEP, threads=threads, board="hex3")
        obs, _ = envs.reset(seed=4)
        seen, finals = [obs], []
        for _ in range(60):
            obs, _, _, _, infos = envs.step(envs.sample_actions())
            seen.append(obs)
            finals.append(infos.get("final_obs", np.zeros_like(obs)))
        return np.stack(seen), np.stack(finals)

    one, two = trajectory(1), trajectory(2)
    assert np.array_equal(one[0], two[0]) and np.array_equal(one[1], two[1])
    assert one[1].any()  # some game ended, so final_obs was compared


@pytest.mark.parametrize(
    "bad", [{"autoreset_mode": AutoresetMode.DISABLED}, {"max_steps": 0}, {"max_steps": 2.5}, {"max_steps": True}]
)
def test_bad_vector_settings_are_errors(bad):
    with pytest.raises(ValueError):
        make_vector("reversi", 2, **bad)


# ---------------------------------------------------------------------------------------------
# Partial resets and starting positions (on the native VectorEnv)


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.value)
@pytest.mark.parametrize("game", sorted(VARIANTS))
def test_a_partial_reset_is_gymnasiums_reset_mask(game, mode):
    n = 4
    ours = make_vector(game, n, autoreset_mode=mode, max_steps=9, **VARIANTS[game])
    theirs = SyncVectorEnv([lambda: SelfPlay(game, 9, **VARIANTS[game]) for _ in range(n)], autoreset_mode=mode)
    _, infos = ours.reset(seed=0)
    theirs.reset(seed=0)
    rng = np.random.default_rng(1)
    for step in range(60):
        if step % 7 == 6:
            mask = rng.random(n) < 0.5
            mask[rng.integers(n)] = True
            # Gymnasium's SyncVectorEnv takes the mask out of the dict it is given: one each.
            obs, infos = ours.reset(options={"reset_mask": mask.copy()})
            expected, _ = theirs.reset(options={"reset_mask": mask.copy()})
            assert np.array_equal(obs, expected)
            continue
        _, _, infos, _ = step_both(ours, theirs, infos, rng)


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.value)
def test_envs_start_from_given_positions(mode):
    game = bc.Strands(layout="hex4")
    rng = np.random.default_rng(2)
    for _ in range(5):
        game.play(game.legal_moves()[int(rng.integers(len(game.legal_moves())))])
    mid_turn = game.actions()
    mid_turn.apply_action(mid_turn.legal_actions()[0])
    envs = make_vector("strands", 3, autoreset_mode=mode, layout="hex4")
    obs, infos = envs.reset(seed=0, options={"positions": [game.position(), game, mid_turn]})
    for i, state in enumerate([game.actions(), game.actions(), mid_turn]):
        assert np.array_equal(obs[i], state.observation())
        assert np.array_equal(infos["action_mask"][i], state.action_mask())
        assert infos["to_move"][i] == state.to_move
    # Then the games go on from there, each like its step state.
    states = [game.actions(), game.actions(), mid_turn.copy()]
    for _ in range(3):
        actions = envs.sample_actions()
        obs, _, terminated, _, infos = envs.step(actions)
        for i, state in enumerate(states):
            state.apply_action(int(actions[i]))
            assert not terminated[i] and np.array_equal(obs[i], state.observation())
    # With a mask: one env only, the others go on.
    start = bc.Strands(layout="hex4").actions()
    before = obs
    obs, _ = envs.reset(options={"reset_mask": np.array([False, True, False]), "positions": [start]})
    assert np.array_equal(obs[1], start.observation())
    assert np.array_equal(obs[[0, 2]], before[[0, 2]])


def test_bad_reset_options_are_errors_and_change_nothing():
    envs = make_vector("reversi", 2, size=6)
    envs.reset(seed=0)
    bad = [
        ({"reset_mask": [True, False]}, TypeError),
        ({"reset_mask": np.array([True])}, ValueError),
        ({"reset_mask": np.array([1, 0])}, TypeError),
        ({"reset_mask": np.zeros(2, dtype=bool)}, ValueError),
        ({"positions": [bc.Reversi(size=8)] * 2}, ValueError),
        ({"positions": [bc.Cephalopod()] * 2}, TypeError),
        ({"positions": [bc.Reversi(size=6)]}, ValueError),
        ({"start": "anywhere"}, ValueError),
    ]
    for options, error in bad:
        with pytest.raises(error):
            envs.reset(options=options)
    after, *_ = envs.step(envs.sample_actions())
    expected = make_vector("reversi", 2, size=6)
    expected.reset(seed=0)
    assert np.array_equal(after, expected.step(expected.sample_actions())[0])


@pytest.mark.parametrize("name", ["REVERSI", "Reversi", "rEvErSi"])
def test_game_names_are_read_in_any_case_as_bc_vectorenv_reads_them(name):
    # bc.VectorEnv("Reversi") always worked; make() and make_vector() raised on anything but lower case.
    env = make(name, size=6)
    obs, _ = env.reset(seed=0)
    assert obs.shape == make("reversi", size=6).reset(seed=0)[0].shape == (4, 6, 6)
    envs = make_vector(name, 2, size=6)
    assert envs.game_name == "reversi" and envs.reset(seed=0)[0].shape == (2, 4, 6, 6)
    assert bc.VectorEnv(name, 2).reset()[0].shape == (2, 4, 8, 8)


def test_an_unknown_game_name_is_still_refused_with_the_names_allowed():
    with pytest.raises(ValueError, match="game must be one of cephalopod, reversi, rive, strands, got 'othello'"):
        make("othello")
    with pytest.raises(ValueError, match="'othello'"):
        make_vector("othello", 2)
    with pytest.raises(TypeError, match="pass the game's name, 'reversi', not the class"):
        make(bc.Reversi)
