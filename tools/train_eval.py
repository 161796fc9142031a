#!/usr/bin/env python3
"""Fit the learned evaluations of the alpha-beta search (docs/engine.md, "Evaluations").

    python tools/train_eval.py --game reversi --seed 1 --positions 40000
    python tools/train_eval.py --game cephalopod --positions 30000 --out /tmp/cephalopod.json

For each game this plays games from the start of several variants with the library's own
players, labels the positions it passes through with final margins, extracts the engine's
features (``bc.ai.features``, ``bc.ai.phase``) and fits one ridge regression per phase (a bias
and a weight per feature, in points of margin for the side to move). The weights go to
``python/boardcore/data/eval/<game>.json``, which ``bc.ai.evaluator`` loads.

Games: a few random plies from the start (diversity), then moves of a shallow
``bc.ai.analyse`` search, with a random move now and then. Labels:

- once the end is near (few empty cells), positions are solved exactly (``bc.ai.solve`` with a
  time limit; ``.score`` is the exact margin under perfect play);
- the others get the exact value of the next solved position of their game, from their own
  side to move's view (the final margin of the game as played, with perfect play from there
  on), or the game's final margin if nothing after them was solved (Cephalopod and Rive, whose
  captures empty cells again, solve only at the very end). With ``--search-depth D`` they get
  instead the mean of that and the score of a depth-D search (``bc.ai.analyse(...).score``).

The fit is checked on held-out games (a fifth of them, by game, not by position): R^2 and the
mean absolute error in points, per phase and overall, are printed, and the final weights are
fitted on all the positions. Everything is drawn from ``--seed``: the same seed and options
give the same file (the searches are fixed-depth). numpy only.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import boardcore as bc
import numpy as np
from boardcore._games import GAMES as REGISTRY

ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "python" / "boardcore" / "data" / "eval"

# The engine's phase counts (`Features::PHASES` in rust/engine/src/games/<game>/features.rs), from the
# game registry.
PHASES = {name: entry.phases for name, entry in REGISTRY.items()}


@dataclass(frozen=True)
class Variant:
    """One board to play on, with how to play there."""

    name: str
    make: Any  # () -> a new game
    share: float  # of the games played
    opening: tuple[int, int]  # random plies at the start (inclusive range)
    depth: int  # the players' search depth
    solve_empties: int  # try exact solves from this many empty cells on...
    solve_time: float  # ...with this time limit (seconds); after a timeout, wait a few plies
    search_empties: int = 10**9  # search only from this many empty cells on (else random)


def _reversi_holes(size: int | str, seed: int) -> Any:
    return lambda: bc.Reversi(size, blocked="random", seed=seed)


def variants(game: str, seed: int) -> list[Variant]:
    """The variants a game trains on: the features are the same on every board of the game."""
    if game == "reversi":
        out = [
            Variant("6", lambda: bc.Reversi(6), 0.15, (1, 6), 4, 18, 2.0),
            Variant("8", lambda: bc.Reversi(8), 0.30, (1, 10), 3, 16, 2.0),
            Variant("10", lambda: bc.Reversi(10), 0.10, (1, 12), 3, 14, 2.0),
            Variant("octagon", lambda: bc.Reversi("octagon"), 0.10, (1, 12), 3, 14, 2.0),
        ]
        # A few fixed hole sets drawn from the seed (the documented random draw).
        for i in range(3):
            holes = seed * 1000 + i
            out.append(Variant(f"8 holes seed={holes}", _reversi_holes(8, holes), 0.07, (1, 10), 3, 16, 2.0))
        holes = seed * 1000 + 7
        out.append(Variant(f"6 holes seed={holes}", _reversi_holes(6, holes), 0.06, (1, 6), 4, 18, 2.0))
        holes = seed * 1000 + 8
        out.append(Variant(f"10 holes seed={holes}", _reversi_holes(10, holes), 0.08, (1, 12), 3, 14, 2.0))
        return out
    # Cephalopod and Rive empty cells again by capturing: a few empty cells do not make the end
    # near, so solves get a short time limit and most labels are the game's final margin.
    if game == "cephalopod":
        return [
            Variant("3x5", lambda: bc.Cephalopod(3, 5), 0.25, (1, 4), 3, 6, 0.05),
            Variant("4x4", lambda: bc.Cephalopod(4, 4), 0.25, (1, 4), 3, 6, 0.05),
            Variant("5x5", lambda: bc.Cephalopod(5, 5), 0.50, (1, 6), 2, 6, 0.05),
        ]
    if game == "rive":
        return [
            Variant("hex3", lambda: bc.Rive("hex3"), 0.30, (1, 4), 2, 8, 0.2),
            Variant("hex335", lambda: bc.Rive("hex335"), 0.50, (1, 6), 2, 6, 0.2),
            Variant("hex4", lambda: bc.Rive("hex4"), 0.20, (1, 6), 1, 5, 0.2),
        ]
    if game == "strands":
        # A depth-1 search on hex6 can take seconds while many cells are empty (tens of
        # thousands of moves): play randomly there until the board has filled up.
        return [
            Variant("hex4", lambda: bc.Strands("hex4"), 0.40, (1, 3), 1, 9, 1.0),
            Variant("hex4 exact", lambda: bc.Strands("hex4", cover="exact"), 0.15, (1, 3), 1, 10, 1.0),
            Variant("hex5", lambda: bc.Strands("hex5"), 0.30, (1, 3), 1, 8, 1.0),
            Variant("hex6", lambda: bc.Strands("hex6"), 0.15, (1, 2), 1, 7, 1.0, search_empties=30),
        ]
    raise SystemExit(f"unknown game {game!r}: reversi, cephalopod, rive or strands")


def final_margin(game: Any) -> float | None:
    """The margin of a finished game for Black (None for Strands: its margin needs the groups)."""
    if isinstance(game, bc.Strands):
        return None
    black, white = game.score()
    margin = black - white
    if isinstance(game, bc.Reversi):  # the empty squares go to the winner
        margin += ((margin > 0) - (margin < 0)) * empty_cells(game)
    return float(margin)


def empty_cells(game: Any) -> int:
    """Empty cells of the position: `.` in the rows of the notation, or (Strands) label digits."""
    rows = game.position().split()[1]
    if isinstance(game, bc.Strands):
        return sum(c.isdigit() for c in rows)
    return rows.count(".")


@dataclass
class Sample:
    features: np.ndarray
    phase: int
    mover: int
    label: float | None = None  # exact, when solved
    search: float | None = None  # a deeper search's score, with --search-depth


@dataclass
class Stats:
    games: int = 0
    positions: int = 0
    solved: int = 0
    solve_timeouts: int = 0
    dropped: int = 0
    seconds_play: float = 0.0
    seconds_solve: float = 0.0
    per_variant: dict[str, int] = field(default_factory=dict)


def play_game(v: Variant, rng: random.Random, epsilon: float, search_depth: int, stats: Stats) -> list[Sample]:
    """One game's samples, labelled (those of a game with no label at all are dropped)."""
    game = v.make()
    samples: list[Sample] = []
    opening = rng.randint(*v.opening)
    ply = 0
    wait_until = 0  # after a solve timed out, no solve before this ply
    while not game.is_over():
        sample = Sample(bc.ai.features(game).astype(np.float32), int(bc.ai.phase(game)), int(game.to_move))
        empties = empty_cells(game)
        if empties <= v.solve_empties and ply >= wait_until:
            t = time.perf_counter()
            try:
                sample.label = float(bc.ai.solve(game, time_limit=v.solve_time).score)
                stats.solved += 1
            except bc.ai.SolveTimeout:
                stats.solve_timeouts += 1
                wait_until = ply + 3
            stats.seconds_solve += time.perf_counter() - t
        if search_depth and sample.label is None:
            sample.search = float(bc.ai.analyse(game, depth=search_depth).score)
        samples.append(sample)
        t = time.perf_counter()
        if ply < opening or empties > v.search_empties or rng.random() < epsilon:
            mv = game.random_move(seed=rng.getrandbits(63))
        else:
            mv = bc.ai.analyse(game, depth=v.depth).move
        stats.seconds_play += time.perf_counter() - t
        game.play(mv)
        ply += 1
    # Unsolved positions: the value of the next solved position of the game, else the final
    # margin, seen from their own side to move.
    end = final_margin(game)
    later: Sample | None = None
    for s in reversed(samples):
        if s.label is not None:
            later = s
            continue
        if later is not None:
            outcome = later.label if s.mover == later.mover else -later.label
        elif end is not None:
            outcome = end if s.mover == 0 else -end
        else:
            continue
        s.label = outcome if s.search is None else 0.5 * (outcome + s.search)
    kept = [s for s in samples if s.label is not None]
    stats.dropped += len(samples) - len(kept)
    return kept


