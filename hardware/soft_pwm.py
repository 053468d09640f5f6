"""Software PWM for pins whose chip has none: one thread for all of them, that exists only
while some pin's duty is strictly between 0 and 1.

A light that is off or steadily on is one write, and nothing runs for it afterwards: a table
whose lights are off or steady (seating, a paused game, sleep) has no PWM thread at all. A
pulsing light or a tone starts the thread; it ends when the last of them stops. Each pin's
level rises on its wave's grid of periods and falls its high time after the rise, the thread
sleeping in between. A wakeup that comes late (a busy CPU, another thread holding the GIL)
makes a whole pulse, later: never none, and never a sliver.

While the thread runs, the interpreter's switch interval is short (SWITCH_INTERVAL): a
thread that holds the GIL gives it up within that when the PWM thread wakes, not Python's
default 5 ms, which is half a light's period. It only matters while threads contend: an
idle loop pays nothing for it.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

Write = Callable[[bool], None]

SWITCH_INTERVAL = 0.0005  # seconds


@dataclass
class _Wave:
    write: Write
    period_ns: int
    high_ns: int
    rise_ns: int  # the next rise, on the wave's grid of periods
    fall_ns: int = 0  # while high: when it falls
    high: bool = False


class SoftPWM:
    """The PWM thread of one pin factory. `clock` (nanoseconds) and `sleep` (seconds) are
    the thread's, for tests whose thread wakes late."""

    def __init__(
        self,
        clock: Callable[[], int] = time.monotonic_ns,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._waves: dict[object, _Wave] = {}
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._clock = clock
        self._sleep = sleep
        self._switch_interval = sys.getswitchinterval()
        self.wakes = 0  # times the thread woke, for benchmarks and tests

    @property
    def running(self) -> bool:
        return self._thread is not None

    def set(self, key: object, write: Write, frequency: float, duty: float) -> None:
        """Play `duty` at `frequency` on `key`'s pin; at 0 or 1 it is one write and no wave.
        A new duty takes effect at the wave's next rise, within one period."""
        with self._lock:
            if 0.0 < duty < 1.0:
                period = round(1e9 / frequency)
                wave = self._waves.get(key)
                if wave is None:
                    # Cycles start on a grid of the period: waves of one frequency rise
                    # together, in one wakeup.
                    wave = _Wave(write, period, 0, self._clock() // period * period)
                    self._waves[key] = wave
                wave.period_ns, wave.high_ns = period, round(period * duty)
                if self._thread is None:
                    self._switch_interval = sys.getswitchinterval()
                    sys.setswitchinterval(min(self._switch_interval, SWITCH_INTERVAL))
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
                    sys.setswitchinterval(self._switch_interval)
                    return
                self.wakes += 1
                now = self._clock()
                soonest = now + 1_000_000_000
                for wave in self._waves.values():
                    if not wave.high and now >= wave.rise_ns:
                        wave.write(True)
                        wave.high = True
                        wave.fall_ns = now + wave.high_ns  # from the rise as it came
                        missed = (now - wave.rise_ns) // wave.period_ns
                        wave.rise_ns += (missed + 1) * wave.period_ns
                    if wave.high and now >= wave.fall_ns:
                        wave.write(False)
                        wave.high = False
                    soonest = min(soonest, wave.fall_ns if wave.high else wave.rise_ns)
            self._sleep(max(0, soonest - self._clock()) / 1e9)
