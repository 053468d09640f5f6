"""The table's own host (hardware.serial_ejector) in a conversation of firmware/vectors.json: on
a virtual clock in the conversation's microseconds, its port a script that hands it the
launcher's bytes, opens and closes; what it writes goes to `write`. The vectors' writer
(write_vectors.py) talks with it, and the host's tests (tests/hardware/test_protocol_vectors.py)
replay it against the steps."""

from __future__ import annotations

from collections.abc import Callable

from hardware.clock import VirtualClock
from hardware.ejector import CardCounted, Report
from hardware.serial_dispense import Sent
from hardware.serial_ejector import SerialEjector

US = 1_000_000


class TableHost:
    def __init__(self, write: Callable[[bytes], None], now: int, first_id: int) -> None:
        self._write = write
        self.clock = VirtualClock(now / US)
        self.reports: list[Report] = []
        self._start(first_id)

    def _start(self, first_id: int) -> None:
        self.ejector = SerialEjector(
            "the conversation's line",
            clock=self.clock,
            on_report=self.reports.append,
            first_id=first_id,
            carrier=self._carrier,
        )

    def _carrier(self, *_port_and_baud: object, **callbacks: Callable) -> TableHost:
        # Made as hardware.serial_line.SerialLine is: on_open(write), on_data(bytes), on_lost().
        on_open = callbacks["on_open"]
        self.opened = lambda: on_open(self._write)
        self.receive = callbacks["on_data"]
        self.lost = callbacks["on_lost"]
        return self

    def close(self) -> None:
        """The port let go (the carrier's own `close`): nothing to do for a script."""

    async def closed(self) -> None:
        """Nothing is held open by a script."""

    @property
    def counted(self) -> int:
        """The cards the host has counted out."""
        return sum(isinstance(r, CardCounted) for r in self.reports)

    def next_due(self) -> int | None:
        due = self.clock.next_due()
        return None if due is None else round(due * US)

    def advance(self, now: int) -> None:
        """Run what falls due by `now`, each at its own time; the clock is then `now`."""
        while (due := self.next_due()) is not None and due <= now:
            self.clock.run_next(due / US)
        if now / US > self.clock.now():
            self.clock.set(now / US)

    def act(self, what: str) -> None:
        """What the table asks of its launcher: "asks N" cards, or "resumes" after a jam."""
        if what == "resumes":
            self.ejector.resume()
        else:
            self.ejector.dispense(int(what.removeprefix("asks ")))

    def restart(self, record: Sent | None, owed: int, first_id: int) -> None:
        """The daemon starts again (it died: no goodbye) and takes up its record of the cards
        owed: the dispense on its way under its id, and the cards still owed."""
        self.lost()
        self._start(first_id)
        if record is not None:
            self.ejector.restore(record)
        self.ejector.dispense(owed)
        self.opened()