def generate(game_name: str, seed: int, positions: int, epsilon: float, search_depth: int, time_budget: float):
    rng = random.Random(seed)
    vs = variants(game_name, seed)
    weights = [v.share for v in vs]
    X, P, Y, G = [], [], [], []
    stats = Stats()
    start = time.perf_counter()
    last_report = start
    while stats.positions < positions and time.perf_counter() - start < time_budget:
        v = rng.choices(vs, weights)[0]
        samples = play_game(v, rng, epsilon, search_depth, stats)
        for s in samples:
            X.append(s.features)
            P.append(s.phase)
            Y.append(s.label)
            G.append(stats.games)
        stats.games += 1
        stats.positions += len(samples)
        stats.per_variant[v.name] = stats.per_variant.get(v.name, 0) + len(samples)
        now = time.perf_counter()
        if now - last_report > 30:
            last_report = now
            print(
                f"  {now - start:6.0f} s  games {stats.games}  positions {stats.positions}  solved {stats.solved}"
                f"  timeouts {stats.solve_timeouts}",
                file=sys.stderr,
                flush=True,
            )
    seconds = time.perf_counter() - start
    return (
        np.array(X, dtype=np.float32).reshape(len(X), -1),
        np.array(P, dtype=np.int64),
        np.array(Y, dtype=np.float64),
        np.array(G, dtype=np.int64),
        vs,
        stats,
        seconds,
    )


