"""boardcore's exceptions, shared by every game: IllegalMoveError and NotationError are
ValueError subclasses; ConcurrentUseError (a RuntimeError) is raised by the one call on an object
that cannot wait for another (docs/design.md, "Threads")."""

from boardcore._boardcore import ConcurrentUseError, IllegalMoveError, NotationError

__all__ = ["ConcurrentUseError", "IllegalMoveError", "NotationError"]
