"""A small progress bar on stderr, drawn only when stderr is a terminal (or BOARDCORE_PROGRESS=1),
so that logs and pipes stay clean."""

from __future__ import annotations

import os
import sys
import time


class Progress:
    """``with Progress(total, "perft") as bar: ... bar.advance(n, note)``."""

    WIDTH = 30

    def __init__(self, total: int, label: str, stream=None) -> None:
        self.total, self.label, self.done = max(total, 1), label, 0
        self.stream = stream or sys.stderr
        self.enabled = os.environ.get("BOARDCORE_PROGRESS") == "1" or self.stream.isatty()
        self.started = time.perf_counter()

    def __enter__(self) -> Progress:
        self._draw("")
        return self

    def advance(self, steps: int = 1, note: str = "") -> None:
        self.done += steps
        self._draw(note)

    def _draw(self, note: str) -> None:
        if not self.enabled:
            return
        filled = self.WIDTH * min(self.done, self.total) // self.total
        elapsed = time.perf_counter() - self.started
        bar = "#" * filled + "-" * (self.WIDTH - filled)
        self.stream.write(f"\r{self.label} [{bar}] {self.done}/{self.total} {elapsed:.1f}s {note}\033[K")
        self.stream.flush()

    def __exit__(self, *exc) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()
