"""Self-play spread over Ray actors, with the data one machine would make.

    import boardcore as bc
    import boardcore.distributed

    data = bc.distributed.selfplay("reversi", {"size": 6}, games=4096, evaluator=net, iterations=64,
                                   workers=8, threads_per_worker=4, address="auto")

The games are cut into chunks of ``chunk_games`` (whatever the number of workers); chunk ``c``
is exactly ``bc.mcts.selfplay(..., games=len(chunk), seed=chunk_seed(seed, c))``, played by one
of ``workers`` Ray actors (each with ``threads_per_worker`` CPUs, used by the engine's own
threads), and the chunks are put back together in order (``SelfPlayData.concatenate``). So a
seed gives the same games on any number of workers, and an actor killed mid-chunk is restarted
and replays its chunk to the same result. docs/distributed.md explains it.
"""

from __future__ import annotations

import inspect
import os
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

import boardcore as bc
from boardcore._boardcore import splitmix64
from boardcore._games import GAMES, in_step_form, new_game
from boardcore.distributed._cluster import check_address, connect, import_ray
from boardcore.mcts import DEFAULT_MAX_NODES, PUCT_DEFAULTS, SelfPlayData

__all__ = ["chunk_seed", "selfplay"]

MASK64 = (1 << 64) - 1

MAX_CHUNK_GAMES = 1 << 16
"""The most games one ``bc.mcts.selfplay`` call plays at once (the engine's limit)."""

ACTOR_RESTARTS = 4
"""How often a worker actor that dies (a killed process, a lost node) is restarted, its chunk
replayed each time; a worker dying more often than this ends the run with an error."""

SEARCH_PLAYER = "search"
"""The player that makes training data: ``bc.mcts.selfplay``'s search (with the evaluator, or
random rollouts without one)."""

MOVE_PLAYERS = "random, mcts or mcts:ITERATIONS"


def chunk_seed(seed: int, chunk: int) -> int:
    """The seed of chunk ``chunk``: output number ``chunk + 1`` of SplitMix64 started from
    ``seed`` (its state steps by the golden gamma, then the finaliser mixes it), so that chunks
    draw unrelated streams and nothing overflows 64 bits."""
    return splitmix64(seed, chunk + 1)


@dataclass(frozen=True)
class _Job:
    """What every chunk shares: the game, the players and the search settings (the evaluator is
    shipped to each actor apart, once)."""

    game: str
    variant: dict[str, Any] | None
    players: tuple[Any, Any] | None
    """None: the search player; else the two move players (``boardcore.cli.players.Player``)."""
    settings: dict[str, Any]
    seed: int
    threads: int

    def play(self, first: int, count: int, chunk: int, evaluator: Any = None) -> SelfPlayData:
        """Chunk ``chunk``: games ``first`` to ``first + count - 1``."""
        if self.players is None:
            return bc.mcts.selfplay(
                self.game,
                self.variant,
                evaluator=evaluator,
                games=count,
                seed=chunk_seed(self.seed, chunk),
                threads=self.threads,
                **self.settings,
            )
        played = _play_moves(_new_game(self.game, self.variant), self.players, self.seed, first, count, self.threads)
        return _records_only(self.game, self.variant, played)


def _play_moves(start: Any, players: tuple[Any, Any], seed: int, first: int, count: int, threads: int) -> list[Any]:
    """Games ``first`` to ``first + count - 1`` between two move players, ``threads`` at once,
    each move drawn from its own seed as ``boardcore selfplay`` draws it (so the records are the
    command's, whatever the threads)."""
    from boardcore.cli.players import move_seed

    def play_one(index: int) -> Any:
        game = start.copy()
        while not game.is_over():
            game.play(players[game.to_move].choose(game, move_seed(seed, index, len(game.history))))
        return game

    with ThreadPoolExecutor(threads) as pool:
        return list(pool.map(play_one, range(first, first + count)))


