"""The Stable-Baselines3 VecEnv over the native VectorEnv (boardcore.adapters.sb3), with SB3's and
sb3-contrib's own classes: it plays exactly what n single-agent Gymnasium envs play (same agent
actions, the same deterministic opponent), on every game and for either colour; illegal actions
end or are refused as make() does; MaskablePPO trains on it through VecMonitor. Needs the [sb3]
extra (Stable-Baselines3 brings PyTorch): skipped without it."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("stable_baselines3")
sb3_contrib = pytest.importorskip("sb3_contrib")

import boardcore as bc  # noqa: E402
import harness  # noqa: E402
from boardcore.adapters.gymnasium import BoardcoreEnv  # noqa: E402
from boardcore.adapters.sb3 import BoardcoreVecEnv  # noqa: E402
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported  # noqa: E402
from stable_baselines3.common.vec_env import VecMonitor  # noqa: E402

GAMES = harness.SMALL_GAMES


def first_legal_batch(observations, masks):
    return masks.argmax(axis=1)


def first_legal(state):
    return state.legal_actions()[0]


def random_legal(rng, masks):
    return np.array([rng.choice(np.flatnonzero(row)) for row in masks])


@pytest.mark.parametrize("player", [bc.BLACK, bc.WHITE], ids=["black", "white"])
@pytest.mark.parametrize("game", list(GAMES))
def test_it_plays_what_single_gymnasium_envs_play(game, player):
    n, rng = 4, np.random.default_rng(7)
    venv = BoardcoreVecEnv(game, n, opponent=first_legal_batch, player=player, **GAMES[game])
    singles = [BoardcoreEnv(game, opponent=first_legal, player=player, **GAMES[game]) for _ in range(n)]
    observations = venv.reset()
    expected = [env.reset()[0] for env in singles]
    episodes = 0
    for _ in range(60):
        np.testing.assert_array_equal(observations, np.stack(expected))
        masks = get_action_masks(venv)
        np.testing.assert_array_equal(masks, np.stack([env.action_masks() for env in singles]))
        actions = random_legal(rng, masks)
        observations, rewards, dones, infos = venv.step(actions)
        for i, env in enumerate(singles):
            final, reward, terminated, truncated, _ = env.step(actions[i])
            assert (rewards[i], dones[i]) == (reward, terminated or truncated), (i, game)
            if dones[i]:
                assert infos[i]["terminal_observation"].shape == final.shape
                assert infos[i]["TimeLimit.truncated"] is False
                episodes += 1
                expected[i] = env.reset()[0]
            else:
                expected[i] = final
        assert (venv.native.to_move() == player).all()
    assert episodes > 0


@pytest.mark.parametrize("illegal_action", ["terminate", "refuse"])
def test_an_illegal_action_is_scored_as_make_scores_it(illegal_action):
    venv = BoardcoreVecEnv(
        "reversi", 3, opponent=first_legal_batch, illegal_action=illegal_action, illegal_reward=-2, size=6
    )
    singles = [
        BoardcoreEnv("reversi", opponent=first_legal, illegal_action=illegal_action, illegal_reward=-2, size=6)
        for _ in range(3)
    ]
    observations = venv.reset()
    for env in singles:
        env.reset()
    illegal = int(np.flatnonzero(~venv.action_masks()[0])[0])
    legal = int(np.flatnonzero(venv.action_masks()[1])[0])
    actions = np.array([illegal, legal, 10_000])
    after, rewards, dones, infos = venv.step(actions)
    for i, env in enumerate(singles):
        _, reward, terminated, _, info = env.step(actions[i]) if actions[i] < 10_000 else env.step(illegal)
        assert rewards[i] == reward and dones[i] == terminated
        assert infos[i].get("illegal_action", False) == info.get("illegal_action", False)
    # A forfeit restarts (the start again); a refusal leaves the position as it was.
    np.testing.assert_array_equal(after[0], observations[0])
    assert dones[0] == (illegal_action == "terminate")


def test_a_random_opponent_is_reproducible_for_a_seed_and_the_agent_always_moves():
    def run(seed):
        venv = BoardcoreVecEnv("reversi", 8, player="white", seed=seed, size=6)
        rng, trace = np.random.default_rng(1), []
        observations = venv.reset()
        for _ in range(40):
            observations, rewards, dones, _ = venv.step(random_legal(rng, venv.action_masks()))
            assert (venv.native.to_move() == bc.WHITE).all()
            trace.append((observations.copy(), rewards.copy(), dones.copy()))
        return trace

    first, again, other = run(3), run(3), run(4)
    assert all(all(np.array_equal(a, b) for a, b in zip(x, y)) for x, y in zip(first, again))
    assert not all(np.array_equal(x[0], y[0]) for x, y in zip(first, other))
    rewards = np.concatenate([r for _, r, _ in first])
    assert set(np.unique(rewards)) <= {-1.0, 0.0, 1.0}


def test_max_steps_truncates_with_the_time_limit_flag():
    venv = BoardcoreVecEnv("reversi", 2, max_steps=4, size=6, seed=0)
    venv.reset()
    rng = np.random.default_rng(0)
    for _ in range(2):
        _, rewards, dones, infos = venv.step(random_legal(rng, venv.action_masks()))
    assert dones.all() and (rewards == 0).all()
    assert all(info["TimeLimit.truncated"] for info in infos)


def test_maskable_ppo_trains_through_vec_monitor():
    venv = VecMonitor(BoardcoreVecEnv("reversi", 8, size=6, seed=0))
    assert is_masking_supported(venv)
    model = sb3_contrib.MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=64, n_epochs=1, seed=0)
    model.learn(512)
    observations = venv.reset()
    actions, _ = model.predict(observations, action_masks=get_action_masks(venv))
    assert get_action_masks(venv)[np.arange(8), actions].all()


@pytest.mark.parametrize(
    "settings,message",
    [
        ({"opponent": "mcts:5"}, "opponent must be"),
        ({"player": "red"}, "player must be"),
        ({"illegal_action": "ignore"}, "illegal_action must be"),
        ({"illegal_reward": float("nan")}, "illegal_reward must be"),
    ],
)
def test_bad_settings_are_refused(settings, message):
    with pytest.raises(ValueError, match=message):
        BoardcoreVecEnv("reversi", 2, **settings)
    with pytest.raises(AttributeError):
        BoardcoreVecEnv("reversi", 2).env_method("render")
