"""Distributed perft and divide on Ray: the frontier of the merged perft (``perft_frontier``) cut
into work units of a few seconds, each unit a Ray task (``perft_positions`` of its positions,
weighted by their path counts), the finished units appended to a checkpoint so that a run killed
at any moment resumes where it stopped (docs/distributed.md)."""

from __future__ import annotations

import math
import os
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import boardcore
from boardcore._games import GAMES, entry_of
from boardcore.distributed import checkpoint as ckpt
from boardcore.distributed._cluster import check_address, cluster_cpus, connect

MAX_DEPTH = 64
# The driver's timing of a sample of the frontier, to size the units: at most this long.
ESTIMATE_SECONDS = 0.5
ESTIMATE_SAMPLE = 32
# Units per CPU at least (when the frontier has that many positions), so that the last units'
# unevenness is a small part of the run; and units in flight per CPU, so that a worker finishing
# one has the next already queued.
UNITS_PER_CPU = 4
IN_FLIGHT_PER_CPU = 2


@dataclass(frozen=True)
class ProgressInfo:
    """What a ``progress`` callable receives after each finished unit (and once at the start).
    ``unit_cpu_seconds`` and ``unit_wall_seconds`` sum what the units finished in this run took,
    as each task measured it in its worker (CPU seconds of the worker process, wall seconds)."""

    units_done: int
    """Units finished, those read from the checkpoint included."""
    units_total: int
    """Units in the whole run."""
    leaves: int
    """Leaves counted so far, units read from the checkpoint included."""
    leaves_per_second: float
    """Leaves per second of this run (units read from the checkpoint excluded)."""
    eta_seconds: float | None
    """Seconds left at this run's rate; None until a unit has finished in this run."""
    elapsed_seconds: float
    """Wall seconds since this run started."""
    unit_cpu_seconds: float = 0.0
    """CPU seconds (``time.process_time`` of the worker process, all its threads) of the units
    finished in this run, as their tasks measured them. Over the run's wall time times the
    cluster's CPUs it is the run's parallel efficiency (benches/bench_distributed.py)."""
    unit_wall_seconds: float = 0.0
    """Wall seconds of the units finished in this run, as their tasks measured them."""


@dataclass(frozen=True)
class _Part:
    """One frontier: the whole tree's (perft) or one root move's (divide)."""

    move: str | None
    remaining: int
    positions: list[str]
    paths: list[int]


@dataclass(frozen=True)
class _Plan:
    kind: str
    game: str
    position: str
    depth: int
    passes: bool
    parts: list[_Part]
    n_units: int

    @property
    def n_items(self) -> int:
        return sum(len(part.positions) for part in self.parts)

    def unit(self, u: int) -> list[tuple[int, int, list[str], list[int]]]:
        """Unit ``u``: items u, u + n, u + 2n... of the parts' frontiers laid end to end (striding
        mixes cheap and dear positions evenly), as (part, plies below, positions, paths) groups."""
        groups, start = [], 0
        for index, part in enumerate(self.parts):
            first = (u - start) % self.n_units
            if first < len(part.positions):
                groups.append(
                    (index, part.remaining, part.positions[first :: self.n_units], part.paths[first :: self.n_units])
                )
            start += len(part.positions)
        return groups

    def header(self) -> dict[str, Any]:
        parts = [
            {"move": p.move, "remaining": p.remaining, "positions": p.positions, "paths": p.paths} for p in self.parts
        ]
        divide = self.kind == "divide"
        return {
            "format": ckpt.FORMAT,
            "version": ckpt.VERSION,
            "kind": self.kind,
            "game": self.game,
            "position": self.position,
            "depth": self.depth,
            "passes_count_as_ply": self.passes,
            "remaining": [p.remaining for p in self.parts] if divide else self.parts[0].remaining,
            "moves": [p.move for p in self.parts] if divide else None,
            "n_units": self.n_units,
            "plan": ckpt.plan_digest(parts, self.n_units),
        }


