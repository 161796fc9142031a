"""Players for ``play`` and ``selfplay``: ``human``, ``random``, ``mcts`` or ``mcts:ITERATIONS``."""

from __future__ import annotations

import argparse
from dataclasses import dataclass

import boardcore as bc

DEFAULT_ITERATIONS = 1000


@dataclass(frozen=True)
class Player:
    """A player: ``kind`` is ``human``, ``random`` or ``mcts``; ``iterations`` for MCTS."""

    kind: str
    iterations: int = DEFAULT_ITERATIONS

    def __str__(self) -> str:
        return f"mcts:{self.iterations}" if self.kind == "mcts" else self.kind

    def choose(self, game, seed: int):
        """A move for the side to move (not for humans)."""
        if self.kind == "random":
            return game.random_move(seed)
        if self.kind == "mcts":
            return bc.mcts.best_move(game, self.iterations, seed=seed)
        raise ValueError("a human chooses their own moves")


def parse_player(text: str) -> Player:
    """``human``, ``random``, ``mcts`` or ``mcts:N`` (argparse type: errors become usage errors)."""
    kind, _, iterations = text.partition(":")
    if kind in ("human", "random") and not iterations:
        return Player(kind)
    if kind == "mcts":
        if not iterations:
            return Player("mcts")
        if iterations.isdigit() and int(iterations) >= 1:
            return Player("mcts", int(iterations))
    raise argparse.ArgumentTypeError(f"a player is human, random, mcts or mcts:ITERATIONS, not {text!r}")
