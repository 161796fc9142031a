"""Play well out of the box: an alpha-beta engine and an exact solver for every game.

    import boardcore as bc

    game = bc.Reversi(size=4)
    bc.ai.solve(game).score  # -10.0: White wins 4x4 by 11-3; 6x6 is -4 (16-20), in minutes
    hint = bc.ai.analyse(bc.Reversi(), time_limit=1.0)  # Analysis: score, move, pv, depth
    player = bc.ai.Player(level=5, seed=1)  # levels 1 (weak, plausible) to 10 (strongest)
    player.move(game)

The search is Rust (``rust/engine/src/search/``), the same code for all four games: iterative
deepening, principal variation search, a transposition table, killer and history ordering, and
each game's own endgame solver where it has one (Reversi's last empties). It releases the GIL,
answers Ctrl-C, and honours its time limit. docs/engine.md explains it; docs/solved.md lists the
positions solved with it.

Scores are margins for the side to move: Reversi's final disc difference with the empty squares
counted for the winner (the endgame suites' convention; holes are not squares), Cephalopod's
dice difference, Rive's stone difference, and for Strands the difference at the first place
where the two players' sorted group sizes differ.
"""

from __future__ import annotations

import dataclasses
import json
import math
import numbers
import operator
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import numpy as np

from boardcore._boardcore import (
    Evaluator,
    SearchReport,
    SearchTable,
    feature_names,
    search_position,
    splitmix64,
)
from boardcore._boardcore import features as _features
from boardcore._boardcore import phase as _phase
from boardcore._games import GAMES, Game, entry_of, game_name
from boardcore.mcts import search as _step_search

__all__ = [
    "LEVELS",
    "LEVEL_TIME_CAP",
    "Analysis",
    "Evaluator",
    "Iteration",
    "Player",
    "Progress",
    "SolveTimeout",
    "analyse",
    "evaluator",
    "feature_names",
    "features",
    "phase",
    "solve",
]

SCALE = 100
"""The engine's scores are hundredths of a point."""


class SolveTimeout(TimeoutError):
    """``solve`` reached its ``time_limit`` before the value was proved; ``.analysis`` holds the
    best estimate found by then."""

    def __init__(self, message: str, analysis: Analysis) -> None:
        super().__init__(message)
        self.analysis = analysis


@dataclass(frozen=True)
class Iteration:
    """One completed depth of the iterative deepening."""

    depth: int
    """Plies searched."""
    score: float
    """The score found at this depth (as ``Analysis.score``)."""
    exact: bool
    """Whether every line searched reached the end of the game."""
    pv: list[Any]
    """The principal variation at this depth."""
    nodes: int
    """Nodes searched so far, all depths included."""
    seconds: float
    """Time since the search started."""


@dataclass(frozen=True)
class Progress:
    """What a search running now has done: ``progress=`` callbacks of ``solve`` and ``analyse``
    get one about every half second, on the calling thread (an exception they raise stops the
    search and is raised by the call)."""

    depth: int | None
    """The iteration under way, in plies; for the solve itself, ``None`` (it goes to the end)."""
    solving: bool
    """True for the solve; False for a search, or the estimate a timed solve makes first."""
    nodes: int
    """Positions searched so far, the endgame solver's included (counted as it goes)."""
    seconds: float
    """Time since the call started."""
    score: float | None
    """The deepest completed iteration's score, if one has completed."""
    bound: float | None
    """The best value proved so far for the side to move in the iteration under way (its
    true value is at least this), where that iteration searches the full window: the solve,
    and the first depth of a search."""


def _progress_row(callback: Any) -> Any:
    """``callback`` as the engine calls it: with the report's fields, as one ``Progress``."""
    if callback is None:
        return None
    if not callable(callback):
        raise TypeError(f"progress must be a callable taking a Progress, got {type(callback).__name__}")

    def report(depth: int, solving: bool, nodes: int, seconds: float, score: int | None, bound: int | None) -> None:
        callback(
            Progress(
                depth=None if solving else depth,
                solving=solving,
                nodes=nodes,
                seconds=seconds,
                score=None if score is None else score / SCALE,
                bound=None if bound is None else bound / SCALE,
            )
        )

    return report