def fit_phase(X: np.ndarray, y: np.ndarray, w: np.ndarray, lam: float) -> np.ndarray:
    """Weighted ridge on standardised features, returned as [bias, weights] in raw units (the
    bias is not penalised)."""
    n, k = X.shape
    if n == 0:
        return np.zeros(k + 1)
    sw = w.sum()
    mean = (w[:, None] * X).sum(0) / sw
    std = np.sqrt((w[:, None] * (X - mean) ** 2).sum(0) / sw)
    std[std < 1e-9] = 1.0  # a constant feature: its weight stays 0 after the penalty
    Z = (X - mean) / std
    ym = (w * y).sum() / sw
    A = Z.T @ (w[:, None] * Z) + lam * sw * np.eye(k)
    b = Z.T @ (w * (y - ym))
    beta = np.linalg.solve(A, b)
    raw = beta / std
    return np.concatenate([[ym - raw @ mean], raw])


def fit(X, P, y, phases: int, lam: float, neighbour: float) -> np.ndarray:
    """Per phase, with the samples of the neighbouring phases at weight `neighbour` (so that a
    thin phase borrows from the ones next to it)."""
    k = X.shape[1]
    W = np.zeros((phases, k + 1))
    for p in range(phases):
        near = np.abs(P - p) <= 1
        w = np.where(P[near] == p, 1.0, neighbour)
        W[p] = fit_phase(X[near].astype(np.float64), y[near], w, lam)
    return W


def predict(W: np.ndarray, X: np.ndarray, P: np.ndarray) -> np.ndarray:
    Wp = W[np.minimum(P, W.shape[0] - 1)]
    return Wp[:, 0] + (Wp[:, 1:] * X).sum(1)


