"""boardcore: rule-exact, fast engines for abstract board games.

Every game shares one protocol (``legal_moves``, ``play``, ``undo``, ``position``,
``perft``...); the engines are Rust, and ``boardcore.reference`` holds a pure-Python twin of
each with the same API, used to cross-check them.
"""

from boardcore import distributed, mcts, svg

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
