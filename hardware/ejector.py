"""The card ejector: dispense exactly n cards, counted by the break-beam at the slot.

`Ejector` is what the daemon asks of a launcher, and `Report` what a launcher tells it back;
both ejectors meet it: `GpioEjector` (gpio_ejector.py) on the Pi's own pins, `SerialEjector`
(serial_ejector.py) on a controller at the end of a serial line. A card's life has one set of
rules, the firmware's `Dispenser` (firmware/dispenser.py), run by the controller on its own
pins and by `GpioEjector` on the Pi's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from firmware.gate import JAM_US

from .serial_dispense import Sent

US = 1_000_000  # the dispenser's times are whole microseconds
DEFAULT_JAM_TIME = JAM_US / US  # seconds (the settings' default holds it in milliseconds)


@dataclass(frozen=True)
class CardCounted:
    """The beam counted one more card out of the slot; `owed` is what is still to send."""

    time: float
    owed: int


@dataclass(frozen=True)
class Halted:
    """The motor stopped: "done" (all out), "jam" or "empty"; `owed` cards are still owed."""

    reason: str
    time: float
    owed: int


Report = CardCounted | Halted


class Ejector(Protocol):
    """A launcher as the daemon drives it. Reports go to the `on_report` it was made with."""

    owed: int  # cards asked for and not yet counted out
    fault: str | None  # "jam" or "empty" while it waits for `resume`
    jam_time: float  # seconds without a card, the motor running, that make a jam

    @property
    def busy(self) -> bool:
        """A dispense is on its way (the motor may be running)."""

    @property
    def link_up(self) -> bool:
        """The launcher can be reached (the Pi's own pins always can)."""

    @property
    def in_flight(self) -> int:
        """Cards on their way out that its record must count as dealt already (0 or 1)."""

    @property
    def sent(self) -> Sent | None:
        """The dispense a controller is running, for the record (none on the Pi's pins)."""

    @property
    def card_in_slot(self) -> bool:
        """A card sticks out of the slot now, that the beam has not counted."""

    def dispense(self, count: int) -> None:
        """Send out exactly `count` more cards (added to any still owed)."""

    def resume(self) -> None:
        """Go on with the cards still owed, after a jam was cleared or the hopper refilled."""

    def recheck(self) -> None:
        """The record of the cards owed was written: what waited for it may go on."""

    def restore(self, sent: Sent) -> None:
        """Take up the dispense a daemon before this one sent, from the record."""

    def edge(self, name: str, active: bool, time: float) -> None:
        """An edge of the launcher's own inputs on the Pi's pins (the beam, the hopper
        switch), at its own time."""

    async def halt(self, settle: Callable[[], None]) -> None:
        """Stop the motor for good, its last counts heard out (a controller that does not
        confirm is left to its watchdog, and the log says so). `settle()` hands on the edges
        of the launcher's own inputs on the Pi's pins still waiting to be, once the motor is
        off and before the last count."""

    def close(self) -> None:
        """Let go of what it holds (a port, a thread)."""

    async def closed(self) -> None:
        """After `close`: wait until what it held is let go of (a port closes in a worker
        thread)."""
