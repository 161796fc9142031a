"""Strands (docs/strands.md): the engine class, its move type and its lazy move iterator."""

from boardcore._boardcore import Strands, StrandsMove, StrandsMoveIterator

Move = StrandsMove

__all__ = ["Move", "Strands", "StrandsMoveIterator"]
