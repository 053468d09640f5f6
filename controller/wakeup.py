"""The one timer of the game: the engine's next wakeup, kept scheduled on the clock."""

from __future__ import annotations

from collections.abc import Callable

from hardware.clock import Clock, Timer


class Wakeup:
    """Keeps one timer at `at(when) + grace`; `wake` is called then, on the clock's thread
    (the event loop: hardware.clock)."""

    def __init__(self, clock: Clock, grace: float, wake: Callable[[], None]) -> None:
        self._clock = clock
        self._grace = grace
        self._wake = wake
        self._timer: Timer | None = None
        self._when: float | None = None

    def at(self, when: float | None) -> None:
        """Wake at `when` (game time), or not at all for None; moves the timer if needed."""
        if when == self._when:
            return
        self.cancel()
        self._when = when
        if when is not None:
            self._timer = self._clock.call_at(when + self._grace, self._wake)

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
