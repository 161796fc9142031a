"""Adapters to other frameworks, each an optional extra:

- ``boardcore.adapters.pettingzoo``: a PettingZoo AEC environment per game
  (``pip install 'boardcore[pettingzoo]'``);
- ``boardcore.adapters.openspiel``: the four games registered with OpenSpiel as
  ``boardcore_reversi``, ``boardcore_cephalopod``, ``boardcore_rive`` and ``boardcore_strands``
  (``pip install 'boardcore[openspiel]'``).

Both drive the games' step form (``game.actions()``, docs/actions.md): integer actions, a legal
action mask and observation planes.
"""

from __future__ import annotations

import boardcore as bc

GAMES = {"reversi": bc.Reversi, "cephalopod": bc.Cephalopod, "rive": bc.Rive, "strands": bc.Strands}

# The planes of the side to move and of its opponent in each game's observation (docs/actions.md):
# swapping them gives the other player's view.
PLAYER_PLANES = {
    "reversi": (slice(0, 1), slice(1, 2)),
    "cephalopod": (slice(0, 6), slice(6, 12)),
    "rive": (slice(0, 1), slice(1, 2)),
    "strands": (slice(0, 1), slice(1, 2)),
}


def new_game(name: str, variant: dict):
    """The boardcore game ``name`` with the constructor's keyword arguments ``variant``."""
    try:
        make = GAMES[name]
    except KeyError:
        raise ValueError(f"game must be one of {', '.join(sorted(GAMES))}, got {name!r}") from None
    return make(**variant)


def state_text(state) -> str:
    """The position, and for a Strands turn under way the cells covered so far: two states with
    different legal actions never read the same."""
    covered = getattr(state, "covered", ())
    return state.position() + (f" covering {','.join(covered)}" if covered else "")


def observation_of(name: str, state, player: int):
    """``state``'s observation from ``player``'s side (the engine gives the side to move's)."""
    planes = state.observation()
    if player == state.to_move:
        return planes
    mine, theirs = PLAYER_PLANES[name]
    swapped = planes.copy()
    swapped[mine], swapped[theirs] = planes[theirs], planes[mine]
    return swapped
