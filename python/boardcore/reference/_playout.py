"""Random playouts, exactly as the engine plays them (rust/engine/src/count/playout.rs).

Playout ``i`` of a batch seeded ``seed`` uses SplitMix64 with state
``SplitMix64(seed + i).next()``; each step plays the game's ``_draw(rng)``:
``legal_moves()[below(len(legal_moves()))]``, or Rive's capture-cell policy.
"""

from __future__ import annotations

from boardcore.reference._splitmix import SplitMix64

MASK64 = (1 << 64) - 1
MAX_SCORED_PLAYOUTS = 1 << 26  # as the engine: one ending is kept per playout


def checked_seed(seed) -> int:
    """``seed`` (0 for None), or ValueError unless it is an integer from 0 to 2**64-1."""
    seed = 0 if seed is None else seed
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MASK64:
        raise ValueError(f"seed must be an integer from 0 to 2**64-1, got {seed!r}")
    return seed


def playouts(state, n, seed=None, threads=None, scores=False) -> dict:
    """``n`` uniformly random playouts from ``state``: ``{"black": wins, "white": wins, "draws": n}``,
    with ``scores=True`` also ``"outcomes"`` (int8: 1, -1, 0) and ``"scores"`` (int32, (n, 2))."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"n must be an integer >= 0, got {n!r}")
    seed = checked_seed(seed)
    if scores and n > MAX_SCORED_PLAYOUTS:
        raise ValueError(f"playouts with scores=True: n must be at most {MAX_SCORED_PLAYOUTS}, got {n}")
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= 1024):
        raise ValueError(f"threads must be between 1 and 1024, got {threads!r}")
    tally = {"black": 0, "white": 0, "draws": 0}
    outcomes, scored = [], []
    for i in range(n):
        rng = SplitMix64(SplitMix64((seed + i) & MASK64).next())
        game = state.copy()
        while (move := game._draw(rng)) is not None:
            game.play(move)
        winner = game.winner()
        tally["draws" if winner is None else ("black", "white")[winner]] += 1
        outcomes.append(0 if winner is None else (1, -1)[winner])
        scored.append(game._score())
    if scores:
        import numpy as np

        return {
            **tally,
            "outcomes": np.array(outcomes, dtype=np.int8),
            "scores": np.array(scored, dtype=np.int32).reshape(n, 2),
        }
    return tally
