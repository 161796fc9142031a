"""Adapters to other frameworks, each an optional extra:

- ``boardcore.adapters.pettingzoo``: a PettingZoo AEC environment per game
  (``pip install 'boardcore[pettingzoo]'``);
- ``boardcore.adapters.openspiel``: the four games registered with OpenSpiel as
  ``boardcore_reversi``, ``boardcore_cephalopod``, ``boardcore_rive`` and ``boardcore_strands``
  (``pip install 'boardcore[openspiel]'``);
- ``boardcore.adapters.gymnasium``: a single-agent ``gymnasium.Env`` against a fixed opponent
  (``make``) and a ``gymnasium.vector.VectorEnv`` over the native ``VectorEnv`` (``make_vector``)
  (``pip install 'boardcore[gymnasium]'``).

- ``boardcore.adapters.sb3``: a Stable-Baselines3 ``VecEnv`` over the native ``VectorEnv``
  (``pip install 'boardcore[sb3]'``).

Importing an adapter without its framework raises an ImportError naming the extra to install
(``missing_extra``).

All drive the games' step form (``game.actions()``, docs/actions.md): integer actions, a legal
action mask and observation planes. The step form says what its planes are
(``observation_planes``) and shows them from either player's side (``observation(player)``), so
no game's planes are written here.
"""

from __future__ import annotations

import boardcore as bc


def missing_extra(adapter: str, framework: str, extra: str, error: ImportError) -> ImportError:
    """The ImportError an adapter raises when its framework cannot be imported (not installed,
    or too old to have what the adapter uses): which adapter, what it needs and the extra that
    installs it, as ``boardcore.svg.save_png`` names ``[png]``. The original error is kept in
    the message, since an installed but older framework fails with another name missing."""
    message = f"{adapter} needs {framework}, which cannot be imported ({error}): pip install 'boardcore[{extra}]'"
    return ImportError(message, name=error.name)


GAMES = {"reversi": bc.Reversi, "cephalopod": bc.Cephalopod, "rive": bc.Rive, "strands": bc.Strands}


def game_name(name: str) -> str:
    """The game's canonical (lower-case) name: read in any case, as ``bc.VectorEnv`` and board
    names read it (``"Reversi"``, ``"REVERSI"``). ValueError for an unknown name, TypeError for
    anything but a string."""
    if not isinstance(name, str):
        if isinstance(name, type) and name.__name__.lower() in GAMES:  # bc.Reversi or its twin
            raise TypeError(f"game must be a string: pass the game's name, {name.__name__.lower()!r}, not the class")
        raise TypeError(f"game must be a string (one of {', '.join(sorted(GAMES))}), got {type(name).__name__}")
    if name.lower() not in GAMES:
        raise ValueError(f"game must be one of {', '.join(sorted(GAMES))}, got {name!r}")
    return name.lower()


def new_game(name: str, variant: dict):
    """The boardcore game ``name`` (in any case) with the constructor's keyword arguments ``variant``."""
    return GAMES[game_name(name)](**variant)


# The step form's options a variant may hold beside the constructor's keyword arguments, read
# as `bc.VectorEnv` and `bc.mcts.selfplay` read them: Strands' `any_order`.
STEP_OPTIONS = {"strands": ("any_order",)}


def new_steps(name: str, variant: dict):
    """The start of game ``name`` (in any case) in step form: ``variant`` holds the constructor's
    keyword arguments and the step form's options (``STEP_OPTIONS``), which go to ``actions()``."""
    arguments = dict(variant)
    options = {key: arguments.pop(key) for key in STEP_OPTIONS.get(game_name(name), ()) if key in arguments}
    return new_game(name, arguments).actions(**options)


def state_text(state) -> str:
    """The position, and for a Strands turn under way the cells covered so far: two states with
    different legal actions never read the same."""
    covered = getattr(state, "covered", ())
    return state.position() + (f" covering {','.join(covered)}" if covered else "")
