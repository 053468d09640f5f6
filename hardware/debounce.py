"""Our debounce: a switch's raw edges in, changes out at the time of their own edge.

Plain values and arithmetic, no gpiozero: the daemon's shell uses it before any device exists.
"""

from __future__ import annotations

from dataclasses import dataclass

# Arcade microswitches bounce for up to ~5 ms; a human cannot press twice within 15 ms.
DEBOUNCE_WINDOW = 0.015


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
