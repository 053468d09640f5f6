"""Contact bounce: a switch that chatters for a few milliseconds before it settles."""

from __future__ import annotations

import random

from ..clock import VirtualClock
from .pins import SimPin


def chatter(
    pin: SimPin,
    clock: VirtualClock,
    *,
    high: bool,
    duration: float = 0.005,
    edges: int = 9,
    rng: random.Random | None = None,
) -> float:
    """Drive `pin` towards `high` with `edges` edges (odd, so it ends there) over `duration`
    seconds from now, at random moments; returns when it has settled."""
    if edges < 1 or edges % 2 == 0:
        raise ValueError("a bounce needs an odd number of edges to end at the new level")
    rng = rng or random.Random(0)
    start = clock.now()
    if edges == 1:
        duration = 0.0
    middle = sorted(start + rng.uniform(0, duration) for _ in range(edges - 2))
    moments = [start, *middle, start + duration][:edges]
    for n, when in enumerate(moments):
        level = high if n % 2 == 0 else not high
        clock.call_at(when, pin.drive_high if level else pin.drive_low)
    return start + duration
