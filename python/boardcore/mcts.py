"""Monte Carlo tree search in Rust, for every game: search guided by a model over the step form
(PUCT or Gumbel, batched evaluators, self-play data), and UCT with random playouts over moves.

    import boardcore as bc
    import numpy as np

    def net(observations, masks):  # any model: (logits, values) for a batch of positions
        return np.zeros(masks.shape, np.float32), np.zeros(len(observations), np.float32)

    result = bc.mcts.search(bc.Reversi(), iterations=800, evaluator=net)  # PolicyResult
    result.policy, result.action, result.value, result.visits
    data = bc.mcts.selfplay("reversi", {"size": 6}, evaluator=net, games=16, iterations=64)

    move = bc.mcts.best_move(bc.Reversi(), iterations=1000, seed=1)  # UCT over moves

    game = bc.Reversi(size=6)
    searcher = bc.mcts.Searcher(game, iterations=2000, threads=2)
    result = searcher.search()  # SearchResult: move, moves, visits, values, ...
    searcher.advance(result.move)  # our move: the tree below it is kept
    their_reply = searcher.game.legal_moves()[0]
    searcher.advance(their_reply)  # and theirs

How both search (evaluators, batching, Gumbel, selection, expansion, progressive widening for
huge move lists, playouts, threads) is in docs/ai.md; the Rust side is
``rust/engine/src/mcts/puct.rs``, ``selfplay.rs`` and ``uct.rs`` over one tree (``tree.rs``).
"""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from boardcore._boardcore import (
    Cephalopod,
    CephalopodActions,
    Reversi,
    ReversiActions,
    Rive,
    RiveActions,
    Strands,
    StrandsActions,
    puct_defaults,
    search_steps,
)
from boardcore._boardcore import Evaluator as LearnedEvaluator
from boardcore._boardcore import selfplay as _selfplay
from boardcore._games import entry_of, played_in_steps

__all__ = [
    "DEFAULT_MAX_NODES",
    "PUCT_DEFAULTS",
    "Evaluator",
    "PolicyResult",
    "SearchResult",
    "Searcher",
    "SelfPlayData",
    "best_move",
    "search",
    "search_many",
    "search_moves",
    "selfplay",
]

M = TypeVar("M")

DEFAULT_ITERATIONS = 1000
"""The budget of a search given neither ``iterations`` nor ``time_limit``."""

PUCT_DEFAULTS: dict[str, Any] = puct_defaults()
"""The PUCT settings' defaults, read from the engine (``puct::Settings::default``): the signatures
below take theirs from here, so each default is set once, in Rust."""

