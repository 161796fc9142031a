"""bc.ai.Player against the AlphaZero example's trained network, at equal time a move (issue 26).

    python examples/alphazero.py --minutes 5 --eval-games 0 --out az-run    # trains it (JAX)
    python benches/bench_alphazero_engine.py az-run [--games 200] [--time 0.1] [--write FILE]

The network is the one `examples/alphazero.py` trains on Reversi 6x6 and saves as
`network.npz` beside its `results.json` (whose settings rebuild the network's shape). Its player
is PUCT guided by the network (`bc.mcts.search(..., evaluator=network, time_limit=t)`), the
search the example trains with; boardcore's is `bc.ai.Player(time_limit=t)`, with nothing
trained. Games in pairs from one random opening, colours swapped (bench_engine's `match`).
Needs the `[alphazero]` extra (JAX).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import pathlib
import sys
import time

import boardcore as bc
import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benches"))
import bench_engine  # noqa: E402  (the match and Elo helpers)


def load_example():
    spec = importlib.util.spec_from_file_location("alphazero", ROOT / "examples" / "alphazero.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["alphazero"] = module  # dataclasses resolve their module by name
    spec.loader.exec_module(module)
    return module


def load_network(az, run: pathlib.Path):
    """The trained parameters: the example's network of the run's settings, with the saved leaves."""
    import jax

    settings = json.loads((run / "results.json").read_text())["settings"]
    state = az.GAMES[settings["game"]].make().actions()
    shape = tuple(state.observation_shape)
    params = az.init_network(
        jax.random.PRNGKey(0), shape, state.num_actions, settings["net"], settings["width"], settings["blocks"]
    )
    saved = np.load(run / "network.npz")
    leaves = jax.tree_util.tree_leaves_with_path(params)
    values = [jax.numpy.asarray(saved[jax.tree_util.keystr(key)]) for key, _ in leaves]
    return settings, jax.tree_util.tree_unflatten(jax.tree_util.tree_structure(params), values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("run", help="the example's --out directory (network.npz, results.json)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--time", type=float, default=0.1, help="seconds a move, for both")
    parser.add_argument("--write", help="write the table to this Markdown file")
    args = parser.parse_args()
    run = pathlib.Path(args.run)
    if not (run / "network.npz").exists():
        missing = [f"No trained network in {run}: train one with `python examples/alphazero.py --out {run}`.", ""]
        print("\n".join(missing))
        if args.write:
            pathlib.Path(args.write).write_text("# AlphaZero\n\n" + "\n".join(missing))
        return
    az = load_example()
    settings, params = load_network(az, run)
    network = az.NetworkEvaluator(params)
    engine = bc.ai.Player(time_limit=args.time)

    def puct(game, seed):
        result = bc.mcts.search(game, 10**9, evaluator=network, time_limit=args.time, seed=seed)
        return game.actions().action_name(result.action)

    start = az.GAMES[settings["game"]].make()
    started = time.time()
    score = bench_engine.match(lambda game, seed: engine.move(game), puct, start, args.games)
    minutes = (time.time() - started) / 60
    trained = f"{settings['minutes']:g} minutes of training, seed {settings['seed']}"
    out = [
        "# AlphaZero",
        "",
        f"### bc.ai.Player against the AlphaZero example's network (PUCT), {settings['game']} 6x6, equal time a move",
        "",
        "| seconds a move | games | network | Player's score | Elo |",
        "| --- | --- | --- | --- | --- |",
        f"| {args.time} | {args.games} | {trained} | {100 * score:.1f}% | {bench_engine.elo(score):+.0f} |",
        "",
        f"({minutes:.1f} min.)",
    ]
    print("\n".join(out))
    if args.write:
        pathlib.Path(args.write).write_text("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
