"""Cephalopod (docs/cephalopod.md): the engine class, its move type and merged path counts."""

from boardcore._boardcore import Cephalopod, CephalopodMove, PathCounts

Move = CephalopodMove

__all__ = ["Cephalopod", "Move", "PathCounts"]
