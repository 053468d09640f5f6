"""One dispense on a launcher controller at the end of a serial line, and what the
controller's reset banner (firmware/PROTOCOL.md, RESET) says about it."""

from __future__ import annotations

from dataclasses import dataclass

from firmware import protocol as p

Sent = tuple[int, int, int]  # a dispense's (id, cards asked for, cards counted so far)
ENDS = {p.DONE: "done", p.JAM: "jam", p.EMPTY: "empty", p.HOST_LOST: "host lost"}
RESET_CAUSES = {p.R_POWER_ON: "power-on", p.R_WATCHDOG: "watchdog", p.R_SOFT: "soft reset"}


@dataclass
class SerialDispense:
    id: int
    asked: int
    seen: int = 0
    restored: bool = False  # sent by a daemon before this one: it may have dealt unheard
    # The most cards the controller may have been let past: 0 once the DISPENSE was written to
    # the line (its first card needs no word), the count of each KEPT written after; None
    # before (a frame only queued cannot have been taken).
    let_past: int | None = None
    stopping: bool = False  # STOP sent: the host owes none of the cards it still asks for

    def __post_init__(self) -> None:
        if self.restored:
            # The daemon before this one may have sent KEPT for every card its record held.
            self.let_past = self.seen

    @property
    def record(self) -> Sent:
        return (self.id, self.asked, self.seen)


def counted_at_reset(during: SerialDispense | None, kept_id: int, kept_counted: int) -> int | None:
    """The cards the dispense running at a controller's reset dealt, or None when it cannot
    have dealt any (it is then asked for as it is).

    The controller keeps the dispense it started last across a watchdog or soft reset, with
    its count and a card that may have left uncounted. Kept: that count. Another one kept:
    this one never started (it would have been kept in its place). None kept: the power went
    since, and the count with it; the controller let a card go only once it was told the
    count of the one before was kept (KEPT), so at most the card after the count it was last
    let past can have left unheard, and it is counted as dealt, whether it left or not
    (docs/state.md). A dispense that never left this daemon cannot have dealt any."""
    if during is None:
        return None
    if kept_id == during.id:
        return min(kept_counted, during.asked)
    if kept_id != 0 or during.let_past is None:
        return None
    return min(max(during.seen, during.let_past + 1), during.asked)
