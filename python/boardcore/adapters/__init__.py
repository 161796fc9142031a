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

from boardcore._games import game_name, new_game, new_steps

__all__ = ["game_name", "missing_extra", "new_game", "new_steps", "state_text"]


def missing_extra(adapter: str, framework: str, extra: str, error: ImportError) -> ImportError:
    """The ImportError an adapter raises when its framework cannot be imported (not installed,
    or too old to have what the adapter uses): which adapter, what it needs and the extra that
    installs it, as ``boardcore.svg.save_png`` names ``[png]``. The original error is kept in
    the message, since an installed but older framework fails with another name missing."""
    message = f"{adapter} needs {framework}, which cannot be imported ({error}): pip install 'boardcore[{extra}]'"
    return ImportError(message, name=error.name)


def state_text(state) -> str:
    """The position, and for a Strands turn under way the cells covered so far: two states with
    different legal actions never read the same."""
    covered = getattr(state, "covered", ())
    return state.position() + (f" covering {','.join(covered)}" if covered else "")
