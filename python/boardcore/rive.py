"""Rive (docs/rive.md): the engine class, its move type and its lazy move iterator."""

from boardcore._boardcore import Rive, RiveMove, RiveMoveIterator

Move = RiveMove

__all__ = ["Move", "Rive", "RiveMoveIterator"]
