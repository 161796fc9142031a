#!/usr/bin/env python3
"""Train Reversi's pattern evaluations (docs/engine.md, "Pattern evaluation").

    python tools/train_patterns.py generate --board 8 --games 16000 --data ~/bc-data/r8-1.npz
    python tools/train_patterns.py fit --board 8 --data ~/bc-data/r8-1.npz --out python/boardcore/data/eval
    python tools/train_patterns.py generate --board 8 --games 16000 --evaluator patterns --data ~/bc-data/r8-2.npz

``generate`` plays self-play games with the library's own engine on every thread
(``label_games``, Rust): a few random plies from the start, then moves of a fixed-depth
search with the current evaluation (``--evaluator linear`` for the first round, ``patterns``
for the next: the better evaluation makes better labels), a random move now and then, and an
exact solve from ``--solve-empties`` on. Every position is labelled with the exact value of the
game from there (the final margin as played, with perfect play from the solve on); the
positions along the solve's line get their own exact values. It prints its throughput in
labelled positions per second. The data files stay out of the repository.

``fit`` reads one or more data files, turns each position into its pattern indices
(``pattern_rows``, the same code the evaluation runs) and fits the weights of each stage by
ridge-regularised least squares (conjugate gradients on the normal equations, numpy only), on
the positions of its stage and, at half weight, of the two next to it (the stages are smoothed
into each other). A tenth of the games (by game, not by position) is held out: the mean
absolute error per stage of the new evaluation and of the linear one is printed and recorded.
The weights go to ``reversi-<board>.npz`` (float16) and their provenance (format, seed,
command, positions, errors) to ``reversi-patterns.json`` beside it, which
``bc.ai.evaluator`` reads. No weight, label or position comes from another program.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import time
from pathlib import Path
from typing import Any

import boardcore as bc
import numpy as np
from boardcore import _boardcore as engine

ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "python" / "boardcore" / "data" / "eval"
FORMAT = 1  # reversi/patterns.rs FORMAT
STAGES = {"6": 8, "8": 12, "10": 12, "octagon": 12}
HELD_OUT = 10  # one game in HELD_OUT is held out
CHUNK = 1000  # games a call (progress is printed between calls)


def start(board: str) -> Any:
    return bc.Reversi("octagon") if board == "octagon" else bc.Reversi(int(board))


def evaluator_for(name: str, weights: str | None = None) -> Any:
    """The evaluation that plays the games: ``linear``, or ``patterns``, the shipped ones or
    those of the pattern index in ``weights`` (a fit's ``--out``, tried before shipping)."""
    if name == "linear":
        return bc.ai.evaluator("reversi", kind="linear")
    if name != "patterns":
        raise SystemExit(f"--evaluator must be linear or patterns, got {name!r}")
    if weights is None:
        return bc.ai.evaluator("reversi")
    linear = [float(w) for w in json.loads((OUT_DIR / "reversi.json").read_text())["weights"]]
    patterns, probcut = bc.ai._patterns(Path(weights), "reversi")
    return bc.ai.Evaluator("reversi", linear, f"{weights}/reversi-patterns.json", patterns, probcut)


def generate(args: argparse.Namespace) -> int:
    began = time.perf_counter()
    parts: list[tuple] = []
    for chunk, first in enumerate(range(0, args.games, CHUNK)):
        rows = engine.label_games(
            start(args.board),
            games=min(CHUNK, args.games - first),
            seed=args.seed * 1_000_003 + chunk,
            opening=(args.opening[0], args.opening[1]),
            depth=args.depth,
            epsilon=args.epsilon,
            threads=args.threads,
            solve_empties=args.solve_empties,
            evaluator=evaluator_for(args.evaluator, args.weights),
        )
        parts.append((*rows[:4], rows[4].astype(np.int64) + first))
        done = sum(len(p[0]) for p in parts)
        print(f"{first + len(rows[0]) and min(first + CHUNK, args.games)} games, {done} positions, "
              f"{done / (time.perf_counter() - began):.0f} positions/s", flush=True)  # fmt: skip
    columns = tuple(np.concatenate([p[i] for p in parts]) for i in range(5))
    save(args, columns, began, {"command": command()})
    return 0


def save(args: argparse.Namespace, columns: tuple, began: float, meta: dict[str, Any]) -> None:
    """Writes a data file (``args.data``): the ``(notations, labels, searches, exact, games)``
    columns of ``label_games``, and ``meta`` with the throughput and the options. Prints the
    throughput in labelled positions per second."""
    notations, labels, searches, exact, games = columns
    seconds = time.perf_counter() - began
    rate = len(notations) / seconds
    print(f"{len(notations)} positions from {args.games} games in {seconds:.1f} s: {rate:.0f} positions/s")
    Path(args.data).parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        args.data,
        notations=np.array(notations),
        labels=labels,
        searches=searches,
        exact=exact,
        games=games + args.seed * 10_000_000,  # game ids unique across runs
        meta=np.array(json.dumps({**meta, "positions_per_second": rate, **vars(args)})),
    )


