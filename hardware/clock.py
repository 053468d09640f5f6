"""Clocks: the one source of time for the daemon and the simulated hardware.

Time is a float of seconds on the monotonic clock. `LoopClock` is the real one (the asyncio
loop's own clock); `VirtualClock` only moves when told to, so tests never wait for a timer.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Callable
from typing import Protocol


class Timer(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    def now(self) -> float: ...

    def call_at(self, when: float, callback: Callable[[], None]) -> Timer: ...


class LoopClock:
    """The asyncio loop's time (`time.monotonic` on the standard loop): timers and `now` agree
    on any loop, also one whose time is virtual."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    def now(self) -> float:
        return self._loop.time()

    def call_at(self, when: float, callback: Callable[[], None]) -> Timer:
        return self._loop.call_at(when, callback)


class VirtualTimer:
    __slots__ = ("callback", "cancelled", "when")

    def __init__(self, when: float, callback: Callable[[], None]) -> None:
        self.when = when
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class VirtualClock:
    """Time that stands still until `run_next` or `set` moves it."""

    def __init__(self, start: float = 1000.0) -> None:
        self._now = start
        self._heap: list[tuple[float, int, VirtualTimer]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self._now

    def call_at(self, when: float, callback: Callable[[], None]) -> VirtualTimer:
        timer = VirtualTimer(max(when, self._now), callback)
        heapq.heappush(self._heap, (timer.when, next(self._order), timer))
        return timer

    def call_later(self, delay: float, callback: Callable[[], None]) -> VirtualTimer:
        return self.call_at(self._now + delay, callback)

    def next_due(self) -> float | None:
        """When the earliest live timer is due, or None."""
        while self._heap and self._heap[0][2].cancelled:
            heapq.heappop(self._heap)
        return self._heap[0][0] if self._heap else None

    def run_next(self, until: float) -> bool:
        """Move to the earliest timer due by `until` and run it; False if there is none."""
        due = self.next_due()
        if due is None or due > until:
            return False
        _, _, timer = heapq.heappop(self._heap)
        self._now = max(self._now, timer.when)
        timer.callback()
        return True

    def set(self, when: float) -> None:
        """Move time forward to `when` without running timers (callers run them first)."""
        if when < self._now:
            raise ValueError("virtual time cannot go backwards")
        self._now = when
