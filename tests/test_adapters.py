"""The PettingZoo and OpenSpiel adapters (boardcore.adapters, docs/ai.md)."""

import pickle
import random

import boardcore as bc
import numpy as np
import pytest
from harness import SMALL_GAMES

pettingzoo = pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")


@pytest.mark.parametrize("api", ["aec", "parallel"])
@pytest.mark.parametrize("game", sorted(SMALL_GAMES))
def test_every_game_passes_the_pettingzoo_api_test_of_both_apis(game, api):
    from boardcore.adapters.pettingzoo import env, parallel_env
    from pettingzoo.test import api_test, parallel_api_test

    make, check = {"aec": (env, api_test), "parallel": (parallel_env, parallel_api_test)}[api]
    check(make(game, **SMALL_GAMES[game]), num_cycles=200)


@pytest.mark.parametrize("game", sorted(SMALL_GAMES))
def test_a_pettingzoo_episode_ends_with_the_games_result(game):
    from boardcore.adapters.pettingzoo import env

    e = env(game, **SMALL_GAMES[game])
    e.reset(seed=1)
    rng = random.Random(1)
    totals = {"player_0": 0.0, "player_1": 0.0}
    for agent in e.agent_iter():
        observation, reward, termination, truncation, _ = e.last()
        totals[agent] += reward
        if termination or truncation:
            e.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        e.step(int(rng.choice(legal)))
    assert sorted(totals.values()) in ([-1.0, 1.0], [0.0, 0.0])


def test_pettingzoo_game_names_are_read_in_any_case():
    # Issue 14 item 13: names in any case, as bc.VectorEnv reads them (this raised before).
    from boardcore.adapters.pettingzoo import env as pettingzoo_env

    upper = pettingzoo_env("STRANDS", layout="hex4")
    assert upper.unwrapped.game_name == "strands" and upper.unwrapped.metadata["name"] == "boardcore_strands_v0"
    upper.reset(seed=0)
    lower = pettingzoo_env("strands", layout="hex4")
    lower.reset(seed=0)
    assert np.array_equal(upper.observe("player_0")["observation"], lower.observe("player_0")["observation"])
    with pytest.raises(ValueError, match="got 'othello'"):
        pettingzoo_env("othello")


def play_out_of_board_order(state, play, rng) -> int:
    """Plays `state` (a Strands step state) to the end through `play(action)`, taking a cell
    before one already covered whenever there is one (only any order allows it); how often."""
    out_of_order = 0
    while not state.is_over():
        covered = [state.cell_actions(cell)[0] for cell in state.covered]
        earlier = [a for a in state.legal_actions() if covered and a < max(covered)]
        action = earlier[0] if earlier else rng.choice(state.legal_actions())
        out_of_order += bool(earlier)
        play(action)
        state.apply_action(action)
    return out_of_order


@pytest.mark.parametrize("cover", ["up-to", "exact"])
def test_a_pettingzoo_strands_env_takes_the_any_order_step_form(cover):
    """`any_order` beside the constructor's arguments (it once reached `Strands()`)."""
    from boardcore.adapters.pettingzoo import env
    from pettingzoo.test import api_test

    variant = {"layout": "hex4", "cover": cover}
    api_test(env("strands", **variant, any_order=True), num_cycles=100)
    e = env("strands", **variant, any_order=True)
    e.reset(seed=0)
    mirror = bc.Strands(**variant).actions(any_order=True)

    def play(action):
        agent = e.agent_selection
        observation = e.observe(agent)
        assert np.array_equal(observation["action_mask"], mirror.action_mask())
        assert np.array_equal(observation["observation"], mirror.observation())
        e.step(action)

    assert play_out_of_board_order(mirror, play, random.Random(cover)) > 0
    assert all(e.terminations.values())


def test_pettingzoo_observations_are_from_the_agents_own_side():
    from boardcore.adapters.pettingzoo import raw_env

    e = raw_env("reversi", size=6)
    e.reset()
    black, white = e.observe("player_0")["observation"], e.observe("player_1")["observation"]
    assert np.array_equal(black[0], white[1]) and np.array_equal(black[1], white[0])
    assert e.observe("player_1")["action_mask"].sum() == 0  # not White's turn


def test_pettingzoo_agents_are_the_classic_player_names_or_the_colours():
    from boardcore.adapters.pettingzoo import env, raw_env

    assert raw_env("reversi").possible_agents == ["player_0", "player_1"]  # player_0 moves first: Black
    e = env("reversi", size=6, agent_names="colours")
    e.reset()
    assert e.possible_agents == ["black", "white"] and e.agent_selection == "black"
    assert np.array_equal(
        e.observe("black")["observation"], raw_env("reversi", size=6).observe("player_0")["observation"]
    )
    for bad in ("colors", "", None):
        with pytest.raises(ValueError, match="agent_names"):
            env("reversi", agent_names=bad)


