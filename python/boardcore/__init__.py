"""boardcore: rule-exact, fast engines for abstract board games.

Every game shares one protocol (``legal_moves``, ``play``, ``undo``, ``position``,
``perft``...); the engines are Rust, and ``boardcore.reference`` holds a pure-Python twin of
each with the same API, used to cross-check them.
"""

from boardcore._boardcore import (
    Cephalopod,
    CephalopodMove,
    ConcurrentUseError,
    IllegalMoveError,
    PathCounts,
    NotationError,
    Reversi,
    ReversiMove,
    Rive,
    RiveMove,
    RiveMoveIterator,
    Strands,
    StrandsMove,
    StrandsMoveIterator,
    code_path,
)
from boardcore.records import load_record, load_records
from boardcore import mcts, svg

# The step form and vectorized environments (docs/actions.md).
from boardcore._boardcore import CephalopodActions, ReversiActions, RiveActions, StrandsActions, VectorEnv

BLACK = 0
WHITE = 1

__all__ = [
    "BLACK",
    "Cephalopod",
    "CephalopodMove",
    "PathCounts",
    "WHITE",
    "ConcurrentUseError",
    "IllegalMoveError",
    "NotationError",
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
    "mcts",
    "svg",
]
__all__ += ["CephalopodActions", "ReversiActions", "RiveActions", "StrandsActions", "VectorEnv"]