def _records_only(game: str, variant: dict[str, Any] | None, games: list[Any]) -> SelfPlayData:
    """SelfPlayData of ``games`` without training rows (the move players make records only): the
    arrays have the variant's shapes and no rows."""
    shape, actions = _row_shapes(game, variant)
    return SelfPlayData(
        observations=np.zeros((0, *shape), np.float32),
        masks=np.zeros((0, actions), np.bool_),
        policies=np.zeros((0, actions), np.float32),
        players=np.zeros(0, np.uint8),
        outcomes=np.zeros(0, np.float32),
        game_ids=np.zeros(0, np.int64),
        move_numbers=np.zeros(0, np.int64),
        actions=np.zeros(0, np.int64),
        games=games,
        winners=[g.winner() for g in games],
    )


def _row_shapes(game: str, variant: dict[str, Any] | None) -> tuple[tuple[int, ...], int]:
    """The observation shape and action count of the variant's step form (Rive's step form is
    its single-stone form, whichever form its games are played in)."""
    state = _new_game(game, in_step_form(game, variant)).actions()
    return tuple(state.observation_shape), int(state.num_actions)


def _new_game(game: str, variant: dict[str, Any] | None) -> Any:
    if not isinstance(game, str):  # a ValueError, as for an unknown name (the API's promise)
        raise ValueError(f"game must be one of {', '.join(sorted(GAMES))}, got {game!r}")
    return new_game(game, variant)


class _Worker:
    """A Ray actor playing chunks. The evaluator comes with each chunk as a reference to one
    stored copy (in a list, so that Ray leaves it unresolved), fetched by the first chunk only."""

    def __init__(self, job: _Job) -> None:
        self.job = job
        self.evaluator: Any = None
        self.fetched = False

    def pid(self) -> int:
        """The actor's process id (for tests that kill it)."""
        return os.getpid()

    def play(self, first: int, count: int, chunk: int, shipped: list[Any]) -> SelfPlayData:
        if not self.fetched:
            import ray

            (self.evaluator,) = ray.get(shipped)
            self.fetched = True
        return self.job.play(first, count, chunk, self.evaluator)


def selfplay(
    game: str,
    variant: dict[str, Any] | None = None,
    *,
    games: int,
    seed: int = 0,
    chunk_games: int = 64,
    workers: int | None = None,
    threads_per_worker: int = 1,
    address: str | None = None,
    player: str | Sequence[str] = SEARCH_PLAYER,
    progress: bool | None = None,
    evaluator: Any = None,
    iterations: int = 100,
    batch_size: int | None = None,
    temperature: float = 1.0,
    temperature_moves: int | None = None,
    c_puct: float = PUCT_DEFAULTS["c_puct"],
    dirichlet_alpha: float | None = None,
    dirichlet_fraction: float = PUCT_DEFAULTS["dirichlet_fraction"],
    gumbel: bool = False,
    max_considered: int = PUCT_DEFAULTS["max_considered"],
    max_nodes: int = DEFAULT_MAX_NODES,
) -> SelfPlayData:
    """Plays ``games`` games of ``game`` on a Ray cluster and returns them as ``bc.mcts.selfplay``
    does (records and numpy training rows, games in order).

    The games are cut into chunks of ``chunk_games`` (the last one shorter); chunk ``c`` is
    exactly ``bc.mcts.selfplay(game, variant, games=len(chunk), seed=chunk_seed(seed, c),
    threads=threads_per_worker, <the search settings>)``, so the data depends on ``seed`` and
    ``chunk_games``, never on ``workers``. The chunks are played by ``workers`` Ray actors
    (default: the cluster's CPUs // ``threads_per_worker``), each reserving
    ``threads_per_worker`` CPUs. A worker that dies is restarted and replays its chunk (up to
    ``ACTOR_RESTARTS`` times); an exception of the evaluator is raised as it is.

    ``player``: ``"search"`` (the default) is ``bc.mcts.selfplay``'s search, guided by
    ``evaluator`` (a model as for ``bc.mcts.selfplay``, shipped to every actor: it must be
    picklable by cloudpickle) or, without one, by random rollouts; the other settings are
    ``bc.mcts.selfplay``'s. ``"random"``, ``"mcts"`` or ``"mcts:N"`` (or a pair, Black's and
    White's) are ``boardcore selfplay``'s move players, game ``i`` drawing exactly as that
    command does: they make records only (the arrays have no rows), and take no search settings.

    ``address``: None starts a local Ray instance (stopped at the end), ``"auto"`` joins the
    running cluster, any other string is given to ``ray.init(address=...)``; when Ray is already
    initialised in this process it is used as it is. ``progress``: a bar with games done,
    games/s and an ETA on stderr (None: only when stderr is a terminal).

    Every argument is checked before Ray is touched: a bad one raises the error
    ``bc.mcts.selfplay`` would (ValueError or TypeError) and nothing starts. Without Ray,
    ImportError.
    """
    settings = {
        "iterations": iterations,
        "batch_size": batch_size,
        "temperature": temperature,
        "temperature_moves": temperature_moves,
        "c_puct": c_puct,
        "dirichlet_alpha": dirichlet_alpha,
        "dirichlet_fraction": dirichlet_fraction,
        "gumbel": gumbel,
        "max_considered": max_considered,
        "max_nodes": max_nodes,
    }
    games = _integer("games", games, 1)
    chunk_games = _integer("chunk_games", chunk_games, 1, MAX_CHUNK_GAMES)
    if workers is not None:
        workers = _integer("workers", workers, 1)
    check_address(address)
    if progress is not None and not isinstance(progress, bool):
        raise TypeError(f"progress must be True, False or None, got {type(progress).__name__}")
    job = _checked_job(game, variant, player, evaluator, settings, seed, threads_per_worker)
    chunks = [(first, min(chunk_games, games - first)) for first in range(0, games, chunk_games)]

    _check_picklable(import_ray(), evaluator)
    with connect(address) as ray:
        workers = _worker_count(ray, workers, threads_per_worker, len(chunks))
        parts = _run(ray, job, evaluator, chunks, workers, threads_per_worker, progress)
    return SelfPlayData.concatenate(parts)


