"""Software PWM for pins whose chip has none: one thread for all of them, that exists only
while some pin's duty is strictly between 0 and 1.

A light that is off or steadily on is one write, and nothing runs for it afterwards: a table
whose lights are off or steady (seating, a paused game, sleep) has no PWM thread at all. A
pulsing light or a tone starts the thread; it ends when the last of them stops. Each pin's
level is written at its cycle's start and at its duty's end, the thread sleeping in between.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

Write = Callable[[bool], None]


@dataclass
class _Wave:
    write: Write
    period_ns: int
    high_ns: int
    start_ns: int  # the present cycle's start
    high: bool = False


class SoftPWM:
    """The PWM thread of one pin factory."""

    def __init__(self) -> None:
        self._waves: dict[object, _Wave] = {}
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self.wakes = 0  # times the thread woke, for benchmarks and tests

    @property
    def running(self) -> bool:
        return self._thread is not None

    def set(self, key: object, write: Write, frequency: float, duty: float) -> None:
        """Play `duty` at `frequency` on `key`'s pin; at 0 or 1 it is one write and no wave.
        A new duty takes effect at the wave's next edge, within one period."""
        with self._lock:
            if 0.0 < duty < 1.0:
                period = round(1e9 / frequency)
                wave = self._waves.get(key)
                if wave is None:
                    # Cycles start on a grid of the period: waves of one frequency rise
                    # together, in one wakeup.
                    wave = _Wave(write, period, 0, time.monotonic_ns() // period * period)
                    self._waves[key] = wave
                wave.period_ns, wave.high_ns = period, round(period * duty)
                if self._thread is None:
                    self._thread = threading.Thread(target=self._run, name="soft-pwm", daemon=True)
                    self._thread.start()
                return
            # Steady: the wave stops before the level is written, under the lock that the
            # thread writes under, so no late edge of the wave follows it.
            self._waves.pop(key, None)
            write(duty >= 1.0)

    def stop(self, key: object) -> None:
        with self._lock:
            self._waves.pop(key, None)

    def _run(self) -> None:
        """Each wakeup writes the edges that are due, then sleeps until the next one. A
        plain sleep: nothing wakes the thread between edges, not even a change of duty."""
        while True:
            with self._lock:
                if not self._waves:
                    self._thread = None
                    return
                self.wakes += 1
                now = time.monotonic_ns()
                soonest = now + 1_000_000_000
                for wave in self._waves.values():
                    into = now - wave.start_ns
                    if into >= wave.period_ns:
                        wave.start_ns += (into // wave.period_ns) * wave.period_ns
                        into = now - wave.start_ns
                    high = into < wave.high_ns
                    if high != wave.high:
                        wave.write(high)
                        wave.high = high
                    edge = wave.start_ns + (wave.high_ns if high else wave.period_ns)
                    soonest = min(soonest, edge)
            time.sleep(max(0, soonest - time.monotonic_ns()) / 1e9)
