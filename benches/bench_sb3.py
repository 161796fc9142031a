"""Stable-Baselines3: the native VecEnv (boardcore.adapters.sb3) against SB3's DummyVecEnv of
single Gymnasium envs (boardcore.adapters.gymnasium.make), agent steps per second.

    python benches/bench_sb3.py [--repeats N] [--envs N] [--steps N]

Needs the [sb3] extra (Stable-Baselines3 and sb3-contrib, which bring PyTorch). Both sides play
Reversi 8x8 (and 6x6) as Black against a uniformly random opponent; the agent's actions are
uniformly random legal ones drawn from the masks (``get_action_masks``, what MaskablePPO asks
for), drawn before the timing so that both sides are timed on ``step`` alone; an agent step is
one agent action and the opponent's replies, auto-reset included. The two sides alternate within
each repeat (the same load); medians of --repeats runs, the ratio from the same run.
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np
from _timing import bench_parser, table_head


def main() -> int:
    parser = bench_parser(__doc__, repeats=5)
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--steps", type=int, default=200, help="agent steps per timing, per env")
    args = parser.parse_args()
    try:
        from sb3_contrib.common.maskable.utils import get_action_masks
        from stable_baselines3.common.vec_env import DummyVecEnv
    except ImportError:
        print("Stable-Baselines3 is not installed here: pip install 'boardcore[sb3]' (this section measures nothing)")
        return 0
    from boardcore.adapters.gymnasium import make
    from boardcore.adapters.sb3 import BoardcoreVecEnv

    table_head("benchmark", "boardcore VecEnv", "DummyVecEnv(make)", "ratio")
    for size in (8, 6):
        native = BoardcoreVecEnv("reversi", args.envs, size=size, seed=1)
        dummy = DummyVecEnv([lambda: make("reversi", opponent="random", size=size)] * args.envs)
        times: tuple[list[float], list[float]] = ([], [])
        for _ in range(args.repeats):
            for venv, spent in zip((native, dummy), times):
                venv.seed(1)
                venv.reset()
                rng = np.random.default_rng(0)
                elapsed = 0.0
                for _ in range(args.steps):
                    masks = get_action_masks(venv)
                    # A random legal action per env: the argmax of random scores over the legal ones.
                    actions = np.where(masks, rng.random(masks.shape), -1.0).argmax(axis=1)
                    started = time.perf_counter()
                    venv.step(actions)
                    elapsed += time.perf_counter() - started
                spent.append(elapsed)
        ours, theirs = (args.envs * args.steps / statistics.median(t) for t in times)
        print(
            f"| agent steps/s, Reversi {size}x{size} against a random opponent, {args.envs} envs, 1 thread "
            f"| {ours:,.0f} | {theirs:,.0f} | **{ours / theirs:.0f}x** |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
