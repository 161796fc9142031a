"""Model-guided search (issue 12) against OpenSpiel and pgx + mctx, and step-form against compound search.

    python benches/bench_search.py [--repeats N] [--quick] [--skip-peers] [--peer-python PATH]
                                   [--only overhead selfplay rollouts]

- overhead: search overhead with a trivial numpy evaluator (uniform logits, zero values) from the
  Reversi 8x8 start, 800 simulations: boardcore's `bc.mcts.search` with batches of 64 against
  OpenSpiel's Python `MCTSBot` (PUCT, c = 1.25, no solver) on its own `othello` with the
  equivalent `Evaluator` (zero values, uniform priors over the legal actions). Target 50x.
- selfplay: self-play positions (decisions) per second on Reversi 8x8, Gumbel search with the same
  simulations, the same 16 considered actions and the same MLP (128 inputs: the mover's and the
  opponent's discs -> 2 x 128 ReLU -> 65 policy logits and a tanh value, the same random
  weights): boardcore's `bc.mcts.selfplay(..., gumbel=True)` with the MLP in numpy and one batch
  per simulation across all games (batch_size = games), against `mctx.gumbel_muzero_policy` over
  pgx's `othello` with the MLP in JAX (jit + vmap over the games), run by
  benches/peer_mctx_selfplay.py under --peer-python (default $BOARDCORE_PEER_PYTHON: a Python environment outside the
  repository, benches/README.md). pgx's JIT compile time is excluded
  from its rate and reported. XLA runs with its default threads and with one (the ratio is
  against the faster), numpy with one BLAS thread; positions per CPU second (all of a process's
  threads) are printed as well, the figure the machine's load moves least. Target 2x.
- rollouts: random-rollout search in the step form (`bc.mcts.search(game, iterations=N)`) against
  the compound-move search (`bc.mcts.Searcher(game, iterations=N).search()`) on every game's
  default variant, simulations per second. Target: the step form within 20% (ratio >= 0.8).

Every rate is the median of --repeats runs, and every ratio is taken in the same run. For the
search overhead and the rollouts, the searches compared take turns within each repeat and the
ratio is the median of the repeats' ratios: the machine is shared and its load changes by the
second. --quick makes every part small (a smoke run of a few seconds with --skip-peers).
"""

from __future__ import annotations

import os

# One BLAS thread for the numpy MLP, set before numpy loads: its matrices are small (64 x 128), and
# OpenBLAS threads spinning against the search thread on this shared 2-core machine made one
# batch take 55 ms instead of 0.16 ms. (pgx + mctx are timed both ways, see peer_selfplay.)
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import json  # noqa: E402
import pathlib  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import boardcore as bc  # noqa: E402
import numpy as np  # noqa: E402
from _timing import bench_parser, run_table  # noqa: E402
from boardcore._games import GAMES  # noqa: E402
from peer_mctx_selfplay import mlp_weights  # noqa: E402  (one definition of the MLP's weights for both halves)

HERE = pathlib.Path(__file__).resolve().parent
# A Python with jax, pgx and mctx, in a venv outside the repository (benches/README.md).
DEFAULT_PEER_PYTHON = os.environ.get("BOARDCORE_PEER_PYTHON", "")
DEFAULTS = {name: entry.engine for name, entry in GAMES.items()}  # each game by its name (the registry)