def perft(
    game: Any,
    depth: int,
    *,
    address: str | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    split_depth: int | str | None = "auto",
    unit_seconds: float = 5.0,
    threads_per_unit: int = 1,
    passes_count_as_ply: bool = True,
    max_retries: int = 3,
    progress: bool | Callable[[ProgressInfo], object] | None = None,
) -> int:
    """``game.perft(depth)`` counted on a Ray cluster, exactly.

    ``address``: None starts a local Ray instance, ``"auto"`` joins the cluster running here,
    ``"ray://host:10001"`` or ``"host:6379"`` another (a Ray initialised here is used as it is).
    The frontier ``game.perft_frontier(depth, split_depth)`` (``split_depth`` as in
    ``game.perft``: None or 0 is plain, one unit) is cut into units of about ``unit_seconds``,
    each a Ray task on ``threads_per_unit`` threads, retried ``max_retries`` times if its worker
    dies. ``checkpoint=PATH`` appends each finished unit (JSON lines, fsynced): the same call with
    the same file resumes a killed run, counting every unit once. ``progress``: a bar on stderr
    (None: when stderr is a terminal), or a callable receiving a ProgressInfo after each unit."""
    settings = _check_arguments(
        game,
        depth,
        address,
        checkpoint,
        split_depth,
        unit_seconds,
        threads_per_unit,
        passes_count_as_ply,
        max_retries,
        progress,
    )
    parts = [_Part(None, *game.perft_frontier(depth, split_depth, passes_count_as_ply))]
    totals = _run("perft", game, depth, parts, settings)
    return totals[0]


def divide(
    game: Any,
    depth: int,
    *,
    address: str | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    split_depth: int | str | None = "auto",
    unit_seconds: float = 5.0,
    threads_per_unit: int = 1,
    passes_count_as_ply: bool = True,
    max_retries: int = 3,
    progress: bool | Callable[[ProgressInfo], object] | None = None,
) -> dict[str, int]:
    """``game.divide(depth)`` on a Ray cluster: the leaves below each root move (move notation ->
    count, in move order). One frontier per root move, all their units in one plan; the arguments
    as in ``perft`` (``split_depth=k`` puts each move's frontier k plies below the root; None or 0:
    one unit per root move)."""
    settings = _check_arguments(
        game,
        depth,
        address,
        checkpoint,
        split_depth,
        unit_seconds,
        threads_per_unit,
        passes_count_as_ply,
        max_retries,
        progress,
    )
    if depth < 1:
        raise ValueError(f"divide: depth must be an integer from 1 to {MAX_DEPTH}, got {depth}")
    if split_depth is None:
        split_depth = 0  # plain, as in game.divide and game.perft (the arithmetic below needs a number)
    parts = []
    for move in game.legal_moves():
        child = game.copy()
        child.play(move)
        # A free pass (passes_count_as_ply=False) uses no ply, as in game.divide.
        below = depth if (not passes_count_as_ply and str(move) == "pass") else depth - 1
        split = min(max(split_depth - 1, 0), below) if isinstance(split_depth, int) else split_depth
        parts.append(_Part(str(move), *child.perft_frontier(below, split, passes_count_as_ply)))
    totals = _run("divide", game, depth, parts, settings)
    return {part.move: total for part, total in zip(parts, totals) if part.move is not None}


@dataclass(frozen=True)
class _Settings:
    address: str | None
    checkpoint: str | None
    unit_seconds: float
    threads_per_unit: int
    max_retries: int
    passes: bool
    progress: bool | Callable[[ProgressInfo], object] | None


def _check_arguments(
    game, depth, address, checkpoint, split_depth, unit_seconds, threads_per_unit, passes, max_retries, progress
) -> _Settings:
    """Every argument checked before anything starts (TypeError for a wrong kind, ValueError for
    a value out of range)."""
    if entry_of(game) is None or type(game) is not entry_of(game).engine:  # type: ignore[union-attr]
        names = ", ".join(entry.engine.__name__ for entry in GAMES.values())
        raise TypeError(f"game is a boardcore engine game ({names}), not {type(game).__name__}")
    if type(depth) is not int:
        raise TypeError(f"depth is an integer from 0 to {MAX_DEPTH}, not {depth!r}")
    if not 0 <= depth <= MAX_DEPTH:
        raise ValueError(f"depth is an integer from 0 to {MAX_DEPTH}, not {depth}")
    if split_depth is not None and split_depth != "auto":
        if type(split_depth) is not int:
            raise TypeError(f"split_depth is None, 'auto' or an integer from 0 to depth, not {split_depth!r}")
        if not 0 <= split_depth <= depth:
            raise ValueError(f"split_depth is from 0 to depth ({depth}), not {split_depth}")
    check_address(address)
    if checkpoint is not None and not isinstance(checkpoint, (str, os.PathLike)):
        raise TypeError(f"checkpoint is a file path, not {checkpoint!r}")
    if isinstance(unit_seconds, bool) or not isinstance(unit_seconds, (int, float)):
        raise TypeError(f"unit_seconds is a number of seconds, not {unit_seconds!r}")
    if not (math.isfinite(unit_seconds) and unit_seconds > 0):
        raise ValueError(f"unit_seconds is a positive number of seconds, not {unit_seconds}")
    for name, value, least in (("threads_per_unit", threads_per_unit, 1), ("max_retries", max_retries, 0)):
        if type(value) is not int:
            raise TypeError(f"{name} is an integer, not {value!r}")
        if value < least:
            raise ValueError(f"{name} is at least {least}, not {value}")
    if type(passes) is not bool:
        raise TypeError(f"passes_count_as_ply is True or False, not {passes!r}")
    if progress is not None and not isinstance(progress, bool) and not callable(progress):
        raise TypeError(f"progress is None, True, False or a callable, not {progress!r}")
    path = None if checkpoint is None else os.fspath(checkpoint)
    if path is not None and os.path.isdir(path):
        raise ValueError(f"checkpoint {path} is a directory, not a file")
    return _Settings(address, path, float(unit_seconds), threads_per_unit, max_retries, passes, progress)


