"""boardcore: rule-exact, fast engines for abstract board games.

Every game shares one protocol (``legal_moves``, ``play``, ``undo``, ``position``,
``perft``...); the engines are Rust, and ``boardcore.reference`` holds a pure-Python twin of
each with the same API, used to cross-check them.
"""

from typing import TYPE_CHECKING, Any

from boardcore import ai, mcts, svg

if TYPE_CHECKING:  # imported on first use (below); typed as a plain import
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
from boardcore.pieces import CUT, HOLE, Blocked, Piece
from boardcore.records import load_record, load_records

BLACK = 0
WHITE = 1


def __getattr__(name: str) -> Any:
    """``bc.distributed`` is imported on first use: it is the largest part of the package and
    only Ray runs need it, so ``import boardcore`` (and the command line's start) is quicker."""
    if name == "distributed":
        import importlib

        return importlib.import_module("boardcore.distributed")  # also binds bc.distributed
    raise AttributeError(f"module 'boardcore' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | {"distributed"})


__all__ = [
    "BLACK",
    "__version__",
    "WHITE",
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