def masked_sampling(make):
    """`make` with every action space sampling the agent's legal actions: PettingZoo's
    max_cycles_test samples `action_space(agent).sample()` with no mask, and in a board game
    almost every action is then illegal (which ends the game at once); any agent of the game
    draws from the mask instead, as this does."""

    def made(**options):
        e = make(**options)
        unwrapped = e.unwrapped if hasattr(e, "unwrapped") else e
        aec = getattr(unwrapped, "_aec", unwrapped)

        class Legal(gymnasium.spaces.Discrete):
            def sample(self, mask=None, probability=None):
                legal = np.flatnonzero(aec._state.action_mask()) if not aec._state.is_over() else [0]
                return int(self.np_random.choice(legal))

        spaces = {agent: Legal(e.action_space(agent).n, seed=0) for agent in e.possible_agents}
        e.action_space = spaces.__getitem__
        return e

    return made


@pytest.mark.parametrize("game", ["reversi", "cephalopod"])
def test_pettingzoos_max_cycles_test_passes(game):
    # A cycle is one action of each agent: in the games whose players alternate action by action
    # (a Reversi pass is an action), that is one turn each, which is what max_cycles_test counts.
    from types import SimpleNamespace

    from boardcore.adapters import pettingzoo as adapter
    from pettingzoo.test import max_cycles_test

    module = SimpleNamespace(
        env=masked_sampling(lambda **o: adapter.env(game, **SMALL_GAMES[game], **o)),
        parallel_env=masked_sampling(lambda **o: adapter.parallel_env(game, **SMALL_GAMES[game], **o)),
    )
    max_cycles_test(module)


@pytest.mark.parametrize("game", sorted(SMALL_GAMES))
def test_max_cycles_truncates_a_game_after_that_many_actions_of_each_agent(game):
    from boardcore.adapters.pettingzoo import env

    e = env(game, **SMALL_GAMES[game], max_cycles=3)
    e.reset(seed=0)
    actions, rng = 0, random.Random(0)
    for _agent in e.agent_iter():
        observation, _, termination, truncation, _ = e.last()
        if termination or truncation:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        actions += 1
    assert actions == 6 and all(e.truncations.values()) and not any(e.terminations.values())
    for bad in (0, -1, 2.5, True, "3"):
        with pytest.raises(ValueError, match="max_cycles"):
            env(game, max_cycles=bad)


@pytest.mark.parametrize("game", sorted(SMALL_GAMES))
def test_a_parallel_game_plays_the_movers_actions_to_the_games_result(game):
    from boardcore.adapters.pettingzoo import parallel_env

    e = parallel_env(game, **SMALL_GAMES[game])
    observations, _ = e.reset(seed=0)
    mirror = getattr(bc, bc.adapters.game_name(game).capitalize())(**SMALL_GAMES[game]).actions()
    rng = random.Random(0)
    while e.agents:
        masks = {agent: observations[agent]["action_mask"] for agent in e.agents}
        mover = e.possible_agents[mirror.to_move]
        assert masks[mover].any() and not any(m.any() for a, m in masks.items() if a != mover)
        action = int(rng.choice(np.flatnonzero(masks[mover])))
        ignored = {agent: 0 for agent in e.agents if agent != mover}
        observations, rewards, terminations, *_ = e.step({mover: action, **ignored})
        mirror.apply_action(action)
    assert all(terminations.values())
    assert [rewards[a] for a in e.possible_agents] == list(mirror.returns())


def test_an_illegal_parallel_action_ends_the_game_with_a_penalty():
    from boardcore.adapters.pettingzoo import parallel_env

    e = parallel_env("reversi", size=6)
    observations, _ = e.reset()
    illegal = int(np.flatnonzero(observations["player_0"]["action_mask"] == 0)[0])
    _, rewards, terminations, _, infos = e.step({"player_0": illegal, "player_1": 0})
    assert rewards == {"player_0": -1, "player_1": 0} and all(terminations.values())
    assert infos["player_0"]["illegal_action"] and not e.agents


def test_an_illegal_pettingzoo_action_ends_the_game_with_a_penalty():
    from boardcore.adapters.pettingzoo import env

    e = env("reversi", size=6)
    e.reset()
    observation, *_ = e.last()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    e.step(illegal)
    assert e.terminations["player_0"] and e.rewards["player_0"] == -1


pyspiel = pytest.importorskip("pyspiel")


@pytest.fixture(scope="module")
def registered():
    import boardcore.adapters.openspiel  # noqa: F401  (registers the games)

    return pyspiel