def _run(kind: str, game: Any, depth: int, parts: list[_Part], settings: _Settings) -> list[int]:
    """Plans the units, resumes from the checkpoint if any, runs what is left: totals per part."""
    cls = type(game)

    def plan_with(n_units: int) -> _Plan:
        return _Plan(kind, cls.__name__, game.position(), depth, settings.passes, parts, n_units)

    n_items = sum(len(part.positions) for part in parts)
    if n_items == 0:  # divide of a finished game: no root move
        return [0] * len(parts)
    plan, opened = None, None
    if settings.checkpoint is not None:
        header = ckpt.read_header(settings.checkpoint)
        if header is not None:
            # Resuming: the units are those of the run that wrote the file (their count came from
            # that run's timing), and the file must be that run's in every other respect.
            n_units = header.get("n_units")
            plan = plan_with(n_units if type(n_units) is int and 1 <= n_units <= n_items else 1)
            opened = ckpt.open_checkpoint(settings.checkpoint, plan.header())
            if len(opened.done) == plan.n_units:
                opened.close()
                return _totals(opened.done, len(parts))
    try:
        with connect(settings.address) as ray:
            if plan is None:
                seconds = _estimate_seconds(cls, parts, settings.passes) / settings.threads_per_unit
                plan = plan_with(_unit_count(seconds, settings.unit_seconds, n_items, cluster_cpus(ray)))
                if settings.checkpoint is not None:
                    opened = ckpt.open_checkpoint(settings.checkpoint, plan.header())
            return _schedule(ray, cls, plan, opened, settings)
    finally:
        if opened is not None:
            opened.close()


def _totals(done: dict[int, list[int]], n_parts: int) -> list[int]:
    return [sum(leaves[part] for leaves in done.values()) for part in range(n_parts)]


def _unit_count(seconds: float, unit_seconds: float, n_items: int, cpus: int) -> int:
    """About ``unit_seconds`` a unit, but at least UNITS_PER_CPU units a CPU (as the frontier
    allows) and at most one unit a position."""
    wanted = max(math.ceil(seconds / unit_seconds), UNITS_PER_CPU * cpus, 1)
    return min(wanted, n_items)