def _integer(name: str, value: Any, low: int, high: int | None = None) -> int:
    """``value`` if it is an integer in ``low..=high``; else the engine's kind of ValueError."""
    is_int = isinstance(value, int) and not isinstance(value, bool)
    in_range = is_int and low <= value and (high is None or value <= high)
    if not in_range:
        upper = f"to {high}" if high is not None else "or more"
        shown = repr(value) if is_int else f"{value!r} ({type(value).__name__})"
        raise ValueError(f"{name} must be an integer from {low} {upper}, got {shown}")
    return int(value)


def _checked_job(
    game: str,
    variant: dict[str, Any] | None,
    player: str | Sequence[str],
    evaluator: Any,
    settings: dict[str, Any],
    seed: int,
    threads: int,
) -> _Job:
    """The job, every argument checked by the code that will use it, on this machine, before
    anything starts: a bad game, variant, setting or seed raises here as in ``bc.mcts.selfplay``."""
    seed = _integer("seed", seed, 0, MASK64)
    threads = _integer("threads_per_worker", threads, 1)
    players = _move_players(player)
    if players is None:
        if evaluator is not None and not (callable(getattr(evaluator, "evaluate", None)) or callable(evaluator)):
            raise TypeError(
                "evaluator must have an evaluate(observations, masks) method or be callable, "
                f"got {type(evaluator).__name__}"
            )
        _integer("iterations", settings["iterations"], 0, MASK64)
        # One game without simulations and without the evaluator is a few milliseconds, and
        # checks the game, the variant and every other setting exactly as each chunk will.
        bc.mcts.selfplay(game, variant, games=1, seed=seed, threads=threads, **{**settings, "iterations": 0})
    else:
        defaults = {name: p.default for name, p in inspect.signature(selfplay).parameters.items() if name in settings}
        changed = sorted(name for name, value in settings.items() if value != defaults[name])
        if evaluator is not None or changed:
            given = ["evaluator"] * (evaluator is not None) + changed
            raise ValueError(f"{', '.join(given)}: search settings are for player='search', not for {player!r}")
        if _new_game(game, variant).is_over():
            raise ValueError("the start position is already over")
    return _Job(game, variant, players, settings, seed, threads)


