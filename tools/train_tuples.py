#!/usr/bin/env python3
"""Train the local-pattern evaluations of the hex and dice games (docs/engine.md, "Local patterns").

    python tools/train_tuples.py generate --game rive --board hex5 --games 2000 --data ~/bc-data/rive-1.npz
    python tools/train_tuples.py fit --game rive --data ~/bc-data/rive-1.npz --out python/boardcore/data/eval

``generate`` plays self-play games with the library's own engine on every thread
(``label_games``, Rust, as ``tools/train_patterns.py`` does for Reversi): a few random plies,
then moves of a fixed-depth search with the game's linear evaluation (``--evaluator tuples``
for the next round: the shipped local patterns), a random move now and then, to the end of the
game. Every position is labelled with the game's final margin from its side to move's view, and
keeps its own search's score. It prints its throughput in labelled positions per second. The
data files stay out of the repository.

``fit`` reads data files of any of the game's boards (the weights are shared by every cell of
every board), turns each position into its cells' local-pattern entries and its linear
features (``tuple_rows``, the code the evaluation runs), and fits the weights of each phase
by ridge least squares (conjugate gradients, numpy only), on the positions of its phase and, at
half weight, of the two next to it. A tenth of the games is held out: the mean absolute error
per phase of the new evaluation and of the linear one is printed and recorded. The weights go
to ``<game>-tuples.npz`` (float32) and their provenance to ``<game>-tuples.json`` beside it,
which ``bc.ai.evaluator`` reads. No weight, label or position comes from another program.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

import boardcore as bc
import numpy as np
from boardcore import _boardcore as engine
from boardcore._games import GAMES as REGISTRY

sys.path.insert(0, str(Path(__file__).resolve().parent))
from train_patterns import HELD_OUT, command, load, save, solve_stage

ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "python" / "boardcore" / "data" / "eval"
FORMAT = 1  # search/tuples.rs FORMAT
# The games whose evaluation is local patterns, from the game registry.
GAMES = {name: entry.engine for name, entry in REGISTRY.items() if entry.local_patterns}


def start(game: str, board: str) -> Any:
    """The start of a training game. Rive's games are played in its single-stone form (a
    capture's removals one move each): a compound move can have millions of survivor sets,
    and one such search would take minutes; the positions between turns are the same game's."""
    if game == "cephalopod":
        rows, cols = (int(n) for n in board.split("x"))
        return bc.Cephalopod(rows, cols)
    if game == "rive":
        return bc.Rive(board, single_stones=True)
    return GAMES[game](board)