def _estimate_seconds(cls: Any, parts: list[_Part], passes: bool) -> float:
    """Single-thread seconds for the whole frontier, from a sample of it timed on the driver at
    growing depths (at most ESTIMATE_SECONDS), extrapolated by the observed branching."""
    items = [(part.remaining, position) for part in parts for position in part.positions]
    step = max(len(items) // ESTIMATE_SAMPLE, 1)
    sample = items[::step][:ESTIMATE_SAMPLE]
    by_remaining: dict[int, list[str]] = {}
    for remaining, position in sample:
        by_remaining.setdefault(remaining, []).append(position)
    budget = ESTIMATE_SECONDS / len(by_remaining)
    per_item = sum(
        _seconds_below(cls, positions, remaining, passes, budget) for remaining, positions in by_remaining.items()
    )
    return per_item / len(sample) * len(items)


def _seconds_below(cls: Any, positions: list[str], remaining: int, passes: bool, budget: float) -> float:
    """Seconds of perft(remaining) of ``positions`` (one thread): measured depth after depth while
    the next depth fits the budget, then extrapolated by the last growth in leaves."""
    started = time.perf_counter()
    seconds, leaves_before = 0.0, 0
    for depth in range(1, remaining + 1):
        begun = time.perf_counter()
        leaves = cls.perft_positions(positions, depth, threads=1, passes_count_as_ply=passes)
        seconds = time.perf_counter() - begun
        growth = max(leaves / leaves_before, 1.0) if leaves_before else None
        leaves_before = leaves
        if growth is not None and depth < remaining and time.perf_counter() - started + seconds * growth > budget:
            return seconds * growth ** (remaining - depth)
    return seconds


def _unit_task(
    game_name: str, groups: list[tuple[int, int, list[str], list[int]]], n_parts: int, passes: bool, threads: int
) -> tuple[list[int], float, float]:
    """One work unit, on a worker: the weighted perft of each group, as leaves per part, with the
    CPU seconds (the worker process's, all threads) and wall seconds the unit took."""
    cls = getattr(boardcore, game_name)
    cpu_started, wall_started = time.process_time(), time.perf_counter()
    leaves = [0] * n_parts
    for part, remaining, positions, paths in groups:
        leaves[part] += cls.perft_positions(positions, remaining, paths, threads=threads, passes_count_as_ply=passes)
    return leaves, time.process_time() - cpu_started, time.perf_counter() - wall_started


def _schedule(ray: Any, cls: Any, plan: _Plan, opened: ckpt.Checkpoint | None, settings: _Settings) -> list[int]:
    """Runs the units not yet done as Ray tasks, at most IN_FLIGHT_PER_CPU a CPU at once, and
    records each as it finishes. An exception (Ctrl-C included) cancels what is outstanding; the
    checkpoint then holds every unit finished so far."""
    done = dict(opened.done) if opened is not None else {}
    todo = deque(u for u in range(plan.n_units) if u not in done)
    task = ray.remote(_unit_task).options(num_cpus=settings.threads_per_unit, max_retries=settings.max_retries)
    limit = max(IN_FLIGHT_PER_CPU * cluster_cpus(ray) // settings.threads_per_unit, 1)
    report = _Reporter(plan, done, settings.progress)
    in_flight: dict[Any, int] = {}
    try:
        with report:
            while todo or in_flight:
                while todo and len(in_flight) < limit:
                    unit = todo.popleft()
                    ref = task.remote(
                        cls.__name__, plan.unit(unit), len(plan.parts), plan.passes, settings.threads_per_unit
                    )
                    in_flight[ref] = unit
                ready, _ = ray.wait(list(in_flight), num_returns=1, timeout=1.0)
                for ref in ready:
                    unit = in_flight.pop(ref)
                    leaves, cpu_seconds, wall_seconds = ray.get(ref)
                    if opened is not None:
                        opened.record(unit, leaves)
                    done[unit] = leaves
                    report.unit_done(sum(leaves), cpu_seconds, wall_seconds)
    except BaseException:
        for ref in in_flight:
            ray.cancel(ref, force=True)
        raise
    return _totals(done, len(plan.parts))


class _Reporter:
    """Progress over units: the bar on stderr (boardcore.cli.progress) or the caller's callable."""

    def __init__(
        self, plan: _Plan, done: dict[int, list[int]], progress: bool | Callable[[ProgressInfo], object] | None
    ) -> None:
        from boardcore.cli.progress import Progress

        self.total = plan.n_units
        self.units = len(done)
        self.leaves = sum(sum(leaves) for leaves in done.values())
        self.units_at_start, self.leaves_at_start = self.units, self.leaves
        self.callback = progress if callable(progress) else None
        enabled = None if progress is None else (progress is True)
        self.bar = Progress(self.total, f"{plan.kind}({plan.depth})", enabled=enabled)
        self.bar.done = self.units
        self.started = time.perf_counter()
        self.unit_cpu_seconds = self.unit_wall_seconds = 0.0

    def __enter__(self) -> _Reporter:
        self.bar.__enter__()
        self._report()
        return self

    def __exit__(self, *exc: object) -> None:
        self.bar.__exit__(*exc)

    def unit_done(self, leaves: int, cpu_seconds: float, wall_seconds: float) -> None:
        self.units += 1
        self.leaves += leaves
        self.unit_cpu_seconds += cpu_seconds
        self.unit_wall_seconds += wall_seconds
        info = self._report()
        eta = "" if info.eta_seconds is None else f", ETA {info.eta_seconds:.0f}s"
        self.bar.advance(1, f"{info.leaves_per_second / 1e6:.1f} M leaves/s{eta}")

    def _report(self) -> ProgressInfo:
        elapsed = time.perf_counter() - self.started
        finished = self.units - self.units_at_start
        rate = (self.leaves - self.leaves_at_start) / elapsed if elapsed > 0 else 0.0
        eta = elapsed / finished * (self.total - self.units) if finished else None
        info = ProgressInfo(
            self.units, self.total, self.leaves, rate, eta, elapsed, self.unit_cpu_seconds, self.unit_wall_seconds
        )
        if self.callback is not None:
            self.callback(info)
        return info