def trivial_evaluator(observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Uniform logits and zero values: what is left to time is the search itself."""
    return np.zeros(masks.shape, np.float32), np.zeros(len(masks), np.float32)


class NumpyMLP:
    """The benchmark's MLP on boardcore's Reversi observations (planes 0 and 1: mover, opponent)."""

    def __init__(self, actions: int) -> None:
        self.__dict__.update(mlp_weights(128, actions))

    def evaluate(self, observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        x = observations[:, :2].reshape(len(observations), -1)
        h = np.maximum(x @ self.w1 + self.b1, 0.0)
        h = np.maximum(h @ self.w2 + self.b2, 0.0)
        return h @ self.wp + self.bp, np.tanh(h @ self.wv + self.bv)[:, 0]


def row(name: str, ours: str, peer: str, ratio: str) -> None:
    print(f"| {name} | {ours} | {peer} | {ratio} |")
    sys.stdout.flush()


def ours_search(sims: int, batch: int, searches: int = 20):
    """`searches` boardcore searches with the trivial evaluator (one takes a few milliseconds: a
    timing of many is not a timing of timer and scheduler noise)."""

    def run():
        for _ in range(searches):
            bc.mcts.search(bc.Reversi(), iterations=sims, evaluator=trivial_evaluator, batch_size=batch)

    return run, searches * sims


def interleaved_rates(runs: dict, repeats: int) -> tuple[dict, dict]:
    """Simulations per second of each `name: (run, simulations)`, the runs taking turns within
    every repeat so that all see the same load on a shared machine: the median rate of each, and
    the median over the repeats of each one's rate divided by the last one's (the peer's)."""
    rates = {name: [] for name in runs}
    for _ in range(repeats):
        for name, (run, sims) in runs.items():
            started = time.perf_counter()
            run()
            rates[name].append(sims / (time.perf_counter() - started))
    peer = list(runs)[-1]
    ratios = {name: statistics.median(r / p for r, p in zip(rates[name], rates[peer])) for name in runs}
    return {name: statistics.median(r) for name, r in rates.items()}, ratios


def bench_overhead(args) -> None:
    sims, batch = args.overhead_simulations, 64
    runs = {"batched": ours_search(sims, batch), "unbatched": ours_search(sims, 1)}
    name = f"search overhead, trivial numpy evaluator, Reversi 8x8 start, {sims} simulations"
    spiel_mcts = None
    if not args.skip_peers:
        try:
            import pyspiel
            from open_spiel.python.algorithms import mcts as spiel_mcts
        except ImportError:
            pass
    if spiel_mcts is None:
        rates, _ = interleaved_rates(runs, args.repeats)
        why = "skipped (--skip-peers)" if args.skip_peers else "OpenSpiel is not installed: skipped"
        row(f"{name}, batch {batch}", f"{rates['batched']:,.0f}/s", why, "")
        row("the same, batch 1", f"{rates['unbatched']:,.0f}/s", "", "")
        return

    class TrivialEvaluator(spiel_mcts.Evaluator):
        """The same trivial evaluator in OpenSpiel's form: one state at a time."""

        def evaluate(self, state):
            return np.zeros(2)

        def prior(self, state):
            legal = state.legal_actions()
            return [(action, 1.0 / len(legal)) for action in legal]

    game = pyspiel.load_game("othello")
    bot = spiel_mcts.MCTSBot(
        game,
        1.25,
        sims,
        TrivialEvaluator(),
        solve=False,
        random_state=np.random.RandomState(0),
        child_selection_fn=spiel_mcts.SearchNode.puct_value,
    )
    runs["openspiel"] = (lambda: bot.mcts_search(game.new_initial_state()), sims)
    rates, ratios = interleaved_rates(runs, args.repeats)
    row(
        f"{name}, batch {batch}",
        f"{rates['batched']:,.0f}/s",
        f"{rates['openspiel']:,.0f}/s (open_spiel Python MCTSBot)",
        f"**{ratios['batched']:,.0f}x** (target 50x)",
    )
    row("the same, boardcore batch 1", f"{rates['unbatched']:,.0f}/s", "", f"{ratios['unbatched']:,.0f}x")


def boardcore_selfplay(games: int, sims: int, batch: int, threads: int, repeats: int) -> tuple[list, list, int]:
    """Positions per wall-clock second and per CPU second of boardcore's self-play, one per repeat."""
    mlp = NumpyMLP(bc.Reversi().actions().num_actions)
    rates, cpu_rates, counts = [], [], []
    for seed in range(1, repeats + 1):
        started, cpu_started = time.perf_counter(), time.process_time()
        data = bc.mcts.selfplay(
            "reversi",
            {"size": 8},
            evaluator=mlp,
            games=games,
            iterations=sims,
            batch_size=batch,
            gumbel=True,
            seed=seed,
            threads=threads,
        )
        rates.append(len(data.actions) / (time.perf_counter() - started))
        cpu_rates.append(len(data.actions) / (time.process_time() - cpu_started))
        counts.append(len(data.actions))
    return rates, cpu_rates, int(statistics.median(counts))


# How XLA may use the CPU when pgx + mctx run: its default (every core), and one thread, as the
# numpy MLP gets. The ratio is taken against the faster of the two.
XLA_THREADS = {
    "XLA default threads": None,
    "XLA 1 thread": "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1",
}


def peer_selfplay(args, games: int, sims: int, xla_flags: str | None) -> dict | str:
    """pgx + mctx's figures from peer_mctx_selfplay.py, or why there are none."""
    if args.skip_peers:
        return "skipped (--skip-peers)"
    python = args.peer_python
    if not python or not os.path.exists(python):
        return f"skipped: no peer Python ({python or 'none given'}; see benches/README.md)"
    command = [
        python,
        str(HERE / "peer_mctx_selfplay.py"),
        "--games",
        str(games),
        "--simulations",
        str(sims),
        "--repeats",
        str(args.repeats),
    ]
    env = dict(os.environ, **({"XLA_FLAGS": xla_flags} if xla_flags else {}))
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=3600, check=True, env=env)
    except subprocess.CalledProcessError as e:
        return f"failed: {e.stderr.strip().splitlines()[-1] if e.stderr.strip() else e}"
    except (OSError, subprocess.SubprocessError) as e:
        return f"could not run ({type(e).__name__})"
    return json.loads(done.stdout.strip().splitlines()[-1])


def bench_selfplay(args) -> None:
    games, sims = args.games, args.simulations
    batch = games
    # boardcore on one thread is timed before and after the peer (its median over both), so that a
    # change of the machine's load while pgx runs does not favour either side.
    rates, cpu_rates, positions = boardcore_selfplay(games, sims, batch, 1, args.repeats)
    rates_2, _, _ = boardcore_selfplay(games, sims, batch, 2, args.repeats)
    peers = {label: peer_selfplay(args, games, sims, flags) for label, flags in XLA_THREADS.items()}
    measured = {label: peer for label, peer in peers.items() if not isinstance(peer, str)}
    if measured:
        more, more_cpu, _ = boardcore_selfplay(games, sims, batch, 1, args.repeats)
        rates, cpu_rates = rates + more, cpu_rates + more_cpu
    ours, ours_cpu, ours_2 = statistics.median(rates), statistics.median(cpu_rates), statistics.median(rates_2)
    name = (
        f"self-play positions/s, Reversi 8x8, Gumbel, {sims} simulations, {games} games (batch {batch}), "
        f"MLP 2x128 (numpy, 1 BLAS thread)"
    )
    if not measured:
        row(
            f"{name}, boardcore 1 thread (about {positions} positions)",
            f"{ours:,.0f}/s",
            next(iter(peers.values())),
            "",
        )
        row("the same, boardcore 2 threads", f"{ours_2:,.0f}/s", "", "")
        return
    best = max(peer["rate"] for peer in measured.values())
    best_cpu = max(peer["cpu_rate"] for peer in measured.values())
    row(
        f"{name}, boardcore 1 thread (about {positions} positions)",
        f"{ours:,.0f}/s",
        f"{best:,.0f}/s (pgx + mctx, the faster below)",
        f"**{ours / best:.1f}x** (target 2x)",
    )
    row("the same, boardcore 2 threads", f"{ours_2:,.0f}/s", "", f"**{ours_2 / best:.1f}x**")
    row(
        "the same, boardcore 1 thread, positions per CPU second (all threads; load-independent)",
        f"{ours_cpu:,.0f}",
        f"{best_cpu:,.0f} (the better below)",
        f"**{ours_cpu / best_cpu:.1f}x**",
    )
    for label, peer in measured.items():
        row(
            f"pgx {peer['pgx']} + mctx {peer['mctx']} (jax {peer['jax']} CPU, jit + vmap), {label}; "
            f"compile {peer['compile_seconds']:.0f} s, excluded",
            "",
            f"{peer['rate']:,.0f}/s, {peer['cpu_rate']:,.0f} per CPU second (about {peer['positions']} positions)",
            "",
        )


def bench_rollouts(args) -> None:
    sims = args.rollout_simulations
    for name, make in DEFAULTS.items():
        runs = {
            "step": (lambda: bc.mcts.search(make(), iterations=sims, seed=1), sims),
            "compound": (lambda: bc.mcts.Searcher(make(), iterations=sims, seed=1).search(), sims),
        }
        rates, ratios = interleaved_rates(runs, args.repeats)
        row(
            f"random-rollout search, {name} default start, {sims:,} simulations, step form vs compound moves",
            f"{rates['step']:,.0f}/s",
            f"{rates['compound']:,.0f}/s (Searcher)",
            f"**{ratios['step']:.2f}** (target >= 0.8)",
        )


PARTS = {"overhead": bench_overhead, "selfplay": bench_selfplay, "rollouts": bench_rollouts}


def main() -> int:
    parser = bench_parser(__doc__)
    parser.add_argument("--quick", action="store_true", help="small settings everywhere (a smoke run)")
    parser.add_argument("--skip-peers", action="store_true", help="time boardcore only")
    parser.add_argument(
        "--peer-python",
        default=DEFAULT_PEER_PYTHON if DEFAULT_PEER_PYTHON and os.path.exists(DEFAULT_PEER_PYTHON) else None,
        help="a Python with jax, pgx and mctx (default: $BOARDCORE_PEER_PYTHON)",
    )
    parser.add_argument("--only", nargs="*", default=list(PARTS), choices=list(PARTS))
    parser.add_argument("--overhead-simulations", type=int, default=800)
    parser.add_argument("--games", type=int, default=64, help="self-play games played at once")
    parser.add_argument("--simulations", type=int, default=32, help="simulations per self-play decision")
    parser.add_argument("--rollout-simulations", type=int, default=2000)
    args = parser.parse_args()
    if args.quick:
        args.repeats, args.overhead_simulations = 1, 100
        args.games, args.simulations, args.rollout_simulations = 4, 8, 100
    return run_table(args, [PARTS[part] for part in args.only], "benchmark", "boardcore", "peer", "ratio")


if __name__ == "__main__":
    sys.exit(main())
