"""Inputs: switches that report every edge with the time of the pin edge (our debounce of
those edges is hardware.debounce).

gpiozero hands a pin's edge time ("ticks") to the device; `EdgeInput` passes it on with the
role. On the mock factory ticks are `time.monotonic()` seconds; on a GPIO chip
(hardware.gpiod_pins) they are the kernel's CLOCK_MONOTONIC timestamp of the edge, in
seconds. The callback runs on the pin factory's thread (on a chip, its edge thread), so it
must only hand the edge over (see controller.shell.daemon). The one exception is
`on_pin_thread`, which the launcher's beam alone sets: its ejector's gate, which may stop the
motor there and then (docs/architecture.md, "The thread border").
"""

from __future__ import annotations

from collections.abc import Callable

from gpiozero import DigitalInputDevice
from gpiozero.pins import Factory

EdgeCallback = Callable[[str, bool, float], None]


# gpiozero ships no types: to mypy its classes, this one's base among them, are Any.
class EdgeInput(DigitalInputDevice):  # type: ignore[misc]
    """A switch (or beam) on one pin that reports (role, active, edge time) on every change.

    It listens on the pin's public `when_changed` hook, which every gpiozero backend calls
    with the edge's ticks and the new state, and passes on gpiozero's own handler too.
    """

    def __init__(
        self,
        pin: int,
        *,
        role: str,
        on_edge: EdgeCallback,
        pull_up: bool = True,
        pin_factory: Factory | None = None,
    ) -> None:
        super().__init__(pin, pull_up=pull_up, pin_factory=pin_factory)
        self.role = role
        self._on_edge = on_edge
        # Told each edge first, on the pin factory's thread: (active, edge time).
        self.on_pin_thread: Callable[[bool, float], None] | None = None
        # While `on_pin_thread` runs: the edges its own call made, to hand over after its cause.
        self._made: list[tuple[bool, float]] | None = None
        self._active = bool(self.is_active)
        self._gpiozero_changed = self.pin.when_changed
        self.pin.when_changed = self._pin_edge

    def _pin_edge(self, ticks: float, state: object) -> None:
        # A switch to ground is active low: pulled up, a low line means pressed.
        active = bool(state) != self.pull_up
        # Backends may report a level twice (a bounce too short to read); that is no edge.
        if active != self._active:
            self._active = active
            self._hand_over(active, float(ticks))
        # gpiozero's own bookkeeping after the hand-over: the loop is woken first.
        if self._gpiozero_changed is not None:
            self._gpiozero_changed(ticks, state)

    def _hand_over(self, active: bool, time: float) -> None:
        """`on_pin_thread` first, then the loop. An edge that the handler's own call makes (a
        simulated launcher's model answers the gate's stop with the next beam edge, in that
        very call) is told to the handler at once and handed to the loop after its cause."""
        if self.on_pin_thread is None:
            self._on_edge(self.role, active, time)
            return
        if self._made is not None:
            self._made.append((active, time))
            self.on_pin_thread(active, time)
            return
        made: list[tuple[bool, float]] = []
        self._made = made
        try:
            self.on_pin_thread(active, time)
        finally:
            self._made = None
        for edge in [(active, time), *made]:
            self._on_edge(self.role, *edge)