def command(line: str | None = None) -> str:
    """This run's command (or ``line``, a recorded one) as the weights record it: data files as
    ``DATA/<name>`` (they live outside the repository, wherever the trainer keeps them), as is
    a candidate's ``--weights`` folder, and no ``--out`` (the weights go where the package reads
    them), so no machine's folder is named."""
    words = shlex.split(line)[2:] if line is not None else sys.argv[1:]
    shown: list[str] = []
    previous = ""
    for word in words:
        if word != "--out" and previous != "--out":
            outside = word.endswith(".npz") or previous == "--weights"
            shown.append(f"DATA/{Path(word).name}" if outside else word)
        previous = word
    return "python tools/train_patterns.py " + shlex.join(shown)


def load(paths: list[str]) -> dict[str, np.ndarray]:
    parts = [np.load(p) for p in paths]
    keys = ("notations", "labels", "searches", "exact", "games")
    return {k: np.concatenate([p[k] for p in parts]) for k in keys}


def solve_stage(
    cols: np.ndarray, globals_: np.ndarray, y: np.ndarray, w: np.ndarray, params: int, lam: float, iterations: int
) -> np.ndarray:
    """Ridge least squares over indicator columns (``cols``: rows x instances, each a weight
    index, or ``params`` for none: a row shorter than the others is padded with it) and dense
    global columns (bias then ``globals_``), weighted by ``w``, by conjugate gradients on the
    normal equations."""
    n_g = globals_.shape[1] + 1
    dense = np.hstack([np.ones((len(y), 1), np.float64), globals_.astype(np.float64)])
    k = cols.shape[1]
    flat = cols.ravel()

    def a(x: np.ndarray) -> np.ndarray:  # A @ x
        return np.append(x[:params], 0.0)[cols].sum(axis=1) + dense @ x[params:]

    def at(r: np.ndarray) -> np.ndarray:  # A.T @ r
        counts = np.bincount(flat, weights=np.repeat(r, k), minlength=params + 1)[:params]
        return np.concatenate([counts, dense.T @ r])

    def normal(x: np.ndarray) -> np.ndarray:
        return at(w * a(x)) + lam * np.concatenate([x[:params], np.zeros(n_g)])

    x = np.zeros(params + n_g)
    r = at(w * y) - normal(x)
    p = r.copy()
    rr = r @ r
    for _ in range(iterations):
        q = normal(p)
        alpha = rr / (p @ q)
        x += alpha * p
        r -= alpha * q
        new = r @ r
        if new < 1e-10 * len(y):
            break
        p = r + (new / rr) * p
        rr = new
    return x


