"""Timing shared by the benchmark scripts: medians, because the machines are shared and noisy."""

from __future__ import annotations

import statistics
import time


def median_time(run, repeats: int) -> float:
    """The median wall time of `repeats` calls of `run()`, in seconds."""
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return statistics.median(times)
