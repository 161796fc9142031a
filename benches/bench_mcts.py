"""MCTS and playouts against OpenSpiel, and MCTS strength against uniform random play.

    python benches/bench_mcts.py [--repeats N] [--iterations N] [--strength-games N] [--games ...]

Speed (needs `pip install open_spiel`; skipped without it), Reversi 8x8 from the start:
- MCTS iterations per second: boardcore's search against OpenSpiel's C++ `pyspiel.MCTSBot` with a
  one-rollout `pyspiel.RandomRolloutEvaluator` on its own `othello`, the same number of
  simulations from the start position, one thread each (ours also on two threads);
- random playouts per second: boardcore's `playouts()` against OpenSpiel's `othello` played to the
  end from Python with `random.choice(state.legal_actions())`.

Strength: boardcore MCTS with 1,000 iterations against uniform random play (`random_move`), on each
game's default variant, MCTS taking Black and White in turn; games run on two processes.
`--search steps` measures the search over the step form instead (`bc.mcts.search` with random
rollouts, on `game.actions()`), against a player drawing uniformly among the legal actions: the
same opponent on Reversi and Cephalopod; on Rive the step form is the single-stone game, and on
Strands a uniform action is not a uniform turn.
Every time is the median of --repeats runs; ratios are taken in the same run.
"""

from __future__ import annotations

import math
import multiprocessing
import random
import sys
import time
from pathlib import Path

import boardcore as bc
from _timing import bench_parser, median_time, table_head
from boardcore._games import GAMES

# The strength test plays the game of examples/mcts_vs_random.py (one definition of that game).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))
from mcts_vs_random import play as mcts_vs_random

DEFAULTS = {name: entry.engine for name, entry in GAMES.items()}  # each game by its name (the registry)


def bench_speed(args) -> None:
    try:
        import pyspiel
    except ImportError:
        print("| OpenSpiel is not installed: speed comparison skipped | | | |")
        return
    sims = args.iterations
    game = pyspiel.load_game("othello")
    evaluator = pyspiel.RandomRolloutEvaluator(1, 42)

    def theirs():
        bot = pyspiel.MCTSBot(game, evaluator, math.sqrt(2), sims, 10**9, False, 42, False)
        bot.step(game.new_initial_state())

    ours_1 = sims / median_time(lambda: bc.mcts.search_moves(bc.Reversi(), sims, seed=1), args.repeats)
    ours_2 = sims / median_time(lambda: bc.mcts.search_moves(bc.Reversi(), sims, seed=1, threads=2), args.repeats)
    their_rate = sims / median_time(theirs, args.repeats)
    print(
        f"| MCTS iterations/s, Reversi 8x8 start, {sims:,} simulations, 1 thread | {ours_1:,.0f} | "
        f"{their_rate:,.0f} (pyspiel.MCTSBot) | **{ours_1 / their_rate:,.0f}x** (target 100x) |"
    )
    print(f"| the same, boardcore on 2 threads (root parallel) | {ours_2:,.0f} | | **{ours_2 / their_rate:,.0f}x** |")

    n_ours, n_theirs = 200_000, 300
    ours = n_ours / median_time(lambda: bc.Reversi().playouts(n_ours, seed=1), args.repeats)
    rng = random.Random(1)

    def their_playouts():
        for _ in range(n_theirs):
            state = game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))

    their_playout_rate = n_theirs / median_time(their_playouts, args.repeats)
    print(
        f"| random playouts/s, Reversi 8x8, 1 thread | {ours:,.0f} | {their_playout_rate:,.0f} (othello from Python) | "
        f"**{ours / their_playout_rate:,.0f}x** (target 100x) |"
    )


def play_one(job) -> int:
    """1 if MCTS won game `index` of `name` (MCTS is Black in even games), else 0: the game of
    examples/mcts_vs_random.py, with its seeds."""
    name, index, iterations, search = job
    if search == "steps":
        return play_one_in_steps(name, index, iterations)
    return int(mcts_vs_random(DEFAULTS[name], index % 2, iterations, seed=1000 * index) == index % 2)


def play_one_in_steps(name: str, index: int, iterations: int) -> int:
    """`play_one` with the step-form search against uniformly random actions."""
    state = DEFAULTS[name]().actions()
    mcts_colour = index % 2
    rng = random.Random(index)
    seed = 1000 * index
    while not state.is_over():
        seed += 1
        if state.to_move == mcts_colour:
            state.apply_action(bc.mcts.search(state, iterations, seed=seed).action)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return int(state.winner() == mcts_colour)


def bench_strength(args) -> None:
    with multiprocessing.Pool(args.processes) as pool:
        for name in args.games:
            started = time.perf_counter()
            jobs = [(name, i, 1000, args.search) for i in range(args.strength_games)]
            wins = sum(pool.map(play_one, jobs, chunksize=1))
            n = args.strength_games
            low, high = wilson(wins, n)
            what = "MCTS" if args.search == "moves" else "step-form search (bc.mcts.search)"
            print(
                f"| {what} (1,000 iterations) vs uniform random, {name} default | {wins}/{n} wins = **{wins / n:.1%}** "
                f"(95% interval {low:.1%}-{high:.1%}) | target 95% | {time.perf_counter() - started:,.0f} s |"
            )
            sys.stdout.flush()


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate."""
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main() -> int:
    parser = bench_parser(__doc__)
    parser.add_argument("--iterations", type=int, default=5000, help="simulations per search in the speed test")
    parser.add_argument("--strength-games", type=int, default=200, help="games per game in the strength test (0: skip)")
    parser.add_argument("--games", nargs="*", default=sorted(DEFAULTS), choices=sorted(DEFAULTS))
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument(
        "--search", choices=["moves", "steps"], default="moves", help="the search whose strength is measured"
    )
    parser.add_argument("--skip-speed", action="store_true")
    args = parser.parse_args()
    table_head("benchmark", "boardcore", "OpenSpiel", "ratio")
    if not args.skip_speed:
        bench_speed(args)
    if args.strength_games:
        bench_strength(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
