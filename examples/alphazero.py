"""An AlphaZero-style agent that learns Reversi 6x6 (or Cephalopod 3x3) on a CPU, in JAX.

    pip install 'boardcore[alphazero]'                     # JAX (the library itself never needs it)
    python examples/alphazero.py --minutes 20 --simulations 32 --eval-games 200 --out az-run
    python examples/alphazero.py --smoke                   # a few seconds: the loop runs

The loop (docs/ai_alphazero.md explains each choice):

1. **Self-play**: ``bc.mcts.selfplay`` plays ``--games-per-round`` games at once in Rust, PUCT with
   Dirichlet noise at the root (or Gumbel with ``--gumbel``), the current network as the batched
   evaluator, actions sampled from the visits for the first ``--temperature-moves`` actions.
2. **Replay buffer**: the last ``--buffer`` rows (observation, mask, search policy, outcome).
3. **Training**: minibatches from the buffer, each row under a random one of the board's
   symmetries; loss = cross-entropy to the search policy + MSE of the value to the outcome + L2;
   Adam (written out below: six lines, no optimiser library needed).
4. **Evaluation**: at checkpoints the agent (``bc.mcts.search`` with the network, ``--simulations``
   simulations, the most visited action) plays random-rollout MCTS (``bc.mcts.best_move``, UCT)
   with the same number of simulations, and with 8 times as many (``--opponents``), colours
   alternating. The clock of ``--minutes`` counts self-play and training only; the learning curve
   (score against training minutes) and the final matches (``--eval-games`` each) go to
   ``--out``/curve.csv and results.json (with matplotlib also curve.png), the weights to
   network.npz.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import pathlib
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

import boardcore as bc
import numpy as np

try:
    import jax
    import jax.numpy as jnp
except ImportError as missing:  # pragma: no cover - the message is the point
    raise SystemExit("this example needs JAX: pip install 'boardcore[alphazero]'") from missing


# ---------------------------------------------------------------------------------------------
# The games


@dataclass(frozen=True)
class GameSpec:
    name: str  # as for bc.mcts.selfplay / VectorEnv
    variant: dict[str, Any]
    make: Callable[[], Any]  # a new game in the compound form
    dirichlet_alpha: float  # about 10 / (typical number of legal actions), as AlphaZero scales it


GAMES = {
    "reversi": GameSpec("reversi", {"size": 6}, lambda: bc.Reversi(size=6), 0.5),
    "cephalopod": GameSpec("cephalopod", {"rows": 3, "cols": 3}, lambda: bc.Cephalopod(rows=3, cols=3), 1.0),
}


# ---------------------------------------------------------------------------------------------
# Symmetry augmentation, with the board's own maps: `state.symmetries()` gives gather maps, so
# that the image of a row under symmetry k is observation.flat[observation_maps[k]] and
# policy[action_maps[k]] (docs/actions.md, "Symmetries"). Reversi and Cephalopod on a square board
# have all 8 of the square's; the rules hold in every image, so every image is a true position.


def augment(
    batch: dict[str, np.ndarray], symmetries: tuple[np.ndarray, np.ndarray], picks: np.ndarray
) -> dict[str, np.ndarray]:
    """The rows of `batch`, row i under symmetry picks[i]."""
    observation_maps, action_maps = symmetries
    observations = batch["observations"]
    flat = observations.reshape(len(observations), -1)
    return {
        "observations": np.take_along_axis(flat, observation_maps[picks], axis=1).reshape(observations.shape),
        "masks": np.take_along_axis(batch["masks"], action_maps[picks], axis=1),
        "policies": np.take_along_axis(batch["policies"], action_maps[picks], axis=1),
        "outcomes": batch["outcomes"],
    }


# ---------------------------------------------------------------------------------------------
# The network, in plain JAX: an MLP (the default: on a 2-core CPU a 3 x 256 MLP evaluates a batch
# of 64 Reversi 6x6 positions in about 1.5 ms, a 3-layer conv net of 32 channels in about 10 ms,
# so self-play with the MLP makes several times the games in a run of minutes) or a small
# residual conv net over the observation planes (`--net conv`, not measured further). Both end in
# a policy head (logits over the action space) and a value head (tanh, for the side to move).


def init_network(
    key: jax.Array, observation_shape: tuple[int, int, int], num_actions: int, net: str, width: int, blocks: int
) -> dict[str, Any]:
    channels, height, width_cells = observation_shape
    cells = height * width_cells
    keys = iter(jax.random.split(key, 2 * blocks + 8))

    def conv(inputs: int, outputs: int, size: int) -> dict[str, jax.Array]:
        scale = math.sqrt(2.0 / (inputs * size * size))  # He initialisation for ReLU
        return {"w": scale * jax.random.normal(next(keys), (outputs, inputs, size, size)), "b": jnp.zeros(outputs)}

    def dense(inputs: int, outputs: int, gain: float = 2.0) -> dict[str, jax.Array]:
        return {
            "w": math.sqrt(gain / inputs) * jax.random.normal(next(keys), (inputs, outputs)),
            "b": jnp.zeros(outputs),
        }

    if net == "mlp":
        trunk = [dense(channels * cells, width)] + [dense(width, width) for _ in range(blocks - 1)]
        return {
            "trunk": trunk,
            "policy": dense(width, num_actions, 0.01),
            "value_hidden": dense(width, 64),
            "value": dense(64, 1, 0.01),
        }
    return {
        "stem": conv(channels, width, 3),
        "blocks": [conv(width, width, 3) for _ in range(blocks)],
        "policy_conv": conv(width, 4, 1),
        "policy": dense(4 * cells, num_actions, 0.01),
        "value_conv": conv(width, 2, 1),
        "value_hidden": dense(2 * cells, 64),
        "value": dense(64, 1, 0.01),
    }


def _conv(layer: dict[str, jax.Array], x: jax.Array) -> jax.Array:
    y = jax.lax.conv_general_dilated(x, layer["w"], (1, 1), "SAME", dimension_numbers=("NCHW", "OIHW", "NCHW"))
    return y + layer["b"][None, :, None, None]


def _dense(layer: dict[str, jax.Array], x: jax.Array) -> jax.Array:
    return x @ layer["w"] + layer["b"]


def forward(params: dict[str, Any], observations: jax.Array) -> tuple[jax.Array, jax.Array]:
    """(policy logits (B, A), values (B,) in [-1, 1] for the side to move)."""
    if "trunk" in params:
        x = observations.reshape(observations.shape[0], -1)
        for layer in params["trunk"]:
            x = jax.nn.relu(_dense(layer, x))
        p = v = x
    else:
        x = jax.nn.relu(_conv(params["stem"], observations))
        for block in params["blocks"]:
            x = jax.nn.relu(x + _conv(block, x))  # residual: deeper nets train as easily as shallow ones
        p = jax.nn.relu(_conv(params["policy_conv"], x)).reshape(x.shape[0], -1)
        v = jax.nn.relu(_conv(params["value_conv"], x)).reshape(x.shape[0], -1)
    logits = _dense(params["policy"], p)
    values = jnp.tanh(_dense(params["value"], jax.nn.relu(_dense(params["value_hidden"], v))))[:, 0]
    return logits, values


_forward = jax.jit(forward)


class NetworkEvaluator:
    """The network as a boardcore evaluator (bc.mcts.Evaluator): numpy in, numpy float32 out.

    Batches are padded to the next power of two, so that jit compiles a handful of shapes rather
    than one per batch size the search happens to send."""

    def __init__(self, params: dict[str, Any]) -> None:
        self.params = params
        self.calls = 0

    def evaluate(self, observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        self.calls += 1
        rows = len(observations)
        padded = 1 << max(0, rows - 1).bit_length()
        if padded != rows:
            observations = np.concatenate(
                [observations, np.zeros((padded - rows, *observations.shape[1:]), np.float32)]
            )
        logits, values = _forward(self.params, jnp.asarray(observations))
        return np.asarray(logits[:rows], dtype=np.float32), np.asarray(values[:rows], dtype=np.float32)


# ---------------------------------------------------------------------------------------------
# Training: cross-entropy to the search policies, MSE to the outcomes, L2; Adam


def loss_fn(params: dict[str, Any], batch: dict[str, jax.Array], l2: float) -> tuple[jax.Array, dict[str, jax.Array]]:
    logits, values = forward(params, batch["observations"])
    logits = jnp.where(batch["masks"], logits, -1e9)  # the search never plays an illegal action
    policy_loss = -jnp.mean(jnp.sum(batch["policies"] * jax.nn.log_softmax(logits), axis=1))
    value_loss = jnp.mean((values - batch["outcomes"]) ** 2)
    weights = [leaf for path, leaf in jax.tree_util.tree_leaves_with_path(params) if path[-1].key == "w"]
    l2_loss = l2 * sum(jnp.sum(w * w) for w in weights)
    total = policy_loss + value_loss + l2_loss
    return total, {"loss": total, "policy_loss": policy_loss, "value_loss": value_loss}


def init_adam(params: Any) -> dict[str, Any]:
    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    return {"m": zeros, "v": zeros, "t": jnp.zeros((), jnp.int32)}


def make_train_step(learning_rate: float, l2: float) -> Callable[..., Any]:
    beta1, beta2, eps = 0.9, 0.999, 1e-8

    @jax.jit
    def train_step(
        params: Any, opt: dict[str, Any], batch: dict[str, jax.Array]
    ) -> tuple[Any, dict[str, Any], dict[str, jax.Array]]:
        grads, metrics = jax.grad(loss_fn, has_aux=True)(params, batch, l2)
        t = opt["t"] + 1
        m = jax.tree_util.tree_map(lambda m, g: beta1 * m + (1 - beta1) * g, opt["m"], grads)
        v = jax.tree_util.tree_map(lambda v, g: beta2 * v + (1 - beta2) * g * g, opt["v"], grads)
        step = learning_rate * jnp.sqrt(1 - beta2**t) / (1 - beta1**t)
        params = jax.tree_util.tree_map(lambda p, m, v: p - step * m / (jnp.sqrt(v) + eps), params, m, v)
        return params, {"m": m, "v": v, "t": t}, metrics

    return train_step


class ReplayBuffer:
    """The last `capacity` self-play rows, in a ring."""

    FIELDS = ("observations", "masks", "policies", "outcomes")

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.arrays: dict[str, np.ndarray] = {}
        self.size = 0
        self.next = 0
        self.added = 0

    def add(self, data: Any) -> None:
        rows = {field: np.asarray(getattr(data, field)) for field in self.FIELDS}
        count = len(rows["outcomes"])
        if not self.arrays:
            self.arrays = {f: np.zeros((self.capacity, *a.shape[1:]), a.dtype) for f, a in rows.items()}
        where = (self.next + np.arange(count)) % self.capacity
        for field, array in rows.items():
            self.arrays[field][where] = array[-self.capacity :] if count > self.capacity else array
        self.next = int((self.next + count) % self.capacity)
        self.size = min(self.capacity, self.size + count)
        self.added += count

    def sample(self, rows: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
        picks = rng.integers(self.size, size=rows)
        return {field: array[picks] for field, array in self.arrays.items()}


# ---------------------------------------------------------------------------------------------
# Evaluation against random-rollout MCTS


def play_match(
    spec: GameSpec, evaluator: NetworkEvaluator, simulations: int, opponent_simulations: int, games: int, seed: int
) -> dict[str, int]:
    """The agent (PUCT guided by the network, `simulations`) against random-rollout MCTS (UCT,
    `opponent_simulations`); the agent is Black in the even-numbered games. Returns the agent's
    wins, draws and losses."""
    tally = {"wins": 0, "draws": 0, "losses": 0}
    for number in range(games):
        agent = bc.BLACK if number % 2 == 0 else bc.WHITE
        game = spec.make()
        ply = 0
        while not game.is_over():
            ply += 1
            move_seed = seed + 1000 * number + ply
            if game.to_move == agent:
                # One leaf per call: at equal simulations the search is not weakened by virtual loss.
                result = bc.mcts.search(game, iterations=simulations, evaluator=evaluator, batch_size=1, seed=move_seed)
                game.play(game.actions().action_name(result.action))
            else:
                game.play(bc.mcts.best_move(game, iterations=opponent_simulations, seed=move_seed))
        winner = game.winner()
        tally["draws" if winner is None else "wins" if winner == agent else "losses"] += 1
    return tally


def score(tally: dict[str, int]) -> float:
    """Win rate with draws counted as half."""
    games = sum(tally.values())
    return (tally["wins"] + 0.5 * tally["draws"]) / games if games else float("nan")


# ---------------------------------------------------------------------------------------------
# The loop


@dataclass
class Settings:
    game: str = "reversi"
    minutes: float = 25.0
    simulations: int = 32  # the agent's and the opponent's simulations in evaluation
    selfplay_simulations: int = 64
    games_per_round: int = 64
    temperature_moves: int = 8
    gumbel: bool = False
    buffer: int = 60_000
    batch: int = 256
    steps_per_round: int = 0  # 0: as many as keep each new row sampled about `reuse` times
    reuse: float = 4.0
    learning_rate: float = 1e-3
    l2: float = 1e-4
    net: str = "mlp"
    width: int = 256  # hidden units (mlp) or channels (conv)
    blocks: int = 3  # hidden layers (mlp) or residual conv layers (conv)
    checkpoints: tuple[float, ...] = (0.25, 0.5, 1, 2, 3, 5)  # training minutes; then every 5
    checkpoint_games: int = 60
    eval_games: int = 200
    opponents: tuple[int, ...] = ()  # the opponent's simulations; () = (S, 8 S)
    threads: int = 1
    seed: int = 0
    out: str = "az-run"


def log(message: str) -> None:
    print(time.strftime("%H:%M:%S"), message, flush=True)


def train(settings: Settings) -> dict[str, Any]:
    spec = GAMES[settings.game]
    state = spec.make().actions()
    symmetries = state.symmetries()
    rng = np.random.default_rng(settings.seed)
    params = init_network(
        jax.random.PRNGKey(settings.seed),
        state.observation_shape,
        state.num_actions,
        settings.net,
        settings.width,
        settings.blocks,
    )
    opt = init_adam(params)
    train_step = make_train_step(settings.learning_rate, settings.l2)
    buffer = ReplayBuffer(settings.buffer)
    evaluator = NetworkEvaluator(params)
    out = pathlib.Path(settings.out)
    out.mkdir(parents=True, exist_ok=True)

    curve: list[dict[str, Any]] = []
    opponents = settings.opponents or (settings.simulations, 8 * settings.simulations)
    schedule = checkpoint_schedule(settings)

    def checkpoint(minutes: float, games: int, seed: int) -> list[dict[str, Any]]:
        points = []
        for opponent in opponents:
            started = time.perf_counter()
            tally = play_match(spec, NetworkEvaluator(params), settings.simulations, opponent, games, seed)
            points.append(
                {
                    "minutes": round(minutes, 2),
                    "rows_seen": buffer.added,
                    "opponent_simulations": opponent,
                    "games": games,
                    **tally,
                    "score": score(tally),
                }
            )
            log(
                f"at {minutes:.2f} min against UCT-{opponent}: {tally}, score {score(tally):.3f} ({time.perf_counter() - started:.0f} s)"
            )
        return points

    curve += checkpoint(0.0, settings.checkpoint_games, seed=10_000)
    trained = 0.0  # seconds of self-play and training (checkpoints not counted)
    rounds = 0
    metrics: dict[str, float] = {}
    while trained < settings.minutes * 60:
        started = time.perf_counter()
        evaluator.params = params
        data = bc.mcts.selfplay(
            spec.name,
            spec.variant,
            evaluator=evaluator,
            games=settings.games_per_round,
            iterations=settings.selfplay_simulations,
            temperature=1.0,
            temperature_moves=settings.temperature_moves,
            dirichlet_alpha=None if settings.gumbel else spec.dirichlet_alpha,
            gumbel=settings.gumbel,
            seed=settings.seed * 1_000_003 + rounds,
            threads=settings.threads,
        )
        selfplay_seconds = time.perf_counter() - started
        buffer.add(data)
        steps = settings.steps_per_round or max(1, round(settings.reuse * len(data.outcomes) / settings.batch))
        for _ in range(steps):
            picks = rng.integers(len(symmetries[0]), size=settings.batch)
            batch = augment(buffer.sample(settings.batch, rng), symmetries, picks)
            params, opt, step_metrics = train_step(params, opt, batch)
        metrics = {k: float(v) for k, v in step_metrics.items()}
        rounds += 1
        trained += time.perf_counter() - started
        wins = sum(1 for w in data.winners if w == bc.BLACK)
        log(
            f"round {rounds}: {len(data.outcomes)} rows ({selfplay_seconds:.1f} s self-play, black won {wins}/{len(data.winners)}), "
            f"{steps} steps, loss {metrics['loss']:.3f} (policy {metrics['policy_loss']:.3f}, value {metrics['value_loss']:.3f}), "
            f"{trained / 60:.1f} min"
        )
        if not math.isfinite(metrics["loss"]):
            raise RuntimeError("the loss is not finite")
        if schedule and trained >= schedule[0] * 60 and trained < settings.minutes * 60:
            while schedule and trained >= schedule[0] * 60:
                schedule.pop(0)
            curve += checkpoint(trained / 60, settings.checkpoint_games, seed=10_000 * (len(curve) + 1))

    finals = checkpoint(trained / 60, settings.eval_games, seed=99_000_000)
    final = finals[0]
    curve += finals
    results = {
        "settings": asdict(settings),
        "rounds": rounds,
        "rows_seen": buffer.added,
        "buffer_rows": buffer.size,
        "last_metrics": metrics,
        "final": final,
        "finals": finals,
        "curve": curve,
    }
    write_results(out, results)
    save_network(out / "network.npz", params)
    return results


def save_network(path: pathlib.Path, params: Any) -> None:
    """The trained weights, one array per leaf named by its path (e.g. `['trunk'][0]['w']`), for
    numpy.load; `init_network` with the same settings gives the tree to put them back into."""
    leaves = jax.tree_util.tree_leaves_with_path(params)
    np.savez(path, **{jax.tree_util.keystr(key): np.asarray(leaf) for key, leaf in leaves})


def checkpoint_schedule(settings: Settings) -> list[float]:
    """The training minutes at which to evaluate, before the final match: `checkpoints`, then
    every 5 minutes."""
    minutes = [m for m in settings.checkpoints if m < settings.minutes]
    later = max(settings.checkpoints, default=0) + 5
    while later < settings.minutes:
        minutes.append(later)
        later += 5
    return minutes


def write_results(out: pathlib.Path, results: dict[str, Any]) -> None:
    (out / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    with open(out / "curve.csv", "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(results["curve"][0]))
        writer.writeheader()
        writer.writerows(results["curve"])
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    settings = results["settings"]
    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    for opponent in sorted({p["opponent_simulations"] for p in results["curve"]}):
        curve = [p for p in results["curve"] if p["opponent_simulations"] == opponent]
        ax.plot(
            [p["minutes"] for p in curve],
            [p["score"] for p in curve],
            marker="o",
            label=f"against UCT with random rollouts, {opponent} simulations",
        )
    ax.legend(fontsize=8, loc="lower right")
    ax.axhline(0.5, color="grey", linewidth=0.8)
    ax.axhline(0.6, color="grey", linewidth=0.8, linestyle="--")
    ax.set_ylim(0, 1)
    ax.set_xlabel("training minutes (self-play + training)")
    ax.set_ylabel("score (wins + draws/2)")
    ax.set_title(
        f"{settings['game']}: the agent at {settings['simulations']} simulations (last point: the final match)",
        fontsize=9,
    )
    fig.tight_layout()
    fig.savefig(out / "curve.png", dpi=100)


def smoke_settings(out: str) -> Settings:
    """Tiny everything: a few seconds of loop after JAX's import and compilation."""
    return Settings(
        minutes=0.05,
        simulations=4,
        selfplay_simulations=4,
        games_per_round=8,
        temperature_moves=4,
        buffer=2_000,
        batch=32,
        steps_per_round=2,
        width=16,
        blocks=2,
        checkpoints=(),
        checkpoint_games=2,
        eval_games=2,
        opponents=(4,),
        out=out,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    defaults = Settings()
    parser.add_argument("--game", choices=sorted(GAMES), default=defaults.game)
    parser.add_argument("--minutes", type=float, default=defaults.minutes, help="self-play + training time")
    parser.add_argument("--simulations", type=int, default=defaults.simulations, help="in evaluation, for both players")
    parser.add_argument("--selfplay-simulations", type=int, default=defaults.selfplay_simulations)
    parser.add_argument("--games-per-round", type=int, default=defaults.games_per_round)
    parser.add_argument("--temperature-moves", type=int, default=defaults.temperature_moves)
    parser.add_argument(
        "--gumbel", action="store_true", help="Gumbel root search in self-play instead of Dirichlet noise"
    )
    parser.add_argument("--buffer", type=int, default=defaults.buffer)
    parser.add_argument("--batch", type=int, default=defaults.batch)
    parser.add_argument("--reuse", type=float, default=defaults.reuse, help="times each row is trained on, on average")
    parser.add_argument("--learning-rate", type=float, default=defaults.learning_rate)
    parser.add_argument("--l2", type=float, default=defaults.l2)
    parser.add_argument("--net", choices=["mlp", "conv"], default=defaults.net)
    parser.add_argument("--width", type=int, default=defaults.width, help="hidden units (mlp) or channels (conv)")
    parser.add_argument(
        "--blocks", type=int, default=defaults.blocks, help="hidden layers (mlp) or residual conv layers (conv)"
    )
    parser.add_argument(
        "--checkpoints",
        type=float,
        nargs="*",
        default=defaults.checkpoints,
        help="training minutes to evaluate at (then every 5)",
    )
    parser.add_argument("--checkpoint-games", type=int, default=defaults.checkpoint_games)
    parser.add_argument("--eval-games", type=int, default=defaults.eval_games, help="the final match")
    parser.add_argument(
        "--opponents",
        type=int,
        nargs="+",
        default=defaults.opponents,
        help="the opponents' simulations (default S and 8 S)",
    )
    parser.add_argument("--threads", type=int, default=defaults.threads, help="self-play threads")
    parser.add_argument("--seed", type=int, default=defaults.seed)
    parser.add_argument("--out", default=defaults.out)
    parser.add_argument("--smoke", action="store_true", help="a few seconds with tiny settings; checks the loop ran")
    args = parser.parse_args()
    if args.smoke:
        settings = smoke_settings(args.out)
    else:
        settings = Settings(
            **{k: tuple(v) if isinstance(v, list) else v for k, v in vars(args).items() if k != "smoke"}
        )
    results = train(settings)
    for final in results["finals"]:
        print(
            f"after {final['minutes']:.2f} min: the agent at {settings.simulations} simulations scored {final['score']:.3f} "
            f"against random-rollout MCTS at {final['opponent_simulations']} ({final['wins']} wins, {final['draws']} draws, "
            f"{final['losses']} losses in {final['games']} games); {results['rows_seen']} self-play rows"
        )
    final = results["final"]
    if args.smoke:
        assert results["buffer_rows"] > 0, "the buffer stayed empty"
        assert math.isfinite(results["last_metrics"]["loss"]), "the loss is not finite"
        assert final["games"] == settings.eval_games, "the evaluation games did not finish"
        print("smoke: ok")


if __name__ == "__main__":
    main()
