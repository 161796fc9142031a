"""The perft counts of tests/data/perft (the same files the Rust tests read; README there): the
engine runs every entry but the deep ones (`slow` under -m slow), the twin the `twin` entries."""

from __future__ import annotations

import boardcore as bc
import boardcore.reference as ref
import pytest
from boardcore._games import GAMES
from perft_data import PerftEntry, perft_entries

CLASSES = {name: entry.engine.__name__ for name, entry in GAMES.items()}  # the registry's, by name


def cases() -> list:
    params = []
    for entry in perft_entries():
        marks = [pytest.mark.slow] if entry.tier == "slow" else []
        if entry.tier != "deep":
            params.append(pytest.param(bc, entry, marks=marks, id=f"engine-{entry.id}"))
        if entry.tier == "twin":
            params.append(pytest.param(ref, entry, id=f"twin-{entry.id}"))
    return params


def check(game, entry: PerftEntry, **kwargs) -> None:
    assert game.perft(entry.depth, **kwargs) == entry.leaves
    if entry.free is not None:
        assert game.perft(entry.depth, passes_count_as_ply=False, **kwargs) == entry.free


# Counts up to this many leaves are also checked on two threads (larger ones would only double the
# suite's time: test_reversi_perft.py compares threads on deep trees once).
THREADED_UP_TO = 1_000_000
TWIN_THREADED_UP_TO = 20_000  # the twin accepts `threads` and walks on one


@pytest.mark.parametrize("implementation,entry", cases())
def test_perft_matches_the_data_file(implementation, entry):
    game = getattr(implementation, CLASSES[entry.game]).from_position(entry.position)
    if entry.tier == "slow":
        check(game, entry, threads=2)
        return
    check(game, entry)
    if entry.leaves <= (THREADED_UP_TO if implementation is bc else TWIN_THREADED_UP_TO):
        check(game, entry, threads=2)


def test_every_game_has_data_and_the_tiers_are_used():
    entries = perft_entries()
    assert {e.game for e in entries} == set(CLASSES)
    assert {e.tier for e in entries} == {"", "twin", "slow", "deep"}
    for game in CLASSES:
        assert any(e.tier == "twin" for e in entries if e.game == game), game


def test_the_data_starts_are_the_games_starts():
    """Each file's position is a start the constructors make (the data says what it counts)."""
    starts = {bc.Reversi(s).position() for s in (4, 6, 8, 10, "octagon")} | {
        bc.Cephalopod(r, c).position() for r, c in ((2, 2), (3, 3), (3, 5), (5, 5))
    }
    starts |= {
        bc.Reversi(8, blocked=["b2", "g7"]).position(),
        bc.Reversi(8, handicap=2).position(),
        bc.Reversi(6, blocked=["a2", "f5"], handicap=1).position(),
        bc.Reversi(8, blocked="random", seed=7).position(),
    }
    starts |= {bc.Rive(b).position() for b in ("hex2", "hex3", "hex335")}
    starts |= {bc.Rive("hex3", swap=True).position(), bc.Rive("hex3", single_stones=True).position()}
    starts |= {bc.Strands("hex4", c).position() for c in ("up-to", "exact")}
    starts |= {bc.Strands("hex5", "exact").position(), bc.Strands("hex5-rings", "up-to").position()}
    assert {e.position for e in perft_entries()} == starts
