"""The games boardcore plays, in one table: every part of the package that picks a game by its
name (the adapters, the command line, distributed self-play, ``bc.ai``, records) and the tools,
fuzzers and tests read it here, so that a game is added in one place (CONTRIBUTING.md).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

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


@dataclass(frozen=True)
class GameEntry:
    """What the package knows of one game beyond its class."""

    name: str
    """Its canonical name, lower case: the name records, ``VectorEnv`` and the adapters take."""
    engine: type[Any]
    """The Rust engine's class (``bc.Reversi``)."""
    twin: str
    """The name of its pure-Python twin in ``boardcore.reference`` (imported on first use:
    ``twin_class``)."""
    searcher: type[Any]
    """Its reusable Monte Carlo searcher's class (``bc.mcts.Searcher`` builds one)."""
    small: dict[str, Any]
    """A small variant of it with its real rules, quick to play to the end (tests, examples)."""
    step_form_variant: dict[str, Any] = field(default_factory=dict)
    """The variant options the step form implies (Rive's is its single-stone form:
    ``single_stones=True``), which games played in the step form take (``played_in_steps``)."""
    step_options: tuple[str, ...] = ()
    """Options of ``actions()`` a variant may hold beside the constructor's keyword arguments
    (Strands' ``any_order``), read as ``bc.VectorEnv`` and ``bc.mcts.selfplay`` read them."""
    material: str = ""
    """The name of its piece-count feature in the learned evaluation (``bc.ai.features``)."""
    phases: int = 8
    """The learned evaluation's phases (``Features::PHASES`` in its ``features.rs``)."""
    local_patterns: bool = True
    """Whether its pattern evaluation is the local patterns read around every cell
    (``search/tuples.rs``, ``tools/train_tuples.py``); Reversi's are its own, board by board
    (``reversi/patterns.rs``, ``tools/train_patterns.py``)."""
    quick_solve_empties: int = 0
    """Empty squares or cells past which an exact solve can take long (docs/solved.md): about a
    minute on one core at this count, hours a few beyond it."""
    cell_noun: str = "cells"
    """What its board's places are called in messages: ``squares`` or ``cells`` (hexes)."""
    turn_search_c_puct: float | None = None
    """For a game whose timed player (level 10, ``Player(time_limit=...)``) chooses each turn by
    a Monte Carlo search over the step form rather than by alpha-beta over the compound moves,
    the PUCT constant measured best for it (docs/design.md, "Search and solver": on Strands the
    alpha-beta search reaches one or two turns of tens of thousands of moves, and loses to a
    rollout search that builds a turn cell by cell)."""

    def twin_class(self) -> type[Any]:
        """The twin's class (``boardcore.reference.Reversi``)."""
        return getattr(importlib.import_module("boardcore.reference"), self.twin)


GAMES: dict[str, GameEntry] = {
    entry.name: entry
    for entry in (
        GameEntry(
            "reversi",
            Reversi,
            "Reversi",
            ReversiSearcher,
            {"size": 6},
            material="discs",
            phases=10,
            local_patterns=False,
            quick_solve_empties=24,
            cell_noun="squares",
        ),
        GameEntry(
            "cephalopod",
            Cephalopod,
            "Cephalopod",
            CephalopodSearcher,
            {"rows": 3, "cols": 3},
            material="dice",
            quick_solve_empties=6,
            cell_noun="squares",
        ),
        GameEntry(
            "rive",
            Rive,
            "Rive",
            RiveSearcher,
            {"board": "hex3"},
            step_form_variant={"single_stones": True},
            material="stones",
            quick_solve_empties=12,
        ),
        GameEntry(
            "strands",
            Strands,
            "Strands",
            StrandsSearcher,
            {"layout": "hex4"},
            step_options=("any_order",),
            material="largest",
            quick_solve_empties=16,
            turn_search_c_puct=4.0,
        ),
    )
}
"""Every game by its canonical name, in the order the docs list them."""

Game = Reversi | Cephalopod | Rive | Strands
"""Any engine's game object, for annotations."""


def game_name(name: str) -> str:
    """The game's canonical (lower-case) name: read in any case (``"Reversi"``, ``"REVERSI"``).
    ValueError for an unknown name, TypeError for anything but a string."""
    if not isinstance(name, str):
        if isinstance(name, type) and name.__name__.lower() in GAMES:  # bc.Reversi or its twin
            raise TypeError(f"game must be a string: pass the game's name, {name.__name__.lower()!r}, not the class")
        raise TypeError(f"game must be a string (one of {', '.join(sorted(GAMES))}), got {type(name).__name__}")
    if name.lower() not in GAMES:
        raise ValueError(f"game must be one of {', '.join(sorted(GAMES))}, got {name!r}")
    return name.lower()


def entry(name: str) -> GameEntry:
    """The table's entry for ``name`` (in any case); errors as ``game_name``."""
    return GAMES[game_name(name)]


def entry_of(game: Any) -> GameEntry | None:
    """The entry of an engine's game object (``bc.Reversi()``), or None for anything else (a
    twin's game included)."""
    found = GAMES.get(type(game).__name__.lower())
    return found if found is not None and isinstance(game, found.engine) else None


def new_game(name: str, variant: dict[str, Any] | None = None) -> Any:
    """The boardcore game ``name`` (in any case) with the constructor's keyword arguments ``variant``."""
    if variant is not None and not isinstance(variant, dict):
        raise TypeError(f"variant must be a dict of the game's constructor arguments, got {type(variant).__name__}")
    return entry(name).engine(**(variant or {}))


def in_step_form(name: Any, variant: dict[str, Any] | None) -> dict[str, Any] | None:
    """``variant`` with the options the step form implies (``step_form_variant``), whatever it
    said: the variant whose step form has the shapes of the game's (Rive's step form is its
    single-stone form, whichever form its games are played in)."""
    if not isinstance(name, str) or name.lower() not in GAMES or not isinstance(variant, dict | None):
        return variant
    implied = GAMES[name.lower()].step_form_variant
    return {**(variant or {}), **implied} if implied else variant


def played_in_steps(name: Any, variant: dict[str, Any] | None) -> dict[str, Any] | None:
    """``variant`` as games played in the step form take it (self-play, local or on Ray): with
    the options the step form implies (``step_form_variant``); ValueError where ``variant``
    says otherwise. A name that is no game's, or a variant that is no dict, is left for the
    engine to refuse."""
    if not isinstance(variant, dict | None):
        return variant  # not a variant: the engine refuses it, with its own message
    implied = GAMES[name.lower()].step_form_variant if isinstance(name, str) and name.lower() in GAMES else {}
    for key, value in implied.items():
        if (variant or {}).get(key, value) != value:
            raise ValueError(f"{name} self-play plays the step form, in which {key}={value!r}: {key} must be {value!r}")
    return in_step_form(name, variant)


def new_steps(name: str, variant: dict[str, Any] | None = None) -> Any:
    """The start of game ``name`` (in any case) in step form: ``variant`` holds the constructor's
    keyword arguments and the step form's options (``step_options``), which go to ``actions()``."""
    arguments = dict(variant or {})
    options = {key: arguments.pop(key) for key in entry(name).step_options if key in arguments}
    return new_game(name, arguments).actions(**options)
