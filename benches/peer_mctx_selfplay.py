"""Self-play positions per second with pgx + mctx: the peer half of benches/bench_search.py.

    $BOARDCORE_PEER_PYTHON benches/peer_mctx_selfplay.py --games G --simulations S [--repeats N]

Run by bench_search.py with a Python that has jax, pgx and mctx (a venv outside the repository,
benches/README.md); it prints one JSON line. This is benchmark harness code, not the peer's.

What it times: `games` games of pgx's `othello` played at once to the end, every decision taken
by `mctx.gumbel_muzero_policy` (`simulations` simulations, 16 considered actions, mctx's
defaults otherwise) with a `recurrent_fn` that steps pgx's environment and evaluates the new
state with the MLP below; one jitted function does the search and the step for all games
(jit + vmap over games), the Python loop calls it once per move until every game has ended.
Positions = decisions made (games not yet over at each call); the rate is per wall-clock
second, `cpu_rate` per second of this process's CPU time (all its threads). The first run (JIT compilation
and one whole self-play) is reported separately and excluded from the rate.

The MLP is the one bench_search.py gives boardcore: 128 inputs (the mover's and the opponent's
discs) -> 128 -> 128 (ReLU) -> 65 policy logits and a tanh value, with the same random weights
(numpy's default_rng(seed), He-scaled normals).
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np


def mlp_weights(inputs: int, actions: int, hidden: int = 128, seed: int = 0) -> dict[str, np.ndarray]:
    """The random MLP both halves of the benchmark use (the same code is in bench_search.py)."""
    rng = np.random.default_rng(seed)

    def layer(n_in: int, n_out: int) -> np.ndarray:
        return (rng.standard_normal((n_in, n_out)) * np.sqrt(2.0 / n_in)).astype(np.float32)

    return {
        "w1": layer(inputs, hidden),
        "b1": np.zeros(hidden, np.float32),
        "w2": layer(hidden, hidden),
        "b2": np.zeros(hidden, np.float32),
        "wp": layer(hidden, actions),
        "bp": np.zeros(actions, np.float32),
        "wv": layer(hidden, 1),
        "bv": np.zeros(1, np.float32),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=64)
    parser.add_argument("--simulations", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--max-considered", type=int, default=16)
    args = parser.parse_args()

    import jax
    import jax.numpy as jnp
    import mctx
    import pgx

    env = pgx.make("othello")
    params = {k: jnp.asarray(v) for k, v in mlp_weights(128, env.num_actions).items()}

    def forward(params, observation):
        # pgx's othello observation: (G, 8, 8, 2) bool, the mover's discs then the opponent's.
        x = observation.astype(jnp.float32).reshape(observation.shape[0], -1)
        h = jax.nn.relu(x @ params["w1"] + params["b1"])
        h = jax.nn.relu(h @ params["w2"] + params["b2"])
        return h @ params["wp"] + params["bp"], jnp.tanh(h @ params["wv"] + params["bv"])[:, 0]

    def masked(logits, mask):
        return jnp.where(mask, logits - logits.max(axis=-1, keepdims=True), jnp.finfo(logits.dtype).min)

    def recurrent_fn(params, rng_key, action, state):
        # The pattern of pgx's AlphaZero example: every action (a pass too) hands the turn over.
        mover = state.current_player
        state = jax.vmap(env.step)(state, action)
        logits, value = forward(params, state.observation)
        reward = state.rewards[jnp.arange(state.rewards.shape[0]), mover]
        value = jnp.where(state.terminated, 0.0, value)
        discount = jnp.where(state.terminated, 0.0, -jnp.ones_like(value))
        output = mctx.RecurrentFnOutput(
            reward=reward, discount=discount, prior_logits=masked(logits, state.legal_action_mask), value=value
        )
        return output, state

    @jax.jit
    def move(state, key):
        """One decision for every game: a Gumbel MuZero search, then the chosen action played."""
        logits, value = forward(params, state.observation)
        root = mctx.RootFnOutput(prior_logits=masked(logits, state.legal_action_mask), value=value, embedding=state)
        policy = mctx.gumbel_muzero_policy(
            params=params,
            rng_key=key,
            root=root,
            recurrent_fn=recurrent_fn,
            num_simulations=args.simulations,
            invalid_actions=~state.legal_action_mask,
            max_num_considered_actions=args.max_considered,
        )
        deciding = ~state.terminated
        state = jax.vmap(env.step)(state, policy.action)  # pgx leaves an ended game as it is
        return state, deciding.sum()

    init = jax.jit(jax.vmap(env.init))

    def selfplay(seed: int) -> int:
        key = jax.random.PRNGKey(seed)
        key, sub = jax.random.split(key)
        state = init(jax.random.split(sub, args.games))
        positions = 0
        while not bool(state.terminated.all()):
            key, sub = jax.random.split(key)
            state, deciding = move(state, sub)
            positions += int(deciding)
        return positions

    started = time.perf_counter()
    first_positions = selfplay(0)
    first = time.perf_counter() - started
    rates, cpu_rates, times, counts = [], [], [], []
    for seed in range(1, args.repeats + 1):
        started, cpu_started = time.perf_counter(), time.process_time()
        positions = selfplay(seed)
        elapsed = time.perf_counter() - started
        rates.append(positions / elapsed)
        cpu_rates.append(positions / (time.process_time() - cpu_started))
        times.append(elapsed)
        counts.append(positions)
    print(
        json.dumps(
            {
                "rate": float(np.median(rates)),
                "cpu_rate": float(np.median(cpu_rates)),
                "seconds": float(np.median(times)),
                "positions": int(np.median(counts)),
                "first_run_seconds": first,
                "compile_seconds": max(first - first_positions / float(np.median(rates)), 0.0),
                "jax": jax.__version__,
                "pgx": pgx.__version__,
                "mctx": getattr(mctx, "__version__", "?"),
                "devices": [str(d) for d in jax.devices()],
            }
        )
    )


if __name__ == "__main__":
    main()
