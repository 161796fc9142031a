"""VectorEnv steps per second against PettingZoo's classic environments and pgx.

    python benches/bench_vector_env.py [--repeats N] [--envs N] [--steps N] [--pgx-python PATH] [--vector-only]

- boardcore: `bc.VectorEnv("reversi", n)` stepped with `sample_actions()` (uniformly random legal
  actions drawn in Rust), observations, masks, rewards and terminations returned as numpy arrays,
  auto-reset; steps per second = envs x calls / time. Also one thread against two.
- boardcore's Gymnasium vector env (`boardcore.adapters.gymnasium.make_vector`) the same way, in
  both autoreset modes: its overhead over the native `VectorEnv` (aim: within 25%), each mode
  against the native env in the same autoreset mode, their runs alternating (the same load).
  `--vector-only` stops there.
- PettingZoo: its classic board games (there is no Othello among them) and boardcore's own
  PettingZoo Reversi environment, each driven by the usual AEC loop (`agent_iter`, `last`,
  `action_space(agent).sample(mask)`, `step`), resetting when a game ends.
- pgx (if a Python with `pgx` and `jax` is given by --pgx-python, e.g. a venv outside the repo):
  `pgx.make("othello")` with `jax.jit(jax.vmap(env.step))` on the CPU, random legal actions,
  auto-reset as pgx does it, the same batch size; compile time excluded.

Every rate is the median of --repeats runs, and the ratios are taken in the same run.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import boardcore as bc
from _timing import bench_parser, median_time, table_head


def boardcore_rate(envs: int, steps: int, threads: int, repeats: int) -> float:
    env = bc.VectorEnv("reversi", envs, seed=1, threads=threads)
    env.reset()

    def run():
        for _ in range(steps):
            env.step(env.sample_actions())

    return envs * steps / median_time(run, repeats)


def paired_rates(envs: int, steps: int, mode: str, repeats: int) -> tuple[float, float]:
    """(native, wrapper) rates of the native VectorEnv and the Gymnasium wrapper in the same
    autoreset mode, their runs alternating so that both see the same load of a shared machine."""
    import statistics
    import time

    from boardcore.adapters.gymnasium import make_vector

    native = bc.VectorEnv("reversi", envs, seed=1, autoreset="same-step" if mode == "SameStep" else "next-step")
    native.reset()
    wrapper = make_vector("reversi", envs, autoreset_mode=mode)
    wrapper.reset(seed=1)
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(repeats):
        for env, spent in zip((native, wrapper), times):
            started = time.perf_counter()
            for _ in range(steps):
                env.step(env.sample_actions())
            spent.append(time.perf_counter() - started)
    native_time, wrapper_time = (statistics.median(spent) for spent in times)
    return envs * steps / native_time, envs * steps / wrapper_time


def pettingzoo_rate(make, steps: int, repeats: int) -> float:
    env = make()
    env.reset(seed=0)
    for agent in env.possible_agents:
        env.action_space(agent).seed(0)

    def run():
        done = 0
        while done < steps:
            for agent in env.agent_iter():
                observation, _reward, termination, truncation, _info = env.last()
                if termination or truncation:
                    action = None
                else:
                    action = env.action_space(agent).sample(observation["action_mask"])
                    done += 1
                env.step(action)
                if done >= steps:
                    break
            if not env.agents:
                env.reset()

    return steps / median_time(run, repeats)


PGX_SCRIPT = textwrap.dedent(
    """
    import json, sys, time
    import jax, jax.numpy as jnp, pgx
    envs, steps, repeats = map(int, sys.argv[1:4])
    env = pgx.make("othello")
    init, step = jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step))
    key = jax.random.PRNGKey(0)
    state = init(jax.random.split(key, envs))

    @jax.jit
    def act(state, key):
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        return jax.random.categorical(key, logits, axis=-1)

    def run(state, key):
        for _ in range(steps):
            key, k1, k2 = jax.random.split(key, 3)
            state = step(state, act(state, k1), jax.random.split(k2, envs))
        jax.block_until_ready(state)
        return state, key

    state, key = run(state, key)  # compile
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        state, key = run(state, key)
        times.append(time.perf_counter() - t)
    times.sort()
    print(json.dumps({"rate": envs * steps / times[len(times) // 2], "jax": jax.__version__, "pgx": pgx.__version__}))
    """
)


def pgx_rate(python: str, envs: int, steps: int, repeats: int) -> dict | None:
    try:
        out = subprocess.run(
            [python, "-c", PGX_SCRIPT, str(envs), str(steps), str(repeats)],
            capture_output=True,
            text=True,
            timeout=1800,
            check=True,
        )
    except (OSError, subprocess.SubprocessError) as e:
        print(f"| pgx could not run ({type(e).__name__}) | | | |")
        return None
    return json.loads(out.stdout.strip().splitlines()[-1])


def relative_speed(native: float, wrapper: float) -> str:
    """The wrapper's speed against the native env's, as "**1.20x** slower" or, when the wrapper
    ran faster (noise on a shared machine), "**1.08x** faster": never a slowdown below 1."""
    if wrapper <= native:
        return f"**{native / wrapper:.2f}x** slower"
    return f"**{wrapper / native:.2f}x** faster"


def main() -> int:
    parser = bench_parser(__doc__)
    parser.add_argument("--envs", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=200, help="VectorEnv calls per timing")
    parser.add_argument("--pettingzoo-steps", type=int, default=20_000)
    parser.add_argument("--pgx-python", default=None, help="a Python with pgx and jax installed")
    parser.add_argument(
        "--vector-only", action="store_true", help="only the native VectorEnv and its Gymnasium wrapper"
    )
    args = parser.parse_args()
    table_head("benchmark", "steps/s", "vs", "ratio")
    ours = boardcore_rate(args.envs, args.steps, 1, args.repeats)
    ours_2 = boardcore_rate(args.envs, args.steps, 2, args.repeats)
    print(f"| boardcore VectorEnv reversi, {args.envs} envs, 1 thread | {ours:,.0f} | | |")
    print(
        f"| boardcore VectorEnv reversi, {args.envs} envs, 2 threads | {ours_2:,.0f} | 1 thread | **{ours_2 / ours:.2f}x** |"
    )
    for mode in ("SameStep", "NextStep"):
        native, rate = paired_rates(args.envs, args.steps, mode, args.repeats)
        print(f"| boardcore VectorEnv reversi ({mode} autoreset), {args.envs} envs | {native:,.0f} | | |")
        print(
            f"| boardcore Gymnasium make_vector reversi ({mode}), {args.envs} envs | {rate:,.0f} | "
            f"VectorEnv {mode} | {relative_speed(native, rate)} (aim: within 1.25x slower) |"
        )
    if args.vector_only:
        return 0

    from boardcore.adapters.pettingzoo import env as boardcore_env
    from pettingzoo.classic import chess_v6, connect_four_v3, go_v5, tictactoe_v3

    peers = {
        "PettingZoo tictactoe_v3": tictactoe_v3.env,
        "PettingZoo connect_four_v3": connect_four_v3.env,
        "PettingZoo go_v5 (9x9)": lambda: go_v5.env(board_size=9),
        "PettingZoo chess_v6": chess_v6.env,
        "boardcore's PettingZoo reversi": lambda: boardcore_env("reversi"),
    }
    for name, make in peers.items():
        rate = pettingzoo_rate(make, args.pettingzoo_steps, args.repeats)
        print(
            f"| {name}, the usual AEC loop | {rate:,.0f} | VectorEnv 1 thread | **{ours / rate:,.0f}x** (target 10x) |"
        )
    if args.pgx_python:
        result = pgx_rate(args.pgx_python, args.envs, args.steps, args.repeats)
        if result:
            rate = result["rate"]
            print(
                f"| pgx {result['pgx']} othello, jax {result['jax']} CPU, {args.envs} envs (jit + vmap) | {rate:,.0f} | "
                f"VectorEnv 1 thread | **{ours / rate:,.2f}x** |"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
