"""The players' buttons after our debounce: raw pin edges in, presses and releases out, each
at the time of its own edge (see hardware.inputs.Debouncer)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from hardware.clock import Clock, Timer
from hardware.inputs import Change, Debouncer, EdgeInput


class Switches:
    def __init__(
        self, inputs: Mapping[str, EdgeInput], clock: Clock, settle: Callable[[str], None]
    ) -> None:
        self._clock = clock
        self._settle = settle  # asks for `settled(name)` once the window has passed
        self._debounce = {
            name: Debouncer(active=device.is_active) for name, device in inputs.items()
        }
        self._timers: dict[str, Timer] = {}  # each input's settle, while it waits

    def __contains__(self, name: object) -> bool:
        return name in self._debounce

    def edge(self, name: str, active: bool, time: float) -> Change | None:
        debouncer = self._debounce[name]
        change = debouncer.edge(active, time)
        if name in self._timers:
            self._timers[name].cancel()
        self._timers[name] = self._clock.call_at(debouncer.quiet_at, lambda: self._settled(name))
        return change

    def _settled(self, name: str) -> None:
        del self._timers[name]
        self._settle(name)

    def settled(self, name: str) -> Change | None:
        """The change that bounce hid, if any, once the window has really passed."""
        debouncer = self._debounce[name]
        if self._clock.now() < debouncer.quiet_at:
            return None  # a later edge opened a new window
        return debouncer.settle()

    def close(self) -> None:
        """Cancel the settles still waiting (the daemon stops)."""
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