@pytest.mark.parametrize("game", sorted(SMALL_GAMES))
def test_every_game_loads_in_openspiel_and_plays_to_the_end(registered, game):
    params = ",".join(f"{k}={v}" for k, v in SMALL_GAMES[game].items())
    spiel_game = registered.load_game(f"boardcore_{game}({params})")
    state = spiel_game.new_initial_state()
    rng = random.Random(2)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])
    assert len(state.observation_tensor(0)) == int(
        np.prod(bc.__dict__[game.capitalize()](**SMALL_GAMES[game]).actions().observation_shape)
    )


def test_the_default_openspiel_games_load_by_name(registered):
    for game in SMALL_GAMES:
        spiel_game = registered.load_game(f"boardcore_{game}")
        assert spiel_game.num_distinct_actions() == bc.__dict__[game.capitalize()]().actions().num_actions


def openspiel_mcts_plays(spiel_game, simulations: int, seed: int, moves: int) -> int:
    """OpenSpiel's MCTSBot (UCT constant 2, random rollouts) plays up to ``moves`` moves from the
    start, each one legal; returns how many it played before the game ended."""
    from open_spiel.python.algorithms import mcts as spiel_mcts

    bot = spiel_mcts.MCTSBot(
        spiel_game,
        2.0,
        simulations,
        spiel_mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)),
        random_state=np.random.RandomState(seed),
    )
    state = spiel_game.new_initial_state()
    for played in range(moves):
        if state.is_terminal():
            return played
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    return moves


@pytest.mark.parametrize("game", sorted(SMALL_GAMES))
def test_openspiels_own_mcts_bot_plays_every_game(registered, game):
    # OpenSpiel's Python MCTSBot. Its C++ pyspiel.MCTSBot crashes on every Python-registered game,
    # OpenSpiel's own python_tic_tac_toe included (open_spiel 2.0.2; see docs/ai.md).
    params = ",".join(f"{k}={v}" for k, v in SMALL_GAMES[game].items())
    openspiel_mcts_plays(registered.load_game(f"boardcore_{game}({params})"), simulations=30, seed=0, moves=4)


def test_openspiel_states_clone_independently(registered):
    state = registered.load_game("boardcore_reversi(size=6)").new_initial_state()
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert str(state) != str(clone)
    assert (
        state.legal_actions() == registered.load_game("boardcore_reversi(size=6)").new_initial_state().legal_actions()
    )


def test_openspiel_strands_states_within_a_turn_read_differently(registered):
    start = registered.load_game("boardcore_strands(layout=hex4)").new_initial_state()
    start.apply_action(start.legal_actions()[0])  # Black's opening ends by itself
    mid_turn = []
    for action in start.legal_actions():
        state = start.clone()
        state.apply_action(action)
        if state.current_player() == 1:  # White's turn goes on: one cell covered so far
            mid_turn.append(state)
    assert len(mid_turn) >= 2
    texts = {str(state) for state in mid_turn}
    assert len(texts) == len(mid_turn) and all("covering" in t for t in texts)
    assert mid_turn[0].observation_string(1) == str(mid_turn[0])


@pytest.mark.parametrize("cover", ["up-to", "exact"])
def test_openspiel_strands_takes_the_any_order_step_form(registered, cover):
    """`boardcore_strands(...,any_order=true)`: a parameter of its own, passed to `actions()`."""
    name = f"boardcore_strands(layout=hex4,cover={cover},any_order=true)"
    game = registered.load_game(name)
    assert game.get_parameters()["any_order"] is True
    assert registered.load_game("boardcore_strands(layout=hex4)").get_parameters()["any_order"] is False
    registered.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    state = game.new_initial_state()
    mirror = bc.Strands(layout="hex4", cover=cover).actions(any_order=True)

    def play(action):
        assert state.steps.any_order and state.legal_actions() == mirror.legal_actions()
        state.apply_action(action)

    assert play_out_of_board_order(mirror, play, random.Random(cover)) > 0
    assert state.is_terminal() and state.returns() == list(mirror.returns())
    again = pickle.loads(pickle.dumps(state))
    assert again.steps.any_order and str(again) == str(state)


@pytest.mark.parametrize("game", sorted(SMALL_GAMES))
def test_openspiels_mcts_bot_with_random_rollouts_plays_every_default_variant(registered, game):
    # Issue 12, item 7: OpenSpiel's own search keeps working on the full-size games (Cephalopod's
    # 400 actions, Strands' cell-by-cell turns on hex6), not only on the small boards above.
    played = openspiel_mcts_plays(registered.load_game(f"boardcore_{game}"), simulations=20, seed=1, moves=3)
    assert played == 3


