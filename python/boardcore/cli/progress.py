"""A small progress bar on stderr, drawn only when stderr is a terminal (or BOARDCORE_PROGRESS=1),
so that logs and pipes stay clean."""

from __future__ import annotations

import os
import sys
import threading
import time


def shown_on(stream) -> bool:
    """Whether progress is drawn on ``stream``: when it is a terminal, or BOARDCORE_PROGRESS=1."""
    return os.environ.get("BOARDCORE_PROGRESS") == "1" or stream.isatty()


class Progress:
    """``with Progress(total, "perft") as bar: ... bar.advance(n, note)``; ``enabled`` True or
    False shows or hides it whatever stderr is.

    While it is shown, a thread redraws the bar every ``TICK`` seconds, so that its clock runs
    while one long step (a root move's perft) is under way; the engine's long calls release the
    GIL, so the thread can run. ``print`` writes a line of results with the bar out of the way."""

    WIDTH = 30
    TICK = 0.25

    def __init__(self, total: int, label: str, stream=None, enabled: bool | None = None) -> None:
        self.total, self.label, self.done, self.note = max(total, 1), label, 0, ""
        self.stream = stream or sys.stderr
        if enabled is None:
            enabled = shown_on(self.stream)
        self.enabled = enabled
        self.started = time.perf_counter()
        self._lock = threading.Lock()  # one writer at a time: the bar's line is never torn
        self._stopped = threading.Event()
        self._ticker = threading.Thread(target=self._tick, name="progress", daemon=True)

    def __enter__(self) -> Progress:
        if self.enabled:
            self._draw()
            self._ticker.start()
        return self

    def advance(self, steps: int = 1, note: str = "") -> None:
        with self._lock:
            self.done += steps
            self.note = note
            self._draw()

    def print(self, line: str) -> None:
        """Prints ``line`` on stdout: the bar's line is cleared first and the bar drawn again
        below, so that a terminal showing both never has the two on one line."""
        with self._lock:
            if self.enabled:
                self.stream.write("\r\033[K")
                self.stream.flush()
            print(line, flush=True)
            self._draw()

    def _tick(self) -> None:
        while not self._stopped.wait(self.TICK):
            with self._lock:
                if not self._stopped.is_set():
                    self._draw()

    def _draw(self) -> None:
        if not self.enabled:
            return
        filled = self.WIDTH * min(self.done, self.total) // self.total
        elapsed = time.perf_counter() - self.started
        bar = "#" * filled + "-" * (self.WIDTH - filled)
        self.stream.write(f"\r{self.label} [{bar}] {self.done}/{self.total} {elapsed:.1f}s {self.note}\033[K")
        self.stream.flush()

    def __exit__(self, *exc) -> None:
        self._stopped.set()
        if self._ticker.is_alive():
            self._ticker.join()
        if self.enabled:
            with self._lock:
                self.stream.write("\n")
                self.stream.flush()