DEFAULT_MAX_NODES: int = PUCT_DEFAULTS["max_nodes"]
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
        entry = entry_of(game)  # the registry's searcher class of the game
        if entry is None:
            raise TypeError(f"MCTS runs on boardcore's engine games, not on {type(game).__name__}")
        if iterations is None and time_limit is None:
            iterations = DEFAULT_ITERATIONS
        self._inner = entry.searcher(
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


def search_moves(
    game: Reversi | Cephalopod | Rive | Strands, iterations: int | None = None, **settings: Any
) -> SearchResult[Any]:
    """One UCT search over ``game``'s moves (settings as for ``Searcher``)."""
    return Searcher(game, iterations, **settings).search()


def best_move(game: Reversi | Cephalopod | Rive | Strands, iterations: int | None = None, **settings: Any) -> Any:
    """The move a UCT search from ``game``'s position prefers (settings as for ``Searcher``)."""
    return search_moves(game, iterations, **settings).move


# ---------------------------------------------------------------------------------------------
# Search guided by a model, over the step form


class Evaluator(Protocol):
    """What guides ``search`` and ``selfplay``: a model, in any framework, behind one method.

    ``evaluate(observations, masks)`` receives ``float32 (B, C, H, W)`` observations (each row
    ``state.observation()`` of a step state, from its side to move's view) and ``bool
    (B, num_actions)`` masks (``state.action_mask()``), and returns ``(policy_logits, values)``:
    ``float32 (B, num_actions)`` logits (entries of illegal actions are ignored) and ``float32
    (B,)`` (or ``(B, 1)``) values in [-1, 1] for each row's side to move. Anything that converts
    with ``numpy.asarray`` will do (numpy, JAX, a detached PyTorch tensor). A plain callable with
    the same signature is accepted too. docs/ai.md shows wrappers for PyTorch and JAX.
    """

    def evaluate(self, observations: npt.NDArray[np.float32], masks: npt.NDArray[np.bool_]) -> tuple[Any, Any]:
        """``(policy_logits (B, num_actions), values (B,))`` for a batch (see the class)."""
        ...


StepState = ReversiActions | CephalopodActions | RiveActions | StrandsActions


@dataclass(frozen=True, eq=False)
class PolicyResult:
    """What a search over the step form found at its root."""

    policy: npt.NDArray[np.float32]
    """The search policy over the ``num_actions`` actions: the visit distribution, or with
    ``gumbel=True`` the improved policy ``softmax(logits + sigma(completed Q))`` (mctx's
    ``action_weights``), the training target Gumbel MuZero uses. Zero for illegal actions."""
    action: int | None
    """The chosen action (None when the game is over): the most visited, or drawn from
    ``visits ** (1 / temperature)``, or with Gumbel the sequential-halving winner."""
    value: float
    """The root's value for its side to move, in [-1, 1]: the mean of the evaluations backed up
    through it (its own included)."""
    visits: npt.NDArray[np.int64]
    """Visits per action."""
    simulations: int
    """Simulations run (the root's own evaluation not counted)."""
    nodes: int
    """Nodes in the tree."""
    tree_full: bool = False
    """Whether the tree reached its node budget (``max_nodes``), which ended the search after
    ``simulations`` simulations."""
    turn: list[int] = field(default_factory=list)
    """``action``, then the rest of the root player's turn along the tree: while the same
    player stays to move (a Strands turn's cells, a Rive capture's removals and its placement),
    the most visited child's action. It ends where the tree does, so it can stop short of the
    turn's end; ``[action]`` where a turn is one action; ``[]`` when the game is over."""


def search(
    state: Reversi | Cephalopod | Rive | Strands | StepState,
    iterations: int = PUCT_DEFAULTS["iterations"],
    *,
    evaluator: Evaluator | Any | None = None,
    batch_size: int | None = None,
    c_puct: float = PUCT_DEFAULTS["c_puct"],
    dirichlet_alpha: float | None = None,
    dirichlet_fraction: float = PUCT_DEFAULTS["dirichlet_fraction"],
    gumbel: bool = False,
    max_considered: int = PUCT_DEFAULTS["max_considered"],
    temperature: float = PUCT_DEFAULTS["temperature"],
    seed: int = 0,
    threads: int = 1,
    max_nodes: int = DEFAULT_MAX_NODES,
    time_limit: float | None = None,
) -> PolicyResult:
    """A search from ``state`` (a game, or its step form ``game.actions()``) over the game's
    actions, guided by ``evaluator`` (see ``Evaluator``; None: random rollouts in Rust;
    ``bc.ai.evaluator(game)``: the game's learned evaluation, evaluated natively in Rust with no
    Python call per leaf, docs/engine.md).

    ``iterations`` simulations after the root's evaluation; ``batch_size`` leaves per evaluator
    call (default 8 with a Python evaluator, ``threads`` with rollouts or a learned evaluation),
    gathered with virtual loss;
    PUCT's ``c_puct``; Dirichlet noise on the root priors when ``dirichlet_alpha`` is given;
    ``gumbel=True`` for Gumbel root selection with sequential halving over ``max_considered``
    actions; ``temperature`` > 0 draws the action from the visits (PUCT). Reproducible for a
    seed, whatever ``threads``. ``max_nodes`` bounds the tree (nodes, and listed actions counted an
    eighth each); a search that reaches it ends there and says so (``tree_full``). ``time_limit``
    (seconds) stops it earlier: no simulation starts after it (the root is always evaluated;
    ``simulations`` says how many ran), so a timed search is not reproducible. Releases the
    GIL while Rust works; interruptible (Ctrl-C). An
    evaluator's exception, or an answer of the wrong shape, NaN or out of range, is raised and
    leaves nothing changed. docs/ai.md explains the search.
    """
    if batch_size is None:
        # Native evaluations gain nothing from batching on one thread (it only blurs the
        # search); a Python model gains from a few leaves per call.
        batch_size = _threads_hint(threads) if evaluator is None or isinstance(evaluator, LearnedEvaluator) else 8
    (result,) = search_many(
        [state], iterations, evaluator=evaluator, batch_size=batch_size, c_puct=c_puct,
        dirichlet_alpha=dirichlet_alpha, dirichlet_fraction=dirichlet_fraction, gumbel=gumbel,
        max_considered=max_considered, temperature=temperature, seed=seed, threads=threads,
        max_nodes=max_nodes, time_limit=time_limit,
    )  # fmt: skip
    return result


def _threads_hint(threads: Any) -> int:
    """``threads`` for sizing a default batch: the engine checks the value itself (and names
    ``threads`` when it is bad), so anything but a valid count sizes the batch as one thread."""
    try:
        count = operator.index(threads)
    except TypeError:
        return 1
    return count if 1 <= count <= 1024 and not isinstance(threads, bool) else 1


def search_many(
    states: list[Any],
    iterations: int = PUCT_DEFAULTS["iterations"],
    *,
    evaluator: Evaluator | Any | None = None,
    batch_size: int | None = None,
    c_puct: float = PUCT_DEFAULTS["c_puct"],
    dirichlet_alpha: float | None = None,
    dirichlet_fraction: float = PUCT_DEFAULTS["dirichlet_fraction"],
    gumbel: bool = False,
    max_considered: int = PUCT_DEFAULTS["max_considered"],
    temperature: float = PUCT_DEFAULTS["temperature"],
    seed: int = 0,
    threads: int = 1,
    max_nodes: int = DEFAULT_MAX_NODES,
    time_limit: float | None = None,
) -> list[PolicyResult]:
    """``search`` from each of ``states`` (games or step states of one variant: the positions of
    your own vectorized environments, say) at once, the evaluator batched across all of them as
    in ``selfplay`` (``batch_size`` default: one leaf per state per call; ``max_nodes`` shared).
    State ``i`` draws from ``seed + i``. Returns one ``PolicyResult`` per state, in order."""
    states = list(states)
    if batch_size is None:
        batch_size = (
            max(1, min(len(states), 65536))
            if evaluator is not None
            else max(1, min(len(states), 65536), _threads_hint(threads))
        )
    reports = search_steps(
        states,
        iterations=iterations,
        evaluator=evaluator,
        batch_size=batch_size,
        c_puct=c_puct,
        dirichlet_alpha=dirichlet_alpha,
        dirichlet_fraction=dirichlet_fraction,
        gumbel=bool(gumbel),
        max_considered=max_considered,
        temperature=temperature,
        seed=seed,
        threads=threads,
        max_nodes=max_nodes,
        time_limit=time_limit,
    )
    return [
        PolicyResult(r.policy, r.action, r.value, r.visits, r.simulations, r.nodes, r.tree_full, list(r.turn))
        for r in reports
    ]


@dataclass(frozen=True, eq=False)
class SelfPlayData:
    """Training rows from ``selfplay``: one per decision, grouped by game, in move order."""

    observations: npt.NDArray[np.float32]
    """``(N, C, H, W)``: each decision's observation, from the chooser's view."""
    masks: npt.NDArray[np.bool_]
    """``(N, num_actions)``: the legal actions."""
    policies: npt.NDArray[np.float32]
    """``(N, num_actions)``: the search policies (``PolicyResult.policy``), the policy targets."""
    players: npt.NDArray[np.uint8]
    """``(N,)``: who chose (0 Black, 1 White)."""
    outcomes: npt.NDArray[np.float32]
    """``(N,)``: the game's final result for that row's player (1 win, -1 loss, 0 draw), the
    value targets."""
    game_ids: npt.NDArray[np.int64]
    """``(N,)``: which game (0 to ``games - 1``)."""
    move_numbers: npt.NDArray[np.int64]
    """``(N,)``: the decision's index in its game (a Strands turn is several decisions)."""
    actions: npt.NDArray[np.int64]
    """``(N,)``: the action played."""
    games: list[Any]
    """The games played, as game objects with their moves (``bc.save_record`` writes them)."""
    winners: list[int | None]
    """Each game's winner (0 Black, 1 White, None a draw)."""

    @property
    def records(self) -> list[str]:
        """Each game's record (``bc.save_record``'s text)."""
        return [game.record() for game in self.games]

    def __len__(self) -> int:
        return len(self.players)

    @classmethod
    def concatenate(cls, parts: list[SelfPlayData]) -> SelfPlayData:
        """The games of ``parts`` one after another, as if played by one call: rows and games
        in order, each part's ``game_ids`` shifted past the games before it. ``parts`` must be
        of one game and variant (the rows' shapes must agree); at least one part."""
        parts = list(parts)
        if not parts:
            raise ValueError("concatenate needs at least one SelfPlayData")
        for part in parts[1:]:
            if part.observations.shape[1:] != parts[0].observations.shape[1:] or (
                part.masks.shape[1:] != parts[0].masks.shape[1:]
            ):
                raise ValueError("concatenate needs self-play data of one game and variant: the rows' shapes differ")
        offsets = np.cumsum([0] + [len(part.games) for part in parts[:-1]])
        return cls(
            observations=np.concatenate([part.observations for part in parts]),
            masks=np.concatenate([part.masks for part in parts]),
            policies=np.concatenate([part.policies for part in parts]),
            players=np.concatenate([part.players for part in parts]),
            outcomes=np.concatenate([part.outcomes for part in parts]),
            game_ids=np.concatenate(
                [part.game_ids + offset for part, offset in zip(parts, offsets, strict=True)]
            ).astype(np.int64),
            move_numbers=np.concatenate([part.move_numbers for part in parts]),
            actions=np.concatenate([part.actions for part in parts]),
            games=[game for part in parts for game in part.games],
            winners=[winner for part in parts for winner in part.winners],
        )


def selfplay(
    game: str,
    variant: dict[str, Any] | None = None,
    *,
    evaluator: Evaluator | Any | None = None,
    games: int = 64,
    iterations: int = 100,
    batch_size: int | None = None,
    temperature: float = 1.0,
    temperature_moves: int | None = None,
    c_puct: float = PUCT_DEFAULTS["c_puct"],
    dirichlet_alpha: float | None = None,
    dirichlet_fraction: float = PUCT_DEFAULTS["dirichlet_fraction"],
    gumbel: bool = False,
    max_considered: int = PUCT_DEFAULTS["max_considered"],
    seed: int = 0,
    threads: int = 1,
    max_nodes: int = DEFAULT_MAX_NODES,
) -> SelfPlayData:
    """Plays ``games`` games of ``game`` ("reversi", "cephalopod", "rive" or "strands", set up
    by its constructor from ``variant``; for Strands ``variant`` may also hold
    ``any_order=True``: the any-order step form, whose policies map under the symmetries) at
    once in Rust, each decision a ``search`` with these settings, the evaluator batched across
    all the games (``batch_size`` leaves per call, default ``games``: one per game). For the first ``temperature_moves`` decisions of a game
    (None: all of them) the action is drawn from ``visits ** (1 / temperature)``, later ones are
    the most visited; with Gumbel the search's own choice is always played. Rive plays its step
    form, the single-stone form, so its games are single-stone games. ``max_nodes`` is shared by
    the live games' trees (a tree at its share ends its search early). Reproducible for a seed,
    whatever ``threads``; releases the GIL while Rust works; interruptible.
    """
    # Rive's step form is its single-stone form (docs/actions.md): the games recorded are too.
    variant = played_in_steps(game, variant)
    if batch_size is None:
        # One leaf per game per call: as many rows as games, and no virtual loss.
        batch_size = games if isinstance(games, int) and 1 <= games <= 65536 else 1
    report = _selfplay(
        game,
        variant,
        evaluator=evaluator,
        games=games,
        iterations=iterations,
        batch_size=batch_size,
        temperature=temperature,
        temperature_moves=temperature_moves,
        c_puct=c_puct,
        dirichlet_alpha=dirichlet_alpha,
        dirichlet_fraction=dirichlet_fraction,
        gumbel=bool(gumbel),
        max_considered=max_considered,
        seed=seed,
        threads=threads,
        max_nodes=max_nodes,
    )
    return SelfPlayData(**{name: getattr(report, name) for name in SelfPlayData.__dataclass_fields__})
