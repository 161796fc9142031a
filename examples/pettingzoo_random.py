"""Random agents on a boardcore game through its PettingZoo AEC environment.

    pip install 'boardcore[pettingzoo]'
    python examples/pettingzoo_random.py [--game reversi] [--episodes 3]

The loop is PettingZoo's usual one; each agent samples a legal action from its action mask.
"""

from __future__ import annotations

import argparse

from boardcore.adapters.pettingzoo import env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="reversi", choices=["reversi", "cephalopod", "rive", "strands"])
    parser.add_argument("--episodes", type=int, default=3)
    args = parser.parse_args()
    e = env(args.game)
    for episode in range(args.episodes):
        e.reset(seed=episode)
        for i, agent in enumerate(e.possible_agents):  # "player_0" (Black) and "player_1"
            e.action_space(agent).seed(episode + 1000 * i)
        steps, totals = 0, dict.fromkeys(e.possible_agents, 0.0)
        for agent in e.agent_iter():
            observation, reward, termination, truncation, _info = e.last()
            totals[agent] += reward
            if termination or truncation:
                action = None
            else:
                action = e.action_space(agent).sample(observation["action_mask"])
                steps += 1
            e.step(action)
        print(f"episode {episode + 1}: {steps} actions, rewards {totals}")
    e.close()


if __name__ == "__main__":
    main()
