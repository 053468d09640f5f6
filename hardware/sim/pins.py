"""gpiozero's mock pins on virtual time, built on its documented backend contract.

`SimFactory` is gpiozero's `MockFactory` (a Pi 4's header, pin reservations, `reset`) making
`SimPin`s. A `SimPin` is a mock pin (`drive_high`, `drive_low`, `states`, `assert_states`)
that fills in the backend hooks every gpiozero pin has (`_get_*`/`_set_*`, event detection,
`_call_when_changed`) with a state of its own, so it relies on nothing private of the mock
pin, and stamps every edge with the factory's `Clock`: an edge driven at virtual time t
reaches the game as t. A model that works out an edge after the fact (a loop pass that came
late) gives the edge's own time, as the kernel's timestamp or an interrupt would. Every pin can
do PWM, as the lights, the buzzer and the motor need.
Output pins tell `listeners` when they change (the launcher model watches its motor so).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import cast

from gpiozero.exc import PinFixedPull, PinInvalidFunction, PinInvalidPull, PinSetInput
from gpiozero.pins.mock import MockFactory, MockPWMPin, PinState
from gpiozero.pins.pi import PiPin

from ..clock import Clock

HISTORY = 1_000  # changes a pin remembers in `states`: enough for a test, bounded for a week
EDGES = {"both": (True, False), "rising": (True,), "falling": (False,), "none": ()}


# gpiozero ships no types: to mypy its classes, this one's base among them, are Any.
class SimPin(MockPWMPin):  # type: ignore[misc]
    """A simulated GPIO pin.

    A level driven from outside (a held button) stays when the pull is set afterwards, as on a
    real line: the pull-up cannot lift a line that a closed switch holds to ground.
    """

    def __init__(self, factory: SimFactory, info: object) -> None:
        # Set before the mock pin's own set-up, which records the first state.
        self._clock = factory.clock
        self._level: float = 1.0 if getattr(info, "pull", None) == "up" else 0.0
        self.states: deque[PinState] = deque(maxlen=HISTORY)
        super().__init__(factory, info)
        self._function = "input"
        self._pull = self.info.pull or "floating"
        self._frequency: float | None = None
        self._bounce: float | None = None
        self._edges = "both"
        self._detecting = False
        self.driven: bool | None = None  # the level held from outside, if any
        self.listeners: list[Callable[[float], None]] = []
        self.clear_states()

    # -- what outside the board does to an input ----------------------------------------

    def drive_high(self, at: float | None = None) -> None:
        """Hold the line high (from `at`, an edge's own time, if not now)."""
        self._drive(True, at)

    def drive_low(self, at: float | None = None) -> None:
        """Hold the line low (from `at`, an edge's own time, if not now)."""
        self._drive(False, at)

    def release(self, at: float | None = None) -> None:
        """Let go of the line: its pull decides again (an open line with no pull reads high)."""
        self.driven = None
        if self._function == "input":
            self._change(0.0 if self._pull == "down" else 1.0, at)

    def _drive(self, high: bool, at: float | None) -> None:
        if self._function != "input":
            raise PinSetInput(f"{self!r} is an output: it cannot be driven from outside")
        self.driven = high
        self._change(1.0 if high else 0.0, at)

    def clear_states(self) -> None:
        self._last_change = self._clock.now()
        self.states.clear()
        self.states.append(PinState(0.0, self._level))

    # -- gpiozero's backend hooks ---------------------------------------------------------

    def close(self) -> None:
        # As a real backend leaves a pin it lets go of: an input with its default pull.
        self.when_changed = None
        if self._function == "output":
            self.frequency = None
        self.function = "input"
        self.pull = self.info.pull or "floating"

    def _get_function(self) -> str:
        return self._function

    def _set_function(self, value: str) -> None:
        if value not in ("input", "output"):
            raise PinInvalidFunction("function must be input or output")
        self._function = value
        if value == "input":
            self._settle_input()

    def _get_state(self) -> float:
        return self._level

    def _set_state(self, value: float) -> None:
        if self._function != "output":
            raise PinSetInput(f"cannot set state of pin {self!r}")
        self._change(float(value))

    def _get_pull(self) -> str:
        return self._pull

    def _set_pull(self, value: str) -> None:
        if self._function != "input":
            raise PinFixedPull(f"cannot set pull on non-input pin {self!r}")
        if self.info.pull and value != self.info.pull:
            raise PinFixedPull(f"{self!r} has a fixed pull resistor")
        if value not in ("floating", "up", "down"):
            raise PinInvalidPull("pull must be floating, up, or down")
        self._pull = value
        self._settle_input()

    def _get_frequency(self) -> float | None:
        return self._frequency

    def _set_frequency(self, value: float | None) -> None:
        self._frequency = value
        if value is None and self._function == "output":
            self._change(0.0)

    def _get_bounce(self) -> float | None:
        return self._bounce

    def _set_bounce(self, value: float | None) -> None:
        # Debounce is the daemon's own (hardware.debounce.Debouncer); this is only kept.
        self._bounce = None if value is None else float(value)

    def _get_edges(self) -> str:
        return self._edges

    def _set_edges(self, value: str) -> None:
        if value not in EDGES:
            raise PinInvalidFunction(f"edges must be one of {', '.join(EDGES)}")
        self._edges = value

    def _call_when_changed(self, ticks: float, state: bool) -> None:
        # The signature every backend's has (gpiozero.pins.pi.PiPin); the mock pin's takes none.
        PiPin._call_when_changed(self, ticks, state)

    def _enable_event_detect(self) -> None:
        self._detecting = True

    def _disable_event_detect(self) -> None:
        self._detecting = False

    # -- inside ---------------------------------------------------------------------------

    def _settle_input(self) -> None:
        if self.driven is not None:
            self._change(1.0 if self.driven else 0.0)
        elif self._pull != "floating":
            self._change(1.0 if self._pull == "up" else 0.0)

    def _change(self, level: float, at: float | None = None) -> None:
        if level == self._level:
            return
        now = self._clock.now()
        if at is not None:
            # An edge is never stamped ahead of the clock, nor before the pin's last change.
            now = max(min(at, now), self._last_change)
        self._level = level
        self.states.append(PinState(now - self._last_change, level))
        self._last_change = now
        if self._function == "output":
            for listener in list(self.listeners):
                listener(level)
        elif self._detecting and bool(level) in EDGES[self._edges]:
            self._call_when_changed(now, bool(level))


# gpiozero ships no types: to mypy its classes, this one's base among them, are Any.
class SimFactory(MockFactory):  # type: ignore[misc]
    """A mock pin factory for a Pi 4 whose ticks are the given clock's seconds."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        super().__init__(revision="c03111", pin_class=SimPin)

    def pin(self, name: object, pin_class: type[SimPin] | None = None) -> SimPin:
        """The pin `name`; made as `pin_class` (a kind of SimPin) if it does not exist yet."""
        return cast(SimPin, super().pin(name, pin_class=pin_class))

    def ticks(self) -> float:
        return self.clock.now()

    @staticmethod
    def ticks_diff(later: float, earlier: float) -> float:
        return later - earlier
