"""Reversi with blocked squares (docs/reversi.md): the engine class and its move type."""

from boardcore._boardcore import Reversi, ReversiMove

Move = ReversiMove

__all__ = ["Move", "Reversi"]
