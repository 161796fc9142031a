"""Players for ``play`` and ``selfplay``: ``human``, ``random``, ``mcts`` or ``mcts:ITERATIONS``,
``engine`` or ``engine:LEVEL`` (bc.ai.Player, levels 1 to 10; ``engine`` is level 5)."""

from __future__ import annotations

import argparse
from dataclasses import dataclass

import boardcore as bc
from boardcore._boardcore import splitmix64
from boardcore.cli.helptext import integer_type

DEFAULT_ITERATIONS = 1000
DEFAULT_LEVEL = 5


@dataclass(frozen=True)
class Player:
    """A player: ``kind`` is ``human``, ``random``, ``mcts`` or ``engine``; ``iterations`` for
    MCTS, ``level`` for the engine."""

    kind: str
    iterations: int = DEFAULT_ITERATIONS
    level: int = DEFAULT_LEVEL

    def __str__(self) -> str:
        if self.kind == "mcts":
            return f"mcts:{self.iterations}"
        return f"engine:{self.level}" if self.kind == "engine" else self.kind

    def choose(self, game, seed: int):
        """A move for the side to move (not for humans)."""
        if self.kind == "random":
            return game.random_move(seed)
        if self.kind == "mcts":
            return bc.mcts.best_move(game, self.iterations, seed=seed)
        if self.kind == "engine":
            return bc.ai.Player(level=self.level, seed=seed).move(game)
        raise ValueError("a human chooses their own moves")


MASK64 = (1 << 64) - 1


# A seed from 0 to 2**64-1 (argparse type: errors become usage errors).
seed_arg = integer_type(MASK64, "a seed is an integer from 0 to 2**64-1")


def move_seed(seed: int, game: int, ply: int) -> int:
    """The seed of one move: SplitMix64's finaliser over (seed, game, ply), so that every game and
    ply draws differently, a replayed ply draws the same, and nothing overflows 64 bits."""
    return splitmix64((seed + 0xBF58476D1CE4E5B9 * (1 + ply)) & MASK64, game + 1)


def add_player_options(parser: argparse.ArgumentParser, black: str, white: str, *, humans: bool) -> None:
    """``--black`` and ``--white``, with their defaults; ``humans``: whether ``human`` is one of
    the players offered (``play``) or not (``selfplay``)."""
    kinds = ("human, " if humans else "") + "random, mcts, mcts:N or engine:LEVEL"
    for colour, default in (("black", black), ("white", white)):
        parser.add_argument(
            f"--{colour}", type=parse_player, default=parse_player(default), help=f"{kinds} (default {default})"
        )


def parse_player(text: str) -> Player:
    """``human``, ``random``, ``mcts``, ``mcts:N``, ``engine`` or ``engine:LEVEL`` (argparse type:
    errors become usage errors)."""
    kind, _, iterations = text.partition(":")
    if kind == "engine":
        if not iterations:
            return Player("engine")
        if iterations.isdigit() and 1 <= int(iterations) <= 10:
            return Player("engine", level=int(iterations))
    if kind in ("human", "random") and not iterations:
        return Player(kind)
    if kind == "mcts":
        if not iterations:
            return Player("mcts")
        if iterations.isdigit() and int(iterations) >= 1:
            return Player("mcts", int(iterations))
    raise argparse.ArgumentTypeError(
        f"a player is human, random, mcts, mcts:ITERATIONS, engine or engine:LEVEL (1-10), not {text!r}"
    )
