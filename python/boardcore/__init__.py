"""boardcore: rule-exact, fast engines for abstract board games.

Every game shares one protocol (``legal_moves``, ``play``, ``undo``, ``position``,
``perft``...); the engines are Rust, and ``boardcore.reference`` holds a pure-Python twin of
each with the same API, used to cross-check them.
"""

# Private names: the package's namespace holds the library alone (dir(bc), tab completion).
from typing import TYPE_CHECKING as _TYPE_CHECKING

from boardcore import ai, mcts, svg

if _TYPE_CHECKING:  # imported on first use (below); typed as a plain import
    from boardcore import distributed

# The step form and vectorized environments (docs/actions.md).
from boardcore._boardcore import (
    Cephalopod,
    CephalopodActions,
    CephalopodMove,
    ConcurrentUseError,
    IllegalMoveError,
    NotationError,
    PathCounts,
    Reversi,
    ReversiActions,
    ReversiMove,
    Rive,
    RiveActions,
    RiveMove,
    RiveMoveIterator,
    Strands,
    StrandsActions,
    StrandsMove,
    StrandsMoveIterator,
    VectorEnv,
    VectorReset,
    VectorStep,
    __version__,
    code_path,
)
from boardcore.pieces import BLACK, CUT, HOLE, WHITE, Blocked, Color, Piece
from boardcore.records import load_record, load_records


def __getattr__(name: str) -> object:
    """``bc.distributed`` is imported on first use: it is the largest part of the package and
    only Ray runs need it, so ``import boardcore`` (and the command line's start) is quicker."""
    if name == "distributed":
        import importlib

        return importlib.import_module("boardcore.distributed")  # also binds bc.distributed
    raise AttributeError(f"module 'boardcore' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public names (``__all__`` and the submodules imported so far) and the module's
    dunders, without the private helpers."""
    return sorted(set(__all__) | {name for name in globals() if not name.startswith("_") or name.startswith("__")})


__all__ = [
    "BLACK",
    "__version__",
    "WHITE",
    "Color",
    "Cephalopod",
    "CephalopodMove",
    "ConcurrentUseError",
    "IllegalMoveError",
    "NotationError",
    "PathCounts",
    "Reversi",
    "ReversiMove",
    "Rive",
    "RiveMove",
    "RiveMoveIterator",
    "Strands",
    "StrandsMove",
    "StrandsMoveIterator",
    "code_path",
    "load_record",
    "load_records",
    "distributed",
    "ai",
    "mcts",
    "svg",
]
__all__ += ["CUT", "HOLE", "Blocked", "Piece"]
__all__ += [
    "CephalopodActions",
    "ReversiActions",
    "RiveActions",
    "StrandsActions",
    "VectorEnv",
    "VectorReset",
    "VectorStep",
]