def _move_players(player: str | Sequence[str]) -> tuple[Any, Any] | None:
    """None for the search player; else Black's and White's move players."""
    import argparse

    from boardcore.cli.players import parse_player

    if player == SEARCH_PLAYER:
        return None
    pair = [player, player] if isinstance(player, str) else list(player) if isinstance(player, (tuple, list)) else []
    if len(pair) != 2 or not all(isinstance(p, str) for p in pair):
        raise ValueError(f"player must be 'search', {MOVE_PLAYERS}, or a pair of the last three, got {player!r}")
    try:
        black, white = (parse_player(p) for p in pair)
    except argparse.ArgumentTypeError as error:
        raise ValueError(f"player must be 'search', {MOVE_PLAYERS}: {error}") from None
    if "human" in (black.kind, white.kind):
        raise ValueError(f"self-play is for computer players: player must be 'search' or {MOVE_PLAYERS}")
    return black, white


def _check_picklable(ray: Any, evaluator: Any) -> None:
    """The evaluator travels to the actors by cloudpickle: one that cannot is refused here, before
    anything starts, rather than by the first actor."""
    if evaluator is None:
        return
    try:
        ray.cloudpickle.dumps(evaluator)
    except Exception as error:
        raise TypeError(
            f"the evaluator is shipped to every Ray worker, so it must be picklable by cloudpickle; "
            f"{type(evaluator).__name__} is not: {error}"
        ) from error


def _worker_count(ray: Any, workers: int | None, threads: int, chunks: int) -> int:
    """``workers`` (default: as many as the cluster's CPUs hold), never more than the chunks."""
    cpus = int(ray.cluster_resources().get("CPU", 0))
    if threads > cpus:
        raise ValueError(f"threads_per_worker={threads} is more than the cluster's {cpus} CPUs: no worker would start")
    return max(1, min(workers or cpus // threads, chunks))


def _run(
    ray: Any,
    job: _Job,
    evaluator: Any,
    chunks: list[tuple[int, int]],
    workers: int,
    threads: int,
    progress: bool | None,
) -> list[SelfPlayData]:
    """Plays the chunks on ``workers`` actors, each given its next chunk as soon as it is done;
    returns the chunks' data in chunk order."""
    from boardcore.cli.progress import Progress

    remote = ray.remote(num_cpus=threads, max_restarts=ACTOR_RESTARTS, max_task_retries=ACTOR_RESTARTS)(_Worker)
    # Stored once, not once per actor or chunk, and held until the end. Given to the chunks
    # rather than to the actors' constructors: Ray warns that a restarted actor's constructor
    # arguments from the store may be gone, and a chunk's are kept for its retries.
    shipped = [ray.put(evaluator)]
    actors = [remote.remote(job) for _ in range(workers)]
    results: list[SelfPlayData | None] = [None] * len(chunks)
    pending: dict[Any, tuple[int, Any]] = {}
    waiting = list(range(len(chunks)))[::-1]  # popped from the end: chunk 0 first

    def give(actor: Any) -> None:
        chunk = waiting.pop()
        first, count = chunks[chunk]
        pending[actor.play.remote(first, count, chunk, shipped)] = (chunk, actor)

    total = sum(count for _, count in chunks)
    bar = Progress(total, "selfplay")
    if progress is not None:
        bar.enabled = progress
    try:
        with bar:
            for actor in actors[: len(waiting)]:
                give(actor)
            while pending:
                (ready,), _ = ray.wait(list(pending), num_returns=1)
                chunk, actor = pending.pop(ready)
                results[chunk] = _result(ray, ready)
                if waiting:
                    give(actor)
                played = bar.done + chunks[chunk][1]
                bar.advance(chunks[chunk][1], _rate(played, total, time.perf_counter() - bar.started))
    finally:
        for actor in actors:
            ray.kill(actor)
    return [part for part in results if part is not None]


def _result(ray: Any, ref: Any) -> SelfPlayData:
    """A chunk's data; an exception raised while playing it (the evaluator's) as it was raised."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as error:
        cause = getattr(error, "cause", None)
        if isinstance(cause, BaseException):
            raise cause from None
        raise
    except ray.exceptions.RayActorError as error:
        raise RuntimeError(
            f"a self-play worker died more than {ACTOR_RESTARTS} times (killed, out of memory, or its node lost): {error}"
        ) from error


def _rate(done: int, total: int, seconds: float) -> str:
    """``games/s`` and the time left at that rate, for the progress bar."""
    if done == 0 or seconds <= 0:
        return ""
    rate = done / seconds
    return f"{rate:,.1f} games/s, ETA {(total - done) / rate:.0f}s"
