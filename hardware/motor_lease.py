"""The launcher motor's lease: the motor runs only while its lease lasts, and a thread of its
own stops it when the lease runs out, whatever the event loop is doing.

The ejector drives the motor from the event loop and renews the lease at every card (and at
every step of a start); a loop stalled by anything (a huge message parsed, a slow disk, a
debugger) can then keep the motor running for one lease at most, never for as long as the
stall lasts. When the loop comes back it learns that the lease ran out (`renew` answers
False) and starts the motor again for the cards still owed; the beam's edges of the stall
kept their own times, so every card that came out meanwhile is counted.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

log = logging.getLogger(__name__)


class MotorLease:
    """Calls `stop` from its own thread when a lease granted with `renew` runs out."""

    def __init__(self, stop: Callable[[], None], *, clock: Callable[[], float] = time.monotonic):
        self._stop = stop
        self._clock = clock
        self._changed = threading.Condition()
        self._until: float | None = None  # when the lease runs out; None: no lease
        self._ran_out = False
        self._closed = False
        self._thread: threading.Thread | None = None

    def renew(self, seconds: float) -> bool:
        """Let the motor run `seconds` more from now. False if the last lease ran out before
        this (its owner was away too long): the motor was stopped, and must be started again."""
        with self._changed:
            held = not self._ran_out
            self._ran_out = False
            self._until = self._clock() + seconds
            if self._thread is None and not self._closed:
                self._thread = threading.Thread(target=self._watch, name="motor-lease", daemon=True)
                self._thread.start()
            self._changed.notify()
        return held

    def end(self) -> None:
        """The motor stopped, by its owner: no lease until the next `renew`."""
        with self._changed:
            self._until = None
            self._ran_out = False
            self._changed.notify()

    def close(self) -> None:
        """End the lease and the thread (the motor is stopped by its owner for good)."""
        with self._changed:
            self._closed = True
            self._until = None
            self._changed.notify()
        if self._thread is not None:
            self._thread.join()

    def _watch(self) -> None:
        with self._changed:
            while not self._closed:
                if self._until is None:
                    self._changed.wait()
                    continue
                left = self._until - self._clock()
                if left > 0:
                    self._changed.wait(left)
                    continue
                # The owner is away past the lease: stop the motor here, on this thread.
                self._until = None
                self._ran_out = True
                log.warning("the launcher's motor outran its lease: stopped it")
                self._stop()
