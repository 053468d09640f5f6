"""One dispense on a launcher controller at the end of a serial line, and what the
controller's reset banner (firmware/PROTOCOL.md, RESET) says about it."""

from __future__ import annotations

from dataclasses import dataclass

from firmware import protocol as p

Sent = tuple[int, int, int]  # a dispense's (id, cards asked for, cards counted so far)
ENDS = {p.DONE: "done", p.JAM: "jam", p.EMPTY: "empty", p.HOST_LOST: "host lost"}
RESET_CAUSES = {p.R_POWER_ON: "power-on", p.R_WATCHDOG: "watchdog", p.R_SOFT: "soft reset"}


@dataclass
class Dispense:
    id: int
    asked: int
    seen: int = 0
    restored: bool = False  # sent by a daemon before this one: it may have dealt unheard

    @property
    def record(self) -> Sent:
        return (self.id, self.asked, self.seen)


def counted_at_reset(during: Dispense | None, kept_id: int, kept_counted: int) -> int | None:
    """The cards the dispense running at a controller's reset dealt, or None when the
    controller never started it (the same id is then asked again)."""
    if during is None:
        return None
    if kept_id == during.id:
        return kept_counted  # it had started this one: it kept the count
    if during.restored:
        # A daemon before this one sent it and the controller forgot it: one card counts as
        # dealt, as on the Pi's own launcher (docs/state.md).
        return during.seen + 1
    return None