def metrics(y: np.ndarray, pred: np.ndarray) -> tuple[float, float]:
    if len(y) == 0:
        return float("nan"), float("nan")
    ss = ((y - y.mean()) ** 2).sum()
    r2 = 1 - ((y - pred) ** 2).sum() / ss if ss > 0 else float("nan")
    return float(r2), float(np.abs(y - pred).mean())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", required=True, choices=list(REGISTRY))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--positions", type=int, default=20000, help="positions to generate (at least)")
    ap.add_argument("--out", type=Path, default=None, help="default: python/boardcore/data/eval/<game>.json")
    ap.add_argument("--time-budget", type=float, default=600.0, help="stop generating after this many seconds")
    ap.add_argument("--epsilon", type=float, default=0.08, help="share of random moves after the opening")
    ap.add_argument("--search-depth", type=int, default=0, help="mix a depth-D search score into early labels")
    ap.add_argument("--neighbour-weight", type=float, default=0.3)
    ap.add_argument("--data", type=Path, default=None, help="save (or, with --refit, load) the samples as .npz")
    ap.add_argument("--refit", action="store_true", help="fit the samples of --data, generate nothing")
    args = ap.parse_args(argv)

    names = list(bc.ai.feature_names(args.game))
    if args.refit:
        d = np.load(args.data, allow_pickle=False)
        X, P, y, G = d["X"], d["P"], d["y"], d["G"]
        variant_names = [str(v) for v in d["variants"]]
        print(f"{args.game}: {len(y)} samples from {args.data}")
    else:
        X, P, y, G, vs, stats, seconds = generate(
            args.game, args.seed, args.positions, args.epsilon, args.search_depth, args.time_budget
        )
        variant_names = [v.name for v in vs]
        print(
            f"{args.game}: {stats.games} games, {len(y)} positions ({stats.solved} solved exactly,"
            f" {stats.solve_timeouts} solve timeouts, {stats.dropped} dropped) in {seconds:.0f} s"
            f" (play {stats.seconds_play:.0f} s, solve {stats.seconds_solve:.0f} s)"
        )
        print("  positions per variant:", stats.per_variant)
        if args.data:
            np.savez_compressed(args.data, X=X, P=P, y=y, G=G, variants=np.array(variant_names))
    if X.shape[1] != len(names):
        raise SystemExit(f"{X.shape[1]} features, but {len(names)} names")
    phases = PHASES[args.game]
    if len(P) and int(P.max()) >= phases:
        raise SystemExit(f"phase {int(P.max())} seen, but {args.game} has {phases} phases: update PHASES")

    # Held-out check: a fifth of the games.
    split = np.random.default_rng(args.seed).random(int(G.max()) + 1 if len(G) else 1) < 0.2
    test = split[G]
    best = None
    for lam in [1e-4, 1e-3, 1e-2, 1e-1]:
        W = fit(X[~test], P[~test], y[~test], phases, lam, args.neighbour_weight)
        r2, mae = metrics(y[test], predict(W, X[test], P[test]))
        print(f"  ridge {lam:g}: held-out R^2 {r2:.3f}, MAE {mae:.2f} points")
        if best is None or mae < best[1]:
            best = (lam, mae, W)
    lam, _, W = best
    material = X[:, names.index(_material_feature(args.game))] if _material_feature(args.game) in names else None
    print(f"  chosen ridge {lam:g}; held-out per phase (n, R^2, MAE; the material count's MAE as a baseline fit):")
    for p in range(phases):
        m = test & (p == P)
        r2, mae = metrics(y[m], predict(W, X[m], P[m]))
        base = ""
        if material is not None and m.sum() > 1:
            # The best affine fit of the label on the material count alone, on the same games.
            tr = ~test & (p == P)
            if tr.sum() > 2:
                A = np.stack([np.ones(tr.sum()), material[tr]], 1)
                coef = np.linalg.lstsq(A, y[tr], rcond=None)[0]
                base = f"  material-only MAE {np.abs(y[m] - (coef[0] + coef[1] * material[m])).mean():.2f}"
        print(f"    phase {p}: n {int(m.sum()):6d}  R^2 {r2:6.3f}  MAE {mae:6.2f}{base}")
    r2, mae = metrics(y[test], predict(W, X[test], P[test]))
    print(f"  held-out overall: R^2 {r2:.3f}, MAE {mae:.2f} points (label mean |y| {np.abs(y[test]).mean():.2f})")

    W = fit(X, P, y, phases, lam, args.neighbour_weight)
    out = args.out or OUT_DIR / f"{args.game}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    doc = {
        "game": args.game,
        "names": names,
        "phases": phases,
        "weights": [round(float(w), 6) for w in W.reshape(-1)],
        "seed": args.seed,
        "positions": len(y),
        "variants": variant_names,
    }
    out.write_text(json.dumps(doc, indent=1) + "\n")
    print(f"  wrote {out}")
    return 0


def _material_feature(game: str) -> str:
    return REGISTRY[game].material


if __name__ == "__main__":
    sys.exit(main())