def fit(args: argparse.Namespace) -> int:
    board, stages = args.board, STAGES[args.board]
    data = load(args.data)
    _, instances, params, globals_names = engine.pattern_layout(board, stages)
    began = time.perf_counter()
    stage, cols, glob = engine.pattern_rows(list(data["notations"]), board, stages)
    print(
        f"{len(stage)} positions, {instances} patterns, {params} weights a stage ({time.perf_counter() - began:.1f} s)"
    )
    # Each position's target: its game's exact value from there, mixed with its own search's
    # score (``--search-weight``), which is less noisy where the game's moves were weak.
    outcome, searched = data["labels"].astype(np.float64), data["searches"].astype(np.float64)
    y = np.where(data["exact"], outcome, (1 - args.search_weight) * outcome + args.search_weight * searched)
    held = (data["games"] % HELD_OUT) == 0
    weights = np.zeros((stages, params), np.float32)
    report = []
    linear = bc.ai.evaluator("reversi", kind="linear")
    entries = params - len(globals_names)
    for s in range(stages):
        near = np.abs(stage.astype(np.int64) - s) <= 1

        def fitted(rows: np.ndarray, s: int = s) -> np.ndarray:
            w = np.where(stage[rows] == s, 1.0, 0.5)
            return solve_stage(
                cols[rows].astype(np.int64), glob[rows], y[rows], w, entries, args.ridge, args.iterations
            )

        x = fitted(near & ~held)
        test = np.flatnonzero(held & (stage == s))
        pred = x[:entries][cols[test]].sum(axis=1) + x[entries] + glob[test] @ x[entries + 1 :]
        sample = test[:2000]
        old = np.array([linear.margin(bc.Reversi.from_position(str(data["notations"][i]))) for i in sample])
        row = {
            "stage": s,
            "train": int((near & ~held).sum()),
            "held_out": len(test),
            "mae": round(float(np.abs(pred - outcome[test]).mean()), 3) if len(test) else None,
            # Both evaluations on the same sample (the linear one is evaluated position by position).
            "sample_mae": round(float(np.abs(pred[: len(sample)] - outcome[sample]).mean()), 3)
            if len(sample)
            else None,
            "linear_mae": round(float(np.abs(old - outcome[sample]).mean()), 3) if len(sample) else None,
        }
        report.append(row)
        print(f"stage {s:2d}: {row}", flush=True)
        weights[s] = fitted(near) if args.refit else x
    OUT = Path(args.out)
    np.savez_compressed(OUT / f"reversi-{board}.npz", weights=weights.astype(np.float16))
    meta_path = OUT / "reversi-patterns.json"
    meta = json.loads(meta_path.read_text()) if meta_path.exists() else {"format": FORMAT, "boards": {}}
    metas = [json.loads(str(np.load(p)["meta"])) for p in args.data]
    meta["boards"][board] = {
        "file": f"reversi-{board}.npz",
        "stages": stages,
        "version": args.version,
        "positions": len(y),
        "fit": command(),
        "generate": [command(m["command"]) for m in metas],
        "seeds": [m["seed"] for m in metas],
        "ridge": args.ridge,
        "search_weight": args.search_weight,
        "iterations": args.iterations,
        "refit": args.refit,
        "held_out_mae": report,
    }
    meta_path.write_text(json.dumps(meta, indent=1) + "\n")
    print(f"wrote {OUT / f'reversi-{board}.npz'} ({(OUT / f'reversi-{board}.npz').stat().st_size // 1024} KB)")
    return 0