def between_turns(notations: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The positions between turns (no capture under way) written in the compound form, and
    which of ``notations`` they are."""
    keep = np.array(["capture=" not in n for n in notations], bool)
    return np.array([n.removesuffix(" single") for n in notations[keep]]), keep


def evaluator_for(game: str, name: str) -> Any:
    if name not in ("linear", "tuples"):
        raise SystemExit(f"--evaluator must be linear or tuples, got {name!r}")
    return bc.ai.evaluator(game, kind="linear" if name == "linear" else "shipped")


class ChunkTimeout(Exception):
    pass


def _out_of_time(signum: int, frame: Any) -> None:
    raise ChunkTimeout


def generate(args: argparse.Namespace) -> int:
    """Labels ``--games`` games in chunks of ``--chunk``. A chunk that runs past ``--chunk-seconds``
    is interrupted and dropped (its seed is recorded): a search of a position with tens of
    thousands of moves (a Rive capture with many survivor sets, a Strands turn) can take
    minutes, and one such game would hold up a whole run."""
    began = time.perf_counter()
    parts: list[tuple] = []
    dropped: list[int] = []
    signal.signal(signal.SIGALRM, _out_of_time)
    for chunk, first in enumerate(range(0, args.games, args.chunk)):
        seed = args.seed * 1_000_003 + chunk
        signal.setitimer(signal.ITIMER_REAL, args.chunk_seconds)
        try:
            rows = engine.label_games(
                start(args.game, args.board),
                games=min(args.chunk, args.games - first),
                seed=seed,
                opening=(args.opening[0], args.opening[1]),
                depth=args.depth,
                epsilon=args.epsilon,
                threads=args.threads,
                evaluator=evaluator_for(args.game, args.evaluator),
            )
        except ChunkTimeout:
            dropped.append(seed)
            continue
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        parts.append((*rows[:4], rows[4].astype(np.int64) + first))
        done = sum(len(p[0]) for p in parts)
        rate = done / (time.perf_counter() - began)
        print(f"{min(first + args.chunk, args.games)} games, {done} positions, {rate:.0f} positions/s, "
              f"{len(dropped)} chunks dropped", flush=True)  # fmt: skip
    notations, labels, searches, exact, games = (np.concatenate([p[i] for p in parts]) for i in range(5))
    notations, keep = between_turns(notations)
    columns = (notations, labels[keep], searches[keep], exact[keep], games[keep])
    save(args, columns, began, {"command": tuples_command(), "dropped": dropped})
    return 0


def tuples_command(line: str | None = None) -> str:
    return command(line).replace("tools/train_patterns.py", "tools/train_tuples.py", 1)


def fit(args: argparse.Namespace) -> int:
    data = load(args.data)
    family, _, _, entries, phases, params = engine.tuple_layout(args.game)
    began = time.perf_counter()
    phase, cols, features = engine.tuple_rows(args.game, list(data["notations"]))
    print(f"{len(phase)} positions, the {family} family ({entries} entries), {params} weights a phase "
          f"({time.perf_counter() - began:.1f} s)", flush=True)  # fmt: skip
    outcome, searched = data["labels"].astype(np.float64), data["searches"].astype(np.float64)
    y = np.where(data["exact"], outcome, (1 - args.search_weight) * outcome + args.search_weight * searched)
    held = (data["games"] % HELD_OUT) == 0
    weights = np.zeros((phases, params), np.float32)
    report = []
    linear = bc.ai.evaluator(args.game, kind="linear")
    game_class = GAMES[args.game]
    for s in range(phases):
        near = np.abs(phase.astype(np.int64) - s) <= 1
        rows = np.flatnonzero(near & ~held)
        w = np.where(phase[rows] == s, 1.0, 0.5)
        x = solve_stage(cols[rows].astype(np.int64), features[rows], y[rows], w, entries, args.ridge, args.iterations)
        test = np.flatnonzero(held & (phase == s))
        padded = np.append(x[:entries], 0.0)
        pred = padded[cols[test]].sum(axis=1) + x[entries] + features[test] @ x[entries + 1 :]
        sample = test[:2000]
        old = np.array([linear.margin(game_class.from_position(str(data["notations"][i]))) for i in sample])
        row = {
            "phase": s,
            "train": len(rows),
            "held_out": len(test),
            "mae": round(float(np.abs(pred - outcome[test]).mean()), 3) if len(test) else None,
            "linear_mae": round(float(np.abs(old - outcome[sample]).mean()), 3) if len(sample) else None,
            "sample_mae": round(float(np.abs(pred[: len(sample)] - outcome[sample]).mean()), 3)
            if len(sample)
            else None,
        }
        report.append(row)
        print(f"phase {s}: {row}", flush=True)
        weights[s] = x
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out / f"{args.game}-tuples.npz", weights=weights.ravel())
    metas = [json.loads(str(np.load(p)["meta"])) for p in args.data]
    meta = {
        "format": FORMAT,
        "game": args.game,
        "family": family,
        "file": f"{args.game}-tuples.npz",
        "phases": phases,
        "params": params,
        "version": args.version,
        "positions": len(y),
        "boards": sorted({m["board"] for m in metas}),
        "fit": tuples_command(),
        "generate": [tuples_command(m["command"]) for m in metas],
        "seeds": [m["seed"] for m in metas],
        "ridge": args.ridge,
        "search_weight": args.search_weight,
        "iterations": args.iterations,
        "held_out_mae": report,
    }
    (out / f"{args.game}-tuples.json").write_text(json.dumps(meta, indent=1) + "\n")
    print(f"wrote {out / f'{args.game}-tuples.npz'} ({(out / f'{args.game}-tuples.npz').stat().st_size // 1024} KB)")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    g = sub.add_parser("generate", help="label self-play positions (Rust, every thread)")
    g.add_argument("--game", choices=sorted(GAMES), required=True)
    g.add_argument("--board", required=True, help="hex5, hex4, ... (Rive, Strands) or RxC (Cephalopod)")
    g.add_argument("--games", type=int, default=1000)
    g.add_argument("--chunk", type=int, default=20, help="games a call")
    g.add_argument("--chunk-seconds", type=float, default=120.0, help="a chunk running longer is dropped")
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--opening", type=int, nargs=2, default=(1, 6), help="random plies at the start")
    g.add_argument("--depth", type=int, default=2)
    g.add_argument("--epsilon", type=float, default=0.1)
    g.add_argument("--evaluator", default="linear")
    g.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    g.add_argument("--data", required=True)
    f = sub.add_parser("fit", help="fit a game's local-pattern weights from data files")
    f.add_argument("--game", choices=sorted(GAMES), required=True)
    f.add_argument("--data", nargs="+", required=True)
    # Measured on Cephalopod (60 games at 0.1 s against the linear evaluation): ridge 200 with
    # half of each target from the position's own search played 70%; ridge 20 on the games'
    # results alone 30% (20 games). The noisy results need the search's score and a firm ridge.
    f.add_argument("--ridge", type=float, default=200.0)
    f.add_argument("--search-weight", type=float, default=0.5, help="weight of a position's own search score")
    f.add_argument("--version", type=int, default=1)
    f.add_argument("--iterations", type=int, default=200, help="conjugate-gradient steps a phase")
    f.add_argument("--out", default=str(OUT_DIR))
    args = parser.parse_args(argv)
    return {"generate": generate, "fit": fit}[args.what](args)


if __name__ == "__main__":
    raise SystemExit(main())
