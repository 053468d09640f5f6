"""The players' buttons after our debounce: raw pin edges in, presses and releases out, each
at the time of its own edge (see hardware.debounce.Debouncer)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from hardware.clock import Clock, Timer
from hardware.debounce import Change, Debouncer

if TYPE_CHECKING:
    from hardware.inputs import EdgeInput


class Switches:
    """Each input's debounce, and the settle it asks for once its window has passed.

    A settle is asked for `grace` after its window, as the engine's wakeup is, so it queues
    behind every edge from inside the window (one may still be crossing from its pin
    thread). It is for that window only: the loop may get to it late, after a later edge
    opened a new window whose own edges are not all handled yet.
    """

    def __init__(
        self,
        inputs: Mapping[str, EdgeInput],
        clock: Clock,
        settle: Callable[[str, float], None],
        grace: float = 0.0,
    ) -> None:
        self._clock = clock
        self._settle = settle  # asks for `settled(name, window)` once the window has passed
        self._grace = grace
        self._debounce = {
            name: Debouncer(active=device.is_active) for name, device in inputs.items()
        }
        self._timers: dict[str, Timer] = {}  # each input's settle, while it waits

    def __contains__(self, name: object) -> bool:
        return name in self._debounce

    def edge(self, name: str, active: bool, time: float) -> list[Change]:
        debouncer = self._debounce[name]
        changes = debouncer.edge(active, time)
        if name in self._timers:
            self._timers[name].cancel()
        window = debouncer.quiet_at
        self._timers[name] = self._clock.call_at(
            window + self._grace, lambda: self._settled(name, window)
        )
        return changes

    def _settled(self, name: str, window: float) -> None:
        del self._timers[name]
        self._settle(name, window)

    def settled(self, name: str, window: float) -> list[Change]:
        """The change that bounce hid in `window` (when it closed), if any."""
        debouncer = self._debounce[name]
        if window != debouncer.quiet_at:
            return []  # a later edge opened a new window: its own settle follows
        change = debouncer.settle()
        return [] if change is None else [change]

    def close(self) -> None:
        """Cancel the settles still waiting (the daemon stops)."""
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
