"""Monte Carlo tree search (UCT with random playouts) in Rust, for every game.

    import boardcore as bc
    move = bc.mcts.best_move(bc.Reversi(), iterations=1000, seed=1)

    searcher = bc.mcts.Searcher(game, iterations=2000, threads=2)
    result = searcher.search()        # SearchResult: move, moves, visits, values, ...
    searcher.advance(result.move)     # our move: the tree below it is kept
    searcher.advance(their_reply)     # and theirs

How it searches (selection, expansion, progressive widening for huge move lists, playouts,
threads) is in docs/ai.md; the Rust side is ``rust/engine/src/mcts.rs``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import numpy as np
import numpy.typing as npt

from boardcore._boardcore import (
    Cephalopod,
    CephalopodSearcher,
    Reversi,
    ReversiSearcher,
    Rive,
    RiveSearcher,
    Strands,
    StrandsSearcher,
)

__all__ = ["DEFAULT_MAX_NODES", "SearchResult", "Searcher", "best_move", "search"]

_SEARCHERS: dict[type, Any] = {
    Reversi: ReversiSearcher,
    Cephalopod: CephalopodSearcher,
    Rive: RiveSearcher,
    Strands: StrandsSearcher,
}

M = TypeVar("M")

DEFAULT_ITERATIONS = 1000
"""The budget of a search given neither ``iterations`` nor ``time_limit``."""

DEFAULT_MAX_NODES = 4_000_000
"""The default node budget of a searcher (all its trees together): a few hundred megabytes."""


@dataclass(frozen=True)
class SearchResult(Generic[M]):
    """What a search found. ``moves[i]`` was visited ``visits[i]`` times, with mean reward
    ``values[i]`` for the player to move at the root (win 1, draw 1/2, loss 0)."""

    move: M | None
    """The most visited move (None when the game is over)."""
    moves: list[M]
    """Every root move the search expanded, in the order it first expanded them."""
    visits: npt.NDArray[np.uint64]
    """How often each of ``moves`` was visited."""
    values: npt.NDArray[np.float64]
    """Each of ``moves``' mean reward for the player to move at the root."""
    iterations: int
    """Iterations run by this search."""
    nodes: int
    """Nodes in the search trees."""
    tree_full: bool = False
    """Whether the trees reached the node budget (``max_nodes``): they stopped growing, and the
    iterations since went on among the nodes they have (selecting, then playing out from a leaf)."""


class Searcher:
    """A reusable search rooted at a game's current position.

    ``iterations`` and/or ``time_limit`` (seconds) bound each ``search()`` (a time limit alone
    searches until the time is up; with neither, 1,000 iterations); ``exploration`` is
    UCT's constant; ``seed`` and ``threads`` make a search reproducible (root parallelism: one tree
    per thread); the ``widening_*`` settings control progressive widening (docs/ai.md).
    ``max_nodes`` bounds the memory: the trees together hold at most that many entries (nodes, and
    moves listed for expansion; about 100 bytes each at most), then stop growing and
    ``SearchResult.tree_full`` says so.

    Every search runs at least one iteration, so a live game always gets a move. A search releases
    the GIL and is interruptible (Ctrl-C raises KeyboardInterrupt; the tree keeps the iterations
    completed). Calls from several threads on one searcher take turns (docs/design.md, "Threads").
    """

    def __init__(
        self,
        game: Reversi | Cephalopod | Rive | Strands,
        iterations: int | None = None,
        *,
        time_limit: float | None = None,
        exploration: float = math.sqrt(2),
        seed: int = 0,
        threads: int = 1,
        widening_limit: int = 512,
        widening_coefficient: float = 2.0,
        widening_exponent: float = 0.5,
        max_nodes: int = DEFAULT_MAX_NODES,
    ) -> None:
        searcher = _SEARCHERS.get(type(game))
        if searcher is None:
            raise TypeError(f"MCTS runs on boardcore's engine games, not on {type(game).__name__}")
        if iterations is None and time_limit is None:
            iterations = DEFAULT_ITERATIONS
        self._inner = searcher(
            game,
            iterations=iterations,
            time_limit=time_limit,
            exploration=exploration,
            seed=seed,
            threads=threads,
            widening_limit=widening_limit,
            widening_coefficient=widening_coefficient,
            widening_exponent=widening_exponent,
            max_nodes=max_nodes,
        )

    def search(self, iterations: int | None = None, time_limit: float | None = None) -> SearchResult[Any]:
        """Searches from the root (for the configured budget unless given) and reports. The tree
        keeps growing across calls."""
        best, moves, visits, values, done, nodes, tree_full = self._inner.search(iterations, time_limit)
        return SearchResult(best, moves, visits, values, done, nodes, tree_full)

    def best_move(self) -> Any:
        """Searches, then returns the most visited move (None when the game is over)."""
        return self.search().move

    def advance(self, move: Any) -> None:
        """Plays ``move`` (a move or its notation, by either player) at the root and keeps the
        subtree below it. Raises NotationError or IllegalMoveError, changing nothing."""
        self._inner.advance(move)

    @property
    def game(self) -> Reversi | Cephalopod | Rive | Strands:
        """A copy of the game at the root (with the advanced moves in its history)."""
        return self._inner.game

    @property
    def root_visits(self) -> int:
        """Visits recorded at the root, including those kept from before an ``advance``."""
        return self._inner.root_visits


def search(game: Reversi | Cephalopod | Rive | Strands, iterations: int | None = None, **settings: Any) -> SearchResult[Any]:
    """One search from ``game``'s position (settings as for ``Searcher``)."""
    return Searcher(game, iterations, **settings).search()


def best_move(game: Reversi | Cephalopod | Rive | Strands, iterations: int | None = None, **settings: Any) -> Any:
    """The move a search from ``game``'s position prefers (settings as for ``Searcher``)."""
    return search(game, iterations, **settings).move
