"""The one timer of the game: the engine's next wakeup, kept scheduled on the clock."""

from __future__ import annotations

from collections.abc import Callable

from hardware.clock import Clock, Timer

# The last sleep before a wakeup is at most twice this long (seconds). The kernel ends a
# sleep late by up to a thousandth of its length (the slack of a select or epoll timeout at
# nice 0, as the daemon runs: 2 ms at the end of a 2 s turn, 100 ms at most), and a core
# that has slept long is slower to wake; a timer set a moment ahead runs within a tenth of a
# millisecond or so.
LEAD = 0.001


class Wakeup:
    """Keeps one timer at `at(when) + grace`; `wake` is called then, on the clock's thread
    (the event loop: hardware.clock). A wakeup further off than 2 * LEAD is reached by a
    short last sleep: a lead timer first wakes the loop LEAD ahead, and ahead by as much
    again as its own sleep may end late; from there, the timer for the moment itself is set
    (or another lead timer, for a sleep of over a second)."""

    def __init__(self, clock: Clock, grace: float, wake: Callable[[], None]) -> None:
        self._clock = clock
        self._grace = grace
        self._wake = wake
        self._timer: Timer | None = None
        self._when: float | None = None

    def at(self, when: float | None) -> None:
        """Wake at `when` (game time), or not at all for None; moves the timer if needed."""
        if when is not None and when == self._when:
            return
        self.cancel()
        self._when = when
        if when is not None:
            self._set(when + self._grace)

    def _set(self, due: float) -> None:
        sleep = due - self._clock.now()
        if sleep > 2 * LEAD:
            self._timer = self._clock.call_at(due - LEAD - sleep / 1000, lambda: self._set(due))
        else:
            self._timer = self._clock.call_at(due, self._wake)

    def fired(self) -> None:
        """A wakeup came: the next `at` schedules again, even for the same time. The timer
        is kept: a wakeup handled late may be an older one, and the newer must not be lost
        track of (and run twice)."""
        self._when = None

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._when = None
