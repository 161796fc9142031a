"""boardcore's exceptions, shared by every game (both are ValueError subclasses)."""

from boardcore._boardcore import IllegalMoveError, NotationError

__all__ = ["IllegalMoveError", "NotationError"]
