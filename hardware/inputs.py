"""Inputs: switches that report every edge with the time of the pin edge, and our debounce.

gpiozero hands a pin's edge time ("ticks") to the device; `EdgeInput` passes it on with the
role. On the mock and local factories ticks are `time.monotonic()` seconds; lgpio reports the
kernel's CLOCK_MONOTONIC timestamp of the edge, converted to seconds. The callback runs on the
pin factory's thread, so it must only hand the edge over (see controller.daemon).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from gpiozero import DigitalInputDevice
from gpiozero.pins import Factory

EdgeCallback = Callable[[str, bool, float], None]

# Arcade microswitches bounce for up to ~5 ms; a human cannot press twice within 15 ms.
DEBOUNCE_WINDOW = 0.015


class EdgeInput(DigitalInputDevice):
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
        self._active = bool(self.is_active)
        self._gpiozero_changed = self.pin.when_changed
        self.pin.when_changed = self._pin_edge

    def _pin_edge(self, ticks: float, state: object) -> None:
        if self._gpiozero_changed is not None:
            self._gpiozero_changed(ticks, state)
        # A switch to ground is active low: pulled up, a low line means pressed.
        active = bool(state) != self.pull_up
        # Backends may report a level twice (a bounce too short to read); that is no edge.
        if active != self._active:
            self._active = active
            self._on_edge(self.role, active, float(ticks))


@dataclass(frozen=True)
class Change:
    """A debounced change of a switch: pressed (active) or released, at its edge time."""

    active: bool
    time: float


class Debouncer:
    """Lockout debounce for one switch, decided by edge times alone.

    The first edge counts at once, at its own edge time, so nothing is delayed and races keep
    their order. Edges in the next `window` seconds are bounce. When the window has passed, a
    level that differs from the last reported one is a change at the time of its last edge (a
    tap shorter than the window is a press and a release, not a stuck press): `settle` reports
    it, or the next edge does first if it comes before the settle is handled, so the order in
    which a busy loop gets to edges and settles never changes what they mean.
    """

    def __init__(self, window: float = DEBOUNCE_WINDOW, active: bool = False) -> None:
        self.window = window
        self.active = active
        self._raw = active
        self._raw_time = float("-inf")
        self.quiet_at = float("-inf")

    def edge(self, active: bool, time: float) -> list[Change]:
        """The changes an edge at `time` makes: none (bounce), its own, or, after the change
        that an earlier window hid, its own if it still counts."""
        changes = []
        if time >= self.quiet_at and (hidden := self.settle()) is not None:
            changes.append(hidden)
        self._raw, self._raw_time = active, time
        if time >= self.quiet_at and active != self.active:
            changes.append(self._accept(active, time))
        return changes

    def settle(self) -> Change | None:
        """Call once `quiet_at` has passed: the change bounce hid, if any."""
        if self._raw == self.active:
            return None
        return self._accept(self._raw, self._raw_time)

    def _accept(self, active: bool, time: float) -> Change:
        self.active = active
        self.quiet_at = time + self.window
        return Change(active, time)
