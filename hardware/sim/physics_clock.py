"""The simulated launcher's own clock: the physics run apart from the firmware's main loop.

A motor turns and a beam's interrupt fires whatever the program's main loop is doing.
`PhysicsClock` is the clock of the launcher model, of the board's pin interrupts and of its
hardware timers (hardware/sim/machine.py): a virtual clock that follows a source clock (the
loop's) and runs its timers one at a time, each at its own time, in order. It is woken on
the source at its next timer; woken late (a stalled process, a busy machine), it runs every
timer that fell due in between at its own time, so each edge, each interrupt, and each motor
change an interrupt makes, happens when it would have, as on the real board. Whatever looks
at it from outside (the main loop reading a pin, driving the motor, reading its ticks)
catches it up to the source's time first.

While interrupts are disabled (`hold`, as machine.disable_irq) nothing runs: what falls due
meanwhile runs at `release`, each at its own time.
"""

from __future__ import annotations

from collections.abc import Callable

from ..clock import Clock, Timer, VirtualClock, VirtualTimer


class PhysicsClock(VirtualClock):
    """Virtual time that keeps up with `source`; `close` it."""

    def __init__(self, source: Clock) -> None:
        super().__init__(source.now())
        self._source = source
        self._wake: Timer | None = None
        self._wake_at: float | None = None
        self._busy = False  # a timer of this clock is running
        self._held = 0  # interrupts disabled, this deep
        self._closed = False

    def now(self) -> float:
        """Inside a timer of this clock, that timer's time; else the source's, caught up."""
        self.catch_up()
        return super().now()

    def call_at(self, when: float, callback: Callable[[], None]) -> VirtualTimer:
        timer = super().call_at(when, callback)
        self._arm()
        return timer

    def catch_up(self) -> None:
        """Run every timer due by the source's time, in order, each at its own time."""
        if self._busy or self._held or self._closed:
            return
        self._busy = True
        try:
            until = self._source.now()
            while self.run_next(until):
                pass
            if until > super().now():
                self.set(until)
        finally:
            self._busy = False
        self._arm()

    def hold(self, *, catch_up: bool = True) -> None:
        """Interrupts off: caught up first (or left where they stand, for a main loop on this
        clock's own time, which has seen nothing later), nothing runs until `release`."""
        if catch_up:
            self.catch_up()
        self._held += 1

    def release(self) -> None:
        self._held -= 1
        self.catch_up()

    def close(self) -> None:
        self._closed = True
        if self._wake is not None:
            self._wake.cancel()
            self._wake = None

    def _arm(self) -> None:
        if self._closed or self._busy:
            return
        due = self.next_due()
        if due == self._wake_at:
            return
        if self._wake is not None:
            self._wake.cancel()
        self._wake_at = due
        self._wake = None if due is None else self._source.call_at(due, self._woken)

    def _woken(self) -> None:
        self._wake = self._wake_at = None
        self.catch_up()
