"""gpiozero's mock pins on virtual time.

`SimFactory` is gpiozero's `MockFactory` whose pins stamp their edges with a `Clock`, so an
edge driven at virtual time t reaches the game as t. Every pin is PWM-capable, as the lights,
the buzzer and the motor need, and output pins tell listeners when they change (the launcher
model watches its motor that way).
"""

from __future__ import annotations

from collections.abc import Callable

from gpiozero.pins.mock import MockFactory, MockPWMPin, PinState

from ..clock import Clock


class SimPin(MockPWMPin):
    """A mock pin whose edge times come from the factory's clock.

    A level driven from outside (a held button) stays when the pull is set afterwards, as a
    real line does: the pull-up cannot lift a line that a closed switch holds to ground.
    """

    def __init__(self, factory: SimFactory, info) -> None:
        self.listeners: list[Callable[[float], None]] = []
        self.driven: bool | None = None
        super().__init__(factory, info)

    def drive_high(self) -> None:
        self.driven = True
        super().drive_high()

    def drive_low(self) -> None:
        self.driven = False
        super().drive_low()

    def release(self) -> None:
        """Let go of the line: its pull decides again (an open line with no pull reads high)."""
        self.driven = None
        if self._function == "input":
            super().drive_low() if self._pull == "down" else super().drive_high()

    def _set_pull(self, value) -> None:
        # The pull is not something outside driving the line: keep what was driven.
        driven = self.driven
        super()._set_pull(value)
        self.driven = driven
        if driven is not None:
            self.drive_high() if driven else self.drive_low()

    def _change_state(self, value) -> bool:
        if self._state == value:
            return False
        t = self._factory.clock.now()
        self._state = value
        self.states.append(PinState(t - self._last_change, value))
        self._last_change = t
        if self._function == "output":
            for listener in list(self.listeners):
                listener(value)
        return True

    def clear_states(self) -> None:
        self._last_change = self._factory.clock.now()
        self.states = [PinState(0.0, self._state)]


class SimFactory(MockFactory):
    """A mock pin factory for a Pi 4 whose ticks are the given clock's seconds."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        super().__init__(revision="c03111", pin_class=SimPin)

    def ticks(self) -> float:
        return self.clock.now()

    @staticmethod
    def ticks_diff(later: float, earlier: float) -> float:
        return later - earlier