@pytest.mark.parametrize("game", sorted(SMALL_GAMES))
def test_openspiel_observations_and_masks_are_the_step_forms(registered, game):
    # What docs/ai_openspiel.md relies on: an evaluator reads the same numbers through OpenSpiel
    # (observation_tensor, legal_actions_mask) as bc.mcts gives it (observation, action_mask).
    params = ",".join(f"{k}={v}" for k, v in SMALL_GAMES[game].items())
    state = registered.load_game(f"boardcore_{game}({params})").new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        steps = state.steps
        observation = np.asarray(state.observation_tensor(), np.float32).reshape(steps.observation_shape)
        assert np.array_equal(observation, steps.observation())
        assert np.array_equal(np.asarray(state.legal_actions_mask(), bool), steps.action_mask())
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("game", sorted(SMALL_GAMES))
def test_make_observation_gives_the_planes_by_name(registered, game):
    from open_spiel.python.observation import make_observation

    params = ",".join(f"{k}={v}" for k, v in SMALL_GAMES[game].items())
    spiel_game = registered.load_game(f"boardcore_{game}({params})")
    observation = make_observation(spiel_game)
    state = spiel_game.new_initial_state()
    rng = random.Random(5)
    for _ in range(6):
        steps = state.steps
        for player in (0, 1):
            observation.set_from(state, player)
            planes = steps.observation(player)
            for i, name in enumerate(steps.observation_planes):
                assert np.array_equal(observation.dict[name], planes[i]), name
            assert list(observation.dict) == list(steps.observation_planes)
            assert np.array_equal(observation.tensor, planes.ravel())
        state.apply_action(rng.choice(state.legal_actions()))


def test_the_cpp_mcts_bot_refuses_a_boardcore_game_instead_of_crashing(registered):
    game = registered.load_game("boardcore_reversi(size=4)")
    evaluator = registered.RandomRolloutEvaluator(1, 0)
    with pytest.raises(TypeError, match=r"crashes the interpreter.*open_spiel\.python\.algorithms\.mcts\.MCTSBot"):
        registered.MCTSBot(game, evaluator, 2.0, 10, 100, False, 0, False)
    # Every other game passes through to OpenSpiel's own C++ bot.
    tic_tac_toe = registered.load_game("tic_tac_toe")
    bot = registered.MCTSBot(tic_tac_toe, evaluator, 2.0, 10, 100, False, 0, False)
    assert isinstance(bot, registered.MCTSBot)
    assert bot.step(tic_tac_toe.new_initial_state()) in range(9)


@pytest.fixture(scope="module")
def openspiel_guide(registered):
    """The code of docs/ai_openspiel.md, run as written (its blocks in order, in one scope)."""
    import pathlib
    import re

    page = pathlib.Path(__file__).resolve().parent.parent / "docs" / "ai_openspiel.md"
    scope: dict = {}
    for block in re.findall(r"```python\n(.*?)```", page.read_text(), re.S):
        exec(compile(block, "docs/ai_openspiel.md", "exec"), scope)
    return scope


def test_the_openspiel_guide_runs_and_its_searches_answer(openspiel_guide):
    start = openspiel_guide["start"]
    assert start.action_mask()[openspiel_guide["action"]]
    assert openspiel_guide["result"].policy.shape == (start.num_actions,)
    data = openspiel_guide["data"]
    assert len(data.observations) == len(data.policies) == len(data.outcomes) > 0
    assert openspiel_guide["spiel_action"] in openspiel_guide["game"].new_initial_state().legal_actions()


@pytest.mark.parametrize("game", sorted(SMALL_GAMES))
def test_openspiels_mcts_bot_runs_a_batched_evaluator_on_every_game(openspiel_guide, registered, game):
    # Item 7: a network-style Evaluator (the guide's bridge from a bc.mcts evaluator) in OpenSpiel's
    # own MCTSBot, on every game; the side to move's value lands on the mover's entry.
    from open_spiel.python.algorithms import mcts as spiel_mcts

    params = ",".join(f"{k}={v}" for k, v in SMALL_GAMES[game].items())
    spiel_game = registered.load_game(f"boardcore_{game}({params})")
    steps = spiel_game.new_initial_state().steps
    model = openspiel_guide["StandInModel"](int(np.prod(steps.observation_shape)), steps.num_actions)
    batched = openspiel_guide["AlphaZeroModelEvaluator"](model)
    evaluator = openspiel_guide["OneStateAtATime"](batched, steps.observation_shape)
    bot = spiel_mcts.MCTSBot(
        spiel_game,
        2.0,
        30,
        evaluator,
        solve=False,
        random_state=np.random.RandomState(0),
        child_selection_fn=spiel_mcts.SearchNode.puct_value,
    )
    state = spiel_game.new_initial_state()
    for _ in range(6):
        if state.is_terminal():
            break
        mover = state.current_player()
        _, values = batched.evaluate(state.steps.observation()[None], state.steps.action_mask()[None])
        assert evaluator.evaluate(state)[mover] == pytest.approx(values[0])
        assert evaluator.evaluate(state)[1 - mover] == pytest.approx(-values[0])
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