@dataclass(frozen=True)
class Analysis:
    """What a search found about a position, for its side to move."""

    value: int
    """+1 (the side to move wins), 0 (draw) or -1 (loses): proved when ``exact``, else the sign
    of the estimate."""
    score: float
    """The margin, a ``float`` always: a whole number of points when ``exact``, else an
    estimate in hundredths of a point."""
    move: Any
    """One best move (a legal move of the position)."""
    best_moves: list[Any]
    """Every optimal move when ``exact``; else ``[move]``."""
    pv: list[Any]
    """The principal variation, starting with ``move``: with ``exact``, a line of perfect play
    to the end of the game."""
    depth: int
    """The deepest completed iteration, in plies (moves of the position's own ``legal_moves``)."""
    nodes: int
    """Positions searched (the endgame solver's included)."""
    seconds: float
    """Time the search took."""
    exact: bool
    """Whether ``score`` and ``value`` are proved (a solve), not estimated."""
    iterations: list[Iteration] = field(default_factory=list, repr=False)
    """Each completed depth, in order (a solve goes straight to the end: one entry)."""


def _score(centi: int, exact: bool) -> float:
    # One type whatever the search proved, so that printing or comparing scores never depends
    # on whether the end was in reach (an exact score is a whole number of points).
    return float(centi // SCALE) if exact else centi / SCALE


def _analysis(report: SearchReport) -> Analysis:
    """The ``Analysis`` of the engine's ``SearchReport`` (its scores in hundredths of a point)."""
    points = _score(report.score, report.exact)
    return Analysis(
        value=(points > 0) - (points < 0) if report.exact else (report.score > 0) - (report.score < 0),
        score=points,
        move=report.best,
        best_moves=list(report.best_moves),
        pv=list(report.pv),
        depth=report.depth,
        nodes=report.nodes,
        seconds=report.seconds,
        exact=report.exact,
        iterations=[
            Iteration(it.depth, _score(it.score, it.exact), it.exact, list(it.pv), it.nodes, it.seconds)
            for it in report.iterations
        ],
    )


def _check_game(game: Any) -> None:
    if entry_of(game) is None:
        raise TypeError(f"game must be a boardcore game (bc.Reversi, ...), got {type(game).__name__}")


def solve(
    game: Game,
    *,
    threads: int = 1,
    time_limit: float | None = None,
    table_mb: int = 64,
    progress: Callable[[Progress], object] | None = None,
    best_moves: str = "all",
    threading: str = "split",
) -> Analysis:
    """The game-theoretic value of ``game``'s position, with the margin under perfect play, every
    optimal move and a line of perfect play (``.exact`` is True).

    ``best_moves="one"`` stops at the first optimal move found (``.best_moves`` holds it alone),
    as Edax and Zebra do: each other move then needs no proof that it falls short, which can
    cost more than the value itself (a won position whose every move must be refuted).

    Releases the GIL and answers Ctrl-C. ``time_limit`` (seconds) bounds the solve: reached
    before the proof, it raises ``SolveTimeout`` (whose ``.analysis`` holds the estimate).
    ``table_mb`` is the transposition table's size in MB (1 to 65,536, rounded down to a power
    of two; its memory is taken only as the search fills it, and a size past the machine's
    memory raises ``MemoryError`` naming it): the default suits positions a few seconds from solved, while a
    small board solved from its start (Cephalopod 2x4 or 3x3) needs gigabytes, or it searches
    the same positions again and again (docs/solved.md). Rive boards of up to 19 cells are
    solved by a memo of their own, one byte a position (2.3 GB on hex3), whatever the table.
    ``progress`` is called with a ``Progress`` about every half second while the solve runs.
    With a ``time_limit``, its first tenth goes to a deepening estimate (the table is shared):
    ``SolveTimeout.analysis`` is that estimate. ``threading`` says how ``threads`` share the
    work: ``"split"`` (the default) splits the root's moves among them, ``"lazy"`` runs lazy SMP
    (each thread searches the whole root, sharing the table; docs/engine.md, "Threads"). A
    finished game or a bad argument raises ``ValueError``. ``game`` is not changed.
    """
    _check_game(game)
    if best_moves not in ("all", "one"):
        raise ValueError(f"best_moves must be 'all' or 'one', got {best_moves!r}")
    report = search_position(
        game,
        solve=True,
        every_best=best_moves == "all",
        threads=threads,
        threading=threading,
        time_limit=time_limit,
        table_mb=table_mb,
        evaluator=_resolved(game, None),
        progress=_progress_row(progress),
    )
    analysis = _analysis(report)
    if not analysis.exact:
        raise SolveTimeout(f"not solved within time_limit={time_limit} s", analysis)
    return analysis


def analyse(
    game: Game,
    *,
    depth: int | None = None,
    time_limit: float | None = None,
    nodes: int | None = None,
    threads: int = 1,
    evaluator: Any | None = None,
    table_mb: int = 64,
    progress: Callable[[Progress], object] | None = None,
    threading: str = "split",
) -> Analysis:
    """A search of ``game``'s position within the limits given: ``depth`` (plies), ``time_limit``
    (seconds) and ``nodes``; with none of them, one second. It deepens one ply at a time and
    stops early, ``exact``, when every line it searched reached the end of the game (the search
    then is a solve: ``best_moves`` lists every optimal move).

    ``evaluator`` is a learned evaluation (``bc.ai.evaluator(...)``); None (the default) is the
    one shipped for the game, ``"linear"`` its linear weights alone, ``"material"`` the game's
    count of pieces. ``table_mb`` is the
    transposition table's size in MB, as for ``solve``; ``progress`` and ``threading`` as for
    ``solve``. A finished game or a bad limit raises ``ValueError``; ``game`` is not changed.
    """
    _check_game(game)
    if depth is None and time_limit is None and nodes is None:
        time_limit = 1.0
    report = search_position(
        game,
        depth=depth,
        nodes=nodes,
        time_limit=time_limit,
        threads=threads,
        threading=threading,
        evaluator=_resolved(game, evaluator),
        table_mb=table_mb,
        progress=_progress_row(progress),
    )
    return _analysis(report)


def evaluator(game_or_name: Game | str, *, kind: str = "shipped", **variant: Any) -> Evaluator:
    """The learned evaluation shipped for a game, evaluated in Rust: pass it as ``evaluator=``
    to ``analyse`` and ``Player``. It holds the linear weights of ``boardcore/data/eval/<game>.json``
    (``tools/train_eval.py``), which serve every board of the game, and for Reversi the pattern
    weights of the boards that have them (``reversi-patterns.json``, ``tools/train_patterns.py``;
    ``.pattern_boards`` lists them), with their Multi-ProbCut errors, and for the other games
    their local patterns when ``<game>-tuples.json`` is shipped (``tools/train_tuples.py``;
    ``.has_tuples`` says). ``kind="linear"`` leaves the patterns out (the evaluation they
    replaced). ``game_or_name`` is a game or its name;
    ``variant`` (the constructor's keyword arguments) is checked by building the game. A pattern
    file that is missing, truncated or of another format raises ValueError naming it
    (docs/engine.md, "Evaluations")."""
    if isinstance(game_or_name, str):
        name = game_name(game_or_name)
        GAMES[name].engine(**variant)  # a bad variant is refused as the constructor refuses it
    else:
        _check_game(game_or_name)
        if variant:
            raise TypeError("give variant options with a game's name, not with a game")
        name = type(game_or_name).__name__.lower()
    if kind not in ("shipped", "linear"):
        raise ValueError(f"kind must be 'shipped' or 'linear', got {_shown(kind)}")
    folder = resources.files("boardcore") / "data" / "eval"
    source = folder / f"{name}.json"
    if not source.is_file():
        raise FileNotFoundError(f"no learned evaluation is shipped for {name} ({source})")
    data = json.loads(source.read_text(encoding="utf-8"))
    linear = [float(w) for w in data["weights"]]
    patterns, probcut = _patterns(folder, name) if kind == "shipped" else ([], {})
    tuples = _tuples(folder, name) if kind == "shipped" else None
    shown = f"{name}.json" + "".join(f" + {name}-{board}.npz" for board, _, _ in patterns)
    shown += f" + {name}-tuples.npz" if tuples is not None else ""
    return Evaluator(name, linear, shown, patterns, probcut, tuples)


PATTERN_FORMAT = 1  # reversi/patterns.rs FORMAT
TUPLE_FORMAT = 1  # search/tuples.rs FORMAT


def _index(folder: Any, file: str, fmt: int, what: str) -> dict[str, Any] | None:
    """The weight index ``file`` in ``folder`` (None when it is not shipped), checked to be of
    format ``fmt``; ValueError naming it when it is unreadable or of another format."""
    index = folder / file
    if not index.is_file():
        return None
    try:
        meta: dict[str, Any] = json.loads(index.read_text(encoding="utf-8"))
    except ValueError as e:
        raise ValueError(f"{index}: not a {what} index ({e})") from None
    if meta.get("format") != fmt:
        raise ValueError(f"{index}: format {meta.get('format')!r}, this boardcore reads format {fmt}")
    return meta


def _weights(path: Any, what: str) -> Any:
    """The float32 ``weights`` array of the ``.npz`` file ``path``; ValueError naming it when it
    is missing or truncated: never a silent fallback to the linear weights."""
    try:
        with path.open("rb") as f, np.load(f) as data:
            return np.ascontiguousarray(data["weights"], dtype=np.float32).ravel()
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as e:
        raise ValueError(f"{path}: unreadable {what} weights ({type(e).__name__}: {e})") from None


def _tuples(folder: Any, name: str) -> Any:
    """The local-pattern weights shipped for a game (``<game>-tuples.json`` and the ``.npz``
    file it names, ``tools/train_tuples.py``), as ``Evaluator`` takes them; None for a game
    without. A file that is missing, truncated or of another format raises ValueError naming
    it."""
    meta = _index(folder, f"{name}-tuples.json", TUPLE_FORMAT, "local-pattern")
    return None if meta is None else _weights(folder / meta["file"], "local-pattern")


def _patterns(folder: Any, name: str) -> tuple[list[tuple[str, int, Any]], dict[str, list[float]]]:
    """The pattern weights shipped for a game's boards (``<game>-patterns.json`` and the
    ``.npz`` files it names) and their Multi-ProbCut errors by board, as ``Evaluator`` takes
    them; none for a game without. A file that is missing, truncated or of another format
    raises ValueError naming it."""
    meta = _index(folder, f"{name}-patterns.json", PATTERN_FORMAT, "pattern")
    if meta is None:
        return [], {}
    boards = meta["boards"].items()
    out = [(board, int(e["stages"]), _weights(folder / e["file"], "pattern")) for board, e in boards]
    probcut = {board: [float(x) for x in e["probcut"]] for board, e in boards if e.get("probcut")}
    return out, probcut


_SHIPPED: dict[tuple[str, str], Evaluator] = {}
EVALUATOR_NAMES = ("material", "linear")


def _resolved(game: Game, evaluator: Any) -> Evaluator | None:
    """``evaluator`` as the search takes it, for ``analyse``, ``solve`` and ``Player`` alike (the
    one place the argument is read): None is the game's shipped learned evaluation, loaded once
    and shared; ``"linear"`` its linear weights alone (the evaluation before the patterns, kept
    to measure them against); ``"material"`` the game's count of pieces (the search's own estimate, passed as
    None); an ``Evaluator`` itself. Anything else raises TypeError, or ValueError for an unknown
    name."""
    _check_evaluator(evaluator)
    if evaluator is None or evaluator == "linear":
        kind = "shipped" if evaluator is None else "linear"
        key = (type(game).__name__.lower(), kind)
        if key not in _SHIPPED:
            _SHIPPED[key] = globals()["evaluator"](key[0], kind=kind)
        return _SHIPPED[key]
    if isinstance(evaluator, str):  # "material"
        return None
    return evaluator


def _check_evaluator(evaluator: Any) -> None:
    """Raises unless ``evaluator`` is one ``_resolved`` takes (a Player checks it when made)."""
    if evaluator is None or isinstance(evaluator, Evaluator):
        return
    if isinstance(evaluator, str):
        if evaluator not in EVALUATOR_NAMES:
            raise ValueError(
                f"evaluator must be one of {EVALUATOR_NAMES}, an Evaluator or None, got {_shown(evaluator)}"
            )
        return
    raise TypeError(
        f"evaluator must be bc.ai.evaluator(...), a name {EVALUATOR_NAMES} or None, got {type(evaluator).__name__}"
    )


def features(game: Game) -> Any:
    """The features of ``game``'s position the learned evaluation reads (numpy float32, from
    the side to move's view; ``feature_names`` names them)."""
    _check_game(game)
    return _features(game)


def phase(game: Game) -> int:
    """The phase of ``game``'s position: which of the evaluation's weight vectors applies."""
    _check_game(game)
    return _phase(game)[0]


@dataclass(frozen=True)
class _Level:
    depth: int | None
    noise: float
    """Amplitude of the uniform noise added to every evaluation, in points."""
    time_limit: float | None = None


LEVEL_TIME_CAP = 1.0
"""Seconds a move that no level exceeds: a level's depth is reached well inside it on most
positions, but not where the move lists are huge (Strands' compound moves, where depth 3 alone
can take minutes), and a difficulty setting must never leave its user waiting."""

LEVELS: dict[int, _Level] = {
    1: _Level(1, 10.0, LEVEL_TIME_CAP),
    2: _Level(1, 3.0, LEVEL_TIME_CAP),
    3: _Level(2, 6.0, LEVEL_TIME_CAP),
    4: _Level(2, 1.0, LEVEL_TIME_CAP),
    5: _Level(3, 0.6, LEVEL_TIME_CAP),
    6: _Level(4, 0.3, LEVEL_TIME_CAP),
    7: _Level(5, 0.15, LEVEL_TIME_CAP),
    8: _Level(6, 0.0, LEVEL_TIME_CAP),
    9: _Level(8, 0.0, LEVEL_TIME_CAP),
    10: _Level(None, 0.0, LEVEL_TIME_CAP),
}
"""The levels: search depth and evaluation noise (docs/engine.md, "Levels", has the ladder
measured between them), each within ``LEVEL_TIME_CAP`` seconds a move. Level 10 searches as
deep as that time allows. A ``time_limit`` given to ``Player`` replaces the cap."""

_MASK64 = (1 << 64) - 1

_PROOF_SHARE = 0.15
"""The share of a turn's time the alpha-beta search gets first, to prove the end when it is
near (then its exact move is played) and to estimate the score."""


def _searched_turn(game: Game, time_limit: float, c_puct: float, seed: int, threads: int) -> Analysis:
    """A whole turn chosen by PUCT with random rollouts over ``game``'s step form within
    ``time_limit`` seconds, after an alpha-beta search that plays itself where it is exact.
    ``seed`` is the player's: each search of the turn draws from it mixed with the ply."""
    start = time.perf_counter()
    deadline = start + time_limit
    estimate = _analysis(search_position(game, time_limit=_PROOF_SHARE * time_limit, threads=threads))
    if estimate.exact:
        return estimate
    state = game.actions()
    mover, cells, simulations, share = state.to_move, [], 0, 0.8
    ply_seed = _mix(seed, len(game.history))
    # Most of the time goes to one search, whose most visited line is the turn; where that
    # line stops short of the turn's end, a search from there shares what time is left.
    while not state.is_over() and state.to_move == mover:
        left = max(deadline - time.perf_counter(), 1e-4)
        found = _step_search(state, 10**12, time_limit=share * left, c_puct=c_puct, seed=(ply_seed + simulations) & _MASK64, threads=threads)  # fmt: skip
        simulations += found.simulations + 1
        share = 0.5
        for action in found.turn:
            where = state.action_cell(action)
            state.apply_action(action)
            if where is not None:
                cells.append(where[0])
    played = game.copy()
    played.play(",".join(cells))
    turn = played.history[-1]
    return dataclasses.replace(
        estimate, move=turn, best_moves=[turn], pv=[turn], nodes=estimate.nodes + simulations,
        seconds=time.perf_counter() - start,
    )  # fmt: skip


def _mix(seed: int, ply: int) -> int:
    """The seed of one ply (SplitMix64's output ``ply + 1`` from ``seed``, drawn in Rust): each
    ply of a game draws its own noise."""
    return splitmix64(seed, ply + 1)


_MAX_DEPTH = 250
"""The deepest search (plies) a ``depth`` may ask for."""

_MAX_THREADS = 1024
"""The most threads a search accepts; with a time limit it runs no more than the machine's
cores (docs/engine.md, "Threads")."""


def _integer_in(value: Any, low: int, high: int) -> int | None:
    """``value`` as an integer (a Python or numpy integer, never a bool) if it lies in
    ``[low, high]``, else None."""
    if isinstance(value, bool) or type(value).__name__ in ("bool_", "bool"):
        return None
    try:
        number = operator.index(value)
    except TypeError:
        return None
    return number if low <= number <= high else None


def _is_seconds(value: Any) -> bool:
    """Whether ``value`` is a finite number of seconds > 0: a real number (Python's or numpy's),
    never a bool or a string."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return False
    try:
        return 0 < float(value) < math.inf
    except OverflowError:  # an int beyond the largest float
        return False


def _shown(value: Any) -> str:
    """``value`` for a message: its repr, or its size for an int too long to print."""
    try:
        text = repr(value)
    except ValueError:  # an int past Python's digit limit
        return f"an integer of {value.bit_length()} bits"
    return text if len(text) <= 80 else text[:77] + "..."


class Player:
    """A computer player for any game: ``Player(level=1..10)``, or a search of a given
    ``depth`` and/or ``time_limit`` (seconds a move). With nothing given, the strongest level.

    Weaker levels add noise to the evaluation, so they play plausible moves, not random ones;
    the noise is drawn from ``seed`` (None: 0) and the ply, so a game between players with seeds
    replays exactly (a time limit, and a level's ``LEVEL_TIME_CAP`` where it stops the search
    before the level's depth, make the depth reached, and so the move, depend on the machine:
    use ``depth`` for exact replays). ``threads`` splits each search's root;
    ``evaluator`` as for ``analyse`` (default: the game's shipped learned evaluation).

    On Strands, the timed player (level 10, or ``time_limit`` without ``depth``) builds each turn
    by a Monte Carlo search over the step form, which measured far stronger there than
    alpha-beta over its thousands of compound turns (docs/engine.md, "Levels").

    A timed player without noise (level 10, or ``time_limit`` without ``depth``) keeps its
    transposition table (64 MB, taken as it is used) from one move to the next, as an engine
    does: each search starts from what the last one learnt, and a short search does not pay
    for a fresh table (docs/engine.md, "Tables"). A depth-limited or noisy player starts each
    search afresh, so its move depends on the position alone.
    """

    def __init__(
        self,
        *,
        level: int | None = None,
        time_limit: float | None = None,
        depth: int | None = None,
        seed: int | None = None,
        threads: int | None = 1,
        evaluator: Any | None = None,
    ) -> None:
        if level is not None and _integer_in(level, 1, 10) is None:
            raise ValueError(f"level must be an integer from 1 to 10, got {_shown(level)}")
        if depth is not None and _integer_in(depth, 1, _MAX_DEPTH) is None:
            raise ValueError(f"depth must be an integer from 1 to {_MAX_DEPTH}, got {_shown(depth)}")
        if time_limit is not None and not _is_seconds(time_limit):
            raise ValueError(f"time_limit must be a number of seconds > 0, got {_shown(time_limit)}")
        if seed is not None and _integer_in(seed, 0, _MASK64) is None:
            raise ValueError(f"seed must be an integer from 0 to 2**64-1, got {_shown(seed)}")
        _check_evaluator(evaluator)
        if threads is None:
            threads = 1
        if _integer_in(threads, 1, _MAX_THREADS) is None:
            raise ValueError(f"threads must be an integer from 1 to {_MAX_THREADS}, got {_shown(threads)}")
        chosen = LEVELS[level if level is not None else 10]
        if level is None and (depth is not None or time_limit is not None):
            chosen = _Level(depth, 0.0, time_limit)
        self.level = None if level is None else operator.index(level)
        self.depth = operator.index(depth) if depth is not None else chosen.depth
        self.time_limit = time_limit if time_limit is not None else chosen.time_limit
        self.noise = chosen.noise
        self.seed = 0 if seed is None else operator.index(seed)
        self.threads = operator.index(threads)
        self.evaluator = evaluator
        self._table: SearchTable | None = None

    def __repr__(self) -> str:
        return f"Player(level={self.level}, depth={self.depth}, time_limit={self.time_limit}, seed={self.seed})"

    def analyse(self, game: Game) -> Analysis:
        """The search this player makes in ``game``'s position."""
        _check_game(game)
        # A timed player without its own depth or evaluator is the strongest: on a game with a
        # turn search (the registry's turn_search_c_puct) that is the step-form search.
        c_puct = entry_of(game).turn_search_c_puct  # type: ignore[union-attr]  # checked above
        if c_puct is not None and self.time_limit is not None and self.depth is None and self.evaluator is None:
            return _searched_turn(game, self.time_limit, c_puct, self.seed, self.threads)
        report = search_position(
            game,
            depth=self.depth,
            time_limit=self.time_limit,
            threads=self.threads,
            noise=round(self.noise * SCALE),
            seed=_mix(self.seed, len(game.history)),
            evaluator=_resolved(game, self.evaluator),
            table=self._kept_table(),
        )
        return _analysis(report)

    def _kept_table(self) -> SearchTable | None:
        """The table this player keeps between moves (see the class), made at its first use."""
        if self.depth is not None or self.noise != 0:
            return None
        if self._table is None:
            self._table = SearchTable()
        return self._table

    def move(self, game: Game) -> Any:
        """This player's move in ``game``'s position (a finished game raises ``ValueError``)."""
        return self.analyse(game).move
