"""What every benchmark shares: percentiles, CPU hogs, and how a figure is printed."""

from __future__ import annotations

import contextlib
import subprocess
import sys
from collections.abc import Iterator, Sequence

HOG = "while True: pass"


def spread(samples: Sequence[float]) -> tuple[float, float, float]:
    """(p50, p99, max) of `samples`."""
    ordered = sorted(samples)
    n = len(ordered)
    return ordered[n // 2], ordered[min(n - 1, n * 99 // 100)], ordered[-1]


def ms_line(label: str, samples: Sequence[float]) -> str:
    """`label: p50 … ms, p99 … ms, max … ms (n=…)` for samples in seconds."""
    p50, p99, top = spread(samples)
    return (
        f"{label}: p50 {p50 * 1000:.3f} ms, p99 {p99 * 1000:.3f} ms, "
        f"max {top * 1000:.3f} ms (n={len(samples)})"
    )


@contextlib.contextmanager
def hogs(count: int) -> Iterator[None]:
    """`count` processes that each keep one CPU busy, for as long as the block runs."""
    procs = [subprocess.Popen([sys.executable, "-c", HOG]) for _ in range(count)]
    try:
        yield
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()