def probcut(args: argparse.Namespace) -> int:
    """Fits Multi-ProbCut's error per search depth for the shipped weights of a board: over
    positions of the data (by game, the held-out ones first), one deepening search to
    ``--depth`` without cuts gives every depth's score; ``sigma[d]`` is the standard deviation
    of the depth-``d`` score around the score of the shallow depth that predicts it
    (alphabeta.rs ``probcut_depth``)."""
    data = load(args.data)
    meta_path = Path(args.out) / "reversi-patterns.json"
    meta = json.loads(meta_path.read_text())
    entry = meta["boards"][args.board]
    folder = Path(args.out)
    patterns = [p for p in bc.ai._patterns(folder, "reversi")[0] if p[0] == args.board]
    linear = json.loads((folder / "reversi.json").read_text())["weights"]
    plain = bc.ai.Evaluator("reversi", linear, "no probcut", patterns)
    rng = np.random.default_rng(args.seed)
    empties = np.array([n.count(".") for n in data["notations"]])
    held = (data["games"] % HELD_OUT) == 0
    pool = np.flatnonzero(held & (empties >= args.min_empties) & (empties <= args.max_empties))
    picked = rng.choice(pool, size=min(args.positions, len(pool)), replace=False)
    scores = []
    began = time.perf_counter()
    for i in picked:
        game = bc.Reversi.from_position(str(data["notations"][i]))
        if game.is_over():
            continue
        analysis = bc.ai.analyse(game, depth=args.depth, evaluator=plain)
        by_depth = {it.depth: it.score for it in analysis.iterations if not it.exact}
        if len(by_depth) == args.depth:
            scores.append([by_depth[d] for d in range(1, args.depth + 1)])
    s = np.array(scores)  # positions x depths 1..D
    sigmas = [0.0] * (args.depth + 1)
    for d in range(4, args.depth + 1):
        shallow = max(d - 2 - d // 3, 1)
        sigmas[d] = round(float(np.std(s[:, d - 1] - s[:, shallow - 1])), 3)
    print(f"{len(s)} positions in {time.perf_counter() - began:.0f} s; sigma by depth: {sigmas}")
    entry["probcut"] = sigmas
    entry["probcut_fit"] = command()
    meta_path.write_text(json.dumps(meta, indent=1) + "\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    g = sub.add_parser("generate", help="label self-play positions (Rust, every thread)")
    g.add_argument("--board", choices=sorted(STAGES), default="8")
    g.add_argument("--games", type=int, default=1000)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--opening", type=int, nargs=2, default=(2, 12), help="random plies at the start")
    g.add_argument("--depth", type=int, default=4)
    g.add_argument("--epsilon", type=float, default=0.1)
    g.add_argument("--solve-empties", type=int, default=16)
    g.add_argument("--evaluator", default="linear")
    g.add_argument("--weights", help="with --evaluator patterns: a folder of pattern weights (default: the shipped)")
    g.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    g.add_argument("--data", required=True)
    f = sub.add_parser("fit", help="fit the weights of a board from data files")
    f.add_argument("--board", choices=sorted(STAGES), default="8")
    f.add_argument("--data", nargs="+", required=True)
    f.add_argument("--ridge", type=float, default=5.0)
    f.add_argument(
        "--search-weight", type=float, default=0.0, help="weight of a position's own search score in its target"
    )
    f.add_argument("--version", type=int, default=1)
    f.add_argument("--iterations", type=int, default=150, help="conjugate-gradient steps a stage")
    f.add_argument(
        "--refit", action="store_true", help="refit on every game (default: ship the fit without the held-out tenth)"
    )
    f.add_argument("--out", default=str(OUT_DIR))
    c = sub.add_parser("probcut", help="fit Multi-ProbCut's errors for a board's shipped weights")
    c.add_argument("--board", choices=sorted(STAGES), default="8")
    c.add_argument("--data", nargs="+", required=True)
    c.add_argument("--positions", type=int, default=300)
    c.add_argument("--depth", type=int, default=10)
    c.add_argument("--min-empties", type=int, default=20)
    c.add_argument("--max-empties", type=int, default=50)
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--out", default=str(OUT_DIR))
    args = parser.parse_args(argv)
    return {"generate": generate, "fit": fit, "probcut": probcut}[args.what](args)


if __name__ == "__main__":
    raise SystemExit(main())
